//! PGN as Xiangqi collections write it, read into games: tags (`[Red "..."]`), a `[FEN]`
//! start position, comments `{...}` and `; ...` (kept), variations `( ... )`, NAGs `$n`,
//! escape lines `% ...` (skipped), move numbers `1.` and `1...` (skipped: the moves alternate
//! from the start position's side), results, and several games per file. A game ends at its
//! result or where the next game's tags begin.

use crate::record::error::{Place, RecordError};
use crate::record::notation::{detect, expected, resolve};
use crate::record::{Game, RULES};
use crate::rules::board::Setup;
use crate::rules::color::Color;
use crate::rules::position::Position;

/// The usual start position.
pub(crate) const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";

/// A game as the text has it, before its moves are checked.
#[derive(Default)]
struct RawGame {
    /// Tags with the line each stands on.
    tags: Vec<(String, String, usize)>,
    /// Moves with their lines.
    moves: Vec<(String, usize)>,
    /// Comments, each after that many moves.
    comments: Vec<(usize, String)>,
    result: Option<String>,
}

impl RawGame {
    fn in_movetext(&self) -> bool {
        !self.moves.is_empty() || !self.comments.is_empty() || self.result.is_some()
    }

    fn is_game(&self) -> bool {
        !self.tags.is_empty() || !self.moves.is_empty() || self.result.is_some()
    }
}

/// Characters that separate words of movetext like spaces: whitespace, and the punctuation
/// of text copied from Chinese pages (`炮二平五，马８进７。`).
fn separates(c: char) -> bool {
    c.is_whitespace() || matches!(c, '，' | '。' | '、' | '；' | ',')
}

/// The characters that end a word of movetext.
fn ends_word(c: char) -> bool {
    separates(c) || matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';')
}

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    /// Whether `pos` is at the start of a line.
    line_start: bool,
}

impl Lexer<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        self.line_start = c == '\n';
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    /// Up to (not including) the first character for which `stop` holds.
    fn take_until(&mut self, stop: impl Fn(char) -> bool) -> &str {
        let start = self.pos;
        while self.peek().is_some_and(|c| !stop(c)) {
            self.bump();
        }
        &self.text[start..self.pos]
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(|c| c.is_whitespace() && c != '\n') {
            self.bump();
        }
    }
}

fn error(game: usize, line: usize, reason: impl Into<String>) -> RecordError {
    RecordError { game: Some(game), place: Place::Line(line), reason: reason.into() }
}

/// A tag, `[Name "value"]`, its `[` already read.
fn tag(lx: &mut Lexer<'_>, game: usize) -> Result<(String, String), RecordError> {
    let line = lx.line;
    lx.skip_spaces();
    let name = lx.take_until(|c| !(c.is_alphanumeric() || c == '_')).to_string();
    if name.is_empty() {
        return Err(error(game, line, "expected a tag name after '[', like [Event \"...\"]"));
    }
    lx.skip_spaces();
    if lx.bump() != Some('"') {
        return Err(error(game, line, format!("tag {name}: expected its value in double quotes")));
    }
    let mut value = String::new();
    loop {
        match lx.bump() {
            Some('"') => break,
            Some('\\') => match lx.bump() {
                Some(c @ ('"' | '\\')) => value.push(c),
                Some(c) => {
                    value.push('\\');
                    value.push(c);
                }
                None => break,
            },
            Some('\n') | None => {
                return Err(error(game, line, format!("tag {name}: the value's closing '\"' is missing")));
            }
            Some(c) => value.push(c),
        }
    }
    lx.skip_spaces();
    if lx.bump() != Some(']') {
        return Err(error(game, line, format!("tag {name}: expected ']' after the value")));
    }
    Ok((name, value))
}

/// Skips a variation, its `(` already read, up to its matching `)`.
fn variation(lx: &mut Lexer<'_>, game: usize) -> Result<(), RecordError> {
    let line = lx.line;
    let mut depth = 1usize;
    while depth > 0 {
        match lx.bump() {
            Some('(') => depth += 1,
            Some(')') => depth -= 1,
            Some('{') => {
                lx.take_until(|c| c == '}');
                if lx.bump().is_none() {
                    return Err(error(game, line, "a comment inside this variation is not closed by '}'"));
                }
            }
            Some(';') => {
                lx.take_until(|c| c == '\n');
            }
            Some(_) => {}
            None => return Err(error(game, line, "the variation opened here is not closed by ')'")),
        }
    }
    Ok(())
}

/// A word of movetext that is a result.
fn is_result(word: &str) -> bool {
    matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*" | "½-½")
}

/// The move in a word of movetext, without its move number (`1.`, `12...`, `1.h2e2`), or
/// `None` for a word that is only a move number or dots.
fn move_text(word: &str) -> Option<&str> {
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let after = &word[digits..];
    let rest = after.trim_start_matches('.');
    if rest.len() == after.len() {
        // No dot after the digits (or no digits): a move such as WXF's `3+.4`, or dots.
        return if word.trim_matches('.').is_empty() { None } else { Some(word) };
    }
    match rest.chars().count() {
        0 => None,
        // `33.4` (WXF: the middle Soldier of file 3 to file 4) is a move, not `33.` and `4`.
        1 => Some(word),
        _ => Some(rest),
    }
}

