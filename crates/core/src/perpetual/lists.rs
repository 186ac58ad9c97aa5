//! The predecessor lists of the draws, compressed: each member's predecessors inside the set,
//! sorted, as variable-length gaps (LEB128, the chase label in the lowest bit when the lists
//! carry labels), in blocks of rows. One un-move pass builds them (the blocks handed out in
//! order, none after the budget is passed: then no lists, or for the check stage the first
//! rows that fit); a row is read by decoding its bytes.
//!
//! Why compressed: a move between two draws took 4 bytes, and the draws of a 6-man material
//! with three attackers have about 9.5 predecessors each, so `KNRvKAR`'s 72.1 M drawn indices
//! needed 2.6 GiB of lists, over the 2 GiB budget: every pass then generated un-moves, which
//! made the rule's solve about 20 times the standard one. A predecessor differs from its
//! member in one piece and the side to move, so the sorted numbers are close together: the
//! gaps take 1 to 3 bytes, and decoding them costs less than the cache misses of the flags
//! they lead to. Where each row starts takes 2 bytes in blocks of 1,024 rows (4 in a block of
//! 64 KiB or more): `KNRvKAR`'s lists 1,588 MiB, 2.43 bytes a move, against 1,726 MiB with 4
//! bytes a row (BENCHMARKS.md). Lists without labels (the check stage's) give the label's bit
//! to the gap: 1,513 MiB, 2.31 bytes a move.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use rayon::prelude::*;

/// Rows in a block of the lists: the rows of a block are built and kept together (one
/// parallel task), in one allocation. Small enough that a block's bytes nearly always stay
/// below 64 KiB (`KNRvKAR`: 24 bytes a row), so that 2-byte offsets place its rows.
const BLOCK: usize = 1 << 10;

/// The rows of one block: where each starts in `bytes` (and, last, their length).
struct Block {
    offsets: Offsets,
    bytes: Vec<u8>,
}

/// Where the rows of a block start: 2 bytes a row when the block's bytes are fewer than
/// 65,536, else 4 (the offsets were 4 bytes a row: 275 MiB of `KNRvKAR`'s 1,726 MiB of
/// lists).
enum Offsets {
    Short(Vec<u16>),
    Long(Vec<u32>),
}

impl Offsets {
    /// The offsets `long`, short when they fit.
    fn new(long: Vec<u32>) -> Offsets {
        if long.last().is_none_or(|&end| end <= u32::from(u16::MAX)) {
            Offsets::Short(long.into_iter().map(|o| o as u16).collect())
        } else {
            Offsets::Long(long)
        }
    }

    /// Where row `k` starts and ends.
    #[inline]
    fn span(&self, k: usize) -> (usize, usize) {
        match self {
            Offsets::Short(o) => (usize::from(o[k]), usize::from(o[k + 1])),
            Offsets::Long(o) => (o[k] as usize, o[k + 1] as usize),
        }
    }

    /// Bytes held.
    fn heap_bytes(&self) -> usize {
        match self {
            Offsets::Short(o) => o.capacity() * 2,
            Offsets::Long(o) => o.capacity() * 4,
        }
    }
}

/// The predecessors inside the set of every member, by row (a member's number), compressed,
/// in blocks of [`BLOCK`] rows: of every row, or of the first rows only (lists built
/// `partial`, see [`Lists::build`]; [`Lists::rows`] says how many).
pub(super) struct Lists {
    blocks: Vec<Block>,
    /// The rows listed: the first ones (all of them unless built `partial`).
    rows: usize,
    /// Bits below a gap: 1 for the chase label, 0 when the lists carry no labels.
    label_bits: u32,
    /// Moves in all (for the profile).
    moves: u64,
}

/// Appends `value` in LEB128 (7 bits a byte, the high bit set on all but the last).
fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
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

