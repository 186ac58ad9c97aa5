//! Xiangqi FEN, as Pikafish writes it: ranks 9 down to 0 separated by `/`, each from file `a`
//! to `i` with digits for runs of empty points and letters `K A B N R C P` (upper case Red,
//! lower case Black); then the side to move, `w` (Red) or `b` (Black). The trailing fields
//! (`- - 0 1`) are optional; when present they must be `-`, `-` and two move counters.
//!
//! `4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1`: the two Generals alone, Red to move.

use endgame_core::input::quote;
use std::fmt;
use std::str::FromStr;

use crate::rules::board::{Board, Setup, board_fen};
use crate::rules::color::Color;
use crate::rules::piece::Piece;
use crate::rules::square::{File, Rank, Square};

/// Why a FEN could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is empty.
    #[error("empty FEN: expected the board, e.g. 4k4/9/9/9/9/9/9/9/9/4K4 w")]
    Empty,
    /// The board field does not have ten ranks.
    #[error("expected 10 ranks separated by '/', found {0}")]
    RankCount(usize),
    /// A rank does not cover exactly nine files.
    #[error("rank {rank} (the {nth} field of the board) covers {files} files, expected 9")]
    RankWidth {
        /// The rank (9 = the first field of the board).
        rank: u8,
        /// Its position in the board field, 1-based, as an English ordinal.
        nth: String,
        /// How many files it covers.
        files: usize,
    },
    /// A character that is no piece letter and no digit 1-9.
    #[error(
        "rank {rank}: expected a piece letter (K A B N R C P, upper case for Red) or a digit 1-9, found {found:?}"
    )]
    BadChar {
        /// The rank.
        rank: u8,
        /// The character.
        found: char,
    },
    /// The side to move is missing.
    #[error("expected the side to move (w or b) after the board")]
    MissingTurn,
    /// The side to move is not `w` or `b`.
    #[error("expected the side to move, w (Red) or b (Black), found {}", quote(.0))]
    BadTurn(String),
    /// A trailing field is not what Xiangqi FEN has there.
    #[error("field {field}: expected {expected}, found {}", quote(found))]
    BadField {
        /// The field number, 1-based (the board is field 1).
        field: usize,
        /// What belongs there.
        expected: &'static str,
        /// What was found.
        found: String,
    },
    /// More than six fields.
    #[error("expected at most 6 fields (board, side, -, -, halfmove clock, move number), found {0}")]
    TooManyFields(usize),
}

fn ordinal(n: usize) -> String {
    let suffix = match n {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn parse_board(text: &str) -> Result<Board, FenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != Rank::COUNT {
        return Err(FenError::RankCount(ranks.len()));
    }
    let mut board = Board::empty();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = (Rank::COUNT - 1 - i) as u8;
        let mut file = 0usize;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=9).contains(d)) {
                file += d as usize;
            } else if let Some(piece) = Piece::from_char(c) {
                if let (Some(f), Some(r)) = (File::new(file as u8), Rank::new(rank)) {
                    board.set(Square::new(f, r), Some(piece));
                }
                file += 1;
            } else {
                return Err(FenError::BadChar { rank, found: c });
            }
        }
        if file != File::COUNT {
            return Err(FenError::RankWidth { rank, nth: ordinal(i + 1), files: file });
        }
    }
    Ok(board)
}

impl FromStr for Setup {
    type Err = FenError;
    fn from_str(text: &str) -> Result<Setup, FenError> {
        let text = endgame_core::input::strip_bom(text);
        let fields: Vec<&str> = text.split_ascii_whitespace().collect();
        let Some(board_text) = fields.first() else { return Err(FenError::Empty) };
        let board = parse_board(board_text)?;
        let turn = match fields.get(1).copied() {
            None => return Err(FenError::MissingTurn),
            Some("w") => Color::Red,
            Some("b") => Color::Black,
            Some(other) => return Err(FenError::BadTurn(other.to_string())),
        };
        if fields.len() > 6 {
            return Err(FenError::TooManyFields(fields.len()));
        }
        for (i, field) in fields.iter().enumerate().skip(2) {
            let (ok, expected) = match i {
                2 | 3 => (*field == "-", "-"),
                _ => (field.parse::<u32>().is_ok(), "a move counter (a non-negative integer)"),
            };
            if !ok {
                return Err(FenError::BadField { field: i + 1, expected, found: field.to_string() });
            }
        }
        Ok(Setup { board, turn })
    }
}

impl fmt::Display for Setup {
    /// The full six-field FEN, `<board> <w|b> - - 0 1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} - - 0 1", board_fen(&self.board), self.turn.fen_char())
    }
}
