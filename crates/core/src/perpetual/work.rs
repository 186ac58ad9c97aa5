//! The parallel work over lists of members and states that both stages' passes share: a
//! layer's entries, updates over a sorted work list and its cutting in place
//! ([`for_each_listed`], [`retain_listed`]), lists gathered from parallel tasks, in one
//! vector of the exact length ([`gather`]) or in blocks ([`Blocks`]), and the level-by-level
//! search of an attractor ([`by_levels`]); sets of members as a bit each ([`Bits`]). None of them holds more than a list's own size
//! besides it (lists joined two by two, as parallel folds do, held two to three times).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::retrograde::SolveError;

/// Positions handled by one parallel task of a scan.
pub(super) const CHUNK: usize = 1 << 12;

/// The entries `start..end` of `values`, with their numbers, in parallel.
pub(super) fn layer_of<T: Send>(
    values: &mut [T],
    start: usize,
    end: usize,
) -> impl IndexedParallelIterator<Item = (usize, &mut T)> {
    values[start..end].par_iter_mut().enumerate().with_min_len(CHUNK).map(move |(k, v)| (start + k, v))
}

/// Calls `f(i, &mut values[i])` for every number `i` of `list` (strictly increasing), in
/// parallel: the list and the values split at the same number, so that each task holds its
/// own part of the values.
pub(super) fn for_each_listed<T: Send>(values: &mut [T], list: &[u32], f: &(impl Fn(usize, &mut T) + Sync)) {
    gather_listed::<T, ()>(values, list, &|i, v, _| f(i, v));
}

/// Calls `f(i, &mut values[i], out)` for every number `i` of `list` (strictly increasing), in
/// parallel as [`for_each_listed`] does; returns what `f` pushed to `out`, in the order of
/// the list. ([`retain_listed`] without the cut: no copy of a list read once more.)
pub(super) fn gather_listed<T: Send, E: Send>(
    values: &mut [T],
    list: &[u32],
    f: &(impl Fn(usize, &mut T, &mut Vec<E>) + Sync),
) -> Vec<E> {
    fn split<T: Send, E: Send>(
        values: &mut [T],
        base: usize,
        list: &[u32],
        f: &(impl Fn(usize, &mut T, &mut Vec<E>) + Sync),
    ) -> Vec<E> {
        if list.len() <= CHUNK {
            let mut out = Vec::new();
            for &i in list {
                f(i as usize, &mut values[i as usize - base], &mut out);
            }
            return out;
        }
        let mid = list.len() / 2;
        let cut = list[mid] as usize;
        let (low, high) = values.split_at_mut(cut - base);
        let (a, b) = rayon::join(|| split(low, base, &list[..mid], f), || split(high, cut, &list[mid..], f));
        concat(a, b)
    }
    debug_assert!(list.windows(2).all(|w| w[0] < w[1]), "a list out of order");
    split(values, 0, list, f)
}

/// Calls `f(i, &mut values[i], out)` for every number `i` of `list` (strictly increasing), in
/// parallel as [`for_each_listed`] does, and keeps in `list` those for which it returns
/// `true`, in place (a second list made beside it, joined two by two, held two to three
/// times the list at once); returns what `f` pushed to `out`, in the order of the list.
pub(super) fn retain_listed<T: Send, E: Send>(
    values: &mut [T],
    list: &mut Vec<u32>,
    f: &(impl Fn(usize, &mut T, &mut Vec<E>) -> bool + Sync),
) -> Vec<E> {
    /// Keeps at the start of `list` its numbers that `f` keeps; returns how many.
    fn split<T: Send, E: Send>(
        values: &mut [T],
        base: usize,
        list: &mut [u32],
        f: &(impl Fn(usize, &mut T, &mut Vec<E>) -> bool + Sync),
    ) -> (usize, Vec<E>) {
        if list.len() <= CHUNK {
            let (mut kept, mut out) = (0, Vec::new());
            for k in 0..list.len() {
                let i = list[k];
                if f(i as usize, &mut values[i as usize - base], &mut out) {
                    list[kept] = i;
                    kept += 1;
                }
            }
            return (kept, out);
        }
        let mid = list.len() / 2;
        let cut = list[mid] as usize;
        let (low, high) = values.split_at_mut(cut - base);
        let (first, second) = list.split_at_mut(mid);
        let ((a, out_a), (b, out_b)) =
            rayon::join(|| split(low, base, first, f), || split(high, cut, second, f));
        list.copy_within(mid..mid + b, a);
        (a + b, concat(out_a, out_b))
    }
    debug_assert!(list.windows(2).all(|w| w[0] < w[1]), "a list out of order");
    let (kept, out) = split(values, 0, list, f);
    list.truncate(kept);
    out
}

