//! One solve: the start pass that classifies every position, then the level passes that
//! decide wins and losses, and draws' distances, from the positions decided before.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use super::cells::{
    HOLE, PAYLOAD, Pos, TAG_DRAW, TAG_LOSS, TAG_OPEN, TAG_SHIFT, TAG_WIN, Word, cell, encode,
};
use super::levels::{Bitmap, Event, Frontier, Tasks, at_level, pairs};
use super::memory::{huge_vec, packed_bytes, prefetch};
use super::packed::{Packed, append_packed, level_mut};
use super::partition::{Exchange, Outbox, remote_event};
use super::preds::Preds;
use super::spill::Scratch;
use super::{CHUNK, Hooks, Phase, Progress, Solution, SolveError};
use crate::game::{FirstLook, Game};
use crate::value::Value;

/// What the start pass found, by distance, in lists that the level passes use as they are (no
/// second copy).
#[derive(Default)]
struct Found {
    /// Decided wins and losses (terminal positions, packed as the lists of events are).
    decided: Vec<Packed>,
    /// Terminal draws that end.
    drawn: Vec<Packed>,
    /// Positions with a move to a known loss, by the distance of that loss.
    lost: Vec<Packed>,
    /// Positions with a move to a known win, by the distance of that win.
    won: Vec<Packed>,
    /// Positions with a move to a known draw that ends, by its distance.
    drawn_moves: Vec<Packed>,
    error: Option<SolveError>,
}

impl Found {
    /// The lists of `self` and then `other` (the start pass merges its chunks in index order,
    /// which keeps the packed lists' segments long).
    fn merge(mut self, other: Found) -> Found {
        append_packed(&mut self.decided, other.decided);
        append_packed(&mut self.drawn, other.drawn);
        append_packed(&mut self.lost, other.lost);
        append_packed(&mut self.won, other.won);
        append_packed(&mut self.drawn_moves, other.drawn_moves);
        self.error = self.error.or(other.error);
        self
    }

    fn lists(&mut self) -> [&mut Vec<Packed>; 5] {
        [&mut self.decided, &mut self.drawn, &mut self.lost, &mut self.won, &mut self.drawn_moves]
    }

    /// Bytes the lists hold.
    fn bytes(&mut self) -> u64 {
        self.lists().iter().map(|l| packed_bytes(l)).sum()
    }
}

pub(super) struct Run<'a, 'g, G, W, P> {
    pub(super) game: &'g G,
    pub(super) cells: Vec<W>,
    pub(super) wl_levels: Vec<Packed>,
    pub(super) draw_levels: Vec<Packed>,
    /// Known-value moves (see [`Found`]); a level's lists are dropped once it is processed.
    pub(super) lost: Vec<Packed>,
    pub(super) won: Vec<Packed>,
    pub(super) drawn_moves: Vec<Packed>,
    /// Decided words that 1-byte cells do not hold (position, logical word).
    pub(super) escapes: Mutex<Vec<(P, u32)>>,
    pub(super) hooks: Hooks<'a>,
    /// The most bytes the solver's structures held so far (see [`Run::held_bytes`]).
    pub(super) peak_bytes: u64,
    /// Where the lists' bytes go in large solves ([`super::Retrograde::spill_above`]).
    pub(super) scratch: Option<Scratch>,
    /// The game's position of cell 0: 0, or the start of this rank's range in a partitioned
    /// solve ([`super::partition`]), whose cells are those of its range only.
    pub(super) base: usize,
}

/// Predecessors whose cells a level pass reads at once.
const BATCH: usize = 64;

impl<'a, 'g, G: Game, W: Word, P: Pos> Run<'a, 'g, G, W, P> {
    pub(super) fn report(&self, phase: Phase, done: u64) {
        if let Some(report) = self.hooks.progress {
            report(Progress { phase, done, total: self.cells.len() as u64 });
        }
    }

