//! The attractor both stages grow and shrink: breadth first from its seeds, an `M`-state
//! joining by one move into it, an `O`-state once all its moves lead into it; and, when the
//! set it lives in shrinks, the next one from the last rather than from the seeds (a
//! decremental attractor: what loses its hold leaves, what left with a move into what stays
//! comes back above the levels given so far). The stages say which states may join and
//! which are seeds ([`Stage`]); the counts are theirs ([`Attractor`]).

use std::ops::Index;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

use super::Checks;
use super::graph::Graph;
use super::level::Level;
use super::work::{Blocks, by_levels, map_slices, slices_of};
use crate::retrograde::SolveError;

/// The counts an attractor keeps per member (see [`Attractor`]): held densely, one cell per
/// member of the graph ([`Dense`]), or only for the members a round can touch (the check
/// stage's `X`: its work list's members, module `check`).
pub(super) trait Cells: Sync {
    /// For the `O`-state of member `j`: its moves still to join before it joins.
    fn counter(&self, j: usize) -> &AtomicU8;
    /// For the `M`-state of member `j`: its moves into the attractor.
    fn hits(&self, j: usize) -> &AtomicU8;
    /// For the `M`-state of member `j`: its moves into the attractor of a lower level, that
    /// hold it there (its support).
    fn support(&self, j: usize) -> &AtomicU8;
}

/// [`Cells`] with one cell per member in each array (of all members: a slice; or of a
/// layer's, indexed by member number: the chase stage's `Counts`).
pub(super) struct Dense<'s, C: ?Sized = [AtomicU8]> {
    pub(super) counter: &'s C,
    pub(super) hits: &'s C,
    pub(super) support: &'s C,
}

impl<C: Index<usize, Output = AtomicU8> + Sync + ?Sized> Cells for Dense<'_, C> {
    #[inline]
    fn counter(&self, j: usize) -> &AtomicU8 {
        &self.counter[j]
    }

    #[inline]
    fn hits(&self, j: usize) -> &AtomicU8 {
        &self.hits[j]
    }

    #[inline]
    fn support(&self, j: usize) -> &AtomicU8 {
        &self.support[j]
    }
}

/// The counts of an attractor, by state `2 i + copy` (copy 0: me to move at member `i`, the
/// `M`-state; 1: the opponent, the `O`-state) or by member.
///
/// The side that joins by one move is `exist`: 0 for the attractors of my wins (both
/// stages' `X`, an `M`-state joining by one move, an `O`-state once all its moves lead in),
/// 1 for the opponent's (the check stage's escapes, where the roles swap). The docs below
/// speak of the first case.
pub(super) struct Attractor<'s, L, C> {
    /// Per state: 0 outside the attractor, else its level (with bits outside `mask` that
    /// the stage keeps there).
    pub(super) level: &'s [L],
    /// Per member: the `O`-state's counter, the `M`-state's hits and support (see
    /// [`Cells`]).
    pub(super) cells: C,
    /// The bits of a level that order states (the chase stage keeps a flag above them).
    pub(super) mask: u32,
    /// Bits set in every level this attractor gives (outside `mask`): where two attractors
    /// share one array of levels (the check stage's `X` and `A`, never at one state), they
    /// tell whose a level is. 0 for an attractor with an array of its own.
    pub(super) tag: u32,
    /// The largest level a pass may give (at most what a cell of `L` holds).
    pub(super) max: u32,
    /// The copy of the side that joins by one move (0: `M`, 1: `O`).
    pub(super) exist: usize,
}

