//! Writes a random legal Twixt game in the POJ 2706 judge format to standard output.
//!
//! `cargo run --release -p endgame-twixt --example twixt_gen -- [N] [M] [SEED]` (defaults: the
//! benchmark's N = 2000, M = 400001, seed 1). M must be odd (Black moves last).
//!
//! `... --example twixt_gen -- collide [N] [M] [SEED]` writes a hostile record instead: M points
//! that all collide under the fixed hash the peg map once used
//! ([`endgame_twixt::generate::colliding_points`]; defaults N = 2^30, M = 50001, about 1 MiB).

use std::io::Write;

use endgame_twixt::Config;
use endgame_twixt::generate::{colliding_points, judge_text, random_game};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let collide = args.first().is_some_and(|a| a == "collide");
    if collide {
        args.remove(0);
    }
    let args: Vec<u64> = args.iter().map(|a| a.parse().expect("numbers: N M SEED")).collect();
    let n = args.first().copied().unwrap_or(if collide { 1 << 30 } else { 2000 });
    let m = args.get(1).copied().unwrap_or(if collide { 50_001 } else { 400_001 });
    let seed = args.get(2).copied().unwrap_or(1);
    assert!(m % 2 == 1, "M must be odd");
    let points = if collide {
        colliding_points(i32::try_from(n).expect("N fits in 32 bits"), m as usize, seed)
    } else {
        random_game(n as i64, m as usize, Config::POJ, seed).expect("the board is too small for M moves")
    };
    std::io::stdout().lock().write_all(judge_text(n as i64, &points).as_bytes()).expect("writing the game");
}
