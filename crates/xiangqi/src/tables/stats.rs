//! Counts over the legal positions of a material ([`Stats`]): wins, losses and draws (and
//! under the bans, wins and losses by the rule), the longest wins, as GamesmanXiangqi counts
//! them; from a solution in memory or written in a table file's header. [`StatsBySide`]: the
//! same counts for each side to move, which no header holds (counted from the values).

use std::convert::Infallible;
use std::ops::Range;

use endgame_core::table::Category;
use endgame_core::{Counts, RuleValue};
use rayon::prelude::*;

use crate::rules::color::Color;
use crate::rules::rule_set::Rules;
use crate::tables::index::MaterialIndex;

/// Counts over the legal positions of one material: both sides to move, no symmetry
/// reduction, identical pieces counted once per set of points. Legal: every piece on a point it
/// may stand on, the side not to move not in check (attacked, or the Generals facing each other
/// on an open file).
///
/// Counted with one [`Counts`] per side to move ([`Stats::of_sides`]); kept is what a table
/// file's header holds ([`Stats::counters`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Over both sides to move: `positions` (legal positions), `wins` and `losses` (by mate,
    /// under the rule sets with bans), `draws`, and `wins_by_rule` and `losses_by_rule` (the
    /// draws of `standard` that a ban decides; 0 under `standard` and `hdu`). Its other
    /// fields, which a table file's header does not hold, are 0.
    pub counts: Counts,
    /// The longest win of Red to move, in plies (0 when there is none); as GamesmanXiangqi
    /// counts it, a position with Black to move lost in more plies does not count.
    pub longest_red_win_plies: u32,
    /// The longest win of Black to move, in plies (0 when there is none).
    pub longest_black_win_plies: u32,
}

impl Stats {
    /// The statistics of the counts of the positions with Red to move and of those with Black
    /// to move.
    #[must_use]
    pub fn of_sides(red: Counts, black: Counts) -> Stats {
        let both = red.merge(black);
        Stats {
            counts: Counts {
                positions: both.positions,
                wins: both.wins,
                losses: both.losses,
                draws: both.draws,
                wins_by_rule: both.wins_by_rule,
                losses_by_rule: both.losses_by_rule,
                ..Counts::default()
            },
            longest_red_win_plies: red.longest_win,
            longest_black_win_plies: black.longest_win,
        }
    }

    /// The statistics of the colour twin material ([`Material::colour_twin`]): the same
    /// counts (each position stands for its twin, with the same value for the side to move),
    /// with the longest wins of Red and Black to move swapped.
    ///
    /// [`Material::colour_twin`]: crate::rules::material::Material::colour_twin
    #[must_use]
    pub const fn colour_twin(self) -> Stats {
        Stats {
            longest_red_win_plies: self.longest_black_win_plies,
            longest_black_win_plies: self.longest_red_win_plies,
            ..self
        }
    }

    /// Counts over the legal positions of `index` (each index tested), with their values from
    /// `value`, in parallel.
    pub(crate) fn of_legal(
        index: &MaterialIndex,
        value: impl Fn(usize) -> Option<RuleValue> + Sync,
    ) -> Stats {
        let [red, black] = fold_legal(
            index,
            |sides: &mut Sides, pos, turn, times| {
                if let Some(value) = value(pos) {
                    sides[turn.index()].add_times(Some(value), times);
                }
            },
            merge_sides,
        );
        Stats::of_sides(red, black)
    }

