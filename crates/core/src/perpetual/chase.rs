//! The second stage: the ban on perpetual chase, a max-parity game on the moves of the draws
//! that the first stage left (`D'`), solved by nested fixpoints (see the [parent
//! module](super) for the algorithm, the ranks and the winner's move).
//!
//! States are `2 i` (me to move at `D'`-number `i`, the `M`-state) and `2 i + 1` (the
//! opponent to move, the `O`-state). A move's priority follows its label and its mover: the
//! opponent's idle 5, chase 3, check 1; mine idle 4, chase 2, check 1. An `O`-state is in
//! `Pre` when every move of it leads to a win of mine out of `D'` or to an `M`-state of
//! `Z5` (idle), `Z3` (chase) or `Z1` (check); an `M`-state when some move does (out, or to
//! an `O`-state of `Z4` (idle), `Z2` (chase) or `Z1` (check)). The sets stay nested,
//! `Z5 ⊆ Z3 ⊆ Z1 ⊆ Z2 ⊆ Z4`: each `μ` starts from the next outer `μ`'s value, each `ν` from
//! the next outer `ν`'s.

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

use rayon::prelude::*;

mod rounds;

use super::Checks;
use super::attractor::{Attractor, Dense, Stage};
use super::check::{EXIT_LOSS, EXIT_NOT_WIN};
use super::graph::Graph;
use super::level::{Level, levels};
use super::profile::Profile;
use super::work::{Blocks, CHUNK, blocks_len, concat, gather, gather_blocks, map_slices};
use crate::retrograde::SolveError;
use crate::value::{Ban, RuleValue};

/// The position is in check: every move into it is a check.
const CHECK: u16 = 1;
/// The `M`-state has a move out of `D'` that wins for me, or a check or chase out of its
/// layer into a win of mine (an `O`-state of the final `Z5`).
const GOOD_EXIT: u16 = 2;
/// The `O`-state has a move out of `D'`, or out of its layer, that does not win for me.
const BAD_EXIT: u16 = 4;
/// The `M`-state has a check into an `O`-state of `Z3`.
const TO_Z3: u16 = 8;
const Z5_M: u16 = 16;
const Z5_O: u16 = 32;
const Z3_M: u16 = 64;
const Z3_O: u16 = 128;
const Z4_M: u16 = 256;
const Z4_O: u16 = 512;
const Z2_M: u16 = 1024;
const Z2_O: u16 = 2048;
/// The `M`-state has an idle move out of its layer into a win of mine.
const IDLE_EXIT: u16 = 4096;
/// The `M`-state has a check into an `O`-state of `Z5`.
const TO_Z5: u16 = 8192;
/// The position is not in check and some move into it is a chase: only then does its
/// `O`-state's leaving `Z2` or `Z4` change a chase count.
const CHASED: u16 = 16384;

/// Whether a member with flags `f` has a state in the set of bits `m` (its `M`-state) and
/// `o` (its `O`-state) but outside `Z3`: the members a work list holds.
fn open_in(f: u16, m: u16, o: u16) -> bool {
    (f & (m | Z3_M) == m) || (f & (o | Z3_O) == o)
}

/// Sets member `i`'s flags `f` as `μZ3` starts, from `Z5`: `Z3` is `Z5` (the other states
/// lose their levels), the checks into `Z3` those into `Z5`, and `Z2` starts as `Z4`.
fn from_z5<L: Level>(i: usize, f: &mut u16, level: &[L]) {
    *f &= !(Z3_M | Z3_O | TO_Z3 | Z2_M | Z2_O);
    *f |= (*f & (Z4_M | Z4_O)) << 2;
    if *f & TO_Z5 != 0 {
        *f |= TO_Z3;
    }
    if *f & Z5_M != 0 {
        *f |= Z3_M;
    } else {
        level[2 * i].store(0, Relaxed);
    }
    if *f & Z5_O != 0 {
        *f |= Z3_O;
    } else {
        level[2 * i + 1].store(0, Relaxed);
    }
}

