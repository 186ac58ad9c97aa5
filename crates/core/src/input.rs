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

impl std::error::Error for JudgeError {}

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
    /// Tokens of `text`, starting on line 1.
    #[must_use]
    pub fn new(text: &'a str) -> Self {
        Tokens { rest: text, line: 1 }
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
}
