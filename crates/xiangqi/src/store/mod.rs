//! The tables of one rule set in one directory: opened lazily, probed one block at a time,
//! generated in dependency order.
//!
//! [`Tablebases`] is the library's door to the tables, shared by the command line and the web
//! server, and safe to probe from many threads at once. A material's table is two files,
//! `<dir>/xiangqi/<rules>/<material>.wdl` and `<material>.dtm` (see
//! [`endgame_core::table`]).
//!
//! - **Probing** reads only the blocks that hold the position: a file is opened on its first
//!   probe (its header is read and checked, not its data), a block is read with one positioned
//!   read, checked and decompressed, and kept in a [`BlockCache`] bounded in bytes (least
//!   recently used blocks go first). A value's category ([`Probe::probe_wdl`]) reads the WDL
//!   file only; its distance a block of the DTM file besides (opened on the first such
//!   probe). [`Tablebases::stats`] of a material with files reads the WDL file's header only.
//!   A material of at most [`SOLVE_ON_THE_FLY_MEN`] men without
//!   a file is solved in memory on first use (a fraction of a second) and kept. Files of the
//!   previous format (`<material>.egtb`, version 2) are refused with a message that names
//!   `endgame xiangqi convert`; [`convert`](convert::convert) rewrites them.
//! - **Open files** are bounded: the files' descriptors live in a pool ([`OpenFiles`], the
//!   process's by default, [`Tablebases::with_open_files`]) that keeps a fixed number open and
//!   opens a closed file again on its next read. A table written anew while the store is in
//!   use (another process's generation, a file copied in) is noticed: before a probe that
//!   failed on a file is answered, and at most every [`REPLACED_CHECK_MS`] while a table is
//!   probed, its open files are compared with those at their paths (device, inode, length,
//!   modification time); replaced or removed, they are forgotten and the new ones opened.
//! - **Generation** ([`Tablebases::generate`]) solves the materials asked for and every
//!   material a capture leads to, fewer men first, skipping files that exist and pass a full
//!   check (a damaged or outdated file is replaced), checking a memory estimate against the
//!   memory available before each material, and writing each file atomically.
//! - **Under `perpetual-check` and `check-and-chase`** a file holds rule codes (wins and
//!   losses by the rule with the winner's ranks, see [`endgame_core::table`]); a
//!   generation solves the `standard` game of the material first (or reads it from the sibling
//!   `standard` directory when that file exists), then the rule's passes over its draws with
//!   the rule's values of the smaller materials, checks the result against the certificate
//!   ([`endgame_core::conformance::check_rule_solution`]) and writes it.
//! - **Limits**: a material whose index does not fit in 64 bits, or whose generation needs
//!   more memory than the machine has, is refused at once ([`ProbeError::BeyondTables`]).
//!
//! Here: [`Tablebases`], its fields and its opening. Its rooms:
//! - [`source`]: where a material's values come from (its files, its colour twin's, or solved
//!   in memory), the files' names and ids, the colour twins;
//! - `lookup`: values and categories read through a table's pair of files
//!   ([`endgame_core::table::Pair`], block by block through the cache), the [`Probe`]
//!   implementation and the statistics;
//! - `read_write`: a table's files opened in either order, read whole, written;
//! - [`cost`]: every memory and speed constant, the memory estimates, the limits;
//! - [`loaded`]: the tables a generation keeps in memory for the captures (under a ban);
//! - [`captures`]: the smaller tables a solve's captures read a block at a time from their
//!   files (under `standard` and `hdu`, [`docs/generation.md`](../../../docs/generation.md));
//! - [`generate`]: the plan of a generation, its books, the solves, its events and errors;
//! - [`directory`], [`convert`], [`manifest`]: a base directory's files as a set: files of the
//!   previous format converted, the manifest of checksums.
//!
//! [`Probe`]: crate::Probe
//! [`Probe::probe_wdl`]: crate::Probe::probe_wdl
//! [`ProbeError::BeyondTables`]: crate::ProbeError::BeyondTables
//! [`SOLVE_ON_THE_FLY_MEN`]: source::SOLVE_ON_THE_FLY_MEN
//! [`REPLACED_CHECK_MS`]: source::REPLACED_CHECK_MS

pub mod captures;
mod lookup;
mod read_write;
mod rule_solve;
mod side_stats;
pub mod split;

pub mod convert;
pub mod cost;
pub mod directory;
pub mod generate;
pub mod loaded;
pub mod manifest;
pub mod source;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU32;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Instant;

use endgame_core::table::open_files::OpenFiles;
use endgame_core::table::{BlockCache, Compression, KeyHash};

use crate::rules::material::Material;
use crate::rules::rule_set::Rules;
use source::Source;

