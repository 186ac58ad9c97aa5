//! Points of the 10 x 9 board: files `a`..`i` from Red's left, ranks `0`..`9` from Red's back
//! rank (the ICCS coordinates: Red's central cannon opening is `h2e2`).

use std::fmt;
use std::str::FromStr;

use crate::rules::color::Color;

/// A file (column), `a` to `i` from Red's left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

impl File {
    /// The number of files.
    pub const COUNT: usize = 9;

    /// The file with this index (0 = `a`), if there is one.
    #[must_use]
    pub const fn new(index: u8) -> Option<File> {
        if (index as usize) < File::COUNT { Some(File(index)) } else { None }
    }

    /// The index, 0 for `a` to 8 for `i`.
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The letter, `a` to `i`.
    #[must_use]
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }

    /// The file of a letter `a` to `i`.
    #[must_use]
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='i' => Some(File(c as u8 - b'a')),
            _ => None,
        }
    }
}

/// A rank (row), `0` (Red's back rank) to `9` (Black's back rank).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    /// The number of ranks.
    pub const COUNT: usize = 10;

    /// The rank with this index, if there is one.
    #[must_use]
    pub const fn new(index: u8) -> Option<Rank> {
        if (index as usize) < Rank::COUNT { Some(Rank(index)) } else { None }
    }

    /// The index, 0 to 9.
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }
}

/// A point of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The number of points.
    pub const COUNT: usize = File::COUNT * Rank::COUNT;

    /// Red's left corner.
    pub const A0: Square = Square(0);

    /// The point on this file and rank.
    #[must_use]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square(rank.0 * File::COUNT as u8 + file.0)
    }

    /// The point with this dense index (`rank * 9 + file`), if there is one.
    #[must_use]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < Square::COUNT { Some(Square(index as u8)) } else { None }
    }

    /// The dense index, `rank * 9 + file`.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The point as a one-bit set of the 90 points (bit [`Square::index`]), from a table: a
    /// shift of a 128-bit number by a variable amount takes several instructions.
    #[inline]
    #[must_use]
    pub const fn bit(self) -> u128 {
        const BITS: [u128; Square::COUNT] = {
            let mut bits = [0; Square::COUNT];
            let mut i = 0;
            while i < Square::COUNT {
                bits[i] = 1 << i;
                i += 1;
            }
            bits
        };
        BITS[self.0 as usize]
    }

    /// Every point, `a0` first, rank by rank.
    pub fn all() -> impl Iterator<Item = Square> + Clone {
        (0..Square::COUNT as u8).map(Square)
    }

    /// The file.
    #[must_use]
    pub const fn file(self) -> File {
        File(self.0 % File::COUNT as u8)
    }

    /// The rank.
    #[must_use]
    pub const fn rank(self) -> Rank {
        Rank(self.0 / File::COUNT as u8)
    }

    /// The point `files` to the right and `ranks` up (towards Black), if it is on the board.
    #[must_use]
    pub const fn offset(self, files: i8, ranks: i8) -> Option<Square> {
        let f = self.file().0 as i8 + files;
        let r = self.rank().0 as i8 + ranks;
        if f < 0 || r < 0 || f >= File::COUNT as i8 || r >= Rank::COUNT as i8 {
            None
        } else {
            Some(Square((r * File::COUNT as i8 + f) as u8))
        }
    }

    /// The point on the same rank, mirrored left-right (`a` <-> `i`).
    #[must_use]
    pub const fn mirror(self) -> Square {
        let f = self.0 % File::COUNT as u8;
        Square(self.0 - f + (File::COUNT as u8 - 1 - f))
    }

    /// The point as the other side sees it: the same file, rank `r` becomes `9 - r`. With the
    /// colours of the pieces swapped, a position and its flip are the same game.
    #[must_use]
    pub const fn flip(self) -> Square {
        let f = self.0 % File::COUNT as u8;
        let r = self.0 / File::COUNT as u8;
        Square((Rank::COUNT as u8 - 1 - r) * File::COUNT as u8 + f)
    }

    /// Whether the point lies in the palace of `color` (files `d`..`f`, ranks 0-2 for Red and
    /// 7-9 for Black).
    #[must_use]
    pub const fn in_palace(self, color: Color) -> bool {
        let (f, r) = (self.file().0, self.rank().0);
        let ranks_ok = match color {
            Color::Red => r <= 2,
            Color::Black => r >= 7,
        };
        ranks_ok && f >= 3 && f <= 5
    }

    /// The nine points of the palace of `color`, in index order.
    #[must_use]
    pub fn palace(color: Color) -> Vec<Square> {
        Square::all().filter(|s| s.in_palace(color)).collect()
    }
}

impl fmt::Display for Square {
    /// `e0`: the file letter, then the rank digit.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().0)
    }
}

/// A point that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a point: a file a-i then a rank 0-9 (like e0), found {0:?}")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        match (chars.next().and_then(File::from_char), chars.next(), chars.next()) {
            (Some(file), Some(r @ '0'..='9'), None) => Ok(Square::new(file, Rank(r as u8 - b'0'))),
            _ => Err(ParseSquareError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_print_and_parse() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!("e0".parse::<Square>().map(|s| s.index()), Ok(4));
        assert_eq!("i9".parse::<Square>().map(|s| s.index()), Ok(89));
        assert!("j0".parse::<Square>().is_err());
        assert!("e10".parse::<Square>().is_err());
        assert!("".parse::<Square>().is_err());
        assert_eq!(Square::palace(Color::Red).len(), 9);
        assert!("e9".parse::<Square>().unwrap().in_palace(Color::Black));
        assert!(!"c9".parse::<Square>().unwrap().in_palace(Color::Black));
        assert_eq!("a0".parse::<Square>().unwrap().offset(-1, 0), None);
    }
}
