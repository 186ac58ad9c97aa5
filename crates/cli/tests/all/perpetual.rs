//! The `endgame xiangqi` subcommands under `--rules perpetual-check`: table files with rule
//! values, `stats` counting the changed draws, `solve`/`moves` on the hand-checked positions
//! of `docs/rules.md`, and the refusals.

use assert_cmd::Command;
use serde_json::Value as Json;

use crate::common::{self, endgame_without_tables as endgame, json, stderr, stdout};

/// The defender's perpetual check no longer saves it (Black to move loses by the rule).
const DEFENDER: &str = "9/9/4k4/9/9/9/n8/9/9/R2K5 b";
/// Red to move (in check) wins by the rule.
const WINNER: &str = "9/9/4k4/9/9/9/9/9/1n7/R2K5 w";
/// The checking side must avoid the perpetual check that only it keeps up.
const AVOID: &str = "9/9/4k4/9/9/n8/9/9/3K5/3R5 b";

fn temp_dir(name: &str) -> std::path::PathBuf {
    common::temp_dir(&format!("perpetual-{name}"))
}

/// `xiangqi <sub> --rules perpetual-check --dir <dir> <args>`.
fn rule(sub: &str, dir: &std::path::Path, args: &[&str]) -> Command {
    let mut command = endgame();
    command.args(["xiangqi", sub, "--rules", "perpetual-check", "--dir"]).arg(dir).args(args);
    command
}

