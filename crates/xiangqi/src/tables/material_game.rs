//! One material under one rule set as the core solver sees it: positions numbered by
//! [`MaterialIndex`], moves and un-moves on piece lists.
//!
//! A move that captures a General wins at once (`Successor::Known(loss in 0)` for the side
//! left without it); any other capture leads into a smaller material, solved first, whose value
//! is looked up (`Successor::Known`). Under `standard` rules the placements where the side not
//! to move is in check are holes of the index, and a move is legal when it leaves its General
//! out of check (looked at closely only when the General moves, is in check, or the piece moves
//! from or to its file, rank or a Horse-leg point next to it).

use std::ops::ControlFlow;

use endgame_core::conformance::Indexed;
use endgame_core::{FirstLook, Game, Successor, Unmoves, Value};

use crate::rules::bitboard::{Bits, attacks, between, for_each_point, in_check_bits, origins, targets};
use crate::rules::color::Color;
use crate::rules::material::Material;
use crate::rules::movegen::Sides;
use crate::rules::moves::Move;
use crate::rules::piece::{Piece, Role};
use crate::rules::position::Position;
use crate::rules::rule_set::Rules;
use crate::rules::square::Square;
use crate::tables::index::{MAX_MEN, MaterialIndex, without_slot};
use crate::tables::memory_tables::{MemoryTables, Table};

/// A solved smaller material as the captures of a solve read it: its index and the value of
/// each index a capture leads to (a legal position, never a hole). A table in memory
/// ([`Table`]) is one; so is a table read block by block from its files (the store's
/// generation, which holds no smaller table whole: see `docs/generation.md`).
pub trait CaptureTable: Sync {
    /// The index of the material's positions.
    fn index(&self) -> &MaterialIndex;
    /// The value of index `i`, a legal position.
    fn value(&self, i: usize) -> Value;
}

impl CaptureTable for Table {
    fn index(&self) -> &MaterialIndex {
        Table::index(self)
    }

    #[inline]
    fn value(&self, i: usize) -> Value {
        self.solution().value(i).expect("a position after a capture is in the smaller table")
    }
}

/// The table that answers for a material (`None` when none is solved), and whether it is that
/// material's colour twin's (a position is then looked up there seen from the other side).
pub type Answering<'a> = Option<(&'a dyn CaptureTable, bool)>;

/// The positions of one material under one rule set, as the core solver sees them.
pub struct MaterialGame<'a> {
    index: &'a MaterialIndex,
    rules: Rules,
    /// For each slot, the table that answers for the material left when its piece is captured
    /// (if solved), and whether it is that material's colour twin's.
    captures: Vec<Answering<'a>>,
    /// No identical pieces: a move's index follows from the index before it (and that of its
    /// mirror image) in O(1).
    fast: bool,
    /// A number no other game of this process has: the key of the placement cache.
    id: usize,
    /// Per colour: the slot of its General, and the enemy pieces that may attack it (all but
    /// Advisors and Elephants, which never leave their own half) with their slots.
    generals: [usize; 2],
    attackers: [Vec<(usize, Piece)>; 2],
    /// Per colour: whether the other side has a Cannon (else no point screens one).
    cannons: [bool; 2],
}

/// The last placement a thread decoded in [`Game::first_look`]: the two positions of a
/// placement (Red and Black to move, indices `2k` and `2k + 1`) come one after the other in the
/// solver's first pass and share the decoding and both check tests.
#[derive(Clone, Copy)]
struct Placement {
    /// The game ([`MaterialGame::id`]) and the placement (index / 2) this is of; 0 and
    /// `usize::MAX` for none.
    game: usize,
    half: usize,
    /// The points, when the placement is indexed (not a hole of the index).
    squares: Option<[Square; MAX_MEN]>,
    /// Whether Red's and Black's General is in check.
    checks: [bool; 2],
}

