//! Random legal games, for benchmarks and tests: [`random_game`].

use crate::geometry::{Dir, Point};
use crate::position::Position;
use crate::rules::{Config, Move};

/// A small xorshift generator: deterministic, no dependencies.
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator from a seed (any value).
    #[must_use]
    pub fn new(seed: u64) -> Self {
        XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// A random legal game of `moves` placements on a board with points `0..=n`, with no win
/// before the last move (the last move may win). Half of the moves go a knight's move from
/// the mover's previous peg, so there are chains, links and refused links; the rest are
/// uniform. Returns `None` if the board fills up first.
#[must_use]
pub fn random_game(n: i64, moves: usize, config: Config, seed: u64) -> Option<Vec<Point>> {
    let mut game = Position::with_capacity(n, config, moves).ok()?;
    let mut rng = XorShift::new(seed);
    let side = u64::try_from(n).ok()? + 1;
    let mut last = [None::<Point>; 2];
    let mut points = Vec::with_capacity(moves);
    while points.len() < moves {
        let color = game.to_move();
        let who = points.len() % 2;
        let mut chosen = None;
        for attempt in 0..1000 {
            let p = match last[who] {
                Some(prev) if attempt < 4 && rng.below(2) == 0 => {
                    prev.step(Dir::from_index(rng.below(8) as usize))
                }
                _ => Point::new(rng.below(side) as i32, rng.below(side) as i32),
            };
            let is_last = points.len() + 1 == moves;
            if game.check_place(p, color).is_ok() && (is_last || !game.would_win(p, color)) {
                chosen = Some(p);
                break;
            }
        }
        let p = chosen?;
        game.play(Move::Place(p)).ok()?;
        last[who] = Some(p);
        points.push(p);
    }
    Some(points)
}

/// The game in the judge's format: `N M`, the pairs ten to a line, then `0 0`.
#[must_use]
pub fn judge_text(n: i64, points: &[Point]) -> String {
    let mut out = String::with_capacity(points.len() * 10 + 32);
    out.push_str(&format!("{n} {}\n", points.len()));
    for chunk in points.chunks(10) {
        let pairs: Vec<String> = chunk.iter().map(|p| format!("{} {}", p.x, p.y)).collect();
        out.push_str(&pairs.join(" "));
        out.push('\n');
    }
    out.push_str("0 0\n");
    out
}

/// The fixed hash the peg map used before it had a grid and a key (kept to craft the records
/// that would have flooded it): the point `(x, y)` as the word `x << 32 ^ y` (each as `u32`),
/// then a multiply-xorshift finish.
#[must_use]
pub fn old_point_hash(p: Point) -> u64 {
    let s = u64::from(p.x as u32) << 32 ^ u64::from(p.y as u32);
    let h = (s ^ (s >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^ (h >> 32)
}

/// `count` distinct points of the board `0..=n` off both sides' endzones whose
/// [`old_point_hash`] agree in their low 24 bits and their top 7: all in one bucket of any
/// table of up to 2²⁴ buckets indexed by the low bits, with one tag (the top 7 bits, which a
/// SwissTable such as std's `HashMap` compares first), as a hostile record would choose them.
/// Found by inverting the hash (every step is a bijection on 64-bit words), so `n` must be
/// large (about 2³⁰: a point needs both coordinates under `n`, one inverse in 16 on the
/// largest board). Deterministic in `seed`.
#[must_use]
pub fn colliding_points(n: i32, count: usize, seed: u64) -> Vec<Point> {
    // The inverse of the odd multiplier modulo 2⁶⁴ (Newton's iteration).
    const C: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut inverse: u64 = 1;
    for _ in 0..6 {
        inverse = inverse.wrapping_mul(2u64.wrapping_sub(C.wrapping_mul(inverse)));
    }
    let mut rng = XorShift::new(seed);
    let mut seen = std::collections::HashSet::new();
    let mut points = Vec::with_capacity(count);
    while points.len() < count {
        // 33 free bits between the low 24 and the top 7, which stay 0.
        let h = (rng.next_u64() >> 31) << 24;
        let h1 = h ^ (h >> 32);
        let a = h1.wrapping_mul(inverse);
        let s = a ^ (a >> 29) ^ (a >> 58);
        let (x, y) = ((s >> 32) as i64, (s & 0xffff_ffff) as i64);
        if (1..i64::from(n)).contains(&x) && (1..i64::from(n)).contains(&y) {
            let p = Point::new(x as i32, y as i32);
            debug_assert_eq!(old_point_hash(p) & (0xff_ffff | 0x7f << 57), 0);
            if seen.insert(p) {
                points.push(p);
            }
        }
    }
    points
}