#[test]
fn generate_stats_solve_and_moves_from_files() {
    let dir = temp_dir("files");
    let text = stdout(&mut rule("generate", &dir, &["KRvKN"]));
    assert!(text.contains("4 tables generated") && text.contains("rules perpetual-check"), "{text}");
    let files = dir.join("xiangqi/perpetual-check");
    for m in ["KvK", "KRvK", "KNvK", "KRvKN"] {
        assert!(files.join(format!("{m}.wdl")).exists() && files.join(format!("{m}.dtm")).exists(), "{m}");
    }
    // The standard draws of KRvKN split as the in-memory solver counted them.
    let v = json(&mut rule("stats", &dir, &["KRvKN", "--json"]));
    assert_eq!(v["rules"], "perpetual-check");
    assert_eq!((v["wins_by_rule"].as_u64(), v["losses_by_rule"].as_u64()), (Some(624), Some(2570)));
    assert_eq!((v["draws"].as_u64(), v["standard_draws"].as_u64()), (Some(1218), Some(4412)));
    // Each side to move: the two add up to the figures of both.
    for key in ["positions", "wins", "losses", "draws", "wins_by_rule", "losses_by_rule"] {
        let (red, black) = (&v["red_to_move"][key], &v["black_to_move"][key]);
        assert_eq!(red.as_u64().unwrap() + black.as_u64().unwrap(), v[key].as_u64().unwrap(), "{key}");
    }
    let standard = json(endgame().args(["xiangqi", "stats", "KRvKN", "--json", "--dir"]).arg(&dir));
    assert_eq!(standard["draws"], 4412);
    assert!(standard.get("wins_by_rule").is_none());
    for field in ["positions", "wins", "losses", "longest_red_win_plies", "longest_black_win_plies"] {
        assert_eq!(v[field], standard[field], "{field}");
    }
    let text = stdout(&mut rule("stats", &dir, &["KRvKN"]));
    assert!(
        text.contains("standard draws: 4412: 624 became wins, 2570 losses by the rule, 1218 stayed drawn")
            && text.contains("wins by rule  losses by rule  longest win"),
        "{text}"
    );

    // The defender's perpetual check no longer saves it: the one move not mated is a check,
    // and the line ends when Black's checks bring a position back.
    let text = stdout(&mut rule("solve", &dir, &[DEFENDER]));
    assert!(text.contains("Result: Black to move: loss by the perpetual-check rule."), "{text}");
    assert!(text.contains("Best move: a3b1: loss by the perpetual-check rule."), "{text}");
    assert!(text.contains("Black can only check forever and loses by the perpetual-check rule."), "{text}");
    let v = json(&mut rule("solve", &dir, &[DEFENDER, "--json"]));
    assert_eq!(
        (&v["category"], &v["rule"], &v["dtm"]),
        (&Json::from("loss"), &Json::from("perpetual-check"), &Json::Null)
    );
    assert_eq!(v["line_end"], "perpetual_check");
    let v = json(&mut rule("moves", &dir, &[DEFENDER, "--json"]));
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves[0]["uci"], "a3b1");
    assert_eq!(
        (&moves[0]["category"], &moves[0]["rule"]),
        (&Json::from("win"), &Json::from("perpetual-check"))
    );
    assert!(
        moves[1..].iter().all(|m| m["category"] == "win" && m["dtm"].is_i64() && m.get("rule").is_none())
    );

    // The winner: Red's forced answer keeps the win; Black can only check again.
    let v = json(&mut rule("solve", &dir, &[WINNER, "--json"]));
    assert_eq!(
        (&v["category"], &v["rule"], &v["dtm"]),
        (&Json::from("win"), &Json::from("perpetual-check"), &Json::Null)
    );
    assert_eq!(v["best_move"], "d0d1");
    assert_eq!(v["line_end"], "perpetual_check");

    // The checking side must avoid the perpetual check only it keeps up: a4c3 draws, the
    // other check, a4b2, now loses (under standard rules both draw).
    let text = stdout(&mut rule("moves", &dir, &[AVOID]));
    assert!(text.contains("Result: Black to move: draw (endless play)."), "{text}");
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("  H")).collect();
    assert!(lines[0].contains("a4c3") && lines[0].contains("draw (endless play)"), "{text}");
    assert!(lines[1].contains("a4b2") && lines[1].contains("loss by the perpetual-check rule"), "{text}");
    let standard = stdout(endgame().args(["xiangqi", "moves", AVOID, "--dir"]).arg(&dir));
    let draws = standard.lines().filter(|l| l.contains("draw (endless play)")).count();
    assert_eq!(draws, 3, "{standard}");

    // Files kept on a second run.
    let text = stdout(&mut rule("generate", &dir, &["KRvKN"]));
    assert!(text.contains("0 tables generated, 4 already there"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_generation_from_the_standard_files_writes_the_same_bytes() {
    let (with, without) = (temp_dir("with-standard"), temp_dir("without-standard"));
    endgame().args(["xiangqi", "generate", "KNvKR", "--dir"]).arg(&with).assert().success();
    rule("generate", &with, &["KNvKR"]).assert().success();
    rule("generate", &without, &["KNvKR"]).assert().success();
    for m in ["KvK", "KNvK", "KRvK", "KRvKN"] {
        for extension in ["wdl", "dtm"] {
            let name = format!("xiangqi/perpetual-check/{m}.{extension}");
            let a = std::fs::read(with.join(&name)).unwrap();
            assert_eq!(a, std::fs::read(without.join(&name)).unwrap(), "{m}.{extension}");
            // Another rule set's file of the same material differs (its header names the rules).
            let standard = std::fs::read(with.join(format!("xiangqi/standard/{m}.{extension}"))).unwrap();
            assert_ne!(a, standard, "{m}.{extension}");
        }
    }
    let v = json(&mut rule("stats", &with, &["KNvKR", "--json"]));
    assert_eq!((v["wins_by_rule"].as_u64(), v["losses_by_rule"].as_u64()), (Some(624), Some(2570)));
    std::fs::remove_dir_all(&with).unwrap();
    std::fs::remove_dir_all(&without).unwrap();
}

#[test]
fn without_files_small_materials_are_solved_in_memory() {
    let v = json(endgame().args(["xiangqi", "solve", "--rules", "perpetual-check", "--json", DEFENDER]));
    assert_eq!((&v["category"], &v["rule"]), (&Json::from("loss"), &Json::from("perpetual-check")));
    assert_eq!(v["best_move"], "a3b1");
    // A decided position keeps its mate distance.
    let v = json(endgame().args([
        "xiangqi",
        "solve",
        "--rules",
        "perpetual-check",
        "--json",
        "4k4/9/9/9/9/9/9/9/9/R2K5 w",
    ]));
    assert_eq!((&v["category"], &v["dtm"]), (&Json::from("win"), &Json::from(3)));
    assert!(v.get("rule").is_none());
}

/// Under a ban a generation needs less than its estimate (without predecessor lists, slower):
/// `--dry-run` says the least beside the estimate; `--memory` of the least writes the same
/// files as a generation with every list, within it; below the least the material is refused
/// before it is solved; a malformed value is the user's input.
#[test]
fn a_generation_within_the_least_memory_writes_the_same_bytes() {
    let (full, least) = (temp_dir("least-full"), temp_dir("least"));
    let generate = |dir: &std::path::Path, args: &[&str]| {
        let mut command = endgame();
        command.args(["xiangqi", "generate", "--rules", "check-and-chase", "--dir"]).arg(dir).args(args);
        command
    };
    let text = stdout(&mut generate(&least, &["--dry-run", "KCvKAB"]));
    let last = text.lines().last().unwrap();
    let at = last.find(" of memory (at least ").unwrap_or_else(|| panic!("{last}"))
        + " of memory (at least ".len();
    let (number, unit) = last[at..].strip_suffix(", slower)").unwrap().split_once(' ').unwrap();
    assert_eq!(unit, "MiB", "{last}");
    // In whole MiB, rounded up: the lists get less than one.
    let mib = number.parse::<f64>().unwrap().ceil() as u64;
    let refused = stderr(&mut generate(&least, &["KCvKAB", "--memory", "1M"]), 2);
    assert!(
        refused.contains("needs at least about") && refused.contains("only 1 MiB are available"),
        "{refused}"
    );
    assert!(!least.join("xiangqi/check-and-chase/KCvKAB.wdl").exists());
    let bad = stderr(&mut generate(&least, &["KCvKAB", "--memory", "lots"]), 2);
    assert!(
        bad.contains("expected a number of bytes such as 268435456, 256M or 2G, found \"lots\""),
        "{bad}"
    );
    let out = stdout(&mut generate(&least, &["KCvKAB", "--memory", &format!("{mib}M")]));
    assert!(out.contains(&format!("(estimate {mib} MiB)")), "{out}");
    stdout(&mut generate(&full, &["KCvKAB"]));
    let files = std::fs::read_dir(full.join("xiangqi/check-and-chase")).unwrap();
    let names: Vec<_> = files.map(|f| f.unwrap().file_name()).collect();
    assert!(names.len() >= 10, "{names:?}");
    for name in names {
        let name = std::path::Path::new("xiangqi/check-and-chase").join(name);
        assert_eq!(
            std::fs::read(least.join(&name)).unwrap(),
            std::fs::read(full.join(&name)).unwrap(),
            "{name:?}"
        );
    }
    std::fs::remove_dir_all(&full).unwrap();
    std::fs::remove_dir_all(&least).unwrap();
}

#[test]
fn a_standard_file_is_not_read_as_a_perpetual_check_one() {
    let dir = temp_dir("mismatch");
    endgame().args(["xiangqi", "generate", "KRvK", "--dir"]).arg(&dir).assert().success();
    let rules_dir = dir.join("xiangqi/perpetual-check");
    std::fs::create_dir_all(&rules_dir).unwrap();
    for name in ["KRvK.wdl", "KRvK.dtm"] {
        std::fs::copy(dir.join("xiangqi/standard").join(name), rules_dir.join(name)).unwrap();
    }
    let err = stderr(&mut rule("solve", &dir, &["4k4/9/9/9/9/9/9/9/9/R2K5 w"]), 1);
    assert!(err.contains("holds xiangqi KRvK under rules standard"), "{err}");
    assert!(err.contains("expected xiangqi KRvK under rules perpetual-check"), "{err}");
    // A generation replaces it, and a perpetual-check file is not read as a standard one.
    let err = stderr(&mut rule("generate", &dir, &["KRvK"]), 0);
    assert!(
        err.contains("KRvK: ") && err.contains("under rules standard") && err.contains("generating it anew"),
        "{err}"
    );
    for name in ["KRvK.wdl", "KRvK.dtm"] {
        std::fs::copy(rules_dir.join(name), dir.join("xiangqi/standard").join(name)).unwrap();
    }
    let err = stderr(endgame().args(["xiangqi", "stats", "KRvK", "--dir"]).arg(&dir), 1);
    assert!(err.contains("holds xiangqi KRvK under rules perpetual-check"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_rules_name_exits_2_listing_the_names_and_help_says_chasing_is_not_modelled() {
    let err =
        stderr(endgame().args(["xiangqi", "solve", "--rules", "asian", "4k4/9/9/9/9/9/9/9/9/R2K5 w"]), 2);
    assert!(
        err.contains(
            "expected a rule set (standard, hdu, perpetual-check, check-and-chase), found \"asian\""
        ),
        "{err}"
    );
    for sub in ["solve", "moves", "generate", "stats"] {
        // Words only: clap wraps the help at the terminal's width.
        let help = stdout(endgame().args(["xiangqi", sub, "--help"]))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            help.contains("perpetual-check") && help.contains("chasing rules are not modelled"),
            "{sub}: {help}"
        );
    }
}

#[test]
fn materials_beyond_the_rule_solvers_32_bit_numbers_are_refused_before_anything_starts() {
    let dir = temp_dir("beyond");
    // 7,085,880,000 indices: the `standard` solver takes it, the rule's solver does not.
    let err = stderr(&mut rule("generate", &dir, &["KNRvKNR"]), 2);
    assert!(err.contains("KNRvKNR has 6 men: its index has 7085880000 positions, more than the perpetual-check solver's limit"), "{err}");
    assert!(std::fs::read_dir(dir.join("xiangqi/perpetual-check")).map_or(true, |mut d| d.next().is_none()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_and_chase_keeps_every_result_of_the_ban_on_perpetual_check_up_to_4_men() {
    // No material up to 4 men has a result of the ban on perpetual chase (the library's tests
    // compare every value): `KRvKN` under `check-and-chase` is `KRvKN` under `perpetual-check`,
    // with the same keys in `stats --json`, and its results name the ban that decided them.
    let dir = temp_dir("check-and-chase");
    let chase = |sub: &str, args: &[&str]| {
        let mut command = endgame();
        command.args(["xiangqi", sub, "--rules", "check-and-chase", "--dir"]).arg(&dir).args(args);
        command
    };
    let text = stdout(&mut chase("generate", &["KRvKN"]));
    assert!(text.contains("4 tables generated") && text.contains("rules check-and-chase"), "{text}");
    assert!(dir.join("xiangqi/check-and-chase/KRvKN.wdl").exists());
    let v = json(&mut chase("stats", &["KRvKN", "--json"]));
    let check = json(&mut rule("stats", &dir, &["KRvKN", "--json"]));
    assert_eq!(v["rules"], "check-and-chase");
    let keys = |j: &Json| j.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&v), keys(&check));
    for (key, value) in check.as_object().unwrap() {
        if key != "rules" {
            assert_eq!(&v[key], value, "{key}");
        }
    }
    let v = json(&mut chase("solve", &[DEFENDER, "--json"]));
    assert_eq!((&v["category"], &v["rule"]), (&Json::from("loss"), &Json::from("perpetual-check")));
    assert_eq!(v["line_end"], "perpetual_check");
    // In memory, without files.
    let v = json(endgame().args(["xiangqi", "solve", "--rules", "check-and-chase", "--json", WINNER]));
    assert_eq!((&v["category"], &v["rule"]), (&Json::from("win"), &Json::from("perpetual-check")));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A generation's peak resident memory (the summary's `peak memory`, the kernel's count of the
/// process) stays within the estimate it announces, under each rule set, for a material with
/// Advisors and Elephants whose draws the bans work on: without the `standard` files (the
/// estimate then counts every index as a possible draw) and with them beside (the estimate
/// from their number of draws). Both are read as printed, to three significant digits
/// (`endgame_core::units::bytes`, which keeps their order: a peak printed above its estimate
/// is above it).
#[cfg(target_os = "linux")]
#[test]
fn every_rule_sets_generation_peaks_within_its_estimate() {
    let dir = temp_dir("memory");
    let peak_and_estimate = |rules: &str| {
        let out =
            stdout(endgame().args(["xiangqi", "generate", "KCvKAB", "--rules", rules, "--dir"]).arg(&dir));
        let size = |after: &str| -> f64 {
            let at = out.find(after).unwrap_or_else(|| panic!("no {after:?} in {out}")) + after.len();
            let mut words = out[at..].split_whitespace().map(|w| w.trim_end_matches([')', ',']));
            let (number, unit) = (words.next().unwrap(), words.next().unwrap());
            let number: f64 =
                number.replace(',', "").parse().unwrap_or_else(|_| panic!("{after:?} in {out}"));
            let power = ["B", "KiB", "MiB", "GiB"].iter().position(|u| *u == unit);
            number * 1024f64.powi(power.unwrap_or_else(|| panic!("{after:?} in {out}")) as i32)
        };
        (size("peak memory "), size("(estimate "))
    };
    let standard = dir.join("xiangqi/standard");
    for rules in ["perpetual-check", "check-and-chase", "standard", "perpetual-check", "check-and-chase"] {
        let with_standard = standard.join("KCvKAB.wdl").exists();
        let (peak, estimate) = peak_and_estimate(rules);
        assert!(
            peak <= estimate,
            "{rules} (standard files: {with_standard}): peak {peak} bytes, estimate {estimate}"
        );
        if rules != "standard" {
            // Generated anew on the next round, with the `standard` files beside.
            std::fs::remove_dir_all(dir.join("xiangqi").join(rules)).unwrap();
        }
    }
    assert!(standard.join("KCvKAB.wdl").exists());
    let _ = std::fs::remove_dir_all(dir);
}
