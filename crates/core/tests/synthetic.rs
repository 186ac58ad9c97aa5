//! The benchmark's synthetic game, small: un-moves agree with moves, both solver paths agree,
//! and the solution is exact.

#[path = "../benches/synthetic.rs"]
mod synthetic;

use endgame_core::Retrograde;
use endgame_core::conformance::{check_solution, check_unmoves};
use synthetic::Synthetic;

#[test]
fn synthetic_game_solves_exactly() {
    let game = Synthetic::new(100_000);
    check_unmoves(&game).unwrap();
    let a = Retrograde::new().solve_with_unmoves(&game).unwrap();
    let b = Retrograde::new().solve(&game).unwrap();
    assert!(a.values().eq(b.values()));
    check_solution(&game, &a).unwrap();
    let s = a.summary();
    // The game has wins, losses and draws, and long lines: it exercises every part.
    assert!(s.wins > 0 && s.losses > 0 && s.draws > 0, "{s:?}");
    assert!(s.longest_win > 5, "{s:?}");
}
