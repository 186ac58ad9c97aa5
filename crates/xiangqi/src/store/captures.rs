//! The smaller tables a generation's captures read, from their files a block at a time
//! ([`CaptureFile`]): no smaller table is held whole, each costs a few decompressed blocks per
//! thread of the solver (see `docs/generation.md` for why, and what was measured).
//!
//! The captures of a solve read the smaller tables in the solve's first pass only (the level
//! passes never look at them), and they read them nearly in order: the index is a mixed-radix
//! number with Red's General first and the side to move last, and a capture removes one digit,
//! so the positions of a chunk of the first pass capture into a few consecutive blocks of each
//! smaller table. Each thread keeps its last [`BLOCKS_PER_THREAD`] WDL blocks of a table (and
//! the DTM blocks of them it needed) without a lock shared with another thread.
//!
//! Under `perpetual-check` and `check-and-chase` the same reader reads the rule's files
//! ([`RuleCaptureTable`]): the `standard` value of a position is its value under the rule
//! with the results by the rule read as draws ([`RuleValue::plain`]).

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use endgame_core::table::{Block, TableError, TableFiles};
use endgame_core::{RuleValue, Value};

use super::Tablebases;
use super::cost::held_whole;
use super::generate::GenerateError;
use super::source::in_twin_order;
use crate::rules::material::Material;
use crate::tables::index::MaterialIndex;
use crate::tables::material_game::CaptureTable;
use crate::tables::perpetual::RuleCaptureTable;

/// What the captures of a solve read from the files read a block at a time: for
/// measurements of the cache ([`CaptureFile::reads`], [`CaptureFile::loads`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CaptureReads {
    /// Values read.
    pub values: u64,
    /// Blocks read and decompressed (WDL and DTM).
    pub blocks: u64,
}

impl CaptureReads {
    /// The reads of `files`, added up.
    #[must_use]
    pub fn of<'a>(files: impl IntoIterator<Item = &'a CaptureFile>) -> CaptureReads {
        files.into_iter().fold(CaptureReads::default(), |sum, f| CaptureReads {
            values: sum.values + f.reads(),
            blocks: sum.blocks + f.loads(),
        })
    }
}

/// The file among `files` (each with the material its index numbers) that answers for the
/// material `smaller`: its own (`false`), or, under rules that treat both sides alike
/// (`symmetric`), its colour twin's, read with the colours flipped (`true`).
pub(super) fn answering<T>(
    files: &[(Material, T)],
    smaller: Material,
    symmetric: bool,
) -> Option<(&T, bool)> {
    files.iter().find_map(|(indexed, file)| {
        if *indexed == smaller {
            Some((file, false))
        } else if symmetric && *indexed == smaller.colour_twin() {
            Some((file, true))
        } else {
            None
        }
    })
}

/// WDL blocks (with their DTM blocks) each thread keeps of one table.
pub const BLOCKS_PER_THREAD: usize = 8;

/// One WDL block decompressed, with the DTM blocks within it read so far.
struct Cached {
    /// The WDL block's number.
    block: usize,
    wdl: Block,
    /// DTM blocks within it, by number.
    dtm: Vec<(usize, Block)>,
}

/// A smaller table read block by block from its files for the captures of a solve (see the
/// [module](self) notes). An error reading a block (a damaged or vanished file) is kept, the
/// value read as a draw, and reported by [`CaptureFile::error`] after the solve, which must
/// then be thrown away.
pub struct CaptureFile {
    index: MaterialIndex,
    files: TableFiles,
    /// Per thread of the pool (and one more for any other thread): its cached blocks, most
    /// recently used last, and how many values it read.
    slots: Vec<Mutex<(Vec<Cached>, u64)>>,
    error: Mutex<Option<TableError>>,
    /// Blocks read and decompressed (WDL and DTM).
    loads: AtomicU64,
}

impl CaptureFile {
    /// The table in `files`, whose positions `index` numbers (the files' own order).
    #[must_use]
    pub fn new(index: MaterialIndex, files: TableFiles) -> CaptureFile {
        let slots = (0..=rayon::current_num_threads()).map(|_| Mutex::new((Vec::new(), 0))).collect();
        CaptureFile { index, files, slots, error: Mutex::new(None), loads: AtomicU64::new(0) }
    }

    /// The first error a read met, if any (then some values read were wrong).
    pub fn error(&self) -> Option<TableError> {
        self.error.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take()
    }

