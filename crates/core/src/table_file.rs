//! Table files: a solved game's values on disk, compressed, checked, written atomically and
//! read one block at a time.
//!
//! A table is two files: a **WDL file**, each position's category (win, draw, loss; under a
//! ban on perpetual play also win and loss by the rule), and a **DTM file**, the distances to
//! the end and the rule's ranks. A probe of a value (for an engine's search) reads the WDL file
//! only; a distance reads a block of each.
//!
//! # Format (version 3, integers little-endian), both files
//!
//! ```text
//! magic        8 bytes  "ENDGMTB\0"
//! version      u32      3
//! header size  u32      bytes from the magic to the end of the header checksum
//! kind         u8       1 a WDL file, 2 a DTM file
//! game         u16 length + UTF-8    e.g. "xiangqi"
//! variant      u16 length + UTF-8    e.g. "KNvK" (a material)
//! rules        u16 length + UTF-8    e.g. "standard"
//! positions    u64      size of the index (holes included)
//! width        u8       WDL: bits per position, 2 (or 4 with rule results); DTM: 0, 8, 16, 32
//! block        u32      positions per block (a power of two)
//! blocks       u32      number of blocks (0 when the width is 0)
//! pair         u32      WDL: 0; DTM: the header checksum of its WDL file
//! counters     u16 n, n x (u8 length + UTF-8 name, u64 value): the table's statistics
//! lists        DTM: 5 x (u32 n, n x u32 entry): the values of each category, most frequent first
//! index        blocks x (compressed length u32, CRC-32 of the compressed bytes u32)
//! header crc   u32      CRC-32 of everything above
//! data         the blocks, each one zstd frame
//! ```
//!
//! *Categories* (the WDL file's symbols, packed 4 or 2 to a byte in the positions' order,
//! first position in the low bits): 0 draw, 1 win, 2 loss, 3 win by the rule, 4 loss by the
//! rule. The *DTM symbol* of a
//! position of category `c` is the number of its value in `c`'s list: values are remapped per
//! table by frequency, so the common ones are small numbers. An *entry* of a list: a win's or a
//! loss's plies; for a draw 0 (endless play) or `d + 1` (a drawn end in `d` plies); for a result
//! by the rule `2 r + b`: rank `r` (the winner's progress measure, see [`crate::perpetual`]) and
//! the ban `b` that decided (0 perpetual check, 1 perpetual chase). A category
//! with at most one entry needs no symbol. A DTM block holds the symbols of its positions whose
//! category needs one, and only those: one stream per category (in the order of the
//! categories), each the symbols of the block's even positions in their order, then those of
//! its odd ones (the Xiangqi index's lowest digit is the side to move), so a DTM block is read with the WDL block that
//! holds its positions ([`TableFile::read_dtm_block`]), whose categories say which position
//! each symbol is of. Symbols wider than a byte are stored as byte planes (all low bytes of
//! the block's streams, then the next bytes).
//!
//! *Holes* (indices that are no legal position) have no value: the writer chooses their
//! category ("don't care", as Syzygy tables do): one that needs no DTM symbol (draw, when the
//! table has at most one kind of draw), so that holes cost the DTM file nothing; else the
//! previous position's category and that category's previous symbol. A reader gives a hole
//! some value. Callers probe legal positions only.
//!
//! The counters are the caller's (the Xiangqi store keeps its statistics there, so they are
//! read from the header alone). The rule set's name is in the header: a file is only read as
//! the table of the rule set it names. A DTM file names its WDL file's header checksum: a pair
//! from two generations is refused. Version 2 files (one file, LZ4, see
//! [`crate::table_v2`]) are refused with [`TableError::Version`]; they convert without solving.
//!
//! [`TableFile`] opens a file by reading its header only and reads a block with one positioned
//! read (`pread`), checking its CRC before decompressing it; [`BlockCache`] keeps decompressed
//! blocks within a budget of bytes. The reader allocates only what the header, checked against
//! the expected table and the file's length, describes: a damaged file is refused, not trusted.
//!
//! Files are written to temporary names unique to the machine, process and call, synced, the
//! DTM file renamed into place, then the WDL file, and the directory synced: a crash never
//! leaves a partial file under a real name, and a WDL file is only there with its DTM file.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::fs;
use std::hash::Hash;
use std::io::{self, Seek, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::open_files::{Identity, OpenFiles, PooledFile};
use crate::perpetual::{Ban, RuleSolution, RuleValue};
use crate::retrograde::{Solution, SolveError};
use crate::value::{Plies, Value, Wdl};

const MAGIC: &[u8; 8] = b"ENDGMTB\0";
/// The version of the file format this code reads and writes.
pub const FORMAT_VERSION: u32 = 3;
/// Positions per block of a WDL file.
pub const WDL_BLOCK: usize = 1 << 18;
/// Positions per block of a DTM file (a WDL block holds a whole number of them).
pub const DTM_BLOCK: usize = 1 << 16;
/// How hard [`write_tables`] compresses: the time of a generation against the size of its
/// files. A reader need not know: every file names its block size, and zstd frames decode
/// alike whatever their level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Compression {
    /// zstd level 9, DTM blocks of [`DTM_BLOCK`] positions: what a generation writes.
    #[default]
    Normal,
    /// zstd level 19, DTM blocks as long as the WDL blocks ([`WDL_BLOCK`] positions): for
    /// tables to download and share. About 10 times the compressing CPU of `Normal` (still a
    /// small part of a generation's for the big tables: see BENCHMARKS.md), a slower cold
    /// distance probe (a DTM block 4 times longer), and files about 10 % smaller. A
    /// [`BlockCache`] keeps a block only within a sixteenth of its budget: DTM blocks of 32-bit
    /// symbols take 1 MiB here, so such tables want a cache of 16 MiB or more.
    Best,
}

impl Compression {
    /// The zstd level of the blocks.
    const fn level(self) -> i32 {
        match self {
            Compression::Normal => 9,
            Compression::Best => 19,
        }
    }

    /// Positions per DTM block (a divisor of [`WDL_BLOCK`]).
    const fn dtm_block(self) -> usize {
        match self {
            Compression::Normal => DTM_BLOCK,
            Compression::Best => WDL_BLOCK,
        }
    }

    /// The name of the CLI's `--compression` (`normal`, `best`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Compression::Normal => "normal",
            Compression::Best => "best",
        }
    }
}

impl std::str::FromStr for Compression {
    type Err = String;

    fn from_str(s: &str) -> Result<Compression, String> {
        match s {
            "normal" => Ok(Compression::Normal),
            "best" => Ok(Compression::Best),
            _ => Err(format!("unknown compression '{s}': expected normal or best")),
        }
    }
}
/// The largest header a reader accepts.
const MAX_HEADER: u64 = 1 << 28;

/// What a table is the table of: checked on reading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableId {
    /// The game (`xiangqi`).
    pub game: String,
    /// The variant within the game, such as a material (`KNvK`).
    pub variant: String,
    /// The rule set (`standard`, `hdu`).
    pub rules: String,
    /// The size of the index.
    pub positions: u64,
}

impl fmt::Display for TableId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} under rules {} ({} positions)", self.game, self.variant, self.rules, self.positions)
    }
}

/// Which of a table's two files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileKind {
    /// Each position's category.
    Wdl,
    /// The distances and ranks.
    Dtm,
}

impl FileKind {
    const fn byte(self) -> u8 {
        match self {
            FileKind::Wdl => 1,
            FileKind::Dtm => 2,
        }
    }
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FileKind::Wdl => "WDL",
            FileKind::Dtm => "DTM",
        })
    }
}

/// A position's result without its distance or rank: what a WDL file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Category {
    /// Neither side can force a win.
    Draw,
    /// The side to move wins (by mate, or by the game's terminal values).
    Win,
    /// The side to move loses.
    Loss,
    /// The side to move wins by the rule (the opponent can only avoid losing by a banned
    /// perpetual).
    WinByRule,
    /// The side to move loses by the rule.
    LossByRule,
}

impl Category {
    /// Every category, in the order of their symbols.
    pub const ALL: [Category; 5] =
        [Category::Draw, Category::Win, Category::Loss, Category::WinByRule, Category::LossByRule];

    /// The category of a value.
    #[must_use]
    pub const fn of(value: RuleValue) -> Category {
        match value {
            RuleValue::Draw(_) => Category::Draw,
            RuleValue::Win(_) => Category::Win,
            RuleValue::Loss(_) => Category::Loss,
            RuleValue::WinByRule(..) => Category::WinByRule,
            RuleValue::LossByRule(..) => Category::LossByRule,
        }
    }

    /// Win, draw or loss (results by the rule are wins and losses).
    #[must_use]
    pub const fn wdl(self) -> Wdl {
        match self {
            Category::Draw => Wdl::Draw,
            Category::Win | Category::WinByRule => Wdl::Win,
            Category::Loss | Category::LossByRule => Wdl::Loss,
        }
    }

    /// Whether the result is decided by the rule.
    #[must_use]
    pub const fn is_by_rule(self) -> bool {
        matches!(self, Category::WinByRule | Category::LossByRule)
    }

    /// The category in the plain game (endless play always a draw).
    #[must_use]
    pub const fn plain(self) -> Category {
        if self.is_by_rule() { Category::Draw } else { self }
    }

    const fn symbol(self) -> usize {
        self as usize
    }

    const fn from_symbol(symbol: u8) -> Option<Category> {
        match symbol {
            0 => Some(Category::Draw),
            1 => Some(Category::Win),
            2 => Some(Category::Loss),
            3 => Some(Category::WinByRule),
            4 => Some(Category::LossByRule),
            _ => None,
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Category::Draw => "draw",
            Category::Win => "win",
            Category::Loss => "loss",
            Category::WinByRule => "win by the rule",
            Category::LossByRule => "loss by the rule",
        })
    }
}

/// The list entry of a value (see the module notes); `None` beyond 32 bits.
fn entry(value: RuleValue) -> Option<u32> {
    match value {
        RuleValue::Win(d) | RuleValue::Loss(d) => Some(d.0),
        RuleValue::Draw(None) => Some(0),
        RuleValue::Draw(Some(d)) => d.0.checked_add(1),
        RuleValue::WinByRule(ban, r) | RuleValue::LossByRule(ban, r) => {
            r.checked_mul(2)?.checked_add(ban_bit(ban))
        }
    }
}

/// The value of a list entry of category `c`.
fn from_entry(c: Category, e: u32) -> RuleValue {
    match c {
        Category::Win => RuleValue::Win(Plies(e)),
        Category::Loss => RuleValue::Loss(Plies(e)),
        Category::Draw if e == 0 => RuleValue::Draw(None),
        Category::Draw => RuleValue::Draw(Some(Plies(e - 1))),
        Category::WinByRule => RuleValue::WinByRule(ban_of(e), e >> 1),
        Category::LossByRule => RuleValue::LossByRule(ban_of(e), e >> 1),
    }
}

