//! The JSON endpoints (the README's "Web explorer" section lists them with curl examples).
//!
//! Bodies are the files the command-line tool reads; answers are the JSON it prints with
//! `--json`. Bad input: 400 `{"error": "..."}` with the tool's message after the file name.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::body::Body;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use endgame_core::search::{Pruning, Stopped};
use endgame_twixt::replay::{self, Report, Threats};
use endgame_twixt::{Config, Format, Record, Rules};
use serde::Serialize;

use crate::{ApiError, AppState, Limits, MAX_BODY};

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

/// The query parameters in order, or a 400 naming what is wrong with them.
pub(crate) type Params = Result<Query<Vec<(String, String)>>, QueryRejection>;

/// The parameters as a map; unknown names and names given twice are errors (a typo or a
/// second value must not be ignored).
pub(crate) fn params(params: Params, known: &[&str]) -> Result<HashMap<String, String>, ApiError> {
    let Query(pairs) = params.map_err(|e| ApiError::bad_request(format!("query: {}", e.body_text())))?;
    let mut map = HashMap::with_capacity(pairs.len());
    for (name, value) in pairs {
        if !known.contains(&name.as_str()) {
            let expected = if known.is_empty() { "none".to_string() } else { known.join(", ") };
            return Err(ApiError::bad_request(format!(
                "query: unknown parameter '{name}' (expected: {expected})"
            )));
        }
        if map.contains_key(&name) {
            return Err(ApiError::bad_request(format!(
                "query: parameter '{name}' given twice (expected it once)"
            )));
        }
        map.insert(name, value);
    }
    Ok(map)
}

/// A parameter parsed by `FromStr`, or `None` when absent.
fn parsed<T: std::str::FromStr>(map: &HashMap<String, String>, name: &str) -> Result<Option<T>, ApiError>
where
    T::Err: std::fmt::Display,
{
    map.get(name)
        .map(|v| {
            v.parse::<T>()
                .map_err(|e| ApiError::bad_request(format!("query: invalid value '{v}' for {name}: {e}")))
        })
        .transpose()
}

/// The request body as text: not received within the body time limit 408, over the size limit
/// 413, not UTF-8 400 naming line and column (the tool's message for a file that is not text).
async fn body_text(limits: &Limits, body: Body) -> Result<String, ApiError> {
    let seconds = limits.body_time.as_secs_f64();
    let bytes = tokio::time::timeout(limits.body_time, axum::body::to_bytes(body, MAX_BODY))
        .await
        .map_err(|_| ApiError {
            status: StatusCode::REQUEST_TIMEOUT,
            message: format!("request body: not received within the server's limit of {seconds} s"),
        })?
        .map_err(|e| {
            let e = e.into_inner();
            if e.is::<http_body_util::LengthLimitError>() {
                ApiError {
                    status: StatusCode::PAYLOAD_TOO_LARGE,
                    message: format!(
                        "request body: longer than the server's limit of {} MiB",
                        MAX_BODY >> 20
                    ),
                }
            } else {
                ApiError::bad_request(format!("request body: {e}"))
            }
        })?;
    String::from_utf8(bytes.to_vec()).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let text = &e.as_bytes()[..at];
        let line = text.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = text.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        ApiError::bad_request(format!("line {line}, column {column}: expected UTF-8 text"))
    })
}

/// Example inputs for the page: the classic Xiangqi endgames (the page's examples menu:
/// `english`, `chinese`, `material`, `fen` each, from `endgame_xiangqi::catalogue`), a Twixt
/// record, a Cheesy board, a Marine battle.
async fn examples() -> Response {
    Json(serde_json::json!({
        "xiangqi": endgame_xiangqi::catalogue::catalogue_json(),
        "twixt": include_str!("../../twixt/tests/data/sample.T1"),
        "twixt_judge": "7 11\n0 3 6 5 3 2 5 7 7 2 4 4\n5 3 5 2 4 5 4 0 2 4\n",
        "cheesy": include_str!("../../cheesy/examples/sample1.txt"),
        "marine": include_str!("../../marine/examples/corner.txt"),
    }))
    .into_response()
}

/// `twixt replay --json` and the threats after the last move.
#[derive(Serialize)]
struct TwixtAnswer {
    #[serde(flatten)]
    report: Report,
    threats: Threats,
}

