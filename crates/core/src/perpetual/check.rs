//! The first stage: the ban on perpetual check, a one-pair Rabin game on the draws `D` (see
//! the [parent module](super) for the algorithm and the ranks).

use std::sync::atomic::{AtomicU8, AtomicU32, Ordering::Relaxed};

use rayon::prelude::*;

mod escapes;
mod open_cells;

use super::Checks;
use super::attractor::{Attractor, Cells, Stage};
use super::graph::{Graph, Target};
use super::level::{Level, levels};
use super::solution::RuleStats;
use super::work::{
    Bits, Blocks, CHUNK, blocks_len, gather, gather_blocks, layer_of, map_slices, retain_listed,
};
use crate::retrograde::{Solution, SolveError, release_free_memory};
use crate::value::{Ban, RuleValue, Wdl};
use open_cells::OpenCells;

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
/// In [`Rabin::exits`]: the member has a move out of `D` into a loss for the side to move
/// there, by the whole rule.
pub(super) const EXIT_LOSS: u8 = 1;
/// In [`Rabin::exits`]: the member has a move out of `D` into a draw or a loss for the side
/// to move there, by the whole rule.
pub(super) const EXIT_NOT_WIN: u8 = 2;
/// In [`Rabin::exits`]: the member has a move out of `D` into a draw with a distance (a
/// drawn end, see [`Graph::drawn_end`]).
pub(super) const EXIT_DRAWN: u8 = 4;
/// The largest level (rank) a pass may give.
const MAX_LEVEL: u32 = (1 << 30) - 1;
/// In [`Rabin::level`]: the level is one of `A` (the opponent's attractor of its escapes),
/// not of `X` or `Z`. No state is in `A` and in `X` or `Z` at once, so they share the array.
const A_TAG: u32 = 1 << 31;

/// Whether a state of level `l` (in [`Rabin::level`]) is in `A`.
fn in_a(l: u32) -> bool {
    l & A_TAG != 0
}

/// Whether a state of level `l` (in [`Rabin::level`]) is in `X` or `Z`.
fn of_x(l: u32) -> bool {
    l != 0 && l & A_TAG == 0
}

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

/// How many states of a member with flags `f` are in `Y` outside `Z`.
fn states_in_y(f: u8) -> usize {
    usize::from(f & (Y_M | Z_M) == Y_M) + usize::from(f & (Y_O | Z_O) == Y_O)
}

/// Marks in the flags `f` and the exits `e` of a member a move out of `D` to a position of
/// value `v` for the side to move there.
fn mark_exit(v: RuleValue, f: &mut u8, e: &mut u8) {
    match v.check_wdl() {
        Wdl::Loss => *f |= GOOD_EXIT | SAFE_EXIT,
        Wdl::Draw => *f |= SAFE_EXIT,
        Wdl::Win => {}
    }
    match v {
        RuleValue::Draw(Some(_)) => *e |= EXIT_NOT_WIN | EXIT_DRAWN,
        _ => match v.wdl() {
            Wdl::Loss => *e |= EXIT_LOSS | EXIT_NOT_WIN,
            Wdl::Draw => *e |= EXIT_NOT_WIN,
            Wdl::Win => {}
        },
    }
}

/// What the check stage's first pass over `D` finds: per member its flags (in check, its
/// exits by the ban on perpetual check alone), its exits by the whole rule, and its moves into
/// `D`. The only pass of the stage that generates moves, and the only one that reads the plain
/// values, which the solver then shelves.
pub(super) struct Look {
    flags: Vec<u8>,
    inside: Vec<u8>,
    /// Per member, its moves out of `D` by their values under the whole rule:
    /// [`EXIT_LOSS`], [`EXIT_NOT_WIN`], [`EXIT_DRAWN`]; for the chase stage and the draw
    /// distances (the check stage's passes do not read them).
    pub(super) exits: Vec<u8>,
}

