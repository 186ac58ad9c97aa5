//! The C library of the Xiangqi tables (`libendgame`): plain functions over
//! [`Tablebases`], status codes, no hidden allocation, in the shape of Fathom's API for Syzygy.
//!
//! The header `include/endgame.h` is generated from this file by cbindgen (the test
//! `tests/header.rs` checks that the committed one declares what this file exports, and with
//! the feature `header` that it is cbindgen's output exactly). Every function:
//! - returns a status code: `EG_OK`, `EG_BAD_INPUT` (a FEN, a rule set, a null pointer, a
//!   buffer too small), `EG_MISSING_TABLE` (no table for the material: generate it, or
//!   search), `EG_FAILURE` (a file unreadable or damaged, a bug);
//! - on failure, leaves a message for `eg_last_error` in a thread-local buffer (the
//!   command line's words: `FEN "...": ...`, `position: ...`);
//! - checks every pointer argument for null, and never lets a panic cross into C (a panic is
//!   caught and reported as `EG_FAILURE`);
//! - allocates nothing the caller must free, except the `eg_tablebases` of `eg_open`,
//!   which `eg_close` frees; results go into the caller's memory.
//!
//! Threads: a `eg_tablebases` may be probed from many threads at once (its block cache and
//! open files are shared and locked inside); `eg_close` must not run while another thread
//! still uses it.

// The C names of the API (`eg_tablebases`, `eg_result`), as engines copy them.
#![allow(non_camel_case_types)]

use std::cell::RefCell;
use std::ffi::{CStr, CString, c_char, c_int};
use std::fmt::Display;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

use endgame_core::RuleValue;
use endgame_core::Wdl;
use endgame_xiangqi::{Category, MoveValue, Position, Probe, ProbeError, Rules, Tablebases, typed};

/// Success.
pub const EG_OK: c_int = 0;
/// Bad input: a FEN that does not parse or a position illegal under the rules, an unknown rule
/// set, a null pointer, a buffer too small.
pub const EG_BAD_INPUT: c_int = 1;
/// The position's material (or one a capture leads to) has no table: generate it with
/// `endgame xiangqi generate MATERIAL --rules RULES`, or it is beyond the tables (too many men).
pub const EG_MISSING_TABLE: c_int = 2;
/// Any other failure: a table file cannot be read or is damaged, a bug.
pub const EG_FAILURE: c_int = 3;

/// The bytes of the block cache of `eg_open`: 64 MiB.
pub const EG_DEFAULT_CACHE_BYTES: usize = 64 << 20;

/// The tables of one rule set in one directory, opened by `eg_open` and freed by
/// `eg_close`. Opaque to C.
pub struct eg_tablebases {
    tables: Tablebases,
}

/// A position's value for the side to move.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct eg_result {
    /// 1 win, 0 draw, -1 loss (for the side to move).
    pub category: c_int,
    /// Plies to the end of the game under best play (mate, or the General captured under
    /// `hdu` rules), -1 when there is none (a draw, or a result by the rule).
    pub dtm: c_int,
    /// 1 when won or lost by the ban on perpetual check, 2 by the ban on perpetual chase
    /// (`check-and-chase` rules only); `dtm` is then -1. 0 otherwise.
    pub by_rule: c_int,
}

/// A legal move and its value, for `eg_moves`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct eg_move {
    /// The move in UCI (ICCS) coordinates, such as `h2e2`, NUL-terminated.
    pub uci: [c_char; 6],
    /// Its value for the side that plays it (the side to move in the FEN of `eg_moves`, as
    /// `eg_probe` gives a position's): category 1 when the move wins ("this move wins in dtm
    /// plies"), dtm in plies from the position before the move (so one more than the position
    /// after it has). The convention of every interface: the JSON and Python call this value
    /// `for_mover`; their `category` and `dtm` of a move are the position after it, for the
    /// opponent.
    pub result: eg_result,
}

/// Why a call failed: its status code and message.
struct Failure {
    code: c_int,
    message: String,
}

impl Failure {
    fn input(message: impl Display) -> Failure {
        Failure { code: EG_BAD_INPUT, message: message.to_string() }
    }
}

