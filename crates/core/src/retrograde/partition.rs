//! Partitioned solving: one game's positions split into contiguous ranges over several ranks
//! (processes of a cluster, or threads standing in for them), each rank holding the cells of
//! its range only.
//!
//! Every rank runs the same start pass and level passes as a single solve ([`Run`]), over its
//! range. A predecessor in another rank's range gets its event (a move to a loss, to a win, to
//! a drawn end) in a batch for that rank; batches travel in all-to-all exchanges, a round each
//! time a rank's outgoing events reach the budget ([`Retrograde::exchange_budget`]) or its
//! level's positions are done, and received events are applied as local ones are. A level
//! ends when every rank has walked its positions (a global reduction), and the solve goes on
//! while any rank has positions or events left. Within a level the order in which events
//! arrive does not change the outcome (a position with a move to a loss of this level never
//! has its counter run out at this level: that move is not counted down), so every rank ends
//! with exactly the values one process finds for its range.
//!
//! The [`Transport`] is all the solver knows of the ranks: MPI in a cluster (the Xiangqi
//! crate's `mpi` feature), [`LocalRanks`](super::LocalRanks) in one process.

use std::cell::Cell;
use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicUsize, Ordering::Relaxed};

use rayon::prelude::*;

use super::cells::{Pos, Word};
use super::levels::{Bitmap, Event, Frontier, Tasks, WORDS};
use super::packed::Packed;
use super::preds::{Preds, UnmovePreds};
use super::run::Run;
use super::{CHUNK, CellSize, Retrograde, Solution, SolveError};
use crate::game::{Game, Unmoves};

/// How the ranks of a partitioned solve reach each other. Every rank calls the same methods
/// in the same order (they are collective); only the rank's own thread calls them.
pub trait Transport {
    /// This rank, in `0..ranks()`.
    fn rank(&self) -> usize;
    /// The number of ranks.
    fn ranks(&self) -> usize;
    /// All-to-all: `outgoing[r]` goes to rank `r` (this rank's own list is empty); returns
    /// what every rank sent to this one, in any order.
    ///
    /// # Errors
    /// When the ranks cannot be reached.
    fn exchange(&self, outgoing: Vec<Vec<u64>>) -> Result<Vec<u64>, TransportError>;
    /// The largest of every rank's `value`.
    ///
    /// # Errors
    /// When the ranks cannot be reached.
    fn max(&self, value: u64) -> Result<u64, TransportError>;
}

/// A transport's failure: what it said.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct TransportError(pub String);

impl From<TransportError> for SolveError {
    fn from(e: TransportError) -> SolveError {
        SolveError::Transport(e.0)
    }
}

/// The positions `0..positions` cut into `ranks` contiguous ranges of (nearly) equal size,
/// rank 0 the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Partition {
    positions: usize,
    ranks: usize,
}

impl Partition {
    /// `positions` over `ranks` ranks (at least one).
    #[must_use]
    pub fn new(positions: usize, ranks: usize) -> Partition {
        Partition { positions, ranks: ranks.max(1) }
    }

    /// The number of ranks.
    #[must_use]
    pub const fn ranks(&self) -> usize {
        self.ranks
    }

    /// Where rank `rank`'s range starts (`ranks()` for the end of the last).
    fn start(&self, rank: usize) -> usize {
        (self.positions as u128 * rank as u128 / self.ranks as u128) as usize
    }

    /// The positions of `rank`.
    #[must_use]
    pub fn range(&self, rank: usize) -> Range<usize> {
        self.start(rank)..self.start(rank + 1)
    }

    /// The rank whose range holds `pos` (in `0..positions`).
    #[must_use]
    pub fn owner(&self, pos: usize) -> usize {
        let mut rank = ((pos as u128 * self.ranks as u128) / self.positions.max(1) as u128) as usize;
        rank = rank.min(self.ranks - 1);
        while rank + 1 < self.ranks && self.start(rank + 1) <= pos {
            rank += 1;
        }
        while rank > 0 && self.start(rank) > pos {
            rank -= 1;
        }
        rank
    }
}

/// One rank's share of a partitioned solve.
#[derive(Debug)]
pub struct Part {
    /// The positions of this rank.
    pub range: Range<usize>,
    /// Their values: position `range.start + i` at `i`.
    pub solution: Solution,
    /// The events this rank sent to other ranks, per level: the levels of wins and losses,
    /// then those of the draws' distances.
    pub sent_per_level: Vec<u64>,
    /// The all-to-all exchanges of the solve (each rank takes part in every one).
    pub exchanges: u64,
}

/// An event for another rank: the position in the low 62 bits, the event in the top two.
pub(super) fn remote_event(pos: usize, event: Event) -> u64 {
    let kind = match event {
        Event::Lost => 0,
        Event::Won => 1,
        Event::Drawn => 2,
    };
    (pos as u64) | kind << 62
}

fn decode_event(word: u64) -> (usize, Event) {
    let event = match word >> 62 {
        0 => Event::Lost,
        1 => Event::Won,
        _ => Event::Drawn,
    };
    ((word & ((1 << 62) - 1)) as usize, event)
}