/// The check stage's first pass (see [`Look`]) over `graph`, the draws of `plain` less its
/// drawn ends (`drawn_ends`: whether there are any). The counts of moves are bytes (a
/// member with more moves into `D` is refused).
pub(super) fn look<G: Checks>(
    graph: &Graph<'_, G>,
    plain: &Solution,
    drawn_ends: bool,
) -> Result<Look, SolveError> {
    let m = graph.len();
    let (mut flags, mut exits) = (vec![0u8; m], vec![0u8; m]);
    let inside = if graph.has_lists() && !drawn_ends {
        // With lists and no drawn position outside D in the index, a move into the index
        // leads into D or to a win of the opponent (a move to a loss would win the plain
        // draw), which marks nothing: only the moves out of the index are looked at, and
        // the moves into D are counted from the lists (`KNRvKAR`: 27 s for the pass that
        // generated every move with its successor's index, in a check stage of 70.5 s, against
        // 59.3 s so), and from the un-moves of the members without one (`KNRvKAR` with half
        // its draws listed: 9.6 s, against 17.3 s for the pass that generates every move).
        flags.par_iter_mut().zip(exits.par_iter_mut()).enumerate().with_min_len(CHUNK).for_each(
            |(i, (flag, exit))| {
                let pos = graph.position(i);
                let (mut f, mut e) = (0, 0);
                if graph.game.look_out(pos, |v| mark_exit(v, &mut f, &mut e)) {
                    f |= CHECK;
                }
                (*flag, *exit) = (f, e);
            },
        );
        count_inside(graph)?
    } else {
        let mut inside = vec![0u8; m];
        flags
            .par_iter_mut()
            .zip(inside.par_iter_mut())
            .zip(exits.par_iter_mut())
            .enumerate()
            .with_min_len(CHUNK)
            .try_for_each(|(i, ((flag, count), exit))| {
                let pos = graph.position(i);
                let mut f = if graph.game.in_check(pos) { CHECK } else { 0 };
                let (mut n, mut e) = (0u32, 0u8);
                // A move out of `D` with its value under the ban on perpetual check alone (see
                // [`RuleValue::check_wdl`]).
                graph.for_each_target(
                    pos,
                    |q| plain.value(q).map(RuleValue::from),
                    |t| match t {
                        Target::Inside => n += 1,
                        Target::Out(v) => mark_exit(v, &mut f, &mut e),
                    },
                );
                (*flag, *exit) = (f, e);
                *count = u8::try_from(n).map_err(|_| SolveError::TooManyMoves(pos))?;
                Ok::<_, SolveError>(())
            })?;
        inside
    };
    Ok(Look { flags, inside, exits })
}

/// Every member's moves into `D`, counted from the lists of predecessors.
fn count_inside<G: Checks>(graph: &Graph<'_, G>) -> Result<Vec<u8>, SolveError> {
    let m = graph.len();
    let counts: Vec<AtomicU8> = (0..m).map(|_| AtomicU8::new(0)).collect();
    let full = AtomicU32::new(u32::MAX);
    (0..m).into_par_iter().with_min_len(CHUNK).for_each_init(Vec::new, |row, i| {
        graph.warm_preds(i, row, |_, _| true, |j| u32::from(counts[j].load(Relaxed)));
        for &j in row.iter() {
            if counts[j as usize].fetch_add(1, Relaxed) == u8::MAX {
                full.store(j, Relaxed);
            }
        }
    });
    match full.into_inner() {
        u32::MAX => Ok(counts.into_iter().map(AtomicU8::into_inner).collect()),
        j => Err(SolveError::TooManyMoves(graph.position(j as usize))),
    }
}

