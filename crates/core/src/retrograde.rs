//! Retrograde analysis: the exact value and distance of every position of a [`Game`].
//!
//! # Algorithm
//!
//! 1. **Start** (parallel): every position is classified. A terminal position gets its value.
//!    Every other position gets a counter: the number of its moves. Moves with a
//!    [`Successor::Known`] value are turned into events at the level of that value's distance.
//!    A non-terminal position without moves is lost at once.
//! 2. **Reverse edges** (parallel, only without [`Unmoves`]): a compressed list of the
//!    predecessors of every position, built from the moves.
//! 3. **Wins and losses, level by level** (parallel within a level): level `d` holds the
//!    positions decided with distance `d`. For each of them, every predecessor learns of one more
//!    decided move: a move to a loss in `d` makes it a win in `d + 1` (the first such move found
//!    is the shortest, because levels are processed in order); a move to a win in `d` counts its
//!    counter down, and when the counter reaches zero every move leads to a win for the opponent
//!    and the last of them is the longest, so the position is a loss in `d + 1`.
//! 4. **Draws**: what is still undecided is a draw: neither side can force a win. A draw that
//!    can reach a drawn end (a terminal draw) gets the distance of the shortest such line, by one
//!    more breadth-first pass over the draws; the rest are draws by endless play.
//!
//! The work is O(positions + moves).
//!
//! # Memory
//!
//! 4 bytes per position for the values (the counters of undecided positions share the word),
//! 2 bytes with [`CellSize::Two`] (distances up to [`MAX_COMPACT_PLIES`]), or 1 byte with
//! [`CellSize::One`] (distances up to [`MAX_BYTE_PAYLOAD`]` - 1` in the byte, longer ones in a
//! side list of escapes, 8 bytes each, 16 in indices of `u32::MAX` positions or more; at most
//! that many moves per position, else the solver falls back to 2-byte cells); plus, when the
//! solver builds the reverse edges itself, 8 bytes per position and 4 bytes per move; plus two
//! bitmaps of the positions decided at the current and the next level, with a bit for each pair
//! of positions `2k`, `2k + 1` (an eighth of a byte per position for the two; the cells tell
//! which of a pair is in the level; levels whose distances the cells escape are lists instead:
//! the escapes of the pass before), plus the lists of the terminal positions and of the moves
//! with known values that the start pass found (at most three per position), kept as the
//! differences of increasing position numbers (`Packed`: about a byte each where they are
//! dense, as they are in table bases).
//!
//! The level passes walk the current level's bitmap in index order, so that the predecessors
//! of consecutive positions lie close together in memory.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU16, AtomicU32, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::game::{FirstLook, Game, Successor, Unmoves};
use crate::value::{Plies, Value};

/// Positions handled by one parallel task of a pass.
const CHUNK: usize = 1 << 14;

const TAG_SHIFT: u32 = 30;
const PAYLOAD: u32 = (1 << TAG_SHIFT) - 1;
const TAG_OPEN: u32 = 0;
const TAG_WIN: u32 = 1;
const TAG_LOSS: u32 = 2;
const TAG_DRAW: u32 = 3;
/// An open cell with this payload is a hole in the index.
const HOLE: u32 = PAYLOAD;
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
trait Word: Sync + Send + Sized {
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

impl Word for AtomicU32 {
    const LIMIT: u32 = PAYLOAD - 1;
    #[inline(always)]
    fn new(logical: u32) -> Self {
        AtomicU32::new(logical)
    }
    #[inline(always)]
    fn get(&self) -> u32 {
        self.load(Relaxed)
    }
    #[inline(always)]
    fn set(&self, logical: u32) {
        self.store(logical, Relaxed);
    }
    #[inline(always)]
    fn cas(&self, current: u32, new: u32) -> Result<(), u32> {
        self.compare_exchange_weak(current, new, Relaxed, Relaxed).map(|_| ())
    }
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
fn from_compact(physical: u16) -> u32 {
    let payload = u32::from(physical) & COMPACT_PAYLOAD;
    let payload = if payload == COMPACT_PAYLOAD { HOLE } else { payload };
    ((u32::from(physical) >> 14) << TAG_SHIFT) | payload
}

impl Word for AtomicU16 {
    const LIMIT: u32 = COMPACT_PAYLOAD - 1;
    #[inline(always)]
    fn new(logical: u32) -> Self {
        AtomicU16::new(to_compact(logical))
    }
    #[inline(always)]
    fn get(&self) -> u32 {
        from_compact(self.load(Relaxed))
    }
    #[inline(always)]
    fn set(&self, logical: u32) {
        self.store(to_compact(logical), Relaxed);
    }
    #[inline(always)]
    fn cas(&self, current: u32, new: u32) -> Result<(), u32> {
        self.compare_exchange_weak(to_compact(current), to_compact(new), Relaxed, Relaxed)
            .map(|_| ())
            .map_err(from_compact)
    }
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
fn from_byte(physical: u8) -> u32 {
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
    #[inline(always)]
    fn new(logical: u32) -> Self {
        AtomicU8::new(to_byte(logical))
    }
    #[inline(always)]
    fn get(&self) -> u32 {
        from_byte(self.load(Relaxed))
    }
    #[inline(always)]
    fn set(&self, logical: u32) {
        self.store(to_byte(logical), Relaxed);
    }
    #[inline(always)]
    fn cas(&self, current: u32, new: u32) -> Result<(), u32> {
        // Only open cells are ever swapped, and they always fit.
        self.compare_exchange_weak(to_byte(current), to_byte(new), Relaxed, Relaxed)
            .map(|_| ())
            .map_err(from_byte)
    }
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
enum Cells {
    Wide(Vec<AtomicU32>),
    Compact(Vec<AtomicU16>),
    Byte(Vec<AtomicU8>, Escapes),
}

/// The decided words that 1-byte cells do not hold, sorted by position: 8 bytes each while the
/// positions fit in 32 bits, 16 beyond.
#[derive(Debug)]
enum Escapes {
    Narrow(Vec<(u32, u32)>),
    Wide(Vec<(u64, u32)>),
}

impl Escapes {
    /// The escapes of `list` (in any order), narrow when every position fits in 32 bits.
    fn new(mut list: Vec<(u64, u32)>) -> Escapes {
        list.sort_unstable();
        if list.last().is_none_or(|e| u32::try_from(e.0).is_ok()) {
            Escapes::Narrow(list.into_iter().map(|(p, w)| (p as u32, w)).collect())
        } else {
            Escapes::Wide(list)
        }
    }

    fn len(&self) -> usize {
        match self {
            Escapes::Narrow(list) => list.len(),
            Escapes::Wide(list) => list.len(),
        }
    }

    /// The word of `pos`, which is escaped.
    fn get(&self, pos: usize) -> u32 {
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
    fn len(&self) -> usize {
        match self {
            Cells::Wide(c) => c.len(),
            Cells::Compact(c) => c.len(),
            Cells::Byte(c, _) => c.len(),
        }
    }

    fn get(&self, pos: usize) -> Option<u32> {
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
const fn escaped(word: u32) -> bool {
    word >> TAG_SHIFT != TAG_OPEN && word & PAYLOAD == ESCAPED
}

const fn cell(tag: u32, payload: u32) -> u32 {
    (tag << TAG_SHIFT) | payload
}

fn encode(value: Value, limit: u32) -> Result<u32, SolveError> {
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
fn byte_word(value: Option<Value>) -> Result<u32, SolveError> {
    value.map_or(Ok(cell(TAG_OPEN, HOLE)), |v| encode(v, AtomicU8::LIMIT))
}

fn decode(word: u32) -> Option<Value> {
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

/// Why a game could not be solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The index is larger than the solver's 32-bit position numbers (only
    /// [`Retrograde::solve`], which builds reverse edges, has them).
    TooManyPositions(usize),
    /// A position has more moves than a counter holds.
    TooManyMoves(usize),
    /// A distance exceeds [`MAX_PLIES`] (or [`MAX_COMPACT_PLIES`] with compact cells).
    DistanceTooLarge,
    /// A solution given from elsewhere (a file) has another size than the game.
    WrongSize {
        /// The game's positions.
        expected: usize,
        /// The solution's positions.
        found: usize,
    },
    /// The solve was cancelled ([`Retrograde::cancel`]).
    Cancelled,
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::TooManyPositions(n) => {
                write!(f, "{n} positions exceed the solver's limit of {}", u32::MAX)
            }
            SolveError::TooManyMoves(pos) => {
                write!(f, "position {pos} has more moves than a counter holds")
            }
            SolveError::DistanceTooLarge => {
                write!(f, "a distance exceeds the solver's limit")
            }
            SolveError::WrongSize { expected, found } => {
                write!(f, "a solution of {found} positions was given for a game of {expected}")
            }
            SolveError::Cancelled => write!(f, "cancelled"),
        }
    }
}

impl std::error::Error for SolveError {}

/// The pass a solve is in, for progress reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Classifying positions and counting moves.
    Start,
    /// Building the reverse edges.
    ReverseEdges,
    /// Deciding wins and losses, level by level.
    WinsAndLosses,
    /// Giving draws their distances.
    Draws,
}

impl Phase {
    /// The pass's name for people: `counting moves`, `reverse edges`, `wins and losses`,
    /// `draws`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Start => "counting moves",
            Phase::ReverseEdges => "reverse edges",
            Phase::WinsAndLosses => "wins and losses",
            Phase::Draws => "draws",
        }
    }
}

/// A progress report: `done` of `total` units of the current phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The pass.
    pub phase: Phase,
    /// Units finished (positions, or decided positions in the level passes).
    pub done: u64,
    /// Units in all.
    pub total: u64,
}

/// The retrograde solver with its options.
///
/// ```
/// use endgame_core::explicit::ExplicitGame;
/// use endgame_core::{Retrograde, Value};
///
/// // 0 -> 1 -> 2, and 2 has no move: it is lost for the side to move.
/// let game = ExplicitGame::new(vec![vec![1], vec![2], vec![]]);
/// let solution = Retrograde::new().solve(&game).unwrap();
/// assert_eq!(solution.value(0), Some(Value::loss_in(2)));
/// assert_eq!(solution.value(1), Some(Value::win_in(1)));
/// ```
#[derive(Default)]
pub struct Retrograde<'a> {
    hooks: Hooks<'a>,
    cells: CellSize,
    wide_positions: bool,
}

/// What a solve reports to and listens to: the progress callback and the cancel flag.
#[derive(Clone, Copy, Default)]
struct Hooks<'a> {
    progress: Option<&'a (dyn Fn(Progress) + Sync)>,
    cancel: Option<&'a AtomicBool>,
}

