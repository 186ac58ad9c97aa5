//! The predecessor lists of the draws, compressed: each member's predecessors inside the set,
//! sorted, as variable-length gaps (LEB128, the chase label in the lowest bit). Two un-move
//! passes build them (the first counts the bytes, the second fills them); a row is read by
//! decoding its bytes.
//!
//! Why compressed: a move between two draws took 4 bytes, and the draws of a 6-man material
//! with three attackers have about 7 predecessors each, so `KNRvKAR`'s 72.1 M drawn indices
//! needed about 2.4 GB of lists, over the budget: every pass then generated un-moves, which
//! made the rule's solve about 20 times the standard one. A predecessor differs from its
//! member in one piece and the side to move, so the sorted numbers are close together: the
//! gaps take 1 to 3 bytes (measured in BENCHMARKS.md), and decoding them costs less than the
//! cache misses of the flags they lead to.

use rayon::prelude::*;

/// Members handled by one parallel task while building or renumbering.
const CHUNK: usize = 1 << 12;

/// The predecessors inside the set of every member, by row (a member's number when built;
/// see [`Lists::renumber`]), compressed.
pub(super) struct Lists {
    /// Where each row's bytes start (and, last, the bytes in all).
    offsets: Vec<u32>,
    bytes: Vec<u8>,
    /// Moves in all (for the profile).
    moves: u64,
}

/// The bytes of `value` in LEB128.
fn varint_len(value: u64) -> usize {
    // 7 bits a byte; 0 takes one.
    (64 - (value | 1).leading_zeros() as usize).div_ceil(7)
}

fn put_varint(out: &mut [u8], at: &mut usize, mut value: u64) {
    while value >= 0x80 {
        out[*at] = (value as u8) | 0x80;
        *at += 1;
        value >>= 7;
    }
    out[*at] = value as u8;
    *at += 1;
}

/// The first entry of a row is kept relative to the row's member (`base`), zigzag coded; the
/// others as gaps from the one before (sorted: never negative).
fn first_delta(base: u32, first: u32) -> u32 {
    let d = i64::from(first) - i64::from(base);
    // Zigzag: small magnitudes of either sign stay small (numbers are below 2^31).
    ((d << 1) ^ (d >> 63)) as u32
}

fn undo_first_delta(base: u32, coded: u32) -> u32 {
    let d = i64::from(coded >> 1) ^ -i64::from(coded & 1);
    (i64::from(base) + d) as u32
}

/// A gap and a chase label as one coded value: the label in the lowest bit, which never
/// changes the value's length in bytes.
fn coded(gap: u32, entry: u32) -> u64 {
    u64::from(gap) << 1 | u64::from(entry & 1)
}

/// The bytes of a sorted row of entries `(number << 1 | chase)`, its gaps coded.
fn encoded_len(base: u32, row: &[u32]) -> usize {
    let mut prev = None::<u32>;
    row.iter()
        .map(|&e| {
            let j = e >> 1;
            let gap = match prev {
                None => first_delta(base, j),
                Some(p) => j - p,
            };
            prev = Some(j);
            varint_len(coded(gap, e))
        })
        .sum()
}

fn encode(base: u32, row: &[u32], out: &mut [u8], at: &mut usize) {
    let mut prev = None::<u32>;
    for &e in row {
        let j = e >> 1;
        let gap = match prev {
            None => first_delta(base, j),
            Some(p) => j - p,
        };
        prev = Some(j);
        put_varint(out, at, coded(gap, e));
    }
}

/// Calls `f` with each predecessor and its chase label in the row coded in `bytes`.
#[inline]
fn decode(base: u32, bytes: &[u8], mut f: impl FnMut(usize, bool)) {
    let mut at = 0;
    let mut prev = None::<u32>;
    while at < bytes.len() {
        let mut value = 0u64;
        let mut shift = 0;
        loop {
            let b = bytes[at];
            at += 1;
            value |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                break;
            }
            shift += 7;
        }
        let (gap, chase) = ((value >> 1) as u32, value & 1 != 0);
        let j = match prev {
            None => undo_first_delta(base, gap),
            Some(p) => p + gap,
        };
        prev = Some(j);
        f(j as usize, chase);
    }
}

/// A row as sorted entries `(number << 1 | chase)`.
fn sorted(row: &mut [u32]) {
    row.sort_unstable();
}

