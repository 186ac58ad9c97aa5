//! The writer: a first pass counts each category's values and lists them most frequent
//! first, a second encodes and compresses the blocks of both files, written atomically.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fs;
use std::io::{self, Seek, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::atomic::{TablePaths, sync_directory, temporary_name};
use super::header::Head;
use super::{Category, Compression, FileKind, TableError, TableId, WDL_BLOCK, entry};
use crate::value::RuleValue;

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