impl From<endgame_core::InputError> for Failure {
    fn from(e: endgame_core::InputError) -> Failure {
        Failure::input(e)
    }
}

impl From<ProbeError> for Failure {
    fn from(e: ProbeError) -> Failure {
        let code = if e.is_illegal() {
            EG_BAD_INPUT
        } else if e.is_table_failure() {
            EG_FAILURE
        } else {
            // Not generated, beyond the tables, not solved: no table for this material.
            EG_MISSING_TABLE
        };
        Failure { code, message: format!("position: {e}") }
    }
}

thread_local! {
    /// This thread's last failure, for `eg_last_error`.
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Keeps `message` for `eg_last_error` (NUL bytes in it are written as `\0`).
fn set_last_error(message: &str) {
    let message = CString::new(message.replace('\0', "\\0")).unwrap_or_default();
    // A thread being torn down has no buffer left: nothing to keep the message in.
    let _ = LAST_ERROR.try_with(|last| *last.borrow_mut() = message);
}

/// Runs the body of an API function: its status code, its failure kept for
/// `eg_last_error`, a panic caught and reported as `EG_FAILURE`.
fn call(body: impl FnOnce() -> Result<(), Failure>) -> c_int {
    // A panic leaves no lock poisoned that the store does not recover from (it takes poisoned
    // locks over), so the tables stay usable after one.
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => EG_OK,
        Ok(Err(failure)) => {
            set_last_error(&failure.message);
            failure.code
        }
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_string());
            set_last_error(&format!("internal error (a bug of endgame, please report it): {what}"));
            EG_FAILURE
        }
    }
}

/// The string at `ptr`, refused when null or not UTF-8 (`what` names the argument).
///
/// # Safety
/// `ptr` is null or points to a NUL-terminated string that stays unchanged during the call.
unsafe fn text<'a>(ptr: *const c_char, what: &str) -> Result<&'a str, Failure> {
    if ptr.is_null() {
        return Err(Failure::input(format!("{what}: a null pointer, expected a string")));
    }
    // SAFETY: not null, and the caller promises a NUL-terminated string alive during the call.
    let text = unsafe { CStr::from_ptr(ptr) };
    text.to_str().map_err(|e| Failure::input(format!("{what}: not UTF-8 ({e})")))
}

/// The tables at `tb`, refused when null.
///
/// # Safety
/// `tb` is null or a pointer `eg_open` gave that `eg_close` has not freed.
unsafe fn tables<'a>(tb: *const eg_tablebases) -> Result<&'a Tablebases, Failure> {
    // SAFETY: null or a live `eg_tablebases` from `eg_open` (the caller's promise); shared
    // references only: the tables lock inside.
    match unsafe { tb.as_ref() } {
        Some(tb) => Ok(&tb.tables),
        None => Err(Failure::input("tb: a null pointer, expected tables from eg_open")),
    }
}

/// Fails when `out` is null (`what` names the argument).
fn not_null<T>(out: *mut T, what: &str) -> Result<(), Failure> {
    if out.is_null() { Err(Failure::input(format!("{what}: a null pointer"))) } else { Ok(()) }
}

/// 1 win, 0 draw, -1 loss.
fn wdl(wdl: Wdl) -> c_int {
    match wdl {
        Wdl::Win => 1,
        Wdl::Draw => 0,
        Wdl::Loss => -1,
    }
}

/// The C form of a value.
fn result(value: RuleValue) -> eg_result {
    let category = wdl(value.wdl());
    let dtm = match value {
        RuleValue::Win(d) | RuleValue::Loss(d) => c_int::try_from(d.0).unwrap_or(c_int::MAX),
        _ => -1,
    };
    let by_rule = match value.ban() {
        None => 0,
        Some(endgame_core::Ban::Check) => 1,
        Some(endgame_core::Ban::Chase) => 2,
    };
    eg_result { category, dtm, by_rule }
}

