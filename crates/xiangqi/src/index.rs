//! A dense index of the positions of one material.
//!
//! Every piece has a slot with the points it may stand on (a General: the nine points of its
//! palace; a Horse: all 90). A position's index is its slots' point numbers read as one
//! mixed-radix number, Red's pieces first, then the side to move as the lowest digit. Two
//! pieces on one point are holes; identical pieces are kept in increasing point order, so
//! their other orders are holes too. `KvKN` has 9 x 9 x 90 x 2 = 14,580 indices.

use crate::board::Board;
use crate::material::Material;
use crate::piece::{Color, Piece};
use crate::position::Position;
use crate::square::Square;

const NOWHERE: u8 = u8::MAX;

/// The most pieces a position has (16 a side).
pub const MAX_MEN: usize = 32;

#[derive(Clone, Debug)]
struct Slot {
    piece: Piece,
    points: Vec<Square>,
    /// For each point of the board, its number among `points`, or [`NOWHERE`].
    number: [u8; Square::COUNT],
}

impl Slot {
    fn new(piece: Piece) -> Slot {
        let points = piece.points();
        let mut number = [NOWHERE; Square::COUNT];
        for (i, sq) in points.iter().enumerate() {
            number[sq.index()] = i as u8;
        }
        Slot { piece, points, number }
    }
}

/// The dense index of one material's positions.
#[derive(Clone, Debug)]
pub struct MaterialIndex {
    material: Material,
    slots: Vec<Slot>,
    pieces: Vec<Piece>,
    len: usize,
    /// Whether two slots hold identical pieces.
    identical: bool,
    /// What one step of each slot's point number adds to the index.
    strides: Vec<usize>,
}

impl MaterialIndex {
    /// The index of `material`'s positions.
    #[must_use]
    pub fn new(material: Material) -> MaterialIndex {
        let slots: Vec<Slot> = material.pieces().into_iter().map(Slot::new).collect();
        let len = slots.iter().map(|s| s.points.len()).product::<usize>() * 2;
        let identical = slots.windows(2).any(|w| w[0].piece == w[1].piece);
        let pieces = slots.iter().map(|s| s.piece).collect();
        let mut strides = vec![0; slots.len()];
        let mut stride = 2;
        for (i, slot) in slots.iter().enumerate().rev() {
            strides[i] = stride;
            stride *= slot.points.len();
        }
        MaterialIndex { material, slots, pieces, len, identical, strides }
    }

    /// The material.
    #[must_use]
    pub const fn material(&self) -> Material {
        self.material
    }

    /// The number of indices (holes included).
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether the index is empty (never: every material has two Generals).
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The pieces in slot order: Red's first, by kind in the order of [`Role::ALL`].
    #[must_use]
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The side to move of the position with this index (the lowest digit).
    #[must_use]
    pub const fn turn(index: usize) -> Color {
        if index.is_multiple_of(2) { Color::Red } else { Color::Black }
    }

    /// The index of the position with these points (in slot order) and side to move, if every
    /// piece may stand on its point. Does not check that the points are distinct.
    #[must_use]
    pub fn index_of(&self, squares: &[Square], turn: Color) -> Option<usize> {
        if squares.len() != self.slots.len() {
            return None;
        }
        let mut index = 0;
        for (slot, sq) in self.slots.iter().zip(squares) {
            let n = slot.number[sq.index()];
            if n == NOWHERE {
                return None;
            }
            index = index * slot.points.len() + usize::from(n);
        }
        Some(index * 2 + turn.index())
    }

    /// The points of the pieces (in slot order) of the position with this index, written to
    /// the start of `squares`, and its side to move; `None` for holes and numbers past the end.
    ///
    /// # Panics
    /// When `squares` is shorter than the number of pieces.
    pub fn squares(&self, index: usize, squares: &mut [Square]) -> Option<Color> {
        if index >= self.len {
            return None;
        }
        let squares = &mut squares[..self.slots.len()];
        // 32-bit divisions where the index allows: several times faster than 64-bit ones.
        if let Ok(small) = u32::try_from(index / 2) {
            let mut rest = small;
            for (slot, sq) in self.slots.iter().zip(squares.iter_mut()).rev() {
                let len = slot.points.len() as u32;
                *sq = slot.points[(rest % len) as usize];
                rest /= len;
            }
        } else {
            let mut rest = index / 2;
            for (slot, sq) in self.slots.iter().zip(squares.iter_mut()).rev() {
                *sq = slot.points[rest % slot.points.len()];
                rest /= slot.points.len();
            }
        }
        for i in 1..squares.len() {
            let identical_before = self.slots[i - 1].piece == self.slots[i].piece;
            if squares[..i].contains(&squares[i]) || (identical_before && squares[i - 1] > squares[i]) {
                return None;
            }
        }
        Some(MaterialIndex::turn(index))
    }

    /// Whether two pieces of the material are identical (then [`MaterialIndex::moved`] does not
    /// apply).
    #[must_use]
    pub const fn has_identical(&self) -> bool {
        self.identical
    }

    /// The index after the piece of `slot` went from `from` to `to` (an empty point it may
    /// stand on) and the turn passed, computed from `index` in O(1). Only for materials without
    /// identical pieces.
    #[inline]
    #[must_use]
    pub fn moved(&self, index: usize, slot: usize, from: Square, to: Square) -> usize {
        debug_assert!(!self.identical);
        let s = &self.slots[slot];
        let (a, b) = (usize::from(s.number[from.index()]), usize::from(s.number[to.index()]));
        debug_assert!(b != usize::from(NOWHERE));
        ((index + b * self.strides[slot]) - a * self.strides[slot]) ^ 1
    }

    /// Puts identical pieces back into increasing point order (after one of them moved).
    #[inline]
    pub fn canonicalize(&self, squares: &mut [Square]) {
        if !self.identical {
            return;
        }
        let mut start = 0;
        for i in 1..=squares.len() {
            if i == squares.len() || self.slots[i].piece != self.slots[start].piece {
                squares[start..i].sort_unstable();
                start = i;
            }
        }
    }

    /// The piece of slot `i`.
    #[must_use]
    pub fn piece(&self, i: usize) -> Piece {
        self.slots[i].piece
    }

    /// The board with the pieces on these points (in slot order).
    #[must_use]
    pub fn board(&self, squares: &[Square]) -> Board {
        let mut board = Board::empty();
        for (slot, &sq) in self.slots.iter().zip(squares) {
            board.set(sq, Some(slot.piece));
        }
        board
    }

    /// The position with this index; `None` for holes and numbers past the end.
    #[must_use]
    pub fn decode(&self, index: usize) -> Option<Position> {
        let mut squares = [Square::A0; MAX_MEN];
        let turn = self.squares(index, &mut squares)?;
        Some(Position::from_parts(self.board(&squares[..self.slots.len()]), turn))
    }

    /// The index of a position of this material.
    #[must_use]
    pub fn encode(&self, position: &Position) -> Option<usize> {
        if position.material() != self.material {
            return None;
        }
        // Identical pieces come out of the board in increasing point order, as the index wants.
        let mut squares = Vec::with_capacity(self.slots.len());
        for &piece in self.pieces() {
            if !squares.is_empty() && self.slots[squares.len() - 1].piece == piece {
                continue;
            }
            squares.extend(position.board().pieces().filter(|&(_, p)| p == piece).map(|(sq, _)| sq));
        }
        self.index_of(&squares, position.turn())
    }
}
