//! Move generation on bit sets, for table generation: the occupied points and Red's points as
//! two 90-bit sets ([`Bits`]), each piece kind's steps from every point in tables, and the
//! check test as one table look-up and a mask per piece. The same rules as the walk of
//! [`movegen`](super::movegen), against which the tests here hold them.

use crate::rules::color::Color;
use crate::rules::movegen::{DIAGONAL, HORSE, ORTHOGONAL, Sides, across_river, forward};
use crate::rules::piece::{Piece, Role};
use crate::rules::square::Square;

/// The occupied points and Red's points as two 90-bit sets: built from a few pieces in a few
/// instructions, for table generation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bits {
    occupied: u128,
    red: u128,
}

impl Bits {
    /// The sets of these pieces (`squares[i]` holds `pieces[i]`).
    #[inline]
    #[must_use]
    pub fn new(squares: &[Square], pieces: &[Piece]) -> Bits {
        let mut bits = Bits::default();
        for (&sq, &p) in squares.iter().zip(pieces) {
            let bit = sq.bit();
            bits.occupied |= bit;
            if p.color == Color::Red {
                bits.red |= bit;
            }
        }
        bits
    }
}

impl Bits {
    /// The occupied points.
    #[inline]
    #[must_use]
    pub const fn occupied(&self) -> u128 {
        self.occupied
    }
}

impl Sides for Bits {
    #[inline]
    fn side_at(&self, sq: Square) -> Option<Color> {
        let bit = sq.bit();
        if self.occupied & bit == 0 {
            None
        } else if self.red & bit != 0 {
            Some(Color::Red)
        } else {
            Some(Color::Black)
        }
    }

    #[inline]
    fn is_empty(&self, sq: Square) -> bool {
        self.occupied & sq.bit() == 0
    }
}

/// For every pair of points `(a, b)` (at `a * 90 + b`): the points strictly between them when
/// they share a file or a rank, else every point (so that no line attack is ever seen); and
/// the leg of a Horse on `a` jumping to `b`, or [`NO_LEG`].
struct Lines {
    between: Vec<u128>,
    horse_leg: Vec<u8>,
}

const NO_LEG: u8 = u8::MAX;

fn lines() -> &'static Lines {
    static LINES: std::sync::OnceLock<Lines> = std::sync::OnceLock::new();
    LINES.get_or_init(|| {
        let mut between = vec![u128::MAX; Square::COUNT * Square::COUNT];
        let mut horse_leg = vec![NO_LEG; Square::COUNT * Square::COUNT];
        for a in Square::all() {
            for (df, dr) in ORTHOGONAL {
                let mut mask = 0u128;
                let mut at = a.offset(df, dr);
                while let Some(b) = at {
                    between[a.index() * Square::COUNT + b.index()] = mask;
                    mask |= 1 << b.index();
                    at = b.offset(df, dr);
                }
            }
            for ((df, dr), (lf, lr)) in HORSE {
                if let (Some(b), Some(leg)) = (a.offset(df, dr), a.offset(lf, lr)) {
                    horse_leg[a.index() * Square::COUNT + b.index()] = leg.index() as u8;
                }
            }
        }
        Lines { between, horse_leg }
    })
}

/// The points strictly between `a` and `b` when they share a file or a rank, else every point.
#[inline]
#[must_use]
pub fn between(a: Square, b: Square) -> u128 {
    lines().between[a.index() * Square::COUNT + b.index()]
}

/// [`in_check_pieces`](super::movegen::in_check_pieces) with the occupied points given as a set (`occupied`, the pieces'
/// points, the skipped slot's point included when another piece stands on it): line attacks
/// are one table look-up and a mask each.
#[must_use]
pub fn in_check_bits(
    occupied: u128,
    squares: &[Square],
    pieces: &[Piece],
    general: Square,
    color: Color,
    skip: Option<usize>,
) -> bool {
    squares
        .iter()
        .zip(pieces)
        .enumerate()
        .any(|(i, (&sq, &p))| p.color != color && Some(i) != skip && attacks(occupied, sq, p, general))
}

/// Whether a placement is a legal position with `turn` to move: the side not to move is not in
/// check (attacked, or its General facing the other on an open file).
#[must_use]
pub fn legal(squares: &[Square], pieces: &[Piece], turn: Color) -> bool {
    let general = Piece { color: !turn, role: Role::General };
    let at = pieces.iter().position(|&p| p == general).map(|i| squares[i]);
    let occupied = squares.iter().fold(0u128, |m, s| m | 1 << s.index());
    at.is_some_and(|g| !in_check_bits(occupied, squares, pieces, g, !turn, None))
}

