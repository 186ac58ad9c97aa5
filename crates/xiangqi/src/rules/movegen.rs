//! Move generation by walking the board, point by point: the legal moves of a position and
//! the check test.
//!
//! Each piece kind has its own rule (its pseudo-legal moves); a rule set decides which of them
//! are legal. Under [`Rules::Hdu`] every such move is legal (moving into danger simply loses),
//! and a General facing the other on an open file may capture it (the flying general). Under
//! [`Rules::Standard`] a move is legal when afterwards the mover's General is not attacked and
//! the two Generals do not face each other on an open file.
//!
//! - General: one step up, down, left or right, staying in its palace.
//! - Advisor: one step diagonally, staying in its palace.
//! - Elephant: two steps diagonally, not across the river; blocked by a piece on the point
//!   between (the eye).
//! - Horse: two points in one orthogonal direction and one to the side; blocked when the point
//!   one step from the Horse in the long direction (its leg) is occupied by any piece.
//! - Chariot: any distance orthogonally over empty points.
//! - Cannon: moves like the Chariot; captures only by jumping over exactly one piece of either
//!   side (the screen) along its line.
//! - Soldier: one step forward; once across the river also one step sideways.
//! - Nobody moves onto a piece of its own side; moving onto an enemy piece captures it.
//!
//! Un-moves (for retrograde analysis) are the same rules backwards, without captures.

use crate::rules::board::Board;
use crate::rules::color::Color;
use crate::rules::moves::Move;
use crate::rules::piece::{Piece, Role};
use crate::rules::rule_set::Rules;
use crate::rules::square::Square;

pub(super) const ORTHOGONAL: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
pub(super) const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Horse jumps `(files, ranks)` with the leg `(files, ranks)` one step in the long direction.
pub(super) const HORSE: [((i8, i8), (i8, i8)); 8] = [
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
pub trait Occupancy: Sides {
    /// The piece on `sq`, if any.
    fn piece_at(&self, sq: Square) -> Option<Piece>;
}

impl Occupancy for Board {
    #[inline]
    fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.get(sq)
    }
}

/// A board with one move made on it, without copying it.
struct After<'a, O> {
    board: &'a O,
    mv: Move,
    piece: Piece,
}

impl<O: Occupancy> Occupancy for After<'_, O> {
    #[inline]
    fn piece_at(&self, sq: Square) -> Option<Piece> {
        if sq == self.mv.to {
            Some(self.piece)
        } else if sq == self.mv.from {
            None
        } else {
            self.board.piece_at(sq)
        }
    }
}

/// What the move rules of the pieces need to know of the board: which points are occupied,
/// and by which side. Every [`Occupancy`] knows it; [`Bits`](super::bitboard::Bits) knows only that, cheaply.
pub trait Sides {
    /// The side of the piece on `sq`, if any.
    fn side_at(&self, sq: Square) -> Option<Color>;

    /// Whether `sq` is empty.
    #[inline]
    fn is_empty(&self, sq: Square) -> bool {
        self.side_at(sq).is_none()
    }
}

impl Sides for Board {
    #[inline]
    fn side_at(&self, sq: Square) -> Option<Color> {
        self.get(sq).map(|p| p.color)
    }
}

impl<O: Occupancy> Sides for After<'_, O> {
    fn side_at(&self, sq: Square) -> Option<Color> {
        self.piece_at(sq).map(|p| p.color)
    }
}

fn own(board: &impl Sides, sq: Square, color: Color) -> bool {
    board.side_at(sq) == Some(color)
}

/// The direction a Soldier of `color` moves forward, in ranks.
pub(super) const fn forward(color: Color) -> i8 {
    match color {
        Color::Red => 1,
        Color::Black => -1,
    }
}

/// Whether `sq` lies across the river for `color` (in the other side's half).
pub(crate) const fn across_river(sq: Square, color: Color) -> bool {
    match color {
        Color::Red => sq.rank().index() >= 5,
        Color::Black => sq.rank().index() <= 4,
    }
}

