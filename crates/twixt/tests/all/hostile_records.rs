//! Records that choose their points to slow the peg map down (hash flooding) cost the map the
//! same work as random points: the map's own count of examined slots
//! ([`endgame_twixt::Position::map_probes`]) is compared, not times.

use endgame_twixt::generate::{XorShift, colliding_points, judge_text, old_point_hash};
use endgame_twixt::{Point, Record, replay};

/// The slots examined when `points` are replayed as a judge record on a board `0..=n`.
fn probes(n: i32, points: &[Point]) -> u64 {
    let record = Record::parse(&judge_text(n.into(), points), None).unwrap();
    let played = replay::replay(&record, record.default_config()).unwrap();
    assert_eq!(played.steps.len(), points.len());
    played.position.map_probes()
}

fn random_points(n: i32, count: usize, seed: u64) -> Vec<Point> {
    let mut rng = XorShift::new(seed);
    let mut seen = std::collections::HashSet::new();
    let mut points = Vec::new();
    while points.len() < count {
        let p = Point::new(1 + rng.below(n as u64 - 1) as i32, 1 + rng.below(n as u64 - 1) as i32);
        if seen.insert(p) {
            points.push(p);
        }
    }
    points
}

#[test]
fn a_colliding_record_costs_what_random_points_cost() {
    let n = 1 << 30;
    let count = 4001;
    let hostile = colliding_points(n, count, 7);
    // The record is hostile indeed: one bucket and one tag of any table of up to 2^24 buckets
    // under the old fixed hash (a table of 8,192 buckets would have examined about
    // count^2 / 2 = 8 million slots for these insertions alone).
    assert!(hostile.iter().all(|&p| old_point_hash(p) & (0xff_ffff | 0x7f << 57) == 0));
    let random = random_points(n, count, 7);
    let (h, r) = (probes(n, &hostile), probes(n, &random));
    // Each move looks up its point and its 8 knight neighbours (no neighbour is taken on a
    // board this large), at about 1.5 slots a look-up in a table at most half full.
    assert!(r < 9 * 2 * count as u64, "random points: {r} slots");
    assert!(h <= r + r / 5, "hostile {h} slots against random {r}");
}

#[test]
fn a_colliding_record_on_a_grid_costs_what_random_points_cost() {
    // N = 2000 is a grid: 2001^2 points. The points whose old hashes agree in the low 12 bits
    // (a full bucket of a 4,096-bucket table), found by brute force.
    let n = 2000;
    let mut buckets: std::collections::HashMap<u64, Vec<Point>> = std::collections::HashMap::new();
    for x in 1..n {
        for y in (1..n).step_by(7) {
            let p = Point::new(x, y);
            buckets.entry(old_point_hash(p) & 0xfff).or_default().push(p);
        }
    }
    let mut hostile = buckets.into_values().max_by_key(Vec::len).unwrap();
    hostile.truncate(if hostile.len() % 2 == 0 { hostile.len() - 1 } else { hostile.len() });
    assert!(hostile.len() > 100, "{}", hostile.len());
    let random = random_points(n, hostile.len(), 3);
    let (h, r) = (probes(n, &hostile), probes(n, &random));
    // A move looks up at most its point, its 8 neighbours and 9 blockers of each: on a grid
    // every look-up examines one slot.
    let bound = (1 + 8 + 8 * 9) * hostile.len() as u64;
    assert!(h <= bound && r <= bound, "hostile {h}, random {r}, bound {bound}");
    assert!(h <= r + r / 5, "hostile {h} slots against random {r}");
}

#[test]
fn a_cancelled_replay_stops_and_an_unset_flag_changes_nothing() {
    use replay::{ReplayError, replay_cancellable};
    use std::sync::atomic::AtomicBool;
    let n = 1 << 30;
    let record = Record::parse(&judge_text(n.into(), &random_points(n, 101, 1)), None).unwrap();
    let cancel = AtomicBool::new(true);
    let stopped = replay_cancellable(&record, record.default_config(), &cancel).unwrap_err();
    assert!(matches!(stopped, ReplayError::Cancelled(_)), "{stopped}");
    let played = replay_cancellable(&record, record.default_config(), &AtomicBool::new(false)).unwrap();
    assert_eq!(played.steps.len(), 101);
    // An illegal move is still an input error naming the move.
    let bad = Record::parse("7 3\n0 3 6 5 0 3\n", None).unwrap();
    let ReplayError::Input(e) =
        replay_cancellable(&bad, bad.default_config(), &AtomicBool::new(false)).unwrap_err()
    else {
        panic!("an input error")
    };
    assert_eq!(e.to_string(), "move 3 (line 2): (0,3) is already occupied");
}
