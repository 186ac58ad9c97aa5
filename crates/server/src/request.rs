//! The requests of the JSON endpoints, typed: each endpoint's query (and path) read into a
//! struct before any work is done, and its body read as text (or as bytes: a record).
//!
//! A request that does not parse gets 400 naming the parameter; unknown names and names given
//! twice are errors too (a typo or a second value must not be ignored). [`Parsed`] is the
//! extractor of a query; each request type says which names it takes ([`FromQuery::NAMES`]).

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{FromRequest, FromRequestParts, Path, Query};
use axum::http::StatusCode;
use axum::http::request::Parts;
use endgame_twixt::Format;
use endgame_xiangqi::{Material, Position, Rules, Setup};

use crate::{ApiError, AppState, Limits, MAX_BODY};

/// The parameters of a query by name: each given once, each one the endpoint takes.
pub(crate) struct QueryParams(HashMap<String, String>);

impl QueryParams {
    /// The query of `parts`; a name not in `known`, or given twice, is an error.
    fn read(parts: &Parts, known: &[&str]) -> Result<Self, ApiError> {
        let Query(pairs) = Query::<Vec<(String, String)>>::try_from_uri(&parts.uri)
            .map_err(|e| ApiError::bad_request(format!("query: {}", e.body_text())))?;
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
        Ok(QueryParams(map))
    }

    /// The value of `name`, when given.
    fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// The value of `name` parsed by `FromStr`, or `None` when absent.
    fn parsed<T: FromStr>(&self, name: &str) -> Result<Option<T>, ApiError>
    where
        T::Err: std::fmt::Display,
    {
        self.get(name)
            .map(|v| {
                v.parse::<T>()
                    .map_err(|e| ApiError::bad_request(format!("query: invalid value '{v}' for {name}: {e}")))
            })
            .transpose()
    }
}

/// A request read from its query.
pub(crate) trait FromQuery: Sized {
    /// The parameter names the endpoint takes.
    const NAMES: &'static [&'static str];

    /// The request, or 400 naming what is wrong (the state for the server's limits).
    fn from_query(query: &QueryParams, state: &AppState) -> Result<Self, ApiError>;
}

/// The extractor of a request `T` from the query; rejected with `T`'s 400.
pub(crate) struct Parsed<T>(pub T);

impl<T: FromQuery + Send> FromRequestParts<Arc<AppState>> for Parsed<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &Arc<AppState>) -> Result<Self, ApiError> {
        let query = QueryParams::read(parts, T::NAMES)?;
        T::from_query(&query, state).map(Parsed)
    }
}

/// The Xiangqi rule set of `rules=` (standard when absent).
fn xiangqi_rules(query: &QueryParams) -> Result<Rules, ApiError> {
    match query.get("rules") {
        None => Ok(Rules::Standard),
        Some(r) => r.parse().map_err(|_| {
            ApiError::bad_request(format!(
                "query: invalid value '{r}' for rules: expected standard, hdu, perpetual-check or check-and-chase"
            ))
        }),
    }
}

/// The position of a FEN, with the command line's messages: `FEN "...": ...`, `position: ...`.
fn position_of(fen: &str) -> Result<Position, ApiError> {
    let setup: Setup = fen.parse().map_err(|e| ApiError::bad_request(format!("FEN {fen:?}: {e}")))?;
    Position::from_setup(setup).map_err(|e| ApiError::bad_request(format!("position: {e}")))
}

/// A material as `material {text:?}: ...` names it.
fn material_of(text: &str) -> Result<Material, ApiError> {
    text.parse().map_err(|e| ApiError::bad_request(format!("material {text:?}: {e}")))
}

/// `GET /api/xiangqi?fen=FEN&rules=R`: a legal position under its rule set.
pub(crate) struct PositionRequest {
    /// The rule set.
    pub rules: Rules,
    /// The position, legal under `rules`.
    pub position: Position,
}

impl FromQuery for PositionRequest {
    const NAMES: &'static [&'static str] = &["fen", "rules"];

    fn from_query(query: &QueryParams, _: &AppState) -> Result<Self, ApiError> {
        let rules = xiangqi_rules(query)?;
        let fen = query.get("fen").ok_or_else(|| ApiError::bad_request("query: expected fen=FEN"))?;
        let position = position_of(fen)?;
        position.check(rules).map_err(|e| ApiError::bad_request(format!("position: {e}")))?;
        Ok(PositionRequest { rules, position })
    }
}

