//! The battle file format of `endgame marine solve`.
//!
//! ```text
//! zZ...
//! ####.
//! ..M#.
//! .##..
//! .....
//!
//! M 15
//! Z 15
//! z 15
//! ```
//!
//! First the map: rows of equal width without spaces, `#` or `1` a wall, `.` or `0` floor,
//! `M` the marine, any other ASCII letter a zergling (each letter at most once, up to
//! [`MAX_ZERGLINGS`](crate::MAX_ZERGLINGS)). Then, after an optional blank line, the hit
//! points: a line `M <hp>` and a line `<letter> <hp>` for every zergling, or one line
//! `<marine hp> <zergling hp>` that gives every zergling the same. A contest case (`1`
//! walls, `0` floor, `m z` below) is therefore a battle file too.

use std::fmt;
use std::str::FromStr;

use endgame_core::InputError;
use endgame_core::input::{quote, strip_bom};

use crate::map::{Cell, MAX_CELLS, Map};
use crate::setup::{Battle, Setup, Unit};

fn at(line: usize, col: usize) -> String {
    format!("line {line}, column {col}")
}

/// A number in `1..=max` at (`line`, `col`).
fn hit_points(token: &str, max: u32, line: usize, col: usize, what: &str) -> Result<u32, InputError> {
    match token.parse::<u32>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(InputError::new(
            at(line, col),
            format!("expected {what} hit points 1..={max}, found {}", quote(token)),
        )),
    }
}

