//! Prints the README's table of the classic endgames ([`endgame_xiangqi::catalogue`]): for
//! each, its names, material, typical position, the result of that position and the statistics
//! of the material under `standard` rules, from the tables in `DIR` (generated first where they
//! are missing: about 1.1 billion indices, 113 files, with every material they need).
//!
//! ```text
//! cargo run --release -p endgame-xiangqi --example catalogue -- DIR
//! ```
use std::process::ExitCode;

use endgame_core::perpetual::RuleValue;
use endgame_xiangqi::catalogue::catalogue;
use endgame_xiangqi::{Material, Probe, Rules, Tablebases};

fn main() -> ExitCode {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: catalogue DIR (a table directory, as `endgame xiangqi generate --dir DIR`)");
        return ExitCode::from(2);
    };
    let store = Tablebases::open(&dir, Rules::Standard);
    let materials: Vec<Material> = catalogue().iter().map(|e| e.material()).collect();
    if let Err(e) = store.generate(&materials, &|_| {}) {
        eprintln!("{e}");
        return ExitCode::FAILURE;
    }
    println!(
        "| Chinese | English | Material | Typical position (Red to move) | Its result | Positions | Won by the side to move | Drawn | Lost | Longest win of Red |"
    );
    println!("|---|---|---|---|---|--:|--:|--:|--:|--:|");
    for e in catalogue() {
        let (value, stats) = match (store.probe(&e.position()), store.stats(e.material())) {
            (Ok(v), Ok(s)) => (v, s),
            (Err(err), _) | (_, Err(err)) => {
                eprintln!("{}: {err}", e.material);
                return ExitCode::FAILURE;
            }
        };
        let plies = |n: u32| if n == 1 { "1 ply".to_string() } else { format!("{n} plies") };
        let result = match value {
            RuleValue::Win(n) => format!("Red wins in {}", plies(n.0)),
            RuleValue::Loss(n) => format!("Black wins in {}", plies(n.0)),
            _ => "draw".to_string(),
        };
        let share = |n: u64| format!("{:.1} %", 100.0 * n as f64 / stats.positions.max(1) as f64);
        println!(
            "| {} | {} | `{}` | `{}` | {result} | {} | {} | {} | {} | {} plies |",
            e.chinese,
            e.english,
            e.material,
            e.fen,
            stats.positions,
            share(stats.wins),
            share(stats.draws),
            share(stats.losses),
            stats.longest_red_win_plies
        );
    }
    ExitCode::SUCCESS
}