/// The ban's bit in an entry of a result by the rule.
const fn ban_bit(ban: Ban) -> u32 {
    match ban {
        Ban::Check => 0,
        Ban::Chase => 1,
    }
}

const fn ban_of(e: u32) -> Ban {
    if e & 1 == 0 { Ban::Check } else { Ban::Chase }
}

/// Why a table could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The file could not be read or written (the system's message is part of this one, so it
    /// is not also given as the error's source: printed chains do not repeat it).
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// The file is of another version of the format.
    #[error(
        "{}: format version {found}, this program reads version {FORMAT_VERSION}{}",
        path.display(),
        if *found == 2 { " (version 2 files convert to version 3 without solving again)" } else { "" }
    )]
    Version {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u32,
    },
    /// The file holds another table.
    #[error("{}: holds {found}, expected {expected}", path.display())]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What the file holds.
        found: Box<TableId>,
        /// What was asked for.
        expected: Box<TableId>,
    },
    /// The file is not a table, or is damaged.
    #[error("{}: {why}", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// A value cannot be written in the format (nothing was written).
    #[error("{}: cannot be written: {why}", path.display())]
    Unwritable {
        /// The file.
        path: PathBuf,
        /// Which value, and why.
        why: String,
    },
}

impl TableError {
    /// The file the error is about.
    #[must_use]
    pub fn path(&self) -> &Path {
        match self {
            TableError::Io { path, .. }
            | TableError::Version { path, .. }
            | TableError::Mismatch { path, .. }
            | TableError::Damaged { path, .. }
            | TableError::Unwritable { path, .. } => path,
        }
    }

    /// Whether the file exists but cannot be used as it is (another version, another table,
    /// damaged): regenerating it (or converting it, see [`TableError::needs_conversion`]) is
    /// the cure.
    #[must_use]
    pub const fn needs_regeneration(&self) -> bool {
        !matches!(self, TableError::Io { .. } | TableError::Unwritable { .. })
    }

    /// Whether the file is of format version 2: converting it is the cure.
    #[must_use]
    pub const fn needs_conversion(&self) -> bool {
        matches!(self, TableError::Version { found: 2, .. })
    }

    /// An I/O error about `path`.
    #[must_use]
    pub fn io(path: &Path, error: io::Error) -> TableError {
        TableError::Io { path: path.to_path_buf(), error }
    }

    pub(crate) fn damaged(path: &Path, why: impl Into<String>) -> TableError {
        TableError::Damaged { path: path.to_path_buf(), why: why.into() }
    }
}

/// This machine's name as it goes into temporary file names (letters, digits and `-` of the
/// host name, at most 32), so that processes of several machines sharing a directory (a
/// cluster over NFS) tell their temporary files apart.
#[must_use]
pub fn host_tag() -> String {
    let name = fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .or_else(|| std::env::var("COMPUTERNAME").ok())
        .unwrap_or_default();
    let tag: String =
        name.trim().chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').take(32).collect();
    if tag.is_empty() { "host".to_string() } else { tag }
}

/// A name for a temporary file next to `path`, unique to this machine, process and call:
/// `<path>.<host>.<pid>.<nanoseconds>.<n>.tmp`. The writers of this module write under such
/// names and rename into place; a caller that writes a table it may not keep (one of two to
/// choose from) writes it under such names too, and [`move_tables`] the one it keeps.
#[must_use]
pub fn temporary_name(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let mut name = path.as_os_str().to_owned();
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    name.push(format!(".{}.{}.{nanos}.{n}.tmp", host_tag(), std::process::id()));
    PathBuf::from(name)
}

/// Syncs the directory of `path` so that a rename into it survives a crash (where directories
/// can be opened; elsewhere renames are durable by themselves).
pub(crate) fn sync_directory(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        fs::File::open(dir)?.sync_all()?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// Renames a table's two files from `from` to `to` as a writer does (the DTM file first: a
/// failure between the two renames leaves a pair the reader refuses, as their checksums
/// differ) and syncs the directory.
///
/// # Errors
/// When a file cannot be renamed or the directory synced.
pub fn move_tables(from: TablePaths<'_>, to: TablePaths<'_>) -> Result<(), TableError> {
    fs::rename(from.dtm, to.dtm).map_err(|e| TableError::io(to.dtm, e))?;
    fs::rename(from.wdl, to.wdl).map_err(|e| TableError::io(to.wdl, e))?;
    sync_directory(to.wdl).map_err(|e| TableError::io(to.wdl, e))?;
    sync_directory(to.dtm).map_err(|e| TableError::io(to.dtm, e))
}

/// Where a table's two files go.
#[derive(Clone, Copy, Debug)]
pub struct TablePaths<'a> {
    /// The WDL file.
    pub wdl: &'a Path,
    /// The DTM file.
    pub dtm: &'a Path,
}

/// Writes a solution as a table (both files, see the module notes), atomically. `counters` go
/// into both headers.
///
/// # Errors
/// When a file cannot be written, or the solution's size differs from `id.positions`.
pub fn write_solution(
    paths: TablePaths<'_>,
    id: &TableId,
    counters: &[(String, u64)],
    compression: Compression,
    solution: &Solution,
) -> Result<(), TableError> {
    check_size(paths.wdl, id, solution.len())?;
    write_tables(paths, id, counters, compression, |range, out| {
        out.extend(range.map(|p| solution.value(p).map(RuleValue::from)));
    })
}

/// Writes a solution under the ban on perpetual check as a table, as [`write_solution`] does.
///
/// # Errors
/// When a file cannot be written, or the solution's size differs from `id.positions`.
pub fn write_rule_solution(
    paths: TablePaths<'_>,
    id: &TableId,
    counters: &[(String, u64)],
    compression: Compression,
    solution: &RuleSolution,
) -> Result<(), TableError> {
    check_size(paths.wdl, id, solution.len())?;
    write_tables(paths, id, counters, compression, |range, out| out.extend(range.map(|p| solution.value(p))))
}

fn check_size(path: &Path, id: &TableId, len: usize) -> Result<(), TableError> {
    if len as u64 == id.positions {
        Ok(())
    } else {
        Err(TableError::damaged(
            path,
            format!("{len} positions in the solution, {} in the table id", id.positions),
        ))
    }
}

/// Counts of each category's entries.
#[derive(Default)]
struct Histogram {
    /// Entries below [`DENSE`], per category.
    dense: [Vec<u64>; 5],
    sparse: [HashMap<u32, u64>; 5],
}

/// Entries below this are counted (and mapped to symbols) in arrays.
const DENSE: u32 = 4096;

impl Histogram {
    fn add(&mut self, c: Category, e: u32) {
        let c = c.symbol();
        if e < DENSE {
            let counts = &mut self.dense[c];
            if counts.len() <= e as usize {
                counts.resize(e as usize + 1, 0);
            }
            counts[e as usize] += 1;
        } else {
            *self.sparse[c].entry(e).or_insert(0) += 1;
        }
    }

    fn merge(mut self, other: Histogram) -> Histogram {
        for c in 0..5 {
            let (a, b) = (&mut self.dense[c], &other.dense[c]);
            if a.len() < b.len() {
                a.resize(b.len(), 0);
            }
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
            for (&e, &n) in &other.sparse[c] {
                *self.sparse[c].entry(e).or_insert(0) += n;
            }
        }
        self
    }

    /// Each category's entries, most frequent first (ties: the smaller entry first).
    fn lists(&self) -> [Vec<u32>; 5] {
        std::array::from_fn(|c| {
            let mut counted: Vec<(u64, u32)> = self.dense[c]
                .iter()
                .enumerate()
                .filter(|(_, n)| **n > 0)
                .map(|(e, &n)| (n, e as u32))
                .chain(self.sparse[c].iter().map(|(&e, &n)| (n, e)))
                .collect();
            counted.sort_by_key(|&(n, e)| (std::cmp::Reverse(n), e));
            counted.into_iter().map(|(_, e)| e).collect()
        })
    }
}

/// From entries to symbols, per category.
struct Symbols {
    dense: [Vec<u32>; 5],
    sparse: [HashMap<u32, u32>; 5],
    /// Whether a category needs symbols (more than one entry).
    needed: [bool; 5],
}

impl Symbols {
    fn new(lists: &[Vec<u32>; 5]) -> Symbols {
        let mut dense: [Vec<u32>; 5] = Default::default();
        let mut sparse: [HashMap<u32, u32>; 5] = Default::default();
        for (c, list) in lists.iter().enumerate() {
            for (s, &e) in list.iter().enumerate() {
                if e < DENSE {
                    if dense[c].len() <= e as usize {
                        dense[c].resize(e as usize + 1, u32::MAX);
                    }
                    dense[c][e as usize] = s as u32;
                } else {
                    sparse[c].insert(e, s as u32);
                }
            }
        }
        Symbols { dense, sparse, needed: std::array::from_fn(|c| lists[c].len() > 1) }
    }

    fn symbol(&self, c: Category, e: u32) -> u32 {
        let c = c.symbol();
        if e < DENSE { self.dense[c][e as usize] } else { self.sparse[c][&e] }
    }
}

/// The categories and DTM symbols of one WDL block's values, holes chosen to help the coder
/// (see the module notes).
fn symbols_of(values: &[Option<RuleValue>], symbols: &Symbols, cats: &mut Vec<u8>, dtm: &mut Vec<u32>) {
    cats.clear();
    dtm.clear();
    // A hole takes a category that needs no DTM symbol (so that it costs the DTM file
    // nothing), the first of draw, win, loss that has one; else the previous position's
    // category and that category's previous symbol (before the first value, the first
    // value's).
    let free = [Category::Draw, Category::Win, Category::Loss]
        .into_iter()
        .find(|c| !symbols.needed[c.symbol()])
        .map(|c| c.symbol() as u8);
    let first = values.iter().flatten().next().map_or(0, |&v| Category::of(v).symbol() as u8);
    let mut cat = first;
    let mut last = [0u32; 5];
    for v in values {
        let sym = match *v {
            Some(v) => {
                let c = Category::of(v);
                cat = c.symbol() as u8;
                if symbols.needed[c.symbol()] {
                    last[c.symbol()] = symbols.symbol(c, entry(v).expect("checked before"));
                }
                last[c.symbol()]
            }
            None => {
                if let Some(free) = free {
                    cats.push(free);
                    dtm.push(0);
                    continue;
                }
                last[cat as usize]
            }
        };
        cats.push(cat);
        dtm.push(sym);
    }
}

/// Blocks of a WDL file compressed at once while a table is written.
const WRITE_BATCH: usize = 32;