thread_local! {
    static LAST_PLACEMENT: std::cell::Cell<Placement> = const {
        std::cell::Cell::new(Placement { game: 0, half: usize::MAX, squares: None, checks: [false; 2] })
    };
}

/// The source of [`MaterialGame::id`].
static NEXT_GAME: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(1);

impl<'a> MaterialGame<'a> {
    /// The game of `index`'s material, with captures looked up in `smaller`.
    #[must_use]
    pub fn new(index: &'a MaterialIndex, rules: Rules, smaller: &'a MemoryTables) -> Self {
        MaterialGame::with_captures(index, rules, |material| {
            smaller.answering(material).map(|(table, flipped)| (table as &dyn CaptureTable, flipped))
        })
    }

    /// The game of `index`'s material, with captures looked up in the tables `answering`
    /// names for each smaller material.
    #[must_use]
    pub fn with_captures(
        index: &'a MaterialIndex,
        rules: Rules,
        answering: impl Fn(Material) -> Answering<'a>,
    ) -> Self {
        let captures = (0..index.pieces().len())
            .map(|slot| {
                let mut material = index.material();
                material.remove(index.piece(slot));
                answering(material)
            })
            .collect();
        let id = NEXT_GAME.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let pieces = index.pieces();
        let colors = [Color::Red, Color::Black];
        let generals = colors.map(|color| {
            pieces
                .iter()
                .position(|p| p.color == color && p.role == Role::General)
                .expect("a General of each side")
        });
        let attackers = colors.map(|color| {
            let attacking = |p: &Piece| p.color != color && !matches!(p.role, Role::Advisor | Role::Elephant);
            pieces.iter().copied().enumerate().filter(|(_, p)| attacking(p)).collect()
        });
        let cannons = colors.map(|color| pieces.iter().any(|p| p.color != color && p.role == Role::Cannon));
        MaterialGame {
            index,
            rules,
            captures,
            fast: !index.has_identical(),
            id,
            generals,
            attackers,
            cannons,
        }
    }

    /// The index of the position after the piece of `slot` went from `from` to an empty point
    /// `to` (in the position with these points, index `pos` and side to move `turn`), whichever
    /// of it and its mirror image is indexed. `mirror_base` caches the index of the mirror
    /// image of the position before the move.
    #[inline]
    fn child_index(
        &self,
        pos: usize,
        squares: &[Square],
        turn: Color,
        (slot, from, to): (usize, Square, Square),
        mirror_base: &mut Option<Option<usize>>,
    ) -> usize {
        if self.fast {
            let general = if slot == 0 { to } else { squares[0] };
            let file = general.file().index();
            if file < 4 {
                return self
                    .index
                    .moved_to(pos, slot, from, to)
                    .expect("Red's General stays on an indexed point");
            }
            if let Some(base) = *mirror_base.get_or_insert_with(|| self.index.mirror_index(squares, turn)) {
                let mirrored = self
                    .index
                    .moved_to(base, slot, from.mirror(), to.mirror())
                    .expect("the image of Red's General is on an indexed point");
                if file > 4 {
                    return mirrored;
                }
                let raw = self.index.moved_to(pos, slot, from, to).expect("the axis is indexed");
                return raw.min(mirrored);
            }
        }
        let mut child = [Square::A0; MAX_MEN];
        let child = &mut child[..squares.len()];
        child.copy_from_slice(squares);
        child[slot] = to;
        self.index.canonical_index(child, !turn).expect("moves stay on legal points")
    }
}