/// The first stage's solver over the graph of `D`, one layer after the other (see
/// [`Graph::layers`]): a layer's moves into the layers solved before it are exits with the
/// values found there, and its ranks and rounds continue theirs.
pub(super) struct Rabin<'a, 'g, G, L> {
    graph: &'a Graph<'g, G>,
    /// The members of the layer being solved: `start..end`.
    start: usize,
    end: usize,
    flags: Vec<u8>,
    /// Per state `2 i + copy` (copy 0: me to move, 1: the opponent): 0 outside the current
    /// `X`, `Z` and `A`; the rank in `X` or `Z`; the level in `A` with [`A_TAG`]. (`A` is the
    /// opponent's attractor of its escapes, the states outside `Z` and the top of `νY`. No
    /// state of `A` is in the next `Z` (from it the opponent forces an escape before `Z`), so
    /// each round's `νY` starts outside it; `A` is kept up from round to round as `Z` grows:
    /// see the `escapes` module.)
    level: Vec<L>,
    /// The largest level a pass may give: [`MAX_LEVEL`], or less for narrow cells.
    max: u32,
    /// Per member of the round's work list (see [`OpenCells`]): for its `O`-state, its moves
    /// into `D` to an `M`-state not yet in `X`, and its moves into `D` to an `M`-state
    /// outside `Y` (kept up as `Y` shrinks); for its `M`-state (in check, in `Y` outside
    /// `Z`), its moves to an `O`-state in `X` (kept up as `X` grows and loses states) and,
    /// once in `X` by a move into it, those of a lower level (what holds it in `X`).
    cells: OpenCells,
    /// Per position of `D`: its moves into `D` in its own layer (once the layers before it
    /// are solved) to an `M`-state outside `Z` (kept up as `Z` grows). The counts of moves
    /// are of those that do not lead into a set: a test of all moves needs no count of
    /// all moves besides (a byte a draw less).
    out_z: Vec<AtomicU8>,
    /// Per member, for its `M`-state: its moves to an `O`-state not yet in `A`.
    a_counter: Vec<AtomicU8>,
    /// Per member, for its `O`-state outside `Z`: its moves into `A`, and of those the ones
    /// of a lower level (what holds it in `A`). Every `M`-state outside `Z` and the top of
    /// `νY` is an escape, in `A`, and `Z` is in the top: the moves into `A` are also the
    /// moves outside the top less `A`, where each round's `Y_M` starts, and the round's moves
    /// outside `Y_M` start from them. (A count of its own, counted at a layer's start and
    /// kept up as `Z` and `A` changed, held the same number in another byte a draw; the
    /// oracle tests checked them equal at every round's start before it went.)
    a_hits: Vec<AtomicU8>,
    a_support: Vec<AtomicU8>,
    /// The largest level `A` has given.
    a_top: u32,
    /// Seconds in: the rounds' counts into `Y`, the passes, `Y` shrinking, `Z` growing, `A`
    /// (made and kept up; for the profile).
    pub(super) seconds: [f64; 5],
    /// States that joined `X` outside `Z`, summed over the passes (for the profile).
    pub(super) joined: u64,
    /// States that left `X` in the passes after a round's first (for the profile).
    pub(super) left: u64,
}

