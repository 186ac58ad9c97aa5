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

/// A cancelled solve stops with `SolveError::Cancelled` on both paths, whenever the flag is
/// set (before the start, or from a progress report in the middle); an unset flag changes
/// nothing.
#[test]
fn a_cancelled_solve_stops_on_both_paths() {
    use endgame_core::{Cancel, Phase, SolveError};
    let game = Synthetic::new(100_000);
    let set = Cancel::new();
    set.cancel();
    assert_eq!(Retrograde::new().cancel(&set).solve(&game).err(), Some(SolveError::Cancelled));
    assert_eq!(Retrograde::new().cancel(&set).solve_with_unmoves(&game).err(), Some(SolveError::Cancelled));
    assert_eq!(
        Retrograde::new().compact(true).cancel(&set).solve_with_unmoves(&game).err(),
        Some(SolveError::Cancelled)
    );
    // Set by the first report of each phase (this game has no drawn line with a distance, so
    // no pass over draws).
    for phase in [Phase::Start, Phase::ReverseEdges, Phase::WinsAndLosses] {
        let cancel = Cancel::new();
        let report = |p: endgame_core::Progress| {
            if p.phase == phase {
                cancel.cancel();
            }
        };
        let solver = Retrograde::new().progress(&report).cancel(&cancel);
        let stopped = solver.solve(&game).err();
        assert!(cancel.is_cancelled(), "{phase:?} was reported");
        assert_eq!(stopped, Some(SolveError::Cancelled), "{phase:?}");
    }
    let unset = Cancel::new();
    let a = Retrograde::new().cancel(&unset).solve_with_unmoves(&game).unwrap();
    let b = Retrograde::new().solve_with_unmoves(&game).unwrap();
    assert!(a.values().eq(b.values()));
}
