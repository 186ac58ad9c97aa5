//! `endgame.Tablebases`: the Xiangqi tables of one rule set in one directory, probed from
//! Python. Every method is a call of [`endgame_xiangqi::Tablebases`] (the store the command
//! line and the server use) and the JSON fields of [`endgame_xiangqi::report`]; work that
//! touches the tables runs with the GIL released.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use endgame_core::RuleValue;
use endgame_core::{InputError, Wdl};
use endgame_xiangqi::{Category, GenerateEvent, MoveValue, Probe, ProbeError, report, typed};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::{MissingTable, TableError, value_error};

/// Why a call failed, before it becomes a Python exception (built without the GIL).
enum Failure {
    /// Bad input: `ValueError`.
    Input(InputError),
    /// A probe failed; `what` is the place of the message (`position`, `stats`).
    Probe(ProbeError, &'static str),
}

impl From<InputError> for Failure {
    fn from(e: InputError) -> Failure {
        Failure::Input(e)
    }
}

impl From<Failure> for PyErr {
    fn from(failure: Failure) -> PyErr {
        match failure {
            Failure::Input(e) => value_error(e),
            Failure::Probe(e, what) if e.is_illegal() => value_error(format!("{what}: {e}")),
            Failure::Probe(e, what) if e.is_table_failure() => TableError::new_err(format!("{what}: {e}")),
            // The command line adds "(or add --generate to this command)"; here, the method.
            Failure::Probe(ref e @ ProbeError::NotGenerated { material, .. }, what) => MissingTable::new_err(
                format!("{what}: {e} (or call generate(\"{material}\") on these Tablebases)"),
            ),
            // Beyond the tables, not solved: no table for this material.
            Failure::Probe(e, what) => MissingTable::new_err(format!("{what}: {e}")),
        }
    }
}

/// A probe's failure, with the place of the message.
fn probe(what: &'static str) -> impl Fn(ProbeError) -> Failure {
    move |e| Failure::Probe(e, what)
}

/// A position's value for the side to move: `category` (`"win"`, `"draw"`, `"loss"`), `dtm`
/// (plies to the end under best play, positive when the side to move wins, negative when it
/// loses, `None` for a draw or a result by the rule: the sign convention of the lichess API
/// and of `endgame xiangqi solve --json`), `rule` (`None`, or `"perpetual-check"` / `"perpetual-chase"` for a win
/// or loss by that rule).
#[pyclass(frozen, eq, get_all, module = "endgame")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeResult {
    /// `"win"`, `"draw"` or `"loss"` for the side to move.
    pub category: &'static str,
    /// Plies to the end, signed (positive: the side to move wins), `None` when there is none.
    pub dtm: Option<i64>,
    /// `"perpetual-check"` or `"perpetual-chase"` when won or lost by that ban, else `None`.
    pub rule: Option<&'static str>,
}

impl ProbeResult {
    fn new(value: RuleValue) -> ProbeResult {
        ProbeResult { category: report::category(value), dtm: report::dtm(value), rule: report::rule(value) }
    }
}

/// `repr` of an optional value as Python writes it.
fn py_repr<T: std::fmt::Display>(value: Option<T>, quoted: bool) -> String {
    match value {
        None => "None".to_string(),
        Some(v) if quoted => format!("'{v}'"),
        Some(v) => v.to_string(),
    }
}

#[pymethods]
impl ProbeResult {
    /// 1, 0 or -1: the category as a number (a win or loss by the rule counts).
    #[getter]
    fn wdl(&self) -> i32 {
        match self.category {
            "win" => 1,
            "loss" => -1,
            _ => 0,
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "ProbeResult(category='{}', dtm={}, rule={})",
            self.category,
            py_repr(self.dtm, false),
            py_repr(self.rule, true)
        )
    }
}