thread_local! {
    // A writer's buffers for a block, kept by each thread from block to block (fresh ones
    // cost a page fault for every 4 KiB written: a twelfth of a generation's time).
    static VALUES: std::cell::Cell<Vec<Option<RuleValue>>> = const { std::cell::Cell::new(Vec::new()) };
    static CATEGORIES: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
    static SYMBOLS: std::cell::Cell<Vec<u32>> = const { std::cell::Cell::new(Vec::new()) };
    static COMPRESSOR: RefCell<Option<(i32, zstd::bulk::Compressor<'static>)>> = const { RefCell::new(None) };
    static DECOMPRESSOR: RefCell<Option<zstd::bulk::Decompressor<'static>>> = const { RefCell::new(None) };
}

/// This thread's buffer of `key`, taken (an empty one in its place until it is given back).
fn take_buffer<T>(key: &'static std::thread::LocalKey<std::cell::Cell<Vec<T>>>) -> Vec<T> {
    key.take()
}

/// The histogram of one block's values, `start` the index of its first (for the message of a
/// value beyond the format).
fn histogram_of(values: &[Option<RuleValue>], start: usize, path: &Path) -> Result<Histogram, TableError> {
    let mut h = Histogram::default();
    for (i, v) in values.iter().enumerate() {
        if let Some(v) = *v {
            let Some(e) = entry(v) else {
                let p = start + i;
                return Err(TableError::Unwritable {
                    path: path.to_path_buf(),
                    why: format!("the value of position {p} has a distance or rank beyond 32 bits"),
                });
            };
            h.add(Category::of(v), e);
        }
    }
    Ok(h)
}

fn compress(data: &[u8], level: i32) -> io::Result<Vec<u8>> {
    COMPRESSOR.with(|c| {
        let mut c = c.borrow_mut();
        if c.as_ref().is_none_or(|(l, _)| *l != level) {
            *c = Some((level, zstd::bulk::Compressor::new(level)?));
        }
        c.as_mut().expect("just made").1.compress(data)
    })
}

/// Decompresses one frame of at most `capacity` bytes (the vector is not zeroed first).
fn decompress(data: &[u8], capacity: usize) -> io::Result<Vec<u8>> {
    DECOMPRESSOR.with(|d| {
        let mut d = d.borrow_mut();
        if d.is_none() {
            *d = Some(zstd::bulk::Decompressor::new()?);
        }
        d.as_mut().expect("just made").decompress(data, capacity)
    })
}

/// The header of a file without its block index (see the module notes).
#[derive(Clone, Debug)]
struct Head {
    kind: FileKind,
    id: TableId,
    width: u8,
    block: usize,
    blocks: usize,
    pair: u32,
    counters: Vec<(String, u64)>,
    lists: [Vec<u32>; 5],
}

impl Head {
    /// The bytes of the header (the index as given, and the checksum).
    fn bytes(&self, index: &[u8]) -> Vec<u8> {
        let mut h = Vec::new();
        h.extend_from_slice(MAGIC);
        h.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        h.extend_from_slice(&[0; 4]); // the size, below
        h.push(self.kind.byte());
        for s in [&self.id.game, &self.id.variant, &self.id.rules] {
            h.extend_from_slice(&(s.len() as u16).to_le_bytes());
            h.extend_from_slice(s.as_bytes());
        }
        h.extend_from_slice(&self.id.positions.to_le_bytes());
        h.push(self.width);
        h.extend_from_slice(&(self.block as u32).to_le_bytes());
        h.extend_from_slice(&(self.blocks as u32).to_le_bytes());
        h.extend_from_slice(&self.pair.to_le_bytes());
        h.extend_from_slice(&(self.counters.len() as u16).to_le_bytes());
        for (name, value) in &self.counters {
            h.push(name.len() as u8);
            h.extend_from_slice(name.as_bytes());
            h.extend_from_slice(&value.to_le_bytes());
        }
        if self.kind == FileKind::Dtm {
            for list in &self.lists {
                h.extend_from_slice(&(list.len() as u32).to_le_bytes());
                for e in list {
                    h.extend_from_slice(&e.to_le_bytes());
                }
            }
        }
        h.extend_from_slice(index);
        let size = (h.len() + 4) as u32;
        h[12..16].copy_from_slice(&size.to_le_bytes());
        let crc = crc32fast::hash(&h);
        h.extend_from_slice(&crc.to_le_bytes());
        h
    }
}

/// One file being written: its temporary file, block index and header.
struct Output {
    path: PathBuf,
    tmp: PathBuf,
    file: io::BufWriter<fs::File>,
    index: Vec<u8>,
    head: Head,
}

impl Output {
    fn create(path: &Path, head: Head) -> io::Result<Output> {
        let tmp = temporary_name(path);
        let mut out = Output {
            path: path.to_path_buf(),
            file: io::BufWriter::new(fs::File::create(&tmp)?),
            tmp,
            index: Vec::new(),
            head,
        };
        let placeholder = out.head.bytes(&vec![0; out.head.blocks * 8]);
        out.file.write_all(&placeholder)?;
        Ok(out)
    }

    fn block(&mut self, compressed: &[u8]) -> io::Result<()> {
        self.index.extend_from_slice(&(compressed.len() as u32).to_le_bytes());
        self.index.extend_from_slice(&crc32fast::hash(compressed).to_le_bytes());
        self.file.write_all(compressed)
    }

    /// Writes the final header and syncs the file; returns the header's checksum.
    fn finish(&mut self) -> io::Result<u32> {
        let head = self.head.bytes(&self.index);
        self.file.seek(io::SeekFrom::Start(0))?;
        self.file.write_all(&head)?;
        self.file.flush()?;
        self.file.get_ref().sync_all()?;
        Ok(u32::from_le_bytes(head[head.len() - 4..].try_into().expect("4 bytes")))
    }
}

/// Writes the table of `id.positions` values, which `fill(range, out)` appends to `out` a
/// block at a time (`None` for holes), as its WDL and DTM files (see the module notes):
/// a first pass counts the values, a second compresses them, `fill` is called twice for
/// every position. Atomic as the module notes say; on an error the temporary files are
/// removed and nothing is written.
///
/// # Errors
/// When a file cannot be written, there are too many positions or counters, or a value is
/// beyond the format (a distance or rank past 32 bits).
pub fn write_tables(
    paths: TablePaths<'_>,
    id: &TableId,
    counters: &[(String, u64)],
    compression: Compression,
    fill: impl Fn(Range<usize>, &mut Vec<Option<RuleValue>>) + Sync,
) -> Result<(), TableError> {
    let path = paths.wdl;
    let (level, dtm_block) = (compression.level(), compression.dtm_block());
    let n = usize::try_from(id.positions).map_err(|_| TableError::damaged(path, "too many positions"))?;
    let blocks = n.div_ceil(WDL_BLOCK);
    if u32::try_from(n.div_ceil(dtm_block)).is_err() {
        return Err(TableError::damaged(path, "too many blocks"));
    }
    if counters.len() > u16::MAX as usize || counters.iter().any(|(name, _)| name.len() > 255) {
        return Err(TableError::damaged(path, "too many counters, or a counter's name too long"));
    }
    if [&id.game, &id.variant, &id.rules].iter().any(|s| s.len() > u16::MAX as usize) {
        return Err(TableError::damaged(path, "name too long"));
    }
    let range = |b: usize| b * WDL_BLOCK..n.min((b + 1) * WDL_BLOCK);
    // First pass: every value's entry, counted per category.
    let histogram = (0..blocks)
        .into_par_iter()
        .map(|b| {
            let mut values = take_buffer(&VALUES);
            values.clear();
            fill(range(b), &mut values);
            let h = histogram_of(&values, range(b).start, path);
            let len = values.len();
            VALUES.set(values);
            if len != range(b).len() {
                return Err(TableError::damaged(
                    path,
                    format!("block {b}: {len} values, expected {}", range(b).len()),
                ));
            }
            h
        })
        .try_reduce(Histogram::default, |a, b| Ok(a.merge(b)))?;
    let lists = histogram.lists();
    let symbols = Symbols::new(&lists);
    let wdl_width: u8 = if lists[4].is_empty() { 2 } else { 4 };
    let longest = lists.iter().map(Vec::len).max().unwrap_or(0);
    let dtm_width: u8 = match longest {
        0 | 1 => 0,
        2..=256 => 8,
        257..=65_536 => 16,
        _ => 32,
    };
    let wdl_head = Head {
        kind: FileKind::Wdl,
        id: id.clone(),
        width: wdl_width,
        block: WDL_BLOCK,
        blocks,
        pair: 0,
        counters: counters.to_vec(),
        lists: Default::default(),
    };
    let dtm_blocks = if dtm_width == 0 { 0 } else { n.div_ceil(dtm_block) };
    let dtm_head = Head {
        kind: FileKind::Dtm,
        width: dtm_width,
        block: dtm_block,
        blocks: dtm_blocks,
        lists,
        ..wdl_head.clone()
    };
    // One WDL block and its DTM blocks, compressed.
    let encode = |b: usize| -> io::Result<(Vec<u8>, Vec<Vec<u8>>)> {
        let r = range(b);
        let mut values = take_buffer(&VALUES);
        values.clear();
        fill(r.clone(), &mut values);
        if values.len() != r.len() {
            return Err(io::Error::other(format!(
                "block {b}: {} values, expected {}",
                values.len(),
                r.len()
            )));
        }
        let (mut cats, mut syms) = (take_buffer(&CATEGORIES), take_buffer(&SYMBOLS));
        symbols_of(&values, &symbols, &mut cats, &mut syms);
        VALUES.set(values);
        let wdl = compress(&pack_categories(&cats, wdl_width), level)?;
        let mut dtm = Vec::new();
        if dtm_width > 0 {
            for (cats, syms) in cats.chunks(dtm_block).zip(syms.chunks(dtm_block)) {
                dtm.push(compress(&planes(&streams(cats, syms, &symbols.needed), dtm_width), level)?);
            }
        }
        CATEGORIES.set(cats);
        SYMBOLS.set(syms);
        Ok((wdl, dtm))
    };
    let mut outputs: Vec<Output> = Vec::new();
    let written = (|| {
        outputs.push(Output::create(paths.wdl, wdl_head)?);
        outputs.push(Output::create(paths.dtm, dtm_head)?);
        for batch in (0..blocks).step_by(WRITE_BATCH) {
            let done: Vec<(Vec<u8>, Vec<Vec<u8>>)> = (batch..blocks.min(batch + WRITE_BATCH))
                .into_par_iter()
                .map(encode)
                .collect::<io::Result<_>>()?;
            for (wdl, dtm) in &done {
                outputs[0].block(wdl)?;
                for block in dtm {
                    outputs[1].block(block)?;
                }
            }
        }
        let pair = outputs[0].finish()?;
        outputs[1].head.pair = pair;
        outputs[1].finish()?;
        // The DTM file first: a WDL file under its real name has its DTM file.
        fs::rename(&outputs[1].tmp, &outputs[1].path)?;
        fs::rename(&outputs[0].tmp, &outputs[0].path)?;
        sync_directory(paths.wdl)?;
        sync_directory(paths.dtm)
    })();
    written.map_err(|e| {
        // Best effort: a rename may have happened, then there is nothing to remove.
        for out in &outputs {
            let _ = fs::remove_file(&out.tmp);
        }
        TableError::io(paths.wdl, e)
    })
}

/// A block's categories, packed `8 / width` to a byte, the first in the low bits.
fn pack_categories(cats: &[u8], width: u8) -> Vec<u8> {
    let per = (8 / width) as usize;
    cats.chunks(per)
        .map(|chunk| chunk.iter().enumerate().fold(0u8, |byte, (i, &c)| byte | c << (i * width as usize)))
        .collect()
}

/// The DTM symbols of a DTM block's positions whose category needs them, one stream per
/// category (in the order of the categories), each the symbols of the block's even positions
/// in their order, then those of its odd positions (the Xiangqi index's lowest digit is the
/// side to move).
fn streams(cats: &[u8], syms: &[u32], needed: &[bool; 5]) -> Vec<u32> {
    let mut out = Vec::with_capacity(syms.len());
    for c in 0..5u8 {
        if needed[c as usize] {
            for parity in 0..2 {
                out.extend(
                    cats.iter().zip(syms).skip(parity).step_by(2).filter(|&(&k, _)| k == c).map(|(_, &s)| s),
                );
            }
        }
    }
    out
}

/// Symbols of `width` bits as byte planes.
fn planes(symbols: &[u32], width: u8) -> Vec<u8> {
    let bytes = (width / 8) as usize;
    let mut out = Vec::with_capacity(symbols.len() * bytes);
    for plane in 0..bytes {
        out.extend(symbols.iter().map(|&s| (s >> (8 * plane)) as u8));
    }
    out
}

/// The decompressed symbols of one block of either file.
#[derive(Debug)]
pub struct Block {
    kind: FileKind,
    width: u8,
    /// The table's index of the block's first position.
    start: usize,
    len: usize,
    bytes: Box<[u8]>,
}

impl Block {
    /// The category of the `i`-th position of a WDL block; `None` past the end, in a DTM
    /// block, or for a symbol that is no category (a damaged file).
    #[inline]
    #[must_use]
    pub fn category(&self, i: usize) -> Option<Category> {
        if self.kind != FileKind::Wdl || i >= self.len {
            return None;
        }
        let w = self.width as usize;
        let per = 8 / w;
        let byte = self.bytes[i / per];
        Category::from_symbol((byte >> ((i % per) * w)) & ((1 << w) - 1) as u8)
    }

    /// The category symbols of positions `at..at + len` of a WDL block, a byte each; `None`
    /// when one is no category (a damaged file), the range is not within the block, or this is
    /// no WDL block.
    fn unpack_categories(&self, at: usize, len: usize) -> Option<Vec<u8>> {
        if self.kind != FileKind::Wdl || at.checked_add(len)? > self.len {
            return None;
        }
        let w = self.width as usize;
        let per = 8 / w;
        let mask = ((1u16 << w) - 1) as u8;
        // Whole bytes from the one holding position `at`, then the few extra dropped.
        let (first, skip) = (at / per, at % per);
        let packed = &self.bytes[first..(at + len).div_ceil(per)];
        let mut cats = vec![0u8; packed.len() * per];
        for (&byte, out) in packed.iter().zip(cats.chunks_exact_mut(per)) {
            for (k, c) in out.iter_mut().enumerate() {
                *c = (byte >> (k * w)) & mask;
            }
        }
        cats.drain(..skip);
        cats.truncate(len);
        (cats.iter().fold(0, |most, &c| most.max(c)) <= 4).then_some(cats)
    }

    /// The DTM symbol of the `i`-th position of a DTM block; `None` past the end or in a WDL
    /// block.
    #[inline]
    #[must_use]
    pub fn symbol(&self, i: usize) -> Option<u32> {
        if self.kind != FileKind::Dtm || i >= self.len {
            return None;
        }
        let mut s = 0u32;
        for plane in 0..(self.width / 8) as usize {
            s |= u32::from(self.bytes[plane * self.len + i]) << (8 * plane);
        }
        Some(s)
    }

    /// The table's index of the block's first position.
    #[must_use]
    pub const fn start(&self) -> usize {
        self.start
    }

    /// The number of positions in the block.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether the block holds no position.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes it takes in memory.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.bytes.len() + std::mem::size_of::<Block>()
    }
}

