//! The compiled part of the Python package `endgame` (`endgame._endgame`): thin wrappers over
//! the library crates, in the shape of python-chess's `chess.syzygy`.
//!
//! - [`xiangqi`]: `endgame.Tablebases` over [`endgame_xiangqi::Tablebases`]: `probe`,
//!   `probe_wdl`, `moves`, `main_line`, `stats`, `generate`, `review`; and `endgame.review`,
//!   a game of a record reviewed (the dictionary of `endgame xiangqi review --json`). Probing releases the GIL, so
//!   Python threads probe in parallel.
//! - [`games`]: `endgame.twixt.replay`/`threats`, `endgame.cheesy.solve`,
//!   `endgame.marine.solve`, returning the dictionaries of the command line's `--json`
//!   (built by the game crates' report modules, converted by [`json`]).
//!
//! Errors: bad input raises `ValueError` with the command line's message; a material without
//! tables `MissingTable` (a `LookupError`) naming the generate command; a table file that
//! cannot be read `TableError` (an `OSError`); a search past its state limit `SearchLimit`
//! (a `RuntimeError`).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

pub mod games;
pub mod xiangqi;

pyo3::create_exception!(
    endgame,
    MissingTable,
    pyo3::exceptions::PyLookupError,
    "No table for the position's material (or one a capture leads to): the message names the command that generates it (or says why no table of it can exist)."
);
pyo3::create_exception!(
    endgame,
    TableError,
    pyo3::exceptions::PyOSError,
    "A table file cannot be read or is damaged (the message says how to regenerate it)."
);
pyo3::create_exception!(
    endgame,
    SearchLimit,
    pyo3::exceptions::PyRuntimeError,
    "A search stored more states than its limit allows (max_states) without an answer."
);

/// A `ValueError` with `message` (bad input, in the command line's words).
fn value_error(message: impl std::fmt::Display) -> PyErr {
    pyo3::exceptions::PyValueError::new_err(message.to_string())
}

/// JSON as Python values: `null` None, numbers int or float, arrays lists, objects dicts.
///
/// # Errors
/// Only when Python cannot allocate.
pub fn json<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value;
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any(),
            (None, Some(u)) => u.into_pyobject(py)?.into_any(),
            (None, None) => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(fields) => {
            let dict = PyDict::new(py);
            for (key, item) in fields {
                dict.set_item(key, json(py, item)?)?;
            }
            dict.into_any()
        }
    })
}

/// The module `endgame._endgame` (re-exported by `endgame`, `endgame.twixt`, ...).
#[pymodule(name = "_endgame")]
fn extension(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("MissingTable", py.get_type::<MissingTable>())?;
    m.add("TableError", py.get_type::<TableError>())?;
    m.add("SearchLimit", py.get_type::<SearchLimit>())?;
    m.add("DEFAULT_CACHE_MIB", endgame_xiangqi::store::cost::DEFAULT_CACHE_BYTES >> 20)?;
    let rules: Vec<&str> = endgame_xiangqi::Rules::ALL.iter().map(|r| r.name()).collect();
    m.add("RULES", pyo3::types::PyTuple::new(py, rules)?)?;
    m.add_class::<xiangqi::Tablebases>()?;
    m.add_class::<xiangqi::ProbeResult>()?;
    m.add_class::<xiangqi::Move>()?;
    m.add_function(wrap_pyfunction!(xiangqi::review, m)?)?;
    games::register(m)
}