/// Calls `f` with every point the piece on `from` may move to by its own rule (empty points and
/// enemy pieces), ignoring what the move does to its own General.
#[inline]
pub fn for_each_target(board: &impl Sides, from: Square, piece: Piece, mut f: impl FnMut(Square)) {
    let color = piece.color;
    let step = |to: Option<Square>, f: &mut dyn FnMut(Square)| {
        if let Some(to) = to.filter(|&to| !own(board, to, color)) {
            f(to);
        }
    };
    match piece.role {
        Role::General => {
            for (df, dr) in ORTHOGONAL {
                step(from.offset(df, dr).filter(|to| to.in_palace(color)), &mut f);
            }
        }
        Role::Advisor => {
            for (df, dr) in DIAGONAL {
                step(from.offset(df, dr).filter(|to| to.in_palace(color)), &mut f);
            }
        }
        Role::Elephant => {
            for (df, dr) in DIAGONAL {
                let Some(to) = from.offset(2 * df, 2 * dr).filter(|&to| !across_river(to, color)) else {
                    continue;
                };
                if board.is_empty(from.offset(df, dr).expect("the eye lies between")) {
                    step(Some(to), &mut f);
                }
            }
        }
        Role::Horse => {
            for ((df, dr), (lf, lr)) in HORSE {
                let (Some(to), Some(leg)) = (from.offset(df, dr), from.offset(lf, lr)) else { continue };
                if board.is_empty(leg) {
                    step(Some(to), &mut f);
                }
            }
        }
        Role::Chariot | Role::Cannon => {
            let cannon = piece.role == Role::Cannon;
            for (df, dr) in ORTHOGONAL {
                let mut at = from.offset(df, dr);
                let mut screened = false;
                while let Some(sq) = at {
                    match board.side_at(sq) {
                        None if !screened => f(sq),
                        None => {}
                        Some(side) if !cannon => {
                            if side != color {
                                f(sq);
                            }
                            break;
                        }
                        Some(_) if !screened => screened = true,
                        Some(side) => {
                            if side != color {
                                f(sq);
                            }
                            break;
                        }
                    }
                    at = sq.offset(df, dr);
                }
            }
        }
        Role::Soldier => {
            step(from.offset(0, forward(color)), &mut f);
            if across_river(from, color) {
                step(from.offset(1, 0), &mut f);
                step(from.offset(-1, 0), &mut f);
            }
        }
    }
}