/// `GET /api/xiangqi/estimate` and `POST /api/xiangqi/generate`: `material=M` or the material
/// of `fen=FEN` (one of them), and `rules=R`.
pub(crate) struct MaterialRequest {
    /// The rule set.
    pub rules: Rules,
    /// The material.
    pub material: Material,
}

impl FromQuery for MaterialRequest {
    const NAMES: &'static [&'static str] = &["material", "fen", "rules"];

    fn from_query(query: &QueryParams, _: &AppState) -> Result<Self, ApiError> {
        let rules = xiangqi_rules(query)?;
        let material = match (query.get("material"), query.get("fen")) {
            (Some(text), None) => material_of(text)?,
            (None, Some(fen)) => position_of(fen)?.material(),
            _ => {
                return Err(ApiError::bad_request(
                    "query: expected material=MATERIAL or fen=FEN (one of them)",
                ));
            }
        };
        Ok(MaterialRequest { rules, material })
    }
}

/// `GET /api/xiangqi/stats?material=M&rules=R`: a material by name only.
pub(crate) struct StatsRequest(pub MaterialRequest);

impl FromQuery for StatsRequest {
    const NAMES: &'static [&'static str] = &["material", "rules"];

    fn from_query(query: &QueryParams, _: &AppState) -> Result<Self, ApiError> {
        let rules = xiangqi_rules(query)?;
        let text = query
            .get("material")
            .ok_or_else(|| ApiError::bad_request("query: expected material=MATERIAL"))?;
        Ok(StatsRequest(MaterialRequest { rules, material: material_of(text)? }))
    }
}

/// `POST /api/xiangqi/review?rules=R&game=N&mistake_plies=N`: the body is the record.
pub(crate) struct ReviewRequest {
    /// The rule set.
    pub rules: Rules,
    /// The game of the record, 1-based (`None`: the first).
    pub game: Option<usize>,
    /// A winning move this many plies slower than the best (or more) is a mistake.
    pub mistake_plies: u32,
}

impl FromQuery for ReviewRequest {
    const NAMES: &'static [&'static str] = &["rules", "game", "mistake_plies"];

    fn from_query(query: &QueryParams, _: &AppState) -> Result<Self, ApiError> {
        let rules = xiangqi_rules(query)?;
        let game: Option<usize> = query.parsed("game")?;
        if game == Some(0) {
            return Err(ApiError::bad_request("query: invalid value '0' for game: games are counted from 1"));
        }
        let mistake_plies: u32 =
            query.parsed("mistake_plies")?.unwrap_or(endgame_xiangqi::review::DEFAULT_MISTAKE_PLIES);
        if mistake_plies == 0 {
            return Err(ApiError::bad_request(
                "query: invalid value '0' for mistake_plies: expected at least 1",
            ));
        }
        Ok(ReviewRequest { rules, game, mistake_plies })
    }
}

/// `GET /api/xiangqi/jobs/ID`: the job's number, no query.
pub(crate) struct JobRequest {
    /// The job's number.
    pub id: u64,
}

/// The number of the job in the path of `parts`.
async fn job_id(parts: &mut Parts, state: &Arc<AppState>) -> Result<u64, ApiError> {
    let Path(text) = Path::<String>::from_request_parts(parts, state)
        .await
        .map_err(|e| ApiError::bad_request(format!("path: {}", e.body_text())))?;
    text.parse().map_err(|_| ApiError::bad_request(format!("job {text:?}: expected the number of a job")))
}

impl FromRequestParts<Arc<AppState>> for JobRequest {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &Arc<AppState>) -> Result<Self, ApiError> {
        QueryParams::read(parts, &[])?;
        Ok(JobRequest { id: job_id(parts, state).await? })
    }
}

/// `DELETE /api/xiangqi/jobs/ID?ticket=T`: the job's number and the ticket its request was
/// given (`None`: not given; the handler says what is missing).
pub(crate) struct CancelRequest {
    /// The job's number.
    pub id: u64,
    /// The ticket.
    pub ticket: Option<String>,
}

impl FromRequestParts<Arc<AppState>> for CancelRequest {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &Arc<AppState>) -> Result<Self, ApiError> {
        let query = QueryParams::read(parts, &["ticket"])?;
        let ticket = query.get("ticket").map(str::to_string);
        Ok(CancelRequest { id: job_id(parts, state).await?, ticket })
    }
}

