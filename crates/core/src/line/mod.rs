//! Reading a solution: every move with its value, the best move, the main line; and in
//! [`perpetual`] the same under the bans on perpetual play.

pub mod perpetual;

use crate::game::{Game, Successor};
use crate::retrograde::Solution;
use crate::value::Value;

/// A move with the value it gives the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoredMove<M> {
    /// The move.
    pub mv: M,
    /// Where it leads.
    pub to: Successor,
    /// The value of making this move, for the side to move before it.
    pub value: Value,
}

/// The value of the position a successor leads to, for the side to move there.
#[must_use]
pub fn successor_value(solution: &Solution, to: Successor) -> Option<Value> {
    match to {
        Successor::Position(q) => solution.value(q),
        Successor::Known(v) => Some(v),
    }
}

/// Every move of a non-terminal position with its value, best first (the shortest win, then
/// draws, then the longest loss). Moves of equal value keep the game's order. Moves into holes
/// (a game bug) are left out.
#[must_use]
pub fn scored_moves<G: Game>(game: &G, solution: &Solution, pos: usize) -> Vec<ScoredMove<G::Move>> {
    let mut moves = Vec::new();
    if game.terminal(pos).is_some() || !game.is_position(pos) {
        return moves;
    }
    game.for_each_move(pos, |mv, to| {
        if let Some(child) = successor_value(solution, to) {
            moves.push(ScoredMove { mv, to, value: child.before_move() });
        }
    });
    moves.sort_by_key(|m| std::cmp::Reverse(m.value));
    moves
}

/// The best move: in a won position the fastest win, in a lost one the slowest loss.
#[must_use]
pub fn best_move<G: Game>(game: &G, solution: &Solution, pos: usize) -> Option<ScoredMove<G::Move>> {
    scored_moves(game, solution, pos).into_iter().next()
}

/// The main line from `pos`: best moves until the game ends, play leaves the index, or
/// `max_plies` moves were made (a draw by endless play never ends by itself; it also stops when
/// a position repeats).
#[must_use]
pub fn main_line<G: Game>(
    game: &G,
    solution: &Solution,
    pos: usize,
    max_plies: usize,
) -> Vec<ScoredMove<G::Move>> {
    let mut line = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut at = pos;
    while line.len() < max_plies && seen.insert(at) {
        let Some(best) = best_move(game, solution, at) else { break };
        line.push(best);
        match best.to {
            Successor::Position(q) => at = q,
            Successor::Known(_) => break,
        }
    }
    line
}
