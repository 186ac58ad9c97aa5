//! Table files as a set in one directory: converting files of the previous format, and a
//! manifest of checksums to check a downloaded or copied set against.
//!
//! - [`convert`]: every version-2 file (`<dir>/xiangqi/<rules>/<material>.egtb`, one file per
//!   table, LZ4) is read whole, written as version 3 (a WDL file and a DTM file, see
//!   [`endgame_core::table_file`]) with its statistics in the header, read back and compared
//!   index by index (every legal position's value), and only then removed. No solving. With
//!   [`ConvertOptions::rewrite`] the version-3 tables are rewritten too, the same way (the new
//!   files are written beside, compared, then renamed over the old ones): to compress a set
//!   with [`Compression::Best`] before sharing it.
//! - [`write_manifest`]: `<dir>/manifest.txt`, one line per table file: material, rule set,
//!   file (relative to the directory), bytes, SHA-256. [`verify_files`] checks every file
//!   against it.

use std::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};

use endgame_core::perpetual::RuleSolution;
use endgame_core::table_file::{Compression, TableError, TablePaths, move_tables};
use endgame_core::table_v2::V2Reader;
use rayon::prelude::*;
use sha2::{Digest, Sha256};

use crate::probe::Probe;
use crate::rules::material::Material;
use crate::rules::rule_set::Rules;
use crate::store::{DTM_EXTENSION, Tablebases, WDL_EXTENSION, table_id};
use crate::tables::index::MaterialIndex;
use crate::tables::stats::Stats;

/// The manifest's file name in the directory.
pub const MANIFEST: &str = "manifest.txt";

/// Why a directory's files could not be converted, listed or checked.
#[derive(Debug, thiserror::Error)]
pub enum FilesError {
    /// A table file could not be read or written.
    #[error(transparent)]
    Table(#[from] TableError),
    /// A file or directory could not be read or written.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// A converted table does not read back as the file it was converted from (a bug: the
    /// old file is kept).
    #[error("{}: the converted table differs from it at index {index}", path.display())]
    Differs {
        /// The old file (the WDL file of a rewritten version-3 table).
        path: PathBuf,
        /// The first index that differs.
        index: usize,
    },
    /// The manifest is missing or has a bad line.
    #[error("{}: {why}", path.display())]
    Manifest {
        /// The manifest.
        path: PathBuf,
        /// What is wrong, with the line number.
        why: String,
    },
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> FilesError + '_ {
    move |error| FilesError::Io { path: path.to_path_buf(), error }
}

/// The rule sets' directories under `base` that exist: `<base>/xiangqi/<rules>`.
fn rule_dirs(base: &Path) -> Vec<(Rules, PathBuf)> {
    Rules::ALL
        .iter()
        .map(|&rules| (rules, base.join("xiangqi").join(rules.name())))
        .filter(|(_, dir)| dir.is_dir())
        .collect()
}

/// The materials of the files of `dir` with extension `extension`, sorted by men and name.
fn materials_with(dir: &Path, extension: &str) -> Result<Vec<Material>, FilesError> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io_error(dir))? {
        let entry = entry.map_err(io_error(dir))?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if let Some(material) = name.strip_suffix(&format!(".{extension}"))
            && let Ok(material) = material.parse::<Material>()
        {
            found.push(material);
        }
    }
    found.sort_by_key(|m| (m.men(), m.to_string()));
    Ok(found)
}

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

/// A table file as the manifest lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The material.
    pub material: Material,
    /// The rule set.
    pub rules: Rules,
    /// The file, relative to the directory (`xiangqi/standard/KRvK.wdl`).
    pub file: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// Its SHA-256, 64 lowercase hexadecimal digits.
    pub sha256: String,
}

/// The SHA-256 of a file, in lowercase hexadecimal.
///
/// # Errors
/// When it cannot be read.
pub fn sha256(path: &Path) -> Result<(u64, String), FilesError> {
    let mut file = std::fs::File::open(path).map_err(io_error(path))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut bytes = 0u64;
    loop {
        let n = file.read(&mut buf).map_err(io_error(path))?;
        if n == 0 {
            break;
        }
        bytes += n as u64;
        hasher.update(&buf[..n]);
    }
    let mut hex = String::with_capacity(64);
    for b in hasher.finalize() {
        let _ = write!(hex, "{b:02x}");
    }
    Ok((bytes, hex))
}

/// Every table file under `base` (`<base>/xiangqi/<rules>/*.wdl` and `*.dtm`) with its size
/// and SHA-256 (hashed in parallel), by rule set, then men, then name.
///
/// # Errors
/// When a directory or file cannot be read.
pub fn list_files(base: &Path) -> Result<Vec<Entry>, FilesError> {
    let mut files = Vec::new();
    for (rules, dir) in rule_dirs(base) {
        for extension in [WDL_EXTENSION, DTM_EXTENSION] {
            for material in materials_with(&dir, extension)? {
                files.push((material, rules, format!("xiangqi/{}/{material}.{extension}", rules.name())));
            }
        }
    }
    files.sort_by_key(|(m, r, f)| (r.name(), m.men(), m.to_string(), f.clone()));
    files
        .into_par_iter()
        .map(|(material, rules, file)| {
            let (bytes, sha256) = sha256(&base.join(&file))?;
            Ok(Entry { material, rules, file, bytes, sha256 })
        })
        .collect()
}

