//! The manifest of a directory's tables ([`write_manifest`]): `<dir>/manifest.txt`, one line
//! per table file: material, rule set, file (relative to the directory), bytes, SHA-256.
//! [`verify_files`] checks every file against it (a downloaded or copied set).

use std::fmt::Write as _;
use std::io::Read;
use std::path::Path;

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use super::directory::{FilesError, io_error, materials_with, rule_dirs};
use super::source::{DTM_EXTENSION, WDL_EXTENSION};
use crate::rules::material::Material;
use crate::rules::rule_set::Rules;

/// The manifest's file name in the directory.
pub const MANIFEST: &str = "manifest.txt";

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