/// The tables of one rule set in one directory (see the [module](self) docs).
pub struct Tablebases {
    rules: Rules,
    dir: PathBuf,
    cache: BlockCache,
    sources: RwLock<HashMap<Material, Arc<Source>, KeyHash>>,
    /// Materials answered from their colour twin's source (see [`Tablebases::answering`]).
    twin_answers: RwLock<HashMap<Material, bool, KeyHash>>,
    next_key: AtomicU32,
    /// One in-memory solve at a time (two probes of one missing material solve it once).
    solving: Mutex<()>,
    /// The pool the table files' descriptors are kept in (a bounded number open).
    files: Arc<OpenFiles>,
    /// When the store was opened: the clock of [`Source::File`]'s `checked`.
    opened: Instant,
    /// How the files this store writes are compressed.
    compression: Compression,
    /// Whether the captures of its generations read every smaller table a block at a time
    /// (none held whole: [`Tablebases::with_captures_by_blocks_only`]).
    blocks_only: bool,
    /// A generation over ranks: their number and the memory of each
    /// ([`Tablebases::with_cluster`]).
    cluster: Option<(usize, u64)>,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases")
            .field("rules", &self.rules)
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

/// Why no directory for the tables could be found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no directory given and none of $ENDGAME_TB_DIR, $XDG_DATA_HOME, $HOME is set")]
pub struct NoDirectory;

impl Tablebases {
    /// The tables of `rules` under `base` (files in `base/xiangqi/<rules>/`), with a block
    /// cache of [`cost::DEFAULT_CACHE_BYTES`]. Nothing is read until a probe.
    #[must_use]
    pub fn open(base: impl Into<PathBuf>, rules: Rules) -> Tablebases {
        Tablebases {
            rules,
            dir: base.into().join("xiangqi").join(rules.name()),
            cache: BlockCache::new(cost::DEFAULT_CACHE_BYTES),
            sources: RwLock::new(HashMap::default()),
            twin_answers: RwLock::new(HashMap::default()),
            next_key: AtomicU32::new(0),
            solving: Mutex::new(()),
            files: OpenFiles::shared(),
            opened: Instant::now(),
            compression: Compression::Normal,
            blocks_only: false,
            cluster: None,
        }
    }

    /// The same tables, whose generations read every smaller table a block at a time, none
    /// held whole ([`cost::held_whole`]): the same values, more time and less memory; for
    /// tests and measurements of the block reads (the memory estimates still count the tables
    /// [`cost::held_whole`] names whole).
    #[must_use]
    pub const fn with_captures_by_blocks_only(mut self) -> Tablebases {
        self.blocks_only = true;
        self
    }

    /// The same tables with their files' descriptors kept in `files`, which keeps at most its
    /// capacity open, closing the least recently used (opened again on their next read). By
    /// default the process's pool, [`OpenFiles::shared`] (256 files).
    #[must_use]
    pub fn with_open_files(mut self, files: Arc<OpenFiles>) -> Tablebases {
        self.files = files;
        self
    }

    /// The same tables, writing the files of its generations with `compression` (by default
    /// [`Compression::Normal`]; [`Compression::Best`] for tables to share). Reading does not
    /// depend on it.
    #[must_use]
    pub const fn with_compression(mut self, compression: Compression) -> Tablebases {
        self.compression = compression;
        self
    }

    /// The same tables, generated over `ranks` ranks of `memory_per_rank` bytes each: a
    /// material too large for this machine is accepted when its share split over the ranks fits
    /// a rank ([`Tablebases::needed_here`], [`Tablebases::share_of`]).
    #[must_use]
    pub const fn with_cluster(mut self, ranks: usize, memory_per_rank: u64) -> Tablebases {
        self.cluster = Some((ranks, memory_per_rank));
        self
    }

    /// The compression of the files this store writes.
    #[must_use]
    pub const fn compression(&self) -> Compression {
        self.compression
    }

    /// The same tables with a block cache of `bytes`.
    #[must_use]
    pub fn with_cache_bytes(mut self, bytes: usize) -> Tablebases {
        self.cache = BlockCache::new(bytes);
        self
    }

    /// The base directory when none is given: `$ENDGAME_TB_DIR`, else `$XDG_DATA_HOME/endgame`,
    /// else `~/.local/share/endgame`.
    ///
    /// # Errors
    /// When none of these variables is set.
    pub fn default_dir() -> Result<PathBuf, NoDirectory> {
        let env = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        env("ENDGAME_TB_DIR")
            .or_else(|| env("XDG_DATA_HOME").map(|d| d.join("endgame")))
            .or_else(|| env("HOME").map(|h| h.join(".local/share/endgame")))
            .ok_or(NoDirectory)
    }

    /// The directory of this rule set's files.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The block cache (its budget and what it holds now).
    #[must_use]
    pub const fn cache(&self) -> &BlockCache {
        &self.cache
    }
}
