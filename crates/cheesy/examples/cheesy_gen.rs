//! Random HDU 1680 judge input on standard output:
//! `cargo run --release -p endgame-cheesy --example cheesy_gen -- [CASES] [SEED]` (default 100000 1).
//! See [`endgame_cheesy::random::judge_input`] for the distribution.

use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u64| args.get(i).map_or(Ok(default), |a| a.parse::<u64>());
    let (Ok(cases), Ok(seed)) = (number(0, 100_000), number(1, 1)) else {
        eprintln!("usage: gen [CASES] [SEED]");
        std::process::exit(2);
    };
    let text = endgame_cheesy::random::judge_input(cases as usize, seed);
    if std::io::stdout().lock().write_all(text.as_bytes()).is_err() {
        std::process::exit(1);
    }
}
