//! The JSON endpoints' routes (`docs/server-api.md` lists them with curl examples), and the endpoints of the examples, Twixt, Cheesy Chess and Marine; the Xiangqi
//! ones are in [`crate::xiangqi`] and [`crate::generate`].
//!
//! Bodies are the files the command-line tool reads; answers are the JSON it prints with
//! `--json`. Bad input: 400 `{"error": "..."}` with the tool's message after the file name.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use endgame_core::search::{Pruning, Stopped};
use endgame_twixt::replay::{self, Report};
use endgame_twixt::{Config, Record};
use serde::Serialize;

use crate::request::{
    BodyText, CheesySolveRequest, FromQuery, MarineSolveRequest, Parsed, TwixtReplayRequest,
};
use crate::response::{self, TwixtAnswer};
use crate::{ApiError, AppState, Limits};

/// The API routes.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/api/examples", get(examples))
        .route("/api/xiangqi", get(crate::xiangqi::position))
        .route("/api/xiangqi/stats", get(crate::xiangqi::stats))
        .route("/api/xiangqi/review", post(crate::review::review))
        .route("/api/twixt/replay", post(search::<TwixtReplayRequest>))
        .route("/api/cheesy/solve", post(search::<CheesySolveRequest>))
        .route("/api/marine/solve", post(search::<MarineSolveRequest>))
}

/// `GET /api/examples`.
async fn examples() -> Response {
    Json(response::examples()).into_response()
}

/// A search over a posted file: a Twixt record, a Cheesy Chess board, a Marine battle. The
/// query says how (the request); the body is the file the command-line tool reads.
trait FileSearch: FromQuery + Send + 'static {
    /// What the search answers: the JSON the tool prints with `--json`.
    type Answer: Serialize + Send + 'static;

    /// The answer for the file `text` within `limits`; stops when `cancel` is set.
    fn answer(self, text: &str, limits: &Limits, cancel: &AtomicBool) -> Result<Self::Answer, ApiError>;
}

/// The endpoint of a [`FileSearch`]: the query parsed, the body read, then the search run on
/// the search pool.
async fn search<S: FileSearch>(
    State(state): State<Arc<AppState>>,
    Parsed(request): Parsed<S>,
    BodyText(text): BodyText,
) -> Result<Response, ApiError> {
    let worker = Arc::clone(&state);
    response::searched(&state, move |cancel| request.answer(&text, &worker.limits, cancel)).await
}

/// `POST /api/twixt/replay?format=&rules=&swap=&upto=`: the body is a record in any format.
impl FileSearch for TwixtReplayRequest {
    type Answer = TwixtAnswer;

    fn answer(self, text: &str, _: &Limits, cancel: &AtomicBool) -> Result<TwixtAnswer, ApiError> {
        let mut record = Record::parse(text, self.format).map_err(|mut e| {
            if e.message == endgame_twixt::record::UNKNOWN_FORMAT {
                e.message.push_str("; choose the format (format=judge, sgf or t1)");
            }
            ApiError::bad_request(e)
        })?;
        let mut config: Config = record.default_config();
        if let Some(rules) = self.rules {
            config.rules = rules;
        }
        if let Some(swap) = self.swap {
            config.swap = swap;
        }
        if let Some(upto) = self.upto {
            record.moves.truncate(upto);
        }
        let played = replay::replay_cancellable(&record, config, cancel).map_err(|e| match e {
            replay::ReplayError::Input(e) => ApiError::bad_request(e),
            replay::ReplayError::Cancelled(e) => ApiError::unavailable(e),
        })?;
        let report = Report::new(&record, &played);
        let threats = replay::threats(&record, &played.position);
        Ok(TwixtAnswer { report, threats })
    }
}

/// `POST /api/cheesy/solve?to_move=white|black`: the body is a board file.
impl FileSearch for CheesySolveRequest {
    type Answer = endgame_cheesy::report::Report;

    fn answer(self, text: &str, _: &Limits, cancel: &AtomicBool) -> Result<Self::Answer, ApiError> {
        let position =
            endgame_cheesy::text::parse_position(text, self.to_move).map_err(ApiError::bad_request)?;
        let answer = endgame_cheesy::solve_cancellable(&position, cancel).map_err(ApiError::unavailable)?;
        Ok(endgame_cheesy::report::Report::new(&position, &answer))
    }
}

/// `POST /api/marine/solve?rounds=N`: the body is a battle file; the search stores at most
/// the server's limit of states.
impl FileSearch for MarineSolveRequest {
    type Answer = serde_json::Value;

    fn answer(self, text: &str, limits: &Limits, cancel: &AtomicBool) -> Result<Self::Answer, ApiError> {
        let battle: endgame_marine::Battle = text.parse().map_err(ApiError::bad_request)?;
        let solution = battle
            .solve_cancellable(self.rounds, Pruning::ALL, limits.marine_states, &mut |_| {}, cancel)
            .map_err(|e| match e {
                Stopped::TooManyStates(e) => ApiError::unavailable(format!(
                    "{e} (the server's limit), about {}; fewer rounds or hit points make the search smaller",
                    endgame_core::units::bytes(e.stats.states * endgame_marine::BYTES_PER_STATE)
                )),
                Stopped::Cancelled(_) => ApiError::unavailable(e),
            })?;
        Ok(endgame_marine::report::to_json(&battle, &solution))
    }
}
