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

use clap::{Parser, Subcommand};

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

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return failure::usage(&e),
    };
    failure::exit_code(run(cli))
}