/// What a stage says of its states to an [`Attractor`].
pub(super) trait Stage: Sync {
    /// Whether the joining or leaving of member `i`'s states carries to its predecessors
    /// (the chase stage: only into a position in check, whose moves in are checks).
    fn spreads(&self, i: usize) -> bool;
    /// Whether `M`-state `j` may join by a move into the attractor.
    fn open_m(&self, j: usize) -> bool;
    /// Whether `O`-state `j` may join once all its moves lead into the attractor.
    fn open_o(&self, j: usize) -> bool;
    /// Whether `M`-state `j`, of the level `level` (masked), is held whatever its moves into
    /// the attractor (a seed).
    fn seed_m(&self, j: usize, level: u32) -> bool;
    /// Whether `O`-state `j` is held whatever its moves into the attractor (a seed).
    fn seed_o(&self, j: usize) -> bool;
}

impl<L: Level, C: Cells> Attractor<'_, L, C> {
    /// Takes state `s` out: its level (masked) when it was in.
    pub(super) fn leave(&self, s: usize) -> Option<(u32, u32)> {
        match self.level[s].swap(0, Relaxed) {
            0 => None,
            l => Some((s as u32, l & self.mask)),
        }
    }

    /// Fills `row` with the predecessors of member `i` whose `M`-state may join by the move
    /// into `i`'s `O`-state, their levels loaded (see [`Graph::warm_preds`]).
    fn m_preds<G: Checks>(&self, graph: &Graph<'_, G>, stage: &impl Stage, i: usize, row: &mut Vec<u32>) {
        graph.warm_preds(i, row, |j, _| stage.open_m(j), |j| self.level[2 * j + self.exist].load(Relaxed));
    }

    /// Fills `row` with the predecessors of member `i` whose `O`-state may join once its
    /// moves lead into the attractor, their counters loaded.
    fn o_preds<G: Checks>(&self, graph: &Graph<'_, G>, stage: &impl Stage, i: usize, row: &mut Vec<u32>) {
        graph.warm_preds(i, row, |j, _| stage.open_o(j), |j| u32::from(self.cells.counter(j).load(Relaxed)));
    }

    /// Grows the attractor breadth first from `frontier`, its states of the level `first`:
    /// an `M`-state joins by a move into it (its `hits` count them, its `support` those of
    /// the level just below), an `O`-state when its counter falls to 0. Returns how many
    /// states joined besides the frontier, and the largest level given.
    pub(super) fn spread<G: Checks>(
        &self,
        graph: &Graph<'_, G>,
        stage: &impl Stage,
        frontier: Blocks,
        first: u32,
    ) -> Result<(usize, u32), SolveError> {
        self.spread_kept(graph, stage, frontier, first, None)
    }

    /// [`Attractor::spread`], the states that joined (the frontier included) moved to
    /// `kept` when asked.
    pub(super) fn spread_kept<G: Checks>(
        &self,
        graph: &Graph<'_, G>,
        stage: &impl Stage,
        frontier: Blocks,
        first: u32,
        kept: Option<&mut Blocks>,
    ) -> Result<(usize, u32), SolveError> {
        by_levels(
            frontier,
            first,
            self.max,
            |s, next_level, row, next| {
                let i = s as usize / 2;
                if !stage.spreads(i) {
                    return;
                }
                let (e, u) = (self.exist, 1 - self.exist);
                if s as usize % 2 == u {
                    // The predecessors' states of the side that joins by one move (the
                    // M-states for my wins) move into the attractor.
                    self.m_preds(graph, stage, i, row);
                    for &j in row.iter() {
                        let j = j as usize;
                        self.cells.hits(j).fetch_add(1, Relaxed);
                        match self.level[2 * j + e].compare_exchange(
                            0,
                            next_level | self.tag,
                            Relaxed,
                            Relaxed,
                        ) {
                            Ok(_) => {
                                self.cells.support(j).fetch_add(1, Relaxed);
                                next.push((2 * j + e) as u32);
                            }
                            Err(l) if l == next_level | self.tag => {
                                self.cells.support(j).fetch_add(1, Relaxed);
                            }
                            Err(_) => {}
                        }
                    }
                } else {
                    self.o_preds(graph, stage, i, row);
                    for &j in row.iter() {
                        let j = j as usize;
                        let before = self.cells.counter(j).fetch_sub(1, Relaxed);
                        debug_assert!(before > 0, "un-moves disagree with moves at member {j}");
                        if before == 1
                            && self.level[2 * j + u]
                                .compare_exchange(0, next_level | self.tag, Relaxed, Relaxed)
                                .is_ok()
                        {
                            next.push((2 * j + u) as u32);
                        }
                    }
                }
            },
            kept,
        )
    }

    /// The next attractor after the set it lives in shrank, from the last: `frontier` holds
    /// the states that lose their hold first (taken out with [`Attractor::leave`]). Then, as
    /// long as any leave: an `O`-state with a move to an `M`-state that left leaves unless it
    /// is a seed; an `M`-state leaves when the last of its moves into the attractor of a
    /// lower level does (its support), unless it is a seed. Each `M`-state that left and has
    /// a move into what stays comes back at the level above `top`, and the attractor grows
    /// from them as in [`Attractor::spread`] (only states that left can come back: the
    /// attractor shrinks with its set). The levels keep what the ranks need: an `M`-state
    /// outside the seeds has a move into the attractor of a lower level, an `O`-state's moves
    /// all lead into it at lower levels or into what holds it.
    ///
    /// Returns the states that left (some of which came back), how many came back, and the
    /// largest level given. The cascade's levels and what left are kept in blocks (joined two
    /// by two into vectors, they held two to three times a level at once).
    pub(super) fn shrink<G: Checks>(
        &self,
        graph: &Graph<'_, G>,
        stage: &impl Stage,
        mut frontier: Blocks<(u32, u32)>,
        top: u32,
    ) -> Result<(Blocks, usize, u32), SolveError> {
        let mut lost: Blocks = Vec::new();
        while !frontier.is_empty() {
            let next = map_slices(&slices_of(&frontier), Vec::new, |&(s, l), row, next| {
                let i = s as usize / 2;
                if !stage.spreads(i) {
                    return;
                }
                let (e, u) = (self.exist, 1 - self.exist);
                if s as usize % 2 == u {
                    self.m_preds(graph, stage, i, row);
                    for &j in row.iter() {
                        let j = j as usize;
                        self.cells.hits(j).fetch_sub(1, Relaxed);
                        let lj = self.level[2 * j + e].load(Relaxed) & self.mask;
                        if lj > l && !stage.seed_m(j, lj) && self.cells.support(j).fetch_sub(1, Relaxed) == 1
                        {
                            next.extend(self.leave(2 * j + e));
                        }
                    }
                } else {
                    self.o_preds(graph, stage, i, row);
                    for &j in row.iter() {
                        let j = j as usize;
                        self.cells.counter(j).fetch_add(1, Relaxed);
                        if self.level[2 * j + u].load(Relaxed) != 0 && !stage.seed_o(j) {
                            next.extend(self.leave(2 * j + u));
                        }
                    }
                }
            });
            lost.extend(frontier.into_iter().map(|block| block.into_iter().map(|(s, _)| s).collect()));
            frontier = next;
        }
        // The M-states that left with a move into what stays come back; the others wait for
        // a state to come back (their support counted again from 0).
        if top >= self.max {
            return Err(SolveError::DistanceTooLarge);
        }
        let back = map_slices(
            &slices_of(&lost),
            || (),
            |&s, (), back| {
                let s = s as usize;
                if s % 2 == self.exist && self.level[s].load(Relaxed) == 0 {
                    let hits = self.cells.hits(s / 2).load(Relaxed);
                    self.cells.support(s / 2).store(hits, Relaxed);
                    if hits > 0 {
                        self.level[s].store((top + 1) | self.tag, Relaxed);
                        back.push(s as u32);
                    }
                }
            },
        );
        let count = back.iter().map(Vec::len).sum::<usize>();
        let (joined, last) = if count == 0 { (0, top) } else { self.spread(graph, stage, back, top + 1)? };
        Ok((lost, count + joined, last))
    }
}
