//! Piece kinds and pieces, with their Xiangqi FEN letters (Pikafish: `K A B N R C P`, upper
//! case for Red), and the points each piece may stand on.
//!
//! All seven kinds: General, Advisor, Elephant, Horse, Chariot, Cannon and Soldier; each has
//! its letter here, its slot in a table's index ([`crate::tables::index`]) and its move rule
//! in [`movegen`](super::movegen).

use std::fmt;
use std::str::FromStr;

use crate::rules::color::Color;
use crate::rules::square::Square;

/// A piece kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// The General (King, `K`): one step orthogonally inside its palace; captures the facing
    /// General along an open file where the rules allow it.
    General,
    /// The Advisor (`A`): one step diagonally, inside its palace (five points).
    Advisor,
    /// The Elephant (Bishop, `B`): two steps diagonally, blocked by a piece on the point
    /// between (the eye); it never crosses the river (seven points).
    Elephant,
    /// The Horse (Knight, `N`): one step orthogonally then one diagonally outwards, blocked by
    /// any piece on the orthogonal step (the leg).
    Horse,
    /// The Chariot (Rook, `R`): any distance orthogonally over empty points.
    Chariot,
    /// The Cannon (`C`): moves like the Chariot; captures by jumping over exactly one piece
    /// (the screen) onto an enemy piece.
    Cannon,
    /// The Soldier (Pawn, `P`): one step forward; after crossing the river also one step
    /// sideways; never backwards.
    Soldier,
}

impl Role {
    /// Every piece kind, in the order of material notation (`K` first, then `A B N R C P`).
    pub const ALL: [Role; 7] = [
        Role::General,
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Chariot,
        Role::Cannon,
        Role::Soldier,
    ];

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
            Role::Advisor => 'A',
            Role::Elephant => 'B',
            Role::Horse => 'N',
            Role::Chariot => 'R',
            Role::Cannon => 'C',
            Role::Soldier => 'P',
        }
    }

    /// The piece kind of an upper-case FEN letter.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Role> {
        match c {
            'K' => Some(Role::General),
            'A' => Some(Role::Advisor),
            'B' => Some(Role::Elephant),
            'N' => Some(Role::Horse),
            'R' => Some(Role::Chariot),
            'C' => Some(Role::Cannon),
            'P' => Some(Role::Soldier),
            _ => None,
        }
    }

    /// How many of this kind a side has at the start of a game.
    #[must_use]
    pub const fn max_count(self) -> u8 {
        match self {
            Role::General => 1,
            Role::Soldier => 5,
            _ => 2,
        }
    }

    /// The English name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Role::General => "General",
            Role::Advisor => "Advisor",
            Role::Elephant => "Elephant",
            Role::Horse => "Horse",
            Role::Chariot => "Chariot",
            Role::Cannon => "Cannon",
            Role::Soldier => "Soldier",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
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

    /// The piece of a FEN letter.
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
#[error("expected a piece letter (K A B N R C P, upper case for Red), found {0:?}")]
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

impl Piece {
    /// Whether this piece may stand on `sq` at all: a General in its palace, an Advisor on the
    /// five points of its palace's diagonals, an Elephant on the seven points of its side of
    /// the river it can reach, a Soldier on the points it can reach (its two home ranks only on
    /// files a c e g i, then every point across the river), the others anywhere.
    #[must_use]
    pub const fn may_stand_on(self, sq: Square) -> bool {
        let file = sq.file().index();
        // Ranks counted from this piece's own back rank.
        let rank = match self.color {
            Color::Red => sq.rank().index(),
            Color::Black => 9 - sq.rank().index(),
        };
        match self.role {
            Role::General => sq.in_palace(self.color),
            Role::Advisor => sq.in_palace(self.color) && (file + rank) % 2 == 1,
            Role::Elephant => {
                rank <= 4 && rank.is_multiple_of(2) && file.is_multiple_of(2) && (file + rank) % 4 == 2
            }
            Role::Soldier => rank >= 5 || (rank >= 3 && file.is_multiple_of(2)),
            Role::Horse | Role::Chariot | Role::Cannon => true,
        }
    }

    /// The points this piece may stand on (see [`Piece::may_stand_on`]), in index order.
    #[must_use]
    pub fn points(self) -> Vec<Square> {
        Square::all().filter(|&sq| self.may_stand_on(sq)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_stand_on_their_points() {
        let count = |color, role| Piece { color, role }.points().len();
        for color in Color::ALL {
            assert_eq!(count(color, Role::General), 9);
            assert_eq!(count(color, Role::Advisor), 5);
            assert_eq!(count(color, Role::Elephant), 7);
            assert_eq!(count(color, Role::Soldier), 55);
            assert_eq!(count(color, Role::Chariot), 90);
        }
        let names = |color, role| {
            Piece { color, role }.points().iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
        };
        assert_eq!(names(Color::Red, Role::Advisor), "d0 f0 e1 d2 f2");
        assert_eq!(names(Color::Black, Role::Advisor), "d7 f7 e8 d9 f9");
        assert_eq!(names(Color::Red, Role::Elephant), "c0 g0 a2 e2 i2 c4 g4");
        assert_eq!(names(Color::Black, Role::Elephant), "c5 g5 a7 e7 i7 c9 g9");
        assert!(Piece { color: Color::Black, role: Role::Soldier }.may_stand_on("a6".parse().unwrap()));
        assert!(!Piece { color: Color::Black, role: Role::Soldier }.may_stand_on("b6".parse().unwrap()));
        assert!(!Piece { color: Color::Black, role: Role::Soldier }.may_stand_on("a7".parse().unwrap()));
        assert!(Piece { color: Color::Black, role: Role::Soldier }.may_stand_on("b4".parse().unwrap()));
    }
}
