//! The first stage: the ban on perpetual check, a one-pair Rabin game on the draws `D` (see
//! the [parent module](super) for the algorithm and the ranks).

use std::sync::atomic::{AtomicU8, AtomicU32, Ordering::Relaxed};

use rayon::prelude::*;

use super::Checks;
use super::graph::{CHUNK, Graph, Levels, Target, concat, gather, layer_of};
use super::solution::RuleStats;
use crate::retrograde::{Solution, SolveError};
use crate::value::{Ban, RuleValue, Wdl};

const CHECK: u8 = 1;
/// The mover has a move out of `D` that wins, or a move out of its layer into a win of
/// mine (for `M`: good).
const GOOD_EXIT: u8 = 2;
/// The mover has a move out of `D` that does not lose, or a move out of its layer into a
/// state that is no win of mine (for `O`: bad for me).
const SAFE_EXIT: u8 = 4;
const Z_M: u8 = 8;
const Z_O: u8 = 16;
const Y_M: u8 = 32;
const Y_O: u8 = 64;
/// The `M`-state has a move to an `O`-state in `Z`.
const TO_Z: u8 = 128;

/// Whether an `M`-state with flags `f` is in the top of `νY`: in `Z`, or in check or with a
/// move into a win of mine, its position not lost (`Z_O`).
fn in_top(f: u8) -> bool {
    f & Z_M != 0 || (f & Z_O == 0 && f & (CHECK | GOOD_EXIT | TO_Z) != 0)
}

/// Whether a member with flags `f` has a state in `Y` outside `Z` (the members of a round's
/// work list).
fn open_in(f: u8) -> bool {
    f & (Y_M | Z_M) == Y_M || f & (Y_O | Z_O) == Y_O
}

/// Copies counts (in parallel).
fn copy(from: &[AtomicU8], to: &[AtomicU8]) {
    to.par_iter().zip(from).with_min_len(CHUNK).for_each(|(t, f)| t.store(f.load(Relaxed), Relaxed));
}

/// The first stage's solver over the graph of `D`, one layer after the other (see
/// [`Graph::layers`]): a layer's moves into the layers solved before it are exits with the
/// values found there, and its ranks and rounds continue theirs.
pub(super) struct Rabin<'a, 'g, G> {
    graph: &'a Graph<'g, G>,
    /// The members of the layer being solved: `start..end`.
    start: usize,
    end: usize,
    plain: &'a Solution,
    pub(super) flags: Vec<u8>,
    /// Per state `2 i + copy` (copy 0: me to move, 1: the opponent): 0 outside the current
    /// `X`, else the rank.
    level: Vec<AtomicU32>,
    /// Per position of `D`, for its `O`-state: moves into `D` to an `M`-state not yet in `X`.
    counter: Vec<AtomicU8>,
    /// Per position of `D`: its moves into `D` in its own layer (once the layers before it
    /// are solved).
    inside: Vec<u8>,
    /// Per position of `D`: its moves into `D` to an `M`-state in `Z` (kept up as `Z` grows).
    to_z: Vec<AtomicU8>,
    /// Per position of `D`: its moves into `D` to an `M`-state in `Y` (kept up as `Y`
    /// shrinks).
    to_y: Vec<AtomicU8>,
    /// Per position of `D`: its moves into `D` to an `M`-state in the top of `νY` (counted
    /// once per layer, then kept up as `Z` grows): each round's `to_y` starts as a copy.
    to_top: Vec<AtomicU8>,
    /// Seconds in: the rounds' counts into `Y`, the passes, `Y` shrinking, `Z` growing (for
    /// the profile).
    pub(super) seconds: [f64; 4],
    /// States that joined `X` outside `Z`, summed over the passes (for the profile).
    pub(super) joined: u64,
}

impl<'a, 'g, G: Checks> Rabin<'a, 'g, G> {
    pub(super) fn new(graph: &'a Graph<'g, G>, plain: &'a Solution) -> Self {
        let m = graph.len();
        Rabin {
            graph,
            start: 0,
            end: m,
            plain,
            flags: vec![0; m],
            level: (0..2 * m).map(|_| AtomicU32::new(0)).collect(),
            counter: (0..m).map(|_| AtomicU8::new(0)).collect(),
            inside: Vec::new(),
            to_z: (0..m).map(|_| AtomicU8::new(0)).collect(),
            to_y: (0..m).map(|_| AtomicU8::new(0)).collect(),
            to_top: (0..m).map(|_| AtomicU8::new(0)).collect(),
            seconds: [0.0; 4],
            joined: 0,
        }
    }

