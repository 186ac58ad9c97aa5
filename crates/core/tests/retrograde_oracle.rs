//! The retrograde solver against a deliberately simple oracle on random games with cycles.
//!
//! The oracle iterates the minimax equations round by round: in round `r` a position becomes a
//! win in `r` if some move reaches a loss in `r - 1`, and a loss in `r` if every move reaches
//! a win in at most `r - 1`. Whatever is never decided is a draw; draws that can reach a drawn
//! end get the shortest such distance by the same kind of rounds. No counters, no queues, no
//! reverse edges: O(n^2) and obviously the definition.

use endgame_core::conformance::{check_solution, check_unmoves};
use endgame_core::explicit::ExplicitGame;
use endgame_core::{Game, Plies, Retrograde, Successor, Value};
use proptest::prelude::*;

fn oracle(game: &ExplicitGame) -> Vec<Option<Value>> {
    let n = game.num_positions();
    let mut value: Vec<Option<Value>> = vec![None; n];
    let child = |value: &[Option<Value>], s: Successor| match s {
        Successor::Position(q) => value[q],
        Successor::Known(v) => Some(v),
    };
    for p in 0..n {
        if game.is_position(p) {
            value[p] =
                game.terminal(p).or(if game.moves_of(p).is_empty() { Some(Value::loss_in(0)) } else { None });
        }
    }
    let open: Vec<usize> = (0..n).filter(|&p| game.is_position(p) && value[p].is_none()).collect();
    let max_known = (0..n)
        .flat_map(|p| game.moves_of(p).iter().copied())
        .filter_map(|s| match s {
            Successor::Known(v) => v.plies().map(|d| d.0 as usize),
            Successor::Position(_) => None,
        })
        .chain((0..n).filter_map(|p| game.terminal(p).and_then(|v| v.plies()).map(|d| d.0 as usize)))
        .max()
        .unwrap_or(0);
    // Wins and losses.
    for r in 1..=(n + max_known + 2) as u32 {
        let before = value.clone();
        for &p in &open {
            if before[p].is_some() {
                continue;
            }
            let children: Vec<Option<Value>> = game.moves_of(p).iter().map(|&s| child(&before, s)).collect();
            if children.iter().any(|c| *c == Some(Value::loss_in(r - 1))) {
                value[p] = Some(Value::win_in(r));
            } else if children.iter().all(|c| matches!(c, Some(Value::Win(d)) if d.0 < r)) {
                value[p] = Some(Value::loss_in(r));
            }
        }
    }
    // Draws: the shortest line to a drawn end, else endless.
    let draws: Vec<usize> = open.iter().copied().filter(|&p| value[p].is_none()).collect();
    for r in 1..=(n + max_known + 2) as u32 {
        let before = value.clone();
        for &p in &draws {
            if before[p].is_none()
                && game
                    .moves_of(p)
                    .iter()
                    .any(|&s| child(&before, s) == Some(Value::Draw(Some(Plies(r - 1)))))
            {
                value[p] = Some(Value::Draw(Some(Plies(r))));
            }
        }
    }
    for &p in &draws {
        value[p].get_or_insert(Value::Draw(None));
    }
    value
}

fn any_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        (0u32..4).prop_map(Value::win_in),
        (0u32..4).prop_map(Value::loss_in),
        (0u32..4).prop_map(|d| Value::Draw(Some(Plies(d)))),
        Just(Value::Draw(None)),
    ]
}