/// Opens the tables of `rules` under `dir` as `eg_open` does, with a block cache of
/// `cache_bytes`.
fn open(dir: Option<&str>, rules: &str, cache_bytes: usize) -> Result<Tablebases, Failure> {
    let rules: Rules = typed::rules(rules)?;
    let dir = match dir {
        Some(dir) => PathBuf::from(dir),
        None => Tablebases::default_dir().map_err(|e| Failure::input(format!("dir: {e}")))?,
    };
    Ok(Tablebases::open(dir, rules).with_cache_bytes(cache_bytes))
}

/// Opens the tables of the rule set `rules` (`"standard"`, `"hdu"`, `"perpetual-check"`,
/// `"check-and-chase"`) in
/// the directory `dir` (its files in `dir/xiangqi/<rules>/`, as `endgame xiangqi generate
/// --dir` writes them; `NULL`: the command line's default, `$ENDGAME_TB_DIR`, else
/// `$XDG_DATA_HOME/endgame`, else `~/.local/share/endgame`), with a block cache of
/// `EG_DEFAULT_CACHE_BYTES`. Nothing is read until a probe. On success `*out` holds the
/// tables, to be freed with `eg_close`; on failure `*out` is set to `NULL`.
///
/// Returns `EG_OK`, or `EG_BAD_INPUT` (unknown rules, `out` or `rules` null, no default
/// directory).
///
/// # Safety
/// `dir` is null or a NUL-terminated string, `rules` a NUL-terminated string, `out` null or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eg_open(
    dir: *const c_char,
    rules: *const c_char,
    out: *mut *mut eg_tablebases,
) -> c_int {
    // SAFETY: the caller's promises, passed on.
    unsafe { eg_open_with_cache(dir, rules, EG_DEFAULT_CACHE_BYTES, out) }
}

/// `eg_open` with a block cache of `cache_bytes` bytes (decompressed blocks of 64 to 256
/// KiB; 0 keeps none: every probe reads its block from the file).
///
/// # Safety
/// As `eg_open`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eg_open_with_cache(
    dir: *const c_char,
    rules: *const c_char,
    cache_bytes: usize,
    out: *mut *mut eg_tablebases,
) -> c_int {
    call(|| {
        not_null(out, "out")?;
        // SAFETY: `out` is not null and the caller promises it is writable.
        unsafe { out.write(std::ptr::null_mut()) };
        // SAFETY: the caller promises NUL-terminated strings (dir may be null: the default).
        let dir = if dir.is_null() { None } else { Some(unsafe { text(dir, "dir") }?) };
        // SAFETY: as above.
        let rules = unsafe { text(rules, "rules") }?;
        let tables = open(dir, rules, cache_bytes)?;
        let tb = Box::into_raw(Box::new(eg_tablebases { tables }));
        // SAFETY: `out` is not null and writable.
        unsafe { out.write(tb) };
        Ok(())
    })
}

/// Frees tables opened by `eg_open` (nothing when `tb` is `NULL`). No other thread may
/// use them during or after the call.
///
/// # Safety
/// `tb` is null or a pointer `eg_open` gave that has not been freed yet.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eg_close(tb: *mut eg_tablebases) {
    if tb.is_null() {
        return;
    }
    // Dropping closes files and frees the cache; a panic there must not reach C.
    let _ = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: `tb` came from `Box::into_raw` in `eg_open_with_cache` and is freed once (the
        // caller's promise).
        drop(unsafe { Box::from_raw(tb) });
    }));
}

/// The position read from `fen` for the tables `tb`.
///
/// # Safety
/// As the callers' `tb` and `fen`.
unsafe fn read<'a>(
    tb: *const eg_tablebases,
    fen: *const c_char,
) -> Result<(&'a Tablebases, Position), Failure> {
    // SAFETY: the callers' promises, passed on.
    let tables = unsafe { tables(tb) }?;
    // SAFETY: as above.
    let fen = unsafe { text(fen, "fen") }?;
    Ok((tables, typed::fen(fen)?))
}

