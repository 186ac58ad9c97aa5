//! Tablebase files: a solved game's values on disk, compact, checked and written atomically.
//!
//! # Format (version 1, all integers little-endian)
//!
//! ```text
//! magic        8 bytes  "ENDGMTB\0"
//! version      u32      1
//! game         u16 length + UTF-8    e.g. "xiangqi"
//! variant      u16 length + UTF-8    e.g. "KNvK" (a material)
//! rules        u16 length + UTF-8    e.g. "standard"
//! positions    u64      size of the index (holes included)
//! width        u8       bytes per position code: 1, 2 or 4
//! block        u32      positions per block
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
//! The reader allocates only what the expected table needs (sizes in the file are checked
//! against it before use), so a damaged file is refused rather than trusted.
//!
//! Files are written to `<name>.tmp` and renamed into place, so a crash never leaves a partial
//! table under the real name. Reading refuses a file whose magic, version, game, variant, rules
//! or size differ from what was asked for, a truncated file, and any checksum mismatch.

use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::retrograde::{Solution, SolveError};
use crate::value::{Plies, Value};

const MAGIC: &[u8; 8] = b"ENDGMTB\0";
/// The version of the file format this code reads and writes.
pub const FORMAT_VERSION: u32 = 1;
const BLOCK: usize = 1 << 16;

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

/// Why a table could not be read.
#[derive(Debug)]
pub enum TableError {
    /// The file could not be read or written.
    Io(PathBuf, io::Error),
    /// The file is not a table of this kind, or is damaged.
    Invalid(PathBuf, String),
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            TableError::Invalid(path, why) => write!(f, "{}: {why}", path.display()),
        }
    }
}

impl std::error::Error for TableError {}

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

/// Writes a solution as a table at `path` (through a temporary file and a rename).
///
/// # Errors
/// When the file cannot be written, or the solution's size differs from `id.positions`.
pub fn write_table(path: &Path, id: &TableId, solution: &Solution) -> Result<(), TableError> {
    let io_err = |e| TableError::Io(path.to_path_buf(), e);
    if solution.len() as u64 != id.positions {
        return Err(TableError::Invalid(
            path.to_path_buf(),
            format!("{} positions in the solution, {} in the table id", solution.len(), id.positions),
        ));
    }
    let n = solution.len();
    let max_code = (0..n).into_par_iter().map(|p| code(solution.value(p))).max().unwrap_or(0);
    let width: usize = if max_code <= 0xFF {
        1
    } else if max_code <= 0xFFFF {
        2
    } else {
        4
    };
    let blocks: Vec<Vec<u8>> = (0..n.div_ceil(BLOCK))
        .into_par_iter()
        .map(|b| {
            let mut raw = Vec::with_capacity(BLOCK * width);
            for p in b * BLOCK..n.min((b + 1) * BLOCK) {
                raw.extend_from_slice(&code(solution.value(p)).to_le_bytes()[..width]);
            }
            lz4_flex::compress_prepend_size(&raw)
        })
        .collect();
    let mut header = Vec::new();
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    for s in [&id.game, &id.variant, &id.rules] {
        let len = u16::try_from(s.len())
            .map_err(|_| TableError::Invalid(path.to_path_buf(), "name too long".into()))?;
        header.extend_from_slice(&len.to_le_bytes());
        header.extend_from_slice(s.as_bytes());
    }
    header.extend_from_slice(&id.positions.to_le_bytes());
    header.push(width as u8);
    header.extend_from_slice(&(BLOCK as u32).to_le_bytes());
    header.extend_from_slice(&(blocks.len() as u32).to_le_bytes());
    for block in &blocks {
        header.extend_from_slice(&(block.len() as u32).to_le_bytes());
        header.extend_from_slice(&crc32fast::hash(block).to_le_bytes());
    }
    let header_crc = crc32fast::hash(&header);
    header.extend_from_slice(&header_crc.to_le_bytes());

    let mut tmp_name = path.as_os_str().to_owned();
    tmp_name.push(".tmp");
    let tmp = PathBuf::from(tmp_name);
    let mut file = io::BufWriter::new(fs::File::create(&tmp).map_err(io_err)?);
    file.write_all(&header).map_err(io_err)?;
    for block in &blocks {
        file.write_all(block).map_err(io_err)?;
    }
    file.into_inner().map_err(|e| io_err(e.into_error()))?.sync_all().map_err(io_err)?;
    fs::rename(&tmp, path).map_err(io_err)
}

