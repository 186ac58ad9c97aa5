//! The JSON endpoints' routes (the README's "Web explorer" section lists them with curl
//! examples), and the endpoints of the examples, Twixt, Cheesy Chess and Marine; the Xiangqi
//! ones are in [`crate::xiangqi`] and [`crate::generate`].
//!
//! Bodies are the files the command-line tool reads; answers are the JSON it prints with
//! `--json`. Bad input: 400 `{"error": "..."}` with the tool's message after the file name.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use endgame_core::search::{Pruning, Stopped};
use endgame_twixt::replay::{self, Report};
use endgame_twixt::{Config, Record};

use crate::request::{BodyText, CheesySolveRequest, MarineSolveRequest, Parsed, TwixtReplayRequest};
use crate::response::{self, TwixtAnswer};
use crate::{ApiError, AppState};

/// The API routes.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/api/examples", get(examples))
        .route("/api/xiangqi", get(crate::xiangqi::position))
        .route("/api/xiangqi/stats", get(crate::xiangqi::stats))
        .route("/api/twixt/replay", post(twixt_replay))
        .route("/api/cheesy/solve", post(cheesy_solve))
        .route("/api/marine/solve", post(marine_solve))
}

/// `GET /api/examples`.
async fn examples() -> Response {
    Json(response::examples()).into_response()
}

/// `POST /api/twixt/replay?format=&rules=&swap=&upto=`: the body is a record in any format.
async fn twixt_replay(
    State(state): State<Arc<AppState>>,
    Parsed(request): Parsed<TwixtReplayRequest>,
    BodyText(text): BodyText,
) -> Result<Response, ApiError> {
    response::searched(&state, move |cancel| {
        let mut record = Record::parse(&text, request.format).map_err(|mut e| {
            if e.message == endgame_twixt::record::UNKNOWN_FORMAT {
                e.message.push_str("; choose the format (format=judge, sgf or t1)");
            }
            ApiError::bad_request(e)
        })?;
        let mut config: Config = record.default_config();
        if let Some(rules) = request.rules {
            config.rules = rules;
        }
        if let Some(swap) = request.swap {
            config.swap = swap;
        }
        if let Some(upto) = request.upto {
            record.moves.truncate(upto);
        }
        let played = replay::replay_cancellable(&record, config, cancel).map_err(|e| match e {
            replay::ReplayError::Input(e) => ApiError::bad_request(e),
            replay::ReplayError::Cancelled(e) => ApiError::unavailable(e),
        })?;
        let report = Report::new(&record, &played);
        let threats = replay::threats(&record, &played.position);
        Ok(TwixtAnswer { report, threats })
    })
    .await
}

/// `POST /api/cheesy/solve?to_move=white|black`: the body is a board file.
async fn cheesy_solve(
    State(state): State<Arc<AppState>>,
    Parsed(request): Parsed<CheesySolveRequest>,
    BodyText(text): BodyText,
) -> Result<Response, ApiError> {
    response::searched(&state, move |cancel| {
        let position =
            endgame_cheesy::text::parse_position(&text, request.to_move).map_err(ApiError::bad_request)?;
        let answer = endgame_cheesy::solve_cancellable(&position, cancel).map_err(ApiError::unavailable)?;
        Ok(endgame_cheesy::report::Report::new(&position, &answer))
    })
    .await
}

/// `POST /api/marine/solve?rounds=N`: the body is a battle file.
async fn marine_solve(
    State(state): State<Arc<AppState>>,
    Parsed(request): Parsed<MarineSolveRequest>,
    BodyText(text): BodyText,
) -> Result<Response, ApiError> {
    let max_states = state.limits.marine_states;
    response::searched(&state, move |cancel| {
        let battle: endgame_marine::Battle = text.parse().map_err(ApiError::bad_request)?;
        let solution = battle
            .solve_cancellable(request.rounds, Pruning::ALL, max_states, &mut |_| {}, cancel)
            .map_err(|e| match e {
                Stopped::TooManyStates(e) => ApiError::unavailable(format!(
                    "{e} (the server's limit), about {} MB; fewer rounds or hit points make the search smaller",
                    e.stats.states * 100 / 1_000_000
                )),
                Stopped::Cancelled(_) => ApiError::unavailable(e),
            })?;
        Ok(endgame_marine::report::to_json(&battle, &solution))
    })
    .await
}
