//! Table generation on an MPI cluster (the `mpi` feature): `mpirun -np K endgame xiangqi
//! generate ...` runs this on every rank.
//!
//! MPI is only the transport. Rank 0 keeps the books with the same
//! [`Scheduler`](endgame_core::schedule::Scheduler) a single process uses
//! ([`Tablebases::prepare`], over the generation's [`Plan`](crate::store::generate::Plan)): it
//! hands each idle rank the largest ready material, and every rank (rank 0 too, in a thread of
//! its own, unless told otherwise) solves whole materials with all its cores through
//! [`Tablebases::generate_one`], reading the finished smaller tables from the shared directory
//! and writing its file atomically. Only rank 0's main thread calls MPI.
//!
//! A material whose memory estimate exceeds the memory of a rank (`--memory-per-rank`) is
//! split ([`Tablebases::share_of`]): rank 0 stops handing out, waits until every rank is idle,
//! and every rank (rank 0 too) solves a contiguous range of its index
//! ([`Tablebases::solve_share`]), the events for other ranks' positions going through
//! [`MpiTransport`]; each writes its share to a part file in the shared directory and rank 0
//! writes the table's files from them ([`Tablebases::write_from_shares`]).
//!
//! A rank whose material fails makes rank 0 abort the whole run with a message (a split
//! material's failure aborts from the rank that failed); a rank that dies makes `mpirun` end
//! the run (rank 0 has named the split material it started). Finished files stay, so a rerun
//! resumes where it stopped; a split material starts again.

mod transport;

use std::sync::mpsc;
use std::time::{Duration, Instant};

use endgame_core::retrograde::Transport;

use mpi::Rank;
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, Destination, Source};

use crate::probe::Probe;
use crate::rules::material::Material;
use crate::store::Tablebases;
use crate::store::cost::proc_kib;
use crate::store::generate::{GenerateError, GenerateEvent, GenerateSummary};
use crate::store::loaded::Loaded;
use crate::store::split::Share;
pub use transport::MpiTransport;

const TASK: i32 = 1;
const STOP: i32 = 2;
const DONE: i32 = 3;
const FAILED: i32 = 4;
/// Solve a share of a split material: `<material> <budget>`.
const SPLIT: i32 = 5;

/// A material finished somewhere in the cluster.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Finished {
    /// The material.
    pub material: Material,
    /// The rank that solved it.
    pub rank: Rank,
    /// Seconds it took there.
    pub seconds: f64,
    /// Indices of the material.
    pub positions: usize,
    /// What went between the ranks when it was split (`None`: solved whole).
    pub split: Option<SplitStats>,
}

/// A split material's solve: its ranks, what they sent each other, their peak memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitStats {
    /// The ranks that shared it (every rank).
    pub ranks: usize,
    /// Events sent between ranks, all ranks together (8 bytes each).
    pub events: u64,
    /// The most events rank 0 sent in one level.
    pub rank0_level_max: u64,
    /// The levels of the solve (wins and losses, then the draws' distances).
    pub levels: usize,
    /// All-to-all exchanges (each rank takes part in every one).
    pub exchanges: u64,
    /// The largest peak resident memory of a rank so far (`VmHWM`), in bytes.
    pub peak_rank_bytes: u64,
}

/// How a generation over MPI splits materials.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitOptions {
    /// A material whose memory estimate exceeds this is split over every rank
    /// ([`Tablebases::share_of`]).
    pub memory_per_rank: u64,
}

/// What a rank's work came to.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// Preparing the books (rank 0) or a material failed.
    #[error(transparent)]
    Generate(#[from] GenerateError),
    /// A rank reported a failure (rank 0 reports it, then aborts the run).
    #[error("rank {rank} failed: {message}")]
    Rank {
        /// The rank.
        rank: Rank,
        /// Its error.
        message: String,
    },
}

/// Runs a generation of `materials` on every rank of `world` (call it on every rank). Rank 0
/// returns the summary and calls `finished` for each material as it is done; the others
/// return `None` once rank 0 stops them. With `rank0_solves` rank 0 also solves materials.
///
/// # Errors
/// On rank 0: preparing failed, or a rank reported a failure (then the other ranks are
/// stopped with `MPI_Abort` after the error was returned to be printed: see
/// [`abort`]). On the other ranks: their own material failed (after telling rank 0).
pub fn generate(
    world: &SimpleCommunicator,
    tables: &Tablebases,
    materials: &[Material],
    rank0_solves: bool,
    split: SplitOptions,
    finished: &dyn Fn(Finished),
) -> Result<Option<GenerateSummary>, ClusterError> {
    if world.rank() == 0 {
        keep_books(world, tables, materials, rank0_solves, split, finished).map(Some)
    } else {
        work(world, tables).map(|()| None)
    }
}

