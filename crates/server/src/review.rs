//! `POST /api/xiangqi/review?rules=R&game=N&mistake_plies=N`: a game of the record in the body
//! (PGN in any notation and encoding, or XQF; at most [`MAX_BODY`](crate::MAX_BODY) bytes)
//! reviewed against the tables of the rule set: the JSON of `endgame xiangqi review --json`.
//!
//! A review may solve small materials in memory (the first time they are met), so it always
//! runs as a *search* ([`AppState::search`]): its time is bounded, it is cancelled at the
//! limit, and probes never wait behind it. It never generates a file: the materials it misses
//! are listed in `summary.missing` (the page offers their generation through
//! `/api/xiangqi/generate`), their messages naming files relative to the table directory.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use axum::extract::State;
use axum::response::Response;
use endgame_xiangqi::review::{RecordReviewError, ReviewError, ReviewOptions, review_record};
use serde_json::Value;

use crate::request::{BodyBytes, Parsed, ReviewRequest};
use crate::{ApiError, AppState, response};

/// `POST /api/xiangqi/review`.
pub(crate) async fn review(
    State(state): State<Arc<AppState>>,
    Parsed(request): Parsed<ReviewRequest>,
    BodyBytes(bytes): BodyBytes,
) -> Result<Response, ApiError> {
    let shared = Arc::clone(&state);
    response::searched(&state, move |cancel| answer(&shared, &request, &bytes, cancel)).await
}

/// The review's JSON, or why there is none: 400 for a record that cannot be read (the
/// reader's message, naming the game and the move), 503 when cancelled, 500 when the tables
/// fail.
fn answer(
    state: &AppState,
    request: &ReviewRequest,
    bytes: &[u8],
    cancel: &AtomicBool,
) -> Result<Value, ApiError> {
    let tables = state.xiangqi.get(request.rules);
    let options = ReviewOptions { mistake_plies: request.mistake_plies };
    let reviewed = review_record(&*tables, bytes, request.game, options, cancel).map_err(|e| match e {
        RecordReviewError::Review { error: ReviewError::Cancelled, .. } => ApiError::unavailable(e),
        e if e.table_failure().is_some() => ApiError::internal(state.xiangqi.relative(&e.to_string())),
        e => ApiError::bad_request(e),
    })?;
    let mut json = reviewed.to_json();
    if let Some(missing) = json["summary"]["missing"].as_array_mut() {
        for m in missing {
            let message = m["message"].as_str().map(|text| state.xiangqi.relative(text));
            m["message"] = message.into();
        }
    }
    Ok(json)
}
