//! Where a material's values come from, and the names of its files.
//!
//! A material is answered by its own files, else (under rules that treat both sides alike) by
//! its colour twin's files seen from the other side, else, when it is small, by a solve in
//! memory (`Source`, [`Tablebases::file_material`]). Here too: the files' paths, extensions
//! and ids (a table in its colour twin's order says so in its id, [`TWIN_ORDER`]), the check
//! for files written anew while the store is in use ([`REPLACED_CHECK_MS`]), and the tables a
//! solve reads.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, PoisonError};

use endgame_core::Retrograde;
use endgame_core::perpetual::RuleSolution;
use endgame_core::table::{Pair, TableError, TableFile, TableId};

use super::Tablebases;
use super::cost::check_size;
use super::cost::index_size;
use crate::probe::ProbeError;
use crate::rules::material::Material;
use crate::rules::rule_set::Rules;
use crate::tables::index::MaterialIndex;
use crate::tables::memory_tables::{MemoryTables, Table};
use crate::tables::perpetual::PerpetualTablebase;

/// How often (at most) a table's open files are compared with the files at their paths, in
/// milliseconds (see `Tablebases::source`).
pub const REPLACED_CHECK_MS: u64 = 1000;

/// Materials with at most this many men are solved in memory when they have no file.
pub const SOLVE_ON_THE_FLY_MEN: usize = 4;

/// Where a material's values come from (one per material, shared in an `Arc`: its size does
/// not matter).
#[allow(clippy::large_enum_variant)]
pub(super) enum Source {
    /// Table files (the DTM file opened on first use), read block by block through the cache,
    /// where `key` numbers them; `checked`: when the files' identity at their paths was last
    /// compared with the files open (milliseconds since the store opened, see
    /// [`Tablebases::source`]).
    File {
        key: u32,
        pair: Pair,
        index: MaterialIndex,
        /// Whether the files hold the table in its colour twin's index order ([`TWIN_ORDER`]):
        /// `index` is then the twin's.
        twin_order: bool,
        checked: AtomicU64,
    },
    /// A table solved in memory.
    Memory(Table),
    /// A table solved in memory under `perpetual-check` or `check-and-chase`.
    RuleMemory { index: MaterialIndex, solution: RuleSolution },
}

impl Source {
    /// Whether the source's files are not those at their paths any more (written anew, or
    /// gone). `false` for a source in memory.
    fn replaced(&self) -> bool {
        match self {
            Source::File { pair, .. } => pair.replaced(),
            Source::Memory(_) | Source::RuleMemory { .. } => false,
        }
    }

    /// Whether a position is looked up in [`Source::index`] seen from the other side (of the
    /// material asked for, not of its colour twin): the files are in the twin's order.
    pub(super) fn twin_order(&self) -> bool {
        matches!(self, Source::File { twin_order: true, .. })
    }

    pub(super) fn index(&self) -> &MaterialIndex {
        match self {
            Source::File { index, .. } | Source::RuleMemory { index, .. } => index,
            Source::Memory(table) => table.index(),
        }
    }
}

/// What a table file of `material` under `rules` holds (checked when reading it).
#[must_use]
pub fn table_id(material: Material, rules: Rules, positions: usize) -> TableId {
    TableId {
        game: "xiangqi".into(),
        variant: material.to_string(),
        rules: rules.name().into(),
        positions: positions as u64,
    }
}

/// The extension of a material's WDL file.
pub const WDL_EXTENSION: &str = "wdl";

/// The extension of a material's DTM file.
pub const DTM_EXTENSION: &str = "dtm";

/// What the variant of a table's files says after the material when they hold the table in
/// the order of its colour twin's index ([`twin_order_id`]): the value of the position whose
/// colour twin has the twin's index `j` is at position `j` of the files. [`Compression::Best`]
/// writes a table so when that makes its files smaller; the readers of this crate follow it,
/// and readers that do not know the order refuse the files as another table (they would read
/// every value from the wrong place).
///
/// [`Compression::Best`]: endgame_core::table::Compression::Best
pub const TWIN_ORDER: &str = " in the order of ";

