//! Generation: the plan of a generation of some materials ([`Plan`]: the files that answer for
//! every material it needs, in the order they are solved), its books ([`Tablebases::prepare`]:
//! the files there checked, the scheduler of what is ready), the solve of one material and
//! the writing of its files ([`Tablebases::generate_one`]), the whole run in this process
//! ([`Tablebases::generate`]), and what it reports ([`GenerateEvent`], [`GenerateSummary`])
//! or stops with ([`GenerateError`]).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use endgame_core::RuleValue;
use endgame_core::schedule::{Scheduler, Tier};
use endgame_core::table::{TableError, TablePaths};
use endgame_core::{Progress, Retrograde, SolveError};

use super::Tablebases;
use super::captures::{self, CaptureFile};
use super::cost::{check_size, meminfo, proc_kib};
use super::loaded::Loaded;
use super::read_write::Holes;
use super::source::in_twin_order;
use crate::probe::ProbeError;
use crate::rules::material::Material;
use crate::tables::index::MaterialIndex;
use crate::tables::material_game::{CaptureTable, MaterialGame};
use crate::tables::memory_tables::Table;
use crate::tables::stats::Stats;

/// A smaller table the captures of a solve read: held whole, or read a block at a time.
#[allow(clippy::large_enum_variant)] // a few per solve
enum Captured {
    Whole(Table),
    Blocks(CaptureFile),
}

impl Captured {
    fn table(&self) -> &dyn CaptureTable {
        match self {
            Captured::Whole(table) => table,
            Captured::Blocks(file) => file,
        }
    }
}

/// What [`Tablebases::generate`] reports while it works.
#[derive(Debug)]
pub enum GenerateEvent<'a> {
    /// The file exists and passed its check: kept.
    Kept {
        /// The material.
        material: Material,
    },
    /// The file exists but cannot be used: it will be generated anew.
    Replacing {
        /// The material.
        material: Material,
        /// What is wrong with it.
        error: &'a TableError,
    },
    /// Solving starts.
    Solving {
        /// The material.
        material: Material,
        /// Indices of the material (holes included).
        positions: usize,
        /// The memory estimate in bytes, or the memory available when less (the least
        /// estimate is checked against it: the solve then holds the predecessor lists that
        /// fit).
        memory: u64,
    },
    /// The solver's progress.
    Progress {
        /// The material.
        material: Material,
        /// Where the solver is.
        progress: Progress,
    },
    /// A step of a solve under `perpetual-check` starts (these steps report no progress of
    /// their own): `reading the standard table`, `solving under the rule` (the `standard` solve,
    /// which reports [`GenerateEvent::Progress`], then the rule's passes), `checking the
    /// certificate`, `writing`.
    Step {
        /// The material.
        material: Material,
        /// What starts.
        step: &'static str,
    },
    /// The table was solved and written.
    Written {
        /// The material.
        material: Material,
        /// Indices of the material.
        positions: usize,
        /// Seconds spent solving and writing.
        seconds: f64,
        /// The file.
        path: &'a Path,
    },
}

/// What a generation did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GenerateSummary {
    /// Files in the plan: one for each material needed, each pair of colour twins once.
    pub materials: usize,
    /// Tables solved and written (replaced ones included).
    pub generated: usize,
    /// Materials needed that the file of their colour twin answers for (no file of their own
    /// is written: [`Tablebases::file_material`]).
    pub twins: usize,
    /// Files that existed and were kept.
    pub kept: usize,
    /// Damaged or outdated files that were generated anew.
    pub replaced: usize,
    /// Indices of the largest material generated (0 when none was).
    pub largest: usize,
    /// The largest memory estimate of a solve of the run, in bytes: the run's memory stays
    /// within it ([`Tablebases::memory_estimate`]; the smaller tables kept loaded are dropped
    /// when they would take more).
    pub estimate: u64,
    /// The peak memory (resident set) of the process so far, in bytes, read after the run
    /// where the system tells it (Linux: `VmHWM`).
    pub peak_memory: Option<u64>,
}

