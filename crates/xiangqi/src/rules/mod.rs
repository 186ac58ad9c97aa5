//! The game: the board and its pieces, positions, moves and the rule sets, with nothing of
//! the tables. Everything else in the crate stands on it.
//!
//! - Vocabulary, bottom up: [`color`], [`square`] (points in ICCS coordinates), [`piece`]
//!   (kinds, pieces, the points each may stand on), [`board`] (and its FEN field), [`fen`]
//!   (Xiangqi FEN as Pikafish writes it), [`material`] (the pieces counted: `KRvKA`).
//! - Rules: [`rule_set`] (the four rule sets), [`moves`] (the move type, `h2e2`),
//!   [`movegen`] (legal moves by walking the board, the check test), [`bitboard`] (the same
//!   rules on bit sets, for table generation), [`position`] (a validated position, playing
//!   moves), [`chase`] (what the ban on perpetual chase counts as a chase).

pub mod bitboard;
pub mod board;
pub mod chase;
pub mod color;
pub mod fen;
pub mod material;
pub mod movegen;
pub mod moves;
pub mod piece;
pub mod position;
pub mod rule_set;
pub mod square;
