//! Counts over the legal positions of a material ([`Stats`]): wins, losses and draws (and
//! under the bans, wins and losses by the rule), the longest wins, as GamesmanXiangqi counts
//! them; from a solution in memory or written in a table file's header.

use endgame_core::RuleValue;
use rayon::prelude::*;

use crate::rules::color::Color;
use crate::rules::rule_set::Rules;
use crate::tables::index::MaterialIndex;

/// Counts over the legal positions of one material: both sides to move, no symmetry
/// reduction, identical pieces counted once per set of points. Legal: every piece on a point it
/// may stand on, the side not to move not in check (attacked, or the Generals facing each other
/// on an open file).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Legal positions.
    pub positions: u64,
    /// Positions won by the side to move (by mate, under `perpetual-check`).
    pub wins: u64,
    /// Positions lost by the side to move (by mate, under `perpetual-check`).
    pub losses: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions won by the side to move by the perpetual-check rule (`standard` draws; 0
    /// under the other rule sets).
    pub wins_by_rule: u64,
    /// Positions lost by the side to move by the perpetual-check rule (`standard` draws).
    pub losses_by_rule: u64,
    /// The longest win of Red to move, in plies (0 when there is none); as GamesmanXiangqi
    /// counts it, a position with Black to move lost in more plies does not count.
    pub longest_red_win_plies: u32,
    /// The longest win of Black to move, in plies (0 when there is none).
    pub longest_black_win_plies: u32,
}

impl Stats {
    fn add(mut self, turn: Color, value: RuleValue) -> Stats {
        self.positions += 1;
        let d = match value {
            RuleValue::Win(d) => {
                self.wins += 1;
                d.0
            }
            RuleValue::Loss(_) => {
                self.losses += 1;
                return self;
            }
            RuleValue::Draw(_) => {
                self.draws += 1;
                return self;
            }
            RuleValue::WinByRule(..) => {
                self.wins_by_rule += 1;
                return self;
            }
            RuleValue::LossByRule(..) => {
                self.losses_by_rule += 1;
                return self;
            }
        };
        let longest = match turn {
            Color::Red => &mut self.longest_red_win_plies,
            Color::Black => &mut self.longest_black_win_plies,
        };
        *longest = (*longest).max(d);
        self
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

    pub(crate) fn merge(self, o: Stats) -> Stats {
        Stats {
            positions: self.positions + o.positions,
            wins: self.wins + o.wins,
            losses: self.losses + o.losses,
            draws: self.draws + o.draws,
            wins_by_rule: self.wins_by_rule + o.wins_by_rule,
            losses_by_rule: self.losses_by_rule + o.losses_by_rule,
            longest_red_win_plies: self.longest_red_win_plies.max(o.longest_red_win_plies),
            longest_black_win_plies: self.longest_black_win_plies.max(o.longest_black_win_plies),
        }
    }
}

impl Stats {
    /// Counts over the positions of `range` of `index`, with their values from `value`.
    pub(crate) fn count(
        index: &MaterialIndex,
        range: std::ops::Range<usize>,
        value: impl Fn(usize) -> Option<RuleValue>,
    ) -> Stats {
        let mut stats = Stats::default();
        index.for_each_legal(range, |pos, turn, times| {
            if let Some(value) = value(pos) {
                for _ in 0..times {
                    stats = stats.add(turn, value);
                }
            }
        });
        stats
    }
}

impl Stats {
    /// Counts over the positions of `index` whose values `value` gives, `None` for holes, in
    /// parallel: the same as [`Stats::count`] over a table solved under `rules`. A table's
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
        (0..index.len().div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let mut stats = Stats::default();
                for p in c * CHUNK..index.len().min((c + 1) * CHUNK) {
                    if rules == Rules::Hdu && !index.is_legal(p) {
                        continue;
                    }
                    if let Some(v) = value(p) {
                        let turn = MaterialIndex::turn(p);
                        for _ in 0..index.stands_for(p) {
                            stats = stats.add(turn, v);
                        }
                    }
                }
                stats
            })
            .reduce(Stats::default, Stats::merge)
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
        let values = [
            self.positions,
            self.wins,
            self.losses,
            self.draws,
            self.wins_by_rule,
            self.losses_by_rule,
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
            positions: positions?,
            wins: wins?,
            losses: losses?,
            draws: draws?,
            wins_by_rule: wins_by_rule?,
            losses_by_rule: losses_by_rule?,
            longest_red_win_plies: u32::try_from(red?).ok()?,
            longest_black_win_plies: u32::try_from(black?).ok()?,
        })
    }
}
