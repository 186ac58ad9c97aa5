//! The reader: a file opened by its header alone (checked against the table expected and the
//! file's length), its blocks read one at a time with a positioned read, checked and
//! decompressed.

use std::cell::RefCell;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use super::block::{Block, stream_parts};
use super::header::{Head, parse_head};
use super::open_files::{Identity, OpenFiles, PooledFile};
use super::{Category, FORMAT_VERSION, FileKind, MAGIC, MAX_HEADER, TableError, TableId, from_entry};
use crate::value::RuleValue;

thread_local! {
    static DECOMPRESSOR: RefCell<Option<zstd::bulk::Decompressor<'static>>> = const { RefCell::new(None) };
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
    pub(super) path: PathBuf,
    file: Handle,
    pub(super) head: Head,
    /// The header's checksum.
    pub(super) crc: u32,
    /// Where each block starts in the file; one more entry for the end of the last.
    pub(super) offsets: Vec<u64>,
    pub(super) crcs: Vec<u32>,
    /// The file's length in bytes.
    pub(super) length: u64,
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
        let counts = stream_parts(&cats, &needed);
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
        Ok(Block::from_streams(start, len, self.head.width, &cats, counts, &needed, stream))
    }

    /// Reads every block (in parallel) and checks its checksum and that it decompresses (a WDL
    /// block to its size; a DTM block, whose size its WDL block tells, within its largest):
    /// [`TableFiles::verify`](super::TableFiles::verify) checks a table's two files in full.
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

    pub(super) fn read_all(&self) -> Result<Vec<Block>, TableError> {
        (0..self.blocks()).into_par_iter().map(|b| self.read_block(b)).collect()
    }

    /// Every DTM block of this DTM file, read with the WDL blocks `wdl` of its WDL file `of`.
    pub(super) fn read_all_dtm(&self, of: &TableFile, wdl: &[Block]) -> Result<Vec<Block>, TableError> {
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

/// Fills `buf` from `file` at `offset`, without moving a shared cursor.
#[cfg(unix)]
pub(super) fn read_at(file: &fs::File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

/// Fills `buf` from `file` at `offset`, without moving a shared cursor.
#[cfg(windows)]
pub(super) fn read_at(file: &fs::File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
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
