//! Decompressed blocks and their decoding: a WDL block's packed categories, a DTM block's
//! symbol streams put back in the order of the positions.

use super::{Category, FileKind};

/// The decompressed symbols of one block of either file.
#[derive(Debug)]
pub struct Block {
    pub(super) kind: FileKind,
    pub(super) width: u8,
    /// The table's index of the block's first position.
    pub(super) start: usize,
    pub(super) len: usize,
    pub(super) bytes: Box<[u8]>,
}

impl Block {
    /// The category of the `i`-th position of a WDL block; `None` past the end, in a DTM
    /// block, or for a symbol that is no category (a damaged file).
    #[inline]
    #[must_use]
    pub fn category(&self, i: usize) -> Option<Category> {
        if self.kind != FileKind::Wdl || i >= self.len {
            return None;
        }
        let w = self.width as usize;
        let per = 8 / w;
        let byte = self.bytes[i / per];
        Category::from_symbol((byte >> ((i % per) * w)) & ((1 << w) - 1) as u8)
    }

    /// The category symbols of positions `at..at + len` of a WDL block, a byte each; `None`
    /// when one is no category (a damaged file), the range is not within the block, or this is
    /// no WDL block.
    pub(super) fn unpack_categories(&self, at: usize, len: usize) -> Option<Vec<u8>> {
        if self.kind != FileKind::Wdl || at.checked_add(len)? > self.len {
            return None;
        }
        let w = self.width as usize;
        let per = 8 / w;
        let mask = ((1u16 << w) - 1) as u8;
        // Whole bytes from the one holding position `at`, then the few extra dropped.
        let (first, skip) = (at / per, at % per);
        let packed = &self.bytes[first..(at + len).div_ceil(per)];
        let mut cats = vec![0u8; packed.len() * per];
        for (&byte, out) in packed.iter().zip(cats.chunks_exact_mut(per)) {
            for (k, c) in out.iter_mut().enumerate() {
                *c = (byte >> (k * w)) & mask;
            }
        }
        cats.drain(..skip);
        cats.truncate(len);
        (cats.iter().fold(0, |most, &c| most.max(c)) <= 4).then_some(cats)
    }

    /// The DTM symbol of the `i`-th position of a DTM block; `None` past the end or in a WDL
    /// block.
    #[inline]
    #[must_use]
    pub fn symbol(&self, i: usize) -> Option<u32> {
        if self.kind != FileKind::Dtm || i >= self.len {
            return None;
        }
        let mut s = 0u32;
        for plane in 0..(self.width / 8) as usize {
            s |= u32::from(self.bytes[plane * self.len + i]) << (8 * plane);
        }
        Some(s)
    }

    /// The table's index of the block's first position.
    #[must_use]
    pub const fn start(&self) -> usize {
        self.start
    }

    /// The number of positions in the block.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether the block holds no position.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes it takes in memory.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.bytes.len() + std::mem::size_of::<Block>()
    }
}

/// The number of DTM symbols in each part of a DTM block's streams (category `c`, parity `p`:
/// part `2 c + p`) for positions of categories `cats` (a byte each), counting only the
/// categories `needed` marks (those with more than one value).
pub(super) fn stream_parts(cats: &[u8], needed: &[bool; 5]) -> [usize; 10] {
    // Symbols per (category, parity): the streams' parts, in this order. Four positions
    // at a time into four sets of counters (no chain of increments of one counter).
    let mut sets = [[0usize; 10]; 4];
    let mut quads = cats.chunks_exact(4);
    for quad in &mut quads {
        for (k, (&c, set)) in quad.iter().zip(sets.iter_mut()).enumerate() {
            set[2 * c as usize + (k & 1)] += 1;
        }
    }
    for (k, &c) in quads.remainder().iter().enumerate() {
        sets[k][2 * c as usize + (k & 1)] += 1;
    }
    std::array::from_fn(|part| if needed[part / 2] { sets.iter().map(|set| set[part]).sum() } else { 0 })
}

impl Block {
    /// The DTM block of positions `start..start + len` whose categories are `cats`, from its
    /// decompressed streams `stream` (`counts` symbols in each part, see [`stream_parts`], of
    /// `width` bits, byte plane after byte plane): each symbol put back at its position.
    pub(super) fn from_streams(
        start: usize,
        len: usize,
        width: u8,
        cats: &[u8],
        counts: [usize; 10],
        needed: &[bool; 5],
        stream: Vec<u8>,
    ) -> Block {
        let n: usize = counts.iter().sum();
        let (bits, width) = (width, width as usize / 8);
        // Where each (category, parity) part starts; the parts of categories without symbols
        // point at a zero byte past the stream's end and do not move (no branch per position).
        let mut next = [n; 10];
        let mut step = [0usize; 10];
        let mut sum = 0;
        for (part, count) in counts.into_iter().enumerate() {
            if needed[part / 2] {
                (next[part], step[part]) = (sum, 1);
                sum += count;
            }
        }
        let mut bytes = vec![0u8; len * width].into_boxed_slice();
        let mut stream = stream;
        for plane in 0..width {
            // This plane's symbols, then the zero byte of the parts without symbols.
            let stream = if width == 1 {
                stream.push(0);
                &stream[..]
            } else {
                &[&stream[plane * n..(plane + 1) * n], &[0][..]].concat()[..]
            };
            let mut next = next;
            let out = &mut bytes[plane * len..(plane + 1) * len];
            for (i, (&c, out)) in cats.iter().zip(out.iter_mut()).enumerate() {
                let part = 2 * c as usize + (i & 1);
                *out = stream[next[part]];
                next[part] += step[part];
            }
        }
        Block { kind: FileKind::Dtm, width: bits, start, len, bytes }
    }
}