impl Game for MaterialGame<'_> {
    type Move = Move;

    fn num_positions(&self) -> usize {
        self.index.len()
    }

    /// From the placement (cached for the other side to move, and for the moves and the check
    /// test that follow: see `MaterialGame::points_and_check`).
    fn is_position(&self, pos: usize) -> bool {
        match self.rules {
            Rules::Hdu => {
                let mut all = [Square::A0; MAX_MEN];
                self.index.squares(pos, &mut all).is_some()
            }
            Rules::Standard | Rules::PerpetualCheck | Rules::CheckAndChase => {
                self.points_and_check(pos).is_some()
            }
        }
    }

    fn terminal(&self, _pos: usize) -> Option<Value> {
        // Every indexed position has both Generals: the game ends only by a capture.
        None
    }

    /// Works on the pieces' points: a move changes one point (the child's index follows), a
    /// capture also drops a piece (the smaller material's index of the rest).
    /// The points from this thread's last placement when it is `pos`'s.
    fn for_each_move(&self, pos: usize, mut f: impl FnMut(Move, Successor)) {
        let _ = self.try_for_each_move(pos, |mv, to| {
            f(mv, to);
            ControlFlow::Continue(())
        });
    }

    /// Stops generating at the break (the moves' order is [`Game::for_each_move`]'s).
    fn try_for_each_move(
        &self,
        pos: usize,
        f: impl FnMut(Move, Successor) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if let Some(placement) = self.cached_placement(pos) {
            return match placement.squares {
                Some(all) => self.moves::<true>(pos, &all, MaterialIndex::turn(pos), f),
                None => ControlFlow::Continue(()),
            };
        }
        let mut all = [Square::A0; MAX_MEN];
        let Some(turn) = self.index.squares(pos, &mut all) else { return ControlFlow::Continue(()) };
        self.moves::<true>(pos, &all, turn, f)
    }

    /// The moves without the indices of the positions they lead to.
    fn for_each_move_value(&self, pos: usize, f: impl FnMut(Option<Value>)) {
        let mut all = [Square::A0; MAX_MEN];
        let Some(turn) = self.index.squares(pos, &mut all) else { return };
        self.move_values(pos, &all, turn, None, f);
    }

    /// One decoding of the index for the legality test and the moves, shared with the other
    /// position of the same placement (see `Placement`).
    fn first_look(&self, pos: usize, f: impl FnMut(Option<Value>)) -> FirstLook {
        if !self.rules.forbids_check() {
            let mut all = [Square::A0; MAX_MEN];
            let Some(turn) = self.index.squares(pos, &mut all) else { return FirstLook::Hole };
            self.move_values(pos, &all, turn, None, f);
            return FirstLook::Moves;
        }
        let placement = self.placement(pos);
        let Some(all) = placement.squares else { return FirstLook::Hole };
        let turn = MaterialIndex::turn(pos);
        if placement.checks[(!turn).index()] {
            return FirstLook::Hole;
        }
        self.move_values(pos, &all, turn, Some(placement.checks[turn.index()]), f);
        FirstLook::Moves
    }
}

impl MaterialGame<'_> {
    /// Whether the General of `color`, on `general`, is in check: [`in_check_bits`] on the
    /// pieces that may attack it.
    #[inline]
    fn in_check(
        &self,
        occupied: u128,
        squares: &[Square],
        general: Square,
        color: Color,
        skip: Option<usize>,
    ) -> bool {
        self.attackers[color.index()]
            .iter()
            .any(|&(slot, p)| Some(slot) != skip && attacks(occupied, squares[slot], p, general))
    }

    /// This thread's last placement, when it is that of `pos`.
    fn cached_placement(&self, pos: usize) -> Option<Placement> {
        let last = LAST_PLACEMENT.get();
        (last.game == self.id && last.half == pos / 2).then_some(last)
    }

    /// The points of the placement of `pos` and whether each General is in check there, from
    /// this thread's cache when it holds the placement.
    fn placement(&self, pos: usize) -> Placement {
        if let Some(placement) = self.cached_placement(pos) {
            return placement;
        }
        let mut all = [Square::A0; MAX_MEN];
        let mut placement = Placement { game: self.id, half: pos / 2, squares: None, checks: [false; 2] };
        if self.index.squares(pos, &mut all).is_some() {
            let pieces = self.index.pieces();
            let squares = &all[..pieces.len()];
            let occupied = squares.iter().fold(0u128, |m, s| m | s.bit());
            for color in [Color::Red, Color::Black] {
                let general = squares[self.generals[color.index()]];
                placement.checks[color.index()] = self.in_check(occupied, squares, general, color, None);
            }
            placement.squares = Some(all);
        }
        LAST_PLACEMENT.set(placement);
        placement
    }
}

