//! `endgame.twixt`, `endgame.cheesy`, `endgame.marine`: the other games' parsers and solvers,
//! returning the dictionaries of the command line's `--json` (the game crates' reports,
//! converted by [`crate::json`]). Searches run with the GIL released.

use endgame_core::search::Pruning;
use pyo3::prelude::*;

use crate::{SearchLimit, value_error};

/// A report serialised to JSON and converted to Python values.
fn to_python<'py>(py: Python<'py>, report: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let value = serde_json::to_value(report)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(format!("a report as JSON: {e}")))?;
    crate::json(py, &value)
}

/// The record `text` (judge, SGF or T1 format) and its replay, as `endgame twixt` reads them.
fn replayed(
    text: &str,
    format: Option<&str>,
    rules: Option<&str>,
    swap: Option<bool>,
) -> PyResult<(endgame_twixt::Record, endgame_twixt::replay::Replay)> {
    use endgame_twixt::{Format, Record, Rules};
    let format =
        format.map(|f| f.parse::<Format>().map_err(|e| value_error(format!("format: {e}")))).transpose()?;
    let record = Record::parse(text, format).map_err(|mut e| {
        if e.message == endgame_twixt::record::UNKNOWN_FORMAT {
            e.message.push_str("; name it with format=\"judge\", \"sgf\" or \"t1\"");
        }
        value_error(e)
    })?;
    let mut config = record.default_config();
    if let Some(rules) = rules {
        // In any case, as the command line's --rules.
        config.rules = rules.to_ascii_lowercase().parse::<Rules>().map_err(|_| {
            value_error(format!("rules: {}", endgame_twixt::rules::ParseRulesError(rules.to_string())))
        })?;
    }
    if let Some(swap) = swap {
        config.swap = swap;
    }
    let played = endgame_twixt::replay::replay(&record, config).map_err(value_error)?;
    Ok((record, played))
}

/// Replays a Twixt record and returns what `endgame twixt replay --json` prints: the
/// format, size, rules, every move with its peg and links, and the outcome.
///
/// `text`: the record (POJ 2706 judge tokens, Little Golem SGF or T1j `.T1`; detected unless
/// `format` is `"judge"`, `"sgf"` or `"t1"`); `rules`: `"poj"` or `"pp"` (any case; default: the
/// format's); `swap`: allow the pie rule (default: the format's). Raises `ValueError` with the
/// place of the first error in the record.
#[pyfunction]
#[pyo3(signature = (text, format = None, rules = None, swap = None))]
fn replay<'py>(
    py: Python<'py>,
    text: &str,
    format: Option<&str>,
    rules: Option<&str>,
    swap: Option<bool>,
) -> PyResult<Bound<'py, PyAny>> {
    let report = py.detach(|| {
        let (record, played) = replayed(text, format, rules, swap)?;
        PyResult::Ok(endgame_twixt::replay::Report::new(&record, &played))
    })?;
    to_python(py, &report)
}

/// The points where either side would win at once after the record `text`, as
/// `endgame twixt threats --json` prints them. Arguments and errors as `replay`.
#[pyfunction]
#[pyo3(signature = (text, format = None, rules = None, swap = None))]
fn threats<'py>(
    py: Python<'py>,
    text: &str,
    format: Option<&str>,
    rules: Option<&str>,
    swap: Option<bool>,
) -> PyResult<Bound<'py, PyAny>> {
    let found = py.detach(|| {
        let (record, played) = replayed(text, format, rules, swap)?;
        PyResult::Ok(endgame_twixt::replay::threats(&record, &played.position))
    })?;
    to_python(py, &found)
}

/// Solves a Cheesy Chess board (HDU 1680: a white king against a black pawn) and returns what
/// `endgame cheesy solve --json` prints: the winner, the plies, the line with every board.
///
/// `board`: the board file's text (rows of fields, `K` the king, `P` the pawn); `to_move`:
/// `"white"` or `"black"`. Raises `ValueError` with the place of the first error.
#[pyfunction]
#[pyo3(name = "solve", signature = (board, to_move = "white"))]
fn solve_cheesy<'py>(py: Python<'py>, board: &str, to_move: &str) -> PyResult<Bound<'py, PyAny>> {
    let to_move: endgame_cheesy::Color = to_move.parse().map_err(|e| value_error(format!("to_move: {e}")))?;
    let report = py.detach(|| {
        let position = endgame_cheesy::text::parse_position(board, to_move).map_err(value_error)?;
        let answer = endgame_cheesy::solve(&position)
            .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
        PyResult::Ok(endgame_cheesy::report::Report::new(&position, &answer))
    })?;
    to_python(py, &report)
}

/// Solves a Marine battle (BZOJ 2205: one marine against zerglings) and returns what
/// `endgame marine solve --json` prints: `result` (`"win"`/`"lose"`), `rounds`, `limit`, the
/// search's `states` and `expanded`, the `start` units and the `plan` round by round.
///
/// `battle`: the battle file's text; `rounds`: the round limit; `max_states`: stop once the
/// search stores this many states (default: as many as half the available memory holds).
/// Raises `ValueError` with the place of the first error, `SearchLimit` past `max_states`.
#[pyfunction]
#[pyo3(name = "solve", signature = (battle, rounds = endgame_marine::DEFAULT_ROUNDS, max_states = None))]
fn solve_marine<'py>(
    py: Python<'py>,
    battle: &str,
    rounds: u32,
    max_states: Option<u64>,
) -> PyResult<Bound<'py, PyAny>> {
    let parsed: endgame_marine::Battle = battle.parse().map_err(value_error)?;
    let max_states = max_states.unwrap_or_else(endgame_marine::default_max_states);
    let solution = py.detach(|| parsed.solve_within(rounds, Pruning::ALL, max_states)).map_err(|e| {
        SearchLimit::new_err(format!(
            "{e}, up to {}; max_states sets the limit, fewer rounds or hit points make the search smaller",
            endgame_core::units::bytes(e.stats.states * endgame_marine::BYTES_PER_STATE)
        ))
    })?;
    crate::json(py, &endgame_marine::report::to_json(&parsed, &solution))
}

/// Adds the submodules `twixt` (`replay`, `threats`), `cheesy` (`solve`) and `marine`
/// (`solve`), which the Python package re-exports as `endgame.twixt` and so on.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let twixt = PyModule::new(py, "twixt")?;
    twixt.add_function(wrap_pyfunction!(replay, &twixt)?)?;
    twixt.add_function(wrap_pyfunction!(threats, &twixt)?)?;
    m.add_submodule(&twixt)?;
    let cheesy = PyModule::new(py, "cheesy")?;
    cheesy.add_function(wrap_pyfunction!(solve_cheesy, &cheesy)?)?;
    m.add_submodule(&cheesy)?;
    let marine = PyModule::new(py, "marine")?;
    marine.add_function(wrap_pyfunction!(solve_marine, &marine)?)?;
    m.add_submodule(&marine)?;
    Ok(())
}