/// Whether the piece `p` on `sq` attacks the enemy General on `general` (`occupied`: the
/// occupied points): [`in_check_bits`] for one piece.
#[inline]
#[must_use]
pub fn attacks(occupied: u128, sq: Square, p: Piece, general: Square) -> bool {
    let lines = lines();
    let pair = sq.index() * Square::COUNT + general.index();
    match p.role {
        Role::General => sq.file() == general.file() && occupied & lines.between[pair] == 0,
        Role::Chariot => occupied & lines.between[pair] == 0,
        Role::Cannon => {
            // Exactly one screen (no `count_ones`: the baseline x86-64 has no popcount).
            let screens = occupied & lines.between[pair];
            screens != 0 && screens & (screens - 1) == 0
        }
        Role::Horse => {
            let leg = lines.horse_leg[pair];
            leg != NO_LEG && occupied & (1 << leg) == 0
        }
        Role::Soldier => {
            let (df, dr) = (
                general.file().index() as i8 - sq.file().index() as i8,
                general.rank().index() as i8 - sq.rank().index() as i8,
            );
            (df == 0 && dr == forward(p.color)) || (dr == 0 && df.abs() == 1 && across_river(sq, p.color))
        }
        Role::Advisor | Role::Elephant => false,
    }
}

/// Precomputed step sets of every piece kind on every point, for move and un-move generation
/// on [`Bits`] by masks instead of walking the board point by point.
struct Steps {
    /// Per point and direction (in [`ORTHOGONAL`]'s order): the points beyond it on that line.
    rays: Vec<[u128; 4]>,
    /// Per colour and point: a General's steps inside its palace.
    general: [Vec<u128>; 2],
    /// Per colour and point: an Advisor's steps inside its palace.
    advisor: [Vec<u128>; 2],
    /// Per colour and point: an Elephant's jumps on its side of the river, each with its eye
    /// (`(0, 0)` where there is none).
    elephant: [Vec<[(u128, u128); 4]>; 2],
    /// Per point: a Horse's four legs, each with the two points it opens (`(0, 0)` off the
    /// board).
    horse: Vec<[(u128, u128); 4]>,
    /// Per point: the eight points a Horse may come from, each with its leg (next to the origin).
    horse_origins: Vec<[(u128, u128); 8]>,
    /// Per colour and point: a Soldier's steps.
    soldier: [Vec<u128>; 2],
    /// Per colour and point: the points a Soldier may have stepped from.
    soldier_origins: [Vec<u128>; 2],
}

fn steps() -> &'static Steps {
    static STEPS: std::sync::OnceLock<Steps> = std::sync::OnceLock::new();
    STEPS.get_or_init(|| {
        let bit = |sq: Option<Square>| sq.map_or(0u128, |s| 1u128 << s.index());
        let per_point = |f: &dyn Fn(Square) -> u128| Square::all().map(f).collect::<Vec<_>>();
        let colors = [Color::Red, Color::Black];
        let rays = Square::all()
            .map(|a| {
                ORTHOGONAL.map(|(df, dr)| {
                    let (mut mask, mut at) = (0u128, a.offset(df, dr));
                    while let Some(b) = at {
                        mask |= 1 << b.index();
                        at = b.offset(df, dr);
                    }
                    mask
                })
            })
            .collect();
        let palace = |dirs: [(i8, i8); 4], color: Color| {
            per_point(&|a| {
                dirs.iter().map(|&(df, dr)| bit(a.offset(df, dr).filter(|s| s.in_palace(color)))).sum()
            })
        };
        let elephant = colors.map(|color| {
            Square::all()
                .map(|a| {
                    DIAGONAL.map(|(df, dr)| {
                        match a.offset(2 * df, 2 * dr).filter(|&to| !across_river(to, color)) {
                            Some(to) => (bit(a.offset(df, dr)), bit(Some(to))),
                            None => (0, 0),
                        }
                    })
                })
                .collect()
        });
        let horse = Square::all()
            .map(|a| {
                ORTHOGONAL.map(|(lf, lr)| {
                    let Some(leg) = a.offset(lf, lr) else { return (0, 0) };
                    let targets = HORSE
                        .iter()
                        .filter(|&&(_, l)| l == (lf, lr))
                        .map(|&((df, dr), _)| bit(a.offset(df, dr)))
                        .fold(0, |m, b| m | b);
                    (1u128 << leg.index(), targets)
                })
            })
            .collect();
        let horse_origins = Square::all()
            .map(|to| {
                HORSE.map(|((df, dr), (lf, lr))| match to.offset(-df, -dr) {
                    Some(from) => (bit(Some(from)), bit(from.offset(lf, lr))),
                    None => (0, 0),
                })
            })
            .collect();
        let soldier = colors.map(|color| {
            per_point(&|a| {
                let mut m = bit(a.offset(0, forward(color)));
                if across_river(a, color) {
                    m |= bit(a.offset(1, 0)) | bit(a.offset(-1, 0));
                }
                m
            })
        });
        let soldier_origins = colors.map(|color| {
            per_point(&|to| {
                let piece = Piece { color, role: Role::Soldier };
                let mut m = bit(to.offset(0, -forward(color)).filter(|s| piece.may_stand_on(*s)));
                if across_river(to, color) {
                    m |= bit(to.offset(1, 0)) | bit(to.offset(-1, 0));
                }
                m
            })
        });
        Steps {
            rays,
            general: colors.map(|c| palace(ORTHOGONAL, c)),
            advisor: colors.map(|c| palace(DIAGONAL, c)),
            elephant,
            horse,
            horse_origins,
            soldier,
            soldier_origins,
        }
    })
}