/// The file under a [`TableFile`]: a descriptor of its own, or one a pool of open files
/// closes and opens again ([`OpenFiles`]).
#[derive(Debug)]
enum Handle {
    Own(fs::File, Identity),
    Pooled(PooledFile),
}

impl Handle {
    fn open(path: &Path, files: Option<&Arc<OpenFiles>>) -> io::Result<Handle> {
        Ok(match files {
            Some(files) => Handle::Pooled(PooledFile::open(files, path)?),
            None => {
                let file = fs::File::open(path)?;
                let identity = Identity::of(&file.metadata()?);
                Handle::Own(file, identity)
            }
        })
    }

    fn identity(&self) -> Identity {
        match self {
            Handle::Own(_, identity) => *identity,
            Handle::Pooled(file) => file.identity(),
        }
    }

    fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        match self {
            Handle::Own(file, _) => read_at(file, buf, offset),
            Handle::Pooled(file) => file.read_exact_at(buf, offset),
        }
    }
}

/// An open table file of either kind: its header read and checked, its blocks read on demand.
#[derive(Debug)]
pub struct TableFile {
    path: PathBuf,
    file: Handle,
    head: Head,
    /// The header's checksum.
    crc: u32,
    /// Where each block starts in the file; one more entry for the end of the last.
    offsets: Vec<u64>,
    crcs: Vec<u32>,
    /// The file's length in bytes.
    length: u64,
}

impl TableFile {
    /// Opens the file of `kind` of the table `id` at `path`: reads and checks the header and
    /// the file's length, not the blocks.
    ///
    /// # Errors
    /// When the file is missing or unreadable, not a table, of another format version, of
    /// another kind, game, variant, rule set or size, truncated, or its header is damaged.
    pub fn open(path: &Path, id: &TableId, kind: FileKind) -> Result<TableFile, TableError> {
        TableFile::open_with(None, path, id, kind)
    }

    /// [`TableFile::open`] with its descriptor in the pool `files`, which keeps a bounded
    /// number open: the file is opened again when it was closed, and never as another file put
    /// at its path since (see [`TableFile::replaced`]).
    ///
    /// # Errors
    /// As [`TableFile::open`].
    pub fn open_in(
        files: &Arc<OpenFiles>,
        path: &Path,
        id: &TableId,
        kind: FileKind,
    ) -> Result<TableFile, TableError> {
        TableFile::open_with(Some(files), path, id, kind)
    }

    fn open_with(
        files: Option<&Arc<OpenFiles>>,
        path: &Path,
        id: &TableId,
        kind: FileKind,
    ) -> Result<TableFile, TableError> {
        let file = Handle::open(path, files).map_err(|e| TableError::io(path, e))?;
        let length = file.identity().len();
        let damaged = |why: String| TableError::damaged(path, why);
        let mut start = [0u8; 16];
        let got = (length as usize).min(16);
        file.read_at(&mut start[..got], 0).map_err(|e| TableError::io(path, e))?;
        if start[..got.min(8)] != MAGIC[..got.min(8)] {
            return Err(damaged("not an endgame table (bad magic)".into()));
        }
        if got < 16 {
            return Err(damaged(format!("truncated: {length} bytes, not even a header")));
        }
        let version = u32::from_le_bytes(start[8..12].try_into().expect("4 bytes"));
        if version != FORMAT_VERSION {
            return Err(TableError::Version { path: path.to_path_buf(), found: version });
        }
        let size = u64::from(u32::from_le_bytes(start[12..16].try_into().expect("4 bytes")));
        if size > length {
            return Err(damaged(format!("truncated: {length} bytes, the header alone has {size}")));
        }
        if !(16 + 4..=MAX_HEADER).contains(&size) {
            return Err(damaged(format!("a header of {size} bytes")));
        }
        let mut bytes = vec![0u8; size as usize];
        file.read_at(&mut bytes, 0).map_err(|e| TableError::io(path, e))?;
        let (body, crc) = bytes.split_at(bytes.len() - 4);
        let crc = u32::from_le_bytes(crc.try_into().expect("4 bytes"));
        if crc32fast::hash(body) != crc {
            return Err(damaged("header checksum mismatch (damaged file)".into()));
        }
        let (head, lengths, crcs) = parse_head(body).map_err(damaged)?;
        if head.id != *id {
            return Err(TableError::Mismatch {
                path: path.to_path_buf(),
                found: Box::new(head.id),
                expected: Box::new(id.clone()),
            });
        }
        if head.kind != kind {
            return Err(damaged(format!("a {} file where its {kind} file was expected", head.kind)));
        }
        let mut offsets = Vec::with_capacity(lengths.len() + 1);
        let mut at = size;
        offsets.push(at);
        for &len in &lengths {
            at += u64::from(len);
            offsets.push(at);
        }
        if at != length {
            return Err(damaged(if at > length {
                format!("truncated: {length} bytes, the header describes {at}")
            } else {
                format!("{} bytes after the last block", length - at)
            }));
        }
        Ok(TableFile { path: path.to_path_buf(), file, head, crc, offsets, crcs, length })
    }

    /// Opens the DTM file at `path` of the table whose WDL file is `wdl`, checking that the
    /// two were written together.
    ///
    /// # Errors
    /// As [`TableFile::open`], and when the DTM file belongs to another WDL file.
    pub fn open_dtm(path: &Path, wdl: &TableFile) -> Result<TableFile, TableError> {
        TableFile::open_dtm_with(None, path, wdl)
    }

    /// [`TableFile::open_dtm`] with its descriptor in the pool `files` (see
    /// [`TableFile::open_in`]).
    ///
    /// # Errors
    /// As [`TableFile::open_dtm`].
    pub fn open_dtm_in(
        files: &Arc<OpenFiles>,
        path: &Path,
        wdl: &TableFile,
    ) -> Result<TableFile, TableError> {
        TableFile::open_dtm_with(Some(files), path, wdl)
    }

    fn open_dtm_with(
        files: Option<&Arc<OpenFiles>>,
        path: &Path,
        wdl: &TableFile,
    ) -> Result<TableFile, TableError> {
        let dtm = TableFile::open_with(files, path, &wdl.head.id, FileKind::Dtm)?;
        if dtm.head.pair != wdl.crc {
            return Err(TableError::damaged(
                path,
                format!(
                    "not the DTM file of {} (the two files were not written together)",
                    wdl.path.display()
                ),
            ));
        }
        Ok(dtm)
    }