/// A legal move and its value: `uci` (`"h2e2"`), `wxf` (`"C2.5"`), `capture` (the role taken,
/// such as `"Horse"`, or `None`), `for_mover` (its value for the side that plays it, a
/// `ProbeResult`: `category='win'` when the move wins, `dtm` counted from the position before
/// the move: the convention of every interface of endgame) and `after` (the value of the
/// position after it, for the opponent, to move there). `category`, `dtm`, `rule` are those of
/// `after` (the lichess API's convention, as `endgame xiangqi moves --json`; kept for the
/// programs that read them: a winning move has `category='loss'` there).
#[pyclass(frozen, eq, get_all, module = "endgame")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    /// The move in UCI (ICCS) coordinates.
    pub uci: String,
    /// The move in WXF notation.
    pub wxf: Option<String>,
    /// The role of the piece it captures.
    pub capture: Option<&'static str>,
    /// Its value for the side that plays it.
    pub for_mover: ProbeResult,
    /// The value of the position after it, for the opponent (to move there).
    pub after: ProbeResult,
    /// `after.category`: the category of the position after the move, for the opponent.
    pub category: &'static str,
    /// `after.dtm`: its distance in plies, signed for the opponent.
    pub dtm: Option<i64>,
    /// `after.rule`: `"perpetual-check"` or `"perpetual-chase"` when that position is won or lost by that ban.
    pub rule: Option<&'static str>,
}

#[pymethods]
impl Move {
    fn __repr__(&self) -> String {
        // The mover's value first, each value named: a winning move reads as one.
        format!(
            "Move(uci='{}', wxf={}, capture={}, for_mover={}, after={})",
            self.uci,
            py_repr(self.wxf.as_deref(), true),
            py_repr(self.capture, true),
            self.for_mover.__repr__(),
            self.after.__repr__()
        )
    }
}

impl Move {
    fn new(position: &endgame_xiangqi::Position, m: &MoveValue) -> Move {
        let after = ProbeResult::new(m.after);
        Move {
            uci: m.mv.to_string(),
            wxf: endgame_xiangqi::wxf::to_wxf(position, m.mv),
            capture: m.capture.map(|p| p.role.name()),
            for_mover: ProbeResult::new(m.value),
            category: after.category,
            dtm: after.dtm,
            rule: after.rule,
            after,
        }
    }
}

/// The Xiangqi tables of one rule set in one directory, as `endgame xiangqi` reads and writes
/// them (in `dir/xiangqi/<rules>/`).
///
/// `dir`: the directory (`None`: the command line's default: `$ENDGAME_TB_DIR`, else
/// `$XDG_DATA_HOME/endgame`, else `~/.local/share/endgame`); `rules`: `"standard"`, `"hdu"` or
/// `"perpetual-check"` or `"check-and-chase"`; `cache_mib`: the block cache in MiB. Materials of up to 4 men are
/// solved in memory on first use when they have no file. Safe to share between threads:
/// probes release the GIL and run in parallel.
#[pyclass(frozen, module = "endgame")]
pub struct Tablebases {
    tables: endgame_xiangqi::Tablebases,
    base: PathBuf,
}

/// Events of a generation as dictionaries for the progress callback.
fn event_dict<'py>(py: Python<'py>, event: &GenerateEvent<'_>) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    let (name, material) = match event {
        GenerateEvent::Kept { material } => ("kept", material),
        GenerateEvent::Replacing { material, error } => {
            dict.set_item("error", error.to_string())?;
            ("replacing", material)
        }
        GenerateEvent::Solving { material, positions, memory } => {
            dict.set_item("positions", positions)?;
            dict.set_item("memory", memory)?;
            ("solving", material)
        }
        GenerateEvent::Progress { material, progress } => {
            dict.set_item("phase", progress.phase.name())?;
            dict.set_item("done", progress.done)?;
            dict.set_item("total", progress.total)?;
            ("progress", material)
        }
        GenerateEvent::Step { material, step } => {
            dict.set_item("step", step)?;
            ("step", material)
        }
        GenerateEvent::Written { material, positions, seconds, path } => {
            dict.set_item("positions", positions)?;
            dict.set_item("seconds", seconds)?;
            dict.set_item("path", path.to_path_buf())?;
            ("written", material)
        }
    };
    dict.set_item("event", name)?;
    dict.set_item("material", material.to_string())?;
    Ok(dict)
}

