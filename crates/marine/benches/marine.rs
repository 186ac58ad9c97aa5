//! Solving times: the contest sample, the slowest contest-size case found by
//! `examples/marine_gen.rs slowest`, and an 8 x 8 battle with three zerglings.

use endgame_core::search::Pruning;
use endgame_marine::{Battle, DEFAULT_ROUNDS};

fn main() {
    divan::main();
}

fn battle(text: &str) -> Battle {
    text.parse().expect("a bundled battle")
}

#[divan::bench]
fn contest_sample(bencher: divan::Bencher) {
    let b = battle(include_str!("../tests/data/sample.in"));
    bencher.bench(|| b.solve(DEFAULT_ROUNDS, Pruning::ALL).rounds());
}

#[divan::bench]
fn contest_slowest(bencher: divan::Bencher) {
    let b = battle(include_str!("../tests/data/slowest.in"));
    bencher.bench(|| b.solve(DEFAULT_ROUNDS, Pruning::ALL).rounds());
}

#[divan::bench]
fn judge_sample(bencher: divan::Bencher) {
    let input = include_str!("../tests/data/sample.in");
    bencher.bench(|| {
        let mut out = Vec::new();
        endgame_marine::judge::run(input, &mut out).map(|()| out)
    });
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn battle_8x8_three_zerglings(bencher: divan::Bencher) {
    let b = battle(include_str!("../tests/data/battle8.txt"));
    bencher.bench(|| b.solve(70, Pruning::ALL).rounds());
}
