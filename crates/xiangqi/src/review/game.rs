//! A game of a record reviewed in one call, as the command line, the server and the Python
//! binding do it: the record read ([`read_records`], PGN or XQF), one game chosen, reviewed
//! ([`review`]), and its JSON with the game's number and tags.

use std::sync::atomic::AtomicBool;

use serde_json::{Map, Value as Json, json};

use super::json::review_json;
use super::{Review, ReviewError, ReviewOptions, review_cancellable};
use crate::probe::{Probe, ProbeError};
use crate::record::{Game, RecordError, read_records};

/// A game of a record and its review.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReview {
    /// Its number in the record, 1-based.
    pub number: usize,
    /// How many games the record holds.
    pub games: usize,
    /// The game as read.
    pub game: Game,
    /// Its review.
    pub review: Review,
}

impl GameReview {
    /// [`review_json`] with `game` (its number), `games` (in the record) and `tags` (an object,
    /// the first value of each name).
    #[must_use]
    pub fn to_json(&self) -> Json {
        let mut tags = Map::new();
        for (name, value) in &self.game.tags {
            tags.entry(name.clone()).or_insert_with(|| json!(value));
        }
        let mut json = review_json(&self.review);
        json["game"] = json!(self.number);
        json["games"] = json!(self.games);
        json["tags"] = Json::Object(tags);
        json
    }
}

/// Why a game of a record was not reviewed.
#[derive(Debug, thiserror::Error)]
pub enum RecordReviewError {
    /// The record cannot be read (its message names the game and the move, or the line).
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The game asked for is not in the record.
    #[error("game {asked}: the record holds {}", games_count(*games))]
    NoSuchGame {
        /// The game asked for, 1-based.
        asked: usize,
        /// How many there are.
        games: usize,
    },
    /// The game cannot be reviewed under the rule set (its message names the move).
    #[error("game {game}, {error}")]
    Review {
        /// The game, 1-based.
        game: usize,
        /// Why.
        error: ReviewError,
    },
}

fn games_count(n: usize) -> String {
    if n == 1 { "1 game".to_string() } else { format!("{n} games") }
}

impl RecordReviewError {
    /// The tables' failure (a file unreadable or damaged), when that is the cause: not the
    /// record's fault.
    #[must_use]
    pub const fn table_failure(&self) -> Option<&ProbeError> {
        match self {
            RecordReviewError::Review { error: ReviewError::Tables { error, .. }, .. } => Some(error),
            _ => None,
        }
    }
}

/// Reads the record `bytes` (PGN in any notation and encoding, or XQF), and reviews its game
/// `game` (1-based; `None`: the first) against `tables`, stopping soon after `cancel` is set.
///
/// # Errors
/// [`RecordReviewError`]: the record unreadable, the game not there, a move illegal under the
/// tables' rule set, or the tables failing.
pub fn review_record(
    tables: &impl Probe,
    bytes: &[u8],
    game: Option<usize>,
    options: ReviewOptions,
    cancel: &AtomicBool,
) -> Result<GameReview, RecordReviewError> {
    review_game(tables, read_records(bytes)?, game, options, cancel)
}

/// Reviews game `game` (1-based; `None`: the first) of the games of a record read already
/// ([`review_record`] without the reading).
///
/// # Errors
/// As [`review_record`], but for the reading.
pub fn review_game(
    tables: &impl Probe,
    mut games: Vec<Game>,
    game: Option<usize>,
    options: ReviewOptions,
    cancel: &AtomicBool,
) -> Result<GameReview, RecordReviewError> {
    let count = games.len();
    let number = game.unwrap_or(1);
    if number == 0 || number > count {
        return Err(RecordReviewError::NoSuchGame { asked: number, games: count });
    }
    let game = games.swap_remove(number - 1);
    let review = review_cancellable(tables, &game.start, &game.moves, options, cancel)
        .map_err(|error| RecordReviewError::Review { game: number, error })?;
    Ok(GameReview { number, games: count, game, review })
}
