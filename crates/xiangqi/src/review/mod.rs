//! A game reviewed against perfect play: every move's value from the tables, and a mark where
//! the mover made its result worse.
//!
//! [`review`] plays a game (a start [`Position`] and its moves, each checked against the rule
//! set) through, and for every position the tables answer (any [`Probe`]: the store on disk,
//! with its materials of up to 4 men solved in memory, or tables in memory) gives the value for
//! the side to move, the value of the move played for the side that played it, the best move,
//! and a [`Mark`]:
//!
//! - **blunder**: the move's category is worse than the position's for the mover (a win
//!   turned into a draw or a loss, a draw into a loss; wins and losses by a ban on perpetual
//!   play count as wins and losses);
//! - **mistake**: the position is a win by mate and the move keeps the win, but mates at least
//!   [`ReviewOptions::mistake_plies`] plies later than the best move (or only wins by the rule
//!   any more: the mate is thrown away, the win rests on the opponent's ban). A loser's faster
//!   loss, a draw kept, a win by the rule with a larger rank are not marked.
//!
//! Positions before the first one the tables answer (too many men, a material not generated)
//! have no value; the review says which materials were missing ([`Missing`]), so that a caller
//! can generate them. The JSON is in [`json`]; the per-side [`Summary`] in [`summary`]; a
//! game of a record (PGN or XQF, [`crate::record`]) reviewed in one call: [`review_record`].

mod game;
pub mod json;
pub mod summary;

use std::sync::atomic::{AtomicBool, Ordering};

use endgame_core::RuleValue;

use crate::probe::{MoveValue, Probe, ProbeError};
use crate::rules::color::Color;
use crate::rules::material::Material;
use crate::rules::moves::Move;
use crate::rules::piece::Piece;
use crate::rules::position::{IllegalMove, Position, PositionError};
use crate::rules::rule_set::Rules;

pub use game::{GameReview, RecordReviewError, review_game, review_record};
pub use summary::{PerfectPlay, SideSummary, Summary};

/// The default of [`ReviewOptions::mistake_plies`]: a win kept but 10 plies (five moves of
/// each side) longer than the best is a mistake. Smaller delays are mostly another order of
/// the same moves, or a tempo lost and won back, which players do not call mistakes.
pub const DEFAULT_MISTAKE_PLIES: u32 = 10;

/// How a review marks moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewOptions {
    /// A winning move that mates at least this many plies later than the best is a mistake
    /// (at least 1).
    pub mistake_plies: u32,
}

impl Default for ReviewOptions {
    fn default() -> Self {
        ReviewOptions { mistake_plies: DEFAULT_MISTAKE_PLIES }
    }
}

/// What a move did wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// A win or a draw thrown away: the move's category is worse for the mover.
    Blunder,
    /// A win kept, but at least [`ReviewOptions::mistake_plies`] plies longer than the best
    /// (or kept only by the rule).
    Mistake,
}

impl Mark {
    /// `blunder` or `mistake`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Mark::Blunder => "blunder",
            Mark::Mistake => "mistake",
        }
    }
}

impl std::fmt::Display for Mark {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One move of the game and its verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyReview {
    /// Its number: 1 for the game's first move.
    pub ply: usize,
    /// The position before it.
    pub before: Position,
    /// The move.
    pub mv: Move,
    /// The piece it captures.
    pub capture: Option<Piece>,
    /// The value of `before` for its side to move (the mover), `None` where the tables do not
    /// answer.
    pub value: Option<RuleValue>,
    /// The move's value for the mover, counted from `before` (as [`MoveValue::value`]), `None`
    /// where the tables do not answer the position after it.
    pub played: Option<RuleValue>,
    /// The best move with its value for the mover (the first of [`Probe::moves`]; the move
    /// played when it is as good), `None` where `value` is.
    pub best: Option<MoveValue>,
    /// The verdict, `None` for a move as good as the best, or not answered.
    pub mark: Option<Mark>,
}

/// A material the tables did not answer, where it first stood in the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    /// The material.
    pub material: Material,
    /// The first ply played from a position of it (the number of plies plus one: the final
    /// position).
    pub ply: usize,
    /// Whether its table could be generated (it is only not generated yet; `false` when it
    /// cannot have one, or the tables are solved in memory only).
    pub can_generate: bool,
    /// Why: the probe's message.
    pub message: String,
}

