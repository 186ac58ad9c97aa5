//! Game-independent exact solving for endgame.
//!
//! - [`value`]: results for the side to move ([`Value`]: win/draw/loss with the
//!   distance in plies) and their order (the shortest win, then a draw, then the longest loss).
//! - [`game`] and [`retrograde`]: a game numbers its positions densely and supplies moves
//!   (optionally un-moves); [`Retrograde`] computes the value and distance of every position,
//!   cycles included, in O(positions + moves), in parallel.
//! - [`perpetual`]: the same under the ban on perpetual check (a side that checks forever
//!   loses), for any game that marks "in check": nested fixpoints over the position graph.
//! - [`line`](mod@line): every move of a position with its value, the best move, the main line.
//! - [`schedule`]: tiers (pieces of a game) handed out in dependency order, largest ready
//!   first, finished ones skipped: one scheduler for a process and for a cluster.
//! - [`search`]: shortest-win search for one agent against a deterministic environment, with
//!   symmetry, dominance and bound pruning.
//! - [`cancel`]: cooperative cancellation, a flag the solvers read between blocks of work.
//! - [`conformance`]: the checks every game runs in its tests (index round trip, un-moves
//!   against moves, symmetry, and a full consistency check of a solution).
//! - [`input`]: input errors that name the place, and a token reader for contest formats.
//! - [`table_file`]: the file format of solved tables (a WDL file and a DTM file per table,
//!   values remapped by frequency, holes chosen freely, zstd blocks read one at a time,
//!   checksums, statistics in the header, atomic writes) and a byte-bounded cache of
//!   decompressed blocks; [`table_v2`]: the previous format, read to convert it.
//! - [`explicit`]: a game given by an explicit move list, for tests and examples.
//!
//! Distances are always plies (half-moves), never full moves.

pub mod cancel;
pub mod conformance;
pub mod counts;
pub mod explicit;
pub mod game;
pub mod input;
pub mod line;
pub mod perpetual;
pub mod retrograde;
pub mod schedule;
pub mod search;
pub mod table;
pub mod value;

pub use cancel::Cancelled;
pub use counts::Counts;
pub use game::{FirstLook, Game, Successor, Unmoves};
pub use input::{InputError, JudgeError, Tokens};
pub use line::{ScoredMove, best_move, main_line, scored_moves};
pub use retrograde::{CellSize, Phase, Progress, Retrograde, Solution, SolveError};
pub use search::{
    CANCEL_EVERY, Pruning, Puzzle, SearchResult, SearchStats, Step, Stopped, TooManyStates, shortest_win,
    shortest_win_cancellable, shortest_win_observed, shortest_win_within,
};
pub use value::{Ban, Plies, RuleValue, Value, Wdl};

/// The file format of solved tables, at its old path.
// compat: removed after the house merge
pub mod table_file {
    pub use crate::table::{
        Block, BlockCache, BlockKey, Category, Compression, DTM_BLOCK, FORMAT_VERSION, FileKind, KeyHash,
        KeyHasher, Pair, TableError, TableFile, TableFiles, TableId, TablePaths, WDL_BLOCK, host_tag,
        move_tables, temporary_name, write_rule_solution, write_solution, write_tables,
    };
}

/// The pool of open table files, at its old path.
// compat: removed after the house merge
pub mod open_files {
    pub use crate::table::open_files::*;
}

/// The previous file format, at its old path.
// compat: removed after the house merge
pub mod table_v2 {
    pub use crate::table::v2::*;
}
