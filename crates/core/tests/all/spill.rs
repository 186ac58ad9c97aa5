//! The start pass's lists through a scratch file (`Retrograde::spill_above`) against the same
//! solve with the lists in memory, on random games large enough for several windows of the
//! start pass (their values are checked against the oracle in `retrograde_oracle`, which also
//! runs the spilling path on its small games): the same value and the same escapes at every
//! position, for every cell size, by un-moves and by reverse edges; no scratch file left
//! behind; a directory that cannot take one is an error, not a wrong solution.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use endgame_core::explicit::ExplicitGame;
use endgame_core::{CellSize, Plies, Retrograde, SolveError, Value};
use proptest::prelude::*;

/// A fresh empty directory for scratch files.
fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("endgame-spill-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A random game of `n` positions from `seed`: moves to nearby and far positions, terminal
/// values and known moves of short and long distances (long ones past what a 1-byte cell
/// holds), a few holes.
fn random_game(n: usize, seed: u64) -> ExplicitGame {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |m: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % m
    };
    let holes: Vec<bool> = (0..n).map(|p| p > 0 && next(40) == 0).collect();
    let mut edges = Vec::with_capacity(n);
    let mut extra = Vec::new();
    for p in 0..n {
        let k = next(4) as usize;
        let mut moves: Vec<usize> = (0..k)
            .map(|_| if next(3) == 0 { next(n as u64) as usize } else { (p + 1 + next(50) as usize) % n })
            .filter(|&q| !holes[q])
            .collect();
        moves.sort_unstable();
        edges.push(moves);
        let value = |d: u64, kind: u64| match kind {
            0 => Value::win_in(d as u32),
            1 => Value::loss_in(d as u32),
            2 => Value::Draw(Some(Plies(d as u32))),
            _ => Value::Draw(None),
        };
        let d = if next(8) == 0 { 55 + next(20) } else { next(12) };
        extra.push((next(10) == 0, value(d, next(4)), next(3) as usize, value(next(80), next(4))));
    }
    // Holes and terminal positions in one rebuild each (one at a time is quadratic).
    let mut game = ExplicitGame::new(edges).with_holes((0..n).filter(|&p| holes[p]));
    let mut terminals = Vec::new();
    for (p, (terminal, t, known, k)) in extra.into_iter().enumerate() {
        if holes[p] {
            continue;
        } else if terminal {
            terminals.push((p, t));
        } else {
            for _ in 0..known {
                game = game.with_known_move(p, k);
            }
        }
    }
    game.with_terminals(terminals)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    /// Several windows of 16,384 positions: the lists of each spilled before the next.
    #[test]
    fn spilled_lists_give_the_solution_of_lists_in_memory(seed in any::<u64>(), n in 40_000usize..90_000) {
        let game = random_game(n, seed);
        let dir = scratch_dir(&format!("same-{seed}"));
        for cells in [CellSize::One, CellSize::Two, CellSize::Four] {
            let memory = Retrograde::new().cell_size(cells).spill_above(u64::MAX);
            let spilled = Retrograde::new().cell_size(cells).spill_above(0).scratch_dir(&dir);
            let expected = memory.solve_with_unmoves(&game).unwrap();
            let by_unmoves = spilled.solve_with_unmoves(&game).unwrap();
            let by_edges = spilled.solve(&game).unwrap();
            prop_assert_eq!(by_unmoves.escapes(), expected.escapes());
            for p in 0..n {
                prop_assert_eq!(by_unmoves.value(p), expected.value(p), "position {} ({:?}, un-moves)", p, cells);
                prop_assert_eq!(by_edges.value(p), expected.value(p), "position {} ({:?}, reverse edges)", p, cells);
            }
        }
        // The scratch files are gone.
        prop_assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn a_missing_scratch_directory_is_an_error() {
    let game = random_game(1000, 7);
    let dir = scratch_dir("missing").join("not-there");
    let err = Retrograde::new()
        .compact(true)
        .spill_above(0)
        .scratch_dir(&dir)
        .solve_with_unmoves(&game)
        .unwrap_err();
    let SolveError::Scratch(why) = &err else { panic!("{err:?}") };
    assert!(why.contains("not-there"), "{why}");
    assert!(err.to_string().contains("scratch file"), "{err}");
    // Below the threshold no scratch file is made: the same solve succeeds.
    assert!(Retrograde::new().compact(true).scratch_dir(&dir).solve_with_unmoves(&game).is_ok());
}

#[test]
fn a_cancelled_spilling_solve_leaves_no_scratch_file() {
    let game = random_game(50_000, 3);
    let dir = scratch_dir("cancelled");
    let cancel = AtomicBool::new(true);
    let solver = Retrograde::new().compact(true).spill_above(0).scratch_dir(&dir).cancel(&cancel);
    assert_eq!(solver.solve_with_unmoves(&game).unwrap_err(), SolveError::Cancelled);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The estimate of a spilling solve counts a window instead of a quarter byte per position.
#[test]
fn the_estimate_of_a_spilling_solve_is_smaller() {
    let n = 1u64 << 32;
    let memory = Retrograde::new().compact(true).spill_above(u64::MAX).memory_estimate(n);
    let spilled = Retrograde::new().compact(true).memory_estimate(n);
    assert_eq!(memory - spilled, n / 4 - (16 << 20) - n / 256);
    let small = endgame_core::SPILL_ABOVE - 1;
    assert_eq!(
        Retrograde::new().compact(true).memory_estimate(small),
        small + small / 8 + small / 4 + (1 << 20)
    );
}
