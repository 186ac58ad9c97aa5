//! Retrograde analysis: the exact value and distance of every position of a [`Game`].
//!
//! # Algorithm
//!
//! 1. **Start** (parallel): every position is classified. A terminal position gets its value.
//!    Every other position gets a counter: the number of its moves. Moves with a
//!    [`Successor::Known`](crate::game::Successor::Known) value are turned into events at the level of that value's distance.
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
//!
//! # Rooms
//!
//! This file holds the solver's API ([`Retrograde`], its options, progress and errors);
//! `cells` the 4-, 2- and 1-byte cells and their escapes; `solution` the [`Solution`];
//! `run` one solve (the start pass and the level passes); `partition` a solve split over
//! ranks that each hold a range of the positions ([`Retrograde::solve_part`]), `part_file`
//! a rank's share in a file, and `local_ranks` threads standing in for the ranks; `preds` the predecessors (un-moves
//! or reverse edges); `levels` the positions of a level; `packed` the packed lists of the
//! start pass; `spill` the scratch file they go to in large solves; `memory` huge pages,
//! prefetches and the solver's count of its bytes.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU16, AtomicU32, Ordering::Relaxed};

use crate::game::{Game, Unmoves};

mod cells;
mod levels;
mod local_ranks;
mod memory;
pub(crate) use memory::release_free_memory;
mod packed;
mod part_file;
mod partition;
mod preds;
mod run;
mod shelf;
mod solution;
mod spill;

pub use cells::{MAX_BYTE_PAYLOAD, MAX_COMPACT_PLIES, MAX_PLIES};
use cells::{Pos, Word};
pub use local_ranks::LocalRanks;
pub use part_file::{PartFile, write_part};
pub use partition::{EXCHANGE_BUDGET, Part, Partition, Transport, TransportError};
use preds::UnmovePreds;
use run::Run;
pub use shelf::Shelved;
pub(crate) use shelf::{ShelvedBytes, ShelvedWords};
pub use solution::Solution;
use spill::{Scratch, WINDOW, WINDOW_BYTES};

/// Positions handled by one parallel task of a pass.
const CHUNK: usize = 1 << 14;

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
    /// The scratch file of the start pass's lists could not be made, written or read
    /// ([`Retrograde::scratch_dir`]): the file (or directory) and what the system said.
    Scratch(String),
    /// A partitioned solve ([`Retrograde::solve_part`]): the ranks could not reach each other,
    /// or another rank failed.
    Transport(String),
    /// A move of the game raises its progress level ([`crate::perpetual::Checks::progress_level`]):
    /// the positions moved from and to.
    LevelRaised {
        /// The position the move is made from.
        from: usize,
        /// The position it leads to, of a higher level.
        to: usize,
    },
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
            SolveError::Scratch(why) => write!(f, "the solver's scratch file: {why}"),
            SolveError::Transport(why) => write!(f, "partitioned solve: {why}"),
            SolveError::LevelRaised { from, to } => {
                write!(f, "the move from position {from} to {to} raises the game's progress level")
            }
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
pub struct Retrograde<'a> {
    hooks: Hooks<'a>,
    cells: CellSize,
    wide_positions: bool,
    /// Where the scratch file goes (`None`: the system's temporary directory).
    scratch_dir: Option<&'a Path>,
    /// Solves of at least this many positions spill their lists to a scratch file.
    spill_above: u64,
    /// Outgoing bytes of a partitioned solve's round ([`Retrograde::exchange_budget`]).
    exchange_budget: u64,
}

/// Solves of at least this many positions keep the start pass's lists in a scratch file
/// ([`Retrograde::spill_above`]): 64 M positions, whose lists would take about 12 MiB (up to
/// 16 MiB as the estimate counts them) and which a solve passes in a few seconds.
pub const SPILL_ABOVE: u64 = 1 << 26;

