//! Errors in user input, shared by every game's parsers and the command-line tool.
//!
//! An input error names the place (line and column, case number, move number, token) and
//! what was expected there. It is shown as one line, `<place>: <what was expected>`.

use std::fmt;
use std::io;

/// A place in the input and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// Where: `line 3, column 5`, `case 17, token 4`, `move 12`.
    pub place: String,
    /// What was expected, or what is wrong.
    pub message: String,
}

impl InputError {
    /// An error at `place` with this message.
    pub fn new(place: impl Into<String>, message: impl Into<String>) -> Self {
        InputError { place: place.into(), message: message.into() }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.place, self.message)
    }
}

impl std::error::Error for InputError {}

/// The most characters of the input an error message quotes.
pub const QUOTE_CHARS: usize = 40;

/// A piece of the input as an error message quotes it: in double quotes with escapes (as
/// `{:?}` writes it), cut after [`QUOTE_CHARS`] characters with `...` after the closing quote,
/// so that a huge token never makes a huge message.
#[must_use]
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTE_CHARS) {
        None => format!("{text:?}"),
        Some((cut, _)) => format!("{:?}...", &text[..cut]),
    }
}

/// `text` without a leading UTF-8 byte order mark (U+FEFF), which some editors write.
#[must_use]
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Why a judge run stopped: bad input, or the output could not be written.
#[derive(Debug)]
pub enum JudgeError {
    /// The input is not in the contest's format (answers before it have been written).
    Input(InputError),
    /// Writing the output failed.
    Io(io::Error),
}

impl fmt::Display for JudgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgeError::Input(e) => e.fmt(f),
            JudgeError::Io(e) => write!(f, "writing the output: {e}"),
        }
    }
}

impl std::error::Error for JudgeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            JudgeError::Input(e) => Some(e),
            JudgeError::Io(e) => Some(e),
        }
    }
}

impl From<InputError> for JudgeError {
    fn from(e: InputError) -> Self {
        JudgeError::Input(e)
    }
}

impl From<io::Error> for JudgeError {
    fn from(e: io::Error) -> Self {
        JudgeError::Io(e)
    }
}

/// Whitespace-separated tokens with their line numbers, for contest formats where values may be
/// spread over lines in any way.
#[derive(Clone, Debug)]
pub struct Tokens<'a> {
    rest: &'a str,
    line: usize,
}

impl<'a> Tokens<'a> {
    /// Tokens of `text`, starting on line 1 (a leading byte order mark is skipped).
    #[must_use]
    pub fn new(text: &'a str) -> Self {
        Tokens { rest: strip_bom(text), line: 1 }
    }

    /// The next token and its line, or `None` at the end of the input.
    pub fn next_token(&mut self) -> Option<(&'a str, usize)> {
        let bytes = self.rest.as_bytes();
        let mut i = 0;
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            if bytes[i] == b'\n' {
                self.line += 1;
            }
            i += 1;
        }
        if i == bytes.len() {
            self.rest = "";
            return None;
        }
        let start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let token = &self.rest[start..i];
        self.rest = &self.rest[i..];
        Some((token, self.line))
    }

    /// The line the reader is on (after the last token read).
    #[must_use]
    pub fn line(&self) -> usize {
        self.line
    }

    /// Whether only whitespace is left.
    #[must_use]
    pub fn at_end(&self) -> bool {
        self.rest.trim_ascii_start().is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_know_their_lines() {
        let mut t = Tokens::new("1 2\n\n 3\r\n4");
        assert_eq!(t.next_token(), Some(("1", 1)));
        assert_eq!(t.next_token(), Some(("2", 1)));
        assert_eq!(t.next_token(), Some(("3", 3)));
        assert_eq!(t.next_token(), Some(("4", 4)));
        assert!(t.at_end());
        assert_eq!(t.next_token(), None);
        let e = InputError::new("case 2, token 3", "expected an integer 0..=9, found \"x\"");
        assert_eq!(e.to_string(), "case 2, token 3: expected an integer 0..=9, found \"x\"");
    }

    #[test]
    fn a_leading_byte_order_mark_is_skipped() {
        let mut t = Tokens::new("\u{feff}7\n8");
        assert_eq!(t.next_token(), Some(("7", 1)));
        assert_eq!(t.next_token(), Some(("8", 2)));
        assert_eq!(strip_bom("\u{feff}\u{feff}x"), "\u{feff}x");
    }

    #[test]
    fn quotes_are_short() {
        assert_eq!(quote("ab\"c"), r#""ab\"c""#);
        let long = "\0".repeat(1 << 20);
        let q = quote(&long);
        assert!(q.ends_with("\"...") && q.len() < 10 * QUOTE_CHARS, "{q}");
        assert_eq!(quote(&"é".repeat(QUOTE_CHARS)), format!("{:?}", "é".repeat(QUOTE_CHARS)));
        assert_eq!(quote(&"é".repeat(QUOTE_CHARS + 1)), format!("{:?}...", "é".repeat(QUOTE_CHARS)));
    }

    #[test]
    fn judge_errors_have_their_source() {
        use std::error::Error as _;
        let e = JudgeError::from(InputError::new("line 1", "x"));
        assert_eq!(e.source().unwrap().to_string(), "line 1: x");
        let e = JudgeError::from(io::Error::other("disk"));
        assert_eq!(e.source().unwrap().to_string(), "disk");
    }
}