/// The manifest's text for `entries`: a comment line, then one line per file, its fields
/// separated by two spaces: material, rule set, file, bytes, SHA-256.
#[must_use]
pub fn manifest_text(entries: &[Entry]) -> String {
    let mut text = String::from("# endgame table manifest: material  rules  file  bytes  sha256\n");
    for e in entries {
        let _ = writeln!(text, "{}  {}  {}  {}  {}", e.material, e.rules.name(), e.file, e.bytes, e.sha256);
    }
    text
}

/// Lists every table file under `base` ([`list_files`]) and writes the manifest
/// (`<base>/manifest.txt`, atomically); returns the entries.
///
/// # Errors
/// When a file cannot be read or the manifest written.
pub fn write_manifest(base: &Path) -> Result<Vec<Entry>, FilesError> {
    let entries = list_files(base)?;
    let path = base.join(MANIFEST);
    let tmp = base.join(format!("{MANIFEST}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, manifest_text(&entries)).map_err(io_error(&tmp))?;
    std::fs::rename(&tmp, &path).map_err(io_error(&path))?;
    Ok(entries)
}

/// Reads a manifest.
///
/// # Errors
/// When it cannot be read, or a line is not five fields of the right kinds (the error names
/// the line).
pub fn read_manifest(path: &Path) -> Result<Vec<Entry>, FilesError> {
    let text = std::fs::read_to_string(path).map_err(io_error(path))?;
    let bad = |n: usize, why: String| FilesError::Manifest {
        path: path.to_path_buf(),
        why: format!("line {n}: {why}"),
    };
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split("  ").collect();
        let [material, rules, file, bytes, sha256] = fields[..] else {
            return Err(bad(n, format!("expected 5 fields separated by two spaces, found {}", fields.len())));
        };
        let material =
            material.parse::<Material>().map_err(|e| bad(n, format!("material {material:?}: {e}")))?;
        let rules = rules.parse::<Rules>().map_err(|e| bad(n, format!("rules {rules:?}: {e}")))?;
        let bytes =
            bytes.parse::<u64>().map_err(|_| bad(n, format!("bytes {bytes:?}: expected a number")))?;
        if sha256.len() != 64 || !sha256.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
            return Err(bad(n, format!("sha256 {sha256:?}: expected 64 lowercase hexadecimal digits")));
        }
        if file.split('/').any(|part| part == ".." || part.is_empty()) || file.starts_with('/') {
            return Err(bad(n, format!("file {file:?}: expected a path inside the directory")));
        }
        entries.push(Entry { material, rules, file: file.to_string(), bytes, sha256: sha256.to_string() });
    }
    Ok(entries)
}

/// What [`verify_files`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FilesCheck {
    /// Files that match the manifest.
    pub matching: usize,
    /// Files listed whose bytes differ (size or SHA-256), with what was found.
    pub differing: Vec<(Entry, String)>,
    /// Files listed but missing.
    pub missing: Vec<Entry>,
    /// Table files present but not listed.
    pub unlisted: Vec<String>,
}

impl FilesCheck {
    /// Whether every listed file is there with its bytes.
    #[must_use]
    pub fn ok(&self) -> bool {
        self.differing.is_empty() && self.missing.is_empty()
    }
}

/// A file's size and SHA-256, or why it could not be read.
type Hashed = Result<(u64, String), FilesError>;

/// Checks every file the manifest of `base` lists against its size and SHA-256 (in parallel).
///
/// # Errors
/// When the manifest is missing or bad, or a directory cannot be read.
pub fn verify_files(base: &Path) -> Result<FilesCheck, FilesError> {
    let entries = read_manifest(&base.join(MANIFEST))?;
    let results: Vec<(Entry, Option<Hashed>)> = entries
        .into_par_iter()
        .map(|e| {
            let path = base.join(&e.file);
            let found = path.exists().then(|| sha256(&path));
            (e, found)
        })
        .collect();
    let mut check = FilesCheck::default();
    let mut listed = std::collections::BTreeSet::new();
    for (e, found) in results {
        listed.insert(e.file.clone());
        match found {
            None => check.missing.push(e),
            Some(Err(error)) => check.differing.push((e, error.to_string())),
            Some(Ok((bytes, sha))) if bytes == e.bytes && sha == e.sha256 => check.matching += 1,
            Some(Ok((bytes, sha))) => {
                let what = if bytes == e.bytes {
                    format!("SHA-256 {sha}, expected {}", e.sha256)
                } else {
                    format!("{bytes} bytes, expected {}", e.bytes)
                };
                check.differing.push((e, what));
            }
        }
    }
    for (rules, dir) in rule_dirs(base) {
        for extension in [WDL_EXTENSION, DTM_EXTENSION] {
            for material in materials_with(&dir, extension)? {
                let file = format!("xiangqi/{}/{material}.{extension}", rules.name());
                if !listed.contains(&file) {
                    check.unlisted.push(file);
                }
            }
        }
    }
    Ok(check)
}
