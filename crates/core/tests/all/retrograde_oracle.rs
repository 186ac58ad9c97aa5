//! The retrograde solver against a deliberately simple oracle on random games with cycles.
//!
//! The oracle iterates the minimax equations round by round: in round `r` a position becomes a
//! win in `r` if some move reaches a loss in `r - 1`, and a loss in `r` if every move reaches
//! a win in at most `r - 1`. Whatever is never decided is a draw; draws that can reach a drawn
//! end get the shortest such distance by the same kind of rounds. No counters, no queues, no
//! reverse edges: O(n^2) and obviously the definition.

use endgame_core::conformance::{check_solution, check_unmoves};
use endgame_core::explicit::ExplicitGame;
use endgame_core::{CellSize, Game, Plies, Retrograde, Successor, Value};
use proptest::prelude::*;

pub(crate) fn oracle(game: &ExplicitGame) -> Vec<Option<Value>> {
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

pub(crate) fn any_value() -> impl Strategy<Value = Value> + Clone {
    value_in(0..4)
}

/// Values with distances in `range`.
fn value_in(range: std::ops::Range<u32>) -> impl Strategy<Value = Value> + Clone {
    prop_oneof![
        range.clone().prop_map(Value::win_in),
        range.clone().prop_map(Value::loss_in),
        range.prop_map(|d| Value::Draw(Some(Plies(d)))),
        Just(Value::Draw(None)),
    ]
}

/// Values around the largest distance a 1-byte cell holds itself (longer ones are escaped).
pub(crate) fn long_value() -> impl Strategy<Value = Value> + Clone {
    let edge = endgame_core::retrograde::MAX_BYTE_PAYLOAD;
    prop_oneof![value_in(0..4), value_in(edge - 6..edge + 4)]
}

/// A random game: some holes, some terminal positions, moves to random positions (cycles and
/// repeated moves included) and some moves out of the index with known values.
fn any_game() -> impl Strategy<Value = ExplicitGame> {
    game_of(any_value())
}

/// A random game whose terminal and known values come from `values`.
fn game_of<V: Strategy<Value = Value> + Clone>(values: V) -> impl Strategy<Value = ExplicitGame> {
    game_sized(1..40, values)
}

/// A random game of `sizes` positions whose terminal and known values come from `values`.
pub(crate) fn game_sized<V: Strategy<Value = Value> + Clone>(
    sizes: std::ops::Range<usize>,
    values: V,
) -> impl Strategy<Value = ExplicitGame> {
    sizes.prop_flat_map(move |n| {
        let node = (
            prop::collection::vec(0..n, 0..5),
            prop::option::weighted(0.12, values.clone()),
            prop::collection::vec(values.clone(), 0..4),
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
        let two = Retrograde::new().cell_size(CellSize::Two).solve(&game).unwrap();
        let two_unmoves = Retrograde::new().cell_size(CellSize::Two).solve_with_unmoves(&game).unwrap();
        // 8-byte position numbers, as indices of u32::MAX positions or more get them.
        let wide_positions = Retrograde::new().compact(true).wide_positions(true).solve_with_unmoves(&game).unwrap();
        // The start pass's lists through a scratch file, as large solves keep them.
        let spilled = Retrograde::new().compact(true).spill_above(0).solve_with_unmoves(&game).unwrap();
        let spilled_edges = Retrograde::new().spill_above(0).solve(&game).unwrap();
        prop_assert_eq!(compact.bytes_per_position(), 1);
        for p in 0..game.num_positions() {
            prop_assert_eq!(by_edges.value(p), expected[p], "position {} (reverse edges)", p);
            prop_assert_eq!(by_unmoves.value(p), expected[p], "position {} (un-moves)", p);
            prop_assert_eq!(compact.value(p), expected[p], "position {} (1-byte)", p);
            prop_assert_eq!(compact_unmoves.value(p), expected[p], "position {} (1-byte, un-moves)", p);
            prop_assert_eq!(two.value(p), expected[p], "position {} (2-byte)", p);
            prop_assert_eq!(two_unmoves.value(p), expected[p], "position {} (2-byte, un-moves)", p);
            prop_assert_eq!(wide_positions.value(p), expected[p], "position {} (8-byte position numbers)", p);
            prop_assert_eq!(spilled.value(p), expected[p], "position {} (lists spilled)", p);
            prop_assert_eq!(spilled_edges.value(p), expected[p], "position {} (lists spilled, reverse edges)", p);
        }
        prop_assert_eq!(check_solution(&game, &by_edges), Ok(()));
        prop_assert_eq!(check_unmoves(&game), Ok(()));
    }

    /// Distances on both sides of what a 1-byte cell holds itself: the escapes.
    #[test]
    fn byte_cells_escape_long_distances(game in game_of(long_value())) {
        let expected = oracle(&game);
        let byte = Retrograde::new().cell_size(CellSize::One).solve(&game).unwrap();
        let byte_unmoves = Retrograde::new().cell_size(CellSize::One).solve_with_unmoves(&game).unwrap();
        let wide_positions =
            Retrograde::new().cell_size(CellSize::One).wide_positions(true).solve_with_unmoves(&game).unwrap();
        let spilled = Retrograde::new().cell_size(CellSize::One).spill_above(0).solve_with_unmoves(&game).unwrap();
        prop_assert_eq!(wide_positions.escapes(), byte_unmoves.escapes());
        prop_assert_eq!(spilled.escapes(), byte_unmoves.escapes());
        for p in 0..game.num_positions() {
            prop_assert_eq!(spilled.value(p), expected[p], "position {} (1-byte, lists spilled)", p);
            prop_assert_eq!(wide_positions.value(p), expected[p], "position {} (1-byte, 8-byte numbers)", p);
            prop_assert_eq!(byte.value(p), expected[p], "position {} (1-byte)", p);
            prop_assert_eq!(byte_unmoves.value(p), expected[p], "position {} (1-byte, un-moves)", p);
        }
    }
}

#[test]
fn byte_cells_hold_long_chains_and_fall_back_for_many_moves() {
    let limit = endgame_core::retrograde::MAX_BYTE_PAYLOAD as usize;
    // A chain of 3 * limit positions: most distances are escaped.
    let n = 3 * limit;
    let chain = ExplicitGame::new((0..n).map(|i| if i + 1 < n { vec![i + 1] } else { vec![] }).collect());
    let wide = Retrograde::new().solve(&chain).unwrap();
    let byte = Retrograde::new().compact(true).solve_with_unmoves(&chain).unwrap();
    assert_eq!(byte.bytes_per_position(), 1);
    assert_eq!(byte.escapes(), n - (limit - 1) - 1);
    assert!((0..n).all(|p| byte.value(p) == wide.value(p)));
    // Read back from values, as a table file gives them.
    let back = endgame_core::Solution::from_values_bytes(wide.values()).unwrap();
    assert_eq!(back.escapes(), byte.escapes());
    assert!((0..n).all(|p| back.value(p) == wide.value(p)));
    // A position with more moves than a byte counts: the solver uses 2-byte cells.
    let mut edges = vec![vec![1; limit + 5], vec![2], vec![0]];
    edges[1].push(0);
    let game = ExplicitGame::new(edges).with_known_move(2, Value::win_in(3));
    let byte = Retrograde::new().cell_size(CellSize::One).solve_with_unmoves(&game).unwrap();
    assert_eq!(byte.bytes_per_position(), 2);
    let wide = Retrograde::new().solve(&game).unwrap();
    assert!((0..3).all(|p| byte.value(p) == wide.value(p)));
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
        Retrograde::new().cell_size(CellSize::Two).solve(&game).unwrap_err(),
        endgame_core::SolveError::DistanceTooLarge
    );
    assert_eq!(Retrograde::new().solve(&game).unwrap().value(1), Some(Value::loss_in(limit + 1)));
    // A chain longer than the compact limit.
    let n = limit as usize + 10;
    let chain = ExplicitGame::new((0..n).map(|i| if i + 1 < n { vec![i + 1] } else { vec![] }).collect());
    assert!(Retrograde::new().cell_size(CellSize::Two).solve(&chain).is_err());
    assert_eq!(
        Retrograde::new().compact(true).solve(&chain).unwrap().value(0).and_then(|v| v.plies()),
        Some(endgame_core::Plies(n as u32 - 1))
    );
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
