//! Games written as PGN: their tags (the `FEN` tag set to the start position, a `Format` tag
//! naming the notation, as Chinese PGN collections have it), then the moves in the chosen
//! notation with their numbers and comments, lines of at most 80 columns (a Chinese character
//! takes two), and the result.

use std::fmt::Write as _;

use crate::record::notation::write_move;
use crate::record::pgn::START_FEN;
use crate::record::{Game, Notation};
use crate::rules::board::Setup;
use crate::rules::color::Color;

/// A tag value with `\` and `"` escaped, on one line.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"").replace(['\r', '\n'], " ")
}

/// Lines of movetext of at most `WIDTH` columns (a longer word has a line of its own).
struct Lines {
    out: String,
    column: usize,
}

const WIDTH: usize = 80;

/// The columns a text takes in a terminal: Chinese characters and full-width forms take two.
fn columns(text: &str) -> usize {
    text.chars()
        .map(|c| match c {
            '\u{1100}'..='\u{115F}'
            | '\u{2E80}'..='\u{A4CF}'
            | '\u{AC00}'..='\u{D7A3}'
            | '\u{F900}'..='\u{FAFF}' => 2,
            '\u{FE30}'..='\u{FE4F}' | '\u{FF00}'..='\u{FF60}' | '\u{FFE0}'..='\u{FFE6}' => 2,
            '\u{20000}'..='\u{3FFFD}' => 2,
            _ => 1,
        })
        .sum()
}

impl Lines {
    fn word(&mut self, word: &str) {
        let len = columns(word);
        if self.column > 0 && self.column + 1 + len > WIDTH {
            self.out.push('\n');
            self.column = 0;
        }
        if self.column > 0 {
            self.out.push(' ');
            self.column += 1;
        }
        self.out.push_str(word);
        self.column += len;
    }

    fn comment(&mut self, text: &str) {
        // A comment ends at the first '}': one inside it is written as ')'. Its own line breaks
        // are kept, and none is added inside it, so that it reads back as it was.
        let comment = format!("{{{}}}", text.trim().replace('}', ")"));
        match comment.rsplit_once('\n') {
            None => self.word(&comment),
            Some((_, last)) => {
                self.word(&comment);
                self.column = columns(last);
            }
        }
    }
}

/// The games as PGN in `notation`.
pub(crate) fn write(games: &[Game], notation: Notation) -> String {
    let start_fen: Setup = START_FEN.parse().expect("the start FEN");
    let mut out = String::new();
    for (i, game) in games.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let fen = game.start.setup();
        let mut wrote_fen = false;
        for (name, value) in &game.tags {
            if name.eq_ignore_ascii_case("Format") {
                continue;
            }
            let value = if name.eq_ignore_ascii_case("FEN") {
                if wrote_fen {
                    continue;
                }
                wrote_fen = true;
                fen.to_string()
            } else {
                value.clone()
            };
            let _ = writeln!(out, "[{name} \"{}\"]", escape(&value));
        }
        if !wrote_fen && fen != start_fen {
            let _ = writeln!(out, "[FEN \"{fen}\"]");
        }
        let _ = writeln!(out, "[Format \"{}\"]", notation.label());
        out.push('\n');
        let mut lines = Lines { out: String::new(), column: 0 };
        let mut comments = game.comments.iter().peekable();
        let mut position = game.start;
        let offset = usize::from(game.start.turn() == Color::Black);
        for (ply, &mv) in game.moves.iter().enumerate() {
            while let Some((_, text)) = comments.next_if(|(at, _)| *at <= ply) {
                lines.comment(text);
            }
            let number = (ply + offset) / 2 + 1;
            let red = position.turn() == Color::Red;
            let after_comment = ply > 0 && game.comments.iter().any(|(at, _)| *at == ply);
            // Every move of a game was checked when it was read: a piece stands on its origin.
            let text = write_move(&position, mv, notation).unwrap_or_else(|| mv.to_string());
            // A move number stays on the line of its move.
            if red {
                lines.word(&format!("{number}. {text}"));
            } else if ply == 0 || after_comment {
                lines.word(&format!("{number}... {text}"));
            } else {
                lines.word(&text);
            }
            position = position.play_unchecked(mv);
        }
        for (_, text) in comments {
            lines.comment(text);
        }
        let result = game.result.clone().or_else(|| game.tag("Result").map(str::to_string));
        lines.word(result.as_deref().unwrap_or("*"));
        out.push_str(&lines.out);
        out.push('\n');
    }
    out
}
