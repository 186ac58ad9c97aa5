//! The tool as a whole: help, version, demo, and how it fails.

use assert_cmd::Command;

fn endgame() -> Command {
    Command::cargo_bin("endgame").expect("the endgame binary")
}

#[test]
fn version_and_help() {
    let out = endgame().arg("--version").assert().success().get_output().stdout.clone();
    assert!(String::from_utf8(out).unwrap().starts_with("endgame "));
    endgame().args(["judge", "--help"]).assert().success();
    endgame().arg("--help").assert().success();
}

#[test]
fn demo_runs() {
    let out = endgame().arg("demo").assert().success().get_output().stdout.clone();
    assert!(String::from_utf8(out).unwrap().starts_with("endgame "));
}

#[test]
fn an_unknown_problem_is_an_input_error() {
    let assert = endgame().args(["judge", "no-such-problem"]).write_stdin("").assert().code(2);
    let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(err.starts_with("error: problem `no-such-problem`: expected one of"), "{err}");
}

#[test]
fn a_missing_file_is_an_input_error() {
    let problem = endgame().args(["judge", "--help"]).output().unwrap();
    assert!(problem.status.success());
    endgame().args(["judge", "no-such-problem", "/no/such/file"]).assert().code(2);
}

#[test]
fn usage_errors_exit_2_with_one_line() {
    for args in [&["no-such-command"][..], &["judge"], &["demo", "--no-such-flag"]] {
        let assert = endgame().args(args).assert().code(2);
        let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        assert!(err.starts_with("error: arguments: "), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    let assert = endgame().arg("judge").assert().code(2);
    assert!(String::from_utf8_lossy(&assert.get_output().stderr).contains("<PROBLEM>"));
}

#[test]
fn negative_numbers_are_bad_values_not_unknown_options() {
    for args in
        [&["marine", "solve", "x", "--rounds", "-1"][..], &["marine", "solve", "x", "--max-states", "-5"]]
    {
        let assert = endgame().args(args).assert().code(2);
        let err = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        assert!(err.starts_with("error: arguments: invalid value '-"), "{args:?}: {err}");
        assert!(!err.contains("'-- -"), "{args:?}: {err}");
    }
}

#[test]
fn every_help_says_how_to_read_standard_input() {
    for args in [
        &["judge", "--help"][..],
        &["twixt", "replay", "--help"],
        &["twixt", "threats", "--help"],
        &["cheesy", "solve", "--help"],
        &["marine", "solve", "--help"],
    ] {
        let out = endgame().args(args).assert().success().get_output().stdout.clone();
        let help = String::from_utf8(out).unwrap();
        assert!(help.contains("`-` for standard input") || help.contains("or `-`"), "{args:?}: {help}");
    }
    let out = endgame().args(["judge", "--help"]).assert().success().get_output().stdout.clone();
    assert!(String::from_utf8(out).unwrap().contains("input ends with `0 0`"));
}

#[test]
fn every_demo_has_a_heading_of_the_same_form() {
    let out = endgame().arg("demo").assert().success().get_output().stdout.clone();
    let text = String::from_utf8(out).unwrap();
    let headings: Vec<&str> = text.lines().filter(|l| l.starts_with("== ")).collect();
    assert_eq!(
        headings,
        [
            "== Xiangqi (HDU 5897 \"The Game\")",
            "== Twixt (POJ 2706 \"Connect\")",
            "== Cheesy Chess (HDU 1680 \"Cheesy Chess\")",
            "== Marine (BZOJ 2205)"
        ]
    );
}
