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

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use endgame_core::open_files::OpenFiles;
use endgame_xiangqi::probe::{Probe, ProbeError};
use endgame_xiangqi::{Material, Position, Rules, Setup, Tablebases, report, wxf};
use serde_json::json;

use crate::api::{Params, params};
use crate::{ApiError, AppState};

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

fn rules_of(map: &HashMap<String, String>) -> Result<Rules, ApiError> {
    match map.get("rules") {
        None => Ok(Rules::Standard),
        Some(r) => r.parse().map_err(|_| {
            ApiError::bad_request(format!(
                "query: invalid value '{r}' for rules: expected standard, hdu, perpetual-check or check-and-chase"
            ))
        }),
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
pub async fn position(State(state): State<Arc<AppState>>, query: Params) -> Result<Response, ApiError> {
    let map = params(query, &["fen", "rules"])?;
    let rules = rules_of(&map)?;
    let fen = map.get("fen").ok_or_else(|| ApiError::bad_request("query: expected fen=FEN"))?.clone();
    // The command line's messages: `FEN "...": ...`, `position: ...`.
    let setup: Setup = fen.parse().map_err(|e| ApiError::bad_request(format!("FEN {fen:?}: {e}")))?;
    let position =
        Position::from_setup(setup).map_err(|e| ApiError::bad_request(format!("position: {e}")))?;
    position.check(rules).map_err(|e| ApiError::bad_request(format!("position: {e}")))?;
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
    let mut answer = report::solve_json(position, rules, value, &line);
    let listed = report::moves_json(position, rules, value, &moves);
    answer["moves"] = listed["moves"].clone();
    let mut at = *position;
    let mut names = Vec::with_capacity(line.moves.len());
    for m in &line.moves {
        names.push(wxf::to_wxf(&at, m.mv));
        at = at.play_unchecked(m.mv);
    }
    answer["main_line_wxf"] = json!(names);
    answer["line_end_text"] = json!(line.end.describe());
    answer["in_check"] = json!(position.in_check());
    Ok(answer)
}

/// `GET /api/xiangqi/stats?material=KRvKN&rules=standard`.
pub async fn stats(State(state): State<Arc<AppState>>, query: Params) -> Result<Response, ApiError> {
    let map = params(query, &["material", "rules"])?;
    let rules = rules_of(&map)?;
    let text = map
        .get("material")
        .ok_or_else(|| ApiError::bad_request("query: expected material=MATERIAL"))?
        .clone();
    let material: Material =
        text.parse().map_err(|e| ApiError::bad_request(format!("material {text:?}: {e}")))?;
    let tables = state.xiangqi.get(rules);
    let answer = {
        let state = Arc::clone(&state);
        move |_: &std::sync::atomic::AtomicBool| -> Result<serde_json::Value, ApiError> {
            let s = tables
                .stats(material)
                .map_err(|e| probe_error(&state.xiangqi, &format!("material {material}"), &e))?;
            Ok(report::stats_json(material, rules, &s))
        }
    };
    let answer = state.search(answer).await??;
    Ok(Json(answer).into_response())
}
