//! Hostile input, end to end: endless or huge input, huge tokens, byte order marks, empty
//! input. Every reader stops with one short line `error: ...` and exit status 2.

use crate::common::{endgame, stderr, stderr_of, stdout_of};

fn temp_file(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("endgame-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

const JUDGES: [&str; 4] = ["hdu5897", "hdu1680", "poj2706", "marine"];

/// An endless input stops a judge in its first token (no contest token is longer than 1 MiB)
/// and any other reader at the size cap, quickly and with one line.
#[cfg(unix)]
#[test]
fn endless_input_is_refused_quickly() {
    for problem in JUDGES {
        let err = stderr(endgame().args(["judge", problem, "/dev/zero"]), 2);
        assert!(
            err.starts_with("error: /dev/zero: ") && err.lines().count() == 1 && err.len() < 700,
            "{err}"
        );
        assert!(err.contains("line 1"), "{err}");
    }
    for args in [["twixt", "replay"], ["twixt", "threats"], ["cheesy", "solve"], ["marine", "solve"]] {
        let a = endgame().args(args).arg("/dev/zero").assert().code(2);
        assert_eq!(
            stderr_of(&a),
            "error: /dev/zero: expected at most 16 MiB of text, found more (reading stopped there)\n",
            "{args:?}"
        );
    }
}

/// A token longer than 1 MiB stops a judge even when what was read of it would do.
#[test]
fn a_judge_stops_in_a_token_longer_than_a_mebibyte() {
    let zeros = "0".repeat((1 << 20) + 10);
    let err = stderr(endgame().args(["judge", "hdu5897"]).write_stdin(format!("{zeros}\n")), 2);
    assert!(err.starts_with("error: line 1, token 1 (T): ") && err.len() < 700, "{err}");
    // The answers before it are written, and no answer for the case with the long token.
    let input = format!("2\n0 0 9 3 0 3 1\n0 0 9 3 0 3 {zeros}\n");
    let a = endgame().args(["judge", "hdu5897"]).write_stdin(input).assert().code(2);
    assert_eq!(stdout_of(&a), "Lose in 1 steps T.T!\n");
    assert!(stderr_of(&a).starts_with("error: case 2, token 7 (p), line 3: "), "{}", stderr_of(&a));
    for (problem, input) in [("hdu1680", zeros.clone()), ("poj2706", format!("4 {zeros}"))] {
        let err = stderr(endgame().args(["judge", problem]).write_stdin(input), 2);
        assert!(err.ends_with(&format!("found \"{}\"...\n", "0".repeat(40))), "{problem}: {err}");
    }
}

/// A token of a megabyte is quoted with at most 40 characters.
#[test]
fn huge_tokens_are_quoted_short() {
    let huge = "x".repeat(1 << 20);
    let quoted = format!("\"{}\"...", "x".repeat(40));
    let inputs = [
        ("hdu5897", huge.clone()),
        ("hdu1680", huge.clone()),
        ("poj2706", format!("4 {huge}")),
        ("marine", format!("zZ000\n11110\n00M10\n01100\n00000\n15 {huge}\n")),
    ];
    for (problem, input) in inputs {
        let err = stderr(endgame().args(["judge", problem]).write_stdin(input), 2);
        assert!(err.ends_with(&format!("found {quoted}\n")) && err.len() < 300, "{problem}: {err}");
    }
    let file = temp_file("huge.txt", format!("M 3\n{huge}").as_bytes());
    let a = endgame().args(["twixt", "replay"]).arg(&file).assert().code(2);
    assert!(stderr_of(&a).len() < 400, "{}", stderr_of(&a));
}

/// Every reader accepts a leading UTF-8 byte order mark.
#[test]
fn a_byte_order_mark_is_accepted_everywhere() {
    let bom = "\u{feff}";
    let cases = [
        ("hdu5897", "1\n0 0 9 3 0 3 1\n", "Lose in 1 steps T.T!\n"),
        (
            "hdu1680",
            include_str!("../../../cheesy/tests/data/sample.in"),
            include_str!("../../../cheesy/tests/data/sample.out"),
        ),
        ("poj2706", "4 5\n0 2 2 4 4 2 3 2 2 1\n0 0\n", "yes\n"),
        ("marine", include_str!("../../../marine/tests/data/sample.in"), "WIN\n30\n"),
    ];
    for (problem, input, output) in cases {
        let a = endgame().args(["judge", problem]).write_stdin(format!("{bom}{input}")).assert().success();
        assert_eq!(stdout_of(&a), output, "{problem}");
    }
    let files = [
        (["twixt", "replay"], "4 5\n0 2 2 4 4 2 3 2 2 1\n".to_string(), "Winner: Black"),
        (["cheesy", "solve"], include_str!("../../../cheesy/examples/corner.txt").to_string(), "White wins"),
        (
            ["marine", "solve"],
            include_str!("../../../marine/examples/corner.txt").to_string(),
            "WIN in 10 rounds",
        ),
    ];
    for (args, text, expected) in files {
        let file = temp_file(&format!("bom-{}.txt", args[0]), format!("{bom}{text}").as_bytes());
        let a = endgame().args(args).arg(&file).assert().success();
        assert!(stdout_of(&a).contains(expected), "{args:?}: {}", stdout_of(&a));
    }
}

/// Empty input is an error for every judge.
#[test]
fn empty_input_is_an_error_for_every_judge() {
    for problem in JUDGES {
        for input in ["", "\n \n", "\u{feff}"] {
            let a = endgame().args(["judge", problem]).write_stdin(input).assert().code(2);
            let err = stderr_of(&a);
            assert!(
                err.starts_with("error: ") && err.contains("line ") && err.contains("the end of the input"),
                "{problem}: {err}"
            );
            assert_eq!(stdout_of(&a), "", "{problem}");
        }
    }
}

/// A judge's error names the file it read.
#[test]
fn judge_errors_name_the_file() {
    let file = temp_file("bad-judge.txt", b"1\n0 0 9 3 0 3 x\n");
    let a = endgame().args(["judge", "hdu5897"]).arg(&file).assert().code(2);
    assert!(stderr_of(&a).starts_with(&format!("error: {}: case 1, token 7 (p), line 2: ", file.display())));
    let a = endgame().args(["judge", "hdu5897"]).write_stdin("1\n0 0 9 3 0 3 x\n").assert().code(2);
    assert!(stderr_of(&a).starts_with("error: case 1, token 7 (p), line 2: "), "{}", stderr_of(&a));
}

/// The search's progress bar draws only on a terminal: a pipe gets nothing on standard error.
#[test]
fn no_progress_when_standard_error_is_not_a_terminal() {
    let a = endgame()
        .args(["marine", "solve", "../marine/tests/data/battle8.txt", "--rounds", "70"])
        .assert()
        .success();
    assert_eq!(stderr_of(&a), "");
    assert!(stdout_of(&a).starts_with("LOSE"), "{}", stdout_of(&a));
    let err = stderr(
        endgame().args([
            "marine",
            "solve",
            "../marine/tests/data/battle16.txt",
            "--rounds",
            "100",
            "--max-states",
            "1000",
        ]),
        1,
    );
    assert!(
        err.starts_with("error: the search stored ")
            && err.contains(" KiB; `--max-states` sets the limit")
            && err.lines().count() == 1,
        "{err}"
    );
}
