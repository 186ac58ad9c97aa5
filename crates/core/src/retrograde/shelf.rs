//! A solution put away compressed while a long computation needs its memory: the solver
//! under the rule reads the plain values in its first pass over the draws and not again
//! until its results are made, and holding them in between cost a byte a position at its
//! peak (`KNRvKAR`: 375 MiB of 4.1 GiB). Shelved, they take a few percent of that.

use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, Ordering::Relaxed};

use rayon::prelude::*;

use super::Solution;
use super::cells::{Cells, Escapes};

/// Cells a compressed chunk holds: chunks are compressed and restored in parallel.
const CHUNK_CELLS: usize = 1 << 20;

/// zstd's level for shelving: the fastest of the usual levels (the values of a table base
/// are long runs, which compress well even so).
const LEVEL: i32 = 1;

/// A [`Solution`] whose cells are compressed (zstd, a frame per chunk of cells), to be
/// [restored](Shelved::restore) as it was.
pub struct Shelved {
    kind: Kind,
    len: usize,
    chunks: Vec<Vec<u8>>,
    peak_bytes: u64,
}

/// The cells' width, with what a width keeps besides the cells.
enum Kind {
    Wide,
    Compact,
    Byte(Escapes),
}

impl Solution {
    /// The solution put away compressed, to be [restored](Shelved::restore) unchanged.
    #[must_use]
    pub fn shelve(self) -> Shelved {
        let len = self.len();
        let peak_bytes = self.peak_bytes;
        match self.cells {
            Cells::Wide(cells) => Shelved {
                kind: Kind::Wide,
                len,
                chunks: compress(&cells, |c: &AtomicU32, out| out.extend(c.load(Relaxed).to_le_bytes())),
                peak_bytes,
            },
            Cells::Compact(cells) => Shelved {
                kind: Kind::Compact,
                len,
                chunks: compress(&cells, |c: &AtomicU16, out| out.extend(c.load(Relaxed).to_le_bytes())),
                peak_bytes,
            },
            Cells::Byte(cells, escapes) => Shelved {
                kind: Kind::Byte(escapes),
                len,
                chunks: compress(&cells, |c: &AtomicU8, out| out.push(c.load(Relaxed))),
                peak_bytes,
            },
        }
    }
}

impl Shelved {
    /// Bytes the shelved solution takes (its compressed chunks and side list).
    #[must_use]
    pub fn heap_bytes(&self) -> u64 {
        let escapes = match &self.kind {
            Kind::Byte(escapes) => escapes.heap_bytes(),
            Kind::Wide | Kind::Compact => 0,
        };
        (self.chunks.iter().map(Vec::capacity).sum::<usize>() + escapes) as u64
    }

    /// The solution as it was shelved.
    #[must_use]
    pub fn restore(self) -> Solution {
        let Shelved { kind, len, chunks, peak_bytes } = self;
        let cells = match kind {
            Kind::Wide => Cells::Wide(expand(len, &chunks, |b| AtomicU32::new(u32::from_le_bytes(b)))),
            Kind::Compact => Cells::Compact(expand(len, &chunks, |b| AtomicU16::new(u16::from_le_bytes(b)))),
            Kind::Byte(escapes) => Cells::Byte(expand(len, &chunks, |[b]| AtomicU8::new(b)), escapes),
        };
        Solution { cells, peak_bytes }
    }
}

/// A number that [`ShelvedVec`] can hold: its little-endian bytes.
pub(crate) trait Word: Copy + Default + Send + Sync {
    /// Pushes the number's bytes to `out`.
    fn put(self, out: &mut Vec<u8>);
    /// The number made of its bytes (`size_of::<Self>()` of them).
    fn take(bytes: &[u8]) -> Self;
}

macro_rules! word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            #[inline]
            fn put(self, out: &mut Vec<u8>) {
                out.extend(self.to_le_bytes());
            }

            #[inline]
            fn take(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes.try_into().expect("a number's bytes"))
            }
        }
    )*};
}

word!(u8, u32);

/// Numbers put away compressed (zstd, a frame per chunk), to be
/// [restored](ShelvedVec::restore) as they were.
pub(crate) struct ShelvedVec<T> {
    len: usize,
    chunks: Vec<Vec<u8>>,
    kind: std::marker::PhantomData<T>,
}

/// The rule's exits per draw, while the check stage runs.
pub(crate) type ShelvedBytes = ShelvedVec<u8>;

/// The cells of the draws, while the chase stage runs.
pub(crate) type ShelvedWords = ShelvedVec<u32>;

impl<T: Word> ShelvedVec<T> {
    /// `values` put away.
    pub(crate) fn new(values: Vec<T>) -> Self {
        ShelvedVec {
            len: values.len(),
            chunks: compress(&values, |&v, out| v.put(out)),
            kind: Default::default(),
        }
    }

    /// Bytes the chunks take.
    pub(crate) fn heap_bytes(&self) -> u64 {
        self.chunks.iter().map(Vec::capacity).sum::<usize>() as u64
    }