impl MaterialGame<'_> {
    /// [`Game::for_each_move_value`] of the position `pos` with these points (`checked`:
    /// whether the side to move is in check, if known): the moves as sets of points from the
    /// step tables; out of check, the legal non-captures of a piece other than the General are
    /// counted by a mask (see `cannon_screens`), and only captures and the moves that need a
    /// check test are looked at one by one.
    fn move_values(
        &self,
        pos: usize,
        all: &[Square; MAX_MEN],
        turn: Color,
        checked: Option<bool>,
        mut f: impl FnMut(Option<Value>),
    ) {
        if !self.rules.forbids_check() {
            // The flying general of HDU rules: the general path.
            let _ = self.moves::<false>(pos, all, turn, |_, succ| {
                f(match succ {
                    Successor::Known(v) => Some(v),
                    Successor::Position(_) => None,
                });
                ControlFlow::Continue(())
            });
            return;
        }
        let n = self.index.pieces().len();
        let squares = &all[..n];
        let pieces = self.index.pieces();
        let bits = Bits::new(squares, pieces);
        let general = squares[self.generals[turn.index()]];
        let occupied = bits.occupied();
        let checked = checked.unwrap_or_else(|| self.in_check(occupied, squares, general, turn, None));
        let mut far_screens = None;
        for (slot, (&from, &piece)) in squares.iter().zip(pieces).enumerate() {
            if piece.color != turn {
                continue;
            }
            let reach = targets(&bits, from, piece);
            let screens =
                self.screens((squares, occupied, general, turn), from, piece, checked, &mut far_screens);
            if let Some(screens) = screens {
                let legal = reach & !screens;
                for _ in 0..(legal & !occupied).count_ones() {
                    f(None);
                }
                for_each_point(legal & occupied, |to| f(Some(self.capture_value(all, slot, to, turn))));
            } else {
                for_each_point(reach, |to| {
                    let taken =
                        if occupied & to.bit() == 0 { None } else { squares.iter().position(|&s| s == to) };
                    let king = if piece.role == Role::General { to } else { general };
                    let after_occupied = (occupied & !from.bit()) | to.bit();
                    // The check test reads the enemy's points only: the moved piece is not one.
                    if !self.in_check(after_occupied, squares, king, turn, taken) {
                        f(taken.map(|_| self.capture_value(all, slot, to, turn)));
                    }
                });
            }
        }
    }

    /// Out of check, for a piece on `from` other than the General: the points it may not move
    /// to, the screens its move would make for the enemy's Cannons (`far_screens`: those of
    /// a piece off the General's lines and legs, the same for all, worked out once). `None`
    /// when each move needs its own check test: in check, a move of the General, or a piece
    /// whose leaving `from` exposes the General.
    #[inline]
    fn screens(
        &self,
        (squares, occupied, general, turn): (&[Square], u128, Square, Color),
        from: Square,
        piece: Piece,
        checked: bool,
        far_screens: &mut Option<u128>,
    ) -> Option<u128> {
        if checked || piece.role == Role::General {
            return None;
        }
        let pieces = self.index.pieces();
        let cannons = self.cannons[turn.index()];
        let vacated = occupied & !from.bit();
        if !near(from, general) {
            Some(*far_screens.get_or_insert_with(|| {
                if cannons { cannon_screens(occupied, squares, pieces, general, turn) } else { 0 }
            }))
        } else if self.in_check(vacated, squares, general, turn, None) {
            None
        } else if cannons {
            Some(cannon_screens(vacated, squares, pieces, general, turn))
        } else {
            Some(0)
        }
    }

    /// The points of the position `pos` (`None` for a hole of the index under rules that
    /// forbid check) and whether its side to move is in check, from this thread's cache of
    /// the last placement (shared with the other position of the placement).
    pub(crate) fn points_and_check(&self, pos: usize) -> Option<([Square; MAX_MEN], bool)> {
        let placement = self.placement(pos);
        let turn = MaterialIndex::turn(pos);
        let all = placement.squares?;
        if self.rules.forbids_check() && placement.checks[(!turn).index()] {
            return None;
        }
        Some((all, placement.checks[turn.index()]))
    }

    /// The legal captures of the position with these points and `turn` to move (`checked`:
    /// whether its side to move is in check), under rules that forbid check: `f` gets the
    /// slot of the piece that moves, the point it takes and the slot of the piece taken. As
    /// [`MaterialGame::move_values`], with the moves to empty points skipped.
    pub(crate) fn for_each_capture(
        &self,
        all: &[Square; MAX_MEN],
        turn: Color,
        checked: bool,
        mut f: impl FnMut(usize, Square, usize),
    ) {
        debug_assert!(self.rules.forbids_check(), "captures under the flying general");
        let n = self.index.pieces().len();
        let squares = &all[..n];
        let pieces = self.index.pieces();
        let bits = Bits::new(squares, pieces);
        let general = squares[self.generals[turn.index()]];
        let occupied = bits.occupied();
        let taken = |to: Square| squares.iter().position(|&s| s == to).expect("a piece to capture");
        let mut far_screens = None;
        for (slot, (&from, &piece)) in squares.iter().zip(pieces).enumerate() {
            if piece.color != turn {
                continue;
            }
            let reach = targets(&bits, from, piece) & occupied;
            if reach == 0 {
                continue;
            }
            let screens =
                self.screens((squares, occupied, general, turn), from, piece, checked, &mut far_screens);
            if let Some(screens) = screens {
                for_each_point(reach & !screens, |to| f(slot, to, taken(to)));
            } else {
                for_each_point(reach, |to| {
                    let taken = taken(to);
                    let king = if piece.role == Role::General { to } else { general };
                    let after_occupied = occupied & !from.bit();
                    // The check test reads the enemy's points only, the taken piece skipped.
                    if !self.in_check(after_occupied, squares, king, turn, Some(taken)) {
                        f(slot, to, taken);
                    }
                });
            }
        }
    }

    /// The value, for the side to move after it, of the capture by the piece of `slot` on the
    /// point `to` (in the position with these points and `turn` to move).
    #[inline]
    fn capture_value(&self, all: &[Square; MAX_MEN], slot: usize, to: Square, turn: Color) -> Value {
        let n = self.index.pieces().len();
        let taken = all[..n].iter().position(|&s| s == to).expect("a piece to capture");
        if self.index.pieces()[taken].role == Role::General {
            return Value::loss_in(0);
        }
        let mut child = *all;
        let child = &mut child[..n];
        child[slot] = to;
        self.smaller_value(child, taken, !turn)
    }

    /// The moves of the position `pos` with these points and side to move; the successors'
    /// indices only when `INDICES` (else 0). Stops at the first move for which `f` breaks,
    /// and says whether one did.
    #[inline]
    fn moves<const INDICES: bool>(
        &self,
        pos: usize,
        all: &[Square; MAX_MEN],
        turn: Color,
        mut f: impl FnMut(Move, Successor) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let all = *all;
        let n = self.index.pieces().len();
        let squares = &all[..n];
        let pieces = self.index.pieces();
        let bits = Bits::new(squares, pieces);
        let general = squares
            [pieces.iter().position(|p| p.color == turn && p.role == Role::General).expect("a General")];
        let standard = self.rules.forbids_check();
        let occupied = bits.occupied();
        let checked = standard && in_check_bits(occupied, squares, pieces, general, turn, None);
        let mut mirror_base = None;
        let mut far_screens = None;
        let mut flow = ControlFlow::Continue(());
        for (slot, (&from, &piece)) in squares.iter().zip(pieces).enumerate() {
            if piece.color != turn {
                continue;
            }
            // Out of check, a piece other than the General whose leaving `from` exposes nothing
            // puts its General in check only by becoming a Cannon's screen: the moves to those
            // points are the illegal ones (see `cannon_screens`). Else every move is looked at.
            let screens = if standard && !checked && piece.role != Role::General {
                let vacated = occupied & !(1 << from.index());
                if !near(from, general) {
                    // Off the General's lines and legs, leaving `from` exposes nothing and
                    // changes no screen.
                    Some(
                        *far_screens
                            .get_or_insert_with(|| cannon_screens(occupied, squares, pieces, general, turn)),
                    )
                } else if in_check_bits(vacated, squares, pieces, general, turn, None) {
                    None
                } else {
                    Some(cannon_screens(vacated, squares, pieces, general, turn))
                }
            } else {
                None
            };
            let mut each = |to: Square| {
                if flow.is_break() {
                    return;
                }
                let mv = Move { from, to };
                let taken = if bits.is_empty(to) { None } else { squares.iter().position(|&s| s == to) };
                if let Some(screens) = screens {
                    if screens & (1 << to.index()) != 0 {
                        return;
                    }
                } else if standard && (checked || needs_check(mv, piece, general)) {
                    let mut after = all;
                    after[slot] = to;
                    let king = if piece.role == Role::General { to } else { general };
                    let after_occupied = (occupied & !(1 << from.index())) | 1 << to.index();
                    if in_check_bits(after_occupied, &after[..n], pieces, king, turn, taken) {
                        return;
                    }
                }
                let succ = match taken {
                    None if !INDICES => Successor::Position(0),
                    None if self.index.moves_in_place(squares, slot) => {
                        Successor::Position(self.index.moved(pos, slot, from, to))
                    }
                    None => Successor::Position(self.child_index(
                        pos,
                        squares,
                        turn,
                        (slot, from, to),
                        &mut mirror_base,
                    )),
                    Some(taken) if pieces[taken].role == Role::General => Successor::Known(Value::loss_in(0)),
                    Some(taken) => {
                        let mut child = all;
                        let child = &mut child[..n];
                        child[slot] = to;
                        Successor::Known(self.smaller_value(child, taken, !turn))
                    }
                };
                flow = f(mv, succ);
            };
            for_each_point(targets(&bits, from, piece), &mut each);
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
            if flow.is_break() {
                return flow;
            }
        }
        flow
    }
}

