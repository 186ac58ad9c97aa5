//! Generation on demand: make sure a material has its tables, with an estimate first, progress
//! while it runs, a memory budget, and a queue that shares and cancels generations.
//!
//! - [`estimate`] says what a material still needs: the tables missing of it and of every
//!   material its captures lead to, their positions, the peak memory of the generation and the
//!   time it would take at a measured speed ([`default_speed`]). Nothing is read but the
//!   directory.
//! - [`ensure`] generates what is missing in this thread ([`Tablebases::generate_cancellable`]),
//!   reporting [`JobProgress`] (tables done of all, positions per second, seconds left), after
//!   refusing up front, with the estimate, what does not fit the memory budget. A generation
//!   that stops (cancelled, an error, the process killed) keeps the tables it finished: the
//!   next one resumes from them.
//! - [`Jobs`] is a queue for a server: one generation at a time, on a thread of its own; two
//!   requests for the same material (and rules and directory) share one job; a job can be
//!   cancelled, queued or running; every job's state and progress can be read at any time.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use endgame_core::Phase;

use crate::probe::{Probe, ProbeError};
use crate::rules::material::Material;
use crate::rules::rule_set::Rules;
use crate::store::{
    GenerateError, GenerateEvent, GenerateSummary, SOLVE_ON_THE_FLY_MEN, Tablebases, index_size,
};

/// Positions a generation solves per second of CPU time (per core), measured on this
/// project's 2-core machine: `endgame xiangqi generate KRPvKAABB` from nothing, 255 M
/// positions (36 tables) in 101.6 s of CPU time (user and system), 2.5 M positions per
/// second and core (BENCHMARKS.md; measured when both colour twins were written, 36 tables
/// then). The speed of one material varies with its pieces (the whole run of every material
/// of up to 5 men reaches 11 M/s on two cores); a queue measures its own generations and uses their
/// speed instead ([`Jobs::speed`]).
pub const MEASURED_POSITIONS_PER_SECOND_PER_CORE: f64 = 2.5e6;

/// The time a solve under `perpetual-check` takes, as a multiple of one under `standard` rules
/// (measured: every material of up to 5 men in about 30 minutes against 8.5).
pub const PERPETUAL_CHECK_COST: f64 = 3.5;

/// The speed an estimate assumes before any generation was measured: positions per second of
/// [`MEASURED_POSITIONS_PER_SECOND_PER_CORE`] times the cores of this machine.
#[must_use]
pub fn default_speed() -> f64 {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    MEASURED_POSITIONS_PER_SECOND_PER_CORE * cores as f64
}

/// The memory available now (`MemAvailable` of /proc/meminfo), in bytes; `None` where the
/// system does not tell.
#[must_use]
pub fn memory_available() -> Option<u64> {
    crate::store::meminfo("MemAvailable:")
}

/// What a generation of a material's tables would take.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The material asked for.
    pub material: Material,
    /// The rule set.
    pub rules: Rules,
    /// Tables to generate: those of the material and of every material its captures lead to
    /// that have no file (one file for a material and its colour twin) (0 when the material is answered already; materials of up to
    /// [`SOLVE_ON_THE_FLY_MEN`] men without a file are solved in memory, and generated only
    /// along with larger ones).
    pub tables: usize,
    /// The files the material needs in all, those there included (one for each pair of colour
    /// twins).
    pub tables_in_all: usize,
    /// Positions (indices) of the tables to generate.
    pub positions: u64,
    /// The peak memory of the generation in bytes: the largest estimate of its solves (each
    /// with the smaller tables it reads).
    pub memory_bytes: u64,
    /// The material whose solve needs that memory (`None` when nothing is to be generated).
    pub largest: Option<Material>,
    /// The time it would take, in seconds, at `speed`.
    pub seconds: f64,
    /// The speed assumed, in positions solved per second.
    pub speed: f64,
}

impl Estimate {
    /// Whether every table the material needs is there.
    #[must_use]
    pub const fn is_done(&self) -> bool {
        self.tables == 0
    }

    /// The command that generates these tables in a terminal.
    #[must_use]
    pub fn command(&self) -> String {
        format!("endgame xiangqi generate {} --rules {}", self.material, self.rules)
    }