/// Ends every rank's process: after rank 0 printed a failure.
pub fn abort(world: &SimpleCommunicator) -> ! {
    world.abort(1)
}

/// A rank other than 0: solve what rank 0 hands out until it says stop.
fn work(world: &SimpleCommunicator, tables: &Tablebases) -> Result<(), ClusterError> {
    let root = world.process_at_rank(0);
    let mut loaded = Loaded::new(tables.rules());
    loop {
        let (bytes, status) = root.receive_vec::<u8>();
        if status.tag() == STOP {
            return Ok(());
        }
        let material = parse(&bytes);
        if status.tag() == SPLIT {
            let text = String::from_utf8_lossy(&bytes);
            let budget = text.split_whitespace().nth(1).and_then(|b| b.parse().ok()).unwrap_or(1 << 20);
            solve_share(world, tables, material, budget);
            continue;
        }
        match tables.generate_one(material, &mut loaded, &|_: GenerateEvent<'_>| {}) {
            Ok(seconds) => root.send_with_tag(format!("{material} {seconds}").as_bytes(), DONE),
            Err(e) => {
                root.send_with_tag(e.to_string().as_bytes(), FAILED);
                return Err(e.into());
            }
        }
        trim(&mut loaded);
    }
}

/// Keeps the small tables loaded (cheap to keep, read often), drops the others.
fn trim(loaded: &mut Loaded) {
    let big: Vec<Material> = loaded.materials().into_iter().filter(|m| m.men() > 4).collect();
    for m in big {
        loaded.remove(m);
    }
}

fn parse(bytes: &[u8]) -> Material {
    let text = String::from_utf8_lossy(bytes);
    let name = text.split_whitespace().next().unwrap_or_default();
    name.parse().unwrap_or_else(|e| panic!("rank 0 sent a bad material {name:?}: {e}"))
}

/// What a rank said to rank 0.
enum Message {
    Done { rank: Rank, material: Material, seconds: f64 },
    Failed { rank: Rank, message: String },
}

/// Rank 0: the books, the hand-outs, and (optionally) a worker thread of its own.
fn keep_books(
    world: &SimpleCommunicator,
    tables: &Tablebases,
    materials: &[Material],
    rank0_solves: bool,
    split: SplitOptions,
    finished: &dyn Fn(Finished),
) -> Result<GenerateSummary, ClusterError> {
    let quiet = |_: GenerateEvent<'_>| {};
    let prepared = tables.prepare(materials, &quiet);
    let (mut scheduler, mut summary) = match prepared {
        Ok(books) => books,
        Err(e) => {
            stop_all(world);
            return Err(e.into());
        }
    };
    let (task_tx, task_rx) = mpsc::channel::<Option<Material>>();
    let (done_tx, done_rx) = mpsc::channel::<Message>();
    std::thread::scope(|scope| {
        if rank0_solves {
            scope.spawn(move || {
                let mut loaded = Loaded::new(tables.rules());
                while let Ok(Some(material)) = task_rx.recv() {
                    let message = match tables.generate_one(material, &mut loaded, &quiet) {
                        Ok(seconds) => Message::Done { rank: 0, material, seconds },
                        Err(e) => Message::Failed { rank: 0, message: e.to_string() },
                    };
                    trim(&mut loaded);
                    if done_tx.send(message).is_err() {
                        return;
                    }
                }
            });
        } else {
            drop((task_rx, done_tx));
        }
        let mut idle: Vec<Rank> = (1..world.size()).rev().collect();
        if rank0_solves {
            idle.push(0);
        }
        let workers = idle.len();
        let ranks = world.size() as usize;
        // A material to split, handed out: it starts once every rank is idle.
        let mut to_split: Option<(Material, u64)> = None;
        let outcome = loop {
            while to_split.is_none()
                && let Some(&rank) = idle.last()
            {
                let Some(material) = scheduler.hand_out() else { break };
                if let Share::Split { budget, .. } = tables.share_of(material, ranks, split.memory_per_rank) {
                    to_split = Some((material, budget));
                    break;
                }
                idle.pop();
                if rank == 0 {
                    // A worker that died is found by `next_message` (its channel closed).
                    let _ = task_tx.send(Some(material));
                } else {
                    world.process_at_rank(rank).send_with_tag(material.to_string().as_bytes(), TASK);
                }
            }
            if let Some((material, budget)) = to_split
                && idle.len() == workers
            {
                to_split = None;
                let positions = crate::tables::index::MaterialIndex::size(material).unwrap_or(0);
                eprintln!(
                    "{material}: split over {ranks} ranks ({} positions, about {} each)",
                    endgame_core::units::count(positions as u64),
                    endgame_core::units::bytes(Tablebases::share_memory_estimate(material, ranks, budget))
                );
                let text = format!("{material} {budget}");
                for rank in 1..world.size() {
                    world.process_at_rank(rank).send_with_tag(text.as_bytes(), SPLIT);
                }
                let start = Instant::now();
                let stats = solve_share(world, tables, material, budget);
                if let Err(e) = tables.write_from_shares(material, ranks) {
                    eprintln!(
                        "error: {material} (split): {e}; the finished tables are kept: run the same command again to resume"
                    );
                    world.abort(1);
                }
                scheduler.finish(&material);
                summary.generated += 1;
                let seconds = start.elapsed().as_secs_f64();
                finished(Finished { material, rank: 0, seconds, positions, split: Some(stats) });
                continue;
            }
            if scheduler.is_finished() {
                break Ok(());
            }
            if scheduler.running() == 0 {
                // Nothing ready, nothing running: cannot happen with an acyclic plan.
                break Err(ClusterError::Rank { rank: 0, message: "no material is ready".into() });
            }
            let local_busy = rank0_solves && !idle.contains(&0);
            match next_message(world, &done_rx, local_busy) {
                Message::Done { rank, material, seconds } => {
                    scheduler.finish(&material);
                    summary.generated += 1;
                    let positions = crate::tables::index::MaterialIndex::size(material).unwrap_or(0);
                    finished(Finished { material, rank, seconds, positions, split: None });
                    idle.push(rank);
                }
                Message::Failed { rank, message } => {
                    // Now, not after rank 0's own material: the other ranks stop at once.
                    eprintln!(
                        "error: rank {rank} failed: {message}; the finished tables are kept: run the same command again to resume"
                    );
                    world.abort(1);
                }
            }
        };
        // Stops rank 0's worker (a closed channel) and, on success, the other ranks; on a
        // failure the caller aborts the run.
        let _ = task_tx.send(None);
        drop(task_tx);
        if outcome.is_ok() {
            stop_all(world);
        }
        outcome.map(|()| summary)
    })
}