    /// Counts over the positions of `index` whose values `value` gives, `None` for holes, in
    /// parallel: the same as [`Stats::of_legal`] over a table solved under `rules`. A table's
    /// holes are exactly the indices that are no legal position, so no position's legality is
    /// tested (each index takes a lookup and a digit or two), except under `hdu`, whose
    /// tables also value the positions where the side not to move is in check (its General
    /// is taken next): those are no legal positions and are not counted.
    pub(crate) fn of_values(
        index: &MaterialIndex,
        rules: Rules,
        value: impl Fn(usize) -> Option<RuleValue> + Sync,
    ) -> Stats {
        const CHUNK: usize = 1 << 16;
        let [red, black] = (0..index.len().div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let mut sides = Sides::default();
                for p in c * CHUNK..index.len().min((c + 1) * CHUNK) {
                    if rules == Rules::Hdu && !index.is_legal(p) {
                        continue;
                    }
                    if let Some(v) = value(p) {
                        sides[MaterialIndex::turn(p).index()].add_times(Some(v), index.stands_for(p));
                    }
                }
                sides
            })
            .reduce(Sides::default, merge_sides);
        Stats::of_sides(red, black)
    }

    /// [`Stats::of_values`] with the values of each range of 65,536 indices put into a buffer
    /// by `fill` (the ranges in parallel: for values read a range at a time, such as the
    /// shares of a partitioned solve from their files). Stops at the first error of `fill`.
    pub(crate) fn of_blocks<E: Send>(
        index: &MaterialIndex,
        rules: Rules,
        fill: impl Fn(std::ops::Range<usize>, &mut Vec<Option<RuleValue>>) -> Result<(), E> + Sync,
    ) -> Result<Stats, E> {
        const CHUNK: usize = 1 << 16;
        let [red, black] = (0..index.len().div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let (start, mut sides) = (c * CHUNK, Sides::default());
                let mut values = Vec::with_capacity(CHUNK);
                fill(start..index.len().min(start + CHUNK), &mut values)?;
                for (p, v) in (start..).zip(values) {
                    if (rules == Rules::Hdu && !index.is_legal(p)) || v.is_none() {
                        continue;
                    }
                    sides[MaterialIndex::turn(p).index()].add_times(v, index.stands_for(p));
                }
                Ok(sides)
            })
            .try_reduce(Sides::default, |a, b| Ok(merge_sides(a, b)))?;
        Ok(Stats::of_sides(red, black))
    }

    /// The names of the counters of a table file's header (see
    /// [`endgame_core::table`]), in the order of [`Stats::counters`].
    pub const COUNTERS: [&'static str; 8] = [
        "positions",
        "wins",
        "losses",
        "draws",
        "wins_by_rule",
        "losses_by_rule",
        "longest_red_win_plies",
        "longest_black_win_plies",
    ];

    /// The statistics as a table file's counters.
    #[must_use]
    pub fn counters(&self) -> Vec<(String, u64)> {
        let c = &self.counts;
        let values = [
            c.positions,
            c.wins,
            c.losses,
            c.draws,
            c.wins_by_rule,
            c.losses_by_rule,
            u64::from(self.longest_red_win_plies),
            u64::from(self.longest_black_win_plies),
        ];
        Stats::COUNTERS.iter().zip(values).map(|(n, v)| ((*n).to_string(), v)).collect()
    }

    /// The statistics from a table file's counters; `None` when one is missing or too large.
    #[must_use]
    pub fn from_counters(counter: impl Fn(&str) -> Option<u64>) -> Option<Stats> {
        let [positions, wins, losses, draws, wins_by_rule, losses_by_rule, red, black] =
            Stats::COUNTERS.map(&counter);
        Some(Stats {
            counts: Counts {
                positions: positions?,
                wins: wins?,
                losses: losses?,
                draws: draws?,
                wins_by_rule: wins_by_rule?,
                losses_by_rule: losses_by_rule?,
                ..Counts::default()
            },
            longest_red_win_plies: u32::try_from(red?).ok()?,
            longest_black_win_plies: u32::try_from(black?).ok()?,
        })
    }
}

/// Counts over the legal positions of one material with one side to move (see
/// [`StatsBySide`]): wins, losses and draws for the side to move, as in [`Stats::counts`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideStats {
    /// Legal positions with this side to move.
    pub positions: u64,
    /// Won by the side to move (by mate, under the rule sets with bans).
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost by the side to move (by mate, under the rule sets with bans).
    pub losses: u64,
    /// Won by the rule (0 under `standard` and `hdu`).
    pub wins_by_rule: u64,
    /// Lost by the rule (0 under `standard` and `hdu`).
    pub losses_by_rule: u64,
    /// The longest win, in plies (0 when there is none).
    pub longest_win_plies: u32,
}

impl SideStats {
    /// Counts `times` positions of category `c`.
    fn add(&mut self, c: Category, times: u64) {
        self.positions += times;
        *match c {
            Category::Win => &mut self.wins,
            Category::Draw => &mut self.draws,
            Category::Loss => &mut self.losses,
            Category::WinByRule => &mut self.wins_by_rule,
            Category::LossByRule => &mut self.losses_by_rule,
        } += times;
    }

    fn merge(self, o: SideStats) -> SideStats {
        SideStats {
            positions: self.positions + o.positions,
            wins: self.wins + o.wins,
            draws: self.draws + o.draws,
            losses: self.losses + o.losses,
            wins_by_rule: self.wins_by_rule + o.wins_by_rule,
            losses_by_rule: self.losses_by_rule + o.losses_by_rule,
            longest_win_plies: self.longest_win_plies.max(o.longest_win_plies),
        }
    }
}

