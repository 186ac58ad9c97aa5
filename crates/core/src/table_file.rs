//! Table files: a solved game's values on disk, compact, checked, written atomically and read
//! one block at a time.
//!
//! # Format (version 2, all integers little-endian)
//!
//! ```text
//! magic        8 bytes  "ENDGMTB\0"
//! version      u32      2
//! game         u16 length + UTF-8    e.g. "xiangqi"
//! variant      u16 length + UTF-8    e.g. "KNvK" (a material)
//! rules        u16 length + UTF-8    e.g. "standard"
//! positions    u64      size of the index (holes included)
//! width        u8       bytes per position code: 1, 2 or 4; plus 128 for rule codes
//! block        u32      positions per block (4096)
//! blocks       u32      number of blocks
//! index        blocks x (compressed length u32, CRC-32 of the compressed bytes u32)
//! header crc   u32      CRC-32 of everything above
//! data         the blocks, each LZ4-compressed (lz4_flex block format, size prepended)
//! ```
//!
//! A position's code: 0 a hole, 1 a draw by endless play, and `2 + 3 d + k` for distance `d`
//! with `k` = 0 win, 1 loss, 2 draw that ends. The width is the smallest of 1, 2 and 4 bytes
//! that holds the largest code of the table: 1 byte while every win and loss is within 84 plies
//! and every draw that ends within 83.
//!
//! *Rule codes* (the width byte's bit 128 set; tables solved under the ban on perpetual check,
//! [`crate::perpetual`]): 0 a hole, 1 a draw by endless play, and `2 + 5 x + k` with `k` = 0
//! win in `x` plies, 1 loss in `x`, 2 draw that ends in `x`, 3 win by the rule of rank `x`,
//! 4 loss by the rule of rank `x` (the rank is the winner's progress measure, see
//! [`crate::perpetual`]). Files of plain solutions never set the bit, so they are the same
//! bytes as before rule codes existed. *Ban codes* (bits 128 and 64 set; a solution with
//! results of the ban on perpetual chase): `2 + 7 x + k`, `k` as above for 0 to 4 (3 and 4 by
//! the ban on perpetual check), 5 win and 6 loss by the ban on perpetual chase of rank `x`; a
//! solution without such results is written with rule codes. The rule set's name is in the
//! header besides: a file is only read as the table of the rule set it names.
//!
//! Blocks are small (4096 positions, 4 KiB at one byte a position) so that a probe reads and
//! decompresses little: [`TableReader`] opens a file by reading its header only, and reads a
//! block with one positioned read (`pread`), checking its CRC before decompressing it.
//! [`BlockCache`] keeps decompressed blocks, least recently used first out, within a budget
//! of bytes. Version 1 files (64 Ki-position blocks) are refused with a message that says to
//! regenerate them.
//!
//! The reader allocates only what the expected table needs (sizes in the file are checked
//! against it before use), so a damaged file is refused rather than trusted.
//!
//! Files are written to a temporary name unique to the process and the call, synced, renamed
//! into place, and the directory synced: a crash never leaves a partial table under the real
//! name, and two writers of one table never clobber each other's temporary files.

use std::fmt;
use std::fs;
use std::hash::{Hash, Hasher};
use std::io::{self, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::perpetual::{Ban, RuleSolution, RuleValue};
use crate::retrograde::{Solution, SolveError};
use crate::value::{Plies, Value};

const MAGIC: &[u8; 8] = b"ENDGMTB\0";
/// The version of the file format this code reads and writes.
pub const FORMAT_VERSION: u32 = 2;
/// Positions per block.
pub const BLOCK_POSITIONS: usize = 1 << 12;

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
    #[error("{}: format version {found}, this program reads version {FORMAT_VERSION}", path.display())]
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
    /// damaged): regenerating it is the cure.
    #[must_use]
    pub const fn needs_regeneration(&self) -> bool {
        !matches!(self, TableError::Io { .. } | TableError::Unwritable { .. })
    }

    /// An I/O error about `path`.
    #[must_use]
    pub fn io(path: &Path, error: io::Error) -> TableError {
        TableError::Io { path: path.to_path_buf(), error }
    }

    fn damaged(path: &Path, why: impl Into<String>) -> TableError {
        TableError::Damaged { path: path.to_path_buf(), why: why.into() }
    }
}

fn code(value: Option<Value>) -> u32 {
    let (d, k) = match value {
        None => return 0,
        Some(Value::Draw(None)) => return 1,
        Some(Value::Win(d)) => (d, 0),
        Some(Value::Loss(d)) => (d, 1),
        Some(Value::Draw(Some(d))) => (d, 2),
    };
    2 + 3 * d.0 + k
}

fn value(code: u32) -> Option<Value> {
    match code {
        0 => None,
        1 => Some(Value::Draw(None)),
        c => {
            let d = Plies((c - 2) / 3);
            Some(match (c - 2) % 3 {
                0 => Value::Win(d),
                1 => Value::Loss(d),
                _ => Value::Draw(Some(d)),
            })
        }
    }
}

/// Kinds of values in rule codes (`2 + 5 x + k`) and in ban codes (`2 + 7 x + k`).
const RULE_KINDS: u32 = 5;
const BAN_KINDS: u32 = 7;

