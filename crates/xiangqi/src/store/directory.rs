//! A base directory of tables as a set of files (`<base>/xiangqi/<rules>/<material>.<ext>`):
//! the rule sets' directories there, the materials of their files, and [`FilesError`], what
//! converting them ([`super::convert`]) and their manifest ([`super::manifest`]) fail with.

use std::path::{Path, PathBuf};

use endgame_core::table::TableError;

use crate::rules::material::Material;
use crate::rules::rule_set::Rules;

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

pub(super) fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> FilesError + '_ {
    move |error| FilesError::Io { path: path.to_path_buf(), error }
}

/// The rule sets' directories under `base` that exist: `<base>/xiangqi/<rules>`.
pub(super) fn rule_dirs(base: &Path) -> Vec<(Rules, PathBuf)> {
    Rules::ALL
        .iter()
        .map(|&rules| (rules, base.join("xiangqi").join(rules.name())))
        .filter(|(_, dir)| dir.is_dir())
        .collect()
}

/// The materials of the files of `dir` with extension `extension`, sorted by men and name.
pub(super) fn materials_with(dir: &Path, extension: &str) -> Result<Vec<Material>, FilesError> {
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