/// Copies, at the members listed, each pair's counts from the first into the second (the
/// starts of a round or an iteration: nothing else is read).
fn copy_at<const N: usize>(list: &[u32], pairs: [(&Counts, &Counts); N]) {
    list.par_iter().with_min_len(CHUNK).for_each(|&i| {
        for (from, to) in pairs {
            to[i as usize].store(from[i as usize].load(Relaxed), Relaxed);
        }
    });
}

/// The bit of an `M`-state's level that says it joined by an idle move only (no winning
/// exit, chase or check): its rank's class (see [`encode_rank`]).
const IDLE: u32 = 1 << 31;

/// The largest level a pass may give (levels and ranks stay below 2^28 so that an encoded
/// rank fits the solution's 29-bit cells).
const MAX_LEVEL: u32 = (1 << 28) - 1;

/// The rank of a state of the second stage as the solution keeps it: twice the progress
/// measure `ρ`, plus one for an `M`-state whose winning move is an idle one.
pub(super) const fn encode_rank(level: u32) -> u32 {
    ((level & !IDLE) << 1) | (level >> 31)
}

/// Bytes a solve needs per position of `D'` in one layer (the graph's numbering excluded,
/// its rows by layer included): flags, the levels of the two states (2 bytes each, see
/// [`Level`]), counts, the counts kept at the tops, and the row by layer. (The counts, 12 of
/// these bytes, are held for the largest layer alone: see [`Counts`].)
pub(super) const BYTES_PER_DRAW: u64 = 2 + 4 + 7 + 5 + 4;

/// Figures of the second stage.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct ChaseFigures {
    pub rounds: u32,
    pub iterations: u32,
    pub passes: u32,
    /// Rounds of `Z3` in all.
    pub z3_rounds: u32,
    /// States that joined `Z1` outside `Z3`, summed over the passes.
    pub joined: u64,
    /// Seconds in: a round's counts, an iteration's reset, `Z2`'s start, the passes, `Z2`
    /// shrinking, `Z3` growing, `Z4` shrinking (for the profile).
    pub seconds: [f64; 7],
}

/// The second stage's solver over the graph of `D'`, one layer after the other (see
/// [`Graph::layers`]): a layer's moves into the layers solved before it are exits with the
/// values found there, which is exactly how the fixpoints over all of `D'` would count
/// them (a win of mine there is in every set from the start), and its ranks continue theirs.
pub(super) struct Parity<'a, 'g, G, L> {
    graph: &'a Graph<'g, G>,
    /// The members of the layer being solved: `start..end`.
    start: usize,
    end: usize,
    /// Per member: its marks ([`marks`]) and the sets its states are in.
    flags: Vec<u16>,
    /// Per state: 0 outside the current `Z1`, else its level (the rank for states of `Z3`),
    /// with [`IDLE`] for an `M`-state that joined by an idle move only.
    level: Vec<L>,
    /// The largest level a pass may give: [`MAX_LEVEL`], or less for narrow cells.
    max: u32,
    /// Per `O`-state during a pass: its checks into `M`-states not yet in `Z1`.
    counter: Counts,
    /// Per `O`-state: its checks into `M`-states outside `Z3`.
    checks_out: Counts,
    /// Per `O`-state: its idle moves into `M`-states outside `Z5` and chases into
    /// `M`-states outside `Z3` (while any, it cannot join).
    blockers: Counts,
    /// Per `M`-state: its idle moves into `O`-states of `Z4`.
    idle_in: Counts,
    /// Per `M`-state: its chases into `O`-states of `Z2`.
    chase_in: Counts,
    /// Per `M`-state (of `Z2` outside `Z3`): its checks into `O`-states of `Z1`, and of
    /// those the ones of a lower level that hold it in `Z1` (see [`Parity::shrink_z1`]).
    hits: Counts,
    support: Counts,
    /// `checks_out` and `blockers` for `Z3` = `Z5`, and `idle_in` and `chase_in_z4` for `Z4`
    /// at the top of `νZ4` (`idle_in_top`, `chase_in_top`): the starts of each iteration of
    /// `νZ4` and each round of `Z5`, copied instead of counted again (counted once per layer,
    /// kept up as `Z5` grows).
    checks_out_z5: Counts,
    blockers_z5: Counts,
    idle_in_top: Counts,
    chase_in_top: Counts,
    /// Per `M`-state: its chases into `O`-states of `Z4` (counted once per round of `Z5`, kept
    /// up as `Z4` shrinks): each round of `Z3` starts `chase_in` from it.
    chase_in_z4: Counts,
    /// The largest `ρ` of each round of `Z5`, and of each round of `Z3` (all rounds of `Z5`
    /// one after the other), once solved.
    pub(super) tops5: Vec<u32>,
    pub(super) tops3: Vec<u32>,
}