    /// One line for a person: `KRPvKAABB: 36 tables, 255 M positions, about 23 s and 346 MiB`.
    #[must_use]
    pub fn describe(&self) -> String {
        format!(
            "{}: {}, {} positions, about {} and {} MiB of memory",
            self.material,
            if self.tables == 1 { "1 table".to_string() } else { format!("{} tables", self.tables) },
            millions(self.positions),
            duration(self.seconds),
            self.memory_bytes.div_ceil(1 << 20)
        )
    }
}

/// `255 M`, `4.6 M`, `48600`.
fn millions(n: u64) -> String {
    match n {
        0..100_000 => n.to_string(),
        100_000..10_000_000 => format!("{:.1} M", n as f64 / 1e6),
        _ => format!("{} M", (n as f64 / 1e6).round()),
    }
}

/// `40 s`, `3 min`, `2.5 h`.
fn duration(seconds: f64) -> String {
    if seconds < 1.0 {
        "1 s".to_string()
    } else if seconds < 120.0 {
        format!("{} s", seconds.round())
    } else if seconds < 7200.0 {
        format!("{} min", (seconds / 60.0).round())
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}

/// The time one table takes relative to solving its positions under `standard` rules.
fn cost(tables: &Tablebases) -> f64 {
    if tables.rules().has_bans() { PERPETUAL_CHECK_COST } else { 1.0 }
}

/// A table to generate: the material, its positions and the work it takes (positions times
/// its [`cost`]).
#[derive(Clone, Copy, Debug)]
struct Planned {
    material: Material,
    positions: u64,
    work: f64,
}

/// What a generation of `material` would take on this machine at `speed` positions per second
/// (see [`Estimate`]). Looks only at which files exist, not into them: a damaged file found
/// by the generation is generated anew on top of this.
///
/// # Errors
/// When a material's index does not fit in 64 bits ([`ProbeError::BeyondTables`]).
pub fn estimate(tables: &Tablebases, material: Material, speed: f64) -> Result<Estimate, ProbeError> {
    estimate_plan(tables, material, speed).map(|(estimate, _)| estimate)
}

fn estimate_plan(
    tables: &Tablebases,
    material: Material,
    speed: f64,
) -> Result<(Estimate, Vec<Planned>), ProbeError> {
    // Refused before its (possibly millions of) smaller materials are listed.
    index_size(material)?;
    let all = material.with_smaller();
    let rules = tables.rules();
    // The files that answer for them: a material's own, or its colour twin's (one file for
    // both), as `Tablebases::generate` writes them.
    let mut files: Vec<Material> = all.iter().map(|&m| tables.file_material(m)).collect();
    files.sort_by_key(|m| (m.men(), m.to_string()));
    files.dedup();
    let mut missing: Vec<Material> = files.iter().copied().filter(|&m| !tables.path(m).exists()).collect();
    if missing.iter().all(|m| m.men() <= SOLVE_ON_THE_FLY_MEN) {
        missing.clear();
    }
    let (mut memory, mut largest) = (0, None);
    let mut planned = Vec::with_capacity(missing.len());
    for &m in &missing {
        let positions = index_size(m)? as u64;
        let needed = tables.estimate(m, |_| false);
        if needed > memory {
            (memory, largest) = (needed, Some(m));
        }
        planned.push(Planned { material: m, positions, work: positions as f64 * cost(tables) });
    }
    let work: f64 = planned.iter().map(|p| p.work).sum();
    let estimate = Estimate {
        material,
        rules,
        tables: planned.len(),
        tables_in_all: files.len(),
        positions: planned.iter().map(|p| p.positions).sum(),
        memory_bytes: memory,
        largest,
        seconds: work / speed.max(1.0),
        speed,
    };
    Ok((estimate, planned))
}

/// Where a generation is.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JobProgress {
    /// Tables generated so far.
    pub materials_done: usize,
    /// Tables to generate in all.
    pub materials_total: usize,
    /// The table being generated now.
    pub current: Option<Material>,
    /// Positions of the tables done, and of the current one as far as it went.
    pub positions_done: u64,
    /// Positions of the tables to generate.
    pub positions_total: u64,
    /// Positions generated per second so far (the assumed speed before the first second).
    pub positions_per_second: f64,
    /// Seconds left: the work left at the speed so far (tempered by the assumed speed while
    /// little is measured).
    pub seconds_left: f64,
}

