//! Prints the table of the classic endgames in `docs/xiangqi.md` ([`endgame_xiangqi::catalogue`]): for
//! each, its names, material, typical position, the result of that position and the statistics
//! of the material under `standard` rules, from the tables in `DIR` (generated first where they
//! are missing: about 1.1 billion indices, 113 files, with every material they need).
//!
//! ```text
//! cargo run --release -p endgame-xiangqi --example catalogue -- DIR
//! ```
use std::process::ExitCode;

use endgame_xiangqi::catalogue::catalogue;
use endgame_xiangqi::{Material, Rules, Tablebases};

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
    match endgame_xiangqi::catalogue::table(&store) {
        Ok(table) => print!("{table}"),
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
