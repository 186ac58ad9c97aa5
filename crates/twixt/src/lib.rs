//! Twixt on boards of any size: the rules engine, record formats, and POJ 2706 "Connect".
//!
//! Rules: points `(x, y)` with `0 <= x, y <= N`. Black moves first and connects the columns
//! `x = 0` and `x = N`; White connects the rows `y = 0` and `y = N`; nobody may put a peg in the
//! opponent's endzones. A new peg is linked to every same-colored peg a knight's move away
//! unless the new link would cross an existing one (any link under [`Rules::Poj`], an opponent's
//! link under [`Rules::Pp`]). A player wins when its links connect its two endzones. An
//! optional pie rule lets White answer Black's first peg `(x, y)` by taking it over as `(y, x)`.
//!
//! - [`geometry`]: points and board sizes, knight directions, the exact crossing test and the
//!   blocking table derived from it.
//! - [`rules`]: the vocabulary: colors, rule sets, moves, links, outcomes, move errors.
//! - [`position`]: the engine ([`Position`]: a game in progress; not the core `Game` trait): a
//!   peg map with no worst case, constant work per move, union-find win detection.
//! - [`record`]: game records in the judge's token format, SGF (Little Golem) and T1 (T1j), with
//!   format detection and writers.
//! - [`replay`]: a record played through, move by move, with threats at the end.
//! - [`render`]: ASCII and SVG pictures of a board.
//! - [`generate`]: random legal games for benchmarks.
//! - [`judge`]: POJ 2706 "Connect" (HDU 2727).

pub mod generate;
pub mod geometry;
pub mod judge;
mod pegmap;
pub mod position;
pub mod record;
pub mod render;
pub mod replay;
pub mod rules;

pub use geometry::{Dir, Point};
pub use position::Position;
pub use record::{Format, ParseFormatError, Record};
pub use rules::{
    Color, Config, Link, Move, MoveError, MoveErrorKind, Outcome, ParseRulesError, Placed, Played, Rules,
};
