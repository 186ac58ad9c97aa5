//! `endgame judge marine`, `endgame marine solve` and the marine demo, end to end.

use crate::common::{self, endgame, judge_failure, stderr, stderr_of, stdout, stdout_of};

const SAMPLE: &str = include_str!("../../../marine/tests/data/sample.in");
const TWIN: &str = include_str!("../../../marine/tests/data/twin.in");
const CORNER: &str = "../marine/examples/corner.txt";

#[test]
fn judge_answers_the_sample_and_its_twin_byte_for_byte() {
    let a = endgame().args(["judge", "marine"]).write_stdin(SAMPLE).assert().success();
    assert_eq!(stdout_of(&a), "WIN\n30\n");
    let both = format!("{SAMPLE}{TWIN}");
    let a = endgame().args(["judge", "marine", "-"]).write_stdin(both).assert().success();
    assert_eq!(stdout_of(&a), "WIN\n30\nLOSE\n");
    let a = endgame().args(["judge", "marine", "../marine/tests/data/twin.in"]).assert().success();
    assert_eq!(stdout_of(&a), "LOSE\n");
}

#[test]
fn judge_writes_the_good_answers_then_names_the_bad_place() {
    let bad = format!("{SAMPLE}zZ000\n11110\n00M10\n01100\n00000\n15 x\n");
    let (out, err) = judge_failure("marine", &bad);
    assert_eq!(out, "WIN\n30\n");
    assert_eq!(
        err,
        "error: case 2, line 12, column 4: expected the zerglings' hit points z 1..=99, found \"x\"\n"
    );
}

#[test]
fn solve_prints_the_plan() {
    let out = stdout(endgame().args(["marine", "solve", CORNER]));
    assert!(out.starts_with("WIN in 10 rounds (34 rounds allowed"), "{out}");
    assert!(out.contains(
        "round 1: move down, marine loses 0 HP\n  M r4c1 6 HP, c r3c1 3 HP, a r3c2 3 HP, b r4c5 3 HP\n"
    ));
    assert!(out.contains("round 10: shoot b, the last zergling dies: WIN\n"));
    let out = stdout(endgame().args(["marine", "solve", CORNER, "--rounds", "9"]));
    assert!(out.starts_with("LOSE: the marine cannot win within 9 rounds ("), "{out}");
    let out = stdout(endgame().args(["marine", "solve", CORNER, "--rounds", "1"]));
    assert!(out.starts_with("LOSE: the marine cannot win within 1 round ("), "{out}");
    let a = endgame().args(["marine", "solve", "-"]).write_stdin(TWIN).assert().success();
    assert!(stdout_of(&a).starts_with("LOSE"));
}

#[test]
fn solve_json_parses() {
    let v = common::json(endgame().args(["marine", "solve", CORNER, "--json"]));
    assert_eq!(v["result"], "win");
    assert_eq!(v["rounds"], 10);
    let plan = v["plan"].as_array().unwrap();
    assert_eq!(plan.len(), 10);
    assert_eq!(plan[0]["action"], "move down");
    assert_eq!(plan[9]["won"], true);
    assert_eq!(v["start"]["zerglings"][0]["label"], "c");
    let v = common::json(endgame().args(["marine", "solve", "-", "--json"]).write_stdin(TWIN));
    assert_eq!((v["result"].as_str(), v["plan"].is_null()), (Some("lose"), true));
}

#[test]
fn a_bad_battle_file_names_line_and_column() {
    let a = endgame().args(["marine", "solve", "-"]).write_stdin("M.a\n.?.\n\nM 3\na 1\n").assert().code(2);
    assert_eq!(
        stderr_of(&a),
        "error: line 2, column 2: expected '#' or '1' (wall), '.' or '0' (floor), 'M' or a letter, found '?'\n"
    );
    let a = endgame().args(["marine", "solve", "-"]).write_stdin("M.a\n\nM 3\n").assert().code(2);
    assert_eq!(stderr_of(&a), "error: line 4: expected zergling 'a''s hit points: `a <hp>`\n");
}

#[test]
fn the_demo_shows_the_sample() {
    let out = stdout(endgame().arg("demo"));
    assert!(
        out.contains("the contest sample (marine 15 HP, zerglings 15 HP each, 34 rounds): WIN in 30 rounds")
    );
    assert!(out.contains("the same map with m = 14 (marine 14 HP, zerglings 15 HP each, 34 rounds): LOSE"));
}

#[test]
fn a_search_over_its_state_limit_stops_with_a_clear_error() {
    let err = stderr(
        endgame().args([
            "marine",
            "solve",
            "../marine/tests/data/battle8.txt",
            "--rounds",
            "70",
            "--max-states",
            "1000",
        ]),
        1,
    );
    assert!(err.starts_with("error: the search stored ") && err.contains("--max-states"), "{err}");
}