/// `POST /api/twixt/replay?format=&rules=&swap=&upto=`: the body is a record in any format.
async fn twixt_replay(
    State(state): State<Arc<AppState>>,
    query: Params,
    body: Body,
) -> Result<Response, ApiError> {
    let map = params(query, &["format", "rules", "swap", "upto"])?;
    let format: Option<Format> = parsed(&map, "format")?;
    let rules: Option<Rules> = parsed(&map, "rules")?;
    let swap = match map.get("swap").map(String::as_str) {
        None => None,
        Some("on") => Some(true),
        Some("off") => Some(false),
        Some(v) => {
            return Err(ApiError::bad_request(format!(
                "query: invalid value '{v}' for swap: expected on or off"
            )));
        }
    };
    let upto: Option<usize> = parsed(&map, "upto")?;
    let text = body_text(&state.limits, body).await?;
    let answer = state
        .search(move |cancel| -> Result<TwixtAnswer, ApiError> {
            let mut record = Record::parse(&text, format).map_err(|mut e| {
                if e.message == endgame_twixt::record::UNKNOWN_FORMAT {
                    e.message.push_str("; choose the format (format=judge, sgf or t1)");
                }
                ApiError::bad_request(e)
            })?;
            let mut config: Config = record.default_config();
            if let Some(rules) = rules {
                config.rules = rules;
            }
            if let Some(swap) = swap {
                config.swap = swap;
            }
            if let Some(upto) = upto {
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
        .await??;
    Ok(Json(answer).into_response())
}

/// `POST /api/cheesy/solve?to_move=white|black`: the body is a board file.
async fn cheesy_solve(
    State(state): State<Arc<AppState>>,
    query: Params,
    body: Body,
) -> Result<Response, ApiError> {
    use endgame_cheesy::Color;
    let map = params(query, &["to_move"])?;
    let to_move = match map.get("to_move").map(String::as_str) {
        None | Some("white") => Color::White,
        Some("black") => Color::Black,
        Some(v) => {
            return Err(ApiError::bad_request(format!(
                "query: invalid value '{v}' for to_move: expected white or black"
            )));
        }
    };
    let text = body_text(&state.limits, body).await?;
    let report = state
        .search(move |cancel| -> Result<endgame_cheesy::report::Report, ApiError> {
            let position =
                endgame_cheesy::text::parse_position(&text, to_move).map_err(ApiError::bad_request)?;
            let answer =
                endgame_cheesy::solve_cancellable(&position, cancel).map_err(ApiError::unavailable)?;
            Ok(endgame_cheesy::report::Report::new(&position, &answer))
        })
        .await??;
    Ok(Json(report).into_response())
}

/// `POST /api/marine/solve?rounds=N`: the body is a battle file.
async fn marine_solve(
    State(state): State<Arc<AppState>>,
    query: Params,
    body: Body,
) -> Result<Response, ApiError> {
    use endgame_marine::{Battle, DEFAULT_ROUNDS};
    let map = params(query, &["rounds"])?;
    let rounds: u32 = parsed(&map, "rounds")?.unwrap_or(DEFAULT_ROUNDS);
    let max_rounds = state.limits.marine_rounds;
    if rounds > max_rounds {
        return Err(ApiError::bad_request(format!(
            "query: rounds {rounds} is over the server's limit of {max_rounds}"
        )));
    }
    let max_states = state.limits.marine_states;
    let text = body_text(&state.limits, body).await?;
    let json = state
        .search(move |cancel| -> Result<serde_json::Value, ApiError> {
            let battle: Battle = text.parse().map_err(ApiError::bad_request)?;
            let solution =
                battle.solve_cancellable(rounds, Pruning::ALL, max_states, &mut |_| {}, cancel).map_err(|e| match e {
                    Stopped::TooManyStates(e) => ApiError::unavailable(format!(
                        "{e} (the server's limit), about {} MB; fewer rounds or hit points make the search smaller",
                        e.stats.states * 100 / 1_000_000
                    )),
                    Stopped::Cancelled(_) => ApiError::unavailable(e),
                })?;
            Ok(endgame_marine::report::to_json(&battle, &solution))
        })
        .await??;
    Ok(Json(json).into_response())
}
