//! `endgame xiangqi record ...`: game records (PGN in ICCS, WXF or Chinese notation, in
//! UTF-8 or GB18030; XQF files of 象棋演播室), read and checked move by move
//! ([`endgame_xiangqi::record`]), and written back as PGN in another notation.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use endgame_xiangqi::record::{Game, Notation, read_records, write_pgn};

use crate::failure::Failure;
use crate::output::FILE_LIMIT;

/// Record subcommands.
#[derive(Subcommand)]
pub enum RecordCommand {
    /// Read a game record and write its games as PGN, the moves in another notation.
    ///
    /// The record: PGN (one or more games; moves in ICCS `h2e2`, WXF `C2.5` or Chinese
    /// `炮二平五`, detected per game; UTF-8, UTF-16 or GB18030/GBK) or an XQF file of
    /// 象棋演播室 (any version, encrypted or not). Every move is checked against the rules: a
    /// record with an illegal or ambiguous move is refused (exit status 2) with the game, the
    /// move number and the move's text. Comments are kept, variations dropped.
    Convert(ConvertArgs),
}

/// `record convert` arguments.
#[derive(Args)]
pub struct ConvertArgs {
    /// The record (`-` for standard input): PGN or XQF.
    file: PathBuf,
    /// The notation of the moves written: iccs (h2e2), wxf (C2.5) or chinese (炮二平五).
    #[arg(long, value_name = "NOTATION", value_parser = parse_notation)]
    to: Notation,
}

fn parse_notation(text: &str) -> Result<Notation, String> {
    text.parse().map_err(|e: endgame_xiangqi::record::ParseNotationError| e.to_string())
}

/// Runs a record subcommand.
pub fn run(command: &RecordCommand, out: &mut dyn Write) -> Result<(), Failure> {
    match command {
        RecordCommand::Convert(args) => {
            let games = read_games(&args.file)?;
            out.write_all(write_pgn(&games, args.to).as_bytes())?;
        }
    }
    Ok(())
}

/// The games of a record file (`-`: standard input), of at most [`FILE_LIMIT`] bytes; a
/// record that cannot be read is an input error naming the file, the game and the place.
pub fn read_games(path: &Path) -> Result<Vec<Game>, Failure> {
    let stdin = path == Path::new("-");
    let name = if stdin { "standard input".to_string() } else { path.display().to_string() };
    let reader: Box<dyn Read> = if stdin {
        Box::new(io::stdin().lock())
    } else {
        Box::new(File::open(path).map_err(|e| Failure::input(format!("{name}: cannot read: {e}")))?)
    };
    let mut bytes = Vec::new();
    reader
        .take(FILE_LIMIT + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::input(format!("{name}: cannot read: {e}")))?;
    if bytes.len() as u64 > FILE_LIMIT {
        return Err(Failure::input(format!(
            "{name}: expected a record of at most {} MiB, found more (reading stopped there)",
            FILE_LIMIT >> 20
        )));
    }
    read_records(&bytes)
        .map_err(|e| if stdin { Failure::input(e) } else { Failure::input(format!("{name}: {e}")) })
}
