//! `endgame`: solve small board games exactly, from the command line.
//!
//! The binary is thin: it parses arguments, reads files, and prints what the game crates
//! compute. Every game has a module here with its subcommands, its judge problems and its
//! demo.

mod cheesy;
mod demo;
mod failure;
mod judge;
mod marine;
mod output;
mod serve;
mod twixt;
mod xiangqi;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::failure::Failure;

/// Solve small board games exactly: who wins, in how many plies, and the line of play.
#[derive(Parser)]
#[command(name = "endgame", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run bundled examples of every game and explain the results.
    Demo,
    /// Answer a contest problem: read its input format, print its output format exactly.
    Judge(judge::JudgeArgs),
    /// Xiangqi (Chinese chess) endgames: solve a position, list its moves, generate tablebases.
    #[command(subcommand)]
    Xiangqi(xiangqi::XiangqiCommand),
    /// Twixt: replay records (judge tokens, SGF, T1), find immediate wins.
    #[command(subcommand)]
    Twixt(twixt::TwixtCommand),
    /// Cheesy Chess (HDU 1680): a white king against a black pawn.
    #[command(subcommand)]
    Cheesy(cheesy::CheesyCommand),
    /// One marine against zerglings (BZOJ 2205): the fewest rounds to win and the plan.
    #[command(subcommand)]
    Marine(marine::MarineCommand),
    /// The web explorer: a JSON API and a page for every game, on a local address.
    Serve(serve::ServeArgs),
}

fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Demo => demo::run(),
        Command::Judge(args) => judge::run(&args),
        Command::Cheesy(command) => cheesy::run(&command),
        Command::Xiangqi(command) => xiangqi::run(&command),
        Command::Twixt(command) => twixt::run(command),
        Command::Marine(command) => marine::run(&command),
        Command::Serve(args) => serve::run(&args),
    }
}

/// The command line with negative numbers taken as values everywhere, so that `--rounds -1`
/// is refused as a bad value, not as an unknown option (with clap's tip to write `-- -1`).
fn command() -> clap::Command {
    fn negative_numbers(command: clap::Command) -> clap::Command {
        let names: Vec<String> = command.get_subcommands().map(|c| c.get_name().to_string()).collect();
        let mut command = command.allow_negative_numbers(true);
        for name in names {
            command = command.mut_subcommand(name, negative_numbers);
        }
        command
    }
    negative_numbers(Cli::command())
}

/// Has glibc's allocator serve buffers of 64 KiB and more from their own mappings, which go
/// back to the system when freed. By default glibc raises that threshold to the largest buffer
/// freed so far (up to 32 MiB), then keeps such freed buffers (level lists, bitmaps, smaller
/// tables) in its heap: a generation of many tables held about a fifth more memory than its
/// largest solve. At 1 MiB the solver's packed lists (segments of up to 64 KiB, freed level by
/// level) still stayed in the heap: `KRvKNC` peaked 7.5 MB higher than at 64 KiB.
fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets a parameter of the allocator; it is called before any thread
    // is started, and a failure (return value 0) leaves the default, which is harmless.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 16);
    }
}

fn main() -> ExitCode {
    return_freed_memory();
    let args: Vec<String> = std::env::args_os().map(|a| a.to_string_lossy().into_owned()).collect();
    let cli = match command().try_get_matches_from(&args).and_then(|m| Cli::from_arg_matches(&m)) {
        Ok(cli) => cli,
        Err(e) => return failure::usage(&e, &args),
    };
    failure::exit_code(run(cli))
}