/// The chase stage's results ([`Parity::into_values`]): each state's flags and level.
pub(super) struct ChaseValues<L> {
    flags: Vec<u16>,
    level: Vec<L>,
    /// As in [`Parity`].
    pub(super) tops5: Vec<u32>,
    pub(super) tops3: Vec<u32>,
}

impl<L: Level> ChaseValues<L> {
    /// The value by the ban on perpetual chase of `D'`-number `i` once solved: `None` for a
    /// position it leaves drawn.
    pub(super) fn value(&self, i: usize) -> Option<RuleValue> {
        let f = self.flags[i];
        if f & Z5_M != 0 {
            debug_assert!(f & Z5_O == 0, "both sides win by the rule at D'-number {i}");
            Some(RuleValue::WinByRule(Ban::Chase, encode_rank(self.level[2 * i].load(Relaxed))))
        } else if f & Z5_O != 0 {
            Some(RuleValue::LossByRule(Ban::Chase, encode_rank(self.level[2 * i + 1].load(Relaxed))))
        } else {
            None
        }
    }
}

/// Counts of moves: bytes (the check stage refuses a member with more moves into `D`, and
/// `D'` is part of `D`).
fn counts(m: usize) -> Vec<AtomicU8> {
    (0..m).map(|_| AtomicU8::new(0)).collect()
}

/// A count per member of the layer being solved, by member number ([`counts`]): held for
/// the largest layer alone, for a layer's counts are not read once it is solved (they were
/// held for all of `D'` until issue 42's twenty-second session: `KCPvKC`, 7 layers of at most
/// 3.6 M of its 20.1 M draws, 12 bytes a draw).
pub(super) struct Counts {
    /// The first member of the layer.
    start: usize,
    /// The layer's members.
    len: usize,
    cells: Vec<AtomicU8>,
}

impl Counts {
    /// Counts for layers of at most `size` members.
    fn new(size: usize) -> Self {
        Counts { start: 0, len: 0, cells: counts(size) }
    }

    /// The counts of the members `start..end`, all 0.
    fn layer(&mut self, start: usize, end: usize) {
        (self.start, self.len) = (start, end - start);
        self.clear();
    }

    /// Sets `0` in the counts of the layer.
    fn clear(&self) {
        self.cells().par_iter().with_min_len(CHUNK).for_each(|c| c.store(0, Relaxed));
    }

    /// The layer's counts, in its members' order.
    fn cells(&self) -> &[AtomicU8] {
        &self.cells[..self.len]
    }
}

impl std::ops::Index<usize> for Counts {
    type Output = AtomicU8;

    /// The count of member `i` (of the layer).
    #[inline]
    fn index(&self, i: usize) -> &AtomicU8 {
        &self.cells()[i - self.start]
    }
}

