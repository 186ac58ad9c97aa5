//! A table's two files together, and the solvers' side of the format: solutions written as
//! tables and read back whole, a version-2 file read as a solution, and a probe's value or
//! category at an index through a block cache.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};

use super::atomic::TablePaths;
use super::block::Block;
use super::cache::{BlockCache, BlockKey};
use super::open_files::OpenFiles;
use super::read::TableFile;
use super::v2::V2Reader;
use super::{Category, Compression, FileKind, TableError, TableId, from_entry, write_tables};
use crate::perpetual::RuleSolution;
use crate::retrograde::{Solution, SolveError};
use crate::value::{RuleValue, Value};

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
    /// cells, a WDL block at a time as [`TableFiles::read_solution_as_stored`] reads.
    ///
    /// # Errors
    /// When a block is damaged.
    pub fn read_solution_with(&self, is_hole: impl Fn(usize) -> bool + Sync) -> Result<Solution, TableError> {
        self.decode_solution(is_hole)
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
        self.decode_solution(|_| false)
    }

    /// The whole table a WDL block at a time, `None` where `is_hole` says (see
    /// [`TableFiles::read_solution_as_stored`]).
    fn decode_solution(&self, is_hole: impl Fn(usize) -> bool + Sync) -> Result<Solution, TableError> {
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
                    for (p, &c) in range.zip(&cats) {
                        out.push(if is_hole(p) { None } else { lists[c as usize][0] });
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
                    let first = d * dtm_block;
                    for (i, &c) in cats.iter().enumerate() {
                        if is_hole(first + i) {
                            out.push(None);
                            continue;
                        }
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

/// A table's two files as a probe reads them: the WDL file open, the DTM file opened when a
/// value is first asked for (a category needs the WDL file only), every block read through a
/// [`BlockCache`]. The cache's user numbers each pair sharing the cache (`key`): its WDL
/// blocks are kept under table `2 key`, its DTM blocks under `2 key + 1`.
#[derive(Debug)]
pub struct Pair {
    wdl: TableFile,
    dtm_path: PathBuf,
    /// The pool the DTM file's descriptor goes to, as the WDL file's did.
    files: Option<Arc<OpenFiles>>,
    dtm: OnceLock<TableFile>,
}

impl Pair {
    /// The pair of the open WDL file `wdl`, whose DTM file is at `dtm` (opened with its own
    /// descriptor when first needed).
    #[must_use]
    pub fn new(wdl: TableFile, dtm: &Path) -> Pair {
        Pair { wdl, dtm_path: dtm.to_path_buf(), files: None, dtm: OnceLock::new() }
    }

    /// [`Pair::new`] with the DTM file's descriptor in the pool `files` (see
    /// [`TableFile::open_in`]).
    #[must_use]
    pub fn new_in(files: &Arc<OpenFiles>, wdl: TableFile, dtm: &Path) -> Pair {
        Pair { files: Some(Arc::clone(files)), ..Pair::new(wdl, dtm) }
    }

    /// The WDL file.
    #[must_use]
    pub const fn wdl(&self) -> &TableFile {
        &self.wdl
    }

    /// The DTM file, opened (and checked against the WDL file) on the first call.
    ///
    /// # Errors
    /// When it cannot be opened (see [`TableFile::open_dtm`]).
    pub fn dtm(&self) -> Result<&TableFile, TableError> {
        if let Some(dtm) = self.dtm.get() {
            return Ok(dtm);
        }
        let opened = match &self.files {
            Some(files) => TableFile::open_dtm_in(files, &self.dtm_path, &self.wdl)?,
            None => TableFile::open_dtm(&self.dtm_path, &self.wdl)?,
        };
        Ok(self.dtm.get_or_init(|| opened))
    }

    /// Whether either file at its path now is not the one opened (see
    /// [`TableFile::replaced`]; the DTM file only once opened). A path that cannot be
    /// examined (permissions) is not taken for a replaced file.
    #[must_use]
    pub fn replaced(&self) -> bool {
        self.wdl.replaced().unwrap_or(false) || self.dtm.get().is_some_and(|d| d.replaced().unwrap_or(false))
    }

    /// Drops the blocks of both files from `cache`, where the pair's number is `key` (when
    /// its files are replaced).
    pub fn forget(&self, cache: &BlockCache, key: u32) {
        cache.forget_table(2 * key);
        cache.forget_table(2 * key + 1);
    }

    /// Block `b` of the WDL file, through the cache.
    fn wdl_block(&self, cache: &BlockCache, key: u32, b: usize) -> Result<Arc<Block>, TableError> {
        cache.get_or_load(BlockKey { table: 2 * key, block: b as u32 }, || self.wdl.read_block(b))
    }

    /// The category of index `i`, from its WDL block through `cache` (the pair's number there
    /// is `key`).
    ///
    /// # Errors
    /// When the block cannot be read or is damaged.
    pub fn category_at(&self, cache: &BlockCache, key: u32, i: usize) -> Result<Category, TableError> {
        let (b, at) = self.wdl.locate(i);
        let block = self.wdl_block(cache, key, b)?;
        block.category(at).ok_or_else(|| TableError::Damaged {
            path: self.wdl.path().to_path_buf(),
            why: format!("block {b}: a symbol that is no category"),
        })
    }

    /// The value of index `i`: its category, and its DTM symbol when the category needs one,
    /// from their blocks through `cache` (the pair's number there is `key`). Holes have some
    /// value (see the format's notes).
    ///
    /// # Errors
    /// When a file cannot be opened or read, or is damaged.
    pub fn value_at(&self, cache: &BlockCache, key: u32, i: usize) -> Result<RuleValue, TableError> {
        let category = self.category_at(cache, key, i)?;
        let dtm = self.dtm()?;
        let symbol = if dtm.needs_symbol(category) {
            let (b, at) = dtm.locate(i);
            let block = cache.get_or_load(BlockKey { table: 2 * key + 1, block: b as u32 }, || {
                let wdl_block = self.wdl_block(cache, key, dtm.wdl_block_of(b, &self.wdl))?;
                dtm.read_dtm_block(b, &wdl_block)
            })?;
            block.symbol(at).unwrap_or(u32::MAX)
        } else {
            0
        };
        dtm.value(category, symbol)
    }
}

impl V2Reader {
    /// Reads the whole table into memory (every block checked), holes as `None`.
    ///
    /// # Errors
    /// When a block is damaged or a value beyond the solver's limits.
    pub fn read(&self) -> Result<RuleSolution, TableError> {
        let values = self.values()?;
        RuleSolution::from_values(values.len(), |p| values.get(p))
            .map_err(|e: SolveError| TableError::damaged(self.path(), e.to_string()))
    }
}