impl<'a, 'g, G: Checks, L: Level> Rabin<'a, 'g, G, L> {
    /// The solver over `graph`, from its first pass (see [`look`]; its exits are not read),
    /// its levels at most `max` (and what a cell of `L` holds).
    pub(super) fn new(graph: &'a Graph<'g, G>, look: Look, max: u32) -> Self {
        let m = graph.len();
        let Look { flags, inside, .. } = look;
        Rabin {
            graph,
            start: 0,
            end: m,
            flags,
            level: levels(2 * m),
            max: max.min(MAX_LEVEL).min(L::MAX),
            cells: OpenCells::default(),
            out_z: inside.into_par_iter().with_min_len(CHUNK).map(AtomicU8::new).collect(),
            a_counter: (0..m).map(|_| AtomicU8::new(0)).collect(),
            a_hits: (0..m).map(|_| AtomicU8::new(0)).collect(),
            a_support: (0..m).map(|_| AtomicU8::new(0)).collect(),
            a_top: 0,
            seconds: [0.0; 5],
            joined: 0,
            left: 0,
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

    /// Solves the layers that start at `starts` (the last entry: the number of members), one
    /// after the other; returns the figures and the largest rank of each round.
    pub(super) fn solve(&mut self, starts: &[usize]) -> Result<(RuleStats, Vec<u32>), SolveError> {
        let m = self.graph.len();
        let mut stats = RuleStats { plain_draws: m as u64, ..RuleStats::default() };
        let mut offset = 0u32;
        let mut tops = Vec::new();
        for layer in starts.windows(2) {
            (self.start, self.end) = (layer[0], layer[1]);
            self.solve_layer(&mut offset, &mut tops, &mut stats)?;
            self.mark_exits();
        }
        (self.start, self.end) = (0, m);
        // A is not read after the stage: its counts (3 bytes a draw) go before the results
        // are made. (Its levels stay in `level`, at states outside `Z`, which are not read.)
        (self.a_counter, self.a_hits, self.a_support) = Default::default();
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
            *self.out_z[j as usize].get_mut() -= 1;
        }
    }

    /// The fixpoints over the layer `start..end`, its ranks from `offset` on.
    fn solve_layer(
        &mut self,
        offset: &mut u32,
        tops: &mut Vec<u32>,
        stats: &mut RuleStats,
    ) -> Result<(), SolveError> {
        // The members whose marks of Y may change from one round's start to the next, when
        // few enough to list (else the next round's start marks the whole layer): those of
        // the last round's work list (Y shrank there, Z grew) and those whose states joined
        // or left A (an M-state that enters the top by a move into Z is one: it leaves A).
        // The marks of the others are made of what has not changed (`KNRvKAR`: the layer's
        // 72.1 M members marked at each of 36 rounds' starts took 17 s, against 4 s so).
        // Gathered in a bit per member of the layer (as a list, with its repeats, it held up
        // to 22 M members on `KNRvKAR`, 88 MiB), and marked from there.
        let mut touched: Option<Bits> = None;
        let clock = std::time::Instant::now();
        self.make_escapes()?;
        self.seconds[4] += clock.elapsed().as_secs_f64();
        loop {
            stats.rounds += 1;
            // The top of νY, cut down to what any μX can hold: an M-state only in check or in
            // Cpre(Z), an O-state only without a move out that does not lose for the opponent.
            // Nor the other state of a position of Z: νY's value is the next Z, part of W,
            // and both sides cannot win at one position. Nor a state of A: the opponent
            // forces an escape from it before Z. (The iteration reaches the same greatest
            // fixpoint from any start above it, with fewer passes; the ranks may differ, as
            // the last pass's levels do.)
            let clock = std::time::Instant::now();
            let (start, end) = (self.start, self.end);
            let level = &self.level;
            let mark_y = |i: usize, f: &mut u8| {
                *f &= !(Y_M | Y_O);
                if in_top(*f) && !in_a(level[2 * i].load(Relaxed)) {
                    *f |= Y_M;
                }
                if *f & Z_O != 0 || (*f & (SAFE_EXIT | Z_M) == 0 && !in_a(level[2 * i + 1].load(Relaxed))) {
                    *f |= Y_O;
                }
            };
            // The work list of the round: the members with a state in Y outside Z (the only
            // ones a pass can add, Y shrinking, Z growing), and how many such states.
            let (mut open, in_y) = if let Some(touched) = touched.take() {
                // Only the members whose marks may have changed since the last round's start
                // (see `touched`): the others keep theirs, and were not in its work list.
                let list = touched.retain_mut(&mut self.flags[start..end], start, |i, f| {
                    mark_y(i, f);
                    open_in(*f)
                });
                let flags = &self.flags;
                let in_y = list.par_iter().with_min_len(CHUNK).map(|&i| states_in_y(flags[i as usize])).sum();
                (list, in_y)
            } else {
                layer_of(&mut self.flags, start, end).for_each(|(i, f)| mark_y(i, f));
                let flags = &self.flags;
                let open = gather(start..end, CHUNK, |i, out| {
                    if open_in(flags[i]) {
                        out.push(i as u32);
                    }
                });
                let in_y = open.par_iter().with_min_len(CHUNK).map(|&i| states_in_y(flags[i as usize])).sum();
                (open, in_y)
            };
            // The round's cells, for its work list as it starts (which the cells give back
            // for the next round's `touched`); its moves outside Y_M from those outside the
            // top less A.
            let listed = Bits::new(end - start);
            open.par_iter().with_min_len(CHUNK).for_each(|&i| listed.insert(i as usize - start));
            self.cells = OpenCells::new(start, listed);
            let (cells, to_a) = (&self.cells, &self.a_hits);
            open.par_iter().with_min_len(CHUNK).for_each(|&i| {
                cells.out_y(i as usize).store(to_a[i as usize].load(Relaxed), Relaxed);
            });
            self.seconds[0] += clock.elapsed().as_secs_f64();
            // The first μX of the round from its seeds; then, each time Y shrinks to X, the
            // next μX from the last: its states that lose their hold on X leave it, those
            // with a move into what stays come back above the levels given so far.
            stats.passes += 1;
            let clock = std::time::Instant::now();
            let (mut in_x, mut top) = self.attractor(*offset + 1, &open)?;
            self.joined += in_x as u64;
            self.seconds[1] += clock.elapsed().as_secs_f64();
            let mut left = if in_x == in_y {
                Vec::new()
            } else {
                let clock = std::time::Instant::now();
                let level = &self.level;
                // Y shrinks to X (X ⊆ Y): the M-states that leave it are taken off the counts
                // of moves into Y of their predecessors.
                let left = retain_listed(&mut self.flags, &mut open, &|i, f, left| {
                    let was = *f & Y_M != 0;
                    *f &= !(Y_M | Y_O);
                    if *f & Z_M != 0 || of_x(level[2 * i].load(Relaxed)) {
                        *f |= Y_M;
                    }
                    if *f & Z_O != 0 || of_x(level[2 * i + 1].load(Relaxed)) {
                        *f |= Y_O;
                    }
                    if was && *f & Y_M == 0 {
                        left.push(i as u32);
                    }
                    open_in(*f)
                });
                self.leave_y(&left);
                self.seconds[2] += clock.elapsed().as_secs_f64();
                left
            };
            while !left.is_empty() {
                stats.passes += 1;
                let clock = std::time::Instant::now();
                let (lost, back, last) = self.shrink_x(&left, top)?;
                let lost_len = blocks_len(&lost);
                self.joined += back as u64;
                self.left += lost_len as u64;
                top = last;
                in_x = in_x + back - lost_len;
                self.seconds[1] += clock.elapsed().as_secs_f64();
                let clock = std::time::Instant::now();
                // Y shrinks to X: the states that left X and did not come back leave Y.
                let mut lost: Vec<u32> = lost
                    .into_iter()
                    .flatten()
                    .filter(|&s| self.level[s as usize].load(Relaxed) == 0)
                    .collect();
                lost.sort_unstable();
                left = lost.iter().filter(|&&s| s % 2 == 0).map(|&s| s / 2).collect();
                for s in lost {
                    self.flags[s as usize / 2] &= if s % 2 == 0 { !Y_M } else { !Y_O };
                }
                self.leave_y(&left);
                self.seconds[2] += clock.elapsed().as_secs_f64();
            }
            // (The round's cells are read no more: out of the way of Z growing and A kept up.)
            let changed = std::mem::take(&mut self.cells).into_listed();
            if in_x == 0 {
                break;
            }
            let clock = std::time::Instant::now();
            *offset = top;
            tops.push(top);
            let level = &self.level;
            // The new states of Z (a state that joins Z_M was in Y, and stays in the top; the
            // M-state of a position whose O-state joins Z leaves the top, an escape that
            // joins A as A is kept up). (X outside Z is Y outside Z: the work list.)
            // (Both states of a position never join: an M-state that joins stays in the top.)
            let new: Vec<u32> = retain_listed(&mut self.flags, &mut open, &|i, f, new| {
                if *f & Z_M == 0 && of_x(level[2 * i].load(Relaxed)) {
                    debug_assert!(in_top(*f), "a state of X out of the top of νY");
                    *f |= Z_M;
                    new.push(2 * i as u32);
                }
                if *f & Z_O == 0 && of_x(level[2 * i + 1].load(Relaxed)) {
                    new.push(2 * i as u32 + 1);
                    *f |= Z_O;
                }
                false
            });
            drop(open);
            // Cpre(Z) kept up: counts of moves into Z_M, marks of moves into Z_O (a bit per
            // member of the layer: a list of the moves held up to 144 MiB on `KNRvKAR`).
            let marked = Bits::new(end - start);
            new.par_iter().with_min_len(256).for_each_init(Vec::new, |row, &s| {
                if s % 2 == 0 {
                    self.add_to_preds(s as usize / 2, row, &self.out_z, u8::MAX);
                } else {
                    self.for_each_pred(s as usize / 2, |j| marked.insert(j - start));
                }
            });
            // The M-states that enter the top of νY: those that get a move into Z_O. In
            // order: the escapes' upkeep reads their predecessor lists, kept in the order of
            // the members, in this order (`KNRvKAR`: 17 to 18 s against 21 to 22).
            let entered = marked.retain_mut(&mut self.flags[start..end], start, |_, f| {
                let before = in_top(*f);
                *f |= TO_Z;
                !before && in_top(*f)
            });
            drop(marked);
            self.seconds[3] += clock.elapsed().as_secs_f64();
            let clock = std::time::Instant::now();
            self.keep_up_escapes(&entered, &new, &changed)?;
            self.seconds[4] += clock.elapsed().as_secs_f64();
            touched = (4 * changed.count() <= end - start).then_some(changed);
            // The round's lists were many and short-lived: their pages back to the system
            // before the next round's (without, the resident memory at the ends of
            // `KNRvKAR`'s first rounds rose from 867 to 989 MiB).
            release_free_memory();
        }
        Ok(())
    }

    /// [`Graph::add_to_preds`] over the predecessors of `i` in the layer.
    #[inline]
    fn add_to_preds(&self, i: usize, row: &mut Vec<u32>, counts: &[AtomicU8], delta: u8) {
        self.graph.add_to_preds(i, row, |j, _| j < self.end, |j| &counts[j], delta);
    }

    /// Adds the `M`-states of the members `left`, which left `Y`, to the counts of moves
    /// outside `Y_M` of their predecessors in the round's work list (no other reads them).
    fn leave_y(&self, left: &[u32]) {
        let cells = &self.cells;
        left.par_iter().with_min_len(256).for_each_init(Vec::new, |row, &i| {
            self.graph.add_to_preds(i as usize, row, |j, _| cells.contains(j), |j| cells.out_y(j), 1);
        });
    }

    /// Counts in `counts`, for every position of the layer, its moves to the `M`-states
    /// whose flags `pick` refuses, at the start of the layer (when no state of the layer is
    /// in `Z`, so that `out_z` counts all its moves in the layer): all its moves, less those
    /// into the states `pick` accepts, through their predecessors (few: the top of `νY`;
    /// counting the moves into the others generated the un-moves of most of the layer).
    fn count_out(&self, counts: &[AtomicU8], pick: impl Fn(u8) -> bool + Sync) {
        let (flags, out_z) = (&self.flags, &self.out_z);
        counts[self.start..self.end]
            .par_iter()
            .zip(&out_z[self.start..self.end])
            .with_min_len(CHUNK)
            .for_each(|(c, all)| c.store(all.load(Relaxed), Relaxed));
        (self.start..self.end).into_par_iter().with_min_len(CHUNK).for_each_init(Vec::new, |row, i| {
            debug_assert!(flags[i] & Z_M == 0, "a state of the layer in Z at its start");
            if pick(flags[i]) {
                self.add_to_preds(i, row, counts, u8::MAX);
            }
        });
    }

    /// One `μX` for the current `Z` and `Y`: levels from `first` on for the new states; returns
    /// how many states outside `Z` are in `X`, and the largest level given.
    /// `open` lists the members with a state in `Y` outside `Z`.
    fn attractor(&self, first: u32, open: &[u32]) -> Result<(usize, u32), SolveError> {
        if first > self.max {
            return Err(SolveError::DistanceTooLarge);
        }
        let flags = &self.flags;
        // The seeds: Cpre(Z) and F ∩ Cpre(Y); the counters for the rest. Only states of Y
        // outside Z can join X (X ⊆ Y: Y only shrinks within a round).
        let frontier = gather_blocks(0..open.len(), CHUNK, |k, seeds| {
            let i = open[k] as usize;
            let f = flags[i];
            let open_m = f & (Z_M | Y_M) == Y_M;
            let open_o = f & (Z_O | Y_O | SAFE_EXIT) == Y_O;
            // (A state outside Y keeps its level: 0, or its level in A.)
            if f & Z_M == 0 {
                let seed = open_m && f & (GOOD_EXIT | TO_Z) != 0;
                if open_m {
                    self.level[2 * i].store(if seed { first } else { 0 }, Relaxed);
                }
                debug_assert!(!of_x(self.level[2 * i].load(Relaxed)) || seed, "a state of X outside Y");
                (&self.cells).hits(i).store(0, Relaxed);
                (&self.cells).support(i).store(0, Relaxed);
                if seed {
                    seeds.push(2 * i as u32);
                }
            }
            if f & Z_O == 0 {
                let outside_z_m = self.out_z[i].load(Relaxed);
                (&self.cells).counter(i).store(outside_z_m, Relaxed);
                let all_in_y_m = self.cells.out_y(i).load(Relaxed) == 0;
                let seed = open_o && (outside_z_m == 0 || (f & CHECK == 0 && all_in_y_m));
                if open_o {
                    self.level[2 * i + 1].store(if seed { first } else { 0 }, Relaxed);
                }
                debug_assert!(!of_x(self.level[2 * i + 1].load(Relaxed)) || seed, "a state of X outside Y");
                if seed {
                    seeds.push(2 * i as u32 + 1);
                }
            }
        });
        let count = blocks_len(&frontier);
        let (joined, top) = self.spread(frontier, first)?;
        Ok((count + joined, top))
    }

    /// Whether `M`-state `j` (in the layer) may join `X` by a move into it: in check, in `Y`
    /// outside `Z`.
    fn open_m(&self, j: usize) -> bool {
        j < self.end && self.flags[j] & (Z_M | Y_M | CHECK) == Y_M | CHECK
    }

    /// Whether `O`-state `j` (in the layer) may join `X` once all its moves lead into it:
    /// in `Y` outside `Z`, no move out that does not lose for the opponent.
    fn open_o(&self, j: usize) -> bool {
        j < self.end && self.flags[j] & (Z_O | Y_O | SAFE_EXIT) == Y_O
    }

    /// Whether `O`-state `i` of `Y` is a seed of `X`: all its moves into `D` lead into `Z`
    /// (`Cpre(Z)`), or it is not in check and all lead into `Y` (`F ∩ Cpre(Y)`).
    fn seed_o(&self, i: usize) -> bool {
        self.out_z[i].load(Relaxed) == 0
            || (self.flags[i] & CHECK == 0 && self.cells.out_y(i).load(Relaxed) == 0)
    }

    /// The attractor's counts ([`Attractor`]).
    fn counts(&self) -> Attractor<'_, L, &OpenCells> {
        Attractor { level: &self.level, cells: &self.cells, mask: u32::MAX, tag: 0, max: self.max, exist: 0 }
    }

