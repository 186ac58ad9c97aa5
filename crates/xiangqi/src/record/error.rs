//! Why a record could not be read: the game (1-based), and the place in it (the move number,
//! the side and the move's text, or the line, or the byte offset of a binary file), with what
//! was expected there.

use std::fmt;

use endgame_core::input::quote;

use crate::rules::color::Color;

/// Where in a record something is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// The whole input (no game found, or an encoding the reader does not know).
    Input,
    /// A line of a text record (1-based).
    Line(usize),
    /// A byte of a binary record (XQF), counted from 0.
    Offset(usize),
    /// A move: its full-move number (1-based, counted from the record's start position: a
    /// record starting with Black to move has `1...` first), the side that moves, the ply
    /// (1 for the record's first move) and the move as the record writes it.
    Move {
        /// The full-move number, 1-based.
        number: usize,
        /// The side that plays it.
        side: Color,
        /// The ply, 1 for the record's first move.
        ply: usize,
        /// The move's text (ICCS for XQF records).
        text: String,
        /// The line of the text record it stands on (`None` for XQF).
        line: Option<usize>,
    },
}

/// A record that could not be read: the game, the place and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The game, 1-based (`None` when the input as a whole is refused).
    pub game: Option<usize>,
    /// Where.
    pub place: Place,
    /// What is wrong and what was expected there.
    pub reason: String,
}

impl RecordError {
    /// An error of the whole input.
    pub(crate) fn input(reason: impl Into<String>) -> RecordError {
        RecordError { game: None, place: Place::Input, reason: reason.into() }
    }
}

impl fmt::Display for RecordError {
    /// `game 2, move 14... (Black, ply 28, line 31) "炮８平５": <reason>`, `game 1, line 3:
    /// <reason>`, `game 1, byte 1024: <reason>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        if let Some(game) = self.game {
            parts.push(format!("game {game}"));
        }
        match &self.place {
            Place::Input => {}
            Place::Line(line) => parts.push(format!("line {line}")),
            Place::Offset(offset) => parts.push(format!("byte {offset}")),
            Place::Move { number, side, ply, text, line } => {
                let dots = if *side == Color::Red { "." } else { "..." };
                let at = match line {
                    Some(line) => format!("{side}, ply {ply}, line {line}"),
                    None => format!("{side}, ply {ply}"),
                };
                parts.push(format!("move {number}{dots} ({at}) {}", quote(text)));
            }
        }
        if parts.is_empty() {
            write!(f, "{}", self.reason)
        } else {
            write!(f, "{}: {}", parts.join(", "), self.reason)
        }
    }
}

impl std::error::Error for RecordError {}
