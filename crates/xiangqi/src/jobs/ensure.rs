//! Making sure a material has its tables ([`ensure`]): the estimate first, refused up front
//! when it does not fit the memory budget, then the generation in this thread with its
//! progress ([`JobProgress`]: tables done of all, positions per second, seconds left). A
//! generation that stops (cancelled, an error, the process killed) keeps the tables it
//! finished: the next one resumes from them.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use endgame_core::Phase;

use super::estimate::{Estimate, Planned, cost, estimate_plan};
use super::time_left::TimeLeft;
use crate::probe::ProbeError;
use crate::rules::material::Material;
use crate::store::Tablebases;
use crate::store::generate::{GenerateError, GenerateEvent, GenerateSummary};
use crate::tables::index::MaterialIndex;

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
    /// Seconds left: the work left at the speed of the tables finished so far (the assumed
    /// speed counting for their first seconds), less the time the current table has run;
    /// with a steady speed it falls a second each second.
    pub seconds_left: f64,
}

/// How [`ensure`] runs.
#[derive(Clone, Copy, Debug)]
pub struct EnsureOptions<'a> {
    /// The memory a generation may take, in bytes: a larger least estimate is refused up
    /// front ([`Estimate::fits`]); the generation keeps within it
    /// ([`Tablebases::generate_within`]).
    pub budget: u64,
    /// Stops the generation soon after it is set ([`Tablebases::generate_within`]).
    pub cancel: Option<&'a AtomicBool>,
    /// The speed assumed for the estimates, in positions per second
    /// ([`default_speed`](crate::store::cost::default_speed)).
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

/// Why [`ensure`] (or [`Jobs::submit`](super::Jobs::submit)) did not make the tables.
#[derive(Debug, thiserror::Error)]
pub enum EnsureError {
    /// No table of the material can exist (its index does not fit in 64 bits).
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// The generation needs more memory than the budget, even at its slowest.
    #[error(
        "{} needs more memory than the {} this generation may take; on a bigger machine: {} (or on a cluster: mpirun ... endgame xiangqi generate ...)",
        estimate.describe(), endgame_core::units::bytes(*budget), estimate.command()
    )]
    OverBudget {
        /// The estimate.
        estimate: Box<Estimate>,
        /// The budget in bytes.
        budget: u64,
    },
    /// The queue holds as many jobs as it takes ([`Jobs::MAX_QUEUED`](super::Jobs::MAX_QUEUED)).
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

/// How often the progress is brought up to date between the generation's events.
const TICK: Duration = Duration::from_millis(250);

/// The books of a running generation, turned into [`JobProgress`] reports.
struct Tracker {
    /// Positions and work of each table to generate and not finished.
    work_of: HashMap<Material, (u64, f64)>,
    /// Positions of the finished tables.
    positions_done: u64,
    progress: JobProgress,
    /// The current table: its positions, and the part of its solve done.
    current: Option<(u64, f64)>,
    /// The time left, from the speed of the tables finished ([`TimeLeft`]).
    time: TimeLeft,
    started: Instant,
    speed: f64,
    last_report: Option<Instant>,
}