/// Appends a sorted row of entries `(number << 1 | chase)` based on `base`: each gap with the
/// chase label in its lowest bit when `label_bits` is 1 (when 0, every label is `false`).
fn encode(base: u32, row: &[u32], label_bits: u32, out: &mut Vec<u8>) {
    let mut prev = None::<u32>;
    for &e in row {
        let j = e >> 1;
        let gap = match prev {
            None => first_delta(base, j),
            Some(p) => j - p,
        };
        prev = Some(j);
        debug_assert!(label_bits == 1 || e & 1 == 0, "a chase label in lists without labels");
        put_varint(out, u64::from(gap) << label_bits | u64::from(e & label_bits));
    }
}

/// The number an entry's gap stands for: from `base` for a row's first entry, else from the
/// entry before (`prev`).
#[inline]
fn undo_gap(base: u32, prev: Option<u32>, gap: u32) -> u32 {
    match prev {
        None => undo_first_delta(base, gap),
        Some(p) => p + gap,
    }
}

/// Calls `f` with each predecessor and its chase label in the row coded in `bytes`, with
/// `label_bits` bits of label below each gap.
#[inline]
fn decode(base: u32, bytes: &[u8], label_bits: u32, mut f: impl FnMut(usize, bool)) {
    let mut at = 0;
    let mut prev = None::<u32>;
    while at < bytes.len() {
        let value = get_varint(bytes, &mut at);
        let j = undo_gap(base, prev, (value >> label_bits) as u32);
        prev = Some(j);
        let chase = value & u64::from(label_bits) != 0;
        f(j as usize, chase);
    }
}

/// Reads one LEB128 value of `bytes` at `at`, moving `at` on.
#[inline]
fn get_varint(bytes: &[u8], at: &mut usize) -> u64 {
    let mut value = 0u64;
    let mut shift = 0;
    loop {
        let b = bytes[*at];
        *at += 1;
        value |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return value;
        }
        shift += 7;
    }
}

/// Encodes the rows `rows` (a block), each given by `row(r, buf)` (its entries `(number << 1
/// | chase)` pushed on `buf`; it returns the row's base), sorted first; returns the block and
/// its moves (`None`: a block of 4 GiB or more).
fn encode_block(
    rows: std::ops::Range<usize>,
    scratch: &mut (Vec<u32>, Vec<u8>),
    label_bits: u32,
    row: &impl Fn(usize, &mut Vec<u32>) -> u32,
) -> Option<(Block, u64)> {
    let (buf, out) = scratch;
    out.clear();
    let mut offsets = Vec::with_capacity(rows.len() + 1);
    offsets.push(0);
    let mut moves = 0;
    for r in rows {
        buf.clear();
        let base = row(r, buf);
        buf.sort_unstable();
        moves += buf.len() as u64;
        encode(base, buf, label_bits, out);
        offsets.push(u32::try_from(out.len()).ok()?);
    }
    Some((Block { offsets: Offsets::new(offsets), bytes: out.clone() }, moves))
}