/// The states `2 i + copy` listed, as the numbers `i` of those of copy 0 (the `M`-states)
/// followed by those of copy 1 (`O`), each part in no particular order; returns them and
/// where the second part starts. In place, one pass (a partition into two new lists, then
/// their numbers mapped into two more, held up to 3 times the list at once at the chase
/// stage's peak until issue 42's twenty-first session).
pub(super) fn split_sides(mut states: Vec<u32>) -> (Vec<u32>, usize) {
    let (mut low, mut high) = (0, states.len());
    while low < high {
        if states[low] & 1 == 0 {
            low += 1;
        } else {
            high -= 1;
            states.swap(low, high);
        }
    }
    states.par_iter_mut().with_min_len(CHUNK).for_each(|s| *s >>= 1);
    (states, low)
}

/// A list of state numbers made in parallel, kept in blocks of about [`BLOCK_LEN`]: it grows
/// without the copies and the doubled capacity of one vector (the levels and seeds of a
/// pass, joined into one vector two by two, held two to three times a layer's list at once:
/// the peak of the chase stage on `KCCvKC`).
pub(super) type Blocks<T = u32> = Vec<Vec<T>>;

/// Numbers in a full block of [`Blocks`].
const BLOCK_LEN: usize = 1 << 12;

/// Moves `open` into `done` once it holds a block.
fn flush<T>(done: &mut Blocks<T>, open: &mut Vec<T>) {
    if open.len() >= BLOCK_LEN {
        // Room for what one step pushes past the block (a row of predecessors, rarely 256).
        done.push(std::mem::replace(open, Vec::with_capacity(BLOCK_LEN + 256)));
    }
}

/// The blocks of a task's fold: those done and the last one.
fn close<T>(mut done: Blocks<T>, mut open: Vec<T>) -> Blocks<T> {
    if !open.is_empty() {
        open.shrink_to_fit();
        done.push(open);
    }
    done
}

/// The numbers in `blocks`.
pub(super) fn blocks_len<T>(blocks: &Blocks<T>) -> usize {
    blocks.iter().map(Vec::len).sum()
}

/// Pieces of at most 256 items of `blocks`, to share out between tasks.
pub(super) fn slices_of<T>(blocks: &Blocks<T>) -> Vec<&[T]> {
    blocks.iter().flat_map(|block| block.chunks(256)).collect()
}

/// What `f(item, scratch, out)` pushes to `out` for each item of `slices`, in blocks (in no
/// particular order): the slices in parallel, each task with its own `scratch()`.
pub(super) fn map_slices<A: Sync, T: Send, S: Send>(
    slices: &[&[A]],
    scratch: impl Fn() -> S + Sync + Send,
    f: impl Fn(&A, &mut S, &mut Vec<T>) + Sync + Send,
) -> Blocks<T> {
    slices
        .par_iter()
        .fold(
            || (Vec::new(), Vec::new(), scratch()),
            |(mut done, mut open, mut scratch), slice| {
                for item in *slice {
                    f(item, &mut scratch, &mut open);
                    flush(&mut done, &mut open);
                }
                (done, open, scratch)
            },
        )
        .map(|(done, open, _)| close(done, open))
        .reduce(Vec::new, concat)
}

/// What `f` pushes for each number of `range`, in blocks (in no particular order): the
/// numbers in parallel, at least `min_len` of them to a task.
pub(super) fn gather_blocks(
    range: std::ops::Range<usize>,
    min_len: usize,
    f: impl Fn(usize, &mut Vec<u32>) + Sync + Send,
) -> Blocks {
    range
        .into_par_iter()
        .with_min_len(min_len)
        .fold(
            || (Vec::new(), Vec::new()),
            |(mut done, mut open), i| {
                f(i, &mut open);
                flush(&mut done, &mut open);
                (done, open)
            },
        )
        .map(|(done, open)| close(done, open))
        .reduce(Vec::new, concat)
}

