//! The checks of the fuzz targets, one function per target: each takes the fuzzer's bytes,
//! feeds them to one reader of endgame and panics only on a bug (a panic in the reader, or a
//! round trip parse -> print -> parse that does not give back what was parsed).
//!
//! The fuzz targets (`fuzz_targets/*.rs`, nightly and cargo-fuzz) call these functions; so does
//! the stable test `crates/cli/tests/all/fuzz_corpus.rs`, on every file of `fuzz/corpus/<target>/`
//! and `fuzz/artifacts/<target>/`, so that the seeds and every crash found stay checked by a
//! plain `cargo test`.

#![allow(missing_docs)]

use std::io::Write as _;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::OnceLock;

use endgame_core::search::Pruning;
use endgame_core::table::TableId;

/// A check: feeds the bytes to one reader, panics on a bug.
pub type Check = fn(&[u8]);

/// Every target: its name and its check.
pub const TARGETS: &[(&str, Check)] = &[
    ("xiangqi_fen", xiangqi_fen),
    ("iccs_move", iccs_move),
    ("judge_hdu5897", judge_hdu5897),
    ("judge_hdu1680", judge_hdu1680),
    ("judge_poj2706", judge_poj2706),
    ("judge_marine", judge_marine),
    ("twixt_sgf", twixt_sgf),
    ("twixt_t1", twixt_t1),
    ("twixt_judge_record", twixt_judge_record),
    ("cheesy_board", cheesy_board),
    ("marine_battle", marine_battle),
    ("table_file", table_file),
    ("xiangqi_pgn", xiangqi_pgn),
    ("xiangqi_xqf", xiangqi_xqf),
];

/// The input as text, or `None` when it is not UTF-8 (the tool refuses such input before any
/// parser sees it).
fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// A Xiangqi FEN: parse, print, parse again to the same setup; a position from it answers
/// its questions without panicking.
pub fn xiangqi_fen(data: &[u8]) {
    use endgame_xiangqi::{Position, Rules, Setup};
    let Some(text) = text(data) else { return };
    let Ok(setup) = Setup::from_str(text) else { return };
    let printed = setup.to_string();
    let again = Setup::from_str(&printed).unwrap_or_else(|e| panic!("{printed:?} does not parse: {e}"));
    assert_eq!(again, setup, "{printed:?}");
    assert_eq!(again.to_string(), printed);
    if let Ok(position) = Position::from_setup(setup) {
        let _ = position.material();
        let _ = position.in_check();
        let _ = position.is_game_over();
        for rules in [Rules::Standard, Rules::Hdu] {
            for mv in position.legal_moves(rules) {
                let _ = position.capture(mv);
                let _ = position.captures_general(mv);
                assert!(position.play(mv, rules).is_ok(), "{printed:?}: {mv} is legal");
                let _ = position.play_unchecked(mv);
            }
        }
    }
}

/// An ICCS move (`h2e2`): parse, print, parse again to the same move.
pub fn iccs_move(data: &[u8]) {
    use endgame_xiangqi::Move;
    let Some(text) = text(data) else { return };
    let Ok(mv) = Move::from_str(text) else { return };
    let printed = mv.to_string();
    assert_eq!(Move::from_str(&printed).ok(), Some(mv), "{printed:?}");
}

fn judge(run: fn(&str, &mut dyn std::io::Write) -> Result<(), endgame_core::JudgeError>, data: &[u8]) {
    let Some(text) = text(data) else { return };
    let mut out = Vec::new();
    let result = run(text, &mut out);
    if let Err(e) = result {
        // The message is one line.
        let message = e.to_string();
        assert!(!message.contains('\n'), "{message:?}");
    }
    let _ = out.flush();
}

/// HDU 5897's input.
pub fn judge_hdu5897(data: &[u8]) {
    judge(endgame_xiangqi::judge::run, data);
}

/// HDU 1680's input.
pub fn judge_hdu1680(data: &[u8]) {
    judge(endgame_cheesy::judge::run, data);
}

/// POJ 2706's input.
pub fn judge_poj2706(data: &[u8]) {
    judge(endgame_twixt::judge::run, data);
}

/// BZOJ 2205's input (at most 8 cases: each is a search of up to a few milliseconds).
pub fn judge_marine(data: &[u8]) {
    let Some(text) = text(data) else { return };
    if text.matches(|c: char| c.is_ascii_digit()).count() > 8 * 30 {
        return;
    }
    judge(endgame_marine::judge::run, data);
}

/// A Twixt record in `format`: parse; write it in the same format and parse that back to the
/// same moves, and writing that gives the same text; replay it under its rules.
fn twixt(data: &[u8], format: endgame_twixt::Format) {
    use endgame_twixt::Record;
    use endgame_twixt::replay::{replay, threats};
    let Some(text) = text(data) else { return };
    // The detection must not panic either.
    let _ = Record::parse(text, None);
    let Ok(record) = Record::parse(text, Some(format)) else { return };
    if let Ok(written) = record.write(format) {
        let again = Record::parse(&written, Some(format))
            .unwrap_or_else(|e| panic!("{written:?} (written from {text:?}) does not parse: {e}"));
        assert_eq!(again.n, record.n, "{written:?}");
        let moves = |r: &Record| r.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
        assert_eq!(moves(&again), moves(&record), "{written:?}");
        assert_eq!(again.write(format).ok().as_deref(), Some(written.as_str()));
    }
    if let Ok(played) = replay(&record, record.default_config()) {
        let _ = threats(&record, &played.position);
        let _ = endgame_twixt::render::ascii(&played.position, record.format);
    }
}

/// A Little Golem SGF record.
pub fn twixt_sgf(data: &[u8]) {
    twixt(data, endgame_twixt::Format::Sgf);
}