/// Calls `f` with every empty point from which the piece now on `to` could have come by a move
/// without a capture (the un-moves of that piece).
#[inline]
pub fn for_each_origin(board: &impl Sides, to: Square, piece: Piece, mut f: impl FnMut(Square)) {
    let color = piece.color;
    let empty = |sq: &Square| board.is_empty(*sq);
    match piece.role {
        Role::General | Role::Advisor => {
            let dirs = if piece.role == Role::General { ORTHOGONAL } else { DIAGONAL };
            for (df, dr) in dirs {
                if let Some(from) = to.offset(df, dr).filter(|s| s.in_palace(color) && empty(s)) {
                    f(from);
                }
            }
        }
        Role::Elephant => {
            for (df, dr) in DIAGONAL {
                let Some(from) = to.offset(2 * df, 2 * dr).filter(|&s| !across_river(s, color)) else {
                    continue;
                };
                if empty(&from) && empty(&to.offset(df, dr).expect("the eye lies between")) {
                    f(from);
                }
            }
        }
        Role::Horse => {
            for ((df, dr), (lf, lr)) in HORSE {
                let Some(from) = to.offset(-df, -dr) else { continue };
                let leg = from.offset(lf, lr).expect("the leg lies between the two points");
                if empty(&from) && empty(&leg) {
                    f(from);
                }
            }
        }
        Role::Chariot | Role::Cannon => {
            for (df, dr) in ORTHOGONAL {
                let mut at = to.offset(df, dr);
                while let Some(sq) = at.filter(empty) {
                    f(sq);
                    at = sq.offset(df, dr);
                }
            }
        }
        Role::Soldier => {
            if let Some(from) = to.offset(0, -forward(color)).filter(|s| piece.may_stand_on(*s) && empty(s)) {
                f(from);
            }
            if across_river(to, color) {
                for df in [1, -1] {
                    if let Some(from) = to.offset(df, 0).filter(empty) {
                        f(from);
                    }
                }
            }
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

/// Whether a piece of `by` other than its General attacks `sq`, a point of the other side's
/// palace: could capture a piece standing there by its own rule. (Advisors and Elephants never
/// reach the other side's palace, so only Horses, Chariots, Cannons and Soldiers are looked at:
/// right for palace points only, hence private; [`in_check`] is the public question.)
fn attacked(board: &impl Occupancy, sq: Square, by: Color) -> bool {
    let is = |at: Option<Square>, role: Role| {
        at.and_then(|s| board.piece_at(s)).is_some_and(|p| p == Piece { color: by, role })
    };
    for (df, dr) in ORTHOGONAL {
        let mut at = sq.offset(df, dr);
        let mut screened = false;
        while let Some(s) = at {
            if let Some(p) = board.piece_at(s) {
                if p.color == by && p.role == if screened { Role::Cannon } else { Role::Chariot } {
                    return true;
                }
                if screened {
                    break;
                }
                screened = true;
            }
            at = s.offset(df, dr);
        }
    }
    for ((df, dr), (lf, lr)) in HORSE {
        let Some(horse) = sq.offset(-df, -dr) else { continue };
        if is(Some(horse), Role::Horse) && board.piece_at(horse.offset(lf, lr).expect("leg")).is_none() {
            return true;
        }
    }
    if is(sq.offset(0, -forward(by)), Role::Soldier) {
        return true;
    }
    across_river(sq, by) && (is(sq.offset(1, 0), Role::Soldier) || is(sq.offset(-1, 0), Role::Soldier))
}

/// Whether the General of `color`, on `general`, is in check: attacked by an enemy piece, or
/// facing the other General on an open file.
#[must_use]
pub fn in_check(board: &impl Occupancy, general: Square, color: Color) -> bool {
    attacked(board, general, !color) || facing_general(board, general).is_some()
}

/// Whether the move `mv` of `piece` leaves its own General (on `general` before the move) out
/// of check: not attacked and not facing the other General. `checked` says whether that General
/// is in check before the move; when it is not, only a move of the General itself, or of a
/// piece from or to a point on the General's file or rank or diagonally next to it (a Horse's
/// leg), can put it in check, and only those are looked at closely.
#[inline]
pub fn is_safe_move(board: &impl Occupancy, mv: Move, piece: Piece, general: Square, checked: bool) -> bool {
    let is_general = piece.role == Role::General;
    if !checked && !is_general {
        let (gf, gr) = (general.file().index(), general.rank().index());
        let near = |sq: Square| {
            let (f, r) = (sq.file().index(), sq.rank().index());
            f == gf || r == gr || (f.abs_diff(gf) == 1 && r.abs_diff(gr) == 1)
        };
        if !near(mv.from) && !near(mv.to) {
            return true;
        }
    }
    let king = if is_general { mv.to } else { general };
    !in_check(&After { board, mv, piece }, king, piece.color)
}

/// Every legal move of `color` on `board` under `rules`, piece by piece from `a0`.
pub fn generate(board: &Board, color: Color, rules: Rules, out: &mut Vec<Move>) {
    generate_for(board, board.pieces(), color, rules, out);
}

/// Every legal move of `color`'s pieces among `pieces` (the pieces on `board`, in any order),
/// piece by piece.
pub fn generate_for(
    board: &impl Occupancy,
    pieces: impl IntoIterator<Item = (Square, Piece)> + Clone,
    color: Color,
    rules: Rules,
    out: &mut Vec<Move>,
) {
    let general = pieces
        .clone()
        .into_iter()
        .find(|&(_, p)| p == Piece { color, role: Role::General })
        .map(|(sq, _)| sq);
    for (from, piece) in pieces.into_iter().filter(|(_, p)| p.color == color) {
        match rules {
            Rules::Hdu => {
                for_each_target(board, from, piece, |to| out.push(Move { from, to }));
                if piece.role == Role::General
                    && let Some(to) = facing_general(board, from)
                {
                    out.push(Move { from, to });
                }
            }
            Rules::Standard | Rules::PerpetualCheck | Rules::CheckAndChase => {
                let Some(general) = general else { return };
                let checked = in_check(board, general, color);
                for_each_target(board, from, piece, |to| {
                    let mv = Move { from, to };
                    if is_safe_move(board, mv, piece, general, checked) {
                        out.push(mv);
                    }
                });
            }
        }
    }
}

/// Whether the General of `color`, on `general`, is in check in a position given as a list of
/// pieces (`squares[i]` holds `pieces[i]`; the slot `skip`, if any, is ignored: a piece just
/// captured). The same as [`in_check`] on the board of those pieces, but it looks only at the
/// few pieces there are instead of walking the lines of the board.
#[must_use]
pub fn in_check_pieces(
    squares: &[Square],
    pieces: &[Piece],
    general: Square,
    color: Color,
    skip: Option<usize>,
) -> bool {
    let (gf, gr) = (general.file().index() as i8, general.rank().index() as i8);
    let live = |i: usize| Some(i) != skip;
    // The pieces strictly between `general` and `sq` on a shared file or rank.
    let between = |sq: Square| {
        let (f, r) = (sq.file().index() as i8, sq.rank().index() as i8);
        squares
            .iter()
            .enumerate()
            .filter(|&(i, s)| {
                let (sf, sr) = (s.file().index() as i8, s.rank().index() as i8);
                live(i)
                    && if f == gf {
                        sf == f && (sr - r) * (sr - gr) < 0
                    } else {
                        sr == r && (sf - f) * (sf - gf) < 0
                    }
            })
            .count()
    };
    for (i, (&sq, &p)) in squares.iter().zip(pieces).enumerate() {
        if p.color == color || !live(i) {
            continue;
        }
        let (df, dr) = (gf - sq.file().index() as i8, gr - sq.rank().index() as i8);
        let attacks = match p.role {
            Role::General => df == 0 && between(sq) == 0,
            Role::Chariot => (df == 0 || dr == 0) && between(sq) == 0,
            Role::Cannon => (df == 0 || dr == 0) && between(sq) == 1,
            Role::Horse => {
                let leg = match (df.abs(), dr.abs()) {
                    (1, 2) => sq.offset(0, dr.signum()),
                    (2, 1) => sq.offset(df.signum(), 0),
                    _ => None,
                };
                leg.is_some_and(|leg| !squares.iter().enumerate().any(|(j, &s)| s == leg && live(j)))
            }
            Role::Soldier => {
                (df == 0 && dr == forward(p.color)) || (dr == 0 && df.abs() == 1 && across_river(sq, p.color))
            }
            Role::Advisor | Role::Elephant => false,
        };
        if attacks {
            return true;
        }
    }
    false
}
