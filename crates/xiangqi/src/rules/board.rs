//! The board: which piece, if any, stands on each of the 90 points, and its FEN field
//! ([`board_fen`]). A [`Setup`] is a board and a side to move, not validated (what the FEN
//! parser, [`fen`](super::fen), produces).

use std::fmt;

use crate::rules::color::Color;
use crate::rules::piece::{Piece, Role};
use crate::rules::square::{File, Rank, Square};

/// The pieces on the 90 points.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    points: [Option<Piece>; Square::COUNT],
}

impl Board {
    /// The empty board.
    #[must_use]
    pub const fn empty() -> Board {
        Board { points: [None; Square::COUNT] }
    }

    /// The piece on `sq`.
    #[must_use]
    pub fn get(&self, sq: Square) -> Option<Piece> {
        self.points[sq.index()]
    }

    /// The pieces on the board, in the order of the points (without their points: a plain
    /// pass over the 90 points, for counting).
    pub fn occupants(&self) -> impl Iterator<Item = Piece> + '_ {
        self.points.iter().flatten().copied()
    }

    /// Puts `piece` (or nothing) on `sq`, returning what stood there.
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) -> Option<Piece> {
        std::mem::replace(&mut self.points[sq.index()], piece)
    }

    /// Every piece with its point, `a0` first, rank by rank.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + Clone + '_ {
        Square::all().filter_map(|sq| self.get(sq).map(|p| (sq, p)))
    }

    /// The points of `color`'s General(s).
    pub fn generals(&self, color: Color) -> impl Iterator<Item = Square> + '_ {
        let general = Piece { color, role: Role::General };
        self.pieces().filter(move |&(_, p)| p == general).map(|(sq, _)| sq)
    }
}

impl Default for Board {
    fn default() -> Board {
        Board::empty()
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board(\"{}\")", board_fen(self))
    }
}

impl fmt::Display for Board {
    /// A diagram, Black's back rank (9) on top, Red's (0) at the bottom, `.` for an empty
    /// point, FEN letters for pieces, the river between ranks 4 and 5.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in (0..Rank::COUNT as u8).rev() {
            write!(f, "{r} ")?;
            for file in 0..File::COUNT as u8 {
                let sq = Square::new(File::new(file).expect("file"), Rank::new(r).expect("rank"));
                let c = self.get(sq).map_or('.', Piece::char);
                write!(f, " {c}")?;
            }
            writeln!(f)?;
            if r == 5 {
                writeln!(f, "   ~~~~~~~~~~~~~~~~~")?;
            }
        }
        write!(f, "   a b c d e f g h i")
    }
}

/// The board field of a FEN.
#[must_use]
pub fn board_fen(board: &Board) -> String {
    let mut s = String::new();
    for r in (0..Rank::COUNT as u8).rev() {
        let mut empty = 0;
        for f in 0..File::COUNT as u8 {
            let sq = Square::new(File::new(f).expect("file"), Rank::new(r).expect("rank"));
            match board.get(sq) {
                Some(p) => {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(p.char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if r > 0 {
            s.push('/');
        }
    }
    s
}

/// A board and a side to move, not yet checked against the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The pieces.
    pub board: Board,
    /// The side to move.
    pub turn: Color,
}
