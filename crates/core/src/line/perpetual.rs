//! Reading a solution under the rule: every move with its value, best first, the winner's
//! move of a win by the rule first ([`crate::perpetual::winning_move`]).

use crate::game::Successor;
use crate::perpetual::{Checks, Choice, RuleSolution, winning_move};
use crate::value::RuleValue;

/// A move with the value it gives the side to move, under the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleScoredMove<M> {
    /// The move.
    pub mv: M,
    /// Where it leads.
    pub to: Successor,
    /// The value of making this move, for the side to move before it.
    pub value: RuleValue,
}

/// Every move of a non-terminal position with its value under the rule, best first: the
/// shortest mate, then the move the winner of a win by the rule plays ([`winning_move`]: it
/// keeps the win *and* wins; a move out of the index that wins by the rule counts as rank 0),
/// the other wins by the rule, draws, losses by the rule, the longest loss. Moves of equal
/// value keep the game's order.
#[must_use]
pub fn scored_moves<G: Checks>(
    game: &G,
    solution: &RuleSolution,
    pos: usize,
) -> Vec<RuleScoredMove<G::Move>> {
    let mut moves = Vec::new();
    let mut choices = Vec::new();
    if game.terminal(pos).is_some() || !game.is_position(pos) {
        return moves;
    }
    game.for_each_move(pos, |mv, to| {
        let (child, inside) = match to {
            Successor::Position(q) => (solution.value(q), true),
            // A rank from another solution means nothing here; a move out of the index that
            // wins by the rule wins at once as far as this index is concerned: rank 0.
            Successor::Known(v) => (Some(game.known_by_rule(pos, mv, v).without_rank()), false),
        };
        if let Some(child) = child {
            moves.push(RuleScoredMove { mv, to, value: child.before_move() });
            choices.push(Choice { label: game.label(pos, mv, to), after: child, inside });
        }
    });
    let first = solution.value(pos).and_then(|v| winning_move(v, &choices));
    let mut order: Vec<usize> = (0..moves.len()).collect();
    order.sort_by_key(|&k| (Some(k) != first, std::cmp::Reverse(moves[k].value)));
    order.into_iter().map(|k| moves[k]).collect()
}

/// The best move under the rule (the first of [`scored_moves`]).
#[must_use]
pub fn best_move<G: Checks>(
    game: &G,
    solution: &RuleSolution,
    pos: usize,
) -> Option<RuleScoredMove<G::Move>> {
    scored_moves(game, solution, pos).into_iter().next()
}
