//! The predecessors of a position: the game's un-moves, or reverse edges built from its moves.

use crate::game::Unmoves;

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