/// The games of a PGN text, as written.
fn lex(text: &str) -> Result<Vec<RawGame>, RecordError> {
    let mut lx = Lexer { text, pos: 0, line: 1, line_start: true };
    let mut games: Vec<RawGame> = Vec::new();
    let mut game = RawGame::default();
    let finish = |games: &mut Vec<RawGame>, game: &mut RawGame| {
        let done = std::mem::take(game);
        if done.is_game() {
            games.push(done);
        }
    };
    while let Some(c) = lx.peek() {
        let number = games.len() + 1;
        let line = lx.line;
        match c {
            _ if separates(c) => {
                lx.bump();
            }
            '%' if lx.line_start => {
                lx.take_until(|c| c == '\n');
            }
            '[' => {
                if game.in_movetext() {
                    finish(&mut games, &mut game);
                }
                lx.bump();
                let number = games.len() + 1;
                let (name, value) = tag(&mut lx, number)?;
                game.tags.push((name, value, line));
            }
            '{' => {
                lx.bump();
                let comment = lx.take_until(|c| c == '}').trim().to_string();
                if lx.bump().is_none() {
                    return Err(error(number, line, "the comment opened here is not closed by '}'"));
                }
                game.comments.push((game.moves.len(), comment));
            }
            ';' => {
                lx.bump();
                let comment = lx.take_until(|c| c == '\n').trim().to_string();
                game.comments.push((game.moves.len(), comment));
            }
            '(' => {
                lx.bump();
                variation(&mut lx, number)?;
            }
            ')' | ']' | '}' => {
                return Err(error(number, line, format!("unexpected '{c}': nothing opened it")));
            }
            '$' => {
                lx.bump();
                lx.take_until(|c| !c.is_ascii_digit());
            }
            _ => {
                let word = lx.take_until(ends_word);
                if is_result(word) {
                    game.result = Some(word.replace('½', "1/2"));
                    finish(&mut games, &mut game);
                } else if let Some(mv) = move_text(word) {
                    game.moves.push((mv.to_string(), line));
                }
            }
        }
    }
    finish(&mut games, &mut game);
    Ok(games)
}

/// The start position of a `[FEN]` tag. Letters of other systems are read too: `H`/`E` for
/// the Horse and Elephant, `r` for Red to move.
fn start(fen: &str) -> Result<Position, String> {
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if let Some(board) = fields.first_mut() {
        *board = board
            .chars()
            .map(|c| match c {
                'H' => 'N',
                'h' => 'n',
                'E' => 'B',
                'e' => 'b',
                c => c,
            })
            .collect();
    }
    if fields.get(1).is_some_and(|t| t == "r") {
        fields[1] = "w".to_string();
    }
    let setup: Setup = fields.join(" ").parse().map_err(|e| format!("FEN tag: {e}"))?;
    let position = Position::from_setup(setup).map_err(|e| format!("FEN tag: {e}"))?;
    position.check(RULES).map_err(|e| format!("FEN tag: {e}"))?;
    Ok(position)
}

/// The place of the `ply`-th move (0-based) of a game starting with `first` to move.
pub(crate) fn move_place(first: Color, ply: usize, text: &str, line: Option<usize>) -> Place {
    let offset = usize::from(first == Color::Black);
    let side = if (ply + offset).is_multiple_of(2) { Color::Red } else { Color::Black };
    Place::Move { number: (ply + offset) / 2 + 1, side, ply: ply + 1, text: text.to_string(), line }
}

/// Checks a game's moves against the rules.
fn check(raw: RawGame, number: usize) -> Result<Game, RecordError> {
    let fen = raw.tags.iter().find(|(name, _, _)| name.eq_ignore_ascii_case("FEN"));
    let start = match fen {
        Some((_, fen, line)) => start(fen).map_err(|e| error(number, *line, e))?,
        None => start(START_FEN).map_err(|e| error(number, 1, e))?,
    };
    let mut notation = None;
    let mut position = start;
    let mut moves = Vec::with_capacity(raw.moves.len());
    for (ply, (text, line)) in raw.moves.iter().enumerate() {
        let at = || RecordError {
            game: Some(number),
            place: move_place(start.turn(), ply, text, Some(*line)),
            reason: String::new(),
        };
        let notation = *notation.get_or_insert(detect(text).ok_or_else(|| RecordError {
            reason: "expected a move in ICCS (h2e2), WXF (C2.5) or Chinese notation (炮二平五)".to_string(),
            ..at()
        })?);
        let mv = resolve(&position, text, notation).map_err(|reason| {
            let reason = match detect(text) {
                Some(other) if other != notation => {
                    format!(
                        "expected {}, as the game's first move (found one in {})",
                        expected(notation),
                        other.label()
                    )
                }
                _ => reason,
            };
            RecordError { reason, ..at() }
        })?;
        position = position.play_unchecked(mv);
        moves.push(mv);
    }
    Ok(Game {
        tags: raw.tags.into_iter().map(|(name, value, _)| (name, value)).collect(),
        start,
        moves,
        comments: raw.comments,
        result: raw.result,
        notation,
    })
}

/// The games of a PGN text.
pub(crate) fn read(text: &str) -> Result<Vec<Game>, RecordError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    lex(text)?.into_iter().enumerate().map(|(i, raw)| check(raw, i + 1)).collect()
}
