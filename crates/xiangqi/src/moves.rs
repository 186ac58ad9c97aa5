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

/// What move generation needs to know of the board: the piece on a point.
pub trait Occupancy {
    /// The piece on `sq`, if any.
    fn piece_at(&self, sq: Square) -> Option<Piece>;
}

impl Occupancy for Board {
    fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.get(sq)
    }
}

/// A few pieces given by their points, found by scanning: cheaper than a [`Board`] when a
/// table generator looks at many positions with few pieces.
#[derive(Clone, Copy, Debug)]
pub struct PieceList<'a> {
    /// The points.
    pub squares: &'a [Square],
    /// The piece on each point.
    pub pieces: &'a [Piece],
}

impl Occupancy for PieceList<'_> {
    fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.squares.iter().position(|&s| s == sq).map(|i| self.pieces[i])
    }
}

fn own(board: &impl Occupancy, sq: Square, color: Color) -> bool {
    board.piece_at(sq).is_some_and(|p| p.color == color)
}

fn general_steps(board: &impl Occupancy, from: Square, color: Color, out: &mut Vec<Move>) {
    for (df, dr) in ORTHOGONAL {
        if let Some(to) = from.offset(df, dr).filter(|to| to.in_palace(color) && !own(board, *to, color)) {
            out.push(Move { from, to });
        }
    }
}

fn horse_jumps(board: &impl Occupancy, from: Square, color: Color, out: &mut Vec<Move>) {
    for ((df, dr), (lf, lr)) in HORSE {
        let (Some(to), Some(leg)) = (from.offset(df, dr), from.offset(lf, lr)) else { continue };
        if board.piece_at(leg).is_none() && !own(board, to, color) {
            out.push(Move { from, to });
        }
    }
}

/// The other General's point when it faces the General on `from` along a file with no piece
/// between them.
#[must_use]
pub fn facing_general(board: &impl Occupancy, from: Square) -> Option<Square> {
    let me = board.piece_at(from).filter(|p| p.role == Role::General)?;
    let up = if me.color == Color::Red { 1 } else { -1 };
    let mut sq = from.offset(0, up);
    while let Some(s) = sq {
        match board.piece_at(s) {
            None => sq = s.offset(0, up),
            Some(p) if p == (Piece { color: !me.color, role: Role::General }) => return Some(s),
            Some(_) => return None,
        }
    }
    None
}

/// Every legal move of `color` on `board` under `rules`, piece by piece from `a0`.
pub fn generate(board: &Board, color: Color, rules: Rules, out: &mut Vec<Move>) {
    generate_for(board, board.pieces(), color, rules, out);
}

/// Every legal move of `color`'s pieces among `pieces` (the pieces on `board`, in any order),
/// piece by piece.
pub fn generate_for(
    board: &impl Occupancy,
    pieces: impl IntoIterator<Item = (Square, Piece)>,
    color: Color,
    rules: Rules,
    out: &mut Vec<Move>,
) {
    for (from, piece) in pieces.into_iter().filter(|(_, p)| p.color == color) {
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

/// Every move of `color` without a capture that leads to `board`: the un-moves of a
/// retrograde solver. `pieces` are the pieces on `board`; each un-move is reported as the
/// move it undoes (`from`: where the piece stood before, now empty; `to`: where it stands).
pub fn generate_unmoves_for(
    board: &impl Occupancy,
    pieces: impl IntoIterator<Item = (Square, Piece)>,
    color: Color,
    rules: Rules,
    out: &mut Vec<Move>,
) {
    match rules {
        // Every move is legal under hdu, so every way back is an un-move.
        Rules::Hdu => {}
    }
    for (to, piece) in pieces.into_iter().filter(|(_, p)| p.color == color) {
        match piece.role {
            Role::General => {
                for (df, dr) in ORTHOGONAL {
                    if let Some(from) =
                        to.offset(df, dr).filter(|s| s.in_palace(color) && board.piece_at(*s).is_none())
                    {
                        out.push(Move { from, to });
                    }
                }
            }
            Role::Horse => {
                for ((df, dr), (lf, lr)) in HORSE {
                    let Some(from) = to.offset(-df, -dr) else { continue };
                    let leg = from.offset(lf, lr).expect("the leg lies between the two points");
                    if board.piece_at(from).is_none() && board.piece_at(leg).is_none() {
                        out.push(Move { from, to });
                    }
                }
            }
        }
    }
}
