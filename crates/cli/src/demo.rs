//! `endgame demo`: bundled examples of every game, explained for a newcomer.

use std::io::Write;

use crate::failure::Failure;
use crate::output;

/// A game's demo: writes its examples and what they show.
pub type Demo = fn(&mut dyn Write) -> Result<(), Failure>;

/// Every game's demo with its heading (`== <game> (<contest>)`), one entry per game.
pub const DEMOS: &[(&str, Demo)] = &[
    ("Xiangqi (HDU 5897 \"The Game\")", crate::xiangqi::demo),
    ("Twixt (POJ 2706 \"Connect\")", crate::twixt::demo),
    ("Cheesy Chess (HDU 1680 \"Cheesy Chess\")", crate::cheesy::demo),
    ("Marine (BZOJ 2205)", crate::marine::demo),
];

/// Runs every demo.
pub fn run() -> Result<(), Failure> {
    let mut out = output::stdout();
    writeln!(out, "endgame {}: exact solutions of small board games.", env!("CARGO_PKG_VERSION"))?;
    if DEMOS.is_empty() {
        writeln!(out, "No game has landed yet.")?;
    }
    for (heading, demo) in DEMOS {
        writeln!(out)?;
        writeln!(out, "== {heading}")?;
        demo(&mut out)?;
    }
    out.flush()?;
    Ok(())
}
