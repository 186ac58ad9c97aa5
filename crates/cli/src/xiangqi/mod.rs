//! `endgame xiangqi ...`: Xiangqi positions in FEN, solved exactly.
//!
//! This module holds the subcommands (their doc comments are the help text), the options
//! every subcommand shares and the dispatch; the rooms: [`probe`] (`solve`, `moves`, the
//! demo), [`review`] (`review`: a game of a record against the tables), [`generate`]
//! (`generate`, and the tables a position or a statistic needs first), [`stats`] (`stats`,
//! `verify`: a material's table as a whole), [`files`] (`convert`, `manifest`,
//! `verify-files`: the table files of a directory) and [`record`] (`record convert`: game
//! records in PGN and XQF).

// The arguments' doc comments are clap's help text, shown as written (`xiangqi/<rules>/`).
#![allow(rustdoc::invalid_html_tags)]

mod files;
mod generate;
mod probe;
mod record;
mod review;
mod stats;

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use endgame_xiangqi::{Material, Rules, Tablebases, typed};

use crate::failure::Failure;
use crate::output;
use files::{ConvertArgs, DirArgs};
use generate::GenerateArgs;
use probe::PositionArgs;
pub use probe::demo;
use review::ReviewArgs;
use stats::{StatsArgs, VerifyArgs};

/// Xiangqi subcommands.
#[derive(Subcommand)]
pub enum XiangqiCommand {
    /// Solve a position: result, distance in plies, best move, the whole main line, boards.
    ///
    /// Materials up to 4 men are solved on the fly when they have no file; larger ones need
    /// `generate` first. A win or a loss shows its line to the end of the game; a draw a
    /// bounded line. Default rules: standard.
    Solve(PositionArgs),
    /// List every legal move with its result and distance, best first.
    ///
    /// Materials up to 4 men are solved on the fly; larger ones need `generate` first.
    Moves(PositionArgs),
    /// Review a game of a record (PGN or XQF) against the tables: every move's result before
    /// and after for the side that moved, blunders (a win or draw thrown away), mistakes (a win
    /// kept but slower than the best by --mistake-plies or more), the best move, a summary.
    ///
    /// Moves are judged from the first position whose material the tables answer (files in
    /// --dir, or up to 4 men solved in memory); --generate generates the missing tables that
    /// fit first. Exit status 0 whatever the verdicts, 2 for a record that cannot be read.
    Review(ReviewArgs),
    /// Generate table files for materials (and every smaller material captures lead to).
    ///
    /// Files go to --dir, else $ENDGAME_TB_DIR, else the user's data directory
    /// ($XDG_DATA_HOME/endgame or ~/.local/share/endgame), under xiangqi/<rules>/. Existing
    /// files are checked and kept; damaged or outdated ones are generated anew. A run that
    /// stops resumes where it stopped.
    Generate(GenerateArgs),
    /// Statistics of a material over its legal positions (both sides to move), generating the
    /// tables it needs when no files exist.
    Stats(StatsArgs),
    /// Check a material's table against the rules: at every checked position, the value in
    /// the table must be the best of its legal moves' values (a loss without a legal move).
    ///
    /// Checks every index of a small material, a random sample of a large one. Exit status 1
    /// when a value disagrees. Standard rules only.
    Verify(VerifyArgs),
    /// Convert table files of the previous format (version 2, `<material>.egtb`) under DIR to
    /// version 3 (a `.wdl` and a `.dtm` file per material), without solving again.
    ///
    /// Each table is read, written anew, read back and compared index by index; then its old
    /// file is removed. DIR is the directory given to --dir (it holds xiangqi/<rules>/).
    /// With --rewrite, version-3 tables are rewritten too: `convert DIR --rewrite
    /// --compression best` makes a set smaller before it is shared.
    Convert(ConvertArgs),
    /// Write DIR/manifest.txt: material, rule set, file, bytes and SHA-256 of every table
    /// file under DIR, and print it.
    Manifest(DirArgs),
    /// Check every table file under DIR against DIR/manifest.txt (size and SHA-256).
    ///
    /// Exit status 0 when every listed file matches, 1 naming each file that differs or is
    /// missing.
    VerifyFiles(DirArgs),
    /// Game records: PGN (ICCS, WXF or Chinese notation; UTF-8 or GB18030) and XQF files.
    #[command(subcommand)]
    Record(record::RecordCommand),
}

/// Where tables live and under which rules.
#[derive(Args)]
pub struct TableArgs {
    /// The rule set: standard (no move into check, no legal move loses, endless play draws;
    /// no perpetual-check or chasing rules), perpetual-check (standard, but a side that checks
    /// forever while the other does not loses; chasing rules are not modelled: a perpetual
    /// chase stays a draw), check-and-chase (standard with the bans on perpetual check and
    /// perpetual chase: of two sides playing forever the one that checks forever loses, else
    /// the one that checks or chases forever) or hdu (HDU 5897: capture the General to win).
    /// Any case.
    #[arg(long, default_value_t = Rules::Standard, value_parser = parse_rules)]
    rules: Rules,
    /// The directory of the table files (default: $ENDGAME_TB_DIR, else the data directory).
    #[arg(long)]
    dir: Option<PathBuf>,
}

/// Runs a subcommand.
pub fn run(command: &XiangqiCommand) -> Result<(), Failure> {
    let mut out = output::stdout();
    match command {
        XiangqiCommand::Solve(args) => probe::solve(args, &mut out)?,
        XiangqiCommand::Moves(args) => probe::moves(args, &mut out)?,
        XiangqiCommand::Review(args) => review::review(args, &mut out)?,
        XiangqiCommand::Generate(args) => generate::generate(args, &mut out)?,
        XiangqiCommand::Stats(args) => stats::stats(args, &mut out)?,
        XiangqiCommand::Verify(args) => stats::verify(args, &mut out)?,
        XiangqiCommand::Convert(args) => files::convert(args, &mut out)?,
        XiangqiCommand::Manifest(args) => files::manifest(args, &mut out)?,
        XiangqiCommand::VerifyFiles(args) => files::verify_files(args, &mut out)?,
        XiangqiCommand::Record(command) => record::run(command, &mut out)?,
    }
    out.flush()?;
    Ok(())
}

/// The tables of `args` (the default directory when none is given).
fn tables(args: &TableArgs) -> Result<Tablebases, Failure> {
    let base = match &args.dir {
        Some(dir) => dir.clone(),
        None => Tablebases::default_dir().map_err(|e| Failure::input(format!("--dir: {e}")))?,
    };
    Ok(Tablebases::open(base, args.rules))
}

/// `--rules` in any case (`HDU`, `Standard`), as [`typed::rules`] reads it (clap names the
/// option, so the message is the library's without its `rules: ` prefix).
fn parse_rules(text: &str) -> Result<Rules, String> {
    typed::rules(text).map_err(|e| e.message)
}

/// A material in any case: `krvknn` is `KRvKNN` (no piece letter is a `v`). Pieces in
/// another order are read too and said once on standard error, since every later line (and
/// the file name) spells the material in its order: `KRvKNA (written KRvKAN ...)`.
fn parse_material(text: &str) -> Result<Material, Failure> {
    let material = typed::material(text)?;
    if let Some(note) = spelling_note(text, material) {
        eprintln!("{note}");
    }
    Ok(material)
}

/// The note for a material typed with its pieces in another order than its name's.
fn spelling_note(text: &str, material: Material) -> Option<String> {
    let written = material.to_string();
    (!written.eq_ignore_ascii_case(text))
        .then(|| format!("{text} (written {written}: each side's pieces in the order K A B N R C P)"))
}
