//! Cheesy Chess (HDU 1680, POJ 3455, BOJ 9114): a white king against a black pawn, solved
//! exactly on boards of any size up to 64 x 64, for either side to move.
//!
//! # Rules
//! A board of `F` (forbidden: nobody enters), `D` (dangerous: the pawn may enter, the king may
//! not) and `.` (open) fields; the two squares diagonally below the pawn are dangerous too and
//! move with it. The king steps to a neighbour (8 directions) it may enter, and wins by
//! stepping onto the pawn. The pawn steps one square down. Nobody passes. A king without a
//! square loses; a pawn that cannot move wins on the bottom row and loses anywhere else. See
//! [`position`] for the details.
//!
//! # Algorithm
//! The pawn only moves down its column, so a game from a position reaches at most
//! `rows * cols * y * 2` placements (king square, pawn row, side to move). They are numbered
//! densely ([`game::CheesyGame`]) and solved by the core's retrograde analysis through
//! un-moves: every placement gets its exact value, the winner winning as fast as possible and
//! the loser losing as slowly as possible ([`solve()`]).
//!
//! # Modules
//! - [`board`]: [`Field`], [`Square`], [`Board`];
//! - [`position`]: [`Color`], [`Move`], [`Ending`], [`Setup`] and the validated [`Position`];
//! - [`game`]: the index for the solver; [`solve()`]: winner, distance and line of play;
//! - [`text`]: board files and printed boards; [`judge`]: the contest format;
//! - [`report`]: the serialisable answer (`--json`, the web explorer);
//! - [`winner()`]: only the winner, by a fast forward search (the judge's path);
//! - [`random`]: random inputs for benchmarks and searches.

pub mod board;
pub mod game;
pub mod judge;
pub mod position;
pub mod random;
pub mod report;
pub mod solve;
pub mod text;
pub mod winner;

pub use board::{Board, BoardError, Field, Square};
pub use game::CheesyGame;
pub use position::{Color, Ending, Move, Placement, Position, PositionError, Setup};
pub use solve::{Answer, Ply, scored_moves, solve, solve_cancellable, value};
pub use winner::winner;
