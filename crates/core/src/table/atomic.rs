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

/// Whether the process `pid` of this machine may still be writing a temporary file named at
/// `nanos` (nanoseconds since the Unix epoch, as [`temporary_name`] writes them): it runs, and
/// it started no later than that name was made. A process with that id that started later is
/// another one (ids are reused: `/proc/sys/kernel/pid_max` is often 32,768), and the file's
/// writer is gone. Where processes cannot be looked up (not Linux), `true`: nothing is taken
/// for stale.
#[must_use]
pub fn writer_alive(pid: u32, nanos: u128) -> bool {
    if !Path::new("/proc/self").exists() {
        return true;
    }
    let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    match process_start_nanos(&stat) {
        // The start time counts in ticks of 1/100 s (USER_HZ, fixed at 100 in Linux's ABI):
        // a second of slack covers the rounding.
        Some(start) => start <= nanos + 1_000_000_000,
        None => true,
    }
}

/// The start of the process whose `/proc/<pid>/stat` is `stat`, in nanoseconds since the Unix
/// epoch: its field 22 (ticks since boot) after the boot time of `/proc/stat`.
fn process_start_nanos(stat: &str) -> Option<u128> {
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    let after = &stat[stat.rfind(')')? + 1..];
    let ticks: u128 = after.split_whitespace().nth(19)?.parse().ok()?;
    let boot = fs::read_to_string("/proc/stat").ok()?;
    let btime: u128 = boot.lines().find_map(|l| l.strip_prefix("btime "))?.trim().parse().ok()?;
    Some(btime * 1_000_000_000 + ticks * 10_000_000)
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

#[cfg(test)]
mod tests {
    use super::writer_alive;

    fn now() -> u128 {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("clock").as_nanos()
    }

    #[test]
    fn this_process_may_be_writing_a_file_named_now() {
        assert!(writer_alive(std::process::id(), now()));
    }

    #[test]
    fn a_process_started_after_the_name_was_made_is_not_its_writer() {
        if std::path::Path::new("/proc/self/stat").exists() {
            // A name made a day ago, before this process began: its id was reused.
            let day_ago = now() - 86_400_000_000_000;
            assert!(!writer_alive(std::process::id(), day_ago));
        }
    }

    #[test]
    fn a_process_that_does_not_run_writes_nothing() {
        if std::path::Path::new("/proc/self/stat").exists() {
            // Above any pid_max Linux allows (2^22).
            assert!(!writer_alive(u32::MAX - 1, now()));
        }
    }
}