/// A breadth-first search by levels from `frontier`, its states of the level `first`:
/// `step(s, level, row, next)` pushes to `next` the states that join at `level` through
/// state `s` of the level before (`row`: scratch for its predecessors), in parallel, until a
/// level adds none. Returns how many states joined (the frontier not counted) and the
/// largest level given; an error before a level would pass `max`. With `kept`, the states
/// of every level (the frontier included) are moved there.
pub(super) fn by_levels(
    mut frontier: Blocks,
    first: u32,
    max: u32,
    step: impl Fn(u32, u32, &mut Vec<u32>, &mut Vec<u32>) + Sync,
    mut kept: Option<&mut Blocks>,
) -> Result<(usize, u32), SolveError> {
    let (mut count, mut level, mut top) = (0, first, first);
    loop {
        let slices: Vec<&[u32]> = frontier.iter().flat_map(|block| block.chunks(256)).collect();
        if slices.is_empty() {
            break;
        }
        if level >= max {
            return Err(SolveError::DistanceTooLarge);
        }
        let next_level = level + 1;
        let next: Blocks = slices
            .par_iter()
            .fold(
                || (Vec::new(), Vec::new(), Vec::new()),
                |(mut done, mut open, mut row), slice| {
                    for &s in *slice {
                        step(s, next_level, &mut row, &mut open);
                        flush(&mut done, &mut open);
                    }
                    (done, open, row)
                },
            )
            .map(|(done, open, _)| close(done, open))
            .reduce(Vec::new, concat);
        drop(slices);
        let added = blocks_len(&next);
        if added > 0 {
            top = next_level;
        }
        count += added;
        let done = std::mem::replace(&mut frontier, next);
        if let Some(kept) = kept.as_deref_mut() {
            kept.extend(done);
        }
        level = next_level;
    }
    Ok((count, top))
}

/// A set of the numbers `0..n` as a bit each, filled in parallel (the members of a layer by
/// their offset from its start): 1 bit a member however many times each is added, where a
/// list held 4 bytes an addition.
#[derive(Default)]
pub(super) struct Bits(Vec<AtomicU64>);

impl Bits {
    /// The empty set of numbers below `n`.
    pub(super) fn new(n: usize) -> Self {
        Bits((0..n.div_ceil(64)).into_par_iter().map(|_| AtomicU64::new(0)).collect())
    }

    /// Adds `k`.
    #[inline]
    pub(super) fn insert(&self, k: usize) {
        self.0[k / 64].fetch_or(1 << (k % 64), Relaxed);
    }

    /// Whether `k` is in the set.
    #[inline]
    pub(super) fn contains(&self, k: usize) -> bool {
        self.0[k / 64].load(Relaxed) >> (k % 64) & 1 == 1
    }

    /// How many words of 64 bits the set has.
    pub(super) fn words(&self) -> usize {
        self.0.len()
    }

    /// Word `w`: whether each of the numbers `64 w..64 w + 64` is in the set, a bit each.
    #[inline]
    pub(super) fn word(&self, w: usize) -> u64 {
        self.0[w].load(Relaxed)
    }

    /// How many numbers are in the set.
    pub(super) fn count(&self) -> usize {
        self.0.par_iter().with_min_len(CHUNK / 64).map(|w| w.load(Relaxed).count_ones() as usize).sum()
    }

    /// Calls `f` with every number `k` of the set and `values[k]` (in parallel), and returns
    /// those it keeps, each plus `offset`, in increasing order (`values` holds an entry for
    /// every number the set may hold).
    pub(super) fn retain_mut<T: Send>(
        &self,
        values: &mut [T],
        offset: usize,
        f: impl Fn(usize, &mut T) -> bool + Sync,
    ) -> Vec<u32> {
        self.gather_mut(values, offset, |n, v, kept| {
            if f(n, v) {
                kept.push(n as u32);
            }
        })
    }