/// What table files of `material` in its colour twin's order hold: [`table_id`] with the
/// variant `<material> in the order of <twin>`.
#[must_use]
pub fn twin_order_id(material: Material, rules: Rules, positions: usize) -> TableId {
    TableId {
        variant: format!("{material}{TWIN_ORDER}{}", material.colour_twin()),
        ..table_id(material, rules, positions)
    }
}

/// Whether the table of the WDL file `wdl` (opened as one of its material's) is in its colour
/// twin's order ([`TWIN_ORDER`]).
pub(super) fn in_twin_order(wdl: &TableFile) -> bool {
    wdl.id().variant.contains(TWIN_ORDER)
}

/// `open` of `material`'s table id, or of its id in its colour twin's order when the file says
/// it holds that ([`twin_order_id`]).
pub(super) fn open_either<T>(
    material: Material,
    rules: Rules,
    positions: usize,
    open: impl Fn(&TableId) -> Result<T, TableError>,
) -> Result<T, TableError> {
    match open(&table_id(material, rules, positions)) {
        Err(TableError::Mismatch { found, .. }) if *found == twin_order_id(material, rules, positions) => {
            open(&found)
        }
        result => result,
    }
}

impl Tablebases {
    /// The WDL file of `material` (see the [module](self) docs): the file whose presence says
    /// that the material is generated (it is written last, after its DTM file).
    #[must_use]
    pub fn path(&self, material: Material) -> PathBuf {
        self.dir.join(format!("{material}.{WDL_EXTENSION}"))
    }

    /// The DTM file of `material`.
    #[must_use]
    pub fn dtm_path(&self, material: Material) -> PathBuf {
        self.dir.join(format!("{material}.{DTM_EXTENSION}"))
    }

    /// The file of `material` in the previous format (version 2), which [`convert`] rewrites.
    ///
    /// [`convert`]: super::convert::convert
    #[must_use]
    pub fn v2_path(&self, material: Material) -> PathBuf {
        self.dir.join(format!("{material}.egtb"))
    }