impl Hooks<'_> {
    fn cancelled(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Relaxed))
    }
}

/// The size of the solver's cells (see the module's notes on memory).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CellSize {
    /// 4 bytes: distances up to [`MAX_PLIES`].
    #[default]
    Four,
    /// 2 bytes: distances and move counts up to [`MAX_COMPACT_PLIES`].
    Two,
    /// 1 byte: distances below [`MAX_BYTE_PAYLOAD`] in the byte, longer ones (up to
    /// [`MAX_PLIES`]) in a side list, 8 bytes each (16 where positions pass 32 bits). When a
    /// position has more moves than a byte counts (`MAX_BYTE_PAYLOAD - 1`), the solve starts
    /// again with 2-byte cells.
    One,
}

impl<'a> Retrograde<'a> {
    /// A solver with no progress reports.
    #[must_use]
    pub fn new() -> Self {
        Retrograde { hooks: Hooks::default(), cells: CellSize::Four, wide_positions: false }
    }

    /// Uses the smallest cells ([`CellSize::One`]) instead of 4-byte ones when `compact`.
    #[must_use]
    pub fn compact(self, compact: bool) -> Self {
        self.cell_size(if compact { CellSize::One } else { CellSize::Four })
    }

    /// Uses cells of this size.
    #[must_use]
    pub fn cell_size(mut self, cells: CellSize) -> Self {
        self.cells = cells;
        self
    }

    /// An estimate of the peak memory in bytes of a solve of `positions` positions through
    /// un-moves ([`Retrograde::solve_with_unmoves`]): the cells, a quarter byte per position for
    /// the two level bitmaps (an eighth since they have a bit per pair of positions: the rest is
    /// a margin) and a quarter byte per position for the packed lists of the start pass (moves
    /// with known values, about a byte per position in a list, at most three lists per
    /// position, and the terminal positions). Measured with the Xiangqi materials of 78.7
    /// million indices: lists of at most 0.19 bytes per index (`KRCvKR`), and 1.37 bytes per
    /// index at the peak of `KRvKNC` with everything of the process. With [`CellSize::One`],
    /// the long distances' escapes are not counted (8 bytes each; few, but 607,499 in
    /// `KRvKNC`, 4.9 MB, held once the lists are gone). Plus 1 MiB for the fixed parts of the
    /// lists (a list and a first segment per level, whatever the number of positions: in the
    /// smallest materials they pass the terms per position, by 2 KiB in `KRvKN` under `hdu`).
    #[must_use]
    pub fn memory_estimate(&self, positions: u64) -> u64 {
        let cells = match self.cells {
            CellSize::Four => 4,
            CellSize::Two => 2,
            CellSize::One => 1,
        };
        positions
            .saturating_mul(cells)
            .saturating_add(positions / 4)
            .saturating_add(positions / 4)
            .saturating_add(1 << 20)
    }

    /// Keeps 8-byte position numbers in the solver's list of escapes (see the module's notes on
    /// memory) even when 4 bytes would do. [`Retrograde::solve_with_unmoves`] uses them anyway for an
    /// index of `u32::MAX` positions or more; this option exists so that the tests can check
    /// that path on small games. [`Retrograde::solve`] always uses 4-byte numbers (its reverse
    /// edges limit it to fewer than `u32::MAX` positions).
    #[must_use]
    pub fn wide_positions(mut self, wide: bool) -> Self {
        self.wide_positions = wide;
        self
    }

    /// Calls `report` from time to time with the progress of the solve (from any thread).
    #[must_use]
    pub fn progress(mut self, report: &'a (dyn Fn(Progress) + Sync)) -> Self {
        self.hooks.progress = Some(report);
        self
    }

