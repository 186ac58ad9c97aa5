//! How the tool fails: bad input exits 2 with `error: <where>: <what was expected>`, anything
//! else exits 1. Nothing panics on input.

use std::fmt::Display;
use std::io::{self, Write};
use std::process::ExitCode;

use endgame_core::{InputError, JudgeError};

/// Why a command failed.
#[derive(Debug)]
pub enum Failure {
    /// The user's input is wrong: exit status 2.
    Input(String),
    /// Anything else (I/O, resources): exit status 1.
    Other(anyhow::Error),
}

impl Failure {
    /// An input error with its place and message already formatted.
    pub fn input(message: impl Display) -> Self {
        Failure::Input(message.to_string())
    }
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Self {
        Failure::Other(e)
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Other(e.into())
    }
}

impl From<InputError> for Failure {
    fn from(e: InputError) -> Self {
        Failure::input(e)
    }
}

impl From<JudgeError> for Failure {
    fn from(e: JudgeError) -> Self {
        match e {
            JudgeError::Input(e) => e.into(),
            JudgeError::Io(e) => e.into(),
        }
    }
}

/// Whether an error, or any error it wraps (a JSON writer's, a context's), is a closed pipe.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
            || cause
                .downcast_ref::<serde_json::Error>()
                .and_then(serde_json::Error::io_error_kind)
                .is_some_and(|kind| kind == io::ErrorKind::BrokenPipe)
    })
}

/// Handles a command line that clap refused, or a request for help or the version: help and
/// version are printed as clap prints them; a usage error is one line `error: arguments: ...`
/// and exit status 2 (with the command to type when a Xiangqi FEN was not quoted).
pub fn usage(e: &clap::Error, args: &[String]) -> ExitCode {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => e.exit(),
        _ => {
            // clap's message without its usage lines, on one line.
            let text = e.render().to_string();
            let message: Vec<&str> = text
                .lines()
                .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            let message = message.join(" ");
            let message = message.strip_prefix("error: ").unwrap_or(&message);
            let unexpected = match e.get(ContextKind::InvalidArg) {
                Some(ContextValue::String(arg)) if e.kind() == ErrorKind::UnknownArgument => {
                    Some(arg.as_str())
                }
                _ => None,
            };
            let hint = unexpected
                .and_then(|arg| unquoted_fen(args, arg).or_else(|| port_option(args, arg)))
                .unwrap_or_default();
            let help = help_command(args);
            let _ = writeln!(io::stderr().lock(), "error: arguments: {message}{hint} (see `{help} --help`)");
            ExitCode::from(2)
        }
    }
}

/// The command whose help describes the arguments refused: `endgame xiangqi solve` for
/// `endgame xiangqi solve` without its FEN (the subcommands named on the command line, up to
/// the first other word).
fn help_command(args: &[String]) -> String {
    let mut command = crate::command();
    let mut path = vec![command.get_name().to_string()];
    for arg in args.iter().skip(1).filter(|a| !a.starts_with('-')) {
        let Some(sub) = command.find_subcommand(arg).cloned() else { break };
        path.push(sub.get_name().to_string());
        command = sub;
    }
    path.join(" ")
}

/// When `unexpected` is `--port` (or `--host`, `--bind`) of `endgame serve`, which takes the
/// address and the port in one option: the `--addr` to type.
fn port_option(args: &[String], unexpected: &str) -> Option<String> {
    if !args.iter().any(|a| a == "serve") {
        return None;
    }
    // The option as typed: `--port 9000` or `--port=9000` (clap names the option alone).
    let name = unexpected.split_once('=').map_or(unexpected, |(name, _)| name);
    let at = args.iter().position(|a| a == name || a.strip_prefix(name).is_some_and(|v| v.starts_with('=')));
    let value = at.and_then(|at| match args[at].split_once('=') {
        Some((_, value)) => Some(value),
        None => args.get(at + 1).map(String::as_str).filter(|v| !v.starts_with('-')),
    });
    let addr = match (name, value) {
        ("--port" | "-p", Some(port)) if port.parse::<u16>().is_ok() => format!("127.0.0.1:{port}"),
        ("--port" | "-p", _) => "127.0.0.1:8000".to_string(),
        ("--host" | "--bind", host) => match host.map(str::parse::<std::net::IpAddr>) {
            Some(Ok(ip)) => std::net::SocketAddr::new(ip, 8000).to_string(),
            _ => "0.0.0.0:8000".to_string(),
        },
        _ => return None,
    };
    Some(format!("; the address and the port are one option: --addr {addr}"))
}

/// When `unexpected` is a field of a Xiangqi FEN typed without quotes (`endgame xiangqi solve
/// 3k5/9/9/9/9/3n5/9/9/9/3K5 w`: the shell splits it at its spaces), the advice to quote it,
/// with the command to type.
fn unquoted_fen(args: &[String], unexpected: &str) -> Option<String> {
    let game = args.iter().position(|a| a == "xiangqi")?;
    let command = args.get(game + 1)?;
    let start = game + 2 + args[game + 2..].iter().position(|a| a.contains('/') && !a.starts_with('-'))?;
    let field = |a: &str| {
        matches!(a, "w" | "b" | "r" | "-") || (!a.is_empty() && a.bytes().all(|b| b.is_ascii_digit()))
    };
    let fields = args[start + 1..].iter().take_while(|a| field(a)).count();
    if fields == 0 || !args[start + 1..=start + fields].iter().any(|a| a == unexpected) {
        return None;
    }
    let fen = args[start..=start + fields].join(" ");
    Some(format!("; a FEN has spaces, so quote it: endgame xiangqi {command} \"{fen}\""))
}

/// The most characters of an error message printed: readers quote at most a few dozen
/// characters of the input, and this catches any that would quote more.
const MESSAGE_CHARS: usize = 600;

/// The message, with its middle left out when it is longer than [`MESSAGE_CHARS`].
fn shortened(message: &str) -> String {
    let count = message.chars().count();
    if count <= MESSAGE_CHARS {
        return message.to_string();
    }
    let head: String = message.chars().take(MESSAGE_CHARS / 2).collect();
    let tail: String = message.chars().skip(count - MESSAGE_CHARS / 4).collect();
    format!("{head}... ({} characters left out) ...{tail}", count - MESSAGE_CHARS / 2 - MESSAGE_CHARS / 4)
}

/// Prints the failure, if any, and gives the exit status.
pub fn exit_code(result: Result<(), Failure>) -> ExitCode {
    let stderr = &mut io::stderr().lock();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`endgame ... | head`) is not an error of ours.
        Err(Failure::Other(e)) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(Failure::Input(message)) => {
            let _ = writeln!(stderr, "error: {}", shortened(&message));
            ExitCode::from(2)
        }
        Err(Failure::Other(e)) => {
            let _ = writeln!(stderr, "error: {}", shortened(&format!("{e:#}")));
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_messages_are_shortened() {
        assert_eq!(shortened("short"), "short");
        let long = format!("line 1: found {:?}", "x".repeat(10_000));
        let short = shortened(&long);
        assert!(short.chars().count() < MESSAGE_CHARS + 50, "{short}");
        assert!(short.starts_with("line 1: found \"xxx") && short.ends_with("xx\""), "{short}");
        assert!(short.contains("characters left out"), "{short}");
    }
}