/// The rule code (`kinds` [`RULE_KINDS`]) or ban code ([`BAN_KINDS`]) of a value (see the
/// module notes), when it fits in 32 bits (distances and ranks up to about 858 million, 613
/// million in ban codes) and, in rule codes, is no result of the ban on perpetual chase.
fn rule_code(value: Option<RuleValue>, kinds: u32) -> Option<u32> {
    let (x, k) = match value {
        None => return Some(0),
        Some(RuleValue::Draw(None)) => return Some(1),
        Some(RuleValue::Win(d)) => (d.0, 0),
        Some(RuleValue::Loss(d)) => (d.0, 1),
        Some(RuleValue::Draw(Some(d))) => (d.0, 2),
        Some(RuleValue::WinByRule(Ban::Check, r)) => (r, 3),
        Some(RuleValue::LossByRule(Ban::Check, r)) => (r, 4),
        Some(RuleValue::WinByRule(Ban::Chase, r)) if kinds == BAN_KINDS => (r, 5),
        Some(RuleValue::LossByRule(Ban::Chase, r)) if kinds == BAN_KINDS => (r, 6),
        Some(_) => return None,
    };
    x.checked_mul(kinds)?.checked_add(2 + k)
}

fn rule_value(code: u32, kinds: u32) -> Option<RuleValue> {
    match code {
        0 => None,
        1 => Some(RuleValue::Draw(None)),
        c => {
            let x = (c - 2) / kinds;
            Some(match (c - 2) % kinds {
                0 => RuleValue::Win(Plies(x)),
                1 => RuleValue::Loss(Plies(x)),
                2 => RuleValue::Draw(Some(Plies(x))),
                3 => RuleValue::WinByRule(Ban::Check, x),
                4 => RuleValue::LossByRule(Ban::Check, x),
                5 => RuleValue::WinByRule(Ban::Chase, x),
                _ => RuleValue::LossByRule(Ban::Chase, x),
            })
        }
    }
}

/// The width byte's flag for rule codes.
const RULE_CODES: u8 = 128;
/// The width byte's flag (with [`RULE_CODES`]) for ban codes.
const BAN_CODES: u8 = 64;

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
/// `<path>.<host>.<pid>.<nanoseconds>.<n>.tmp`.
fn temporary_name(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let mut name = path.as_os_str().to_owned();
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    name.push(format!(".{}.{}.{nanos}.{n}.tmp", host_tag(), std::process::id()));
    PathBuf::from(name)
}

/// Writes a solution as a table at `path`: to a temporary file (unique to the process and the
/// call), synced, renamed into place, and the directory synced. On an error the temporary file
/// is removed.
///
/// # Errors
/// When the file cannot be written, or the solution's size differs from `id.positions`.
pub fn write_table(path: &Path, id: &TableId, solution: &Solution) -> Result<(), TableError> {
    if solution.len() as u64 != id.positions {
        return Err(TableError::damaged(
            path,
            format!("{} positions in the solution, {} in the table id", solution.len(), id.positions),
        ));
    }
    write_table_file(path, id, solution.len(), 0, None, |range, out| {
        out.extend(range.map(|p| code(solution.value(p))));
    })
}

/// Writes the table whose values are those of `like` in another order (a permutation of its
/// positions, holes aside: the codes take the width of `like`'s, so no second pass over the
/// values is needed), computed block by block: `fill(range, out)` appends the values of the
/// positions `range` to `out` (`None` for holes). Atomic as [`write_table`] is; no [`Solution`]
/// of the new table is held in memory. For a table derived from another on the fly.
///
/// # Errors
/// When the file cannot be written, `id.positions` does not fit in a `usize`, or a value is
/// beyond the width of `like`'s codes (then the values were not a permutation of `like`'s).
pub fn write_table_permuted(
    path: &Path,
    id: &TableId,
    like: &Solution,
    fill: impl Fn(std::ops::Range<usize>, &mut Vec<Option<Value>>) + Sync,
) -> Result<(), TableError> {
    let n = usize::try_from(id.positions).map_err(|_| TableError::damaged(path, "too many positions"))?;
    let max_code = (0..like.len()).into_par_iter().with_min_len(1 << 14).map(|p| code(like.value(p))).max();
    write_table_file(path, id, n, 0, Some(max_code.unwrap_or(0)), |range, out| {
        let mut values = Vec::with_capacity(range.len());
        fill(range, &mut values);
        out.extend(values.into_iter().map(code));
    })
}

/// Writes a solution under the rule as a table at `path` with rule codes, or ban codes when it
/// has results of the ban on perpetual chase (see the module notes), atomically as
/// [`write_table`] does.
///
/// # Errors
/// When the file cannot be written, or the solution's size differs from `id.positions`.
pub fn write_rule_table(path: &Path, id: &TableId, solution: &RuleSolution) -> Result<(), TableError> {
    if solution.len() as u64 != id.positions {
        return Err(TableError::damaged(
            path,
            format!("{} positions in the solution, {} in the table id", solution.len(), id.positions),
        ));
    }
    let chases = (0..solution.len())
        .into_par_iter()
        .with_min_len(1 << 14)
        .any(|p| solution.value(p).and_then(RuleValue::ban) == Some(Ban::Chase));
    let kinds = if chases { BAN_KINDS } else { RULE_KINDS };
    let too_far =
        (0..solution.len()).into_par_iter().find_first(|&p| rule_code(solution.value(p), kinds).is_none());
    if let Some(p) = too_far {
        let why = format!(
            "the value of position {p} has a distance or rank beyond the format's limit (about 613 million)"
        );
        return Err(TableError::Unwritable { path: path.to_path_buf(), why });
    }
    write_table_file(path, id, solution.len(), kinds, None, |range, out| {
        out.extend(range.map(|p| rule_code(solution.value(p), kinds).unwrap_or(u32::MAX)));
    })
}

