//! The value of every position of a solved game, in the cells the solver left (or made from
//! values read from a file), and the counts over them.

use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32};

use rayon::prelude::*;

use super::cells::{Cells, Escapes, HOLE, TAG_OPEN, Word, byte_word, cell, decode, encode, escaped};
use super::{CHUNK, SolveError};
use crate::counts::Counts;
use crate::value::{RuleValue, Value};

/// The value of every position of a solved game.
#[derive(Debug)]
pub struct Solution {
    pub(super) cells: Cells,
    /// The solver's own count of the bytes it held at its peak (0 for a solution made from
    /// values).
    pub(super) peak_bytes: u64,
}

impl Solution {
    /// A solution from given values (`None` for holes), e.g. read back from a file.
    ///
    /// # Errors
    /// When a distance exceeds [`MAX_PLIES`](super::MAX_PLIES).
    pub fn from_values(values: impl IntoIterator<Item = Option<Value>>) -> Result<Self, SolveError> {
        let cells = values
            .into_iter()
            .map(|v| Ok(AtomicU32::new(v.map_or(Ok(cell(TAG_OPEN, HOLE)), |v| encode(v, AtomicU32::LIMIT))?)))
            .collect::<Result<_, SolveError>>()?;
        Ok(Solution { cells: Cells::Wide(cells), peak_bytes: 0 })
    }

    /// Like [`Solution::from_values`], with 2-byte cells (half the memory).
    ///
    /// # Errors
    /// When a distance exceeds [`MAX_COMPACT_PLIES`](super::MAX_COMPACT_PLIES).
    pub fn from_values_compact(values: impl IntoIterator<Item = Option<Value>>) -> Result<Self, SolveError> {
        let cells = values
            .into_iter()
            .map(|v| {
                let word = v.map_or(Ok(cell(TAG_OPEN, HOLE)), |v| encode(v, AtomicU16::LIMIT))?;
                Ok(<AtomicU16 as Word>::new(word))
            })
            .collect::<Result<_, SolveError>>()?;
        Ok(Solution { cells: Cells::Compact(cells), peak_bytes: 0 })
    }

    /// Like [`Solution::from_values`], with 1-byte cells (distances that do not fit in a side
    /// list of escapes, 8 bytes each, 16 where positions pass 32 bits).
    ///
    /// # Errors
    /// When a distance exceeds [`MAX_PLIES`](super::MAX_PLIES).
    pub fn from_values_bytes(values: impl IntoIterator<Item = Option<Value>>) -> Result<Self, SolveError> {
        let mut escapes = Vec::new();
        let cells = values
            .into_iter()
            .enumerate()
            .map(|(pos, v)| {
                let word = byte_word(v)?;
                if !<AtomicU8 as Word>::fits(word) {
                    escapes.push((pos as u64, word));
                }
                Ok(<AtomicU8 as Word>::new(word))
            })
            .collect::<Result<_, SolveError>>()?;
        Ok(Solution { cells: Cells::Byte(cells, Escapes::new(escapes)), peak_bytes: 0 })
    }

    /// Like [`Solution::from_values_bytes`], with the value of position `p` from `value(p)` for
    /// `p` in `0..n`, computed in parallel (each value is asked for once, and once more when
    /// its distance goes to the side list).
    ///
    /// # Errors
    /// When a distance exceeds [`MAX_PLIES`](super::MAX_PLIES).
    pub fn from_fn_bytes(
        n: usize,
        value: impl Fn(usize) -> Option<Value> + Sync,
    ) -> Result<Self, SolveError> {
        let word = |p| byte_word(value(p));
        let cells: Vec<AtomicU8> = (0..n)
            .into_par_iter()
            .with_min_len(CHUNK)
            .map(|p| Ok(<AtomicU8 as Word>::new(word(p)?)))
            .collect::<Result<_, SolveError>>()?;
        let escapes: Vec<(u64, u32)> = (0..n)
            .into_par_iter()
            .with_min_len(CHUNK)
            .filter(|&p| escaped(cells[p].get()))
            .map(|p| Ok((p as u64, word(p)?)))
            .collect::<Result<_, SolveError>>()?;
        Ok(Solution { cells: Cells::Byte(cells, Escapes::new(escapes)), peak_bytes: 0 })
    }

