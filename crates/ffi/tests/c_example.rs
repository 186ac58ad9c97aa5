//! `examples/c/probe.c`, built with the system's C compiler against the static library and
//! against the shared one, prints for each position what the Rust API answers (value, best
//! move, every move with its value), and the command line's messages with the status codes
//! for bad input and a missing table.

use std::path::{Path, PathBuf};
use std::process::Command;

use endgame_core::RuleValue;
use endgame_xiangqi::{Probe, Rules, Tablebases, report, typed};

/// Where cargo put `libendgame.a` and `libendgame.so` for this test: beside the test binary.
fn library_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    let deps = exe.parent().expect("the test's directory").to_path_buf();
    assert!(deps.join("libendgame.a").exists(), "no libendgame.a in {}", deps.display());
    deps
}

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Compiles probe.c into `out`, linked with the static library or the shared one.
fn compile(out: &Path, link_static: bool) {
    let lib = library_dir();
    let root = repository();
    let mut cc = Command::new(std::env::var_os("CC").unwrap_or_else(|| "cc".into()));
    cc.args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-O1", "-I"])
        .arg(root.join("crates/ffi/include"))
        .arg(root.join("examples/c/probe.c"))
        .arg("-o")
        .arg(out);
    if link_static {
        // The system libraries Rust's standard library needs (`rustc --print native-static-libs`).
        cc.arg(lib.join("libendgame.a")).args([
            "-lgcc_s",
            "-lutil",
            "-lrt",
            "-lpthread",
            "-lm",
            "-ldl",
            "-lc",
        ]);
    } else {
        cc.arg("-L").arg(&lib).arg("-lendgame").arg(format!("-Wl,-rpath,{}", lib.display()));
    }
    let status = cc.status().expect("running the C compiler `cc`");
    assert!(status.success(), "cc failed on examples/c/probe.c ({status})");
}

fn describe(value: RuleValue) -> String {
    let category = report::category(value);
    match (value.wdl(), value.ban(), report::dtm(value)) {
        (endgame_core::Wdl::Draw, ..) => "draw".to_string(),
        (_, Some(ban), _) => format!("{category} by the {ban} rule"),
        (_, None, Some(dtm)) => format!("{category} in {} plies", dtm.abs()),
        (_, None, None) => unreachable!("a mate has a distance"),
    }
}

/// What probe.c prints for `fen`, from the Rust API.
fn expected(tables: &Tablebases, fen: &str) -> String {
    let position = match typed::fen(fen) {
        Ok(position) => position,
        Err(e) => return format!("{fen}: error 1: {e}\n"),
    };
    let value = match tables.probe(&position) {
        Ok(value) => value,
        Err(e) => {
            let code = if e.is_illegal() { 1 } else { 2 };
            return format!("{fen}: error {code}: position: {e}\n");
        }
    };
    let moves = tables.moves(&position).expect("the moves of a probed position");
    let best = moves.first().map_or_else(|| "0000".to_string(), |m| m.mv.to_string());
    let wdl = match value.wdl() {
        endgame_core::Wdl::Win => 1,
        endgame_core::Wdl::Draw => 0,
        endgame_core::Wdl::Loss => -1,
    };
    let mut text = format!("{fen}: {} (wdl {wdl}), best move {best}\n", describe(value));
    for m in &moves {
        text += &format!("  {} {}\n", m.mv, describe(m.value));
    }
    text
}

/// Runs `exe` on `fens` under `rules` and compares its output with the Rust API's answers.
fn check(exe: &Path, dir: &Path, rules: Rules, fens: &[&str], status: i32) {
    let tables = Tablebases::open(dir, rules);
    let output = Command::new(exe)
        .arg("--dir")
        .arg(dir)
        .args(["--rules", rules.name()])
        .args(fens)
        .output()
        .expect("running probe");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    let want: String = fens.iter().map(|fen| expected(&tables, fen)).collect();
    assert_eq!(stdout, want, "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(output.status.code(), Some(status), "{}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn the_c_example_answers_as_the_rust_api() {
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("c-example-{}", std::process::id()));
    // No table files: materials of up to 4 men are solved in memory, larger ones are missing.
    let dir = tmp.join("tables");
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let fens = [
        // A Chariot and an Advisor against a lone General: a win in 3 plies.
        "4k4/9/9/9/9/9/9/9/4A4/3RK4 w",
        // The same, Black to move.
        "4k4/9/9/9/9/9/9/9/4A4/3RK4 b",
        // Black is checkmated: no legal move, best move 0000.
        "R2k5/R8/9/9/9/9/9/9/9/4K4 b",
        // An Advisor each: a draw.
        "3k5/4a4/9/9/9/9/9/9/4A4/4K4 w",
        // Bad input: not FEN, then a position where the side not to move is in check.
        "not a fen",
        "4k4/9/9/9/9/9/9/9/9/3KR4 w",
        // Five men without a table file: missing.
        "9/5n3/4k4/9/4n4/9/3R5/4K4/9/9 w",
    ];
    // The Chariot against a Horse that can only check forever: a win by the rule.
    let by_rule = ["9/9/4k4/9/9/9/9/9/1n7/R2K5 w", "9/9/4k4/9/9/9/9/9/1n1K5/R8 b"];
    // The positions show what their comments say (so that the comparisons below cover them).
    let tables = Tablebases::open(&dir, Rules::Standard);
    assert!(expected(&tables, fens[0]).starts_with(&format!("{}: win in 3 plies (wdl 1)", fens[0])));
    assert!(expected(&tables, fens[2]).ends_with("loss in 0 plies (wdl -1), best move 0000\n"));
    assert!(expected(&tables, fens[3]).contains(": draw (wdl 0)"));
    assert!(expected(&tables, fens[4]).contains("error 1: FEN \"not a fen\""));
    assert!(expected(&tables, fens[5]).contains("error 1: position: Black is in check"));
    assert!(expected(&tables, fens[6]).contains("error 2: position: material KRvKNN is not generated"));
    let rule = Tablebases::open(&dir, Rules::PerpetualCheck);
    assert!(expected(&rule, by_rule[0]).contains("win by the perpetual-check rule (wdl 1)"));
    assert!(expected(&rule, by_rule[1]).contains("loss by the perpetual-check rule (wdl -1)"));
    for (name, link_static) in [("probe-static", true), ("probe-shared", false)] {
        let exe = tmp.join(name);
        compile(&exe, link_static);
        check(&exe, &dir, Rules::Standard, &fens, 1);
        check(&exe, &dir, Rules::Standard, &fens[6..], 2);
        check(&exe, &dir, Rules::PerpetualCheck, &by_rule, 0);
    }
    let listed = std::fs::read_dir(dir.join("xiangqi/standard")).map_or(0, Iterator::count);
    assert_eq!(listed, 0, "probing wrote no file");
    std::fs::remove_dir_all(&tmp).expect("removing the scratch directory");
}
