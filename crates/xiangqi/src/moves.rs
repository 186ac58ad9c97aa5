//! Moves in ICCS coordinates (`h2e2`: from-point, to-point) and their generation.
//!
//! Each piece kind has its own rule (its pseudo-legal moves); a rule set decides which of them
//! are legal. Under [`Rules::Hdu`] every such move is legal (moving into danger simply loses),
//! and a General facing the other on an open file may capture it (the flying general). Under
//! [`Rules::Standard`] a move is legal when afterwards the mover's General is not attacked and
//! the two Generals do not face each other on an open file.
//!
//! - General: one step up, down, left or right, staying in its palace.
//! - Advisor: one step diagonally, staying in its palace.
//! - Elephant: two steps diagonally, not across the river; blocked by a piece on the point
//!   between (the eye).
//! - Horse: two points in one orthogonal direction and one to the side; blocked when the point
//!   one step from the Horse in the long direction (its leg) is occupied by any piece.
//! - Chariot: any distance orthogonally over empty points.
//! - Cannon: moves like the Chariot; captures only by jumping over exactly one piece of either
//!   side (the screen) along its line.
//! - Soldier: one step forward; once across the river also one step sideways.
//! - Nobody moves onto a piece of its own side; moving onto an enemy piece captures it.
//!
//! Un-moves (for retrograde analysis) are the same rules backwards, without captures.

use std::fmt;
use std::str::FromStr;

use crate::board::Board;
use crate::piece::{Color, Piece, Role};
use crate::rules::Rules;
use crate::square::{ParseSquareError, Square};

/// A move: the piece on `from` goes to `to`, capturing what stands there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the piece stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
}

impl fmt::Display for Move {
    /// ICCS coordinates, e.g. `h2e2` (also the UCI form engines such as Pikafish use).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// Text that is not a move in ICCS coordinates.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a move in ICCS coordinates (from-point, to-point, like h2e2), found {0:?}")]
pub struct ParseMoveError(pub String);

impl FromStr for Move {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let bad = || ParseMoveError(s.chars().take(40).collect());
        let (from, to) = s.split_at_checked(2).ok_or_else(bad)?;
        let point = |p: &str| p.parse::<Square>().map_err(|_: ParseSquareError| bad());
        Ok(Move { from: point(from)?, to: point(to)? })
    }
}

const ORTHOGONAL: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Horse jumps `(files, ranks)` with the leg `(files, ranks)` one step in the long direction.
const HORSE: [((i8, i8), (i8, i8)); 8] = [
    ((1, 2), (0, 1)),
    ((-1, 2), (0, 1)),
    ((1, -2), (0, -1)),
    ((-1, -2), (0, -1)),
    ((2, 1), (1, 0)),
    ((2, -1), (1, 0)),
    ((-2, 1), (-1, 0)),
    ((-2, -1), (-1, 0)),
];

/// What move generation needs to know of the board: the piece on a point.
pub trait Occupancy: Sides {
    /// The piece on `sq`, if any.
    fn piece_at(&self, sq: Square) -> Option<Piece>;
}

impl Occupancy for Board {
    #[inline]
    fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.get(sq)
    }
}

/// A board with one move made on it, without copying it.
struct After<'a, O> {
    board: &'a O,
    mv: Move,
    piece: Piece,
}

impl<O: Occupancy> Occupancy for After<'_, O> {
    #[inline]
    fn piece_at(&self, sq: Square) -> Option<Piece> {
        if sq == self.mv.to {
            Some(self.piece)
        } else if sq == self.mv.from {
            None
        } else {
            self.board.piece_at(sq)
        }
    }
}

/// What the move rules of the pieces need to know of the board: which points are occupied,
/// and by which side. Every [`Occupancy`] knows it; [`Bits`] knows only that, cheaply.
pub trait Sides {
    /// The side of the piece on `sq`, if any.
    fn side_at(&self, sq: Square) -> Option<Color>;

    /// Whether `sq` is empty.
    #[inline]
    fn is_empty(&self, sq: Square) -> bool {
        self.side_at(sq).is_none()
    }
}

impl Sides for Board {
    #[inline]
    fn side_at(&self, sq: Square) -> Option<Color> {
        self.get(sq).map(|p| p.color)
    }
}

