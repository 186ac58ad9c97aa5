//! The index after a move, from the index before it in O(1): the moved piece's digit changes
//! (with identical pieces, the digit of their set of points), the turn passes. What table
//! generation computes for every move and un-move.

use crate::rules::square::Square;

use super::{MAX_MEN, MaterialIndex, NOWHERE, on_axis};

impl MaterialIndex {
    /// Whether [`MaterialIndex::moved`] gives the index after the piece of `slot` moves from the
    /// position with these points: no identical pieces, and neither the mirror nor Red's
    /// General involved.
    #[inline]
    #[must_use]
    pub fn moves_in_place(&self, squares: &[Square], slot: usize) -> bool {
        !self.identical && slot != 0 && !on_axis(squares[0])
    }

    /// The index after the piece of `slot` went from `from` to `to` (an empty point it may
    /// stand on) and the turn passed, computed from `index` in O(1). Only where
    /// [`MaterialIndex::moves_in_place`] says so.
    #[inline]
    #[must_use]
    pub fn moved(&self, index: usize, slot: usize, from: Square, to: Square) -> usize {
        debug_assert!(!self.identical);
        let s = &self.slots[slot];
        let (a, b) = (usize::from(s.number[from.index()]), usize::from(s.number[to.index()]));
        debug_assert!(b != usize::from(NOWHERE));
        ((index + b * self.strides[slot]) - a * self.strides[slot]) ^ 1
    }

    /// The index after the piece of `slot` went from `from` to `to` (an empty point) and the
    /// turn passed, computed in O(1) from `index`, the index of the same points (in slot order)
    /// before the move, whichever of a position and its mirror image they are; `None` when the
    /// piece may not stand on `to` in the index (Red's General right of the axis). Only without
    /// identical pieces; the result may be a hole (the larger of a position on the axis and its
    /// image).
    #[inline(always)]
    #[must_use]
    pub fn moved_to(&self, index: usize, slot: usize, from: Square, to: Square) -> Option<usize> {
        debug_assert!(!self.identical);
        self.shift_point(index, slot, self.strides[slot], from, to)
    }

    /// [`MaterialIndex::moved_to`] for any material: `squares` are the points (in slot order,
    /// identical pieces in increasing order) of the position with index `index`, and
    /// `from == squares[slot]`. With identical pieces only the digit of the moved piece's group
    /// changes: the set of its points with `from` replaced by `to`.
    #[inline(always)]
    #[must_use]
    pub fn moved_among(
        &self,
        index: usize,
        squares: &[Square],
        slot: usize,
        from: Square,
        to: Square,
    ) -> Option<usize> {
        let stride = self.lone_strides[slot];
        if stride == 0 {
            return self.moved_in_group(index, squares, (slot, from, to));
        }
        // A piece alone in its group: its digit is its point number.
        self.shift_point(index, slot, stride, from, to)
    }

    /// `index` with the point number of the piece of `slot`, a digit worth `stride`, turned
    /// from that of `from` into that of `to`, and the turn passed; `None` when the piece may not
    /// stand on `to` in the index. The step [`MaterialIndex::moved_to`] and
    /// [`MaterialIndex::moved_among`] share.
    #[inline(always)]
    fn shift_point(
        &self,
        index: usize,
        slot: usize,
        stride: usize,
        from: Square,
        to: Square,
    ) -> Option<usize> {
        let s = &self.slots[slot];
        let (a, b) = (s.number[from.index()], s.number[to.index()]);
        if b == NOWHERE {
            return None;
        }
        debug_assert!(a != NOWHERE);
        Some(((index + usize::from(b) * stride) - usize::from(a) * stride) ^ 1)
    }

    /// [`MaterialIndex::moved_among`] for a piece of a group of identical pieces.
    #[inline(never)]
    fn moved_in_group(
        &self,
        index: usize,
        squares: &[Square],
        (slot, from, to): (usize, Square, Square),
    ) -> Option<usize> {
        let group = self.group_of[slot];
        let (g, stride) = (&self.groups[group], self.group_strides[group]);
        let number = &self.slots[slot].number;
        let (a, b) = (number[from.index()], number[to.index()]);
        if b == NOWHERE {
            return None;
        }
        debug_assert!(a != NOWHERE && squares[slot] == from);
        if g.k == 1 {
            return Some(((index + usize::from(b) * stride) - usize::from(a) * stride) ^ 1);
        }
        // The group's part of the index, before and after (the weights include its stride).
        let weights = &self.weights[g.start..g.start + g.k];
        let part = |set: &[Square]| -> usize { weights.iter().zip(set).map(|(w, sq)| w[sq.index()]).sum() };
        let mut set = [Square::A0; MAX_MEN];
        let set = &mut set[..g.k];
        set.copy_from_slice(&squares[g.start..g.start + g.k]);
        let old = part(set);
        // `to` replaces `from`, and moves to its place in increasing order.
        let mut j = slot - g.start;
        set[j] = to;
        while j > 0 && set[j - 1] > set[j] {
            set.swap(j - 1, j);
            j -= 1;
        }
        while j + 1 < set.len() && set[j + 1] < set[j] {
            set.swap(j, j + 1);
            j += 1;
        }
        Some(((index + part(set)) - old) ^ 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(5_000))]

        /// `moved_among` (one group's digit changed) against putting the piece on its new
        /// point, sorting identical pieces and encoding the whole placement, on random
        /// placements of materials with and without identical pieces, both sides to move.
        #[test]
        fn moved_among_agrees_with_encoding(
            material in proptest::sample::select(vec!["KRRvKP", "KvKPPP", "KAAvKBB", "KNCvKR", "KPPvKPP", "KNNvKA"]),
            index in 0usize..usize::MAX,
            slot in 0usize..MAX_MEN,
            to in 0usize..Square::COUNT,
        ) {
            let index_of_material = MaterialIndex::new(material.parse().unwrap());
            let ix = &index_of_material;
            let n = ix.pieces().len();
            let pos = index % ix.len();
            let mut squares = [Square::A0; MAX_MEN];
            // Holes are skipped (the solver never asks for their un-moves).
            if let Some(turn) = ix.squares(pos, &mut squares) {
                let squares = &squares[..n];
                let slot = slot % n;
                let (from, to) = (squares[slot], Square::from_index(to).unwrap());
                if !squares.contains(&to) {
                    let mut moved = squares.to_vec();
                    moved[slot] = to;
                    ix.canonicalize(&mut moved);
                    let expected = ix.index_of(&moved, !turn);
                    proptest::prop_assert_eq!(ix.moved_among(pos, squares, slot, from, to), expected);
                }
            }
        }
    }
}
