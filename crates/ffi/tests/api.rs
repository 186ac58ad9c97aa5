//! The C functions called as C calls them: every pointer argument null, buffers too small,
//! bad rules and FENs, missing tables, the thread-local last error, and many threads probing
//! one `eg_tablebases` at once, each answer compared with the Rust API's.

use std::ffi::{CStr, CString, c_char, c_int};
use std::path::PathBuf;
use std::ptr::{null, null_mut};

use endgame::{
    EG_BAD_INPUT, EG_FAILURE, EG_MISSING_TABLE, EG_OK, eg_best_move, eg_close, eg_move, eg_moves, eg_open,
    eg_open_with_cache, eg_probe, eg_probe_wdl, eg_result, eg_tablebases,
};
use endgame_core::Wdl;
use endgame_xiangqi::{Category, Material, MaterialIndex, MemoryTables, Probe, Rules, Tablebases, typed};

/// An empty directory of tables (materials of up to 4 men are solved in memory).
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("api-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

fn c(text: &str) -> CString {
    CString::new(text).expect("no NUL")
}

fn last_error() -> String {
    // SAFETY: eg_last_error gives a NUL-terminated string valid until the next failure here.
    unsafe { CStr::from_ptr(endgame::eg_last_error()) }.to_str().expect("UTF-8").to_string()
}

/// Opened tables, closed when dropped.
struct Open(*mut eg_tablebases);

impl Open {
    fn new(dir: &std::path::Path, rules: &str) -> Open {
        let dir = c(dir.to_str().expect("a UTF-8 path"));
        let mut tb = null_mut();
        // SAFETY: NUL-terminated strings and a writable out pointer.
        let status = unsafe { eg_open(dir.as_ptr(), c(rules).as_ptr(), &mut tb) };
        assert_eq!(status, EG_OK, "{}", last_error());
        assert!(!tb.is_null());
        Open(tb)
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        // SAFETY: from eg_open, freed once.
        unsafe { eg_close(self.0) };
    }
}

// SAFETY: an eg_tablebases may be probed from many threads at once (the tests' threads share one).
unsafe impl Sync for Open {}

const KRAVK: &str = "4k4/9/9/9/9/9/9/9/4A4/3RK4 w";

#[test]
fn null_pointers_are_bad_input() {
    let dir = scratch("null");
    let tb = Open::new(&dir, "standard");
    let fen = c(KRAVK);
    let mut out = eg_result::default();
    let mut wdl: c_int = 7;
    let mut uci = [0 as c_char; 6];
    let mut moves = [eg_move::default(); 4];
    let mut count = 99usize;
    let check = |status: c_int, message: &str| {
        assert_eq!(status, EG_BAD_INPUT, "{message}");
        assert!(last_error().starts_with(message), "{} instead of {message}", last_error());
    };
    let standard = c("standard");
    // SAFETY: each call passes one null pointer, the others valid.
    unsafe {
        let mut opened = std::ptr::dangling_mut::<eg_tablebases>();
        check(eg_open(null(), null(), &mut opened), "rules: a null pointer, expected a string");
        assert!(opened.is_null(), "*out is NULL after a failure");
        check(eg_open(null(), standard.as_ptr(), null_mut()), "out: a null pointer");
        check(eg_probe(null(), fen.as_ptr(), &mut out), "tb: a null pointer, expected tables from eg_open");
        check(eg_probe(tb.0, null(), &mut out), "fen: a null pointer, expected a string");
        check(eg_probe(tb.0, fen.as_ptr(), null_mut()), "out: a null pointer");
        check(eg_probe_wdl(null(), fen.as_ptr(), &mut wdl), "tb: a null pointer");
        check(eg_probe_wdl(tb.0, null(), &mut wdl), "fen: a null pointer");
        check(eg_probe_wdl(tb.0, fen.as_ptr(), null_mut()), "wdl: a null pointer");
        check(eg_best_move(null(), fen.as_ptr(), uci.as_mut_ptr(), 6), "tb: a null pointer");
        check(eg_best_move(tb.0, null(), uci.as_mut_ptr(), 6), "fen: a null pointer");
        check(eg_best_move(tb.0, fen.as_ptr(), null_mut(), 6), "uci: a null pointer");
        check(eg_moves(null(), fen.as_ptr(), moves.as_mut_ptr(), 4, &mut count), "tb: a null pointer");
        check(eg_moves(tb.0, null(), moves.as_mut_ptr(), 4, &mut count), "fen: a null pointer");
        check(eg_moves(tb.0, fen.as_ptr(), null_mut(), 4, &mut count), "moves: a null pointer");
        check(eg_moves(tb.0, fen.as_ptr(), moves.as_mut_ptr(), 4, null_mut()), "count: a null pointer");
        // Nothing was written through the null pointers' neighbours.
        assert_eq!(wdl, 7);
        assert_eq!(out, eg_result::default());
        // Closing nothing does nothing.
        eg_close(null_mut());
    }
}

#[test]
fn bad_rules_fens_and_buffers() {
    let dir = scratch("bad");
    let dir_c = c(dir.to_str().unwrap());
    let mut tb = std::ptr::dangling_mut::<eg_tablebases>();
    // SAFETY: valid strings and out pointer.
    let status = unsafe { eg_open(dir_c.as_ptr(), c("fide").as_ptr(), &mut tb) };
    assert_eq!(status, EG_BAD_INPUT);
    assert!(tb.is_null(), "*out is NULL after a failure");
    assert_eq!(
        last_error(),
        "rules: expected a rule set (standard, hdu, perpetual-check, check-and-chase), found \"fide\""
    );
    // Invalid UTF-8.
    let bad = [0xffu8 as c_char, 0];
    // SAFETY: a NUL-terminated byte string.
    assert_eq!(unsafe { eg_open(dir_c.as_ptr(), bad.as_ptr(), &mut tb) }, EG_BAD_INPUT);
    assert!(last_error().starts_with("rules: not UTF-8"), "{}", last_error());

    let tb = Open::new(&dir, "standard");
    let mut out = eg_result::default();
    for (fen, message) in [
        ("4k4/9/9 w", typed::fen("4k4/9/9 w").unwrap_err().to_string()),
        (
            "4k4/9/9/9/9/9/9/9/9/3KR4 w",
            typed::position("4k4/9/9/9/9/9/9/9/9/3KR4 w", Rules::Standard).unwrap_err().to_string(),
        ),
    ] {
        // SAFETY: valid pointers.
        assert_eq!(unsafe { eg_probe(tb.0, c(fen).as_ptr(), &mut out) }, EG_BAD_INPUT, "{fen}");
        assert_eq!(last_error(), message);
    }
    // A buffer too small for the best move: refused, left empty.
    let mut uci = [b'x' as c_char; 6];
    // SAFETY: 4 writable bytes.
    assert_eq!(unsafe { eg_best_move(tb.0, c(KRAVK).as_ptr(), uci.as_mut_ptr(), 4) }, EG_BAD_INPUT);
    assert!(last_error().starts_with("uci: a buffer of 4 bytes"), "{}", last_error());
    assert_eq!(uci[0], 0);
    // SAFETY: 0 bytes: nothing written.
    assert_eq!(unsafe { eg_best_move(tb.0, c(KRAVK).as_ptr(), uci.as_mut_ptr(), 0) }, EG_BAD_INPUT);
    // SAFETY: 5 writable bytes: enough.
    assert_eq!(unsafe { eg_best_move(tb.0, c(KRAVK).as_ptr(), uci.as_mut_ptr(), 5) }, EG_OK);
    // SAFETY: NUL-terminated by eg_best_move.
    let best = unsafe { CStr::from_ptr(uci.as_ptr()) }.to_str().unwrap().to_string();
    let position = typed::fen(KRAVK).unwrap();
    let tables = Tablebases::open(&dir, Rules::Standard);
    assert_eq!(best, tables.moves(&position).unwrap()[0].mv.to_string());

    // Too little room for the moves: the count, nothing written.
    let mut count = 0usize;
    // SAFETY: capacity 0 with a null array: a count query.
    assert_eq!(unsafe { eg_moves(tb.0, c(KRAVK).as_ptr(), null_mut(), 0, &mut count) }, EG_BAD_INPUT);
    let n = tables.moves(&position).unwrap().len();
    assert_eq!(count, n);
    assert_eq!(last_error(), format!("moves: room for 0 moves, the position has {n} legal moves"));
    let mut moves = vec![eg_move::default(); n];
    // SAFETY: room for n moves.
    assert_eq!(unsafe { eg_moves(tb.0, c(KRAVK).as_ptr(), moves.as_mut_ptr(), n, &mut count) }, EG_OK);
    for (c_move, m) in moves.iter().zip(tables.moves(&position).unwrap()) {
        // SAFETY: NUL-terminated by eg_moves.
        let uci = unsafe { CStr::from_ptr(c_move.uci.as_ptr()) }.to_str().unwrap();
        assert_eq!(uci, m.mv.to_string());
        let wdl = match m.value.wdl() {
            Wdl::Win => 1,
            Wdl::Draw => 0,
            Wdl::Loss => -1,
        };
        assert_eq!(c_move.result.category, wdl, "{uci}");
        let dtm = endgame_xiangqi::report::dtm(m.value).map_or(-1, |d| d.abs() as c_int);
        assert_eq!(c_move.result.dtm, dtm, "{uci}");
        // One point of view in every interface: the JSON's `for_mover` is this value.
        let json = endgame_xiangqi::report::move_json(&m);
        let category = match c_move.result.category {
            1 => "win",
            0 => "draw",
            _ => "loss",
        };
        assert_eq!(json["for_mover"]["category"], category, "{uci}: {json}");
        let signed = json["for_mover"]["dtm"].as_i64().map_or(-1, |d| d.abs());
        assert_eq!(signed, i64::from(c_move.result.dtm), "{uci}: {json}");
    }
    // KRAvK: the best move wins for the side that plays it (in 3 plies), as a player reads it.
    assert_eq!((moves[0].result.category, moves[0].result.dtm), (1, 3));
}

#[test]
fn missing_tables_name_the_generate_command() {
    let dir = scratch("missing");
    let tb = Open::new(&dir, "standard");
    let mut out = eg_result::default();
    let fen = c("9/5n3/4k4/9/4n4/9/3R5/4K4/9/9 w");
    // SAFETY: valid pointers.
    assert_eq!(unsafe { eg_probe(tb.0, fen.as_ptr(), &mut out) }, EG_MISSING_TABLE);
    assert!(
        last_error().contains("run `endgame xiangqi generate KRvKNN --rules standard`"),
        "{}",
        last_error()
    );
    // Eight men: beyond the tables, also "missing" (an engine searches instead).
    let eight = c("2bak4/4a4/9/9/9/9/9/9/4A4/2BAKR3 w");
    // SAFETY: valid pointers.
    assert_eq!(unsafe { eg_probe(tb.0, eight.as_ptr(), &mut out) }, EG_MISSING_TABLE, "{}", last_error());
}

#[test]
fn the_last_error_belongs_to_its_thread() {
    let dir = scratch("threads-error");
    let tb = Open::new(&dir, "standard");
    let mut out = eg_result::default();
    // SAFETY: valid pointers.
    assert_eq!(unsafe { eg_probe(tb.0, c("x").as_ptr(), &mut out) }, EG_BAD_INPUT);
    let here = last_error();
    assert!(here.starts_with("FEN \"x\""), "{here}");
    std::thread::spawn(|| assert_eq!(last_error(), "", "a new thread has no failure")).join().unwrap();
    // A success keeps the last failure.
    // SAFETY: valid pointers.
    assert_eq!(unsafe { eg_probe(tb.0, c(KRAVK).as_ptr(), &mut out) }, EG_OK);
    assert_eq!(last_error(), here);
}

#[test]
fn threads_probe_one_table_at_once() {
    let dir = scratch("threads");
    let tb = Open::new(&dir, "standard");
    let tables = Tablebases::open(&dir, Rules::Standard);
    // Every legal position of KRAvK reached by two plies from two starts, both sides to move.
    let mut fens = Vec::new();
    for start in [KRAVK, "3k5/9/9/9/9/9/9/9/4A4/4KR3 b"] {
        let p = typed::fen(start).unwrap();
        for m in p.legal_moves(Rules::Standard) {
            let q = p.play_unchecked(m);
            fens.push(q.setup().to_string());
            for n in q.legal_moves(Rules::Standard) {
                fens.push(q.play_unchecked(n).setup().to_string());
            }
        }
    }
    assert!(fens.len() > 50, "{}", fens.len());
    let want: Vec<Option<(c_int, c_int)>> = fens
        .iter()
        .map(|fen| {
            let value = tables.probe(&typed::fen(fen).unwrap()).ok()?;
            let category = match value.wdl() {
                Wdl::Win => 1,
                Wdl::Draw => 0,
                Wdl::Loss => -1,
            };
            Some((category, endgame_xiangqi::report::dtm(value).map_or(-1, |d| d.abs() as c_int)))
        })
        .collect();
    let tb = &tb;
    std::thread::scope(|s| {
        for t in 0..4 {
            let (fens, want) = (&fens, &want);
            s.spawn(move || {
                for round in 0..3 {
                    for (i, fen) in fens.iter().enumerate().skip(t) {
                        let mut out = eg_result::default();
                        // SAFETY: valid pointers; tables shared between threads.
                        let status = unsafe { eg_probe(tb.0, c(fen).as_ptr(), &mut out) };
                        let got = (status == EG_OK).then_some((out.category, out.dtm));
                        assert_eq!(got, want[i], "thread {t}, round {round}, {fen}");
                    }
                }
            });
        }
    });
}

#[test]
fn cache_size_and_default_directory() {
    let dir = scratch("cache");
    let dir_c = c(dir.to_str().unwrap());
    let mut tb = null_mut();
    // SAFETY: valid pointers.
    assert_eq!(unsafe { eg_open_with_cache(dir_c.as_ptr(), c("hdu").as_ptr(), 0, &mut tb) }, EG_OK);
    let mut out = eg_result::default();
    // Black's Horse and General against Red's lone General under hdu: a win in 7 plies.
    let fen = c("3k5/9/9/9/9/3n5/9/9/9/3K5 b");
    // SAFETY: valid pointers.
    assert_eq!(unsafe { eg_probe(tb, fen.as_ptr(), &mut out) }, EG_OK);
    assert_eq!(out, eg_result { category: 1, dtm: 7, by_rule: 0 });
    // SAFETY: from eg_open.
    unsafe { eg_close(tb) };
    // NULL: the default directory ($HOME is set where tests run).
    if Tablebases::default_dir().is_ok() {
        let mut tb = null_mut();
        // SAFETY: valid pointers.
        assert_eq!(unsafe { eg_open(null(), c("standard").as_ptr(), &mut tb) }, EG_OK);
        // SAFETY: from eg_open.
        unsafe { eg_close(tb) };
    }
}

/// `eg_probe_wdl` reads the WDL file only: with the DTM files deleted it still answers every
/// legal position of a generated material and of its colour twin (answered from the same
/// file) as a solve in memory does, while `eg_probe` of a win fails for want of its distance.
#[test]
fn probe_wdl_reads_the_wdl_file_only() {
    let dir = scratch("wdl");
    let material: Material = "KRvKAA".parse().unwrap();
    let tables = Tablebases::open(&dir, Rules::Standard);
    tables.generate(&[material], &|_| {}).expect("a generation");
    let written = tables.file_material(material);
    let mut dtm_files = 0;
    for m in Tablebases::needed(&[material]).unwrap() {
        if tables.dtm_path(m).exists() {
            std::fs::remove_file(tables.dtm_path(m)).unwrap();
            dtm_files += 1;
        }
    }
    assert!(dtm_files > 0 && !tables.dtm_path(written).exists());
    let mut solved = MemoryTables::new(Rules::Standard);
    let tb = Open::new(&dir, "standard");
    let (mut answered, mut failed) = (0, 0);
    for m in [material, material.colour_twin()] {
        solved.solve(m).unwrap();
        let index = MaterialIndex::new(m);
        for i in 0..index.len() {
            let Some(position) = index.decode(i) else { continue };
            let fen = c(&position.setup().to_string());
            let mut wdl: c_int = 7;
            // SAFETY: valid pointers.
            let status = unsafe { eg_probe_wdl(tb.0, fen.as_ptr(), &mut wdl) };
            let Ok(value) = solved.probe(&position) else {
                assert_eq!(status, EG_BAD_INPUT, "{fen:?} is illegal: {}", last_error());
                continue;
            };
            assert_eq!(status, EG_OK, "{m}: {fen:?}: {}", last_error());
            let want = match Category::of(value) {
                Category::Win | Category::WinByRule => 1,
                Category::Draw => 0,
                Category::Loss | Category::LossByRule => -1,
            };
            assert_eq!(wdl, want, "{m}: {fen:?}");
            answered += 1;
            if value.wdl() == Wdl::Win && failed < 3 {
                let mut out = eg_result::default();
                // SAFETY: valid pointers.
                assert_eq!(unsafe { eg_probe(tb.0, fen.as_ptr(), &mut out) }, EG_FAILURE, "{fen:?}");
                assert!(last_error().contains(".dtm"), "{}", last_error());
                failed += 1;
            }
        }
    }
    assert!(answered > 1000 && failed == 3, "{answered} positions, {failed} failed probes");
    let _ = std::fs::remove_dir_all(dir);
}