/// [`Stats`] for each side to move: no table file's header holds them, so they are counted
/// from the values (every block of a table's WDL file read once).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StatsBySide {
    /// The positions with Red to move.
    pub red: SideStats,
    /// The positions with Black to move.
    pub black: SideStats,
}

impl StatsBySide {
    /// The statistics of the colour twin material: Red's and Black's swapped (each position
    /// stands for its twin, with the colours swapped and the same value for the side to move).
    #[must_use]
    pub const fn colour_twin(self) -> StatsBySide {
        StatsBySide { red: self.black, black: self.red }
    }

    /// Whether the counts of both sides together and the longest wins are those of `stats`.
    #[must_use]
    pub fn agrees_with(&self, stats: &Stats) -> bool {
        let both = self.red.merge(self.black);
        let c = &stats.counts;
        (both.positions, both.wins, both.draws, both.losses, both.wins_by_rule, both.losses_by_rule)
            == (c.positions, c.wins, c.draws, c.losses, c.wins_by_rule, c.losses_by_rule)
            && (self.red.longest_win_plies, self.black.longest_win_plies)
                == (stats.longest_red_win_plies, stats.longest_black_win_plies)
    }

    /// The counts of the legal positions of `index` in disjoint ranges, in parallel, by
    /// category, the longest wins left 0: `open` turns each of `parts` into its range and
    /// what reads it (such as a WDL block read), then `category(opened, p)` gives the
    /// category of each legal `p` of the range (`None`: not counted). The first error of
    /// `open` or `category` is returned.
    pub(crate) fn of_categories<T, R, E: Send>(
        index: &MaterialIndex,
        parts: impl ParallelIterator<Item = T>,
        open: impl Fn(T) -> Result<(Range<usize>, R), E> + Sync,
        category: impl Fn(&R, usize) -> Result<Option<Category>, E> + Sync,
    ) -> Result<StatsBySide, E> {
        let [red, black] = parts
            .map(|part| {
                let (range, opened) = open(part)?;
                let mut sides = [SideStats::default(); 2];
                let mut failed = None;
                index.for_each_legal(range, |p, turn, times| {
                    if failed.is_some() {
                        return;
                    }
                    match category(&opened, p) {
                        Ok(Some(c)) => sides[turn.index()].add(c, times),
                        Ok(None) => {}
                        Err(e) => failed = Some(e),
                    }
                });
                failed.map_or(Ok(sides), Err)
            })
            .try_reduce(|| [SideStats::default(); 2], |[r, b], [r2, b2]| Ok([r.merge(r2), b.merge(b2)]))?;
        Ok(StatsBySide { red, black })
    }

    /// [`StatsBySide::of_categories`] of the values `value(p)` (`None`: a hole), in chunks,
    /// with the longest wins.
    pub(crate) fn of_values(
        index: &MaterialIndex,
        value: impl Fn(usize) -> Option<RuleValue> + Sync,
    ) -> StatsBySide {
        const CHUNK: usize = 1 << 14;
        let n = index.len();
        let chunks = (0..n.div_ceil(CHUNK)).into_par_iter();
        let open = |c: usize| Ok((c * CHUNK..n.min((c + 1) * CHUNK), ()));
        let category = |(): &(), p| Ok::<_, Infallible>(value(p).map(Category::of));
        let mut sides = match StatsBySide::of_categories(index, chunks, open, category) {
            Ok(sides) => sides,
            Err(never) => match never {},
        };
        let stats = Stats::of_legal(index, &value);
        sides.red.longest_win_plies = stats.longest_red_win_plies;
        sides.black.longest_win_plies = stats.longest_black_win_plies;
        sides
    }
}

/// Counts per side to move, by [`Color::index`]: Red's, then Black's.
type Sides = [Counts; 2];

fn merge_sides([red, black]: Sides, [red2, black2]: Sides) -> Sides {
    [red.merge(red2), black.merge(black2)]
}

/// The legal positions of `index` folded in parallel: `add` takes each one into its chunk's
/// `T` (the index, the side to move, how many positions it stands for: 2 unless it is its own
/// mirror image), `merge` joins the chunks' `T`s.
pub(crate) fn fold_legal<T: Default + Send>(
    index: &MaterialIndex,
    add: impl Fn(&mut T, usize, Color, u64) + Sync,
    merge: impl Fn(T, T) -> T + Sync + Send,
) -> T {
    const CHUNK: usize = 1 << 14;
    (0..index.len().div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut folded = T::default();
            let range = c * CHUNK..index.len().min((c + 1) * CHUNK);
            index.for_each_legal(range, |pos, turn, times| add(&mut folded, pos, turn, times));
            folded
        })
        .reduce(T::default, merge)
}
