//! Table files of format version 2 (one file per table: LZ4 blocks of 4096 positions, 1-, 2- or
//! 4-byte codes), read to convert them to version 3 ([`crate::table`]) without solving
//! again, and written for the tests of that conversion.
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
//! with `k` = 0 win, 1 loss, 2 draw that ends. *Rule codes* (the width byte's bit 128 set):
//! 0 a hole, 1 a draw by endless play, and `2 + 5 x + k` with `k` = 0 win in `x` plies, 1 loss
//! in `x`, 2 draw that ends in `x`, 3 win by the rule of rank `x`, 4 loss by the rule of rank
//! `x` (by the ban on perpetual check). *Ban codes* (bits 128 and 64 set; a table with results
//! of the ban on perpetual chase): `2 + 7 x + k`, `k` as above for 0 to 4, 5 win and 6 loss by
//! the ban on perpetual chase of rank `x`. Unlike version 3, holes are explicit (code 0).

use std::fs;
use std::io::{self, Seek, Write};
use std::path::Path;

use rayon::prelude::*;

use super::atomic::{sync_directory, temporary_name};
use super::header::{Cursor, Short};
use super::read::read_at;
use super::{TableError, TableId};
use crate::value::{Ban, Plies, RuleValue, Value};

const MAGIC: &[u8; 8] = b"ENDGMTB\0";
/// The version of the files this module reads and writes.
pub const VERSION: u32 = 2;
/// Positions per block.
const BLOCK_POSITIONS: usize = 1 << 12;
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
/// module notes), when it fits in 32 bits and, in rule codes, is no result of the ban on
/// perpetual chase.
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

