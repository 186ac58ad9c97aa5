//! The endgame web explorer: a JSON API for every game and an embedded one-page app.
//!
//! [`router`] builds the axum application over a shared [`AppState`]; [`serve`] runs it on a
//! listener ([`spawn`]: on a thread of its own). The server is meant to stay up with hostile
//! clients around; every request is bounded:
//!
//! - **connections** ([`conn`]): a cap (the idle connection held longest makes room for a
//!   new one), a time limit on request heads and idle keep-alive, on bodies and on writes;
//!   descriptors shared between connections and table files ([`descriptors`]);
//! - **work**: bodies over [`MAX_BODY`] bytes get 413; *searches* (Marine, Cheesy Chess,
//!   Twixt, a Xiangqi game's review, and the Xiangqi requests that may solve a small material
//!   in memory: one without table files) run on their own pool of [`Limits::workers`] low-priority threads, wait at
//!   most [`Limits::queue_time`] for one (else 503 at once), and are cancelled when they pass
//!   [`Limits::search_time`] (503); *probes* (a Xiangqi position or statistics from table
//!   files or memory: microseconds, the first of a material with files included) run on their
//!   own slots and never wait behind a search ([`xiangqi`]);
//! - **origins** ([`guard`]): requests under a `Host` that is not an address of the server or
//!   an allowed name, and writes from another site's page, get 403;
//! - **errors**: every error is `{"error": "..."}` with the message the command-line tool
//!   prints (without the file name; table paths relative to the table directory), including
//!   hyper's own 400/414/431; with status 200 and the error's status in a header for a client
//!   that asks so ([`guard::errors_as_ok`]: the page).
//!
//! Modules:
//! - [`api`]: the JSON endpoints' routes, and those of Twixt, Cheesy Chess and Marine;
//! - [`xiangqi`]: the Xiangqi endpoints over the tablebases; `review`: a game of a record
//!   reviewed against them;
//! - [`generate`]: Xiangqi tables generated on demand (estimate, jobs, progress, cancel);
//! - `request` and `response`: each endpoint's request, typed and checked, and the bodies of
//!   the answers;
//! - [`page`]: the embedded page and its assets;
//! - [`conn`], [`descriptors`], [`guard`]: the defences above.

pub mod api;
pub mod conn;
pub mod descriptors;
pub mod generate;
pub mod guard;
pub mod page;
mod request;
mod response;
mod review;
pub mod xiangqi;

use std::io;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

pub use guard::Access;

/// The largest request body accepted (1 MiB); a larger one gets 413.
pub const MAX_BODY: usize = 1 << 20;

/// Bounds on the work one request may cause.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Searches running at once.
    pub workers: usize,
    /// Searches waiting for one of the `workers` at most; one more gets 503 at once.
    pub queue: usize,
    /// Time a search may wait for one of the `workers` before the request gets 503.
    pub queue_time: Duration,
    /// Time a search may take before it is cancelled and the request gets 503.
    pub search_time: Duration,
    /// Probes (Xiangqi positions from their tables) answered at once.
    pub probes: usize,
    /// States a Marine search may store (about 100 bytes each).
    pub marine_states: u64,
    /// The largest round limit a Marine request may ask for.
    pub marine_rounds: u32,
    /// The Xiangqi tablebase directory (`None`: the default directory logic).
    pub tb_dir: Option<std::path::PathBuf>,
    /// The Xiangqi tablebase block cache, in bytes.
    pub cache_bytes: usize,
    /// Connections open at once (lowered to fit the descriptor limit, see [`descriptors`]).
    pub max_connections: usize,
    /// Time a connection has to send a whole request head, from its opening or from its last
    /// answer (so also the longest idle keep-alive).
    pub header_time: Duration,
    /// Time a request has to send its whole body.
    pub body_time: Duration,
    /// Time an answer may wait for the client to read it (no progress at all) before the
    /// connection is closed.
    pub write_time: Duration,
    /// The memory one generation on demand may take, in bytes; `None`: the server generates
    /// no tables ([`generate`]).
    pub generate_memory: Option<u64>,
}