/// Each member's marks before the chase stage's passes: [`CHECK`] for a position in check,
/// else [`CHASED`] when some move into it is a chase, and the moves out of `D'` by their
/// values (`exits`: the check stage's [`EXIT_LOSS`] and [`EXIT_NOT_WIN`] by member; a move
/// into a draw the check stage decided is none: see the module notes of [`super`]) as
/// [`GOOD_EXIT`] and [`BAD_EXIT`]. The only step that reads the members' positions: the
/// graph may release them after it.
pub(super) fn marks<G: Checks>(graph: &Graph<'_, G>, exits: &[u8]) -> Vec<u16> {
    (0..graph.len())
        .into_par_iter()
        .with_min_len(CHUNK)
        .map(|i| {
            let pos = graph.position(i);
            let mut f = if graph.game.in_check(pos) { CHECK } else { 0 };
            if f == 0 {
                let mut chased = false;
                graph.for_each_pred(i, |_, chase| chased |= chase);
                if chased {
                    f |= CHASED;
                }
            }
            let e = exits[i];
            if e & EXIT_LOSS != 0 {
                f |= GOOD_EXIT;
            }
            if e & EXIT_NOT_WIN != 0 {
                f |= BAD_EXIT;
            }
            f
        })
        .collect()
}

impl<'a, 'g, G: Checks, L: Level> Parity<'a, 'g, G, L> {
    /// The solver over `graph`, its members marked by `flags` ([`marks`]), its levels at most
    /// `max` (and what a cell of `L` holds).
    pub(super) fn new(graph: &'a Graph<'g, G>, flags: Vec<u16>, max: u32) -> Self {
        let m = graph.len();
        Parity {
            graph,
            start: 0,
            end: m,
            flags,
            level: levels(2 * m),
            max: max.min(MAX_LEVEL).min(L::MAX),
            counter: Counts::new(0),
            checks_out: Counts::new(0),
            blockers: Counts::new(0),
            idle_in: Counts::new(0),
            chase_in: Counts::new(0),
            hits: Counts::new(0),
            support: Counts::new(0),
            checks_out_z5: Counts::new(0),
            blockers_z5: Counts::new(0),
            idle_in_top: Counts::new(0),
            chase_in_top: Counts::new(0),
            chase_in_z4: Counts::new(0),
            tops5: Vec::new(),
            tops3: Vec::new(),
        }
    }

    /// Every count of the layer being solved.
    fn counts_mut(&mut self) -> [&mut Counts; 12] {
        [
            &mut self.counter,
            &mut self.checks_out,
            &mut self.blockers,
            &mut self.idle_in,
            &mut self.chase_in,
            &mut self.hits,
            &mut self.support,
            &mut self.checks_out_z5,
            &mut self.blockers_z5,
            &mut self.idle_in_top,
            &mut self.chase_in_top,
            &mut self.chase_in_z4,
        ]
    }

    /// The results, the working counts (and the borrow of the values outside) dropped.
    pub(super) fn into_values(self) -> ChaseValues<L> {
        ChaseValues { flags: self.flags, level: self.level, tops5: self.tops5, tops3: self.tops3 }
    }

    /// Calls `f` with every predecessor of `i` in the layer by a move of the kind `kind`
    /// picks out of (check, chase): moves into a position in check are checks.
    fn preds_where(&self, i: usize, kind: impl Fn(bool, bool) -> bool, mut f: impl FnMut(usize)) {
        let check = self.flags[i] & CHECK != 0;
        if !self.may_enter(i, &kind) {
            return;
        }
        self.graph.for_each_pred(i, |j, chase| {
            if j < self.end && kind(check, chase && !check) {
                f(j);
            }
        });
    }

    /// Adds `delta` (wrapping: -1 is `u8::MAX`) to `counts[j]` for every predecessor `j`
    /// of the states listed (their numbers `i`) by a move of the kind `kind` picks.
    fn add_over(&self, list: &[u32], counts: &Counts, delta: u8, kind: impl Fn(bool, bool) -> bool + Sync) {
        list.par_iter().with_min_len(256).for_each_init(Vec::new, |row, &i| {
            self.add_preds(i as usize, row, counts, delta, &kind);
        });
    }

