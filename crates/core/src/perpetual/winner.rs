//! The winner's move: which move keeps a win by the rule and makes progress, as the ranks
//! say (what a probe plays and what the certificate checks).

use super::Label;
use crate::value::{Ban, RuleValue, Wdl};

/// A move as the winner's choice sees it: its label, the value of the position it leads to
/// for the side to move there, and whether that position is in the same index (a rank of
/// another index means nothing here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move's label.
    pub label: Label,
    /// The value after the move, for the side to move then.
    pub after: RuleValue,
    /// Whether the move stays in the index.
    pub inside: bool,
}

/// The move to play from a position of value `value` among `moves` (in the game's order), as
/// the solution's certificate proves it: for a win by the ban on perpetual chase, a win out
/// of the index or into a result of the ban on perpetual check (the best such), else a check
/// to a smaller progress measure, else the idle move (odd rank) or the chase (even rank) to
/// the smallest rank; for every other value the best move by value (the first of equals),
/// which for a win by the ban on perpetual check is the move to the smallest rank. `None`
/// when there is no move (or, for a broken solution, no move that keeps the win).
#[must_use]
pub fn winning_move(value: RuleValue, moves: &[Choice]) -> Option<usize> {
    let best = |keep: &dyn Fn(&Choice) -> bool| {
        let mut best: Option<(usize, RuleValue)> = None;
        for (k, m) in moves.iter().enumerate() {
            let v = m.after.before_move();
            if keep(m) && best.is_none_or(|(_, b)| v > b) {
                best = Some((k, v));
            }
        }
        best.map(|(k, _)| k)
    };
    let RuleValue::WinByRule(Ban::Chase, rank) = value else { return best(&|_| true) };
    let into_chase_loss = |m: &Choice| m.inside && matches!(m.after, RuleValue::LossByRule(Ban::Chase, _));
    if let Some(k) = best(&|m| m.after.wdl() == Wdl::Loss && !into_chase_loss(m)) {
        return Some(k);
    }
    let smaller = |m: &Choice| matches!(m.after, RuleValue::LossByRule(_, r) if r >> 1 < rank >> 1);
    if let Some(k) = best(&|m| into_chase_loss(m) && m.label == Label::Check && smaller(m)) {
        return Some(k);
    }
    let label = if rank & 1 == 1 { Label::Idle } else { Label::Chase };
    best(&|m| into_chase_loss(m) && m.label == label)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_winner_takes_an_exit_then_a_check_then_the_ranks_kind_of_move() {
        let chase_loss = |r| RuleValue::LossByRule(Ban::Chase, r);
        let inside = |label, after| Choice { label, after, inside: true };
        let moves = [
            inside(Label::Idle, chase_loss(2)),
            inside(Label::Chase, chase_loss(4)),
            inside(Label::Check, chase_loss(20)),
            inside(Label::Check, chase_loss(8)),
        ];
        let win = |r| RuleValue::WinByRule(Ban::Chase, r);
        // A check to a smaller ρ first, whatever the rank's class.
        assert_eq!(winning_move(win(11), &moves), Some(3));
        // No check below: an odd rank plays the idle move, an even one the chase.
        assert_eq!(winning_move(win(7), &moves), Some(0));
        assert_eq!(winning_move(win(6), &moves), Some(1));
        // A win out of the index beats all.
        let mut out = moves.to_vec();
        out.push(Choice { label: Label::Idle, after: chase_loss(0), inside: false });
        assert_eq!(winning_move(win(6), &out), Some(4));
        // Other values: the best by value.
        assert_eq!(winning_move(RuleValue::Draw(None), &moves), Some(0));
    }
}
