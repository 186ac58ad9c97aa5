//! The Xiangqi endpoints: a position with its moves and main line, a material's statistics.
//!
//! Answers come from [`Tablebases`] (one store per rule set, opened lazily on first use):
//! table files in the directory given at start, and materials of up to 4 men solved in
//! memory when they have no file. A request never generates a file; a material that needs
//! one gets 404 with the command that generates it.
//!
//! A position is a *probe* (microseconds: [`AppState::probe`]) once its material has answered
//! once; its first request may have to solve small materials in memory (a fraction of a
//! second), so it runs as a *search* ([`AppState::search`]), as statistics do (they count a
//! whole table). Messages name table files relative to the table directory.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use endgame_core::table::open_files::OpenFiles;
use endgame_xiangqi::probe::{Probe, ProbeError};
use endgame_xiangqi::{Material, Position, Rules, Tablebases, report};

use crate::request::{MaterialRequest, Parsed, PositionRequest, StatsRequest};
use crate::{ApiError, AppState, response};

/// The stores, one per rule set, opened on first use.
#[derive(Debug)]
pub struct Stores {
    dir: PathBuf,
    cache_bytes: usize,
    stores: [OnceLock<Arc<Tablebases>>; Rules::ALL.len()],
    /// The open table files of every store: at most the server's share of descriptors.
    files: Arc<OpenFiles>,
    /// The materials (with their rule set) that have answered a position: probes from then on.
    ready: Mutex<HashSet<(usize, Material)>>,
}

fn rule_index(rules: Rules) -> usize {
    Rules::ALL.iter().position(|&r| r == rules).expect("a rule set of ALL")
}

impl Stores {
    /// Stores over `dir` (`None`: the default directory) with a block cache of `cache_bytes`
    /// in all.
    #[must_use]
    pub fn new(dir: Option<PathBuf>, cache_bytes: usize) -> Self {
        // Without any directory, the in-memory materials still answer.
        let dir = dir.or_else(|| Tablebases::default_dir().ok()).unwrap_or_else(std::env::temp_dir);
        let files = OpenFiles::shared();
        Stores { dir, cache_bytes, stores: Default::default(), files, ready: Mutex::default() }
    }

    /// The same stores keeping at most `files`' capacity of table files open (the least
    /// recently used are closed, and opened again when needed).
    #[must_use]
    pub fn with_open_files(mut self, files: Arc<OpenFiles>) -> Self {
        self.files = files;
        self
    }

    /// The store of `rules`.
    pub fn get(&self, rules: Rules) -> Arc<Tablebases> {
        Arc::clone(self.stores[rule_index(rules)].get_or_init(|| {
            Arc::new(
                Tablebases::open(self.dir.clone(), rules)
                    .with_cache_bytes(self.cache_bytes / Rules::ALL.len())
                    .with_open_files(Arc::clone(&self.files)),
            )
        }))
    }

    /// Whether positions of `material` under `rules` have answered before (a probe now).
    fn is_ready(&self, rules: Rules, material: Material) -> bool {
        self.ready.lock().unwrap_or_else(PoisonError::into_inner).contains(&(rule_index(rules), material))
    }

    fn set_ready(&self, rules: Rules, material: Material) {
        self.ready.lock().unwrap_or_else(PoisonError::into_inner).insert((rule_index(rules), material));
    }

    /// `message` with the table directory's paths relative to it.
    #[must_use]
    pub fn relative(&self, message: &str) -> String {
        let mut base = self.dir.display().to_string();
        if !base.ends_with(std::path::MAIN_SEPARATOR) {
            base.push(std::path::MAIN_SEPARATOR);
        }
        message.replace(&base, "")
    }
}

/// The status a probe failure gets: 400 for an illegal position or a material that cannot
/// have tables, 404 for one not generated, 500 for a damaged file.
fn probe_error(stores: &Stores, prefix: &str, e: &ProbeError) -> ApiError {
    let message = stores.relative(&format!("{prefix}: {e}"));
    match e {
        ProbeError::Illegal(_) | ProbeError::BeyondTables { .. } => ApiError::bad_request(message),
        ProbeError::NotGenerated { .. } | ProbeError::NotSolved { .. } => ApiError::not_found(message),
        _ => ApiError::internal(message),
    }
}

/// `GET /api/xiangqi?fen=FEN&rules=standard|hdu|perpetual-check|check-and-chase`.
pub(crate) async fn position(
    State(state): State<Arc<AppState>>,
    Parsed(PositionRequest { rules, position }): Parsed<PositionRequest>,
) -> Result<Response, ApiError> {
    let material = position.material();
    let ready = state.xiangqi.is_ready(rules, material);
    let work = {
        let state = Arc::clone(&state);
        move || answer(&state, rules, &position)
    };
    let answer = if ready { state.probe(work).await?? } else { state.search(move |_| work()).await?? };
    if !ready {
        state.xiangqi.set_ready(rules, material);
    }
    Ok(Json(answer).into_response())
}

/// The answer for a position: value, moves, main line.
fn answer(state: &AppState, rules: Rules, position: &Position) -> Result<serde_json::Value, ApiError> {
    let tables = state.xiangqi.get(rules);
    let failure = |e: ProbeError| probe_error(&state.xiangqi, "position", &e);
    let value = tables.probe(position).map_err(failure)?;
    let moves = tables.moves(position).map_err(failure)?;
    let line = tables.main_line(position).map_err(failure)?;
    Ok(response::position(position, rules, value, &moves, &line))
}

/// `GET /api/xiangqi/stats?material=KRvKN&rules=standard`.
pub(crate) async fn stats(
    State(state): State<Arc<AppState>>,
    Parsed(StatsRequest(MaterialRequest { rules, material })): Parsed<StatsRequest>,
) -> Result<Response, ApiError> {
    let tables = state.xiangqi.get(rules);
    let stores = Arc::clone(&state);
    response::searched(&state, move |_| {
        let s = tables
            .stats(material)
            .map_err(|e| probe_error(&stores.xiangqi, &format!("material {material}"), &e))?;
        Ok(report::stats_json(material, rules, &s))
    })
    .await
}
