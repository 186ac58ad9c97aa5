//! The crossing test and the derived blocking table against a general exact segment routine.

use crate::common::{KNIGHT, touch_other_than_shared_endpoint};
use endgame_twixt::geometry::{blockers, cross};
use endgame_twixt::{Dir, Point};

/// Every knight segment with both ends in the square `[lo, hi]^2`, each once.
fn segments(lo: i64, hi: i64) -> Vec<((i64, i64), (i64, i64))> {
    let mut v = Vec::new();
    for x in lo..=hi {
        for y in lo..=hi {
            for &(dx, dy) in &KNIGHT[..4] {
                let (ex, ey) = (x + i64::from(dx), y + i64::from(dy));
                if (lo..=hi).contains(&ex) && (lo..=hi).contains(&ey) {
                    v.push(((x, y), (ex, ey)));
                }
            }
        }
    }
    v
}

#[test]
fn general_routine_sanity() {
    // Proper crossing, touching at an interior point, shared endpoint, collinear overlap.
    assert!(touch_other_than_shared_endpoint((0, 0), (2, 2), (0, 2), (2, 0)));
    assert!(touch_other_than_shared_endpoint((0, 0), (2, 2), (1, 1), (3, 0)));
    assert!(!touch_other_than_shared_endpoint((0, 0), (2, 1), (2, 1), (4, 0)));
    assert!(touch_other_than_shared_endpoint((0, 0), (4, 2), (2, 1), (6, 3)));
    assert!(!touch_other_than_shared_endpoint((0, 0), (2, 1), (2, 1), (4, 2)));
    assert!(!touch_other_than_shared_endpoint((0, 0), (2, 1), (3, 1), (5, 2)));
    assert!(!touch_other_than_shared_endpoint((0, 0), (1, 2), (1, 0), (2, 2)));
}

#[test]
fn crossing_test_agrees_with_the_general_routine_on_every_pair_in_a_window() {
    let all = segments(0, 7);
    assert!(all.len() > 150);
    let mut crossings = 0;
    for (i, &(a, b)) in all.iter().enumerate() {
        for &(c, d) in &all[i + 1..] {
            let general = touch_other_than_shared_endpoint(a, b, c, d);
            assert_eq!(cross(a, b, c, d), general, "{a:?}-{b:?} vs {c:?}-{d:?}");
            assert_eq!(cross(c, d, a, b), general);
            crossings += usize::from(general);
        }
    }
    assert!(crossings > 500, "the window must contain many crossings, found {crossings}");
}

#[test]
fn blocking_table_is_exactly_the_crossing_segments() {
    // Around the origin, in a window much wider than the derivation's.
    let all = segments(-10, 10);
    for d in Dir::ALL {
        let (dx, dy) = d.delta();
        let target = (i64::from(dx), i64::from(dy));
        let mut expected: Vec<(i64, i64, (i64, i64))> = all
            .iter()
            // The link itself aside (a link is never made twice).
            .filter(|&&(c, e)| (c, e) != ((0, 0), target) && (c, e) != (target, (0, 0)))
            .filter(|&&(c, e)| touch_other_than_shared_endpoint((0, 0), target, c, e))
            .map(|&(c, e)| (c.0, c.1, (e.0 - c.0, e.1 - c.1)))
            .collect();
        let mut table: Vec<(i64, i64, (i64, i64))> = blockers(d)
            .iter()
            .map(|b| {
                let (ex, ey) = b.dir.delta();
                (i64::from(b.offset.0), i64::from(b.offset.1), (i64::from(ex), i64::from(ey)))
            })
            .collect();
        expected.sort_unstable();
        table.sort_unstable();
        assert_eq!(table, expected, "direction {d:?}");
        assert_eq!(table.len(), 9);
    }
    // Points are plain values.
    assert_eq!(Point::new(1, 2).transposed(), Point::new(2, 1));
}
