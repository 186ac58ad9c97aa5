//! Shared test helpers: a general exact segment routine and a naive reference engine.
#![allow(dead_code)]

use endgame_twixt::{Color, Point, Rules};

pub type P = (i64, i64);

fn orient(a: P, b: P, c: P) -> i64 {
    (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
}

fn on_segment(a: P, b: P, c: P) -> bool {
    orient(a, b, c) == 0
        && a.0.min(b.0) <= c.0
        && c.0 <= a.0.max(b.0)
        && a.1.min(b.1) <= c.1
        && c.1 <= a.1.max(b.1)
}

/// Whether the closed segments `a-b` and `c-d` have a common point other than an endpoint
/// they share. General: handles touching, collinear overlap, any lengths.
pub fn touch_other_than_shared_endpoint(a: P, b: P, c: P, d: P) -> bool {
    let shared: Vec<P> = [a, b].into_iter().filter(|p| *p == c || *p == d).collect();
    let (o1, o2, o3, o4) = (orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b));
    if o1 == 0 && o2 == 0 {
        // Collinear: project on the main axis and intersect the intervals.
        let key = |p: P| if a.0 != b.0 { p.0 } else { p.1 };
        let (lo1, hi1) = (key(a).min(key(b)), key(a).max(key(b)));
        let (lo2, hi2) = (key(c).min(key(d)), key(c).max(key(d)));
        let (lo, hi) = (lo1.max(lo2), hi1.min(hi2));
        if lo > hi {
            return false;
        }
        if lo < hi {
            return true;
        }
        // One common point: fine only if it is a shared endpoint.
        return !shared.iter().any(|p| key(*p) == lo);
    }
    let proper = (o1 > 0 && o2 < 0 || o1 < 0 && o2 > 0) && (o3 > 0 && o4 < 0 || o3 < 0 && o4 > 0);
    if proper {
        return true;
    }
    // Touching: an endpoint of one lies on the other; it must be a shared endpoint.
    for (p, s, t) in [(c, a, b), (d, a, b), (a, c, d), (b, c, d)] {
        if on_segment(s, t, p) && !shared.contains(&p) {
            return true;
        }
    }
    false
}

pub const KNIGHT: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

/// A deliberately simple Twixt engine: lists of pegs and links, every check by brute force.
pub struct Naive {
    pub n: i32,
    pub rules: Rules,
    pub pegs: Vec<(Point, Color)>,
    pub links: Vec<(Point, Point, Color)>,
}

impl Naive {
    pub fn new(n: i32, rules: Rules) -> Self {
        Naive { n, rules, pegs: Vec::new(), links: Vec::new() }
    }

    pub fn legal(&self, p: Point, c: Color) -> bool {
        let inside = (0..=self.n).contains(&p.x) && (0..=self.n).contains(&p.y);
        let forbidden = match c {
            Color::Black => p.y == 0 || p.y == self.n,
            Color::White => p.x == 0 || p.x == self.n,
        };
        inside && !forbidden && !self.pegs.iter().any(|&(q, _)| q == p)
    }

    /// Places a peg; returns the points it linked to, sorted.
    pub fn place(&mut self, p: Point, c: Color) -> Vec<Point> {
        let mut made = Vec::new();
        for &(q, qc) in &self.pegs {
            let (dx, dy) = (q.x - p.x, q.y - p.y);
            if qc != c || !KNIGHT.contains(&(dx, dy)) {
                continue;
            }
            let blocked = self.links.iter().any(|&(a, b, lc)| {
                (self.rules == Rules::Poj || lc != c)
                    && touch_other_than_shared_endpoint(
                        (p.x.into(), p.y.into()),
                        (q.x.into(), q.y.into()),
                        (a.x.into(), a.y.into()),
                        (b.x.into(), b.y.into()),
                    )
            });
            if !blocked {
                made.push(q);
            }
        }
        for &q in &made {
            self.links.push((p, q, c));
        }
        self.pegs.push((p, c));
        made.sort();
        made
    }

    /// Whether `c`'s links connect its endzones, by a search from scratch.
    pub fn connected(&self, c: Color) -> bool {
        let zone = |p: Point| match c {
            Color::Black => p.x,
            Color::White => p.y,
        };
        let mut seen: Vec<Point> =
            self.pegs.iter().filter(|&&(q, qc)| qc == c && zone(q) == 0).map(|&(q, _)| q).collect();
        let mut stack = seen.clone();
        while let Some(p) = stack.pop() {
            if zone(p) == self.n {
                return true;
            }
            for &(a, b, lc) in &self.links {
                if lc != c {
                    continue;
                }
                for (s, t) in [(a, b), (b, a)] {
                    if s == p && !seen.contains(&t) {
                        seen.push(t);
                        stack.push(t);
                    }
                }
            }
        }
        false
    }
}
