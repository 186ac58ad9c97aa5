//! Generation on demand: the page (or any client) asks for the tables of a material that has
//! none, follows the job's progress, and cancels it.
//!
//! - `GET /api/xiangqi/estimate?material=M&rules=R` (or `fen=FEN` instead of `material`): what
//!   the material still needs (tables, positions, memory, time at this machine's measured
//!   speed), or that it is `generated`, whether it fits the budget, whether this server
//!   generates at all, the command for a terminal, and the job queued or running for it.
//! - `POST /api/xiangqi/generate?material=M&rules=R` (or `fen=`): starts a job or joins the one
//!   for the same material: 202 with the job (`starting` when nothing runs or waits before it,
//!   else `queued` with the jobs `ahead` of it) and a *ticket*; 200 `"state": "done"` when the
//!   tables are there; 413 with the estimate when it does not fit the budget; 403 when
//!   generation is off; 503 when [`Jobs::MAX_QUEUED`] jobs wait already.
//! - `GET /api/xiangqi/jobs/ID`: the job's state and progress.
//! - `DELETE /api/xiangqi/jobs/ID?ticket=T`: withdraws the request that was given ticket `T`;
//!   once no request holds the job, it is cancelled (a queued job at once, a running one
//!   within moments; the tables finished stay). Without a ticket of the job: 403.
//!
//! Jobs run one at a time on a thread of their own ([`endgame_xiangqi::jobs::Jobs`]), with the
//! solver's passes on all cores; probes keep being answered meanwhile (from the same stores,
//! which see each new file as it is written).
//!
//! What a client can do to others: job numbers are not secrets (the estimate names the job of
//! a material, so that a second page follows it), so cancelling takes a ticket, 128 random
//! bits given only to the request that asked ([`MAX_HOLDERS`] per job at most; later requests
//! join without one): a client cancels only what it asked for, and a job asked for by several
//! runs until all of them withdrew. Jobs waiting are bounded ([`Jobs::MAX_QUEUED`], then 503
//! with `Retry-After`), as are the finished ones remembered ([`Jobs::KEPT_FINISHED`]). A
//! generation that fails (the disk full, say) fails its job only, with the system's message
//! naming the file; every table is written under a temporary name and renamed into place, so
//! no half-written table is left, and the tables finished before stay.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::http::{Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use endgame_xiangqi::ProbeError;
use endgame_xiangqi::jobs::{EnsureError, JobStatus, Jobs, Submitted};

use crate::request::{CancelRequest, JobRequest, MaterialRequest, Parsed};
use crate::{ApiError, AppState, response};

/// The requests holding one job at most (each given a ticket); later requests for the same
/// material join the job without one.
pub const MAX_HOLDERS: usize = 64;

/// Whether and how this server generates tables.
#[derive(Debug)]
pub struct Generation {
    /// The queue; `None` when generation is off.
    jobs: Option<Jobs>,
    /// The tickets of the requests holding each job queued or running (those of finished jobs
    /// are dropped as new ones come).
    holders: Mutex<HashMap<u64, Vec<String>>>,
}

impl Generation {
    /// Generation with a memory budget of `budget` bytes per generation, or off (`None`).
    #[must_use]
    pub fn new(budget: Option<u64>) -> Self {
        Generation { jobs: budget.map(Jobs::new), holders: Mutex::default() }
    }

    /// The queue, when generation is on.
    #[must_use]
    pub const fn jobs(&self) -> Option<&Jobs> {
        self.jobs.as_ref()
    }

