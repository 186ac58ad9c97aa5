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

use crate::rules::board::Board;
use crate::rules::color::Color;
use crate::rules::material::Material;
use crate::rules::piece::{Piece, Role};
use crate::rules::position::Position;
use crate::rules::square::Square;
use std::ops::Range;

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

    /// The pieces in slot order: Red's first, by kind in the order of [`Role::ALL`](crate::rules::piece::Role::ALL).
    #[must_use]
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The side to move of the position with this index (the lowest digit).
    #[must_use]
    pub const fn turn(index: usize) -> Color {
        if index.is_multiple_of(2) { Color::Red } else { Color::Black }
    }

    /// The index of the position with these points (in slot order, identical pieces in
    /// increasing point order) and side to move, if every piece may stand on its point. Does
    /// not check that the points are distinct.
    #[must_use]
    pub fn index_of(&self, squares: &[Square], turn: Color) -> Option<usize> {
        if squares.len() != self.slots.len() {
            return None;
        }
        let mut index = turn.index();
        for (weights, sq) in self.weights.iter().zip(squares) {
            let w = weights[sq.index()];
            if w == usize::MAX {
                return None;
            }
            index += w;
        }
        Some(index)
    }

    /// The points of the pieces (in slot order) of the position with this index, written to
    /// the start of `squares`, and its side to move; `None` for holes and numbers past the end.
    ///
    /// # Panics
    /// When `squares` is shorter than the number of pieces.
    pub fn squares(&self, index: usize, squares: &mut [Square]) -> Option<Color> {
        if index >= self.len {
            return None;
        }
        let squares = &mut squares[..self.slots.len()];
        // 32-bit divisions where the index allows: several times faster than 64-bit ones.
        if let Ok(small) = u32::try_from(index / 2) {
            let mut rest = small;
            if !self.identical {
                // One slot per group: a point per digit.
                let mut occupied = 0u128;
                for ((g, slot), sq) in self.groups.iter().zip(&self.slots).zip(squares.iter_mut()).rev() {
                    let (q, digit) = g.div_rem(rest);
                    rest = q;
                    *sq = slot.points[digit as usize];
                    let bit = sq.bit();
                    if occupied & bit != 0 {
                        // Two pieces on one point.
                        return None;
                    }
                    occupied |= bit;
                }
                return self.mirror_hole_check(index, squares);
            }
            // A set of points per digit; two pieces on one point make a hole.
            let mut occupied = 0u128;
            for g in self.groups.iter().rev() {
                let (q, digit) = g.div_rem(rest);
                rest = q;
                let at = digit as usize * g.k;
                for (sq, &point) in squares[g.start..g.start + g.k].iter_mut().zip(&g.points[at..at + g.k]) {
                    *sq = point;
                    let bit = point.bit();
                    if occupied & bit != 0 {
                        return None;
                    }
                    occupied |= bit;
                }
            }
            return self.mirror_hole_check(index, squares);
        } else {
            let mut rest = index / 2;
            for g in self.groups.iter().rev() {
                self.put(g, rest % g.size, squares);
                rest /= g.size;
            }
        }
        for i in 1..squares.len() {
            if squares[..i].contains(&squares[i]) {
                return None;
            }
        }
        self.mirror_hole_check(index, squares)
    }

    /// The end of [`MaterialIndex::squares`] for a placement without two pieces on a point:
    /// with Red's General on the axis, the larger of the two indices of a placement and its
    /// mirror image is a hole.
    #[inline]
    fn mirror_hole_check(&self, index: usize, squares: &[Square]) -> Option<Color> {
        if on_axis(squares[0]) {
            if self.identical {
                if self.image_is_smaller(squares) {
                    return None;
                }
            } else if self.mirror_index(squares, Color::Red).expect("the mirror keeps every point allowed")
                < index & !1
            {
                return None;
            }
        }
        Some(MaterialIndex::turn(index))
    }

    /// Whether the mirror image of the placement of these points (in slot order, identical pieces
    /// in order; every point's image allowed) has a smaller index than the placement: the
    /// groups' parts compared from the most significant one, each image's part the sum of the
    /// weights of its points put in order.
    #[inline]
    fn image_is_smaller(&self, squares: &[Square]) -> bool {
        for g in &self.groups {
            let set = &squares[g.start..g.start + g.k];
            let weights = &self.weights[g.start..g.start + g.k];
            let part: usize = weights.iter().zip(set).map(|(w, sq)| w[sq.index()]).sum();
            let mut image = [Square::A0; 5];
            let image = &mut image[..g.k];
            for (m, sq) in image.iter_mut().zip(set) {
                *m = sq.mirror();
            }
            // An insertion sort: the mirror reverses the order of points on one rank.
            for i in 1..image.len() {
                let mut j = i;
                while j > 0 && image[j - 1] > image[j] {
                    image.swap(j - 1, j);
                    j -= 1;
                }
            }
            let mirrored: usize = weights.iter().zip(image.iter()).map(|(w, sq)| w[sq.index()]).sum();
            if mirrored != part {
                return mirrored < part;
            }
        }
        false
    }

    /// Writes the points of group `g` with this digit to `squares`.
    #[inline]
    fn put(&self, g: &Group, digit: usize, squares: &mut [Square]) {
        if g.k == 1 {
            squares[g.start] = self.slots[g.start].points[digit];
        } else {
            let points = &self.slots[g.start].points;
            for j in 0..g.k {
                squares[g.start + j] = points[usize::from(g.sets[digit * g.k + j])];
            }
        }
    }

    /// The mirror image of `squares` (identical pieces put back in order), written to `image`.
    fn mirror<'a>(&self, squares: &[Square], image: &'a mut [Square]) -> &'a mut [Square] {
        let image = &mut image[..squares.len()];
        for (m, sq) in image.iter_mut().zip(squares) {
            *m = sq.mirror();
        }
        self.canonicalize(image);
        image
    }

    /// Whether the position of these points (in slot order, identical pieces in order) is its
    /// own mirror image: it stands for itself only, any other for itself and its image.
    #[must_use]
    pub fn is_symmetric(&self, squares: &[Square]) -> bool {
        let mut image = [Square::A0; MAX_MEN];
        on_axis(squares[0]) && self.mirror(squares, &mut image) == squares
    }

    /// Calls `f(pos, turn, times)` for every legal position `pos` of `range`, with its side to
    /// move and how many positions it stands for: 1 when it is its own mirror image, else 2
    /// (its image is a position of its own, as GamesmanXiangqi counts positions).
    pub(crate) fn for_each_legal(&self, range: std::ops::Range<usize>, mut f: impl FnMut(usize, Color, u64)) {
        let n = self.pieces().len();
        for pos in range {
            let mut all = [Square::A0; MAX_MEN];
            let Some(turn) = self.squares(pos, &mut all) else { continue };
            let squares = &all[..n];
            if crate::rules::bitboard::legal(squares, self.pieces(), turn) {
                f(pos, turn, if self.is_symmetric(squares) { 1 } else { 2 });
            }
        }
    }

    /// Whether index `pos` is a legal position (not a hole of the index, every piece on a point
    /// it may stand on, the side not to move not in check): what `MaterialIndex::for_each_legal`
    /// visits.
    #[must_use]
    pub fn is_legal(&self, pos: usize) -> bool {
        let mut all = [Square::A0; MAX_MEN];
        let Some(turn) = self.squares(pos, &mut all) else { return false };
        crate::rules::bitboard::legal(&all[..self.pieces().len()], self.pieces(), turn)
    }

    /// How many positions index `pos` stands for, when it is a position: 1 when it is its own
    /// mirror image, else 2 (as `MaterialIndex::for_each_legal` counts). Reads the digits
    /// from the lowest up and stops at the first piece off the axis (most indices: one digit).
    #[must_use]
    pub fn stands_for(&self, pos: usize) -> u64 {
        if let Ok(mut rest) = u32::try_from(pos / 2) {
            // Multiplications for divisions, as in `squares`.
            for (g, invariant) in self.groups.iter().zip(&self.invariant).rev() {
                let (q, digit) = g.div_rem(rest);
                rest = q;
                if !invariant[digit as usize] {
                    return 2;
                }
            }
            return 1;
        }
        let mut rest = pos / 2;
        for (g, invariant) in self.groups.iter().zip(&self.invariant).rev() {
            let digit = rest % g.size;
            rest /= g.size;
            if !invariant[digit] {
                return 2;
            }
        }
        1
    }

    /// The index of the position with these points (in slot order, in any order among
    /// identical pieces, Red's General on any file of its palace) or of its mirror image,
    /// whichever is indexed; `None` when a piece is not on a point it may stand on. The points
    /// are put in order (and mirrored when the image is the one indexed).
    pub fn canonical_index(&self, squares: &mut [Square], turn: Color) -> Option<usize> {
        self.canonicalize(squares);
        let file = squares.first()?.file().index();
        if file > 4 || on_axis(squares[0]) {
            let mut image = [Square::A0; MAX_MEN];
            let image = self.mirror(squares, &mut image);
            let mirrored = self.index_of(image, turn)?;
            if file > 4 || self.index_of(squares, turn).is_some_and(|i| mirrored < i) {
                squares.copy_from_slice(image);
                return Some(mirrored);
            }
        }
        self.index_of(squares, turn)
    }

    /// Whether [`MaterialIndex::moved`] gives the index after the piece of `slot` moves from the
    /// position with these points: no identical pieces, and neither the mirror nor Red's
    /// General involved.
    #[inline]
    #[must_use]
    pub fn moves_in_place(&self, squares: &[Square], slot: usize) -> bool {
        !self.identical && slot != 0 && !on_axis(squares[0])
    }

    /// Whether two pieces of the material are identical (then [`MaterialIndex::moved`] does not
    /// apply).
    #[must_use]
    pub const fn has_identical(&self) -> bool {
        self.identical
    }

    /// The index after the piece of `slot` went from `from` to `to` (an empty point it may
    /// stand on) and the turn passed, computed from `index` in O(1). Only where
    /// [`MaterialIndex::moves_in_place`] says so.
    #[inline]
    #[must_use]
    pub fn moved(&self, index: usize, slot: usize, from: Square, to: Square) -> usize {
        debug_assert!(!self.identical);
        let s = &self.slots[slot];
        let (a, b) = (usize::from(s.number[from.index()]), usize::from(s.number[to.index()]));
        debug_assert!(b != usize::from(NOWHERE));
        ((index + b * self.strides[slot]) - a * self.strides[slot]) ^ 1
    }

    /// The index after the piece of `slot` went from `from` to `to` (an empty point) and the
    /// turn passed, computed in O(1) from `index`, the index of the same points (in slot order)
    /// before the move, whichever of a position and its mirror image they are; `None` when the
    /// piece may not stand on `to` in the index (Red's General right of the axis). Only without
    /// identical pieces; the result may be a hole (the larger of a position on the axis and its
    /// image).
    #[inline(always)]
    #[must_use]
    pub fn moved_to(&self, index: usize, slot: usize, from: Square, to: Square) -> Option<usize> {
        debug_assert!(!self.identical);
        let s = &self.slots[slot];
        let (a, b) = (s.number[from.index()], s.number[to.index()]);
        if b == NOWHERE {
            return None;
        }
        debug_assert!(a != NOWHERE);
        Some(((index + usize::from(b) * self.strides[slot]) - usize::from(a) * self.strides[slot]) ^ 1)
    }

    /// [`MaterialIndex::moved_to`] for any material: `squares` are the points (in slot order,
    /// identical pieces in increasing order) of the position with index `index`, and
    /// `from == squares[slot]`. With identical pieces only the digit of the moved piece's group
    /// changes: the set of its points with `from` replaced by `to`.
    #[inline(always)]
    #[must_use]
    pub fn moved_among(
        &self,
        index: usize,
        squares: &[Square],
        slot: usize,
        from: Square,
        to: Square,
    ) -> Option<usize> {
        let stride = self.lone_strides[slot];
        if stride == 0 {
            return self.moved_in_group(index, squares, slot, from, to);
        }
        // A piece alone in its group: its digit is its point number.
        let s = &self.slots[slot];
        let (a, b) = (s.number[from.index()], s.number[to.index()]);
        if b == NOWHERE {
            return None;
        }
        debug_assert!(a != NOWHERE);
        Some(((index + usize::from(b) * stride) - usize::from(a) * stride) ^ 1)
    }

    /// [`MaterialIndex::moved_among`] for a piece of a group of identical pieces.
    #[inline(never)]
    fn moved_in_group(
        &self,
        index: usize,
        squares: &[Square],
        slot: usize,
        from: Square,
        to: Square,
    ) -> Option<usize> {
        let group = self.group_of[slot];
        let (g, stride) = (&self.groups[group], self.group_strides[group]);
        let number = &self.slots[slot].number;
        let (a, b) = (number[from.index()], number[to.index()]);
        if b == NOWHERE {
            return None;
        }
        debug_assert!(a != NOWHERE && squares[slot] == from);
        if g.k == 1 {
            return Some(((index + usize::from(b) * stride) - usize::from(a) * stride) ^ 1);
        }
        // The group's part of the index, before and after (the weights include its stride).
        let weights = &self.weights[g.start..g.start + g.k];
        let part = |set: &[Square]| -> usize { weights.iter().zip(set).map(|(w, sq)| w[sq.index()]).sum() };
        let mut set = [Square::A0; MAX_MEN];
        let set = &mut set[..g.k];
        set.copy_from_slice(&squares[g.start..g.start + g.k]);
        let old = part(set);
        // `to` replaces `from`, and moves to its place in increasing order.
        let mut j = slot - g.start;
        set[j] = to;
        while j > 0 && set[j - 1] > set[j] {
            set.swap(j - 1, j);
            j -= 1;
        }
        while j + 1 < set.len() && set[j + 1] < set[j] {
            set.swap(j, j + 1);
            j += 1;
        }
        Some(((index + part(set)) - old) ^ 1)
    }

    /// The index of these points (in slot order) with the mirror image of every point, the
    /// side to move `turn`, if Red's General's image is a point of the index (not right of the
    /// axis). Only without identical pieces.
    #[must_use]
    pub fn mirror_index(&self, squares: &[Square], turn: Color) -> Option<usize> {
        debug_assert!(!self.identical);
        let mut index = 0;
        for (slot, &sq) in self.slots.iter().zip(squares) {
            let n = slot.number[sq.mirror().index()];
            if n == NOWHERE {
                return None;
            }
            index = index * slot.points.len() + usize::from(n);
        }
        Some(index * 2 + turn.index())
    }

    /// Puts identical pieces back into increasing point order (after one of them moved).
    #[inline]
    pub fn canonicalize(&self, squares: &mut [Square]) {
        if !self.identical {
            return;
        }
        for g in self.groups.iter().filter(|g| g.k > 1) {
            // An insertion sort: at most five points, usually all but one in order already.
            let set = &mut squares[g.start..g.start + g.k];
            for i in 1..set.len() {
                let mut j = i;
                while j > 0 && set[j - 1] > set[j] {
                    set.swap(j - 1, j);
                    j -= 1;
                }
            }
        }
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

    /// The index in `twin`, the index of this material's colour twin
    /// ([`Material::colour_twin`]), of the position with this index seen from the other side
    /// (colours swapped, every point flipped, the other side to move): a position of the same
    /// value. `None` for holes of this index (the twin's index of an illegal position is a hole
    /// there too). [`ColourFlip`] does the same for many indices, faster.
    ///
    /// # Panics
    /// When `twin` is not the index of this material's colour twin.
    #[must_use]
    pub fn twin_index(&self, twin: &MaterialIndex, index: usize) -> Option<usize> {
        assert_eq!(twin.material, self.material.colour_twin(), "not the colour twin");
        let mut squares = [Square::A0; MAX_MEN];
        let turn = self.squares(index, &mut squares)?;
        twin.index_of_twin_position(&squares[..self.slots.len()], turn)
    }

    /// The index here of the position of this material's colour twin with these points (in
    /// the twin's slot order: its Red pieces first, which are this material's Black ones) and
    /// `turn` to move, seen from the other side (colours swapped, every point flipped, the other
    /// side to move): a position of the same value. `None` when a piece stands where it may
    /// not. This is how a table answers for its colour twin.
    #[must_use]
    pub fn index_of_twin_position(&self, squares: &[Square], turn: Color) -> Option<usize> {
        let n = self.slots.len();
        if squares.len() != n {
            return None;
        }
        // The twin's Red pieces are this material's Black ones.
        let twin_reds = n - self.red_slots;
        let mut flipped = [Square::A0; MAX_MEN];
        for (image, sq) in flipped.iter_mut().zip(squares[twin_reds..].iter().chain(&squares[..twin_reds])) {
            *image = sq.flip();
        }
        self.canonical_index(&mut flipped[..n], !turn)
    }

    /// The position with this index; `None` for holes and numbers past the end.
    #[must_use]
    pub fn decode(&self, index: usize) -> Option<Position> {
        let mut squares = [Square::A0; MAX_MEN];
        let turn = self.squares(index, &mut squares)?;
        Some(Position::from_parts(self.board(&squares[..self.slots.len()]), turn))
    }

    /// The index of a position of this material (or of its mirror image, whichever is indexed).
    #[must_use]
    pub fn encode(&self, position: &Position) -> Option<usize> {
        self.encode_seen(position, false)
    }

    /// The index of `position` seen from the other side ([`Position::colour_twin`]: colours
    /// swapped, points flipped, the other side to move) in this index, that of its colour
    /// twin material; `None` when that is of another material. Without building the twin.
    #[must_use]
    pub fn encode_colour_twin(&self, position: &Position) -> Option<usize> {
        self.encode_seen(position, true)
    }

    /// [`MaterialIndex::encode`] of `position`, or of its colour twin when `twin`.
    fn encode_seen(&self, position: &Position, twin: bool) -> Option<usize> {
        // Each kind of piece's first slot and number of slots (pieces of a kind are in
        // consecutive slots).
        const KINDS: usize = 2 * Role::COUNT;
        let kind = |p: Piece| p.color.index() * Role::COUNT + p.role.index();
        let (mut first, mut count) = ([0u8; KINDS], [0u8; KINDS]);
        for (s, slot) in self.slots.iter().enumerate() {
            let k = kind(slot.piece);
            if count[k] == 0 {
                first[k] = s as u8;
            }
            count[k] += 1;
        }
        // One pass over the board; identical pieces are put in order by `canonical_index`.
        // Another material (a piece too many or missing) has no index here.
        let mut squares = [Square::A0; MAX_MEN];
        let mut placed = [0u8; KINDS];
        let mut men = 0;
        for (sq, piece) in position.board().pieces() {
            let (sq, piece) =
                if twin { (sq.flip(), Piece { color: !piece.color, role: piece.role }) } else { (sq, piece) };
            let k = kind(piece);
            if placed[k] == count[k] {
                return None;
            }
            squares[usize::from(first[k] + placed[k])] = sq;
            placed[k] += 1;
            men += 1;
        }
        if men != self.slots.len() {
            return None;
        }
        let turn = if twin { !position.turn() } else { position.turn() };
        self.canonical_index(&mut squares[..men], turn)
    }
}

