//! The `endgame` binary on Twixt inputs: judge output byte for byte, errors, JSON, SVG.

use crate::common::{self, endgame, stderr, stdout, temp_dir};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../twixt/tests/data/");

fn data(name: &str) -> String {
    format!("{DATA}{name}")
}

#[test]
fn judge_sample_byte_for_byte() {
    endgame()
        .args(["judge", "poj2706", &data("poj2706-sample.txt")])
        .assert()
        .success()
        .stdout("no\nyes\nyes\n");
    let input = std::fs::read_to_string(data("poj2706-sample.txt")).unwrap();
    endgame().args(["judge", "poj2706"]).write_stdin(input).assert().success().stdout("no\nyes\nyes\n");
}

#[test]
fn judge_bad_input_names_the_place_after_earlier_answers() {
    endgame().args(["judge", "poj2706", &data("poj2706-bad.txt")]).assert().code(2).stdout("yes\n").stderr(
        format!(
            "error: {}: dataset 2, move 3 (line 4): (0,2) is already occupied\n",
            data("poj2706-bad.txt")
        ),
    );
}

#[test]
fn replay_prints_links_refusals_and_the_winner() {
    let text = stdout(endgame().args(["twixt", "replay", &data("drawngame.T1"), "--rules", "poj"]));
    assert!(text.contains("  16. White q6  refused q6-p4 (crosses q5-p7)\n"), "{text}");
    assert!(text.contains("No winner after 58 moves; Black to move\n"));
    let err =
        stderr(endgame().args(["twixt", "replay", &data("poj2706-sample.txt"), "--format", "judge"]), 2);
    assert!(
        err.starts_with("error: ")
            && err.contains("poj2706-sample.txt: line 3: expected the end of the record"),
        "{err}"
    );
}

#[test]
fn replay_json_and_svg() {
    let dir = temp_dir("twixt");
    let game = dir.join("game.txt");
    std::fs::write(&game, "7 11\n0 3 6 5 3 2 5 7 7 2 4 4\n5 3 5 2 4 5 4 0 2 4\n").unwrap();
    let svg = dir.join("board.svg");
    let json = common::json(endgame().args(["twixt", "replay", "--json", "--svg"]).arg(&svg).arg(&game));
    assert_eq!(json["outcome"]["winner"], "Black");
    assert_eq!(json["outcome"]["move"], 11);
    assert_eq!(json["outcome"]["by"], "connection");
    assert_eq!(json["moves"].as_array().unwrap().len(), 11);
    assert_eq!(json["moves"][10]["wins"], true);
    assert_eq!(json["winning_path"][0]["x"], 0);
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.contains("#f0b000"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn threats_text_and_json() {
    let dir = temp_dir("twixt-threats");
    let game = dir.join("game.txt");
    // The judge's first sample without its last move, and with White's move 4 in the judge
    // format's odd count: Black's 3 pegs and White's 2 pegs; White to move.
    std::fs::write(&game, "4 3\n0 2 2 4 4 2\n").unwrap();
    endgame()
        .args(["twixt", "threats"])
        .arg(&game)
        .assert()
        .success()
        .stdout("White to move wins at once on: none\nBlack would win at once on: (2,1) (2,3)\n");
    let json = common::json(endgame().args(["twixt", "threats", "--json"]).arg(&game));
    assert_eq!(json["to_move"], "White");
    assert_eq!(json["opponent"].as_array().unwrap().len(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn records_in_every_format() {
    for (name, expect) in [
        ("game2206555.tsgf", "Winner: Black (White resigned with move 18)"),
        ("sample.T1", "   2. White swap: takes the first peg over as o5"),
        ("scl-issue.T1", "No winner after 43 moves; White to move"),
    ] {
        let text = stdout(endgame().args(["twixt", "replay", &data(name)]));
        assert!(text.contains(expect), "{name}: {text}");
    }
    let err = stderr(endgame().args(["twixt", "replay", "--format", "sgf", &data("sample.T1")]), 2);
    assert!(
        err.ends_with("sample.T1: line 1, column 1: expected `(` opening the SGF game, found '#'\n"),
        "{err}"
    );
}

#[test]
fn rule_options_override_the_record() {
    let err = stderr(endgame().args(["twixt", "replay", "--swap", "off", &data("sample.T1")]), 2);
    assert!(
        err.ends_with(
            "sample.T1: move 2 (line 15): a swap needs the pie rule, which is off (`--swap on` turns it on)\n"
        ),
        "{err}"
    );
    endgame().args(["twixt", "replay", "--rules", "go", &data("sample.T1")]).assert().code(2);
    let text = stdout(endgame().args(["twixt", "replay", "--rules", "pp", &data("drawngame.T1")]));
    assert!(text.contains("  16. White q6  links q6-p4\n"), "{text}");
}

#[test]
fn threats_after_the_end_only_say_that_the_game_is_over() {
    endgame()
        .args(["twixt", "threats", "-"])
        .write_stdin("4 5\n0 2 2 4 4 2 3 2 2 1\n")
        .assert()
        .success()
        .stdout("The game is over: Black won with move 5\n");
}

#[test]
fn typed_options_list_their_values() {
    for (option, values) in
        [("--rules", "[possible values: poj, pp]"), ("--swap", "[possible values: on, off]")]
    {
        let err = stderr(endgame().args(["twixt", "replay", option, "x", &data("sample.T1")]), 2);
        assert!(err.contains(values), "{err}");
    }
    for format in ["T1", "t1"] {
        endgame().args(["twixt", "replay", "--format", format, &data("sample.T1")]).assert().success();
    }
    endgame().args(["twixt", "replay", "--format", "TSGF", &data("game2206555.tsgf")]).assert().success();
    let err = stderr(endgame().args(["twixt", "replay", "--swap", "off", &data("sample.T1")]), 2);
    assert!(err.contains("swap"), "{err}");
}