impl Lists {
    /// The lists of `m` members, whose predecessors (number, chase) `preds` calls back with,
    /// when they fit in `budget` bytes (else `None`, found as soon as the blocks built pass
    /// it: the un-moves are generated once). When `partial`, the first rows that fit instead
    /// (whole blocks; `None` when not even one does): the others' predecessors are left to
    /// the caller. Without `labelled`, every chase label given must be `false`, and none is
    /// kept.
    pub(super) fn build(
        m: usize,
        budget: usize,
        labelled: bool,
        partial: bool,
        preds: impl Fn(usize, &mut dyn FnMut(usize, bool)) + Sync,
    ) -> Option<Lists> {
        let label_bits = u32::from(labelled);
        // The offsets: 2 bytes a row and one more a block (2 more each in a block of long
        // offsets, counted with its bytes). Partial lists count them block by block.
        let fixed = (m + m.div_ceil(BLOCK)).saturating_mul(2);
        if !partial && fixed > budget {
            return None;
        }
        let row = |r: usize, buf: &mut Vec<u32>| {
            preds(r, &mut |j, chase| buf.push((j as u32) << 1 | u32::from(chase)));
            r as u32
        };
        // Blocks handed out in order (each thread takes the next one), none after the budget
        // is passed: the blocks built are the first ones, those being built then finish.
        // The lists keep the longest run of them from the first that fits, the same in
        // every solve. (All blocks in one parallel pass, each thread from its own end of
        // the range, would spend a budget too small on blocks past the first gap, which could
        // not be kept; runs of blocks one after the other cost a wait at the end of each.)
        let count = m.div_ceil(BLOCK);
        let (next, used) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let slots: Vec<OnceLock<Option<(Block, u64)>>> = (0..count).map(|_| OnceLock::new()).collect();
        // Bytes a block counts: its bytes, and its offsets beyond the fixed 2 bytes a row and
        // a block (all of them for partial lists).
        let size = |block: &Block| {
            block.bytes.len()
                + match &block.offsets {
                    Offsets::Short(o) if partial => 2 * o.len(),
                    Offsets::Short(_) => 0,
                    Offsets::Long(o) => (if partial { 4 } else { 2 }) * o.len(),
                }
        };
        let fixed = if partial { 0 } else { fixed };
        (0..rayon::current_num_threads()).into_par_iter().for_each_init(
            || (Vec::new(), Vec::new()),
            |scratch, _| {
                while fixed.saturating_add(used.load(Relaxed)) <= budget {
                    let b = next.fetch_add(1, Relaxed);
                    if b >= count {
                        break;
                    }
                    let built = encode_block(b * BLOCK..((b + 1) * BLOCK).min(m), scratch, label_bits, &row);
                    // (A block of 4 GiB or more is never kept, nor any after it.)
                    let more = built.as_ref().map_or(usize::MAX, |(block, _)| size(block));
                    let _ = used.fetch_update(Relaxed, Relaxed, |u| Some(u.saturating_add(more)));
                    let _ = slots[b].set(built);
                }
            },
        );
        let (mut blocks, mut held, mut moves) = (Vec::new(), fixed, 0);
        for slot in slots {
            let Some(Some((block, n))) = slot.into_inner() else { break };
            held += size(&block);
            if held > budget {
                break;
            }
            moves += n;
            blocks.push(block);
        }
        if blocks.len() < count && (!partial || blocks.is_empty()) {
            return None;
        }
        let rows = (blocks.len() * BLOCK).min(m);
        Some(Lists { blocks, rows, label_bits, moves })
    }

    /// The rows listed: rows `0..rows()` (all of them unless built partial).
    pub(super) fn rows(&self) -> usize {
        self.rows
    }

    /// The moves in all (of the rows listed).
    pub(super) fn moves(&self) -> u64 {
        self.moves
    }

    /// Bytes held.
    pub(super) fn heap_bytes(&self) -> usize {
        self.blocks.iter().map(|b| b.offsets.heap_bytes() + b.bytes.capacity()).sum()
    }

    /// The bytes of row `row`.
    #[inline]
    fn bytes(&self, row: usize) -> &[u8] {
        let block = &self.blocks[row / BLOCK];
        let (start, end) = block.offsets.span(row % BLOCK);
        &block.bytes[start..end]
    }

    /// Calls `f` with every predecessor in row `row` (its member numbered `base` now) and
    /// the move's chase label.
    #[inline]
    pub(super) fn row(&self, row: usize, base: usize, f: impl FnMut(usize, bool)) {
        decode(base as u32, self.bytes(row), self.label_bits, f);
    }

    /// The length in bytes of row `row`: a cursor for [`Lists::next`] runs from 0 to it.
    pub(super) fn row_len(&self, row: usize) -> u32 {
        self.bytes(row).len() as u32
    }

    /// The entry at byte `at` of row `row` based on `base` (`at` below its length, see
    /// [`Lists::row_len`]; `prev` the entry before it, `None` at the start), moving `at` on:
    /// for a search that leaves a row and comes back to it.
    pub(super) fn next(&self, row: usize, base: u32, at: &mut u32, prev: Option<u32>) -> u32 {
        let mut k = *at as usize;
        let value = get_varint(self.bytes(row), &mut k);
        *at = k as u32;
        undo_gap(base, prev, (value >> self.label_bits) as u32)
    }
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

