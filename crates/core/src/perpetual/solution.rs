//! The value of every position under the rule: the plain solution, and a word per plain
//! draw (its result by the rule with its rank, or its draw distance), with the rounds that
//! give the ranks their meaning; and the figures of the solve.

use std::ops::Range;

use rayon::prelude::*;

use super::draw_index::DrawIndex;
use crate::counts::Counts;
use crate::retrograde::{Solution, SolveError};
use crate::value::{Ban, Plies, RuleValue, Value};

/// Figures of one solve under the rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleStats {
    /// Drawn positions of the plain game (non-terminal), the set `D`.
    pub plain_draws: u64,
    /// Rounds of the outer fixpoint (`Z`) of the check stage over all its layers, the last
    /// one of each finding nothing.
    pub rounds: u32,
    /// Attractor passes (`X`) of the check stage in all.
    pub passes: u32,
    /// Draws left after the check stage, the set `D'` of the chase stage (0 when the game
    /// marks no chase).
    pub chase_draws: u64,
    /// Rounds of `Z5` of the chase stage over all its layers, the last one of each finding
    /// nothing.
    pub chase_rounds: u32,
    /// Iterations of `νZ4` of the chase stage in all.
    pub chase_iterations: u32,
    /// Attractor passes (`μZ1`) of the chase stage in all.
    pub chase_passes: u32,
    /// Layers of the check stage, solved one after the other (see
    /// [`PerpetualCheck::layer_size`](super::PerpetualCheck::layer_size)).
    pub layers: u32,
    /// Layers of the chase stage.
    pub chase_layers: u32,
    /// Bytes of the check stage's predecessor lists (0 without lists), which it held with
    /// its state: what a certificate may take besides (see
    /// [`crate::conformance::Lookups::Auto`]).
    pub lists_bytes: u64,
}

/// The largest rank of each productive round, in order: a rank `r` belongs to the first round
/// whose largest rank is at least `r`.
fn round_of(tops: &[u32], rank: u32) -> usize {
    tops.partition_point(|&top| top < rank)
}

/// The payload of a cell of [`RuleSolution`]: a rank, or a draw's distance plus one.
const TAG_SHIFT: u32 = 29;
const PAYLOAD: u32 = (1 << TAG_SHIFT) - 1;
pub(super) const TAG_DRAW: u32 = 0;
const TAG_WIN_CHECK: u32 = 1;
const TAG_LOSS_CHECK: u32 = 2;
const TAG_WIN_CHASE: u32 = 3;
const TAG_LOSS_CHASE: u32 = 4;

pub(super) const fn cell(tag: u32, payload: u32) -> u32 {
    (tag << TAG_SHIFT) | payload
}

/// The cell of a value of `D`, when its rank or distance fits.
pub(super) fn cell_of(value: RuleValue) -> Result<u32, SolveError> {
    let (tag, payload) = match value {
        RuleValue::WinByRule(Ban::Check, r) => (TAG_WIN_CHECK, r),
        RuleValue::LossByRule(Ban::Check, r) => (TAG_LOSS_CHECK, r),
        RuleValue::WinByRule(Ban::Chase, r) => (TAG_WIN_CHASE, r),
        RuleValue::LossByRule(Ban::Chase, r) => (TAG_LOSS_CHASE, r),
        RuleValue::Draw(Some(d)) => (TAG_DRAW, d.0.saturating_add(1)),
        _ => (TAG_DRAW, 0),
    };
    if payload > PAYLOAD { Err(SolveError::DistanceTooLarge) } else { Ok(cell(tag, payload)) }
}

/// The value of a cell.
pub(super) const fn value_of(word: u32) -> RuleValue {
    let payload = word & PAYLOAD;
    match word >> TAG_SHIFT {
        TAG_WIN_CHECK => RuleValue::WinByRule(Ban::Check, payload),
        TAG_LOSS_CHECK => RuleValue::LossByRule(Ban::Check, payload),
        TAG_WIN_CHASE => RuleValue::WinByRule(Ban::Chase, payload),
        TAG_LOSS_CHASE => RuleValue::LossByRule(Ban::Chase, payload),
        _ if payload == 0 => RuleValue::Draw(None),
        _ => RuleValue::Draw(Some(Plies(payload - 1))),
    }
}