    /// Calls `f` with the number of every predecessor of `i` in the layer.
    #[inline]
    fn for_each_pred(&self, i: usize, mut f: impl FnMut(usize)) {
        self.graph.for_each_pred(i, |j, _| {
            if j < self.end {
                f(j);
            }
        });
    }

    /// Where the moves of `pos` lead; a move out of `D` with its value under the ban on
    /// perpetual check alone (see [`RuleValue::check_wdl`]).
    fn for_each_target(&self, pos: usize, f: impl FnMut(Target)) {
        self.graph.for_each_target(pos, |q| self.plain.value(q).map(RuleValue::from), f);
    }

    /// Solves the layers that start at `starts` (the last entry: the number of members), one
    /// after the other; returns the figures and the largest rank of each round.
    pub(super) fn solve(&mut self, starts: &[usize]) -> Result<(RuleStats, Vec<u32>), SolveError> {
        let m = self.graph.len();
        let mut stats = RuleStats { plain_draws: m as u64, ..RuleStats::default() };
        // Marks, exits and moves into D, once: the only pass that generates moves.
        // The counts of moves are bytes (a member with more moves into D is refused).
        let marks: Vec<(u8, u8)> = (0..m)
            .into_par_iter()
            .with_min_len(CHUNK)
            .map(|i| {
                let pos = self.graph.positions[i] as usize;
                let mut f = if self.graph.game.in_check(pos) { CHECK } else { 0 };
                let mut inside = 0u32;
                self.for_each_target(pos, |t| match t {
                    Target::Inside => inside += 1,
                    Target::Out(v) => match v.check_wdl() {
                        Wdl::Loss => f |= GOOD_EXIT | SAFE_EXIT,
                        Wdl::Draw => f |= SAFE_EXIT,
                        Wdl::Win => {}
                    },
                });
                Ok((f, u8::try_from(inside).map_err(|_| SolveError::TooManyMoves(pos))?))
            })
            .collect::<Result<_, SolveError>>()?;
        (self.flags, self.inside) = marks.into_iter().unzip();
        let mut offset = 0u32;
        let mut tops = Vec::new();
        for layer in starts.windows(2) {
            (self.start, self.end) = (layer[0], layer[1]);
            self.solve_layer(&mut offset, &mut tops, &mut stats)?;
            self.mark_exits();
        }
        (self.start, self.end) = (0, m);
        Ok((stats, tops))
    }

    /// Marks the moves of the later layers into the layer just solved as exits (for an
    /// `M`-state, a move into a win of mine; for an `O`-state, a move into a state that is
    /// no win of mine), and takes them off the moves inside.
    fn mark_exits(&mut self) {
        let flags = &self.flags;
        let marks = self.graph.exits_into(self.start, self.end, |i, _| {
            let f = flags[i];
            Some(if f & Z_O != 0 {
                GOOD_EXIT | SAFE_EXIT
            } else if f & Z_M == 0 {
                SAFE_EXIT
            } else {
                0
            })
        });
        for (j, bit) in marks {
            self.flags[j as usize] |= bit;
            self.inside[j as usize] -= 1;
        }
    }

