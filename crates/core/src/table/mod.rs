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
//! [`v2`]) are refused with [`TableError::Version`]; they convert without solving.
//!
//! [`TableFile`] opens a file by reading its header only and reads a block with one positioned
//! read (`pread`), checking its CRC before decompressing it; [`BlockCache`] keeps decompressed
//! blocks within a budget of bytes. The reader allocates only what the header, checked against
//! the expected table and the file's length, describes: a damaged file is refused, not trusted.
//!
//! Files are written to temporary names unique to the machine, process and call, synced, the
//! DTM file renamed into place, then the WDL file, and the directory synced: a crash never
//! leaves a partial file under a real name, and a WDL file is only there with its DTM file.
//!
//! # Rooms
//!
//! This file holds the format's vocabulary ([`TableId`], [`FileKind`], [`Category`],
//! [`Compression`], [`TableError`]); `header` a header's fields, bytes and parsing; `write`
//! the writer ([`write_tables`]); `atomic` temporary names and renames; `block` a
//! decompressed [`Block`] and its decoding; `read` an open [`TableFile`]; `cache` the
//! [`BlockCache`]; `pair` a table's two files together ([`TableFiles`], [`Pair`]) and the
//! solvers' side of the format (solutions written and read back): the only room that knows
//! the solvers' types. [`v2`] reads the previous format; [`open_files`] keeps a bounded pool
//! of open descriptors.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use crate::value::{Ban, Plies, RuleValue, Wdl};

mod atomic;
mod block;
mod cache;
mod header;
pub mod open_files;
mod pair;
mod read;
#[cfg(test)]
mod tests;
pub mod v2;
mod write;

pub use atomic::{TablePaths, host_tag, move_tables, temporary_name, writer_alive};
pub use block::Block;
pub use cache::{BlockCache, BlockKey, KeyHash, KeyHasher};
pub use pair::{Pair, TableFiles, write_rule_solution, write_solution};
pub use read::TableFile;
pub use write::write_tables;

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
