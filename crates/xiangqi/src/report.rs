//! The JSON answers of `endgame xiangqi solve --json` and `moves --json`, shared by the
//! command line and the web server so that both print the same fields.
//!
//! Fields follow the lichess tablebase API: `category` (`win`, `draw`, `loss`) and `dtm`
//! (plies, positive when the side to move wins, negative when it loses, `null` for a draw) of
//! the position. A move's value is given for the side that plays it, as every interface of
//! endgame gives it (the C library, the Python package, the page): `for_mover` (`category`,
//! `dtm`, `rule` as the position's; `"for_mover": {"category": "win", "dtm": 3}` is "this move
//! wins in 3 plies", counted from the position before it). A move's own `category` and `dtm`
//! are kept as the lichess API has them: those of the position after the move, for the
//! opponent (to move there), so a winning move says `"category": "loss"`.
//! A win or loss by a ban on endless play is `category` `win` or `loss`
//! with `"rule": "perpetual-check"` (by the ban on perpetual check) or `"perpetual-chase"`
//! (by the ban on perpetual chase, under `check-and-chase` only) and `dtm` `null` (the field
//! `rule` is there only then).

use endgame_core::RuleValue;
use serde_json::{Value as Json, json};

use crate::probe::{MainLine, MoveValue, Probe, ProbeError};
use crate::rules::color::Color;
use crate::rules::position::Position;

/// `win`, `draw` or `loss`.
#[must_use]
pub const fn category(value: RuleValue) -> &'static str {
    match value {
        RuleValue::Win(_) | RuleValue::WinByRule(..) => "win",
        RuleValue::Draw(_) => "draw",
        RuleValue::Loss(_) | RuleValue::LossByRule(..) => "loss",
    }
}

/// Plies to the end, positive for a win of the side to move, negative for a loss, `None` for
/// a draw or a result by the rule (lichess's sign convention).
#[must_use]
pub fn dtm(value: RuleValue) -> Option<i64> {
    match value {
        RuleValue::Win(d) => Some(i64::from(d.0)),
        RuleValue::Loss(d) => Some(-i64::from(d.0)),
        _ => None,
    }
}

/// The ban a result is won or lost by (`perpetual-check`, `perpetual-chase`), `None` for a
/// mate, a loss or a draw: the `rule` field of the JSON answers and of the bindings.
#[must_use]
pub fn rule(value: RuleValue) -> Option<&'static str> {
    value.ban().map(|ban| ban.name())
}

/// `category`, `dtm` and, for a result by the rule, `rule` into `json`.
fn put_value(json: &mut Json, value: RuleValue) {
    json["category"] = json!(category(value));
    json["dtm"] = json!(dtm(value));
    if let Some(rule) = rule(value) {
        json["rule"] = json!(rule);
    }
}

/// `{"category", "dtm"}` of a value, and `rule` for a result by the rule: the value objects of
/// the answers (`for_mover`, a review's `result`).
#[must_use]
pub fn value_json(value: RuleValue) -> Json {
    let mut json = json!({});
    put_value(&mut json, value);
    json
}

/// `red` or `black`.
#[must_use]
pub const fn turn_name(color: Color) -> &'static str {
    match color {
        Color::Red => "red",
        Color::Black => "black",
    }
}

/// The fields every answer has: `fen`, `rules`, `material`, `turn`, `category`, `dtm`.
#[must_use]
pub fn position_json(position: &Position, rules: crate::Rules, value: RuleValue) -> Json {
    let mut json = json!({
        "fen": position.setup().to_string(),
        "rules": rules.name(),
        "material": position.material().to_string(),
        "turn": turn_name(position.turn()),
    });
    put_value(&mut json, value);
    json
}

/// One move: `uci`, `capture` (the role taken, or `null`), `for_mover` (its value for the side
/// that plays it), and `category` and `dtm` of the position after it, for the opponent.
#[must_use]
pub fn move_json(m: &MoveValue) -> Json {
    let mut json = json!({
        "uci": m.mv.to_string(),
        "capture": m.capture.map(|p| p.role.name()),
        "for_mover": value_json(m.value),
    });
    put_value(&mut json, m.after);
    json
}

/// `solve --json`: the position's fields, `best_move`, the whole `main_line` (UCI moves),
/// `line_end` (`checkmate`, `stalemate`, `general_captured`, `perpetual_check`,
/// `perpetual_chase`, `repetition`, `bounded`), `final_fen`, and for `perpetual_chase` the
/// piece the loser chases in the cycle: `chased` (`{"color", "role", "square"}`, `null` when
/// the loser only checks there).
#[must_use]
pub fn solve_json(position: &Position, rules: crate::Rules, value: RuleValue, line: &MainLine) -> Json {
    let mut report = position_json(position, rules, value);
    report["best_move"] = json!(line.moves.first().map(|m| m.mv.to_string()));
    report["main_line"] = json!(line.moves.iter().map(|m| m.mv.to_string()).collect::<Vec<_>>());
    report["line_end"] = json!(line.end.name());
    report["final_fen"] = json!(line.last.setup().to_string());
    if let crate::LineEnd::PerpetualChase { chased, .. } = line.end {
        report["chased"] = match chased {
            Some((piece, at)) => json!({
                "color": turn_name(piece.color),
                "role": piece.role.name(),
                "square": at.to_string(),
            }),
            None => Json::Null,
        };
    }
    report
}