    /// The file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the file at its path now is not the one opened: written anew (a generation
    /// renames a new file over the old one), changed in place, or gone. A reader that keeps
    /// table files open across such a change asks this to read the new file rather than the
    /// old (deleted) one.
    ///
    /// # Errors
    /// When the path cannot be examined for another reason than its absence.
    pub fn replaced(&self) -> Result<bool, TableError> {
        let now = match fs::metadata(&self.path) {
            Ok(meta) => Identity::of(&meta),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(true),
            Err(e) => return Err(TableError::io(&self.path, e)),
        };
        Ok(now != self.file.identity())
    }

    /// What the file holds.
    #[must_use]
    pub const fn id(&self) -> &TableId {
        &self.head.id
    }

    /// Which file of the table it is.
    #[must_use]
    pub const fn kind(&self) -> FileKind {
        self.head.kind
    }

    /// The file's length in bytes.
    #[must_use]
    pub const fn file_bytes(&self) -> u64 {
        self.length
    }

    /// The counters of the header (the table's statistics), in the order written.
    #[must_use]
    pub fn counters(&self) -> &[(String, u64)] {
        &self.head.counters
    }

    /// The counter named `name`.
    #[must_use]
    pub fn counter(&self, name: &str) -> Option<u64> {
        self.head.counters.iter().find(|(n, _)| n == name).map(|&(_, v)| v)
    }

    /// Whether the table may hold results by the rule (a WDL file of 4-bit categories).
    #[must_use]
    pub fn has_rule_results(&self) -> bool {
        self.head.kind == FileKind::Wdl && self.head.width == 4
    }

    /// The number of blocks.
    #[must_use]
    pub fn blocks(&self) -> usize {
        self.crcs.len()
    }

    /// The block that holds position `pos` and the position's place in it.
    #[inline]
    #[must_use]
    pub const fn locate(&self, pos: usize) -> (usize, usize) {
        (pos / self.head.block, pos % self.head.block)
    }

    /// Whether a position of category `c` needs its DTM symbol for its value (in a DTM file:
    /// its category has more than one value).
    #[inline]
    #[must_use]
    pub fn needs_symbol(&self, c: Category) -> bool {
        self.head.lists[c.symbol()].len() > 1
    }

    /// The value of a position of category `c` and DTM symbol `symbol` (ignored when the
    /// category needs none), by this DTM file's lists.
    ///
    /// # Errors
    /// When the symbol is beyond the category's list (a damaged file).
    #[inline]
    pub fn value(&self, c: Category, symbol: u32) -> Result<RuleValue, TableError> {
        let list = &self.head.lists[c.symbol()];
        match list.len() {
            0 => Ok(from_entry(c, 0)),
            1 => Ok(from_entry(c, list[0])),
            len => list.get(symbol as usize).map(|&e| from_entry(c, e)).ok_or_else(|| {
                TableError::damaged(&self.path, format!("DTM symbol {symbol} of a {c}: the list has {len}"))
            }),
        }
    }

    /// Reads and checks the compressed bytes of block `b`, decompresses them into a buffer of
    /// at most `capacity` bytes; returns the buffer and the bytes written.
    fn read_compressed(&self, b: usize, capacity: usize) -> Result<(Vec<u8>, usize), TableError> {
        let path = &self.path;
        let (Some(&start), Some(&end)) = (self.offsets.get(b), self.offsets.get(b + 1)) else {
            return Err(TableError::damaged(path, format!("no block {b}")));
        };
        let mut compressed = vec![0u8; (end - start) as usize];
        self.file.read_at(&mut compressed, start).map_err(|e| TableError::io(path, e))?;
        if crc32fast::hash(&compressed) != self.crcs[b] {
            return Err(TableError::damaged(path, format!("block {b}: checksum mismatch (damaged file)")));
        }
        let bytes = decompress(&compressed, capacity)
            .map_err(|e| TableError::damaged(path, format!("block {b}: {e}")))?;
        let written = bytes.len();
        Ok((bytes, written))
    }

    /// The positions of block `b`: the first and how many.
    fn block_range(&self, b: usize) -> (usize, usize) {
        let n = self.head.id.positions as usize;
        let start = b * self.head.block;
        (start, self.head.block.min(n.saturating_sub(start)))
    }

    /// Reads, checks and decompresses block `b` of a WDL file.
    ///
    /// # Errors
    /// When it cannot be read or is damaged, or the file is a DTM file (whose blocks are read
    /// with their WDL block, [`TableFile::read_dtm_block`]).
    pub fn read_block(&self, b: usize) -> Result<Block, TableError> {
        let path = &self.path;
        if self.head.kind != FileKind::Wdl {
            return Err(TableError::damaged(path, "a DTM block is read with its WDL block"));
        }
        if b >= self.blocks() {
            return Err(TableError::damaged(path, format!("no block {b}")));
        }
        let (start, len) = self.block_range(b);
        let expected = (len * self.head.width as usize).div_ceil(8);
        let (bytes, written) = self.read_compressed(b, expected)?;
        if written != expected {
            return Err(TableError::damaged(
                path,
                format!("block {b}: {written} bytes, expected {expected}"),
            ));
        }
        Ok(Block { kind: FileKind::Wdl, width: self.head.width, start, len, bytes: bytes.into_boxed_slice() })
    }

    /// The WDL block (of the table's WDL file) that holds DTM block `b` of this DTM file.
    #[must_use]
    pub const fn wdl_block_of(&self, b: usize, wdl: &TableFile) -> usize {
        b * self.head.block / wdl.head.block
    }

    /// Reads, checks and decompresses block `b` of a DTM file, given the WDL block that holds
    /// its positions (their categories tell which positions have symbols: the file holds the
    /// symbols of each category needing them as a stream, see the module notes).
    ///
    /// # Errors
    /// When it cannot be read or is damaged, `wdl` is not the WDL block that holds it, or the
    /// file is a WDL file.
    pub fn read_dtm_block(&self, b: usize, wdl: &Block) -> Result<Block, TableError> {
        let path = &self.path;
        if self.head.kind != FileKind::Dtm || wdl.kind != FileKind::Wdl {
            return Err(TableError::damaged(path, "a DTM block is read from a DTM file with its WDL block"));
        }
        if b >= self.blocks() {
            return Err(TableError::damaged(path, format!("no block {b}")));
        }
        let (start, len) = self.block_range(b);
        if start < wdl.start || start + len > wdl.start + wdl.len {
            return Err(TableError::damaged(
                path,
                format!("block {b} (positions {start}..{}) is not within the WDL block given", start + len),
            ));
        }
        let at = start - wdl.start;
        let needed: [bool; 5] = std::array::from_fn(|c| self.head.lists[c].len() > 1);
        let cats = wdl.unpack_categories(at, len).ok_or_else(|| {
            TableError::damaged(path, format!("block {b}: its WDL block has a symbol that is no category"))
        })?;
        // Symbols per (category, parity): the streams' parts, in this order. Four positions
        // at a time into four sets of counters (no chain of increments of one counter).
        let mut sets = [[0usize; 10]; 4];
        let mut quads = cats.chunks_exact(4);
        for quad in &mut quads {
            for (k, (&c, set)) in quad.iter().zip(sets.iter_mut()).enumerate() {
                set[2 * c as usize + (k & 1)] += 1;
            }
        }
        for (k, &c) in quads.remainder().iter().enumerate() {
            sets[k][2 * c as usize + (k & 1)] += 1;
        }
        let counts: [usize; 10] =
            std::array::from_fn(
                |part| {
                    if needed[part / 2] { sets.iter().map(|set| set[part]).sum() } else { 0 }
                },
            );
        let n: usize = counts.iter().sum();
        let width = self.head.width as usize / 8;
        // One byte more room than the symbols take: the zero byte appended below (a frame
        // longer than the symbols is refused by the length check all the same).
        let (stream, written) = self.read_compressed(b, n * width + 1)?;
        if written != n * width {
            return Err(TableError::damaged(
                path,
                format!("block {b}: {written} bytes, expected {}", n * width),
            ));
        }
        // Where each (category, parity) part starts; the parts of categories without symbols
        // point at a zero byte past the stream's end and do not move (no branch per position).
        let mut next = [n; 10];
        let mut step = [0usize; 10];
        let mut sum = 0;
        for (part, count) in counts.into_iter().enumerate() {
            if needed[part / 2] {
                (next[part], step[part]) = (sum, 1);
                sum += count;
            }
        }
        let mut bytes = vec![0u8; len * width].into_boxed_slice();
        let mut stream = stream;
        for plane in 0..width {
            // This plane's symbols, then the zero byte of the parts without symbols.
            let stream = if width == 1 {
                stream.push(0);
                &stream[..]
            } else {
                &[&stream[plane * n..(plane + 1) * n], &[0][..]].concat()[..]
            };
            let mut next = next;
            let out = &mut bytes[plane * len..(plane + 1) * len];
            for (i, (&c, out)) in cats.iter().zip(out.iter_mut()).enumerate() {
                let part = 2 * c as usize + (i & 1);
                *out = stream[next[part]];
                next[part] += step[part];
            }
        }
        Ok(Block { kind: FileKind::Dtm, width: self.head.width, start, len, bytes })
    }

    /// Reads every block (in parallel) and checks its checksum and that it decompresses (a WDL
    /// block to its size; a DTM block, whose size its WDL block tells, within its largest):
    /// [`TableFiles::verify`] checks a table's two files in full.
    ///
    /// # Errors
    /// The first damaged block.
    pub fn verify(&self) -> Result<(), TableError> {
        (0..self.blocks()).into_par_iter().try_for_each(|b| match self.head.kind {
            FileKind::Wdl => self.read_block(b).map(drop),
            FileKind::Dtm => {
                let (_, len) = self.block_range(b);
                self.read_compressed(b, len * self.head.width as usize / 8).map(drop)
            }
        })
    }

    fn read_all(&self) -> Result<Vec<Block>, TableError> {
        (0..self.blocks()).into_par_iter().map(|b| self.read_block(b)).collect()
    }

    /// Every DTM block of this DTM file, read with the WDL blocks `wdl` of its WDL file `of`.
    fn read_all_dtm(&self, of: &TableFile, wdl: &[Block]) -> Result<Vec<Block>, TableError> {
        (0..self.blocks())
            .into_par_iter()
            .map(|b| {
                let w = wdl.get(self.wdl_block_of(b, of)).ok_or_else(|| {
                    TableError::damaged(&self.path, format!("block {b}: no WDL block holds it"))
                })?;
                self.read_dtm_block(b, w)
            })
            .collect()
    }
}