/// [`MaterialIndex::twin_index`] for many indices: from each index of a material to the index
/// of the same position seen from the other side in its colour twin's index. Without identical
/// pieces the twin's index is one sum of a term per piece, from tables of the flipped points'
/// terms (and of their mirror images, for a position whose Black General stands right of the
/// axis or on it).
#[derive(Clone, Debug)]
pub struct ColourFlip<'a> {
    from: &'a MaterialIndex,
    twin: &'a MaterialIndex,
    /// For each slot of `from` and each point, the twin's term of the flipped piece there, and
    /// of the mirror image of that (empty with identical pieces: the general path).
    terms: Vec<[[usize; Square::COUNT]; 2]>,
}

impl<'a> ColourFlip<'a> {
    /// The map from the indices of `from` to those of `twin`, the index of its colour twin.
    ///
    /// # Panics
    /// When `twin` is not the index of `from`'s colour twin.
    #[must_use]
    pub fn new(from: &'a MaterialIndex, twin: &'a MaterialIndex) -> ColourFlip<'a> {
        assert_eq!(twin.material, from.material.colour_twin(), "not the colour twin");
        let mut terms = Vec::new();
        if !from.identical {
            let (n, reds) = (from.slots.len(), from.red_slots);
            terms = vec![[[0; Square::COUNT]; 2]; n];
            for (s, t) in terms.iter_mut().enumerate() {
                // The twin's slot of this piece: Black's pieces become its first ones.
                let twin_slot = if s < reds { n - reds + s } else { s - reds };
                for sq in Square::all() {
                    let flipped = sq.flip();
                    t[0][sq.index()] = twin.weights[twin_slot][flipped.index()];
                    t[1][sq.index()] = twin.weights[twin_slot][flipped.mirror().index()];
                }
            }
        }
        ColourFlip { from, twin, terms }
    }

    /// The index the map goes into.
    #[must_use]
    pub const fn twin(&self) -> &'a MaterialIndex {
        self.twin
    }

    /// Calls `f` with [`ColourFlip::index`] of every index of `range`, in order. Without
    /// identical pieces the placements are decoded once per run of the last piece's points,
    /// and each index takes one term of each sum.
    pub fn for_each_index(&self, range: Range<usize>, mut f: impl FnMut(Option<usize>)) {
        if self.terms.is_empty() {
            range.for_each(|i| f(self.index(i)));
            return;
        }
        let from = self.from;
        let last = self.terms.len() - 1;
        let points = &from.slots[last].points;
        let m = points.len();
        let black_general = from.red_slots;
        let mut i = range.start;
        let end = range.end.min(from.len);
        while i < end {
            // The other pieces' points, fixed while the last piece runs through its points.
            let run = i / 2 / m;
            let mut squares = [Square::A0; MAX_MEN];
            let mut rest = run;
            for s in (0..last).rev() {
                let slot = &from.slots[s];
                squares[s] = slot.points[rest % slot.points.len()];
                rest /= slot.points.len();
            }
            let mut occupied = 0u128;
            let mut clash = false;
            for sq in &squares[..last] {
                let bit = 1u128 << sq.index();
                clash |= occupied & bit != 0;
                occupied |= bit;
            }
            let sum = |k: usize| {
                (0..last).fold(0usize, |acc, s| acc.wrapping_add(self.terms[s][k][squares[s].index()]))
            };
            let (plain, mirrored) = (sum(0), sum(1));
            // This index's own mirror test (see `mirror_hole_check`): with Red's General on the
            // axis, the larger of a placement's index and its image's is a hole.
            let axis = on_axis(squares[0]);
            let image: usize =
                if axis { (0..last).map(|s| from.weights[s][squares[s].mirror().index()]).sum() } else { 0 };
            let run_end = ((run + 1) * m * 2).min(end);
            while i < run_end {
                let sq = points[i / 2 % m];
                squares[last] = sq;
                let hole = clash
                    || occupied & (1u128 << sq.index()) != 0
                    || (axis && image + from.weights[last][sq.mirror().index()] < i & !1);
                f((!hole).then(|| {
                    let k = sq.index();
                    let (plain, mirrored) = (
                        plain.wrapping_add(self.terms[last][0][k]),
                        mirrored.wrapping_add(self.terms[last][1][k]),
                    );
                    let twin = match squares[black_general].file().index() {
                        0..4 => plain,
                        4 => plain.min(mirrored),
                        _ => mirrored,
                    };
                    twin + (!MaterialIndex::turn(i)).index()
                }));
                i += 1;
            }
        }
        // Past the end: no positions.
        (end.max(range.start)..range.end).for_each(|_| f(None));
    }

    /// The twin's index of the position with index `i` seen from the other side; `None` for
    /// holes of `from`.
    #[inline]
    #[must_use]
    pub fn index(&self, i: usize) -> Option<usize> {
        if self.terms.is_empty() {
            return self.from.twin_index(self.twin, i);
        }
        let mut squares = [Square::A0; MAX_MEN];
        let turn = self.from.squares(i, &mut squares)?;
        let squares = &squares[..self.terms.len()];
        // The twin's Red General is this Black General flipped (same file): left of the axis
        // the position is indexed as it is, right of it by its mirror image, on it by the
        // smaller of the two.
        let sum = |m: usize| self.terms.iter().zip(squares).map(|(t, sq)| t[m][sq.index()]).sum::<usize>();
        let file = squares[self.from.red_slots].file().index();
        let base = match file {
            0..4 => sum(0),
            4 => sum(0).min(sum(1)),
            _ => sum(1),
        };
        Some(base + (!turn).index())
    }
}

