//! Reading inputs and writing outputs.

use std::fs;
use std::io::{self, BufWriter, Read, StdoutLock};
use std::path::Path;

use anyhow::Context;

use crate::failure::Failure;

/// The whole text of a file, or of standard input when `path` is `None` or `-`.
/// A missing file or text that is not UTF-8 is an input error.
pub fn read_text(path: Option<&Path>) -> Result<String, Failure> {
    let (name, bytes) = match path {
        Some(p) if p != Path::new("-") => {
            let bytes =
                fs::read(p).map_err(|e| Failure::input(format!("{}: cannot read: {e}", p.display())))?;
            (p.display().to_string(), bytes)
        }
        _ => {
            let mut bytes = Vec::new();
            io::stdin().lock().read_to_end(&mut bytes).context("reading standard input")?;
            ("standard input".to_string(), bytes)
        }
    };
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let text = &e.as_bytes()[..at];
        let line = text.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = text.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        Failure::input(format!("{name}: line {line}, column {column}: expected UTF-8 text"))
    })
}

/// Standard output, buffered (flush before returning).
pub fn stdout() -> BufWriter<StdoutLock<'static>> {
    BufWriter::with_capacity(1 << 16, io::stdout().lock())
}
