//! The JSON of a review, shared by `endgame xiangqi review --json`, `POST /api/xiangqi/review`
//! and the Python binding, so that all three give the same fields (`docs/review.md`).
//!
//! Values are objects as `solve --json` gives a position's (`category`, `dtm`, and `rule` for
//! a result by a ban): `result` is the position's for the side to move, `for_mover` the move's
//! for the side that plays it, counted from the position before the move (as `moves --json`
//! gives a move's `for_mover`), so a mistake's `for_mover.dtm` exceeds its `result.dtm`.

use serde_json::{Value as Json, json};

use super::summary::{PerfectPlay, SideSummary};
use super::{Review, move_number};
use crate::report::{turn_name, value_json};

/// `{"in_tables", "blunders", "mistakes", "first_blunder"}`.
fn side_json(side: &SideSummary) -> Json {
    json!({
        "in_tables": side.in_tables,
        "blunders": side.blunders,
        "mistakes": side.mistakes,
        "first_blunder": side.first_blunder,
    })
}

/// `{"ply", "move", "turn", "result", "winner"}`.
fn perfect_json(perfect: &PerfectPlay) -> Json {
    json!({
        "ply": perfect.ply,
        "move": perfect.move_number,
        "turn": turn_name(perfect.turn),
        "result": value_json(perfect.value),
        "winner": perfect.winner().map(turn_name),
    })
}

/// The review as JSON: `rules`, `mistake_plies`, `start_fen`; `moves`, one per ply: `ply` (1
/// for the first move), `move` (its number: Red's and Black's moves share one), `turn` (the
/// mover), `uci` (ICCS), `wxf`, `capture` (the role taken or `null`), `fen` (the position
/// before the move), `result` (that position's value for the mover, `null` where the tables
/// do not answer), `for_mover` (the move's value for the mover, `null` where the position
/// after it is not answered), `mark` (`"blunder"`, `"mistake"` or `null`), `best` (the best
/// move in ICCS: the move played when it is as good; `null` where `result` is) and
/// `best_wxf`; `final` (`fen`, `turn`, `result` of the position after the last move); and
/// `summary`: `plies`, `red` and `black` (`in_tables`, `blunders`, `mistakes`,
/// `first_blunder`), `perfect_play` (from the first position the tables answer: `ply`,
/// `move`, `turn`, `result`, `winner` (`red`, `black` or `null` for a draw); `null` when
/// they answer none) and `missing` (the materials not answered: `material`, `ply` where the
/// game first had it, `can_generate`, `message`).
#[must_use]
pub fn review_json(review: &Review) -> Json {
    let first = review.first_mover();
    let moves: Vec<Json> = review
        .plies
        .iter()
        .map(|p| {
            json!({
                "ply": p.ply,
                "move": move_number(first, p.ply),
                "turn": turn_name(p.before.turn()),
                "uci": p.mv.to_string(),
                "wxf": crate::wxf::to_wxf(&p.before, p.mv),
                "capture": p.capture.map(|c| c.role.name()),
                "fen": p.before.setup().to_string(),
                "result": p.value.map(value_json),
                "for_mover": p.played.map(value_json),
                "mark": p.mark.map(super::Mark::name),
                "best": p.best.map(|b| b.mv.to_string()),
                "best_wxf": p.best.and_then(|b| crate::wxf::to_wxf(&p.before, b.mv)),
            })
        })
        .collect();
    let summary = review.summary();
    let missing: Vec<Json> = review
        .missing
        .iter()
        .map(|m| {
            json!({
                "material": m.material.to_string(),
                "ply": m.ply,
                "can_generate": m.can_generate,
                "message": m.message,
            })
        })
        .collect();
    json!({
        "rules": review.rules.name(),
        "mistake_plies": review.options.mistake_plies,
        "start_fen": review.start.setup().to_string(),
        "moves": moves,
        "final": {
            "fen": review.end.setup().to_string(),
            "turn": turn_name(review.end.turn()),
            "result": review.end_value.map(value_json),
        },
        "summary": {
            "plies": review.plies.len(),
            "red": side_json(&summary.red),
            "black": side_json(&summary.black),
            "perfect_play": summary.perfect_play.as_ref().map(perfect_json),
            "missing": missing,
        },
    })
}