/// `moves --json`: the position's fields and `moves[]`, best first, each also in WXF
/// notation (`wxf`, see [`crate::wxf`]).
#[must_use]
pub fn moves_json(position: &Position, rules: crate::Rules, value: RuleValue, moves: &[MoveValue]) -> Json {
    let mut report = position_json(position, rules, value);
    let moves: Vec<Json> = moves
        .iter()
        .map(|m| {
            let mut j = move_json(m);
            j["wxf"] = json!(crate::wxf::to_wxf(position, m.mv));
            j
        })
        .collect();
    report["moves"] = json!(moves);
    report
}

/// `stats --json`: the counts over the legal positions of `material` (under `perpetual-check`
/// and `check-and-chase` `wins` and `losses` are by mate, and `wins_by_rule`, `losses_by_rule`, `standard_draws`
/// are added: the `standard` draws are the rule's wins, losses and `draws`).
#[must_use]
pub fn stats_json(material: crate::Material, rules: crate::Rules, s: &crate::Stats) -> Json {
    let mut json = json!({
        "material": material.to_string(),
        "rules": rules.name(),
        "positions": s.counts.positions,
        "wins": s.counts.wins,
        "losses": s.counts.losses,
        "draws": s.counts.draws,
        "longest_red_win_plies": s.longest_red_win_plies,
        "longest_black_win_plies": s.longest_black_win_plies,
    });
    if rules.has_bans() {
        // The `standard` draws split: wins and losses by the rule, and those still drawn.
        json["wins_by_rule"] = json!(s.counts.wins_by_rule);
        json["losses_by_rule"] = json!(s.counts.losses_by_rule);
        json["standard_draws"] = json!(s.counts.draws + s.counts.wins_by_rule + s.counts.losses_by_rule);
    }
    json
}

/// The counts for each side to move added to a [`stats_json`] report `report`: the objects
/// `red_to_move` and `black_to_move`, each with `positions`, `wins`, `draws`, `losses`,
/// `longest_win_plies` (under `perpetual-check` and `check-and-chase` also `wins_by_rule` and
/// `losses_by_rule`; `wins` and `losses` are then by mate).
pub fn add_stats_by_side(report: &mut Json, rules: crate::Rules, sides: &crate::StatsBySide) {
    for (name, s) in [("red_to_move", &sides.red), ("black_to_move", &sides.black)] {
        let mut side = json!({
            "positions": s.positions,
            "wins": s.wins,
            "draws": s.draws,
            "losses": s.losses,
            "longest_win_plies": s.longest_win_plies,
        });
        if rules.has_bans() {
            side["wins_by_rule"] = json!(s.wins_by_rule);
            side["losses_by_rule"] = json!(s.losses_by_rule);
        }
        report[name] = side;
    }
}

/// [`stats_json`] of `material` in `tables`, with the sizes of the files that answer for it
/// (its own, or its colour twin's) when there are files: `wdl_bytes`, `dtm_bytes`, and their
/// bits per legal position (`wdl_bits_per_position`, `dtm_bits_per_position`): what
/// `endgame xiangqi stats --json` prints.
#[must_use]
pub fn stats_with_files_json(
    tables: &crate::Tablebases,
    material: crate::Material,
    s: &crate::Stats,
) -> Json {
    let mut report = stats_json(material, tables.rules(), s);
    let size = |path: std::path::PathBuf| std::fs::metadata(path).ok().map(|m| m.len());
    let bits = |bytes: u64| {
        if s.counts.positions == 0 { 0.0 } else { bytes as f64 * 8.0 / s.counts.positions as f64 }
    };
    let file = tables.file_material(material);
    if let Some((wdl, dtm)) = size(tables.path(file)).zip(size(tables.dtm_path(file))) {
        report["wdl_bytes"] = wdl.into();
        report["dtm_bytes"] = dtm.into();
        report["wdl_bits_per_position"] = bits(wdl).into();
        report["dtm_bits_per_position"] = bits(dtm).into();
    }
    report
}

/// Probes and builds [`solve_json`].
///
/// # Errors
/// As [`Probe::main_line`].
pub fn solve(tables: &impl Probe, position: &Position) -> Result<Json, ProbeError> {
    let value = tables.probe(position)?;
    let line = tables.main_line(position)?;
    Ok(solve_json(position, tables.rules(), value, &line))
}

/// Probes and builds [`moves_json`].
///
/// # Errors
/// As [`Probe::moves`].
pub fn moves(tables: &impl Probe, position: &Position) -> Result<Json, ProbeError> {
    let value = tables.probe(position)?;
    let moves = tables.moves(position)?;
    Ok(moves_json(position, tables.rules(), value, &moves))
}
