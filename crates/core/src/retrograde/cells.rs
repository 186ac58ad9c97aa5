//! The solver's cells: a position's value or move counter in 4, 2 or 1 bytes (the long
//! distances of 1-byte cells in a side list of escapes), and the position numbers of that list.

use std::convert::identity;
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, Ordering::Relaxed};

use super::SolveError;
use crate::value::{Plies, Value};

pub(super) const TAG_SHIFT: u32 = 30;
pub(super) const PAYLOAD: u32 = (1 << TAG_SHIFT) - 1;
pub(super) const TAG_OPEN: u32 = 0;
pub(super) const TAG_WIN: u32 = 1;
pub(super) const TAG_LOSS: u32 = 2;
pub(super) const TAG_DRAW: u32 = 3;
/// An open cell with this payload is a hole in the index.
pub(super) const HOLE: u32 = PAYLOAD;
/// The largest distance a cell holds (draw distances are stored plus one).
pub const MAX_PLIES: u32 = PAYLOAD - 2;
/// The largest distance the compact (2-byte) cells hold.
pub const MAX_COMPACT_PLIES: u32 = COMPACT_PAYLOAD - 2;
const COMPACT_PAYLOAD: u32 = (1 << 14) - 1;
/// The payload of a 1-byte cell that stands for a hole (open cells) or an escaped distance
/// (decided cells, whose value is in the side list): the byte holds distances (draws: plus one)
/// and move counters below it.
pub const MAX_BYTE_PAYLOAD: u32 = (1 << 6) - 1;
/// The logical payload of a decided 1-byte cell whose value is in the side list.
const ESCAPED: u32 = PAYLOAD;

/// Storage of one cell. The solver works on logical 32-bit words (tag in the top two bits);
/// a compact cell keeps the tag and a 14-bit payload in 16 bits, a byte cell a 6-bit payload.
pub(super) trait Word: Sync + Send + Sized {
    /// The largest distance payload besides the hole marker.
    const LIMIT: u32;
    /// The largest move counter.
    const COUNTER_LIMIT: u32 = Self::LIMIT;
    fn new(logical: u32) -> Self;
    fn get(&self) -> u32;
    fn set(&self, logical: u32);
    fn cas(&self, current: u32, new: u32) -> Result<(), u32>;
    /// Whether the cell holds this decided word itself (else it is escaped to the side list).
    fn fits(_logical: u32) -> bool {
        true
    }
    fn into_cells(cells: Vec<Self>, escapes: Escapes) -> Cells;
}

/// The accessors of [`Word`] for an atomic cell whose stored word `$to` makes from a logical
/// one and `$from` turns back.
macro_rules! accessors {
    ($atomic:ty, $to:path, $from:path) => {
        #[inline(always)]
        fn new(logical: u32) -> Self {
            <$atomic>::new($to(logical))
        }
        #[inline(always)]
        fn get(&self) -> u32 {
            $from(self.load(Relaxed))
        }
        #[inline(always)]
        fn set(&self, logical: u32) {
            self.store($to(logical), Relaxed);
        }
        #[inline(always)]
        fn cas(&self, current: u32, new: u32) -> Result<(), u32> {
            self.compare_exchange_weak($to(current), $to(new), Relaxed, Relaxed).map(|_| ()).map_err($from)
        }
    };
}

impl Word for AtomicU32 {
    const LIMIT: u32 = PAYLOAD - 1;
    accessors!(AtomicU32, identity, identity);
    fn into_cells(cells: Vec<Self>, escapes: Escapes) -> Cells {
        debug_assert_eq!(escapes.len(), 0);
        Cells::Wide(cells)
    }
}

#[inline(always)]
fn to_compact(logical: u32) -> u16 {
    let payload = logical & PAYLOAD;
    let payload = if payload == HOLE { COMPACT_PAYLOAD } else { payload };
    debug_assert!(payload <= COMPACT_PAYLOAD);
    (((logical >> TAG_SHIFT) << 14) | payload) as u16
}

#[inline(always)]
pub(super) fn from_compact(physical: u16) -> u32 {
    let payload = u32::from(physical) & COMPACT_PAYLOAD;
    let payload = if payload == COMPACT_PAYLOAD { HOLE } else { payload };
    ((u32::from(physical) >> 14) << TAG_SHIFT) | payload
}