/// A cursor over the file's bytes that reports truncation.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(format!("truncated: {} bytes, needed at least {}", self.bytes.len(), self.at + n));
        };
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn u16(&mut self) -> Result<u16, String> {
        Ok(u16::from_le_bytes(self.take(2)?.try_into().expect("2 bytes")))
    }

    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }

    fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }

    fn string(&mut self) -> Result<String, String> {
        let len = self.u16()? as usize;
        String::from_utf8(self.take(len)?.to_vec()).map_err(|_| "a name is not UTF-8".to_string())
    }
}

/// Reads the table at `path`, which must be the table `id`.
///
/// # Errors
/// When the file is missing or unreadable, not a table, of another format version, of another
/// game, variant, rule set or size, truncated, or damaged (checksums).
pub fn read_table(path: &Path, id: &TableId) -> Result<Solution, TableError> {
    let bytes = fs::read(path).map_err(|e| TableError::Io(path.to_path_buf(), e))?;
    parse_table(&bytes, id).map_err(|why| TableError::Invalid(path.to_path_buf(), why))
}

fn parse_table(bytes: &[u8], id: &TableId) -> Result<Solution, String> {
    let mut r = Reader { bytes, at: 0 };
    if r.take(MAGIC.len()).ok() != Some(MAGIC.as_slice()) {
        return Err("not an endgame table (bad magic)".into());
    }
    let version = r.u32()?;
    if version != FORMAT_VERSION {
        return Err(format!("format version {version}, this program reads version {FORMAT_VERSION}"));
    }
    let found = TableId { game: r.string()?, variant: r.string()?, rules: r.string()?, positions: r.u64()? };
    if found != *id {
        return Err(format!(
            "holds {} {} under rules {} ({} positions), expected {} {} under rules {} ({} positions)",
            found.game,
            found.variant,
            found.rules,
            found.positions,
            id.game,
            id.variant,
            id.rules,
            id.positions
        ));
    }
    let width = r.take(1)?[0] as usize;
    if ![1, 2, 4].contains(&width) {
        return Err(format!("bad code width {width}"));
    }
    let block = r.u32()? as usize;
    let blocks = r.u32()? as usize;
    let n = usize::try_from(id.positions).map_err(|_| "too many positions for this machine".to_string())?;
    // Version 1 always writes blocks of BLOCK positions; a file that says otherwise is damaged
    // (and must not make the reader allocate by its say-so).
    if block != BLOCK || blocks != n.div_ceil(block) {
        return Err(format!("{blocks} blocks of {block} positions do not hold {n} positions"));
    }
    let mut index = Vec::with_capacity(blocks);
    for _ in 0..blocks {
        index.push((r.u32()? as usize, r.u32()?));
    }
    let header_end = r.at;
    let header_crc = r.u32()?;
    if crc32fast::hash(&bytes[..header_end]) != header_crc {
        return Err("header checksum mismatch (damaged file)".into());
    }
    let mut data = Vec::with_capacity(blocks);
    for (i, &(len, crc)) in index.iter().enumerate() {
        let compressed = r.take(len)?;
        if crc32fast::hash(compressed) != crc {
            return Err(format!("block {i}: checksum mismatch (damaged file)"));
        }
        data.push(compressed);
    }
    if r.at != bytes.len() {
        return Err(format!("{} bytes after the last block", bytes.len() - r.at));
    }
    let raw: Vec<Vec<u8>> = data
        .par_iter()
        .enumerate()
        .map(|(i, compressed)| {
            let expected = block.min(n - i * block) * width;
            let (size, body) =
                lz4_flex::block::uncompressed_size(compressed).map_err(|e| format!("block {i}: {e}"))?;
            if size != expected {
                return Err(format!("block {i}: {size} bytes, expected {expected}"));
            }
            let mut raw = vec![0u8; expected];
            let written =
                lz4_flex::block::decompress_into(body, &mut raw).map_err(|e| format!("block {i}: {e}"))?;
            if written != expected {
                return Err(format!("block {i}: {written} bytes, expected {expected}"));
            }
            Ok(raw)
        })
        .collect::<Result<_, String>>()?;
    let values = raw.iter().flat_map(|block| block.chunks_exact(width)).map(|c| {
        let mut word = [0u8; 4];
        word[..width].copy_from_slice(c);
        value(u32::from_le_bytes(word))
    });
    // One-byte codes hold distances far below the compact cells' limit: 2 bytes per position.
    let solution =
        if width == 1 { Solution::from_values_compact(values) } else { Solution::from_values(values) };
    solution.map_err(|e: SolveError| e.to_string())
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

    #[test]
    fn codes_round_trip() {
        for v in [None, Some(Value::Draw(None)), Some(Value::win_in(0)), Some(Value::loss_in(84))] {
            assert_eq!(value(code(v)), v);
        }
        assert_eq!(code(Some(Value::loss_in(84))), 0xFF);
        assert_eq!(code(Some(Value::Draw(Some(Plies(84))))), 0x100);
    }

    #[test]
    fn tables_round_trip_and_refuse_damage() {
        let dir = std::env::temp_dir().join(format!("endgame-tb-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        for (n, far) in [(0, 1), (1000, 50), (200_000, 300), (70_000, 100_000)] {
            let path = dir.join(format!("t{n}.egtb"));
            let solution = sample(n, far);
            write_table(&path, &id(n as u64), &solution).unwrap();
            assert!(!dir.join(format!("t{n}.egtb.tmp")).exists());
            let back = read_table(&path, &id(n as u64)).unwrap();
            assert!(back.values().eq(solution.values()));
            assert_eq!(back.bytes_per_position(), if far <= 84 { 2 } else { 4 });
        }
        let path = dir.join("t200000.egtb");
        let good = fs::read(&path).unwrap();
        let err = |bytes: &[u8], id: &TableId| parse_table(bytes, id).unwrap_err();
        assert!(err(&good, &id(5)).contains("expected test KvK under rules standard (5 positions)"));
        let other = TableId { rules: "hdu".into(), ..id(200_000) };
        assert!(err(&good, &other).contains("holds test KvK under rules standard"));
        assert!(err(&good[..good.len() - 3], &id(200_000)).contains("truncated"));
        assert!(err(&good[..30], &id(200_000)).contains("truncated"));
        assert!(err(b"PK\x03\x04", &id(200_000)).contains("bad magic"));
        let mut flipped = good.clone();
        let last = flipped.len() - 10;
        flipped[last] ^= 0x40;
        assert!(err(&flipped, &id(200_000)).contains("checksum mismatch"));
        // The block size sits after magic, version, the names, the size and the width.
        let at = 8 + 4 + (2 + 4) + (2 + 3) + (2 + 8) + 8 + 1;
        assert_eq!(good[at..at + 4], (BLOCK as u32).to_le_bytes());
        let mut tiny_blocks = good.clone();
        tiny_blocks[at..at + 4].copy_from_slice(&1u32.to_le_bytes());
        assert!(err(&tiny_blocks, &id(200_000)).contains("blocks of 1 positions"));
        let mut header = good.clone();
        header[9] ^= 1;
        assert!(err(&header, &id(200_000)).contains("format version"));
        fs::remove_dir_all(&dir).unwrap();
    }
}
