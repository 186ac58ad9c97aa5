//! A dense index of the positions of one material, up to the left-right mirror.
//!
//! Every piece has a slot with the points it may stand on (a General: the nine points of its
//! palace; an Advisor 5, an Elephant 7, a Soldier the 55 it can reach; a Horse, Chariot or
//! Cannon all 90). A position's index is its slots' point numbers read as one mixed-radix
//! number, Red's pieces first, then the side to move as the lowest digit. Identical pieces
//! share one digit: the set of their points, numbered without order (the combinatorial number
//! system: `k` identical pieces on `m` points take `C(m, k)` values, not `m^k`). Placements
//! with two pieces on one point are holes.
//!
//! The rules and every piece's points are symmetric under the left-right mirror (file `a` <->
//! `i`), so a position and its mirror image have the same value and only one of them is
//! indexed: Red's General stands on the `d` or `e` file (6 points, not 9), and when it stands
//! on the `e` file the position must not have a smaller index than its mirror image (the
//! larger one is a hole). That halves the work. `KvKN` has 6 x 9 x 90 x 2 = 9,720 indices.
//!
//! Here: the index's layout ([`MaterialIndex::new`]: slots, digits, weights). Its rooms:
//! `decode` (index to position), `encode` (position to index), `moved` (the index after a
//! move, in O(1)) and `colour_flip` (to the colour twin's index, [`ColourFlip`]).

mod colour_flip;
mod decode;
mod encode;
mod moved;

pub use colour_flip::ColourFlip;

use crate::rules::board::Board;
use crate::rules::color::Color;
use crate::rules::material::Material;
use crate::rules::piece::Piece;
use crate::rules::square::Square;

const NOWHERE: u8 = u8::MAX;

/// The most pieces a position has (16 a side).
pub const MAX_MEN: usize = 32;

#[derive(Clone, Debug)]
struct Slot {
    piece: Piece,
    points: Vec<Square>,
    /// For each point of the board, its number among `points`, or [`NOWHERE`].
    number: [u8; Square::COUNT],
}

impl Slot {
    fn new(piece: Piece, first: bool) -> Slot {
        let mut points = piece.points();
        if first {
            // Red's General, on the left half of its palace and the middle file.
            points.retain(|sq| sq.file().index() <= 4);
        }
        let mut number = [NOWHERE; Square::COUNT];
        for (i, sq) in points.iter().enumerate() {
            number[sq.index()] = i as u8;
        }
        Slot { piece, points, number }
    }
}

/// A digit of the index: one piece, or a run of identical pieces as a set of points.
#[derive(Clone, Debug)]
struct Group {
    /// The first slot.
    start: usize,
    /// The number of slots (identical pieces).
    k: usize,
    /// The number of values of the digit: `C(m, k)` for `m` points.
    size: usize,
    /// For `k > 1`: the point numbers of every set, `k` per set, in the order of their values.
    sets: Vec<u8>,
    /// The points of every value of the digit, `k` per value (for `k = 1` the slot's points).
    points: Vec<Square>,
    /// `u64::MAX / size + 1`: dividing a 32-bit number by `size` is a multiplication by it
    /// (Lemire's method; 0 when `size` is 1).
    reciprocal: u64,
}

impl Group {
    /// `n / size` and `n % size` for a 32-bit `n`, without a division instruction.
    #[inline]
    fn div_rem(&self, n: u32) -> (u32, u32) {
        if self.size == 1 {
            return (n, 0);
        }
        let q = ((u128::from(self.reciprocal) * u128::from(n)) >> 64) as u32;
        (q, n - q * self.size as u32)
    }
}

/// `C(n, k)`, 0 when `k > n`; `None` when it overflows.
fn checked_binomial(n: usize, k: usize) -> Option<usize> {
    if k > n {
        return Some(0);
    }
    (0..k).try_fold(1usize, |acc, i| Some(acc.checked_mul(n - i)? / (i + 1)))
}

/// `C(n, k)`, 0 when `k > n`.
fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

impl Group {
    fn new(start: usize, k: usize, m: usize) -> Group {
        let size = binomial(m, k);
        let mut sets = Vec::new();
        if k > 1 {
            sets = vec![0; size * k];
            // Every increasing tuple, stored at its value.
            let mut tuple: Vec<usize> = (0..k).collect();
            loop {
                let value = Group::value(&tuple);
                for (j, &n) in tuple.iter().enumerate() {
                    sets[value * k + j] = n as u8;
                }
                // The next increasing tuple of 0..m, if any.
                let Some(j) = (0..k).rev().find(|&j| tuple[j] < m - k + j) else { break };
                tuple[j] += 1;
                for i in j + 1..k {
                    tuple[i] = tuple[i - 1] + 1;
                }
            }
        }
        let reciprocal = (u64::MAX / size.max(1) as u64).wrapping_add(1);
        Group { start, k, size, sets, points: Vec::new(), reciprocal }
    }

