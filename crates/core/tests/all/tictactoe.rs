//! Tic-tac-toe, the worked example: known counts and values, and the conformance harness.

#[path = "../../examples/tictactoe/game.rs"]
mod game;

use std::collections::{HashSet, VecDeque};

use endgame_core::conformance::{check_index_round_trip, check_solution, check_symmetry, check_unmoves};
use endgame_core::{Game, Plies, Retrograde, Successor, Value, main_line};
use game::{SYMMETRIES, TicTacToe, transform};

fn reachable() -> HashSet<usize> {
    let mut seen = HashSet::from([0]);
    let mut queue = VecDeque::from([0]);
    while let Some(board) = queue.pop_front() {
        if TicTacToe.terminal(board).is_some() {
            continue;
        }
        TicTacToe.for_each_move(board, |_, to| {
            if let Successor::Position(next) = to
                && seen.insert(next)
            {
                queue.push_back(next);
            }
        });
    }
    seen
}

#[test]
fn counts_of_reachable_positions() {
    let boards = reachable();
    assert_eq!(boards.len(), 5478);
    let classes: HashSet<usize> =
        boards.iter().map(|&b| SYMMETRIES.iter().map(|s| transform(b, s)).min().unwrap()).collect();
    assert_eq!(classes.len(), 765);
}

#[test]
fn the_empty_board_is_a_draw_in_nine_plies() {
    let solution = Retrograde::new().solve(&TicTacToe).unwrap();
    assert_eq!(solution.value(0), Some(Value::Draw(Some(Plies(9)))));
    let line = main_line(&TicTacToe, &solution, 0, 20);
    assert_eq!(line.len(), 9);
    // X in a corner (cell 0), O on an edge next to it (cell 1): X, to move, wins.
    let board = 1 + 2 * 3;
    assert_eq!(solution.value(board).unwrap().wdl(), endgame_core::Wdl::Win);
    // X in a corner, O in the centre: a draw.
    assert_eq!(solution.value(1 + 2 * 81).unwrap().wdl(), endgame_core::Wdl::Draw);
}

#[test]
fn conformance() {
    let by_unmoves = Retrograde::new().solve_with_unmoves(&TicTacToe).unwrap();
    let by_edges = Retrograde::new().solve(&TicTacToe).unwrap();
    assert!(by_unmoves.values().eq(by_edges.values()));
    check_solution(&TicTacToe, &by_unmoves).unwrap();
    check_unmoves(&TicTacToe).unwrap();
    check_index_round_trip(&TicTacToe).unwrap();
    check_symmetry(&by_unmoves, |b| {
        if TicTacToe.is_position(b) {
            SYMMETRIES.iter().map(|s| transform(b, s)).collect()
        } else {
            Vec::new()
        }
    })
    .unwrap();
}