/// Syncs the directory of `path` so that a rename into it survives a crash (where directories
/// can be opened; elsewhere renames are durable by themselves).
fn sync_directory(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        fs::File::open(dir)?.sync_all()?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// Blocks compressed at once while a table is written: a write holds this many compressed
/// blocks (and the block index, 8 bytes a block), whatever the size of the table.
const WRITE_BATCH: usize = 1024;

/// Writes the table of `n` codes at `path`, which `codes(range, out)` appends to `out` a block
/// at a time: to a temporary file, synced, renamed into place, the directory synced; on an error
/// the temporary file is removed. The header's block index is written as zeros first and filled
/// in once the blocks are written. The codes' width comes from `max_code`, or from a first pass
/// over the codes when it is `None`.
fn write_table_file(
    path: &Path,
    id: &TableId,
    n: usize,
    rule_kinds: u32,
    max_code: Option<u32>,
    codes: impl Fn(std::ops::Range<usize>, &mut Vec<u32>) + Sync,
) -> Result<(), TableError> {
    let blocks = n.div_ceil(BLOCK_POSITIONS);
    let block = |b: usize| b * BLOCK_POSITIONS..n.min((b + 1) * BLOCK_POSITIONS);
    let max_code = max_code.unwrap_or_else(|| {
        (0..blocks)
            .into_par_iter()
            .map(|b| {
                let mut out = Vec::with_capacity(BLOCK_POSITIONS);
                codes(block(b), &mut out);
                out.into_iter().max().unwrap_or(0)
            })
            .max()
            .unwrap_or(0)
    });
    let width: usize = if max_code <= 0xFF {
        1
    } else if max_code <= 0xFFFF {
        2
    } else {
        4
    };
    let count = u32::try_from(blocks).map_err(|_| TableError::damaged(path, "too many blocks"))?;
    let mut head = Vec::new();
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    for s in [&id.game, &id.variant, &id.rules] {
        let len = u16::try_from(s.len()).map_err(|_| TableError::damaged(path, "name too long"))?;
        head.extend_from_slice(&len.to_le_bytes());
        head.extend_from_slice(s.as_bytes());
    }
    head.extend_from_slice(&id.positions.to_le_bytes());
    head.push(
        width as u8
            | match rule_kinds {
                0 => 0,
                RULE_KINDS => RULE_CODES,
                _ => RULE_CODES | BAN_CODES,
            },
    );
    head.extend_from_slice(&(BLOCK_POSITIONS as u32).to_le_bytes());
    head.extend_from_slice(&count.to_le_bytes());
    let compress = |b: usize| {
        let mut codes_of_block = Vec::with_capacity(BLOCK_POSITIONS);
        codes(block(b), &mut codes_of_block);
        if codes_of_block.iter().any(|&c| c > max_code) {
            return Err(io::Error::other(format!(
                "a code of block {b} is beyond the width of the table's codes"
            )));
        }
        let mut raw = Vec::with_capacity(BLOCK_POSITIONS * width);
        for c in codes_of_block {
            raw.extend_from_slice(&c.to_le_bytes()[..width]);
        }
        Ok(lz4_flex::compress_prepend_size(&raw))
    };
    let tmp = temporary_name(path);
    let written = (|| {
        let mut file = io::BufWriter::new(fs::File::create(&tmp)?);
        file.write_all(&head)?;
        file.write_all(&vec![0; blocks * 8 + 4])?;
        let mut index = Vec::with_capacity(blocks * 8);
        for batch in (0..blocks).step_by(WRITE_BATCH) {
            let compressed: Vec<Vec<u8>> = (batch..blocks.min(batch + WRITE_BATCH))
                .into_par_iter()
                .map(compress)
                .collect::<io::Result<_>>()?;
            for block in &compressed {
                index.extend_from_slice(&(block.len() as u32).to_le_bytes());
                index.extend_from_slice(&crc32fast::hash(block).to_le_bytes());
                file.write_all(block)?;
            }
        }
        let mut crc = crc32fast::Hasher::new();
        crc.update(&head);
        crc.update(&index);
        file.seek(io::SeekFrom::Start(head.len() as u64))?;
        file.write_all(&index)?;
        file.write_all(&crc.finalize().to_le_bytes())?;
        let file = file.into_inner().map_err(io::IntoInnerError::into_error)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)?;
        sync_directory(path)
    })();
    written.map_err(|e| {
        // Best effort: the rename may have happened, then there is nothing to remove.
        let _ = fs::remove_file(&tmp);
        TableError::io(path, e)
    })
}

/// A cursor over bytes that reports truncation.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], Short> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len()).ok_or(Short)?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn u16(&mut self) -> Result<u16, Short> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().expect("2 bytes")))
    }

    fn u32(&mut self) -> Result<u32, Short> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }

    fn u64(&mut self) -> Result<u64, Short> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }

    fn string(&mut self) -> Result<Option<String>, Short> {
        let len = self.u16()? as usize;
        Ok(String::from_utf8(self.take(len)?.to_vec()).ok())
    }
}

/// The header ended before a field did: read more of the file and try again.
#[derive(Debug)]
struct Short;

/// The decompressed codes of one block.
#[derive(Debug)]
pub struct Block {
    width: usize,
    /// 0 for plain codes, else [`RULE_KINDS`] or [`BAN_KINDS`].
    rule_kinds: u32,
    codes: Box<[u8]>,
}

impl Block {
    /// The value of the `i`-th position of the block (`None` for a hole or past the end).
    #[inline]
    #[must_use]
    pub fn value(&self, i: usize) -> Option<Value> {
        let code = self.code(i)?;
        if self.rule_kinds != 0 {
            rule_value(code, self.rule_kinds).map(RuleValue::plain)
        } else {
            value(code)
        }
    }

