//! Generation on demand: the page (or any client) asks for the tables of a material that has
//! none, follows the job's progress, and cancels it.
//!
//! - `GET /api/xiangqi/estimate?material=M&rules=R` (or `fen=FEN` instead of `material`): what
//!   the material still needs (tables, positions, memory, time at this machine's measured
//!   speed), whether it fits the budget, whether this server generates at all, the command for
//!   a terminal, and the job queued or running for it.
//! - `POST /api/xiangqi/generate?material=M&rules=R` (or `fen=`): starts a job or joins the one
//!   for the same material: 202 with the job; 200 `"state": "done"` when the tables are there;
//!   413 with the estimate when it does not fit the budget; 403 when generation is off.
//! - `GET /api/xiangqi/jobs/ID`: the job's state and progress; `DELETE` cancels it (a queued
//!   job at once, a running one within moments; the tables finished stay).
//!
//! Jobs run one at a time on a thread of their own ([`endgame_xiangqi::jobs::Jobs`]), with the
//! solver's passes on all cores; probes keep being answered meanwhile (from the same stores,
//! which see each new file as it is written).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::Router;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use endgame_xiangqi::jobs::{EnsureError, Estimate, JobStatus, Jobs, Submitted};
use endgame_xiangqi::{Material, Position, ProbeError, Rules, Setup};
use serde_json::{Value, json};

use crate::api::{Params, params};
use crate::{ApiError, AppState};

/// Whether and how this server generates tables.
#[derive(Debug)]
pub struct Generation {
    /// The queue; `None` when generation is off.
    jobs: Option<Jobs>,
}

impl Generation {
    /// Generation with a memory budget of `budget` bytes per generation, or off (`None`).
    #[must_use]
    pub fn new(budget: Option<u64>) -> Self {
        Generation { jobs: budget.map(Jobs::new) }
    }

    /// The queue, when generation is on.
    #[must_use]
    pub const fn jobs(&self) -> Option<&Jobs> {
        self.jobs.as_ref()
    }
}

/// The routes of generation on demand.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/api/xiangqi/estimate", only("GET", get(estimate)))
        .route("/api/xiangqi/generate", only("POST", post(generate)))
        .route("/api/xiangqi/jobs/{id}", only("GET or DELETE", get(job).delete(cancel)))
}

/// `route` answering 405 with the methods it takes for any other method.
fn only(expected: &'static str, route: MethodRouter<Arc<AppState>>) -> MethodRouter<Arc<AppState>> {
    route.fallback(move |method: Method, uri: Uri| async move {
        ApiError {
            status: StatusCode::METHOD_NOT_ALLOWED,
            message: format!("{method} {}: expected {expected}", uri.path()),
        }
    })
}

/// The rules and the material of a request (`material=` or the material of `fen=`).
fn target(map: &HashMap<String, String>) -> Result<(Rules, Material), ApiError> {
    let rules = match map.get("rules") {
        None => Rules::Standard,
        Some(r) => r.parse().map_err(|_| {
            ApiError::bad_request(format!(
                "query: invalid value '{r}' for rules: expected standard, hdu, perpetual-check or check-and-chase"
            ))
        })?,
    };
    let material = match (map.get("material"), map.get("fen")) {
        (Some(text), None) => {
            text.parse().map_err(|e| ApiError::bad_request(format!("material {text:?}: {e}")))?
        }
        (None, Some(fen)) => {
            let setup: Setup = fen.parse().map_err(|e| ApiError::bad_request(format!("FEN {fen:?}: {e}")))?;
            Position::from_setup(setup)
                .map_err(|e| ApiError::bad_request(format!("position: {e}")))?
                .material()
        }
        _ => return Err(ApiError::bad_request("query: expected material=MATERIAL or fen=FEN (one of them)")),
    };
    Ok((rules, material))
}

fn beyond(e: &ProbeError) -> ApiError {
    ApiError::bad_request(format!("material: {e}"))
}

/// The fields of an estimate.
fn estimate_fields(e: &Estimate, budget: Option<u64>) -> Value {
    json!({
        "material": e.material.to_string(),
        "rules": e.rules.name(),
        "tables": e.tables,
        "tables_in_all": e.tables_in_all,
        "positions": e.positions,
        "memory_bytes": e.memory_bytes,
        "seconds": e.seconds,
        "speed": e.speed,
        "largest": e.largest.map(|m| m.to_string()),
        "budget_bytes": budget,
        "fits": budget.is_some_and(|b| e.memory_bytes <= b),
        "command": e.command(),
        "cluster_command": format!("mpirun -np N --hostfile hosts {} --dir /shared/tables", e.command()),
        "text": e.describe(),
    })
}

/// The JSON of a job.
fn job_json(s: &JobStatus) -> Value {
    let p = &s.progress;
    json!({
        "job": s.id,
        "material": s.material.to_string(),
        "rules": s.rules.name(),
        "state": s.state.name(),
        "positions": s.estimate.positions,
        "memory_bytes": s.estimate.memory_bytes,
        "materials_done": p.materials_done,
        "materials_total": if s.state == endgame_xiangqi::jobs::JobState::Queued { s.estimate.tables } else { p.materials_total },
        "positions_done": p.positions_done,
        "positions_total": if p.positions_total == 0 { s.estimate.positions } else { p.positions_total },
        "positions_per_second": p.positions_per_second,
        "seconds_left": if s.state.is_finished() { 0.0 } else if p.positions_total == 0 { s.estimate.seconds } else { p.seconds_left },
        "current": p.current.map(|m| m.to_string()),
        "error": s.error,
    })
}

