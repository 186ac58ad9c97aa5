//! The tables of one rule set in one directory: opened lazily, probed one block at a time,
//! generated in dependency order.
//!
//! [`Tablebases`] is the library's door to the tables, shared by the command line and the web
//! server, and safe to probe from many threads at once. A material's table is two files,
//! `<dir>/xiangqi/<rules>/<material>.wdl` and `<material>.dtm` (see
//! [`endgame_core::table_file`]).
//!
//! - **Probing** reads only the blocks that hold the position: a file is opened on its first
//!   probe (its header is read and checked, not its data), a block is read with one positioned
//!   read, checked and decompressed, and kept in a [`BlockCache`] bounded in bytes (least
//!   recently used blocks go first). A value's category ([`Probe::probe_wdl`]) reads the WDL
//!   file only; its distance a block of the DTM file besides (opened on the first such
//!   probe). [`Tablebases::stats`] of a material with files reads the WDL file's header only.
//!   A material of at most [`SOLVE_ON_THE_FLY_MEN`] men without
//!   a file is solved in memory on first use (a fraction of a second) and kept. Files of the
//!   previous format (`<material>.egtb`, version 2) are refused with a message that names
//!   `endgame xiangqi convert`; [`convert`](crate::files::convert) rewrites them.
//! - **Open files** are bounded: the files' descriptors live in a pool ([`OpenFiles`], the
//!   process's by default, [`Tablebases::with_open_files`]) that keeps a fixed number open and
//!   opens a closed file again on its next read. A table written anew while the store is in
//!   use (another process's generation, a file copied in) is noticed: before a probe that
//!   failed on a file is answered, and at most every [`REPLACED_CHECK_MS`] while a table is
//!   probed, its open files are compared with those at their paths (device, inode, length,
//!   modification time); replaced or removed, they are forgotten and the new ones opened.
//! - **Generation** ([`Tablebases::generate`]) solves the materials asked for and every
//!   material a capture leads to, fewer men first, skipping files that exist and pass a full
//!   check (a damaged or outdated file is replaced), checking a memory estimate against the
//!   memory available before each material, and writing each file atomically.
//! - **Under `perpetual-check` and `check-and-chase`** a file holds rule codes (wins and losses by the rule with the
//!   winner's ranks, see [`endgame_core::table_file`]); a generation solves the `standard` game
//!   of the material first (or reads it from the sibling `standard` directory when that file
//!   exists), then the rule's passes over its draws with the rule's values of the smaller
//!   materials, checks the result against the certificate
//!   ([`endgame_core::perpetual::check_rule_solution`]) and writes it.
//! - **Limits**: a material whose index does not fit in 64 bits, or whose generation needs
//!   more memory than the machine has, is refused at once ([`ProbeError::BeyondTables`]).

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::Instant;

use endgame_core::open_files::OpenFiles;
use endgame_core::perpetual::{
    DEFAULT_EDGE_BUDGET, PerpetualCheck, RuleSolution, RuleValue, check_rule_solution,
};
use endgame_core::schedule::{Scheduler, Tier};
use endgame_core::table_file::{
    Block, BlockCache, BlockKey, Category, Compression, KeyHash, TableError, TableFile, TableFiles, TableId,
    TablePaths, move_tables, temporary_name, write_tables,
};
use endgame_core::{Progress, Retrograde, Solution, SolveError};
use rayon::prelude::*;

use crate::probe::{Probe, ProbeError};
use crate::rules::material::Material;
use crate::rules::position::Position;
use crate::rules::rule_set::Rules;
use crate::tables::index::{ColourFlip, MaterialIndex};
use crate::tables::memory_tables::{MemoryTables, Table};
use crate::tables::perpetual::{PerpetualGame, PerpetualTablebase};
use crate::tables::stats::Stats;

/// The default budget of the block cache: 64 MiB.
pub const DEFAULT_CACHE_BYTES: usize = 64 << 20;

/// How often (at most) a table's open files are compared with the files at their paths, in
/// milliseconds (see `Tablebases::source`).
pub const REPLACED_CHECK_MS: u64 = 1000;

/// Materials with at most this many men are solved in memory when they have no file.
pub const SOLVE_ON_THE_FLY_MEN: usize = 4;

/// Bytes a generating process holds besides the solver's structures, the loaded tables and
/// the buffers of its threads ([`process_bytes`]): the program and its stacks (measured: a
/// generation of `KvK` alone peaks at 6 MiB of resident memory; the rest is a margin).
pub const PROCESS_BYTES: u64 = 16 << 20;

/// Bytes each thread of the pool keeps for the file writer and reader (a block's values and
/// the coder's state; measured: a generation of `KAABBvKAB` peaks at 18, 23 and 32 MiB with
/// 1, 2 and 4 threads).
pub const THREAD_BYTES: u64 = 6 << 20;

/// What a generating process holds besides the solver's structures and the loaded tables:
/// [`PROCESS_BYTES`] and [`THREAD_BYTES`] for each thread of the pool it solves with.
#[must_use]
pub fn process_bytes() -> u64 {
    PROCESS_BYTES.saturating_add(THREAD_BYTES.saturating_mul(rayon::current_num_threads() as u64))
}

/// Bytes per index of a smaller material loaded for the captures into it: 1-byte cells, and
/// the decompressed blocks while it is read (2-byte cells for tables with 2- or 4-byte codes).
const BYTES_PER_LOADED_INDEX: u64 = 2;

/// The number of indices of `material`, [`u64::MAX`] when it does not fit (memory estimates
/// of such a material refuse it).
fn indices(material: Material) -> u64 {
    MaterialIndex::size(material).map_or(u64::MAX, |n| n as u64)
}

/// Bytes a solve of a material of `positions` indices needs (the solver's own estimate:
/// its cells and level bitmaps).
fn solver_bytes(positions: u64) -> u64 {
    Retrograde::new().compact(true).memory_estimate(positions)
}

/// Bytes per `standard` draw of the predecessor lists of a solve under `perpetual-check`, on
/// top of the solver's state ([`Tablebases::estimate`]; measured: `KCvKPP`, 8.29 million draws,
/// peaked at 316 MiB, 35 bytes per draw in all with the state's 29).
const CHECK_LIST_BYTES_PER_DRAW: u64 = 20;

/// The same under `check-and-chase` (measured: `KCvKPP` peaked at 565 MiB, 66 bytes per draw
/// in all with the state's 46; `KNvKPP` at 533 MB for 10.2 million draws).
const CHASE_LIST_BYTES_PER_DRAW: u64 = 36;

/// What a solve under a ban holds besides (measured: the materials of up to 4 men peaked at 47
/// to 50 MiB, 20 more than the `standard` solve's estimate).
const RULE_FIXED_BYTES: u64 = 32 << 20;

/// Bytes per index of a smaller material loaded under a ban besides its `standard` values
/// ([`BYTES_PER_LOADED_INDEX`]): the rule solution's set of draws (a bit per index and 4 bytes
/// per 64), rounded up.
const RULE_LOADED_BYTES_PER_INDEX: u64 = 1;

/// Bytes per `standard` draw of a smaller material loaded under a ban: the rule solution's word
/// per draw, and while it is read the list of the draws besides.
const RULE_LOADED_BYTES_PER_DRAW: u64 = 8;

/// The solver under `rules` (`perpetual-check` or `check-and-chase`) for a material of `positions` indices with `drawn`
/// `standard` draws, checked against the memory available now (the estimate before the
/// `standard` solve could only guess the draws): its predecessor lists get at most half of
/// what is left, so that they never take the last of the memory (without them the passes
/// generate un-moves instead).
fn rule_solver(
    material: Material,
    rules: Rules,
    positions: u64,
    drawn: u64,
) -> Result<PerpetualCheck, GenerateError> {
    let needed = if rules.bans_chases() {
        PerpetualCheck::chase_memory_estimate(positions, drawn)
    } else {
        PerpetualCheck::memory_estimate(positions, drawn)
    };
    let Some(available) = meminfo("MemAvailable:") else { return Ok(PerpetualCheck::new()) };
    if needed > available {
        return Err(GenerateError::Memory { material, needed, available });
    }
    let lists = usize::try_from((available - needed) / 2).unwrap_or(usize::MAX);
    Ok(PerpetualCheck::new().edge_budget(lists.min(DEFAULT_EDGE_BUDGET)))
}