/// Why a generation stopped.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// A material cannot have a table.
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// Not enough memory for a material.
    #[error("{material} needs at least about {} of memory, only {} are available", endgame_core::units::bytes(*needed), endgame_core::units::bytes(*available))]
    Memory {
        /// The material.
        material: Material,
        /// The least estimate in bytes ([`Tablebases::least_estimate`]).
        needed: u64,
        /// `MemAvailable` in bytes, or the generation's memory when less
        /// ([`Tablebases::generate_within`]).
        available: u64,
    },
    /// Reading or writing a file failed.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The directory could not be made.
    #[error("{}: {error}", path.display())]
    Directory {
        /// The directory.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// A solution under `perpetual-check` or `check-and-chase` failed its certificate check
    /// (a bug).
    #[error("{material}: the solution under the rule failed its check: {why}")]
    Certificate {
        /// The material.
        material: Material,
        /// The first position that fails.
        why: String,
    },
    /// The generation was cancelled ([`Tablebases::generate_cancellable`]); the tables
    /// finished before stay.
    #[error("cancelled")]
    Cancelled,
    /// The solver failed.
    #[error("{material}: {error}")]
    Solve {
        /// The material.
        material: Material,
        /// The solver's error.
        error: SolveError,
    },
}

/// What a generation needs in one directory: every material whose values it needs and the
/// files that answer for them, in the order it solves them. Built in one place
/// ([`Tablebases::plan_of`]) for the store's books ([`Tablebases::prepare`], which a
/// cluster's rank 0 keeps too) and the job estimate ([`crate::jobs::estimate`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Every material whose values the generation needs: those asked for and every material a
    /// capture leads to (a colour twin included when a capture leads to it).
    pub needed: Vec<Material>,
    /// The materials whose files answer for them, each once, fewer men first: the files the
    /// generation checks or writes, in the order it solves them.
    pub files: Vec<Material>,
}

impl Plan {
    /// The plan for `needed`, `file` naming the material whose file answers for each.
    fn new(needed: Vec<Material>, file: impl Fn(Material) -> Material) -> Plan {
        let files: BTreeSet<Material> = needed.iter().map(|&m| file(m)).collect();
        let mut files: Vec<Material> = files.into_iter().collect();
        files.sort_by_key(|m| (m.men(), m.to_string()));
        Plan { needed, files }
    }
}

/// Removes the temporary files (`<material>.<wdl|dtm|egtb>.<host>.<pid>.<time>.<n>.tmp`) that processes
/// of this machine which no longer run left behind (a killed generation; a process whose id
/// was reused since counts as gone). Files of other
/// machines (a directory shared by a cluster) are left alone, and so is anything of another
/// shape. Where processes cannot be looked up (not Linux), nothing is removed.
fn remove_stale_temporaries(dir: &Path) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let host = endgame_core::table::host_tag();
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(rest) = name.strip_suffix(".tmp") else { continue };
        let Some((material, after)) = [".wdl.", ".dtm.", ".egtb."].iter().find_map(|e| rest.split_once(e))
        else {
            continue;
        };
        let parts: Vec<&str> = after.split('.').collect();
        // The writer's name, or the name of a table being written under a candidate's
        // temporary name (`--compression best` writes two and keeps one, see
        // [`Tablebases::write_files`]): `<material>.wdl.<host>.<pid>.<time>.<n>.tmp.<host>...`.
        let (tag, pid, nanos, n) = match parts[..] {
            [tag, pid, nanos, n] => (tag, pid, nanos, n),
            [tag, pid, nanos, n, "tmp", tag2, pid2, _, _] if tag2 == tag && pid2 == pid => {
                (tag, pid, nanos, n)
            }
            _ => continue,
        };
        let numbers = [pid, nanos, n].iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
        if tag != host || !numbers || material.parse::<Material>().is_err() {
            continue;
        }
        // A process of that id that started after the name was made is another one (ids are
        // reused): the writer is gone.
        let (Ok(pid), Ok(nanos)) = (pid.parse::<u32>(), nanos.parse::<u128>()) else { continue };
        if !endgame_core::table::writer_alive(pid, nanos) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

impl Tablebases {
    /// Every material whose values a generation of `materials` needs, as written: each of
    /// them and every material a capture leads to, fewer men first (a material's colour twin
    /// is listed when a capture leads to it, although its twin's file answers for it).
    ///
    /// # Errors
    /// When a material can have no table ([`check_size`]).
    pub fn needed(materials: &[Material]) -> Result<Vec<Material>, ProbeError> {
        Tablebases::needed_checked(materials, check_size)
    }

