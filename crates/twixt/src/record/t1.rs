//! T1j's `.T1` records: 13 header lines (`value # comment`), then one move a line.
//!
//! Header lines used: 4 and 5 the players' names, 6 and 7 the board's y and x size in points
//! (24 when blank; they must agree), 10 the starting player (`1`, who plays top-down; blank
//! means 1), 11 the direction of letters (`V`, letters name columns; blank means V), 12 the pie
//! rule (`Y`/`N`; blank leaves it on). Moves: a column letter and a row number from 1 (`e15`,
//! any case), `swap` or `resign`; blank lines are skipped, `#` starts a comment.

use std::fmt::Write as _;

use endgame_core::InputError;
use endgame_core::input::quote;

use super::{Format, Record, RecordMove};
use crate::geometry::Point;
use crate::rules::Move;

const HEADER: usize = 13;

/// The T1 letter of a column: `a`..`z` for 0..=25.
pub(super) fn letter(v: i32) -> Option<char> {
    (0..26).contains(&v).then(|| (b'a' + v as u8) as char)
}

fn field(line: &str) -> &str {
    line.split('#').next().unwrap_or("").trim()
}

pub(super) fn parse(text: &str) -> Result<Record, InputError> {
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() < HEADER {
        return Err(InputError::new(
            format!("line {}", lines.len() + 1),
            format!("expected {HEADER} header lines, found {} lines", lines.len()),
        ));
    }
    let at = |k: usize| format!("line {k}");
    let size = |k: usize| -> Result<i64, InputError> {
        let v = field(lines[k - 1]);
        if v.is_empty() {
            return Ok(24);
        }
        match v.parse::<i64>() {
            Ok(s) if (4..=26).contains(&s) => Ok(s),
            _ => Err(InputError::new(
                at(k),
                format!("expected a board size 4..=26 (points per side), found {}", quote(v)),
            )),
        }
    };
    let (ys, xs) = (size(6)?, size(7)?);
    if ys != xs {
        return Err(InputError::new(at(7), format!("x-size {xs}: expected a square board (y-size is {ys})")));
    }
    if !matches!(field(lines[9]), "" | "1") {
        return Err(InputError::new(
            at(10),
            format!("expected starting player `1`, found {}", quote(field(lines[9]))),
        ));
    }
    if !matches!(field(lines[10]), "" | "V" | "v") {
        return Err(InputError::new(
            at(11),
            format!("expected letter direction `V`, found {}", quote(field(lines[10]))),
        ));
    }
    let swap = match field(lines[11]) {
        "" => None,
        "Y" | "y" => Some(true),
        "N" | "n" => Some(false),
        v => {
            return Err(InputError::new(
                at(12),
                format!("expected the pie rule `Y` or `N`, found {}", quote(v)),
            ));
        }
    };
    let mut record = Record {
        format: Format::T1,
        n: xs - 1,
        players: [field(lines[3]).to_string(), field(lines[4]).to_string()],
        swap,
        moves: Vec::new(),
    };
    for (k, raw) in lines.iter().enumerate().skip(HEADER) {
        let line = k + 1;
        let v = field(raw);
        if v.is_empty() {
            continue;
        }
        let number = record.moves.len() + 1;
        let place = || format!("line {line} (move {number})");
        let mv = match v.to_ascii_lowercase().as_str() {
            "swap" => Move::Swap,
            "resign" => Move::Resign,
            lower => {
                // The first character is the column letter (it may be any character: split after
                // it, not after its first byte).
                let split = lower.chars().next().map_or(0, char::len_utf8);
                let (c, row) = lower.split_at(split);
                let column = i32::from(c.as_bytes()[0]) - i32::from(b'a');
                let row = row.parse::<i32>().ok().filter(|_| row.bytes().all(|b| b.is_ascii_digit()));
                match row {
                    Some(row) if (0..26).contains(&column) => {
                        if i64::from(column) > record.n || row < 1 || i64::from(row) > record.n + 1 {
                            return Err(InputError::new(
                                place(),
                                format!("{} is off the {xs} x {xs} board", quote(v)),
                            ));
                        }
                        Move::Place(Point::new(row - 1, column))
                    }
                    _ => {
                        return Err(InputError::new(
                            place(),
                            format!(
                                "expected a move (column letter and row number like `e15`), `swap` or `resign`, found {}",
                                quote(v)
                            ),
                        ));
                    }
                }
            }
        };
        record.moves.push(RecordMove { mv, line, note: None });
    }
    Ok(record)
}

pub(super) fn write(record: &Record) -> Result<String, InputError> {
    let size = record.n + 1;
    if !(4..=26).contains(&size) {
        return Err(InputError::new(
            "board",
            format!("N = {}: T1 letters name at most 26 points per side", record.n),
        ));
    }
    let yn = |b: bool| if b { "Y" } else { "N" };
    let mut out = String::new();
    let _ = writeln!(out, "# File created by endgame");
    let _ = writeln!(out, "# endgame twixt records, T1j format");
    let _ = writeln!(out, "1 # version of file-format");
    let _ = writeln!(out, "{} # Name of player 1", record.players[0]);
    let _ = writeln!(out, "{} # Name of player 2", record.players[1]);
    let _ = writeln!(out, "{size} # y-size of board");
    let _ = writeln!(out, "{size} # x-size of board");
    let _ = writeln!(out, "H # player 1 human or computer");
    let _ = writeln!(out, "H # player 2 human or computer");
    let _ = writeln!(out, "1 # starting player (1 plays top-down)");
    let _ = writeln!(out, "V # direction of letters");
    let _ = writeln!(out, "{} # pierule?", record.swap.map_or("", yn));
    let _ = writeln!(out, "N # game already over?");
    for (k, m) in record.moves.iter().enumerate() {
        match m.mv {
            Move::Swap => out.push_str("swap\n"),
            Move::Resign => out.push_str("resign\n"),
            Move::Place(p) => match letter(p.y) {
                Some(c) if p.x >= 0 && i64::from(p.x) <= record.n => {
                    let _ = writeln!(out, "{}{}", c.to_ascii_uppercase(), p.x + 1);
                }
                _ => return Err(InputError::new(format!("move {}", k + 1), format!("{p} is off the board"))),
            },
        }
    }
    Ok(out)
}
