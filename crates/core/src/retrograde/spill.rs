//! The scratch file that the start pass's packed lists go to in large solves: their bytes on
//! disk instead of in memory (a quarter byte per position or so), read back a segment at a
//! time when their level is walked. The file has no name from the moment it is made (it is
//! removed at once where the system allows it, else when it is dropped), so nothing is left
//! behind however the solve ends.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::SolveError;
use super::packed::{Packed, Segment};

/// Positions the start pass classifies between two spills when its lists go to a scratch
/// file: the lists of one window are all that is in memory at once (measured about 0.2 bytes
/// a position, at most about one: [`WINDOW_BYTES`]).
pub(super) const WINDOW: usize = 1 << 24;

/// The most bytes the lists of one [`WINDOW`] take before they are spilled (an allowance of
/// a byte per position: the lists take about 0.2).
pub(super) const WINDOW_BYTES: u64 = WINDOW as u64;

/// Where a segment's bytes lie in the scratch file.
#[derive(Clone, Copy, Debug)]
pub(super) struct Spilled {
    pub(super) offset: u64,
}

/// The scratch file of one solve.
pub(super) struct Scratch {
    file: File,
    /// Positions the start pass classifies between two spills (a multiple of its chunks).
    pub(super) window: usize,
    /// The bytes written so far (the next segment's offset).
    end: AtomicU64,
    /// The file's name while it has one (systems that do not remove an open file).
    path: Option<PathBuf>,
    /// The first error a read met in a parallel pass (reported after the pass).
    error: Mutex<Option<String>>,
}

impl Scratch {
    /// A new scratch file in `dir` (the system's temporary directory when `None`), for a start
    /// pass that spills every `window` positions.
    pub(super) fn new(dir: Option<&Path>, window: usize) -> Result<Scratch, SolveError> {
        static MADE: AtomicU64 = AtomicU64::new(0);
        let dir = dir.map_or_else(std::env::temp_dir, Path::to_path_buf);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let name = format!(".endgame-scratch.{}.{nanos}.{}", std::process::id(), MADE.fetch_add(1, Relaxed));
        let path = dir.join(name);
        let file = File::options()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| scratch_error(&path, &e))?;
        // Removed now (an open file stays readable on Unix): nothing is left behind, even when
        // the process is killed. Where that fails (Windows) it is removed on drop.
        let path = std::fs::remove_file(&path).is_err().then_some(path);
        Ok(Scratch { file, window, end: AtomicU64::new(0), path, error: Mutex::new(None) })
    }

    /// Writes the bytes of every segment of `lists` still in memory to the file and frees
    /// them (the segments keep where their bytes are).
    pub(super) fn spill(&self, lists: &mut [Packed]) -> Result<(), SolveError> {
        let mut file = &self.file;
        for segment in lists.iter_mut().flat_map(|l| l.segments.iter_mut()) {
            if segment.spilled.is_some() {
                continue;
            }
            file.write_all(&segment.bytes).map_err(|e| self.io_error(&e))?;
            let offset = self.end.fetch_add(segment.bytes.len() as u64, Relaxed);
            segment.spilled = Some(Spilled { offset });
            segment.bytes = Vec::new();
        }
        Ok(())
    }

    /// Calls `f` with each position of `segment`, reading its bytes into `buffer` when they
    /// are in the file. An error is kept for [`Scratch::check`] (the segment is then skipped).
    pub(super) fn for_each(
        scratch: Option<&Scratch>,
        segment: &Segment,
        buffer: &mut Vec<u8>,
        f: impl FnMut(usize),
    ) {
        match (segment.spilled, scratch) {
            (None, _) => segment.for_each_in(&segment.bytes, f),
            (Some(at), Some(scratch)) => {
                buffer.resize(segment.byte_len as usize, 0);
                match read_at(&scratch.file, buffer, at.offset) {
                    Ok(()) => segment.for_each_in(buffer, f),
                    Err(e) => {
                        let mut kept =
                            scratch.error.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                        kept.get_or_insert_with(|| scratch.message(&e));
                    }
                }
            }
            (Some(_), None) => unreachable!("a spilled segment comes with its scratch file"),
        }
    }

    /// The first error a read met, if any.
    pub(super) fn check(&self) -> Result<(), SolveError> {
        let kept = self.error.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
        kept.map_or(Ok(()), |why| Err(SolveError::Scratch(why)))
    }

    fn message(&self, e: &std::io::Error) -> String {
        match &self.path {
            Some(path) => format!("{}: {e}", path.display()),
            None => format!("the scratch file: {e}"),
        }
    }

    fn io_error(&self, e: &std::io::Error) -> SolveError {
        SolveError::Scratch(self.message(e))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Some(path) = &self.path {
            let _ = std::fs::remove_file(path);
        }
    }
}

fn scratch_error(path: &Path, e: &std::io::Error) -> SolveError {
    SolveError::Scratch(format!("{}: {e}", path.display()))
}

/// Reads `buffer.len()` bytes at `offset` (from any thread: no shared cursor where the system
/// has positioned reads).
pub(super) fn read_at(file: &File, buffer: &mut [u8], offset: u64) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_exact_at(file, buffer, offset)
    }
    #[cfg(windows)]
    {
        let mut done = 0;
        while done < buffer.len() {
            let n =
                std::os::windows::fs::FileExt::seek_read(file, &mut buffer[done..], offset + done as u64)?;
            if n == 0 {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            done += n;
        }
        Ok(())
    }
}