/// Where a material's values come from (one per material, shared in an `Arc`: its size does
/// not matter).
#[allow(clippy::large_enum_variant)]
enum Source {
    /// Table files, read block by block through the cache under `2 key` (the WDL file) and
    /// `2 key + 1` (the DTM file, opened on first use); `checked`: when the files' identity at
    /// their paths was last compared with the files open (milliseconds since the store opened,
    /// see [`Tablebases::source`]).
    File {
        key: u32,
        wdl: TableFile,
        dtm: std::sync::OnceLock<TableFile>,
        index: MaterialIndex,
        /// Whether the files hold the table in its colour twin's index order ([`TWIN_ORDER`]):
        /// `index` is then the twin's.
        twin_order: bool,
        checked: AtomicU64,
    },
    /// A table solved in memory.
    Memory(Table),
    /// A table solved in memory under `perpetual-check` or `check-and-chase`.
    RuleMemory { index: MaterialIndex, solution: RuleSolution },
}

impl Source {
    /// Whether the source's files are not those at their paths any more (written anew, or
    /// gone). `false` for a source in memory.
    fn replaced(&self) -> bool {
        match self {
            // A path that cannot be examined (permissions) is not taken for a replaced file.
            Source::File { wdl, dtm, .. } => {
                wdl.replaced().unwrap_or(false) || dtm.get().is_some_and(|d| d.replaced().unwrap_or(false))
            }
            Source::Memory(_) | Source::RuleMemory { .. } => false,
        }
    }

    /// Whether a position is looked up in [`Source::index`] seen from the other side (of the
    /// material asked for, not of its colour twin): the files are in the twin's order.
    fn twin_order(&self) -> bool {
        matches!(self, Source::File { twin_order: true, .. })
    }

    fn index(&self) -> &MaterialIndex {
        match self {
            Source::File { index, .. } | Source::RuleMemory { index, .. } => index,
            Source::Memory(table) => table.index(),
        }
    }
}

/// The tables a generation keeps in memory for the captures of the materials it solves.
pub enum Loaded {
    /// Under `standard` or `hdu`.
    Plain(MemoryTables),
    /// Under `perpetual-check` or `check-and-chase`: each material's rule values and `standard` values.
    Rule(Box<PerpetualTablebase>),
}

impl Loaded {
    /// None loaded yet, for tables of `rules`.
    #[must_use]
    pub fn new(rules: Rules) -> Loaded {
        match rules {
            rules if rules.has_bans() => Loaded::Rule(Box::new(PerpetualTablebase::with_rules(rules))),
            rules => Loaded::Plain(MemoryTables::new(rules)),
        }
    }

    /// Whether `material` is loaded.
    #[must_use]
    pub fn contains(&self, material: Material) -> bool {
        match self {
            Loaded::Plain(t) => t.table(material).is_some(),
            Loaded::Rule(t) => t.solution(material).is_some(),
        }
    }

    /// The loaded materials, smallest first.
    #[must_use]
    pub fn materials(&self) -> Vec<Material> {
        match self {
            Loaded::Plain(t) => t.materials().collect(),
            Loaded::Rule(t) => t.materials().collect(),
        }
    }

    /// Drops the tables of `material`.
    pub fn remove(&mut self, material: Material) {
        match self {
            Loaded::Plain(t) => drop(t.remove(material)),
            Loaded::Rule(t) => drop(t.remove(material)),
        }
    }

    /// Bytes the loaded table of `material` takes under `standard` rules (an estimate, as the
    /// memory estimates count it: 2 bytes per index; under a ban [`Tablebases::estimate`] adds
    /// the rule solution's set of draws and words).
    #[must_use]
    pub fn bytes(material: Material) -> u64 {
        indices(material).saturating_mul(BYTES_PER_LOADED_INDEX)
    }

    /// Bytes the table of `material` takes now that it is loaded: its cells and the long
    /// distances kept beside them (1 byte per index and a few more) under `standard` rules;
    /// under a ban those of the `standard` values (twice: as a table and in the rule solution)
    /// and the rule solution's set of draws and word per draw; 0 when it is not loaded.
    #[must_use]
    pub fn held(&self, material: Material) -> u64 {
        match self {
            Loaded::Plain(t) => t.table(material).map_or(0, |t| t.solution().heap_bytes()),
            Loaded::Rule(t) => t.held_bytes(material),
        }
    }

    /// Drops loaded tables other than `reads` (those the next solve reads), the largest first,
    /// until the loaded tables (the bytes they take) and that solve's estimate `needed` (which
    /// counts the tables it reads that are not loaded yet) fit in `budget` bytes, or none is
    /// left to drop. The others stay: reading a table again costs time.
    pub fn make_room(&mut self, reads: &[Material], needed: u64, budget: u64) {
        let loaded: Vec<(Material, u64)> = self.materials().into_iter().map(|m| (m, self.held(m))).collect();
        let mut held: u64 = loaded.iter().map(|&(_, bytes)| bytes).sum();
        let mut droppable: Vec<(Material, u64)> =
            loaded.into_iter().filter(|(m, _)| !reads.contains(m)).collect();
        droppable.sort_by_key(|&(_, bytes)| std::cmp::Reverse(bytes));
        for (m, bytes) in droppable {
            if held.saturating_add(needed) <= budget {
                break;
            }
            self.remove(m);
            held = held.saturating_sub(bytes);
        }
    }
}

/// The tables of one rule set in one directory (see the [module](self) docs).
pub struct Tablebases {
    rules: Rules,
    dir: PathBuf,
    cache: BlockCache,
    sources: RwLock<HashMap<Material, Arc<Source>, KeyHash>>,
    /// Materials answered from their colour twin's source (see [`Tablebases::answering`]).
    twin_answers: RwLock<HashMap<Material, bool, KeyHash>>,
    next_key: AtomicU32,
    /// One in-memory solve at a time (two probes of one missing material solve it once).
    solving: Mutex<()>,
    /// The pool the table files' descriptors are kept in (a bounded number open).
    files: Arc<OpenFiles>,
    /// When the store was opened: the clock of [`Source::File`]'s `checked`.
    opened: Instant,
    /// How the files this store writes are compressed.
    compression: Compression,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases")
            .field("rules", &self.rules)
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

/// Why no directory for the tables could be found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no directory given and none of $ENDGAME_TB_DIR, $XDG_DATA_HOME, $HOME is set")]
pub struct NoDirectory;

/// What [`Tablebases::generate`] reports while it works.
#[derive(Debug)]
pub enum GenerateEvent<'a> {
    /// The file exists and passed its check: kept.
    Kept {
        /// The material.
        material: Material,
    },
    /// The file exists but cannot be used: it will be generated anew.
    Replacing {
        /// The material.
        material: Material,
        /// What is wrong with it.
        error: &'a TableError,
    },
    /// Solving starts.
    Solving {
        /// The material.
        material: Material,
        /// Indices of the material (holes included).
        positions: usize,
        /// The memory estimate in bytes (checked against the memory available).
        memory: u64,
    },
    /// The solver's progress.
    Progress {
        /// The material.
        material: Material,
        /// Where the solver is.
        progress: Progress,
    },
    /// A step of a solve under `perpetual-check` starts (these steps report no progress of
    /// their own): `reading the standard table`, `solving under the rule` (the `standard` solve,
    /// which reports [`GenerateEvent::Progress`], then the rule's passes), `checking the
    /// certificate`, `writing`.
    Step {
        /// The material.
        material: Material,
        /// What starts.
        step: &'static str,
    },
    /// The table was solved and written.
    Written {
        /// The material.
        material: Material,
        /// Indices of the material.
        positions: usize,
        /// Seconds spent solving and writing.
        seconds: f64,
        /// The file.
        path: &'a Path,
    },
}

/// What a generation did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GenerateSummary {
    /// Files in the plan: one for each material needed, each pair of colour twins once.
    pub materials: usize,
    /// Tables solved and written (replaced ones included).
    pub generated: usize,
    /// Materials needed that the file of their colour twin answers for (no file of their own
    /// is written: [`Tablebases::file_material`]).
    pub twins: usize,
    /// Files that existed and were kept.
    pub kept: usize,
    /// Damaged or outdated files that were generated anew.
    pub replaced: usize,
    /// Indices of the largest material generated (0 when none was).
    pub largest: usize,
    /// The largest memory estimate of a solve of the run, in bytes: the run's memory stays
    /// within it ([`Tablebases::memory_estimate`]; the smaller tables kept loaded are dropped
    /// when they would take more).
    pub estimate: u64,
    /// The peak memory (resident set) of the process so far, in bytes, read after the run
    /// where the system tells it (Linux: `VmHWM`).
    pub peak_memory: Option<u64>,
}

