//! SGF records as Little Golem exports them (`.tsgf`):
//! `(;FF[4]EV[..]PB[first]PW[second]SZ[24]SO[..];b[dd];r[th];...;r[resign])`.
//!
//! The root node may hold `GM[21]` (other games are refused) and `SZ` (points per side, 24 when
//! absent). Each following node holds one move: `b`/`B` for the first player, `r`/`R` or
//! `w`/`W` for the second; the value is two letters (column, then row; `a` = 0, `A` = 26),
//! `swap` or `resign`, optionally followed by `|annotation` (Little Golem's `|draw` offers).
//! Variations are refused.

use endgame_core::InputError;
use endgame_core::input::quote;

use super::{Format, Record, RecordMove};
use crate::geometry::Point;
use crate::rules::{Color, Move};

/// The SGF letter of a coordinate: `a`..`z` for 0..=25, `A`..`Z` for 26..=51.
pub(super) fn letter(v: i32) -> Option<char> {
    match v {
        0..=25 => Some((b'a' + v as u8) as char),
        26..=51 => Some((b'A' + (v - 26) as u8) as char),
        _ => None,
    }
}

fn value_of(c: u8) -> Option<i32> {
    match c {
        b'a'..=b'z' => Some(i32::from(c - b'a')),
        b'A'..=b'Z' => Some(i32::from(c - b'A') + 26),
        _ => None,
    }
}

struct Reader<'a> {
    text: &'a [u8],
    at: usize,
    line: usize,
    column: usize,
}

impl Reader<'_> {
    fn place(&self) -> String {
        format!("line {}, column {}", self.line, self.column)
    }

    fn error(&self, message: impl Into<String>) -> InputError {
        InputError::new(self.place(), message)
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.at += 1;
        if c == b'\n' {
            self.line += 1;
            self.column = 1;
        } else if c & 0xC0 != 0x80 {
            self.column += 1;
        }
        Some(c)
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.bump();
        }
    }

    fn expect(&mut self, want: u8, what: &str) -> Result<(), InputError> {
        self.skip_space();
        match self.peek() {
            Some(c) if c == want => {
                self.bump();
                Ok(())
            }
            Some(c) => Err(self.error(format!("expected {what}, found {:?}", c as char))),
            None => Err(self.error(format!("expected {what}, found the end of the input"))),
        }
    }

    /// A property value after `[`, up to the closing `]` (with `\` escapes).
    fn value(&mut self) -> Result<String, InputError> {
        let mut bytes = Vec::new();
        loop {
            match self.bump() {
                None => {
                    return Err(
                        self.error("expected `]` closing the property value, found the end of the input")
                    );
                }
                Some(b']') => break,
                Some(b'\\') => match self.bump() {
                    Some(c) => bytes.push(c),
                    None => return Err(self.error("expected a character after `\\`")),
                },
                Some(c) => bytes.push(c),
            }
        }
        // The text is UTF-8 and we split only at ASCII bytes.
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }
}

