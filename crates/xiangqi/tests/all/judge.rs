//! The HDU 5897 judge: bad input is an error naming the case, the token and the line, after the
//! answers of the cases before it.

use endgame_core::JudgeError;
use endgame_xiangqi::judge::run;

fn judge(input: &str) -> (String, Result<(), String>) {
    let mut out = Vec::new();
    let result = run(input, &mut out).map_err(|e| match e {
        JudgeError::Input(e) => e.to_string(),
        JudgeError::Io(e) => panic!("io: {e}"),
    });
    (String::from_utf8(out).unwrap(), result)
}

fn error(input: &str) -> String {
    judge(input).1.unwrap_err()
}

#[test]
fn cases_may_spread_over_lines() {
    assert_eq!(judge("2 0 0 9 3\n0 3 0 0 0\n9 3 0 3\n1").0, "Lucky guy!\nLose in 1 steps T.T!\n");
    assert_eq!(judge("0\n").0, "");
}

#[test]
fn bad_inputs_name_case_and_token() {
    assert_eq!(error(""), "line 1, token 1 (T): expected the number of cases T, found the end of the input");
    assert_eq!(
        error("x"),
        "line 1, token 1 (T): expected the number of cases T, a non-negative integer, found \"x\""
    );
    assert_eq!(
        error("1\n0 0 9 3 3 3 0\n"),
        "case 1, token 5 (x3), line 2: expected the rank x3 of Alice's General, 0..=2 (her palace), found \"3\""
    );
    assert_eq!(
        error("1\n10 0 9 3 0 3 0\n"),
        "case 1, token 1 (x1), line 2: expected the rank x1 of Bob's Horse, 0..=9, found \"10\""
    );
    assert!(error("1\n0 9 9 3 0 3 0").starts_with("case 1, token 2 (y1), line 2: expected the file y1"));
    assert!(error("1\n0 0 6 3 0 3 0").starts_with("case 1, token 3 (x2)"));
    assert!(error("1\n0 0 9 2 0 3 0").starts_with("case 1, token 4 (y2)"));
    assert!(error("1\n0 0 9 3 0 6 0").starts_with("case 1, token 6 (y3)"));
    assert!(error("1\n0 0 9 3 0 3 2").starts_with("case 1, token 7 (p), line 2: expected p, 0"));
    assert!(error("1\n0 0 9 3 0 3 -1").contains("found \"-1\""));
    assert!(error("1\n0 0 9 3 0 3 a").contains("found \"a\""));
    assert_eq!(
        error("1\n9 3 9 3 0 3 0"),
        "case 1, token 4 (y2), line 2: expected two pieces on different points, but Bob's General stands on Bob's Horse (9, 3)"
    );
    assert!(error("1\n0 3 9 3 0 3 0").contains("Alice's General stands on Bob's Horse (0, 3)"));
    assert_eq!(
        error("2\n0 0 9 3 0 3 0\n0 0 9 3"),
        "case 2, token 5 (x3), line 3: expected the rank x3 of Alice's General, 0..=2 (her palace), found the end of the input"
    );
    assert_eq!(
        error("1\n0 0 9 3 0 3 0\n5"),
        "line 3: expected the end of the input after 1 cases, found \"5\""
    );
}

#[test]
fn answers_before_a_bad_case_are_written() {
    let (out, result) = judge("3\n0 0 9 3 0 3 0\n0 0 9 3 0 3 1\n0 0 9 3 0 3 7\n");
    assert_eq!(out, "Lucky guy!\nLose in 1 steps T.T!\n");
    assert!(result.unwrap_err().starts_with("case 3, token 7 (p)"));
}
