//! Moves in ICCS coordinates (`h2e2`: from-point, to-point), as engines such as Pikafish
//! write them: the move type, read and written. Which moves are legal is
//! [`movegen`](super::movegen)'s question.

use std::fmt;
use std::str::FromStr;

use crate::rules::square::{ParseSquareError, Square};

/// A move: the piece on `from` goes to `to`, capturing what stands there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the piece stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
}

impl fmt::Display for Move {
    /// ICCS coordinates, e.g. `h2e2` (also the UCI form engines such as Pikafish use).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// Text that is not a move in ICCS coordinates.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a move in ICCS coordinates (from-point, to-point, like h2e2), found {0:?}")]
pub struct ParseMoveError(pub String);

impl FromStr for Move {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let bad = || ParseMoveError(s.chars().take(40).collect());
        let (from, to) = s.split_at_checked(2).ok_or_else(bad)?;
        let point = |p: &str| p.parse::<Square>().map_err(|_: ParseSquareError| bad());
        Ok(Move { from: point(from)?, to: point(to)? })
    }
}
