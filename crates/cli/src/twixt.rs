//! `endgame twixt ...`: replay Twixt records and list immediate wins.

use std::fs;
use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Subcommand};
use endgame_twixt::replay::{self, Report};
use endgame_twixt::{Config, Format, Record, Rules, render};

use crate::failure::Failure;
use crate::output;

/// Twixt subcommands.
#[derive(Subcommand)]
pub enum TwixtCommand {
    /// Play a record through: every move with the links it made and the links refused (and
    /// what blocked them), the winner and the winning move, the board.
    Replay(ReplayArgs),
    /// After a record: every empty point where the side to move wins at once, and where the
    /// opponent would.
    Threats(RecordArgs),
}

/// A record and the rules to play it under.
#[derive(Args)]
pub struct RecordArgs {
    /// The record (`-` for standard input): judge tokens (`N M` and M pairs), SGF (Little Golem
    /// `.tsgf`) or T1j `.T1`.
    file: PathBuf,
    /// The record's format, when detection guesses wrong: judge, sgf or t1.
    #[arg(long)]
    format: Option<Format>,
    /// Which links block: `poj` (any link) or `pp` (only the opponent's). Default: `poj` for
    /// judge and T1 records, `pp` for SGF (Little Golem).
    #[arg(long)]
    rules: Option<Rules>,
    /// Allow (`on`) or forbid (`off`) the swap on move 2. Default: off for judge records, on
    /// for SGF, as the T1 header says for T1.
    #[arg(long, value_parser = ["on", "off"])]
    swap: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Arguments of `endgame twixt replay`.
#[derive(Args)]
pub struct ReplayArgs {
    #[command(flatten)]
    record: RecordArgs,
    /// Also draw the final board as SVG into this file (pegs, links, winning path highlighted).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

fn load(args: &RecordArgs) -> Result<(Record, replay::Replay), Failure> {
    let input = output::read_text(Some(&args.file), output::FILE_LIMIT)?;
    let record = Record::parse(&input.text, args.format).map_err(|e| input.error(e))?;
    let mut config: Config = record.default_config();
    if let Some(rules) = args.rules {
        config.rules = rules;
    }
    if let Some(swap) = &args.swap {
        config.swap = swap == "on";
    }
    let played = replay::replay(&record, config).map_err(|e| input.error(e))?;
    Ok((record, played))
}

/// Runs a Twixt subcommand.
pub fn run(command: TwixtCommand) -> Result<(), Failure> {
    let mut out = output::stdout();
    match command {
        TwixtCommand::Replay(args) => {
            let (record, played) = load(&args.record)?;
            let report = Report::new(&record, &played);
            // The file first: a reader that closes standard output early must not cost it.
            if let Some(path) = &args.svg {
                fs::write(path, render::svg(&played.game, record.format))
                    .with_context(|| format!("writing {}", path.display()))?;
            }
            if args.record.json {
                serde_json::to_writer_pretty(&mut out, &report).context("writing JSON")?;
                writeln!(out)?;
            } else {
                report.write_text(&mut out)?;
                if let Some(board) = render::ascii(&played.game, record.format) {
                    writeln!(out)?;
                    out.write_all(board.as_bytes())?;
                }
            }
        }
        TwixtCommand::Threats(args) => {
            let (record, played) = load(&args)?;
            let threats = replay::threats(&record, &played.game);
            if args.json {
                serde_json::to_writer_pretty(&mut out, &threats).context("writing JSON")?;
                writeln!(out)?;
            } else {
                threats.write_text(&played.game, &mut out)?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

const DEMO_JUDGE: &str = "7 11\n0 3 6 5 3 2 5 7 7 2 4 4\n5 3 5 2 4 5 4 0 2 4\n";
const DEMO_T1: &str = include_str!("../../twixt/tests/data/sample.T1");

/// The Twixt demo: the judge's third sample game with its board, then a short T1j record
/// with a swap.
pub fn demo(out: &mut dyn Write) -> Result<(), Failure> {
    writeln!(
        out,
        "Players put pegs in turn; a peg links to its own pegs a knight's move away unless the new link\n\
         would cross an existing one. Black joins its two edges x = 0 and x = N, White y = 0 and y = N.\n\
         Below: the judge's third sample (the last move wins: capitals mark the winning path), then a\n\
         T1j record where White takes Black's first peg over (swap) and later resigns.\n"
    )?;
    for (text, board) in [(DEMO_JUDGE, true), (DEMO_T1, false)] {
        let record = Record::parse(text, None)?;
        let played = replay::replay(&record, record.default_config())?;
        Report::new(&record, &played).write_text(out)?;
        if let Some(picture) = render::ascii(&played.game, record.format).filter(|_| board) {
            writeln!(out)?;
            out.write_all(picture.as_bytes())?;
        }
        writeln!(out)?;
    }
    Ok(())
}