/// At most this many progress events a second reach the callback (the solver reports far
/// more often); every other event reaches it.
const PROGRESS_EVERY: Duration = Duration::from_millis(200);

#[pymethods]
impl Tablebases {
    #[new]
    #[pyo3(signature = (dir = None, rules = "standard", cache_mib = 64))]
    fn new(dir: Option<PathBuf>, rules: &str, cache_mib: i64) -> PyResult<Tablebases> {
        let rules = typed::rules(rules).map_err(value_error)?;
        let cache =
            usize::try_from(cache_mib).ok().and_then(|mib| mib.checked_mul(1 << 20)).ok_or_else(|| {
                value_error(format!("cache_mib: expected a number of MiB from 0, found {cache_mib}"))
            })?;
        let base = match dir {
            Some(dir) => dir,
            None => {
                endgame_xiangqi::Tablebases::default_dir().map_err(|e| value_error(format!("dir: {e}")))?
            }
        };
        let tables = endgame_xiangqi::Tablebases::open(&base, rules).with_cache_bytes(cache);
        Ok(Tablebases { tables, base })
    }

    /// The rule set: `"standard"`, `"hdu"`, `"perpetual-check"` or `"check-and-chase"`.
    #[getter]
    fn rules(&self) -> &'static str {
        self.tables.rules().name()
    }

    /// The directory of the tables (the files are in `dir/xiangqi/<rules>/`).
    #[getter]
    fn dir(&self) -> PathBuf {
        self.base.clone()
    }

    fn __repr__(&self) -> String {
        format!("Tablebases(dir={:?}, rules='{}')", self.base.display().to_string(), self.rules())
    }

    /// The value of the position `fen` (Xiangqi FEN, Pikafish letters) for the side to move.
    ///
    /// Raises `ValueError` (bad FEN, illegal position), `MissingTable`, `TableError`.
    fn probe(&self, py: Python<'_>, fen: &str) -> PyResult<ProbeResult> {
        let tables = &self.tables;
        let value = py.detach(|| -> Result<RuleValue, Failure> {
            tables.probe(&typed::fen(fen)?).map_err(probe("position"))
        })?;
        Ok(ProbeResult::new(value))
    }

    /// 1 (the side to move wins), 0 (draw) or -1 (it loses); a result by the rule counts. It
    /// reads the table's WDL file only, never its DTM file (the fewest bytes).
    ///
    /// Raises as `probe`.
    fn probe_wdl(&self, py: Python<'_>, fen: &str) -> PyResult<i32> {
        let tables = &self.tables;
        let category = py.detach(|| -> Result<Category, Failure> {
            tables.probe_wdl(&typed::fen(fen)?).map_err(probe("position"))
        })?;
        Ok(match category.wdl() {
            Wdl::Win => 1,
            Wdl::Draw => 0,
            Wdl::Loss => -1,
        })
    }

    /// Every legal move best first (the shortest win, draws, the longest loss), as
    /// `endgame xiangqi moves --json` lists them: each with its value for the side that plays
    /// it (`for_mover`) and the value of the position after it, for the opponent (`after`).
    ///
    /// Raises as `probe`.
    fn moves(&self, py: Python<'_>, fen: &str) -> PyResult<Vec<Move>> {
        let tables = &self.tables;
        Ok(py.detach(|| -> Result<Vec<Move>, Failure> {
            let position = typed::fen(fen)?;
            let moves = tables.moves(&position).map_err(probe("position"))?;
            Ok(moves.iter().map(|m| Move::new(&position, m)).collect())
        })?)
    }

    /// The main line in UCI moves: best moves to the end of a win or loss (however long),
    /// until a position repeats in a result by the rule, at most 20 plies of a draw (as
    /// `endgame xiangqi solve`).
    ///
    /// Raises as `probe`.
    fn main_line(&self, py: Python<'_>, fen: &str) -> PyResult<Vec<String>> {
        let tables = &self.tables;
        Ok(py.detach(|| -> Result<Vec<String>, Failure> {
            let line = tables.main_line(&typed::fen(fen)?).map_err(probe("position"))?;
            Ok(line.moves.iter().map(|m| m.mv.to_string()).collect())
        })?)
    }

    /// The statistics of `material` (such as `"KRvKA"`) over its legal positions, as
    /// `endgame xiangqi stats --json` prints them: `positions`, `wins`, `losses`, `draws`,
    /// `longest_red_win_plies`, `longest_black_win_plies` (under perpetual-check and
    /// check-and-chase also `wins_by_rule`, `losses_by_rule`, `standard_draws`; when the
    /// material has files, `wdl_bytes`, `dtm_bytes`, `wdl_bits_per_position`,
    /// `dtm_bits_per_position`), and `red_to_move`, `black_to_move`: the same counts for each
    /// side to move, counted from every block of the table (not the header: minutes for a
    /// table of billions of positions).
    ///
    /// Raises `ValueError` (bad material), `MissingTable` (not generated: see `generate`),
    /// `TableError`.
    fn stats<'py>(&self, py: Python<'py>, material: &str) -> PyResult<Bound<'py, PyAny>> {
        let tables = &self.tables;
        let material = typed::material(material).map_err(value_error)?;
        let (stats, sides) = py.detach(|| {
            let stats = tables.stats(material).map_err(probe("stats"))?;
            // Counted from the values (every block of the WDL file read once), as the command
            // line does: no header holds them.
            tables.stats_by_side(material).map_err(probe("stats")).map(|sides| (stats, sides))
        })?;
        let mut json = report::stats_with_files_json(tables, material, &stats);
        report::add_stats_by_side(&mut json, tables.rules(), &sides);
        crate::json(py, &json)
    }

    /// A game of the record `record` (PGN text in any notation, or the bytes of a PGN file in
    /// any encoding or of an XQF file) reviewed against these tables, as `endgame xiangqi
    /// review --json` prints it: `moves` (one per ply: `ply`, `uci`, `fen`, `result`,
    /// `for_mover`, `mark`, `best`, ...), `final`, `summary`, `game`, `games`, `tags`.
    /// `game`: the game of the record, 1 for the first; `mistake_plies`: a winning move that
    /// mates this many plies later than the best, or more, is a mistake.
    ///
    /// Raises `ValueError` (a record that cannot be read, naming the game and the move; no
    /// such game), `TableError`.
    #[pyo3(signature = (record, game = 1, mistake_plies = endgame_xiangqi::review::DEFAULT_MISTAKE_PLIES))]
    fn review<'py>(
        &self,
        py: Python<'py>,
        record: Record,
        game: usize,
        mistake_plies: u32,
    ) -> PyResult<Bound<'py, PyAny>> {
        review_json(py, &self.tables, &record.0, game, mistake_plies).and_then(|json| crate::json(py, &json))
    }

    /// Generates the tables of `material` and of every material a capture leads to (skipping
    /// files that exist and pass their check), as `endgame xiangqi generate MATERIAL` does,
    /// and returns a summary: `materials` (files in the plan), `generated`, `twins` (materials
    /// answered from their colour twin's file), `kept`, `replaced`.
    ///
    /// `progress`, when given, is called with a dict per event: `event` (`"solving"`,
    /// `"progress"`, `"step"`, `"written"`, `"kept"`, `"replacing"`),
    /// `material`, and the event's fields (`positions`, `memory`, `phase`, `done`, `total`,
    /// `step`, `seconds`, `path`, `error`); progress events at most 5 times a second.
    /// An exception raised by the callback is raised by `generate` once the generation
    /// ends (it cannot stop it).
    ///
    /// Raises `ValueError` (bad material), `MissingTable` (a material beyond the tables),
    /// `MemoryError` (not enough memory for a material), `OSError` (files).
    #[pyo3(signature = (material, progress = None))]
    fn generate<'py>(
        &self,
        py: Python<'py>,
        material: &str,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        use endgame_xiangqi::GenerateError;
        let material = typed::material(material).map_err(value_error)?;
        let raised: Mutex<Option<PyErr>> = Mutex::new(None);
        let last_progress: Mutex<Option<Instant>> = Mutex::new(None);
        let report = |event: GenerateEvent<'_>| {
            let Some(callback) = &progress else { return };
            if let GenerateEvent::Progress { .. } = event {
                let mut last = last_progress.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                if last.is_some_and(|at| at.elapsed() < PROGRESS_EVERY) {
                    return;
                }
                *last = Some(Instant::now());
            }
            let mut raised = raised.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if raised.is_some() {
                return;
            }
            Python::attach(|py| {
                let called = event_dict(py, &event).and_then(|dict| callback.call1(py, (dict,)));
                if let Err(e) = called {
                    *raised = Some(e);
                }
            });
        };
        let tables = &self.tables;
        let summary = py.detach(|| tables.generate(&[material], &report));
        if let Some(e) = raised.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner) {
            return Err(e);
        }
        let summary = summary.map_err(|e| match e {
            GenerateError::Probe(e) => PyErr::from(Failure::Probe(e, "material")),
            GenerateError::Memory { .. } => pyo3::exceptions::PyMemoryError::new_err(e.to_string()),
            GenerateError::Table(_) | GenerateError::Directory { .. } => {
                pyo3::exceptions::PyOSError::new_err(e.to_string())
            }
            other => pyo3::exceptions::PyRuntimeError::new_err(other.to_string()),
        })?;
        let dict = PyDict::new(py);
        dict.set_item("materials", summary.materials)?;
        dict.set_item("generated", summary.generated)?;
        dict.set_item("twins", summary.twins)?;
        dict.set_item("kept", summary.kept)?;
        dict.set_item("replaced", summary.replaced)?;
        Ok(dict)
    }
}

