//! The positions of one level of the passes (a bitmap of pairs of positions, or a list where
//! the distances are escaped) and the events that a decided move sends its predecessors.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::CHUNK;
use super::cells::{PAYLOAD, TAG_DRAW, TAG_LOSS, TAG_SHIFT, TAG_WIN, Word, cell};
use super::memory::huge_vec;

/// What a decided move leads to, for the position that has the move.
#[derive(Clone, Copy)]
pub(super) enum Event {
    /// The move leads to a loss for the opponent: a win one ply further.
    Lost,
    /// The move leads to a win for the opponent: one fewer move left to decide.
    Won,
    /// The move leads to a draw that ends: a drawn line one ply longer.
    Drawn,
}

/// A set of positions as one bit for each pair of positions `2k`, `2k + 1` (a sixteenth of a
/// byte per position; a level pass reads both cells to see which of the two are in its level).
pub(super) struct Bitmap(pub(super) Vec<AtomicU64>);

/// The positions of one level, as its pass walks them.
pub(super) enum Frontier {
    /// Levels whose distances the cells hold: a bitmap of pairs, walked in index order.
    Pairs(Bitmap),
    /// Levels whose distances are escaped (1-byte cells, 63 plies and more; few positions):
    /// the positions, sorted.
    List(Vec<usize>),
}

/// Bitmap words handled by one parallel task of a level pass.
pub(super) const WORDS: usize = CHUNK / 64;

/// Some of the tasks of a level pass: `range` of them, each `words` bitmap words (or, for a
/// list, `64 * words` of its positions).
pub(super) struct Tasks {
    pub(super) range: std::ops::Range<usize>,
    pub(super) words: usize,
}

impl Tasks {
    /// Every task of the level `current`, of [`WORDS`] words.
    pub(super) fn all(current: &Frontier) -> Tasks {
        Tasks { range: 0..Tasks::count(current, WORDS), words: WORDS }
    }

    /// How many tasks of `words` words the level `current` has.
    pub(super) fn count(current: &Frontier, words: usize) -> usize {
        match current {
            Frontier::Pairs(bits) => bits.0.len().div_ceil(words),
            Frontier::List(list) => list.len().div_ceil(words * 64),
        }
    }
}

impl Bitmap {
    /// An empty set of `0..n`.
    pub(super) fn new(n: usize) -> Bitmap {
        Bitmap(huge_vec(n.div_ceil(2).div_ceil(64), || AtomicU64::new(0)))
    }

    pub(super) fn insert(&self, pos: usize) {
        let pair = pos / 2;
        self.0[pair / 64].fetch_or(1 << (pair % 64), Relaxed);
    }

    pub(super) fn clear(&mut self) {
        self.0.par_iter_mut().with_min_len(WORDS).for_each(|w| *w.get_mut() = 0);
    }
}

/// Whether the positions of level `d` (of the draws when `draws`) go in a bitmap of pairs: the
/// cells of that level hold their distance themselves (not escaped), so that a cell tells
/// whether its position is of the level ([`at_level`]). The positions of the other levels are
/// the escapes of the pass before.
pub(super) fn pairs<W: Word>(d: u32, draws: bool) -> bool {
    W::fits(if draws { cell(TAG_DRAW, d + 1) } else { cell(TAG_WIN, d) })
}

/// Whether a cell holding `word` (not escaped) is decided at level `d` (of the draws when
/// `draws`).
pub(super) fn at_level(word: u32, d: u32, draws: bool) -> bool {
    let (tag, payload) = (word >> TAG_SHIFT, word & PAYLOAD);
    if draws {
        tag == TAG_DRAW && payload == d + 1
    } else {
        (tag == TAG_WIN || tag == TAG_LOSS) && payload == d
    }
}