impl Default for Limits {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        Limits {
            workers: cores,
            queue: 16 * cores,
            queue_time: Duration::from_millis(900),
            search_time: Duration::from_secs(10),
            probes: 4 * cores,
            marine_states: 1_000_000,
            marine_rounds: 200,
            tb_dir: None,
            cache_bytes: 256 << 20,
            max_connections: 1024,
            header_time: Duration::from_secs(10),
            body_time: Duration::from_secs(10),
            write_time: Duration::from_secs(10),
            generate_memory: None,
        }
    }
}

/// The search pool: threads at a lower priority than the rest of the server (so that probes and
/// the network are served first on a busy machine), a slot per thread, and a short queue.
#[derive(Debug)]
struct Searches {
    slots: Arc<Semaphore>,
    /// Searches waiting for a slot now.
    waiting: AtomicUsize,
    /// Built on the first search.
    pool: OnceLock<Arc<rayon::ThreadPool>>,
}

/// How much lower the search threads' priority is (their nice value).
const SEARCH_NICE: i32 = 10;

impl Searches {
    fn pool(&self, threads: usize) -> Arc<rayon::ThreadPool> {
        Arc::clone(self.pool.get_or_init(|| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("endgame-search-{i}"))
                .start_handler(|_| lower_priority())
                .build()
                .expect("starting the search threads");
            Arc::new(pool)
        }))
    }
}

/// Lowers the priority of the calling thread (Linux: per thread; elsewhere nothing).
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        let _ = rustix::process::setpriority_process(Some(rustix::thread::gettid()), SEARCH_NICE);
    }
}

/// What every request shares: the limits, the search pool and probe slots, the tables.
#[derive(Debug)]
pub struct AppState {
    /// The bounds.
    pub limits: Limits,
    /// The host names answered to.
    pub access: Access,
    searches: Searches,
    probes: Arc<Semaphore>,
    /// The Xiangqi tablebases.
    pub xiangqi: xiangqi::Stores,
    /// Generation on demand.
    pub generation: generate::Generation,
}

