//! Checking a table against the rules, position by position: the value of a position must be
//! what its legal moves give (the best of its moves' values, or a loss in 0 without a move).
//!
//! The check uses nothing of the solver: the moves come from the rules engine
//! ([`Position::legal_moves`]) and every value from the tables through [`Probe`]. A table that
//! passes it at every position is right: a win must have a move into a loss one ply shorter, a
//! loss only moves into wins at most one ply shorter, so every win and loss is grounded in a
//! finished game, and a draw can reach no loss of the opponent and has a move that is no loss.
//! Tables of hundreds of millions of positions are checked on a random sample.

use endgame_core::Value;

use crate::probe::{Probe, ProbeError};
use crate::rules::material::Material;
use crate::rules::position::Position;
use crate::rules::rule_set::Rules;
use crate::tables::index::MaterialIndex;

/// What a check found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verified {
    /// Legal positions checked.
    pub checked: u64,
    /// Indices drawn that were holes or illegal positions (nothing to check).
    pub skipped: u64,
    /// Whether every index of the material was checked (else a random sample).
    pub every_index: bool,
    /// The first positions whose value disagrees with their moves (at most
    /// [`MAX_MISMATCHES`]).
    pub mismatches: Vec<Mismatch>,
    /// How many positions disagree in all.
    pub mismatch_count: u64,
}

/// A position whose value is not what its moves give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The position.
    pub position: Position,
    /// Its value in the table.
    pub table: Value,
    /// What its moves give.
    pub from_moves: Value,
}

/// The most mismatches a [`Verified`] lists.
pub const MAX_MISMATCHES: usize = 10;

/// The value that the moves of a legal position give: a loss in 0 without a legal move, else
/// the best of the moves' values (each the value after the move, seen from the mover).
///
/// # Errors
/// As [`Probe::moves`].
pub fn value_from_moves(tables: &impl Probe, position: &Position) -> Result<Value, ProbeError> {
    Ok(tables.moves(position)?.first().map_or(Value::loss_in(0), |m| m.value.plain()))
}

/// Checks `samples` random indices of `material` (every index when `samples` is at least the
/// size of its index), drawn from `seed`: for each legal position, its value against
/// [`value_from_moves`]. Only `standard` rules (a General that cannot move loses; endless play
/// draws) have this simple rule of values.
///
/// # Errors
/// When a table is missing or cannot be read, or `tables` is not under standard rules.
pub fn verify(
    tables: &impl Probe,
    material: Material,
    samples: u64,
    seed: u64,
) -> Result<Verified, VerifyError> {
    if tables.rules() != Rules::Standard {
        return Err(VerifyError::Rules(tables.rules()));
    }
    let index = MaterialIndex::new(material);
    let n = index.len() as u64;
    let mut found = Verified { every_index: samples >= n, ..Verified::default() };
    let mut rng = SplitMix64(seed);
    let count = samples.min(n);
    for i in 0..count {
        let at = if found.every_index { i } else { rng.below(n) };
        let Some(position) = index.decode(at as usize) else {
            found.skipped += 1;
            continue;
        };
        if position.check(Rules::Standard).is_err() {
            found.skipped += 1;
            continue;
        }
        let table = tables.probe(&position)?.plain();
        let from_moves = value_from_moves(tables, &position)?;
        found.checked += 1;
        if table != from_moves {
            found.mismatch_count += 1;
            if found.mismatches.len() < MAX_MISMATCHES {
                found.mismatches.push(Mismatch { position, table, from_moves });
            }
        }
    }
    Ok(found)
}

/// Why a check could not run.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    /// The rule set has no check here.
    #[error("verify checks tables under standard rules, not {0}")]
    Rules(Rules),
    /// A value could not be probed.
    #[error(transparent)]
    Probe(#[from] ProbeError),
}

/// Sebastiano Vigna's SplitMix64: a small, well-mixed generator for reproducible samples.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`), by Lemire's multiply-shift (the bias is below 2^-32 for
    /// the index sizes here).
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }
}
