//! The tables: a dense index of each material's positions, the material as a game for the core
//! solvers, solving in memory, and the counts over a table. Below the store (which reads and
//! writes them as files) and above the rules.
//!
//! - [`index`]: [`MaterialIndex`](index::MaterialIndex), positions to numbers and back, up to
//!   the mirror, and to the colour twin's numbers.
//! - [`material_game`]: one material under `hdu` or `standard` rules as the core solver sees
//!   it (moves, un-moves, captures into smaller materials).
//! - [`memory_tables`]: solved tables held in memory; [`solve`]: solving them, smaller
//!   materials first; [`stats`]: the counts over a table's legal positions.
//! - [`perpetual`]: the same under the bans on perpetual check and chase.
//! - [`audit`]: a table checked against the rules, position by position.

pub mod audit;
pub mod index;
pub mod material_game;
pub mod memory_tables;
pub mod perpetual;
pub mod solve;
pub mod stats;