    /// The value of an increasing tuple of point numbers: `sum C(n_j, j + 1)`.
    fn value(tuple: &[usize]) -> usize {
        tuple.iter().enumerate().map(|(j, &n)| binomial(n, j + 1)).sum()
    }
}

/// The points of `squares` but the one of slot `taken` (a captured piece), in slot order: the
/// placement of the smaller material the capture leads to, before canonicalising.
#[must_use]
pub fn without_slot(squares: &[Square], taken: usize) -> ([Square; MAX_MEN], usize) {
    let mut rest = [Square::A0; MAX_MEN];
    let mut n = 0;
    for (i, &sq) in squares.iter().enumerate() {
        if i != taken {
            rest[n] = sq;
            n += 1;
        }
    }
    (rest, n)
}

/// The dense index of one material's positions.
#[derive(Clone, Debug)]
pub struct MaterialIndex {
    material: Material,
    slots: Vec<Slot>,
    pieces: Vec<Piece>,
    groups: Vec<Group>,
    len: usize,
    /// Whether two slots hold identical pieces.
    identical: bool,
    /// The number of Red's pieces (the first slots).
    red_slots: usize,
    /// What one step of each slot's point number adds to the index (without identical pieces).
    strides: Vec<usize>,
    /// For each slot and point, what the piece of the slot on that point adds to the index
    /// (identical pieces in increasing point order: the `j`-th of a set adds `C(n, j + 1)`
    /// times its digit's stride), [`usize::MAX`] where it may not stand: the index of a
    /// position is one sum.
    weights: Vec<[usize; Square::COUNT]>,
    /// Each slot's group, and what one step of each group's digit adds to the index.
    group_of: Vec<usize>,
    group_strides: Vec<usize>,
    /// For each slot whose piece is alone in its group, what one step of its point number adds
    /// to the index; 0 for a slot of a group of identical pieces.
    lone_strides: Vec<usize>,
    /// For each group and digit, whether its points are their own mirror image.
    invariant: Vec<Vec<bool>>,
}

impl MaterialIndex {
    /// The number of indices of `material` (holes included), computed without building the
    /// index; `None` when it does not fit in a `usize` (then [`MaterialIndex::new`] must not be
    /// called).
    #[must_use]
    pub fn size(material: Material) -> Option<usize> {
        let pieces = material.pieces();
        let mut len: usize = 2;
        let mut start = 0;
        for i in 1..=pieces.len() {
            if i == pieces.len() || pieces[i] != pieces[start] {
                let mut m = pieces[start].points().len();
                if start == 0 {
                    // Red's General, left half of its palace and the middle file.
                    m = 6;
                }
                len = len.checked_mul(checked_binomial(m, i - start)?)?;
                start = i;
            }
        }
        Some(len)
    }

    /// The index of `material`'s positions.
    ///
    /// # Panics
    /// When the index does not fit in a `usize` (see [`MaterialIndex::size`]).
    #[must_use]
    pub fn new(material: Material) -> MaterialIndex {
        assert!(MaterialIndex::size(material).is_some(), "the index of {material} does not fit in a usize");
        let slots: Vec<Slot> =
            material.pieces().into_iter().enumerate().map(|(i, p)| Slot::new(p, i == 0)).collect();
        let mut groups = Vec::new();
        let mut start = 0;
        for i in 1..=slots.len() {
            if i == slots.len() || slots[i].piece != slots[start].piece {
                let mut g = Group::new(start, i - start, slots[start].points.len());
                let points = &slots[start].points;
                g.points = if g.k == 1 {
                    points.clone()
                } else {
                    g.sets.iter().map(|&n| points[usize::from(n)]).collect()
                };
                groups.push(g);
                start = i;
            }
        }
        let len = groups.iter().map(|g| g.size).product::<usize>() * 2;
        let identical = groups.len() < slots.len();
        let pieces = slots.iter().map(|s| s.piece).collect();
        let mut strides = vec![0; slots.len()];
        let mut stride = 2;
        for (i, slot) in slots.iter().enumerate().rev() {
            strides[i] = stride;
            stride *= slot.points.len();
        }
        let mut weights = vec![[usize::MAX; Square::COUNT]; slots.len()];
        let mut group_of = vec![0; slots.len()];
        let mut group_strides = vec![0; groups.len()];
        let mut stride = 2;
        for (i, g) in groups.iter().enumerate().rev() {
            group_strides[i] = stride;
            group_of[g.start..g.start + g.k].fill(i);
            for j in 0..g.k {
                let slot = &slots[g.start + j];
                for (n, &sq) in slot.points.iter().enumerate() {
                    let term = if g.k == 1 { n } else { binomial(n, j + 1) };
                    weights[g.start + j][sq.index()] = term * stride;
                }
            }
            stride *= g.size;
        }
        let lone_strides = (0..slots.len())
            .map(|i| if groups[group_of[i]].k == 1 { group_strides[group_of[i]] } else { 0 })
            .collect();
        let invariant = groups
            .iter()
            .map(|g| {
                let points = &slots[g.start].points;
                (0..g.size)
                    .map(|digit| {
                        let set: Vec<Square> = if g.k == 1 {
                            vec![points[digit]]
                        } else {
                            (0..g.k).map(|j| points[usize::from(g.sets[digit * g.k + j])]).collect()
                        };
                        set.iter().all(|sq| set.contains(&sq.mirror()))
                    })
                    .collect()
            })
            .collect();
        MaterialIndex {
            invariant,
            material,
            lone_strides,
            slots,
            pieces,
            groups,
            len,
            identical,
            red_slots: material.pieces().iter().filter(|p| p.color == Color::Red).count(),
            strides,
            weights,
            group_of,
            group_strides,
        }
    }