/// The nearest point of `blockers` (not empty) on the ray of direction `dir` (in
/// [`ORTHOGONAL`]'s order: up and right go to higher point numbers).
#[inline]
fn nearest(blockers: u128, dir: usize) -> usize {
    if dir.is_multiple_of(2) {
        blockers.trailing_zeros() as usize
    } else {
        127 - blockers.leading_zeros() as usize
    }
}

/// The points the piece on `from` may move to by its own rule (empty points and enemy pieces),
/// ignoring what the move does to its own General: [`for_each_target`](super::movegen::for_each_target) as a set.
#[inline]
#[must_use]
pub fn targets(bits: &Bits, from: Square, piece: Piece) -> u128 {
    let steps = steps();
    let occupied = bits.occupied;
    let own = if piece.color == Color::Red { bits.red } else { occupied & !bits.red };
    let (c, a) = (piece.color.index(), from.index());
    let reach = match piece.role {
        Role::General => steps.general[c][a],
        Role::Advisor => steps.advisor[c][a],
        Role::Elephant => {
            steps.elephant[c][a].iter().filter(|&&(eye, _)| occupied & eye == 0).fold(0, |m, &(_, to)| m | to)
        }
        Role::Horse => {
            steps.horse[a].iter().filter(|&&(leg, _)| occupied & leg == 0).fold(0, |m, &(_, to)| m | to)
        }
        Role::Chariot => {
            let mut m = 0;
            for (dir, &ray) in steps.rays[a].iter().enumerate() {
                let blockers = ray & occupied;
                m |= if blockers == 0 { ray } else { ray & !steps.rays[nearest(blockers, dir)][dir] };
            }
            m
        }
        Role::Cannon => {
            let mut m = 0;
            for (dir, &ray) in steps.rays[a].iter().enumerate() {
                let blockers = ray & occupied;
                if blockers == 0 {
                    m |= ray;
                    continue;
                }
                let screen = nearest(blockers, dir);
                m |= ray & !steps.rays[screen][dir] & !(1 << screen);
                let beyond = steps.rays[screen][dir] & occupied;
                if beyond != 0 {
                    m |= 1 << nearest(beyond, dir);
                }
            }
            m
        }
        Role::Soldier => steps.soldier[c][a],
    };
    reach & !own
}

