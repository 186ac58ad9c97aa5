//! `endgame demo`: bundled examples of every game, explained for a newcomer.

use std::io::Write;

use crate::failure::Failure;
use crate::output;

/// A game's demo: writes its examples and what they show.
pub type Demo = fn(&mut dyn Write) -> Result<(), Failure>;

/// Every game's demo, one entry per game that has landed.
pub const DEMOS: &[Demo] =
    &[crate::xiangqi::demo, crate::twixt::demo, crate::cheesy::demo, crate::marine::demo];

/// Runs every demo.
pub fn run() -> Result<(), Failure> {
    let mut out = output::stdout();
    writeln!(out, "endgame {}: exact solutions of small board games.", env!("CARGO_PKG_VERSION"))?;
    if DEMOS.is_empty() {
        writeln!(out, "No game has landed yet.")?;
    }
    for demo in DEMOS {
        writeln!(out)?;
        demo(&mut out)?;
    }
    out.flush()?;
    Ok(())
}
