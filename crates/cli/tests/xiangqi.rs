//! The `endgame` tool on Xiangqi: the HDU 5897 judge and the `xiangqi` subcommands.

use assert_cmd::Command;

const SAMPLE_IN: &str = include_str!("../../xiangqi/tests/data/sample.in");
const SAMPLE_OUT: &str = include_str!("../../xiangqi/tests/data/sample.out");
const FEN: &str = "3k5/9/9/9/9/3n5/9/9/9/3K5 w";

fn endgame() -> Command {
    Command::cargo_bin("endgame").unwrap()
}

#[test]
fn judge_sample_byte_for_byte() {
    endgame().args(["judge", "hdu5897"]).write_stdin(SAMPLE_IN).assert().success().stdout(SAMPLE_OUT);
}

#[test]
fn judge_bad_input_exits_2_naming_case_and_token() {
    let out = endgame()
        .args(["judge", "hdu5897"])
        .write_stdin("2\n0 0 9 3 0 3 1\n0 0 9 3 3 3 0\n")
        .assert()
        .code(2);
    let out = out.get_output();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "Lose in 1 steps T.T!\n");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: case 2, token 5 (x3), line 3: expected the rank x3 of Alice's General, 0..=2 (her palace), found \"3\"\n"
    );
}

#[test]
fn solve_prints_result_line_and_boards() {
    let out = endgame().args(["xiangqi", "solve", FEN]).assert().success().get_output().stdout.clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("Result: Red to move: loss in 10 plies."), "{text}");
    assert!(text.contains("Main line (10 plies): d0d1 "), "{text}");
    assert!(text.contains("Black has captured Red's General."), "{text}");
    assert_eq!(text.matches("   a b c d e f g h i").count(), 2, "{text}");
}

#[test]
fn json_parses_with_lichess_like_fields() {
    let out =
        endgame().args(["xiangqi", "moves", "--json", FEN]).assert().success().get_output().stdout.clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["category"], "loss");
    assert_eq!(v["dtm"], -10);
    assert_eq!(v["moves"][0]["uci"], "d0d1");
    assert_eq!(v["moves"][0]["category"], "win");
    assert_eq!(v["moves"][0]["dtm"], 9);
    let out =
        endgame().args(["xiangqi", "solve", "--json", FEN]).assert().success().get_output().stdout.clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["best_move"], "d0d1");
    assert_eq!(v["main_line"].as_array().unwrap().len(), 10);
}

#[test]
fn bad_positions_exit_2_with_the_reason() {
    let err = |args: &[&str]| {
        let out = endgame().args(args).assert().code(2).get_output().stderr.clone();
        String::from_utf8(out).unwrap()
    };
    assert!(
        err(&["xiangqi", "solve", "4k4/9/9/9/9/9/9/9/9/3KN4 w"])
            .contains("material KNvK is outside what has been solved")
    );
    assert!(err(&["xiangqi", "moves", "4k4/9/9 w"]).contains("expected 10 ranks"));
    assert!(err(&["xiangqi", "solve", "4k4/9/9/9/9/9/4K4/9/9/9 w"]).contains("outside its palace"));
}

#[test]
fn judge_reads_a_file_and_the_demo_runs() {
    let dir = std::env::temp_dir().join(format!("endgame-xiangqi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("sample.in");
    std::fs::write(&file, SAMPLE_IN).unwrap();
    endgame().args(["judge", "hdu5897"]).arg(&file).assert().success().stdout(SAMPLE_OUT);
    std::fs::remove_dir_all(&dir).unwrap();
    let out = endgame().arg("demo").assert().success().get_output().stdout.clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("HDU 5897") && text.contains("Lose in 1 steps T.T!"), "{text}");
}
