//! Only the winner, fast: the judge's path.
//!
//! Black's moves are forced (the pawn steps down unless it cannot), so White wins exactly when
//! some line of king moves wins. The search keeps the set of squares the king can stand on
//! with White to move, one pawn step at a time: a capture, or a pawn blocked above the bottom
//! row, from any of them is a win; when the set runs empty (every line got the king stuck) or
//! the pawn reaches home, Black has won. At most `rows` steps over at most `rows * cols`
//! squares, no distances: about a hundred times less work than solving every placement, which
//! [`crate::solve()`] does for the distance and the line. The tests check that both agree.

use crate::board::Field;
use crate::position::{Color, Move, Placement, Position, for_each_king_move, pawn_move};

/// The side that wins from the position under optimal play.
#[must_use]
pub fn winner(position: &Position) -> Color {
    let board = position.board();
    let Placement { king, mut pawn, to_move } = position.placement();
    if to_move == Color::Black {
        match pawn_move(board, king, pawn) {
            Some(Move::Pawn { to, .. }) => pawn = to,
            _ => return if pawn.y == 1 { Color::Black } else { Color::White },
        }
    }
    let mut kings = vec![false; board.len()];
    let mut next = vec![false; board.len()];
    kings[board.index(king)] = true;
    loop {
        // White moves from every square the king may stand on.
        let mut captures = false;
        let mut any = false;
        next.fill(false);
        for (i, _) in kings.iter().enumerate().filter(|(_, here)| **here) {
            for_each_king_move(board, board.square(i), pawn, |mv| {
                if let Move::King { to, capture, .. } = mv {
                    if capture {
                        captures = true;
                    } else {
                        next[board.index(to)] = true;
                        any = true;
                    }
                }
            });
        }
        if captures {
            return Color::White;
        }
        if !any {
            return Color::Black;
        }
        // Black's pawn steps down, unless it cannot.
        let Some(below) = pawn.offset(0, -1) else { return Color::Black };
        if board.field(below) == Field::Forbidden || next[board.index(below)] {
            // Blocked above the bottom row (by F, or by a king that chose to stand there).
            return Color::White;
        }
        pawn = below;
        std::mem::swap(&mut kings, &mut next);
    }
}
