//! A set of positions with a dense numbering ([`DrawIndex`]): a bit per position, a count of
//! the members before each cache line of bits for the rank, and samples for the select.

use rayon::prelude::*;

use crate::retrograde::SolveError;

/// Members per sample of [`DrawIndex::select_samples`]: at the density of `KNRvKAR`'s draws
/// (18 %) a look-up reads about 3 words past its sample.
const SELECT_SAMPLE: usize = 64;

/// Words of [`DrawIndex`]'s bits per count of the members before them: a cache line of bits
/// (a count per word took 4 bytes per 64 positions, 17.6 MiB more on `KNRvKAR`).
const RANK_WORDS: usize = 8;

/// The counts of the members of a bit set before every `PER`-th word of its bits: the rank
/// of a number is its count, the members of the words between, and those below it in its own
/// word. [`DrawIndex`] keeps a count per cache line of bits ([`RANK_WORDS`]), the check
/// stage's cells of a round one per word (`check::open_cells`: a look-up per move of a pass).
#[derive(Debug, Default)]
pub(super) struct Ranks<const PER: usize> {
    before: Vec<u32>,
}

impl<const PER: usize> Ranks<PER> {
    /// The counts over the first `words` words of a set, word `w` given by `word(w)`, and the
    /// members in all; `None` when 2^32 or more are before a count.
    pub(super) fn new(words: usize, word: impl Fn(usize) -> u64) -> Option<(Self, usize)> {
        let mut before = Vec::with_capacity(words.div_ceil(PER));
        let mut total = 0usize;
        for w in 0..words {
            if w % PER == 0 {
                before.push(u32::try_from(total).ok()?);
            }
            total += word(w).count_ones() as usize;
        }
        Some((Ranks { before }, total))
    }

    /// The members before word `w` (one of the set's), word `v` given by `word(v)`.
    #[inline]
    pub(super) fn before_word(&self, w: usize, word: impl Fn(usize) -> u64) -> usize {
        let first = w - w % PER;
        self.before[w / PER] as usize + (first..w).map(|v| word(v).count_ones() as usize).sum::<usize>()
    }

    /// The members before number `k` (in one of the set's words).
    #[inline]
    pub(super) fn rank(&self, k: usize, word: impl Fn(usize) -> u64) -> usize {
        let w = k / 64;
        self.before_word(w, &word) + (word(w) & ((1u64 << (k % 64)) - 1)).count_ones() as usize
    }

    /// The first word of the last count with at most `i` members before it.
    fn word_with_at_most(&self, i: usize) -> usize {
        (self.before.partition_point(|&b| b as usize <= i) - 1) * PER
    }

    /// Bytes held (as allocated).
    pub(super) fn heap_bytes(&self) -> usize {
        self.before.capacity() * size_of::<u32>()
    }
}

/// A set of positions with a dense numbering (the set `D` of non-terminal drawn positions, or
/// the draws left after the ban on perpetual check).
#[derive(Debug, Default)]
pub(super) struct DrawIndex {
    bits: Vec<u64>,
    /// Members before each [`RANK_WORDS`]-th word of `bits`.
    ranks: Ranks<RANK_WORDS>,
    /// Members in all.
    total: usize,
}

impl DrawIndex {
    /// Bytes the index takes (as allocated).
    pub(super) fn heap_bytes(&self) -> u64 {
        (self.bits.capacity() * size_of::<u64>() + self.ranks.heap_bytes()) as u64
    }

    /// The members among `0..n` (their positions in increasing order: [`DrawIndex::members`]).
    pub(super) fn new(n: usize, member: impl Fn(usize) -> bool + Sync) -> Result<Self, SolveError> {
        // Drawn positions are kept as 32-bit position numbers.
        if n > u32::MAX as usize {
            return Err(SolveError::TooManyPositions(n));
        }
        let bits: Vec<u64> = (0..n.div_ceil(64))
            .into_par_iter()
            .map(|w| {
                let mut word = 0u64;
                for b in 0..64 {
                    let p = w * 64 + b;
                    if p < n && member(p) {
                        word |= 1 << b;
                    }
                }
                word
            })
            .collect();
        let (ranks, total) = Ranks::new(bits.len(), |w| bits[w]).ok_or(SolveError::TooManyPositions(n))?;
        // The passes number two states per drawn position in 32 bits, and the predecessor
        // lists keep a chase label in the top bit.
        if total >= 1 << 31 {
            return Err(SolveError::TooManyPositions(n));
        }
        Ok(DrawIndex { bits, ranks, total })
    }

    /// The number of members.
    pub(super) fn len(&self) -> usize {
        self.total
    }