    pub(super) fn start(game: &'g G, hooks: Hooks<'a>, scratch: Option<Scratch>) -> Result<Self, SolveError> {
        Run::start_range(game, 0..game.num_positions(), hooks, scratch)
    }

    /// The start pass over the positions of `range` only, whose cells the run holds (cell `i`
    /// is position `range.start + i`).
    pub(super) fn start_range(
        game: &'g G,
        range: std::ops::Range<usize>,
        hooks: Hooks<'a>,
        scratch: Option<Scratch>,
    ) -> Result<Self, SolveError> {
        let n = range.len();
        if size_of::<P>() < size_of::<usize>() && n >= u32::MAX as usize {
            return Err(SolveError::TooManyPositions(n));
        }
        let cells: Vec<W> = huge_vec(n, || W::new(0));
        let mut run = Run {
            game,
            cells,
            wl_levels: Vec::new(),
            draw_levels: Vec::new(),
            lost: Vec::new(),
            won: Vec::new(),
            drawn_moves: Vec::new(),
            escapes: Mutex::new(Vec::new()),
            hooks,
            peak_bytes: 0,
            scratch,
            base: range.start,
        };
        let done = AtomicU64::new(0);
        // With a scratch file, the positions in windows, each window's lists spilled before the
        // next: in memory, one window of them all.
        let window = run.scratch.as_ref().map_or(n.max(1), |s| s.window);
        let mut found = Found::default();
        for from in (0..n).step_by(window) {
            let chunks = from / CHUNK..n.min(from + window).div_ceil(CHUNK);
            let mut part = run.start_window(chunks, &done);
            if let Some(e) = part.error.take() {
                return Err(e);
            }
            if let Some(scratch) = &run.scratch {
                let cells = (run.cells.capacity() * size_of::<W>()) as u64;
                run.peak_bytes = run.peak_bytes.max(cells + found.bytes() + part.bytes());
                for list in part.lists() {
                    scratch.spill(list)?;
                }
            }
            found = if from == 0 { part } else { found.merge(part) };
        }
        for list in found.lists().into_iter().flatten() {
            list.shrink();
        }
        run.wl_levels = found.decided;
        run.draw_levels = found.drawn;
        run.lost = found.lost;
        run.won = found.won;
        run.drawn_moves = found.drawn_moves;
        run.peak_bytes = run.peak_bytes.max(run.held_bytes(0));
        Ok(run)
    }

    /// The start pass over the positions of `chunks`: what it found.
    fn start_window(&self, chunks: std::ops::Range<usize>, done: &AtomicU64) -> Found {
        let (run, n) = (self, self.cells.len());
        chunks
            .into_par_iter()
            .map(|chunk| {
                let mut found = Found::default();
                if run.hooks.cancelled() {
                    found.error = Some(SolveError::Cancelled);
                    return found;
                }
                let range = chunk * CHUNK..n.min((chunk + 1) * CHUNK);
                let len = range.len() as u64;
                for pos in range {
                    if let Err(e) = run.classify(pos, &mut found) {
                        found.error.get_or_insert(e);
                    }
                }
                run.report(Phase::Start, done.fetch_add(len, Relaxed) + len);
                found
            })
            .reduce(Found::default, Found::merge)
    }

    /// Bytes the solver's structures hold now: the cells, the lists of the start pass not
    /// processed yet, the escapes, and `more` (the level bitmaps or lists in use).
    fn held_bytes(&self, more: u64) -> u64 {
        let cells = (self.cells.capacity() * size_of::<W>()) as u64;
        let lists = [&self.wl_levels, &self.draw_levels, &self.lost, &self.won, &self.drawn_moves];
        let lists: u64 = lists.iter().map(|l| packed_bytes(l)).sum();
        let escapes = self.escapes.lock().map_or(0, |e| e.capacity() * size_of::<(P, u32)>()) as u64;
        cells + lists + escapes + more
    }

