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

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use endgame_xiangqi::ProbeError;
use endgame_xiangqi::jobs::{EnsureError, Jobs, Submitted};

use crate::request::{JobRequest, MaterialRequest, Parsed};
use crate::{ApiError, AppState, response};

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

fn beyond(e: &ProbeError) -> ApiError {
    ApiError::bad_request(format!("material: {e}"))
}

/// `GET /api/xiangqi/estimate?material=M&rules=R` (or `fen=`).
async fn estimate(
    State(state): State<Arc<AppState>>,
    Parsed(MaterialRequest { rules, material }): Parsed<MaterialRequest>,
) -> Result<Response, ApiError> {
    let tables = state.xiangqi.get(rules);
    let jobs = state.generation.jobs();
    let speed = jobs.map_or_else(endgame_xiangqi::store::cost::default_speed, Jobs::speed);
    let e = endgame_xiangqi::jobs::estimate(&tables, material, speed).map_err(|e| beyond(&e))?;
    let active = jobs.and_then(|j| j.active(&tables, material));
    let answer = response::estimate(&e, jobs.map(Jobs::budget), jobs.is_some(), active.as_ref());
    Ok(Json(answer).into_response())
}

/// `POST /api/xiangqi/generate?material=M&rules=R` (or `fen=`).
async fn generate(
    State(state): State<Arc<AppState>>,
    Parsed(MaterialRequest { rules, material }): Parsed<MaterialRequest>,
) -> Result<Response, ApiError> {
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
            Ok((StatusCode::OK, Json(response::generated(&e, jobs.budget()))).into_response())
        }
        Ok(Submitted::Job(s)) => Ok((StatusCode::ACCEPTED, Json(response::job(&s))).into_response()),
        Err(EnsureError::OverBudget { estimate, budget }) => {
            let error = EnsureError::OverBudget { estimate: estimate.clone(), budget }.to_string();
            let answer = response::refused(&estimate, budget, &error);
            Ok((StatusCode::PAYLOAD_TOO_LARGE, Json(answer)).into_response())
        }
        Err(EnsureError::Probe(e)) => Err(beyond(&e)),
        Err(e @ EnsureError::QueueFull(_)) => Err(ApiError::unavailable(e)),
        Err(e) => Err(ApiError::internal(e)),
    }
}

/// The queue, or 404 for job `id` when this server does not generate tables.
fn jobs_for(state: &AppState, id: u64) -> Result<Jobs, ApiError> {
    state
        .generation
        .jobs()
        .cloned()
        .ok_or_else(|| ApiError::not_found(format!("no job {id}: this server does not generate tables")))
}

fn no_job(id: u64) -> ApiError {
    ApiError::not_found(format!(
        "no job {id} (finished long ago, or the server restarted: ask for the material again, the tables finished are kept)"
    ))
}

/// `GET /api/xiangqi/jobs/ID`.
async fn job(
    State(state): State<Arc<AppState>>,
    JobRequest { id }: JobRequest,
) -> Result<Response, ApiError> {
    let status = jobs_for(&state, id)?.status(id).ok_or_else(|| no_job(id))?;
    Ok(Json(response::job(&status)).into_response())
}

/// `DELETE /api/xiangqi/jobs/ID`: cancels the job; answers its status once it stopped (a
/// running job stops within moments; after 2 s the answer says `running` and it stops later).
async fn cancel(
    State(state): State<Arc<AppState>>,
    JobRequest { id }: JobRequest,
) -> Result<Response, ApiError> {
    let jobs = jobs_for(&state, id)?;
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
    Ok(Json(response::job(&status)).into_response())
}