    /// Row `r` read entry by entry through a cursor, as the search for layers reads it.
    fn by_cursor(lists: &Lists, r: usize) -> Vec<usize> {
        let (mut at, end) = (0, lists.row_len(r));
        let mut prev = None;
        let mut read = Vec::new();
        while at < end {
            let j = lists.next(r, r as u32, &mut at, prev);
            prev = Some(j);
            read.push(j as usize);
        }
        read
    }

    /// The lists of `rows`, with no budget.
    fn built(rows: &[Vec<(usize, bool)>]) -> Lists {
        Lists::build(rows.len(), usize::MAX, true, false, |i, f| rows[i].iter().for_each(|&(j, c)| f(j, c)))
            .expect("no budget")
    }

    proptest! {
        /// Every row reads back as the moves given (as a multiset, labels kept), and the
        /// moves are counted.
        #[test]
        fn rows_read_back(rows in rows()) {
            let m = rows.len();
            let lists = built(&rows);
            prop_assert_eq!(read_all(&lists, |r| r, m), sorted_rows(&rows));
            prop_assert_eq!(lists.moves(), rows.iter().map(|r| r.len() as u64).sum::<u64>());
            // Entry by entry through a cursor.
            for (r, row) in sorted_rows(&rows).iter().enumerate() {
                prop_assert_eq!(by_cursor(&lists, r), row.iter().map(|&(j, _)| j).collect::<Vec<_>>());
            }
        }

        /// Lists without labels read back as the moves given (every label `false`), through
        /// rows and cursors, in no more bytes than with labels.
        #[test]
        fn rows_without_labels_read_back(rows in rows()) {
            let m = rows.len();
            let plain: Vec<Vec<(usize, bool)>> =
                rows.iter().map(|r| r.iter().map(|&(j, _)| (j, false)).collect()).collect();
            let lists = Lists::build(m, usize::MAX, false, false, |i, f| plain[i].iter().for_each(|&(j, c)| f(j, c)))
                .expect("no budget");
            prop_assert_eq!(read_all(&lists, |r| r, m), sorted_rows(&plain));
            prop_assert!(lists.heap_bytes() <= built(&plain).heap_bytes());
            for (r, row) in sorted_rows(&plain).iter().enumerate() {
                prop_assert_eq!(by_cursor(&lists, r), row.iter().map(|&(j, _)| j).collect::<Vec<_>>());
            }
        }
    }

    /// Without labels a gap of 64 to 127 takes one byte (two with labels).
    #[test]
    fn lists_without_labels_give_the_label_bit_to_the_gap() {
        let rows: Vec<Vec<(usize, bool)>> = (0..4).map(|r| vec![(r, false), (r + 100, false)]).collect();
        let feed = |i: usize, f: &mut dyn FnMut(usize, bool)| rows[i].iter().for_each(|&(j, c)| f(j, c));
        let with = Lists::build(4, usize::MAX, true, false, feed).expect("no budget");
        let without = Lists::build(4, usize::MAX, false, false, feed).expect("no budget");
        assert_eq!((0..4).map(|r| with.row_len(r)).collect::<Vec<_>>(), [3; 4]);
        assert_eq!((0..4).map(|r| without.row_len(r)).collect::<Vec<_>>(), [2; 4]);
        assert_eq!(read_all(&without, |r| r, 4), rows);
    }

