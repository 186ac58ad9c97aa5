//! Game-independent exact solving for endgame: the solvers, the values they give, and the
//! file format the values are kept in. From the bottom up:
//!
//! - [`value`]: results for the side to move ([`Value`]: win/draw/loss with the distance in
//!   plies; [`RuleValue`]: the same with wins and losses by a ban on perpetual play) and their
//!   order (the shortest win, then a draw, then the longest loss); [`counts`]: how many of each
//!   a table holds ([`Counts`]).
//! - [`game`]: what a game supplies (dense position numbers, moves, optionally un-moves);
//!   [`cancel`]: cooperative cancellation; [`input`]: input errors that name the place, and a
//!   token reader for contest formats.
//! - [`retrograde`]: [`Retrograde`] computes the value and distance of every position,
//!   cycles included, in O(positions + moves), in parallel ([`Solution`]).
//! - [`perpetual`]: the same under the bans on perpetual check and perpetual chase, for any
//!   game that marks checks (and chases): nested fixpoints over the position graph.
//! - [`line`](mod@line): every move of a position with its value, the best move, the main
//!   line (and [`line::perpetual`] under the rule).
//! - [`conformance`]: the checks every game runs in its tests, and the certificate of a
//!   solution under the rule.
//! - [`table`]: the file format of solved tables (a WDL file and a DTM file per table, zstd
//!   blocks read one at a time, checksums, statistics in the header, atomic writes), a
//!   byte-bounded cache of decompressed blocks, and a table's two files answering a probe
//!   ([`table::Pair`]); [`table::v2`]: the previous format, read to convert it.
//! - [`schedule`]: tiers (pieces of a game) handed out in dependency order, largest ready
//!   first, finished ones skipped: one scheduler for a process and for a cluster.
//! - [`search`]: shortest-win search for one agent against a deterministic environment, with
//!   symmetry, dominance and bound pruning.
//! - [`explicit`]: a game given by an explicit move list, for tests and examples.
//! - [`units`]: numbers as people read them (sizes in KiB, MiB, GiB; counts grouped in
//!   threes; times), the one convention of every interface.
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
pub mod units;
pub mod value;

pub use cancel::Cancelled;
pub use counts::Counts;
pub use game::{FirstLook, Game, Successor, Unmoves};
pub use input::{InputError, JudgeError, Tokens};
pub use line::{ScoredMove, best_move, main_line, scored_moves};
pub use retrograde::{CellSize, Phase, Progress, Retrograde, SPILL_ABOVE, Shelved, Solution, SolveError};
pub use search::{
    CANCEL_EVERY, Pruning, Puzzle, SearchResult, SearchStats, Step, Stopped, TooManyStates, shortest_win,
    shortest_win_cancellable, shortest_win_observed, shortest_win_within,
};
pub use value::{Ban, Plies, RuleValue, Value, Wdl};
