//! A bounded pool of open files, for readers of many table files in one process.
//!
//! A full directory of tables has thousands of files; a process has a limit on open
//! descriptors (`ulimit -n`, often 1,024), which a server also needs for its connections. So
//! the readers do not keep their files open: a [`PooledFile`] remembers its path and the
//! identity its file had when it was opened ([`Identity`]: device, inode, length, modification
//! time), and asks the pool ([`OpenFiles`]) for a descriptor for each read. The pool keeps at
//! most its capacity open, closing the least recently used; a file closed that way is opened
//! again on its next read, and if what is at its path then is not the file it opened (the
//! table was regenerated, moved or deleted), the read fails instead of reading another file
//! with the old layout.
//!
//! A process has one pool by default ([`OpenFiles::shared`]); a server that shares its
//! descriptors between connections and table files gives its stores a pool of the size it
//! chose.
//!
//! [`PooledFile::replaced`] compares the path's identity with the one opened, so that a reader
//! notices a file replaced under it (a regenerated table) and opens the new one. Reads take the
//! descriptor out of the pool's lock, so two threads read at once; a descriptor the pool closes
//! while a read uses it stays open until that read ends.

use std::fs::{self, File, Metadata};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use lru::LruCache;

/// Files kept open by [`OpenFiles::default`]: a quarter of the usual limit of 1,024.
pub const DEFAULT_OPEN_FILES: usize = 256;

/// What tells two files at one path apart: device and inode (a new file written and renamed
/// over the old one), length and modification time (the same file rewritten in place).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Identity {
    device: u64,
    inode: u64,
    length: u64,
    modified: Option<std::time::SystemTime>,
}

impl Identity {
    /// The identity of the file `meta` describes.
    #[must_use]
    pub fn of(meta: &Metadata) -> Identity {
        #[cfg(unix)]
        let (device, inode) = {
            use std::os::unix::fs::MetadataExt;
            (meta.dev(), meta.ino())
        };
        #[cfg(not(unix))]
        let (device, inode) = (0, 0);
        Identity { device, inode, length: meta.len(), modified: meta.modified().ok() }
    }

    /// The length of the file in bytes.
    #[must_use]
    pub const fn len(&self) -> u64 {
        self.length
    }

    /// Whether the file is empty.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.length == 0
    }
}

/// The pool: at most `capacity` files open, the least recently used closed first.
#[derive(Debug)]
pub struct OpenFiles {
    capacity: usize,
    open: Mutex<LruCache<u64, Arc<File>>>,
    next: AtomicU64,
    /// Files opened (first opening and reopenings), for tests and statistics.
    opened: AtomicU64,
}

impl Default for OpenFiles {
    fn default() -> Self {
        OpenFiles::new(DEFAULT_OPEN_FILES)
    }
}

impl OpenFiles {
    /// The pool of the process ([`DEFAULT_OPEN_FILES`]), shared by every reader not given one
    /// of its own: stores of several rule sets or directories in one process then stay within
    /// one bound together.
    #[must_use]
    pub fn shared() -> Arc<OpenFiles> {
        static SHARED: std::sync::OnceLock<Arc<OpenFiles>> = std::sync::OnceLock::new();
        Arc::clone(SHARED.get_or_init(|| Arc::new(OpenFiles::default())))
    }

    /// A pool keeping at most `capacity` files open (at least 1).
    #[must_use]
    pub fn new(capacity: usize) -> OpenFiles {
        OpenFiles {
            capacity: capacity.max(1),
            open: Mutex::new(LruCache::unbounded()),
            next: AtomicU64::new(0),
            opened: AtomicU64::new(0),
        }
    }

    /// The most files it keeps open.
    #[must_use]
    pub const fn capacity(&self) -> usize {
        self.capacity
    }

