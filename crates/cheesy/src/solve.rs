//! The answer for one position: the winner, the distance in plies and the line of play.
//!
//! The position's reachable placements ([`CheesyGame::for_pawn`]) are solved by the core's
//! retrograde solver; the line follows the best moves (the winner's fastest win, the loser's
//! slowest loss).

use std::sync::atomic::AtomicBool;

use endgame_core::{Retrograde, Solution, SolveError, Successor, Value, main_line};

use crate::board::Square;
use crate::game::CheesyGame;
use crate::position::{Color, Ending, Move, Placement, Position, ending};

/// One move of the line of play and the position after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The move.
    pub mv: Move,
    /// What the move is worth for the side that makes it.
    pub value: Value,
    /// The king's square after the move.
    pub king: Square,
    /// The pawn's square after the move (`None` once captured).
    pub pawn: Option<Square>,
}

/// The exact answer for a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The position's placement.
    pub start: Placement,
    /// Its value for the side to move (a win or a loss: every game ends).
    pub value: Value,
    /// Who wins under optimal play.
    pub winner: Color,
    /// The line of play: the winner wins as fast as possible, the loser loses as slowly as
    /// possible. Its length is the distance in plies.
    pub line: Vec<Ply>,
    /// How the line ends.
    pub ending: Ending,
}

impl Answer {
    /// The distance in plies until the game ends.
    #[must_use]
    pub fn plies(&self) -> u32 {
        self.value.plies().map_or(0, |p| p.0)
    }
}

/// Solves the placements a position can reach.
///
/// # Errors
/// Never for boards of at most 64 x 64 (the solver's limits are far larger).
pub fn solve_reachable(position: &Position) -> Result<(CheesyGame<'_>, Solution), SolveError> {
    solve_reachable_cancellable(position, &AtomicBool::new(false))
}

/// [`solve_reachable`], stopped with [`SolveError::Cancelled`] once `cancel` is set.
///
/// # Errors
/// When `cancel` is set before the solve ends.
pub fn solve_reachable_cancellable<'b>(
    position: &'b Position,
    cancel: &AtomicBool,
) -> Result<(CheesyGame<'b>, Solution), SolveError> {
    let game = CheesyGame::for_pawn(position.board(), position.placement().pawn);
    let solution = Retrograde::new().cancel(cancel).solve_with_unmoves(&game)?;
    Ok((game, solution))
}

/// The side that wins from a value for the side to move.
#[must_use]
pub fn winner_of(value: Value, to_move: Color) -> Color {
    match value {
        Value::Win(_) => to_move,
        Value::Loss(_) => !to_move,
        Value::Draw(_) => unreachable!("the pawn only moves down, so every game ends"),
    }
}

/// The value of a position for the side to move.
///
/// # Errors
/// Never for boards of at most 64 x 64.
pub fn value(position: &Position) -> Result<Value, SolveError> {
    let (game, solution) = solve_reachable(position)?;
    Ok(lookup(&game, &solution, position.placement()))
}

fn lookup(game: &CheesyGame<'_>, solution: &Solution, placement: Placement) -> Value {
    game.index(placement)
        .and_then(|i| solution.value(i))
        .expect("a valid position's placement is in its own region and not a hole")
}

/// The winner, the distance and the line of play.
///
/// # Errors
/// Never for boards of at most 64 x 64.
pub fn solve(position: &Position) -> Result<Answer, SolveError> {
    solve_cancellable(position, &AtomicBool::new(false))
}

/// [`solve()`], stopped with [`SolveError::Cancelled`] once `cancel` is set (the solver reads
/// the flag between chunks of positions and between levels).
///
/// # Errors
/// When `cancel` is set before the answer is known.
pub fn solve_cancellable(position: &Position, cancel: &AtomicBool) -> Result<Answer, SolveError> {
    let (game, solution) = solve_reachable_cancellable(position, cancel)?;
    let start = position.placement();
    let value = lookup(&game, &solution, start);
    let index = game.index(start).expect("checked by lookup");
    let limit = value.plies().map_or(0, |p| p.0 as usize);
    let mut line = Vec::with_capacity(limit);
    let mut last = start;
    let mut captured = false;
    for step in main_line(&game, &solution, index, limit) {
        let (king, pawn) = match step.to {
            Successor::Position(q) => {
                last = game.placement(q);
                (last.king, Some(last.pawn))
            }
            Successor::Known(_) => {
                captured = true;
                let Move::King { to, .. } = step.mv else { unreachable!("only a capture ends the index") };
                (to, None)
            }
        };
        line.push(Ply { mv: step.mv, value: step.value, king, pawn });
    }
    let ending = if captured {
        Ending::Captured
    } else {
        ending(position.board(), last).expect("the main line of a won or lost position ends the game")
    };
    Ok(Answer { start, value, winner: winner_of(value, start.to_move), line, ending })
}

/// Every move of the position with its value for the side to move, best first (empty when the
/// game has ended).
///
/// # Errors
/// Never for boards of at most 64 x 64.
pub fn scored_moves(position: &Position) -> Result<Vec<(Move, Value)>, SolveError> {
    let (game, solution) = solve_reachable(position)?;
    let index = game.index(position.placement()).expect("a valid position is in its own region");
    Ok(endgame_core::scored_moves(&game, &solution, index).into_iter().map(|m| (m.mv, m.value)).collect())
}