impl Unmoves for MaterialGame<'_> {
    /// Captures lead out of the material, so the un-moves are the moves without a capture
    /// taken back: the side that just moved puts one piece back. Under `standard` rules some
    /// of the positions reached that way are illegal (the side to move there would be giving
    /// check): holes of the index, which the solver ignores.
    fn for_each_unmove(&self, pos: usize, mut f: impl FnMut(usize)) {
        self.for_each_unmove_from(pos, |p, _, _, _| f(p));
    }
}

impl MaterialGame<'_> {
    /// [`Unmoves::for_each_unmove`] with the move taken back: `f(parent, squares, slot,
    /// from)`, where `squares` are the points of the position (or of its mirror image, the
    /// one the parent moves into) and the piece of `slot` came from `from` (the parent's
    /// points are `squares` with `from` in that slot; slots as the index numbers pieces).
    #[inline]
    pub(crate) fn for_each_unmove_from(
        &self,
        pos: usize,
        mut f: impl FnMut(usize, &[Square], usize, Square),
    ) {
        let mut all = [Square::A0; MAX_MEN];
        let Some(turn) = self.index.squares(pos, &mut all) else { return };
        let n = self.index.pieces().len();
        let pieces = self.index.pieces();
        // The position stands for its mirror image too: a move into either leads here. With
        // Red's General left of the axis, the image's un-moves that lead to indexed positions
        // are those of Red's General (after a move of Red); on the axis, all of them (unless
        // the position is its own image).
        let on_axis = all[0].file().index() == 4;
        let image_needed = if on_axis { !self.index.is_symmetric(&all[..n]) } else { turn == Color::Black };
        let mut image = all;
        if image_needed {
            for sq in &mut image[..n] {
                *sq = sq.mirror();
            }
            // Identical pieces in increasing order, as the index numbers them.
            self.index.canonicalize(&mut image[..n]);
        }
        for (mirrored, placement) in [(false, &all), (true, &image)] {
            if mirrored && !image_needed {
                break;
            }
            let squares = &placement[..n];
            // Right of the axis only Red's General can step back to where it is indexed.
            let only_general = squares[0].file().index() > 4;
            if only_general && turn == Color::Red {
                continue;
            }
            let bits = Bits::new(squares, pieces);
            // The index of these points (the position or its image, which may be a hole): the
            // parents' indices follow from it by changing one digit.
            let base = if mirrored { self.index.index_of(squares, turn) } else { Some(pos) };
            for (slot, (&to, &piece)) in squares.iter().zip(pieces).enumerate() {
                if piece.color == turn || (only_general && slot != 0) {
                    continue;
                }
                for_each_point(origins(&bits, to, piece), |from| {
                    if let Some(base) = base {
                        // Parents whose Red General stands right of the axis are not indexed.
                        if let Some(p) = self.index.moved_among(base, squares, slot, to, from) {
                            f(p, squares, slot, from);
                        }
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
                        f(p, squares, slot, from);
                    }
                });
            }
        }
    }
}