/// Writes the table of `n` values (`None` for holes; plain values as rule values) at `path` in
/// format version 2, rule codes when `rule_codes` (ban codes when a value is a result of the
/// ban on perpetual chase): what earlier versions of this program wrote, for the tests of
/// [`crate::table`]'s conversion.
///
/// # Errors
/// When the file cannot be written, or a value does not fit the codes.
pub fn write_v2(
    path: &Path,
    id: &TableId,
    rule_codes: bool,
    value: impl Fn(usize) -> Option<RuleValue> + Sync,
) -> Result<(), TableError> {
    let n = usize::try_from(id.positions).map_err(|_| TableError::damaged(path, "too many positions"))?;
    let chases =
        rule_codes && (0..n).into_par_iter().any(|p| value(p).and_then(RuleValue::ban) == Some(Ban::Chase));
    let kinds = match (rule_codes, chases) {
        (false, _) => 0,
        (true, false) => RULE_KINDS,
        (true, true) => BAN_KINDS,
    };
    let code_of = |p: usize| -> Option<u32> {
        let v = value(p);
        if rule_codes {
            rule_code(v, kinds)
        } else {
            match v {
                Some(RuleValue::WinByRule(..) | RuleValue::LossByRule(..)) => None,
                v => Some(code(v.map(RuleValue::plain))),
            }
        }
    };
    if (0..n).into_par_iter().any(|p| code_of(p).is_none()) {
        return Err(TableError::Unwritable { path: path.to_path_buf(), why: "a value does not fit".into() });
    }
    write_table_file(path, id, n, kinds, None, |range, out| {
        out.extend(range.map(|p| code_of(p).unwrap_or(u32::MAX)));
    })
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
    head.extend_from_slice(&VERSION.to_le_bytes());
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

/// A length-prefixed UTF-8 name (`None` when it is not UTF-8).
fn string(r: &mut Cursor<'_>) -> Result<Option<String>, Short> {
    let len = r.u16()? as usize;
    Ok(String::from_utf8(r.take(len)?.to_vec()).ok())
}

/// The decompressed codes of one block.
struct Block {
    width: usize,
    /// 0 for plain codes, else [`RULE_KINDS`] or [`BAN_KINDS`].
    rule_kinds: u32,
    codes: Box<[u8]>,
}

impl Block {
    fn rule_value(&self, i: usize) -> Option<RuleValue> {
        let at = i * self.width;
        let mut word = [0u8; 4];
        word[..self.width].copy_from_slice(&self.codes[at..at + self.width]);
        let code = u32::from_le_bytes(word);
        if self.rule_kinds != 0 {
            rule_value(code, self.rule_kinds)
        } else {
            value(code).map(RuleValue::from)
        }
    }
}

/// A version-2 table's values, every block read and checked.
pub(super) struct Values {
    blocks: Vec<Block>,
    n: usize,
}

impl Values {
    /// The number of positions (holes included).
    pub(super) const fn len(&self) -> usize {
        self.n
    }

    /// The value of position `p` (`None`: a hole).
    pub(super) fn get(&self, p: usize) -> Option<RuleValue> {
        self.blocks[p / BLOCK_POSITIONS].rule_value(p % BLOCK_POSITIONS)
    }
}

/// An open version-2 table file: its header read and checked, its blocks read on demand.
pub struct V2Reader {
    path: std::path::PathBuf,
    file: fs::File,
    id: TableId,
    width: usize,
    rule_kinds: u32,
    offsets: Vec<u64>,
    crcs: Vec<u32>,
}

/// Whether the file at `path` is a version-2 table (its magic and version say so).
#[must_use]
pub fn is_v2(path: &Path) -> bool {
    let mut head = [0u8; 12];
    fs::File::open(path).and_then(|f| read_at(&f, &mut head, 0)).is_ok()
        && &head[..8] == MAGIC
        && head[8..12] == VERSION.to_le_bytes()
}

impl V2Reader {
    /// Opens the version-2 table at `path`, which must be the table `id`.
    ///
    /// # Errors
    /// When the file is missing or unreadable, not a version-2 table, another table,
    /// truncated, or its header is damaged.
    pub fn open(path: &Path, id: &TableId) -> Result<V2Reader, TableError> {
        let mut file = fs::File::open(path).map_err(|e| TableError::io(path, e))?;
        let length = file.metadata().map_err(|e| TableError::io(path, e))?.len();
        let blocks = usize::try_from(id.positions)
            .map(|n| n.div_ceil(BLOCK_POSITIONS))
            .map_err(|_| TableError::damaged(path, "too many positions"))?;
        let bound = 64 + 3 * 65_536 + blocks as u64 * 8;
        let mut head = Vec::new();
        read_prefix(&mut file, &mut head, length.min(bound)).map_err(|e| TableError::io(path, e))?;
        let (width, rule_kinds, lengths, crcs, data_start) =
            parse_header(&head, id).map_err(|e| e.into_table_error(path, head.len() as u64, id))?;
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
        Ok(V2Reader { path: path.to_path_buf(), file, id: id.clone(), width, rule_kinds, offsets, crcs })
    }

    fn read_block(&self, b: usize) -> Result<Block, TableError> {
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

    /// Whether the file holds rule codes (a solution under the ban on perpetual check).
    #[must_use]
    pub const fn has_rule_codes(&self) -> bool {
        self.rule_kinds != 0
    }

    /// Every block read and checked, for [`V2Reader::read`] (in `pair.rs`, beside the solvers'
    /// types).
    pub(super) fn values(&self) -> Result<Values, TableError> {
        let blocks: Vec<Block> =
            (0..self.crcs.len()).into_par_iter().map(|b| self.read_block(b)).collect::<Result<_, _>>()?;
        Ok(Values { blocks, n: self.id.positions as usize })
    }

    /// The file.
    pub(super) fn path(&self) -> &Path {
        &self.path
    }
}

/// Appends bytes of `file` to `head` until it holds `upto` bytes (or the file ends).
fn read_prefix(file: &mut fs::File, head: &mut Vec<u8>, upto: u64) -> io::Result<()> {
    use std::io::{Read, SeekFrom};
    let have = head.len() as u64;
    file.seek(SeekFrom::Start(have))?;
    Read::by_ref(file).take(upto.saturating_sub(have)).read_to_end(head)?;
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
    let mut r = Cursor { bytes, at: 0 };
    let start = &bytes[..bytes.len().min(MAGIC.len())];
    if start != &MAGIC[..start.len()] || r.take(MAGIC.len())? != MAGIC.as_slice() {
        return Err(HeaderError::Bad("not an endgame table (bad magic)".into()));
    }
    let version = r.u32()?;
    if version != VERSION {
        return Err(HeaderError::Version(version));
    }
    let names = [string(&mut r)?, string(&mut r)?, string(&mut r)?];
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Rule codes and ban codes read back as written, with the flags that say which.
    #[test]
    fn rule_and_ban_codes_round_trip() {
        let dir = std::env::temp_dir().join(format!("endgame-v2-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let id = TableId { game: "test".into(), variant: "KvK".into(), rules: "r".into(), positions: 9_000 };
        for chases in [false, true] {
            let value = |p: usize| match p % 6 {
                0 => None,
                1 => Some(RuleValue::Draw(None)),
                2 => Some(RuleValue::Win(Plies(p as u32 % 40))),
                3 => Some(RuleValue::LossByRule(Ban::Check, p as u32 % 30)),
                4 if chases => Some(RuleValue::WinByRule(Ban::Chase, p as u32 % 30)),
                4 => Some(RuleValue::WinByRule(Ban::Check, p as u32 % 30)),
                _ => Some(RuleValue::Draw(Some(Plies(3)))),
            };
            let path = dir.join(format!("{chases}.egtb"));
            write_v2(&path, &id, true, value).unwrap();
            let flags = fs::read(&path).unwrap()[8 + 4 + 6 + 5 + 3 + 8] & (RULE_CODES | BAN_CODES);
            assert_eq!(flags, if chases { RULE_CODES | BAN_CODES } else { RULE_CODES });
            let back = V2Reader::open(&path, &id).unwrap().read().unwrap();
            assert!((0..9_000).all(|p| back.value(p) == value(p)), "chases {chases}");
        }
        // A plain table holds no results by the rule.
        let path = dir.join("plain.egtb");
        assert!(write_v2(&path, &id, false, |_| Some(RuleValue::WinByRule(Ban::Check, 1))).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }
}
