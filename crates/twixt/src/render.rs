//! Pictures of a board: ASCII for a terminal, SVG for a browser.
//!
//! Both draw the board the way its record shows it: for the judge format `x` runs to the right
//! and `y` down; for SGF and T1 the record's columns run to the right and its rows down (the
//! engine's frame mirrored, see [`crate::record`]). Black is drawn black, White red (as on
//! Little Golem), the winning path gold.

use std::collections::HashSet;
use std::fmt::Write as _;

use crate::geometry::Point;
use crate::position::Position;
use crate::record::Format;
use crate::rules::Color;

/// The engine point drawn at picture column `col`, row `row`.
fn at(format: Format, col: i32, row: i32) -> Point {
    match format {
        Format::Judge => Point::new(col, row),
        Format::Sgf | Format::T1 => Point::new(row, col),
    }
}

/// The picture position `(col, row)` of an engine point.
fn pos(format: Format, p: Point) -> (i32, i32) {
    match format {
        Format::Judge => (p.x, p.y),
        Format::Sgf | Format::T1 => (p.y, p.x),
    }
}

fn column_label(format: Format, c: i32) -> String {
    match format {
        Format::Judge => (c % 10).to_string(),
        Format::Sgf | Format::T1 => crate::record::column_letter(c),
    }
}

fn row_label(format: Format, r: i32) -> String {
    match format {
        Format::Judge => r.to_string(),
        Format::Sgf => crate::record::column_letter(r),
        Format::T1 => (r + 1).to_string(),
    }
}

/// The largest N drawn in ASCII.
pub const ASCII_MAX_N: i32 = 51;

