//! The bodies of the answers the server composes itself: the examples, a Twixt replay with its
//! threats, a Xiangqi position with its moves and main line, an estimate, a job.
//!
//! The game crates' own reports go out as they are (`endgame_cheesy::report::Report`,
//! `endgame_marine::report::to_json`, `endgame_xiangqi::report::stats_json`: what the
//! command-line tool prints with `--json`). Objects built here as `serde_json` values write
//! their keys in alphabetical order.

use std::sync::atomic::AtomicBool;

use axum::Json;
use axum::response::{IntoResponse, Response};
use endgame_core::RuleValue;
use endgame_twixt::replay::{Report, Threats};
use endgame_xiangqi::jobs::{Estimate, JobState, JobStatus};
use endgame_xiangqi::{MainLine, MoveValue, Position, Rules, report, wxf};
use serde::Serialize;
use serde_json::{Value, json};

use crate::{ApiError, AppState};

/// The answer of `work` run as a search ([`AppState::search`]): its JSON, or its error.
pub(crate) async fn searched<T: Serialize + Send + 'static>(
    state: &AppState,
    work: impl FnOnce(&AtomicBool) -> Result<T, ApiError> + Send + 'static,
) -> Result<Response, ApiError> {
    let answer = state.search(work).await??;
    Ok(Json(answer).into_response())
}

/// `GET /api/examples`: example inputs for the page: the classic Xiangqi endgames (the page's
/// examples menu: `english`, `chinese`, `material`, `fen` each, from
/// `endgame_xiangqi::catalogue`), a Xiangqi game record for the Review tab, a Twixt record, a
/// Cheesy board, a Marine battle.
pub(crate) fn examples() -> Value {
    json!({
        "xiangqi": endgame_xiangqi::catalogue::catalogue_json(),
        "xiangqi_review": include_str!("../../xiangqi/examples/review.pgn"),
        "twixt": include_str!("../../twixt/tests/data/sample.T1"),
        "twixt_judge": "7 11\n0 3 6 5 3 2 5 7 7 2 4 4\n5 3 5 2 4 5 4 0 2 4\n",
        "cheesy": include_str!("../../cheesy/examples/sample1.txt"),
        "marine": include_str!("../../marine/examples/corner.txt"),
    })
}

/// `POST /api/twixt/replay`: `twixt replay --json` and the threats after the last move.
#[derive(Serialize)]
pub(crate) struct TwixtAnswer {
    /// The replay's report.
    #[serde(flatten)]
    pub report: Report,
    /// The threats after the last move.
    pub threats: Threats,
}

/// `GET /api/xiangqi`: `xiangqi solve --json` (value, best move, main line and its end) with
/// the moves of `xiangqi moves --json`, the main line in WXF, the end of the line in words
/// and whether the side to move is in check.
pub(crate) fn position(
    position: &Position,
    rules: Rules,
    value: RuleValue,
    moves: &[MoveValue],
    line: &MainLine,
) -> Value {
    let mut answer = report::solve_json(position, rules, value, line);
    let listed = report::moves_json(position, rules, value, moves);
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
    answer
}

/// What a material still needs (tables, positions, memory, time), whether it fits `budget`,
/// and the commands that generate it in a terminal and on a cluster; `generated` once it
/// needs nothing (every table there), and then `text` says so.
fn estimate_fields(e: &Estimate, budget: Option<u64>) -> Value {
    json!({
        "material": e.material.to_string(),
        "generated": e.is_done(),
        "rules": e.rules.name(),
        "tables": e.tables,
        "tables_in_all": e.tables_in_all,
        "positions": e.positions,
        "memory_bytes": e.memory_bytes,
        "least_memory_bytes": e.least_memory_bytes,
        // Never -0.0 (nothing to do is 0 seconds).
        "seconds": e.seconds.max(0.0),
        "speed": e.speed,
        "largest": e.largest.map(|m| m.to_string()),
        "budget_bytes": budget,
        "fits": budget.is_some_and(|b| e.fits(b)),
        "command": e.command(),
        "cluster_command": format!("mpirun -np N --hostfile hosts {} --dir /shared/tables", e.command()),
        "text": e.describe(),
    })
}

/// `GET /api/xiangqi/estimate`: the estimate, whether this server generates, and the job
/// queued or running for the material (its state and the jobs `ahead` of it; else `done` or
/// `missing`).
pub(crate) fn estimate(
    e: &Estimate,
    budget: Option<u64>,
    generates: bool,
    active: Option<&JobStatus>,
) -> Value {
    let mut answer = estimate_fields(e, budget);
    answer["generate"] = json!(generates);
    answer["state"] = json!(match active {
        Some(job) => job.state.name(),
        None if e.is_done() => "done",
        None => "missing",
    });
    answer["job"] = json!(active.map(|j| j.id));
    answer["ahead"] = json!(active.map_or(0, |j| j.ahead));
    answer
}

/// `POST /api/xiangqi/generate` when the tables are there already: the estimate, no job.
pub(crate) fn generated(e: &Estimate, budget: u64) -> Value {
    let mut answer = estimate_fields(e, Some(budget));
    answer["job"] = Value::Null;
    answer["state"] = json!("done");
    answer
}

/// `POST /api/xiangqi/generate` over the budget: the estimate and why it was refused.
pub(crate) fn refused(e: &Estimate, budget: u64, error: &str) -> Value {
    let mut answer = estimate_fields(e, Some(budget));
    answer["error"] = json!(error);
    answer["state"] = json!("refused");
    answer
}

/// A job: its state (`starting` when nothing runs or waits before it, `queued` with `ahead`
/// jobs before it) and progress (the estimate's figures until it runs).
pub(crate) fn job(s: &JobStatus) -> Value {
    let p = &s.progress;
    let waiting = matches!(s.state, JobState::Queued | JobState::Starting);
    json!({
        "job": s.id,
        "material": s.material.to_string(),
        "rules": s.rules.name(),
        "state": s.state.name(),
        "ahead": s.ahead,
        "positions": s.estimate.positions,
        "memory_bytes": s.estimate.memory_bytes,
        "materials_done": p.materials_done,
        "materials_total": if waiting { s.estimate.tables } else { p.materials_total },
        "positions_done": p.positions_done,
        "positions_total": if p.positions_total == 0 { s.estimate.positions } else { p.positions_total },
        "positions_per_second": p.positions_per_second,
        "seconds_left": if s.state.is_finished() { 0.0 } else if p.positions_total == 0 { s.estimate.seconds.max(0.0) } else { p.seconds_left },
        "current": p.current.map(|m| m.to_string()),
        "error": s.error,
    })
}
