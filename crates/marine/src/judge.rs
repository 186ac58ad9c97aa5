//! The contest format (BZOJ 2205): cases back to back until the end of the input.
//!
//! A case is 5 rows of 5 characters (`1` blocked, anything else passable; `M` the marine, `Z`
//! and `z` the zerglings; trailing spaces are ignored), then `m z`: the marine's hit points
//! (1..=16) and each zergling's (1..=99). Blank lines between cases are skipped. The answer is
//! `WIN` and the fewest rounds on the next line, or `LOSE`, with the limit of 34 rounds.

use std::io::Write;

use endgame_core::input::{quote, strip_bom};
use endgame_core::search::Pruning;
use endgame_core::{InputError, JudgeError};

use crate::map::{Cell, Map};
use crate::setup::{Battle, Setup, Unit};
use crate::solve::DEFAULT_ROUNDS;

/// Side of the contest's square grid.
const SIDE: usize = 5;

/// Reads every case of `input` and writes its answer; the answers of the cases before a bad
/// one are written before the error.
///
/// # Errors
/// A case not in the contest format (the error names the case, line and column), or output
/// that cannot be written.
pub fn run(input: &str, out: &mut dyn Write) -> Result<(), JudgeError> {
    let lines: Vec<&str> = strip_bom(input).lines().collect();
    let mut i = 0;
    let mut case = 0;
    loop {
        while i < lines.len() && lines[i].trim().is_empty() {
            i += 1;
        }
        if i == lines.len() {
            if case == 0 {
                return Err(InputError::new(
                    format!("line {}", i + 1),
                    "expected a case (5 grid rows, then `m z`), found the end of the input",
                )
                .into());
            }
            return Ok(());
        }
        case += 1;
        let battle = read_case(&lines, &mut i, case)?;
        match battle.solve(DEFAULT_ROUNDS, Pruning::ALL).rounds() {
            Some(n) => writeln!(out, "WIN\n{n}")?,
            None => writeln!(out, "LOSE")?,
        }
    }
}