/// How [`ensure`] runs.
#[derive(Clone, Copy, Debug)]
pub struct EnsureOptions<'a> {
    /// The memory a generation may take, in bytes: a larger estimate is refused up front.
    pub budget: u64,
    /// Stops the generation soon after it is set ([`Tablebases::generate_cancellable`]).
    pub cancel: Option<&'a AtomicBool>,
    /// The speed assumed for the estimates, in positions per second ([`default_speed`]).
    pub speed: f64,
}

/// What [`ensure`] did.
#[derive(Clone, Debug, PartialEq)]
pub enum Ensured {
    /// The tables were there already.
    Already(Estimate),
    /// The missing tables were generated.
    Generated {
        /// The estimate made before.
        estimate: Estimate,
        /// What the generation did.
        summary: GenerateSummary,
        /// The seconds it took.
        seconds: f64,
    },
}

/// Why [`ensure`] (or [`Jobs::submit`]) did not make the tables.
#[derive(Debug, thiserror::Error)]
pub enum EnsureError {
    /// No table of the material can exist (its index does not fit in 64 bits).
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// The generation needs more memory than the budget.
    #[error(
        "{} needs more memory than the {} MiB this generation may take; on a bigger machine: {} (or on a cluster: mpirun ... endgame xiangqi generate ...)",
        estimate.describe(), budget >> 20, estimate.command()
    )]
    OverBudget {
        /// The estimate.
        estimate: Box<Estimate>,
        /// The budget in bytes.
        budget: u64,
    },
    /// The queue holds as many jobs as it takes ([`Jobs::MAX_QUEUED`]).
    #[error("{0} generations are waiting already; try again when one is done")]
    QueueFull(usize),
    /// The generation was cancelled; the tables finished stay.
    #[error("cancelled")]
    Cancelled,
    /// The generation failed.
    #[error(transparent)]
    Generate(GenerateError),
    /// No thread could be started for the queue.
    #[error("cannot start a thread for the generation: {0}")]
    Thread(std::io::Error),
    /// The generation panicked (a bug); the tables finished stay.
    #[error("the generation of {0} stopped unexpectedly (a bug); the tables finished are kept")]
    Panicked(Material),
}

/// The books of a running generation, turned into [`JobProgress`] reports.
struct Tracker {
    /// Work of each table to generate.
    work_of: HashMap<Material, (u64, f64)>,
    work_total: f64,
    /// Work and positions of the finished tables.
    work_done: f64,
    positions_done: u64,
    progress: JobProgress,
    /// The current table: its positions and work, and the part of it done.
    current: Option<(u64, f64, f64)>,
    started: Instant,
    speed: f64,
    last_report: Option<Instant>,
}

/// The part of a solve done at `progress`: the start pass takes about 45 % of the time, the
/// wins and losses most of the rest (measured: `KRvKAABB` 0.28 of 0.67 s of CPU time,
/// `KRPvKAB` 2.47 of 5.39 s). The level passes count the positions decided, which stay below
/// all of them (holes and draws are never decided there): the bar moves on at the end.
fn solve_fraction(progress: endgame_core::Progress) -> f64 {
    let part =
        if progress.total == 0 { 0.0 } else { (progress.done as f64 / progress.total as f64).min(1.0) };
    match progress.phase {
        Phase::Start | Phase::ReverseEdges => 0.45 * part,
        Phase::WinsAndLosses => 0.45 + 0.5 * part,
        Phase::Draws => 0.95 + 0.05 * part,
    }
}

impl Tracker {
    fn new(estimate: &Estimate, planned: &[Planned], speed: f64) -> Tracker {
        let work_total = planned.iter().map(|p| p.work).sum();
        Tracker {
            work_of: planned.iter().map(|p| (p.material, (p.positions, p.work))).collect(),
            work_total,
            work_done: 0.0,
            positions_done: 0,
            progress: JobProgress {
                materials_total: planned.len(),
                positions_total: estimate.positions,
                positions_per_second: speed,
                seconds_left: estimate.seconds,
                ..JobProgress::default()
            },
            current: None,
            started: Instant::now(),
            speed,
            last_report: None,
        }
    }

