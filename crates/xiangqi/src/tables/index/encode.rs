//! From a position to its index: the index of a placement's points, or of its mirror image
//! when that is the one indexed, and of a [`Position`] (also seen from the other side).

use crate::rules::color::Color;
use crate::rules::piece::{Piece, Role};
use crate::rules::position::Position;
use crate::rules::square::Square;

use super::{MAX_MEN, MaterialIndex, NOWHERE, on_axis};

impl MaterialIndex {
    /// The index of the position with these points (in slot order, identical pieces in
    /// increasing point order) and side to move, if every piece may stand on its point. Does
    /// not check that the points are distinct.
    #[must_use]
    pub fn index_of(&self, squares: &[Square], turn: Color) -> Option<usize> {
        if squares.len() != self.slots.len() {
            return None;
        }
        let mut index = turn.index();
        for (weights, sq) in self.weights.iter().zip(squares) {
            let w = weights[sq.index()];
            if w == usize::MAX {
                return None;
            }
            index += w;
        }
        Some(index)
    }

    /// The mirror image of `squares` (identical pieces put back in order), written to `image`.
    fn mirror<'a>(&self, squares: &[Square], image: &'a mut [Square]) -> &'a mut [Square] {
        let image = &mut image[..squares.len()];
        for (m, sq) in image.iter_mut().zip(squares) {
            *m = sq.mirror();
        }
        self.canonicalize(image);
        image
    }

    /// Whether the position of these points (in slot order, identical pieces in order) is its
    /// own mirror image: it stands for itself only, any other for itself and its image.
    #[must_use]
    pub fn is_symmetric(&self, squares: &[Square]) -> bool {
        let mut image = [Square::A0; MAX_MEN];
        on_axis(squares[0]) && self.mirror(squares, &mut image) == squares
    }

    /// The index of the position with these points (in slot order, in any order among
    /// identical pieces, Red's General on any file of its palace) or of its mirror image,
    /// whichever is indexed; `None` when a piece is not on a point it may stand on. The points
    /// are put in order (and mirrored when the image is the one indexed).
    pub fn canonical_index(&self, squares: &mut [Square], turn: Color) -> Option<usize> {
        self.canonicalize(squares);
        let file = squares.first()?.file().index();
        if file > 4 || on_axis(squares[0]) {
            let mut image = [Square::A0; MAX_MEN];
            let image = self.mirror(squares, &mut image);
            let mirrored = self.index_of(image, turn)?;
            if file > 4 || self.index_of(squares, turn).is_some_and(|i| mirrored < i) {
                squares.copy_from_slice(image);
                return Some(mirrored);
            }
        }
        self.index_of(squares, turn)
    }

    /// The index of these points (in slot order) with the mirror image of every point, the
    /// side to move `turn`, if Red's General's image is a point of the index (not right of the
    /// axis). Only without identical pieces.
    #[must_use]
    pub fn mirror_index(&self, squares: &[Square], turn: Color) -> Option<usize> {
        debug_assert!(!self.identical);
        let mut index = 0;
        for (slot, &sq) in self.slots.iter().zip(squares) {
            let n = slot.number[sq.mirror().index()];
            if n == NOWHERE {
                return None;
            }
            index = index * slot.points.len() + usize::from(n);
        }
        Some(index * 2 + turn.index())
    }

    /// Puts identical pieces back into increasing point order (after one of them moved).
    #[inline]
    pub fn canonicalize(&self, squares: &mut [Square]) {
        if !self.identical {
            return;
        }
        for g in self.groups.iter().filter(|g| g.k > 1) {
            // An insertion sort: at most five points, usually all but one in order already.
            let set = &mut squares[g.start..g.start + g.k];
            for i in 1..set.len() {
                let mut j = i;
                while j > 0 && set[j - 1] > set[j] {
                    set.swap(j - 1, j);
                    j -= 1;
                }
            }
        }
    }

    /// The index of a position of this material (or of its mirror image, whichever is indexed).
    #[must_use]
    pub fn encode(&self, position: &Position) -> Option<usize> {
        self.encode_seen(position, false)
    }

    /// The index of `position` seen from the other side ([`Position::colour_twin`]: colours
    /// swapped, points flipped, the other side to move) in this index, that of its colour
    /// twin material; `None` when that is of another material. Without building the twin.
    #[must_use]
    pub fn encode_colour_twin(&self, position: &Position) -> Option<usize> {
        self.encode_seen(position, true)
    }

    /// [`MaterialIndex::encode`] of `position`, or of its colour twin when `twin`.
    fn encode_seen(&self, position: &Position, twin: bool) -> Option<usize> {
        // Each kind of piece's first slot and number of slots (pieces of a kind are in
        // consecutive slots).
        const KINDS: usize = 2 * Role::COUNT;
        let kind = |p: Piece| p.color.index() * Role::COUNT + p.role.index();
        let (mut first, mut count) = ([0u8; KINDS], [0u8; KINDS]);
        for (s, slot) in self.slots.iter().enumerate() {
            let k = kind(slot.piece);
            if count[k] == 0 {
                first[k] = s as u8;
            }
            count[k] += 1;
        }
        // One pass over the board; identical pieces are put in order by `canonical_index`.
        // Another material (a piece too many or missing) has no index here.
        let mut squares = [Square::A0; MAX_MEN];
        let mut placed = [0u8; KINDS];
        let mut men = 0;
        for (sq, piece) in position.board().pieces() {
            let (sq, piece) =
                if twin { (sq.flip(), Piece { color: !piece.color, role: piece.role }) } else { (sq, piece) };
            let k = kind(piece);
            if placed[k] == count[k] {
                return None;
            }
            squares[usize::from(first[k] + placed[k])] = sq;
            placed[k] += 1;
            men += 1;
        }
        if men != self.slots.len() {
            return None;
        }
        let turn = if twin { !position.turn() } else { position.turn() };
        self.canonical_index(&mut squares[..men], turn)
    }
}
