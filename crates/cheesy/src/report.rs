//! The serialisable answer of a solve (`endgame cheesy solve --json`, the web explorer's API).

use serde::Serialize;

use crate::position::{Move, Position};
use crate::solve::Answer;
use crate::text::render;

/// A solved position: the verdict, the start board and every ply with its board.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Rows of the board.
    pub rows: u8,
    /// Columns of the board.
    pub cols: u8,
    /// The side to move at the start.
    pub to_move: String,
    /// The winner.
    pub winner: String,
    /// Plies to the end with best play.
    pub plies: u32,
    /// The start's value for the side to move.
    pub value: String,
    /// How the line ends.
    pub ending: String,
    /// The start board, top row first, as [`render`] draws it without labels.
    pub board: Vec<String>,
    /// The line of play.
    pub line: Vec<ReportPly>,
}

/// One ply of the line.
#[derive(Clone, Debug, Serialize)]
pub struct ReportPly {
    /// Its number, 1-based.
    pub ply: usize,
    /// Who moves.
    pub side: String,
    /// The move in the text's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The mover's square before (`[x, y]`, 1-based, y from the bottom).
    pub from: [u8; 2],
    /// The mover's square after.
    pub to: [u8; 2],
    /// Whether the king took the pawn.
    pub capture: bool,
    /// The value after the ply for the side that made it.
    pub value: String,
    /// The board after the ply.
    pub board: Vec<String>,
}

/// The rendered board without its coordinate labels, one string per row from the top.
fn rows_of(text: &str, rows: u8) -> Vec<String> {
    let label = rows.to_string().len() + 1;
    text.lines().take(usize::from(rows)).map(|l| l[label..].to_string()).collect()
}

impl Report {
    /// The report of `answer`, the solution of `position`.
    #[must_use]
    pub fn new(position: &Position, answer: &Answer) -> Self {
        let board = position.board();
        let start = position.placement();
        let line = answer
            .line
            .iter()
            .enumerate()
            .map(|(i, ply)| {
                let (from, to, capture) = match ply.mv {
                    Move::King { from, to, capture } => (from, to, capture),
                    Move::Pawn { from, to } => (from, to, false),
                };
                ReportPly {
                    ply: i + 1,
                    side: ply.mv.side().to_string(),
                    mv: ply.mv.to_string(),
                    from: [from.x, from.y],
                    to: [to.x, to.y],
                    capture,
                    value: ply.value.to_string(),
                    board: rows_of(&render(board, ply.king, ply.pawn), board.rows()),
                }
            })
            .collect();
        Report {
            rows: board.rows(),
            cols: board.cols(),
            to_move: start.to_move.to_string(),
            winner: answer.winner.to_string(),
            plies: answer.plies(),
            value: answer.value.to_string(),
            ending: answer.ending.to_string(),
            board: rows_of(&render(board, start.king, Some(start.pawn)), board.rows()),
            line,
        }
    }
}
