//! Chases: what the ban on perpetual chase forbids doing forever (the `check-and-chase` rule
//! set, [`crate::tables::perpetual`]).
//!
//! A **chase-attack** of a piece `X` on an enemy piece `Y`: `X` is not a General or a Soldier;
//! `Y` is not the General; `X` can capture `Y` now and the capture is legal (it leaves `X`'s
//! General neither attacked nor facing the other General; `X`'s side need not be to move);
//! and
//! - a Horse or a Cannon on a Chariot: always, protected or not;
//! - a Soldier is a target only once it has crossed the river;
//! - `X` and `Y` of the same kind (Chariot-Chariot, Horse-Horse, Cannon-Cannon): only when `Y`
//!   cannot legally capture `X` back, and `Y` is unprotected;
//! - otherwise: only when `Y` is unprotected.
//!
//! `Y` is **protected** when, after `X` captures on `Y`'s point, `Y`'s side has a legal
//! recapture there (any piece, its General included; pins and facing Generals count; a
//! Cannon's screen may be of either colour).
//!
//! A move (not a capture) is a **chase** when it gives no check and creates a new
//! chase-attack: a pair (a piece of the mover, an enemy piece) that is a chase-attack after
//! the move and was not one before it. A piece keeps its identity when it moves, so sliding
//! along the line it attacks on, or attacking the same target from another point, is not
//! new; a discovered attack, an attack made legal by the move, or a target that the move left
//! unprotected is.
//!
//! Everything works on a position given as piece lists (`squares[i]` holds `pieces[i]`), as
//! the tables' positions are, and on [`Position`]s.

use crate::rules::bitboard::{Bits, in_check_bits, targets};
use crate::rules::color::Color;
use crate::rules::movegen::across_river;
use crate::rules::moves::Move;
use crate::rules::piece::{Piece, Role};
use crate::rules::position::Position;
use crate::rules::square::Square;

/// The most pieces a position has (both Generals included).
const MAX: usize = 32;

/// A set of chase-attacks of one side: pairs (attacker's slot, target's slot) of a position's
/// piece lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attacks {
    pairs: [(u8, u8); MAX],
    len: usize,
}

impl Attacks {
    const fn new() -> Attacks {
        Attacks { pairs: [(0, 0); MAX], len: 0 }
    }

    fn push(&mut self, attacker: usize, target: usize) {
        // A side has at most 11 pieces that can chase and each attacks at most 8 points; the
        // capacity is far above what a legal position reaches, but stay safe.
        if self.len < MAX {
            self.pairs[self.len] = (attacker as u8, target as u8);
            self.len += 1;
        }
    }

    /// The pairs (attacker's slot, target's slot).
    pub fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.pairs[..self.len].iter().map(|&(a, t)| (usize::from(a), usize::from(t)))
    }

    /// Whether there is none.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The pairs of `self` that are not in `before` (the same slots standing for the same
    /// pieces).
    pub fn new_since<'a>(&'a self, before: &'a Attacks) -> impl Iterator<Item = (usize, usize)> + 'a {
        self.iter().filter(move |pair| !before.iter().any(|b| b == *pair))
    }
}

/// The slot of `color`'s General.
fn general(squares: &[Square], pieces: &[Piece], color: Color) -> Option<Square> {
    pieces.iter().position(|&p| p == Piece { color, role: Role::General }).map(|i| squares[i])
}

/// Whether the piece of slot `from` may capture the piece of slot `to` by its own rule and
/// legally: its General is then neither attacked nor facing the other.
fn legal_capture(squares: &[Square], pieces: &[Piece], bits: &Bits, from: usize, to: usize) -> bool {
    let (piece, target) = (pieces[from], squares[to]);
    if targets(bits, squares[from], piece) & (1 << target.index()) == 0 {
        return false;
    }
    let mut after = [Square::A0; MAX];
    let after = &mut after[..squares.len()];
    after.copy_from_slice(squares);
    after[from] = target;
    let occupied = bits.occupied() & !(1 << squares[from].index());
    let Some(king) = general(after, pieces, piece.color) else { return false };
    !in_check_bits(occupied, after, pieces, king, piece.color, Some(to))
}

