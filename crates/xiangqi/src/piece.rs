//! Colours, piece kinds and pieces, with their Xiangqi FEN letters (Pikafish: `K A B N R C P`,
//! upper case for Red).
//!
//! The piece kinds implemented so far are the General and the Horse; a new kind is one more
//! [`Role`] variant with its letter here and its move rule in [`crate::moves`].

use std::fmt;
use std::ops::Not;
use std::str::FromStr;

/// A side. Red moves first in a game and sits on ranks 0-4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Red: upper-case letters, palace on ranks 0-2, `w` in FEN.
    Red,
    /// Black: lower-case letters, palace on ranks 7-9, `b` in FEN.
    Black,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// 0 for Red, 1 for Black.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN letter of the side to move: `w` for Red, `b` for Black.
    #[must_use]
    pub const fn fen_char(self) -> char {
        match self {
            Color::Red => 'w',
            Color::Black => 'b',
        }
    }

    /// The English name, `Red` or `Black`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "Red",
            Color::Black => "Black",
        }
    }
}

impl Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// The General (King, `K`): one step orthogonally inside its palace; captures the facing
    /// General along an open file where the rules allow it.
    General,
    /// The Horse (Knight, `N`): one step orthogonally then one diagonally outwards, blocked by
    /// any piece on the orthogonal step (the leg).
    Horse,
}

impl Role {
    /// Every piece kind, in the order of material notation (`K` first, then `A B N R C P`).
    pub const ALL: [Role; 2] = [Role::General, Role::Horse];

    /// The number of piece kinds.
    pub const COUNT: usize = Role::ALL.len();

    /// 0-based position in [`Role::ALL`].
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The upper-case FEN letter.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Role::General => 'K',
            Role::Horse => 'N',
        }
    }

    /// The piece kind of an upper-case FEN letter, among the implemented ones.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Role> {
        match c {
            'K' => Some(Role::General),
            'N' => Some(Role::Horse),
            _ => None,
        }
    }

    /// The English name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Role::General => "General",
            Role::Horse => "Horse",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether `c` is the letter of a standard Xiangqi piece kind that is not implemented yet
/// (Advisor, Elephant, Chariot, Cannon, Soldier), to tell it apart from a typo.
#[must_use]
pub const fn is_unimplemented_letter(c: char) -> bool {
    matches!(c.to_ascii_uppercase(), 'A' | 'B' | 'R' | 'C' | 'P')
}

/// A piece: a colour and a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Its kind.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: upper case for Red, lower case for Black.
    #[must_use]
    pub const fn char(self) -> char {
        let c = self.role.char();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece of a FEN letter, among the implemented kinds.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() { Color::Red } else { Color::Black };
        match Role::from_char(c.to_ascii_uppercase()) {
            Some(role) => Some(Piece { color, role }),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A piece letter that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a piece letter (K N, upper case for Red), found {0:?}")]
pub struct ParsePieceError(pub String);

impl FromStr for Piece {
    type Err = ParsePieceError;
    fn from_str(s: &str) -> Result<Piece, ParsePieceError> {
        let mut chars = s.chars();
        match (chars.next().and_then(Piece::from_char), chars.next()) {
            (Some(p), None) => Ok(p),
            _ => Err(ParsePieceError(s.to_string())),
        }
    }
}
