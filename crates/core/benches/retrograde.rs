//! Retrograde solver throughput on a synthetic game of 10^7 positions with cycles.
//!
//! `cargo bench -p endgame-core --bench retrograde`

mod synthetic;

use endgame_core::Retrograde;
use synthetic::Synthetic;

fn main() {
    divan::main();
}

/// Solving with the game's un-moves (4 bytes per position).
#[divan::bench(args = [1_000_000, 10_000_000], sample_count = 3, sample_size = 1)]
fn with_unmoves(bencher: divan::Bencher, n: usize) {
    let game = Synthetic::new(n);
    bencher.counter(divan::counter::ItemsCount::new(n)).bench(|| Retrograde::new().solve_with_unmoves(&game));
}

/// Solving with the game's un-moves and 2-byte cells.
#[divan::bench(args = [1_000_000, 10_000_000], sample_count = 3, sample_size = 1)]
fn compact_with_unmoves(bencher: divan::Bencher, n: usize) {
    let game = Synthetic::new(n);
    bencher
        .counter(divan::counter::ItemsCount::new(n))
        .bench(|| Retrograde::new().compact(true).solve_with_unmoves(&game));
}

/// Solving with reverse edges built by the solver.
#[divan::bench(args = [1_000_000, 10_000_000], sample_count = 3, sample_size = 1)]
fn with_reverse_edges(bencher: divan::Bencher, n: usize) {
    let game = Synthetic::new(n);
    bencher.counter(divan::counter::ItemsCount::new(n)).bench(|| Retrograde::new().solve(&game));
}
