//! The `endgame` tool on Xiangqi: the HDU 5897 judge and the `xiangqi` subcommands.

use crate::common::{
    endgame_without_tables as endgame, json, judge_failure, stderr, stderr_of, stdout, stdout_of,
};

const SAMPLE_IN: &str = include_str!("../../../xiangqi/tests/data/sample.in");
const SAMPLE_OUT: &str = include_str!("../../../xiangqi/tests/data/sample.out");
const FEN: &str = "3k5/9/9/9/9/3n5/9/9/9/3K5 w";

#[test]
fn judge_sample_byte_for_byte() {
    endgame().args(["judge", "hdu5897"]).write_stdin(SAMPLE_IN).assert().success().stdout(SAMPLE_OUT);
}

#[test]
fn judge_bad_input_exits_2_naming_case_and_token() {
    let (out, err) = judge_failure("hdu5897", "2\n0 0 9 3 0 3 1\n0 0 9 3 3 3 0\n");
    assert_eq!(out, "Lose in 1 steps T.T!\n");
    assert_eq!(
        err,
        "error: case 2, token 5 (x3), line 3: expected the rank x3 of Alice's General, 0..=2 (her palace), found \"3\"\n"
    );
}

#[test]
fn solve_prints_result_line_and_boards() {
    let text = stdout(endgame().args(["xiangqi", "solve", "--rules", "hdu", FEN]));
    assert!(text.contains("Result: Red to move: loss in 10 plies."), "{text}");
    assert!(text.contains("Main line (10 plies): d0d1 "), "{text}");
    assert!(text.contains("Black has captured Red's General."), "{text}");
    assert_eq!(text.matches("   a b c d e f g h i").count(), 2, "{text}");
}

#[test]
fn json_parses_with_lichess_like_fields() {
    let v = json(endgame().args(["xiangqi", "moves", "--rules", "hdu", "--json", FEN]));
    assert_eq!(v["category"], "loss");
    assert_eq!(v["dtm"], -10);
    assert_eq!(v["moves"][0]["uci"], "d0d1");
    assert_eq!(v["moves"][0]["category"], "win");
    assert_eq!(v["moves"][0]["dtm"], 9);
    let v = json(endgame().args(["xiangqi", "solve", "--rules", "hdu", "--json", FEN]));
    assert_eq!(v["best_move"], "d0d1");
    assert_eq!(v["main_line"].as_array().unwrap().len(), 10);
    assert_eq!(v["line_end"], "general_captured");
}

#[test]
fn bad_positions_exit_2_with_the_reason() {
    let err = |args: &[&str]| stderr(endgame().args(args), 2);
    let empty = temp_dir("empty");
    let out = stderr(
        endgame()
            .args(["xiangqi", "solve", "3rk4/9/9/9/9/9/9/9/9/3K1RR2 w", "--rules", "standard"])
            .env("ENDGAME_TB_DIR", &empty),
        2,
    );
    assert!(out.contains("material KRRvKR is not generated under standard rules"), "{out}");
    assert!(out.contains("endgame xiangqi generate KRRvKR --rules standard"), "{out}");
    assert!(
        err(&["xiangqi", "solve", "4k4/9/9/9/9/9/9/9/9/4RK3 w", "--rules", "standard"])
            .contains("illegal under standard rules")
    );
    assert!(err(&["xiangqi", "solve", "4k4/9/9/9/9/9/9/9/9/3KA4 w"]).contains("can never reach"));
    assert!(
        err(&["xiangqi", "stats", "KRRRvK"]).contains("material \"KRRRvK\": Red has 3 pieces 'R', at most 2")
    );
    assert!(err(&["xiangqi", "stats", "KvKX"]).contains("expected a piece letter"));
    assert!(err(&["xiangqi", "stats", "KvK", "--rules", "asian"]).contains("--rules"));
    assert!(err(&["xiangqi", "moves", "4k4/9/9 w"]).contains("expected 10 ranks"));
    assert!(err(&["xiangqi", "solve", "4k4/9/9/9/9/9/4K4/9/9/9 w"]).contains("outside its palace"));
}