/// A T1j record.
pub fn twixt_t1(data: &[u8]) {
    twixt(data, endgame_twixt::Format::T1);
}

/// A record in the judge's tokens.
pub fn twixt_judge_record(data: &[u8]) {
    twixt(data, endgame_twixt::Format::Judge);
}

/// A Cheesy Chess board file: parse, print, parse again to the same position; solve it.
pub fn cheesy_board(data: &[u8]) {
    use endgame_cheesy::Color;
    use endgame_cheesy::text::{board_file, parse_position};
    let Some(text) = text(data) else { return };
    for side in [Color::White, Color::Black] {
        let Ok(position) = parse_position(text, side) else { return };
        let printed = board_file(&position);
        let again = parse_position(&printed, side)
            .unwrap_or_else(|e| panic!("{printed:?} (printed from {text:?}) does not parse: {e}"));
        assert_eq!(again, position, "{printed:?}");
        let answer = endgame_cheesy::solve(&position).expect("a board of at most 64 x 64 solves");
        assert_eq!(endgame_cheesy::winner(&position), answer.winner, "{printed:?}");
    }
}

/// A Marine battle file: parse, print, parse again to the same battle; search it (a small
/// search: at most 20,000 states).
pub fn marine_battle(data: &[u8]) {
    use endgame_marine::Battle;
    let Some(text) = text(data) else { return };
    let Ok(battle) = Battle::from_str(text) else { return };
    let printed = battle.to_string();
    let again = Battle::from_str(&printed)
        .unwrap_or_else(|e| panic!("{printed:?} (printed from {text:?}) does not parse: {e}"));
    assert_eq!(again, battle, "{printed:?}");
    let _ = battle.solve_within(12, Pruning::ALL, 20_000);
}

/// A table's two files (the `KvK` table under `hdu` rules; the first two bytes say where the
/// WDL file's bytes end and the DTM file's begin): opening them, verifying them, reading every
/// block, every category, symbol and value, and reading them whole must not panic, whatever
/// the bytes. (Reading takes paths: the bytes go to files of this process first.)
pub fn table_file(data: &[u8]) {
    use endgame_core::table::{Category, FileKind, TableFile, TableFiles, TablePaths};
    static PATHS: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    let (wdl, dtm) = PATHS.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("endgame-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        (dir.join("KvK.wdl"), dir.join("KvK.dtm"))
    });
    let split = data.get(..2).map_or(0, |b| usize::from(u16::from_le_bytes([b[0], b[1]])));
    let rest = data.get(2..).unwrap_or_default();
    let (a, b) = rest.split_at(split.min(rest.len()));
    std::fs::write(wdl, a).expect("writing the temporary table");
    std::fs::write(dtm, b).expect("writing the temporary table");
    let material: endgame_xiangqi::Material = "KvK".parse().expect("a material");
    let positions = endgame_xiangqi::MaterialIndex::new(material).len() as u64;
    let id = TableId { game: "xiangqi".into(), variant: "KvK".into(), rules: "hdu".into(), positions };
    if let Ok(file) = TableFile::open(wdl, &id, FileKind::Wdl) {
        let _ = file.verify();
        for b in 0..file.blocks() {
            if let Ok(block) = file.read_block(b) {
                for i in 0..block.len() {
                    let _ = block.category(i);
                }
            }
        }
        if let Ok(dtm) = TableFile::open_dtm(dtm, &file) {
            let _ = dtm.verify();
            for b in 0..dtm.blocks() {
                let Ok(wdl) = file.read_block(dtm.wdl_block_of(b, &file)) else { continue };
                if let Ok(block) = dtm.read_dtm_block(b, &wdl) {
                    for i in 0..block.len() {
                        for c in Category::ALL {
                            let _ = dtm.value(c, block.symbol(i).unwrap_or(0));
                        }
                    }
                }
            }
        }
    }
    if let Ok(files) = TableFiles::open(TablePaths { wdl, dtm }, &id) {
        let _ = files.read_solution_with(|_| false);
        let _ = files.read_rule_solution_with(|p| p % 3 == 0);
    }
}

/// Games read from a record, written as PGN in each notation and read again: the same starts
/// and moves.
fn record_round_trip(games: &[endgame_xiangqi::record::Game]) {
    use endgame_xiangqi::record::{Notation, read_records, write_pgn};
    for notation in Notation::ALL {
        let text = write_pgn(games, notation);
        let again =
            read_records(text.as_bytes()).unwrap_or_else(|e| panic!("{text:?} does not read back: {e}"));
        assert_eq!(again.len(), games.len(), "{text:?}");
        for (a, b) in games.iter().zip(&again) {
            assert_eq!(a.start, b.start, "{text:?}");
            assert_eq!(a.moves, b.moves, "{text:?}");
        }
    }
}

/// A PGN record (any bytes: UTF-8, UTF-16, GB18030), read; what reads is written in every
/// notation and read back to the same games.
pub fn xiangqi_pgn(data: &[u8]) {
    if let Ok(games) = endgame_xiangqi::record::read_records(data) {
        let _ = games.iter().map(endgame_xiangqi::record::Game::positions).count();
        record_round_trip(&games);
    }
}

/// An XQF file: `XQ` then the input (the fuzzer need not find the signature; the seeds are
/// XQF files without their first two bytes), read; what reads round-trips through PGN.
pub fn xiangqi_xqf(data: &[u8]) {
    let mut bytes = b"XQ".to_vec();
    bytes.extend_from_slice(data);
    if let Ok(games) = endgame_xiangqi::record::read_records(&bytes) {
        record_round_trip(&games);
    }
}