/// The value of the position `fen` (Xiangqi FEN, Pikafish letters, such as
/// `"3k5/9/9/9/9/9/9/9/4A4/3RK4 w"`) for the side to move, into `*out`.
///
/// Returns `EG_OK`, `EG_BAD_INPUT` (the FEN does not parse, or the position is illegal
/// under the rules, e.g. the side not to move in check), `EG_MISSING_TABLE` or
/// `EG_FAILURE`.
///
/// # Safety
/// `tb` is null or tables from `eg_open` not freed yet, `fen` null or a NUL-terminated
/// string, `out` null or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eg_probe(
    tb: *const eg_tablebases,
    fen: *const c_char,
    out: *mut eg_result,
) -> c_int {
    call(|| {
        not_null(out, "out")?;
        // SAFETY: the caller's promises.
        let (tables, position) = unsafe { read(tb, fen) }?;
        let value = tables.probe(&position)?;
        // SAFETY: `out` is not null and writable.
        unsafe { out.write(result(value)) };
        Ok(())
    })
}

/// The win, draw or loss of the position `fen` for the side to move into `*wdl`: 1, 0 or -1
/// (a win or loss by a perpetual rule counts as a win or loss). It reads the table's WDL file
/// only, never its DTM file: the fewest bytes, for an engine's search. Returns as `eg_probe`.
///
/// # Safety
/// As `eg_probe`, with `wdl` for `out`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eg_probe_wdl(
    tb: *const eg_tablebases,
    fen: *const c_char,
    wdl: *mut c_int,
) -> c_int {
    call(|| {
        not_null(wdl, "wdl")?;
        // SAFETY: the caller's promises.
        let (tables, position) = unsafe { read(tb, fen) }?;
        let category: Category = tables.probe_wdl(&position)?;
        // SAFETY: `wdl` is not null and writable.
        unsafe { wdl.write(self::wdl(category.wdl())) };
        Ok(())
    })
}

/// Writes `text` and a NUL into the `len` bytes at `buffer`, or fails when they do not fit.
///
/// # Safety
/// `buffer` is not null and has `len` writable bytes.
unsafe fn write_text(text: &str, buffer: *mut c_char, len: usize, what: &str) -> Result<(), Failure> {
    if text.len() >= len {
        return Err(Failure::input(format!(
            "{what}: a buffer of {len} bytes, {text:?} needs {} with its NUL",
            text.len() + 1
        )));
    }
    // SAFETY: `buffer` has `len` > `text.len()` writable bytes; `text` does not overlap it.
    unsafe {
        std::ptr::copy_nonoverlapping(text.as_ptr().cast::<c_char>(), buffer, text.len());
        buffer.add(text.len()).write(0);
    }
    Ok(())
}

/// The best move of the position `fen` in UCI coordinates (such as `h2e2`) into the `len`
/// bytes at `uci` with a NUL (6 bytes are enough): the shortest win, else a draw, else the
/// longest loss, as `endgame xiangqi solve` plays it; `"0000"` when the side to move has no
/// legal move. Returns as `eg_probe`; `EG_BAD_INPUT` also when `len` is too small (on any
/// failure `uci` holds the empty string when `len` > 0).
///
/// # Safety
/// As `eg_probe`; `uci` is null or has `len` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eg_best_move(
    tb: *const eg_tablebases,
    fen: *const c_char,
    uci: *mut c_char,
    len: usize,
) -> c_int {
    call(|| {
        not_null(uci, "uci")?;
        if len > 0 {
            // SAFETY: `uci` is not null and has `len` > 0 writable bytes.
            unsafe { uci.write(0) };
        }
        // SAFETY: the caller's promises.
        let (tables, position) = unsafe { read(tb, fen) }?;
        let best = tables.moves(&position)?.first().map_or_else(|| "0000".to_string(), |m| m.mv.to_string());
        // SAFETY: `uci` is not null and has `len` writable bytes.
        unsafe { write_text(&best, uci, len, "uci") }
    })
}

/// The C form of a move and its value for the side that plays it.
fn c_move(m: &MoveValue) -> eg_move {
    let mut uci = [0; 6];
    for (to, from) in uci.iter_mut().zip(m.mv.to_string().bytes()) {
        *to = from as c_char;
    }
    eg_move { uci, result: result(m.value) }
}