    /// The fixpoints over the layer `start..end`, its ranks from `offset` on.
    fn solve_layer(
        &mut self,
        offset: &mut u32,
        tops: &mut Vec<u32>,
        stats: &mut RuleStats,
    ) -> Result<(), SolveError> {
        let mut top_counted = false;
        loop {
            stats.rounds += 1;
            // The top of νY, cut down to what any μX can hold: an M-state only in check or in
            // Cpre(Z), an O-state only without a move out that does not lose for the opponent.
            // Nor the other state of a position of Z: νY's value is the next Z, part of W,
            // and both sides cannot win at one position. (The iteration reaches the same
            // greatest fixpoint from any start above it, with fewer passes: its last pass,
            // which gives the ranks, is the same.)
            let mut in_y: usize = layer_of(&mut self.flags, self.start, self.end)
                .map(|(_, f)| {
                    *f &= !(Y_M | Y_O);
                    if in_top(*f) {
                        *f |= Y_M;
                    }
                    if *f & Z_O != 0 || *f & (SAFE_EXIT | Z_M) == 0 {
                        *f |= Y_O;
                    }
                    usize::from(*f & (Y_M | Z_M) == Y_M) + usize::from(*f & (Y_O | Z_O) == Y_O)
                })
                .sum();
            let clock = std::time::Instant::now();
            let (start, end) = (self.start, self.end);
            if top_counted {
                copy(&self.to_top[start..end], &self.to_y[start..end]);
            } else {
                self.count_to_y();
                copy(&self.to_y[start..end], &self.to_top[start..end]);
                top_counted = true;
            }
            // The work list of the round: the members with a state in Y outside Z (the only
            // ones a pass can add, Y shrinking, Z growing).
            let flags = &self.flags;
            let mut open = gather(self.start..self.end, CHUNK, |i, out| {
                if open_in(flags[i]) {
                    out.push(i as u32);
                }
            });
            self.seconds[0] += clock.elapsed().as_secs_f64();
            let mut top;
            let in_x = loop {
                stats.passes += 1;
                let clock = std::time::Instant::now();
                let (in_x, last) = self.attractor(*offset + 1, &open)?;
                self.joined += in_x as u64;
                self.seconds[1] += clock.elapsed().as_secs_f64();
                top = last;
                if in_x == in_y {
                    break in_x;
                }
                let clock = std::time::Instant::now();
                in_y = in_x;
                let level = &self.level;
                // Y shrinks to X (X ⊆ Y): the M-states that leave it are taken off the counts
                // of moves into Y of their predecessors.
                let flags = &self.flags;
                let shrunk: Vec<u8> = open
                    .par_iter()
                    .with_min_len(CHUNK)
                    .map(|&i| {
                        let i = i as usize;
                        let mut f = flags[i] & !(Y_M | Y_O);
                        if f & Z_M != 0 || level[2 * i].load(Relaxed) != 0 {
                            f |= Y_M;
                        }
                        if f & Z_O != 0 || level[2 * i + 1].load(Relaxed) != 0 {
                            f |= Y_O;
                        }
                        f
                    })
                    .collect();
                let mut left = Vec::new();
                let mut k = 0;
                open.retain(|&i| {
                    let f = &mut self.flags[i as usize];
                    let was = *f & Y_M != 0;
                    *f = shrunk[k];
                    k += 1;
                    if was && *f & Y_M == 0 {
                        left.push(i);
                    }
                    open_in(*f)
                });
                drop(shrunk);
                left.par_iter().with_min_len(256).for_each(|&i| {
                    self.for_each_pred(i as usize, |j| {
                        self.to_y[j].fetch_sub(1, Relaxed);
                    });
                });
                self.seconds[2] += clock.elapsed().as_secs_f64();
            };
            if in_x == 0 {
                break;
            }
            let clock = std::time::Instant::now();
            *offset = top;
            tops.push(top);
            let level = &self.level;
            // The new states of Z, and the M-states that leave the top of νY: those of the
            // positions whose O-state joins Z (a state that joins Z_M was in Y, and stays).
            // (X outside Z is Y outside Z: the work list.)
            let (mut new, mut left_top) = (Vec::new(), Vec::new());
            for &i in &open {
                let i = i as usize;
                let f = &mut self.flags[i];
                if *f & Z_M == 0 && level[2 * i].load(Relaxed) != 0 {
                    debug_assert!(in_top(*f), "a state of X out of the top of νY");
                    *f |= Z_M;
                    new.push(2 * i as u32);
                }
                if *f & Z_O == 0 && level[2 * i + 1].load(Relaxed) != 0 {
                    if in_top(*f) {
                        left_top.push(i as u32);
                    }
                    *f |= Z_O;
                    new.push(2 * i as u32 + 1);
                }
            }
            drop(open);
            // Cpre(Z) kept up: counts of moves into Z_M, marks of moves into Z_O.
            let marked: Vec<u32> = new
                .par_iter()
                .with_min_len(256)
                .fold(Vec::new, |mut marked, &s| {
                    self.for_each_pred(s as usize / 2, |j| {
                        if s % 2 == 0 {
                            self.to_z[j].fetch_add(1, Relaxed);
                        } else {
                            marked.push(j as u32);
                        }
                    });
                    marked
                })
                .reduce(Vec::new, concat);
            // The M-states that enter the top of νY: those that get a move into Z_O.
            let mut entered = Vec::new();
            for j in marked {
                let f = &mut self.flags[j as usize];
                let before = in_top(*f);
                *f |= TO_Z;
                if !before && in_top(*f) {
                    entered.push(j);
                }
            }
            self.add_to_top(&left_top, u8::MAX);
            self.add_to_top(&entered, 1);
            self.seconds[3] += clock.elapsed().as_secs_f64();
        }
        Ok(())
    }