/// Whether Red's General on `sq` stands on the mirror's axis, the `e` file.
fn on_axis(sq: Square) -> bool {
    sq.file().index() == 4
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(5_000))]

        /// `moved_among` (one group's digit changed) against putting the piece on its new
        /// point, sorting identical pieces and encoding the whole placement, on random
        /// placements of materials with and without identical pieces, both sides to move.
        #[test]
        fn moved_among_agrees_with_encoding(
            material in proptest::sample::select(vec!["KRRvKP", "KvKPPP", "KAAvKBB", "KNCvKR", "KPPvKPP", "KNNvKA"]),
            index in 0usize..usize::MAX,
            slot in 0usize..MAX_MEN,
            to in 0usize..Square::COUNT,
        ) {
            let index_of_material = MaterialIndex::new(material.parse().unwrap());
            let ix = &index_of_material;
            let n = ix.pieces().len();
            let pos = index % ix.len();
            let mut squares = [Square::A0; MAX_MEN];
            // Holes are skipped (the solver never asks for their un-moves).
            if let Some(turn) = ix.squares(pos, &mut squares) {
                let squares = &squares[..n];
                let slot = slot % n;
                let (from, to) = (squares[slot], Square::from_index(to).unwrap());
                if !squares.contains(&to) {
                    let mut moved = squares.to_vec();
                    moved[slot] = to;
                    ix.canonicalize(&mut moved);
                    let expected = ix.index_of(&moved, !turn);
                    proptest::prop_assert_eq!(ix.moved_among(pos, squares, slot, from, to), expected);
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// `ColourFlip::for_each_index` (a run of indices at once) against `twin_index` (one position
        /// decoded, flipped and encoded) on random ranges (some past the end) of materials with and without
        /// identical pieces, with the Black General as the last piece, Soldiers, Generals on
        /// the axis.
        #[test]
        fn colour_flip_runs_agree_with_single_indices(which in 0usize..9, start in 0.0f64..1.0, len in 1usize..3000) {
            let names = ["KvK", "KNvK", "KvKN", "KRvKC", "KNCvKR", "KPvKAB", "KRRvKN", "KCvKPP", "KABvKR"];
            let from = MaterialIndex::new(names[which].parse().unwrap());
            let twin = MaterialIndex::new(from.material().colour_twin());
            let flip = ColourFlip::new(&from, &twin);
            let a = (start * from.len() as f64) as usize;
            // Ranges may run past the end: no positions there.
            let range = a..a + len;
            let mut got = Vec::new();
            flip.for_each_index(range.clone(), |j| got.push(j));
            let want: Vec<Option<usize>> = range.clone().map(|i| from.twin_index(&twin, i)).collect();
            proptest::prop_assert_eq!(got, want);
            for i in range {
                proptest::prop_assert_eq!(flip.index(i), from.twin_index(&twin, i));
            }
        }
    }

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
}