/// Cancels a search when its request goes away (timed out, or the client left).
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl AppState {
    /// A state with the given limits, answering to addresses and `localhost` only.
    #[must_use]
    pub fn new(limits: Limits) -> Self {
        AppState::with_access(limits, Access::new())
    }

    /// A state with the given limits, answering to the host names of `access`.
    #[must_use]
    pub fn with_access(limits: Limits, access: Access) -> Self {
        let searches = Searches {
            slots: Arc::new(Semaphore::new(limits.workers.max(1))),
            waiting: AtomicUsize::new(0),
            pool: OnceLock::new(),
        };
        let probes = Arc::new(Semaphore::new(limits.probes.max(1)));
        // Table files share the descriptors with connections: at most their share open.
        let files = descriptors::Budget::current(limits.max_connections).table_files;
        let files = Arc::new(endgame_core::table::open_files::OpenFiles::new(files));
        let xiangqi = xiangqi::Stores::new(limits.tb_dir.clone(), limits.cache_bytes).with_open_files(files);
        let generation = generate::Generation::new(limits.generate_memory);
        AppState { limits, access, searches, probes, xiangqi, generation }
    }

    /// Runs `work` on the search pool once a slot is free, giving it a flag that is set when
    /// the time limit passes or the request goes away; `work` should read it in its loops.
    ///
    /// # Errors
    /// 503 when no slot frees within the queue time (or `queue` searches wait already), or
    /// when the search takes longer than the time limit (it is cancelled); 500 when it panics.
    pub async fn search<T: Send + 'static>(
        &self,
        work: impl FnOnce(&AtomicBool) -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let workers = self.limits.workers.max(1);
        let busy =
            || ApiError::unavailable(format!("all {workers} search slots are busy; try again in a moment"));
        let slots = Arc::clone(&self.searches.slots);
        let permit = match slots.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                // A short queue; beyond it, 503 at once.
                if self.searches.waiting.fetch_add(1, Ordering::Relaxed) >= self.limits.queue {
                    self.searches.waiting.fetch_sub(1, Ordering::Relaxed);
                    return Err(busy());
                }
                let waited = tokio::time::timeout(self.limits.queue_time, slots.acquire_owned()).await;
                self.searches.waiting.fetch_sub(1, Ordering::Relaxed);
                match waited {
                    Ok(Ok(permit)) => permit,
                    Ok(Err(_)) => return Err(ApiError::unavailable("the server is stopping")),
                    Err(_) => return Err(busy()),
                }
            }
        };
        let cancel = Arc::new(AtomicBool::new(false));
        let guard = CancelOnDrop(Arc::clone(&cancel));
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.searches.pool(workers).spawn(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&cancel)));
            // The slot is free once the work has stopped, not before.
            drop(permit);
            let _ = tx.send(result);
        });
        let deadline = self.limits.search_time;
        let result = match tokio::time::timeout(deadline, rx).await {
            Ok(Ok(Ok(value))) => Ok(value),
            Ok(Ok(Err(_))) | Ok(Err(_)) => Err(ApiError::internal("the search failed")),
            Err(_) => Err(ApiError::unavailable(format!(
                "the search took longer than the server's limit of {} s and was stopped",
                deadline.as_secs_f64()
            ))),
        };
        drop(guard);
        result
    }

    /// Runs a probe (cheap: a position from its tables) on the blocking pool, on slots of its
    /// own: probes never wait behind searches.
    ///
    /// # Errors
    /// 503 when it waits or takes longer than the search time limit; 500 when it panics.
    pub async fn probe<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let deadline = self.limits.search_time;
        let slots = Arc::clone(&self.probes);
        let run = async move {
            let permit =
                slots.acquire_owned().await.map_err(|_| ApiError::unavailable("the server is stopping"))?;
            tokio::task::spawn_blocking(move || {
                let result = work();
                drop(permit);
                result
            })
            .await
            .map_err(|_| ApiError::internal("the probe failed"))
        };
        tokio::time::timeout(deadline, run).await.unwrap_or_else(|_| {
            Err(ApiError::unavailable(format!(
                "the probe took longer than the server's limit of {} s",
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

/// The whole application: the API under `/api`, the page everywhere else, behind the Host and
/// Origin checks; every error answer JSON.
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .merge(api::routes())
        .merge(generate::routes())
        .merge(page::routes())
        .fallback(fallback)
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(Arc::clone(&state), guard::check_access))
        .layer(axum::middleware::map_response(guard::json_errors))
        .layer(axum::middleware::from_fn(guard::errors_as_ok))
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
/// Never in practice: accept errors (descriptors exhausted) pause the loop, they do not end it.
pub async fn serve(listener: TcpListener, state: Arc<AppState>) -> io::Result<()> {
    serve_until(listener, state, std::future::pending()).await
}

/// Serves the application on `addr` (port 0 picks a free one) from a thread of its own, with
/// a runtime of its own, until the process ends; gives the address it listens on. For tests,
/// benchmarks and programs that run the server beside their own work.
///
/// # Errors
/// When the runtime cannot start or the address cannot be bound.
pub fn spawn(addr: SocketAddr, state: AppState) -> io::Result<SocketAddr> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = match tokio::runtime::Runtime::new() {
            Ok(runtime) => runtime,
            Err(e) => {
                let _ = tx.send(Err(e));
                return;
            }
        };
        runtime.block_on(async move {
            let listener = match bind(addr).await {
                Ok(listener) => listener,
                Err(e) => {
                    let _ = tx.send(Err(e));
                    return;
                }
            };
            let _ = tx.send(listener.local_addr());
            let _ = serve(listener, Arc::new(state)).await;
        });
    });
    rx.recv().map_err(|_| io::Error::other("the server's thread stopped before it listened"))?
}

/// Serves the application on `listener` until `shutdown` completes (for example Ctrl-C), then
/// closes idle connections and lets the requests in flight finish (within the search time
/// limit).
///
/// # Errors
/// Never in practice (see [`serve`]).
pub async fn serve_until(
    listener: TcpListener,
    state: Arc<AppState>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let limits = state.limits.clone();
    let drain = limits.search_time + limits.write_time;
    conn::serve(listener, router(state), &limits, shutdown, drain).await
}