    /// A table not in the estimate (a damaged file to generate anew, or one that was deleted).
    fn add(&mut self, material: Material, positions: u64, work: f64) {
        if self.work_of.insert(material, (positions, work)).is_none() {
            self.work_total += work;
            self.progress.materials_total += 1;
            self.progress.positions_total += positions;
        }
    }

    fn finish(&mut self, material: Material) {
        if let Some((positions, work)) = self.work_of.remove(&material) {
            self.work_done += work;
            self.positions_done += positions;
            self.progress.materials_done += 1;
        }
        self.current = None;
    }

    /// Brings the progress up to date; whether it is time to report it (every 100 ms at most).
    fn update(&mut self, force: bool) -> bool {
        let elapsed = self.started.elapsed().as_secs_f64();
        let (positions, work) = match self.current {
            Some((n, w, part)) => (self.positions_done + (n as f64 * part) as u64, self.work_done + w * part),
            None => (self.positions_done, self.work_done),
        };
        // The measured speed, tempered by the assumed one over its first two seconds.
        const PRIOR_SECONDS: f64 = 2.0;
        let rate = (work + self.speed * PRIOR_SECONDS) / (elapsed + PRIOR_SECONDS);
        let p = &mut self.progress;
        p.positions_done = positions.min(p.positions_total);
        p.positions_per_second = if elapsed < 1.0 { self.speed } else { positions as f64 / elapsed };
        p.seconds_left = ((self.work_total - work).max(0.0) / rate.max(1.0)).max(0.0);
        let now = Instant::now();
        if force || self.last_report.is_none_or(|t| now - t >= Duration::from_millis(100)) {
            self.last_report = Some(now);
            return true;
        }
        false
    }
}

/// Makes sure `material` has its tables under the store's rules, with those of every material
/// its captures lead to (see the [module](self) docs): estimates first, refuses what does not
/// fit `options.budget` (nothing is written then), generates what is missing in this thread
/// (the solver's passes on all cores), and calls `report` with the progress (at most every
/// 100 ms, and at each table's start and end).
///
/// # Errors
/// [`EnsureError::Probe`] when no table of the material can exist, [`EnsureError::OverBudget`]
/// when the estimate exceeds the budget, [`EnsureError::Cancelled`] when `options.cancel` was
/// set, [`EnsureError::Generate`] when the generation failed (the tables finished stay).
pub fn ensure(
    tables: &Tablebases,
    material: Material,
    options: EnsureOptions<'_>,
    report: &(dyn Fn(&JobProgress) + Sync),
) -> Result<Ensured, EnsureError> {
    let (estimate, planned) = estimate_plan(tables, material, options.speed)?;
    if estimate.is_done() {
        return Ok(Ensured::Already(estimate));
    }
    if estimate.memory_bytes > options.budget {
        return Err(EnsureError::OverBudget { estimate: Box::new(estimate), budget: options.budget });
    }
    let tracker = Mutex::new(Tracker::new(&estimate, &planned, options.speed));
    let lock = || tracker.lock().unwrap_or_else(PoisonError::into_inner);
    report(&lock().progress);
    let on_event = |event: GenerateEvent<'_>| {
        let mut t = lock();
        let force = match event {
            GenerateEvent::Kept { material } => {
                t.finish(material);
                true
            }
            GenerateEvent::Replacing { material, .. } => {
                let positions = crate::MaterialIndex::new(material).len() as u64;
                t.add(material, positions, positions as f64 * cost(tables));
                true
            }
            GenerateEvent::Solving { material, positions, .. } => {
                let positions = positions as u64;
                // A table the estimate did not count (its file vanished since): counted now.
                t.add(material, positions, positions as f64 * cost(tables));
                let (n, w) = t.work_of[&material];
                t.current = Some((n, w, 0.0));
                t.progress.current = Some(material);
                true
            }
            GenerateEvent::Progress { progress, .. } => {
                if let Some((_, _, part)) = &mut t.current {
                    *part = solve_fraction(progress).max(*part);
                }
                false
            }
            GenerateEvent::Step { .. } => false,
            GenerateEvent::Written { material, .. } => {
                t.finish(material);
                t.progress.current = None;
                true
            }
        };
        if t.update(force) {
            let progress = t.progress.clone();
            drop(t);
            report(&progress);
        }
    };
    let never = AtomicBool::new(false);
    let cancel = options.cancel.unwrap_or(&never);
    let started = Instant::now();
    let summary = tables.generate_cancellable(&[material], &on_event, cancel).map_err(|e| match e {
        GenerateError::Cancelled => EnsureError::Cancelled,
        GenerateError::Probe(e) => EnsureError::Probe(e),
        e => EnsureError::Generate(e),
    })?;
    let mut t = lock();
    t.update(true);
    let progress = t.progress.clone();
    drop(t);
    report(&progress);
    Ok(Ensured::Generated { estimate, summary, seconds: started.elapsed().as_secs_f64() })
}