/// The events of one round for other ranks, by rank, filled by the level's tasks.
pub(super) struct Outbox {
    partition: Partition,
    lists: Mutex<Vec<Vec<u64>>>,
    events: AtomicUsize,
}

impl Outbox {
    fn new(partition: Partition) -> Outbox {
        Outbox {
            partition,
            lists: Mutex::new(vec![Vec::new(); partition.ranks]),
            events: AtomicUsize::new(0),
        }
    }

    /// Adds a task's events for other ranks.
    pub(super) fn post(&self, events: Vec<u64>) {
        let mut lists = self.lists.lock().expect("no panic while holding the lock");
        for &e in &events {
            lists[self.partition.owner(decode_event(e).0)].push(e);
        }
        self.events.fetch_add(events.len(), Relaxed);
    }

    fn bytes(&self) -> u64 {
        (self.events.load(Relaxed) * size_of::<u64>()) as u64
    }

    fn take(&self) -> Vec<Vec<u64>> {
        self.events.store(0, Relaxed);
        let mut lists = self.lists.lock().expect("no panic while holding the lock");
        std::mem::replace(&mut *lists, vec![Vec::new(); self.partition.ranks])
    }
}

/// The partitioned side of a run: the transport, the rounds' budget, and what went through.
pub(super) struct Exchange<'t> {
    transport: &'t dyn Transport,
    partition: Partition,
    /// Outgoing bytes that end a round.
    budget: u64,
    /// Bitmap words per task of a level (smaller than a single solve's: a round is a few tasks).
    words: usize,
    sent: std::cell::RefCell<Vec<u64>>,
    exchanges: Cell<u64>,
    peak: Cell<u64>,
}

impl Exchange<'_> {
    pub(super) fn peak_bytes(&self) -> u64 {
        self.peak.get()
    }

    /// Whether any rank has something left (`more`); [`SolveError::Cancelled`] when any rank
    /// is cancelled.
    pub(super) fn agree(&self, more: bool, cancelled: bool) -> Result<bool, SolveError> {
        let status = if cancelled { 2 } else { u64::from(more) };
        match self.transport.max(status)? {
            2 => Err(SolveError::Cancelled),
            status => Ok(status == 1),
        }
    }

    /// One level over this rank's range, in rounds: tasks until the outgoing events reach the
    /// budget, an exchange, the events received applied; until every rank is done.
    pub(super) fn level<G: Game, W: Word, P: Pos>(
        &self,
        run: &Run<'_, '_, G, W, P>,
        preds: &impl Preds,
        current: &Frontier,
        next: Option<&Bitmap>,
        events: &[(&Packed, Event)],
        at: (u32, bool),
    ) -> Result<(u64, u64), SolveError> {
        let words = self.words;
        let outbox = Outbox::new(self.partition);
        // The start pass's events of this level: all of this rank's positions.
        let (mut processed, mut decided) =
            run.level(preds, current, next, events, at, Tasks { range: 0..0, words }, None);
        let tasks = Tasks::count(current, words);
        let group = rayon::current_num_threads().max(1);
        let (mut task, mut sent) = (0, 0);
        loop {
            // At least one group a round, so that a budget of 0 still makes progress.
            loop {
                if task >= tasks {
                    break;
                }
                let end = (task + group).min(tasks);
                let part = Tasks { range: task..end, words };
                let (p, k) = run.level(preds, current, next, &[], at, part, Some(&outbox));
                (processed, decided, task) = (processed + p, decided + k, end);
                if outbox.bytes() >= self.budget {
                    break;
                }
            }
            let outgoing_bytes = outbox.bytes();
            let outgoing = outbox.take();
            sent += outgoing.iter().map(|l| l.len() as u64).sum::<u64>();
            let received = self.transport.exchange(outgoing)?;
            self.exchanges.set(self.exchanges.get() + 1);
            let received_bytes = (received.capacity() * size_of::<u64>()) as u64;
            self.peak.set(self.peak.get().max(outgoing_bytes + received_bytes));
            decided += run.receive(&received, next, at.0);
            drop(received);
            if self.transport.max(u64::from(task < tasks))? == 0 {
                break;
            }
        }
        self.sent.borrow_mut().push(sent);
        Ok((processed, decided))
    }
}

impl<G: Game, W: Word, P: Pos> Run<'_, '_, G, W, P> {
    /// Applies the events other ranks sent (positions of this rank's range); returns how many
    /// positions they decided.
    fn receive(&self, events: &[u64], next: Option<&Bitmap>, d: u32) -> u64 {
        events
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut decided = 0;
                for &e in chunk {
                    let (pos, event) = decode_event(e);
                    let local = pos - self.base;
                    if self.apply(local, event, d) {
                        if let Some(next) = next {
                            next.insert(local);
                        }
                        decided += 1;
                    }
                }
                decided
            })
            .sum()
    }
}