/// A game reviewed: the verdict of every move (see the [module](self) docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Review {
    /// The rule set of the values.
    pub rules: Rules,
    /// The options it was made with.
    pub options: ReviewOptions,
    /// The position the game starts from.
    pub start: Position,
    /// One entry per move, in order.
    pub plies: Vec<PlyReview>,
    /// The position after the last move.
    pub end: Position,
    /// Its value for its side to move, `None` where the tables do not answer.
    pub end_value: Option<RuleValue>,
    /// The materials the tables did not answer, in the order the game met them.
    pub missing: Vec<Missing>,
}

/// Why a game cannot be reviewed.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// The start position is illegal under the rule set.
    #[error("start position: {0}")]
    Start(PositionError),
    /// A move is not legal where it is played.
    #[error(
        "move {} ({}, ply {ply}) \"{}\": {error}",
        move_label(*turn_at_start, *ply), error.turn, error.mv
    )]
    Illegal {
        /// Its ply (1 for the first move).
        ply: usize,
        /// Who moves first in the game (for the move's number).
        turn_at_start: Color,
        /// The move and why.
        error: IllegalMove,
    },
    /// The tables failed (a file unreadable or damaged, a solve failed): not the game's fault.
    #[error("ply {ply}: {error}")]
    Tables {
        /// The ply whose position was probed (the number of plies plus one: the final position).
        ply: usize,
        /// The failure.
        error: ProbeError,
    },
    /// The review was cancelled ([`review_cancellable`]).
    #[error("the review was cancelled")]
    Cancelled,
}

/// The number of the move of ply `ply` in a game whose first move is `first`'s: Red's and
/// Black's moves share a number, the first move is 1 (a game that starts with Black's move
/// gives Black's first move the number 1 and Red's next move 2).
#[must_use]
pub const fn move_number(first: Color, ply: usize) -> usize {
    match first {
        Color::Red => ply.div_ceil(2),
        Color::Black => (ply + 2) / 2,
    }
}

/// The side that plays ply `ply` of a game whose first move is `first`'s.
#[must_use]
pub fn mover(first: Color, ply: usize) -> Color {
    if ply % 2 == 1 { first } else { !first }
}

/// `12.` for Red's 12th move, `12...` for Black's (the usual way to number a move of either
/// side).
#[must_use]
pub fn move_label(first: Color, ply: usize) -> String {
    let number = move_number(first, ply);
    match mover(first, ply) {
        Color::Red => format!("{number}."),
        Color::Black => format!("{number}..."),
    }
}

/// The value of `position` for its side to move: `Ok(None)` when the tables do not answer
/// (the material is missing, noted in `missing` once), an error when they fail.
fn value_of(
    tables: &impl Probe,
    position: &Position,
    ply: usize,
    missing: &mut Vec<Missing>,
) -> Result<Option<RuleValue>, ReviewError> {
    match tables.probe(position) {
        Ok(value) => Ok(Some(value)),
        Err(
            e @ (ProbeError::NotGenerated { .. }
            | ProbeError::NotSolved { .. }
            | ProbeError::BeyondTables { .. }),
        ) => {
            let material = position.material();
            if !missing.iter().any(|m| m.material == material) {
                let can_generate = e.is_not_generated();
                missing.push(Missing { material, ply, can_generate, message: e.to_string() });
            }
            Ok(None)
        }
        Err(error) => Err(ReviewError::Tables { ply, error }),
    }
}

/// The verdict of a move of value `played` (for the mover) from a position of value `value`.
#[must_use]
pub fn mark(value: RuleValue, played: RuleValue, options: ReviewOptions) -> Option<Mark> {
    let rank = |v: RuleValue| match v.wdl() {
        endgame_core::Wdl::Loss => 0,
        endgame_core::Wdl::Draw => 1,
        endgame_core::Wdl::Win => 2,
    };
    if rank(played) < rank(value) {
        return Some(Mark::Blunder);
    }
    match (value, played) {
        (RuleValue::Win(best), RuleValue::Win(slower))
            if slower.0.saturating_sub(best.0) >= options.mistake_plies.max(1) =>
        {
            Some(Mark::Mistake)
        }
        (RuleValue::Win(_), RuleValue::WinByRule(..)) => Some(Mark::Mistake),
        _ => None,
    }
}

