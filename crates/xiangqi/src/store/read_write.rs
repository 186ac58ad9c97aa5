//! A table's files read and written whole: opened in either order (its own index's or its
//! colour twin's), read into a solution with the index's holes restored, written with their
//! statistics (under the best compression in the smaller of the two orders), and the
//! statistics read from a WDL file's header.

use std::ops::Range;
use std::path::Path;

use endgame_core::RuleValue;
use endgame_core::Solution;
use endgame_core::perpetual::RuleSolution;
use endgame_core::table::Compression;
use endgame_core::table::{
    TableError, TableFile, TableFiles, TablePaths, move_tables, temporary_name, write_tables,
};

use super::Tablebases;
use super::cost::index_size;
use super::source::{DTM_EXTENSION, WDL_EXTENSION, in_twin_order, open_either, table_id, twin_order_id};
use crate::probe::ProbeError;
use crate::rules::material::Material;
use crate::rules::rule_set::Rules;
use crate::tables::index::{ColourFlip, MaterialIndex};
use crate::tables::stats::Stats;

/// The indices of `index` that are no holes of a table under `rules` (holes have no value:
/// the files hold one chosen for compression there), as bits (see
/// [`MaterialIndex::position_bits`]): under `hdu` every index that decodes has a value (a
/// position with the side not to move in check is one, see [`Rules::Hdu`]), under the other
/// rule sets only the legal ones. Found for the whole index at once, each placement decoded
/// once for both sides to move (tested index by index, the holes took most of a whole-table
/// read: 3.2 of the 7.3 s of a check-and-chase solve of `KNRCvK`, which has no draws).
fn position_bits(index: &MaterialIndex, rules: Rules) -> Vec<u64> {
    index.position_bits(rules != Rules::Hdu)
}

/// What puts the values of a range of indices, in order, into a buffer.
pub(crate) type FillValues<'a> = dyn Fn(Range<usize>, &mut Vec<Option<RuleValue>>) + Sync + 'a;

/// Whether `p` is a hole by the bits of [`position_bits`].
fn is_hole(positions: &[u64], p: usize) -> bool {
    positions[p / 64] >> (p % 64) & 1 == 0
}

/// Whether a whole-table read looks for the holes of the index (to give `None` there) or
/// reads them as the file holds them.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Holes {
    Found,
    Skipped,
}

/// The statistics in a WDL file's header.
pub(super) fn stats_of_file(wdl: &TableFile) -> Result<Stats, TableError> {
    Stats::from_counters(|name| wdl.counter(name)).ok_or_else(|| TableError::Damaged {
        path: wdl.path().to_path_buf(),
        why: "the header has no statistics".into(),
    })
}

impl Tablebases {
    /// Opens both files of `material`'s table (the headers only).
    pub(super) fn open_files(
        &self,
        material: Material,
        rules: Rules,
        dir: &Path,
    ) -> Result<TableFiles, TableError> {
        let (wdl, dtm) = (
            dir.join(format!("{material}.{WDL_EXTENSION}")),
            dir.join(format!("{material}.{DTM_EXTENSION}")),
        );
        Tablebases::open_files_at(material, rules, TablePaths { wdl: &wdl, dtm: &dtm })
    }

    /// Opens `paths`, the files of `material`'s table under `rules`, in either order.
    pub(crate) fn open_files_at(
        material: Material,
        rules: Rules,
        paths: TablePaths<'_>,
    ) -> Result<TableFiles, TableError> {
        let positions = MaterialIndex::new(material).len();
        open_either(material, rules, positions, |id| TableFiles::open(paths, id))
    }