    /// Calls `f(k + offset, &mut values[k], out)` for every number `k` of the set (in
    /// parallel), and returns what it pushed to `out`, in the order of the numbers (`values`
    /// holds an entry for every number the set may hold).
    pub(super) fn gather_mut<T: Send, E: Send>(
        &self,
        values: &mut [T],
        offset: usize,
        f: impl Fn(usize, &mut T, &mut Vec<E>) + Sync,
    ) -> Vec<E> {
        // (A task per 64 words; the pieces joined into one vector of the exact length.)
        let pieces: Vec<Vec<E>> = values
            .par_chunks_mut(64 * 64)
            .zip(self.0.par_chunks(64))
            .enumerate()
            .map(|(c, (values, words))| {
                let mut out = Vec::new();
                for (w, word) in words.iter().enumerate() {
                    let mut word = word.load(Relaxed);
                    while word != 0 {
                        let k = 64 * w + word.trailing_zeros() as usize;
                        word &= word - 1;
                        f(offset + 64 * 64 * c + k, &mut values[k], &mut out);
                    }
                }
                out
            })
            .collect();
        joined(pieces)
    }

    /// Keeps the numbers `k` of the set for which `keep(k)` holds (in parallel).
    pub(super) fn retain(&self, keep: impl Fn(usize) -> bool + Sync) {
        self.0.par_iter().enumerate().with_min_len(CHUNK / 64).for_each(|(w, word)| {
            let (mut bits, mut kept) = (word.load(Relaxed), 0u64);
            while bits != 0 {
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                if keep(64 * w + b as usize) {
                    kept |= 1 << b;
                }
            }
            word.store(kept, Relaxed);
        });
    }
}

/// What `f` pushes for each number of `range`, in the order of the numbers: the numbers in
/// parallel, at least `min_len` of them to a task.
pub(super) fn gather<T: Send>(
    range: std::ops::Range<usize>,
    min_len: usize,
    f: impl Fn(usize, &mut Vec<T>) + Sync + Send,
) -> Vec<T> {
    // The tasks' pieces, then one vector of the exact length (joining the pieces two by two
    // held two to three times the result at once).
    let pieces: Vec<Vec<T>> = range
        .into_par_iter()
        .with_min_len(min_len)
        .fold(Vec::new, |mut out, i| {
            f(i, &mut out);
            out
        })
        .map(|mut piece| {
            piece.shrink_to_fit();
            piece
        })
        .collect();
    joined(pieces)
}

/// The pieces one after the other in one vector of the exact length.
fn joined<T>(pieces: Vec<Vec<T>>) -> Vec<T> {
    let mut all = Vec::with_capacity(pieces.iter().map(Vec::len).sum());
    for piece in pieces {
        all.extend(piece);
    }
    all
}

