//! The tool as a whole: help, version, demo, and how it fails.

use crate::common::{endgame, stderr, stderr_of, stdout};

#[test]
fn version_and_help() {
    let out = stdout(endgame().arg("--version"));
    assert!(out.starts_with("endgame "));
    endgame().args(["judge", "--help"]).assert().success();
    endgame().arg("--help").assert().success();
}

#[test]
fn demo_runs() {
    let out = stdout(endgame().arg("demo"));
    assert!(out.starts_with("endgame "));
}

#[test]
fn an_unknown_problem_is_an_input_error() {
    let err = stderr(endgame().args(["judge", "no-such-problem"]).write_stdin(""), 2);
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
        let err = stderr(endgame().args(args), 2);
        assert!(err.starts_with("error: arguments: "), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    let assert = endgame().arg("judge").assert().code(2);
    assert!(stderr_of(&assert).contains("<PROBLEM>"));
}

#[test]
fn negative_numbers_are_bad_values_not_unknown_options() {
    for args in
        [&["marine", "solve", "x", "--rounds", "-1"][..], &["marine", "solve", "x", "--max-states", "-5"]]
    {
        let err = stderr(endgame().args(args), 2);
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
        let help = stdout(endgame().args(args));
        assert!(help.contains("`-` for standard input") || help.contains("or `-`"), "{args:?}: {help}");
    }
    let out = stdout(endgame().args(["judge", "--help"]));
    assert!(out.contains("input ends with `0 0`"));
}

#[test]
fn every_demo_has_a_heading_of_the_same_form() {
    let text = stdout(endgame().arg("demo"));
    let headings: Vec<&str> = text.lines().filter(|l| l.starts_with("== ")).collect();
    assert_eq!(
        headings,
        [
            "== Xiangqi (HDU 5897 \"The Game\")",
            "== Twixt (POJ 2706 \"Connect\")",
            "== Cheesy Chess (HDU 1680 \"Cheesy Chess\")",
            "== Marine (BZOJ 2205)",
            "== Next steps"
        ]
    );
}

/// Issue 40: every game's part of the demo says what its boards' letters mean, and the demo
/// ends with what to try next: the explorer, and a generation whose tables answer the position
/// it gives.
#[test]
fn the_demo_explains_its_boards_and_the_next_steps() {
    let text = stdout(endgame().arg("demo"));
    let sections: Vec<&str> = text.split("\n== ").skip(1).collect();
    let legends = ["Boards: Red in capitals", "Board: x Black's pegs", "Boards: K king", "Boards: # wall"];
    for (section, legend) in sections.iter().zip(legends) {
        assert!(section.contains(legend), "{legend:?} in {section}");
    }
    let next = sections.last().unwrap();
    assert!(next.starts_with("Next steps\nendgame serve\n"), "{next}");
    assert!(next.contains("\nendgame xiangqi generate KRvKAA\n"), "{next}");
    let fen = "3aka3/9/9/9/9/7R1/9/9/9/3K5 w";
    assert!(next.contains(&format!("endgame xiangqi solve \"{fen}\"")), "{next}");
    // The tables the demo names answer its position (5 men: not solved in memory).
    let dir = scratch("demo-next");
    let solve = || {
        let mut command = endgame();
        command.args(["xiangqi", "solve", fen, "--dir"]).arg(&dir);
        command
    };
    let err = stderr(&mut solve(), 2);
    assert!(err.contains("KRvKAA"), "{err}");
    endgame().args(["xiangqi", "generate", "KRvKAA", "--dir"]).arg(&dir).assert().success();
    let out = stdout(&mut solve());
    assert!(out.contains("Result: Red to move: win in "), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fresh scratch directory of this test process.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("endgame-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Standard error of a run that must fail with exit status 2.
fn input_error(args: &[&str]) -> String {
    let err = stderr(endgame().args(args), 2);
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    err
}

#[test]
fn an_unquoted_fen_gets_the_command_to_type() {
    let err = input_error(&["xiangqi", "solve", "3k5/9/9/9/9/3n5/9/9/9/3K5", "w"]);
    assert_eq!(
        err,
        "error: arguments: unexpected argument 'w' found; a FEN has spaces, so quote it: \
         endgame xiangqi solve \"3k5/9/9/9/9/3n5/9/9/9/3K5 w\" (see `endgame xiangqi solve --help`)\n"
    );
    // With the optional fields, and before an option.
    let err = input_error(&[
        "xiangqi",
        "moves",
        "--rules",
        "hdu",
        "3k5/9/9/9/9/3n5/9/9/9/3K5",
        "b",
        "-",
        "-",
        "0",
        "1",
    ]);
    assert!(err.contains("quote it: endgame xiangqi moves \"3k5/9/9/9/9/3n5/9/9/9/3K5 b - - 0 1\""), "{err}");
    // Another unexpected argument gets no such advice.
    let err = input_error(&["xiangqi", "solve", "3k5/9/9/9/9/3n5/9/9/9/3K5 w", "extra"]);
    assert!(err.contains("unexpected argument 'extra'") && !err.contains("quote"), "{err}");
}

#[test]
fn materials_and_rules_are_read_in_any_case() {
    let scratch = scratch("any-case");
    let dir = scratch.to_str().unwrap();
    let upper = endgame().args(["xiangqi", "stats", "KRvK", "--json", "--dir", dir]).output().unwrap();
    assert!(upper.status.success());
    for material in ["krvk", "KRVK", "Krvk"] {
        let lower = endgame().args(["xiangqi", "stats", material, "--json", "--dir", dir]).output().unwrap();
        assert!(lower.status.success(), "{material}: {}", String::from_utf8_lossy(&lower.stderr));
        assert_eq!(lower.stdout, upper.stdout, "{material}");
    }
    let fen = "3k5/9/9/9/9/3n5/9/9/9/3K5 w";
    let hdu = endgame().args(["xiangqi", "solve", "--json", "--rules", "hdu", fen]).output().unwrap();
    for rules in ["HDU", "Hdu"] {
        let any = endgame().args(["xiangqi", "solve", "--json", "--rules", rules, fen]).output().unwrap();
        assert!(any.status.success(), "{rules}: {}", String::from_utf8_lossy(&any.stderr));
        assert_eq!(any.stdout, hdu.stdout, "{rules}");
    }
    let err = input_error(&["xiangqi", "solve", "--rules", "chinese", fen]);
    assert!(
        err.contains("invalid value 'chinese' for '--rules <RULES>': expected a rule set (standard"),
        "{err}"
    );
    // A material that is wrong in any case is still named as typed.
    let err = input_error(&["xiangqi", "stats", "rkvk", "--dir", dir]);
    assert!(err.starts_with("error: material \"rkvk\": "), "{err}");
    let _ = std::fs::remove_dir_all(&scratch);
}

#[test]
fn a_port_alone_gets_an_address_to_type() {
    let err = input_error(&["serve", "--addr", "8000"]);
    assert_eq!(
        err,
        "error: arguments: invalid value '8000' for '--addr <ADDR>': expected an IP address and a port, \
         such as 127.0.0.1:8000 (this machine only) or 0.0.0.0:8000 (every interface) (see `endgame serve --help`)\n"
    );
    let err = input_error(&["serve", "--addr", "localhost:9000"]);
    assert!(err.contains("such as 127.0.0.1:9000"), "{err}");
}

/// Issue 40: a usage error points at the help of the command typed, not at `endgame --help`.
#[test]
fn a_usage_error_points_at_the_help_of_its_command() {
    assert_eq!(
        input_error(&["xiangqi", "solve"]),
        "error: arguments: the following required arguments were not provided: <FEN> \
         (see `endgame xiangqi solve --help`)\n"
    );
    for (args, help) in [
        (&["cheesy", "solve"][..], "endgame cheesy solve"),
        (&["marine", "solve", "--rounds", "x", "map.txt"], "endgame marine solve"),
        (&["judge"], "endgame judge"),
        (&["xiangqi", "no-such-command"], "endgame xiangqi"),
        (&["no-such-command"], "endgame"),
    ] {
        let err = input_error(args);
        assert!(err.ends_with(&format!(" (see `{help} --help`)\n")), "{args:?}: {err}");
    }
}

/// Issue 40: `serve --port` (or `--host`), as other servers take them, gets the `--addr` to
/// type instead.
#[test]
fn serve_port_gets_the_addr_to_type() {
    for (args, addr) in [
        (&["serve", "--port", "9000"][..], "--addr 127.0.0.1:9000"),
        (&["serve", "--port=9000"], "--addr 127.0.0.1:9000"),
        (&["serve", "-p", "9000"], "--addr 127.0.0.1:9000"),
        (&["serve", "--host", "0.0.0.0"], "--addr 0.0.0.0:8000"),
        (&["serve", "--host", "::1"], "--addr [::1]:8000"),
    ] {
        let err = input_error(args);
        assert!(err.starts_with("error: arguments: unexpected argument '-"), "{args:?}: {err}");
        assert!(
            err.ends_with(&format!(
                "the address and the port are one option: {addr} (see `endgame serve --help`)\n"
            )),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_twixt_record_of_no_known_format_names_the_option() {
    let dir = scratch("twixt-format");
    let path = dir.join("record.txt");
    std::fs::write(&path, "hello\n").unwrap();
    let err = input_error(&["twixt", "replay", path.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        err.ends_with(
            "line 1: cannot tell the record format: expected `N M` (judge), `(;` (SGF) or a `#` header line (T1); \
             name it with --format judge, --format sgf or --format t1\n"
        ),
        "{err}"
    );
}