    /// The value of the `i`-th position under the ban on perpetual check (a plain table's
    /// values as they are: it has no rule values).
    #[inline]
    #[must_use]
    pub fn rule_value(&self, i: usize) -> Option<RuleValue> {
        let code = self.code(i)?;
        if self.rule_kinds != 0 {
            rule_value(code, self.rule_kinds)
        } else {
            value(code).map(RuleValue::from)
        }
    }

    #[inline]
    fn code(&self, i: usize) -> Option<u32> {
        let at = i.checked_mul(self.width)?;
        let bytes = self.codes.get(at..at + self.width)?;
        let mut word = [0u8; 4];
        word[..self.width].copy_from_slice(bytes);
        Some(u32::from_le_bytes(word))
    }

    /// The number of positions in the block.
    #[must_use]
    pub fn len(&self) -> usize {
        self.codes.len() / self.width
    }

    /// Whether the block holds no position.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// The bytes it takes in memory.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.codes.len() + std::mem::size_of::<Block>()
    }
}

/// An open table file: its header read and checked, its blocks read on demand.
#[derive(Debug)]
pub struct TableReader {
    path: PathBuf,
    file: fs::File,
    id: TableId,
    width: usize,
    rule_kinds: u32,
    /// Where each block starts in the file; one more entry for the end of the last.
    offsets: Vec<u64>,
    crcs: Vec<u32>,
}

impl TableReader {
    /// Opens the table at `path`, which must be the table `id`: reads and checks the header
    /// and the file's length, not the blocks.
    ///
    /// # Errors
    /// When the file is missing or unreadable, not a table, of another format version, of
    /// another game, variant, rule set or size, truncated, or its header is damaged.
    pub fn open(path: &Path, id: &TableId) -> Result<TableReader, TableError> {
        let mut file = fs::File::open(path).map_err(|e| TableError::io(path, e))?;
        let length = file.metadata().map_err(|e| TableError::io(path, e))?.len();
        // The header is small: its names and one 8-byte entry per block. Read a first piece,
        // then as much as the block count says.
        let mut head = Vec::new();
        let first = length.min(4096);
        read_prefix(&mut file, &mut head, first).map_err(|e| TableError::io(path, e))?;
        let header = match parse_header(&head, id) {
            Err(HeaderError::Short) => {
                let blocks = blocks_for(id.positions)
                    .ok_or_else(|| TableError::damaged(path, "too many positions"))?;
                // Magic, version, names, sizes, block entries, CRC: a bound, not an exact size.
                let bound = 64 + 3 * 65_536 + blocks as u64 * 8;
                read_prefix(&mut file, &mut head, length.min(bound)).map_err(|e| TableError::io(path, e))?;
                parse_header(&head, id)
            }
            other => other,
        };
        let (width, rule_kinds, lengths, crcs, data_start) =
            header.map_err(|e| e.into_table_error(path, head.len() as u64, id))?;
        let mut offsets = Vec::with_capacity(lengths.len() + 1);
        let mut at = data_start as u64;
        offsets.push(at);
        for &len in &lengths {
            at += u64::from(len);
            offsets.push(at);
        }
        if at != length {
            return Err(TableError::damaged(
                path,
                if at > length {
                    format!("truncated: {length} bytes, the header describes {at}")
                } else {
                    format!("{} bytes after the last block", length - at)
                },
            ));
        }
        Ok(TableReader { path: path.to_path_buf(), file, id: id.clone(), width, rule_kinds, offsets, crcs })
    }

    /// The file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What the file holds.
    #[must_use]
    pub const fn id(&self) -> &TableId {
        &self.id
    }

    /// Whether the file holds rule codes (a solution under the rule, ban codes included).
    #[must_use]
    pub const fn has_rule_codes(&self) -> bool {
        self.rule_kinds != 0
    }

    /// Whether the file holds ban codes (a solution with results of the ban on perpetual
    /// chase).
    #[must_use]
    pub const fn has_ban_codes(&self) -> bool {
        self.rule_kinds == BAN_KINDS
    }

    /// The number of blocks.
    #[must_use]
    pub fn blocks(&self) -> usize {
        self.crcs.len()
    }

    /// Reads, checks and decompresses block `b`.
    ///
    /// # Errors
    /// When it cannot be read or is damaged.
    pub fn read_block(&self, b: usize) -> Result<Block, TableError> {
        let path = &self.path;
        let (start, end) = (self.offsets[b], self.offsets[b + 1]);
        let mut compressed = vec![0u8; (end - start) as usize];
        read_at(&self.file, &mut compressed, start).map_err(|e| TableError::io(path, e))?;
        if crc32fast::hash(&compressed) != self.crcs[b] {
            return Err(TableError::damaged(path, format!("block {b}: checksum mismatch (damaged file)")));
        }
        let n = self.id.positions as usize;
        let expected = BLOCK_POSITIONS.min(n - b * BLOCK_POSITIONS) * self.width;
        let (size, body) = lz4_flex::block::uncompressed_size(&compressed)
            .map_err(|e| TableError::damaged(path, format!("block {b}: {e}")))?;
        if size != expected {
            return Err(TableError::damaged(path, format!("block {b}: {size} bytes, expected {expected}")));
        }
        let mut codes = vec![0u8; expected].into_boxed_slice();
        let written = lz4_flex::block::decompress_into(body, &mut codes)
            .map_err(|e| TableError::damaged(path, format!("block {b}: {e}")))?;
        if written != expected {
            return Err(TableError::damaged(
                path,
                format!("block {b}: {written} bytes, expected {expected}"),
            ));
        }
        Ok(Block { width: self.width, rule_kinds: self.rule_kinds, codes })
    }

