//! One marine against zerglings (BZOJ 2205 / Vijos 1766, "Marine"), solved exactly.
//!
//! The rules: on a grid of passable and blocked cells a marine fights zerglings, round by
//! round. In a round the marine moves one cell (not onto a live zergling) or stays and shoots
//! one live zergling of its choice (1 HP, any range); killing the last one wins at once. Then
//! all live zerglings act together: one orthogonally next to the marine attacks, the others
//! step along a shortest path to the marine (first steps preferred left, up, right, down;
//! zerglings do not block each other; no path, no step). The marine loses 1 HP per distinct
//! cell attacked from and falls at 0 HP. Winning within the round limit (34 in the contest)
//! counts; the question is the fewest rounds.
//!
//! The algorithm: the zerglings' steps are looked up in a table built once per map (one
//! breadth-first search per marine cell, [`map`]); the battle is a one-agent puzzle for the
//! core's layered shortest-win search with symmetry, dominance on the marine's HP and a bound
//! on the shots still needed ([`solve`]).
//!
//! - [`map`]: cells, directions, the map and its chase table;
//! - [`state`]: states and one round of the rules;
//! - [`setup`]: an unvalidated [`Setup`] and the checked [`Battle`];
//! - [`text`]: the battle file format;
//! - [`solve`]: the search and the winning plan;
//! - [`plan`]: the plan written for people; [`report`]: the solution as JSON;
//! - [`judge`]: the contest's input and output.

pub mod judge;
pub mod map;
pub mod plan;
pub mod report;
pub mod setup;
pub mod solve;
pub mod state;
pub mod text;

pub use map::{Cell, Direction, MAX_CELLS, Map, MapError, ParseDirectionError};
pub use setup::{Battle, Setup, SetupError, Unit};
pub use solve::{BYTES_PER_STATE, DEFAULT_ROUNDS, Solution, Turn, default_max_states};
pub use state::{Action, Key, MAX_ZERGLINGS, Outcome, State, Zergling, actions, play};