    /// The start pass for one position.
    fn classify(&self, pos: usize, found: &mut Found) -> Result<(), SolveError> {
        let game = self.game;
        // Of the moves with known values only the best of each kind matters: the shortest
        // way to a lost child (a win), the shortest drawn line, and the longest won child (the
        // last one that a loss has to wait for). The other won children are counted off now,
        // so that a position stores at most three events however many captures it has.
        let mut moves: usize = 0;
        let mut won: usize = 0;
        let (mut lost_at, mut won_at, mut drawn_at) = (None::<u32>, None::<u32>, None::<u32>);
        let look = game.first_look(self.base + pos, |value| {
            moves += 1;
            match value {
                Some(Value::Loss(d)) => lost_at = Some(lost_at.map_or(d.0, |e| e.min(d.0))),
                Some(Value::Win(d)) => {
                    won += 1;
                    won_at = Some(won_at.map_or(d.0, |e| e.max(d.0)));
                }
                Some(Value::Draw(Some(d))) => drawn_at = Some(drawn_at.map_or(d.0, |e| e.min(d.0))),
                Some(Value::Draw(None)) | None => {}
            }
        });
        match look {
            FirstLook::Hole => {
                self.cells[pos].set(cell(TAG_OPEN, HOLE));
                return Ok(());
            }
            FirstLook::Terminal(value) => {
                let word = encode(value, W::LIMIT)?;
                self.cells[pos].set(word);
                self.escape(pos, word);
                match value {
                    Value::Win(d) | Value::Loss(d) => {
                        level_mut(&mut found.decided, d.0 as usize).push(pos as u64)
                    }
                    Value::Draw(Some(d)) => level_mut(&mut found.drawn, d.0 as usize).push(pos as u64),
                    Value::Draw(None) => {}
                }
                return Ok(());
            }
            FirstLook::Moves => {}
        }
        for (at, list) in
            [(lost_at, &mut found.lost), (won_at, &mut found.won), (drawn_at, &mut found.drawn_moves)]
        {
            if let Some(d) = at {
                if d + 2 >= W::LIMIT {
                    return Err(SolveError::DistanceTooLarge);
                }
                level_mut(list, d as usize).push(pos as u64);
            }
        }
        let counter = moves - won.saturating_sub(1);
        if moves == 0 {
            self.cells[pos].set(cell(TAG_LOSS, 0));
            level_mut(&mut found.decided, 0).push(pos as u64);
        } else if counter > W::COUNTER_LIMIT as usize {
            return Err(SolveError::TooManyMoves(pos));
        } else {
            self.cells[pos].set(cell(TAG_OPEN, counter as u32));
        }
        Ok(())
    }

    /// Whether `pos` still needs its moves (not a hole, not decided, not terminal).
    pub(super) fn is_open(&self, pos: usize) -> bool {
        let word = self.cells[pos].get();
        word >> TAG_SHIFT == TAG_OPEN && word != HOLE
    }

    /// Applies one decided move to the position `p` that has it; returns whether `p` got
    /// decided at level `d + 1` by it.
    pub(super) fn apply(&self, p: usize, event: Event, d: u32) -> bool {
        self.apply_to(p, self.cells[p].get(), event, d)
    }

    /// [`Run::apply`] with the word of `p` read already (it may have changed since).
    #[inline]
    fn apply_to(&self, p: usize, mut word: u32, event: Event, d: u32) -> bool {
        let slot = &self.cells[p];
        loop {
            if word >> TAG_SHIFT != TAG_OPEN || word == HOLE {
                return false;
            }
            let new = match event {
                Event::Lost => cell(TAG_WIN, d + 1),
                Event::Won if word & PAYLOAD == 1 => cell(TAG_LOSS, d + 1),
                Event::Won => word - 1,
                Event::Drawn => cell(TAG_DRAW, d + 2),
            };
            match slot.cas(word, new) {
                Ok(()) => {
                    self.escape(p, new);
                    return new >> TAG_SHIFT != TAG_OPEN;
                }
                Err(current) => word = current,
            }
        }
    }