/// Every legal move of the position `fen` with its value, best first (as
/// `endgame xiangqi moves` lists them), into `moves[0..*count]`. `*count` is set to the
/// number of legal moves; when it exceeds `capacity`, nothing is written to `moves` and
/// `EG_BAD_INPUT` is returned (call again with more room; `moves` may be `NULL` when
/// `capacity` is 0). Returns as `eg_probe`.
///
/// # Safety
/// As `eg_probe`; `moves` is null or has room for `capacity` moves; `count` is null or
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn eg_moves(
    tb: *const eg_tablebases,
    fen: *const c_char,
    moves: *mut eg_move,
    capacity: usize,
    count: *mut usize,
) -> c_int {
    call(|| {
        not_null(count, "count")?;
        // SAFETY: `count` is not null and writable.
        unsafe { count.write(0) };
        if capacity > 0 {
            not_null(moves, "moves")?;
        }
        // SAFETY: the caller's promises.
        let (tables, position) = unsafe { read(tb, fen) }?;
        let scored = tables.moves(&position)?;
        // SAFETY: `count` is not null and writable.
        unsafe { count.write(scored.len()) };
        if scored.len() > capacity {
            return Err(Failure::input(format!(
                "moves: room for {capacity} moves, the position has {} legal moves",
                scored.len()
            )));
        }
        for (i, m) in scored.iter().enumerate() {
            // SAFETY: `i` < `scored.len()` <= `capacity`, and `moves` has room for `capacity`.
            unsafe { moves.add(i).write(c_move(m)) };
        }
        Ok(())
    })
}

/// Why the last failing call of this thread failed, in UTF-8 (the command line's words), or
/// the empty string when none has failed. The text stays valid until the next failing call
/// of this thread.
#[unsafe(no_mangle)]
pub extern "C" fn eg_last_error() -> *const c_char {
    LAST_ERROR.try_with(|last| last.borrow().as_ptr()).unwrap_or(c"".as_ptr())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_cache_is_the_stores() {
        assert_eq!(EG_DEFAULT_CACHE_BYTES, endgame_xiangqi::store::cost::DEFAULT_CACHE_BYTES);
    }

    #[test]
    fn values_in_c() {
        use endgame_core::Plies;
        assert_eq!(result(RuleValue::Win(Plies(7))), eg_result { category: 1, dtm: 7, by_rule: 0 });
        assert_eq!(result(RuleValue::Loss(Plies(0))), eg_result { category: -1, dtm: 0, by_rule: 0 });
        assert_eq!(result(RuleValue::Draw(None)), eg_result { category: 0, dtm: -1, by_rule: 0 });
        assert_eq!(result(RuleValue::Draw(Some(Plies(4)))), eg_result { category: 0, dtm: -1, by_rule: 0 });
        assert_eq!(
            result(RuleValue::WinByRule(endgame_core::Ban::Check, 3)),
            eg_result { category: 1, dtm: -1, by_rule: 1 }
        );
        assert_eq!(
            result(RuleValue::LossByRule(endgame_core::Ban::Check, 0)),
            eg_result { category: -1, dtm: -1, by_rule: 1 }
        );
        assert_eq!(
            result(RuleValue::WinByRule(endgame_core::Ban::Chase, 2)),
            eg_result { category: 1, dtm: -1, by_rule: 2 }
        );
    }

    #[test]
    fn categories_in_c() {
        let c = |category: Category| wdl(category.wdl());
        assert_eq!(
            Category::ALL.map(c),
            [0, 1, -1, 1, -1],
            "draw, win, loss, win by the rule, loss by the rule"
        );
        assert_eq!(
            Category::ALL,
            [Category::Draw, Category::Win, Category::Loss, Category::WinByRule, Category::LossByRule]
        );
    }

    #[test]
    fn a_panic_is_a_failure_with_its_message() {
        let code = call(|| panic!("boom"));
        assert_eq!(code, EG_FAILURE);
        // SAFETY: eg_last_error gives a NUL-terminated string.
        let message = unsafe { CStr::from_ptr(eg_last_error()) }.to_str().unwrap().to_string();
        assert!(message.contains("boom") && message.contains("bug"), "{message}");
    }
}