    /// [`Parity::add_over`] the members of the layer whose flags `pick` accepts, without a
    /// list of them (a list of a whole layer, made in parallel, held about 2.5 times its
    /// size at once: on `KCCvKC` the peak of the chase stage).
    fn add_over_where(
        &self,
        pick: impl Fn(u16) -> bool + Sync,
        counts: &Counts,
        delta: u8,
        kind: impl Fn(bool, bool) -> bool + Sync,
    ) {
        (self.start..self.end).into_par_iter().with_min_len(CHUNK).for_each_init(Vec::new, |row, i| {
            if pick(self.flags[i]) {
                self.add_preds(i, row, counts, delta, &kind);
            }
        });
    }

    /// Adds `delta` to `counts[j]` for every predecessor `j` of `i` by a move of the kind
    /// `kind` picks (`row`: scratch).
    #[inline]
    fn add_preds(
        &self,
        i: usize,
        row: &mut Vec<u32>,
        counts: &Counts,
        delta: u8,
        kind: &(impl Fn(bool, bool) -> bool + Sync),
    ) {
        let check = self.flags[i] & CHECK != 0;
        if !self.may_enter(i, kind) {
            return;
        }
        let pick = |j: usize, chase: bool| j < self.end && kind(check, chase && !check);
        self.graph.add_to_preds(i, row, pick, |j| &counts[j], delta);
    }

    /// Whether a move of the kind `kind` picks may lead into member `i`, by its flags: into a
    /// position in check only checks, into another idle moves and, if it is [`CHASED`],
    /// chases (the lists of the others are not read).
    #[inline]
    fn may_enter(&self, i: usize, kind: &impl Fn(bool, bool) -> bool) -> bool {
        let f = self.flags[i];
        if f & CHECK != 0 {
            kind(true, false)
        } else {
            kind(false, false) || (f & CHASED != 0 && kind(false, true))
        }
    }

    /// The numbers `i` of the layer whose flags `pick` accepts.
    fn select(&self, pick: impl Fn(u16) -> bool + Sync) -> Vec<u32> {
        let flags = &self.flags;
        gather(self.start..self.end, CHUNK, |i, out| {
            if pick(flags[i]) {
                out.push(i as u32);
            }
        })
    }

    /// Sets `bit` on the predecessors of the listed positions by a move of the kind `kind`
    /// picks.
    fn mark_preds(&mut self, list: &[u32], bit: u16, kind: impl Fn(bool, bool) -> bool + Sync) {
        // (Gathered in blocks: one vector, joined two by two, held 2 to 3 times them at once.)
        let slices: Vec<&[u32]> = list.chunks(256).collect();
        let marked = map_slices(
            &slices,
            || (),
            |&i, (), out| {
                self.preds_where(i as usize, &kind, |j| out.push(j as u32));
            },
        );
        for j in marked.into_iter().flatten() {
            self.flags[j as usize] |= bit;
        }
    }

    /// One `μZ1` for the current sets: `Z1` starts as `Z3` and grows inside `Z2` by
    /// breadth-first levels from `first` on; returns how many states outside `Z3` joined and
    /// the largest level given. Only checks carry a state's joining to its predecessors: an
    /// idle move or a chase into a state counts through `Z5`, `Z4`, `Z3` or `Z2`, fixed
    /// during the pass.
    /// The states a pass may add are those of `Z2` outside `Z3`: `open` lists their
    /// members (a work list, not the whole layer).
    fn pass(&self, first: u32, open: &[u32]) -> Result<(usize, u32), SolveError> {
        if first >= self.max {
            return Err(SolveError::DistanceTooLarge);
        }
        let flags = &self.flags;
        let frontier = gather_blocks(0..open.len(), CHUNK, |k, seeds| {
            let i = open[k] as usize;
            let f = flags[i];
            if f & (Z3_M | Z2_M) == Z2_M {
                let won = f & (GOOD_EXIT | TO_Z3) != 0 || self.chase_in[i].load(Relaxed) > 0;
                let idle = f & IDLE_EXIT != 0 || self.idle_in[i].load(Relaxed) > 0;
                let level = if won {
                    first
                } else if idle {
                    first | IDLE
                } else {
                    0
                };
                self.level[2 * i].store(level, Relaxed);
                self.hits[i].store(0, Relaxed);
                self.support[i].store(0, Relaxed);
                if level != 0 {
                    seeds.push(2 * i as u32);
                }
            }
            if f & (Z3_O | Z2_O) == Z2_O {
                let checks = self.checks_out[i].load(Relaxed);
                self.counter[i].store(checks, Relaxed);
                let seed = f & BAD_EXIT == 0 && self.blockers[i].load(Relaxed) == 0 && checks == 0;
                self.level[2 * i + 1].store(if seed { first } else { 0 }, Relaxed);
                if seed {
                    seeds.push(2 * i as u32 + 1);
                }
            }
        });
        self.spread(frontier, first)
    }

