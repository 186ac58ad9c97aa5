//! Game records in, positions out: Xiangqi games as players keep them, read into a start
//! position and a list of legal moves, and written back as PGN.
//!
//! - PGN (`pgn.rs`): tags, a `[FEN]` start, comments, variations (skipped), NAGs, move
//!   numbers, results, several games per file; UTF-8 (with or without BOM), UTF-16 with a
//!   BOM, and GB18030/GBK (`text.rs`); the moves in ICCS (`h2e2`), WXF (`C2.5`, `H8+7`) or
//!   Chinese notation (`炮二平五`, [`to_chinese`]), detected per game (`notation.rs`).
//! - XQF, the binary files of 象棋演播室 (`xqf.rs`), versions 10 (unencrypted) to 18
//!   (encrypted).
//! - Written back as PGN in any of the three notations ([`write_pgn`], `write.rs`).
//!
//! Every move is checked against the rules ([`RULES`]): a record with an illegal or
//! ambiguous move is refused with the game, the move number and the move's text.
//!
//! ```
//! use endgame_xiangqi::record::{Notation, read_records, write_pgn};
//!
//! let games = read_records("1. 炮二平五 马８进７ 2. 马二进三 *".as_bytes())?;
//! let game = &games[0];
//! assert_eq!(game.notation, Some(Notation::Chinese));
//! assert_eq!(game.moves[0].to_string(), "h2e2");
//! assert_eq!(game.positions().len(), 4); // the start and the position after each move
//! assert!(write_pgn(&games, Notation::Wxf).contains("1. C2.5 H8+7 2. H2+3 *"));
//! let error = read_records("1. h2e2 h2e2".as_bytes()).unwrap_err();
//! assert_eq!(error.to_string(), "game 1, move 1... (Black, ply 2, line 1) \"h2e2\": Black has no piece on h2");
//! # Ok::<(), endgame_xiangqi::RecordError>(())
//! ```

use std::fmt;
use std::str::FromStr;

use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::rules::rule_set::Rules;

mod chinese;
mod error;
mod notation;
mod pgn;
mod text;
mod write;
mod xqf;

pub use chinese::to_chinese;
pub use error::{Place, RecordError};

/// The rules the moves of a record are checked against: `standard` (no move into check, no
/// facing Generals), the legal moves of real games under every rule set but `hdu`.
pub const RULES: Rules = Rules::Standard;

/// A game read from a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The tags, in the record's order (`[Event "..."]` is `("Event", "...")`); an XQF file's
    /// title, players and result become tags too.
    pub tags: Vec<(String, String)>,
    /// The position before the first move (the `FEN` tag, else the usual start).
    pub start: Position,
    /// The moves, each legal under [`RULES`] in the position it is played in.
    pub moves: Vec<Move>,
    /// The comments, each with the number of moves played before it (0: before the first
    /// move, `n`: after the `n`-th).
    pub comments: Vec<(usize, String)>,
    /// The result token ending the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`), if there is one.
    pub result: Option<String>,
    /// The notation the moves were written in (`None` for XQF and for a game without moves).
    pub notation: Option<Notation>,
}

impl Game {
    /// The value of a tag (the first one of that name, names compared ignoring case).
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// Every position of the game: the start, then the one after each move (`moves.len() + 1`
    /// positions).
    #[must_use]
    pub fn positions(&self) -> Vec<Position> {
        let mut positions = Vec::with_capacity(self.moves.len() + 1);
        let mut position = self.start;
        positions.push(position);
        for &mv in &self.moves {
            // Every move was checked against the rules when the game was read.
            position = position.play_unchecked(mv);
            positions.push(position);
        }
        positions
    }
}

/// A notation of moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// ICCS coordinates, `h2e2` (read also as `h2-e2` and in upper case).
    Iccs,
    /// WXF, `C2.5`, `H8+7` (read also with `=` for `.`, and in full-width forms).
    Wxf,
    /// Chinese, `炮二平五`, `马８进７` (read in traditional and simplified characters).
    Chinese,
}

impl Notation {
    /// Every notation.
    pub const ALL: [Notation; 3] = [Notation::Iccs, Notation::Wxf, Notation::Chinese];

    /// The name on the command line and in a PGN `Format` tag: `iccs`, `wxf`, `chinese`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Notation::Iccs => "iccs",
            Notation::Wxf => "wxf",
            Notation::Chinese => "chinese",
        }
    }
}

impl Notation {
    /// The name as PGN collections write it in a `Format` tag: `ICCS`, `WXF`, `Chinese`.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
            Notation::Chinese => "Chinese",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A notation name that is not known.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a notation (iccs, wxf or chinese), found {0:?}")]
pub struct ParseNotationError(pub String);

impl FromStr for Notation {
    type Err = ParseNotationError;
    fn from_str(s: &str) -> Result<Notation, ParseNotationError> {
        Notation::ALL
            .into_iter()
            .find(|n| n.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| ParseNotationError(s.to_string()))
    }
}

/// Reads the games of a record: PGN (UTF-8, UTF-16 with a BOM, or GB18030/GBK) or XQF,
/// told apart by the bytes.
///
/// # Errors
/// [`RecordError`], naming the game, the move (number, side and text) or the line or byte,
/// and what was expected there.
pub fn read_records(bytes: &[u8]) -> Result<Vec<Game>, RecordError> {
    if xqf::is_xqf(bytes) {
        return Ok(vec![xqf::read(bytes)?]);
    }
    let games = pgn::read(&text::decode(bytes)?)?;
    if games.is_empty() {
        return Err(RecordError::input(
            "no game found: expected PGN (tags such as [Event \"...\"], or moves such as 1. h2e2 h9g7) or an XQF file",
        ));
    }
    Ok(games)
}

/// The games as PGN, their moves in `notation`.
#[must_use]
pub fn write_pgn(games: &[Game], notation: Notation) -> String {
    write::write(games, notation)
}