impl<O: Occupancy> Sides for After<'_, O> {
    fn side_at(&self, sq: Square) -> Option<Color> {
        self.piece_at(sq).map(|p| p.color)
    }
}

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

fn own(board: &impl Sides, sq: Square, color: Color) -> bool {
    board.side_at(sq) == Some(color)
}

/// The direction a Soldier of `color` moves forward, in ranks.
const fn forward(color: Color) -> i8 {
    match color {
        Color::Red => 1,
        Color::Black => -1,
    }
}

/// Whether `sq` lies across the river for `color` (in the other side's half).
pub(crate) const fn across_river(sq: Square, color: Color) -> bool {
    match color {
        Color::Red => sq.rank().index() >= 5,
        Color::Black => sq.rank().index() <= 4,
    }
}

/// Calls `f` with every point the piece on `from` may move to by its own rule (empty points and
/// enemy pieces), ignoring what the move does to its own General.
#[inline]
pub fn for_each_target(board: &impl Sides, from: Square, piece: Piece, mut f: impl FnMut(Square)) {
    let color = piece.color;
    let step = |to: Option<Square>, f: &mut dyn FnMut(Square)| {
        if let Some(to) = to.filter(|&to| !own(board, to, color)) {
            f(to);
        }
    };
    match piece.role {
        Role::General => {
            for (df, dr) in ORTHOGONAL {
                step(from.offset(df, dr).filter(|to| to.in_palace(color)), &mut f);
            }
        }
        Role::Advisor => {
            for (df, dr) in DIAGONAL {
                step(from.offset(df, dr).filter(|to| to.in_palace(color)), &mut f);
            }
        }
        Role::Elephant => {
            for (df, dr) in DIAGONAL {
                let Some(to) = from.offset(2 * df, 2 * dr).filter(|&to| !across_river(to, color)) else {
                    continue;
                };
                if board.is_empty(from.offset(df, dr).expect("the eye lies between")) {
                    step(Some(to), &mut f);
                }
            }
        }
        Role::Horse => {
            for ((df, dr), (lf, lr)) in HORSE {
                let (Some(to), Some(leg)) = (from.offset(df, dr), from.offset(lf, lr)) else { continue };
                if board.is_empty(leg) {
                    step(Some(to), &mut f);
                }
            }
        }
        Role::Chariot | Role::Cannon => {
            let cannon = piece.role == Role::Cannon;
            for (df, dr) in ORTHOGONAL {
                let mut at = from.offset(df, dr);
                let mut screened = false;
                while let Some(sq) = at {
                    match board.side_at(sq) {
                        None if !screened => f(sq),
                        None => {}
                        Some(side) if !cannon => {
                            if side != color {
                                f(sq);
                            }
                            break;
                        }
                        Some(_) if !screened => screened = true,
                        Some(side) => {
                            if side != color {
                                f(sq);
                            }
                            break;
                        }
                    }
                    at = sq.offset(df, dr);
                }
            }
        }
        Role::Soldier => {
            step(from.offset(0, forward(color)), &mut f);
            if across_river(from, color) {
                step(from.offset(1, 0), &mut f);
                step(from.offset(-1, 0), &mut f);
            }
        }
    }
}

/// Calls `f` with every empty point from which the piece now on `to` could have come by a move
/// without a capture (the un-moves of that piece).
#[inline]
pub fn for_each_origin(board: &impl Sides, to: Square, piece: Piece, mut f: impl FnMut(Square)) {
    let color = piece.color;
    let empty = |sq: &Square| board.is_empty(*sq);
    match piece.role {
        Role::General | Role::Advisor => {
            let dirs = if piece.role == Role::General { ORTHOGONAL } else { DIAGONAL };
            for (df, dr) in dirs {
                if let Some(from) = to.offset(df, dr).filter(|s| s.in_palace(color) && empty(s)) {
                    f(from);
                }
            }
        }
        Role::Elephant => {
            for (df, dr) in DIAGONAL {
                let Some(from) = to.offset(2 * df, 2 * dr).filter(|&s| !across_river(s, color)) else {
                    continue;
                };
                if empty(&from) && empty(&to.offset(df, dr).expect("the eye lies between")) {
                    f(from);
                }
            }
        }
        Role::Horse => {
            for ((df, dr), (lf, lr)) in HORSE {
                let Some(from) = to.offset(-df, -dr) else { continue };
                let leg = from.offset(lf, lr).expect("the leg lies between the two points");
                if empty(&from) && empty(&leg) {
                    f(from);
                }
            }
        }
        Role::Chariot | Role::Cannon => {
            for (df, dr) in ORTHOGONAL {
                let mut at = to.offset(df, dr);
                while let Some(sq) = at.filter(empty) {
                    f(sq);
                    at = sq.offset(df, dr);
                }
            }
        }
        Role::Soldier => {
            if let Some(from) = to.offset(0, -forward(color)).filter(|s| piece.may_stand_on(*s) && empty(s)) {
                f(from);
            }
            if across_river(to, color) {
                for df in [1, -1] {
                    if let Some(from) = to.offset(df, 0).filter(empty) {
                        f(from);
                    }
                }
            }
        }
    }
}