/// The points that would screen an enemy Cannon's attack on the General of `color` (on
/// `general`): every point between it and a Cannon on its file or rank with no piece between
/// them (in `occupied`).
fn cannon_screens(
    occupied: u128,
    squares: &[Square],
    pieces: &[Piece],
    general: Square,
    color: Color,
) -> u128 {
    let mut screens = 0;
    for (&sq, &p) in squares.iter().zip(pieces) {
        if p.color != color && p.role == Role::Cannon {
            let between = between(sq, general);
            if occupied & between == 0 {
                screens |= between;
            }
        }
    }
    screens
}

/// Whether a move of `piece` may put its own General (on `general`, not in check) in check: a
/// move of the General, or from or to its file or rank, or from a point diagonally next to it
/// (a Horse's leg).
#[inline]
fn needs_check(mv: Move, piece: Piece, general: Square) -> bool {
    piece.role == Role::General || near(mv.from, general) || near(mv.to, general)
}

/// Whether `sq` is on the file or rank of `general` or diagonally next to it (a Horse's leg).
#[inline]
fn near(sq: Square, general: Square) -> bool {
    let (gf, gr) = (general.file().index(), general.rank().index());
    let (f, r) = (sq.file().index(), sq.rank().index());
    f == gf || r == gr || (f.abs_diff(gf) == 1 && r.abs_diff(gr) == 1)
}

impl MaterialGame<'_> {
    /// The value after a capture: the pieces but the taken one, in the smaller material.
    fn smaller_value(&self, squares: &mut [Square], taken: usize, turn: Color) -> Value {
        let (table, flipped) = self.captures[taken].expect("the materials after a capture are solved first");
        let (mut rest, n) = without_slot(squares, taken);
        let rest = &mut rest[..n];
        let i = if flipped {
            table.index().index_of_twin_position(rest, turn)
        } else {
            table.index().canonical_index(rest, turn)
        };
        table.value(i.expect("pieces stay on legal points"))
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
