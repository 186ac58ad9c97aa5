//! Reading inputs and writing outputs.

use std::fs::File;
use std::io::{self, BufWriter, Read, StdoutLock};
use std::path::Path;

use crate::failure::Failure;

/// The most bytes a contest input may have (ten times the largest contest input we know).
pub const JUDGE_LIMIT: u64 = 128 << 20;
/// The longest token (run of characters without whitespace) a contest input may have: no
/// token of any contest format comes near it, and reading stops at the first longer one.
pub const JUDGE_TOKEN_LIMIT: usize = 1 << 20;
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
    /// When reading stopped inside a token longer than allowed: the line it is on. The text
    /// ends there with `…`, which no contest format has, so that the reader reports the token
    /// (or an earlier error).
    pub long_token_line: Option<usize>,
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
    let (name, is_file, reader) = open(path)?;
    read_from(reader, name, is_file, limit, None)
}

/// A contest input: [`read_text`] with [`JUDGE_LIMIT`], stopping in the first token longer
/// than [`JUDGE_TOKEN_LIMIT`] (see [`Input::long_token_line`]).
pub fn read_judge_input(path: Option<&Path>) -> Result<Input, Failure> {
    let (name, is_file, reader) = open(path)?;
    read_from(reader, name, is_file, JUDGE_LIMIT, Some(JUDGE_TOKEN_LIMIT))
}

fn open(path: Option<&Path>) -> Result<(String, bool, Box<dyn Read>), Failure> {
    Ok(match path {
        Some(p) if p != Path::new("-") => {
            let file =
                File::open(p).map_err(|e| Failure::input(format!("{}: cannot read: {e}", p.display())))?;
            (p.display().to_string(), true, Box::new(file))
        }
        _ => ("standard input".to_string(), false, Box::new(io::stdin().lock())),
    })
}

fn read_from(
    mut reader: impl Read,
    name: String,
    is_file: bool,
    limit: u64,
    max_token: Option<usize>,
) -> Result<Input, Failure> {
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    let mut run = 0;
    let mut cut = None;
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Failure::input(format!("{name}: cannot read: {e}"))),
        };
        let mut take = n;
        if let Some(max) = max_token {
            for (i, &b) in chunk[..n].iter().enumerate() {
                run = if b.is_ascii_whitespace() { 0 } else { run + 1 };
                if run > max {
                    take = i;
                    cut = Some(bytes.len() + i);
                    break;
                }
            }
        }
        bytes.extend_from_slice(&chunk[..take]);
        if bytes.len() as u64 > limit {
            return Err(Failure::input(format!(
                "{name}: expected at most {} MiB of text, found more (reading stopped there)",
                limit >> 20
            )));
        }
        if cut.is_some() {
            break;
        }
    }
    if cut.is_some() {
        // The cut may split a character: drop its first bytes.
        if let Err(e) = std::str::from_utf8(&bytes)
            && e.error_len().is_none()
        {
            bytes.truncate(e.valid_up_to());
        }
    }
    let long_token_line = cut.map(|_| bytes.iter().filter(|&&b| b == b'\n').count() + 1);
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
    if long_token_line.is_some() {
        // What was read of the token may be valid (`000...0` is a number): end it with a
        // character no contest format has, so that the reader stops at it.
        text.push('\u{2026}');
    }
    Ok(Input { name, is_file, text, long_token_line })
}

/// Standard output, buffered (flush before returning).
pub fn stdout() -> BufWriter<StdoutLock<'static>> {
    BufWriter::with_capacity(1 << 16, io::stdout().lock())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8], limit: u64, max_token: Option<usize>) -> Result<Input, String> {
        read_from(bytes, "in".into(), true, limit, max_token).map_err(|e| match e {
            Failure::Input(m) => m,
            Failure::Other(e) => format!("other: {e}"),
        })
    }

    #[test]
    fn reading_stops_after_the_limit() {
        assert_eq!(read(b"12345", 5, None).unwrap().text, "12345");
        let e = read(&vec![b'1'; 3 << 20], 2 << 20, None).err().unwrap();
        assert_eq!(e, "in: expected at most 2 MiB of text, found more (reading stopped there)");
    }

    #[test]
    fn reading_stops_in_the_first_token_longer_than_allowed() {
        let input = read(b"1 22\n333 4444 55555", 100, Some(3)).unwrap();
        assert_eq!((input.text.as_str(), input.long_token_line), ("1 22\n333 444\u{2026}", Some(2)));
        let input = read(b"1 22\n333 ", 100, Some(3)).unwrap();
        assert_eq!((input.text.as_str(), input.long_token_line), ("1 22\n333 ", None));
        // A cut inside a character drops its first bytes.
        let input = read("a é".as_bytes(), 100, Some(1)).unwrap();
        assert_eq!((input.text.as_str(), input.long_token_line), ("a \u{2026}", Some(1)));
        // Chunks of 64 KiB: a run across them counts as one.
        let mut long = vec![b' '; (1 << 16) - 2];
        long.extend_from_slice(b"abcdef");
        let input = read(&long, 1 << 20, Some(4)).unwrap();
        assert_eq!(input.text.len(), (1 << 16) + 2 + '\u{2026}'.len_utf8());
        assert_eq!(input.long_token_line, Some(1));
    }

    #[test]
    fn a_byte_order_mark_is_dropped_and_bad_utf8_is_placed() {
        assert_eq!(read("\u{feff}x".as_bytes(), 10, None).unwrap().text, "x");
        assert_eq!(read(b"ok\nab\xff", 10, None).err().unwrap(), "in: line 2, column 3: expected UTF-8 text");
    }
}