impl Lists {
    /// The lists of `m` members, whose predecessors (number, chase) `preds` calls back with
    /// (twice: it must give the same moves both times; `labelled: false` the first time, when
    /// only the numbers count), when they fit in `budget` bytes (else `None`).
    pub(super) fn build(
        m: usize,
        budget: usize,
        preds: impl Fn(usize, bool, &mut dyn FnMut(usize, bool)) + Sync,
    ) -> Option<Lists> {
        if (m + 1).saturating_mul(4) > budget {
            return None;
        }
        let row_of = |i: usize, labelled: bool, row: &mut Vec<u32>| {
            row.clear();
            preds(i, labelled, &mut |j, chase| row.push((j as u32) << 1 | u32::from(chase)));
            sorted(row);
        };
        let lens: Vec<(u16, u16)> = (0..m)
            .into_par_iter()
            .with_min_len(CHUNK)
            .map_init(Vec::new, |row, i| {
                row_of(i, false, row);
                let len = encoded_len(i as u32, row);
                (u16::try_from(len).unwrap_or(u16::MAX), u16::try_from(row.len()).unwrap_or(u16::MAX))
            })
            .collect();
        let total: u64 = lens.iter().map(|&(b, _)| u64::from(b)).sum();
        let moves: u64 = lens.iter().map(|&(_, n)| u64::from(n)).sum();
        if lens.iter().any(|&(b, n)| b == u16::MAX || n == u16::MAX)
            || total >= u64::from(u32::MAX)
            || (total as usize).saturating_add((m + 1) * 4) > budget
        {
            return None;
        }
        let offsets = prefix(lens.iter().map(|&(b, _)| u32::from(b)));
        drop(lens);
        let mut bytes = vec![0u8; total as usize];
        fill(&offsets, &mut bytes, |i, row| {
            row_of(i, true, row);
            i as u32
        });
        Some(Lists { offsets, bytes, moves })
    }

    /// The moves in all.
    pub(super) fn moves(&self) -> u64 {
        self.moves
    }

    /// Bytes held.
    pub(super) fn heap_bytes(&self) -> usize {
        self.offsets.capacity() * 4 + self.bytes.capacity()
    }

    /// Calls `f` with every predecessor in row `row` (its member numbered `base` now) and
    /// the move's chase label.
    #[inline]
    pub(super) fn row(&self, row: usize, base: usize, f: impl FnMut(usize, bool)) {
        let bytes = &self.bytes[self.offsets[row] as usize..self.offsets[row + 1] as usize];
        decode(base as u32, bytes, f);
    }

    /// Where row `row`'s bytes start and end: a cursor for [`Lists::next`].
    pub(super) fn span(&self, row: usize) -> (u32, u32) {
        (self.offsets[row], self.offsets[row + 1])
    }

    /// The entry at byte `at` of a row based on `base` (`at` below its end, see
    /// [`Lists::span`]; `prev` the entry before it, `None` at the start), moving `at` on: for
    /// a search that leaves a row and comes back to it.
    pub(super) fn next(&self, base: u32, at: &mut u32, prev: Option<u32>) -> u32 {
        let mut value = 0u64;
        let mut shift = 0;
        loop {
            let b = self.bytes[*at as usize];
            *at += 1;
            value |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                break;
            }
            shift += 7;
        }
        let gap = (value >> 1) as u32;
        match prev {
            None => undo_first_delta(base, gap),
            Some(p) => p + gap,
        }
    }

    /// The lists with every entry `j` replaced by `new[j]`, each row `r` based on `new[r]`
    /// (the rows stay in their first order). The new bytes are made before the old ones go.
    pub(super) fn renumber(&mut self, new: &[u32]) {
        let m = self.offsets.len() - 1;
        let entries = |r: usize, row: &mut Vec<u32>| {
            row.clear();
            self.row(r, r, |j, chase| row.push(new[j] << 1 | u32::from(chase)));
            sorted(row);
        };
        let lens: Vec<u32> = (0..m)
            .into_par_iter()
            .with_min_len(CHUNK)
            .map_init(Vec::new, |row, r| {
                entries(r, row);
                encoded_len(new[r], row) as u32
            })
            .collect();
        let offsets = prefix(lens.into_iter());
        let mut bytes = vec![0u8; *offsets.last().unwrap_or(&0) as usize];
        fill(&offsets, &mut bytes, |r, row| {
            entries(r, row);
            new[r]
        });
        self.offsets = offsets;
        self.bytes = bytes;
    }
}

/// Offsets from lengths: 0, then the running sums.
fn prefix(lens: impl Iterator<Item = u32>) -> Vec<u32> {
    let mut offsets = Vec::with_capacity(lens.size_hint().0 + 1);
    let mut at = 0u32;
    offsets.push(0);
    for len in lens {
        at += len;
        offsets.push(at);
    }
    offsets
}