/// Two lists one after the other (to gather lists made in parallel).
pub(super) fn concat<T>(mut a: Vec<T>, mut b: Vec<T>) -> Vec<T> {
    a.append(&mut b);
    a
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicU32;

    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        /// A set of bits holds each number added (some many times), counts them once, and
        /// lists them in order past the offset.
        #[test]
        fn bits_hold_each_number_added_once(
            n in 0usize..20_000,
            added in proptest::collection::vec(any::<usize>(), 0..5_000),
            offset in 0usize..1_000,
        ) {
            let added: Vec<usize> = if n == 0 { Vec::new() } else { added.iter().map(|k| k % n).collect() };
            let bits = Bits::new(n);
            added.par_iter().for_each(|&k| bits.insert(k));
            let mut expected: Vec<u32> = added.iter().map(|&k| (k + offset) as u32).collect();
            expected.sort_unstable();
            expected.dedup();
            prop_assert_eq!(bits.count(), expected.len());
            for k in 0..n {
                prop_assert_eq!(bits.contains(k), added.contains(&k));
            }
            prop_assert_eq!(bits.retain_mut(&mut vec![(); n], offset, |_, _| true), expected.clone());
            // Each member visited once with its own value; the odd ones kept.
            let mut values: Vec<u32> = (0..n as u32).collect();
            let kept = bits.retain_mut(&mut values, offset, |i, v| {
                *v += 1_000_000;
                (i - offset) % 2 == 1 && *v - 1_000_000 == (i - offset) as u32
            });
            let odd: Vec<u32> = expected.iter().copied().filter(|&i| (i as usize - offset) % 2 == 1).collect();
            prop_assert_eq!(kept, odd);
            for (k, &v) in values.iter().enumerate() {
                let added = expected.contains(&((k + offset) as u32));
                prop_assert_eq!(v, k as u32 + if added { 1_000_000 } else { 0 });
            }
        }

        /// `for_each_listed` visits exactly the listed numbers once each, also over lists long
        /// enough to split into many tasks.
        #[test]
        fn for_each_listed_visits_each_listed_number_once(
            picks in proptest::collection::vec(any::<bool>(), 0..6 * CHUNK),
        ) {
            let list: Vec<u32> = (0..picks.len() as u32).filter(|&i| picks[i as usize]).collect();
            let mut values = vec![0u32; picks.len()];
            for_each_listed(&mut values, &list, &|i, v| *v += i as u32 + 1);
            for (i, &v) in values.iter().enumerate() {
                prop_assert_eq!(v, if picks[i] { i as u32 + 1 } else { 0 });
            }
        }

        /// `gather_listed` visits the listed numbers once each and returns what was pushed in
        /// the order of the list, the list unchanged.
        #[test]
        fn gather_listed_gathers_in_order(picks in proptest::collection::vec(0u8..3, 0..6 * CHUNK)) {
            let list: Vec<u32> = (0..picks.len() as u32).filter(|&i| picks[i as usize] != 0).collect();
            let mut values = vec![0u32; picks.len()];
            let out = gather_listed(&mut values, &list, &|i, v, out| {
                *v += 1;
                if picks[i] == 2 {
                    out.push(i as u64 * 5);
                }
            });
            prop_assert!(values.iter().enumerate().all(|(i, &v)| v == u32::from(picks[i] != 0)));
            let pushed: Vec<u64> = list.iter().filter(|&&i| picks[i as usize] == 2).map(|&i| u64::from(i) * 5).collect();
            prop_assert_eq!(out, pushed);
        }

        /// A set of bits visits its numbers in order with their values (`gather_mut`) and
        /// keeps those it is told to (`retain`), against a list of them.
        #[test]
        fn bits_gather_and_retain(picks in proptest::collection::vec(0u8..4, 0..3 * 64 * 64 + 100)) {
            let bits = Bits::new(picks.len());
            (0..picks.len()).into_par_iter().filter(|&k| picks[k] != 0).for_each(|k| bits.insert(k));
            let mut values = vec![0u32; picks.len()];
            let out = bits.gather_mut(&mut values, 7, |n, v, out| {
                *v += 1;
                if picks[n - 7] >= 2 {
                    out.push(n);
                }
            });
            prop_assert!(values.iter().enumerate().all(|(k, &v)| v == u32::from(picks[k] != 0)));
            let want: Vec<usize> = (0..picks.len()).filter(|&k| picks[k] >= 2).map(|k| k + 7).collect();
            prop_assert_eq!(out, want);
            bits.retain(|k| picks[k] == 3);
            prop_assert!((0..picks.len()).all(|k| bits.contains(k) == (picks[k] == 3)));
            prop_assert_eq!(bits.count(), picks.iter().filter(|&&p| p == 3).count());
        }

        /// `split_sides` gives the numbers of the `M`-states, then of the `O`-states, each
        /// once.
        #[test]
        fn split_sides_parts_the_states(states in proptest::collection::vec(0u32..1 << 20, 0..3 * CHUNK)) {
            let (numbers, k) = split_sides(states.clone());
            let mut m: Vec<u32> = numbers[..k].to_vec();
            let mut o: Vec<u32> = numbers[k..].to_vec();
            m.sort_unstable();
            o.sort_unstable();
            let mut want_m: Vec<u32> = states.iter().filter(|&&s| s % 2 == 0).map(|&s| s >> 1).collect();
            let mut want_o: Vec<u32> = states.iter().filter(|&&s| s % 2 == 1).map(|&s| s >> 1).collect();
            want_m.sort_unstable();
            want_o.sort_unstable();
            prop_assert_eq!(m, want_m);
            prop_assert_eq!(o, want_o);
        }

        /// `gather_blocks` holds every number pushed, once per push, in blocks none empty
        /// and none much over [`BLOCK_LEN`].
        #[test]
        fn gather_blocks_holds_every_push(picks in proptest::collection::vec(0u8..3, 0..3 * BLOCK_LEN)) {
            let blocks = gather_blocks(0..picks.len(), 256, |i, out| {
                for _ in 0..picks[i] {
                    out.push(i as u32);
                }
            });
            let mut got: Vec<u32> = blocks.iter().flatten().copied().collect();
            got.sort_unstable();
            let want: Vec<u32> =
                (0..picks.len()).flat_map(|i| std::iter::repeat_n(i as u32, usize::from(picks[i]))).collect();
            prop_assert_eq!(blocks_len(&blocks), want.len());
            prop_assert_eq!(got, want);
            prop_assert!(blocks.iter().all(|b| !b.is_empty() && b.len() < BLOCK_LEN + 256));
        }

        /// `map_slices` over the slices of blocks holds every pair pushed, once per push, in
        /// blocks none empty and none much over [`BLOCK_LEN`].
        #[test]
        fn map_slices_holds_every_push(
            sizes in proptest::collection::vec(0usize..2 * BLOCK_LEN, 0..4),
            picks in proptest::collection::vec(0u8..3, 1..64),
        ) {
            let mut next = 0u32;
            let items: Blocks = sizes.iter().map(|&n| (0..n).map(|_| { next += 1; next }).collect()).collect();
            let pick = |x: u32| picks[x as usize % picks.len()];
            let out = map_slices(&slices_of(&items), Vec::new, |&x, row: &mut Vec<u32>, out| {
                row.clear();
                row.extend(std::iter::repeat_n(x, usize::from(pick(x))));
                out.extend(row.iter().map(|&x| (x, x + 1)));
            });
            let mut got: Vec<(u32, u32)> = out.iter().flatten().copied().collect();
            got.sort_unstable();
            let want: Vec<(u32, u32)> =
                (1..=next).flat_map(|x| std::iter::repeat_n((x, x + 1), usize::from(pick(x)))).collect();
            prop_assert_eq!(blocks_len(&out), want.len());
            prop_assert_eq!(got, want);
            prop_assert!(out.iter().all(|b| !b.is_empty() && b.len() < BLOCK_LEN + 256));
        }

        /// `by_levels` reaches every node of a tree (node `k`'s children `2k + 1`, `2k + 2`)
        /// once, at the level of its depth, over levels of many blocks.
        #[test]
        fn by_levels_gives_each_node_its_depth(n in 1usize..4 * BLOCK_LEN, first in 1u32..5) {
            let level: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(0)).collect();
            level[0].store(first, Relaxed);
            let mut kept = Vec::new();
            let (count, top) = by_levels(vec![vec![0]], first, u32::MAX, |s, next_level, _, next| {
                for child in [2 * s as usize + 1, 2 * s as usize + 2] {
                    if child < n && level[child].swap(next_level, Relaxed) == 0 {
                        next.push(child as u32);
                    }
                }
            }, Some(&mut kept))
            .unwrap();
            let depth = |k: usize| (k + 1).ilog2();
            prop_assert_eq!(count, n - 1);
            let mut all: Vec<u32> = kept.into_iter().flatten().collect();
            all.sort_unstable();
            prop_assert_eq!(all, (0..n as u32).collect::<Vec<_>>(), "kept: every node once");
            prop_assert_eq!(top, first + depth(n - 1));
            for (k, l) in level.iter().enumerate() {
                prop_assert_eq!(l.load(Relaxed), first + depth(k), "node {}", k);
            }
        }

        /// `retain_listed` visits the listed numbers once each, keeps those it is told to,
        /// and returns what was pushed in the order of the list.
        #[test]
        fn retain_listed_keeps_and_gathers_in_order(
            picks in proptest::collection::vec(0u8..4, 0..6 * CHUNK),
        ) {
            let mut list: Vec<u32> = (0..picks.len() as u32).filter(|&i| picks[i as usize] != 0).collect();
            let listed = list.clone();
            let mut values = vec![0u32; picks.len()];
            let out = retain_listed(&mut values, &mut list, &|i, v, out| {
                *v += 1;
                if picks[i] >= 2 {
                    out.push(i as u64 * 3);
                }
                picks[i] == 3
            });
            prop_assert!(values.iter().enumerate().all(|(i, &v)| v == u32::from(picks[i] != 0)));
            let kept: Vec<u32> = listed.iter().copied().filter(|&i| picks[i as usize] == 3).collect();
            prop_assert_eq!(list, kept);
            let pushed: Vec<u64> = listed.iter().filter(|&&i| picks[i as usize] >= 2).map(|&i| u64::from(i) * 3).collect();
            prop_assert_eq!(out, pushed);
        }
    }
}
