//! Solves tic-tac-toe and prints the value of every first move, up to symmetry.
//!
//! `cargo run -p endgame-core --example tictactoe`

mod game;

use endgame_core::{Retrograde, Successor, scored_moves};
use game::{SYMMETRIES, TicTacToe, transform};

fn main() {
    let solution = Retrograde::new().solve_with_unmoves(&TicTacToe).expect("a small game");
    println!("empty board, X to move: {}", solution.value(0).expect("a position"));
    let mut shown = Vec::new();
    for m in scored_moves(&TicTacToe, &solution, 0) {
        let Successor::Position(board) = m.to else { continue };
        let canonical = SYMMETRIES.iter().map(|s| transform(board, s)).min();
        if !shown.contains(&canonical) {
            shown.push(canonical);
            println!("  X in row {}, column {}: {}", m.mv / 3 + 1, m.mv % 3 + 1, m.value);
        }
    }
}