    /// `material`'s table read whole from its files, holes as `None` (restored from the index:
    /// the files' holes hold values chosen for compression), as a solve leaves them.
    ///
    /// # Errors
    /// When a file is missing, damaged, or another table.
    pub fn read_solution(&self, material: Material) -> Result<Solution, TableError> {
        let files = self.open_files(material, self.rules, &self.dir)?;
        if !in_twin_order(&files.wdl) {
            // In the index's own order: a block at a time (a value looked up per index, as
            // the twin's order needs, took 16.6 s of a check-and-chase solve of `KNRvKAR`).
            let positions = position_bits(&MaterialIndex::new(material), self.rules);
            return files.read_solution_with(|p| is_hole(&positions, p));
        }
        self.with_file_positions(material, &files, Holes::Found, |n, at| files.read_solution_at(n, at))
    }

    /// [`Tablebases::read_solution`] under `perpetual-check` (rule values and ranks).
    ///
    /// # Errors
    /// When a file is missing, damaged, or another table.
    pub fn read_rule_solution(&self, material: Material) -> Result<RuleSolution, TableError> {
        self.read_rule_solution_in(material, &self.open_files(material, self.rules, &self.dir)?)
    }

    /// [`Tablebases::read_rule_solution`] from `files`, `material`'s (wherever they are).
    pub(crate) fn read_rule_solution_in(
        &self,
        material: Material,
        files: &TableFiles,
    ) -> Result<RuleSolution, TableError> {
        self.with_file_positions(material, files, Holes::Found, |n, at| files.read_rule_solution_at(n, at))
    }

    /// Calls `read` with where `files`, `material`'s table, hold the value of each index of
    /// `material` (`None` for a hole): at that index, or at the colour twin's index of its
    /// position when they are in the twin's order ([`TWIN_ORDER`]).
    pub(super) fn with_file_positions<T>(
        &self,
        material: Material,
        files: &TableFiles,
        holes: Holes,
        read: impl FnOnce(usize, &(dyn Fn(usize) -> Option<usize> + Sync)) -> T,
    ) -> T {
        let index = MaterialIndex::new(material);
        let positions = if holes == Holes::Found { position_bits(&index, self.rules) } else { Vec::new() };
        let hole = |p| holes == Holes::Found && is_hole(&positions, p);
        if !in_twin_order(&files.wdl) {
            return read(index.len(), &|p| (!hole(p)).then_some(p));
        }
        let twin = MaterialIndex::new(material.colour_twin());
        let flip = ColourFlip::new(&index, &twin);
        read(index.len(), &|p| if hole(p) { None } else { flip.index(p) })
    }

    /// Writes `solution`, `material`'s table solved in memory under this store's rules, as its
    /// two files with its statistics in the header, as a generation writes them (the
    /// directory must exist). For a table solved elsewhere, such as by [`MemoryTables`].
    ///
    /// # Errors
    /// When a file cannot be written, or the solution is not of `material`'s size.
    ///
    /// [`MemoryTables`]: crate::MemoryTables
    pub fn write_solution(&self, material: Material, solution: &Solution) -> Result<(), TableError> {
        self.write_table(material, solution.len(), &|p| solution.value(p).map(RuleValue::from))
    }

    /// [`Tablebases::write_solution`] of a table solved under the rule (a
    /// [`PerpetualTablebase`]'s).
    ///
    /// # Errors
    /// When a file cannot be written, or the solution is not of `material`'s size.
    ///
    /// [`PerpetualTablebase`]: crate::PerpetualTablebase
    pub fn write_rule_solution(&self, material: Material, solution: &RuleSolution) -> Result<(), TableError> {
        self.write_table(material, solution.len(), &|p| solution.value(p))
    }

    /// Writes `material`'s table of `len` positions, whose values `value` gives, as its files
    /// ([`Tablebases::write_files`]) with its statistics, then forgets what was opened of it.
    fn write_table(
        &self,
        material: Material,
        len: usize,
        value: &(dyn Fn(usize) -> Option<RuleValue> + Sync),
    ) -> Result<(), TableError> {
        let index = MaterialIndex::new(material);
        let (path, dtm_path) = (self.path(material), self.dtm_path(material));
        if len != index.len() {
            let why = format!("{len} positions in the solution, {} in the index of {material}", index.len());
            return Err(TableError::Damaged { path, why });
        }
        let stats = Stats::of_values(&index, self.rules, value);
        self.write_files(material, TablePaths { wdl: &path, dtm: &dtm_path }, &stats.counters(), value)?;
        self.forget(material);
        Ok(())
    }