/// The other General's point when it faces the General on `from` along a file with no piece
/// between them.
#[must_use]
pub fn facing_general(board: &impl Occupancy, from: Square) -> Option<Square> {
    let me = board.piece_at(from).filter(|p| p.role == Role::General)?;
    let up = if me.color == Color::Red { 1 } else { -1 };
    let mut sq = from.offset(0, up);
    while let Some(s) = sq {
        match board.piece_at(s) {
            None => sq = s.offset(0, up),
            Some(p) if p == (Piece { color: !me.color, role: Role::General }) => return Some(s),
            Some(_) => return None,
        }
    }
    None
}

/// Whether a piece of `by` other than its General attacks `sq`, a point of the other side's
/// palace: could capture a piece standing there by its own rule. (Advisors and Elephants never
/// reach the other side's palace, so only Horses, Chariots, Cannons and Soldiers are looked at:
/// right for palace points only, hence private; [`in_check`] is the public question.)
fn attacked(board: &impl Occupancy, sq: Square, by: Color) -> bool {
    let is = |at: Option<Square>, role: Role| {
        at.and_then(|s| board.piece_at(s)).is_some_and(|p| p == Piece { color: by, role })
    };
    for (df, dr) in ORTHOGONAL {
        let mut at = sq.offset(df, dr);
        let mut screened = false;
        while let Some(s) = at {
            if let Some(p) = board.piece_at(s) {
                if p.color == by && p.role == if screened { Role::Cannon } else { Role::Chariot } {
                    return true;
                }
                if screened {
                    break;
                }
                screened = true;
            }
            at = s.offset(df, dr);
        }
    }
    for ((df, dr), (lf, lr)) in HORSE {
        let Some(horse) = sq.offset(-df, -dr) else { continue };
        if is(Some(horse), Role::Horse) && board.piece_at(horse.offset(lf, lr).expect("leg")).is_none() {
            return true;
        }
    }
    if is(sq.offset(0, -forward(by)), Role::Soldier) {
        return true;
    }
    across_river(sq, by) && (is(sq.offset(1, 0), Role::Soldier) || is(sq.offset(-1, 0), Role::Soldier))
}

/// Whether the General of `color`, on `general`, is in check: attacked by an enemy piece, or
/// facing the other General on an open file.
#[must_use]
pub fn in_check(board: &impl Occupancy, general: Square, color: Color) -> bool {
    attacked(board, general, !color) || facing_general(board, general).is_some()
}

/// Whether the move `mv` of `piece` leaves its own General (on `general` before the move) out
/// of check: not attacked and not facing the other General. `checked` says whether that General
/// is in check before the move; when it is not, only a move of the General itself, or of a
/// piece from or to a point on the General's file or rank or diagonally next to it (a Horse's
/// leg), can put it in check, and only those are looked at closely.
#[inline]
pub fn is_safe_move(board: &impl Occupancy, mv: Move, piece: Piece, general: Square, checked: bool) -> bool {
    let is_general = piece.role == Role::General;
    if !checked && !is_general {
        let (gf, gr) = (general.file().index(), general.rank().index());
        let near = |sq: Square| {
            let (f, r) = (sq.file().index(), sq.rank().index());
            f == gf || r == gr || (f.abs_diff(gf) == 1 && r.abs_diff(gr) == 1)
        };
        if !near(mv.from) && !near(mv.to) {
            return true;
        }
    }
    let king = if is_general { mv.to } else { general };
    !in_check(&After { board, mv, piece }, king, piece.color)
}