    /// The material.
    #[must_use]
    pub const fn material(&self) -> Material {
        self.material
    }

    /// The number of indices (holes included).
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether the index is empty (never: every material has two Generals).
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The pieces in slot order: Red's first, by kind in the order of
    /// [`Role::ALL`](crate::rules::piece::Role::ALL).
    #[must_use]
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The side to move of the position with this index (the lowest digit).
    #[must_use]
    pub const fn turn(index: usize) -> Color {
        if index.is_multiple_of(2) { Color::Red } else { Color::Black }
    }

    /// Whether two pieces of the material are identical (then [`MaterialIndex::moved`] does not
    /// apply).
    #[must_use]
    pub const fn has_identical(&self) -> bool {
        self.identical
    }

    /// The piece of slot `i`.
    #[must_use]
    pub fn piece(&self, i: usize) -> Piece {
        self.slots[i].piece
    }

    /// The board with the pieces on these points (in slot order).
    #[must_use]
    pub fn board(&self, squares: &[Square]) -> Board {
        let mut board = Board::empty();
        for (slot, &sq) in self.slots.iter().zip(squares) {
            board.set(sq, Some(slot.piece));
        }
        board
    }
}

/// Whether Red's General on `sq` stands on the mirror's axis, the `e` file.
fn on_axis(sq: Square) -> bool {
    sq.file().index() == 4
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_pieces_are_indexed_without_order() {
        let size = |m: &str| MaterialIndex::new(m.parse().unwrap()).len();
        // Red's General on 6 points (the mirror), Black's on 9, both sides to move.
        assert_eq!(size("KvK"), 6 * 9 * 2);
        assert_eq!(size("KRvK"), 6 * 90 * 9 * 2);
        assert_eq!(size("KRRvK"), 6 * 4005 * 9 * 2);
        assert_eq!(size("KvKPPP"), 6 * 9 * 26_235 * 2);
        for (m, k) in [(5, 2), (7, 2), (90, 2), (55, 3), (55, 4)] {
            let g = Group::new(0, k, m);
            assert_eq!(g.size, binomial(m, k));
            for v in 0..g.size {
                let tuple: Vec<usize> = g.sets[v * k..(v + 1) * k].iter().map(|&n| usize::from(n)).collect();
                assert!(tuple.windows(2).all(|w| w[0] < w[1]));
                assert_eq!(Group::value(&tuple), v);
            }
        }
    }

    #[test]
    fn position_bits_agree_with_the_tests_index_by_index() {
        // Identical pieces, pieces of both sides, Soldiers, Advisors and Elephants; an odd
        // number of words' worth of indices at the end.
        for m in ["KvK", "KNvK", "KAAvK", "KRvKP", "KPPvKA", "KCvKB", "KNvKBB"] {
            let index = MaterialIndex::new(m.parse().unwrap());
            let (legal, decoded) = (index.position_bits(true), index.position_bits(false));
            assert_eq!(legal.len(), index.len().div_ceil(64), "{m}");
            let bit = |bits: &[u64], p: usize| bits[p / 64] >> (p % 64) & 1 == 1;
            let mut all = [Square::A0; MAX_MEN];
            for p in 0..index.len() {
                assert_eq!(bit(&legal, p), index.is_legal(p), "{m}: index {p}");
                assert_eq!(bit(&decoded, p), index.squares(p, &mut all).is_some(), "{m}: index {p}");
            }
            // Nothing past the end.
            let tail = index.len() % 64;
            if tail != 0 {
                assert_eq!(legal[legal.len() - 1] >> tail, 0, "{m}");
            }
        }
    }
}
