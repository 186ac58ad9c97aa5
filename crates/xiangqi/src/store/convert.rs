//! Converting a directory's tables ([`convert`]): every version-2 file
//! (`<dir>/xiangqi/<rules>/<material>.egtb`, one file per table, LZ4) is read whole, written as
//! version 3 (a WDL file and a DTM file, see [`endgame_core::table`]) with its statistics
//! in the header, read back and compared index by index (every legal position's value), and
//! only then removed. No solving. With [`ConvertOptions::rewrite`] the version-3 tables are
//! rewritten too, the same way (the new files are written beside, compared, then renamed over
//! the old ones): to compress a set with [`Compression::Best`] before sharing it.

use std::path::Path;

use endgame_core::perpetual::RuleSolution;
use endgame_core::table::v2::V2Reader;
use endgame_core::table::{Compression, TablePaths, move_tables};
use rayon::prelude::*;

use super::Tablebases;
use super::directory::{FilesError, io_error, materials_with, rule_dirs};
use super::source::{DTM_EXTENSION, WDL_EXTENSION, table_id};
use crate::probe::Probe;
use crate::rules::material::Material;
use crate::rules::rule_set::Rules;
use crate::tables::index::MaterialIndex;
use crate::tables::stats::Stats;

/// One file converted.
#[derive(Clone, Debug)]
pub struct Converted {
    /// The rule set.
    pub rules: Rules,
    /// The material.
    pub material: Material,
    /// Bytes of the old file (both files of a rewritten version-3 table).
    pub before: u64,
    /// Bytes of the WDL file and of the DTM file.
    pub after: (u64, u64),
}

/// What [`convert`] rewrites, and how.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ConvertOptions {
    /// The compression of the files written.
    pub compression: Compression,
    /// Rewrite the version-3 tables too (those not converted in this run), for instance to
    /// compress them with [`Compression::Best`].
    pub rewrite: bool,
}

/// Converts every version-2 file under `base` (`<base>/xiangqi/<rules>/*.egtb`) to version 3,
/// smallest materials first, calling `done` after each (see the [module](self) docs). A
/// material whose version-3 files exist already is left alone (its old file too), unless
/// `options.rewrite`: then every version-3 table is rewritten with `options.compression`.
///
/// # Errors
/// When a file cannot be read (damaged: nothing of it is written) or written, or a converted
/// table differs from its file (then that file is kept, and the new ones removed).
pub fn convert(
    base: &Path,
    options: ConvertOptions,
    done: &(dyn Fn(&Converted) + Sync),
) -> Result<Vec<Converted>, FilesError> {
    let mut converted = Vec::new();
    for (rules, dir) in rule_dirs(base) {
        let tables = Tablebases::open(base, rules).with_compression(options.compression);
        let mut fresh = Vec::new();
        for material in materials_with(&dir, "egtb")? {
            if tables.path(material).exists() {
                continue;
            }
            let one = convert_one(&tables, material)?;
            done(&one);
            converted.push(one);
            fresh.push(material);
        }
        if options.rewrite {
            for material in materials_with(&dir, WDL_EXTENSION)? {
                if !fresh.contains(&material) {
                    let one = rewrite_one(&tables, material)?;
                    done(&one);
                    converted.push(one);
                }
            }
        }
    }
    Ok(converted)
}

fn convert_one(tables: &Tablebases, material: Material) -> Result<Converted, FilesError> {
    let old = tables.v2_path(material);
    let index = MaterialIndex::new(material);
    let id = table_id(material, tables.rules(), index.len());
    let solution = V2Reader::open(&old, &id)?.read()?;
    let stats = Stats::of_values(&index, tables.rules(), |p| solution.value(p));
    let (wdl, dtm) = (tables.path(material), tables.dtm_path(material));
    let paths = TablePaths { wdl: &wdl, dtm: &dtm };
    write_checked(tables, material, paths, &stats.counters(), &solution, &old)?;
    let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).map_err(io_error(p));
    let converted =
        Converted { rules: tables.rules(), material, before: size(&old)?, after: (size(&wdl)?, size(&dtm)?) };
    std::fs::remove_file(&old).map_err(io_error(&old))?;
    Ok(converted)
}

/// Rewrites a version-3 table: its values (holes restored from the index) and its header's
/// statistics, written beside under temporary names, read back and compared, then renamed
/// over the old files (the DTM file first, as a generation writes them).
fn rewrite_one(tables: &Tablebases, material: Material) -> Result<Converted, FilesError> {
    let (wdl, dtm) = (tables.path(material), tables.dtm_path(material));
    let old = Tablebases::open_files_at(material, tables.rules(), TablePaths { wdl: &wdl, dtm: &dtm })?;
    let counters = old.wdl.counters().to_vec();
    let before = old.wdl.file_bytes() + old.dtm.file_bytes();
    drop(old);
    let solution = tables.read_rule_solution(material)?;
    let suffix = format!(".rewrite-{}", std::process::id());
    let (new_wdl, new_dtm) = (
        wdl.with_extension(format!("{WDL_EXTENSION}{suffix}")),
        dtm.with_extension(format!("{DTM_EXTENSION}{suffix}")),
    );
    let paths = TablePaths { wdl: &new_wdl, dtm: &new_dtm };
    let renamed = (|| {
        write_checked(tables, material, paths, &counters, &solution, &wdl)?;
        let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).map_err(io_error(p));
        let after = (size(&new_wdl)?, size(&new_dtm)?);
        // As a generation renames them (a pair renamed halfway is refused and replaced).
        move_tables(paths, TablePaths { wdl: &wdl, dtm: &dtm })?;
        Ok(after)
    })();
    match renamed {
        Ok(after) => Ok(Converted { rules: tables.rules(), material, before, after }),
        Err(error) => {
            // Nothing of this run is left under a temporary name.
            let _ = std::fs::remove_file(&new_wdl);
            let _ = std::fs::remove_file(&new_dtm);
            Err(error)
        }
    }
}

/// Writes `solution`, `material`'s table, as the files `paths` (as `tables` writes, in the
/// order it chooses), reads them back and compares every legal position's value; when one
/// differs, removes what it wrote and names `old` (the file kept).
fn write_checked(
    tables: &Tablebases,
    material: Material,
    paths: TablePaths<'_>,
    counters: &[(String, u64)],
    solution: &RuleSolution,
    old: &Path,
) -> Result<(), FilesError> {
    tables.write_files(material, paths, counters, &|p| solution.value(p))?;
    let back = tables
        .read_rule_solution_in(material, &Tablebases::open_files_at(material, tables.rules(), paths)?)?;
    let differs = (0..solution.len()).into_par_iter().find_first(|&p| back.value(p) != solution.value(p));
    if let Some(index) = differs {
        let _ = std::fs::remove_file(paths.wdl);
        let _ = std::fs::remove_file(paths.dtm);
        return Err(FilesError::Differs { path: old.to_path_buf(), index });
    }
    Ok(())
}