/// A table's two files, open.
#[derive(Debug)]
pub struct TableFiles {
    /// The WDL file.
    pub wdl: TableFile,
    /// The DTM file.
    pub dtm: TableFile,
}

impl TableFiles {
    /// Opens both files of table `id` (see [`TableFile::open`], [`TableFile::open_dtm`]).
    ///
    /// # Errors
    /// When either cannot be opened, or they were not written together.
    pub fn open(paths: TablePaths<'_>, id: &TableId) -> Result<TableFiles, TableError> {
        let wdl = TableFile::open(paths.wdl, id, FileKind::Wdl)?;
        let dtm = TableFile::open_dtm(paths.dtm, &wdl)?;
        Ok(TableFiles { wdl, dtm })
    }

    /// Reads every block of both files and checks it.
    ///
    /// # Errors
    /// The first damaged block.
    pub fn verify(&self) -> Result<(), TableError> {
        self.dtm.verify()?;
        let wdl = self.wdl.read_all()?;
        self.dtm.read_all_dtm(&self.wdl, &wdl).map(drop)
    }

    /// Calls `f` with the value function of the whole table read into memory (both files'
    /// blocks decompressed: a quarter or half byte per position, and 1, 2 or 4 bytes where
    /// the DTM file has symbols). Holes have some value (see the module notes).
    fn with_values<T>(
        &self,
        f: impl FnOnce(&(dyn Fn(usize) -> Option<RuleValue> + Sync)) -> Result<T, SolveError>,
    ) -> Result<T, TableError> {
        let wdl = self.wdl.read_all()?;
        let dtm = self.dtm.read_all_dtm(&self.wdl, &wdl)?;
        let bad = std::sync::atomic::AtomicBool::new(false);
        let value = |p: usize| {
            let (b, i) = self.wdl.locate(p);
            let Some(c) = wdl.get(b).and_then(|block| block.category(i)) else {
                bad.store(true, Ordering::Relaxed);
                return None;
            };
            let symbol = if self.dtm.needs_symbol(c) {
                let (b, i) = self.dtm.locate(p);
                dtm.get(b).and_then(|block| block.symbol(i)).unwrap_or(u32::MAX)
            } else {
                0
            };
            self.dtm.value(c, symbol).map_err(|_| bad.store(true, Ordering::Relaxed)).ok()
        };
        let result = f(&value).map_err(|e| TableError::damaged(&self.dtm.path, e.to_string()))?;
        if bad.load(Ordering::Relaxed) {
            return Err(TableError::damaged(&self.wdl.path, "a category or DTM symbol out of range"));
        }
        Ok(result)
    }

    /// Reads the whole table into memory as a solution under a ban on perpetual play. The
    /// values of holes are whatever the writer chose (see the module notes); the indices
    /// `is_hole` names read as `None`. The solution has no rounds (see
    /// [`RuleSolution::from_values`]).
    ///
    /// # Errors
    /// When a block is damaged.
    pub fn read_rule_solution_with(
        &self,
        is_hole: impl Fn(usize) -> bool + Sync,
    ) -> Result<RuleSolution, TableError> {
        let n = self.wdl.head.id.positions as usize;
        self.read_rule_solution_at(n, |p| (!is_hole(p)).then_some(p))
    }

    /// [`TableFiles::read_rule_solution_with`] of a table of `n` positions whose values the
    /// files hold in another order: position `p`'s value is the files' value at `at(p)`, and
    /// `None` is a hole.
    ///
    /// # Errors
    /// When a block is damaged, or `at` names a position past the files' end (read as damaged).
    pub fn read_rule_solution_at(
        &self,
        n: usize,
        at: impl Fn(usize) -> Option<usize> + Sync,
    ) -> Result<RuleSolution, TableError> {
        self.with_values(|value| RuleSolution::from_values(n, |p| at(p).and_then(value)))
    }

    /// Reads the whole table into memory as a solution of the plain game (results by the rule
    /// are endless draws; holes as [`TableFiles::read_rule_solution_with`] says), in 1-byte
    /// cells.
    ///
    /// # Errors
    /// When a block is damaged.
    pub fn read_solution_with(&self, is_hole: impl Fn(usize) -> bool + Sync) -> Result<Solution, TableError> {
        let n = self.wdl.head.id.positions as usize;
        self.read_solution_at(n, |p| (!is_hole(p)).then_some(p))
    }

    /// Reads the whole table into memory as [`TableFiles::read_solution_with`] does, every
    /// index with the value the files hold for it, holes included (whatever the writer chose
    /// for them, see the module notes): for readers that never ask for a hole, such as the
    /// captures of a generation. A WDL block at a time, its categories and symbols decoded in
    /// one pass (several times faster than a value looked up per position).
    ///
    /// # Errors
    /// When a block is damaged.
    pub fn read_solution_as_stored(&self) -> Result<Solution, TableError> {
        let n = self.wdl.head.id.positions as usize;
        let (wdl_block, dtm_block) = (self.wdl.head.block, self.dtm.head.block);
        let has_dtm = self.dtm.blocks() > 0;
        if has_dtm && (dtm_block > wdl_block || wdl_block % dtm_block != 0) {
            return Err(TableError::damaged(&self.dtm.path, "DTM blocks that do not divide the WDL blocks"));
        }
        // Per category: its values by symbol (one value when it needs no symbol).
        let lists: [Vec<Option<Value>>; 5] = std::array::from_fn(|c| {
            let category = Category::from_symbol(c as u8).expect("five categories");
            match self.dtm.head.lists[c].as_slice() {
                [] => vec![Some(from_entry(category, 0).plain())],
                list => list.iter().map(|&e| Some(from_entry(category, e).plain())).collect(),
            }
        });
        let needed: [bool; 5] = std::array::from_fn(|c| lists[c].len() > 1);
        let damaged = |why: &str| TableError::damaged(&self.wdl.path, why);
        Solution::from_ranges_bytes(
            n,
            wdl_block,
            |range, out| {
                let b = range.start / wdl_block;
                let wdl = self.wdl.read_block(b)?;
                let cats = wdl
                    .unpack_categories(0, wdl.len)
                    .ok_or_else(|| damaged("a symbol that is no category"))?;
                if cats.len() != range.len() {
                    return Err(damaged("a block of the wrong length"));
                }
                if !has_dtm {
                    if needed.iter().any(|&n| n) {
                        return Err(damaged("values that need a DTM file without blocks"));
                    }
                    for &c in &cats {
                        out.push(lists[c as usize][0]);
                    }
                    return Ok(());
                }
                for (d, cats) in (range.start / dtm_block..).zip(cats.chunks(dtm_block)) {
                    let dtm = self.dtm.read_dtm_block(d, &wdl)?;
                    if dtm.len != cats.len() {
                        return Err(TableError::damaged(
                            &self.dtm.path,
                            format!("block {d} of the wrong length"),
                        ));
                    }
                    for (i, &c) in cats.iter().enumerate() {
                        let c = c as usize;
                        let symbol = if needed[c] { dtm.symbol(i).unwrap_or(u32::MAX) as usize } else { 0 };
                        let value = lists[c].get(symbol).ok_or_else(|| {
                            TableError::damaged(&self.dtm.path, "a DTM symbol beyond its category's list")
                        })?;
                        out.push(*value);
                    }
                }
                Ok(())
            },
            |e| TableError::damaged(&self.dtm.path, e.to_string()),
        )
    }

    /// [`TableFiles::read_solution_with`] of a table of `n` positions whose values the files
    /// hold in another order, as [`TableFiles::read_rule_solution_at`] says.
    ///
    /// # Errors
    /// When a block is damaged, or `at` names a position past the files' end (read as damaged).
    pub fn read_solution_at(
        &self,
        n: usize,
        at: impl Fn(usize) -> Option<usize> + Sync,
    ) -> Result<Solution, TableError> {
        self.with_values(|value| Solution::from_fn_bytes(n, |p| at(p).and_then(value).map(RuleValue::plain)))
    }
}

/// Parses a header's body (checksum checked): the header, block lengths and CRCs.
fn parse_head(bytes: &[u8]) -> Result<(Head, Vec<u32>, Vec<u32>), String> {
    let short = |_| "truncated header".to_string();
    let mut r = Cursor { bytes, at: 16 };
    let kind = match r.u8().map_err(short)? {
        1 => FileKind::Wdl,
        2 => FileKind::Dtm,
        k => return Err(format!("bad file kind {k}")),
    };
    let mut names = Vec::new();
    for _ in 0..3 {
        let len = r.u16().map_err(short)? as usize;
        let name =
            String::from_utf8(r.take(len).map_err(short)?.to_vec()).map_err(|_| "a name is not UTF-8")?;
        names.push(name);
    }
    let positions = r.u64().map_err(short)?;
    let [game, variant, rules] = <[String; 3]>::try_from(names).expect("three names");
    let id = TableId { game, variant, rules, positions };
    let width = r.u8().map_err(short)?;
    let block = r.u32().map_err(short)? as usize;
    let blocks = r.u32().map_err(short)? as usize;
    let pair = r.u32().map_err(short)?;
    let widths: &[u8] = if kind == FileKind::Wdl { &[2, 4] } else { &[0, 8, 16, 32] };
    if !widths.contains(&width) {
        return Err(format!("bad width {width} of a {kind} file"));
    }
    if !block.is_power_of_two() || !(1 << 8..=1 << 22).contains(&block) {
        return Err(format!("blocks of {block} positions"));
    }
    let n = usize::try_from(positions).map_err(|_| "too many positions for this machine".to_string())?;
    let expected = if width == 0 { 0 } else { n.div_ceil(block) };
    if blocks != expected {
        return Err(format!("{blocks} blocks of {block} positions do not hold {n} positions"));
    }
    let count = r.u16().map_err(short)?;
    let mut counters = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let len = r.u8().map_err(short)? as usize;
        let name = String::from_utf8(r.take(len).map_err(short)?.to_vec())
            .map_err(|_| "a counter's name is not UTF-8")?;
        counters.push((name, r.u64().map_err(short)?));
    }
    let mut lists: [Vec<u32>; 5] = Default::default();
    if kind == FileKind::Dtm {
        for list in &mut lists {
            let len = r.u32().map_err(short)? as usize;
            // Bounded by the header's size, read already.
            let raw = r.take(len.checked_mul(4).ok_or_else(|| short(Short))?).map_err(short)?;
            *list = raw.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes"))).collect();
        }
        let longest = lists.iter().map(Vec::len).max().unwrap_or(0);
        let fits = match width {
            0 => longest <= 1,
            8 => longest <= 1 << 8,
            16 => longest <= 1 << 16,
            _ => true,
        };
        if !fits {
            return Err(format!("{longest} values do not fit DTM symbols of {width} bits"));
        }
    }
    let raw = r.take(blocks.checked_mul(8).ok_or_else(|| short(Short))?).map_err(short)?;
    let (lengths, crcs) = raw
        .chunks_exact(8)
        .map(|c| {
            (
                u32::from_le_bytes(c[..4].try_into().expect("4 bytes")),
                u32::from_le_bytes(c[4..].try_into().expect("4 bytes")),
            )
        })
        .unzip();
    if r.at != bytes.len() {
        return Err(format!("{} bytes of header left over", bytes.len() - r.at));
    }
    Ok((Head { kind, id, width, block, blocks, pair, counters, lists }, lengths, crcs))
}