/// Splits a line into tokens with their (1-based, in characters) columns.
pub(crate) fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (col, (i, ch)) in line.char_indices().enumerate() {
        match (ch.is_whitespace(), start) {
            (false, None) => start = Some((col + 1, i)),
            (true, Some((c, s))) => {
                out.push((c, &line[s..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((c, s)) = start {
        out.push((c, &line[s..]));
    }
    out
}

impl FromStr for Battle {
    type Err = InputError;

    fn from_str(text: &str) -> Result<Battle, InputError> {
        let lines: Vec<&str> = strip_bom(text).lines().map(str::trim_end).collect();
        let mut i = lines.iter().position(|l| !l.is_empty()).unwrap_or(lines.len());
        // The map.
        let first = i;
        let mut wall = Vec::new();
        let mut marine = None;
        let mut units: Vec<(char, Cell, usize, usize)> = Vec::new();
        let mut cols = 0;
        while i < lines.len() && !lines[i].is_empty() && !lines[i].contains(char::is_whitespace) {
            let row = i - first;
            let width = lines[i].chars().count();
            if row == 0 {
                cols = width;
            } else if width != cols {
                return Err(InputError::new(
                    format!("line {}", i + 1),
                    format!("expected a map row of {cols} cells like the first, found {width}"),
                ));
            }
            for (c, ch) in lines[i].chars().enumerate() {
                let cell = row * cols + c;
                if cell >= MAX_CELLS {
                    return Err(InputError::new(
                        at(i + 1, c + 1),
                        format!("a map has at most {MAX_CELLS} cells"),
                    ));
                }
                wall.push(matches!(ch, '#' | '1'));
                match ch {
                    '#' | '1' | '.' | '0' => {}
                    'M' if marine.is_some() => {
                        return Err(InputError::new(
                            at(i + 1, c + 1),
                            "expected one marine 'M', found a second",
                        ));
                    }
                    'M' => marine = Some(Cell(cell as u8)),
                    _ if ch.is_ascii_alphabetic() => {
                        if units.iter().any(|u| u.0 == ch) {
                            return Err(InputError::new(
                                at(i + 1, c + 1),
                                format!("zergling '{ch}' appears twice"),
                            ));
                        }
                        units.push((ch, Cell(cell as u8), i + 1, c + 1));
                    }
                    _ => {
                        return Err(InputError::new(
                            at(i + 1, c + 1),
                            format!(
                                "expected '#' or '1' (wall), '.' or '0' (floor), 'M' or a letter, found {ch:?}"
                            ),
                        ));
                    }
                }
            }
            i += 1;
        }
        let rows = i - first;
        if rows == 0 {
            return Err(InputError::new(format!("line {}", first + 1), "expected the map's first row"));
        }
        let Some(marine) = marine else {
            return Err(InputError::new(
                format!("lines {}-{}", first + 1, i),
                "expected the marine 'M' on the map",
            ));
        };
        if units.is_empty() {
            return Err(InputError::new(
                format!("lines {}-{}", first + 1, i),
                "expected a zergling (a letter) on the map",
            ));
        }
        let map = Map::new(rows, cols, wall)
            .map_err(|e| InputError::new(format!("lines {}-{}", first + 1, i), e.to_string()))?;
        // The hit points.
        let mut marine_hp = None;
        let mut hp: Vec<Option<u8>> = vec![None; units.len()];
        let mut shorthand = false;
        for (n, line) in lines.iter().enumerate().skip(i) {
            let tokens = tokens(line);
            let Some(&(col, name)) = tokens.first() else { continue };
            if shorthand {
                return Err(InputError::new(at(n + 1, col), "expected nothing after the hit points"));
            }
            if tokens.len() != 2 {
                return Err(InputError::new(
                    at(n + 1, col),
                    "expected `<letter> <hit points>` or `<marine hp> <zergling hp>`",
                ));
            }
            let (value_col, value) = tokens[1];
            if name.bytes().all(|b| b.is_ascii_digit())
                && marine_hp.is_none()
                && hp.iter().all(Option::is_none)
            {
                marine_hp = Some(hit_points(name, u16::MAX.into(), n + 1, col, "the marine's")? as u16);
                let z = hit_points(value, u8::MAX.into(), n + 1, value_col, "the zerglings'")? as u8;
                hp.fill(Some(z));
                shorthand = true;
                continue;
            }
            if name == "M" {
                if marine_hp.is_some() {
                    return Err(InputError::new(at(n + 1, col), "the marine's hit points are given twice"));
                }
                marine_hp =
                    Some(hit_points(value, u16::MAX.into(), n + 1, value_col, "the marine's")? as u16);
                continue;
            }
            let Some(k) = units.iter().position(|u| u.0.to_string() == name) else {
                return Err(InputError::new(
                    at(n + 1, col),
                    format!("expected 'M' or a zergling of the map, found {}", quote(name)),
                ));
            };
            if hp[k].is_some() {
                return Err(InputError::new(
                    at(n + 1, col),
                    format!("zergling '{name}' has its hit points twice"),
                ));
            }
            hp[k] =
                Some(hit_points(value, u8::MAX.into(), n + 1, value_col, &format!("zergling '{name}''s"))?
                    as u8);
        }
        let end = format!("line {}", lines.len() + 1);
        let Some(marine_hp) = marine_hp else {
            return Err(InputError::new(end, "expected the marine's hit points: `M <hp>`"));
        };
        let mut zerglings = Vec::new();
        for (u, hp) in units.iter().zip(hp) {
            let Some(hp) = hp else {
                return Err(InputError::new(
                    end,
                    format!("expected zergling '{}''s hit points: `{} <hp>`", u.0, u.0),
                ));
            };
            zerglings.push(Unit { label: u.0, cell: u.1, hp });
        }
        Battle::new(Setup { map, marine, marine_hp, zerglings })
            .map_err(|e| InputError::new(format!("lines {}-{}", first + 1, first + rows), e.to_string()))
    }
}

/// The battle in the file format (`#` walls, `.` floor, one hit point line per unit).
impl fmt::Display for Battle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let start = self.start();
        for row in self.board(&start) {
            writeln!(f, "{row}")?;
        }
        writeln!(f)?;
        writeln!(f, "M {}", start.hp)?;
        for (z, label) in start.zerglings().iter().zip(self.labels()) {
            writeln!(f, "{label} {}", z.hp)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_contest_sample_is_a_battle_file() {
        let b: Battle = "zZ000\n11110\n00M10\n01100\n00000\n15 15\n".parse().unwrap();
        assert_eq!(b.labels(), ['z', 'Z']);
        assert_eq!(b.start().hp, 15);
        assert_eq!(b.to_string(), "zZ...\n####.\n..M#.\n.##..\n.....\n\nM 15\nz 15\nZ 15\n");
        let again: Battle = b.to_string().parse().unwrap();
        assert_eq!(again, b);
    }

    #[test]
    fn errors_name_the_place() {
        let err = |s: &str| s.parse::<Battle>().unwrap_err().to_string();
        assert_eq!(
            err("M.a\n..\nM 3\na 1\n"),
            "line 2: expected a map row of 3 cells like the first, found 2"
        );
        assert_eq!(
            err("M.a\n.?.\nM 3\na 1\n"),
            "line 2, column 2: expected '#' or '1' (wall), '.' or '0' (floor), 'M' or a letter, found '?'"
        );
        assert_eq!(
            err("M.a\n\nM 3\na 0\n"),
            "line 4, column 3: expected zergling 'a''s hit points 1..=255, found \"0\""
        );
        assert_eq!(err("M.a\n\nM 3\n"), "line 4: expected zergling 'a''s hit points: `a <hp>`");
        assert_eq!(
            err("M.a\n\nM 3\nb 2\n"),
            "line 4, column 1: expected 'M' or a zergling of the map, found \"b\""
        );
        assert_eq!(err("..a\n\nM 3\n"), "lines 1-1: expected the marine 'M' on the map");
        assert_eq!(err("Mabcdefgh\n\n3 3\n"), "lines 1-1: expected at most 7 zerglings, found 8");
        assert!("Mabcdefg\n\n3 3\n".parse::<Battle>().is_ok());
        assert_eq!(err("M.a\n\n3 3\nM 2\n"), "line 4, column 1: expected nothing after the hit points");
    }
}
