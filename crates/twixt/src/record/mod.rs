//! Position records: the judge's token format, SGF as Little Golem exports it, and T1j's `.T1`.
//!
//! Coordinates. The engine's frame is the judge's: Black moves first and connects the columns
//! `x = 0` and `x = N`. Little Golem and T1j name a point by its column letter (`a` = 0) and
//! its row (T1: a number from 1; SGF: a second letter, `a` = 0, `A` = 26), and their first
//! player connects the top and bottom rows. So a record point (column `c`, row `r`) is the
//! engine point `(x, y) = (r, c)`: the first player is Black, the second White, and every
//! picture of the engine's board is the record's board mirrored across its diagonal (the
//! renderers mirror it back). Board sizes count points: `SZ[24]` and a T1 size of 24 mean N = 23.
//!
//! Evidence: read the other way round, the T1 files `drawngame.T1`, `full_board.T1` and
//! `scl-issue.T1` put pegs in the opponent's edge rows, so T1's first player owns the top and
//! bottom rows (as T1j's header says: "1 plays top-down"). The Little Golem files have no peg on
//! an edge, so they cannot tell; we read them like twixtbot-ui does, the same way as T1. No
//! answer depends on it: mirroring a whole game across the diagonal changes only the picture.
//!
//! Swap. In both formats move 2 may be `swap`: the first player's peg at column `c`, row `r`
//! becomes the second player's peg at column `r`, row `c` (mirrored, so each color keeps its
//! endzones), and the first player moves again (as move 3), as twixtbot-ui plays it. (None of
//! the Little Golem samples has a swap, so Little Golem's own choice of mirror is unchecked.)
//! `resign` ends the game.
//!
//! Every record move knows its line, so errors name the move number and the line.

mod judge_format;
mod sgf;
mod t1;

use std::fmt;
use std::str::FromStr;

use endgame_core::InputError;

use crate::geometry::Point;
use crate::rules::{Config, Move, Rules};

pub(crate) use judge_format::{Dataset, read_dataset};

/// A record format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// The POJ 2706 tokens: `N M`, then `M` pairs `x y`, optionally `0 0`.
    Judge,
    /// SGF as Little Golem exports it (`.tsgf`): `;b[dd];r[th]`, `swap`, `resign`.
    Sgf,
    /// T1j's `.T1`: 13 header lines, then one move a line (`e15`, `swap`, `resign`).
    T1,
}

/// A format's name that is not `judge`, `sgf` (or `tsgf`) or `t1` (any case).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected `judge`, `sgf` or `t1`, found {}", endgame_core::input::quote(.0))]
pub struct ParseFormatError(pub String);

impl FromStr for Format {
    type Err = ParseFormatError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "judge" => Ok(Format::Judge),
            "sgf" | "tsgf" => Ok(Format::Sgf),
            "t1" => Ok(Format::T1),
            _ => Err(ParseFormatError(s.to_string())),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Judge => "judge",
            Format::Sgf => "sgf",
            Format::T1 => "t1",
        })
    }
}

/// One move of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// The move, in the engine's frame.
    pub mv: Move,
    /// The line it is on (1-based).
    pub line: usize,
    /// An annotation attached to it (Little Golem's `|draw` offer), if any.
    pub note: Option<String>,
}

/// A game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The format it was read in (and whose notation it prints).
    pub format: Format,
    /// The largest coordinate, N (points `0..=N`).
    pub n: i64,
    /// The first and second player's names (empty when unknown).
    pub players: [String; 2],
    /// What the record says about the pie rule (T1's header), if anything.
    pub swap: Option<bool>,
    /// The moves.
    pub moves: Vec<RecordMove>,
}

impl Record {
    /// Reads a record in `format`, or in the detected format when `None`.
    pub fn parse(text: &str, format: Option<Format>) -> Result<Record, InputError> {
        // A byte-order mark is not part of any of the formats.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        match format.map_or_else(|| detect(text), Ok)? {
            Format::Judge => judge_format::parse(text),
            Format::Sgf => sgf::parse(text),
            Format::T1 => t1::parse(text),
        }
    }

    /// Writes the record in `format` (errors when the format cannot hold it: a swap in the
    /// judge format, a board too big for the letters).
    pub fn write(&self, format: Format) -> Result<String, InputError> {
        match format {
            Format::Judge => judge_format::write(self),
            Format::Sgf => sgf::write(self),
            Format::T1 => t1::write(self),
        }
    }

    /// The rules the record was played under: POJ without swap for the judge format, pencil
    /// and paper with swap for Little Golem, T1j's rules (no link crosses any link) with the
    /// swap its header announces (on when unsaid).
    #[must_use]
    pub fn default_config(&self) -> Config {
        match self.format {
            Format::Judge => Config::POJ,
            Format::Sgf => Config { rules: Rules::Pp, swap: self.swap.unwrap_or(true) },
            Format::T1 => Config { rules: Rules::Poj, swap: self.swap.unwrap_or(true) },
        }
    }

    /// A point in the record's own notation: `(x,y)` for the judge format, `dd` for SGF, `d4`
    /// for T1.
    #[must_use]
    pub fn notation(&self, p: Point) -> String {
        notation(self.format, p)
    }
}

/// A point in a format's notation.
#[must_use]
pub fn notation(format: Format, p: Point) -> String {
    match format {
        Format::Judge => p.to_string(),
        Format::Sgf => match (sgf::letter(p.y), sgf::letter(p.x)) {
            (Some(c), Some(r)) => format!("{c}{r}"),
            _ => p.to_string(),
        },
        Format::T1 => match t1::letter(p.y) {
            Some(c) => format!("{c}{}", p.x + 1),
            None => p.to_string(),
        },
    }
}

/// The name of a record column (or an SGF row): `a`..`z`, then `A`..`Z`, then the number.
#[must_use]
pub fn column_letter(c: i32) -> String {
    sgf::letter(c).map_or_else(|| c.to_string(), String::from)
}

/// Tells the format from the text: `(` starts SGF, a number starts the judge format, `#`
/// starts T1's header.
pub fn detect(text: &str) -> Result<Format, InputError> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('(') {
        return Ok(Format::Sgf);
    }
    let first = trimmed.split_ascii_whitespace().next().unwrap_or("");
    if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit() || b == b'-') {
        return Ok(Format::Judge);
    }
    if trimmed.starts_with('#') {
        return Ok(Format::T1);
    }
    let line = text[..text.len() - trimmed.len()].matches('\n').count() + 1;
    Err(InputError::new(format!("line {line}"), UNKNOWN_FORMAT))
}

/// The message of [`detect`] when no format matches; the caller adds how to name the format
/// (the command line's `--format`, the server's `format=`).
pub const UNKNOWN_FORMAT: &str =
    "cannot tell the record format: expected `N M` (judge), `(;` (SGF) or a `#` header line (T1)";