/// Why a generation stopped.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// A material cannot have a table.
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// Not enough memory for a material.
    #[error("{material} needs about {} MiB of memory, only {} MiB are available", needed >> 20, available >> 20)]
    Memory {
        /// The material.
        material: Material,
        /// The estimate in bytes.
        needed: u64,
        /// `MemAvailable` in bytes.
        available: u64,
    },
    /// Reading or writing a file failed.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The directory could not be made.
    #[error("{}: {error}", path.display())]
    Directory {
        /// The directory.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// A solution under `perpetual-check` or `check-and-chase` failed its certificate check
    /// (a bug).
    #[error("{material}: the solution under the rule failed its check: {why}")]
    Certificate {
        /// The material.
        material: Material,
        /// The first position that fails.
        why: String,
    },
    /// The generation was cancelled ([`Tablebases::generate_cancellable`]); the tables
    /// finished before stay.
    #[error("cancelled")]
    Cancelled,
    /// The solver failed.
    #[error("{material}: {error}")]
    Solve {
        /// The material.
        material: Material,
        /// The solver's error.
        error: SolveError,
    },
}

/// Whether index `p` of `index` is a hole of a table under `rules` (no value: the files hold
/// one chosen for compression there): under `hdu` every index that decodes has a value (a
/// position with the side not to move in check is one, see [`Rules::Hdu`]), under the other
/// rule sets only the legal ones.
fn is_hole(index: &MaterialIndex, rules: Rules, p: usize) -> bool {
    match rules {
        Rules::Hdu => index.squares(p, &mut [crate::Square::A0; crate::tables::index::MAX_MEN]).is_none(),
        Rules::Standard | Rules::PerpetualCheck | Rules::CheckAndChase => !index.is_legal(p),
    }
}

/// Whether a whole-table read looks for the holes of the index (to give `None` there) or
/// reads them as the file holds them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Holes {
    Found,
    Skipped,
}

/// What a table file of `material` under `rules` holds (checked when reading it).
#[must_use]
pub fn table_id(material: Material, rules: Rules, positions: usize) -> TableId {
    TableId {
        game: "xiangqi".into(),
        variant: material.to_string(),
        rules: rules.name().into(),
        positions: positions as u64,
    }
}

/// The number of indices of `material`, or why it can have no table: its index does not fit
/// in 64 bits, or generating it needs more memory than this machine has. Answers at once,
/// whatever the material.
///
/// # Errors
/// [`ProbeError::BeyondTables`].
pub fn check_size(material: Material) -> Result<usize, ProbeError> {
    let n = index_size(material)?;
    let needed = solver_bytes(n as u64);
    if let Some(total) = meminfo("MemTotal:")
        && needed > total
    {
        return Err(ProbeError::BeyondTables {
            material,
            men: material.men(),
            why: format!(
                "its index has {n} positions; generating it needs about {} GiB of memory, this machine has {} GiB",
                needed >> 30,
                total >> 30
            ),
        });
    }
    Ok(n)
}

/// The number of indices of `material`, or why no table of it can exist at all: its index
/// does not fit in 64 bits. (A table that exists may be probed on any machine; [`check_size`]
/// adds the memory a generation needs.)
///
/// # Errors
/// [`ProbeError::BeyondTables`].
pub fn index_size(material: Material) -> Result<usize, ProbeError> {
    MaterialIndex::size(material).ok_or_else(|| ProbeError::BeyondTables {
        material,
        men: material.men(),
        why: "its index does not fit in 64 bits; tables hold materials of up to 6 or 7 men".into(),
    })
}

/// The extension of a material's WDL file.
pub const WDL_EXTENSION: &str = "wdl";
/// The extension of a material's DTM file.
pub const DTM_EXTENSION: &str = "dtm";

/// What the variant of a table's files says after the material when they hold the table in
/// the order of its colour twin's index ([`twin_order_id`]): the value of the position whose
/// colour twin has the twin's index `j` is at position `j` of the files. [`Compression::Best`]
/// writes a table so when that makes its files smaller; the readers of this crate follow it,
/// and readers that do not know the order refuse the files as another table (they would read
/// every value from the wrong place).
pub const TWIN_ORDER: &str = " in the order of ";

/// What table files of `material` in its colour twin's order hold: [`table_id`] with the
/// variant `<material> in the order of <twin>`.
#[must_use]
pub fn twin_order_id(material: Material, rules: Rules, positions: usize) -> TableId {
    TableId {
        variant: format!("{material}{TWIN_ORDER}{}", material.colour_twin()),
        ..table_id(material, rules, positions)
    }
}

/// Whether the table of the WDL file `wdl` (opened as one of its material's) is in its colour
/// twin's order ([`TWIN_ORDER`]).
fn in_twin_order(wdl: &TableFile) -> bool {
    wdl.id().variant.contains(TWIN_ORDER)
}

/// `open` of `material`'s table id, or of its id in its colour twin's order when the file says
/// it holds that ([`twin_order_id`]).
fn open_either<T>(
    material: Material,
    rules: Rules,
    positions: usize,
    open: impl Fn(&TableId) -> Result<T, TableError>,
) -> Result<T, TableError> {
    match open(&table_id(material, rules, positions)) {
        Err(TableError::Mismatch { found, .. }) if *found == twin_order_id(material, rules, positions) => {
            open(&found)
        }
        result => result,
    }
}

/// The statistics in a WDL file's header.
fn stats_of_file(wdl: &TableFile) -> Result<Stats, TableError> {
    Stats::from_counters(|name| wdl.counter(name)).ok_or_else(|| TableError::Damaged {
        path: wdl.path().to_path_buf(),
        why: "the header has no statistics".into(),
    })
}

/// Removes the temporary files (`<material>.<wdl|dtm|egtb>.<host>.<pid>.<time>.<n>.tmp`) that processes
/// of this machine which no longer run left behind (a killed generation). Files of other
/// machines (a directory shared by a cluster) are left alone, and so is anything of another
/// shape. Where processes cannot be looked up (not Linux), nothing is removed.
fn remove_stale_temporaries(dir: &Path) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let host = endgame_core::table_file::host_tag();
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(rest) = name.strip_suffix(".tmp") else { continue };
        let Some((material, after)) = [".wdl.", ".dtm.", ".egtb."].iter().find_map(|e| rest.split_once(e))
        else {
            continue;
        };
        let parts: Vec<&str> = after.split('.').collect();
        // The writer's name, or the name of a table being written under a candidate's
        // temporary name (`--compression best` writes two and keeps one, see
        // [`Tablebases::write_files`]): `<material>.wdl.<host>.<pid>.<time>.<n>.tmp.<host>...`.
        let (tag, pid, nanos, n) = match parts[..] {
            [tag, pid, nanos, n] => (tag, pid, nanos, n),
            [tag, pid, nanos, n, "tmp", tag2, pid2, _, _] if tag2 == tag && pid2 == pid => {
                (tag, pid, nanos, n)
            }
            _ => continue,
        };
        let numbers = [pid, nanos, n].iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
        if tag != host || !numbers || material.parse::<Material>().is_err() {
            continue;
        }
        if !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// A field of /proc/meminfo, in bytes (`None` where there is no such file).
pub(crate) fn meminfo(field: &str) -> Option<u64> {
    proc_kib("/proc/meminfo", field)
}