    /// Rows over several blocks (the last one partly full) read back.
    #[test]
    fn rows_over_many_blocks_read_back() {
        let m = 3 * BLOCK + 5;
        let mut s = 7u64;
        let mut next = || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (s >> 33) as usize
        };
        let rows: Vec<Vec<(usize, bool)>> =
            (0..m).map(|_| (0..next() % 12).map(|_| (next() % m, next() % 2 == 0)).collect()).collect();
        let lists = built(&rows);
        assert_eq!(read_all(&lists, |r| r, m), sorted_rows(&rows));
    }

    /// A block of 64 KiB of bytes or more keeps 4-byte offsets, a smaller one 2-byte ones;
    /// both read back, and the budget counts what each holds.
    #[test]
    fn blocks_past_64_kib_keep_long_offsets() {
        let m = 2 * BLOCK;
        // The first block's rows 40 far-apart moves each (about 4 bytes a move), the
        // second's one near move each.
        let rows: Vec<Vec<(usize, bool)>> = (0..m)
            .map(|r| {
                if r < BLOCK {
                    (0..40).map(|k| (k << 24 | r, k % 3 == 0)).collect()
                } else {
                    vec![(r, false)]
                }
            })
            .collect();
        let lists = built(&rows);
        assert!(matches!(lists.blocks[0].offsets, Offsets::Long(_)));
        assert!(matches!(lists.blocks[1].offsets, Offsets::Short(_)));
        assert_eq!(read_all(&lists, |r| r, m), sorted_rows(&rows));
        let held = lists.heap_bytes();
        let bytes = |i: usize, f: &mut dyn FnMut(usize, bool)| rows[i].iter().for_each(|&(j, c)| f(j, c));
        assert!(Lists::build(m, held, true, false, bytes).is_some());
        assert!(Lists::build(m, held - 1, true, false, bytes).is_none());
    }

    /// Partial lists keep the first blocks that fit, and read back as the rows they keep;
    /// without `partial` the same budget gives no lists.
    #[test]
    fn partial_lists_keep_the_first_blocks_that_fit() {
        let m = 10 * BLOCK + 7;
        let own = |i: usize, f: &mut dyn FnMut(usize, bool)| {
            f(i, false);
            f(i + 1, false);
        };
        // Two bytes a row (each gap below 64) and 2 a row and a block of offsets.
        let block = 4 * BLOCK + 2;
        for (budget, blocks) in [(0, 0), (block - 1, 0), (block, 1), (3 * block + 5, 3), (usize::MAX, 11)] {
            let lists = Lists::build(m, budget, false, true, own);
            assert_blocks(lists.as_ref(), blocks, m);
        }
        assert!(Lists::build(m, 3 * block, false, false, own).is_none());
    }

    /// `lists` keeps `blocks` blocks (`None` for 0), whose rows read back.
    fn assert_blocks(lists: Option<&Lists>, blocks: usize, m: usize) {
        let Some(lists) = lists else {
            assert_eq!(blocks, 0, "no lists");
            return;
        };
        assert_eq!(lists.rows(), (blocks * BLOCK).min(m));
        assert_eq!(lists.moves(), 2 * lists.rows() as u64);
        assert!(lists.heap_bytes() >= lists.rows() * 4);
        for r in 0..lists.rows() {
            let mut read = Vec::new();
            lists.row(r, r, |j, c| read.push((j, c)));
            assert_eq!(read, [(r, false), (r + 1, false)], "row {r}");
        }
    }

    #[test]
    fn a_budget_too_small_gives_no_lists() {
        let row = |_: usize, f: &mut dyn FnMut(usize, bool)| f(0, false);
        // 22 bytes of offsets (10 rows, 1 block) and a byte per row (the gap from row i to 0
        // is small).
        assert!(Lists::build(10, 21, true, false, row).is_none());
        assert!(Lists::build(10, 31, true, false, row).is_none());
        assert!(Lists::build(10, 32, true, false, row).is_some());
        // Many blocks, a byte a row (each row's move comes from its own member): one byte
        // short is refused.
        let m = 10 * BLOCK;
        let fixed = (m + 10) * 2;
        let own = |i: usize, f: &mut dyn FnMut(usize, bool)| f(i, false);
        assert!(Lists::build(m, fixed + m - 1, true, false, own).is_none());
        assert_eq!(Lists::build(m, fixed + m, true, false, own).map(|l| l.moves()), Some(m as u64));
    }
}