    /// The block that holds position `pos` and the position's place in it.
    #[must_use]
    pub const fn locate(pos: usize) -> (usize, usize) {
        (pos / BLOCK_POSITIONS, pos % BLOCK_POSITIONS)
    }

    /// Reads every block (in parallel) and checks it: a file that passes is whole.
    ///
    /// # Errors
    /// The first damaged block.
    pub fn verify(&self) -> Result<(), TableError> {
        (0..self.blocks()).into_par_iter().try_for_each(|b| self.read_block(b).map(drop))
    }

    /// Reads the whole table into memory (1-byte cells when the file's codes are 1 byte).
    ///
    /// # Errors
    /// When a block is damaged.
    pub fn read_solution(&self) -> Result<Solution, TableError> {
        let blocks: Vec<Block> =
            (0..self.blocks()).into_par_iter().map(|b| self.read_block(b)).collect::<Result<_, _>>()?;
        let values = blocks.iter().flat_map(|block| (0..block.len()).map(|i| block.value(i)));
        // One-byte codes: 1-byte cells (the rare long distances in the solution's side list).
        // Two-byte codes: 2-byte cells (distances up to 16,381 plies); wider ones 4-byte cells.
        let solution = match self.width {
            1 => Solution::from_values_bytes(values),
            2 => Solution::from_values_compact(values),
            _ => Solution::from_values(values),
        };
        solution.map_err(|e: SolveError| TableError::damaged(&self.path, e.to_string()))
    }

    /// Reads the whole table into memory as a solution under the ban on perpetual check (a
    /// plain table gives its values as they are). The solution has no rounds (see
    /// [`RuleSolution::from_values`]).
    ///
    /// # Errors
    /// When a block is damaged.
    pub fn read_rule_solution(&self) -> Result<RuleSolution, TableError> {
        let blocks: Vec<Block> =
            (0..self.blocks()).into_par_iter().map(|b| self.read_block(b)).collect::<Result<_, _>>()?;
        let n = self.id.positions as usize;
        RuleSolution::from_values(n, |p| blocks[p / BLOCK_POSITIONS].rule_value(p % BLOCK_POSITIONS))
            .map_err(|e: SolveError| TableError::damaged(&self.path, e.to_string()))
    }
}

fn blocks_for(positions: u64) -> Option<usize> {
    usize::try_from(positions).ok().map(|n| n.div_ceil(BLOCK_POSITIONS))
}

/// Appends bytes of `file` to `head` until it holds `upto` bytes (or the file ends).
fn read_prefix(file: &mut fs::File, head: &mut Vec<u8>, upto: u64) -> io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    let have = head.len() as u64;
    file.seek(SeekFrom::Start(have))?;
    Read::by_ref(file).take(upto.saturating_sub(have)).read_to_end(head)?;
    Ok(())
}