    /// Stops the solve with [`SolveError::Cancelled`] soon after `flag` is set: the solver
    /// looks at it once per chunk of 16,384 positions of the start pass and of the reverse
    /// edges' passes, and once per level and per task of a level.
    #[must_use]
    pub fn cancel(mut self, flag: &'a AtomicBool) -> Self {
        self.hooks.cancel = Some(flag);
        self
    }

    /// Solves a game, building the reverse edges from its moves.
    ///
    /// # Errors
    /// When the game is larger than the solver's limits (see [`SolveError`]).
    pub fn solve<G: Game>(&self, game: &G) -> Result<Solution, SolveError> {
        fn go<G: Game, W: Word>(game: &G, hooks: Hooks<'_>) -> Result<Solution, SolveError> {
            // The reverse edges hold 4-byte position numbers: 4-byte lists suffice.
            let mut run = Run::<G, W, u32>::start(game, hooks)?;
            let preds = run.reverse_edges(game);
            run.propagate(&preds)
        }
        match self.cells {
            CellSize::Four => go::<G, AtomicU32>(game, self.hooks),
            CellSize::Two => go::<G, AtomicU16>(game, self.hooks),
            CellSize::One => match go::<G, AtomicU8>(game, self.hooks) {
                Err(SolveError::TooManyMoves(_)) => go::<G, AtomicU16>(game, self.hooks),
                other => other,
            },
        }
    }

    /// Solves a game through its un-moves.
    ///
    /// # Errors
    /// When the game is larger than the solver's limits (see [`SolveError`]).
    pub fn solve_with_unmoves<G: Unmoves>(&self, game: &G) -> Result<Solution, SolveError> {
        fn go<G: Unmoves, P: Pos>(
            game: &G,
            cells: CellSize,
            hooks: Hooks<'_>,
        ) -> Result<Solution, SolveError> {
            let preds = UnmovePreds(game);
            match cells {
                CellSize::Four => Run::<G, AtomicU32, P>::start(game, hooks)?.propagate(&preds),
                CellSize::Two => Run::<G, AtomicU16, P>::start(game, hooks)?.propagate(&preds),
                CellSize::One => match Run::<G, AtomicU8, P>::start(game, hooks) {
                    Err(SolveError::TooManyMoves(_)) => {
                        Run::<G, AtomicU16, P>::start(game, hooks)?.propagate(&preds)
                    }
                    run => run?.propagate(&preds),
                },
            }
        }
        if self.wide_positions || game.num_positions() >= u32::MAX as usize {
            go::<G, u64>(game, self.cells, self.hooks)
        } else {
            go::<G, u32>(game, self.cells, self.hooks)
        }
    }
}

/// The value of every position of a solved game.
#[derive(Debug)]
pub struct Solution {
    cells: Cells,
    /// The solver's own count of the bytes it held at its peak (0 for a solution made from
    /// values).
    peak_bytes: u64,
}

impl Solution {
    /// A solution from given values (`None` for holes), e.g. read back from a file.
    ///
    /// # Errors
    /// When a distance exceeds [`MAX_PLIES`].
    pub fn from_values(values: impl IntoIterator<Item = Option<Value>>) -> Result<Self, SolveError> {
        let cells = values
            .into_iter()
            .map(|v| Ok(AtomicU32::new(v.map_or(Ok(cell(TAG_OPEN, HOLE)), |v| encode(v, AtomicU32::LIMIT))?)))
            .collect::<Result<_, SolveError>>()?;
        Ok(Solution { cells: Cells::Wide(cells), peak_bytes: 0 })
    }

    /// Like [`Solution::from_values`], with 2-byte cells (half the memory).
    ///
    /// # Errors
    /// When a distance exceeds [`MAX_COMPACT_PLIES`].
    pub fn from_values_compact(values: impl IntoIterator<Item = Option<Value>>) -> Result<Self, SolveError> {
        let cells = values
            .into_iter()
            .map(|v| {
                let word = v.map_or(Ok(cell(TAG_OPEN, HOLE)), |v| encode(v, AtomicU16::LIMIT))?;
                Ok(<AtomicU16 as Word>::new(word))
            })
            .collect::<Result<_, SolveError>>()?;
        Ok(Solution { cells: Cells::Compact(cells), peak_bytes: 0 })
    }

    /// Like [`Solution::from_values`], with 1-byte cells (distances that do not fit in a side
    /// list of escapes, 8 bytes each, 16 where positions pass 32 bits).
    ///
    /// # Errors
    /// When a distance exceeds [`MAX_PLIES`].
    pub fn from_values_bytes(values: impl IntoIterator<Item = Option<Value>>) -> Result<Self, SolveError> {
        let mut escapes = Vec::new();
        let cells = values
            .into_iter()
            .enumerate()
            .map(|(pos, v)| {
                let word = byte_word(v)?;
                if !<AtomicU8 as Word>::fits(word) {
                    escapes.push((pos as u64, word));
                }
                Ok(<AtomicU8 as Word>::new(word))
            })
            .collect::<Result<_, SolveError>>()?;
        Ok(Solution { cells: Cells::Byte(cells, Escapes::new(escapes)), peak_bytes: 0 })
    }

    /// Like [`Solution::from_values_bytes`], with the value of position `p` from `value(p)` for
    /// `p` in `0..n`, computed in parallel (each value is asked for once, and once more when
    /// its distance goes to the side list).
    ///
    /// # Errors
    /// When a distance exceeds [`MAX_PLIES`].
    pub fn from_fn_bytes(
        n: usize,
        value: impl Fn(usize) -> Option<Value> + Sync,
    ) -> Result<Self, SolveError> {
        let word = |p| byte_word(value(p));
        let cells: Vec<AtomicU8> = (0..n)
            .into_par_iter()
            .with_min_len(CHUNK)
            .map(|p| Ok(<AtomicU8 as Word>::new(word(p)?)))
            .collect::<Result<_, SolveError>>()?;
        let escapes: Vec<(u64, u32)> = (0..n)
            .into_par_iter()
            .with_min_len(CHUNK)
            .filter(|&p| escaped(cells[p].get()))
            .map(|p| Ok((p as u64, word(p)?)))
            .collect::<Result<_, SolveError>>()?;
        Ok(Solution { cells: Cells::Byte(cells, Escapes::new(escapes)), peak_bytes: 0 })
    }

