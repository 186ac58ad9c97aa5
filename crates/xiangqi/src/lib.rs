//! Xiangqi (Chinese chess) rules and exact endgame tables.
//!
//! The crate's rooms, from the ground up (each imports only those below it):
//!
//! - [`rules`]: the game. [`Square`] (files `a`-`i`, ranks `0`-`9`, rank 0 = Red's back rank),
//!   [`Color`], [`Role`], [`Piece`], [`Move`] in ICCS coordinates (`h2e2`), each with
//!   `FromStr`/`Display`; a [`Setup`] read from Xiangqi FEN ([`rules::fen`], Pikafish
//!   letters), validated into a [`Position`] (one General per side, inside its palace, every
//!   piece on a point it can reach); [`Material`] (`KRvKA`, `KCPvKAB`); move generation for
//!   all seven piece kinds ([`rules::movegen`], and on bit sets [`rules::bitboard`]); and the
//!   four rule sets, [`Rules`]: `standard` (no move into check or facing Generals, no legal
//!   move loses, endless play draws: no perpetual-check or perpetual-chase rules, the one
//!   deviation from real Xiangqi), `hdu` (capture the General to win, moving into danger is
//!   legal, flying-general capture), `perpetual-check` (`standard`, and a side that checks
//!   forever loses) and `check-and-chase` (`standard` with the bans on perpetual check and
//!   perpetual chase, [`rules::chase`]).
//! - [`probe`]: the [`Probe`] trait (value, category, moves, main line), the same answers
//!   from any table that gives values.
//! - [`tables`]: a dense [`MaterialIndex`] per material (up to the left-right mirror), the
//!   material as a game for the core solvers, and [`MemoryTables`], materials solved in
//!   memory by the core retrograde solver, smaller materials first because captures lead into
//!   them, with un-moves and 1-byte cells; [`Stats`] counts the legal positions as
//!   GamesmanXiangqi published them; [`hdu()`] holds `KvKN` under `hdu` rules. Under the two
//!   rule sets with bans, [`PerpetualTablebase`] (the core's [`endgame_core::perpetual`]
//!   solver). [`tables::audit`] checks a table against the rules.
//! - [`store`]: [`Tablebases`], the tables of one rule set in one directory, read block by
//!   block through a byte-bounded cache and generated there; its cost model
//!   ([`store::cost`]); converting files of the previous format and manifests of checksums
//!   ([`store::convert`], [`store::manifest`]).
//! - [`jobs`]: generation on demand: the estimate of what a material still needs, `ensure`
//!   with progress and a memory budget, and a queue of cancellable jobs for a server;
//!   `cluster` (the `mpi` feature): generation on an MPI cluster.
//! - What people read and type: [`report`] (the JSON of answers), [`typed`] (positions,
//!   materials and rule sets as users type them, with the command line's messages, shared by
//!   the command line and the bindings), [`wxf`] (moves in WXF notation, `C2.5`, `H8+7`),
//!   [`catalogue`] (named endgames), [`judge`] (the HDU 5897 contest format), [`record`]
//!   (game records: PGN in ICCS, WXF or Chinese notation, and XQF, read and written),
//!   [`review`] (a game's moves against perfect play: blunders, mistakes, the best moves).
//!
//! ```
//! use endgame_xiangqi::{Position, Probe, Setup, hdu};
//!
//! // Black's Horse on d4 and General on d9 against Red's General on d0, Black to move.
//! let position = Position::from_setup("3k5/9/9/9/9/3n5/9/9/9/3K5 b".parse::<Setup>()?)?;
//! assert_eq!(hdu().probe(&position)?.to_string(), "win in 7 plies");
//! let line = hdu().main_line(&position)?;
//! assert_eq!(line.moves[0].mv.to_string(), "d9e9");
//! assert_eq!(line.moves.len(), 7);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod catalogue;
#[cfg(feature = "mpi")]
pub mod cluster;
pub mod jobs;
pub mod judge;
pub mod probe;
pub mod record;
pub mod report;
pub mod review;
pub mod rules;
pub mod store;
pub mod tables;
pub mod typed;
pub mod wxf;

pub use endgame_core::table::{Category, Compression};
pub use probe::{DRAW_LINE_PLIES, LineEnd, MainLine, MoveValue, Probe, ProbeError};
pub use record::{Game, Notation, RecordError, read_records, write_pgn};
pub use rules::board::{Board, Setup};
pub use rules::color::Color;
pub use rules::fen::FenError;
pub use rules::material::{Defenders, DefendersError, Material, MaterialError, SideDefenders};
pub use rules::moves::{Move, ParseMoveError};
pub use rules::piece::{Piece, Role};
pub use rules::position::{IllegalMove, Position, PositionError};
pub use rules::rule_set::Rules;
pub use rules::square::{File, Rank, Square};
pub use store::Tablebases;
pub use store::generate::{GenerateError, GenerateEvent, GenerateSummary};
pub use store::loaded::Loaded;
pub use tables::index::{ColourFlip, MaterialIndex};
pub use tables::memory_tables::{MemoryTables, Table};
pub use tables::perpetual::{PerpetualStats, PerpetualTablebase};
pub use tables::solve::{hdu, kvkn};
pub use tables::stats::{SideStats, Stats, StatsBySide};
