//! One material under one rule set as the core solver sees it: positions numbered by
//! [`MaterialIndex`], moves and un-moves on piece lists.
//!
//! A move that captures a General wins at once (`Successor::Known(loss in 0)` for the side
//! left without it); any other capture leads into a smaller material, solved first, whose value
//! is looked up (`Successor::Known`). Under `standard` rules the placements where the side not
//! to move is in check are holes of the index, and a move is legal when it leaves its General
//! out of check (looked at closely only when the General moves, is in check, or the piece moves
//! from or to its file, rank or a Horse-leg point next to it).

use endgame_core::conformance::Indexed;
use endgame_core::{Game, Successor, Unmoves, Value};

use crate::index::{MAX_MEN, MaterialIndex};
use crate::moves::{Bits, Move, Sides, for_each_origin, for_each_target, in_check_pieces};
use crate::piece::{Color, Piece, Role};
use crate::position::Position;
use crate::rules::Rules;
use crate::square::Square;
use crate::tablebase::Tablebase;

/// The positions of one material under one rule set, as the core solver sees them.
pub struct MaterialGame<'a> {
    index: &'a MaterialIndex,
    rules: Rules,
    smaller: &'a Tablebase,
}

impl<'a> MaterialGame<'a> {
    /// The game of `index`'s material, with captures looked up in `smaller`.
    #[must_use]
    pub const fn new(index: &'a MaterialIndex, rules: Rules, smaller: &'a Tablebase) -> Self {
        MaterialGame { index, rules, smaller }
    }
}

impl Game for MaterialGame<'_> {
    type Move = Move;

    fn num_positions(&self) -> usize {
        self.index.len()
    }

    fn is_position(&self, pos: usize) -> bool {
        let mut all = [Square::A0; MAX_MEN];
        let Some(turn) = self.index.squares(pos, &mut all) else { return false };
        match self.rules {
            Rules::Hdu => true,
            Rules::Standard | Rules::PerpetualCheck => {
                legal(&all[..self.index.pieces().len()], self.index.pieces(), turn)
            }
        }
    }

    fn terminal(&self, _pos: usize) -> Option<Value> {
        // Every indexed position has both Generals: the game ends only by a capture.
        None
    }

    /// Works on the pieces' points: a move changes one point (the child's index follows), a
    /// capture also drops a piece (the smaller material's index of the rest).
    fn for_each_move(&self, pos: usize, mut f: impl FnMut(Move, Successor)) {
        let mut all = [Square::A0; MAX_MEN];
        let Some(turn) = self.index.squares(pos, &mut all) else { return };
        let n = self.index.pieces().len();
        let squares = &all[..n];
        let pieces = self.index.pieces();
        let bits = Bits::new(squares, pieces);
        let general = squares
            [pieces.iter().position(|p| p.color == turn && p.role == Role::General).expect("a General")];
        let standard = self.rules.forbids_check();
        let checked = standard && in_check_pieces(squares, pieces, general, turn, None);
        for (slot, (&from, &piece)) in squares.iter().zip(pieces).enumerate() {
            if piece.color != turn {
                continue;
            }
            let mut each = |to: Square| {
                let mv = Move { from, to };
                let taken = if bits.is_empty(to) { None } else { squares.iter().position(|&s| s == to) };
                if standard && (checked || needs_check(mv, piece, general)) {
                    let mut after = all;
                    after[slot] = to;
                    let king = if piece.role == Role::General { to } else { general };
                    if in_check_pieces(&after[..n], pieces, king, turn, taken) {
                        return;
                    }
                }
                let succ = match taken {
                    None if self.index.moves_in_place(squares, slot) => {
                        Successor::Position(self.index.moved(pos, slot, from, to))
                    }
                    None => {
                        let mut child = all;
                        let child = &mut child[..n];
                        child[slot] = to;
                        Successor::Position(
                            self.index.canonical_index(child, !turn).expect("moves stay on legal points"),
                        )
                    }
                    Some(taken) if pieces[taken].role == Role::General => Successor::Known(Value::loss_in(0)),
                    Some(taken) => {
                        let mut child = all;
                        let child = &mut child[..n];
                        child[slot] = to;
                        Successor::Known(self.smaller_value(child, taken, !turn))
                    }
                };
                f(mv, succ);
            };
            for_each_target(&bits, from, piece, &mut each);
            if self.rules == Rules::Hdu && piece.role == Role::General {
                // The flying general: the other General on this file with nothing between.
                let other = pieces.iter().position(|p| p.color != turn && p.role == Role::General);
                let other = squares[other.expect("a General")];
                let between = |s: &Square| {
                    s.file() == from.file()
                        && (s.rank() > from.rank().min(other.rank()))
                        && (s.rank() < from.rank().max(other.rank()))
                };
                if other.file() == from.file() && !squares.iter().any(between) {
                    each(other);
                }
            }
        }
    }
}