    /// Like [`Solution::from_fn_bytes`], with the values of each range `k * range..(k + 1) *
    /// range` of `0..n` put into a buffer by `fill` (the ranges in parallel, each in one go:
    /// for readers that decode a block at a time). `error` turns the solver's errors into the
    /// caller's: a distance beyond [`MAX_PLIES`], or `fill` giving a range another number of
    /// values than it has positions.
    pub(crate) fn from_ranges_bytes<E: Send>(
        n: usize,
        range: usize,
        fill: impl Fn(std::ops::Range<usize>, &mut Vec<Option<Value>>) -> Result<(), E> + Sync,
        error: impl Fn(SolveError) -> E + Sync,
    ) -> Result<Self, E> {
        let mut cells: Vec<AtomicU8> = (0..n).into_par_iter().map(|_| AtomicU8::new(0)).collect();
        let escapes = cells
            .par_chunks_mut(range.max(1))
            .enumerate()
            .map(|(k, out)| {
                let start = k * range;
                let mut values = Vec::with_capacity(out.len());
                fill(start..start + out.len(), &mut values)?;
                if values.len() != out.len() {
                    return Err(error(SolveError::WrongSize { expected: out.len(), found: values.len() }));
                }
                let mut escapes = Vec::new();
                for (i, (slot, value)) in out.iter_mut().zip(values).enumerate() {
                    let word = byte_word(value).map_err(&error)?;
                    if !<AtomicU8 as Word>::fits(word) {
                        escapes.push(((start + i) as u64, word));
                    }
                    *slot = <AtomicU8 as Word>::new(word);
                }
                Ok(escapes)
            })
            .try_reduce(Vec::new, |mut a, b| {
                a.extend(b);
                Ok(a)
            })?;
        Ok(Solution { cells: Cells::Byte(cells, Escapes::new(escapes)), peak_bytes: 0 })
    }

    /// Bytes per position of the stored values: 1, 2 (compact cells) or 4 (1-byte cells keep
    /// their long distances in a side list besides, see [`Solution::escapes`]).
    #[must_use]
    pub fn bytes_per_position(&self) -> usize {
        match self.cells {
            Cells::Wide(_) => 4,
            Cells::Compact(_) => 2,
            Cells::Byte(..) => 1,
        }
    }

    /// The solver's own count of the bytes its structures held at its peak (the cells, the
    /// level bitmaps or lists, the start pass's packed lists not processed yet, the escapes),
    /// for comparison with [`Retrograde::memory_estimate`]; `None` for a solution made from
    /// values.
    #[must_use]
    pub fn solver_peak_bytes(&self) -> Option<u64> {
        (self.peak_bytes > 0).then_some(self.peak_bytes)
    }

    /// Bytes the solution takes: its cells and the side list of escapes (as allocated).
    #[must_use]
    pub fn heap_bytes(&self) -> u64 {
        let bytes = match &self.cells {
            Cells::Wide(c) => c.capacity() * 4,
            Cells::Compact(c) => c.capacity() * 2,
            Cells::Byte(c, Escapes::Narrow(list)) => c.capacity() + list.capacity() * size_of::<(u32, u32)>(),
            Cells::Byte(c, Escapes::Wide(list)) => c.capacity() + list.capacity() * size_of::<(u64, u32)>(),
        };
        bytes as u64
    }

    /// The number of values kept in the side list of a solution with 1-byte cells (8 bytes
    /// each, 16 where positions pass 32 bits), 0 for other cells.
    #[must_use]
    pub fn escapes(&self) -> usize {
        match &self.cells {
            Cells::Byte(_, escapes) => escapes.len(),
            _ => 0,
        }
    }

    /// The number of indexed positions (holes included).
    #[must_use]
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether the index is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.cells.len() == 0
    }

    /// The value of a position for the side to move; `None` for a hole or an index out of range.
    #[must_use]
    pub fn value(&self, pos: usize) -> Option<Value> {
        self.cells.get(pos).and_then(decode)
    }

    /// Every value in index order (`None` for holes).
    pub fn values(&self) -> impl Iterator<Item = Option<Value>> + '_ {
        (0..self.len()).map(|p| self.value(p))
    }

    /// Counts over all positions.
    #[must_use]
    pub fn summary(&self) -> Summary {
        (0..self.len())
            .into_par_iter()
            .with_min_len(CHUNK)
            .fold(Summary::default, |mut s, p| {
                s.add(self.value(p));
                s
            })
            .reduce(Summary::default, Summary::merge)
    }
}

/// Counts of the values of a solved game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Positions won by the side to move.
    pub wins: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// Drawn positions (of either kind).
    pub draws: u64,
    /// Holes in the index.
    pub holes: u64,
    /// The longest win (plies), 0 when there is none.
    pub longest_win: u32,
    /// The longest loss (plies), 0 when there is none.
    pub longest_loss: u32,
}

impl Summary {
    fn add(&mut self, value: Option<Value>) {
        match value {
            Some(Value::Win(d)) => {
                self.wins += 1;
                self.longest_win = self.longest_win.max(d.0);
            }
            Some(Value::Loss(d)) => {
                self.losses += 1;
                self.longest_loss = self.longest_loss.max(d.0);
            }
            Some(Value::Draw(_)) => self.draws += 1,
            None => self.holes += 1,
        }
    }

    fn merge(self, o: Summary) -> Summary {
        Summary {
            wins: self.wins + o.wins,
            losses: self.losses + o.losses,
            draws: self.draws + o.draws,
            holes: self.holes + o.holes,
            longest_win: self.longest_win.max(o.longest_win),
            longest_loss: self.longest_loss.max(o.longest_loss),
        }
    }
}

/// What a decided move leads to, for the position that has the move.
#[derive(Clone, Copy)]
enum Event {
    /// The move leads to a loss for the opponent: a win one ply further.
    Lost,
    /// The move leads to a win for the opponent: one fewer move left to decide.
    Won,
    /// The move leads to a draw that ends: a drawn line one ply longer.
    Drawn,
}

/// The list of distance `level` in `levels` (one list per distance), made with those before
/// it when missing.
fn level_mut<L: Default>(levels: &mut Vec<L>, level: usize) -> &mut L {
    if levels.len() <= level {
        levels.resize_with(level + 1, L::default);
    }
    &mut levels[level]
}

/// A position number in the solver's list of escapes: 4 bytes while the index has fewer than
/// `u32::MAX` positions, else 8.
trait Pos: Copy + Send + Sync + 'static {
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

/// Increasing position numbers as the differences of each from the one before (LEB128: one
/// byte below 128), in segments that the level passes walk in parallel. Lists of positions
/// with a move of known value are dense in table bases, so about a byte a position, against
/// 4 or 8 as numbers.
#[derive(Default)]
struct Packed {
    segments: Vec<Segment>,
}

/// A run of [`Packed`]: `first`, then `len - 1` differences in `bytes`.
#[derive(Default)]
struct Segment {
    first: u64,
    last: u64,
    len: u64,
    bytes: Vec<u8>,
}

/// Positions after which joining two lists starts a new segment (the unit of the parallel walk).
const SEGMENT: u64 = 1 << 16;

impl Segment {
    fn put(bytes: &mut Vec<u8>, mut delta: u64) {
        while delta >= 0x80 {
            bytes.push(delta as u8 | 0x80);
            delta >>= 7;
        }
        bytes.push(delta as u8);
    }

    /// Adds `pos`, larger than the last one.
    fn push(&mut self, pos: u64) {
        if self.len == 0 {
            self.first = pos;
        } else {
            debug_assert!(pos > self.last);
            Segment::put(&mut self.bytes, pos - self.last);
        }
        self.last = pos;
        self.len += 1;
    }

