//! Bad input is reported with its place and what was expected; good input round-trips.

use endgame_cheesy::text::{board_file, parse_position};
use endgame_cheesy::{Color, Field, Square, judge};

fn text_error(text: &str) -> String {
    parse_position(text, Color::White).unwrap_err().to_string()
}

#[test]
fn board_files_parse_and_round_trip() {
    let text = "..p.\nF.D.\n.K..\n";
    let position = parse_position(text, Color::Black).unwrap();
    let placement = position.placement();
    assert_eq!(placement.king, Square::new(2, 1));
    assert_eq!(placement.pawn, Square::new(3, 3));
    assert_eq!(placement.to_move, Color::Black);
    assert_eq!(position.board().field(Square::new(3, 3)), Field::Dangerous);
    assert_eq!(position.board().field(Square::new(1, 2)), Field::Forbidden);
    assert_eq!(board_file(&position), text);
    // Trailing spaces, CRLF and empty lines at the end are fine; a 1 x 2 board is a board.
    assert!(parse_position("..p.  \r\nF.D.\r\n.K..\r\n\n\n", Color::White).is_ok());
    assert!(parse_position("KP", Color::White).is_ok());
}

#[test]
fn board_file_errors_name_line_and_column() {
    assert_eq!(text_error(""), "line 1: expected a board row, found an empty file");
    assert_eq!(
        text_error("..P.\n.Kx.\n"),
        "line 2, column 3: expected one of `.`, `D`, `F`, `K`, `P`, `p`, found 'x'"
    );
    assert_eq!(text_error("..P.\n.K.\n"), "line 2, column 4: expected 4 fields like line 1, found 3");
    assert_eq!(text_error("..P.\n.K...\n"), "line 2, column 5: expected 4 fields like line 1, found 5");
    assert_eq!(text_error("..P.\n\n.K..\n"), "line 2, column 1: expected a board row, found an empty line");
    assert_eq!(
        text_error("K.P.\n.K..\n"),
        "line 2, column 2: a second king `K` (the first is at line 1, column 1)"
    );
    assert_eq!(
        text_error("K.P.\n.p..\n"),
        "line 2, column 2: a second pawn `p` (the first is at line 1, column 3)"
    );
    assert_eq!(text_error("..P.\n....\n"), "line 3: expected a king `K` on the board, found none");
    assert_eq!(text_error("....\n.K..\n"), "line 3: expected a pawn `P` or `p` on the board, found none");
    let wide = format!("KP{}\n", ".".repeat(63));
    assert_eq!(text_error(&wide), "line 1, column 65: expected at most 64 fields in a row");
    let tall = format!("KP\n{}", "..\n".repeat(64));
    assert_eq!(text_error(&tall), "line 65: expected at most 64 rows");
    assert!(parse_position(&format!("KP\n{}", "..\n".repeat(63)), Color::White).is_ok());
}

const GOOD_CASE: &str =
    "........\n........\n........\n........\n........\n........\n........\n........\n3 1\n6 3\n";

fn judge_error(input: &str) -> (String, String) {
    let mut out = Vec::new();
    let error = judge::run(input, &mut out).expect_err(input).to_string();
    (String::from_utf8(out).unwrap(), error)
}

#[test]
fn judge_errors_name_case_line_and_column_after_the_answers_before() {
    assert_eq!(
        judge_error("x").1,
        "line 1, column 1: expected the number of cases (an integer >= 0), found \"x\""
    );
    assert_eq!(judge_error("").1, "line 1: expected the number of cases, found the end of the input");
    let two = |second: &str| format!("2\n{GOOD_CASE}{second}");
    let (out, error) = judge_error(&two(&GOOD_CASE.replacen("........", "...X....", 1)));
    assert_eq!(out, "White\n");
    assert_eq!(
        error,
        "case 2, line 12, column 4: expected a field `.`, `D` or `F` in board row 1 of 8, found 'X'"
    );
    let (_, error) = judge_error(&two(&GOOD_CASE.replacen("........", ".......", 1)));
    assert_eq!(error, "case 2, line 12, column 1: expected 8 fields in board row 1 of 8, found 7");
    let (_, error) = judge_error(&two(&GOOD_CASE.replacen("........", ".........", 1)));
    assert_eq!(error, "case 2, line 12, column 9: expected 8 fields in board row 1 of 8, found 9");
    let (_, error) = judge_error(&two(&GOOD_CASE.replace("3 1", "3 9")));
    assert_eq!(error, "case 2, line 20, column 3: expected the king's y (1 to 8), found \"9\"");
    let (_, error) = judge_error(&two(&GOOD_CASE.replace("6 3", "3 1")));
    assert_eq!(error, "case 2, line 21, column 1: king and pawn both start on (3,1)");
    let (_, error) = judge_error(&two(&GOOD_CASE.replacen("........\n3 1", "..D.....\n3 1", 1)));
    assert_eq!(error, "case 2, line 20, column 1: the king must start on a `.` field, but (3,1) is `D`");
    let (_, error) = judge_error(&two(&GOOD_CASE.replacen(
        "........\n........\n........\n3 1",
        ".....F..\n........\n........\n3 1",
        1,
    )));
    assert_eq!(error, "case 2, line 21, column 1: the pawn may not start on the `F` field (6,3)");
    let (out, error) = judge_error(&two(""));
    assert_eq!(out, "White\n");
    assert_eq!(error, "case 2, line 12: expected board row 1 of 8, found the end of the input");
    let (out, error) = judge_error(&format!("1\n{GOOD_CASE}extra"));
    assert_eq!(out, "White\n");
    assert_eq!(error, "line 12, column 1: expected the end of the input after 1 cases, found \"extra\"");
}

#[test]
fn judge_reads_tokens_across_any_whitespace() {
    let mut out = Vec::new();
    judge::run(&format!("1 {}", GOOD_CASE.replace('\n', "  ")), &mut out).unwrap();
    assert_eq!(out, b"White\n");
    let mut out = Vec::new();
    judge::run("0\n", &mut out).unwrap();
    assert!(out.is_empty());
}