/// Every rank (called on each, rank 0 from its main thread): solves this rank's share of
/// `material`, writes its part file, and waits until every rank's is written. A failure ends
/// the run from the rank that failed, naming the material.
fn solve_share(
    world: &SimpleCommunicator,
    tables: &Tablebases,
    material: Material,
    budget: u64,
) -> SplitStats {
    let transport = MpiTransport::new(world);
    let rank = transport.rank();
    let written = tables
        .solve_share(material, &transport, budget)
        .map_err(|e| e.to_string())
        .and_then(|part| tables.write_share(material, rank, &part).map(|()| part).map_err(|e| e.to_string()));
    let part = match written {
        Ok(part) => part,
        Err(e) => {
            eprintln!(
                "error: rank {rank}: {material} (split over {} ranks): {e}; the finished tables are kept: run the same command again to resume",
                transport.ranks()
            );
            world.abort(1)
        }
    };
    let sent: u64 = part.sent_per_level.iter().sum();
    let peak = proc_kib("/proc/self/status", "VmHWM:").unwrap_or(0);
    // Also the barrier after which rank 0 reads every part file.
    let events = transport.sum(sent);
    let peak_rank_bytes = transport.max(peak).unwrap_or(peak);
    SplitStats {
        ranks: transport.ranks(),
        events,
        rank0_level_max: part.sent_per_level.iter().copied().max().unwrap_or(0),
        levels: part.sent_per_level.len(),
        exchanges: part.exchanges,
        peak_rank_bytes,
    }
}

fn stop_all(world: &SimpleCommunicator) {
    for rank in 1..world.size() {
        world.process_at_rank(rank).send_with_tag(&[0u8][..], STOP);
    }
}

/// The next report from any rank: other ranks by MPI, rank 0's worker by its channel.
fn next_message(world: &SimpleCommunicator, local: &mpsc::Receiver<Message>, local_busy: bool) -> Message {
    loop {
        if let Some(status) = world.any_process().immediate_probe() {
            let rank = status.source_rank();
            let (bytes, status) = world.process_at_rank(rank).receive_vec::<u8>();
            let text = String::from_utf8_lossy(&bytes).into_owned();
            return if status.tag() == DONE {
                let mut words = text.split_whitespace();
                let material = parse(words.next().unwrap_or_default().as_bytes());
                let seconds = words.next().and_then(|s| s.parse().ok()).unwrap_or(0.0);
                Message::Done { rank, material, seconds }
            } else {
                Message::Failed { rank, message: text }
            };
        }
        match local.recv_timeout(Duration::from_millis(2)) {
            Ok(message) => return message,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            // Rank 0's worker is gone: it solves nothing (wait a little between probes), or
            // it died with a material in hand (a failure).
            Err(mpsc::RecvTimeoutError::Disconnected) if local_busy => {
                return Message::Failed { rank: 0, message: "rank 0's worker thread ended".into() };
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => std::thread::sleep(Duration::from_millis(2)),
        }
    }
}