/// The part of a solve done at `progress`: the start pass takes about 45 % of the time, the
/// wins and losses most of the rest (BENCHMARKS.md, generation). The level passes count the
/// positions decided, which stay below all of them (holes and draws are never decided
/// there): the bar moves on at the end. (The bar only: the time left is the measured speed's,
/// [`TimeLeft`].)
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
        let work_total = planned.iter().fold(0.0, |sum, p| sum + p.work);
        Tracker {
            work_of: planned.iter().map(|p| (p.material, (p.positions, p.work))).collect(),
            positions_done: 0,
            progress: JobProgress {
                materials_total: planned.len(),
                positions_total: estimate.positions,
                positions_per_second: speed,
                seconds_left: estimate.seconds,
                ..JobProgress::default()
            },
            current: None,
            time: TimeLeft::new(planned.len(), work_total, speed),
            started: Instant::now(),
            speed,
            last_report: None,
        }
    }

    /// Seconds since the generation started.
    fn now(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// A table not in the estimate (a damaged file to generate anew, or one that was deleted).
    fn add(&mut self, material: Material, positions: u64, work: f64) {
        if self.work_of.insert(material, (positions, work)).is_none() {
            self.time.add(work);
            self.progress.materials_total += 1;
            self.progress.positions_total += positions;
        }
    }

    /// `material`'s solve starts.
    fn start(&mut self, material: Material) {
        let (positions, work) = self.work_of[&material];
        self.current = Some((positions, 0.0));
        self.progress.current = Some(material);
        let now = self.now();
        self.time.start(work, now);
    }

    /// The current solve is at `fraction` of itself.
    fn advance(&mut self, fraction: f64) {
        if let Some((_, part)) = &mut self.current {
            *part = fraction.max(*part);
            self.time.progress(*part);
        }
    }

    fn finish(&mut self, material: Material) {
        let now = self.now();
        if let Some((positions, work)) = self.work_of.remove(&material) {
            self.time.finish(work, now);
            self.positions_done += positions;
            self.progress.materials_done += 1;
        } else {
            // A table there already, checked and kept: its time is no table's to generate.
            self.time.skip(now);
        }
        self.current = None;
    }

    /// Brings the progress up to date; whether it is time to report it (every 100 ms at most).
    fn update(&mut self, force: bool) -> bool {
        let elapsed = self.now();
        let positions = match self.current {
            Some((n, part)) => self.positions_done + (n as f64 * part) as u64,
            None => self.positions_done,
        };
        let p = &mut self.progress;
        p.positions_done = positions.min(p.positions_total);
        p.positions_per_second = if elapsed < 1.0 { self.speed } else { positions as f64 / elapsed };
        p.seconds_left = self.time.seconds_left(elapsed);
        let now = Instant::now();
        if force || self.last_report.is_none_or(|t| now - t >= Duration::from_millis(100)) {
            self.last_report = Some(now);
            return true;
        }
        false
    }
}

/// Makes sure `material` has its tables under the store's rules, with those of every material
/// its captures lead to (see the [module](crate::jobs) docs): estimates first, refuses what does not
/// fit `options.budget` (nothing is written then), generates what is missing in this thread
/// (the solver's passes on all cores), and calls `report` with the progress (at most every
/// 100 ms, at each table's start and end, and every 250 ms between them, from a thread of its
/// own: `report` is called from the generation's threads and from that one, never two at once).
///
/// # Errors
/// [`EnsureError::Probe`] when no table of the material can exist, [`EnsureError::OverBudget`]
/// when the least estimate exceeds the budget, [`EnsureError::Cancelled`] when `options.cancel` was
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
    if !estimate.fits(options.budget) {
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
                let positions = MaterialIndex::new(material).len() as u64;
                t.add(material, positions, positions as f64 * cost(tables));
                true
            }
            GenerateEvent::Solving { material, positions, .. } => {
                let positions = positions as u64;
                // A table the estimate did not count (its file vanished since): counted now.
                t.add(material, positions, positions as f64 * cost(tables));
                t.start(material);
                true
            }
            GenerateEvent::Progress { progress, .. } => {
                t.advance(solve_fraction(progress));
                false
            }
            GenerateEvent::Step { .. } => false,
            GenerateEvent::Written { material, .. } => {
                t.finish(material);
                t.progress.current = None;
                true
            }
        };
        // Reported under the tracker's lock: the reports of the events and of the ticker below
        // come in the order of their figures.
        if t.update(force) {
            report(&t.progress);
        }
    };
    let never = AtomicBool::new(false);
    let cancel = options.cancel.unwrap_or(&never);
    let started = Instant::now();
    let generating = AtomicBool::new(true);
    let summary = std::thread::scope(|scope| {
        // Between the generation's events (a pass without progress reports, a file being
        // written) the time left still falls: brought up to date every TICK. (Without a thread
        // for it, the reports come with the events only.)
        let ticker = std::thread::Builder::new().name("endgame-time-left".into()).spawn_scoped(scope, || {
            while generating.load(Ordering::Relaxed) {
                std::thread::park_timeout(TICK);
                let mut t = lock();
                if generating.load(Ordering::Relaxed) && t.update(false) {
                    report(&t.progress);
                }
            }
        });
        let result = tables.generate_within(&[material], &on_event, cancel, options.budget);
        generating.store(false, Ordering::Relaxed);
        if let Ok(ticker) = ticker {
            ticker.thread().unpark();
        }
        result
    });
    let summary = summary.map_err(|e| match e {
        GenerateError::Cancelled => EnsureError::Cancelled,
        GenerateError::Probe(e) => EnsureError::Probe(e),
        e => EnsureError::Generate(e),
    })?;
    let mut t = lock();
    t.update(true);
    report(&t.progress);
    drop(t);
    Ok(Ensured::Generated { estimate, summary, seconds: started.elapsed().as_secs_f64() })
}