/// Every legal move of `color` on `board` under `rules`, piece by piece from `a0`.
pub fn generate(board: &Board, color: Color, rules: Rules, out: &mut Vec<Move>) {
    generate_for(board, board.pieces(), color, rules, out);
}

/// Every legal move of `color`'s pieces among `pieces` (the pieces on `board`, in any order),
/// piece by piece.
pub fn generate_for(
    board: &impl Occupancy,
    pieces: impl IntoIterator<Item = (Square, Piece)> + Clone,
    color: Color,
    rules: Rules,
    out: &mut Vec<Move>,
) {
    let general = pieces
        .clone()
        .into_iter()
        .find(|&(_, p)| p == Piece { color, role: Role::General })
        .map(|(sq, _)| sq);
    for (from, piece) in pieces.into_iter().filter(|(_, p)| p.color == color) {
        match rules {
            Rules::Hdu => {
                for_each_target(board, from, piece, |to| out.push(Move { from, to }));
                if piece.role == Role::General
                    && let Some(to) = facing_general(board, from)
                {
                    out.push(Move { from, to });
                }
            }
            Rules::Standard | Rules::PerpetualCheck | Rules::CheckAndChase => {
                let Some(general) = general else { return };
                let checked = in_check(board, general, color);
                for_each_target(board, from, piece, |to| {
                    let mv = Move { from, to };
                    if is_safe_move(board, mv, piece, general, checked) {
                        out.push(mv);
                    }
                });
            }
        }
    }
}

/// Whether the General of `color`, on `general`, is in check in a position given as a list of
/// pieces (`squares[i]` holds `pieces[i]`; the slot `skip`, if any, is ignored: a piece just
/// captured). The same as [`in_check`] on the board of those pieces, but it looks only at the
/// few pieces there are instead of walking the lines of the board.
#[must_use]
pub fn in_check_pieces(
    squares: &[Square],
    pieces: &[Piece],
    general: Square,
    color: Color,
    skip: Option<usize>,
) -> bool {
    let (gf, gr) = (general.file().index() as i8, general.rank().index() as i8);
    let live = |i: usize| Some(i) != skip;
    // The pieces strictly between `general` and `sq` on a shared file or rank.
    let between = |sq: Square| {
        let (f, r) = (sq.file().index() as i8, sq.rank().index() as i8);
        squares
            .iter()
            .enumerate()
            .filter(|&(i, s)| {
                let (sf, sr) = (s.file().index() as i8, s.rank().index() as i8);
                live(i)
                    && if f == gf {
                        sf == f && (sr - r) * (sr - gr) < 0
                    } else {
                        sr == r && (sf - f) * (sf - gf) < 0
                    }
            })
            .count()
    };
    for (i, (&sq, &p)) in squares.iter().zip(pieces).enumerate() {
        if p.color == color || !live(i) {
            continue;
        }
        let (df, dr) = (gf - sq.file().index() as i8, gr - sq.rank().index() as i8);
        let attacks = match p.role {
            Role::General => df == 0 && between(sq) == 0,
            Role::Chariot => (df == 0 || dr == 0) && between(sq) == 0,
            Role::Cannon => (df == 0 || dr == 0) && between(sq) == 1,
            Role::Horse => {
                let leg = match (df.abs(), dr.abs()) {
                    (1, 2) => sq.offset(0, dr.signum()),
                    (2, 1) => sq.offset(df.signum(), 0),
                    _ => None,
                };
                leg.is_some_and(|leg| !squares.iter().enumerate().any(|(j, &s)| s == leg && live(j)))
            }
            Role::Soldier => {
                (df == 0 && dr == forward(p.color)) || (dr == 0 && df.abs() == 1 && across_river(sq, p.color))
            }
            Role::Advisor | Role::Elephant => false,
        };
        if attacks {
            return true;
        }
    }
    false
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

/// [`in_check_pieces`] with the occupied points given as a set (`occupied`, the pieces'
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
/// ignoring what the move does to its own General: [`for_each_target`] as a set.
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
/// capture: [`for_each_origin`] as a set.
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
