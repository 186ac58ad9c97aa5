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

/// What to try after the demo: the explorer and generation.
const NEXT: &str = "\
endgame serve
    The web explorer on http://127.0.0.1:8000/: every game on a board, every move with its
    value; Xiangqi positions of up to 4 men at once, larger ones after the page's Generate.
endgame xiangqi generate KRvKAA
    The tables of a material (and of the smaller ones its captures lead to), for positions of
    5 men and more; then `solve` and `moves` answer its positions, a Chariot against two
    Advisors: endgame xiangqi solve \"3aka3/9/9/9/9/7R1/9/9/9/3K5 w\"
endgame <command> --help
    Every command and its options (docs/cli.md).
From the repository, `cargo run -- serve` and so on run the tool this demo was built as.
";

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
    writeln!(out)?;
    writeln!(out, "== Next steps")?;
    out.write_all(NEXT.as_bytes())?;
    out.flush()?;
    Ok(())
}