/// Tags of a word of [`RuleSolution::every_word`], past those of a cell: a plain win, a plain
/// loss, a hole.
const TAG_WIN: u32 = 5;
const TAG_LOSS: u32 = 6;
const TAG_HOLE: u32 = 7;

/// The word of any position's value (`None` for a hole): its cell ([`cell_of`]) for a draw or a
/// result by the rule, else a plain win or loss or a hole (`None` when a distance or rank does
/// not fit).
fn word_of(value: Option<RuleValue>) -> Option<u32> {
    match value {
        None => Some(cell(TAG_HOLE, 0)),
        Some(RuleValue::Win(d)) => (d.0 <= PAYLOAD).then(|| cell(TAG_WIN, d.0)),
        Some(RuleValue::Loss(d)) => (d.0 <= PAYLOAD).then(|| cell(TAG_LOSS, d.0)),
        Some(v) => cell_of(v).ok(),
    }
}

/// The value of a word of [`RuleSolution::every_word`].
pub(crate) const fn value_of_word(word: u32) -> Option<RuleValue> {
    match word >> TAG_SHIFT {
        TAG_WIN => Some(RuleValue::Win(Plies(word & PAYLOAD))),
        TAG_LOSS => Some(RuleValue::Loss(Plies(word & PAYLOAD))),
        TAG_HOLE => None,
        _ => Some(value_of(word)),
    }
}

/// The value of every position under the rule.
#[derive(Debug)]
pub struct RuleSolution {
    pub(super) plain: Solution,
    /// The positions of `D`: plain draws all ([`RuleSolution::value`] looks here only at
    /// those).
    pub(super) index: DrawIndex,
    /// Per position of `D` (the plain draws): tag and rank or draw distance.
    pub(super) words: Vec<u32>,
    pub(super) stats: RuleStats,
    /// The largest rank of each round of the check stage (see [`round_of`]).
    pub(super) tops: Vec<u32>,
    /// The largest `ρ` of each round of `Z5`, and of `Z3`, of the chase stage.
    pub(super) tops5: Vec<u32>,
    pub(super) tops3: Vec<u32>,
}

impl RuleSolution {
    /// The solution of the plain game (endless play always drawn).
    #[must_use]
    pub fn plain(&self) -> &Solution {
        &self.plain
    }

    /// Figures of the solve.
    #[must_use]
    pub fn stats(&self) -> RuleStats {
        self.stats
    }

    /// Bytes the solution takes: the plain solution, the set of its draws and a word per draw
    /// (as allocated).
    #[must_use]
    pub fn heap_bytes(&self) -> u64 {
        let tops = self.tops.capacity() + self.tops5.capacity() + self.tops3.capacity();
        self.plain.heap_bytes()
            + self.index.heap_bytes()
            + ((self.words.capacity() + tops) * size_of::<u32>()) as u64
    }

    /// The number of indexed positions (holes included).
    #[must_use]
    pub fn len(&self) -> usize {
        self.plain.len()
    }