/// Fills `bytes` row by row in parallel (disjoint slices per chunk of rows): `row(r, buf)`
/// puts row `r`'s sorted entries in `buf` and returns its base.
fn fill(offsets: &[u32], bytes: &mut [u8], row: impl Fn(usize, &mut Vec<u32>) -> u32 + Sync) {
    let m = offsets.len() - 1;
    let mut slices = Vec::with_capacity(m.div_ceil(CHUNK));
    let mut rest: &mut [u8] = bytes;
    for c in 0..m.div_ceil(CHUNK) {
        let (start, end) = (offsets[c * CHUNK], offsets[((c + 1) * CHUNK).min(m)]);
        let (head, tail) = rest.split_at_mut((end - start) as usize);
        slices.push(head);
        rest = tail;
    }
    slices.into_par_iter().enumerate().for_each(|(c, slice)| {
        let mut buf = Vec::new();
        let mut at = 0;
        for r in c * CHUNK..((c + 1) * CHUNK).min(m) {
            let base = row(r, &mut buf);
            let before = at;
            encode(base, &buf, slice, &mut at);
            debug_assert_eq!(at - before, (offsets[r + 1] - offsets[r]) as usize, "un-moves differ between two calls");
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Rows of random predecessors (numbers below `m`, chase labels, repeats allowed).
    fn rows() -> impl Strategy<Value = Vec<Vec<(usize, bool)>>> {
        (1usize..200, 1u32..=31).prop_flat_map(|(m, bits)| {
            let top = (1usize << bits).min(1 << 30).max(m);
            prop::collection::vec(prop::collection::vec((0..top, any::<bool>()), 0..20), m..=m)
        })
    }

    fn read_all(lists: &Lists, base: impl Fn(usize) -> usize, m: usize) -> Vec<Vec<(usize, bool)>> {
        (0..m)
            .map(|r| {
                let mut out = Vec::new();
                lists.row(r, base(r), |j, c| out.push((j, c)));
                out
            })
            .collect()
    }

    fn sorted_rows(rows: &[Vec<(usize, bool)>]) -> Vec<Vec<(usize, bool)>> {
        rows.iter()
            .map(|r| {
                let mut r = r.clone();
                r.sort_unstable();
                r
            })
            .collect()
    }

    proptest! {
        /// Every row reads back as the moves given (as a multiset, labels kept), and the
        /// bytes counted are the bytes filled.
        #[test]
        fn rows_read_back(rows in rows()) {
            let m = rows.len();
            let lists = Lists::build(m, usize::MAX, |i, _, f| {
                for &(j, c) in &rows[i] {
                    f(j, c);
                }
            })
            .expect("no budget");
            prop_assert_eq!(read_all(&lists, |r| r, m), sorted_rows(&rows));
            prop_assert_eq!(lists.moves(), rows.iter().map(|r| r.len() as u64).sum::<u64>());
            // Entry by entry through a cursor, as the search for layers reads them.
            for (r, row) in sorted_rows(&rows).iter().enumerate() {
                let (mut at, end) = lists.span(r);
                let mut prev = None;
                let mut read = Vec::new();
                while at < end {
                    let j = lists.next(r as u32, &mut at, prev);
                    prev = Some(j);
                    read.push(j as usize);
                }
                prop_assert_eq!(read, row.iter().map(|&(j, _)| j).collect::<Vec<_>>());
            }
        }

        /// After a renumbering every row holds the new numbers of its moves.
        #[test]
        fn renumbered_rows_read_back(rows in rows(), seed in any::<u64>()) {
            let m = rows.len();
            // Predecessors are members here: numbers below m.
            let rows: Vec<Vec<(usize, bool)>> =
                rows.iter().map(|r| r.iter().map(|&(j, c)| (j % m, c)).collect()).collect();
            let mut new: Vec<u32> = (0..m as u32).collect();
            let mut s = seed;
            for k in (1..m).rev() {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                new.swap(k, (s >> 33) as usize % (k + 1));
            }
            let mut lists = Lists::build(m, usize::MAX, |i, _, f| {
                for &(j, c) in &rows[i] {
                    f(j, c);
                }
            })
            .expect("no budget");
            lists.renumber(&new);
            let expected: Vec<Vec<(usize, bool)>> =
                rows.iter().map(|r| r.iter().map(|&(j, c)| (new[j] as usize, c)).collect()).collect();
            prop_assert_eq!(read_all(&lists, |r| new[r] as usize, m), sorted_rows(&expected));
        }
    }

    #[test]
    fn a_budget_too_small_gives_no_lists() {
        let row = |_: usize, _: bool, f: &mut dyn FnMut(usize, bool)| f(0, false);
        // 44 bytes of offsets and a byte per row (the gap from row i to 0 is small).
        assert!(Lists::build(10, 43, row).is_none());
        assert!(Lists::build(10, 53, row).is_none());
        assert!(Lists::build(10, 54, row).is_some());
    }
}