impl Word for AtomicU16 {
    const LIMIT: u32 = COMPACT_PAYLOAD - 1;
    accessors!(AtomicU16, to_compact, from_compact);
    fn into_cells(cells: Vec<Self>, escapes: Escapes) -> Cells {
        debug_assert_eq!(escapes.len(), 0);
        Cells::Compact(cells)
    }
}

#[inline(always)]
fn to_byte(logical: u32) -> u8 {
    let payload = (logical & PAYLOAD).min(MAX_BYTE_PAYLOAD);
    (((logical >> TAG_SHIFT) << 6) | payload) as u8
}

#[inline(always)]
pub(super) fn from_byte(physical: u8) -> u32 {
    let (tag, payload) = (u32::from(physical) >> 6, u32::from(physical) & MAX_BYTE_PAYLOAD);
    let payload = match (tag, payload) {
        (TAG_OPEN, MAX_BYTE_PAYLOAD) => HOLE,
        (_, MAX_BYTE_PAYLOAD) => ESCAPED,
        _ => payload,
    };
    (tag << TAG_SHIFT) | payload
}

impl Word for AtomicU8 {
    /// Any distance: the long ones go to the side list.
    const LIMIT: u32 = PAYLOAD - 1;
    const COUNTER_LIMIT: u32 = MAX_BYTE_PAYLOAD - 1;
    // Only open cells are ever swapped (`cas`), and they always fit.
    accessors!(AtomicU8, to_byte, from_byte);
    #[inline(always)]
    fn fits(logical: u32) -> bool {
        logical >> TAG_SHIFT == TAG_OPEN || logical & PAYLOAD < MAX_BYTE_PAYLOAD
    }
    fn into_cells(cells: Vec<Self>, escapes: Escapes) -> Cells {
        Cells::Byte(cells, escapes)
    }
}

/// The cells of a solution, 4, 2 or 1 byte each (the long distances of 1-byte cells in a
/// sorted side list of escapes).
#[derive(Debug)]
pub(super) enum Cells {
    Wide(Vec<AtomicU32>),
    Compact(Vec<AtomicU16>),
    Byte(Vec<AtomicU8>, Escapes),
}

/// The decided words that 1-byte cells do not hold, sorted by position: 8 bytes each while the
/// positions fit in 32 bits, 16 beyond.
#[derive(Debug)]
pub(super) enum Escapes {
    Narrow(Vec<(u32, u32)>),
    Wide(Vec<(u64, u32)>),
}

impl Escapes {
    /// The escapes of `list` (in any order), narrow when every position fits in 32 bits.
    pub(super) fn new(mut list: Vec<(u64, u32)>) -> Escapes {
        list.sort_unstable();
        if list.last().is_none_or(|e| u32::try_from(e.0).is_ok()) {
            Escapes::Narrow(list.into_iter().map(|(p, w)| (p as u32, w)).collect())
        } else {
            Escapes::Wide(list)
        }
    }

    /// Bytes the list takes (as allocated).
    pub(super) fn heap_bytes(&self) -> usize {
        match self {
            Escapes::Narrow(list) => list.capacity() * size_of::<(u32, u32)>(),
            Escapes::Wide(list) => list.capacity() * size_of::<(u64, u32)>(),
        }
    }

    pub(super) fn len(&self) -> usize {
        match self {
            Escapes::Narrow(list) => list.len(),
            Escapes::Wide(list) => list.len(),
        }
    }

    /// The word of `pos`, which is escaped.
    pub(super) fn get(&self, pos: usize) -> u32 {
        let found = match self {
            Escapes::Narrow(list) => u32::try_from(pos)
                .ok()
                .and_then(|p| list.binary_search_by_key(&p, |e| e.0).ok().map(|at| list[at].1)),
            Escapes::Wide(list) => {
                list.binary_search_by_key(&(pos as u64), |e| e.0).ok().map(|at| list[at].1)
            }
        };
        found.expect("an escaped cell is listed")
    }
}

impl Cells {
    pub(super) fn len(&self) -> usize {
        match self {
            Cells::Wide(c) => c.len(),
            Cells::Compact(c) => c.len(),
            Cells::Byte(c, _) => c.len(),
        }
    }

