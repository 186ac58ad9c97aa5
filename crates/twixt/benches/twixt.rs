//! Micro-benchmarks: the judge on a long random game, and threats after it.

use endgame_twixt::generate::{judge_text, random_game};
use endgame_twixt::{Color, Config, Move, Position};

fn main() {
    divan::main();
}

/// `endgame judge poj2706` on a random legal game of `moves` moves on N = 2000.
#[divan::bench(args = [10_001, 100_001, 400_001], sample_count = 5)]
fn judge_random_game(bencher: divan::Bencher, moves: usize) {
    let points = random_game(2000, moves, Config::POJ, 1).unwrap();
    let input = judge_text(2000, &points);
    bencher.bench(|| {
        let mut out = Vec::new();
        endgame_twixt::judge::run(divan::black_box(&input), &mut out).unwrap();
        out
    });
}

/// Every immediate win of both sides after 100,001 moves on N = 2000.
#[divan::bench(sample_count = 5)]
fn threats_after_100k_moves(bencher: divan::Bencher) {
    let points = random_game(2000, 100_001, Config::POJ, 2).unwrap();
    let mut game = Position::new(2000, Config::POJ).unwrap();
    for p in points {
        game.play(Move::Place(p)).unwrap();
    }
    bencher.bench(|| (game.threats(Color::Black).len(), game.threats(Color::White).len()));
}
