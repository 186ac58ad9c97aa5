//! `endgame judge hdu1680` and `endgame cheesy solve` from the outside.

use std::io::Write;

use crate::common::{self, endgame, judge_failure, stderr, stdout};

const SAMPLE_IN: &str = include_str!("../../../cheesy/tests/data/sample.in");
const SAMPLE_OUT: &str = include_str!("../../../cheesy/tests/data/sample.out");
const SAMPLE2: &str = "../cheesy/examples/sample2.txt";

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("endgame-cheesy-{}-{name}", std::process::id()));
    std::fs::File::create(&path).unwrap().write_all(text.as_bytes()).unwrap();
    path
}

#[test]
fn judge_answers_the_sample_byte_for_byte() {
    endgame().args(["judge", "hdu1680"]).write_stdin(SAMPLE_IN).assert().success().stdout(SAMPLE_OUT);
}

#[test]
fn judge_bad_input_exits_2_after_the_answers_before() {
    let bad = SAMPLE_IN.replace("3 1\n6 3", "3 1\n6 0");
    let (out, err) = judge_failure("hdu1680", &bad);
    assert_eq!(out, "Black\n");
    assert_eq!(err, "error: case 2, line 21, column 3: expected the pawn's y (1 to 8), found \"0\"\n");
}

#[test]
fn solve_prints_the_winner_and_the_line() {
    let text = stdout(endgame().args(["cheesy", "solve", SAMPLE2]));
    assert!(text.starts_with("8 x 8 board, White to move: White wins in 5 plies.\n"), "{text}");
    assert!(text.contains("5. White K(5,2)x(6,1): win in 1 ply\n"), "{text}");
    assert!(text.ends_with("End: the king has captured the pawn. White wins.\n"), "{text}");
}

#[test]
fn solve_json_parses() {
    let json = common::json(endgame().args(["cheesy", "solve", SAMPLE2, "--to-move", "black", "--json"]));
    assert_eq!(json["to_move"], "Black");
    assert_eq!(json["rows"], 8);
    let plies = json["plies"].as_u64().unwrap();
    assert_eq!(json["line"].as_array().unwrap().len() as u64, plies);
    assert_eq!(json["line"][0]["move"], "P(6,3)-(6,2)");
    assert_eq!(json["board"][5], ".....P..");
}

#[test]
fn solve_bad_file_names_the_place() {
    let path = temp_file("bad.txt", "..P.\n.K.x\n");
    let out = stderr(endgame().args(["cheesy", "solve"]).arg(&path), 2);
    let expected = format!(
        "error: {}: line 2, column 4: expected one of `.`, `D`, `F`, `K`, `P`, `p`, found 'x'\n",
        path.display()
    );
    assert_eq!(out, expected);
    std::fs::remove_file(path).unwrap();
}

#[test]
fn demo_runs() {
    let out = stdout(endgame().arg("demo"));
    assert!(out.contains("Cheesy Chess"));
}