    /// [`Tablebases::needed`] with the materials asked for checked by `check` instead of
    /// [`check_size`] (a cluster's, [`Tablebases::needed_here`]).
    pub(super) fn needed_checked(
        materials: &[Material],
        check: impl Fn(Material) -> Result<usize, ProbeError>,
    ) -> Result<Vec<Material>, ProbeError> {
        // The largest first: a material beyond the tables is refused before its (possibly
        // millions of) smaller materials are listed.
        for &m in materials {
            check(m)?;
        }
        let mut all = BTreeSet::new();
        for &m in materials {
            all.extend(m.with_smaller());
        }
        let mut needed: Vec<Material> = all.into_iter().collect();
        needed.sort_by_key(|m| (m.men(), m.to_string()));
        Ok(needed)
    }

    /// The materials whose files a generation of `materials` writes (in a directory without
    /// files), in the order it solves them: [`Tablebases::needed`] with each pair of colour
    /// twins once, as players write it ([`Material::canonical`]; the other is answered from
    /// its file), fewer men first.
    ///
    /// # Errors
    /// When a material can have no table ([`check_size`]).
    pub fn plan(materials: &[Material]) -> Result<Vec<Material>, ProbeError> {
        Ok(Plan::new(Tablebases::needed(materials)?, |m| m.canonical()).files)
    }

    /// The plan of a generation that needs the values of `needed` (see [`Tablebases::needed`])
    /// in this directory: the files that answer for them, for each its own file or its colour
    /// twin's when one exists, else the one players write ([`Tablebases::file_material`]),
    /// each pair of twins once.
    #[must_use]
    pub fn plan_of(&self, needed: Vec<Material>) -> Plan {
        Plan::new(needed, |m| self.file_material(m))
    }

