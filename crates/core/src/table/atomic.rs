//! Atomic writes: temporary names unique to the machine, process and call, renames into
//! place (the DTM file first) and the directory synced.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::TableError;

/// This machine's name as it goes into temporary file names (letters, digits and `-` of the
/// host name, at most 32), so that processes of several machines sharing a directory (a
/// cluster over NFS) tell their temporary files apart.
#[must_use]
pub fn host_tag() -> String {
    let name = fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .or_else(|| std::env::var("COMPUTERNAME").ok())
        .unwrap_or_default();
    let tag: String =
        name.trim().chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').take(32).collect();
    if tag.is_empty() { "host".to_string() } else { tag }
}

/// A name for a temporary file next to `path`, unique to this machine, process and call:
/// `<path>.<host>.<pid>.<nanoseconds>.<n>.tmp`. The writers of this module write under such
/// names and rename into place; a caller that writes a table it may not keep (one of two to
/// choose from) writes it under such names too, and [`move_tables`] the one it keeps.
#[must_use]
pub fn temporary_name(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let mut name = path.as_os_str().to_owned();
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    name.push(format!(".{}.{}.{nanos}.{n}.tmp", host_tag(), std::process::id()));
    PathBuf::from(name)
}

/// Syncs the directory of `path` so that a rename into it survives a crash (where directories
/// can be opened; elsewhere renames are durable by themselves).
pub(super) fn sync_directory(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        fs::File::open(dir)?.sync_all()?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// Renames a table's two files from `from` to `to` as a writer does (the DTM file first: a
/// failure between the two renames leaves a pair the reader refuses, as their checksums
/// differ) and syncs the directory.
///
/// # Errors
/// When a file cannot be renamed or the directory synced.
pub fn move_tables(from: TablePaths<'_>, to: TablePaths<'_>) -> Result<(), TableError> {
    fs::rename(from.dtm, to.dtm).map_err(|e| TableError::io(to.dtm, e))?;
    fs::rename(from.wdl, to.wdl).map_err(|e| TableError::io(to.wdl, e))?;
    sync_directory(to.wdl).map_err(|e| TableError::io(to.wdl, e))?;
    sync_directory(to.dtm).map_err(|e| TableError::io(to.dtm, e))
}

/// Where a table's two files go.
#[derive(Clone, Copy, Debug)]
pub struct TablePaths<'a> {
    /// The WDL file.
    pub wdl: &'a Path,
    /// The DTM file.
    pub dtm: &'a Path,
}
