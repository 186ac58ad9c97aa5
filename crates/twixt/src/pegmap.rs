//! The peg map: from a point to what the rules read about its peg, with no worst case.
//!
//! A record chooses its points, so the map must cost the same whatever points it is given: an
//! unkeyed hash lets one crafted record put every point in one bucket (a 1 MiB record took
//! 100 times the CPU of random points with the old fixed hasher). Two layouts, chosen by the
//! board's size, neither of which an input can slow down:
//!
//! - **dense** (boards of at most [`DENSE_MAX_CELLS`] points, N <= 2047, every real board): a
//!   grid of one 32-bit word per point (peg number, colour, link bits); a look-up reads one
//!   word. The grid is allocated zeroed, so the pages of an empty region are never touched.
//! - **sparse** (larger boards): open addressing with linear probing, at most half full, keyed by
//!   SipHash-1-3 under a random key drawn for each map (std's [`RandomState`]), so a record
//!   cannot aim its points at one bucket without knowing a key it never sees. Memory follows
//!   the pegs, not N².
//!
//! Every look-up counts the slots it examined ([`PegMap::probes`]): a measure of the map's work
//! that does not depend on the machine, which the tests compare between crafted and random
//! records.

use std::hash::{BuildHasher, RandomState};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::geometry::Point;
use crate::rules::Color;

/// The largest board (in points, `(N + 1)²`) kept as a dense grid: 4 Mi points, 16 MiB of
/// words at most, of which only the touched pages are ever resident.
pub const DENSE_MAX_CELLS: u64 = 1 << 22;

/// What the map holds for a peg: everything the per-move checks read, so that a check costs one
/// look-up and no second one elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Slot {
    /// The peg's number (its union-find node).
    pub index: u32,
    /// Its colour.
    pub color: Color,
    /// Bit `d` set: linked to the peg in direction `d`.
    pub links: u8,
}

/// Dense words: bit 31 set for a peg, bits 9..31 the peg's number, bit 8 its colour (1 White),
/// bits 0..8 its links. A dense board has fewer than 2²² points, so the number fits.
const PRESENT: u32 = 1 << 31;

fn pack(slot: Slot) -> u32 {
    debug_assert!(u64::from(slot.index) < DENSE_MAX_CELLS);
    PRESENT | slot.index << 9 | u32::from(slot.color == Color::White) << 8 | u32::from(slot.links)
}

fn unpack(word: u32) -> Option<Slot> {
    (word & PRESENT != 0).then_some(Slot {
        index: (word & !PRESENT) >> 9,
        color: if word >> 8 & 1 == 1 { Color::White } else { Color::Black },
        links: word as u8,
    })
}

/// A sparse entry; `EMPTY_X` in `x` marks a free slot (no point has it: coordinates stay
/// within a few units of `0..=MAX_N`).
#[derive(Clone, Copy, Debug)]
struct Entry {
    x: i32,
    y: i32,
    slot: Slot,
}

const EMPTY_X: i32 = i32::MIN;
const EMPTY: Entry = Entry { x: EMPTY_X, y: 0, slot: Slot { index: 0, color: Color::Black, links: 0 } };

#[derive(Clone, Debug)]
enum Layout {
    /// `(N + 1)²` words, row by row.
    Dense { side: u32, words: Vec<u32> },
    /// A power of two of entries, at most half full.
    Sparse { entries: Vec<Entry>, len: usize, keys: RandomState },
}

/// A map from the points of a board `0..=N` to the pegs on them (see the [module](self) docs).
#[derive(Debug)]
pub(crate) struct PegMap {
    layout: Layout,
    /// Slots examined by look-ups so far (relaxed load and store: a statistic, not a lock).
    probes: AtomicU64,
}

impl Clone for PegMap {
    fn clone(&self) -> Self {
        PegMap { layout: self.layout.clone(), probes: AtomicU64::new(self.probes()) }
    }
}

impl PegMap {
    /// An empty map for a board with points `0..=n` (`n >= 0`), dense when it is small enough.
    pub fn new(n: i32) -> PegMap {
        let side = u64::try_from(n).expect("a board size is not negative") + 1;
        if side * side <= DENSE_MAX_CELLS { PegMap::dense(n) } else { PegMap::sparse() }
    }