    fn for_each(&self, mut f: impl FnMut(usize)) {
        if self.len == 0 {
            return;
        }
        let mut pos = self.first;
        f(pos as usize);
        let (mut delta, mut shift) = (0u64, 0);
        for &b in &self.bytes {
            delta |= u64::from(b & 0x7F) << shift;
            if b & 0x80 == 0 {
                pos += delta;
                f(pos as usize);
                (delta, shift) = (0, 0);
            } else {
                shift += 7;
            }
        }
    }
}

impl Packed {
    /// Adds `pos`, larger than every position in the list.
    fn push(&mut self, pos: u64) {
        if self.segments.is_empty() {
            self.segments.push(Segment::default());
        }
        self.segments.last_mut().expect("one segment at least").push(pos);
    }

    /// Adds the positions of `other`; its segments join the last one while that is short and
    /// they follow it in order, else they stay segments of their own.
    fn append(&mut self, other: Packed) {
        for seg in other.segments.into_iter().filter(|s| s.len > 0) {
            match self.segments.last_mut() {
                Some(last) if last.len < SEGMENT && seg.first > last.last => {
                    Segment::put(&mut last.bytes, seg.first - last.last);
                    last.bytes.extend_from_slice(&seg.bytes);
                    last.last = seg.last;
                    last.len += seg.len;
                }
                _ => self.segments.push(seg),
            }
        }
    }

    /// Gives back the room the joins left over.
    fn shrink(&mut self) {
        for seg in &mut self.segments {
            seg.bytes.shrink_to_fit();
        }
        self.segments.shrink_to_fit();
    }
}

/// What the start pass found, by distance, in lists that the level passes use as they are (no
/// second copy).
#[derive(Default)]
struct Found {
    /// Decided wins and losses (terminal positions, packed as the lists of events are).
    decided: Vec<Packed>,
    /// Terminal draws that end.
    drawn: Vec<Packed>,
    /// Positions with a move to a known loss, by the distance of that loss.
    lost: Vec<Packed>,
    /// Positions with a move to a known win, by the distance of that win.
    won: Vec<Packed>,
    /// Positions with a move to a known draw that ends, by its distance.
    drawn_moves: Vec<Packed>,
    error: Option<SolveError>,
}

/// Appends the packed lists of `from` (one per distance) to those of `into`, in this order.
fn append_packed(into: &mut Vec<Packed>, from: Vec<Packed>) {
    if into.len() < from.len() {
        into.resize_with(from.len(), Packed::default);
    }
    for (a, b) in into.iter_mut().zip(from) {
        a.append(b);
    }
}

impl Found {
    /// The lists of `self` and then `other` (the start pass merges its chunks in index order,
    /// which keeps the packed lists' segments long).
    fn merge(mut self, other: Found) -> Found {
        append_packed(&mut self.decided, other.decided);
        append_packed(&mut self.drawn, other.drawn);
        append_packed(&mut self.lost, other.lost);
        append_packed(&mut self.won, other.won);
        append_packed(&mut self.drawn_moves, other.drawn_moves);
        self.error = self.error.or(other.error);
        self
    }
}

/// The predecessors of a position, from un-moves or from reverse edges.
trait Preds: Sync {
    fn for_each(&self, pos: usize, f: impl FnMut(usize));
}

struct UnmovePreds<'g, G>(&'g G);

impl<G: Unmoves> Preds for UnmovePreds<'_, G> {
    fn for_each(&self, pos: usize, f: impl FnMut(usize)) {
        self.0.for_each_unmove(pos, f);
    }
}

/// Reverse edges in compressed form: the predecessors of `q` are
/// `edges[ends[q - 1]..ends[q]]` (with `ends[-1] = 0`).
struct ReverseEdges {
    ends: Vec<u64>,
    edges: Vec<u32>,
}

impl Preds for ReverseEdges {
    fn for_each(&self, q: usize, mut f: impl FnMut(usize)) {
        let start = if q == 0 { 0 } else { self.ends[q - 1] } as usize;
        for &p in &self.edges[start..self.ends[q] as usize] {
            f(p as usize);
        }
    }
}

struct Run<'a, 'g, G, W, P> {
    game: &'g G,
    cells: Vec<W>,
    wl_levels: Vec<Packed>,
    draw_levels: Vec<Packed>,
    /// Known-value moves (see [`Found`]); a level's lists are dropped once it is processed.
    lost: Vec<Packed>,
    won: Vec<Packed>,
    drawn_moves: Vec<Packed>,
    /// Decided words that 1-byte cells do not hold (position, logical word).
    escapes: Mutex<Vec<(P, u32)>>,
    hooks: Hooks<'a>,
    /// The most bytes the solver's structures held so far (see [`Run::held_bytes`]).
    peak_bytes: u64,
}

/// Bytes a packed list holds (its segments and their bytes).
fn packed_bytes(lists: &[Packed]) -> u64 {
    let per_list = size_of::<Packed>() as u64;
    lists.iter().fold(0, |sum, list| {
        let segments = list.segments.capacity() * size_of::<Segment>();
        let bytes: usize = list.segments.iter().map(|s| s.bytes.capacity()).sum();
        sum + per_list + segments as u64 + bytes as u64
    })
}

/// A set of positions as one bit for each pair of positions `2k`, `2k + 1` (a sixteenth of a
/// byte per position; a level pass reads both cells to see which of the two are in its level).
struct Bitmap(Vec<AtomicU64>);

/// The positions of one level, as its pass walks them.
enum Frontier {
    /// Levels whose distances the cells hold: a bitmap of pairs, walked in index order.
    Pairs(Bitmap),
    /// Levels whose distances are escaped (1-byte cells, 63 plies and more; few positions):
    /// the positions, sorted.
    List(Vec<usize>),
}

/// `n` values made by `init`, in memory for which Linux is asked to use huge pages (2 MiB)
/// before any of it is touched: the level passes read and write the cells and bitmaps at
/// random, and with 4 KiB pages most of those accesses would also miss the TLB.
fn huge_vec<T: Send>(n: usize, init: impl Fn() -> T + Sync + Send) -> Vec<T> {
    let mut v = Vec::with_capacity(n);
    advise_huge_pages(v.as_ptr() as usize, n * size_of::<T>());
    // Filled by both cores (the first touch of every page is most of the time): into the
    // capacity reserved, so the advice stays with the buffer.
    v.par_extend((0..n).into_par_iter().with_min_len(CHUNK).map(|_| init()));
    v
}