    /// The books of a generation of `materials`: the files that answer for every material it
    /// needs ([`Tablebases::needed`]), as [`Tablebases::plan_of`] lists them; those that exist
    /// are checked block by block (a whole one is finished, a damaged or outdated one is
    /// generated anew); and the counts so far.
    ///
    /// # Errors
    /// When a material can have no table, the directory cannot be made, or a file cannot be
    /// read (other than being damaged).
    pub fn prepare(
        &self,
        materials: &[Material],
        report: &(dyn Fn(GenerateEvent<'_>) + Sync),
    ) -> Result<(Scheduler<Material>, GenerateSummary), GenerateError> {
        let Plan { needed, files: plan } = self.plan_of(self.needed_here(materials)?);
        if self.rules.has_bans() {
            // The rule's solver numbers positions in 32 bits (the `standard` solver does not).
            for &material in plan.iter().rev() {
                if let Some(n) = MaterialIndex::size(material).filter(|&n| n > u32::MAX as usize) {
                    return Err(ProbeError::BeyondTables {
                        material,
                        men: material.men(),
                        why: format!(
                            "its index has {n} positions, more than the {} solver's limit of {} (32-bit position numbers)",
                            self.rules,
                            u32::MAX
                        ),
                    }
                    .into());
                }
            }
        }
        let mut summary = GenerateSummary {
            materials: plan.len(),
            twins: needed.len() - needed.iter().filter(|&&m| self.file_material(m) == m).count(),
            ..GenerateSummary::default()
        };
        std::fs::create_dir_all(&self.dir)
            .map_err(|source| GenerateError::Directory { path: self.dir.clone(), error: source })?;
        remove_stale_temporaries(&self.dir);
        let mut finished = BTreeSet::new();
        let mut tiers = Vec::with_capacity(plan.len());
        for &material in &plan {
            let positions = MaterialIndex::new(material).len();
            let path = self.path(material);
            if path.exists() {
                match self.open_files(material, self.rules, &self.dir).and_then(|f| f.verify()) {
                    Ok(()) => {
                        summary.kept += 1;
                        finished.insert(material);
                        report(GenerateEvent::Kept { material });
                    }
                    Err(error) if error.needs_regeneration() => {
                        summary.replaced += 1;
                        report(GenerateEvent::Replacing { material, error: &error });
                    }
                    Err(error) => return Err(error.into()),
                }
            }
            let needs = Tablebases::reads(material, |m| self.file_material(m));
            tiers.push(Tier { id: material, size: positions as u64, needs });
        }
        let scheduler = Scheduler::new(tiers, |m| finished.contains(m))
            .expect("a plan holds every material a capture leads to, and captures only lead to fewer men");
        Ok((scheduler, summary))
    }

    /// [`Tablebases::read_solution`] (or [`Tablebases::read_rule_solution`], by `loaded`'s
    /// kind) for the captures of a generation, into `loaded`. Under `standard` and `hdu` the
    /// holes of the index are not looked for and read as the files hold them (a capture leads
    /// only to legal positions, and finding the holes, a decoding and a check test per index,
    /// was most of the time of reading a table); a file in its own order is read a block at a
    /// time straight into the cells ([`TableFiles::read_solution_as_stored`]).
    fn read_for_captures(&self, material: Material, loaded: &mut Loaded) -> Result<(), GenerateError> {
        let files = self.open_files(material, self.rules, &self.dir)?;
        let failed = |error| GenerateError::Solve { material, error };
        match loaded {
            Loaded::Plain(t) => {
                let solution = if in_twin_order(&files.wdl) {
                    self.with_file_positions(material, &files, Holes::Skipped, |n, at| {
                        files.read_solution_at(n, at)
                    })?
                } else {
                    files.read_solution_as_stored()?
                };
                t.insert(material, solution).map_err(failed)
            }
            Loaded::Rule(t) => {
                // With the holes found: a rule solution keeps a word for each draw it holds, and
                // holes read as draws would take memory that the estimate does not count.
                let solution = self.read_rule_solution_in(material, &files)?;
                t.insert(material, solution).map_err(failed)
            }
        }
    }

    /// The files that answer for the materials the captures of `material` lead to, opened
    /// to be read a block at a time ([`CaptureFile`]), each with the material its index
    /// numbers (a file in its colour twin's order holds the twin's table in the twin's index).
    fn capture_files(&self, material: Material) -> Result<Vec<(Material, Captured)>, GenerateError> {
        let mut files = Vec::new();
        for file in self.held_whole_files(material) {
            let mut loaded = Loaded::new(self.rules);
            self.read_for_captures(file, &mut loaded)?;
            let Loaded::Plain(mut held) = loaded else { unreachable!("no ban under these rules") };
            files.push((file, Captured::Whole(held.remove(file).expect("just read"))));
        }
        let whole = self.held_whole_files(material);
        for (indexed, file) in self.capture_block_files(material, |m| whole.contains(&m))? {
            files.push((indexed, Captured::Blocks(file)));
        }
        Ok(files)
    }

    /// Solves `material` under `standard` or `hdu` rules with `solver`, its captures read from
    /// the smaller tables' files a block at a time ([`CaptureFile`]): no smaller table is held
    /// in memory whole.
    ///
    /// # Errors
    /// When a smaller table's file cannot be opened or read, or the solver fails.
    pub fn solve_from_files(
        &self,
        material: Material,
        solver: &Retrograde<'_>,
    ) -> Result<Table, GenerateError> {
        let solution = self.solve_game(material, |game| solver.solve_with_unmoves(game))?;
        Ok(Table::new(MaterialIndex::new(material), solution))
    }

    /// Runs `solve` on `material`'s game under `standard` or `hdu` rules, its captures read
    /// from the smaller tables' files a block at a time: the solve of
    /// [`Tablebases::solve_from_files`], or a rank's share of a partitioned one.
    pub(super) fn solve_game<T>(
        &self,
        material: Material,
        solve: impl FnOnce(&MaterialGame<'_>) -> Result<T, SolveError>,
    ) -> Result<T, GenerateError> {
        let files = self.capture_files(material)?;
        let symmetric = self.rules.colour_symmetric();
        let index = MaterialIndex::new(material);
        let game = MaterialGame::with_captures(&index, self.rules, |smaller| {
            captures::answering(&files, smaller, symmetric).map(|(file, flip)| (file.table(), flip))
        });
        let solution = solve(&game);
        drop(game);
        for (_, file) in &files {
            let Captured::Blocks(file) = file else { continue };
            if let Some(error) = file.error() {
                return Err(error.into());
            }
        }
        solution.map_err(|error| GenerateError::Solve { material, error })
    }

    /// Solves one material whose smaller materials all have files (their own or their colour
    /// twins'; those not in `loaded` are read into it first), writes its file, and returns the
    /// seconds it took. The memory estimate is checked against the memory available first.
    ///
    /// # Errors
    /// When memory is short, a file cannot be read or written, or the solver fails.
    pub fn generate_one(
        &self,
        material: Material,
        loaded: &mut Loaded,
        report: &(dyn Fn(GenerateEvent<'_>) + Sync),
    ) -> Result<f64, GenerateError> {
        self.generate_one_until(material, loaded, report, None, u64::MAX)
    }

    /// [`Tablebases::generate_one`], stopped by `cancel` within the solve (see
    /// [`Tablebases::generate_cancellable`]).
    fn generate_one_until(
        &self,
        material: Material,
        loaded: &mut Loaded,
        report: &(dyn Fn(GenerateEvent<'_>) + Sync),
        cancel: Option<&AtomicBool>,
        memory: u64,
    ) -> Result<f64, GenerateError> {
        let positions = check_size(material)?;
        let (needed, least) = self.estimates(material, |m| loaded.contains(m));
        // Within `memory`, the tables held already count (`MemAvailable` has them counted).
        let held = loaded.materials().into_iter().map(|m| loaded.held(m)).sum::<u64>();
        let within = memory.saturating_sub(held);
        let available = meminfo("MemAvailable:").map_or(within, |a| a.min(within));
        report(GenerateEvent::Solving { material, positions, memory: needed.min(available.max(least)) });
        if least > available {
            return Err(GenerateError::Memory { material, needed: least, available });
        }
        // What the lists of a solve under a ban may take within `memory`: the room above the
        // least estimate (the solve sees the machine's own memory too).
        let lists = (memory != u64::MAX).then(|| within - least);
        let start = Instant::now();
        let path = self.path(material);
        let dtm_path = self.dtm_path(material);
        let paths = TablePaths { wdl: &path, dtm: &dtm_path };
        // The captures read the smaller tables' files a block at a time ([`CaptureFile`]), but
        // those `held_whole` names: under a ban they are read into `loaded` here (under
        // `standard` and `hdu` by the solve).
        let whole =
            if matches!(loaded, Loaded::Rule(_)) { self.held_whole_files(material) } else { Vec::new() };
        for file in whole {
            // A material whose colour twin's table is loaded is answered from it (under rules
            // that treat both sides alike: under others each needs its own).
            let twin_loaded = self.rules.colour_symmetric() && loaded.contains(file.colour_twin());
            if loaded.contains(file) || twin_loaded {
                continue;
            }
            self.read_for_captures(file, loaded)?;
        }
        let progress = |progress: Progress| report(GenerateEvent::Progress { material, progress });
        // Large solves keep the start pass's lists in a scratch file next to the tables (not in
        // the system's temporary directory, which may be in memory).
        let solver = Retrograde::new().compact(true).scratch_dir(&self.dir).progress(&progress);
        let solver = match cancel {
            Some(flag) => solver.cancel(flag),
            None => solver,
        };
        match loaded {
            Loaded::Plain(_) => {
                let table = self.solve_from_files(material, &solver).map_err(|e| match e {
                    GenerateError::Solve { error: SolveError::Cancelled, .. } => GenerateError::Cancelled,
                    e => e,
                })?;
                let stats = Stats::of_values(table.index(), self.rules, |p| {
                    table.solution().value(p).map(RuleValue::from)
                });
                self.write_files(material, paths, &stats.counters(), &|p| {
                    table.solution().value(p).map(RuleValue::from)
                })?;
            }
            Loaded::Rule(t) => {
                let step = |step| report(GenerateEvent::Step { material, step });
                let (solution, _) =
                    self.solve_rule_within(material, t, &solver, &step, lists).map_err(|e| match e {
                        GenerateError::Solve { error: SolveError::Cancelled, .. } => GenerateError::Cancelled,
                        e => e,
                    })?;
                step("writing");
                // The values a block at a time, in one sweep each (`KNRvKAR`: each value
                // found by its draw's rank, three times, took a third of writing's 10.6 s).
                let index = MaterialIndex::new(material);
                let fill = |range, out: &mut Vec<_>| solution.values_into(range, out);
                let stats = match Stats::of_blocks(&index, self.rules, |range, out| {
                    fill(range, out);
                    Ok::<_, std::convert::Infallible>(())
                }) {
                    Ok(stats) => stats,
                    Err(never) => match never {},
                };
                self.write_files_by(material, paths, &stats.counters(), &|p| solution.value(p), &fill)?;
            }
        }
        self.forget(material);
        let seconds = start.elapsed().as_secs_f64();
        report(GenerateEvent::Written { material, positions, seconds, path: &path });
        Ok(seconds)
    }

    /// Generates the tables of `materials` and of every material a capture leads to (see the
    /// [module](self) docs) in this process, reporting to `report` as it goes: the books of
    /// [`Tablebases::prepare`], each ready material solved by [`Tablebases::generate_one`] (the
    /// largest ready first), the smaller tables kept in memory while a material left needs them.
    ///
    /// # Errors
    /// When a material can have no table, memory is short, a file cannot be written or the
    /// directory made. Tables finished before the error stay on disk: a rerun resumes.
    pub fn generate(
        &self,
        materials: &[Material],
        report: &(dyn Fn(GenerateEvent<'_>) + Sync),
    ) -> Result<GenerateSummary, GenerateError> {
        self.generate_cancellable(materials, report, &AtomicBool::new(false))
    }

    /// [`Tablebases::generate`] that stops with [`GenerateError::Cancelled`] soon after `cancel`
    /// is set: before the next material, or within the solve of the current one (the solver
    /// looks at the flag per chunk and per level, [`Retrograde::cancel`]; the passes of the
    /// perpetual-check rule and the writing of a file run to their end). The tables finished
    /// before stay: a later generation resumes from them.
    ///
    /// # Errors
    /// As [`Tablebases::generate`], and [`GenerateError::Cancelled`].
    pub fn generate_cancellable(
        &self,
        materials: &[Material],
        report: &(dyn Fn(GenerateEvent<'_>) + Sync),
        cancel: &AtomicBool,
    ) -> Result<GenerateSummary, GenerateError> {
        self.generate_within(materials, report, cancel, u64::MAX)
    }

    /// [`Tablebases::generate_cancellable`] within `memory` bytes (and the memory the machine
    /// has available): a material whose least estimate ([`Tablebases::least_estimate`])
    /// exceeds it is refused ([`GenerateError::Memory`]), one between that and its estimate
    /// ([`Tablebases::estimate`]) solved with the predecessor lists that fit, slower (the same
    /// values; under `check-and-chase` the ranks of the wins by the ban on chases may differ
    /// when even the chase stage's lists do not fit).
    ///
    /// # Errors
    /// As [`Tablebases::generate_cancellable`].
    pub fn generate_within(
        &self,
        materials: &[Material],
        report: &(dyn Fn(GenerateEvent<'_>) + Sync),
        cancel: &AtomicBool,
        memory: u64,
    ) -> Result<GenerateSummary, GenerateError> {
        let (mut scheduler, mut summary) = self.prepare(materials, report)?;
        // The memory of the run stays within that of its largest solve (and `memory`): tables
        // kept for later materials are dropped (and read again later) when they would take
        // more.
        let budget = Tablebases::plan(materials)?
            .into_iter()
            .map(|m| self.estimate(m, |_| false))
            .max()
            .unwrap_or(0)
            .min(memory);
        summary.estimate = budget;
        let mut loaded = Loaded::new(self.rules);
        while let Some(material) = scheduler.hand_out() {
            if cancel.load(Ordering::Relaxed) {
                return Err(GenerateError::Cancelled);
            }
            let needed = self.estimate(material, |m| loaded.contains(m));
            let reads = Tablebases::reads(material, |m| self.file_material(m));
            loaded.make_room(&reads, needed, budget);
            self.generate_one_until(material, &mut loaded, report, Some(cancel), memory)?;
            scheduler.finish(&material);
            summary.largest = summary.largest.max(MaterialIndex::new(material).len());
            summary.generated += 1;
            for m in loaded.materials() {
                if !scheduler.still_needed(&m) {
                    loaded.remove(m);
                }
            }
        }
        debug_assert!(scheduler.is_finished());
        summary.peak_memory = proc_kib("/proc/self/status", "VmHWM:");
        Ok(summary)
    }
}