#[test]
fn judge_reads_a_file_and_the_demo_runs() {
    let dir = crate::common::temp_dir("xiangqi");
    let file = dir.join("sample.in");
    std::fs::write(&file, SAMPLE_IN).unwrap();
    endgame().args(["judge", "hdu5897"]).arg(&file).assert().success().stdout(SAMPLE_OUT);
    std::fs::remove_dir_all(&dir).unwrap();
    let text = stdout(endgame().arg("demo"));
    assert!(text.contains("HDU 5897") && text.contains("Lose in 1 steps T.T!"), "{text}");
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    crate::common::temp_dir(&format!("xiangqi-tb-{name}"))
}

#[test]
fn stats_json_matches_the_published_figures() {
    let dir = temp_dir("stats");
    let v = json(endgame().args(["xiangqi", "stats", "KRvKA", "--json"]).env("ENDGAME_TB_DIR", &dir));
    // GamesmanXiangqi's published figures for KRvKA (tests/data/anchors).
    assert_eq!(v["positions"], 41313);
    assert_eq!(v["wins"], 18507);
    assert_eq!(v["losses"], 22074);
    assert_eq!(v["draws"], 732);
    assert_eq!(v["longest_red_win_plies"], 9);
    assert_eq!(v["longest_black_win_plies"], 0);
    // Each side to move: the two add up to the figures above.
    for key in ["positions", "wins", "losses", "draws"] {
        let (red, black) = (&v["red_to_move"][key], &v["black_to_move"][key]);
        assert_eq!(red.as_u64().unwrap() + black.as_u64().unwrap(), v[key].as_u64().unwrap(), "{key}");
    }
    assert_eq!(v["red_to_move"]["longest_win_plies"], 9);
    assert_eq!(v["black_to_move"]["longest_win_plies"], 0);
    // Black (the lone Advisor) never wins with Red's Chariot on the board.
    assert_eq!(v["black_to_move"]["wins"], 0);
    for m in ["KRvKA", "KAvK"] {
        for extension in ["wdl", "dtm"] {
            assert!(dir.join(format!("xiangqi/standard/{m}.{extension}")).exists(), "{m}.{extension}");
        }
    }
    // KvKA (after the Rook's capture) is answered from the files of its colour twin.
    assert!(!dir.join("xiangqi/standard/KvKA.wdl").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn verify_checks_generated_files_against_the_rules() {
    let dir = temp_dir("verify");
    endgame().args(["xiangqi", "generate", "KNvKA", "--dir"]).arg(&dir).assert().success();
    let out = stdout(endgame().args(["xiangqi", "verify", "KNvKA", "--dir"]).arg(&dir));
    // 48,600 indices: every one is checked with the default sample size.
    assert!(
        out.contains("KNvKA under standard rules, every index:") && out.contains("every value agrees"),
        "{out}"
    );
    let out = stdout(
        endgame().args(["xiangqi", "verify", "KNvKA", "--samples", "300", "--seed", "5", "--dir"]).arg(&dir),
    );
    assert!(out.contains("a random sample"));
    // Not generated (5 men are not solved on the fly), other rules, not a material: the
    // user's input (exit 2).
    for args in [&["KRRvKA"][..], &["KNvKA", "--rules", "hdu"], &["KNvKQ"]] {
        let out = stderr(endgame().args(["xiangqi", "verify"]).args(args).arg("--dir").arg(&dir), 2);
        assert!(out.starts_with("error: "), "{args:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Of two colour twins only the file of the one players write is generated, and it answers for
/// both (`solve`, `stats`); the summary gives the peak memory and its estimate.
#[test]
fn generate_writes_one_file_for_colour_twins() {
    let dir = temp_dir("twins");
    let run = endgame().args(["xiangqi", "generate", "KRvKN", "KNvKR", "--dir"]).arg(&dir).assert().success();
    let (out, err) = (stdout_of(&run), stderr_of(&run));
    // KvK, KRvK (and KvKR), KNvK (and KvKN), KRvKN (and KNvKR): one file for each pair.
    assert!(
        out.starts_with(
            "4 tables generated, 0 already there, 4 in all (and 3 materials answered from their colour twins' files)"
        ),
        "{out}"
    );
    assert!(out.contains("peak memory") && out.contains("(estimate"), "{out}");
    assert!(err.contains("KNvKR: answered from the file of its colour twin KRvKN"), "{err}");
    let files = dir.join("xiangqi/standard");
    for (m, written) in [("KvK", true), ("KRvKN", true), ("KNvKR", false), ("KvKR", false), ("KNvK", true)] {
        for extension in ["wdl", "dtm"] {
            assert_eq!(files.join(format!("{m}.{extension}")).exists(), written, "{m}.{extension}");
        }
    }
    // KNvKR answered from KRvKN's file, as the same position seen from the other side.
    let solve = |fen: &str| json(endgame().args(["xiangqi", "solve", "--json", fen, "--dir"]).arg(&dir));
    let (red, black) = (solve("4k4/9/9/9/9/9/9/2n6/9/R2K5 w"), solve("r2k5/9/2N6/9/9/9/9/9/9/4K4 b"));
    assert_eq!((red["material"].as_str(), black["material"].as_str()), (Some("KRvKN"), Some("KNvKR")));
    assert_eq!(red["dtm"], black["dtm"]);
    assert_eq!(red["category"], black["category"]);
    let stats = |m: &str| json(endgame().args(["xiangqi", "stats", "--json", m, "--dir"]).arg(&dir));
    let (krkn, knkr) = (stats("KRvKN"), stats("KNvKR"));
    assert_eq!(krkn["positions"], knkr["positions"]);
    assert_eq!(krkn["longest_red_win_plies"], knkr["longest_black_win_plies"]);
    assert!(!files.join("KNvKR.wdl").exists(), "stats found the twin's file: nothing generated");
    let _ = std::fs::remove_dir_all(dir);
}

/// `--attackers`, `--defenders`, `--max-positions` and `--dry-run`: the materials as players
/// count them, listed with their sizes and totals; bad values are the user's input (exit 2).
#[test]
fn generate_lists_materials_by_attackers_and_defenders() {
    let dir = temp_dir("attackers");
    let dry_run = || {
        let mut command = endgame();
        command.args(["xiangqi", "generate", "--dry-run", "--dir"]).arg(&dir);
        command
    };
    let run = |args: &[&str]| stdout(dry_run().args(args));
    let text = run(&["--attackers", "1"]);
    assert!(
        text.contains(
            "369 materials asked for, 405 with what they need (36 answered from their colour twins' files): 369 files, 7,571,856,348 positions"
        ),
        "{text}"
    );
    assert!(text.contains("369 files to generate (0 there)"), "{text}");
    assert_eq!(text.lines().count(), 369 + 2);
    let line = text.lines().find(|l| l.starts_with("KRvKAABB ")).unwrap();
    assert!(line.contains(" 2,041,200 positions "), "{line}");
    // Every size in binary units, every count grouped (issue 40).
    let memory = line.split(" positions ").nth(1).unwrap().trim();
    assert!(is_size(memory), "{line}");
    let last = text.lines().last().unwrap();
    let peak = last.strip_prefix("369 files to generate (0 there), 7,571,856,348 positions, at most ");
    assert!(peak.and_then(|p| p.strip_suffix(" of memory")).is_some_and(is_size), "{last}");
    let text = run(&["--attackers", "1", "--defenders", "none-vs-full"]);
    let names: Vec<&str> = text.lines().filter_map(|l| l.split_whitespace().next()).collect();
    for m in ["KRvKAABB", "KNvKAABB", "KCvKAABB", "KPvKAABB", "KAABBvK"] {
        assert!(names.contains(&m), "{m}: {text}");
    }
    assert!(text.starts_with("KvK "), "{text}");
    // Within 1 million positions only the smaller ones.
    let text = run(&["--attackers", "1", "--defenders", "none-vs-full", "--max-positions", "1M"]);
    assert!(!text.contains("KRvKAABB") && text.contains("KAABBvK"), "{text}");
    for (args, expected) in [
        (&["--attackers", "1", "--defenders", "some"][..], "expected any, none, full"),
        (&["--attackers", "1", "--max-positions", "lots"], "expected a number of positions"),
        (&["--defenders", "none"], "--attackers"),
        (&["--attackers", "1", "--max-positions", "10"], "none within --max-positions"),
    ] {
        let err = stderr(dry_run().args(args), 2);
        assert!(err.contains(expected), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A size as `endgame_core::units::bytes` writes it: `36 MiB`, `1.97 GiB`, `1,000 MiB`.
fn is_size(text: &str) -> bool {
    text.split_once(' ').is_some_and(|(number, unit)| {
        !number.is_empty()
            && number.chars().all(|c| c.is_ascii_digit() || c == ',' || c == '.')
            && ["B", "KiB", "MiB", "GiB", "TiB"].contains(&unit)
    })
}

/// Issue 40: what generation prints. One material is "1 material"; a speed below a million
/// positions a second is a count, not "0.0 million"; a table is its two files, both named; a
/// material typed with its pieces in another order is said once, in the order of every later
/// line.
#[test]
fn generate_names_both_files_and_the_material_as_written() {
    let dir = temp_dir("messages");
    let dry_run = stdout(endgame().args(["xiangqi", "generate", "--dry-run", "KRvKA", "--dir"]).arg(&dir));
    assert!(dry_run.contains("\n1 material asked for, 4 with what they need"), "{dry_run}");
    let run = endgame().args(["xiangqi", "generate", "KvK", "--dir"]).arg(&dir).assert().success();
    let err = stderr_of(&run);
    let written = err.lines().find(|l| l.starts_with("KvK: solved in ")).unwrap();
    let table = dir.join("xiangqi/standard/KvK.wdl");
    assert!(
        written.ends_with(&format!(" positions/s), written to {} and KvK.dtm", table.display())),
        "{written}"
    );
    assert!(!written.contains("million"), "{written}");
    let speed = written.split('(').nth(1).unwrap().split(' ').next().unwrap();
    assert!(speed.replace(',', "").parse::<u64>().unwrap() > 0, "{written}");
    assert!(dir.join("xiangqi/standard/KvK.dtm").exists());
    // Another order of the pieces: said once, on standard error.
    let run =
        endgame().args(["xiangqi", "generate", "--dry-run", "KRvKNA", "--dir"]).arg(&dir).assert().success();
    let err = stderr_of(&run);
    assert_eq!(err, "KRvKNA (written KRvKAN: each side's pieces in the order K A B N R C P)\n");
    assert!(stdout_of(&run).contains("\nKRvKAN "), "{}", stdout_of(&run));
    let run =
        endgame().args(["xiangqi", "generate", "--dry-run", "krvkan", "--dir"]).arg(&dir).assert().success();
    assert_eq!(stderr_of(&run), "");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn generate_writes_files_that_solve_reads_and_refuses_damaged_ones() {
    let dir = temp_dir("generate");
    let out = stdout(endgame().args(["xiangqi", "generate", "KCvKA", "--rules", "hdu", "--dir"]).arg(&dir));
    assert!(out.starts_with("4 tables generated, 0 already there, 4 in all"));
    let again = stdout(
        endgame()
            .args(["xiangqi", "generate", "--all-up-to", "2", "KCvK", "--rules", "hdu", "--dir"])
            .arg(&dir),
    );
    assert!(again.starts_with("0 tables generated, 2 already there, 2 in all"));
    let fen = "4k4/4a4/9/9/9/9/9/9/4C4/3K5 w";
    let v = json(endgame().args(["xiangqi", "moves", fen, "--rules", "hdu", "--json", "--dir"]).arg(&dir));
    assert_eq!(v["material"], "KCvKA");
    assert!(v["moves"].as_array().unwrap().len() > 10);
    // Damage the header (a block's checksum): the file is refused on opening.
    let file = dir.join("xiangqi/hdu/KCvKA.wdl");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[60] ^= 0x55;
    std::fs::write(&file, &bytes).unwrap();
    // Not the user's input: exit status 1.
    let err = stderr(endgame().args(["xiangqi", "moves", fen, "--rules", "hdu", "--dir"]).arg(&dir), 1);
    assert!(err.contains("KCvKA.wdl") && err.contains("checksum mismatch"), "{err}");
    assert!(err.contains("regenerate it with `endgame xiangqi generate KCvKA --rules hdu`"), "{err}");
    // A damaged block further in is found by generate's check, which replaces the file.
    bytes[60] ^= 0x55;
    let last = bytes.len() - 5;
    bytes[last] ^= 0x55;
    std::fs::write(&file, &bytes).unwrap();
    let run = endgame()
        .args(["xiangqi", "generate", "KCvKA", "--rules", "hdu", "--dir"])
        .arg(&dir)
        .assert()
        .success();
    let (out, err) = (stdout_of(&run), stderr_of(&run));
    assert!(
        out.starts_with("1 table generated (1 of them replacing damaged files), 3 already there, 4 in all"),
        "{out}"
    );
    assert!(err.contains("checksum mismatch (damaged file); generating it anew"), "{err}");
    endgame().args(["xiangqi", "moves", fen, "--rules", "hdu", "--dir"]).arg(&dir).assert().success();
    let left: Vec<_> =
        std::fs::read_dir(dir.join("xiangqi/hdu")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(
        left.iter().all(|n| [".wdl", ".dtm"].iter().any(|e| n.to_string_lossy().ends_with(e))),
        "{left:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn two_generators_into_one_directory_both_succeed() {
    let dir = temp_dir("two");
    let spawn = || {
        std::process::Command::new(assert_cmd::cargo::cargo_bin("endgame"))
            .args(["xiangqi", "generate", "KRvKA", "KCvKN", "--dir"])
            .arg(&dir)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn(), spawn());
    for child in [a, b] {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let names: Vec<String> = std::fs::read_dir(dir.join("xiangqi/standard"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| n.ends_with(".wdl") || n.ends_with(".dtm")), "{names:?}");
    assert_eq!(names.len(), 14, "{names:?}");
    // Every file is whole: a third run checks and keeps them all.
    let out = stdout(endgame().args(["xiangqi", "generate", "KRvKA", "KCvKN", "--dir"]).arg(&dir));
    assert!(out.starts_with("0 tables generated, 7 already there"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn positions_beyond_the_tables_get_an_error_at_once() {
    let err = |args: &[&str]| stderr(endgame().args(args), 2);
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    for command in ["solve", "moves"] {
        let e = err(&["xiangqi", command, start]);
        assert!(e.contains("material KAABBNNRRCCPPPPPvKAABBNNRRCCPPPPP has 32 men"), "{e}");
    }
    let e = err(&["xiangqi", "generate", "--dry-run", "KRRNNCCvKRRNNCC"]);
    assert!(e.contains("KNNRRCCvKNNRRCC has 14 men") && e.contains("does not fit in 64 bits"), "{e}");
    // Many 7-man materials need more memory than a machine of this kind has (the largest
    // hundreds of GiB).
    let e = err(&["xiangqi", "generate", "--dry-run", "--all-up-to", "7"]);
    assert!(e.contains("has 7 men: its index has") && e.contains("iB of memory, this machine has"), "{e}");
    let e = err(&["xiangqi", "generate", "--all-up-to", "8"]);
    assert!(e.contains("--all-up-to"), "{e}");
    let e = err(&["xiangqi", "stats", "KAABBPPPPPvKAABB"]);
    assert!(e.contains("has 15 men"), "{e}");
}

/// `solve --generate` and `moves --generate`: the tables the position needs are generated
/// (the estimate and a summary on standard error), then the answer is the one from the files;
/// a second run generates nothing. Without the flag the error says it exists.
#[test]
fn solve_and_moves_generate_what_they_need() {
    let dir = temp_dir("generate-on-demand");
    let fen = "3ak4/4a4/4b4/9/9/9/9/4N4/9/4K4 w";
    let err = stderr(endgame().args(["xiangqi", "moves", fen]).env("ENDGAME_TB_DIR", &dir), 2);
    assert!(
        err.contains("is not generated") && err.ends_with("(or add --generate to this command)\n"),
        "{err}"
    );
    let run = endgame()
        .args(["xiangqi", "solve", "--generate", "--json", fen])
        .env("ENDGAME_TB_DIR", &dir)
        .assert()
        .success();
    let (out, err) = (stdout_of(&run), stderr_of(&run));
    assert!(err.starts_with("KNvKAAB: 12 tables, 1,257,984 positions, about "), "{err}");
    assert!(err.contains("(standard rules) to generate\n"), "{err}");
    assert!(err.contains("KNvKAAB: 12 tables generated in "), "{err}");
    let solved: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(solved["material"], "KNvKAAB");
    // 12 tables: the files named as `Tablebases::path` names them (their presence means a table).
    let path = endgame_xiangqi::Tablebases::open(&dir, endgame_xiangqi::Rules::Standard)
        .path("KvK".parse().unwrap());
    let suffix = format!(".{}", path.extension().unwrap().to_string_lossy());
    let names = std::fs::read_dir(path.parent().unwrap()).unwrap().flatten();
    assert_eq!(names.filter(|e| e.file_name().to_string_lossy().ends_with(&suffix)).count(), 12);
    // Answered from the files now: the same answer without the flag, nothing generated.
    let again = stdout(endgame().args(["xiangqi", "solve", "--json", fen]).env("ENDGAME_TB_DIR", &dir));
    assert_eq!(again, out);
    let moves = endgame()
        .args(["xiangqi", "moves", "--generate", fen])
        .env("ENDGAME_TB_DIR", &dir)
        .assert()
        .success();
    assert_eq!(stderr_of(&moves), "");
    assert!(stdout_of(&moves).contains("legal moves, best first"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn manifest_and_verify_files_exit_0_then_1_naming_the_file() {
    let dir = temp_dir("manifest");
    endgame().args(["xiangqi", "generate", "KRvK", "--dir"]).arg(&dir).assert().success();
    let text = stdout(endgame().args(["xiangqi", "manifest"]).arg(&dir));
    assert!(text.contains("KRvK  standard  xiangqi/standard/KRvK.wdl  "), "{text}");
    assert!(dir.join("manifest.txt").exists());
    endgame().args(["xiangqi", "verify-files"]).arg(&dir).assert().success();
    let file = dir.join("xiangqi/standard/KRvK.wdl");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[40] ^= 0x10;
    std::fs::write(&file, &bytes).unwrap();
    let verify_files = || stdout_of(&endgame().args(["xiangqi", "verify-files"]).arg(&dir).assert().code(1));
    let out = verify_files();
    assert!(out.contains("differs: xiangqi/standard/KRvK.wdl (SHA-256 "), "{out}");
    std::fs::remove_file(dir.join("xiangqi/standard/KvK.dtm")).unwrap();
    assert!(verify_files().contains("missing: xiangqi/standard/KvK.dtm"));
    // Not a directory: the user's input.
    endgame().args(["xiangqi", "manifest"]).arg(dir.join("nowhere")).assert().code(2);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `generate --compression best` writes files that answer as the normal ones do;
/// `convert --rewrite --compression normal` turns them into exactly the normal files; an
/// unknown compression is the user's error, named.
#[test]
fn best_compression_answers_alike_and_rewrites_back() {
    let (normal, best) = (temp_dir("compression-normal"), temp_dir("compression-best"));
    endgame().args(["xiangqi", "generate", "KRvKN", "--dir"]).arg(&normal).assert().success();
    endgame()
        .args(["xiangqi", "generate", "KRvKN", "--compression", "best", "--dir"])
        .arg(&best)
        .assert()
        .success();
    for args in [
        &["stats", "KRvKN", "--json"][..],
        &["moves", "--json", "3k5/9/9/9/4n4/9/9/9/4R4/5K3 w"],
        &["solve", "--json", "3k5/9/9/9/4n4/9/9/9/4R4/5K3 w"],
    ] {
        let run = |dir: &std::path::Path| stdout(endgame().arg("xiangqi").args(args).arg("--dir").arg(dir));
        let (a, b) = (run(&normal), run(&best));
        if args[0] == "stats" {
            // The same statistics; only the files' sizes differ.
            let strip = |s: &str| {
                let mut v: serde_json::Value = serde_json::from_str(s).unwrap();
                let o = v.as_object_mut().unwrap();
                o.retain(|k, _| !k.starts_with("wdl_") && !k.starts_with("dtm_"));
                v
            };
            assert_eq!(strip(&a), strip(&b));
        } else {
            assert_eq!(a, b, "{args:?}");
        }
    }
    let out =
        stdout(endgame().args(["xiangqi", "convert", "--rewrite", "--compression", "normal"]).arg(&best));
    assert!(out.contains("tables converted or rewritten"));
    for name in ["KRvKN.wdl", "KRvKN.dtm", "KNvK.wdl", "KNvK.dtm"] {
        let file = |dir: &std::path::Path| std::fs::read(dir.join("xiangqi/standard").join(name)).unwrap();
        assert!(file(&normal) == file(&best), "{name}");
    }
    let err = stderr(
        endgame().args(["xiangqi", "generate", "KRvK", "--compression", "smallest", "--dir"]).arg(&best),
        2,
    );
    assert!(err.contains("unknown compression 'smallest': expected normal or best"), "{err}");
    std::fs::remove_dir_all(&normal).unwrap();
    std::fs::remove_dir_all(&best).unwrap();
}
