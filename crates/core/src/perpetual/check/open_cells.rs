//! The counts of a round of the check stage that only its work list's members need: the
//! `O`-state's counter and the `M`-state's hits and support in `X` (the passes'
//! [`Attractor`](crate::perpetual::attractor::Attractor)), and the moves outside `Y_M`.
//!
//! A round reads them only at states in `Y` outside `Z`, whose members are in the round's
//! work list as it starts (`Y` only shrinks within a round, `Z` grows between rounds), and
//! each round starts them afresh. So they are held for those members alone, found by their
//! rank in a bit set over the layer (a bit per member and 4 bytes per 64): on `KNRvKAR` the
//! work lists hold 0.2 to 7.2 M of the 72.1 M draws, and the four counts took 275 MiB held
//! for every draw.

use std::sync::atomic::AtomicU8;

use rayon::prelude::*;

use crate::perpetual::attractor::Cells;
use crate::perpetual::draw_index::Ranks;
use crate::perpetual::work::{Bits, CHUNK};

/// The cells of one member: its counter, hits, support and moves outside `Y_M`.
type Cell = [AtomicU8; 4];
const COUNTER: usize = 0;
const HITS: usize = 1;
const SUPPORT: usize = 2;
const OUT_Y: usize = 3;

/// The cells of the members of a round's work list (see the module notes).
#[derive(Default)]
pub(super) struct OpenCells {
    /// The first member of the layer.
    start: usize,
    /// The members with cells, by their offset from `start`.
    listed: Bits,
    /// Members with cells before each word of `listed`.
    ranks: Ranks<1>,
    cells: Vec<Cell>,
}

impl OpenCells {
    /// Cells at 0 for the members in `listed` alone (by their offset from `start`, the first
    /// member of the layer).
    pub(super) fn new(start: usize, listed: Bits) -> Self {
        // (A layer has fewer than 2^31 members: `DrawIndex::new`.)
        let (ranks, total) =
            Ranks::new(listed.words(), |w| listed.word(w)).expect("fewer than 2^31 members in a layer");
        let cells = (0..total).into_par_iter().with_min_len(CHUNK).map(|_| Cell::default()).collect();
        OpenCells { start, listed, ranks, cells }
    }

    /// The members that had cells (to be added to), the cells gone.
    pub(super) fn into_listed(self) -> Bits {
        self.listed
    }

    /// Whether member `j` has cells (in the layer, in the work list the round started with).
    #[inline]
    pub(super) fn contains(&self, j: usize) -> bool {
        j.checked_sub(self.start).is_some_and(|k| k < 64 * self.listed.words() && self.listed.contains(k))
    }

    /// The cells of member `j` (which must have them).
    #[inline]
    fn cell(&self, j: usize) -> &Cell {
        debug_assert!(self.contains(j), "member {j} has no cells this round");
        &self.cells[self.ranks.rank(j - self.start, |w| self.listed.word(w))]
    }

    /// For the `O`-state of member `j`: its moves into `D` to an `M`-state outside `Y`.
    #[inline]
    pub(super) fn out_y(&self, j: usize) -> &AtomicU8 {
        &self.cell(j)[OUT_Y]
    }
}

impl Cells for &OpenCells {
    #[inline]
    fn counter(&self, j: usize) -> &AtomicU8 {
        &self.cell(j)[COUNTER]
    }

    #[inline]
    fn hits(&self, j: usize) -> &AtomicU8 {
        &self.cell(j)[HITS]
    }

    #[inline]
    fn support(&self, j: usize) -> &AtomicU8 {
        &self.cell(j)[SUPPORT]
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering::Relaxed;

    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// Every listed member has cells of its own, zeroed when made; no other member of the
        /// layer has any.
        #[test]
        fn each_listed_member_has_its_own_cells(
            start in 0usize..200,
            len in 0usize..1_000,
            picks in prop::collection::vec(any::<bool>(), 1_000),
            again in prop::collection::vec(any::<bool>(), 1_000),
        ) {
            for picks in [&picks, &again] {
                let open: Vec<u32> = (0..len).filter(|&k| picks[k]).map(|k| (start + k) as u32).collect();
                let listed = Bits::new(len);
                open.iter().for_each(|&i| listed.insert(i as usize - start));
                let cells = OpenCells::new(start, listed);
                for j in 0..start + len + 70 {
                    prop_assert_eq!(cells.contains(j), open.contains(&(j as u32)), "member {}", j);
                }
                for (n, &i) in open.iter().enumerate() {
                    let c = &cells;
                    prop_assert_eq!(c.counter(i as usize).load(Relaxed), 0);
                    prop_assert_eq!(c.out_y(i as usize).load(Relaxed), 0);
                    c.counter(i as usize).store(n as u8, Relaxed);
                    c.hits(i as usize).store(n as u8 ^ 1, Relaxed);
                    c.support(i as usize).store(n as u8 ^ 2, Relaxed);
                    c.out_y(i as usize).store(n as u8 ^ 3, Relaxed);
                }
                for (n, &i) in open.iter().enumerate() {
                    let c = &cells;
                    prop_assert_eq!(c.counter(i as usize).load(Relaxed), n as u8);
                    prop_assert_eq!(c.hits(i as usize).load(Relaxed), n as u8 ^ 1);
                    prop_assert_eq!(c.support(i as usize).load(Relaxed), n as u8 ^ 2);
                    prop_assert_eq!(c.out_y(i as usize).load(Relaxed), n as u8 ^ 3);
                }
            }
        }
    }
}
