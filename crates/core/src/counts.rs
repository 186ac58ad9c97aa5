//! Counts of a table's values: how many positions are won, drawn and lost (by mate and by the
//! rule), the holes, and the longest win and loss.
//!
//! One type for every solver and game: [`Solution::summary`](crate::Solution::summary) and
//! [`RuleSolution::summary`](crate::perpetual::RuleSolution::summary) give one, and a game's
//! own statistics build on it (a game that counts per side to move keeps a [`Counts`] for each
//! side and merges them).

use rayon::prelude::*;

use crate::value::{Ban, RuleValue};

/// Counts of values: each position counted once per [`Counts::add`] (or `times` times per
/// [`Counts::add_times`]), the longest distances kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions with a value (every position counted but the holes).
    pub positions: u64,
    /// Positions won by the side to move by mate (or the game's terminal values).
    pub wins: u64,
    /// Positions lost by the side to move by mate.
    pub losses: u64,
    /// Drawn positions (of either kind).
    pub draws: u64,
    /// Holes in the index.
    pub holes: u64,
    /// Positions won by the rule (draws of the plain game), by either ban.
    pub wins_by_rule: u64,
    /// Positions lost by the rule (draws of the plain game), by either ban.
    pub losses_by_rule: u64,
    /// Of the wins by the rule, those by the ban on perpetual chase.
    pub wins_by_chase: u64,
    /// Of the losses by the rule, those by the ban on perpetual chase.
    pub losses_by_chase: u64,
    /// The longest win by mate (plies), 0 when there is none.
    pub longest_win: u32,
    /// The longest loss by mate (plies), 0 when there is none.
    pub longest_loss: u32,
}

impl Counts {
    /// Counts one position of value `value` (`None`: a hole).
    pub fn add(&mut self, value: Option<RuleValue>) {
        self.add_times(value, 1);
    }

    /// Counts `times` positions of value `value` (`None`: holes), such as the positions that
    /// one index of a symmetric index stands for.
    pub fn add_times(&mut self, value: Option<RuleValue>, times: u64) {
        let Some(value) = value else {
            self.holes += times;
            return;
        };
        self.positions += times;
        match value {
            RuleValue::Win(d) => {
                self.wins += times;
                self.longest_win = self.longest_win.max(d.0);
            }
            RuleValue::Loss(d) => {
                self.losses += times;
                self.longest_loss = self.longest_loss.max(d.0);
            }
            RuleValue::WinByRule(ban, _) => {
                self.wins_by_rule += times;
                self.wins_by_chase += if ban == Ban::Chase { times } else { 0 };
            }
            RuleValue::LossByRule(ban, _) => {
                self.losses_by_rule += times;
                self.losses_by_chase += if ban == Ban::Chase { times } else { 0 };
            }
            RuleValue::Draw(_) => self.draws += times,
        }
    }

    /// The counts of the values `value(p)` of the positions `p` in `0..n`, in parallel.
    #[must_use]
    pub fn of(n: usize, value: impl Fn(usize) -> Option<RuleValue> + Sync) -> Counts {
        (0..n)
            .into_par_iter()
            .with_min_len(1 << 14)
            .fold(Counts::default, |mut counts, p| {
                counts.add(value(p));
                counts
            })
            .reduce(Counts::default, Counts::merge)
    }

    /// The counts of both: sums, and the longer of the longest distances.
    #[must_use]
    pub fn merge(self, o: Counts) -> Counts {
        Counts {
            positions: self.positions + o.positions,
            wins: self.wins + o.wins,
            losses: self.losses + o.losses,
            draws: self.draws + o.draws,
            holes: self.holes + o.holes,
            wins_by_rule: self.wins_by_rule + o.wins_by_rule,
            losses_by_rule: self.losses_by_rule + o.losses_by_rule,
            wins_by_chase: self.wins_by_chase + o.wins_by_chase,
            losses_by_chase: self.losses_by_chase + o.losses_by_chase,
            longest_win: self.longest_win.max(o.longest_win),
            longest_loss: self.longest_loss.max(o.longest_loss),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{Plies, Value};

    #[test]
    fn every_kind_of_value_is_counted_and_merges_add_up() {
        let mut a = Counts::default();
        a.add(Some(RuleValue::Win(Plies(7))));
        a.add(Some(RuleValue::WinByRule(Ban::Chase, 3)));
        a.add(Some(RuleValue::LossByRule(Ban::Check, 3)));
        a.add(None);
        let mut b = Counts::default();
        b.add(Some(Value::Loss(Plies(4)).into()));
        b.add(Some(Value::Win(Plies(2)).into()));
        b.add_times(Some(RuleValue::Draw(None)), 5);
        let both = a.merge(b);
        let expected = Counts {
            positions: 10,
            wins: 2,
            losses: 1,
            draws: 5,
            holes: 1,
            wins_by_rule: 1,
            losses_by_rule: 1,
            wins_by_chase: 1,
            losses_by_chase: 0,
            longest_win: 7,
            longest_loss: 4,
        };
        assert_eq!(both, expected);
        assert_eq!(b.merge(a), expected);
    }
}