/// One case starting at line `*i` (not blank); leaves `*i` after it.
fn read_case(lines: &[&str], i: &mut usize, case: usize) -> Result<Battle, InputError> {
    let place = |line: usize, col: Option<usize>| match col {
        Some(c) => format!("case {case}, line {}, column {c}", line + 1),
        None => format!("case {case}, line {}", line + 1),
    };
    let mut wall = Vec::with_capacity(SIDE * SIDE);
    let (mut marine, mut big, mut small) = (None, None, None);
    for row in 0..SIDE {
        let Some(line) = lines.get(*i) else {
            return Err(InputError::new(
                place(*i, None),
                format!("expected grid row {} of {SIDE}, found the end", row + 1),
            ));
        };
        let line = line.trim_end();
        let width = line.chars().count();
        if width != SIDE {
            return Err(InputError::new(
                place(*i, None),
                format!("expected grid row {} of {SIDE} characters, found {width}", row + 1),
            ));
        }
        for (col, ch) in line.chars().enumerate() {
            wall.push(ch == '1');
            let slot = match ch {
                'M' => &mut marine,
                'Z' => &mut big,
                'z' => &mut small,
                _ => continue,
            };
            if slot.is_some() {
                return Err(InputError::new(
                    place(*i, Some(col + 1)),
                    format!("expected one '{ch}', found a second"),
                ));
            }
            *slot = Some(Cell((row * SIDE + col) as u8));
        }
        *i += 1;
    }
    let grid = format!("case {case}");
    let (Some(marine), Some(big), Some(small)) = (marine, big, small) else {
        return Err(InputError::new(grid, "expected 'M', 'Z' and 'z' on the grid"));
    };
    while *i < lines.len() && lines[*i].trim().is_empty() {
        *i += 1;
    }
    let Some(line) = lines.get(*i) else {
        return Err(InputError::new(place(*i, None), "expected `m z` (hit points), found the end"));
    };
    let tokens = crate::text::tokens(line);
    if tokens.len() != 2 {
        return Err(InputError::new(
            place(*i, None),
            format!("expected `m z` (two numbers), found {}", quote(line.trim())),
        ));
    }
    let number = |(col, t): (usize, &str), max: u32, what: &str| match t.parse::<u32>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(InputError::new(
            place(*i, Some(col)),
            format!("expected {what} 1..={max}, found {}", quote(t)),
        )),
    };
    let m = number(tokens[0], 16, "the marine's hit points m")?;
    let z = number(tokens[1], 99, "the zerglings' hit points z")?;
    *i += 1;
    let map = Map::new(SIDE, SIDE, wall).map_err(|e| InputError::new(grid.clone(), e.to_string()))?;
    let zerglings =
        vec![Unit { label: 'Z', cell: big, hp: z as u8 }, Unit { label: 'z', cell: small, hp: z as u8 }];
    Battle::new(Setup { map, marine, marine_hp: m as u16, zerglings })
        .map_err(|e| InputError::new(grid, e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(input: &str) -> Result<String, String> {
        let mut out = Vec::new();
        let result = run(input, &mut out);
        let text = String::from_utf8(out).unwrap();
        result.map(|()| text.clone()).map_err(|e| format!("{text}|{e}"))
    }

    #[test]
    fn sample_and_twin() {
        let sample = "zZ000\n11110\n00M10\n01100\n00000\n15 15\n";
        assert_eq!(judge(sample).unwrap(), "WIN\n30\n");
        let twin = sample.replace("15 15", "14 15");
        assert_eq!(judge(&format!("{sample}\n{twin}")).unwrap(), "WIN\n30\nLOSE\n");
        // Trailing spaces and CRLF.
        assert_eq!(judge(&sample.replace('\n', "  \r\n")).unwrap(), "WIN\n30\n");
        // z > 17 cannot be won in 34 rounds.
        assert_eq!(judge(&sample.replace("15 15", "16 18")).unwrap(), "LOSE\n");
    }

    #[test]
    fn empty_input_is_an_error_and_a_byte_order_mark_is_skipped() {
        for empty in ["", "\n\n", "\u{feff}", " \r\n"] {
            let e = judge(empty).unwrap_err();
            assert!(e.starts_with("|line ") && e.ends_with("found the end of the input"), "{e}");
        }
        let sample = "zZ000\n11110\n00M10\n01100\n00000\n15 15\n";
        assert_eq!(judge(&format!("\u{feff}{sample}")).unwrap(), "WIN\n30\n");
        let long = format!("{sample}zZ000\n11110\n00M10\n01100\n00000\n15 {}\n", "7".repeat(1000));
        assert!(judge(&long).unwrap_err().ends_with(&format!("found \"{}\"...", "7".repeat(40))));
    }

    #[test]
    fn bad_cases_name_the_place_after_the_good_answers() {
        let sample = "zZ000\n11110\n00M10\n01100\n00000\n15 15\n";
        let bad = format!("{sample}zZ000\n1111\n00M10\n01100\n00000\n15 15\n");
        assert_eq!(
            judge(&bad).unwrap_err(),
            "WIN\n30\n|case 2, line 8: expected grid row 2 of 5 characters, found 4"
        );
        let bad = sample.replace("15 15", "15 100");
        assert_eq!(
            judge(&bad).unwrap_err(),
            "|case 1, line 6, column 4: expected the zerglings' hit points z 1..=99, found \"100\""
        );
        let bad = sample.replace("zZ", "zM");
        assert_eq!(judge(&bad).unwrap_err(), "|case 1, line 3, column 3: expected one 'M', found a second");
        assert_eq!(
            judge(&sample.replace("15 15\n", "")).unwrap_err(),
            "|case 1, line 6: expected `m z` (hit points), found the end"
        );
    }
}