/// The empty points from which the piece now on `to` could have come by a move without a
/// capture: [`for_each_origin`](super::movegen::for_each_origin) as a set.
#[inline]
#[must_use]
pub fn origins(bits: &Bits, to: Square, piece: Piece) -> u128 {
    let steps = steps();
    let occupied = bits.occupied;
    let (c, a) = (piece.color.index(), to.index());
    let reach = match piece.role {
        Role::General => steps.general[c][a],
        Role::Advisor => steps.advisor[c][a],
        Role::Elephant => steps.elephant[c][a]
            .iter()
            .filter(|&&(eye, _)| occupied & eye == 0)
            .fold(0, |m, &(_, from)| m | from),
        Role::Horse => steps.horse_origins[a]
            .iter()
            .filter(|&&(_, leg)| occupied & leg == 0)
            .fold(0, |m, &(from, _)| m | from),
        Role::Chariot | Role::Cannon => {
            let mut m = 0;
            for (dir, &ray) in steps.rays[a].iter().enumerate() {
                let blockers = ray & occupied;
                m |= if blockers == 0 { ray } else { ray & !steps.rays[nearest(blockers, dir)][dir] };
            }
            m
        }
        Role::Soldier => steps.soldier_origins[c][a],
    };
    reach & !occupied
}

/// Calls `f` with every point of the set `set`, in increasing order.
#[inline]
pub fn for_each_point(mut set: u128, mut f: impl FnMut(Square)) {
    while set != 0 {
        let i = set.trailing_zeros() as usize;
        set &= set - 1;
        f(Square::from_index(i).expect("a point of the board"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::movegen::{for_each_origin, for_each_target, in_check_pieces};

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]

        /// The sets of targets and origins from the step tables against the point-by-point
        /// walks of `for_each_target` and `for_each_origin`, for every piece kind and colour
        /// on random boards (the first point holds the piece).
        #[test]
        fn step_tables_agree_with_walking(
            points in proptest::collection::vec((0..Square::COUNT, proptest::bool::ANY), 1..10),
            role in 0..7usize,
        ) {
            let roles = [
                Role::General, Role::Advisor, Role::Elephant, Role::Horse, Role::Chariot,
                Role::Cannon, Role::Soldier,
            ];
            let mut bits = Bits::default();
            for &(i, red) in &points {
                let b = 1u128 << i;
                if bits.occupied & b == 0 {
                    bits.occupied |= b;
                    if red {
                        bits.red |= b;
                    }
                }
            }
            let at = Square::from_index(points[0].0).unwrap();
            let color = if points[0].1 { Color::Red } else { Color::Black };
            let piece = Piece { color, role: roles[role] };
            let mut walked = 0u128;
            for_each_target(&bits, at, piece, |to| walked |= 1 << to.index());
            proptest::prop_assert_eq!(targets(&bits, at, piece), walked, "targets of {:?} on {}", piece, at);
            let mut walked = 0u128;
            for_each_origin(&bits, at, piece, |from| walked |= 1 << from.index());
            proptest::prop_assert_eq!(origins(&bits, at, piece), walked, "origins of {:?} on {}", piece, at);
            let mut listed = 0u128;
            for_each_point(walked, |sq| listed |= 1 << sq.index());
            proptest::prop_assert_eq!(listed, walked);
        }
    }

    /// The table-driven check test against the plain one on random placements.
    #[test]
    fn in_check_bits_agrees_with_in_check_pieces() {
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut below = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let kinds = [Role::Chariot, Role::Cannon, Role::Horse, Role::Soldier, Role::Advisor, Role::General];
        let mut checks = 0;
        for _ in 0..200_000 {
            let n = 2 + below(5) as usize;
            let mut squares = Vec::new();
            let mut pieces = Vec::new();
            while squares.len() < n {
                let sq = Square::from_index(below(90) as usize).unwrap();
                if squares.contains(&sq) {
                    continue;
                }
                let color = if below(2) == 0 { Color::Red } else { Color::Black };
                let role = if squares.is_empty() { Role::General } else { kinds[below(6) as usize] };
                squares.push(sq);
                pieces.push(Piece { color, role });
            }
            let skip = if below(3) == 0 { Some(1 + below(n as u64 - 1) as usize) } else { None };
            // A skipped piece (just captured) leaves its point empty here.
            let occupied =
                (0..n).filter(|&i| Some(i) != skip).fold(0u128, |m, i| m | 1 << squares[i].index());
            let expected = in_check_pieces(&squares, &pieces, squares[0], pieces[0].color, skip);
            checks += usize::from(expected);
            assert_eq!(
                in_check_bits(occupied, &squares, &pieces, squares[0], pieces[0].color, skip),
                expected,
                "{squares:?} {pieces:?} skip {skip:?}"
            );
        }
        assert!(checks > 10_000, "only {checks} checks");
    }
}