/// Plays `moves` from `start` under the rules of `tables` and reviews every move (see the
/// [module](self) docs).
///
/// # Errors
/// [`ReviewError::Start`] when `start` is illegal under the rules, [`ReviewError::Illegal`] for
/// the first move that is not legal where it is played, [`ReviewError::Tables`] when the tables
/// fail (not when they only lack a material).
pub fn review(
    tables: &impl Probe,
    start: &Position,
    moves: &[Move],
    options: ReviewOptions,
) -> Result<Review, ReviewError> {
    review_cancellable(tables, start, moves, options, &AtomicBool::new(false))
}

/// [`review`], stopping with [`ReviewError::Cancelled`] soon after `cancel` is set (looked at
/// before each move: a server's time limit).
///
/// # Errors
/// As [`review`], and [`ReviewError::Cancelled`].
pub fn review_cancellable(
    tables: &impl Probe,
    start: &Position,
    moves: &[Move],
    options: ReviewOptions,
    cancel: &AtomicBool,
) -> Result<Review, ReviewError> {
    let rules = tables.rules();
    start.check(rules).map_err(ReviewError::Start)?;
    let mut missing = Vec::new();
    let mut plies = Vec::with_capacity(moves.len());
    let mut at = *start;
    let mut value = value_of(tables, &at, 1, &mut missing)?;
    for (k, &mv) in moves.iter().enumerate() {
        if cancel.load(Ordering::Relaxed) {
            return Err(ReviewError::Cancelled);
        }
        let ply = k + 1;
        let next = at.play(mv, rules).map_err(|error| ReviewError::Illegal {
            ply,
            turn_at_start: start.turn(),
            error,
        })?;
        let after = value_of(tables, &next, ply + 1, &mut missing)?;
        // The value after the move as the move's: a rank of another material means nothing
        // here (as in `Probe::moves`).
        let after_move = after.map(|v| if next.material() == at.material() { v } else { v.without_rank() });
        let played = after_move.map(RuleValue::before_move);
        let capture = at.capture(mv);
        let (best, mark) = match value {
            Some(value) => {
                let this = played.zip(after_move).map(|(played, after)| MoveValue {
                    mv,
                    capture,
                    value: played,
                    after,
                });
                let best = best_move(tables, &at, value, this)
                    .map_err(|error| ReviewError::Tables { ply, error })?;
                (best, played.and_then(|played| self::mark(value, played, options)))
            }
            None => (None, None),
        };
        plies.push(PlyReview { ply, before: at, mv, capture, value, played, best, mark });
        at = next;
        value = after;
    }
    Ok(Review { rules, options, start: *start, plies, end: at, end_value: value, missing })
}

/// The best move of `position` (of value `value`): the move played (`played`, when the
/// position after it is answered) when it is as good, else the first of [`Probe::moves`]
/// (found without every move's value for a win or a loss by mate, [`Probe::best_move`]).
fn best_move(
    tables: &impl Probe,
    position: &Position,
    value: RuleValue,
    played: Option<MoveValue>,
) -> Result<Option<MoveValue>, ProbeError> {
    if let Some(played) = played.filter(|p| p.value == value) {
        return Ok(Some(played));
    }
    let best = match tables.best_move(position, value)? {
        Some(best) => Some(best),
        None => tables.moves(position)?.first().copied(),
    };
    // A move as good as the first (a capture into a rule win of rank 0, say) is the move played.
    Ok(best.map(|b| match played {
        Some(played) if played.value == b.value => played,
        _ => b,
    }))
}

impl Review {
    /// The side that moves first.
    #[must_use]
    pub const fn first_mover(&self) -> Color {
        self.start.turn()
    }

    /// The first position the tables answer: its ply (the ply played from it; the number of
    /// plies plus one for the final position), the position and its value for the side to move.
    #[must_use]
    pub fn first_answered(&self) -> Option<(usize, Position, RuleValue)> {
        self.plies
            .iter()
            .find_map(|p| p.value.map(|v| (p.ply, p.before, v)))
            .or_else(|| self.end_value.map(|v| (self.plies.len() + 1, self.end, v)))
    }
}

#[cfg(test)]
mod tests;