/// `POST /api/twixt/replay?format=&rules=&swap=&upto=`: what the record's own settings give
/// way to.
pub(crate) struct TwixtReplayRequest {
    /// The record's format (`None`: detected).
    pub format: Option<Format>,
    /// The rule set (`None`: the record's).
    pub rules: Option<endgame_twixt::Rules>,
    /// The pie rule on or off (`None`: the record's).
    pub swap: Option<bool>,
    /// The moves replayed (`None`: all).
    pub upto: Option<usize>,
}

impl FromQuery for TwixtReplayRequest {
    const NAMES: &'static [&'static str] = &["format", "rules", "swap", "upto"];

    fn from_query(query: &QueryParams, _: &AppState) -> Result<Self, ApiError> {
        let format = query.parsed("format")?;
        let rules = query.parsed("rules")?;
        let swap = match query.get("swap") {
            None => None,
            Some("on") => Some(true),
            Some("off") => Some(false),
            Some(v) => {
                return Err(ApiError::bad_request(format!(
                    "query: invalid value '{v}' for swap: expected on or off"
                )));
            }
        };
        let upto = query.parsed("upto")?;
        Ok(TwixtReplayRequest { format, rules, swap, upto })
    }
}

/// `POST /api/cheesy/solve?to_move=white|black` (White when absent).
pub(crate) struct CheesySolveRequest {
    /// The side to move.
    pub to_move: endgame_cheesy::Color,
}

impl FromQuery for CheesySolveRequest {
    const NAMES: &'static [&'static str] = &["to_move"];

    fn from_query(query: &QueryParams, _: &AppState) -> Result<Self, ApiError> {
        use endgame_cheesy::Color;
        let to_move = match query.get("to_move") {
            None | Some("white") => Color::White,
            Some("black") => Color::Black,
            Some(v) => {
                return Err(ApiError::bad_request(format!(
                    "query: invalid value '{v}' for to_move: expected white or black"
                )));
            }
        };
        Ok(CheesySolveRequest { to_move })
    }
}

/// `POST /api/marine/solve?rounds=N`: at most the server's limit of rounds.
pub(crate) struct MarineSolveRequest {
    /// The round limit.
    pub rounds: u32,
}

impl FromQuery for MarineSolveRequest {
    const NAMES: &'static [&'static str] = &["rounds"];

    fn from_query(query: &QueryParams, state: &AppState) -> Result<Self, ApiError> {
        let rounds: u32 = query.parsed("rounds")?.unwrap_or(endgame_marine::DEFAULT_ROUNDS);
        let max_rounds = state.limits.marine_rounds;
        if rounds > max_rounds {
            return Err(ApiError::bad_request(format!(
                "query: rounds {rounds} is over the server's limit of {max_rounds}"
            )));
        }
        Ok(MarineSolveRequest { rounds })
    }
}

/// The request body as text (the file the command-line tool would read), read after the
/// query has parsed.
pub(crate) struct BodyText(pub String);

impl FromRequest<Arc<AppState>> for BodyText {
    type Rejection = ApiError;

    async fn from_request(request: axum::extract::Request, state: &Arc<AppState>) -> Result<Self, ApiError> {
        body_text(&state.limits, request.into_body()).await.map(BodyText)
    }
}

/// The request body as bytes (a record that may be binary, XQF, or text in any encoding),
/// read after the query has parsed, within the same limits as [`BodyText`].
pub(crate) struct BodyBytes(pub Vec<u8>);

impl FromRequest<Arc<AppState>> for BodyBytes {
    type Rejection = ApiError;

    async fn from_request(request: axum::extract::Request, state: &Arc<AppState>) -> Result<Self, ApiError> {
        body_bytes(&state.limits, request.into_body()).await.map(BodyBytes)
    }
}

/// The request body as text: as [`body_bytes`], and not UTF-8 400 naming line and column (the
/// tool's message for a file that is not text).
async fn body_text(limits: &Limits, body: Body) -> Result<String, ApiError> {
    let bytes = body_bytes(limits, body).await?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let text = &e.as_bytes()[..at];
        let line = text.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = text.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        ApiError::bad_request(format!("line {line}, column {column}: expected UTF-8 text"))
    })
}

/// The request body: not received within the body time limit 408, over the size limit 413.
async fn body_bytes(limits: &Limits, body: Body) -> Result<Vec<u8>, ApiError> {
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
    Ok(bytes.to_vec())
}
