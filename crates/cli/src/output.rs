//! Reading inputs and writing outputs.

use std::fs::File;
use std::io::{self, BufWriter, Read, StdoutLock};
use std::path::Path;

use crate::failure::Failure;

/// The most bytes a contest input may have (ten times the largest contest input we know).
pub const JUDGE_LIMIT: u64 = 128 << 20;
/// The most bytes a game record, board or battle file may have (four times the largest Twixt
/// record of the benchmarks: 400,001 moves, 3.6 MB; boards and battles are a few kilobytes).
pub const FILE_LIMIT: u64 = 16 << 20;

/// Text read from a file or from standard input, with the name to give it in messages.
pub struct Input {
    /// The file's path as given, or `standard input`.
    pub name: String,
    /// Whether it came from a file (messages then start with its name).
    pub is_file: bool,
    /// The text, without a leading byte order mark.
    pub text: String,
}

impl Input {
    /// An input error at a place in this input: `<file>: <error>`, or only the error when the
    /// input is standard input.
    pub fn error(&self, e: impl std::fmt::Display) -> Failure {
        if self.is_file { Failure::input(format!("{}: {e}", self.name)) } else { Failure::input(e) }
    }
}

/// The text of a file, or of standard input when `path` is `None` or `-`, of at most `limit`
/// bytes (read no further: a larger or endless input is refused after `limit` bytes). A
/// leading UTF-8 byte order mark is dropped. A missing file, a larger input or text that is
/// not UTF-8 is an input error.
pub fn read_text(path: Option<&Path>, limit: u64) -> Result<Input, Failure> {
    let (name, is_file, reader): (String, bool, Box<dyn Read>) = match path {
        Some(p) if p != Path::new("-") => {
            let file =
                File::open(p).map_err(|e| Failure::input(format!("{}: cannot read: {e}", p.display())))?;
            (p.display().to_string(), true, Box::new(file))
        }
        _ => ("standard input".to_string(), false, Box::new(io::stdin().lock())),
    };
    let mut bytes = Vec::new();
    reader
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::input(format!("{name}: cannot read: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(Failure::input(format!(
            "{name}: expected at most {} MiB of text, found more (reading stopped there)",
            limit >> 20
        )));
    }
    let mut text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let text = &e.as_bytes()[..at];
        let line = text.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = text.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        Failure::input(format!("{name}: line {line}, column {column}: expected UTF-8 text"))
    })?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(Input { name, is_file, text })
}

/// Standard output, buffered (flush before returning).
pub fn stdout() -> BufWriter<StdoutLock<'static>> {
    BufWriter::with_capacity(1 << 16, io::stdout().lock())
}
