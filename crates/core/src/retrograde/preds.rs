//! The predecessors of a position: the game's un-moves, or reverse edges built from its moves.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::cells::{Pos, Word};
use super::run::Run;
use super::{CHUNK, Phase};
use crate::game::{Game, Successor, Unmoves};

/// The predecessors of a position, from un-moves or from reverse edges.
pub(super) trait Preds: Sync {
    fn for_each(&self, pos: usize, f: impl FnMut(usize));
}

pub(super) struct UnmovePreds<'g, G>(pub(super) &'g G);

impl<G: Unmoves> Preds for UnmovePreds<'_, G> {
    fn for_each(&self, pos: usize, f: impl FnMut(usize)) {
        self.0.for_each_unmove(pos, f);
    }
}

/// Reverse edges in compressed form: the predecessors of `q` are
/// `edges[ends[q - 1]..ends[q]]` (with `ends[-1] = 0`).
pub(super) struct ReverseEdges {
    pub(super) ends: Vec<u64>,
    pub(super) edges: Vec<u32>,
}

impl Preds for ReverseEdges {
    fn for_each(&self, q: usize, mut f: impl FnMut(usize)) {
        let start = if q == 0 { 0 } else { self.ends[q - 1] } as usize;
        for &p in &self.edges[start..self.ends[q] as usize] {
            f(p as usize);
        }
    }
}

impl<G: Game, W: Word, P: Pos> Run<'_, '_, G, W, P> {
    /// The reverse edges of the game's moves (a game of one range from 0: no partition).
    pub(super) fn reverse_edges(&mut self, game: &G) -> ReverseEdges {
        let n = self.cells.len();
        let counts: Vec<AtomicU64> = (0..n).map(|_| AtomicU64::new(0)).collect();
        let done = AtomicU64::new(0);
        // A pass over the moves, the positions in parallel by chunks: `edge(pos, q)` for each
        // move of `pos` to a position `q` of the index.
        let pass = |edge: &(dyn Fn(usize, usize) + Sync)| {
            (0..n.div_ceil(CHUNK)).into_par_iter().for_each(|chunk| {
                // Cancelled: the edges are left incomplete, and `propagate` stops at once.
                if self.hooks.cancelled() {
                    return;
                }
                let range = chunk * CHUNK..n.min((chunk + 1) * CHUNK);
                let len = range.len() as u64;
                for pos in range {
                    // Decided positions (terminal, or lost for want of moves) need no
                    // predecessors from their moves, and holes have none.
                    if self.is_open(pos) {
                        game.for_each_move(pos, |_, succ| {
                            if let Successor::Position(q) = succ {
                                edge(pos, q);
                            }
                        });
                    }
                }
                self.report(Phase::ReverseEdges, (done.fetch_add(len, Relaxed) + len) / 2);
            });
        };
        pass(&|_, q| {
            counts[q].fetch_add(1, Relaxed);
        });
        let mut total = 0u64;
        for c in &counts {
            let k = c.load(Relaxed);
            c.store(total, Relaxed);
            total += k;
        }
        let edges: Vec<AtomicU32> = (0..total).map(|_| AtomicU32::new(0)).collect();
        pass(&|pos, q| {
            let slot = counts[q].fetch_add(1, Relaxed);
            edges[slot as usize].store(pos as u32, Relaxed);
        });
        // After the fill, counts[q] is where q's predecessors end.
        ReverseEdges {
            ends: counts.into_iter().map(AtomicU64::into_inner).collect(),
            edges: edges.into_iter().map(AtomicU32::into_inner).collect(),
        }
    }
}