    /// Keeps a decided word that the cell of `p` does not hold.
    #[inline(always)]
    fn escape(&self, p: usize, word: u32) {
        if !W::fits(word) {
            self.push_escape(p, word);
        }
    }

    /// [`Run::escape`]'s rare case, out of the way of the level passes.
    #[cold]
    #[inline(never)]
    fn push_escape(&self, p: usize, word: u32) {
        self.escapes.lock().expect("no panic while holding the lock").push((P::from_index(p), word));
    }

    /// Processes one level, or the tasks `part` of it: the positions decided at distance `d`
    /// (the set `current`, walked in index order) and the known-value events of that distance;
    /// puts the positions decided at distance `d + 1` into `next`. Returns how many positions
    /// it processed and decided. The predecessors outside the run's cells (a partitioned
    /// solve) go to `outbox`, as events for their ranks.
    #[allow(clippy::too_many_arguments)] // one level's inputs, called from two places
    pub(super) fn level(
        &self,
        preds: &impl Preds,
        current: &Frontier,
        next: Option<&Bitmap>,
        events: &[(&Packed, Event)],
        (d, draws): (u32, bool),
        part: Tasks,
        outbox: Option<&Outbox>,
    ) -> (u64, u64) {
        let add = |a: (u64, u64), b: (u64, u64)| (a.0 + b.0, a.1 + b.1);
        let (n, base, words) = (self.cells.len(), self.base, part.words);
        let from_decided = part.range.into_par_iter().map(|task| {
            let (mut processed, mut decided) = (0, 0);
            // Cancelled: `propagate` returns before it reads what this level did.
            if self.hooks.cancelled() {
                return (0, 0);
            }
            // Predecessors are gathered in batches and their cells read all at once before any
            // is changed: the reads are independent, so their cache misses overlap.
            let mut batch: Vec<(usize, Event)> = Vec::with_capacity(BATCH + 64);
            // Events for the predecessors of other ranks (a partitioned solve).
            let mut remote: Vec<u64> = Vec::new();
            let mut words_read: Vec<u32> = Vec::with_capacity(BATCH + 64);
            let mut flush = |batch: &mut Vec<(usize, Event)>, decided: &mut u64| {
                words_read.clear();
                words_read.extend(batch.iter().map(|&(p, _)| self.cells[p].get()));
                for (&(p, event), &word) in batch.iter().zip(&words_read) {
                    if self.apply_to(p, word, event, d) {
                        if let Some(next) = next {
                            next.insert(p);
                        }
                        *decided += 1;
                    }
                }
                batch.clear();
            };
            // A position that may be of this level (`check`: the other of a pair may not).
            let mut visit = |q: usize, check: bool| {
                let word = self.cells[q].get();
                if check && !at_level(word, d, draws) {
                    return;
                }
                processed += 1;
                let event = if draws {
                    Event::Drawn
                } else if word >> TAG_SHIFT == TAG_LOSS {
                    Event::Lost
                } else {
                    Event::Won
                };
                preds.for_each(base + q, |p| {
                    // Always in range without a partition (`base` 0, every position's cell).
                    let local = p.wrapping_sub(base);
                    if local < n {
                        prefetch(&self.cells[local]);
                        batch.push((local, event));
                    } else {
                        remote.push(remote_event(p, event));
                    }
                });
                if batch.len() >= BATCH {
                    flush(&mut batch, &mut decided);
                }
            };
            match current {
                Frontier::Pairs(bits) => {
                    for w in task * words..bits.0.len().min((task + 1) * words) {
                        let mut word = bits.0[w].load(Relaxed);
                        while word != 0 {
                            let pair = w * 64 + word.trailing_zeros() as usize;
                            word &= word - 1;
                            for q in 2 * pair..(2 * pair + 2).min(n) {
                                visit(q, true);
                            }
                        }
                    }
                }
                Frontier::List(list) => {
                    let positions = words * 64;
                    for &q in &list[task * positions..list.len().min((task + 1) * positions)] {
                        visit(q, false);
                    }
                }
            }
            flush(&mut batch, &mut decided);
            if !remote.is_empty() {
                outbox.expect("predecessors out of the cells only in a partitioned solve").post(remote);
            }
            (processed, decided)
        });
        let from_events = events
            .par_iter()
            .flat_map(|&(list, event)| list.segments.par_iter().map(move |segment| (segment, event)))
            .map(|(segment, event)| {
                let mut decided = 0;
                let mut buffer = Vec::new();
                Scratch::for_each(self.scratch.as_ref(), segment, &mut buffer, |p| {
                    if self.apply(p, event, d) {
                        if let Some(next) = next {
                            next.insert(p);
                        }
                        decided += 1;
                    }
                });
                (0, decided)
            });
        from_decided.chain(from_events).reduce(|| (0, 0), add)
    }