/// The outcome of a rank's start pass, agreed by all: 0 every rank started, 1 some rank has a
/// position with more moves than the cells count (all start again with larger cells), 2 some
/// rank failed.
fn agree_start<T>(transport: &dyn Transport, started: Result<T, SolveError>) -> Result<T, SolveError> {
    let status = match &started {
        Ok(_) => 0,
        Err(SolveError::TooManyMoves(_)) => 1,
        Err(_) => 2,
    };
    match (transport.max(status)?, started) {
        (0, started) => started,
        (1, Err(e)) => Err(e),
        (1, Ok(_)) => Err(SolveError::TooManyMoves(usize::MAX)),
        (_, Err(e)) if !matches!(e, SolveError::TooManyMoves(_)) => Err(e),
        _ => Err(SolveError::Transport("another rank's solve failed".into())),
    }
}

/// Default of [`Retrograde::exchange_budget`]: 64 MiB of outgoing events a round.
pub const EXCHANGE_BUDGET: u64 = 64 << 20;

impl Retrograde<'_> {
    /// In a partitioned solve ([`Retrograde::solve_part`]), the bytes of outgoing events (8
    /// each) after which a rank stops its level's tasks for an exchange ([`EXCHANGE_BUDGET`]
    /// unless told): a rank holds about this much outgoing and receives at most this much
    /// from each other rank per round, plus what a group of tasks adds past it.
    #[must_use]
    pub fn exchange_budget(mut self, bytes: u64) -> Self {
        self.exchange_budget = bytes;
        self
    }

    /// An estimate of the peak memory in bytes of one rank's share of a partitioned solve of
    /// `positions` positions over `ranks` ranks: [`Retrograde::memory_estimate`] of the
    /// largest range, and the round's events (the budget going out, as much coming in from
    /// each other rank).
    #[must_use]
    pub fn part_memory_estimate(&self, positions: u64, ranks: usize) -> u64 {
        let ranks = ranks.max(1) as u64;
        let range = positions.div_ceil(ranks);
        let rounds = if ranks > 1 { self.exchange_budget.saturating_mul(ranks) } else { 0 };
        self.memory_estimate(range).saturating_add(rounds)
    }

    /// Solves this rank's share of a game over the ranks of `transport` (call it on every rank
    /// with the same game and options): the values of the positions of its range
    /// ([`Partition::range`]), exactly those of [`Retrograde::solve_with_unmoves`].
    ///
    /// # Errors
    /// As [`Retrograde::solve_with_unmoves`], on every rank when one fails (the others with
    /// [`SolveError::Transport`] unless they failed themselves), and when the transport fails.
    pub fn solve_part<G: Unmoves>(&self, game: &G, transport: &dyn Transport) -> Result<Part, SolveError> {
        let partition = Partition::new(game.num_positions(), transport.ranks());
        let range = partition.range(transport.rank());
        let threads = rayon::current_num_threads().max(1);
        let words = (range.len().div_ceil(128) / (4 * threads)).clamp(1, WORDS);
        let exchange = Exchange {
            transport,
            partition,
            budget: self.exchange_budget,
            words,
            sent: std::cell::RefCell::new(Vec::new()),
            exchanges: Cell::new(0),
            peak: Cell::new(0),
        };
        let preds = UnmovePreds(game);
        let go = |cells: CellSize| -> Result<Solution, SolveError> {
            fn run<G: Unmoves, W: Word, P: Pos>(
                game: &G,
                solver: &Retrograde<'_>,
                range: Range<usize>,
                exchange: &Exchange<'_>,
                preds: &UnmovePreds<'_, G>,
            ) -> Result<Solution, SolveError> {
                let scratch = solver.scratch(range.len());
                let started = scratch.and_then(|s| Run::<G, W, P>::start_range(game, range, solver.hooks, s));
                agree_start(exchange.transport, started)?.propagate_with(preds, Some(exchange))
            }
            let wide = self.wide_positions || range.len() >= u32::MAX as usize;
            let r = range.clone();
            match (cells, wide) {
                (CellSize::Four, false) => run::<G, AtomicU32, u32>(game, self, r, &exchange, &preds),
                (CellSize::Four, true) => run::<G, AtomicU32, u64>(game, self, r, &exchange, &preds),
                (CellSize::Two, false) => run::<G, AtomicU16, u32>(game, self, r, &exchange, &preds),
                (CellSize::Two, true) => run::<G, AtomicU16, u64>(game, self, r, &exchange, &preds),
                (CellSize::One, false) => run::<G, AtomicU8, u32>(game, self, r, &exchange, &preds),
                (CellSize::One, true) => run::<G, AtomicU8, u64>(game, self, r, &exchange, &preds),
            }
        };
        let solution = match go(self.cells) {
            // Every rank got it (agreed after the start pass): all start again.
            Err(SolveError::TooManyMoves(_)) if self.cells == CellSize::One => go(CellSize::Two),
            other => other,
        }?;
        Ok(Part {
            range,
            solution,
            sent_per_level: exchange.sent.into_inner(),
            exchanges: exchange.exchanges.get(),
        })
    }
}