    /// The numbers as they were put away (each chunk decompressed on its own: no second
    /// copy of them all).
    pub(crate) fn restore(self) -> Vec<T> {
        let width = size_of::<T>();
        let mut values = vec![T::default(); self.len];
        values.par_chunks_mut(CHUNK_CELLS).zip(&self.chunks).for_each(|(out, frame)| {
            let raw = zstd::bulk::decompress(frame, size_of_val(out)).expect("a shelved chunk decompresses");
            assert_eq!(raw.len(), size_of_val(out), "a shelved chunk holds its numbers");
            for (v, b) in out.iter_mut().zip(raw.chunks_exact(width)) {
                *v = T::take(b);
            }
        });
        values
    }
}

/// The cells compressed a chunk of [`CHUNK_CELLS`] at a time (in parallel), each cell's bytes
/// given by `bytes`.
fn compress<C: Sync>(cells: &[C], bytes: impl Fn(&C, &mut Vec<u8>) + Sync) -> Vec<Vec<u8>> {
    cells
        .par_chunks(CHUNK_CELLS)
        .map(|chunk| {
            let mut raw = Vec::with_capacity(size_of_val(chunk));
            for c in chunk {
                bytes(c, &mut raw);
            }
            // Compressing bytes in memory fails only where allocating would.
            let mut frame = zstd::bulk::compress(&raw, LEVEL).expect("zstd compresses a buffer in memory");
            // (Made with room for the worst case.)
            frame.shrink_to_fit();
            frame
        })
        .collect()
}

/// `len` cells made again from the chunks [`compress`] made, each from its `W` bytes: the
/// chunks decompressed in parallel into one buffer, which then becomes the cells (in place
/// where a cell is as large as its bytes, as 1-byte cells are).
fn expand<C, const W: usize>(len: usize, chunks: &[Vec<u8>], cell: impl Fn([u8; W]) -> C) -> Vec<C> {
    let mut raw = vec![[0u8; W]; len];
    raw.par_chunks_mut(CHUNK_CELLS).zip(chunks).for_each(|(out, frame)| {
        let out = out.as_flattened_mut();
        let n = zstd::bulk::decompress_to_buffer(frame, out).expect("a shelved chunk decompresses");
        assert_eq!(n, out.len(), "a shelved chunk holds its cells");
    });
    raw.into_iter().map(cell).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{Plies, Value};

    fn values(n: usize) -> Vec<Option<Value>> {
        (0..n)
            .map(|p| match p % 7 {
                0 => None,
                1 => Some(Value::Draw(None)),
                2 => Some(Value::Draw(Some(Plies(p as u32 % 90)))),
                3 | 4 => Some(Value::Win(Plies(p as u32 % 300))),
                _ => Some(Value::Loss(Plies(p as u32 % 70))),
            })
            .collect()
    }

    #[test]
    fn a_shelved_solution_comes_back_unchanged() {
        // Past a chunk, with a short last one; byte cells with long distances in the side list.
        let n = 2 * CHUNK_CELLS + 12_345;
        let values = values(n);
        let byte = Solution::from_values_bytes(values.iter().copied()).unwrap();
        assert!(byte.escapes() > 0);
        let wide = Solution::from_values(values.iter().copied()).unwrap();
        let compact = Solution::from_values_compact(values.iter().copied()).unwrap();
        for solution in [byte, wide, compact] {
            let (kind, held) = (solution.bytes_per_position(), solution.heap_bytes());
            let shelved = solution.shelve();
            let bytes = shelved.heap_bytes();
            assert!(bytes < held, "compressed: {bytes} bytes for {held} held in cells of {kind}");
            let back = shelved.restore();
            assert_eq!(back.len(), n);
            assert_eq!(back.bytes_per_position(), kind);
            assert!(back.values().eq(values.iter().copied()));
        }
        assert_eq!(Solution::from_values([]).unwrap().shelve().restore().len(), 0);
    }

    #[test]
    fn shelved_words_come_back_unchanged() {
        for n in [0, 1, 5, CHUNK_CELLS - 1, CHUNK_CELLS, 2 * CHUNK_CELLS + 7] {
            let words: Vec<u32> = (0..n as u32)
                .map(|i| if i % 5 == 0 { i.wrapping_mul(2_654_435_761) } else { i / 3 })
                .collect();
            let shelved = ShelvedWords::new(words.clone());
            assert!(n < 1000 || shelved.heap_bytes() < 4 * n as u64);
            assert_eq!(shelved.restore(), words);
        }
    }

    #[test]
    fn shelved_bytes_come_back_unchanged() {
        for n in [0, 1, CHUNK_CELLS, CHUNK_CELLS + 1, 3 * CHUNK_CELLS - 7] {
            let bytes: Vec<u8> =
                (0..n).map(|i| (i * 7 % 251) as u8 & if i % 5 == 0 { 0xff } else { 7 }).collect();
            let shelved = ShelvedBytes::new(bytes.clone());
            assert!(n < 1000 || shelved.heap_bytes() < n as u64);
            assert_eq!(shelved.restore(), bytes);
        }
    }
}
