//! Battle files: parsing and printing agree, bundled battles solve consistently, and plans
//! replay to a win in exactly their length.

use endgame_core::search::Pruning;
use endgame_marine::{Action, Battle, DEFAULT_ROUNDS};
use proptest::prelude::*;

fn battle(text: &str) -> Battle {
    text.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// A win in `n` rounds replays to a win in `n` rounds, and no win exists within `n - 1`.
fn check_win(b: &Battle, limit: u32) -> Option<u32> {
    let solution = b.solve(limit, Pruning::ALL);
    let plan = solution.plan.as_ref()?;
    let actions: Vec<Action> = plan.iter().map(|t| t.action).collect();
    let replay = b.replay(&actions).expect("the plan is legal and the marine survives");
    assert!(replay.last().unwrap().won && replay[..replay.len() - 1].iter().all(|t| !t.won));
    assert_eq!(&replay, plan);
    let n = plan.len() as u32;
    assert_eq!(b.solve(n - 1, Pruning::ALL).rounds(), None);
    Some(n)
}

#[test]
fn the_demo_corner_is_won_in_its_stated_rounds() {
    let b = battle(include_str!("../../examples/corner.txt"));
    let n = check_win(&b, DEFAULT_ROUNDS).expect("the corner battle is a win");
    let mut text = String::new();
    b.write_solution(&b.solve(DEFAULT_ROUNDS, Pruning::ALL), &mut text).unwrap();
    assert!(text.starts_with(&format!("WIN in {n} rounds")));
    assert_eq!(text.matches("\nround ").count(), n as usize);
}

#[test]
fn the_sample_as_a_battle_file() {
    let b = battle(include_str!("../data/sample.in"));
    assert_eq!(check_win(&b, DEFAULT_ROUNDS), Some(30));
    let twin = battle(include_str!("../data/twin.in"));
    assert_eq!(twin.solve(DEFAULT_ROUNDS, Pruning::ALL).rounds(), None);
    // Enough HP for 2 z > 34: LOSE without a search.
    let hopeless = battle(&include_str!("../data/sample.in").replace("15 15", "16 18"));
    let solution = hopeless.solve(DEFAULT_ROUNDS, Pruning::ALL);
    assert_eq!((solution.rounds(), solution.stats.states), (None, 0));
    assert_eq!(hopeless.solve(DEFAULT_ROUNDS, Pruning::NONE).rounds(), None);
}

#[test]
fn the_8x8_battle_agrees_with_and_without_the_bound() {
    let b = battle(include_str!("../data/battle8.txt"));
    let all = b.solve(70, Pruning::ALL);
    let unbounded = b.solve(70, Pruning { bound: false, ..Pruning::ALL });
    assert_eq!(all.rounds(), unbounded.rounds());
    assert!(all.stats.states < unbounded.stats.states);
    // With ten zerglings' HP less to shoot, the same map is a win.
    let easier = battle(&include_str!("../data/battle8.txt").replace(" 15", " 12"));
    let n = check_win(&easier, 70).expect("a win");
    assert!(n >= 36);
}

fn battle_text() -> impl Strategy<Value = String> {
    (1..=6usize, 1..=6usize, 1..=4usize).prop_flat_map(|(rows, cols, k)| {
        (
            proptest::collection::vec(prop_oneof![Just('#'), Just('.'), Just('.')], rows * cols),
            Just(()).prop_perturb(move |_, mut rng| {
                let mut order: Vec<usize> = (0..rows * cols).collect();
                for i in (1..order.len()).rev() {
                    order.swap(i, rng.random_range(0..=i));
                }
                order
            }),
            1..=40u16,
            proptest::collection::vec(1..=20u8, k),
        )
            .prop_map(move |(mut cells, order, m, hps)| {
                let k = hps.len().min(rows * cols - 1);
                cells[order[0]] = 'M';
                for (i, label) in ['a', 'Z', 'q', 'z'].iter().take(k).enumerate() {
                    cells[order[i + 1]] = *label;
                }
                let mut text: String =
                    cells.chunks(cols).map(|r| r.iter().collect::<String>() + "\n").collect();
                text.push_str(&format!("\nM {m}\n"));
                for (label, hp) in ['a', 'Z', 'q', 'z'].iter().zip(&hps).take(k) {
                    text.push_str(&format!("{label} {hp}\n"));
                }
                text
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Printing a parsed battle gives the map back and a file that parses to the same battle
    /// (hit point lines come in map order); a file is refused only without zerglings.
    #[test]
    fn print_parse_round_trip(text in battle_text()) {
        match text.parse::<Battle>() {
            Ok(b) => {
                let printed = b.to_string();
                prop_assert_eq!(printed.split("\n\n").next(), text.split("\n\n").next());
                let mut lines: Vec<&str> = printed.lines().skip_while(|l| !l.is_empty()).collect();
                let mut given: Vec<&str> = text.lines().skip_while(|l| !l.is_empty()).collect();
                lines.sort_unstable();
                given.sort_unstable();
                prop_assert_eq!(lines, given);
                prop_assert_eq!(b.to_string().parse::<Battle>().unwrap(), b);
            }
            Err(e) => prop_assert!(!text.contains(['a', 'Z', 'q', 'z']), "{e}\n{text}"),
        }
    }
}

/// A cancelled search stops with `Cancelled` and no plan; an unset flag changes nothing.
#[test]
fn a_cancelled_solve_stops_and_an_unset_flag_changes_nothing() {
    use endgame_core::Stopped;
    use std::sync::atomic::AtomicBool;
    let big = battle(include_str!("../data/battle16.txt"));
    let cancel = AtomicBool::new(true);
    match big.solve_cancellable(100, Pruning::ALL, u64::MAX, &mut |_| {}, &cancel) {
        Err(Stopped::Cancelled(stats)) => assert!(stats.expanded <= endgame_core::CANCEL_EVERY, "{stats:?}"),
        other => panic!("{other:?}"),
    }
    let small = battle(include_str!("../data/battle8.txt"));
    let plain = small.solve(70, Pruning::ALL);
    let flagged =
        small.solve_cancellable(70, Pruning::ALL, u64::MAX, &mut |_| {}, &AtomicBool::new(false)).unwrap();
    assert_eq!((flagged.plan, flagged.stats), (plain.plan, plain.stats));
}