    /// Grows `X` breadth first from `frontier`, its states of the level `first`
    /// ([`Attractor::spread`]); returns how many states joined besides the frontier, and
    /// the largest level given.
    fn spread(&self, frontier: Blocks, first: u32) -> Result<(usize, u32), SolveError> {
        self.counts().spread(self.graph, self, frontier, first)
    }

    /// The next `μX` after `Y` shrank to the last (`left`: its `M`-states that left `Y`),
    /// from the last rather than from the seeds: `X` only loses states. An `O`-state with a
    /// move to a state of `left` was a seed by `F ∩ Cpre(Y)` and is one no more: it leaves.
    /// Then, as long as any leave: an `O`-state with a move to an `M`-state that left
    /// leaves unless it is a seed; an `M`-state leaves when the last of its moves into `X`
    /// of a lower level does (its support). Each state that left and has a move into what
    /// stays comes back at the level above `top`, and `X` grows from them as in
    /// [`Rabin::spread`] (only states that left can come back: `X` shrinks with `Y`). The
    /// levels keep what the ranks need: an `M`-state of `X` has a move into `X` of a lower
    /// level, an `O`-state's moves all lead into `X` at lower levels or into `Z`.
    ///
    /// Returns the states that left (some of which came back), how many came back, and the
    /// largest level given.
    fn shrink_x(&self, left: &[u32], top: u32) -> Result<(Blocks, usize, u32), SolveError> {
        let attractor = self.counts();
        let frontier = map_slices(&left.chunks(256).collect::<Vec<_>>(), Vec::new, |&i, row, out| {
            self.graph.warm_preds(
                i as usize,
                row,
                |j, _| self.open_o(j),
                |j| self.level[2 * j + 1].load(Relaxed),
            );
            out.extend(
                row.iter()
                    .filter(|&&j| !self.seed_o(j as usize))
                    .filter_map(|&j| attractor.leave(2 * j as usize + 1)),
            );
        });
        attractor.shrink(self.graph, self, frontier, top)
    }

    /// What the stage found, once [`Rabin::solve`] has run: the rest of its state (and its
    /// hold on the graph, whose lists may then go) is dropped.
    pub(super) fn into_results(self) -> CheckResults<L> {
        CheckResults { flags: self.flags, level: self.level }
    }
}

/// What the check stage found: per member its flags, per state its rank.
pub(super) struct CheckResults<L> {
    flags: Vec<u8>,
    level: Vec<L>,
}

impl<L: Level> CheckResults<L> {
    /// The value by the ban on perpetual check of `D`-number `i`: `None` for a position the
    /// stage leaves drawn.
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

impl<G: Checks, L: Level> Stage for Rabin<'_, '_, G, L> {
    fn spreads(&self, _: usize) -> bool {
        true
    }

    fn open_m(&self, j: usize) -> bool {
        Rabin::open_m(self, j)
    }

    fn open_o(&self, j: usize) -> bool {
        Rabin::open_o(self, j)
    }

    fn seed_m(&self, j: usize, _: u32) -> bool {
        self.flags[j] & (GOOD_EXIT | TO_Z) != 0
    }

    fn seed_o(&self, j: usize) -> bool {
        Rabin::seed_o(self, j)
    }
}
