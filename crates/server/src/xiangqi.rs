//! The Xiangqi endpoints: a position with its moves and main line, a material's statistics.
//!
//! Answers come from [`Tablebases`] (one store per rule set, opened lazily on first use):
//! table files in the directory given at start, and materials of up to 4 men solved in
//! memory when they have no file. A request never generates a file; a material that needs
//! one gets 404 with the command that generates it.
//!
//! A position is a *probe* (microseconds: [`AppState::probe`]) when its answer only reads
//! files or memory: its material has answered before, or it and every material its captures
//! lead to have table files (opening one reads its header only). Only a request that may have
//! to solve a material in memory (a fraction of a second) runs as a *search*
//! ([`AppState::search`]): a material of up to 4 men without files, among the position's own
//! and those its captures lead to. The statistics are a probe too when the material has a file
//! (read from its header), else a search (they count a whole table). So the first probe of a
//! material with files, after a restart too, never waits behind searches. Messages name table
//! files relative to the table directory.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use endgame_core::table::open_files::OpenFiles;
use endgame_xiangqi::probe::{Probe, ProbeError};
use endgame_xiangqi::store::source::SOLVE_ON_THE_FLY_MEN;
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

    /// Whether answering a position of `material` may solve a material in memory (search
    /// work): one of at most [`SOLVE_ON_THE_FLY_MEN`] men, `material` or one its captures lead
    /// to, that has no table file (its own or its colour twin's) and has not answered before.
    /// A larger material without files is answered 404 at once (before any capture is looked
    /// at, when it is the position's). A few `stat` calls; asked until the material has
    /// answered once.
    fn may_solve(&self, rules: Rules, material: Material) -> bool {
        let tables = self.get(rules);
        let small = |m: Material| m.men() <= SOLVE_ON_THE_FLY_MEN;
        if !small(material) && !tables.has_file(material) {
            return false;
        }
        material
            .with_smaller()
            .into_iter()
            .any(|m| small(m) && !self.is_ready(rules, m) && !tables.has_file(m))
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
    // Whether the answer may solve in memory is asked on the probe's thread (it reads the
    // directory); then the answer waits for a search slot.
    let shared = Arc::clone(&state);
    let probed = state
        .probe(move || {
            (ready || !shared.xiangqi.may_solve(rules, material)).then(|| answer(&shared, rules, &position))
        })
        .await?;
    let json = match probed {
        Some(json) => json?,
        None => {
            let shared = Arc::clone(&state);
            state.search(move |_| answer(&shared, rules, &position)).await??
        }
    };
    if !ready {
        state.xiangqi.set_ready(rules, material);
    }
    Ok(Json(json).into_response())
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
    // From its file's header, or 404 at once for a material too large to solve in memory: a
    // probe; else a search.
    let shared = Arc::clone(&state);
    let probed = state
        .probe(move || {
            (shared.xiangqi.get(rules).has_file(material) || material.men() > SOLVE_ON_THE_FLY_MEN)
                .then(|| statistics(&shared, rules, material))
        })
        .await?;
    match probed {
        Some(json) => Ok(Json(json?).into_response()),
        None => {
            let shared = Arc::clone(&state);
            response::searched(&state, move |_| statistics(&shared, rules, material)).await
        }
    }
}

/// A material's statistics (counted when it was solved in memory).
fn statistics(state: &AppState, rules: Rules, material: Material) -> Result<serde_json::Value, ApiError> {
    let s = state
        .xiangqi
        .get(rules)
        .stats(material)
        .map_err(|e| probe_error(&state.xiangqi, &format!("material {material}"), &e))?;
    Ok(report::stats_json(material, rules, &s))
}
