//! The judge's token format: `N M`, then `M` pairs `x y` in any line layout, then optionally
//! `0 0`. The same reader serves the POJ 2706 judge (many datasets) and replays (one).

use std::fmt::Write as _;

use endgame_core::input::quote;
use endgame_core::{InputError, Tokens};

use super::{Format, Record, RecordMove};
use crate::geometry::Point;
use crate::rules::Move;

/// One dataset: the board and its moves (points as read, each with its line).
pub(crate) struct Dataset {
    /// N.
    pub n: i64,
    /// The line of `N M`.
    pub line: usize,
    /// The moves and their lines.
    pub moves: Vec<(Point, usize)>,
}

fn integer(tokens: &mut Tokens<'_>, place: &dyn Fn(usize) -> String, what: &str) -> Result<i64, InputError> {
    match tokens.next_token() {
        Some((t, line)) => t.parse::<i64>().map_err(|_| {
            InputError::new(place(line), format!("expected {what} (an integer), found {}", quote(t)))
        }),
        None => {
            Err(InputError::new(place(tokens.line()), format!("expected {what}, found the end of the input")))
        }
    }
}

/// Reads dataset number `dataset` (1-based): `None` at the end marker `0 0`. `prefix` names the
/// dataset in errors (`dataset 3, ` or nothing).
pub(crate) fn read_dataset(tokens: &mut Tokens<'_>, prefix: &str) -> Result<Option<Dataset>, InputError> {
    let head = |line: usize| format!("{prefix}line {line}");
    let n = integer(tokens, &head, "the board size N")?;
    let head_line = tokens.line();
    let m = integer(tokens, &head, "the number of moves M")?;
    if n == 0 && m == 0 {
        return Ok(None);
    }
    if m <= 0 || m % 2 == 0 {
        return Err(InputError::new(
            head(head_line),
            format!("M = {m}: expected an odd, positive number of moves (Black moves last)"),
        ));
    }
    let mut moves = Vec::with_capacity(usize::try_from(m).unwrap_or(0).min(1 << 16));
    for k in 1..=m {
        let place = |line: usize| format!("{prefix}move {k} (line {line})");
        let x = integer(tokens, &place, "x")?;
        let line = tokens.line();
        let y = integer(tokens, &place, "y")?;
        let (Ok(x), Ok(y)) = (i32::try_from(x), i32::try_from(y)) else {
            return Err(InputError::new(
                place(line),
                format!("({x},{y}) is off the board (coordinates 0..={n})"),
            ));
        };
        moves.push((Point::new(x, y), line));
    }
    Ok(Some(Dataset { n, line: head_line, moves }))
}

pub(super) fn parse(text: &str) -> Result<Record, InputError> {
    let mut tokens = Tokens::new(text);
    let Some(data) = read_dataset(&mut tokens, "")? else {
        return Err(InputError::new("line 1", "expected a game `N M`, found the end marker `0 0`"));
    };
    // An optional end marker, then nothing.
    let mut rest = tokens.clone();
    if let (Some(("0", _)), Some(("0", _))) = (rest.next_token(), rest.next_token()) {
        tokens = rest;
    }
    if let Some((t, line)) = tokens.next_token() {
        return Err(InputError::new(
            format!("line {line}"),
            format!("expected the end of the record (one game, optionally `0 0`), found {}", quote(t)),
        ));
    }
    Ok(Record {
        format: Format::Judge,
        n: data.n,
        players: [String::new(), String::new()],
        swap: None,
        moves: data
            .moves
            .into_iter()
            .map(|(p, line)| RecordMove { mv: Move::Place(p), line, note: None })
            .collect(),
    })
}

pub(super) fn write(record: &Record) -> Result<String, InputError> {
    let mut out = format!("{} {}\n", record.n, record.moves.len());
    for (k, m) in record.moves.iter().enumerate() {
        let Move::Place(p) = m.mv else {
            return Err(InputError::new(format!("move {}", k + 1), "the judge format has no swap or resign"));
        };
        let _ = writeln!(out, "{} {}", p.x, p.y);
    }
    if record.moves.len().is_multiple_of(2) {
        return Err(InputError::new(
            format!("move {}", record.moves.len()),
            "the judge format needs an odd number of moves (Black moves last)",
        ));
    }
    out.push_str("0 0\n");
    Ok(out)
}