    /// Whether `M`-state `j` may join `Z1` (by a check into it): in the layer, in `Z2`
    /// outside `Z3`.
    fn open_m(&self, j: usize) -> bool {
        j < self.end && self.flags[j] & (Z3_M | Z2_M) == Z2_M
    }

    /// Whether `O`-state `j` may join `Z1` once all its checks lead into it: in the layer, in
    /// `Z2` outside `Z3`, no bad exit, no idle move or chase that blocks it.
    fn open_o(&self, j: usize) -> bool {
        j < self.end
            && self.flags[j] & (Z3_O | Z2_O | BAD_EXIT) == Z2_O
            && self.blockers[j].load(Relaxed) == 0
    }

    /// The attractor's counts ([`Attractor`]): levels carry [`IDLE`] beside them.
    fn counts(&self) -> Attractor<'_, L, Dense<'_, Counts>> {
        Attractor {
            level: &self.level,
            cells: Dense { counter: &self.counter, hits: &self.hits, support: &self.support },
            mask: !IDLE,
            tag: 0,
            max: self.max,
            exist: 0,
        }
    }

    /// Grows `Z1` breadth first from `frontier`, its states of the level `first`
    /// ([`Attractor::spread`]): only checks carry a state's joining (the moves into a state
    /// not in check count through the fixed sets). Returns how many states joined (the
    /// frontier included) and the largest level given.
    fn spread(&self, frontier: Blocks, first: u32) -> Result<(usize, u32), SolveError> {
        let seeds = blocks_len(&frontier);
        let (joined, top) = self.counts().spread(self.graph, &Z1 { parity: self, first }, frontier, first)?;
        Ok((seeds + joined, top))
    }

    /// Takes the `O`-states listed (their numbers `i`, [`CHASED`]), which left `Z2`, off the
    /// chase counts of their predecessors; returns the `M`-states that this leaves without
    /// the chase that made them seeds of `Z1` (of the level `first`, no other winning move).
    fn drop_chases(&self, left: &[u32], first: u32) -> Vec<u32> {
        let flags = &self.flags;
        left.par_iter()
            .with_min_len(256)
            .fold(
                || (Vec::new(), Vec::new()),
                |(mut out, mut row), &i| {
                    self.graph.warm_preds(
                        i as usize,
                        &mut row,
                        |j, chase| j < self.end && chase,
                        |j| u32::from(self.chase_in[j].load(Relaxed)),
                    );
                    for &j in &row {
                        let j = j as usize;
                        if self.chase_in[j].fetch_sub(1, Relaxed) == 1
                            && flags[j] & (Z3_M | Z2_M | GOOD_EXIT | TO_Z3) == Z2_M
                            && self.level[2 * j].load(Relaxed) == first
                        {
                            out.push(j as u32);
                        }
                    }
                    (out, row)
                },
            )
            .map(|(out, _)| out)
            .reduce(Vec::new, concat)
    }

