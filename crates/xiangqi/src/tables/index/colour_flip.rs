//! From a material's index to its colour twin's ([`Material::colour_twin`]): the index of the
//! same position seen from the other side, one at a time ([`MaterialIndex::twin_index`]) or
//! for runs of indices at once ([`ColourFlip`]). How one table answers for both twins.
//!
//! [`Material::colour_twin`]: crate::rules::material::Material::colour_twin

use std::ops::Range;

use crate::rules::color::Color;
use crate::rules::square::Square;

use super::{MAX_MEN, MaterialIndex, on_axis};

impl MaterialIndex {
    /// The index in `twin`, the index of this material's colour twin
    /// ([`Material::colour_twin`]), of the position with this index seen from the other side
    /// (colours swapped, every point flipped, the other side to move): a position of the same
    /// value. `None` for holes of this index (the twin's index of an illegal position is a hole
    /// there too). [`ColourFlip`] does the same for many indices, faster.
    ///
    /// [`Material::colour_twin`]: crate::rules::material::Material::colour_twin
    ///
    /// # Panics
    /// When `twin` is not the index of this material's colour twin.
    #[must_use]
    pub fn twin_index(&self, twin: &MaterialIndex, index: usize) -> Option<usize> {
        assert_eq!(twin.material, self.material.colour_twin(), "not the colour twin");
        let mut squares = [Square::A0; MAX_MEN];
        let turn = self.squares(index, &mut squares)?;
        twin.index_of_twin_position(&squares[..self.slots.len()], turn)
    }

    /// The index here of the position of this material's colour twin with these points (in
    /// the twin's slot order: its Red pieces first, which are this material's Black ones) and
    /// `turn` to move, seen from the other side (colours swapped, every point flipped, the other
    /// side to move): a position of the same value. `None` when a piece stands where it may
    /// not. This is how a table answers for its colour twin.
    #[must_use]
    pub fn index_of_twin_position(&self, squares: &[Square], turn: Color) -> Option<usize> {
        let n = self.slots.len();
        if squares.len() != n {
            return None;
        }
        // The twin's Red pieces are this material's Black ones.
        let twin_reds = n - self.red_slots;
        let mut flipped = [Square::A0; MAX_MEN];
        for (image, sq) in flipped.iter_mut().zip(squares[twin_reds..].iter().chain(&squares[..twin_reds])) {
            *image = sq.flip();
        }
        self.canonical_index(&mut flipped[..n], !turn)
    }
}

/// [`MaterialIndex::twin_index`] for many indices: from each index of a material to the index
/// of the same position seen from the other side in its colour twin's index. Without identical
/// pieces the twin's index is one sum of a term per piece, from tables of the flipped points'
/// terms (and of their mirror images, for a position whose Black General stands right of the
/// axis or on it).
#[derive(Clone, Debug)]
pub struct ColourFlip<'a> {
    from: &'a MaterialIndex,
    twin: &'a MaterialIndex,
    /// For each slot of `from` and each point, the twin's term of the flipped piece there, and
    /// of the mirror image of that (empty with identical pieces: the general path).
    terms: Vec<[[usize; Square::COUNT]; 2]>,
}