/// Asks Linux to back the pages of `len` bytes from `start` with huge pages (only for 8 MiB
/// and more; elsewhere, or when the system says no, nothing changes but the speed).
fn advise_huge_pages(start: usize, len: usize) {
    #[cfg(target_os = "linux")]
    if len >= 8 << 20 && std::env::var_os("ENDGAME_NO_HUGE_PAGES").is_none() {
        let page = 4096;
        let (from, to) = (start.next_multiple_of(page), (start + len) & !(page - 1));
        if to > from {
            // SAFETY: the range lies inside one allocation this process owns (the vector's
            // buffer, page-aligned inward); MADV_HUGEPAGE only advises how to back it and
            // changes no contents; a failure leaves it as it was.
            unsafe {
                libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, len);
}

/// Predecessors whose cells a level pass reads at once.
const BATCH: usize = 64;

/// Asks the processor to bring the cache line of `x` in, for an access soon after (x86-64;
/// elsewhere nothing): a level pass asks for each predecessor's cell when it finds it, and
/// reads the cells a batch later, when their lines have come.
#[inline(always)]
fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch loads nothing the program sees and cannot fault (it is a hint);
    // `x` is a valid reference; SSE, which the instruction belongs to, is part of every
    // x86-64 processor.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>((x as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// Bitmap words handled by one parallel task of a level pass.
const WORDS: usize = CHUNK / 64;

impl Bitmap {
    /// An empty set of `0..n`.
    fn new(n: usize) -> Bitmap {
        Bitmap(huge_vec(n.div_ceil(2).div_ceil(64), || AtomicU64::new(0)))
    }

    fn insert(&self, pos: usize) {
        let pair = pos / 2;
        self.0[pair / 64].fetch_or(1 << (pair % 64), Relaxed);
    }

    fn clear(&mut self) {
        self.0.par_iter_mut().with_min_len(WORDS).for_each(|w| *w.get_mut() = 0);
    }
}

/// Whether the positions of level `d` (of the draws when `draws`) go in a bitmap of pairs: the
/// cells of that level hold their distance themselves (not escaped), so that a cell tells
/// whether its position is of the level ([`at_level`]). The positions of the other levels are
/// the escapes of the pass before.
fn pairs<W: Word>(d: u32, draws: bool) -> bool {
    W::fits(if draws { cell(TAG_DRAW, d + 1) } else { cell(TAG_WIN, d) })
}

/// Whether a cell holding `word` (not escaped) is decided at level `d` (of the draws when
/// `draws`).
fn at_level(word: u32, d: u32, draws: bool) -> bool {
    let (tag, payload) = (word >> TAG_SHIFT, word & PAYLOAD);
    if draws {
        tag == TAG_DRAW && payload == d + 1
    } else {
        (tag == TAG_WIN || tag == TAG_LOSS) && payload == d
    }
}

impl<'a, 'g, G: Game, W: Word, P: Pos> Run<'a, 'g, G, W, P> {
    fn report(&self, phase: Phase, done: u64) {
        if let Some(report) = self.hooks.progress {
            report(Progress { phase, done, total: self.cells.len() as u64 });
        }
    }

    fn start(game: &'g G, hooks: Hooks<'a>) -> Result<Self, SolveError> {
        let n = game.num_positions();
        if size_of::<P>() < size_of::<usize>() && n >= u32::MAX as usize {
            return Err(SolveError::TooManyPositions(n));
        }
        let cells: Vec<W> = huge_vec(n, || W::new(0));
        let mut run = Run {
            game,
            cells,
            wl_levels: Vec::new(),
            draw_levels: Vec::new(),
            lost: Vec::new(),
            won: Vec::new(),
            drawn_moves: Vec::new(),
            escapes: Mutex::new(Vec::new()),
            hooks,
            peak_bytes: 0,
        };
        let done = AtomicU64::new(0);
        let mut found = (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map(|chunk| {
                let mut found = Found::default();
                if run.hooks.cancelled() {
                    found.error = Some(SolveError::Cancelled);
                    return found;
                }
                let range = chunk * CHUNK..n.min((chunk + 1) * CHUNK);
                let len = range.len() as u64;
                for pos in range {
                    if let Err(e) = run.classify(pos, &mut found) {
                        found.error.get_or_insert(e);
                    }
                }
                run.report(Phase::Start, done.fetch_add(len, Relaxed) + len);
                found
            })
            .reduce(Found::default, Found::merge);
        if let Some(e) = found.error {
            return Err(e);
        }
        for list in found
            .lost
            .iter_mut()
            .chain(&mut found.won)
            .chain(&mut found.drawn_moves)
            .chain(&mut found.decided)
            .chain(&mut found.drawn)
        {
            list.shrink();
        }
        run.wl_levels = found.decided;
        run.draw_levels = found.drawn;
        run.lost = found.lost;
        run.won = found.won;
        run.drawn_moves = found.drawn_moves;
        run.peak_bytes = run.held_bytes(0);
        Ok(run)
    }

    /// Bytes the solver's structures hold now: the cells, the lists of the start pass not
    /// processed yet, the escapes, and `more` (the level bitmaps or lists in use).
    fn held_bytes(&self, more: u64) -> u64 {
        let cells = (self.cells.capacity() * size_of::<W>()) as u64;
        let lists = [&self.wl_levels, &self.draw_levels, &self.lost, &self.won, &self.drawn_moves];
        let lists: u64 = lists.iter().map(|l| packed_bytes(l)).sum();
        let escapes = self.escapes.lock().map_or(0, |e| e.capacity() * size_of::<(P, u32)>()) as u64;
        cells + lists + escapes + more
    }

    /// The start pass for one position.
    fn classify(&self, pos: usize, found: &mut Found) -> Result<(), SolveError> {
        let game = self.game;
        // Of the moves with known values only the best of each kind matters: the shortest
        // way to a lost child (a win), the shortest drawn line, and the longest won child (the
        // last one that a loss has to wait for). The other won children are counted off now,
        // so that a position stores at most three events however many captures it has.
        let mut moves: usize = 0;
        let mut won: usize = 0;
        let (mut lost_at, mut won_at, mut drawn_at) = (None::<u32>, None::<u32>, None::<u32>);
        let look = game.first_look(pos, |value| {
            moves += 1;
            match value {
                Some(Value::Loss(d)) => lost_at = Some(lost_at.map_or(d.0, |e| e.min(d.0))),
                Some(Value::Win(d)) => {
                    won += 1;
                    won_at = Some(won_at.map_or(d.0, |e| e.max(d.0)));
                }
                Some(Value::Draw(Some(d))) => drawn_at = Some(drawn_at.map_or(d.0, |e| e.min(d.0))),
                Some(Value::Draw(None)) | None => {}
            }
        });
        match look {
            FirstLook::Hole => {
                self.cells[pos].set(cell(TAG_OPEN, HOLE));
                return Ok(());
            }
            FirstLook::Terminal(value) => {
                let word = encode(value, W::LIMIT)?;
                self.cells[pos].set(word);
                self.escape(pos, word);
                match value {
                    Value::Win(d) | Value::Loss(d) => {
                        level_mut(&mut found.decided, d.0 as usize).push(pos as u64)
                    }
                    Value::Draw(Some(d)) => level_mut(&mut found.drawn, d.0 as usize).push(pos as u64),
                    Value::Draw(None) => {}
                }
                return Ok(());
            }
            FirstLook::Moves => {}
        }
        for (at, list) in
            [(lost_at, &mut found.lost), (won_at, &mut found.won), (drawn_at, &mut found.drawn_moves)]
        {
            if let Some(d) = at {
                if d + 2 >= W::LIMIT {
                    return Err(SolveError::DistanceTooLarge);
                }
                level_mut(list, d as usize).push(pos as u64);
            }
        }
        let counter = moves - won.saturating_sub(1);
        if moves == 0 {
            self.cells[pos].set(cell(TAG_LOSS, 0));
            level_mut(&mut found.decided, 0).push(pos as u64);
        } else if counter > W::COUNTER_LIMIT as usize {
            return Err(SolveError::TooManyMoves(pos));
        } else {
            self.cells[pos].set(cell(TAG_OPEN, counter as u32));
        }
        Ok(())
    }

    /// Whether `pos` still needs its moves (not a hole, not decided, not terminal).
    fn is_open(&self, pos: usize) -> bool {
        let word = self.cells[pos].get();
        word >> TAG_SHIFT == TAG_OPEN && word != HOLE
    }

    fn reverse_edges(&mut self, game: &G) -> ReverseEdges {
        let n = self.cells.len();
        let counts: Vec<AtomicU64> = (0..n).map(|_| AtomicU64::new(0)).collect();
        let each_child = |pos: usize, f: &mut dyn FnMut(usize)| {
            // Decided positions (terminal, or lost for want of moves) need no predecessors
            // from their moves, and holes have none.
            if self.is_open(pos) {
                game.for_each_move(pos, |_, succ| {
                    if let Successor::Position(q) = succ {
                        f(q);
                    }
                });
            }
        };
        let done = AtomicU64::new(0);
        (0..n.div_ceil(CHUNK)).into_par_iter().for_each(|chunk| {
            // Cancelled: the edges are left incomplete, and `propagate` stops at once.
            if self.hooks.cancelled() {
                return;
            }
            let range = chunk * CHUNK..n.min((chunk + 1) * CHUNK);
            let len = range.len() as u64;
            for pos in range {
                each_child(pos, &mut |q| {
                    counts[q].fetch_add(1, Relaxed);
                });
            }
            self.report(Phase::ReverseEdges, (done.fetch_add(len, Relaxed) + len) / 2);
        });
        let mut total = 0u64;
        for c in &counts {
            let k = c.load(Relaxed);
            c.store(total, Relaxed);
            total += k;
        }
        let edges: Vec<AtomicU32> = (0..total).map(|_| AtomicU32::new(0)).collect();
        (0..n.div_ceil(CHUNK)).into_par_iter().for_each(|chunk| {
            // Cancelled: the edges are left incomplete, and `propagate` stops at once.
            if self.hooks.cancelled() {
                return;
            }
            let range = chunk * CHUNK..n.min((chunk + 1) * CHUNK);
            let len = range.len() as u64;
            for pos in range {
                each_child(pos, &mut |q| {
                    let slot = counts[q].fetch_add(1, Relaxed);
                    edges[slot as usize].store(pos as u32, Relaxed);
                });
            }
            self.report(Phase::ReverseEdges, (done.fetch_add(len, Relaxed) + len) / 2);
        });
        // After the fill, counts[q] is where q's predecessors end.
        ReverseEdges {
            ends: counts.into_iter().map(AtomicU64::into_inner).collect(),
            edges: edges.into_iter().map(AtomicU32::into_inner).collect(),
        }
    }

    /// Applies one decided move to the position `p` that has it; returns whether `p` got
    /// decided at level `d + 1` by it.
    fn apply(&self, p: usize, event: Event, d: u32) -> bool {
        self.apply_to(p, self.cells[p].get(), event, d)
    }

    /// [`Run::apply`] with the word of `p` read already (it may have changed since).
    #[inline]
    fn apply_to(&self, p: usize, mut word: u32, event: Event, d: u32) -> bool {
        let slot = &self.cells[p];
        loop {
            if word >> TAG_SHIFT != TAG_OPEN || word == HOLE {
                return false;
            }
            let new = match event {
                Event::Lost => cell(TAG_WIN, d + 1),
                Event::Won if word & PAYLOAD == 1 => cell(TAG_LOSS, d + 1),
                Event::Won => word - 1,
                Event::Drawn => cell(TAG_DRAW, d + 2),
            };
            match slot.cas(word, new) {
                Ok(()) => {
                    self.escape(p, new);
                    return new >> TAG_SHIFT != TAG_OPEN;
                }
                Err(current) => word = current,
            }
        }
    }

    /// Keeps a decided word that the cell of `p` does not hold.
    #[inline(always)]
    fn escape(&self, p: usize, word: u32) {
        if !W::fits(word) {
            self.push_escape(p, word);
        }
    }

    /// [`Run::escape`]'s rare case, out of the way of the level passes.
    #[cold]
    #[inline(never)]
    fn push_escape(&self, p: usize, word: u32) {
        self.escapes.lock().expect("no panic while holding the lock").push((P::from_index(p), word));
    }

    /// Processes one level: the positions decided at distance `d` (the set `current`, walked in
    /// index order) and the known-value events of that distance; puts the positions decided at
    /// distance `d + 1` into `next`. Returns how many positions it processed and decided.
    fn level(
        &self,
        preds: &impl Preds,
        current: &Frontier,
        next: Option<&Bitmap>,
        events: &[(&Packed, Event)],
        d: u32,
        draws: bool,
    ) -> (u64, u64) {
        let add = |a: (u64, u64), b: (u64, u64)| (a.0 + b.0, a.1 + b.1);
        let n = self.cells.len();
        let tasks = match current {
            Frontier::Pairs(bits) => bits.0.len().div_ceil(WORDS),
            Frontier::List(list) => list.len().div_ceil(CHUNK),
        };
        let from_decided = (0..tasks).into_par_iter().map(|task| {
            let (mut processed, mut decided) = (0, 0);
            // Cancelled: `propagate` returns before it reads what this level did.
            if self.hooks.cancelled() {
                return (0, 0);
            }
            // Predecessors are gathered in batches and their cells read all at once before any
            // is changed: the reads are independent, so their cache misses overlap.
            let mut batch: Vec<(usize, Event)> = Vec::with_capacity(BATCH + 64);
            let mut words_read: Vec<u32> = Vec::with_capacity(BATCH + 64);
            let mut flush = |batch: &mut Vec<(usize, Event)>, decided: &mut u64| {
                words_read.clear();
                words_read.extend(batch.iter().map(|&(p, _)| self.cells[p].get()));
                for (&(p, event), &word) in batch.iter().zip(&words_read) {
                    if self.apply_to(p, word, event, d) {
                        if let Some(next) = next {
                            next.insert(p);
                        }
                        *decided += 1;
                    }
                }
                batch.clear();
            };
            // A position that may be of this level (`check`: the other of a pair may not).
            let mut visit = |q: usize, check: bool| {
                let word = self.cells[q].get();
                if check && !at_level(word, d, draws) {
                    return;
                }
                processed += 1;
                let event = if draws {
                    Event::Drawn
                } else if word >> TAG_SHIFT == TAG_LOSS {
                    Event::Lost
                } else {
                    Event::Won
                };
                preds.for_each(q, |p| {
                    prefetch(&self.cells[p]);
                    batch.push((p, event));
                });
                if batch.len() >= BATCH {
                    flush(&mut batch, &mut decided);
                }
            };
            match current {
                Frontier::Pairs(bits) => {
                    for w in task * WORDS..bits.0.len().min((task + 1) * WORDS) {
                        let mut word = bits.0[w].load(Relaxed);
                        while word != 0 {
                            let pair = w * 64 + word.trailing_zeros() as usize;
                            word &= word - 1;
                            for q in 2 * pair..(2 * pair + 2).min(n) {
                                visit(q, true);
                            }
                        }
                    }
                }
                Frontier::List(list) => {
                    for &q in &list[task * CHUNK..list.len().min((task + 1) * CHUNK)] {
                        visit(q, false);
                    }
                }
            }
            flush(&mut batch, &mut decided);
            (processed, decided)
        });
        let from_events = events
            .par_iter()
            .flat_map(|&(list, event)| list.segments.par_iter().map(move |segment| (segment, event)))
            .map(|(segment, event)| {
                let mut decided = 0;
                segment.for_each(|p| {
                    if self.apply(p, event, d) {
                        if let Some(next) = next {
                            next.insert(p);
                        }
                        decided += 1;
                    }
                });
                (0, decided)
            });
        from_decided.chain(from_events).reduce(|| (0, 0), add)
    }

    fn propagate(mut self, preds: &impl Preds) -> Result<Solution, SolveError> {
        let n = self.cells.len();
        let mut decided_count: u64 = 0;
        // A bitmap of pairs while the level's distances fit in the cells; once they are escaped
        // (1-byte cells, 63 plies and more), the list of the escapes of the pass before.
        let mut current = Frontier::Pairs(Bitmap::new(n));
        // The bitmap of the next level, or one to reuse.
        let mut spare = Some(Bitmap::new(n));
        for draws in [false, true] {
            // Empty: the phase before ended with an empty level.
            match (&current, pairs::<W>(0, draws)) {
                (Frontier::List(_), true) => {
                    current = Frontier::Pairs(spare.take().unwrap_or_else(|| Bitmap::new(n)))
                }
                (Frontier::Pairs(_), false) => current = Frontier::List(Vec::new()),
                _ => {}
            }
            let phase = if draws { Phase::Draws } else { Phase::WinsAndLosses };
            let mut levels = std::mem::take(if draws { &mut self.draw_levels } else { &mut self.wl_levels });
            let mut event_lists = if draws {
                vec![(std::mem::take(&mut self.drawn_moves), Event::Drawn)]
            } else {
                vec![
                    (std::mem::take(&mut self.lost), Event::Lost),
                    (std::mem::take(&mut self.won), Event::Won),
                ]
            };
            let mut d = 0usize;
            // Positions in `current`, decided by the level before.
            let mut pending = 0u64;
            while pending > 0 || d < levels.len() || event_lists.iter().any(|(lists, _)| d < lists.len()) {
                if d as u32 + 2 >= W::LIMIT {
                    return Err(SolveError::DistanceTooLarge);
                }
                if self.hooks.cancelled() {
                    return Err(SolveError::Cancelled);
                }
                // Positions decided by the start pass at this distance (terminal ones).
                let terminal = levels.get_mut(d).map(std::mem::take).unwrap_or_default();
                match &mut current {
                    Frontier::Pairs(bits) => {
                        terminal.segments.iter().for_each(|seg| seg.for_each(|p| bits.insert(p)))
                    }
                    Frontier::List(list) => {
                        terminal.segments.iter().for_each(|seg| seg.for_each(|p| list.push(p)));
                        list.sort_unstable();
                    }
                }
                drop(terminal);
                // This level's events, dropped after it.
                let events: Vec<(Packed, Event)> = event_lists
                    .iter_mut()
                    .map(|(lists, event)| (lists.get_mut(d).map(std::mem::take).unwrap_or_default(), *event))
                    .collect();
                let slices: Vec<(&Packed, Event)> = events.iter().map(|(l, e)| (l, *e)).collect();
                let next_pairs = pairs::<W>(d as u32 + 1, draws);
                let next = if next_pairs {
                    spare.take().or_else(|| Some(Bitmap::new(n)))
                } else {
                    // Lists from now on in this phase: no bitmap kept.
                    spare = None;
                    None
                };
                // The solver's own accounting of its memory: the cells, the lists, the escapes and
                // the level bitmaps (or lists) now in use.
                let frontier = |f: &Frontier| match f {
                    Frontier::Pairs(bits) => bits.0.capacity() * 8,
                    Frontier::List(list) => list.capacity() * size_of::<usize>(),
                };
                let bitmap = |b: &Option<Bitmap>| b.as_ref().map_or(0, |b| b.0.capacity() * 8);
                let lists = packed_bytes(&levels)
                    + event_lists.iter().map(|(l, _)| packed_bytes(l)).sum::<u64>()
                    + events.iter().map(|(l, _)| packed_bytes(std::slice::from_ref(l))).sum::<u64>();
                let more = (frontier(&current) + bitmap(&next) + bitmap(&spare)) as u64 + lists;
                self.peak_bytes = self.peak_bytes.max(self.held_bytes(more));
                let escaped_before = self.escapes.lock().expect("no panic while holding the lock").len();
                let (processed, decided) =
                    self.level(preds, &current, next.as_ref(), &slices, d as u32, draws);
                decided_count += processed;
                self.report(phase, decided_count);
                let done = std::mem::replace(
                    &mut current,
                    match next {
                        Some(bits) => Frontier::Pairs(bits),
                        None => {
                            // Every position this pass decided had its word escaped.
                            let escapes = self.escapes.lock().expect("no panic while holding the lock");
                            let mut list: Vec<usize> =
                                escapes[escaped_before..].iter().map(|e| e.0.index()).collect();
                            list.sort_unstable();
                            Frontier::List(list)
                        }
                    },
                );
                if let Frontier::Pairs(mut bits) = done
                    && next_pairs
                {
                    bits.clear();
                    spare = Some(bits);
                }
                pending = decided;
                d += 1;
            }
        }
        drop((current, spare));
        if self.hooks.cancelled() {
            return Err(SolveError::Cancelled);
        }
        // Whatever is still open can neither be won nor lost, nor reach a drawn end.
        self.cells.par_iter().with_min_len(CHUNK).for_each(|c| {
            let word = c.get();
            if word >> TAG_SHIFT == TAG_OPEN && word != HOLE {
                c.set(cell(TAG_DRAW, 0));
            }
        });
        let escapes = self.escapes.into_inner().expect("no panic while holding the lock");
        Ok(Solution { cells: W::into_cells(self.cells, P::escapes(escapes)), peak_bytes: self.peak_bytes })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Lists of increasing positions (gaps from 1 to beyond 2^35, so differences of one to
        /// six bytes), packed in chunks and joined in any order, give back every position in
        /// the order pushed.
        #[test]
        fn packed_lists_give_back_what_was_pushed(
            chunks in prop::collection::vec(
                (any::<u32>(), prop::collection::vec((0u32..6, 1u64..300), 0..200)),
                0..12,
            ),
        ) {
            let mut all = Packed::default();
            let mut expected = Vec::new();
            for (start, gaps) in chunks {
                let mut list = Packed::default();
                let mut pos = u64::from(start);
                for (bytes, gap) in gaps {
                    list.push(pos);
                    expected.push(pos as usize);
                    pos += gap << (7 * bytes);
                }
                all.append(list);
            }
            all.shrink();
            let mut seen = Vec::new();
            for segment in &all.segments {
                segment.for_each(|p| seen.push(p));
            }
            prop_assert_eq!(seen, expected);
        }
    }

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
