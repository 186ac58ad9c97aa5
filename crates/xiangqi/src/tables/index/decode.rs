//! From an index to its position: the points of a placement read from the index's digits
//! (holes where two pieces share a point, or where the mirror image has the smaller index),
//! which indices are legal positions, and how many positions each stands for.

use crate::rules::bitboard::legal;
use crate::rules::color::Color;
use crate::rules::position::Position;
use crate::rules::square::Square;

use super::{Group, MAX_MEN, MaterialIndex, on_axis};

impl MaterialIndex {
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

    /// Calls `f(pos, turn, times)` for every legal position `pos` of `range`, with its side to
    /// move and how many positions it stands for: 1 when it is its own mirror image, else 2
    /// (its image is a position of its own, as GamesmanXiangqi counts positions).
    pub(crate) fn for_each_legal(&self, range: std::ops::Range<usize>, mut f: impl FnMut(usize, Color, u64)) {
        let n = self.pieces().len();
        for pos in range {
            let mut all = [Square::A0; MAX_MEN];
            let Some(turn) = self.squares(pos, &mut all) else { continue };
            let squares = &all[..n];
            if legal(squares, self.pieces(), turn) {
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
        legal(&all[..self.pieces().len()], self.pieces(), turn)
    }

    /// Which indices are positions, as bits (index `p` at bit `p % 64` of word `p / 64`):
    /// those [`MaterialIndex::is_legal`] accepts, or with `check_test` false those
    /// [`MaterialIndex::squares`] decodes. Each placement is decoded once for both sides to
    /// move (the two indices `2 k` and `2 k + 1` share it), in parallel: a whole-table read
    /// that looks for the holes spends most of its time here.
    #[must_use]
    pub fn position_bits(&self, check_test: bool) -> Vec<u64> {
        use rayon::prelude::*;
        let (n, pieces) = (self.len, self.pieces());
        (0..n.div_ceil(64))
            .into_par_iter()
            .with_min_len(1 << 10)
            .map(|w| {
                let mut word = 0u64;
                let mut all = [Square::A0; MAX_MEN];
                for b in (0..64).step_by(2) {
                    let p = w * 64 + b;
                    if p >= n {
                        break;
                    }
                    if self.squares(p, &mut all).is_none() {
                        continue;
                    }
                    for t in 0..2 {
                        let q = p + t;
                        if q < n
                            && (!check_test || legal(&all[..pieces.len()], pieces, MaterialIndex::turn(q)))
                        {
                            word |= 1 << (b + t);
                        }
                    }
                }
                word
            })
            .collect()
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

    /// The position with this index; `None` for holes and numbers past the end.
    #[must_use]
    pub fn decode(&self, index: usize) -> Option<Position> {
        let mut squares = [Square::A0; MAX_MEN];
        let turn = self.squares(index, &mut squares)?;
        Some(Position::from_parts(self.board(&squares[..self.slots.len()]), turn))
    }
}