    /// An empty dense map for points `0..=n` (`(n + 1)²` at most [`DENSE_MAX_CELLS`]).
    pub fn dense(n: i32) -> PegMap {
        let side = u32::try_from(n).expect("a board size is not negative") + 1;
        assert!(u64::from(side) * u64::from(side) <= DENSE_MAX_CELLS, "N = {n} is too large for a grid");
        let layout = Layout::Dense { side, words: vec![0; side as usize * side as usize] };
        PegMap { layout, probes: AtomicU64::new(0) }
    }

    /// An empty sparse map (any board).
    pub fn sparse() -> PegMap {
        let layout = Layout::Sparse { entries: vec![EMPTY; 16], len: 0, keys: RandomState::new() };
        PegMap { layout, probes: AtomicU64::new(0) }
    }

    /// Whether the map is a grid.
    #[cfg(test)]
    pub fn is_dense(&self) -> bool {
        matches!(self.layout, Layout::Dense { .. })
    }

    /// Slots examined by look-ups so far.
    pub fn probes(&self) -> u64 {
        self.probes.load(Ordering::Relaxed)
    }

    fn count(&self, slots: u64) {
        // Not `fetch_add`: one thread updates a map at a time, and a plain store is free.
        self.probes.store(self.probes.load(Ordering::Relaxed).wrapping_add(slots), Ordering::Relaxed);
    }

    /// Room for `additional` more pegs without growing.
    pub fn reserve(&mut self, additional: usize) {
        if let Layout::Sparse { entries, len, .. } = &self.layout {
            let wanted = (len + additional).saturating_mul(2).next_power_of_two();
            if wanted > entries.len() {
                self.rehash(wanted);
            }
        }
    }

    /// Where `p` is or would go: the index of its word or entry, and whether it is there.
    fn find(&self, p: Point) -> (usize, bool) {
        match &self.layout {
            Layout::Dense { side, words } => {
                self.count(1);
                let (Ok(x), Ok(y)) = (u32::try_from(p.x), u32::try_from(p.y)) else {
                    return (usize::MAX, false);
                };
                if x >= *side || y >= *side {
                    return (usize::MAX, false);
                }
                let i = y as usize * *side as usize + x as usize;
                (i, words[i] & PRESENT != 0)
            }
            Layout::Sparse { entries, keys, .. } => {
                let mask = entries.len() - 1;
                let mut i = keys.hash_one((p.x, p.y)) as usize & mask;
                let mut examined = 1;
                let found = loop {
                    let e = &entries[i];
                    if e.x == p.x && e.y == p.y {
                        break true;
                    }
                    if e.x == EMPTY_X {
                        break false;
                    }
                    i = (i + 1) & mask;
                    examined += 1;
                };
                self.count(examined);
                (i, found)
            }
        }
    }

    /// The peg on `p`, if any.
    pub fn get(&self, p: Point) -> Option<Slot> {
        let (i, found) = self.find(p);
        if !found {
            return None;
        }
        match &self.layout {
            Layout::Dense { words, .. } => unpack(words[i]),
            Layout::Sparse { entries, .. } => Some(entries[i].slot),
        }
    }

    /// Whether a peg is on `p`.
    pub fn contains(&self, p: Point) -> bool {
        self.find(p).1
    }

    /// Adds `links` to the link bits of the peg on `p`; `false` when there is none.
    pub fn add_links(&mut self, p: Point, links: u8) -> bool {
        let (i, found) = self.find(p);
        if found {
            match &mut self.layout {
                Layout::Dense { words, .. } => words[i] |= u32::from(links),
                Layout::Sparse { entries, .. } => entries[i].slot.links |= links,
            }
        }
        found
    }

    /// Puts `slot` on `p` (replacing what was there). `p` must be on the board.
    pub fn insert(&mut self, p: Point, slot: Slot) {
        if let Layout::Sparse { entries, len, .. } = &self.layout
            && (len + 1) * 2 > entries.len()
        {
            self.rehash(entries.len() * 2);
        }
        let (i, found) = self.find(p);
        match &mut self.layout {
            Layout::Dense { words, .. } => {
                assert!(i != usize::MAX, "({},{}) is off the grid", p.x, p.y);
                words[i] = pack(slot);
            }
            Layout::Sparse { entries, len, .. } => {
                entries[i] = Entry { x: p.x, y: p.y, slot };
                *len += usize::from(!found);
            }
        }
    }

    /// Removes every peg.
    pub fn clear(&mut self) {
        match &mut self.layout {
            Layout::Dense { words, .. } => words.fill(0),
            Layout::Sparse { entries, len, .. } => {
                entries.fill(EMPTY);
                *len = 0;
            }
        }
    }