/// A record given as text (`str`) or as the bytes of a file (`bytes`).
pub struct Record(Vec<u8>);

impl<'a, 'py> FromPyObject<'a, 'py> for Record {
    type Error = PyErr;

    fn extract(object: Borrowed<'a, 'py, PyAny>) -> PyResult<Record> {
        if let Ok(text) = object.extract::<String>() {
            return Ok(Record(text.into_bytes()));
        }
        object
            .extract::<Vec<u8>>()
            .map(Record)
            .map_err(|_| pyo3::exceptions::PyTypeError::new_err("record: expected str or bytes"))
    }
}

/// The JSON of a game of `record` reviewed against `tables` (with the GIL released), or the
/// exception: `ValueError` for the record, `TableError` for the tables.
fn review_json(
    py: Python<'_>,
    tables: &endgame_xiangqi::Tablebases,
    record: &[u8],
    game: usize,
    mistake_plies: u32,
) -> PyResult<serde_json::Value> {
    use endgame_xiangqi::review::{ReviewOptions, review_record};
    if game == 0 || mistake_plies == 0 {
        let what =
            if game == 0 { "game: games are counted from 1" } else { "mistake_plies: expected at least 1" };
        return Err(value_error(what));
    }
    let options = ReviewOptions { mistake_plies };
    let cancel = std::sync::atomic::AtomicBool::new(false);
    py.detach(|| review_record(tables, record, Some(game), options, &cancel).map(|r| r.to_json())).map_err(
        |e| if e.table_failure().is_some() { TableError::new_err(e.to_string()) } else { value_error(e) },
    )
}

/// `endgame.review(record, game=1, rules="standard", dir=None, mistake_plies=10)`: a game of a
/// record reviewed against the tables of `rules` in `dir` (`None`: the command line's
/// default), as `endgame xiangqi review --json` prints it (see `Tablebases.review`, which keeps
/// its tables and cache from one game to the next).
///
/// # Errors
/// As `Tablebases.review`, and `ValueError` for unknown rules.
#[pyfunction]
#[pyo3(signature = (record, game = 1, rules = "standard", dir = None, mistake_plies = endgame_xiangqi::review::DEFAULT_MISTAKE_PLIES))]
pub fn review<'py>(
    py: Python<'py>,
    record: Record,
    game: usize,
    rules: &str,
    dir: Option<PathBuf>,
    mistake_plies: u32,
) -> PyResult<Bound<'py, PyAny>> {
    let tables = Tablebases::new(dir, rules, 64)?;
    review_json(py, &tables.tables, &record.0, game, mistake_plies).and_then(|json| crate::json(py, &json))
}