    pub(super) fn get(&self, pos: usize) -> Option<u32> {
        match self {
            Cells::Wide(c) => c.get(pos).map(Word::get),
            Cells::Compact(c) => c.get(pos).map(Word::get),
            Cells::Byte(c, escapes) => {
                c.get(pos).map(Word::get).map(|word| if escaped(word) { escapes.get(pos) } else { word })
            }
        }
    }
}

/// Whether a 1-byte cell's logical word stands for a decided value kept in the side list.
pub(super) const fn escaped(word: u32) -> bool {
    word >> TAG_SHIFT != TAG_OPEN && word & PAYLOAD == ESCAPED
}

pub(super) const fn cell(tag: u32, payload: u32) -> u32 {
    (tag << TAG_SHIFT) | payload
}

pub(super) fn encode(value: Value, limit: u32) -> Result<u32, SolveError> {
    let checked = |d: Plies| {
        if d.0 >= limit { Err(SolveError::DistanceTooLarge) } else { Ok(d.0) }
    };
    Ok(match value {
        Value::Win(d) => cell(TAG_WIN, checked(d)?),
        Value::Loss(d) => cell(TAG_LOSS, checked(d)?),
        Value::Draw(None) => cell(TAG_DRAW, 0),
        Value::Draw(Some(d)) => cell(TAG_DRAW, checked(d)? + 1),
    })
}

/// The logical word of `value` in a solution of 1-byte cells (`None`: a hole).
pub(super) fn byte_word(value: Option<Value>) -> Result<u32, SolveError> {
    value.map_or(Ok(cell(TAG_OPEN, HOLE)), |v| encode(v, AtomicU8::LIMIT))
}

pub(super) fn decode(word: u32) -> Option<Value> {
    let payload = word & PAYLOAD;
    match word >> TAG_SHIFT {
        TAG_WIN => Some(Value::Win(Plies(payload))),
        TAG_LOSS => Some(Value::Loss(Plies(payload))),
        TAG_DRAW if payload == 0 => Some(Value::Draw(None)),
        TAG_DRAW => Some(Value::Draw(Some(Plies(payload - 1)))),
        // Only holes stay open once a solve is finished.
        _ => None,
    }
}

/// A position number in the solver's list of escapes: 4 bytes while the index has fewer than
/// `u32::MAX` positions, else 8.
pub(super) trait Pos: Copy + Send + Sync + 'static {
    fn from_index(pos: usize) -> Self;
    fn index(self) -> usize;
    /// The escapes of a solve, from its list in any order.
    fn escapes(list: Vec<(Self, u32)>) -> Escapes;
}

impl Pos for u32 {
    #[inline]
    fn from_index(pos: usize) -> u32 {
        debug_assert!(u32::try_from(pos).is_ok());
        pos as u32
    }
    #[inline]
    fn index(self) -> usize {
        self as usize
    }
    fn escapes(mut list: Vec<(u32, u32)>) -> Escapes {
        list.sort_unstable();
        Escapes::Narrow(list)
    }
}

impl Pos for u64 {
    #[inline]
    fn from_index(pos: usize) -> u64 {
        pos as u64
    }
    #[inline]
    fn index(self) -> usize {
        self as usize
    }
    fn escapes(list: Vec<(u64, u32)>) -> Escapes {
        Escapes::new(list)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip_every_kind_of_value() {
        for v in [
            Value::win_in(0),
            Value::win_in(MAX_PLIES),
            Value::loss_in(0),
            Value::loss_in(17),
            Value::Draw(None),
            Value::Draw(Some(Plies(0))),
            Value::Draw(Some(Plies(9))),
        ] {
            assert_eq!(decode(encode(v, AtomicU32::LIMIT).unwrap()), Some(v));
        }
        assert_eq!(decode(cell(TAG_OPEN, HOLE)), None);
        assert_eq!(encode(Value::win_in(MAX_PLIES + 1), AtomicU32::LIMIT), Err(SolveError::DistanceTooLarge));
        assert_eq!(
            encode(Value::Draw(Some(Plies(MAX_PLIES))), AtomicU32::LIMIT).map(decode),
            Ok(Some(Value::Draw(Some(Plies(MAX_PLIES)))))
        );
        for word in
            [cell(TAG_OPEN, HOLE), cell(TAG_OPEN, 7), cell(TAG_WIN, MAX_COMPACT_PLIES), cell(TAG_DRAW, 0)]
        {
            assert_eq!(from_compact(to_compact(word)), word);
        }
    }
}