/// Whether, after the piece of slot `x` captures the piece of slot `y`, `y`'s side has a
/// legal recapture on that point.
fn protected(squares: &[Square], pieces: &[Piece], x: usize, y: usize) -> bool {
    let point = squares[y];
    let color = pieces[y].color;
    // The position after the capture: `x` on `y`'s point, `y` gone.
    let n = squares.len();
    let (mut sq, mut pc) = ([Square::A0; MAX], [pieces[0]; MAX]);
    let mut m = 0;
    let mut x_after = 0;
    for i in 0..n {
        if i == y {
            continue;
        }
        sq[m] = if i == x { point } else { squares[i] };
        pc[m] = pieces[i];
        if i == x {
            x_after = m;
        }
        m += 1;
    }
    let (sq, pc) = (&sq[..m], &pc[..m]);
    let after = Bits::new(sq, pc);
    (0..m).any(|z| pc[z].color == color && legal_capture(sq, pc, &after, z, x_after))
}

/// Whether the piece of slot `x` chase-attacks the enemy piece of slot `y` (see the module
/// notes), in the position of these piece lists.
fn chase_attack(squares: &[Square], pieces: &[Piece], bits: &Bits, x: usize, y: usize) -> bool {
    let (attacker, target) = (pieces[x], pieces[y]);
    if matches!(attacker.role, Role::General | Role::Soldier) || target.role == Role::General {
        return false;
    }
    if target.role == Role::Soldier && !across_river(squares[y], target.color) {
        return false;
    }
    if !legal_capture(squares, pieces, bits, x, y) {
        return false;
    }
    if target.role == Role::Chariot && matches!(attacker.role, Role::Horse | Role::Cannon) {
        return true;
    }
    if attacker.role == target.role && legal_capture(squares, pieces, bits, y, x) {
        return false;
    }
    !protected(squares, pieces, x, y)
}

/// Every chase-attack of `side`'s pieces in the position of these piece lists (`side` need
/// not be to move).
#[must_use]
pub fn chase_attacks(squares: &[Square], pieces: &[Piece], side: Color) -> Attacks {
    let bits = Bits::new(squares, pieces);
    let mut attacks = Attacks::new();
    for x in 0..squares.len() {
        if pieces[x].color != side || matches!(pieces[x].role, Role::General | Role::Soldier) {
            continue;
        }
        for y in 0..squares.len() {
            if pieces[y].color != side && chase_attack(squares, pieces, &bits, x, y) {
                attacks.push(x, y);
            }
        }
    }
    attacks
}

/// Whether moving the piece of slot `slot` to the empty point `to` creates a new
/// chase-attack (the check test aside: see [`is_chase`]); `after` are the chase-attacks of
/// the mover after the move when known (they are the same for every move into one position).
#[must_use]
pub fn creates_chase_attack(
    squares: &[Square],
    pieces: &[Piece],
    slot: usize,
    to: Square,
    after: Option<&Attacks>,
) -> bool {
    let side = pieces[slot].color;
    let computed;
    let after = if let Some(after) = after {
        after
    } else {
        let mut moved = [Square::A0; MAX];
        let moved = &mut moved[..squares.len()];
        moved.copy_from_slice(squares);
        moved[slot] = to;
        computed = chase_attacks(moved, pieces, side);
        &computed
    };
    if after.is_empty() {
        return false;
    }
    let before = chase_attacks(squares, pieces, side);
    after.new_since(&before).next().is_some()
}

/// The piece lists of a position's board.
fn lists(position: &Position) -> (Vec<Square>, Vec<Piece>) {
    position.board().pieces().unzip()
}

/// Every chase-attack of `side`'s pieces in `position` (`side` need not be to move): the
/// attacker's point and the target's point.
#[must_use]
pub fn chase_attacks_in(position: &Position, side: Color) -> Vec<(Square, Square)> {
    let (squares, pieces) = lists(position);
    chase_attacks(&squares, &pieces, side).iter().map(|(a, t)| (squares[a], squares[t])).collect()
}

/// The chase-attacks that the legal move `mv` of `position` creates: (the attacker's point
/// and the target's point after the move), none for a capture or a check.
#[must_use]
pub fn new_chase_attacks(position: &Position, mv: Move) -> Vec<(Square, Square)> {
    if position.capture(mv).is_some() || position.play_unchecked(mv).in_check() {
        return Vec::new();
    }
    let (squares, pieces) = lists(position);
    let Some(slot) = squares.iter().position(|&s| s == mv.from) else { return Vec::new() };
    let before = chase_attacks(&squares, &pieces, position.turn());
    let mut moved = squares.clone();
    moved[slot] = mv.to;
    let after = chase_attacks(&moved, &pieces, position.turn());
    after.new_since(&before).map(|(a, t)| (moved[a], moved[t])).collect()
}

/// Whether the legal move `mv` of `position` is a chase: no capture, no check, and a new
/// chase-attack.
#[must_use]
pub fn is_chase(position: &Position, mv: Move) -> bool {
    !new_chase_attacks(position, mv).is_empty()
}