/// A cursor over bytes that reports truncation (the headers of this format and of
/// [`crate::table_v2`]).
pub(crate) struct Cursor<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) at: usize,
}

/// The header ended before a field did.
#[derive(Debug)]
pub(crate) struct Short;

impl<'a> Cursor<'a> {
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], Short> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or(Short)?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    pub(crate) fn u8(&mut self) -> Result<u8, Short> {
        Ok(self.take(1)?[0])
    }

    pub(crate) fn u16(&mut self) -> Result<u16, Short> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().expect("2 bytes")))
    }

    pub(crate) fn u32(&mut self) -> Result<u32, Short> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }

    pub(crate) fn u64(&mut self) -> Result<u64, Short> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
}

/// Fills `buf` from `file` at `offset`, without moving a shared cursor.
#[cfg(unix)]
pub(crate) fn read_at(file: &fs::File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

/// Fills `buf` from `file` at `offset`, without moving a shared cursor.
#[cfg(windows)]
pub(crate) fn read_at(file: &fs::File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, offset)? {
            0 => return Err(io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
        }
    }
    Ok(())
}

/// A block of one table file: the key of [`BlockCache`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockKey {
    /// A number the cache's user gives each table file (unique among the files sharing the
    /// cache).
    pub table: u32,
    /// The block within the file.
    pub block: u32,
}

const SHARDS: usize = 16;

/// A hasher for keys that no client chooses (the block cache's table numbers and blocks, a
/// store's materials): a multiply per word written, where SipHash took a few per cent of a
/// warm probe. Build maps with [`KeyHash`].
#[derive(Default)]
pub struct KeyHasher(u64);

/// The [`std::hash::BuildHasher`] of [`KeyHasher`].
pub type KeyHash = std::hash::BuildHasherDefault<KeyHasher>;

impl std::hash::Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(26) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }

    fn finish(&self) -> u64 {
        // The multiply leaves its best bits at the top; a map picks buckets by the lowest.
        self.0.rotate_left(26)
    }
}

/// Decompressed blocks kept in memory, within a budget of bytes: a least-recently-used cache,
/// split into shards (each with its own lock and a sixteenth of the budget) so that many
/// threads probe at once. A block larger than a shard's budget is handed out but not kept.
pub struct BlockCache {
    shards: Vec<Mutex<Shard>>,
    budget: usize,
}

struct Shard {
    blocks: lru::LruCache<BlockKey, Arc<Block>, KeyHash>,
    bytes: usize,
    budget: usize,
}

impl fmt::Debug for BlockCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BlockCache").field("budget", &self.budget).field("bytes", &self.bytes()).finish()
    }
}

impl BlockCache {
    /// An empty cache that keeps at most `budget` bytes of blocks.
    #[must_use]
    pub fn new(budget: usize) -> BlockCache {
        let shards = (0..SHARDS)
            .map(|_| {
                let blocks = lru::LruCache::unbounded_with_hasher(KeyHash::default());
                Mutex::new(Shard { blocks, bytes: 0, budget: budget / SHARDS })
            })
            .collect();
        BlockCache { shards, budget }
    }

    /// The budget in bytes.
    #[must_use]
    pub const fn budget(&self) -> usize {
        self.budget
    }