/// A job's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JobState {
    /// Waiting for the generation before it.
    Queued,
    /// Generating.
    Running,
    /// Every table is there.
    Done,
    /// The generation failed ([`JobStatus::error`] says why); the tables finished stay.
    Failed,
    /// Cancelled; the tables finished stay.
    Cancelled,
}

impl JobState {
    /// `queued`, `running`, `done`, `failed`, `cancelled`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            JobState::Queued => "queued",
            JobState::Running => "running",
            JobState::Done => "done",
            JobState::Failed => "failed",
            JobState::Cancelled => "cancelled",
        }
    }

    /// Whether the job is over (done, failed or cancelled).
    #[must_use]
    pub const fn is_finished(self) -> bool {
        matches!(self, JobState::Done | JobState::Failed | JobState::Cancelled)
    }
}

/// A job of a [`Jobs`] queue as it stands.
#[derive(Clone, Debug, PartialEq)]
pub struct JobStatus {
    /// The job's number (unique in the process, and unlikely to repeat after a restart).
    pub id: u64,
    /// The material asked for.
    pub material: Material,
    /// The rule set.
    pub rules: Rules,
    /// Where the job is.
    pub state: JobState,
    /// The estimate made when it was submitted.
    pub estimate: Estimate,
    /// The generation's progress (all zero while queued).
    pub progress: JobProgress,
    /// Why it failed.
    pub error: Option<String>,
    /// Counts the changes of this status (for [`Jobs::wait_change`]).
    pub version: u64,
}

/// What [`Jobs::submit`] did.
#[derive(Clone, Debug, PartialEq)]
pub enum Submitted {
    /// Every table is there: no job.
    Done(Estimate),
    /// A job was queued, or the request joined one queued or running for the same material.
    Job(JobStatus),
}

struct Job {
    status: JobStatus,
    tables: Arc<Tablebases>,
    cancel: Arc<AtomicBool>,
    /// The store's directory, which with the material and the rules tells jobs apart.
    dir: PathBuf,
}

#[derive(Default)]
struct Books {
    jobs: HashMap<u64, Job>,
    /// Jobs waiting, first in first out.
    queue: VecDeque<u64>,
    /// Finished jobs, oldest first (the oldest are forgotten beyond [`Jobs::KEPT_FINISHED`]).
    finished: VecDeque<u64>,
    next_id: u64,
    /// The speed of the latest generation measured, in positions per second.
    measured: Option<f64>,
    /// Whether the worker thread runs.
    worker: bool,
}

struct Shared {
    books: Mutex<Books>,
    changed: Condvar,
    budget: u64,
}

impl Shared {
    fn books(&self) -> MutexGuard<'_, Books> {
        self.books.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A queue of generations for a server (see the [module](self) docs). Cloning gives another
/// handle to the same queue.
#[derive(Clone)]
pub struct Jobs {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for Jobs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Jobs").field("budget", &self.shared.budget).finish_non_exhaustive()
    }
}

/// A generation measured shorter than this does not set the queue's speed (too little to
/// tell).
const MIN_MEASURED_SECONDS: f64 = 2.0;

impl Jobs {
    /// Jobs waiting at most; more are refused ([`EnsureError::QueueFull`]).
    pub const MAX_QUEUED: usize = 16;
    /// Finished jobs remembered (the oldest are forgotten first).
    pub const KEPT_FINISHED: usize = 64;

    /// An empty queue whose generations may each take `budget` bytes of memory.
    #[must_use]
    pub fn new(budget: u64) -> Jobs {
        // Job numbers start somewhere else in every process (below 2^53, exact in JSON), so
        // that a page asking after a restart about a job of the process before is not told
        // about another.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos() ^ d.as_secs() as u32);
        let start = (u64::from(nanos ^ std::process::id()) << 16) + 1;
        let books = Books { next_id: start, ..Books::default() };
        Jobs { shared: Arc::new(Shared { books: Mutex::new(books), changed: Condvar::new(), budget }) }
    }

