//! What the command line's tests share: the tool (with or without a table directory of the
//! user's), what it printed, and temporary directories.

use std::path::PathBuf;

use assert_cmd::Command;
use assert_cmd::assert::Assert;
use serde_json::Value;

/// The tool.
pub fn endgame() -> Command {
    Command::cargo_bin("endgame").expect("the endgame binary")
}

/// The tool with no tables of the user's: materials of up to 4 men are solved in memory.
pub fn endgame_without_tables() -> Command {
    let mut command = endgame();
    command.env("ENDGAME_TB_DIR", std::env::temp_dir().join("endgame-cli-tests-no-tables"));
    command
}

/// The standard output of `command`, which must succeed.
pub fn stdout(command: &mut Command) -> String {
    stdout_of(&command.assert().success())
}

/// The JSON `command` printed; it must succeed.
pub fn json(command: &mut Command) -> Value {
    serde_json::from_str(&stdout(command)).unwrap()
}

/// The standard error of `command`, which must exit with status `code`.
pub fn stderr(command: &mut Command, code: i32) -> String {
    stderr_of(&command.assert().code(code))
}

/// `endgame judge PROBLEM` on `input`, which must exit with status 2: what it printed on
/// standard output (the answers before the bad case) and on standard error.
pub fn judge_failure(problem: &str, input: &str) -> (String, String) {
    let run = endgame().args(["judge", problem]).write_stdin(input.to_string()).assert().code(2);
    (stdout_of(&run), stderr_of(&run))
}

/// The standard output of a run.
pub fn stdout_of(assert: &Assert) -> String {
    String::from_utf8(assert.get_output().stdout.clone()).unwrap()
}

/// The standard error of a run.
pub fn stderr_of(assert: &Assert) -> String {
    String::from_utf8(assert.get_output().stderr.clone()).unwrap()
}

/// A new, empty directory `endgame-{name}-{pid}` under the temporary directory (removed
/// first if a run left it behind).
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("endgame-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