    /// The bytes of the blocks kept now.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.shards.iter().map(|s| s.lock().unwrap_or_else(std::sync::PoisonError::into_inner).bytes).sum()
    }

    fn shard(&self, key: BlockKey) -> &Mutex<Shard> {
        // A multiplicative mix of the two numbers (the cache's user gives them, a probe only
        // chooses among a table's blocks: no keyed hash needed), its top bits the shard.
        const _: () = assert!(SHARDS == 16, "the top 4 bits pick the shard");
        let mixed = (u64::from(key.table) << 32 | u64::from(key.block)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        &self.shards[(mixed >> 60) as usize]
    }

    /// The block of `key`, loaded with `load` when it is not kept (the lock is not held while
    /// loading: two threads may load one block at once, and both get a correct block).
    ///
    /// # Errors
    /// What `load` returns.
    pub fn get_or_load<E>(
        &self,
        key: BlockKey,
        load: impl FnOnce() -> Result<Block, E>,
    ) -> Result<Arc<Block>, E> {
        let shard = self.shard(key);
        if let Some(block) = shard.lock().unwrap_or_else(std::sync::PoisonError::into_inner).blocks.get(&key)
        {
            return Ok(Arc::clone(block));
        }
        let block = Arc::new(load()?);
        let mut s = shard.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let size = block.bytes();
        if size <= s.budget && !s.blocks.contains(&key) {
            s.bytes += size;
            s.blocks.put(key, Arc::clone(&block));
            while s.bytes > s.budget {
                let Some((_, old)) = s.blocks.pop_lru() else { break };
                s.bytes -= old.bytes();
            }
        }
        Ok(block)
    }

    /// Drops every block of table file `table` (when its file is replaced).
    pub fn forget_table(&self, table: u32) {
        for shard in &self.shards {
            let mut s = shard.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let keys: Vec<BlockKey> = s.blocks.iter().map(|(k, _)| *k).filter(|k| k.table == table).collect();
            for k in keys {
                if let Some(old) = s.blocks.pop(&k) {
                    s.bytes -= old.bytes();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn id(positions: u64) -> TableId {
        TableId { game: "test".into(), variant: "KvK".into(), rules: "standard".into(), positions }
    }

    /// A fresh directory for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("endgame-tf-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    struct Pair {
        wdl: PathBuf,
        dtm: PathBuf,
    }

    impl Pair {
        fn new(dir: &Path, name: &str) -> Pair {
            Pair { wdl: dir.join(format!("{name}.wdl")), dtm: dir.join(format!("{name}.dtm")) }
        }

        fn paths(&self) -> TablePaths<'_> {
            TablePaths { wdl: &self.wdl, dtm: &self.dtm }
        }
    }

    /// [`round_trip_with`] the normal compression.
    fn round_trip(dir: &Path, values: &[Option<RuleValue>]) -> (u64, u64) {
        round_trip_with(dir, values, Compression::Normal)
    }

    /// Writes `values` and checks that every value that is not a hole reads back, whole and
    /// block by block; returns the files' sizes.
    fn round_trip_with(dir: &Path, values: &[Option<RuleValue>], compression: Compression) -> (u64, u64) {
        let pair = Pair::new(dir, "t");
        let id = id(values.len() as u64);
        let counters = vec![("positions".to_string(), values.len() as u64), ("x".to_string(), u64::MAX)];
        write_tables(pair.paths(), &id, &counters, compression, |r, out| {
            out.extend(values[r].iter().copied())
        })
        .unwrap();
        let files = TableFiles::open(pair.paths(), &id).unwrap();
        files.verify().unwrap();
        assert_eq!(files.wdl.counters(), &counters[..]);
        assert_eq!(files.wdl.counter("x"), Some(u64::MAX));
        let whole = files.read_rule_solution_with(|p| values[p].is_none()).unwrap();
        for (p, v) in values.iter().enumerate() {
            assert_eq!(whole.value(p), *v, "position {p}");
        }
        let plain = files.read_solution_with(|p| values[p].is_none()).unwrap();
        for (p, v) in values.iter().enumerate() {
            assert_eq!(plain.value(p), v.map(RuleValue::plain), "position {p}");
        }
        // A block at a time, holes as stored: as the value looked up at each index.
        let stored = files.read_solution_as_stored().unwrap();
        let looked_up = files.read_solution_at(values.len(), Some).unwrap();
        assert_eq!(stored.len(), values.len());
        for (p, v) in values.iter().enumerate() {
            assert_eq!(stored.value(p), looked_up.value(p), "position {p}");
            if let Some(v) = v {
                assert_eq!(stored.value(p), Some(v.plain()), "position {p}");
            }
        }
        // Block by block, as a probe reads them.
        let wdl: Vec<Block> = (0..files.wdl.blocks()).map(|b| files.wdl.read_block(b).unwrap()).collect();
        let dtm: Vec<Block> = (0..files.dtm.blocks())
            .map(|b| files.dtm.read_dtm_block(b, &wdl[files.dtm.wdl_block_of(b, &files.wdl)]).unwrap())
            .collect();
        for (p, v) in values.iter().enumerate() {
            let Some(v) = *v else { continue };
            let (b, i) = files.wdl.locate(p);
            let c = wdl[b].category(i).unwrap();
            assert_eq!(c, Category::of(v));
            let symbol = if files.dtm.needs_symbol(c) {
                let (b, i) = files.dtm.locate(p);
                dtm[b].symbol(i).unwrap()
            } else {
                0
            };
            assert_eq!(files.dtm.value(c, symbol).unwrap(), v, "position {p}");
        }
        (files.wdl.file_bytes(), files.dtm.file_bytes())
    }

    fn any_value() -> impl Strategy<Value = Option<RuleValue>> {
        prop_oneof![
            3 => Just(None),
            2 => Just(Some(RuleValue::Draw(None))),
            1 => (0u32..5).prop_map(|d| Some(RuleValue::Draw(Some(Plies(d))))),
            3 => (0u32..300).prop_map(|d| Some(RuleValue::Win(Plies(d)))),
            3 => (0u32..300).prop_map(|d| Some(RuleValue::Loss(Plies(d)))),
            1 => (any_ban(), 0u32..40).prop_map(|(b, r)| Some(RuleValue::WinByRule(b, r))),
            1 => (any_ban(), 0u32..40).prop_map(|(b, r)| Some(RuleValue::LossByRule(b, r))),
            1 => (any_ban(), 0u32..(1 << 29)).prop_map(|(b, r)| Some(RuleValue::LossByRule(b, r))),
        ]
    }

    fn any_ban() -> impl Strategy<Value = Ban> {
        prop_oneof![Just(Ban::Check), Just(Ban::Chase)]
    }

    /// Adversarial patterns: runs, one value, holes only, values alternating with holes.
    fn patterned() -> impl Strategy<Value = Vec<Option<RuleValue>>> {
        (any_value(), any_value(), 1usize..50, 0usize..3000)
            .prop_map(|(a, b, run, n)| (0..n).map(|i| if (i / run) % 2 == 0 { a } else { b }).collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn every_value_round_trips(
            values in prop::collection::vec(any_value(), 0..3000),
            compression in prop_oneof![Just(Compression::Normal), Just(Compression::Best)],
        ) {
            let dir = scratch(&format!("prop-{}", crc32fast::hash(format!("{values:?}").as_bytes())));
            round_trip_with(&dir, &values, compression);
            fs::remove_dir_all(&dir).unwrap();
        }

        #[test]
        fn patterns_round_trip(values in patterned()) {
            let dir = scratch(&format!("pattern-{}", crc32fast::hash(format!("{values:?}").as_bytes())));
            round_trip(&dir, &values);
            fs::remove_dir_all(&dir).unwrap();
        }
    }

    /// Positions, their values, the DTM file's width.
    type Case = (usize, fn(usize) -> Option<RuleValue>, u8);

    #[test]
    fn every_symbol_width_round_trips_across_blocks() {
        let dir = scratch("widths");
        // DTM symbols of 0 (one value per category), 8, 16 and 32 bits; several blocks.
        let cases: [Case; 5] = [
            (300_000, |p| if p % 3 == 0 { None } else { Some(RuleValue::Draw(None)) }, 0),
            (
                200_000,
                |p| Some(if p % 2 == 0 { RuleValue::Win(Plies(1)) } else { RuleValue::Loss(Plies(0)) }),
                0,
            ),
            (300_000, |p| (p % 7 != 0).then_some(RuleValue::Win(Plies((p % 255) as u32))), 8),
            (150_000, |p| Some(RuleValue::Loss(Plies((p % 20_000) as u32))), 16),
            (
                140_000,
                |p| {
                    Some(RuleValue::WinByRule(if p % 3 == 0 { Ban::Chase } else { Ban::Check }, p as u32 / 2))
                },
                32,
            ),
        ];
        for (n, f, width) in cases {
            let values: Vec<_> = (0..n).map(f).collect();
            for compression in [Compression::Normal, Compression::Best] {
                round_trip_with(&dir, &values, compression);
                let files = TableFiles::open(Pair::new(&dir, "t").paths(), &id(n as u64)).unwrap();
                assert_eq!(files.dtm.head.width, width, "{n}");
                let dtm_blocks = if width == 0 { 0 } else { n.div_ceil(compression.dtm_block()) };
                assert_eq!(files.dtm.blocks(), dtm_blocks, "{n} {compression:?}");
                assert_eq!(files.wdl.blocks(), n.div_ceil(WDL_BLOCK));
            }
        }
        // Nothing is left under temporary names.
        let left: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert!(left.iter().all(|n| !n.to_string_lossy().ends_with(".tmp")), "{left:?}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn frequent_values_get_small_symbols_and_holes_cost_little() {
        let dir = scratch("remap");
        let n = 1 << 18;
        // Distances 100-199, mostly 150: one byte per symbol, 150 the first of the list.
        let values: Vec<_> = (0..n)
            .map(|p: usize| {
                let h = p.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
                let d = if h.is_multiple_of(5) { 100 + (h / 5 % 100) } else { 150 };
                Some(RuleValue::Win(Plies(d as u32)))
            })
            .collect();
        round_trip(&dir, &values);
        let files = TableFiles::open(Pair::new(&dir, "t").paths(), &id(n as u64)).unwrap();
        assert_eq!(files.dtm.head.lists[Category::Win.symbol()][0], 150);
        // The same values with scattered holes: the holes take a category without DTM
        // symbols (draw), so the DTM file holds the values' symbols only: smaller than with the
        // holes given the previous value (as the WDL file would have them cheapest).
        let hole = |p: usize| (p.wrapping_mul(2_654_435_761) >> 7) % 7 < 3;
        let holed: Vec<_> = values.iter().enumerate().map(|(p, v)| if hole(p) { None } else { *v }).collect();
        let (_, dtm) = round_trip(&dir, &holed);
        let mut last = values[0];
        let previous: Vec<_> = values
            .iter()
            .enumerate()
            .map(|(p, v)| {
                if !hole(p) {
                    last = *v;
                }
                last
            })
            .collect();
        let (_, dtm_previous) = round_trip(&dir, &previous);
        assert!(dtm < dtm_previous, "{dtm} vs {dtm_previous}");
        // Without holes, the same DTM file as the holed values' (the holes' symbols cost nothing).
        let drawn: Vec<_> = values
            .iter()
            .enumerate()
            .map(|(p, v)| if hole(p) { Some(RuleValue::Draw(None)) } else { *v })
            .collect();
        let (_, dtm_drawn) = round_trip(&dir, &drawn);
        assert!(dtm.abs_diff(dtm_drawn) <= 4, "{dtm} vs {dtm_drawn}"); // the draws' list: 4 bytes
        fs::remove_dir_all(&dir).unwrap();
    }

    fn open_err(pair: &Pair, id: &TableId) -> String {
        TableFiles::open(pair.paths(), id).and_then(|f| f.verify()).unwrap_err().to_string()
    }

    #[test]
    fn damaged_truncated_and_mismatched_files_are_refused() {
        let dir = scratch("damage");
        let n = 200_000;
        let values: Vec<_> =
            (0..n).map(|p| (p % 3 != 0).then_some(RuleValue::Win(Plies((p % 90) as u32)))).collect();
        let pair = Pair::new(&dir, "t");
        round_trip(&dir, &values);
        let good = (fs::read(&pair.wdl).unwrap(), fs::read(&pair.dtm).unwrap());
        let id = id(n as u64);
        let restore = || {
            fs::write(&pair.wdl, &good.0).unwrap();
            fs::write(&pair.dtm, &good.1).unwrap();
        };
        for (file, bytes) in [(&pair.wdl, &good.0), (&pair.dtm, &good.1)] {
            // A byte of a block.
            let mut flipped = bytes.clone();
            let last = flipped.len() - 10;
            flipped[last] ^= 0x40;
            fs::write(file, &flipped).unwrap();
            let e = open_err(&pair, &id);
            assert!(
                e.contains("checksum mismatch (damaged file)") && e.contains(&file.display().to_string()),
                "{e}"
            );
            restore();
            // A byte of the header.
            let mut header = bytes.clone();
            header[20] ^= 0x01;
            fs::write(file, &header).unwrap();
            let e = open_err(&pair, &id);
            assert!(e.contains("header checksum mismatch"), "{e}");
            restore();
            // Truncated, longer.
            fs::write(file, &bytes[..bytes.len() - 3]).unwrap();
            assert!(open_err(&pair, &id).contains("truncated"));
            fs::write(file, &bytes[..30]).unwrap();
            assert!(open_err(&pair, &id).contains("truncated"));
            fs::write(file, &bytes[..5]).unwrap();
            assert!(open_err(&pair, &id).contains("truncated"));
            let mut longer = bytes.clone();
            longer.push(0);
            fs::write(file, &longer).unwrap();
            assert!(open_err(&pair, &id).contains("1 bytes after the last block"));
            fs::write(file, b"PK\x03\x04 not a table").unwrap();
            assert!(open_err(&pair, &id).contains("bad magic"));
            restore();
        }
        // Another table, another rule set, the files swapped.
        let e = open_err(&pair, &TableId { rules: "hdu".into(), ..id.clone() });
        assert!(
            e.contains("holds test KvK under rules standard")
                && e.contains("expected test KvK under rules hdu"),
            "{e}"
        );
        let swapped = Pair { wdl: pair.dtm.clone(), dtm: pair.wdl.clone() };
        assert!(open_err(&swapped, &id).contains("a DTM file where its WDL file was expected"));
        // A DTM file of another generation of the table.
        let other = Pair::new(&dir, "u");
        let changed: Vec<_> = values.iter().map(|v| v.map(|_| RuleValue::Loss(Plies(4)))).collect();
        write_tables(other.paths(), &id, &[], Compression::Normal, |r, out| {
            out.extend(changed[r].iter().copied())
        })
        .unwrap();
        let mixed = Pair { wdl: pair.wdl.clone(), dtm: other.dtm.clone() };
        let e = open_err(&mixed, &id);
        assert!(e.contains("not the DTM file of") && e.contains("not written together"), "{e}");
        // Version 2: refused, the message says it converts.
        let v2 = dir.join("v2.egtb");
        crate::table_v2::write_v2(&v2, &id, false, |p| values[p]).unwrap();
        let e = TableFile::open(&v2, &id, FileKind::Wdl).unwrap_err();
        assert!(e.needs_conversion());
        assert!(
            e.to_string().contains("format version 2, this program reads version 3 (version 2 files convert"),
            "{e}"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn unwritable_values_leave_nothing_behind() {
        let dir = scratch("unwritable");
        let pair = Pair::new(&dir, "t");
        let values = [Some(RuleValue::Win(Plies(3))), Some(RuleValue::Draw(Some(Plies(u32::MAX))))];
        let e = write_tables(pair.paths(), &id(2), &[], Compression::Normal, |r, out| {
            out.extend(values[r].iter().copied())
        })
        .unwrap_err();
        assert!(matches!(e, TableError::Unwritable { .. }) && e.to_string().contains("position 1"), "{e}");
        // A fill that gives too few values.
        let e = write_tables(pair.paths(), &id(10), &[], Compression::Normal, |_, out| out.push(None))
            .unwrap_err();
        assert!(e.to_string().contains("1 values, expected 10"), "{e}");
        let left: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert!(left.is_empty(), "{left:?}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_cache_keeps_its_budget_and_serves_right_blocks() {
        let dir = scratch("cache");
        let n = 300_000;
        let values: Vec<_> = (0..n).map(|p| Some(RuleValue::Win(Plies((p % 50) as u32)))).collect();
        round_trip(&dir, &values);
        let files = TableFiles::open(Pair::new(&dir, "t").paths(), &id(n as u64)).unwrap();
        // Room for about three DTM blocks per shard at most.
        let cache = BlockCache::new(SHARDS * 3 * (DTM_BLOCK + 100));
        for round in 0..3 {
            for p in (0..n).step_by(331 + round) {
                let (b, i) = files.dtm.locate(p);
                let key = BlockKey { table: 7, block: b as u32 };
                let wdl = files.wdl.read_block(files.dtm.wdl_block_of(b, &files.wdl)).unwrap();
                let block = cache.get_or_load(key, || files.dtm.read_dtm_block(b, &wdl)).unwrap();
                assert_eq!(
                    files.dtm.value(Category::Win, block.symbol(i).unwrap()).unwrap(),
                    values[p].unwrap()
                );
                assert!(cache.bytes() <= cache.budget());
            }
        }
        assert!(cache.bytes() > 0);
        cache.forget_table(7);
        assert_eq!(cache.bytes(), 0);
        fs::remove_dir_all(&dir).unwrap();
    }
}