/// `GET /api/xiangqi/estimate?material=M&rules=R` (or `fen=`).
async fn estimate(State(state): State<Arc<AppState>>, query: Params) -> Result<Response, ApiError> {
    let map = params(query, &["material", "fen", "rules"])?;
    let (rules, material) = target(&map)?;
    let tables = state.xiangqi.get(rules);
    let jobs = state.generation.jobs();
    let speed = jobs.map_or_else(endgame_xiangqi::jobs::default_speed, Jobs::speed);
    let e = endgame_xiangqi::jobs::estimate(&tables, material, speed).map_err(|e| beyond(&e))?;
    let mut answer = estimate_fields(&e, jobs.map(Jobs::budget));
    let active = jobs.and_then(|j| j.active(&tables, material));
    answer["generate"] = json!(jobs.is_some());
    answer["state"] = json!(match &active {
        Some(job) => job.state.name(),
        None if e.is_done() => "done",
        None => "missing",
    });
    answer["job"] = json!(active.map(|j| j.id));
    Ok(Json(answer).into_response())
}

/// `POST /api/xiangqi/generate?material=M&rules=R` (or `fen=`).
async fn generate(State(state): State<Arc<AppState>>, query: Params) -> Result<Response, ApiError> {
    let map = params(query, &["material", "fen", "rules"])?;
    let (rules, material) = target(&map)?;
    let Some(jobs) = state.generation.jobs() else {
        return Err(ApiError {
            status: StatusCode::FORBIDDEN,
            message: format!(
                "this server does not generate tables (it was started with --no-generate, or listens beyond the loopback without --generate-memory); in a terminal: endgame xiangqi generate {material} --rules {rules}"
            ),
        });
    };
    let tables = state.xiangqi.get(rules);
    match jobs.submit(&tables, material) {
        Ok(Submitted::Done(e)) => {
            let mut answer = estimate_fields(&e, Some(jobs.budget()));
            answer["job"] = Value::Null;
            answer["state"] = json!("done");
            Ok((StatusCode::OK, Json(answer)).into_response())
        }
        Ok(Submitted::Job(s)) => Ok((StatusCode::ACCEPTED, Json(job_json(&s))).into_response()),
        Err(EnsureError::OverBudget { estimate, budget }) => {
            let mut answer = estimate_fields(&estimate, Some(budget));
            answer["error"] =
                json!(EnsureError::OverBudget { estimate: estimate.clone(), budget }.to_string());
            answer["state"] = json!("refused");
            Ok((StatusCode::PAYLOAD_TOO_LARGE, Json(answer)).into_response())
        }
        Err(EnsureError::Probe(e)) => Err(beyond(&e)),
        Err(e @ EnsureError::QueueFull(_)) => Err(ApiError::unavailable(e)),
        Err(e) => Err(ApiError::internal(e)),
    }
}

/// The job of a path, or 400/404.
fn job_of(state: &AppState, id: Result<Path<String>, PathRejection>) -> Result<(Jobs, u64), ApiError> {
    let Path(text) = id.map_err(|e| ApiError::bad_request(format!("path: {}", e.body_text())))?;
    let id: u64 = text
        .parse()
        .map_err(|_| ApiError::bad_request(format!("job {text:?}: expected the number of a job")))?;
    let jobs = state
        .generation
        .jobs()
        .ok_or_else(|| ApiError::not_found(format!("no job {id}: this server does not generate tables")))?;
    Ok((jobs.clone(), id))
}

fn no_job(id: u64) -> ApiError {
    ApiError::not_found(format!(
        "no job {id} (finished long ago, or the server restarted: ask for the material again, the tables finished are kept)"
    ))
}

/// `GET /api/xiangqi/jobs/ID`.
async fn job(
    State(state): State<Arc<AppState>>,
    id: Result<Path<String>, PathRejection>,
    query: Params,
) -> Result<Response, ApiError> {
    params(query, &[])?;
    let (jobs, id) = job_of(&state, id)?;
    let status = jobs.status(id).ok_or_else(|| no_job(id))?;
    Ok(Json(job_json(&status)).into_response())
}

/// `DELETE /api/xiangqi/jobs/ID`: cancels the job; answers its status once it stopped (a
/// running job stops within moments; after 2 s the answer says `running` and it stops later).
async fn cancel(
    State(state): State<Arc<AppState>>,
    id: Result<Path<String>, PathRejection>,
    query: Params,
) -> Result<Response, ApiError> {
    params(query, &[])?;
    let (jobs, id) = job_of(&state, id)?;
    let status = jobs.cancel(id).ok_or_else(|| no_job(id))?;
    let status = if status.state.is_finished() {
        status
    } else {
        let version = status.version;
        tokio::task::spawn_blocking(move || {
            let deadline = std::time::Instant::now() + Duration::from_secs(2);
            let mut seen = jobs.status(id);
            while let Some(s) = &seen
                && !s.state.is_finished()
                && std::time::Instant::now() < deadline
            {
                seen = jobs.wait_change(id, s.version.max(version), Duration::from_millis(200));
            }
            seen
        })
        .await
        .map_err(|e| ApiError::internal(format!("cancelling: {e}")))?
        .ok_or_else(|| no_job(id))?
    };
    Ok(Json(job_json(&status)).into_response())
}