    /// Files open now (besides those a read is still using after the pool closed them).
    #[must_use]
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no file is open.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Files opened so far, first openings and reopenings.
    #[must_use]
    pub fn opened(&self) -> u64 {
        self.opened.load(Ordering::Relaxed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, LruCache<u64, Arc<File>>> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps `file` open as `id`, closing the least recently used beyond the capacity.
    fn keep(&self, id: u64, file: Arc<File>) {
        let mut open = self.lock();
        open.put(id, file);
        while open.len() > self.capacity {
            open.pop_lru();
        }
    }
}

/// A file read through a pool (see the [module](self) docs).
#[derive(Debug)]
pub struct PooledFile {
    pool: Arc<OpenFiles>,
    id: u64,
    path: PathBuf,
    identity: Identity,
}

impl PooledFile {
    /// Opens `path` and keeps it in `pool`.
    ///
    /// # Errors
    /// When it cannot be opened.
    pub fn open(pool: &Arc<OpenFiles>, path: &Path) -> io::Result<PooledFile> {
        let file = File::open(path)?;
        let identity = Identity::of(&file.metadata()?);
        pool.opened.fetch_add(1, Ordering::Relaxed);
        let id = pool.next.fetch_add(1, Ordering::Relaxed);
        pool.keep(id, Arc::new(file));
        Ok(PooledFile { pool: Arc::clone(pool), id, path: path.to_path_buf(), identity })
    }

    /// The path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The identity the file had when it was opened.
    #[must_use]
    pub const fn identity(&self) -> Identity {
        self.identity
    }

    /// An open descriptor of the file: the pool's, or the file opened again (when it is still
    /// the file first opened).
    fn handle(&self) -> io::Result<Arc<File>> {
        if let Some(file) = self.pool.lock().get(&self.id) {
            return Ok(Arc::clone(file));
        }
        let file = File::open(&self.path)?;
        if Identity::of(&file.metadata()?) != self.identity {
            return Err(io::Error::other("the file was replaced since it was opened"));
        }
        self.pool.opened.fetch_add(1, Ordering::Relaxed);
        let file = Arc::new(file);
        self.pool.keep(self.id, Arc::clone(&file));
        Ok(file)
    }

    /// Reads exactly `buf.len()` bytes at `offset`.
    ///
    /// # Errors
    /// When the file cannot be read (or opened again), is shorter, or was replaced since it
    /// was opened.
    pub fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        let file = self.handle()?;
        #[cfg(unix)]
        {
            std::os::unix::fs::FileExt::read_exact_at(&*file, buf, offset)
        }
        #[cfg(windows)]
        {
            use std::os::windows::fs::FileExt;
            let (mut buf, mut offset) = (buf, offset);
            while !buf.is_empty() {
                match file.seek_read(buf, offset) {
                    Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
                    Ok(n) => {
                        buf = &mut buf[n..];
                        offset += n as u64;
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
            Ok(())
        }
    }

    /// Whether the file at the path now is not the one opened (rewritten, replaced by another,
    /// or gone).
    ///
    /// # Errors
    /// When the path cannot be examined for another reason than its absence.
    pub fn replaced(&self) -> io::Result<bool> {
        match fs::metadata(&self.path) {
            Ok(meta) => Ok(Identity::of(&meta) != self.identity),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(true),
            Err(e) => Err(e),
        }
    }
}

impl Drop for PooledFile {
    fn drop(&mut self) {
        self.pool.lock().pop(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("endgame-open-files-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn read(file: &PooledFile, at: u64, len: usize) -> io::Result<Vec<u8>> {
        let mut buf = vec![0; len];
        file.read_exact_at(&mut buf, at)?;
        Ok(buf)
    }

    #[test]
    fn at_most_capacity_files_stay_open_and_closed_ones_reopen() {
        let dir = scratch("lru");
        let pool = Arc::new(OpenFiles::new(3));
        let files: Vec<PooledFile> = (0..10)
            .map(|i| {
                let path = dir.join(format!("{i}.bin"));
                fs::write(&path, [i as u8; 100]).unwrap();
                PooledFile::open(&pool, &path).unwrap()
            })
            .collect();
        assert_eq!(pool.len(), 3);
        assert_eq!(pool.opened(), 10);
        // Every file reads right, in any order, with at most 3 open.
        for round in 0..3 {
            for (i, f) in files.iter().enumerate().rev() {
                assert_eq!(read(f, 10 + round, 5).unwrap(), vec![i as u8; 5]);
                assert!(pool.len() <= 3);
            }
        }
        assert!(pool.opened() > 10, "closed files were opened again");
        // The most recently used stay open: reading them again opens nothing.
        let before = pool.opened();
        for f in &files[..3] {
            read(f, 0, 1).unwrap();
        }
        assert_eq!(pool.opened(), before);
        assert!(read(&files[0], 99, 2).is_err(), "past the end");
        drop(files);
        assert!(pool.is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_replaced_file_is_noticed_and_never_read_as_the_old_one() {
        let dir = scratch("replaced");
        let pool = Arc::new(OpenFiles::new(1));
        let path = dir.join("table.bin");
        fs::write(&path, b"old contents").unwrap();
        let old = PooledFile::open(&pool, &path).unwrap();
        assert!(!old.replaced().unwrap());
        // Replaced as a generation does it: a new file renamed over the old one.
        let tmp = dir.join("table.tmp");
        fs::write(&tmp, b"NEW CONTENTS").unwrap();
        fs::rename(&tmp, &path).unwrap();
        assert!(old.replaced().unwrap());
        // While its descriptor is open, the old file still reads (it is the file opened)...
        assert_eq!(read(&old, 0, 3).unwrap(), b"old");
        // ...once closed, it is not opened again under the new file.
        let other = dir.join("other.bin");
        fs::write(&other, b"x").unwrap();
        let _other = PooledFile::open(&pool, &other).unwrap();
        let e = read(&old, 0, 3).unwrap_err();
        assert!(e.to_string().contains("replaced"), "{e}");
        // The new file opens as such.
        let new = PooledFile::open(&pool, &path).unwrap();
        assert_eq!(read(&new, 0, 3).unwrap(), b"NEW");
        assert!(!new.replaced().unwrap());
        // Gone: replaced too.
        fs::remove_file(&path).unwrap();
        assert!(new.replaced().unwrap());
        fs::remove_dir_all(&dir).unwrap();
    }
}