/// A field in KiB of a file of /proc, in bytes.
fn proc_kib(path: &str, field: &str) -> Option<u64> {
    let info = std::fs::read_to_string(path).ok()?;
    let line = info.lines().find(|l| l.starts_with(field))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

impl Tablebases {
    /// The tables of `rules` under `base` (files in `base/xiangqi/<rules>/`), with a block
    /// cache of [`DEFAULT_CACHE_BYTES`]. Nothing is read until a probe.
    #[must_use]
    pub fn open(base: impl Into<PathBuf>, rules: Rules) -> Tablebases {
        Tablebases {
            rules,
            dir: base.into().join("xiangqi").join(rules.name()),
            cache: BlockCache::new(DEFAULT_CACHE_BYTES),
            sources: RwLock::new(HashMap::default()),
            twin_answers: RwLock::new(HashMap::default()),
            next_key: AtomicU32::new(0),
            solving: Mutex::new(()),
            files: OpenFiles::shared(),
            opened: Instant::now(),
            compression: Compression::Normal,
        }
    }

    /// The same tables with their files' descriptors kept in `files`, which keeps at most its
    /// capacity open, closing the least recently used (opened again on their next read). By
    /// default the process's pool, [`OpenFiles::shared`] (256 files).
    #[must_use]
    pub fn with_open_files(mut self, files: Arc<OpenFiles>) -> Tablebases {
        self.files = files;
        self
    }

    /// The same tables, writing the files of its generations with `compression` (by default
    /// [`Compression::Normal`]; [`Compression::Best`] for tables to share). Reading does not
    /// depend on it.
    #[must_use]
    pub const fn with_compression(mut self, compression: Compression) -> Tablebases {
        self.compression = compression;
        self
    }

    /// The compression of the files this store writes.
    #[must_use]
    pub const fn compression(&self) -> Compression {
        self.compression
    }

    /// The same tables with a block cache of `bytes`.
    #[must_use]
    pub fn with_cache_bytes(mut self, bytes: usize) -> Tablebases {
        self.cache = BlockCache::new(bytes);
        self
    }

    /// The base directory when none is given: `$ENDGAME_TB_DIR`, else `$XDG_DATA_HOME/endgame`,
    /// else `~/.local/share/endgame`.
    ///
    /// # Errors
    /// When none of these variables is set.
    pub fn default_dir() -> Result<PathBuf, NoDirectory> {
        let env = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        env("ENDGAME_TB_DIR")
            .or_else(|| env("XDG_DATA_HOME").map(|d| d.join("endgame")))
            .or_else(|| env("HOME").map(|h| h.join(".local/share/endgame")))
            .ok_or(NoDirectory)
    }

    /// The directory of this rule set's files.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The WDL file of `material` (see the [module](self) docs): the file whose presence says
    /// that the material is generated (it is written last, after its DTM file).
    #[must_use]
    pub fn path(&self, material: Material) -> PathBuf {
        self.dir.join(format!("{material}.{WDL_EXTENSION}"))
    }

    /// The DTM file of `material`.
    #[must_use]
    pub fn dtm_path(&self, material: Material) -> PathBuf {
        self.dir.join(format!("{material}.{DTM_EXTENSION}"))
    }

    /// The file of `material` in the previous format (version 2), which [`convert`](crate::files::convert) rewrites.
    #[must_use]
    pub fn v2_path(&self, material: Material) -> PathBuf {
        self.dir.join(format!("{material}.egtb"))
    }

    /// Opens both files of `material`'s table (the headers only).
    fn open_files(&self, material: Material, rules: Rules, dir: &Path) -> Result<TableFiles, TableError> {
        let (wdl, dtm) = (
            dir.join(format!("{material}.{WDL_EXTENSION}")),
            dir.join(format!("{material}.{DTM_EXTENSION}")),
        );
        Tablebases::open_files_at(material, rules, TablePaths { wdl: &wdl, dtm: &dtm })
    }

    /// Opens `paths`, the files of `material`'s table under `rules`, in either order.
    pub(crate) fn open_files_at(
        material: Material,
        rules: Rules,
        paths: TablePaths<'_>,
    ) -> Result<TableFiles, TableError> {
        let positions = MaterialIndex::new(material).len();
        open_either(material, rules, positions, |id| TableFiles::open(paths, id))
    }

    /// `material`'s table read whole from its files, holes as `None` (restored from the index:
    /// the files' holes hold values chosen for compression), as a solve leaves them.
    ///
    /// # Errors
    /// When a file is missing, damaged, or another table.
    pub fn read_solution(&self, material: Material) -> Result<Solution, TableError> {
        let files = self.open_files(material, self.rules, &self.dir)?;
        self.with_file_positions(material, &files, Holes::Found, |n, at| files.read_solution_at(n, at))
    }

    /// [`Tablebases::read_solution`] (or [`Tablebases::read_rule_solution`], by `loaded`'s
    /// kind) for the captures of a generation, into `loaded`. Under `standard` and `hdu` the
    /// holes of the index are not looked for and read as the files hold them (a capture leads
    /// only to legal positions, and finding the holes, a decoding and a check test per index,
    /// was most of the time of reading a table); a file in its own order is read a block at a
    /// time straight into the cells ([`TableFiles::read_solution_as_stored`]).
    fn read_for_captures(&self, material: Material, loaded: &mut Loaded) -> Result<(), GenerateError> {
        let files = self.open_files(material, self.rules, &self.dir)?;
        let failed = |error| GenerateError::Solve { material, error };
        match loaded {
            Loaded::Plain(t) => {
                let solution = if in_twin_order(&files.wdl) {
                    self.with_file_positions(material, &files, Holes::Skipped, |n, at| {
                        files.read_solution_at(n, at)
                    })?
                } else {
                    files.read_solution_as_stored()?
                };
                t.insert(material, solution).map_err(failed)
            }
            Loaded::Rule(t) => {
                // With the holes found: a rule solution keeps a word for each draw it holds, and
                // holes read as draws would take memory that the estimate does not count.
                let solution = self.read_rule_solution_in(material, &files)?;
                t.insert(material, solution).map_err(failed)
            }
        }
    }

    /// [`Tablebases::read_solution`] under `perpetual-check` (rule values and ranks).
    ///
    /// # Errors
    /// When a file is missing, damaged, or another table.
    pub fn read_rule_solution(&self, material: Material) -> Result<RuleSolution, TableError> {
        self.read_rule_solution_in(material, &self.open_files(material, self.rules, &self.dir)?)
    }

    /// [`Tablebases::read_rule_solution`] from `files`, `material`'s (wherever they are).
    pub(crate) fn read_rule_solution_in(
        &self,
        material: Material,
        files: &TableFiles,
    ) -> Result<RuleSolution, TableError> {
        self.with_file_positions(material, files, Holes::Found, |n, at| files.read_rule_solution_at(n, at))
    }

    /// Calls `read` with where `files`, `material`'s table, hold the value of each index of
    /// `material` (`None` for a hole): at that index, or at the colour twin's index of its
    /// position when they are in the twin's order ([`TWIN_ORDER`]).
    fn with_file_positions<T>(
        &self,
        material: Material,
        files: &TableFiles,
        holes: Holes,
        read: impl FnOnce(usize, &(dyn Fn(usize) -> Option<usize> + Sync)) -> T,
    ) -> T {
        let (index, rules) = (MaterialIndex::new(material), self.rules);
        let hole = |p| holes == Holes::Found && is_hole(&index, rules, p);
        if !in_twin_order(&files.wdl) {
            return read(index.len(), &|p| (!hole(p)).then_some(p));
        }
        let twin = MaterialIndex::new(material.colour_twin());
        let flip = ColourFlip::new(&index, &twin);
        read(index.len(), &|p| if hole(p) { None } else { flip.index(p) })
    }

    /// Writes `solution`, `material`'s table solved in memory under this store's rules, as its
    /// two files with its statistics in the header, as a generation writes them (the
    /// directory must exist). For a table solved elsewhere, such as by a [`MemoryTables`].
    ///
    /// # Errors
    /// When a file cannot be written, or the solution is not of `material`'s size.
    pub fn write_solution(&self, material: Material, solution: &Solution) -> Result<(), TableError> {
        self.write_table(material, solution.len(), &|p| solution.value(p).map(RuleValue::from))
    }

    /// [`Tablebases::write_solution`] of a table solved under the rule (a
    /// [`PerpetualTablebase`]'s).
    ///
    /// # Errors
    /// When a file cannot be written, or the solution is not of `material`'s size.
    pub fn write_rule_solution(&self, material: Material, solution: &RuleSolution) -> Result<(), TableError> {
        self.write_table(material, solution.len(), &|p| solution.value(p))
    }

    /// Writes `material`'s table of `len` positions, whose values `value` gives, as its files
    /// ([`Tablebases::write_files`]) with its statistics, then forgets what was opened of it.
    fn write_table(
        &self,
        material: Material,
        len: usize,
        value: &(dyn Fn(usize) -> Option<RuleValue> + Sync),
    ) -> Result<(), TableError> {
        let index = MaterialIndex::new(material);
        let (path, dtm_path) = (self.path(material), self.dtm_path(material));
        if len != index.len() {
            let why = format!("{len} positions in the solution, {} in the index of {material}", index.len());
            return Err(TableError::Damaged { path, why });
        }
        let stats = Stats::of_values(&index, self.rules, value);
        self.write_files(material, TablePaths { wdl: &path, dtm: &dtm_path }, &stats.counters(), value)?;
        self.forget(material);
        Ok(())
    }

    /// Writes `material`'s table, `value` its value at each index (`None` for holes), as the
    /// files `paths` with `counters` in their headers, atomically. Under [`Compression::Best`]
    /// a material that is not its own colour twin is written in both orders, its own index's
    /// and its twin's (the id [`twin_order_id`]), and the smaller pair is kept: the order
    /// of the positions changes what the coder finds (`KNCvKN` under `standard`: 11.9 MB in
    /// its own order, 10.6 MB in its twin's), and which order wins depends on the material.
    pub(crate) fn write_files(
        &self,
        material: Material,
        paths: TablePaths<'_>,
        counters: &[(String, u64)],
        value: &(dyn Fn(usize) -> Option<RuleValue> + Sync),
    ) -> Result<(), TableError> {
        let (index, twin) = (MaterialIndex::new(material), MaterialIndex::new(material.colour_twin()));
        let id = table_id(material, self.rules, index.len());
        let own = |paths| {
            write_tables(paths, &id, counters, self.compression, |range, out| out.extend(range.map(value)))
        };
        if self.compression != Compression::Best
            || material.colour_twin() == material
            || twin.len() != index.len()
        {
            return own(paths);
        }
        let names = [paths.wdl, paths.dtm, paths.wdl, paths.dtm].map(temporary_name);
        let own_paths = TablePaths { wdl: &names[0], dtm: &names[1] };
        let twin_paths = TablePaths { wdl: &names[2], dtm: &names[3] };
        let kept = (|| {
            own(own_paths)?;
            let twin_id = twin_order_id(material, self.rules, index.len());
            // Position `j` of the files: the twin's index `j`, seen from the other side.
            let flip = ColourFlip::new(&twin, &index);
            write_tables(twin_paths, &twin_id, counters, self.compression, |range, out| {
                flip.for_each_index(range, |i| out.push(i.and_then(value)));
            })?;
            let bytes = |p: TablePaths<'_>| -> Result<u64, TableError> {
                let len = |f: &Path| std::fs::metadata(f).map(|m| m.len()).map_err(|e| TableError::io(f, e));
                Ok(len(p.wdl)? + len(p.dtm)?)
            };
            let keep = if bytes(twin_paths)? < bytes(own_paths)? { twin_paths } else { own_paths };
            move_tables(keep, paths)
        })();
        for name in &names {
            let _ = std::fs::remove_file(name);
        }
        kept
    }

    /// The statistics of `material` from its WDL file's header, when it has a file (none of
    /// its blocks is read).
    ///
    /// # Errors
    /// When the file cannot be opened, or its header has no statistics.
    pub fn file_stats(&self, material: Material) -> Result<Option<Stats>, ProbeError> {
        let path = self.path(material);
        if !path.exists() {
            return Ok(None);
        }
        let wdl = open_either(material, self.rules, index_size(material)?, |id| {
            TableFile::open(&path, id, endgame_core::table_file::FileKind::Wdl)
        })
        .map_err(|e| self.table_error(material, e))?;
        Ok(Some(stats_of_file(&wdl).map_err(|e| self.table_error(material, e))?))
    }

    /// The block cache (its budget and what it holds now).
    #[must_use]
    pub const fn cache(&self) -> &BlockCache {
        &self.cache
    }

    /// The source of `material`'s values: opened (or solved) on first use. A source of files
    /// is checked at most once every [`REPLACED_CHECK_MS`] milliseconds against the files at
    /// its paths (one `stat` each): when they were written anew (a generation in another
    /// process, a table copied in) or removed, it is forgotten and opened again, so that no
    /// probe reads a deleted file for long.
    fn source(&self, material: Material) -> Result<Arc<Source>, ProbeError> {
        let known = self.sources.read().unwrap_or_else(PoisonError::into_inner).get(&material).cloned();
        if let Some(source) = known {
            let Source::File { checked, .. } = &*source else { return Ok(source) };
            let now = self.opened.elapsed().as_millis() as u64;
            let last = checked.load(Ordering::Relaxed);
            if now.saturating_sub(last) < REPLACED_CHECK_MS
                || checked.compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed).is_err()
                || !source.replaced()
            {
                return Ok(source);
            }
            self.forget(material);
        }
        let positions = index_size(material)?;
        let path = self.path(material);
        let exists = path.try_exists().map_err(|e| self.table_error(material, TableError::io(&path, e)))?;
        let source = if exists {
            let wdl = open_either(material, self.rules, positions, |id| {
                TableFile::open_in(&self.files, &path, id, endgame_core::table_file::FileKind::Wdl)
            })
            .map_err(|source| self.table_error(material, source))?;
            let key = self.next_key.fetch_add(1, Ordering::Relaxed);
            let checked = AtomicU64::new(self.opened.elapsed().as_millis() as u64);
            let twin_order = in_twin_order(&wdl);
            let index = MaterialIndex::new(if twin_order { material.colour_twin() } else { material });
            Source::File { key, wdl, dtm: std::sync::OnceLock::new(), index, twin_order, checked }
        } else if self.v2_path(material).exists() {
            // A file of the previous format: refused with the command that converts it.
            let v2 = self.v2_path(material);
            return Err(self.table_error(material, TableError::Version { path: v2, found: 2 }));
        } else if material.men() <= SOLVE_ON_THE_FLY_MEN && self.rules.has_bans() {
            return self.solve_in_memory_by_rule(material);
        } else if material.men() <= SOLVE_ON_THE_FLY_MEN {
            return self.solve_in_memory(material);
        } else {
            // Refused at once when no machine like this one could generate it.
            check_size(material)?;
            return Err(ProbeError::NotGenerated { material, rules: self.rules, path });
        };
        let mut sources = self.sources.write().unwrap_or_else(PoisonError::into_inner);
        Ok(Arc::clone(sources.entry(material).or_insert_with(|| Arc::new(source))))
    }

    /// The material whose source answers for `material`, that source, and whether it is the
    /// colour twin's (then a position is looked up there seen from the other side,
    /// [`Position::colour_twin`]): its own file, else its colour twin's file (under rules that
    /// treat both sides alike), else [`Tablebases::source`] (solved in memory when small). A
    /// material without a table is reported with the file that a generation writes for it.
    fn answering(&self, material: Material) -> Result<(Material, Arc<Source>, bool), ProbeError> {
        let twin = material.colour_twin();
        let known = self.twin_answers.read().unwrap_or_else(PoisonError::into_inner).get(&material).copied();
        let flipped = match known {
            Some(flipped) => flipped,
            None if twin == material || !self.rules.colour_symmetric() => false,
            None if self.sources.read().unwrap_or_else(PoisonError::into_inner).contains_key(&material) => {
                false
            }
            None => {
                let exists = |m: Material| self.path(m).try_exists().unwrap_or(false);
                let (own, twins) = (exists(material), exists(twin));
                // Kept once a file decides it (a file may appear later: not cached without).
                if own || twins {
                    self.twin_answers.write().unwrap_or_else(PoisonError::into_inner).insert(material, !own);
                }
                !own && twins
            }
        };
        let answering = if flipped { twin } else { material };
        match self.source(answering) {
            Ok(source) => Ok((answering, source, flipped)),
            Err(ProbeError::NotGenerated { material, rules, .. }) => Err(ProbeError::NotGenerated {
                material,
                rules,
                path: self.path(self.file_material(material)),
            }),
            Err(e) => Err(e),
        }
    }

    /// Whether a table file answers for `material` in this directory: its own, or its colour
    /// twin's (the twin is answered from it).
    #[must_use]
    pub fn has_file(&self, material: Material) -> bool {
        self.path(material).exists()
            || (self.rules.colour_symmetric() && self.path(material.colour_twin()).exists())
    }

    /// The material whose file holds the values of `material` in this directory: its own when
    /// that file exists, else its colour twin's when that one exists, else the one a generation
    /// writes, [`Material::canonical`] (the twin is answered from its file: a generation never
    /// writes both).
    #[must_use]
    pub fn file_material(&self, material: Material) -> Material {
        let twin = material.colour_twin();
        if !self.rules.colour_symmetric() || self.path(material).exists() {
            material
        } else if self.path(twin).exists() {
            twin
        } else {
            material.canonical()
        }
    }

    fn table_error(&self, material: Material, source: TableError) -> ProbeError {
        ProbeError::Table { material, rules: self.rules, error: source }
    }

    /// Solves a small material and those captures lead to (reading the files there are), and
    /// keeps them all.
    fn solve_in_memory(&self, material: Material) -> Result<Arc<Source>, ProbeError> {
        let _one_at_a_time = self.solving.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(source) = self.sources.read().unwrap_or_else(PoisonError::into_inner).get(&material) {
            return Ok(Arc::clone(source));
        }
        let mut tables = MemoryTables::new(self.rules);
        for m in material.with_smaller() {
            // Its file, or its colour twin's (which answers for it), else solved.
            if tables.answering(m).is_some() {
                continue;
            }
            let file = self.file_material(m);
            let path = self.path(file);
            if path.exists() {
                let solution = self.read_solution(file).map_err(|source| self.table_error(file, source))?;
                tables
                    .insert(file, solution)
                    .map_err(|source| ProbeError::Solve { material: file, error: source })?;
            } else {
                tables.solve(m).map_err(|source| ProbeError::Solve { material: m, error: source })?;
            }
        }
        let mut sources = self.sources.write().unwrap_or_else(PoisonError::into_inner);
        for (m, table) in tables.into_tables() {
            sources.entry(m).or_insert_with(|| Arc::new(Source::Memory(table)));
        }
        Ok(Arc::clone(&sources[&material]))
    }

    /// [`Tablebases::solve_in_memory`] under `perpetual-check` or `check-and-chase`.
    fn solve_in_memory_by_rule(&self, material: Material) -> Result<Arc<Source>, ProbeError> {
        let _one_at_a_time = self.solving.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(source) = self.sources.read().unwrap_or_else(PoisonError::into_inner).get(&material) {
            return Ok(Arc::clone(source));
        }
        let mut tables = PerpetualTablebase::with_rules(self.rules);
        let solver = Retrograde::new().compact(true);
        for m in material.with_smaller() {
            // Its file, or its colour twin's (which answers for it), else solved.
            if tables.answering(m).is_some() {
                continue;
            }
            let file = self.file_material(m);
            let path = self.path(file);
            let failed = |source| ProbeError::Solve { material: m, error: source };
            if path.exists() {
                let solution =
                    self.read_rule_solution(file).map_err(|source| self.table_error(file, source))?;
                tables.insert(file, solution).map_err(failed)?;
            } else {
                tables.solve_one(m, None, &solver).map_err(failed)?;
            }
        }
        let mut sources = self.sources.write().unwrap_or_else(PoisonError::into_inner);
        for (m, solution) in tables.into_solutions() {
            sources
                .entry(m)
                .or_insert_with(|| Arc::new(Source::RuleMemory { index: MaterialIndex::new(m), solution }));
        }
        Ok(Arc::clone(&sources[&material]))
    }

    /// The value of index `i` of `material`'s table.
    fn value_at(
        &self,
        material: Material,
        source: &Source,
        i: usize,
    ) -> Result<Option<RuleValue>, ProbeError> {
        match source {
            Source::Memory(table) => Ok(table.solution().value(i).map(RuleValue::from)),
            Source::RuleMemory { solution, .. } => Ok(solution.value(i)),
            Source::File { key, wdl, dtm, .. } => {
                let category = self.category_at(material, *key, wdl, i)?;
                let dtm = match dtm.get() {
                    Some(dtm) => dtm,
                    None => {
                        let opened = TableFile::open_dtm_in(&self.files, &self.dtm_path(material), wdl)
                            .map_err(|source| self.table_error(material, source))?;
                        dtm.get_or_init(|| opened)
                    }
                };
                let symbol = if dtm.needs_symbol(category) {
                    let (b, at) = dtm.locate(i);
                    let block = BlockKey { table: 2 * key + 1, block: b as u32 };
                    let block = self
                        .cache
                        .get_or_load(block, || {
                            let wdl_block = self.wdl_block(*key, wdl, dtm.wdl_block_of(b, wdl))?;
                            dtm.read_dtm_block(b, &wdl_block)
                        })
                        .map_err(|source| self.table_error(material, source))?;
                    block.symbol(at).unwrap_or(u32::MAX)
                } else {
                    0
                };
                dtm.value(category, symbol).map(Some).map_err(|source| self.table_error(material, source))
            }
        }
    }

    /// Block `b` of the WDL file `wdl` (of the table numbered `key`), through the cache.
    fn wdl_block(&self, key: u32, wdl: &TableFile, b: usize) -> Result<Arc<Block>, TableError> {
        self.cache.get_or_load(BlockKey { table: 2 * key, block: b as u32 }, || wdl.read_block(b))
    }

    /// The category of index `i` from `material`'s WDL file `wdl`, through the cache.
    fn category_at(
        &self,
        material: Material,
        key: u32,
        wdl: &TableFile,
        i: usize,
    ) -> Result<Category, ProbeError> {
        let (b, at) = wdl.locate(i);
        let block = self.wdl_block(key, wdl, b).map_err(|source| self.table_error(material, source))?;
        block.category(at).ok_or_else(|| {
            self.table_error(
                material,
                TableError::Damaged {
                    path: wdl.path().to_path_buf(),
                    why: format!("block {b}: a symbol that is no category"),
                },
            )
        })
    }

    /// Counts over the legal positions of `material` (see [`Stats`]), from its WDL file's
    /// header (no block is read) or solved in memory when it is small and has no file.
    ///
    /// # Errors
    /// When the material has no table or its file is damaged.
    pub fn stats(&self, material: Material) -> Result<Stats, ProbeError> {
        self.renewing(material, || {
            let (answering, source, flipped) = self.answering(material)?;
            let stats = self.source_stats(answering, &source)?;
            Ok(if flipped { stats.colour_twin() } else { stats })
        })
    }

    /// [`Tablebases::stats`] of `material` from its own source.
    fn source_stats(&self, material: Material, source: &Source) -> Result<Stats, ProbeError> {
        match source {
            Source::Memory(table) => Ok(table.stats()),
            Source::RuleMemory { index, solution } => Ok((0..index.len().div_ceil(1 << 14))
                .into_par_iter()
                .map(|c| {
                    let range = c << 14..index.len().min((c + 1) << 14);
                    Stats::count(index, range, |p| solution.value(p))
                })
                .reduce(Stats::default, Stats::merge)),
            Source::File { wdl, .. } => {
                stats_of_file(wdl).map_err(|source| self.table_error(material, source))
            }
        }
    }

    /// Every material whose values a generation of `materials` needs, as written: each of
    /// them and every material a capture leads to, fewer men first (a material's colour twin
    /// is listed when a capture leads to it, although its twin's file answers for it).
    ///
    /// # Errors
    /// When a material can have no table ([`check_size`]).
    pub fn needed(materials: &[Material]) -> Result<Vec<Material>, ProbeError> {
        // The largest first: a material beyond the tables is refused before its (possibly
        // millions of) smaller materials are listed.
        for &m in materials {
            check_size(m)?;
        }
        let mut all = BTreeSet::new();
        for &m in materials {
            all.extend(m.with_smaller());
        }
        let mut needed: Vec<Material> = all.into_iter().collect();
        needed.sort_by_key(|m| (m.men(), m.to_string()));
        Ok(needed)
    }

    /// The materials whose files a generation of `materials` writes (in a directory without
    /// files), in the order it solves them: [`Tablebases::needed`] with each pair of colour
    /// twins once, as players write it ([`Material::canonical`]; the other is answered from
    /// its file), fewer men first.
    ///
    /// # Errors
    /// When a material can have no table ([`check_size`]).
    pub fn plan(materials: &[Material]) -> Result<Vec<Material>, ProbeError> {
        let files: BTreeSet<Material> =
            Tablebases::needed(materials)?.iter().map(Material::canonical).collect();
        let mut plan: Vec<Material> = files.into_iter().collect();
        plan.sort_by_key(|m| (m.men(), m.to_string()));
        Ok(plan)
    }

    /// The tables a solve of `material` reads: those that answer for the materials its
    /// captures lead to (`file` names the material whose file answers for each), once each.
    fn reads(material: Material, file: impl Fn(Material) -> Material) -> Vec<Material> {
        let mut reads: Vec<Material> = material.after_captures().into_iter().map(file).collect();
        reads.sort();
        reads.dedup();
        reads
    }

    /// Bytes a solve of `material` needs: its cells and the solver's lists, plus the tables
    /// captures lead into that `loaded` says are not in memory yet (each pair of colour twins
    /// once: one table answers for both), plus what the process holds besides
    /// ([`process_bytes`]).
    #[must_use]
    pub fn memory_estimate(material: Material, loaded: impl Fn(Material) -> bool) -> u64 {
        let own = solver_bytes(indices(material)).saturating_add(process_bytes());
        Tablebases::reads_to_load(material, loaded)
            .fold(own, |sum, m| sum.saturating_add(indices(m).saturating_mul(BYTES_PER_LOADED_INDEX)))
    }

    /// The tables a solve of `material` reads that `loaded` says are not in memory yet (each
    /// pair of colour twins once, as players write it: one table answers for both).
    fn reads_to_load(
        material: Material,
        loaded: impl Fn(Material) -> bool,
    ) -> impl Iterator<Item = Material> {
        Tablebases::reads(material, |m| m.canonical())
            .into_iter()
            .filter(move |&m| !loaded(m) && !loaded(m.colour_twin()))
    }

    /// Bytes a solve of `material` under a ban needs on top of
    /// [`Tablebases::memory_estimate`], when `drawn` of its positions are drawn under
    /// `standard` rules (the ban's passes work on the draws): the solver's state per draw
    /// ([`PerpetualCheck::memory_estimate`], [`PerpetualCheck::chase_memory_estimate`] when
    /// `chases`), its predecessor lists and a fixed part.
    #[must_use]
    pub fn rule_memory_estimate(material: Material, drawn: u64, chases: bool) -> u64 {
        let Some(positions) = MaterialIndex::size(material) else { return u64::MAX };
        let positions = positions as u64;
        let (state, lists) = if chases {
            (PerpetualCheck::chase_memory_estimate(positions, drawn), CHASE_LIST_BYTES_PER_DRAW)
        } else {
            (PerpetualCheck::memory_estimate(positions, drawn), CHECK_LIST_BYTES_PER_DRAW)
        };
        state.saturating_add(drawn.saturating_mul(lists)).saturating_add(RULE_FIXED_BYTES)
    }

    /// The memory estimate of a solve of `material` under this store's rules, with the
    /// materials `loaded` says are in memory already ([`Tablebases::memory_estimate`]). Under
    /// a ban it adds [`Tablebases::rule_memory_estimate`] of the number of `standard` draws,
    /// and for each table to read, its rule solution's set of draws and words per draw: the
    /// number of draws from the header of the `standard` file of the material (or of its
    /// colour twin) in the sibling `standard` directory when it is there, else every index
    /// taken for a draw (the most a solve can need; generate the `standard` tables first for
    /// the figure the draws give).
    #[must_use]
    pub fn estimate(&self, material: Material, loaded: impl Fn(Material) -> bool) -> u64 {
        let own = Tablebases::memory_estimate(material, &loaded);
        if !self.rules.has_bans() {
            return own;
        }
        // Without the `standard` file the draws are not known before its solve: at most every
        // index (the solve checks again with their number, see `rule_solver`).
        let drawn = |m| self.standard_draws(m).unwrap_or_else(|| indices(m));
        let reads = Tablebases::reads_to_load(material, &loaded).fold(0u64, |sum, m| {
            let rule = indices(m)
                .saturating_mul(RULE_LOADED_BYTES_PER_INDEX)
                .saturating_add(drawn(m).saturating_mul(RULE_LOADED_BYTES_PER_DRAW));
            sum.saturating_add(rule)
        });
        own.saturating_add(reads).saturating_add(Tablebases::rule_memory_estimate(
            material,
            drawn(material),
            self.rules.bans_chases(),
        ))
    }

    /// The number of draws (legal positions) of `material` under `standard`, from the header of
    /// its file (or its colour twin's) in the sibling `standard` directory, when there is one.
    fn standard_draws(&self, material: Material) -> Option<u64> {
        let standard = Tablebases::open(self.dir.parent()?.parent()?, Rules::Standard);
        let file = standard.file_material(material);
        Some(standard.file_stats(file).ok()??.draws)
    }

    /// The `standard` table of `material` from the sibling `standard` directory, when that
    /// file (or its colour twin's, which answers for it) exists and reads back whole (else
    /// `None`: it is solved).
    fn standard_solution(&self, material: Material, positions: usize) -> Option<Solution> {
        let standard = Tablebases::open(self.dir.parent()?.parent()?, Rules::Standard);
        let file = standard.file_material(material);
        let solution = standard.read_solution(file).ok()?;
        if file == material {
            return Some(solution);
        }
        let (index, twin) = (MaterialIndex::new(material), MaterialIndex::new(file));
        let flip = ColourFlip::new(&index, &twin);
        Solution::from_fn_bytes(positions, |i| flip.index(i).and_then(|j| solution.value(j))).ok()
    }

    /// The books of a generation of `materials`: the files that answer for every material it
    /// needs ([`Tablebases::needed`]): for each, its own file or its colour twin's when one
    /// exists, else the one players write ([`Tablebases::file_material`]), each pair of twins
    /// once; those that exist are checked block by block (a whole one is finished, a damaged
    /// or outdated one is generated anew); and the counts so far.
    ///
    /// # Errors
    /// When a material can have no table, the directory cannot be made, or a file cannot be
    /// read (other than being damaged).
    pub fn prepare(
        &self,
        materials: &[Material],
        report: &(dyn Fn(GenerateEvent<'_>) + Sync),
    ) -> Result<(Scheduler<Material>, GenerateSummary), GenerateError> {
        let needed = Tablebases::needed(materials)?;
        let files: BTreeSet<Material> = needed.iter().map(|&m| self.file_material(m)).collect();
        let mut plan: Vec<Material> = files.into_iter().collect();
        plan.sort_by_key(|m| (m.men(), m.to_string()));
        if self.rules.has_bans() {
            // The rule's solver numbers positions in 32 bits (the `standard` solver does not).
            for &material in plan.iter().rev() {
                if let Some(n) = MaterialIndex::size(material).filter(|&n| n > u32::MAX as usize) {
                    return Err(ProbeError::BeyondTables {
                        material,
                        men: material.men(),
                        why: format!(
                            "its index has {n} positions, more than the {} solver's limit of {} (32-bit position numbers)",
                            self.rules,
                            u32::MAX
                        ),
                    }
                    .into());
                }
            }
        }
        let mut summary = GenerateSummary {
            materials: plan.len(),
            twins: needed.len() - needed.iter().filter(|&&m| self.file_material(m) == m).count(),
            ..GenerateSummary::default()
        };
        std::fs::create_dir_all(&self.dir)
            .map_err(|source| GenerateError::Directory { path: self.dir.clone(), error: source })?;
        remove_stale_temporaries(&self.dir);
        let mut finished = BTreeSet::new();
        let mut tiers = Vec::with_capacity(plan.len());
        for &material in &plan {
            let positions = MaterialIndex::new(material).len();
            let path = self.path(material);
            if path.exists() {
                match self.open_files(material, self.rules, &self.dir).and_then(|f| f.verify()) {
                    Ok(()) => {
                        summary.kept += 1;
                        finished.insert(material);
                        report(GenerateEvent::Kept { material });
                    }
                    Err(error) if error.needs_regeneration() => {
                        summary.replaced += 1;
                        report(GenerateEvent::Replacing { material, error: &error });
                    }
                    Err(error) => return Err(error.into()),
                }
            }
            let needs = Tablebases::reads(material, |m| self.file_material(m));
            tiers.push(Tier { id: material, size: positions as u64, needs });
        }
        let scheduler = Scheduler::new(tiers, |m| finished.contains(m))
            .expect("a plan holds every material a capture leads to, and captures only lead to fewer men");
        Ok((scheduler, summary))
    }

    /// Solves one material whose smaller materials all have files (their own or their colour
    /// twins'; those not in `loaded` are read into it first), writes its file, and returns the
    /// seconds it took. The memory estimate is checked against the memory available first.
    ///
    /// # Errors
    /// When memory is short, a file cannot be read or written, or the solver fails.
    pub fn generate_one(
        &self,
        material: Material,
        loaded: &mut Loaded,
        report: &(dyn Fn(GenerateEvent<'_>) + Sync),
    ) -> Result<f64, GenerateError> {
        self.generate_one_until(material, loaded, report, None)
    }

    /// [`Tablebases::generate_one`], stopped by `cancel` within the solve (see
    /// [`Tablebases::generate_cancellable`]).
    fn generate_one_until(
        &self,
        material: Material,
        loaded: &mut Loaded,
        report: &(dyn Fn(GenerateEvent<'_>) + Sync),
        cancel: Option<&AtomicBool>,
    ) -> Result<f64, GenerateError> {
        let positions = check_size(material)?;
        let needed = self.estimate(material, |m| loaded.contains(m));
        report(GenerateEvent::Solving { material, positions, memory: needed });
        if let Some(available) = meminfo("MemAvailable:")
            && needed > available
        {
            return Err(GenerateError::Memory { material, needed, available });
        }
        let start = Instant::now();
        let failed = |source| match source {
            SolveError::Cancelled => GenerateError::Cancelled,
            error => GenerateError::Solve { material, error },
        };
        let path = self.path(material);
        let dtm_path = self.dtm_path(material);
        let paths = TablePaths { wdl: &path, dtm: &dtm_path };
        for smaller in material.after_captures() {
            // A material whose colour twin's table is loaded is answered from it (under rules
            // that treat both sides alike: under others each needs its own).
            let twin_loaded = self.rules.colour_symmetric() && loaded.contains(smaller.colour_twin());
            if loaded.contains(smaller) || twin_loaded {
                continue;
            }
            self.read_for_captures(self.file_material(smaller), loaded)?;
        }
        let progress = |progress: Progress| report(GenerateEvent::Progress { material, progress });
        let solver = Retrograde::new().compact(true).progress(&progress);
        let solver = match cancel {
            Some(flag) => solver.cancel(flag),
            None => solver,
        };
        match loaded {
            Loaded::Plain(t) => {
                t.solve_with(material, &solver).map_err(failed)?;
                let table = t.table(material).expect("just solved");
                let stats = Stats::of_values(table.index(), self.rules, |p| {
                    table.solution().value(p).map(RuleValue::from)
                });
                self.write_files(material, paths, &stats.counters(), &|p| {
                    table.solution().value(p).map(RuleValue::from)
                })?;
            }
            Loaded::Rule(t) => {
                let step = |step| report(GenerateEvent::Step { material, step });
                step("reading the standard table");
                let standard = self.standard_solution(material, positions);
                if standard.is_none() {
                    step("solving under standard rules");
                }
                let plain = t.plain_step(material, standard, &solver).map_err(failed)?;
                let rule = rule_solver(material, self.rules, positions as u64, plain.summary().draws)?;
                step("solving under the rule");
                t.rule_step(material, plain, &rule).map_err(failed)?;
                step("checking the certificate");
                let t: &PerpetualTablebase = t;
                let solution = t.solution(material).expect("just solved");
                let game = PerpetualGame::new(t.index(material).expect("just solved"), t);
                check_rule_solution(&game, solution)
                    .map_err(|why| GenerateError::Certificate { material, why })?;
                step("writing");
                let stats = Stats::of_values(t.index(material).expect("just solved"), self.rules, |p| {
                    solution.value(p)
                });
                self.write_files(material, paths, &stats.counters(), &|p| solution.value(p))?;
            }
        }
        self.forget(material);
        let seconds = start.elapsed().as_secs_f64();
        report(GenerateEvent::Written { material, positions, seconds, path: &path });
        Ok(seconds)
    }

    /// Generates the tables of `materials` and of every material a capture leads to (see the
    /// [module](self) docs) in this process, reporting to `report` as it goes: the books of
    /// [`Tablebases::prepare`], each ready material solved by [`Tablebases::generate_one`] (the
    /// largest ready first), the smaller tables kept in memory while a material left needs them.
    ///
    /// # Errors
    /// When a material can have no table, memory is short, a file cannot be written or the
    /// directory made. Tables finished before the error stay on disk: a rerun resumes.
    pub fn generate(
        &self,
        materials: &[Material],
        report: &(dyn Fn(GenerateEvent<'_>) + Sync),
    ) -> Result<GenerateSummary, GenerateError> {
        self.generate_cancellable(materials, report, &AtomicBool::new(false))
    }

    /// [`Tablebases::generate`] that stops with [`GenerateError::Cancelled`] soon after `cancel`
    /// is set: before the next material, or within the solve of the current one (the solver
    /// looks at the flag per chunk and per level, [`Retrograde::cancel`]; the passes of the
    /// perpetual-check rule and the writing of a file run to their end). The tables finished
    /// before stay: a later generation resumes from them.
    ///
    /// # Errors
    /// As [`Tablebases::generate`], and [`GenerateError::Cancelled`].
    pub fn generate_cancellable(
        &self,
        materials: &[Material],
        report: &(dyn Fn(GenerateEvent<'_>) + Sync),
        cancel: &AtomicBool,
    ) -> Result<GenerateSummary, GenerateError> {
        let (mut scheduler, mut summary) = self.prepare(materials, report)?;
        // The memory of the run stays within that of its largest solve: tables kept for later
        // materials are dropped (and read again later) when they would take more.
        let budget =
            Tablebases::plan(materials)?.into_iter().map(|m| self.estimate(m, |_| false)).max().unwrap_or(0);
        summary.estimate = budget;
        let mut loaded = Loaded::new(self.rules);
        while let Some(material) = scheduler.hand_out() {
            if cancel.load(Ordering::Relaxed) {
                return Err(GenerateError::Cancelled);
            }
            let needed = self.estimate(material, |m| loaded.contains(m));
            let reads = Tablebases::reads(material, |m| self.file_material(m));
            loaded.make_room(&reads, needed, budget);
            self.generate_one_until(material, &mut loaded, report, Some(cancel))?;
            scheduler.finish(&material);
            summary.largest = summary.largest.max(MaterialIndex::new(material).len());
            summary.generated += 1;
            for m in loaded.materials() {
                if !scheduler.still_needed(&m) {
                    loaded.remove(m);
                }
            }
        }
        debug_assert!(scheduler.is_finished());
        summary.peak_memory = proc_kib("/proc/self/status", "VmHWM:");
        Ok(summary)
    }

    /// After a probe of `material` failed on its table: whether the files that answer for it
    /// (its own or its colour twin's) were replaced or removed since they were opened; then
    /// they are forgotten, and the probe is worth trying again (it opens the files now there).
    /// A damaged block is therefore answered as damaged only when the file at the path is the
    /// one that was read: a table regenerated as the message advises answers at once.
    fn renew(&self, material: Material) -> bool {
        let mut renewed = false;
        for m in [material, material.colour_twin()] {
            let known = self.sources.read().unwrap_or_else(PoisonError::into_inner).get(&m).cloned();
            if known.is_some_and(|source| source.replaced()) {
                self.forget(m);
                renewed = true;
            }
        }
        renewed
    }

    /// Runs `probe` on `material`'s tables, once more when it failed on a table file that was
    /// replaced meanwhile ([`Tablebases::renew`]).
    fn renewing<T>(
        &self,
        material: Material,
        probe: impl Fn() -> Result<T, ProbeError>,
    ) -> Result<T, ProbeError> {
        match probe() {
            Err(ProbeError::Table { .. }) if self.renew(material) => probe(),
            result => result,
        }
    }

    /// Forgets what was opened or solved of `material` (after its file was written anew).
    fn forget(&self, material: Material) {
        let mut twins = self.twin_answers.write().unwrap_or_else(PoisonError::into_inner);
        twins.remove(&material);
        twins.remove(&material.colour_twin());
        drop(twins);
        let old = self.sources.write().unwrap_or_else(PoisonError::into_inner).remove(&material);
        if let Some(old) = old
            && let Source::File { key, .. } = &*old
        {
            self.cache.forget_table(2 * key);
            self.cache.forget_table(2 * key + 1);
        }
    }
}

impl Probe for Tablebases {
    fn rules(&self) -> Rules {
        self.rules
    }

    fn lookup(&self, position: &Position) -> Result<RuleValue, ProbeError> {
        let material = position.material();
        self.renewing(material, || {
            let (answering, source, flipped) = self.answering(material)?;
            let index = source.index();
            let i = if flipped != source.twin_order() {
                index.encode_colour_twin(position)
            } else {
                index.encode(position)
            };
            let value = match i {
                Some(i) => self.value_at(answering, &source, i)?,
                None => None,
            };
            value.ok_or(ProbeError::NoValue { material })
        })
    }

    fn lookup_wdl(&self, position: &Position) -> Result<Category, ProbeError> {
        let material = position.material();
        // A colour twin is answered from its twin's file, as `lookup` does.
        self.renewing(material, || {
            let (answering, source, flipped) = self.answering(material)?;
            let index = source.index();
            let i = if flipped != source.twin_order() {
                index.encode_colour_twin(position)
            } else {
                index.encode(position)
            };
            let Some(i) = i else {
                return Err(ProbeError::NoValue { material });
            };
            match &*source {
                Source::File { key, wdl, .. } => self.category_at(answering, *key, wdl, i),
                _ => self
                    .value_at(answering, &source, i)?
                    .map(Category::of)
                    .ok_or(ProbeError::NoValue { material }),
            }
        })
    }
}
