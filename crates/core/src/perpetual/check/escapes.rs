//! `A`, the opponent's attractor of its escapes in the check stage: the states from which
//! the opponent forces play out of `Z` and out of the top of `νY` (an *escape*). No state of
//! `A` can be in the next `Z`, so each round's `νY` starts outside it (see the ninth
//! session's paragraph in `docs/rules.md`). `A` is made once per layer and kept up from round
//! to round as `Z` grows: it only loses states to the new moves into `Z`, and gains the
//! other states of the positions that join `Z`.

use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::{A_TAG, GOOD_EXIT, Rabin, SAFE_EXIT, Z_M, Z_O, in_a, in_top};
use crate::perpetual::Checks;
use crate::perpetual::attractor::{Attractor, Dense, Stage};
use crate::perpetual::level::Level;
use crate::perpetual::work::{Bits, Blocks, CHUNK, gather_blocks};
use crate::retrograde::SolveError;

/// Whether the `M`-state of a member with flags `f` is an escape of the opponent: outside
/// `Z` and outside the top of `νY` (no `μX` can hold it).
fn escape_m(f: u8) -> bool {
    f & Z_M == 0 && !in_top(f)
}

/// Whether the `O`-state of a member with flags `f` is an escape of the opponent: outside
/// `Z`, with a move out of `D` that does not lose for the opponent, or its position's
/// `M`-state in `Z` (both sides cannot win at one position).
fn escape_o(f: u8) -> bool {
    f & Z_O == 0 && f & (Z_M | SAFE_EXIT) != 0
}

impl<G: Checks, L: Level> Rabin<'_, '_, G, L> {
    /// `A` for the layer, from its escapes. The first levels without a search: the escapes
    /// (level 1), the `O`-states with a move to an escape `M`-state (level 2: its moves
    /// into `D` less those into the top, counted through the predecessors of the top's
    /// `M`-states), the `M`-states whose moves all lead to those (level 3: their moves to an
    /// `O`-state outside `A` counted through the predecessors of those few); then `A` grows
    /// from level 3 as an attractor. (Grown from the escapes alone, `KNRvKAR`'s 138.5 M
    /// states of `A` took 21.5 s: every escape's predecessors read.)
    pub(super) fn make_escapes(&mut self) -> Result<(), SolveError> {
        let (start, end) = (self.start, self.end);
        // Moves to M-states outside the top: to the escapes, the first of A's hits.
        self.count_out(&self.a_hits, in_top);
        let flags = &self.flags;
        (start..end).into_par_iter().with_min_len(CHUNK).for_each(|i| {
            let f = flags[i];
            self.level[2 * i].store(if escape_m(f) { 1 | A_TAG } else { 0 }, Relaxed);
            let to_escapes = self.a_hits[i].load(Relaxed);
            let level = if escape_o(f) {
                1
            } else if to_escapes > 0 {
                2
            } else {
                0
            };
            self.level[2 * i + 1].store(if level == 0 { 0 } else { level | A_TAG }, Relaxed);
            self.a_support[i].store(if level == 2 { to_escapes } else { 0 }, Relaxed);
            self.a_counter[i].store(0, Relaxed);
        });
        // The M-states' moves to O-states outside A.
        (start..end).into_par_iter().with_min_len(CHUNK).for_each_init(Vec::new, |row, i| {
            if !in_a(self.level[2 * i + 1].load(Relaxed)) {
                self.add_to_preds(i, row, &self.a_counter, 1);
            }
        });
        let stage = Escapes(self);
        let frontier = gather_blocks(start..end, CHUNK, |i, out| {
            if !in_a(self.level[2 * i].load(Relaxed))
                && stage.open_o(i)
                && self.a_counter[i].load(Relaxed) == 0
            {
                self.level[2 * i].store(3 | A_TAG, Relaxed);
                out.push(2 * i as u32);
            }
        });
        let (_, top) = self.escapes().spread(self.graph, &stage, frontier, 3)?;
        self.a_top = top;
        Ok(())
    }

    /// Keeps `A` up after `Z` grew by `new` (states) and the `M`-states `entered` got a move
    /// into `Z`: those are no escapes now, and leave `A` with what they held there
    /// ([`Attractor::shrink`]); then the states that `new` makes escapes (the other state of
    /// each new position of `Z`) join, and `A` grows from them. Adds to `changed` the members
    /// of the states that left or joined `A`.
    pub(super) fn keep_up_escapes(
        &mut self,
        entered: &[u32],
        new: &[u32],
        changed: &Bits,
    ) -> Result<(), SolveError> {
        let attractor = self.escapes();
        let frontier: Blocks<(u32, u32)> = vec![
            entered
                .iter()
                .filter_map(|&i| {
                    debug_assert!(in_a(self.level[2 * i as usize].load(Relaxed)), "an escape out of A");
                    attractor.leave(2 * i as usize)
                })
                .collect(),
        ];
        let (lost, _, top) = attractor.shrink(self.graph, &Escapes(self), frontier, self.a_top)?;
        let start = self.start;
        // (In parallel, as below: each mark a cache miss, `KNRvKAR`'s rounds lose up to 8 M
        // states of A and gain up to 7 M of Z.)
        lost.par_iter().flatten().for_each(|&s| changed.insert(s as usize / 2 - start));
        drop(lost);
        if top >= self.max {
            return Err(SolveError::DistanceTooLarge);
        }
        let first = top + 1;
        let seeds: Vec<u32> = new
            .par_iter()
            .with_min_len(CHUNK)
            .map(|&s| s ^ 1)
            .filter(|&s| self.level[s as usize].compare_exchange(0, first | A_TAG, Relaxed, Relaxed).is_ok())
            .collect();
        let mut joined = Vec::new();
        let (_, top) =
            attractor.spread_kept(self.graph, &Escapes(self), vec![seeds], first, Some(&mut joined))?;
        self.a_top = top.max(first);
        joined.par_iter().flatten().for_each(|&s| changed.insert(s as usize / 2 - start));
        Ok(())
    }

    /// The counts of `A` ([`Attractor`], the roles swapped: an `O`-state joins by one move).
    fn escapes(&self) -> Attractor<'_, L, Dense<'_>> {
        Attractor {
            level: &self.level,
            cells: Dense { counter: &self.a_counter, hits: &self.a_hits, support: &self.a_support },
            mask: !A_TAG,
            tag: A_TAG,
            max: self.max,
            exist: 1,
        }
    }
}

/// The check stage as it grows and shrinks `A`, the opponent's attractor of its escapes: an
/// `O`-state joins by one move into it, an `M`-state once all its moves lead into it
/// ([`Attractor::exist`] 1: in [`Stage`]'s terms the roles swap).
struct Escapes<'r, 'a, 'g, G, L>(&'r Rabin<'a, 'g, G, L>);

impl<G: Checks, L: Level> Stage for Escapes<'_, '_, '_, G, L> {
    fn spreads(&self, _: usize) -> bool {
        true
    }

    /// The `O`-state joins by one move: outside `Z`.
    fn open_m(&self, j: usize) -> bool {
        j < self.0.end && self.0.flags[j] & Z_O == 0
    }

    /// The `M`-state joins once all its moves lead into `A`: outside `Z`, no move out of `D`
    /// that wins for me.
    fn open_o(&self, j: usize) -> bool {
        j < self.0.end && self.0.flags[j] & (Z_M | GOOD_EXIT) == 0
    }

    fn seed_m(&self, j: usize, _: u32) -> bool {
        escape_o(self.0.flags[j])
    }

    fn seed_o(&self, j: usize) -> bool {
        escape_m(self.0.flags[j])
    }
}