impl Default for Retrograde<'_> {
    fn default() -> Self {
        Retrograde::new()
    }
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
        Retrograde {
            hooks: Hooks::default(),
            cells: CellSize::Four,
            wide_positions: false,
            scratch_dir: None,
            spill_above: SPILL_ABOVE,
            exchange_budget: EXCHANGE_BUDGET,
        }
    }

    /// Puts the scratch file of the start pass's lists (solves of [`Retrograde::spill_above`]
    /// positions or more) in `dir` instead of the system's temporary directory. The file has
    /// no name once made (where the system allows it: else it is removed when the solve
    /// ends), so it is gone however the solve ends; it takes about a quarter byte per position.
    #[must_use]
    pub fn scratch_dir(mut self, dir: &'a Path) -> Self {
        self.scratch_dir = Some(dir);
        self
    }

    /// Keeps the start pass's lists (the terminal positions and the moves of known value, by
    /// distance: about 0.1 to 0.2 bytes a position in table bases) in a scratch file in solves
    /// of at least `positions` positions ([`SPILL_ABOVE`] unless told), and reads each level's
    /// lists back when the level is walked: their memory is then a window's worth (the lists
    /// of at most 16 M positions, fewer when `positions` is smaller, so that tests of small
    /// games spill several windows) and the list of where they lie. The solution is the same.
    #[must_use]
    pub fn spill_above(mut self, positions: u64) -> Self {
        self.spill_above = positions;
        self
    }

    /// The scratch file of a solve of `n` positions, when it spills, and the positions of its
    /// windows.
    fn scratch(&self, n: usize) -> Result<Option<Scratch>, SolveError> {
        if (n as u64) < self.spill_above {
            return Ok(None);
        }
        let window = usize::try_from(self.spill_above).unwrap_or(usize::MAX).clamp(CHUNK, WINDOW);
        Scratch::new(self.scratch_dir, window / CHUNK * CHUNK).map(Some)
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
    /// un-moves ([`Retrograde::solve_with_unmoves`]): the cells, an eighth of a byte per
    /// position for the two level bitmaps (a bit per pair of positions each) and, for the
    /// packed lists of the start pass (moves with known values, about a byte per position in a
    /// list, at most three lists per position, and the terminal positions; measured at most
    /// 0.19 bytes per index, see BENCHMARKS.md), a quarter byte per position in memory, or in
    /// solves that spill them to a scratch file ([`Retrograde::spill_above`]) 16 MiB for the
    /// lists of a window and 1/256 byte per position for the list of where their segments lie
    /// (72 bytes a segment: a segment per window, list and distance, about 300 000 segments
    /// in a solve of 16.5 G positions with distances up to 100). With [`CellSize::One`], the
    /// long distances' escapes are not counted (8 bytes each, 16 in indices of `u32::MAX`
    /// positions or more; they grow as the level passes reach distances of 63 plies). Plus 1 MiB for the fixed parts of the
    /// lists (a list and a first segment per level, whatever the number of positions: in the
    /// smallest materials they pass the terms per position).
    #[must_use]
    pub fn memory_estimate(&self, positions: u64) -> u64 {
        let cells = match self.cells {
            CellSize::Four => 4,
            CellSize::Two => 2,
            CellSize::One => 1,
        };
        let lists =
            if positions >= self.spill_above { WINDOW_BYTES + positions / 256 } else { positions / 4 };
        positions
            .saturating_mul(cells)
            .saturating_add(positions / 8)
            .saturating_add(lists)
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
        fn go<G: Game, W: Word>(game: &G, solver: &Retrograde<'_>) -> Result<Solution, SolveError> {
            // The reverse edges hold 4-byte position numbers: 4-byte lists suffice.
            let scratch = solver.scratch(game.num_positions())?;
            let mut run = Run::<G, W, u32>::start(game, solver.hooks, scratch)?;
            let preds = run.reverse_edges(game);
            run.propagate(&preds)
        }
        match self.cells {
            CellSize::Four => go::<G, AtomicU32>(game, self),
            CellSize::Two => go::<G, AtomicU16>(game, self),
            CellSize::One => match go::<G, AtomicU8>(game, self) {
                Err(SolveError::TooManyMoves(_)) => go::<G, AtomicU16>(game, self),
                other => other,
            },
        }
    }

    /// Solves a game through its un-moves.
    ///
    /// # Errors
    /// When the game is larger than the solver's limits (see [`SolveError`]).
    pub fn solve_with_unmoves<G: Unmoves>(&self, game: &G) -> Result<Solution, SolveError> {
        fn go<G: Unmoves, P: Pos>(game: &G, solver: &Retrograde<'_>) -> Result<Solution, SolveError> {
            let preds = UnmovePreds(game);
            let (hooks, n) = (solver.hooks, game.num_positions());
            match solver.cells {
                CellSize::Four => {
                    Run::<G, AtomicU32, P>::start(game, hooks, solver.scratch(n)?)?.propagate(&preds)
                }
                CellSize::Two => {
                    Run::<G, AtomicU16, P>::start(game, hooks, solver.scratch(n)?)?.propagate(&preds)
                }
                CellSize::One => match Run::<G, AtomicU8, P>::start(game, hooks, solver.scratch(n)?) {
                    Err(SolveError::TooManyMoves(_)) => {
                        Run::<G, AtomicU16, P>::start(game, hooks, solver.scratch(n)?)?.propagate(&preds)
                    }
                    run => run?.propagate(&preds),
                },
            }
        }
        if self.wide_positions || game.num_positions() >= u32::MAX as usize {
            go::<G, u64>(game, self)
        } else {
            go::<G, u32>(game, self)
        }
    }
}