    /// The memory budget of one generation, in bytes.
    #[must_use]
    pub fn budget(&self) -> u64 {
        self.shared.budget
    }

    /// The speed estimates assume: that of the latest generation of at least two seconds
    /// this queue ran, else [`default_speed`].
    #[must_use]
    pub fn speed(&self) -> f64 {
        self.shared.books().measured.unwrap_or_else(default_speed)
    }

    /// [`estimate`] at the queue's [`Jobs::speed`].
    ///
    /// # Errors
    /// As [`estimate`].
    pub fn estimate(&self, tables: &Tablebases, material: Material) -> Result<Estimate, ProbeError> {
        estimate(tables, material, self.speed())
    }

    /// Asks for the tables of `material` in `tables`: answers at once that they are there,
    /// or queues a job (or joins the one queued or running for the same material, rules and
    /// directory) and answers its status.
    ///
    /// # Errors
    /// [`EnsureError::Probe`] when no table of the material can exist,
    /// [`EnsureError::OverBudget`] (with the estimate) when it does not fit the budget,
    /// [`EnsureError::QueueFull`] when [`Jobs::MAX_QUEUED`] jobs wait already.
    pub fn submit(&self, tables: &Arc<Tablebases>, material: Material) -> Result<Submitted, EnsureError> {
        let rules = tables.rules();
        let dir = tables.dir().to_path_buf();
        let same = |job: &Job| job.status.material == material && job.status.rules == rules && job.dir == dir;
        if let Some(job) =
            self.shared.books().jobs.values().find(|j| same(j) && !j.status.state.is_finished())
        {
            return Ok(Submitted::Job(job.status.clone()));
        }
        let estimate = self.estimate(tables, material)?;
        if estimate.is_done() {
            return Ok(Submitted::Done(estimate));
        }
        if estimate.memory_bytes > self.shared.budget {
            return Err(EnsureError::OverBudget { estimate: Box::new(estimate), budget: self.shared.budget });
        }
        let mut books = self.shared.books();
        // Submitted by another request while this one estimated.
        if let Some(job) = books.jobs.values().find(|j| same(j) && !j.status.state.is_finished()) {
            return Ok(Submitted::Job(job.status.clone()));
        }
        if books.queue.len() >= Jobs::MAX_QUEUED {
            return Err(EnsureError::QueueFull(books.queue.len()));
        }
        let id = books.next_id;
        books.next_id += 1;
        let status = JobStatus {
            id,
            material,
            rules,
            state: JobState::Queued,
            estimate,
            progress: JobProgress::default(),
            error: None,
            version: 0,
        };
        let job = Job { status: status.clone(), tables: Arc::clone(tables), cancel: Arc::default(), dir };
        books.jobs.insert(id, job);
        books.queue.push_back(id);
        if !books.worker {
            books.worker = true;
            let shared = Arc::clone(&self.shared);
            let spawned =
                std::thread::Builder::new().name("endgame-generate".into()).spawn(move || work(&shared));
            if let Err(e) = spawned {
                books.worker = false;
                books.queue.pop_back();
                books.jobs.remove(&id);
                return Err(EnsureError::Thread(e));
            }
        }
        self.shared.changed.notify_all();
        Ok(Submitted::Job(status))
    }

    /// The job queued or running for `material` in `tables` (same rules and directory), if any.
    #[must_use]
    pub fn active(&self, tables: &Tablebases, material: Material) -> Option<JobStatus> {
        let books = self.shared.books();
        let job = books.jobs.values().find(|j| {
            j.status.material == material
                && j.status.rules == tables.rules()
                && j.dir == tables.dir()
                && !j.status.state.is_finished()
        })?;
        Some(job.status.clone())
    }

    /// The status of job `id` (`None`: no such job, or forgotten).
    #[must_use]
    pub fn status(&self, id: u64) -> Option<JobStatus> {
        self.shared.books().jobs.get(&id).map(|j| j.status.clone())
    }

