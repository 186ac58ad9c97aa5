//! HDU 1680 "Cheesy Chess": the contest format.
//!
//! Input: the number of cases, then per case 8 lines of 8 fields (`F`, `D`, `.`, top row
//! first), a line `xk yk` (the king) and a line `xp yp` (the pawn). White moves first.
//! Output: one line per case, `White` or `Black`, the winner.
//!
//! Tokens are separated by any whitespace. The cases are read first; the valid ones before the
//! first bad case are solved (in parallel, each by the fast winner-only search of [`winner`],
//! which the tests check against the retrograde solution), answered in order, and then the bad
//! case is reported.

use std::io::Write;

use endgame_core::input::{quote, strip_bom};
use endgame_core::{InputError, JudgeError, Tokens};
use rayon::prelude::*;

use crate::board::{Board, Field, Square};
use crate::position::{Color, Position, Setup};
use crate::winner::winner;

/// The contest's board size.
pub const SIDE: usize = 8;

/// Reads the input, writes one line per case.
///
/// # Errors
/// The first bad case (after writing the answers before it), or a failed write.
pub fn run(input: &str, out: &mut dyn Write) -> Result<(), JudgeError> {
    let (positions, error) = parse(input);
    let winners: Vec<Color> = positions.par_iter().with_min_len(1024).map(winner).collect();
    let mut text = String::with_capacity(winners.len() * 6);
    for w in winners {
        text.push_str(if w == Color::White { "White\n" } else { "Black\n" });
    }
    out.write_all(text.as_bytes())?;
    match error {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}

/// The positions of the valid cases before the first bad one, and the error of that one.
#[must_use]
pub fn parse(input: &str) -> (Vec<Position>, Option<InputError>) {
    let input = strip_bom(input);
    let mut reader = Reader { text: input, tokens: Tokens::new(input) };
    let mut positions = Vec::new();
    let count = match reader.number(&|| "the number of cases".into(), 0, usize::MAX, None) {
        Ok(n) => n,
        Err(e) => return (positions, Some(e)),
    };
    for case in 1..=count {
        match reader.case(case) {
            Ok(p) => positions.push(p),
            Err(e) => return (positions, Some(e)),
        }
    }
    let error = reader.tokens.next_token().map(|(token, line)| {
        InputError::new(
            reader.place(token, line, None),
            format!("expected the end of the input after {count} cases, found {}", quote(token)),
        )
    });
    (positions, error)
}

struct Reader<'a> {
    text: &'a str,
    tokens: Tokens<'a>,
}

impl<'a> Reader<'a> {
    /// `case N, line L, column C` of a token (a slice of the input).
    fn place(&self, token: &str, line: usize, case: Option<usize>) -> String {
        let offset = token.as_ptr() as usize - self.text.as_ptr() as usize;
        let line_start = self.text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let column = self.text[line_start..offset].chars().count() + 1;
        match case {
            Some(case) => format!("case {case}, line {line}, column {column}"),
            None => format!("line {line}, column {column}"),
        }
    }

    /// The next token; `what` (made only on error) names what was expected.
    fn next(
        &mut self,
        what: &dyn Fn() -> String,
        case: Option<usize>,
    ) -> Result<(&'a str, usize), InputError> {
        self.tokens.next_token().ok_or_else(|| {
            let place = match case {
                Some(case) => format!("case {case}, line {}", self.tokens.line()),
                None => format!("line {}", self.tokens.line()),
            };
            InputError::new(place, format!("expected {}, found the end of the input", what()))
        })
    }

    fn number(
        &mut self,
        what: &dyn Fn() -> String,
        min: usize,
        max: usize,
        case: Option<usize>,
    ) -> Result<usize, InputError> {
        let (token, line) = self.next(what, case)?;
        token.parse::<usize>().ok().filter(|n| (min..=max).contains(n)).ok_or_else(|| {
            let range =
                if max == usize::MAX { format!("an integer >= {min}") } else { format!("{min} to {max}") };
            InputError::new(
                self.place(token, line, case),
                format!("expected {} ({range}), found {}", what(), quote(token)),
            )
        })
    }

    fn case(&mut self, case: usize) -> Result<Position, InputError> {
        let mut fields = Vec::with_capacity(SIDE * SIDE);
        for row in 1..=SIDE {
            let what = || format!("board row {row} of {SIDE}");
            let (token, line) = self.next(&what, Some(case))?;
            let count = token.chars().count();
            for (i, (byte, c)) in token.char_indices().enumerate() {
                let place = || self.place(&token[byte..], line, Some(case));
                if i == SIDE {
                    return Err(InputError::new(
                        place(),
                        format!("expected {SIDE} fields in {}, found {count}", what()),
                    ));
                }
                let Some(field) = Field::from_char(c) else {
                    return Err(InputError::new(
                        place(),
                        format!("expected a field `.`, `D` or `F` in {}, found {c:?}", what()),
                    ));
                };
                fields.push(field);
            }
            if count < SIDE {
                let place = self.place(token, line, Some(case));
                return Err(InputError::new(
                    place,
                    format!("expected {SIDE} fields in {}, found {count}", what()),
                ));
            }
        }
        let board = Board::from_top_rows(SIDE, SIDE, &fields).expect("8 x 8 fields");
        let king_at = self.peek_place(case);
        let king = self.square("king", case)?;
        let pawn_at = self.peek_place(case);
        let pawn = self.square("pawn", case)?;
        let board_field = |sq| board.field(sq);
        if board_field(king) != Field::Open {
            return Err(InputError::new(
                king_at,
                format!("the king must start on a `.` field, but {king} is `{}`", board_field(king)),
            ));
        }
        if board_field(pawn) == Field::Forbidden {
            return Err(InputError::new(pawn_at, format!("the pawn may not start on the `F` field {pawn}")));
        }
        if king == pawn {
            return Err(InputError::new(pawn_at, format!("king and pawn both start on {pawn}")));
        }
        let setup = Setup { board, king, pawn, to_move: Color::White };
        Ok(Position::from_setup(setup).expect("checked above"))
    }

    /// `x y`, both 1 to 8.
    fn square(&mut self, piece: &str, case: usize) -> Result<Square, InputError> {
        let x = self.number(&|| format!("the {piece}'s x"), 1, SIDE, Some(case))?;
        let y = self.number(&|| format!("the {piece}'s y"), 1, SIDE, Some(case))?;
        // Both are at most 8.
        Ok(Square::new(x as u8, y as u8))
    }

    /// The place of the next token (without reading it).
    fn peek_place(&self, case: usize) -> String {
        match self.tokens.clone().next_token() {
            Some((token, line)) => self.place(token, line, Some(case)),
            None => format!("case {case}, line {}", self.tokens.line()),
        }
    }
}