/// A line and column.
#[derive(Clone, Copy)]
struct Pos {
    line: usize,
    column: usize,
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// A property: identifier, its place, and its values with theirs.
struct Property {
    id: String,
    place: String,
    values: Vec<(Pos, String)>,
}

fn node(r: &mut Reader<'_>) -> Result<Vec<Property>, InputError> {
    let mut props = Vec::new();
    loop {
        r.skip_space();
        match r.peek() {
            Some(c) if c.is_ascii_alphabetic() => {
                let place = r.place();
                let mut id = String::new();
                while let Some(c) = r.peek().filter(u8::is_ascii_alphabetic) {
                    id.push(c as char);
                    r.bump();
                }
                let mut values = Vec::new();
                r.skip_space();
                while r.peek() == Some(b'[') {
                    r.bump();
                    let at = Pos { line: r.line, column: r.column };
                    values.push((at, r.value()?));
                    r.skip_space();
                }
                if values.is_empty() {
                    return Err(r.error(format!("expected `[` with the value of property {id}")));
                }
                props.push(Property { id, place, values });
            }
            _ => return Ok(props),
        }
    }
}

fn parse_move(value: &str, place: &str, size: i64) -> Result<(Move, Option<String>), InputError> {
    let (main, note) = match value.split_once('|') {
        Some((m, n)) => (m, Some(n.to_string())),
        None => (value, None),
    };
    let mv = match main.to_ascii_lowercase().as_str() {
        "swap" => Move::Swap,
        "resign" => Move::Resign,
        _ => {
            let b = main.as_bytes();
            let coords = if b.len() == 2 { value_of(b[0]).zip(value_of(b[1])) } else { None };
            let Some((column, row)) = coords else {
                return Err(InputError::new(
                    place,
                    format!(
                        "expected a point (two letters, column then row), `swap` or `resign`, found {}",
                        quote(main)
                    ),
                ));
            };
            if i64::from(column.max(row)) >= size {
                return Err(InputError::new(
                    place,
                    format!("{} is off the {size} x {size} board", quote(main)),
                ));
            }
            Move::Place(Point::new(row, column))
        }
    };
    Ok((mv, note))
}

pub(super) fn parse(text: &str) -> Result<Record, InputError> {
    let mut r = Reader { text: text.as_bytes(), at: 0, line: 1, column: 1 };
    r.expect(b'(', "`(` opening the SGF game")?;
    r.expect(b';', "`;` opening the root node")?;
    let mut record = Record {
        format: Format::Sgf,
        n: 23,
        players: [String::new(), String::new()],
        swap: None,
        moves: Vec::new(),
    };
    let mut size = 24;
    for p in node(&mut r)? {
        let (at, v) = &p.values[0];
        match p.id.as_str() {
            "GM" if v.trim() != "21" => {
                return Err(InputError::new(
                    at.to_string(),
                    format!("GM[{v}]: expected GM[21], the SGF number of TwixT"),
                ));
            }
            "SZ" => {
                size = match v.trim().parse::<i64>() {
                    Ok(s) if (4..=52).contains(&s) => s,
                    _ => {
                        return Err(InputError::new(
                            at.to_string(),
                            format!("SZ[{v}]: expected a board size 4..=52 (points per side)"),
                        ));
                    }
                };
            }
            "PB" => record.players[0] = v.clone(),
            "PW" | "PR" => record.players[1] = v.clone(),
            _ => {}
        }
    }
    record.n = size - 1;
    loop {
        r.skip_space();
        match r.peek() {
            Some(b';') => {
                r.bump();
                let props = node(&mut r)?;
                let mut found = None;
                for p in props {
                    let color = match p.id.as_str() {
                        "b" | "B" => Color::Black,
                        "r" | "R" | "w" | "W" => Color::White,
                        _ => continue,
                    };
                    if found.is_some() {
                        return Err(InputError::new(p.place, "expected one move per node, found a second"));
                    }
                    let number = record.moves.len() + 1;
                    if color != Color::of_move(number) {
                        return Err(InputError::new(
                            p.place,
                            format!(
                                "move {number}: expected a move of the {} player, found {}",
                                if number % 2 == 1 { "first (b)" } else { "second (r)" },
                                quote(&p.id)
                            ),
                        ));
                    }
                    let (at, v) = &p.values[0];
                    let (mv, note) = parse_move(v, &format!("{at} (move {number})"), size)?;
                    found = Some(RecordMove { mv, line: at.line, note });
                }
                match found {
                    Some(m) => record.moves.push(m),
                    None => return Err(r.error("expected a move (`b[..]` or `r[..]`) in this node")),
                }
            }
            Some(b')') => {
                r.bump();
                break;
            }
            Some(b'(') => return Err(r.error("variations are not supported: expected `;` or `)`")),
            Some(c) => return Err(r.error(format!("expected `;` or `)`, found {:?}", c as char))),
            None => return Err(r.error("expected `)` closing the game, found the end of the input")),
        }
    }
    r.skip_space();
    if r.peek().is_some() {
        return Err(r.error("expected the end of the file after the game"));
    }
    Ok(record)
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

pub(super) fn write(record: &Record) -> Result<String, InputError> {
    let size = record.n + 1;
    if !(4..=52).contains(&size) {
        return Err(InputError::new(
            "board",
            format!("N = {}: SGF letters name at most 52 points per side", record.n),
        ));
    }
    let mut out = format!(
        "(;FF[4]GM[21]SZ[{size}]PB[{}]PW[{}]",
        escape(&record.players[0]),
        escape(&record.players[1])
    );
    for (k, m) in record.moves.iter().enumerate() {
        let who = if k % 2 == 0 { 'b' } else { 'r' };
        let v = match m.mv {
            Move::Swap => "swap".to_string(),
            Move::Resign => "resign".to_string(),
            Move::Place(p) => match (letter(p.y), letter(p.x)) {
                (Some(c), Some(r)) => format!("{c}{r}"),
                _ => return Err(InputError::new(format!("move {}", k + 1), format!("{p} is off the board"))),
            },
        };
        let note = m.note.as_ref().map(|n| format!("|{}", escape(n))).unwrap_or_default();
        out.push_str(&format!(";{who}[{v}{note}]"));
    }
    out.push_str(")\n");
    Ok(out)
}