    /// The source of `material`'s values: opened (or solved) on first use. A source of files
    /// is checked at most once every [`REPLACED_CHECK_MS`] milliseconds against the files at
    /// its paths (one `stat` each): when they were written anew (a generation in another
    /// process, a table copied in) or removed, it is forgotten and opened again, so that no
    /// probe reads a deleted file for long.
    fn source(&self, material: Material) -> Result<Arc<Source>, ProbeError> {
        let known = self.sources.read().unwrap_or_else(PoisonError::into_inner).get(&material).cloned();
        if let Some(source) = known {
            let Source::File { checked, .. } = &*source else { return Ok(source) };
            let now = self.opened.elapsed().as_millis() as u64;
            let last = checked.load(Ordering::Relaxed);
            if now.saturating_sub(last) < REPLACED_CHECK_MS
                || checked.compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed).is_err()
                || !source.replaced()
            {
                return Ok(source);
            }
            self.forget(material);
        }
        let positions = index_size(material)?;
        let path = self.path(material);
        let exists = path.try_exists().map_err(|e| self.table_error(material, TableError::io(&path, e)))?;
        let source = if exists {
            let wdl = open_either(material, self.rules, positions, |id| {
                TableFile::open_in(&self.files, &path, id, endgame_core::table::FileKind::Wdl)
            })
            .map_err(|source| self.table_error(material, source))?;
            let key = self.next_key.fetch_add(1, Ordering::Relaxed);
            let checked = AtomicU64::new(self.opened.elapsed().as_millis() as u64);
            let twin_order = in_twin_order(&wdl);
            let index = MaterialIndex::new(if twin_order { material.colour_twin() } else { material });
            let pair = Pair::new_in(&self.files, wdl, &self.dtm_path(material));
            Source::File { key, pair, index, twin_order, checked }
        } else if self.v2_path(material).exists() {
            // A file of the previous format: refused with the command that converts it.
            let v2 = self.v2_path(material);
            return Err(self.table_error(material, TableError::Version { path: v2, found: 2 }));
        } else if material.men() <= SOLVE_ON_THE_FLY_MEN && self.rules.has_bans() {
            return self.solve_in_memory_by_rule(material);
        } else if material.men() <= SOLVE_ON_THE_FLY_MEN {
            return self.solve_in_memory(material);
        } else {
            // Refused at once when no machine like this one could generate it.
            check_size(material)?;
            return Err(ProbeError::NotGenerated { material, rules: self.rules, path });
        };
        let mut sources = self.sources.write().unwrap_or_else(PoisonError::into_inner);
        Ok(Arc::clone(sources.entry(material).or_insert_with(|| Arc::new(source))))
    }

    /// The material whose source answers for `material`, that source, and whether it is the
    /// colour twin's (then a position is looked up there seen from the other side,
    /// [`Position::colour_twin`]): its own file, else its colour twin's file (under rules that
    /// treat both sides alike), else [`Tablebases::source`] (solved in memory when small). A
    /// material without a table is reported with the file that a generation writes for it.
    pub(super) fn answering(&self, material: Material) -> Result<(Material, Arc<Source>, bool), ProbeError> {
        let twin = material.colour_twin();
        let known = self.twin_answers.read().unwrap_or_else(PoisonError::into_inner).get(&material).copied();
        let flipped = match known {
            Some(flipped) => flipped,
            None if twin == material || !self.rules.colour_symmetric() => false,
            None if self.sources.read().unwrap_or_else(PoisonError::into_inner).contains_key(&material) => {
                false
            }
            None => {
                let exists = |m: Material| self.path(m).try_exists().unwrap_or(false);
                let (own, twins) = (exists(material), exists(twin));
                // Kept once a file decides it (a file may appear later: not cached without).
                if own || twins {
                    self.twin_answers.write().unwrap_or_else(PoisonError::into_inner).insert(material, !own);
                }
                !own && twins
            }
        };
        let answering = if flipped { twin } else { material };
        match self.source(answering) {
            Ok(source) => Ok((answering, source, flipped)),
            Err(ProbeError::NotGenerated { material, rules, .. }) => Err(ProbeError::NotGenerated {
                material,
                rules,
                path: self.path(self.file_material(material)),
            }),
            Err(e) => Err(e),
        }
    }

    /// Whether a table file answers for `material` in this directory: its own, or its colour
    /// twin's (the twin is answered from it).
    #[must_use]
    pub fn has_file(&self, material: Material) -> bool {
        self.path(material).exists()
            || (self.rules.colour_symmetric() && self.path(material.colour_twin()).exists())
    }

    /// The material whose file holds the values of `material` in this directory: its own when
    /// that file exists, else its colour twin's when that one exists, else the one a generation
    /// writes, [`Material::canonical`] (the twin is answered from its file: a generation never
    /// writes both).
    #[must_use]
    pub fn file_material(&self, material: Material) -> Material {
        let twin = material.colour_twin();
        if !self.rules.colour_symmetric() || self.path(material).exists() {
            material
        } else if self.path(twin).exists() {
            twin
        } else {
            material.canonical()
        }
    }

    pub(super) fn table_error(&self, material: Material, source: TableError) -> ProbeError {
        ProbeError::Table { material, rules: self.rules, error: source }
    }

    /// Solves a small material and those captures lead to (reading the files there are), and
    /// keeps them all.
    fn solve_in_memory(&self, material: Material) -> Result<Arc<Source>, ProbeError> {
        let _one_at_a_time = self.solving.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(source) = self.sources.read().unwrap_or_else(PoisonError::into_inner).get(&material) {
            return Ok(Arc::clone(source));
        }
        let mut tables = MemoryTables::new(self.rules);
        for m in material.with_smaller() {
            // Its file, or its colour twin's (which answers for it), else solved.
            if tables.answering(m).is_some() {
                continue;
            }
            let file = self.file_material(m);
            let path = self.path(file);
            if path.exists() {
                let solution = self.read_solution(file).map_err(|source| self.table_error(file, source))?;
                tables
                    .insert(file, solution)
                    .map_err(|source| ProbeError::Solve { material: file, error: source })?;
            } else {
                tables.solve(m).map_err(|source| ProbeError::Solve { material: m, error: source })?;
            }
        }
        let mut sources = self.sources.write().unwrap_or_else(PoisonError::into_inner);
        for (m, table) in tables.into_tables() {
            sources.entry(m).or_insert_with(|| Arc::new(Source::Memory(table)));
        }
        Ok(Arc::clone(&sources[&material]))
    }

    /// [`Tablebases::solve_in_memory`] under `perpetual-check` or `check-and-chase`.
    fn solve_in_memory_by_rule(&self, material: Material) -> Result<Arc<Source>, ProbeError> {
        let _one_at_a_time = self.solving.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(source) = self.sources.read().unwrap_or_else(PoisonError::into_inner).get(&material) {
            return Ok(Arc::clone(source));
        }
        let mut tables = PerpetualTablebase::with_rules(self.rules);
        let solver = Retrograde::new().compact(true);
        for m in material.with_smaller() {
            // Its file, or its colour twin's (which answers for it), else solved.
            if tables.answering(m).is_some() {
                continue;
            }
            let file = self.file_material(m);
            let path = self.path(file);
            let failed = |source| ProbeError::Solve { material: m, error: source };
            if path.exists() {
                let solution =
                    self.read_rule_solution(file).map_err(|source| self.table_error(file, source))?;
                tables.insert(file, solution).map_err(failed)?;
            } else {
                tables.solve_one(m, None, &solver).map_err(failed)?;
            }
        }
        let mut sources = self.sources.write().unwrap_or_else(PoisonError::into_inner);
        for (m, solution) in tables.into_solutions() {
            sources
                .entry(m)
                .or_insert_with(|| Arc::new(Source::RuleMemory { index: MaterialIndex::new(m), solution }));
        }
        Ok(Arc::clone(&sources[&material]))
    }

    /// After a probe of `material` failed on its table: whether the files that answer for it
    /// (its own or its colour twin's) were replaced or removed since they were opened; then
    /// they are forgotten, and the probe is worth trying again (it opens the files now there).
    /// A damaged block is therefore answered as damaged only when the file at the path is the
    /// one that was read: a table regenerated as the message advises answers at once.
    fn renew(&self, material: Material) -> bool {
        let mut renewed = false;
        for m in [material, material.colour_twin()] {
            let known = self.sources.read().unwrap_or_else(PoisonError::into_inner).get(&m).cloned();
            if known.is_some_and(|source| source.replaced()) {
                self.forget(m);
                renewed = true;
            }
        }
        renewed
    }

    /// Runs `probe` on `material`'s tables, once more when it failed on a table file that was
    /// replaced meanwhile ([`Tablebases::renew`]).
    pub(super) fn renewing<T>(
        &self,
        material: Material,
        probe: impl Fn() -> Result<T, ProbeError>,
    ) -> Result<T, ProbeError> {
        match probe() {
            Err(ProbeError::Table { .. }) if self.renew(material) => probe(),
            result => result,
        }
    }

    /// Forgets what was opened or solved of `material` (after its file was written anew).
    pub(super) fn forget(&self, material: Material) {
        let mut twins = self.twin_answers.write().unwrap_or_else(PoisonError::into_inner);
        twins.remove(&material);
        twins.remove(&material.colour_twin());
        drop(twins);
        let old = self.sources.write().unwrap_or_else(PoisonError::into_inner).remove(&material);
        if let Some(old) = old
            && let Source::File { key, pair, .. } = &*old
        {
            pair.forget(&self.cache, *key);
        }
    }
}
