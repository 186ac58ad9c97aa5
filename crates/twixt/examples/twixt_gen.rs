//! Writes a random legal Twixt game in the POJ 2706 judge format to standard output.
//!
//! `cargo run --release -p endgame-twixt --example twixt_gen -- [N] [M] [SEED]` (defaults: the
//! benchmark's N = 2000, M = 400001, seed 1). M must be odd (Black moves last).

use std::io::Write;

use endgame_twixt::Config;
use endgame_twixt::generate::{judge_text, random_game};

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).map(|a| a.parse().expect("numbers: N M SEED")).collect();
    let n = args.first().copied().unwrap_or(2000);
    let m = args.get(1).copied().unwrap_or(400_001);
    let seed = args.get(2).copied().unwrap_or(1);
    assert!(m % 2 == 1, "M must be odd");
    let points =
        random_game(n as i64, m as usize, Config::POJ, seed).expect("the board is too small for M moves");
    std::io::stdout().lock().write_all(judge_text(n as i64, &points).as_bytes()).expect("writing the game");
}