/// The board in ASCII: `x` Black, `o` White, capitals on the winning path, `.` empty, blank
/// corners. `None` when N is above [`ASCII_MAX_N`].
#[must_use]
pub fn ascii(game: &Position, format: Format) -> Option<String> {
    let n = game.n();
    if n > ASCII_MAX_N {
        return None;
    }
    let path: HashSet<Point> = game.winning_path().unwrap_or_default().into_iter().collect();
    let mut out = String::from("    ");
    for c in 0..=n {
        let _ = write!(out, "{:<2}", column_label(format, c));
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    for r in 0..=n {
        let _ = write!(out, "{:>3} ", row_label(format, r));
        for c in 0..=n {
            let p = at(format, c, r);
            let corner = (c == 0 || c == n) && (r == 0 || r == n);
            let ch = match game.peg_at(p) {
                Some(Color::Black) if path.contains(&p) => 'X',
                Some(Color::White) if path.contains(&p) => 'O',
                Some(Color::Black) => 'x',
                Some(Color::White) => 'o',
                None if corner => ' ',
                None => '.',
            };
            out.push(ch);
            out.push(' ');
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    Some(out)
}

/// The largest width and height of [`svg`]'s picture, in pixels.
pub const MAX_CANVAS: i64 = 4096;

/// The board as an SVG picture: endzone borders, links, pegs, the winning path highlighted;
/// at most [`MAX_CANVAS`] pixels wide and high (bigger boards are scaled down).
#[must_use]
pub fn svg(game: &Position, format: Format) -> String {
    const CELL: i64 = 20;
    const MARGIN: i64 = 30;
    let n = i64::from(game.n());
    let side = 2 * MARGIN + n * CELL;
    let xy = |p: Point| {
        let (c, r) = pos(format, p);
        (MARGIN + i64::from(c) * CELL, MARGIN + i64::from(r) * CELL)
    };
    // The picture's size in pixels: the board's coordinates (20 per point) up to a canvas of
    // 4096 x 4096, then scaled down (N = 2^30 would otherwise ask for 21 gigapixels).
    let px = side.min(MAX_CANVAS);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{px}\" height=\"{px}\" viewBox=\"0 0 {side} {side}\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#f4e9c8\"/>\n"
    );
    // Endzone borders, half a cell inside the outer rows and columns, in the owner's color.
    let lo = MARGIN + CELL / 2;
    let hi = MARGIN + n * CELL - CELL / 2;
    let (black_cols, white_cols) = match format {
        Format::Judge => ("#000", "#c00"),
        Format::Sgf | Format::T1 => ("#c00", "#000"),
    };
    for v in [lo, hi] {
        let _ = writeln!(
            s,
            "<line x1=\"{v}\" y1=\"{lo}\" x2=\"{v}\" y2=\"{hi}\" stroke=\"{black_cols}\" stroke-width=\"2\"/>"
        );
        let _ = writeln!(
            s,
            "<line x1=\"{lo}\" y1=\"{v}\" x2=\"{hi}\" y2=\"{v}\" stroke=\"{white_cols}\" stroke-width=\"2\"/>"
        );
    }
    if n <= 200 {
        for c in 0..=n {
            for r in 0..=n {
                let corner = (c == 0 || c == n) && (r == 0 || r == n);
                if !corner {
                    let (x, y) = (MARGIN + c * CELL, MARGIN + r * CELL);
                    let _ = writeln!(s, "<circle cx=\"{x}\" cy=\"{y}\" r=\"1.5\" fill=\"#999\"/>");
                }
            }
        }
    }
    let path = game.winning_path().unwrap_or_default();
    for w in path.windows(2) {
        let ((x1, y1), (x2, y2)) = (xy(w[0]), xy(w[1]));
        let _ = writeln!(
            s,
            "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"#f0b000\" stroke-width=\"9\" stroke-linecap=\"round\"/>"
        );
    }
    for (link, color) in game.links() {
        let ((x1, y1), (x2, y2)) = (xy(link.from), xy(link.to));
        let stroke = if color == Color::Black { "#000" } else { "#c00" };
        let _ = writeln!(
            s,
            "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"{stroke}\" stroke-width=\"3\"/>"
        );
    }
    let on_path: HashSet<Point> = path.into_iter().collect();
    for (p, color) in game.pegs() {
        let (x, y) = xy(p);
        let fill = if color == Color::Black { "#000" } else { "#c00" };
        let ring = if on_path.contains(&p) { "stroke=\"#f0b000\" stroke-width=\"3\"" } else { "" };
        let _ = writeln!(s, "<circle cx=\"{x}\" cy=\"{y}\" r=\"6\" fill=\"{fill}\" {ring}/>");
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Record;
    use crate::replay::replay;

    fn game(text: &str) -> (Position, Format) {
        let record = Record::parse(text, None).unwrap();
        (replay(&record, record.default_config()).unwrap().position, record.format)
    }

    #[test]
    fn ascii_marks_the_winning_path() {
        let (g, f) = game("4 5\n0 2 2 4 4 2 3 2 2 1\n");
        let expected =
            "    0 1 2 3 4\n  0   . . .\n  1 . . X . .\n  2 X . . o X\n  3 . . . . .\n  4   . o .\n";
        assert_eq!(ascii(&g, f).unwrap(), expected);
    }

    #[test]
    fn records_are_drawn_as_they_show_the_board() {
        // b[bc] is column b, row c: drawn in column 1, row 2 (the engine's (2, 1)).
        let (g, f) = game("(;SZ[5];b[bc])");
        assert_eq!(g.peg_at(Point::new(2, 1)), Some(Color::Black));
        let picture = ascii(&g, f).unwrap();
        assert_eq!(picture.lines().nth(3).unwrap(), "  c . x . . .");
        let svg = svg(&g, f);
        // Column b is x = 30 + 20, row c is y = 30 + 2 * 20.
        assert!(svg.contains("<circle cx=\"50\" cy=\"70\" r=\"6\" fill=\"#000\" />"), "{svg}");
    }

    #[test]
    fn big_boards_have_no_ascii_picture() {
        let g = Position::new(i64::from(ASCII_MAX_N) + 1, crate::Config::POJ).unwrap();
        assert!(ascii(&g, Format::Judge).is_none());
    }

    #[test]
    fn huge_boards_get_a_canvas_of_at_most_4096_pixels() {
        let (g, f) = game("1073741824 1\n5 7\n");
        let picture = svg(&g, f);
        let side = 60 + (1i64 << 30) * 20;
        let head = format!("width=\"4096\" height=\"4096\" viewBox=\"0 0 {side} {side}\"");
        assert!(picture.contains(&head) && picture.len() < 2000, "{picture}");
        assert_eq!(svg_size(&picture), MAX_CANVAS);
        let (g, f) = game("4 1\n1 1\n");
        assert_eq!(svg_size(&svg(&g, f)), 140);
    }

    fn svg_size(svg: &str) -> i64 {
        let at = svg.find("width=\"").unwrap() + 7;
        svg[at..].split('"').next().unwrap().parse().unwrap()
    }
}