/// A random game: some holes, some terminal positions, moves to random positions (cycles and
/// repeated moves included) and some moves out of the index with known values.
fn any_game() -> impl Strategy<Value = ExplicitGame> {
    (1usize..40).prop_flat_map(|n| {
        let node = (
            prop::collection::vec(0..n, 0..5),
            prop::option::weighted(0.12, any_value()),
            prop::collection::vec(any_value(), 0..4),
            prop::bool::weighted(0.08),
        );
        prop::collection::vec(node, n).prop_map(move |nodes| {
            let holes: Vec<bool> = nodes.iter().enumerate().map(|(i, node)| node.3 && i > 0).collect();
            let edges = nodes
                .iter()
                .map(|(targets, ..)| targets.iter().copied().filter(|&q| !holes[q]).collect())
                .collect();
            let mut game = ExplicitGame::new(edges);
            for (p, (_, terminal, known, _)) in nodes.into_iter().enumerate() {
                if holes[p] {
                    game = game.with_hole(p);
                    continue;
                }
                if let Some(v) = terminal {
                    game = game.with_terminal(p, v);
                }
                for v in known {
                    game = game.with_known_move(p, v);
                }
            }
            game
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn retrograde_agrees_with_the_oracle(game in any_game()) {
        let expected = oracle(&game);
        let by_edges = Retrograde::new().solve(&game).unwrap();
        let by_unmoves = Retrograde::new().solve_with_unmoves(&game).unwrap();
        let compact = Retrograde::new().compact(true).solve(&game).unwrap();
        let compact_unmoves = Retrograde::new().compact(true).solve_with_unmoves(&game).unwrap();
        for p in 0..game.num_positions() {
            prop_assert_eq!(by_edges.value(p), expected[p], "position {} (reverse edges)", p);
            prop_assert_eq!(by_unmoves.value(p), expected[p], "position {} (un-moves)", p);
            prop_assert_eq!(compact.value(p), expected[p], "position {} (compact)", p);
            prop_assert_eq!(compact_unmoves.value(p), expected[p], "position {} (compact, un-moves)", p);
        }
        prop_assert_eq!(check_solution(&game, &by_edges), Ok(()));
        prop_assert_eq!(check_unmoves(&game), Ok(()));
    }
}

#[test]
fn consistency_check_rejects_a_wrong_value() {
    let game = ExplicitGame::new(vec![vec![1], vec![2], vec![]]);
    let wrong = endgame_core::Solution::from_values([
        Some(Value::loss_in(3)),
        Some(Value::win_in(1)),
        Some(Value::loss_in(0)),
    ])
    .unwrap();
    assert!(check_solution(&game, &wrong).unwrap_err().contains("position 0"));
}

#[test]
fn compact_cells_refuse_distances_they_cannot_hold() {
    let limit = endgame_core::retrograde::MAX_COMPACT_PLIES;
    let game = ExplicitGame::new(vec![vec![], vec![]]).with_known_move(1, Value::win_in(limit));
    assert_eq!(
        Retrograde::new().compact(true).solve(&game).unwrap_err(),
        endgame_core::SolveError::DistanceTooLarge
    );
    assert_eq!(Retrograde::new().solve(&game).unwrap().value(1), Some(Value::loss_in(limit + 1)));
    // A chain longer than the compact limit.
    let n = limit as usize + 10;
    let chain = ExplicitGame::new((0..n).map(|i| if i + 1 < n { vec![i + 1] } else { vec![] }).collect());
    assert!(Retrograde::new().compact(true).solve(&chain).is_err());
    let far = Retrograde::new().solve(&chain).unwrap().value(0).unwrap();
    assert_eq!(far.plies(), Some(endgame_core::Plies(n as u32 - 1)));
}

#[test]
fn a_capture_is_a_win_in_one_and_cycles_are_draws() {
    // 0 <-> 1 cycle; 2 can capture (known loss in 0 for the opponent) or go to the cycle.
    let game = ExplicitGame::new(vec![vec![1], vec![0], vec![0]]).with_known_move(2, Value::loss_in(0));
    let s = Retrograde::new().solve(&game).unwrap();
    assert_eq!(s.value(0), Some(Value::Draw(None)));
    assert_eq!(s.value(2), Some(Value::win_in(1)));
    let summary = s.summary();
    assert_eq!((summary.wins, summary.draws, summary.losses, summary.longest_win), (1, 2, 0, 1));
}
