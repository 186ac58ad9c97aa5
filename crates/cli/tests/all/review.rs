//! `endgame xiangqi review`: the example record's verdicts in text and JSON, the JSON's
//! values as `solve --json` gives them, `--mistake-plies`, `--generate`, every rule set, and
//! bad records refused with exit status 2 naming the game and the move.

use crate::common::{endgame_without_tables, json, stderr, stdout, temp_dir};

/// A Horse against an Advisor and an Elephant (5 men: no table without files), the Horse
/// takes the Elephant (4 men: solved in memory); Red wins 12 plies slower at ply 13, throws
/// the win away at ply 25 and Black the draw at ply 26.
const EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../xiangqi/examples/review.pgn");

fn marks(review: &serde_json::Value) -> Vec<(u64, String)> {
    review["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| !m["mark"].is_null())
        .map(|m| (m["ply"].as_u64().unwrap(), m["mark"].as_str().unwrap().to_string()))
        .collect()
}

#[test]
fn the_example_is_marked_where_the_result_changed() {
    let text = stdout(endgame_without_tables().args(["xiangqi", "review", EXAMPLE]));
    assert!(text.contains("Ply 1: not in the tables (KNvKAB)."), "{text}");
    let row = |ply: &str| text.lines().find(|l| l.trim_start().starts_with(&format!("{ply} "))).unwrap();
    assert!(row("13").contains("MISTAKE") && row("13").contains("d5c7 H6+7 (win in 25 plies)"), "{text}");
    assert!(row("25").contains("BLUNDER") && row("26").contains("BLUNDER"), "{text}");
    assert!(!row("24").contains("BLUNDER") && !row("24").contains("MISTAKE"), "{text}");
    assert!(text.contains("Under perfect play from move 1... (ply 2): Red wins"), "{text}");
    assert!(
        text.contains("Red:   18 moves in the tables, 1 blunder (first at ply 25), 1 mistake."),
        "{text}"
    );
    assert!(
        text.contains("Black: 18 moves in the tables, 1 blunder (first at ply 26), 0 mistakes."),
        "{text}"
    );
    let review = json(endgame_without_tables().args(["xiangqi", "review", EXAMPLE, "--json"]));
    let expected = [(13, "mistake"), (25, "blunder"), (26, "blunder")].map(|(p, m)| (p, m.to_string()));
    assert_eq!(marks(&review), expected);
    let moves = review["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 37);
    assert_eq!((review["game"].as_u64(), review["games"].as_u64()), (Some(1), Some(1)));
    assert_eq!(moves[0]["result"], serde_json::Value::Null);
    assert_eq!(moves[0]["for_mover"]["category"], "win");
    assert_eq!(review["summary"]["perfect_play"]["winner"], "red");
    // A stricter N: 12 plies slower is no mistake at 13, one at 12.
    let strict = json(endgame_without_tables().args([
        "xiangqi",
        "review",
        EXAMPLE,
        "--json",
        "--mistake-plies",
        "13",
    ]));
    assert_eq!(marks(&strict).len(), 2);
    let loose = json(endgame_without_tables().args([
        "xiangqi",
        "review",
        EXAMPLE,
        "--json",
        "--mistake-plies",
        "12",
    ]));
    assert_eq!(marks(&loose), expected);
}

#[test]
fn each_result_is_the_one_solve_gives() {
    let review = json(endgame_without_tables().args(["xiangqi", "review", EXAMPLE, "--json"]));
    for m in review["moves"].as_array().unwrap().iter().skip(1).step_by(5) {
        let fen = m["fen"].as_str().unwrap();
        let solved = json(endgame_without_tables().args(["xiangqi", "solve", fen, "--json"]));
        assert_eq!(m["result"]["category"], solved["category"], "{fen}");
        assert_eq!(m["result"]["dtm"], solved["dtm"], "{fen}");
        if m["mark"].is_null() {
            assert_eq!(m["for_mover"], m["result"], "ply {}", m["ply"]);
        }
    }
}

#[test]
fn every_rule_set_reviews_the_example() {
    for rules in ["standard", "hdu", "perpetual-check", "check-and-chase"] {
        let review =
            json(endgame_without_tables().args(["xiangqi", "review", EXAMPLE, "--json", "--rules", rules]));
        assert_eq!(review["rules"], rules);
        assert_eq!(review["moves"].as_array().unwrap().len(), 37, "{rules}");
        // Under the bans KNvKA's wins are mates too: the same verdicts.
        if rules != "hdu" {
            assert_eq!(marks(&review).len(), 3, "{rules}");
        }
    }
}

#[test]
fn generate_makes_the_first_position_answered() {
    let dir = temp_dir("review-generate");
    let mut command = endgame_without_tables();
    command.args(["xiangqi", "review", EXAMPLE, "--json", "--generate", "--dir"]).arg(&dir);
    let review = json(&mut command);
    assert_eq!(review["moves"][0]["result"]["category"], "win");
    assert_eq!(review["summary"]["perfect_play"]["ply"], 1);
    assert_eq!(review["summary"]["missing"], serde_json::json!([]));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_records_exit_2_naming_the_game_and_the_move() {
    let dir = temp_dir("review-bad");
    let two_games = dir.join("two.pgn");
    std::fs::write(
        &two_games,
        "[Event \"a\"]\n\n1. h2e2 h9g7 *\n\n[Event \"b\"]\n\n1. h2e2 h9g7 2. e2e9 *\n",
    )
    .unwrap();
    let e = stderr(endgame_without_tables().args(["xiangqi", "review", "--game", "2"]).arg(&two_games), 2);
    assert!(e.starts_with(&format!("error: {}: game 2, move 2. (Red, ply 3", two_games.display())), "{e}");
    assert!(e.contains("\"e2e9\""), "{e}");
    // The reader reads every game of a record: a bad one refuses the file.
    stderr(endgame_without_tables().args(["xiangqi", "review", "--game", "1"]).arg(&two_games), 2);
    let good = dir.join("good.pgn");
    std::fs::write(&good, "[Event \"a\"]\n\n1. h2e2 h9g7 *\n\n[Event \"b\"]\n\n1. h2e2 *\n").unwrap();
    let e = stderr(endgame_without_tables().args(["xiangqi", "review", "--game", "3"]).arg(&good), 2);
    assert!(e.ends_with("game 3: the record holds 2 games\n"), "{e}");
    // From the usual start nothing is in the tables.
    let text = stdout(endgame_without_tables().args(["xiangqi", "review"]).arg(&good));
    assert!(text.contains("Plies 1-2: not in the tables"), "{text}");
    assert!(text.contains("The tables answer no position of this game."), "{text}");
    // From standard input, the message without a file name, as `record convert` gives it.
    let e = stderr(
        endgame_without_tables().args(["xiangqi", "review", "-"]).write_stdin("1. h2e2 h9g7 2. e2e9 *\n"),
        2,
    );
    let convert = stderr(
        endgame_without_tables()
            .args(["xiangqi", "record", "convert", "-", "--to", "wxf"])
            .write_stdin("1. h2e2 h9g7 2. e2e9 *\n"),
        2,
    );
    assert_eq!(e, convert);
    assert!(e.starts_with("error: game 1, move 2. (Red, ply 3, line 1) \"e2e9\": "), "{e}");
    let e = stderr(endgame_without_tables().args(["xiangqi", "review", "no-such-file.pgn"]), 2);
    assert!(e.starts_with("error: no-such-file.pgn: cannot read"), "{e}");
    let e = stderr(endgame_without_tables().args(["xiangqi", "review", EXAMPLE, "--mistake-plies", "0"]), 2);
    assert!(e.contains("--mistake-plies"), "{e}");
    let garbage = dir.join("garbage.pgn");
    std::fs::write(&garbage, [0xffu8, 0x00, 0x13, 0x37]).unwrap();
    stderr(endgame_without_tables().args(["xiangqi", "review"]).arg(&garbage), 2);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_xqf_file_and_a_gb18030_pgn_of_one_game_are_reviewed_alike() {
    // The XQF 1.0 description's example game, and the same game as a GB18030 PGN in Chinese
    // notation (the records' test data): from the usual start, nothing is in the tables.
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../xiangqi/tests/data/records/");
    let review = |file: &str| {
        json(endgame_without_tables().args(["xiangqi", "review", "--json"]).arg(format!("{data}{file}")))
    };
    let (xqf, pgn) = (review("xqf10-example.xqf"), review("example-gb18030.pgn"));
    let ucis = |r: &serde_json::Value| -> Vec<String> {
        r["moves"].as_array().unwrap().iter().map(|m| m["uci"].as_str().unwrap().to_string()).collect()
    };
    assert_eq!(ucis(&xqf).len(), 16);
    assert_eq!(ucis(&xqf), ucis(&pgn));
    assert_eq!(xqf["summary"]["perfect_play"], serde_json::Value::Null);
    assert!(xqf["moves"].as_array().unwrap().iter().all(|m| m["result"].is_null() && m["mark"].is_null()));
}
