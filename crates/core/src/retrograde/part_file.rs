//! A rank's share of a partitioned solve ([`Part`](super::Part)) in a file, read back a range
//! at a time: so that one process writes a table's files block by block in index order from
//! every rank's file, never holding the whole table (ranks of a cluster share a directory).
//!
//! The file is the solver's cells as they are (1, 2 or 4 bytes a position) after a header and
//! the side list of escaped distances, which a reader keeps in memory (the one part of a
//! solution that is not per position; rare: distances of 63 plies and more, 1-byte cells).

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::Ordering::Relaxed;

use super::Solution;
use super::cells::{Cells, Escapes, decode, escaped, from_byte, from_compact};
use super::spill::read_at;
use crate::value::Value;

const MAGIC: &[u8; 8] = b"EGPART01";

/// Writes `solution` (a rank's share, or any solution) to `path`, created or truncated.
///
/// # Errors
/// When the file cannot be written.
pub fn write_part(path: &Path, solution: &Solution) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(1 << 20, File::create(path)?);
    let (width, escapes): (u8, Vec<(u64, u32)>) = match &solution.cells {
        Cells::Wide(_) => (4, Vec::new()),
        Cells::Compact(_) => (2, Vec::new()),
        Cells::Byte(_, Escapes::Narrow(list)) => (1, list.iter().map(|&(p, w)| (u64::from(p), w)).collect()),
        Cells::Byte(_, Escapes::Wide(list)) => (1, list.clone()),
    };
    out.write_all(MAGIC)?;
    out.write_all(&(solution.len() as u64).to_le_bytes())?;
    out.write_all(&[width])?;
    out.write_all(&(escapes.len() as u64).to_le_bytes())?;
    for (pos, word) in escapes {
        out.write_all(&pos.to_le_bytes())?;
        out.write_all(&word.to_le_bytes())?;
    }
    match &solution.cells {
        Cells::Wide(c) => c.iter().try_for_each(|w| out.write_all(&w.load(Relaxed).to_le_bytes()))?,
        Cells::Compact(c) => c.iter().try_for_each(|w| out.write_all(&w.load(Relaxed).to_le_bytes()))?,
        Cells::Byte(c, _) => {
            for chunk in c.chunks(1 << 16) {
                let bytes: Vec<u8> = chunk.iter().map(|w| w.load(Relaxed)).collect();
                out.write_all(&bytes)?;
            }
        }
    }
    out.into_inner().map_err(io::IntoInnerError::into_error)?.sync_all()
}

/// A file of [`write_part`], opened to read ranges of its values from any thread.
pub struct PartFile {
    file: File,
    len: usize,
    width: usize,
    /// Where the cells start.
    cells_at: u64,
    escapes: Escapes,
}

fn damaged(path: &Path, why: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("{}: {why}", path.display()))
}

impl PartFile {
    /// Opens `path` and reads its header and escapes.
    ///
    /// # Errors
    /// When the file cannot be read, or is not a whole part file.
    pub fn open(path: &Path) -> io::Result<PartFile> {
        let mut file = File::open(path)?;
        let mut head = [0u8; 25];
        file.read_exact(&mut head).map_err(|_| damaged(path, "no part file's header"))?;
        let word = |at: usize| u64::from_le_bytes(head[at..at + 8].try_into().expect("8 bytes"));
        if &head[..8] != MAGIC || ![1, 2, 4].contains(&head[16]) {
            return Err(damaged(path, "not a part file"));
        }
        let (len, width, count) = (word(8) as usize, usize::from(head[16]), word(17) as usize);
        let mut list = vec![0u8; count.checked_mul(12).ok_or_else(|| damaged(path, "too many escapes"))?];
        file.read_exact(&mut list).map_err(|_| damaged(path, "truncated escapes"))?;
        let list: Vec<(u64, u32)> = list
            .chunks_exact(12)
            .map(|e| {
                let pos = u64::from_le_bytes(e[..8].try_into().expect("8 bytes"));
                (pos, u32::from_le_bytes(e[8..].try_into().expect("4 bytes")))
            })
            .collect();
        let cells_at = 25 + 12 * count as u64;
        if file.metadata()?.len() != cells_at + (len * width) as u64 {
            return Err(damaged(path, "not the length its header says"));
        }
        Ok(PartFile { file, len, width, cells_at, escapes: Escapes::new(list) })
    }

    /// The number of positions.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether the file holds no position.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends the values of `range` (positions of the file, `None` for holes) to `out`.
    ///
    /// # Errors
    /// When the range is beyond the file, or it cannot be read.
    pub fn fill(&self, range: Range<usize>, out: &mut Vec<Option<Value>>) -> io::Result<()> {
        if range.end > self.len {
            return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "a range beyond the part file"));
        }
        let mut bytes = vec![0u8; range.len() * self.width];
        read_at(&self.file, &mut bytes, self.cells_at + (range.start * self.width) as u64)?;
        match self.width {
            1 => out.extend(bytes.iter().zip(range).map(|(&b, pos)| {
                let word = from_byte(b);
                decode(if escaped(word) { self.escapes.get(pos) } else { word })
            })),
            2 => out.extend(
                bytes.chunks_exact(2).map(|b| decode(from_compact(u16::from_le_bytes([b[0], b[1]])))),
            ),
            _ => out.extend(
                bytes.chunks_exact(4).map(|b| decode(u32::from_le_bytes(b.try_into().expect("4 bytes")))),
            ),
        }
        Ok(())
    }
}
