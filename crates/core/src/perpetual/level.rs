//! The cells of the stages' levels (the ranks of the states that join): 2 bytes a state while
//! every level a solve gives fits in 15 bits, else 4.
//!
//! A level is a number below a stage's largest and one flag in bit 31 (the check stage's
//! `A_TAG`, the chase stage's `IDLE`). A solve starts with [`Narrow`] cells (bit 15 the
//! flag, levels up to [`Narrow::MAX`]); a pass that would give a larger level fails with
//! [`SolveError::DistanceTooLarge`](crate::retrograde::SolveError), and the solver starts
//! again with 4-byte cells ([`AtomicU32`]): the same results, the ranks included, as the
//! passes do the same work in either. Xiangqi's ranks stay in the hundreds; the check stage
//! holds 2 states a draw, so narrow cells save it 4 bytes a draw (`KNRvKAR`: 275 MiB).

use std::sync::atomic::{AtomicU16, AtomicU32, Ordering};

/// The flag a level carries beside its number.
const FLAG: u32 = 1 << 31;

/// An atomic cell of a level: the methods of [`AtomicU32`] on values whose bits other than
/// [`Level::MAX`]'s and bit 31 are 0.
pub(super) trait Level: Default + Send + Sync + 'static {
    /// The largest level a cell holds (beside the flag).
    const MAX: u32;
    /// As [`AtomicU32::load`].
    fn load(&self, order: Ordering) -> u32;
    /// As [`AtomicU32::store`].
    fn store(&self, value: u32, order: Ordering);
    /// As [`AtomicU32::swap`].
    fn swap(&self, value: u32, order: Ordering) -> u32;
    /// As [`AtomicU32::compare_exchange`].
    fn compare_exchange(
        &self,
        current: u32,
        new: u32,
        success: Ordering,
        failure: Ordering,
    ) -> Result<u32, u32>;
}

impl Level for AtomicU32 {
    const MAX: u32 = FLAG - 1;

    #[inline]
    fn load(&self, order: Ordering) -> u32 {
        AtomicU32::load(self, order)
    }

    #[inline]
    fn store(&self, value: u32, order: Ordering) {
        AtomicU32::store(self, value, order);
    }

    #[inline]
    fn swap(&self, value: u32, order: Ordering) -> u32 {
        AtomicU32::swap(self, value, order)
    }

    #[inline]
    fn compare_exchange(
        &self,
        current: u32,
        new: u32,
        success: Ordering,
        failure: Ordering,
    ) -> Result<u32, u32> {
        AtomicU32::compare_exchange(self, current, new, success, failure)
    }
}

/// A level in 2 bytes: the number in bits 0 to 14, the flag in bit 15.
#[derive(Default)]
pub(super) struct Narrow(AtomicU16);

impl Narrow {
    /// The cell's bits of a level (which must fit).
    #[inline]
    fn pack(value: u32) -> u16 {
        debug_assert!(value & !FLAG <= Self::MAX, "level {value:#x} past a narrow cell");
        ((value >> 16) & 0x8000 | value & 0x7fff) as u16
    }

    /// The level of a cell's bits.
    #[inline]
    fn unpack(bits: u16) -> u32 {
        u32::from(bits & 0x8000) << 16 | u32::from(bits & 0x7fff)
    }
}

impl Level for Narrow {
    const MAX: u32 = 0x7fff;

    #[inline]
    fn load(&self, order: Ordering) -> u32 {
        Self::unpack(self.0.load(order))
    }

    #[inline]
    fn store(&self, value: u32, order: Ordering) {
        self.0.store(Self::pack(value), order);
    }

    #[inline]
    fn swap(&self, value: u32, order: Ordering) -> u32 {
        Self::unpack(self.0.swap(Self::pack(value), order))
    }

    #[inline]
    fn compare_exchange(
        &self,
        current: u32,
        new: u32,
        success: Ordering,
        failure: Ordering,
    ) -> Result<u32, u32> {
        self.0
            .compare_exchange(Self::pack(current), Self::pack(new), success, failure)
            .map(Self::unpack)
            .map_err(Self::unpack)
    }
}

/// `n` cells of level 0.
pub(super) fn levels<L: Level>(n: usize) -> Vec<L> {
    (0..n).map(|_| L::default()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    /// Every level a narrow cell holds, with and without the flag, reads back as stored, and
    /// the other operations agree with a 4-byte cell's.
    #[test]
    fn narrow_cells_keep_every_level_and_the_flag() {
        for level in [0, 1, 2, 0x3fff, 0x4000, 0x7ffe, 0x7fff] {
            for value in [level, level | FLAG] {
                let (narrow, wide) = (Narrow::default(), AtomicU32::new(0));
                Level::store(&narrow, value, Relaxed);
                Level::store(&wide, value, Relaxed);
                assert_eq!(Level::load(&narrow, Relaxed), value);
                assert_eq!(Level::swap(&narrow, 5, Relaxed), Level::swap(&wide, 5, Relaxed));
                let other = value ^ FLAG;
                assert_eq!(
                    Level::compare_exchange(&narrow, 5, other, Relaxed, Relaxed),
                    Level::compare_exchange(&wide, 5, other, Relaxed, Relaxed)
                );
                assert_eq!(
                    Level::compare_exchange(&narrow, 5, 7, Relaxed, Relaxed),
                    Level::compare_exchange(&wide, 5, 7, Relaxed, Relaxed)
                );
                assert_eq!(Level::load(&narrow, Relaxed), Level::load(&wide, Relaxed));
            }
        }
    }
}