    fn holders(&self) -> MutexGuard<'_, HashMap<u64, Vec<String>>> {
        self.holders.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A ticket: 128 bits from the system's random source, in hex.
fn new_ticket() -> String {
    let mut bytes = [0u8; 16];
    let from_system =
        std::fs::File::open("/dev/urandom").and_then(|mut f| std::io::Read::read_exact(&mut f, &mut bytes));
    if from_system.is_err() {
        // Where there is no /dev/urandom: std's hash keys, which come from the system's
        // random source (SipHash keyed with them).
        use std::hash::{BuildHasher, Hasher};
        for (i, part) in bytes.chunks_mut(8).enumerate() {
            let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
            hasher.write_usize(i);
            part.copy_from_slice(&hasher.finish().to_le_bytes());
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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
    // Held from the submission to the ticket, so that no cancel comes between.
    let mut holders = state.generation.holders();
    match jobs.submit(&tables, material) {
        Ok(Submitted::Done(e)) => {
            Ok((StatusCode::OK, Json(response::generated(&e, jobs.budget()))).into_response())
        }
        Ok(Submitted::Job(s)) => {
            holders.retain(|&id, _| jobs.status(id).is_some_and(|j| !j.state.is_finished()));
            let tickets = holders.entry(s.id).or_default();
            let ticket = (tickets.len() < MAX_HOLDERS).then(new_ticket);
            tickets.extend(ticket.clone());
            let mut answer = job_json(&state, &s);
            answer["ticket"] = ticket.into();
            Ok((StatusCode::ACCEPTED, Json(answer)).into_response())
        }
        Err(EnsureError::OverBudget { estimate, budget }) => {
            let error = EnsureError::OverBudget { estimate: estimate.clone(), budget }.to_string();
            let answer = response::refused(&estimate, budget, &error);
            Ok((StatusCode::PAYLOAD_TOO_LARGE, Json(answer)).into_response())
        }
        Err(EnsureError::Probe(e)) => Err(beyond(&e)),
        Err(e @ EnsureError::QueueFull(_)) => {
            Ok(([(header::RETRY_AFTER, "10")], ApiError::unavailable(e)).into_response())
        }
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
    Ok(Json(job_json(&state, &status)).into_response())
}

/// `DELETE /api/xiangqi/jobs/ID?ticket=T`: withdraws the request of ticket `T`; the job is
/// cancelled once no request holds it, and then answered once it stopped (a running job
/// stops within moments; after 2 s the answer says `running` and it stops later). The answer
/// is the job's status and `others`, the requests still holding it.
async fn cancel(
    State(state): State<Arc<AppState>>,
    CancelRequest { id, ticket }: CancelRequest,
) -> Result<Response, ApiError> {
    let jobs = jobs_for(&state, id)?;
    let status = jobs.status(id).ok_or_else(|| no_job(id))?;
    if status.state.is_finished() {
        return Ok(cancelled(&state, &status, 0));
    }
    let forbidden = |why: &str| ApiError {
        status: StatusCode::FORBIDDEN,
        message: format!(
            "{why}: job {id} is cancelled with the ticket that POST /api/xiangqi/generate answered to the request that asked for it (DELETE /api/xiangqi/jobs/{id}?ticket=TICKET)"
        ),
    };
    let Some(ticket) = ticket else { return Err(forbidden("no ticket given")) };
    let others = {
        let mut holders = state.generation.holders();
        let tickets = holders.get_mut(&id).ok_or_else(|| forbidden("not a ticket of this job"))?;
        let at =
            tickets.iter().position(|t| *t == ticket).ok_or_else(|| forbidden("not a ticket of this job"))?;
        tickets.swap_remove(at);
        let others = tickets.len();
        if others == 0 {
            holders.remove(&id);
        }
        others
    };
    if others > 0 {
        return Ok(cancelled(&state, &status, others));
    }
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
    Ok(cancelled(&state, &status, 0))
}

/// A job's status, its error naming table files relative to the table directory.
fn job_json(state: &AppState, status: &JobStatus) -> serde_json::Value {
    let mut answer = response::job(status);
    if let Some(error) = &status.error {
        answer["error"] = state.xiangqi.relative(error).into();
    }
    answer
}

/// The answer to a cancel: the job's status and the requests still holding it.
fn cancelled(state: &AppState, status: &JobStatus, others: usize) -> Response {
    let mut answer = job_json(state, status);
    answer["others"] = others.into();
    Json(answer).into_response()
}