    /// Adds `delta` (wrapping: -1 is `u8::MAX`) to the moves into the top of `νY` of the
    /// predecessors of the listed positions.
    fn add_to_top(&self, list: &[u32], delta: u8) {
        list.par_iter().with_min_len(256).for_each(|&i| {
            self.for_each_pred(i as usize, |j| {
                self.to_top[j].fetch_add(delta, Relaxed);
            });
        });
    }

    /// The moves into `Y_M` (`Z` included) of every position of the layer, counted from the
    /// `M`-states of `Y` through their predecessors (at the start of a round; the passes keep
    /// them up).
    fn count_to_y(&self) {
        let flags = &self.flags;
        self.to_y[self.start..self.end].par_iter().with_min_len(CHUNK).for_each(|c| c.store(0, Relaxed));
        (self.start..self.end).into_par_iter().with_min_len(CHUNK).for_each(|i| {
            if flags[i] & Y_M != 0 {
                self.for_each_pred(i, |j| {
                    self.to_y[j].fetch_add(1, Relaxed);
                });
            }
        });
    }

    /// One `μX` for the current `Z` and `Y`: levels from `first` on for the new states; returns
    /// how many states outside `Z` are in `X`, and the largest level given.
    /// `open` lists the members with a state in `Y` outside `Z`.
    fn attractor(&self, first: u32, open: &[u32]) -> Result<(usize, u32), SolveError> {
        if first >= 1 << 30 {
            return Err(SolveError::DistanceTooLarge);
        }
        let flags = &self.flags;
        // The seeds: Cpre(Z) and F ∩ Cpre(Y); the counters for the rest. Only states of Y
        // outside Z can join X (X ⊆ Y: Y only shrinks within a round).
        let frontier: Vec<u32> = gather(0..open.len(), CHUNK, |k, seeds| {
            let i = open[k] as usize;
            let f = flags[i];
            let open_m = f & (Z_M | Y_M) == Y_M;
            let open_o = f & (Z_O | Y_O | SAFE_EXIT) == Y_O;
            if f & Z_M == 0 {
                let seed = open_m && f & (GOOD_EXIT | TO_Z) != 0;
                self.level[2 * i].store(if seed { first } else { 0 }, Relaxed);
                if seed {
                    seeds.push(2 * i as u32);
                }
            }
            if f & Z_O == 0 {
                let outside_z_m = self.inside[i] - self.to_z[i].load(Relaxed);
                self.counter[i].store(outside_z_m, Relaxed);
                let all_in_y_m = self.to_y[i].load(Relaxed) == self.inside[i];
                let seed = open_o && (outside_z_m == 0 || (f & CHECK == 0 && all_in_y_m));
                self.level[2 * i + 1].store(if seed { first } else { 0 }, Relaxed);
                if seed {
                    seeds.push(2 * i as u32 + 1);
                }
            }
        });
        let levels = Levels { level: &self.level, counter: &self.counter, max: (1 << 30) - 1 };
        self.graph.attract(
            frontier,
            first,
            &levels,
            |_| true,
            |j, copy| {
                if j >= self.end {
                    // A predecessor in a later layer: solved with it.
                    return false;
                }
                let g = flags[j];
                if copy == 0 {
                    // I move into X (only in check).
                    g & (Z_M | Y_M | CHECK) == Y_M | CHECK
                } else {
                    g & (Z_O | Y_O | SAFE_EXIT) == Y_O
                }
            },
        )
    }

    /// The value by the ban on perpetual check of `D`-number `i` after [`Rabin::solve`]:
    /// `None` for a position it leaves drawn.
    pub(super) fn value(&self, i: usize) -> Option<RuleValue> {
        let f = self.flags[i];
        if f & Z_M != 0 {
            debug_assert!(f & Z_O == 0, "both sides win by the rule at D-number {i}");
            Some(RuleValue::WinByRule(Ban::Check, self.level[2 * i].load(Relaxed)))
        } else if f & Z_O != 0 {
            Some(RuleValue::LossByRule(Ban::Check, self.level[2 * i + 1].load(Relaxed)))
        } else {
            None
        }
    }
}