impl Unmoves for MaterialGame<'_> {
    /// Captures lead out of the material, so the un-moves are the moves without a capture
    /// taken back: the side that just moved puts one piece back. Under `standard` rules some
    /// of the positions reached that way are illegal (the side to move there would be giving
    /// check): holes of the index, which the solver ignores.
    fn for_each_unmove(&self, pos: usize, mut f: impl FnMut(usize)) {
        let mut all = [Square::A0; MAX_MEN];
        let Some(turn) = self.index.squares(pos, &mut all) else { return };
        let n = self.index.pieces().len();
        let pieces = self.index.pieces();
        // The position stands for its mirror image too: a move into either leads here.
        let mut image = all;
        for sq in &mut image[..n] {
            *sq = sq.mirror();
        }
        let symmetric = self.index.is_symmetric(&all[..n]);
        for (mirrored, placement) in [(false, &all), (true, &image)] {
            if mirrored && symmetric {
                break;
            }
            let squares = &placement[..n];
            // Right of the axis only Red's General can step back to where it is indexed.
            let only_general = squares[0].file().index() > 4;
            if only_general && turn == Color::Red {
                continue;
            }
            let bits = Bits::new(squares, pieces);
            for (slot, (&to, &piece)) in squares.iter().zip(pieces).enumerate() {
                if piece.color == turn || (only_general && slot != 0) {
                    continue;
                }
                for_each_origin(&bits, to, piece, |from| {
                    if !mirrored && self.index.moves_in_place(squares, slot) {
                        f(self.index.moved(pos, slot, to, from));
                        return;
                    }
                    // Parents whose Red General stands right of the axis are not indexed (their
                    // images are, and reach the image of this position); parents on the axis
                    // that are not indexed are holes, which the solver ignores.
                    let mut parent = *placement;
                    let parent = &mut parent[..n];
                    parent[slot] = from;
                    self.index.canonicalize(parent);
                    if let Some(p) = self.index.index_of(parent, !turn) {
                        f(p);
                    }
                });
            }
        }
    }
}

/// Whether a placement is a legal position with `turn` to move: the side not to move is not in
/// check (attacked, or its General facing the other on an open file).
#[must_use]
pub fn legal(squares: &[Square], pieces: &[Piece], turn: Color) -> bool {
    let general = Piece { color: !turn, role: Role::General };
    let at = pieces.iter().position(|&p| p == general).map(|i| squares[i]);
    at.is_some_and(|g| !in_check_pieces(squares, pieces, g, !turn, None))
}

/// Whether a move of `piece` may put its own General (on `general`, not in check) in check: a
/// move of the General, or from or to its file or rank, or from a point diagonally next to it
/// (a Horse's leg).
#[inline]
fn needs_check(mv: Move, piece: Piece, general: Square) -> bool {
    if piece.role == Role::General {
        return true;
    }
    let (gf, gr) = (general.file().index(), general.rank().index());
    let near = |sq: Square| {
        let (f, r) = (sq.file().index(), sq.rank().index());
        f == gf || r == gr || (f.abs_diff(gf) == 1 && r.abs_diff(gr) == 1)
    };
    near(mv.from) || near(mv.to)
}

impl MaterialGame<'_> {
    /// The value after a capture: the pieces but the taken one, in the smaller material.
    fn smaller_value(&self, squares: &mut [Square], taken: usize, turn: Color) -> Value {
        let mut material = self.index.material();
        material.remove(self.index.piece(taken));
        let table = self.smaller.table(material).expect("the materials after a capture are solved first");
        let mut rest = [Square::A0; MAX_MEN];
        let mut n = 0;
        for (i, &sq) in squares.iter().enumerate() {
            if i != taken {
                rest[n] = sq;
                n += 1;
            }
        }
        let rest = &mut rest[..n];
        let i = table.index().canonical_index(rest, turn).expect("pieces stay on legal points");
        table.solution().value(i).expect("a position after a capture is in the smaller table")
    }
}

impl Indexed for MaterialGame<'_> {
    type Position = Position;

    fn decode(&self, index: usize) -> Option<Position> {
        self.index.decode(index).filter(|_| self.is_position(index))
    }

    fn encode(&self, position: &Position) -> Option<usize> {
        self.index.encode(position)
    }
}