    /// Like [`Solution::from_fn_bytes`], with the values of each range `k * range..(k + 1) *
    /// range` of `0..n` put into a buffer by `fill` (the ranges in parallel, each in one go:
    /// for readers that decode a block at a time). `error` turns the solver's errors into the
    /// caller's: a distance beyond [`MAX_PLIES`](super::MAX_PLIES), or `fill` giving a range another number of
    /// values than it has positions.
    pub(crate) fn from_ranges_bytes<E: Send>(
        n: usize,
        range: usize,
        fill: impl Fn(std::ops::Range<usize>, &mut Vec<Option<Value>>) -> Result<(), E> + Sync,
        error: impl Fn(SolveError) -> E + Sync,
    ) -> Result<Self, E> {
        let mut cells: Vec<AtomicU8> = (0..n).into_par_iter().map(|_| AtomicU8::new(0)).collect();
        let escapes = cells
            .par_chunks_mut(range.max(1))
            .enumerate()
            .map(|(k, out)| {
                let start = k * range;
                let mut values = Vec::with_capacity(out.len());
                fill(start..start + out.len(), &mut values)?;
                if values.len() != out.len() {
                    return Err(error(SolveError::WrongSize { expected: out.len(), found: values.len() }));
                }
                let mut escapes = Vec::new();
                for (i, (slot, value)) in out.iter_mut().zip(values).enumerate() {
                    let word = byte_word(value).map_err(&error)?;
                    if !<AtomicU8 as Word>::fits(word) {
                        escapes.push(((start + i) as u64, word));
                    }
                    *slot = <AtomicU8 as Word>::new(word);
                }
                Ok(escapes)
            })
            .try_reduce(Vec::new, |mut a, b| {
                a.extend(b);
                Ok(a)
            })?;
        Ok(Solution { cells: Cells::Byte(cells, Escapes::new(escapes)), peak_bytes: 0 })
    }

    /// Bytes per position of the stored values: 1, 2 (compact cells) or 4 (1-byte cells keep
    /// their long distances in a side list besides, see [`Solution::escapes`]).
    #[must_use]
    pub fn bytes_per_position(&self) -> usize {
        match self.cells {
            Cells::Wide(_) => 4,
            Cells::Compact(_) => 2,
            Cells::Byte(..) => 1,
        }
    }

    /// The solver's own count of the bytes its structures held at its peak (the cells, the
    /// level bitmaps or lists, the start pass's packed lists not processed yet, the escapes),
    /// for comparison with [`Retrograde::memory_estimate`](super::Retrograde::memory_estimate); `None` for a solution made from
    /// values.
    #[must_use]
    pub fn solver_peak_bytes(&self) -> Option<u64> {
        (self.peak_bytes > 0).then_some(self.peak_bytes)
    }

    /// Bytes the solution takes: its cells and the side list of escapes (as allocated).
    #[must_use]
    pub fn heap_bytes(&self) -> u64 {
        let bytes = match &self.cells {
            Cells::Wide(c) => c.capacity() * 4,
            Cells::Compact(c) => c.capacity() * 2,
            Cells::Byte(c, escapes) => c.capacity() + escapes.heap_bytes(),
        };
        bytes as u64
    }

    /// The number of values kept in the side list of a solution with 1-byte cells (8 bytes
    /// each, 16 where positions pass 32 bits), 0 for other cells.
    #[must_use]
    pub fn escapes(&self) -> usize {
        match &self.cells {
            Cells::Byte(_, escapes) => escapes.len(),
            _ => 0,
        }
    }

    /// The number of indexed positions (holes included).
    #[must_use]
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether the index is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.cells.len() == 0
    }

    /// The value of a position for the side to move; `None` for a hole or an index out of range.
    #[must_use]
    pub fn value(&self, pos: usize) -> Option<Value> {
        self.cells.get(pos).and_then(decode)
    }

    /// Every value in index order (`None` for holes).
    pub fn values(&self) -> impl Iterator<Item = Option<Value>> + '_ {
        (0..self.len()).map(|p| self.value(p))
    }

    /// Counts over all positions.
    #[must_use]
    pub fn summary(&self) -> Counts {
        Counts::of(self.len(), |p| self.value(p).map(RuleValue::from))
    }
}