    pub(super) fn propagate(self, preds: &impl Preds) -> Result<Solution, SolveError> {
        self.propagate_with(preds, None)
    }

    /// The level passes; with `exchange`, over this rank's range of a partitioned solve (the
    /// events of other ranks' predecessors sent to them, each level's end agreed by all).
    pub(super) fn propagate_with(
        mut self,
        preds: &impl Preds,
        exchange: Option<&Exchange<'_>>,
    ) -> Result<Solution, SolveError> {
        let n = self.cells.len();
        let mut decided_count: u64 = 0;
        // A bitmap of pairs while the level's distances fit in the cells; once they are escaped
        // (1-byte cells, 63 plies and more), the list of the escapes of the pass before.
        let mut current = Frontier::Pairs(Bitmap::new(n));
        // The bitmap of the next level, or one to reuse.
        let mut spare = Some(Bitmap::new(n));
        for draws in [false, true] {
            // Empty: the phase before ended with an empty level.
            match (&current, pairs::<W>(0, draws)) {
                (Frontier::List(_), true) => {
                    current = Frontier::Pairs(spare.take().unwrap_or_else(|| Bitmap::new(n)))
                }
                (Frontier::Pairs(_), false) => current = Frontier::List(Vec::new()),
                _ => {}
            }
            let phase = if draws { Phase::Draws } else { Phase::WinsAndLosses };
            let mut levels = std::mem::take(if draws { &mut self.draw_levels } else { &mut self.wl_levels });
            let mut event_lists = if draws {
                vec![(std::mem::take(&mut self.drawn_moves), Event::Drawn)]
            } else {
                vec![
                    (std::mem::take(&mut self.lost), Event::Lost),
                    (std::mem::take(&mut self.won), Event::Won),
                ]
            };
            let mut d = 0usize;
            // Positions in `current`, decided by the level before.
            let mut pending = 0u64;
            loop {
                let more =
                    pending > 0 || d < levels.len() || event_lists.iter().any(|(lists, _)| d < lists.len());
                // Every rank goes on while any has something left (or all stop if one is cancelled).
                let more = match exchange {
                    None if self.hooks.cancelled() && more => return Err(SolveError::Cancelled),
                    None => more,
                    Some(exchange) => exchange.agree(more, self.hooks.cancelled())?,
                };
                if !more {
                    break;
                }
                if d as u32 + 2 >= W::LIMIT {
                    return Err(SolveError::DistanceTooLarge);
                }
                // Positions decided by the start pass at this distance (terminal ones).
                let terminal = levels.get_mut(d).map(std::mem::take).unwrap_or_default();
                let mut buffer = Vec::new();
                let scratch = self.scratch.as_ref();
                for seg in &terminal.segments {
                    match &mut current {
                        Frontier::Pairs(bits) => {
                            Scratch::for_each(scratch, seg, &mut buffer, |p| bits.insert(p))
                        }
                        Frontier::List(list) => {
                            Scratch::for_each(scratch, seg, &mut buffer, |p| list.push(p))
                        }
                    }
                }
                if let Frontier::List(list) = &mut current {
                    list.sort_unstable();
                }
                drop(terminal);
                // This level's events, dropped after it.
                let events: Vec<(Packed, Event)> = event_lists
                    .iter_mut()
                    .map(|(lists, event)| (lists.get_mut(d).map(std::mem::take).unwrap_or_default(), *event))
                    .collect();
                let slices: Vec<(&Packed, Event)> = events.iter().map(|(l, e)| (l, *e)).collect();
                let next_pairs = pairs::<W>(d as u32 + 1, draws);
                let next = if next_pairs {
                    spare.take().or_else(|| Some(Bitmap::new(n)))
                } else {
                    // Lists from now on in this phase: no bitmap kept.
                    spare = None;
                    None
                };
                // The solver's own accounting of its memory: the cells, the lists, the escapes and
                // the level bitmaps (or lists) now in use.
                let frontier = |f: &Frontier| match f {
                    Frontier::Pairs(bits) => bits.0.capacity() * 8,
                    Frontier::List(list) => list.capacity() * size_of::<usize>(),
                };
                let bitmap = |b: &Option<Bitmap>| b.as_ref().map_or(0, |b| b.0.capacity() * 8);
                let lists = packed_bytes(&levels)
                    + event_lists.iter().map(|(l, _)| packed_bytes(l)).sum::<u64>()
                    + events.iter().map(|(l, _)| packed_bytes(std::slice::from_ref(l))).sum::<u64>();
                let more = (frontier(&current) + bitmap(&next) + bitmap(&spare)) as u64 + lists;
                self.peak_bytes = self.peak_bytes.max(self.held_bytes(more));
                let escaped_before = self.escapes.lock().expect("no panic while holding the lock").len();
                let at = (d as u32, draws);
                let (processed, decided) = match exchange {
                    None => {
                        self.level(preds, &current, next.as_ref(), &slices, at, Tasks::all(&current), None)
                    }
                    Some(exchange) => exchange.level(&self, preds, &current, next.as_ref(), &slices, at)?,
                };
                if let Some(scratch) = &self.scratch {
                    scratch.check()?;
                }
                decided_count += processed;
                self.report(phase, decided_count);
                let done = std::mem::replace(
                    &mut current,
                    match next {
                        Some(bits) => Frontier::Pairs(bits),
                        None => {
                            // Every position this pass decided had its word escaped.
                            let escapes = self.escapes.lock().expect("no panic while holding the lock");
                            let mut list: Vec<usize> =
                                escapes[escaped_before..].iter().map(|e| e.0.index()).collect();
                            list.sort_unstable();
                            Frontier::List(list)
                        }
                    },
                );
                if let Frontier::Pairs(mut bits) = done
                    && next_pairs
                {
                    bits.clear();
                    spare = Some(bits);
                }
                pending = decided;
                d += 1;
            }
        }
        drop((current, spare));
        if self.hooks.cancelled() {
            return Err(SolveError::Cancelled);
        }
        // Whatever is still open can neither be won nor lost, nor reach a drawn end.
        self.cells.par_iter().with_min_len(CHUNK).for_each(|c| {
            let word = c.get();
            if word >> TAG_SHIFT == TAG_OPEN && word != HOLE {
                c.set(cell(TAG_DRAW, 0));
            }
        });
        let escapes = self.escapes.into_inner().expect("no panic while holding the lock");
        let peak_bytes = self.peak_bytes + exchange.map_or(0, Exchange::peak_bytes);
        Ok(Solution { cells: W::into_cells(self.cells, P::escapes(escapes)), peak_bytes })
    }
}