/// Fills `buf` from `file` at `offset`, without moving a shared cursor.
#[cfg(unix)]
fn read_at(file: &fs::File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

/// Fills `buf` from `file` at `offset`, without moving a shared cursor.
#[cfg(windows)]
fn read_at(file: &fs::File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
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

enum HeaderError {
    Short,
    Bad(String),
    Version(u32),
    Mismatch(Box<TableId>),
}

impl From<Short> for HeaderError {
    fn from(_: Short) -> Self {
        HeaderError::Short
    }
}

impl HeaderError {
    fn into_table_error(self, path: &Path, read: u64, id: &TableId) -> TableError {
        match self {
            HeaderError::Short => {
                TableError::damaged(path, format!("truncated: the header does not end within {read} bytes"))
            }
            HeaderError::Bad(why) => TableError::damaged(path, why),
            HeaderError::Version(found) => TableError::Version { path: path.to_path_buf(), found },
            HeaderError::Mismatch(found) => {
                TableError::Mismatch { path: path.to_path_buf(), found, expected: Box::new(id.clone()) }
            }
        }
    }
}

/// Width, kinds of rule codes (0: plain codes), compressed block lengths, block CRCs and where
/// the data starts.
type Header = (usize, u32, Vec<u32>, Vec<u32>, usize);

fn parse_header(bytes: &[u8], id: &TableId) -> Result<Header, HeaderError> {
    let mut r = Reader { bytes, at: 0 };
    let start = &bytes[..bytes.len().min(MAGIC.len())];
    if start != &MAGIC[..start.len()] || r.take(MAGIC.len())? != MAGIC.as_slice() {
        return Err(HeaderError::Bad("not an endgame table (bad magic)".into()));
    }
    let version = r.u32()?;
    if version != FORMAT_VERSION {
        return Err(HeaderError::Version(version));
    }
    let names = [r.string()?, r.string()?, r.string()?];
    let positions = r.u64()?;
    let [Some(game), Some(variant), Some(rules)] = names else {
        return Err(HeaderError::Bad("a name is not UTF-8".into()));
    };
    let found = TableId { game, variant, rules, positions };
    let width_byte = r.take(1)?[0];
    let rule_kinds = match width_byte & (RULE_CODES | BAN_CODES) {
        0 => 0,
        RULE_CODES => RULE_KINDS,
        flags if flags == RULE_CODES | BAN_CODES => BAN_KINDS,
        _ => return Err(HeaderError::Bad(format!("bad code width {width_byte}"))),
    };
    let width = (width_byte & !(RULE_CODES | BAN_CODES)) as usize;
    if ![1, 2, 4].contains(&width) {
        return Err(HeaderError::Bad(format!("bad code width {width_byte}")));
    }
    let block = r.u32()? as usize;
    let blocks = r.u32()? as usize;
    if found != *id {
        // A block count that the header's end can be found by: check the checksum first, so
        // that a damaged name reads as damage, not as another table.
        let end =
            r.at.checked_add(blocks.checked_mul(8).ok_or(HeaderError::Short)?).ok_or(HeaderError::Short)?;
        let crc = bytes.get(end..end + 4).ok_or(HeaderError::Short)?;
        if crc32fast::hash(&bytes[..end]) != u32::from_le_bytes(crc.try_into().expect("4 bytes")) {
            return Err(HeaderError::Bad("header checksum mismatch (damaged file)".into()));
        }
        return Err(HeaderError::Mismatch(Box::new(found)));
    }
    let n = usize::try_from(id.positions)
        .map_err(|_| HeaderError::Bad("too many positions for this machine".into()))?;
    // Blocks always hold BLOCK_POSITIONS positions; a file that says otherwise is damaged (and
    // must not make the reader allocate by its say-so).
    if block != BLOCK_POSITIONS || blocks != n.div_ceil(block) {
        return Err(HeaderError::Bad(format!(
            "{blocks} blocks of {block} positions do not hold {n} positions"
        )));
    }
    let mut lengths = Vec::with_capacity(blocks);
    let mut crcs = Vec::with_capacity(blocks);
    for _ in 0..blocks {
        lengths.push(r.u32()?);
        crcs.push(r.u32()?);
    }
    let header_end = r.at;
    let header_crc = r.u32()?;
    if crc32fast::hash(&bytes[..header_end]) != header_crc {
        return Err(HeaderError::Bad("header checksum mismatch (damaged file)".into()));
    }
    Ok((width, rule_kinds, lengths, crcs, r.at))
}

/// Reads the table at `path`, which must be the table `id`, whole into memory.
///
/// # Errors
/// When the file is missing or unreadable, not a table, of another format version, of another
/// game, variant, rule set or size, truncated, or damaged (checksums).
pub fn read_table(path: &Path, id: &TableId) -> Result<Solution, TableError> {
    TableReader::open(path, id)?.read_solution()
}

/// A block of one table: the key of [`BlockCache`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockKey {
    /// A number the cache's user gives each table (unique among the tables sharing the cache).
    pub table: u32,
    /// The block within the table.
    pub block: u32,
}

const SHARDS: usize = 16;

/// Decompressed blocks kept in memory, within a budget of bytes: a least-recently-used cache,
/// split into shards (each with its own lock and a sixteenth of the budget) so that many
/// threads probe at once. A block larger than a shard's budget is handed out but not kept.
pub struct BlockCache {
    shards: Vec<Mutex<Shard>>,
    budget: usize,
}

struct Shard {
    blocks: lru::LruCache<BlockKey, Arc<Block>>,
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
                Mutex::new(Shard { blocks: lru::LruCache::unbounded(), bytes: 0, budget: budget / SHARDS })
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
        let mut h = std::hash::DefaultHasher::new();
        key.hash(&mut h);
        &self.shards[(h.finish() as usize) % SHARDS]
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

    /// Drops every block of table `table` (when its file is replaced).
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

    fn id(positions: u64) -> TableId {
        TableId { game: "test".into(), variant: "KvK".into(), rules: "standard".into(), positions }
    }

    fn sample(n: usize, far: u32) -> Solution {
        Solution::from_values((0..n).map(|i| match i % 5 {
            0 => None,
            1 => Some(Value::Draw(None)),
            2 => Some(Value::win_in((i as u32) % far)),
            3 => Some(Value::loss_in((i as u32) % far)),
            _ => Some(Value::Draw(Some(Plies(i as u32 % 7)))),
        }))
        .unwrap()
    }

    fn parse(bytes: &[u8], id: &TableId) -> Result<Solution, String> {
        let dir = std::env::temp_dir().join(format!("endgame-tb-parse-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{}.egtb", crc32fast::hash(bytes)));
        fs::write(&path, bytes).unwrap();
        let result = read_table(&path, id).map_err(|e| e.to_string());
        fs::remove_file(&path).unwrap();
        result
    }

    #[test]
    fn codes_round_trip() {
        for v in [None, Some(Value::Draw(None)), Some(Value::win_in(0)), Some(Value::loss_in(84))] {
            assert_eq!(value(code(v)), v);
        }
        assert_eq!(code(Some(Value::loss_in(84))), 0xFF);
        assert_eq!(code(Some(Value::Draw(Some(Plies(84))))), 0x100);
    }

    /// A table written from another's values in reverse order reads back reversed, is the file
    /// `write_table` writes of the reversed solution, and values beyond `like`'s width are
    /// refused with nothing left behind.
    #[test]
    fn permuted_tables_are_written_block_by_block() {
        let dir = std::env::temp_dir().join(format!("endgame-tb-permuted-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        for (n, far) in [(1000, 50), (200_000, 300)] {
            let like = sample(n, far);
            let reversed = Solution::from_values((0..n).rev().map(|p| like.value(p))).unwrap();
            let (a, b) = (dir.join(format!("p{n}.egtb")), dir.join(format!("r{n}.egtb")));
            write_table_permuted(&a, &id(n as u64), &like, |range, out| {
                out.extend(range.map(|p| like.value(n - 1 - p)));
            })
            .unwrap();
            write_table(&b, &id(n as u64), &reversed).unwrap();
            assert!(read_table(&a, &id(n as u64)).unwrap().values().eq(reversed.values()));
            assert_eq!(fs::read(&a).unwrap(), fs::read(&b).unwrap());
        }
        let like = sample(1000, 50);
        let wider = dir.join("wider.egtb");
        let error = write_table_permuted(&wider, &id(1000), &like, |range, out| {
            out.extend(range.map(|_| Some(Value::loss_in(5000))));
        })
        .unwrap_err();
        assert!(error.to_string().contains("beyond the width"), "{error}");
        assert!(!wider.exists());
        let left: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert!(left.iter().all(|name| !name.to_string_lossy().ends_with(".tmp")), "{left:?}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn tables_round_trip_and_refuse_damage() {
        let dir = std::env::temp_dir().join(format!("endgame-tb-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        for (n, far) in [(0, 1), (1000, 50), (200_000, 300), (70_000, 100_000)] {
            let path = dir.join(format!("t{n}.egtb"));
            let solution = sample(n, far);
            write_table(&path, &id(n as u64), &solution).unwrap();
            let back = read_table(&path, &id(n as u64)).unwrap();
            assert!(back.values().eq(solution.values()));
            assert_eq!(
                back.bytes_per_position(),
                if far <= 84 {
                    1
                } else if far <= 21_000 {
                    2
                } else {
                    4
                }
            );
            // Random access agrees with the whole table.
            let reader = TableReader::open(&path, &id(n as u64)).unwrap();
            reader.verify().unwrap();
            for p in (0..n).step_by(997) {
                let (b, i) = TableReader::locate(p);
                assert_eq!(reader.read_block(b).unwrap().value(i), solution.value(p));
            }
        }
        let left: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert!(left.iter().all(|name| !name.to_string_lossy().ends_with(".tmp")), "{left:?}");
        let path = dir.join("t200000.egtb");
        let good = fs::read(&path).unwrap();
        let err = |bytes: &[u8], id: &TableId| parse(bytes, id).unwrap_err();
        assert!(err(&good, &id(5)).contains("expected test KvK under rules standard (5 positions)"));
        let other = TableId { rules: "hdu".into(), ..id(200_000) };
        assert!(err(&good, &other).contains("holds test KvK under rules standard"));
        assert!(err(&good[..good.len() - 3], &id(200_000)).contains("truncated"));
        assert!(err(&good[..30], &id(200_000)).contains("truncated"));
        assert!(err(b"PK\x03\x04", &id(200_000)).contains("bad magic"));
        let mut longer = good.clone();
        longer.push(0);
        assert!(err(&longer, &id(200_000)).contains("1 bytes after the last block"));
        let mut flipped = good.clone();
        let last = flipped.len() - 10;
        flipped[last] ^= 0x40;
        assert!(err(&flipped, &id(200_000)).contains("checksum mismatch"));
        // The block size sits after magic, version, the names, the size and the width.
        let at = 8 + 4 + (2 + 4) + (2 + 3) + (2 + 8) + 8 + 1;
        assert_eq!(good[at..at + 4], (BLOCK_POSITIONS as u32).to_le_bytes());
        let mut tiny_blocks = good.clone();
        tiny_blocks[at..at + 4].copy_from_slice(&1u32.to_le_bytes());
        assert!(err(&tiny_blocks, &id(200_000)).contains("blocks of 1 positions"));
        // A damaged name reads as damage (the checksum comes first), not as another table.
        let mut name = good.clone();
        name[8 + 4 + 2 + 1] ^= 0x20;
        let e = err(&name, &id(200_000));
        assert!(e.contains("header checksum mismatch"), "{e}");
        let mut header = good.clone();
        header[8] = 1;
        let e = err(&header, &id(200_000));
        assert!(e.contains("format version 1, this program reads version 2"), "{e}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn rule_codes_round_trip() {
        let values = [
            None,
            Some(RuleValue::Draw(None)),
            Some(RuleValue::Win(Plies(0))),
            Some(RuleValue::Loss(Plies(50))),
            Some(RuleValue::Draw(Some(Plies(3)))),
            Some(RuleValue::WinByRule(Ban::Check, 0)),
            Some(RuleValue::LossByRule(Ban::Check, 12)),
            Some(RuleValue::WinByRule(Ban::Check, 1 << 20)),
        ];
        let chases =
            [Some(RuleValue::WinByRule(Ban::Chase, 7)), Some(RuleValue::LossByRule(Ban::Chase, 1 << 20))];
        for v in values {
            assert_eq!(rule_value(rule_code(v, RULE_KINDS).unwrap(), RULE_KINDS), v);
            assert_eq!(rule_value(rule_code(v, BAN_KINDS).unwrap(), BAN_KINDS), v);
        }
        for v in chases {
            assert_eq!(rule_code(v, RULE_KINDS), None, "rule codes have no chase results");
            assert_eq!(rule_value(rule_code(v, BAN_KINDS).unwrap(), BAN_KINDS), v);
        }
        // A 1-byte rule table holds ranks and distances up to 49 (ban codes: 35).
        assert_eq!(rule_code(Some(RuleValue::LossByRule(Ban::Check, 49)), RULE_KINDS), Some(0xFB));
        assert_eq!(rule_code(Some(RuleValue::WinByRule(Ban::Check, 50)), RULE_KINDS), Some(0xFF));
        assert_eq!(rule_code(Some(RuleValue::LossByRule(Ban::Chase, 35)), BAN_KINDS), Some(0xFD));
        // The last that fit in 32 bits, and the first that do not.
        assert_eq!(rule_code(Some(RuleValue::Win(Plies(858_993_458))), RULE_KINDS), Some(u32::MAX - 3));
        assert_eq!(
            rule_code(Some(RuleValue::LossByRule(Ban::Check, 858_993_457)), RULE_KINDS),
            Some(u32::MAX - 4)
        );
        assert_eq!(rule_code(Some(RuleValue::LossByRule(Ban::Check, 858_993_458)), RULE_KINDS), None);
        assert_eq!(rule_code(Some(RuleValue::Win(Plies(858_993_459))), RULE_KINDS), None);
        assert_eq!(
            rule_code(Some(RuleValue::LossByRule(Ban::Chase, 613_566_755)), BAN_KINDS),
            Some(u32::MAX - 2)
        );
        assert_eq!(rule_code(Some(RuleValue::Win(Plies(613_566_757))), BAN_KINDS), None);
    }

    fn rule_sample(n: usize, far: u32, chases: bool) -> RuleSolution {
        let ban = |i: usize| if chases && i.is_multiple_of(3) { Ban::Chase } else { Ban::Check };
        RuleSolution::from_values(n, |i| match i % 7 {
            0 => None,
            1 => Some(RuleValue::Draw(None)),
            2 => Some(RuleValue::Win(Plies(i as u32 % far))),
            3 => Some(RuleValue::Loss(Plies(i as u32 % far))),
            4 => Some(RuleValue::WinByRule(ban(i), i as u32 % far)),
            5 => Some(RuleValue::LossByRule(ban(i), i as u32 % far)),
            _ => Some(RuleValue::Draw(Some(Plies(i as u32 % 7)))),
        })
        .unwrap()
    }

    #[test]
    fn rule_tables_round_trip_and_plain_files_stay_the_same() {
        let dir = std::env::temp_dir().join(format!("endgame-tb-rule-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let rule_id = |n: u64| TableId { rules: "perpetual-check".into(), ..id(n) };
        for (n, far, width, chases) in [
            (0, 1, 1, false),
            (10_000, 50, 1, false),
            (70_000, 300, 2, false),
            (30_000, 20_000, 4, false),
            (10_000, 36, 1, true),
            (70_000, 300, 2, true),
            (30_000, 20_000, 4, true),
        ] {
            let path = dir.join(format!("r{n}-{chases}.egtb"));
            let solution = rule_sample(n, far, chases);
            write_rule_table(&path, &rule_id(n as u64), &solution).unwrap();
            let reader = TableReader::open(&path, &rule_id(n as u64)).unwrap();
            assert!(reader.has_rule_codes());
            assert_eq!(reader.has_ban_codes(), chases);
            let flags = if chases { RULE_CODES | BAN_CODES } else { RULE_CODES };
            assert_eq!(fs::read(&path).unwrap()[8 + 4 + 6 + 5 + 17 + 8], flags | width);
            let back = reader.read_rule_solution().unwrap();
            assert!(back.values().eq(solution.values()), "{n}");
            // The plain view of a rule table: rule values are endless draws.
            let plain = reader.read_solution().unwrap();
            assert!(plain.values().eq(solution.values().map(|v| v.map(RuleValue::plain))));
            for p in (0..n).step_by(97) {
                let (b, i) = TableReader::locate(p);
                assert_eq!(reader.read_block(b).unwrap().rule_value(i), solution.value(p));
            }
            // Under another rule set's name it is refused, naming what it holds.
            let e = TableReader::open(&path, &id(n as u64)).unwrap_err().to_string();
            assert!(e.contains("holds test KvK under rules perpetual-check"), "{e}");
        }
        // A plain solution written through the rule path's twin stays byte for byte what
        // write_table writes, and reads back as rule values without rule results.
        let plain = sample(5000, 40);
        let path = dir.join("p.egtb");
        write_table(&path, &id(5000), &plain).unwrap();
        let reader = TableReader::open(&path, &id(5000)).unwrap();
        assert!(!reader.has_rule_codes());
        let rule = reader.read_rule_solution().unwrap();
        assert!(rule.values().eq(plain.values().map(|v| v.map(RuleValue::from))));
        // The ranks a solution holds (below 2^29) all fit in both kinds of codes; a larger
        // one is refused by the solution already.
        let far = RuleSolution::from_values(3, |i| {
            Some(RuleValue::LossByRule(Ban::Chase, (1 << 29) - 2 + i as u32))
        });
        assert_eq!(far.unwrap_err(), SolveError::DistanceTooLarge);
        assert!(rule_code(Some(RuleValue::LossByRule(Ban::Chase, (1 << 29) - 1)), BAN_KINDS).is_some());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_cache_keeps_its_budget_and_serves_right_blocks() {
        let dir = std::env::temp_dir().join(format!("endgame-tb-cache-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("c.egtb");
        let n = 100_000;
        let solution = sample(n, 50);
        write_table(&path, &id(n as u64), &solution).unwrap();
        let reader = TableReader::open(&path, &id(n as u64)).unwrap();
        // Room for about three blocks per shard at most.
        let cache = BlockCache::new(SHARDS * 3 * (BLOCK_POSITIONS + 100));
        for round in 0..3 {
            for p in (0..n).step_by(331 + round) {
                let (b, i) = TableReader::locate(p);
                let key = BlockKey { table: 7, block: b as u32 };
                let block = cache.get_or_load(key, || reader.read_block(b)).unwrap();
                assert_eq!(block.value(i), solution.value(p));
                assert!(cache.bytes() <= cache.budget());
            }
        }
        assert!(cache.bytes() > 0);
        cache.forget_table(7);
        assert_eq!(cache.bytes(), 0);
        fs::remove_dir_all(&dir).unwrap();
    }
}
