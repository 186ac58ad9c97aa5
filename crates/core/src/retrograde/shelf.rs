//! A solution put away compressed while a long computation needs its memory: the solver
//! under the rule reads the plain values in its first pass over the draws and not again
//! until its results are made, and holding them in between cost a byte a position at its
//! peak (`KNRvKAR`: 375 MiB of 4.1 GiB). Shelved, they take a few percent of that.

use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32};

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
    cells: ShelvedCells,
    peak_bytes: u64,
}

/// The cells by their width, with what a width keeps besides the cells.
enum ShelvedCells {
    Wide(ShelvedVec<u32>),
    Compact(ShelvedVec<u16>),
    Byte(ShelvedVec<u8>, Escapes),
}

impl Solution {
    /// The solution put away compressed, to be [restored](Shelved::restore) unchanged.
    #[must_use]
    pub fn shelve(self) -> Shelved {
        // (Each atomic cell as its number, in place: the same size and alignment.)
        let cells = match self.cells {
            Cells::Wide(cells) => {
                ShelvedCells::Wide(ShelvedVec::new(cells.into_iter().map(AtomicU32::into_inner).collect()))
            }
            Cells::Compact(cells) => {
                ShelvedCells::Compact(ShelvedVec::new(cells.into_iter().map(AtomicU16::into_inner).collect()))
            }
            Cells::Byte(cells, escapes) => ShelvedCells::Byte(
                ShelvedVec::new(cells.into_iter().map(AtomicU8::into_inner).collect()),
                escapes,
            ),
        };
        Shelved { cells, peak_bytes: self.peak_bytes }
    }
}

impl Shelved {
    /// Bytes the shelved solution takes (its compressed chunks and side list).
    #[must_use]
    pub fn heap_bytes(&self) -> u64 {
        match &self.cells {
            ShelvedCells::Wide(cells) => cells.heap_bytes(),
            ShelvedCells::Compact(cells) => cells.heap_bytes(),
            ShelvedCells::Byte(cells, escapes) => cells.heap_bytes() + escapes.heap_bytes() as u64,
        }
    }

    /// The solution as it was shelved.
    #[must_use]
    pub fn restore(self) -> Solution {
        let cells = match self.cells {
            ShelvedCells::Wide(cells) => {
                Cells::Wide(cells.restore().into_iter().map(AtomicU32::new).collect())
            }
            ShelvedCells::Compact(cells) => {
                Cells::Compact(cells.restore().into_iter().map(AtomicU16::new).collect())
            }
            ShelvedCells::Byte(cells, escapes) => {
                Cells::Byte(cells.restore().into_iter().map(AtomicU8::new).collect(), escapes)
            }
        };
        Solution { cells, peak_bytes: self.peak_bytes }
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

word!(u8, u16, u32);

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
        ShelvedVec { len: values.len(), chunks: compress(&values), kind: Default::default() }
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

/// The numbers compressed a chunk of [`CHUNK_CELLS`] at a time (in parallel).
fn compress<T: Word>(values: &[T]) -> Vec<Vec<u8>> {
    values
        .par_chunks(CHUNK_CELLS)
        .map(|chunk| {
            let mut raw = Vec::with_capacity(size_of_val(chunk));
            for &v in chunk {
                v.put(&mut raw);
            }
            // Compressing bytes in memory fails only where allocating would.
            let mut frame = zstd::bulk::compress(&raw, LEVEL).expect("zstd compresses a buffer in memory");
            // (Made with room for the worst case.)
            frame.shrink_to_fit();
            frame
        })
        .collect()
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