    /// Cancels job `id`: a queued job at once, a running one soon (its solve stops at its next
    /// check; the tables it finished stay). A finished job stays as it is. Returns its status,
    /// `None` when there is no such job.
    #[must_use]
    pub fn cancel(&self, id: u64) -> Option<JobStatus> {
        let mut books = self.shared.books();
        let books = &mut *books;
        let job = books.jobs.get_mut(&id)?;
        match job.status.state {
            JobState::Queued => {
                books.queue.retain(|&q| q != id);
                job.status.state = JobState::Cancelled;
                job.status.version += 1;
                books.finished.push_back(id);
                let status = job.status.clone();
                forget_old(books);
                self.shared.changed.notify_all();
                Some(status)
            }
            JobState::Running => {
                job.cancel.store(true, Ordering::Relaxed);
                Some(job.status.clone())
            }
            _ => Some(job.status.clone()),
        }
    }

    /// Waits until job `id`'s status is newer than `version` (or the job is finished), at
    /// most `timeout`; answers its status then (`None`: no such job).
    #[must_use]
    pub fn wait_change(&self, id: u64, version: u64, timeout: Duration) -> Option<JobStatus> {
        let deadline = Instant::now() + timeout;
        let mut books = self.shared.books();
        loop {
            let status = &books.jobs.get(&id)?.status;
            let now = Instant::now();
            if status.version > version || status.state.is_finished() || now >= deadline {
                return Some(status.clone());
            }
            books = self
                .shared
                .changed
                .wait_timeout(books, deadline - now)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// Waits until job `id` is finished and answers its status (`None`: no such job).
    #[must_use]
    pub fn wait(&self, id: u64) -> Option<JobStatus> {
        let mut books = self.shared.books();
        loop {
            let status = &books.jobs.get(&id)?.status;
            if status.state.is_finished() {
                return Some(status.clone());
            }
            books = self.shared.changed.wait(books).unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// Forgets the oldest finished jobs beyond [`Jobs::KEPT_FINISHED`].
fn forget_old(books: &mut Books) {
    while books.finished.len() > Jobs::KEPT_FINISHED {
        if let Some(old) = books.finished.pop_front() {
            books.jobs.remove(&old);
        }
    }
}

/// The worker: runs the queued jobs one after the other, then ends (the next submission starts
/// another).
fn work(shared: &Shared) {
    loop {
        let (id, tables, cancel, material, speed) = {
            let mut books = shared.books();
            let Some(id) = books.queue.pop_front() else {
                books.worker = false;
                return;
            };
            let speed = books.measured.unwrap_or_else(default_speed);
            let job = books.jobs.get_mut(&id).expect("a queued job is in the books");
            job.status.state = JobState::Running;
            job.status.version += 1;
            let taken = (id, Arc::clone(&job.tables), Arc::clone(&job.cancel), job.status.material, speed);
            shared.changed.notify_all();
            taken
        };
        let report = |progress: &JobProgress| {
            let mut books = shared.books();
            if let Some(job) = books.jobs.get_mut(&id) {
                job.status.progress = progress.clone();
                job.status.version += 1;
            }
            shared.changed.notify_all();
        };
        let options = EnsureOptions { budget: shared.budget, cancel: Some(&cancel), speed };
        // A panic in a generation (a bug) fails the job, not the queue.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            ensure(&tables, material, options, &report)
        }))
        .unwrap_or(Err(EnsureError::Panicked(material)));
        let mut books = shared.books();
        if let Ok(Ensured::Generated { estimate, seconds, .. }) = &result
            && *seconds >= MIN_MEASURED_SECONDS
        {
            let work = estimate.seconds * estimate.speed;
            books.measured = Some(work / seconds);
        }
        let job = books.jobs.get_mut(&id).expect("a running job is in the books");
        let (state, error) = match result {
            Ok(_) => (JobState::Done, None),
            Err(EnsureError::Cancelled) => (JobState::Cancelled, None),
            Err(e) => (JobState::Failed, Some(e.to_string())),
        };
        job.status.state = state;
        job.status.error = error;
        job.status.version += 1;
        if state == JobState::Done {
            let p = &mut job.status.progress;
            p.materials_done = p.materials_total;
            p.positions_done = p.positions_total;
            p.seconds_left = 0.0;
            p.current = None;
        }
        books.finished.push_back(id);
        forget_old(&mut books);
        shared.changed.notify_all();
    }
}
