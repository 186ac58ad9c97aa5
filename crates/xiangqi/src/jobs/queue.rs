//! A queue of generations for a server ([`Jobs`]): one generation at a time, on a thread of
//! its own; two requests for the same material (and rules and directory) share one job; a job
//! can be cancelled, queued or running; every job's state and progress can be read at any
//! time.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::ensure::{EnsureError, EnsureOptions, Ensured, JobProgress, ensure};
use super::estimate::{Estimate, estimate};
use crate::probe::{Probe, ProbeError};
use crate::rules::material::Material;
use crate::rules::rule_set::Rules;
use crate::store::Tablebases;
use crate::store::cost::default_speed;

/// A job's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JobState {
    /// Next: no other job runs or waits before it, its generation starts at once (its worker
    /// is taking it up).
    Starting,
    /// Waiting for the jobs before it ([`JobStatus::ahead`] of them: the one running and those
    /// queued earlier).
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
    /// `starting`, `queued`, `running`, `done`, `failed`, `cancelled`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            JobState::Starting => "starting",
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
    /// The jobs to finish before this one starts: the one running and those queued before it
    /// (0 unless [`JobState::Queued`]).
    pub ahead: usize,
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

/// A queue of generations for a server (see the [module](crate::jobs) docs). Cloning gives another
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
        {
            let books = self.shared.books();
            if let Some(job) = books.jobs.values().find(|j| same(j) && !j.status.state.is_finished()) {
                return Ok(Submitted::Job(view(&books, &job.status)));
            }
        }
        let estimate = self.estimate(tables, material)?;
        if estimate.is_done() {
            return Ok(Submitted::Done(estimate));
        }
        if !estimate.fits(self.shared.budget) {
            return Err(EnsureError::OverBudget { estimate: Box::new(estimate), budget: self.shared.budget });
        }
        let mut books = self.shared.books();
        // Submitted by another request while this one estimated.
        if let Some(job) = books.jobs.values().find(|j| same(j) && !j.status.state.is_finished()) {
            return Ok(Submitted::Job(view(&books, &job.status)));
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
            ahead: 0,
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
        Ok(Submitted::Job(view(&books, &status)))
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
        Some(view(&books, &job.status))
    }

    /// The status of job `id` (`None`: no such job, or forgotten).
    #[must_use]
    pub fn status(&self, id: u64) -> Option<JobStatus> {
        let books = self.shared.books();
        books.jobs.get(&id).map(|j| view(&books, &j.status))
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
                // Those behind it move up.
                touch_queued(books);
                forget_old(books);
                self.shared.changed.notify_all();
                Some(status)
            }
            JobState::Running => {
                job.cancel.store(true, Ordering::Relaxed);
                Some(job.status.clone())
            }
            // Finished: as it is.
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
                return Some(view(&books, status));
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

/// A job's status as its clients see it: a queued job is [`JobState::Starting`] when nothing
/// runs or waits before it, else [`JobState::Queued`] with the jobs [`ahead`](JobStatus::ahead)
/// of it. (The books keep every waiting job as queued.)
fn view(books: &Books, status: &JobStatus) -> JobStatus {
    let mut status = status.clone();
    if status.state == JobState::Queued {
        let before = books.queue.iter().position(|&q| q == status.id).unwrap_or(0);
        let running = books.jobs.values().filter(|j| j.status.state == JobState::Running).count();
        status.ahead = before + running;
        if status.ahead == 0 {
            status.state = JobState::Starting;
        }
    }
    status
}

/// A change of the queue (a job started, finished or withdrawn): the status of each job still
/// waiting changes with it (its [`JobStatus::ahead`]), for [`Jobs::wait_change`].
fn touch_queued(books: &mut Books) {
    for id in &books.queue {
        if let Some(job) = books.jobs.get_mut(id) {
            job.status.version += 1;
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
        // One job fewer ahead of each waiting one.
        touch_queued(&mut books);
        forget_old(&mut books);
        shared.changed.notify_all();
    }
}