    /// The next `μZ1` after `Z2` shrank to the last (`unseeded`: its `M`-states whose chase
    /// into `Z2` left with it, seeds of the level `first` no more), from the last rather than
    /// from the seeds: `Z1` only loses states. Such a state with an idle move into `Z4` stays
    /// as an idle seed (the level `first` with [`IDLE`]); the others leave. Then, as long as
    /// any leave: an `O`-state with a check to an `M`-state that left leaves; an `M`-state
    /// leaves when the last of its checks into `Z1` of a lower level does (its support). Each
    /// `M`-state that left and has a check into what stays comes back at the level above
    /// `top`, and `Z1` grows from them as in [`Parity::spread`]. The levels keep what the
    /// ranks need (as a pass from the seeds gives them): an `M`-state of `Z1` outside the
    /// seeds has a check into `Z1` of a lower level, an `O`-state's checks all lead into `Z1`
    /// at lower levels or into `Z3`.
    ///
    /// Returns the states that left (some of which came back), how many came back, and the
    /// largest level given.
    fn shrink_z1(&self, unseeded: &[u32], first: u32, top: u32) -> Result<(Blocks, usize, u32), SolveError> {
        let attractor = self.counts();
        let frontier = map_slices(
            &unseeded.chunks(256).collect::<Vec<_>>(),
            || (),
            |&i, (), out| {
                let i = i as usize;
                if self.flags[i] & IDLE_EXIT != 0 || self.idle_in[i].load(Relaxed) > 0 {
                    self.level[2 * i].store(first | IDLE, Relaxed);
                } else {
                    out.extend(attractor.leave(2 * i));
                }
            },
        );
        attractor.shrink(self.graph, &Z1 { parity: self, first }, frontier, top)
    }

    /// Solves the layers that start at `starts` (the last entry: the number of members), one
    /// after the other.
    pub(super) fn solve(
        &mut self,
        starts: &[usize],
        profile: &mut Profile,
    ) -> Result<ChaseFigures, SolveError> {
        let m = self.graph.len();
        let mut figures = ChaseFigures::default();
        let largest = starts.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        for counts in self.counts_mut() {
            *counts = Counts::new(largest);
        }
        let mut base = 0u32;
        for layer in starts.windows(2) {
            (self.start, self.end) = (layer[0], layer[1]);
            for counts in self.counts_mut() {
                counts.layer(layer[0], layer[1]);
            }
            self.solve_layer(&mut base, &mut figures)?;
            self.mark_exits();
            if layer[1] - layer[0] >= 1 << 20 {
                profile.step(|| {
                    format!("chase stage: a layer of {} members, {figures:?} so far", layer[1] - layer[0])
                });
            }
        }
        (self.start, self.end) = (0, m);
        Ok(figures)
    }

    /// Marks the moves of the later layers into the layer just solved as exits: for an
    /// `M`-state, a move into a win of mine (by its label); for an `O`-state, a move into a
    /// state that is no win of mine.
    fn mark_exits(&mut self) {
        let flags = &self.flags;
        let marks = self.graph.exits_into(self.start, self.end, |i, chase| {
            let f = flags[i];
            let mut bits = 0;
            if f & Z5_M == 0 {
                bits |= BAD_EXIT;
            }
            if f & Z5_O != 0 {
                bits |= if f & CHECK == 0 && !chase { IDLE_EXIT } else { GOOD_EXIT };
            }
            (bits != 0).then_some(bits)
        });
        for (j, bits) in marks {
            self.flags[j as usize] |= bits;
        }
    }
}

/// The chase stage's `μZ1` of a round of `Z3` whose seeds have the level `first`, as its
/// attractor sees it.
struct Z1<'p, 'a, 'g, G, L> {
    parity: &'p Parity<'a, 'g, G, L>,
    first: u32,
}

impl<G: Checks, L: Level> Stage for Z1<'_, '_, '_, G, L> {
    fn spreads(&self, i: usize) -> bool {
        self.parity.flags[i] & CHECK != 0
    }

    fn open_m(&self, j: usize) -> bool {
        self.parity.open_m(j)
    }

    fn open_o(&self, j: usize) -> bool {
        self.parity.open_o(j)
    }

    fn seed_m(&self, _: usize, level: u32) -> bool {
        level == self.first
    }

    fn seed_o(&self, j: usize) -> bool {
        // All its checks lead into Z3: it cannot lose a move into Z1.
        self.parity.checks_out[j].load(Relaxed) == 0
    }
}