    /// Whether the index is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.plain.is_empty()
    }

    /// A solution from the value of every position (read from a table file): `n` positions,
    /// `value(p)` for each. Such a solution has no rounds ([`RuleSolution::round`] and
    /// [`RuleSolution::chase_round`] are 0 for every rank) and no figures of a solve; its
    /// values and ranks are what was written.
    ///
    /// # Errors
    /// When `n` exceeds the solver's limits, or a rank or distance does not fit in its cell.
    pub fn from_values(
        n: usize,
        value: impl Fn(usize) -> Option<RuleValue> + Sync,
    ) -> Result<RuleSolution, SolveError> {
        let plain = Solution::from_values_bytes((0..n).map(|p| value(p).map(RuleValue::plain)))?;
        let index = DrawIndex::new(n, |p| {
            matches!(
                value(p),
                Some(RuleValue::Draw(_) | RuleValue::WinByRule(..) | RuleValue::LossByRule(..))
            )
        })?;
        let words = index
            .members()
            .par_iter()
            .map(|&p| cell_of(value(p as usize).unwrap_or(RuleValue::Draw(None))))
            .collect::<Result<Vec<u32>, SolveError>>()?;
        let stats = RuleStats { plain_draws: words.len() as u64, ..RuleStats::default() };
        Ok(RuleSolution {
            plain,
            index,
            words,
            stats,
            tops: Vec::new(),
            tops5: Vec::new(),
            tops3: Vec::new(),
        })
    }

    /// The value of a position for the side to move; `None` for a hole or an index out of range.
    #[must_use]
    pub fn value(&self, pos: usize) -> Option<RuleValue> {
        // The plain value first: only a plain draw can be in `D` (most positions are not,
        // and most moves of the draws lead to none: one look-up for them, not two).
        match self.plain.value(pos) {
            Some(draw @ Value::Draw(_)) => match self.index.index(pos) {
                Some(i) => Some(value_of(self.words[i])),
                None => Some(RuleValue::from(draw)),
            },
            plain => plain.map(RuleValue::from),
        }
    }

    /// The values of the positions of `range` in order (as [`RuleSolution::value`] gives
    /// them), appended to `out`: one sweep, each draw's word the next one (not found by its
    /// rank), for a table written a block at a time. Positions past the index have none.
    pub fn values_into(&self, range: Range<usize>, out: &mut Vec<Option<RuleValue>>) {
        let end = range.end.min(self.len());
        let start = range.start.min(end);
        let mut word = self.index.rank(start);
        out.extend((start..end).map(|pos| match self.plain.value(pos) {
            Some(Value::Draw(_)) if self.index.contains(pos) => {
                word += 1;
                Some(value_of(self.words[word - 1]))
            }
            plain => plain.map(RuleValue::from),
        }));
        out.extend((range.start.max(end)..range.end).map(|_| None));
    }

    /// Every position's value as one word ([`value_of_word`] reads it), for look-ups of one
    /// memory access each where [`RuleSolution::value`] reads the plain value, then for a
    /// plain draw the set of draws and the draw's word (`None` when a distance or rank does
    /// not fit in a word).
    pub(crate) fn every_word(&self) -> Option<Vec<u32>> {
        const BLOCK: usize = 1 << 12;
        let mut words = vec![0u32; self.len()];
        words
            .par_chunks_mut(BLOCK)
            .enumerate()
            .try_for_each_init(Vec::new, |values, (b, chunk)| {
                values.clear();
                self.values_into(b * BLOCK..b * BLOCK + chunk.len(), values);
                for (word, &value) in chunk.iter_mut().zip(values.iter()) {
                    *word = word_of(value)?;
                }
                Some(())
            })
            .map(|()| words)
    }

    /// Every value in index order (`None` for holes).
    pub fn values(&self) -> impl Iterator<Item = Option<RuleValue>> + '_ {
        (0..self.len()).map(|p| self.value(p))
    }

    /// The round of the outer fixpoint of the check stage in which a rank of a result of the
    /// ban on perpetual check was given (0 for the first).
    #[must_use]
    pub fn round(&self, rank: u32) -> usize {
        round_of(&self.tops, rank)
    }

    /// The largest rank given in round `round` of the check stage ([`RuleSolution::round`]),
    /// `None` past the last round: a rank `r` is of round `round` or an earlier one iff
    /// `round` is past the last or `r` is at most this. (The certificate compares rounds by
    /// it, without a search per move.)
    #[must_use]
    pub fn round_top(&self, round: usize) -> Option<u32> {
        self.tops.get(round).copied()
    }

    /// The rounds of `Z5` and of `Z3` (numbered on through the rounds of `Z5`) of the chase
    /// stage in which a rank of a result of the ban on perpetual chase was given.
    #[must_use]
    pub fn chase_round(&self, rank: u32) -> (usize, usize) {
        let rho = rank >> 1;
        (round_of(&self.tops5, rho), round_of(&self.tops3, rho))
    }

    /// Counts over all positions.
    #[must_use]
    pub fn summary(&self) -> Counts {
        Counts::of(self.len(), |p| self.value(p))
    }

    /// A copy with the value of `pos`, a position of `D` (a draw of the plain game), replaced
    /// by `value` (rounds and figures kept): to see a certificate refuse a wrong value.
    ///
    /// `None` when `pos` is not in `D`, or the rank or distance does not fit.
    #[must_use]
    pub fn with_value(&self, pos: usize, value: RuleValue) -> Option<RuleSolution> {
        let i = self.index.index(pos)?;
        let mut words = self.words.clone();
        words[i] = cell_of(value).ok()?;
        let index = DrawIndex::new(self.len(), |p| self.index.index(p).is_some()).ok()?;
        Some(RuleSolution {
            plain: Solution::from_values_bytes(self.plain.values()).ok()?,
            index,
            words,
            stats: self.stats,
            tops: self.tops.clone(),
            tops5: self.tops5.clone(),
            tops3: self.tops3.clone(),
        })
    }

    /// Bytes held besides the plain solution.
    #[must_use]
    pub fn rule_bytes(&self) -> usize {
        self.index.bytes() + self.words.len() * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_hold_every_value() {
        for v in [
            RuleValue::Draw(None),
            RuleValue::Draw(Some(Plies(0))),
            RuleValue::Draw(Some(Plies(PAYLOAD - 1))),
            RuleValue::WinByRule(Ban::Check, PAYLOAD),
            RuleValue::LossByRule(Ban::Check, 0),
            RuleValue::WinByRule(Ban::Chase, 17),
            RuleValue::LossByRule(Ban::Chase, PAYLOAD),
        ] {
            assert_eq!(value_of(cell_of(v).unwrap()), v);
            assert_eq!(value_of_word(word_of(Some(v)).unwrap()), Some(v));
        }
        for v in [None, Some(RuleValue::Win(Plies(0))), Some(RuleValue::Loss(Plies(PAYLOAD)))] {
            assert_eq!(value_of_word(word_of(v).unwrap()), v);
        }
        assert_eq!(word_of(Some(RuleValue::Win(Plies(PAYLOAD + 1)))), None);
        assert_eq!(cell_of(RuleValue::WinByRule(Ban::Chase, PAYLOAD + 1)), Err(SolveError::DistanceTooLarge));
        assert_eq!(cell_of(RuleValue::Draw(Some(Plies(PAYLOAD)))), Err(SolveError::DistanceTooLarge));
    }

    fn any_value() -> impl proptest::strategy::Strategy<Value = Option<RuleValue>> {
        use proptest::prelude::*;
        prop_oneof![
            Just(None),
            (0u32..5).prop_map(|d| Some(RuleValue::Win(Plies(d)))),
            (0u32..5).prop_map(|d| Some(RuleValue::Loss(Plies(d)))),
            Just(Some(RuleValue::Draw(None))),
            (0u32..5).prop_map(|d| Some(RuleValue::Draw(Some(Plies(d))))),
            (0u32..9).prop_map(|r| Some(RuleValue::WinByRule(Ban::Check, r))),
            (0u32..9).prop_map(|r| Some(RuleValue::LossByRule(Ban::Chase, r))),
        ]
    }

    proptest::proptest! {
        /// A range's values in one sweep are those looked up one by one, for ranges starting
        /// anywhere (inside a word of the set of draws or at its start) and running past the
        /// end.
        #[test]
        fn values_into_agrees_with_value(
            values in proptest::collection::vec(any_value(), 0..300),
            cuts in proptest::collection::vec(0usize..320, 2),
        ) {
            let solution = RuleSolution::from_values(values.len(), |p| values[p]).unwrap();
            let (start, end) = (cuts[0].min(cuts[1]), cuts[0].max(cuts[1]));
            let mut out = Vec::new();
            solution.values_into(start..end, &mut out);
            let expected: Vec<_> = (start..end).map(|p| solution.value(p)).collect();
            proptest::prop_assert_eq!(out, expected);
            let mut all = Vec::new();
            solution.values_into(0..values.len(), &mut all);
            proptest::prop_assert_eq!(all, values);
        }
    }
}
