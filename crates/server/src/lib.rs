//! The endgame web explorer: a JSON API for every game and an embedded one-page app.
//!
//! [`router`] builds the axum application over a shared [`AppState`]; [`serve`] runs it on a
//! listener. Every request is bounded: bodies over [`MAX_BODY`] bytes get 413, searches run
//! on tokio's blocking pool behind a semaphore (at most [`Limits::workers`] at once) with a
//! state limit and a time limit, and bad input gets 400 with `{"error": "..."}` carrying the
//! message the command-line tool prints (without the file name).
//!
//! - [`api`]: the JSON endpoints;
//! - [`generate`]: Xiangqi tables generated on demand (estimate, jobs, progress, cancel);
//! - [`page`]: the embedded page and its assets;
//! - [`xiangqi`]: the Xiangqi endpoints over the tablebases.

pub mod api;
pub mod generate;
pub mod page;
pub mod xiangqi;

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// The largest request body accepted (1 MiB); a larger one gets 413.
pub const MAX_BODY: usize = 1 << 20;

/// Bounds on the work one request may cause.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Searches running at once (the others wait for a slot).
    pub workers: usize,
    /// Time a search may take before the request gets 503.
    pub search_time: Duration,
    /// States a Marine search may store (about 100 bytes each).
    pub marine_states: u64,
    /// The largest round limit a Marine request may ask for.
    pub marine_rounds: u32,
    /// The Xiangqi tablebase directory (`None`: the default directory logic).
    pub tb_dir: Option<std::path::PathBuf>,
    /// The Xiangqi tablebase block cache, in bytes.
    pub cache_bytes: usize,
    /// The memory one generation on demand may take, in bytes; `None`: the server generates
    /// no tables ([`generate`]).
    pub generate_memory: Option<u64>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            workers: std::thread::available_parallelism().map_or(2, usize::from),
            search_time: Duration::from_secs(10),
            marine_states: 1_000_000,
            marine_rounds: 200,
            tb_dir: None,
            cache_bytes: 256 << 20,
            generate_memory: None,
        }
    }
}

/// What every request shares: the limits and the search slots.
#[derive(Debug)]
pub struct AppState {
    /// The bounds.
    pub limits: Limits,
    /// One permit per running search.
    slots: Arc<Semaphore>,
    /// The Xiangqi tablebases.
    pub xiangqi: xiangqi::Stores,
    /// Generation on demand.
    pub generation: generate::Generation,
}

impl AppState {
    /// A state with the given limits.
    #[must_use]
    pub fn new(limits: Limits) -> Self {
        let slots = Arc::new(Semaphore::new(limits.workers.max(1)));
        let xiangqi = xiangqi::Stores::new(limits.tb_dir.clone(), limits.cache_bytes);
        let generation = generate::Generation::new(limits.generate_memory);
        AppState { limits, slots, xiangqi, generation }
    }

    /// Runs `work` on the blocking pool once a search slot is free, within the time limit.
    ///
    /// # Errors
    /// 503 when the search takes longer than the time limit (it still finishes in the
    /// background, holding its slot, so the server never runs more than `workers` at once).
    pub async fn search<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let deadline = self.limits.search_time;
        let slots = Arc::clone(&self.slots);
        let run = async move {
            let permit =
                slots.acquire_owned().await.map_err(|_| ApiError::unavailable("the server is stopping"))?;
            tokio::task::spawn_blocking(move || {
                let result = work();
                drop(permit);
                result
            })
            .await
            .map_err(|e| ApiError::internal(format!("the search failed: {e}")))
        };
        tokio::time::timeout(deadline, run).await.unwrap_or_else(|_| {
            Err(ApiError::unavailable(format!(
                "the search took longer than the server's limit of {} s",
                deadline.as_secs_f64()
            )))
        })
    }
}

/// An error answer: a status and `{"error": message}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The message.
    pub message: String,
}

impl ApiError {
    /// 400: the input is wrong.
    pub fn bad_request(message: impl std::fmt::Display) -> Self {
        ApiError { status: StatusCode::BAD_REQUEST, message: message.to_string() }
    }
    /// 404: nothing there (a material not generated, an unknown path).
    pub fn not_found(message: impl std::fmt::Display) -> Self {
        ApiError { status: StatusCode::NOT_FOUND, message: message.to_string() }
    }
    /// 503: over a limit; try a smaller question.
    pub fn unavailable(message: impl std::fmt::Display) -> Self {
        ApiError { status: StatusCode::SERVICE_UNAVAILABLE, message: message.to_string() }
    }
    /// 500: our fault.
    pub fn internal(message: impl std::fmt::Display) -> Self {
        ApiError { status: StatusCode::INTERNAL_SERVER_ERROR, message: message.to_string() }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(serde_json::json!({ "error": self.message }))).into_response()
    }
}

/// The whole application: the API under `/api`, the page everywhere else.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .merge(api::routes())
        .merge(generate::routes())
        .merge(page::routes())
        .fallback(fallback)
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

async fn fallback(uri: axum::http::Uri) -> ApiError {
    ApiError::not_found(format!("no such page or endpoint: {}", uri.path()))
}

async fn wrong_method(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    let expected = if uri.path().starts_with("/api/")
        && uri.path() != "/api/examples"
        && !uri.path().starts_with("/api/xiangqi")
    {
        "POST"
    } else {
        "GET"
    };
    ApiError {
        status: StatusCode::METHOD_NOT_ALLOWED,
        message: format!("{method} {}: expected {expected}", uri.path()),
    }
}

/// Binds `addr` (for example `127.0.0.1:8000`; port 0 picks a free one).
///
/// # Errors
/// When the address cannot be bound.
pub async fn bind(addr: SocketAddr) -> io::Result<TcpListener> {
    TcpListener::bind(addr).await
}

/// Serves the application on `listener` until the process ends.
///
/// # Errors
/// When accepting connections fails.
pub async fn serve(listener: TcpListener, state: Arc<AppState>) -> io::Result<()> {
    axum::serve(listener, router(state)).await
}

/// Serves the application on `listener` until `shutdown` completes (for example Ctrl-C), then
/// lets the requests in flight finish.
///
/// # Errors
/// When accepting connections fails.
pub async fn serve_until(
    listener: TcpListener,
    state: Arc<AppState>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    axum::serve(listener, router(state)).with_graceful_shutdown(shutdown).await
}
