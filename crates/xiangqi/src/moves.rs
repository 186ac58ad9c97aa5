//! Moves in ICCS coordinates (`h2e2`: from-point, to-point) and their generation.
//!
//! Each piece kind has its own rule; a rule set decides which of the resulting moves are
//! legal. Under [`Rules::Hdu`] every such move is legal (moving into danger simply loses), and
//! a General facing the other on an open file may capture it (the flying general).
//!
//! - General: one step up, down, left or right, staying in its palace.
//! - Horse: two points in one orthogonal direction and one to the side; blocked when the point
//!   one step from the Horse in the long direction (its leg) is occupied by any piece.
//! - Nobody moves onto a piece of its own side; moving onto an enemy piece captures it.

use std::fmt;
use std::str::FromStr;

use crate::board::Board;
use crate::piece::{Color, Piece, Role};
use crate::rules::Rules;
use crate::square::{ParseSquareError, Square};

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

impl FromStr for Move {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Move, ParseSquareError> {
        let bad = || ParseSquareError(s.to_string());
        let (from, to) = s.split_at_checked(2).ok_or_else(bad)?;
        Ok(Move { from: from.parse().map_err(|_| bad())?, to: to.parse().map_err(|_| bad())? })
    }
}

const ORTHOGONAL: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

/// Horse jumps `(files, ranks)` with the leg `(files, ranks)` one step in the long direction.
const HORSE: [((i8, i8), (i8, i8)); 8] = [
    ((1, 2), (0, 1)),
    ((-1, 2), (0, 1)),
    ((1, -2), (0, -1)),
    ((-1, -2), (0, -1)),
    ((2, 1), (1, 0)),
    ((2, -1), (1, 0)),
    ((-2, 1), (-1, 0)),
    ((-2, -1), (-1, 0)),
];

fn own(board: &Board, sq: Square, color: Color) -> bool {
    board.get(sq).is_some_and(|p| p.color == color)
}

fn general_steps(board: &Board, from: Square, color: Color, out: &mut Vec<Move>) {
    for (df, dr) in ORTHOGONAL {
        if let Some(to) = from.offset(df, dr).filter(|to| to.in_palace(color) && !own(board, *to, color)) {
            out.push(Move { from, to });
        }
    }
}

fn horse_jumps(board: &Board, from: Square, color: Color, out: &mut Vec<Move>) {
    for ((df, dr), (lf, lr)) in HORSE {
        let (Some(to), Some(leg)) = (from.offset(df, dr), from.offset(lf, lr)) else { continue };
        if board.get(leg).is_none() && !own(board, to, color) {
            out.push(Move { from, to });
        }
    }
}

/// The other General's point when it faces the General on `from` along a file with no piece
/// between them.
#[must_use]
pub fn facing_general(board: &Board, from: Square) -> Option<Square> {
    let me = board.get(from).filter(|p| p.role == Role::General)?;
    let up = if me.color == Color::Red { 1 } else { -1 };
    let mut sq = from.offset(0, up);
    while let Some(s) = sq {
        match board.get(s) {
            None => sq = s.offset(0, up),
            Some(p) if p == (Piece { color: !me.color, role: Role::General }) => return Some(s),
            Some(_) => return None,
        }
    }
    None
}

/// Every legal move of `color` on `board` under `rules`, piece by piece from `a0`.
pub fn generate(board: &Board, color: Color, rules: Rules, out: &mut Vec<Move>) {
    for (from, piece) in board.pieces().filter(|(_, p)| p.color == color) {
        match piece.role {
            Role::General => {
                general_steps(board, from, color, out);
                match rules {
                    Rules::Hdu => {
                        if let Some(to) = facing_general(board, from) {
                            out.push(Move { from, to });
                        }
                    }
                }
            }
            Role::Horse => horse_jumps(board, from, color, out),
        }
    }
}
