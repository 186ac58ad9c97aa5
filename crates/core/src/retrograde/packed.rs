//! Packed lists of increasing position numbers: what the start pass found, by distance, at
//! about a byte a position.

use super::spill::Spilled;

/// The list of distance `level` in `levels` (one list per distance), made with those before
/// it when missing.
pub(super) fn level_mut<L: Default>(levels: &mut Vec<L>, level: usize) -> &mut L {
    if levels.len() <= level {
        levels.resize_with(level + 1, L::default);
    }
    &mut levels[level]
}

/// Increasing position numbers as the differences of each from the one before (LEB128: one
/// byte below 128), in segments that the level passes walk in parallel. Lists of positions
/// with a move of known value are dense in table bases, so about a byte a position, against
/// 4 or 8 as numbers.
#[derive(Default)]
pub(super) struct Packed {
    pub(super) segments: Vec<Segment>,
}

/// A run of [`Packed`]: `first`, then `len - 1` differences in `bytes` (in a scratch file
/// instead once `spilled`: `byte_len` bytes there).
#[derive(Default)]
pub(super) struct Segment {
    pub(super) first: u64,
    pub(super) last: u64,
    pub(super) len: u64,
    pub(super) bytes: Vec<u8>,
    pub(super) byte_len: u64,
    pub(super) spilled: Option<Spilled>,
}

/// Positions after which joining two lists starts a new segment (the unit of the parallel walk).
const SEGMENT: u64 = 1 << 16;

impl Segment {
    /// Adds a difference to `bytes`; returns how many bytes it took.
    pub(super) fn put(bytes: &mut Vec<u8>, mut delta: u64) -> u64 {
        let mut n = 1;
        while delta >= 0x80 {
            bytes.push(delta as u8 | 0x80);
            delta >>= 7;
            n += 1;
        }
        bytes.push(delta as u8);
        n
    }

    /// Adds `pos`, larger than the last one.
    pub(super) fn push(&mut self, pos: u64) {
        if self.len == 0 {
            self.first = pos;
        } else {
            debug_assert!(pos > self.last);
            self.byte_len += Segment::put(&mut self.bytes, pos - self.last);
        }
        self.last = pos;
        self.len += 1;
    }

    /// Calls `f` with each position of a segment held in memory.
    #[cfg(test)]
    pub(super) fn for_each(&self, f: impl FnMut(usize)) {
        debug_assert!(self.spilled.is_none());
        self.for_each_in(&self.bytes, f);
    }

    /// Calls `f` with each position of the segment, whose differences are `bytes`.
    pub(super) fn for_each_in(&self, bytes: &[u8], mut f: impl FnMut(usize)) {
        if self.len == 0 {
            return;
        }
        debug_assert_eq!(bytes.len() as u64, self.byte_len);
        let mut pos = self.first;
        f(pos as usize);
        let (mut delta, mut shift) = (0u64, 0);
        for &b in bytes {
            delta |= u64::from(b & 0x7F) << shift;
            if b & 0x80 == 0 {
                pos += delta;
                f(pos as usize);
                (delta, shift) = (0, 0);
            } else {
                shift += 7;
            }
        }
    }
}

impl Packed {
    /// Adds `pos`, larger than every position in the list.
    pub(super) fn push(&mut self, pos: u64) {
        if self.segments.is_empty() {
            self.segments.push(Segment::default());
        }
        self.segments.last_mut().expect("one segment at least").push(pos);
    }

    /// Adds the positions of `other`; its segments join the last one while that is short and
    /// they follow it in order (both in memory), else they stay segments of their own.
    pub(super) fn append(&mut self, other: Packed) {
        for seg in other.segments.into_iter().filter(|s| s.len > 0) {
            match self.segments.last_mut() {
                Some(last)
                    if last.len < SEGMENT
                        && seg.first > last.last
                        && last.spilled.is_none()
                        && seg.spilled.is_none() =>
                {
                    last.byte_len += Segment::put(&mut last.bytes, seg.first - last.last);
                    last.bytes.extend_from_slice(&seg.bytes);
                    last.byte_len += seg.byte_len;
                    last.last = seg.last;
                    last.len += seg.len;
                }
                _ => self.segments.push(seg),
            }
        }
    }

    /// Gives back the room the joins left over.
    pub(super) fn shrink(&mut self) {
        for seg in &mut self.segments {
            seg.bytes.shrink_to_fit();
        }
        self.segments.shrink_to_fit();
    }
}

/// Appends the packed lists of `from` (one per distance) to those of `into`, in this order.
pub(super) fn append_packed(into: &mut Vec<Packed>, from: Vec<Packed>) {
    if into.len() < from.len() {
        into.resize_with(from.len(), Packed::default);
    }
    for (a, b) in into.iter_mut().zip(from) {
        a.append(b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Lists of increasing positions (gaps from 1 to beyond 2^35, so differences of one to
        /// six bytes), packed in chunks and joined in any order, give back every position in
        /// the order pushed.
        #[test]
        fn packed_lists_give_back_what_was_pushed(
            chunks in prop::collection::vec(
                (any::<u32>(), prop::collection::vec((0u32..6, 1u64..300), 0..200)),
                0..12,
            ),
        ) {
            let mut all = Packed::default();
            let mut expected = Vec::new();
            for (start, gaps) in chunks {
                let mut list = Packed::default();
                let mut pos = u64::from(start);
                for (bytes, gap) in gaps {
                    list.push(pos);
                    expected.push(pos as usize);
                    pos += gap << (7 * bytes);
                }
                all.append(list);
            }
            all.shrink();
            let mut seen = Vec::new();
            for segment in &all.segments {
                segment.for_each(|p| seen.push(p));
            }
            prop_assert_eq!(seen, expected);
        }
    }
}
