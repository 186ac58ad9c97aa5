//! A dense index of the positions of one material.
//!
//! Every piece has a slot with the points it may stand on (a General: the nine points of its
//! palace; a Horse: all 90). A position's index is its slots' point numbers read as one
//! mixed-radix number, Red's pieces first, then the side to move as the lowest digit. Two
//! pieces on one point are holes; identical pieces are kept in increasing point order, so
//! their other orders are holes too. `KvKN` has 9 x 9 x 90 x 2 = 14,580 indices.

use crate::board::Board;
use crate::material::Material;
use crate::piece::{Color, Piece, Role};
use crate::position::Position;
use crate::square::Square;

const NOWHERE: u8 = u8::MAX;

#[derive(Clone, Debug)]
struct Slot {
    piece: Piece,
    points: Vec<Square>,
    /// For each point of the board, its number among `points`, or [`NOWHERE`].
    number: [u8; Square::COUNT],
}

impl Slot {
    fn new(piece: Piece) -> Slot {
        let points: Vec<Square> = match piece.role {
            Role::General => Square::palace(piece.color),
            Role::Horse => Square::all().collect(),
        };
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
    len: usize,
}

impl MaterialIndex {
    /// The index of `material`'s positions.
    #[must_use]
    pub fn new(material: Material) -> MaterialIndex {
        let slots: Vec<Slot> = material.pieces().into_iter().map(Slot::new).collect();
        let len = slots.iter().map(|s| s.points.len()).product::<usize>() * 2;
        MaterialIndex { material, slots, len }
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
    pub fn pieces(&self) -> impl Iterator<Item = Piece> + '_ {
        self.slots.iter().map(|s| s.piece)
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

    /// The position with this index; `None` for holes and numbers past the end.
    #[must_use]
    pub fn decode(&self, index: usize) -> Option<Position> {
        if index >= self.len {
            return None;
        }
        let turn = MaterialIndex::turn(index);
        let mut rest = index / 2;
        let mut squares = [Square::from_index(0)?; 32];
        let squares = &mut squares[..self.slots.len()];
        for (slot, sq) in self.slots.iter().zip(squares.iter_mut()).rev() {
            *sq = slot.points[rest % slot.points.len()];
            rest /= slot.points.len();
        }
        let mut board = Board::empty();
        for (i, (slot, &sq)) in self.slots.iter().zip(squares.iter()).enumerate() {
            let identical_before = i > 0 && self.slots[i - 1].piece == slot.piece;
            if board.set(sq, Some(slot.piece)).is_some() || (identical_before && squares[i - 1] > sq) {
                return None;
            }
        }
        Some(Position::from_parts(board, turn))
    }

    /// The index of a position of this material.
    #[must_use]
    pub fn encode(&self, position: &Position) -> Option<usize> {
        if position.material() != self.material {
            return None;
        }
        // Identical pieces come out of the board in increasing point order, as the index wants.
        let mut squares = Vec::with_capacity(self.slots.len());
        for piece in self.pieces() {
            if !squares.is_empty() && self.slots[squares.len() - 1].piece == piece {
                continue;
            }
            squares.extend(position.board().pieces().filter(|&(_, p)| p == piece).map(|(sq, _)| sq));
        }
        self.index_of(&squares, position.turn())
    }
}
