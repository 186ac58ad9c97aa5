//! The benchmark's synthetic game, small: un-moves agree with moves, both solver paths agree,
//! and the solution is exact.

#[path = "../../benches/synthetic.rs"]
mod game;

use endgame_core::Retrograde;
use endgame_core::conformance::{check_solution, check_unmoves};
use game::Synthetic;

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

/// A solve stops with `Cancelled` when its flag is set before it starts or while it runs (from
/// its own progress callback, in the start pass and in the level passes), under both solver
/// paths and every cell size; with the flag never set it gives the same solution as without one.
#[test]
fn a_solve_stops_when_cancelled() {
    use endgame_core::{CellSize, Phase, Progress, SolveError};
    use std::sync::atomic::{AtomicBool, Ordering};
    let game = Synthetic::new(100_000);
    let plain = Retrograde::new().solve_with_unmoves(&game).unwrap();
    for cells in [CellSize::Four, CellSize::Two, CellSize::One] {
        let never = AtomicBool::new(false);
        let solved = Retrograde::new().cell_size(cells).cancel(&never).solve_with_unmoves(&game).unwrap();
        assert!(solved.values().eq(plain.values()));
        let set = AtomicBool::new(true);
        let solver = Retrograde::new().cell_size(cells).cancel(&set);
        assert_eq!(solver.solve_with_unmoves(&game).err(), Some(SolveError::Cancelled));
        assert_eq!(solver.solve(&game).err(), Some(SolveError::Cancelled));
        // (The draws of this game take one level: a flag set by its report stops nothing.)
        for phase in [Phase::Start, Phase::WinsAndLosses] {
            let flag = AtomicBool::new(false);
            let later = |p: Progress| {
                if p.phase == phase {
                    flag.store(true, Ordering::Relaxed);
                }
            };
            let solver = Retrograde::new().cell_size(cells).cancel(&flag).progress(&later);
            assert_eq!(
                solver.solve_with_unmoves(&game).err(),
                Some(SolveError::Cancelled),
                "{cells:?} {phase:?}"
            );
        }
    }
}

/// The solver that builds reverse edges stops too when the flag is set by the first report of
/// each of its phases, the reverse edges' included (a cancelled pass leaves the edges
/// incomplete: the solve must not go on with them).
#[test]
fn a_solve_with_reverse_edges_stops_in_every_phase() {
    use endgame_core::{Phase, Progress, SolveError};
    use std::sync::atomic::{AtomicBool, Ordering};
    let game = Synthetic::new(100_000);
    for phase in [Phase::Start, Phase::ReverseEdges, Phase::WinsAndLosses] {
        let flag = AtomicBool::new(false);
        let report = |p: Progress| {
            if p.phase == phase {
                flag.store(true, Ordering::Relaxed);
            }
        };
        let stopped = Retrograde::new().progress(&report).cancel(&flag).solve(&game).err();
        assert!(flag.load(Ordering::Relaxed), "{phase:?} was reported");
        assert_eq!(stopped, Some(SolveError::Cancelled), "{phase:?}");
    }
}