    /// Moves a sparse map's entries into a table of `capacity` (a power of two).
    fn rehash(&mut self, capacity: usize) {
        let Layout::Sparse { entries, len, keys } = &mut self.layout else { return };
        let old = std::mem::replace(entries, vec![EMPTY; capacity]);
        let mask = capacity - 1;
        for e in old.into_iter().filter(|e| e.x != EMPTY_X) {
            let mut i = keys.hash_one((e.x, e.y)) as usize & mask;
            while entries[i].x != EMPTY_X {
                i = (i + 1) & mask;
            }
            entries[i] = e;
        }
        debug_assert!(*len * 2 <= capacity);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use proptest::prelude::*;

    use super::*;

    #[derive(Clone, Debug)]
    enum Op {
        Insert(i32, i32, u32, bool, u8),
        Links(i32, i32, u8),
        Get(i32, i32),
        Clear,
    }

    fn op(n: i32) -> impl Strategy<Value = Op> {
        // Look-ups go a little off the board, as the rules' neighbour look-ups do.
        let on = 0..=n;
        let near = -3..=n + 3;
        prop_oneof![
            8 => (on.clone(), on, 0..1000u32, any::<bool>(), any::<u8>())
                .prop_map(|(x, y, i, w, l)| Op::Insert(x, y, i, w, l)),
            4 => (near.clone(), near.clone(), any::<u8>()).prop_map(|(x, y, l)| Op::Links(x, y, l)),
            8 => (near.clone(), near).prop_map(|(x, y)| Op::Get(x, y)),
            1 => Just(Op::Clear),
        ]
    }

    proptest! {
        /// Both layouts behave as a `HashMap` under any sequence of operations.
        #[test]
        fn both_layouts_are_a_map(ops in prop::collection::vec(op(40), 1..400)) {
            let mut maps = [PegMap::dense(40), PegMap::sparse()];
            let mut oracle: HashMap<Point, Slot> = HashMap::new();
            for op in ops {
                match op {
                    Op::Insert(x, y, index, white, links) => {
                        let color = if white { Color::White } else { Color::Black };
                        let slot = Slot { index, color, links };
                        for m in &mut maps {
                            m.insert(Point::new(x, y), slot);
                        }
                        oracle.insert(Point::new(x, y), slot);
                    }
                    Op::Links(x, y, links) => {
                        let p = Point::new(x, y);
                        let expected = oracle.get_mut(&p).map(|s| s.links |= links).is_some();
                        for m in &mut maps {
                            prop_assert_eq!(m.add_links(p, links), expected);
                        }
                    }
                    Op::Get(x, y) => {
                        let p = Point::new(x, y);
                        for m in &maps {
                            prop_assert_eq!(m.get(p), oracle.get(&p).copied());
                            prop_assert_eq!(m.contains(p), oracle.contains_key(&p));
                        }
                    }
                    Op::Clear => {
                        for m in &mut maps {
                            m.clear();
                        }
                        oracle.clear();
                    }
                }
            }
            for (p, s) in &oracle {
                for m in &maps {
                    prop_assert_eq!(m.get(*p), Some(*s));
                }
            }
        }
    }

    #[test]
    fn the_layout_follows_the_board() {
        assert!(PegMap::new(23).is_dense());
        assert!(PegMap::new(2047).is_dense());
        assert!(!PegMap::new(2048).is_dense());
        assert!(!PegMap::new(1 << 30).is_dense());
    }

    #[test]
    fn a_dense_look_up_examines_one_word() {
        let mut m = PegMap::dense(10);
        m.insert(Point::new(3, 4), Slot { index: 7, color: Color::White, links: 5 });
        let before = m.probes();
        for x in -2..13 {
            m.get(Point::new(x, 4));
        }
        assert_eq!(m.probes() - before, 15);
        // The largest number a dense board can hold survives packing.
        let slot = Slot { index: (DENSE_MAX_CELLS - 1) as u32, color: Color::White, links: 0xff };
        assert_eq!(unpack(pack(slot)), Some(slot));
    }

    #[test]
    fn two_sparse_maps_have_different_keys() {
        // Keys drawn per map: the same points land in different slots (with overwhelming
        // probability for 64 points in 128 slots).
        let mut a = PegMap::sparse();
        let mut b = PegMap::sparse();
        a.reserve(64);
        b.reserve(64);
        let place = |m: &PegMap| -> Vec<usize> { (0..64).map(|k| m.find(Point::new(k, 3 * k)).0).collect() };
        assert_ne!(place(&a), place(&b));
    }
}