impl<'a> ColourFlip<'a> {
    /// The map from the indices of `from` to those of `twin`, the index of its colour twin.
    ///
    /// # Panics
    /// When `twin` is not the index of `from`'s colour twin.
    #[must_use]
    pub fn new(from: &'a MaterialIndex, twin: &'a MaterialIndex) -> ColourFlip<'a> {
        assert_eq!(twin.material, from.material.colour_twin(), "not the colour twin");
        let mut terms = Vec::new();
        if !from.identical {
            let (n, reds) = (from.slots.len(), from.red_slots);
            terms = vec![[[0; Square::COUNT]; 2]; n];
            for (s, t) in terms.iter_mut().enumerate() {
                // The twin's slot of this piece: Black's pieces become its first ones.
                let twin_slot = if s < reds { n - reds + s } else { s - reds };
                for sq in Square::all() {
                    let flipped = sq.flip();
                    t[0][sq.index()] = twin.weights[twin_slot][flipped.index()];
                    t[1][sq.index()] = twin.weights[twin_slot][flipped.mirror().index()];
                }
            }
        }
        ColourFlip { from, twin, terms }
    }

    /// The index the map goes into.
    #[must_use]
    pub const fn twin(&self) -> &'a MaterialIndex {
        self.twin
    }

    /// Calls `f` with [`ColourFlip::index`] of every index of `range`, in order. Without
    /// identical pieces the placements are decoded once per run of the last piece's points,
    /// and each index takes one term of each sum.
    pub fn for_each_index(&self, range: Range<usize>, mut f: impl FnMut(Option<usize>)) {
        if self.terms.is_empty() {
            range.for_each(|i| f(self.index(i)));
            return;
        }
        let from = self.from;
        let last = self.terms.len() - 1;
        let points = &from.slots[last].points;
        let m = points.len();
        let black_general = from.red_slots;
        let mut i = range.start;
        let end = range.end.min(from.len);
        while i < end {
            // The other pieces' points, fixed while the last piece runs through its points.
            let run = i / 2 / m;
            let mut squares = [Square::A0; MAX_MEN];
            let mut rest = run;
            for s in (0..last).rev() {
                let slot = &from.slots[s];
                squares[s] = slot.points[rest % slot.points.len()];
                rest /= slot.points.len();
            }
            let mut occupied = 0u128;
            let mut clash = false;
            for sq in &squares[..last] {
                let bit = 1u128 << sq.index();
                clash |= occupied & bit != 0;
                occupied |= bit;
            }
            let sum = |k: usize| {
                (0..last).fold(0usize, |acc, s| acc.wrapping_add(self.terms[s][k][squares[s].index()]))
            };
            let (plain, mirrored) = (sum(0), sum(1));
            // This index's own mirror test (see `mirror_hole_check`): with Red's General on the
            // axis, the larger of a placement's index and its image's is a hole.
            let axis = on_axis(squares[0]);
            let image: usize =
                if axis { (0..last).map(|s| from.weights[s][squares[s].mirror().index()]).sum() } else { 0 };
            let run_end = ((run + 1) * m * 2).min(end);
            while i < run_end {
                let sq = points[i / 2 % m];
                squares[last] = sq;
                let hole = clash
                    || occupied & (1u128 << sq.index()) != 0
                    || (axis && image + from.weights[last][sq.mirror().index()] < i & !1);
                f((!hole).then(|| {
                    let k = sq.index();
                    let (plain, mirrored) = (
                        plain.wrapping_add(self.terms[last][0][k]),
                        mirrored.wrapping_add(self.terms[last][1][k]),
                    );
                    let twin = match squares[black_general].file().index() {
                        0..4 => plain,
                        4 => plain.min(mirrored),
                        _ => mirrored,
                    };
                    twin + (!MaterialIndex::turn(i)).index()
                }));
                i += 1;
            }
        }
        // Past the end: no positions.
        (end.max(range.start)..range.end).for_each(|_| f(None));
    }

    /// The twin's index of the position with index `i` seen from the other side; `None` for
    /// holes of `from`.
    #[inline]
    #[must_use]
    pub fn index(&self, i: usize) -> Option<usize> {
        if self.terms.is_empty() {
            return self.from.twin_index(self.twin, i);
        }
        let mut squares = [Square::A0; MAX_MEN];
        let turn = self.from.squares(i, &mut squares)?;
        let squares = &squares[..self.terms.len()];
        // The twin's Red General is this Black General flipped (same file): left of the axis
        // the position is indexed as it is, right of it by its mirror image, on it by the
        // smaller of the two.
        let sum = |m: usize| self.terms.iter().zip(squares).map(|(t, sq)| t[m][sq.index()]).sum::<usize>();
        let file = squares[self.from.red_slots].file().index();
        let base = match file {
            0..4 => sum(0),
            4 => sum(0).min(sum(1)),
            _ => sum(1),
        };
        Some(base + (!turn).index())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// `ColourFlip::for_each_index` (a run of indices at once) against `twin_index` (one position
        /// decoded, flipped and encoded) on random ranges (some past the end) of materials with and without
        /// identical pieces, with the Black General as the last piece, Soldiers, Generals on
        /// the axis.
        #[test]
        fn colour_flip_runs_agree_with_single_indices(which in 0usize..9, start in 0.0f64..1.0, len in 1usize..3000) {
            let names = ["KvK", "KNvK", "KvKN", "KRvKC", "KNCvKR", "KPvKAB", "KRRvKN", "KCvKPP", "KABvKR"];
            let from = MaterialIndex::new(names[which].parse().unwrap());
            let twin = MaterialIndex::new(from.material().colour_twin());
            let flip = ColourFlip::new(&from, &twin);
            let a = (start * from.len() as f64) as usize;
            // Ranges may run past the end: no positions there.
            let range = a..a + len;
            let mut got = Vec::new();
            flip.for_each_index(range.clone(), |j| got.push(j));
            let want: Vec<Option<usize>> = range.clone().map(|i| from.twin_index(&twin, i)).collect();
            proptest::prop_assert_eq!(got, want);
            for i in range {
                proptest::prop_assert_eq!(flip.index(i), from.twin_index(&twin, i));
            }
        }
    }
}
