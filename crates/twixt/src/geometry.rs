//! Points and the board sizes they live on, knight directions, and which knight links can
//! cross a given one.
//!
//! Two knight segments either share an endpoint, cross at one interior point, or do not meet:
//! a knight segment has no lattice point inside it, so one segment cannot end inside another,
//! and two different knight segments cannot overlap. "Touches except at a shared endpoint"
//! therefore reduces to a proper crossing, decided exactly with integer orientation signs.
//!
//! [`blockers`] lists, for each of the 8 directions, the knight segments that cross a link from
//! the origin in that direction. The table is computed once, at compile time, by running the
//! crossing test over every knight segment in a window around the link (there are 9 per
//! direction); nothing is written by hand.

use std::fmt;

/// The smallest board: points `0..=3`.
pub const MIN_N: i32 = 3;
/// The largest board; coordinates stay far from `i32` overflow.
pub const MAX_N: i32 = 1 << 30;

/// A point of the board: `0 <= x, y <= N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Point {
    /// Column (Black's endzones are `x = 0` and `x = N`).
    pub x: i32,
    /// Row (White's endzones are `y = 0` and `y = N`).
    pub y: i32,
}

impl Point {
    /// The point `(x, y)`.
    #[must_use]
    pub const fn new(x: i32, y: i32) -> Self {
        Point { x, y }
    }

    /// The point one knight's move away in direction `d`.
    #[must_use]
    pub const fn step(self, d: Dir) -> Point {
        let (dx, dy) = d.delta();
        Point { x: self.x + dx, y: self.y + dy }
    }

    /// The point moved by `(dx, dy)`.
    #[must_use]
    pub const fn offset(self, dx: i32, dy: i32) -> Point {
        Point { x: self.x + dx, y: self.y + dy }
    }

    /// The point mirrored across the diagonal: `(y, x)`.
    #[must_use]
    pub const fn transposed(self) -> Point {
        Point { x: self.y, y: self.x }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// The 8 knight steps, counter-clockwise from (1, 2); `DELTAS[d + 4]` is the opposite of `DELTAS[d]`.
const DELTAS: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

/// One of the 8 knight directions. Directions `0..4` step to a larger `x`; a link is stored at
/// its endpoint with the smaller `x`, in one of those 4 directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dir(u8);

impl Dir {
    /// All 8 directions.
    pub const ALL: [Dir; 8] = [Dir(0), Dir(1), Dir(2), Dir(3), Dir(4), Dir(5), Dir(6), Dir(7)];

    /// The direction with this index (`0..8`).
    ///
    /// # Panics
    /// If `index >= 8`.
    #[must_use]
    pub const fn from_index(index: usize) -> Dir {
        assert!(index < 8);
        Dir(index as u8)
    }

    /// The index, `0..8`.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The step `(dx, dy)`.
    #[must_use]
    pub const fn delta(self) -> (i32, i32) {
        DELTAS[self.0 as usize]
    }

    /// The opposite direction.
    #[must_use]
    pub const fn opposite(self) -> Dir {
        Dir((self.0 + 4) % 8)
    }

    /// The direction of the step `(dx, dy)`, if it is a knight's move.
    #[must_use]
    pub fn of_delta(dx: i32, dy: i32) -> Option<Dir> {
        DELTAS.iter().position(|&d| d == (dx, dy)).map(|i| Dir(i as u8))
    }
}

/// Twice the signed area of the triangle `a b c` (positive when counter-clockwise).
#[must_use]
pub const fn orient(a: (i64, i64), b: (i64, i64), c: (i64, i64)) -> i64 {
    (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
}

/// Whether the segments `a-b` and `c-d` cross properly: they meet in exactly one point that is
/// interior to both. For knight segments this is exactly "they touch other than at a shared
/// endpoint" (see the module docs; the tests check it against a general routine).
#[must_use]
pub const fn cross(a: (i64, i64), b: (i64, i64), c: (i64, i64), d: (i64, i64)) -> bool {
    let o1 = orient(a, b, c).signum();
    let o2 = orient(a, b, d).signum();
    let o3 = orient(c, d, a).signum();
    let o4 = orient(c, d, b).signum();
    o1 * o2 < 0 && o3 * o4 < 0
}

/// A knight segment relative to a link's first endpoint: from `offset` in direction `dir`
/// (`dir.index() < 4`, the canonical direction of a stored link).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blocker {
    /// The segment's endpoint with the smaller `x`, relative to the link's first endpoint.
    pub offset: (i32, i32),
    /// Its direction from that endpoint, one of the 4 canonical directions.
    pub dir: Dir,
}

/// How far around a link the derivation looks. A crossing segment meets the link's bounding box
/// (2 by 1), so each of its endpoints is within 2 + 2 of the link's first endpoint; the tests
/// confirm that a wider window finds nothing more.
const WINDOW: i32 = 4;
/// Room for the blockers of one direction (the derivation finds 9; a const assert checks the room).
const MAX_BLOCKERS: usize = 16;

struct Table {
    blockers: [[Blocker; MAX_BLOCKERS]; 8],
    counts: [usize; 8],
}

const fn derive() -> Table {
    let empty = Blocker { offset: (0, 0), dir: Dir(0) };
    let mut table = Table { blockers: [[empty; MAX_BLOCKERS]; 8], counts: [0; 8] };
    let mut d = 0;
    while d < 8 {
        let (bx, by) = DELTAS[d];
        let mut ox = -WINDOW;
        while ox <= WINDOW {
            let mut oy = -WINDOW;
            while oy <= WINDOW {
                let mut e = 0;
                while e < 4 {
                    let (ex, ey) = DELTAS[e];
                    let c = (ox as i64, oy as i64);
                    let dd = ((ox + ex) as i64, (oy + ey) as i64);
                    if cross((0, 0), (bx as i64, by as i64), c, dd) {
                        let n = table.counts[d];
                        assert!(n < MAX_BLOCKERS, "more crossing segments than room");
                        table.blockers[d][n] = Blocker { offset: (ox, oy), dir: Dir(e as u8) };
                        table.counts[d] = n + 1;
                    }
                    e += 1;
                }
                oy += 1;
            }
            ox += 1;
        }
        d += 1;
    }
    table
}

static TABLE: Table = derive();

/// The knight segments that cross a link from the origin in direction `d`.
#[must_use]
pub fn blockers(d: Dir) -> &'static [Blocker] {
    &TABLE.blockers[d.index()][..TABLE.counts[d.index()]]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nine_blockers_per_direction_and_symmetric() {
        for d in Dir::ALL {
            assert_eq!(blockers(d).len(), 9, "direction {d:?}");
            // A link crosses the same segments seen from its other end.
            let (dx, dy) = d.delta();
            let mut from_far: Vec<_> =
                blockers(d.opposite()).iter().map(|b| (b.offset.0 + dx, b.offset.1 + dy, b.dir)).collect();
            let mut here: Vec<_> = blockers(d).iter().map(|b| (b.offset.0, b.offset.1, b.dir)).collect();
            from_far.sort_by_key(|&(x, y, e)| (x, y, e.index()));
            here.sort_by_key(|&(x, y, e)| (x, y, e.index()));
            assert_eq!(here, from_far);
        }
    }

    #[test]
    fn directions() {
        for d in Dir::ALL {
            let (dx, dy) = d.delta();
            assert_eq!(Dir::of_delta(dx, dy), Some(d));
            assert_eq!(d.opposite().delta(), (-dx, -dy));
            assert_eq!(d.index() < 4, dx > 0);
        }
        assert_eq!(Dir::of_delta(1, 1), None);
    }
}
