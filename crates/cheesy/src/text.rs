//! Board files and the printed board.
//!
//! A board file draws the board row by row from the top, one character per field: `.` open,
//! `D` dangerous, `F` forbidden, `K` the king (on an open field), `P` the pawn on an open field,
//! `p` the pawn on a `D` field. All rows have the same length (1 to 64 fields), 1 to 64 rows;
//! trailing spaces and empty lines at the end are ignored.
//!
//! ```text
//! ........
//! ..P....D
//! ........
//! .....F..
//! ..DDD...
//! ..DFDD.K
//! ..DDD...
//! ........
//! ```

use endgame_core::InputError;
use endgame_core::input::strip_bom;

use crate::board::{Board, Field, MAX_SIDE, Square};
use crate::position::{Color, Position, Setup};

/// The place `line L, column C` (both from 1).
fn at(line: usize, column: usize) -> String {
    format!("line {line}, column {column}")
}

/// Reads a board file into a position with `to_move` to move.
///
/// # Errors
/// An [`InputError`] naming the line and column of the first problem.
pub fn parse_position(text: &str, to_move: Color) -> Result<Position, InputError> {
    let lines: Vec<&str> = strip_bom(text).lines().map(str::trim_end).collect();
    let used = lines.iter().rposition(|l| !l.is_empty()).map_or(0, |i| i + 1);
    if used == 0 {
        return Err(InputError::new("line 1", "expected a board row, found an empty file"));
    }
    let max = usize::from(MAX_SIDE);
    let mut fields = Vec::new();
    let mut king: Option<(usize, usize)> = None;
    let mut pawn: Option<(usize, usize, Field)> = None;
    let cols = lines[0].chars().count();
    for (row, line) in lines[..used].iter().enumerate() {
        let n = row + 1;
        if row == max {
            return Err(InputError::new(format!("line {n}"), format!("expected at most {max} rows")));
        }
        let count = line.chars().count();
        if count == 0 {
            return Err(InputError::new(at(n, 1), "expected a board row, found an empty line"));
        }
        for (col, c) in line.chars().enumerate() {
            let column = col + 1;
            if col == max {
                return Err(InputError::new(
                    at(n, column),
                    format!("expected at most {max} fields in a row"),
                ));
            }
            let field = match c {
                'K' => {
                    if let Some((first_line, first_column)) = king {
                        return Err(InputError::new(
                            at(n, column),
                            format!("a second king `K` (the first is at {})", at(first_line, first_column)),
                        ));
                    }
                    king = Some((n, column));
                    Field::Open
                }
                'P' | 'p' => {
                    if let Some((first_line, first_column, _)) = pawn {
                        return Err(InputError::new(
                            at(n, column),
                            format!("a second pawn `{c}` (the first is at {})", at(first_line, first_column)),
                        ));
                    }
                    let field = if c == 'p' { Field::Dangerous } else { Field::Open };
                    pawn = Some((n, column, field));
                    field
                }
                _ => Field::from_char(c).ok_or_else(|| {
                    InputError::new(
                        at(n, column),
                        format!("expected one of `.`, `D`, `F`, `K`, `P`, `p`, found {c:?}"),
                    )
                })?,
            };
            fields.push(field);
        }
        if count != cols {
            return Err(InputError::new(
                at(n, count.min(cols) + 1),
                format!("expected {cols} fields like line 1, found {count}"),
            ));
        }
    }
    let end = format!("line {}", used + 1);
    let (kl, kc) =
        king.ok_or_else(|| InputError::new(end.clone(), "expected a king `K` on the board, found none"))?;
    let (pl, pc, _) =
        pawn.ok_or_else(|| InputError::new(end, "expected a pawn `P` or `p` on the board, found none"))?;
    let board =
        Board::from_top_rows(used, cols, &fields).map_err(|e| InputError::new("line 1", e.to_string()))?;
    // Line l is row y = rows + 1 - l; the sizes are at most 64.
    let square = |line: usize, column: usize| Square::new(column as u8, (used + 1 - line) as u8);
    let setup = Setup { board, king: square(kl, kc), pawn: square(pl, pc), to_move };
    // A drawn king stands on an open field and a drawn pawn on an open or D field, apart.
    Position::from_setup(setup).map_err(|e| InputError::new(at(kl, kc), e.to_string()))
}

/// The board with the pieces, row by row from the top, each row labelled with its `y` and a
/// last line with the last digit of each `x`: `K` the king, `P` the pawn (`p` on a `D` field),
/// `d` a floating dangerous field below the pawn, `F`, `D`, `.` the fields.
#[must_use]
pub fn render(board: &Board, king: Square, pawn: Option<Square>) -> String {
    let label = board.rows().to_string().len();
    let mut out = String::new();
    for y in (1..=board.rows()).rev() {
        out.push_str(&format!("{y:>label$} "));
        for x in 1..=board.cols() {
            let sq = Square::new(x, y);
            let field = board.field(sq);
            out.push(if sq == king {
                'K'
            } else if Some(sq) == pawn {
                if field == Field::Dangerous { 'p' } else { 'P' }
            } else if pawn.is_some_and(|p| board.floating(p).any(|d| d == sq)) && field == Field::Open {
                'd'
            } else {
                field.char()
            });
        }
        out.push('\n');
    }
    out.push_str(&" ".repeat(label + 1));
    for x in 1..=board.cols() {
        out.push(char::from(b'0' + x % 10));
    }
    out.push('\n');
    out
}

/// A position as a board file (the inverse of [`parse_position`], without the side to move).
#[must_use]
pub fn board_file(position: &Position) -> String {
    let board = position.board();
    let placement = position.placement();
    let mut out = String::new();
    for y in (1..=board.rows()).rev() {
        for x in 1..=board.cols() {
            let sq = Square::new(x, y);
            out.push(if sq == placement.king {
                'K'
            } else if sq == placement.pawn {
                if board.field(sq) == Field::Dangerous { 'p' } else { 'P' }
            } else {
                board.field(sq).char()
            });
        }
        out.push('\n');
    }
    out
}