    /// Writes `material`'s table, `value` its value at each index (`None` for holes), as the
    /// files `paths` with `counters` in their headers, atomically. Under [`Compression::Best`]
    /// a material that is not its own colour twin is written in both orders, its own index's
    /// and its twin's (the id [`twin_order_id`]), and the smaller pair is kept: the order
    /// of the positions changes what the coder finds (`KNCvKN` under `standard`: 11.9 MB in
    /// its own order, 10.6 MB in its twin's), and which order wins depends on the material.
    pub(crate) fn write_files(
        &self,
        material: Material,
        paths: TablePaths<'_>,
        counters: &[(String, u64)],
        value: &(dyn Fn(usize) -> Option<RuleValue> + Sync),
    ) -> Result<(), TableError> {
        self.write_files_by(material, paths, counters, value, &|range, out| out.extend(range.map(value)))
    }

    /// [`Tablebases::write_files`] with the values of a range of indices in their order also
    /// from `fill` (as `value` gives them one by one), where a source gives them faster so:
    /// the index's own order is written from it, the twin's from `value`.
    pub(crate) fn write_files_by(
        &self,
        material: Material,
        paths: TablePaths<'_>,
        counters: &[(String, u64)],
        value: &(dyn Fn(usize) -> Option<RuleValue> + Sync),
        fill: &FillValues<'_>,
    ) -> Result<(), TableError> {
        let (index, twin) = (MaterialIndex::new(material), MaterialIndex::new(material.colour_twin()));
        let id = table_id(material, self.rules, index.len());
        let own = |paths| write_tables(paths, &id, counters, self.compression, fill);
        if self.compression != Compression::Best
            || material.colour_twin() == material
            || twin.len() != index.len()
        {
            return own(paths);
        }
        let names = [paths.wdl, paths.dtm, paths.wdl, paths.dtm].map(temporary_name);
        let own_paths = TablePaths { wdl: &names[0], dtm: &names[1] };
        let twin_paths = TablePaths { wdl: &names[2], dtm: &names[3] };
        let kept = (|| {
            own(own_paths)?;
            let twin_id = twin_order_id(material, self.rules, index.len());
            // Position `j` of the files: the twin's index `j`, seen from the other side.
            let flip = ColourFlip::new(&twin, &index);
            write_tables(twin_paths, &twin_id, counters, self.compression, |range, out| {
                flip.for_each_index(range, |i| out.push(i.and_then(value)));
            })?;
            let bytes = |p: TablePaths<'_>| -> Result<u64, TableError> {
                let len = |f: &Path| std::fs::metadata(f).map(|m| m.len()).map_err(|e| TableError::io(f, e));
                Ok(len(p.wdl)? + len(p.dtm)?)
            };
            let keep = if bytes(twin_paths)? < bytes(own_paths)? { twin_paths } else { own_paths };
            move_tables(keep, paths)
        })();
        for name in &names {
            let _ = std::fs::remove_file(name);
        }
        kept
    }

    /// The statistics of `material` from its WDL file's header, when it has a file (none of
    /// its blocks is read).
    ///
    /// # Errors
    /// When the file cannot be opened, or its header has no statistics.
    pub fn file_stats(&self, material: Material) -> Result<Option<Stats>, ProbeError> {
        let path = self.path(material);
        if !path.exists() {
            return Ok(None);
        }
        let wdl = open_either(material, self.rules, index_size(material)?, |id| {
            TableFile::open(&path, id, endgame_core::table::FileKind::Wdl)
        })
        .map_err(|e| self.table_error(material, e))?;
        Ok(Some(stats_of_file(&wdl).map_err(|e| self.table_error(material, e))?))
    }
}