    /// Blocks read and decompressed so far (WDL and DTM), for measurements.
    #[must_use]
    pub fn loads(&self) -> u64 {
        self.loads.load(Ordering::Relaxed)
    }

    /// Values read so far, for measurements (with [`CaptureFile::loads`], the cache's hit
    /// rate).
    #[must_use]
    pub fn reads(&self) -> u64 {
        self.slots.iter().map(|s| s.lock().unwrap_or_else(std::sync::PoisonError::into_inner).1).sum()
    }

    fn failed(&self, error: TableError) -> RuleValue {
        let mut kept = self.error.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        kept.get_or_insert(error);
        RuleValue::Draw(None)
    }

    fn read(&self, i: usize) -> Result<RuleValue, TableError> {
        let (wdl, dtm) = (&self.files.wdl, &self.files.dtm);
        let (b, at) = wdl.locate(i);
        let slot =
            rayon::current_thread_index().map_or(self.slots.len() - 1, |t| t.min(self.slots.len() - 1));
        let mut guard = self.slots[slot].lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let (cached, reads) = &mut *guard;
        *reads += 1;
        let k = match cached.iter().rposition(|c| c.block == b) {
            Some(k) => k,
            None => {
                if cached.len() == BLOCKS_PER_THREAD {
                    cached.remove(0);
                }
                self.loads.fetch_add(1, Ordering::Relaxed);
                cached.push(Cached { block: b, wdl: wdl.read_block(b)?, dtm: Vec::new() });
                cached.len() - 1
            }
        };
        let last = cached.len() - 1;
        if k != last {
            let entry = cached.remove(k);
            cached.push(entry);
        }
        let entry = cached.last_mut().expect("just pushed");
        let category = entry.wdl.category(at).ok_or_else(|| TableError::Damaged {
            path: wdl.path().to_path_buf(),
            why: format!("block {b}: a symbol that is no category"),
        })?;
        let symbol = if dtm.needs_symbol(category) {
            let (d, at) = dtm.locate(i);
            let block = match entry.dtm.iter().position(|(n, _)| *n == d) {
                Some(j) => &entry.dtm[j].1,
                None => {
                    self.loads.fetch_add(1, Ordering::Relaxed);
                    let block = dtm.read_dtm_block(d, &entry.wdl)?;
                    entry.dtm.push((d, block));
                    &entry.dtm.last().expect("just pushed").1
                }
            };
            block.symbol(at).unwrap_or(u32::MAX)
        } else {
            0
        };
        dtm.value(category, symbol)
    }
}

impl CaptureTable for CaptureFile {
    fn index(&self) -> &MaterialIndex {
        &self.index
    }

    fn value(&self, i: usize) -> Value {
        self.read(i).unwrap_or_else(|e| self.failed(e)).plain()
    }
}

impl RuleCaptureTable for CaptureFile {
    fn rule_value(&self, i: usize) -> RuleValue {
        self.read(i).unwrap_or_else(|e| self.failed(e))
    }
}

impl Tablebases {
    /// The files of the tables the captures of `material` read that are held whole
    /// ([`held_whole`]), by the material each answers for.
    pub(super) fn held_whole_files(&self, material: Material) -> Vec<Material> {
        let whole = if self.blocks_only { Vec::new() } else { held_whole(material) };
        Tablebases::reads(material, |m| self.file_material(m))
            .into_iter()
            .filter(|file| whole.contains(&file.canonical()))
            .collect()
    }

    /// The files of the tables the captures of `material` read a block at a time, all but
    /// those `held` says are held (by the material whose file answers), opened, each with the
    /// material its index numbers (a file in its colour twin's order holds the twin's table in
    /// the twin's index).
    pub(super) fn capture_block_files(
        &self,
        material: Material,
        held: impl Fn(Material) -> bool,
    ) -> Result<Vec<(Material, CaptureFile)>, GenerateError> {
        let mut files = Vec::new();
        for file in Tablebases::reads(material, |m| self.file_material(m)) {
            if held(file) {
                continue;
            }
            let opened = self.open_files(file, self.rules, &self.dir)?;
            let indexed = if in_twin_order(&opened.wdl) { file.colour_twin() } else { file };
            files.push((indexed, CaptureFile::new(MaterialIndex::new(indexed), opened)));
        }
        Ok(files)
    }
}