    /// The members' positions in increasing order.
    pub(super) fn members(&self) -> Vec<u32> {
        self.bits
            .par_iter()
            .enumerate()
            .flat_map_iter(|(w, &word)| {
                (0..64u32).filter(move |b| word >> b & 1 == 1).map(move |b| w as u32 * 64 + b)
            })
            .collect()
    }

    /// The number of `pos` in the set, if it is a member.
    pub(super) fn index(&self, pos: usize) -> Option<usize> {
        self.contains(pos).then(|| self.rank(pos))
    }

    /// The members before `pos` (`pos` at most the index's size, a multiple of 64 past it).
    pub(super) fn rank(&self, pos: usize) -> usize {
        if pos / 64 < self.bits.len() { self.ranks.rank(pos, |w| self.bits[w]) } else { self.total }
    }

    /// The word of the bits that holds member `i` (less than the number of members), and the
    /// members before it, from word `w`, which has at most `i` members before it.
    #[inline]
    fn word_of(&self, mut w: usize, i: usize) -> (usize, usize) {
        let mut before = self.ranks.before_word(w, |v| self.bits[v]);
        loop {
            let here = self.bits[w].count_ones() as usize;
            if before + here > i {
                return (w, before);
            }
            before += here;
            w += 1;
        }
    }

    /// For [`DrawIndex::select`]: the word of `bits` that holds every [`SELECT_SAMPLE`]-th
    /// member (4 bytes per 64 members).
    pub(super) fn select_samples(&self) -> Vec<u32> {
        (0..self.total.div_ceil(SELECT_SAMPLE))
            .into_par_iter()
            .map(|k| {
                // From the last count with at most `k * SELECT_SAMPLE` members before it.
                self.word_of(self.ranks.word_with_at_most(k * SELECT_SAMPLE), k * SELECT_SAMPLE).0 as u32
            })
            .collect()
    }

    /// The position of member `i` (less than the number of members), from `samples`
    /// ([`DrawIndex::select_samples`]): from the sampled word of member `i` rounded down to a
    /// multiple of [`SELECT_SAMPLE`], on to the word that holds it, then its bit in that word.
    pub(super) fn select(&self, samples: &[u32], i: usize) -> usize {
        let (w, before) = self.word_of(samples[i / SELECT_SAMPLE] as usize, i);
        let mut word = self.bits[w];
        for _ in 0..i - before {
            word &= word - 1;
        }
        w * 64 + word.trailing_zeros() as usize
    }

    /// Whether `pos` is a member.
    pub(super) fn contains(&self, pos: usize) -> bool {
        self.bits.get(pos / 64).is_some_and(|word| word >> (pos % 64) & 1 == 1)
    }

    /// Bytes held.
    pub(super) fn bytes(&self) -> usize {
        self.bits.len() * 8 + self.ranks.before.len() * 4
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// The index numbers the members densely in increasing order, and no other position:
        /// against a count of the members before each one, over sets that cross blocks at
        /// every offset (sparse, dense, full words, runs of empty words past a count of the
        /// members before them); each member's position found again from the samples.
        #[test]
        fn the_index_numbers_the_members_in_order(
            set in prop::collection::vec(prop::bool::weighted(0.5), 0..700),
            dense in prop::collection::vec(prop::bool::weighted(0.95), 0..300),
            sparse in prop::collection::vec(prop::bool::weighted(0.03), 0..5000),
            empty_words in prop::collection::vec(prop::bool::weighted(0.002), 0..8_000),
        ) {
            for set in [&set, &dense, &sparse, &empty_words] {
                let index = DrawIndex::new(set.len(), |p| set[p]).unwrap();
                let positions = index.members();
                prop_assert_eq!(index.len(), positions.len());
                let mut before = 0;
                for (p, &member) in set.iter().enumerate() {
                    prop_assert_eq!(index.index(p), member.then_some(before));
                    if member {
                        prop_assert_eq!(positions[before] as usize, p);
                        before += 1;
                    }
                }
                prop_assert_eq!(positions.len(), before);
                let samples = index.select_samples();
                for (i, &p) in positions.iter().enumerate() {
                    prop_assert_eq!(index.select(&samples, i), p as usize, "member {}", i);
                }
                prop_assert_eq!(index.index(set.len() + 64), None);
                for p in 0..=set.len() {
                    prop_assert_eq!(index.rank(p), set[..p].iter().filter(|&&b| b).count());
                    prop_assert_eq!(index.contains(p), set.get(p).copied().unwrap_or(false));
                }
            }
        }
    }
}
