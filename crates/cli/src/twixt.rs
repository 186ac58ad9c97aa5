//! `endgame twixt ...`: replay Twixt records and list immediate wins.

use std::fs;
use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Subcommand, ValueEnum};
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
    /// The record's format, when detection guesses wrong.
    #[arg(long, value_enum, ignore_case = true)]
    format: Option<FormatArg>,
    /// Which links block. Default: `poj` for judge and T1 records, `pp` for SGF (Little Golem).
    #[arg(long, value_enum, ignore_case = true)]
    rules: Option<RulesArg>,
    /// Allow or forbid the swap on move 2. Default: off for judge records, on for SGF, as the
    /// T1 header says for T1.
    #[arg(long, value_enum, ignore_case = true)]
    swap: Option<Swap>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// `--format`: a record format.
#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    /// The judge's tokens (`N M`, then M pairs `x y`).
    Judge,
    /// SGF as Little Golem exports it (`.tsgf`).
    #[value(alias = "tsgf")]
    Sgf,
    /// T1j's `.T1`.
    T1,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Judge => Format::Judge,
            FormatArg::Sgf => Format::Sgf,
            FormatArg::T1 => Format::T1,
        }
    }
}

/// `--rules`: which links block a new link.
#[derive(Clone, Copy, ValueEnum)]
enum RulesArg {
    /// Any link (POJ 2706, T1j).
    Poj,
    /// Only the opponent's links (pencil and paper, Little Golem).
    Pp,
}

impl From<RulesArg> for Rules {
    fn from(r: RulesArg) -> Rules {
        match r {
            RulesArg::Poj => Rules::Poj,
            RulesArg::Pp => Rules::Pp,
        }
    }
}

/// `--swap`: the pie rule.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Swap {
    /// Move 2 may take Black's first peg over.
    On,
    /// No swap.
    Off,
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
    let record = Record::parse(&input.text, args.format.map(Format::from)).map_err(|mut e| {
        if e.message == endgame_twixt::record::UNKNOWN_FORMAT {
            e.message.push_str("; name it with --format judge, --format sgf or --format t1");
        }
        input.error(e)
    })?;
    let mut config: Config = record.default_config();
    if let Some(rules) = args.rules {
        config.rules = rules.into();
    }
    if let Some(swap) = args.swap {
        config.swap = swap == Swap::On;
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
                fs::write(path, render::svg(&played.position, record.format))
                    .with_context(|| format!("writing {}", path.display()))?;
            }
            if args.record.json {
                serde_json::to_writer_pretty(&mut out, &report).context("writing JSON")?;
                writeln!(out)?;
            } else {
                report.write_text(&mut out)?;
                if let Some(board) = render::ascii(&played.position, record.format) {
                    writeln!(out)?;
                    out.write_all(board.as_bytes())?;
                }
            }
        }
        TwixtCommand::Threats(args) => {
            let (record, played) = load(&args)?;
            let threats = replay::threats(&record, &played.position);
            if args.json {
                serde_json::to_writer_pretty(&mut out, &threats).context("writing JSON")?;
                writeln!(out)?;
            } else {
                threats.write_text(&played.position, &mut out)?;
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
         T1j record where White takes Black's first peg over (swap) and later resigns.\n\
         Board: x Black's pegs, o White's, X and O on the winning path, . an empty hole (no corners).\n"
    )?;
    for (text, board) in [(DEMO_JUDGE, true), (DEMO_T1, false)] {
        let record = Record::parse(text, None)?;
        let played = replay::replay(&record, record.default_config())?;
        Report::new(&record, &played).write_text(out)?;
        if let Some(picture) = render::ascii(&played.position, record.format).filter(|_| board) {
            writeln!(out)?;
            out.write_all(picture.as_bytes())?;
        }
        writeln!(out)?;
    }
    Ok(())
}
