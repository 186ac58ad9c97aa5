//! `endgame cheesy ...`: Cheesy Chess (HDU 1680), a white king against a black pawn.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use endgame_cheesy::report::Report;
use endgame_cheesy::text::{parse_position, render};
use endgame_cheesy::{Answer, Color, Position, scored_moves, solve};

use crate::failure::Failure;
use crate::output;

/// Cheesy Chess commands.
#[derive(Subcommand)]
pub enum CheesyCommand {
    /// Solve a board file: the winner, the distance in plies and the line of play.
    ///
    /// The file draws the board from the top row down, one character per field: `.` open,
    /// `D` dangerous, `F` forbidden, `K` the king, `P` the pawn (`p` on a `D` field). Any size
    /// from 1 x 1 to 64 x 64.
    Solve(SolveArgs),
}

/// Who moves first.
#[derive(Clone, Copy, ValueEnum)]
pub enum ToMove {
    /// The king (as in the contest).
    White,
    /// The pawn.
    Black,
}

/// Arguments of `endgame cheesy solve`.
#[derive(Args)]
pub struct SolveArgs {
    /// The board file (`-` for standard input).
    file: PathBuf,
    /// The side to move.
    #[arg(long, value_enum, default_value = "white", ignore_case = true)]
    to_move: ToMove,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs a cheesy command.
pub fn run(command: &CheesyCommand) -> Result<(), Failure> {
    match command {
        CheesyCommand::Solve(args) => {
            let input = output::read_text(Some(&args.file), output::FILE_LIMIT)?;
            let to_move = match args.to_move {
                ToMove::White => Color::White,
                ToMove::Black => Color::Black,
            };
            let position = parse_position(&input.text, to_move).map_err(|e| input.error(e))?;
            let answer = solve(&position).map_err(|e| Failure::Other(e.into()))?;
            let mut out = output::stdout();
            if args.json {
                serde_json::to_writer_pretty(&mut out, &Report::new(&position, &answer))
                    .map_err(|e| Failure::Other(e.into()))?;
                writeln!(out)?;
            } else {
                write_answer(&mut out, &position, &answer)?;
            }
            out.flush()?;
            Ok(())
        }
    }
}

/// The answer as text: the verdict, the start board and every ply with its board.
fn write_answer(out: &mut dyn Write, position: &Position, answer: &Answer) -> std::io::Result<()> {
    let board = position.board();
    let start = position.placement();
    writeln!(
        out,
        "{} x {} board, {} to move: {} wins in {}.",
        board.rows(),
        board.cols(),
        start.to_move,
        answer.winner,
        answer.value.plies().unwrap_or_default(),
    )?;
    writeln!(out, "{LEGEND}")?;
    writeln!(out)?;
    writeln!(out, "Start:")?;
    write!(out, "{}", render(board, start.king, Some(start.pawn)))?;
    for (i, ply) in answer.line.iter().enumerate() {
        writeln!(out)?;
        writeln!(out, "{}. {} {}: {}", i + 1, ply.mv.side(), ply.mv, ply.value)?;
        write!(out, "{}", render(board, ply.king, ply.pawn))?;
    }
    writeln!(out)?;
    writeln!(out, "End: {}. {} wins.", answer.ending, answer.winner)
}

const DEMO_BOARDS: [(&str, &str); 2] = [
    ("the contest's first sample", include_str!("../../cheesy/examples/sample1.txt")),
    ("the contest's second sample", include_str!("../../cheesy/examples/sample2.txt")),
];

/// What the boards' letters mean (`solve` and the demo).
const LEGEND: &str = "K king, P pawn (p on a D field), d dangerous below the pawn, D dangerous, F forbidden.";

const CORNER: &str = include_str!("../../cheesy/examples/corner.txt");

/// The demo: the contest's two samples, solved with their lines, and a choice of king moves.
pub fn demo(out: &mut dyn Write) -> Result<(), Failure> {
    writeln!(
        out,
        "Cheesy Chess (HDU 1680): a white king hunts a black pawn that walks down to the bottom row."
    )?;
    writeln!(out, "The king may not enter D fields, nor the two fields diagonally below the pawn.")?;
    writeln!(out, "Boards: {LEGEND}")?;
    for (name, text) in DEMO_BOARDS {
        let position = parse_position(text, Color::White).map_err(Failure::input)?;
        let answer = solve(&position).map_err(|e| Failure::Other(e.into()))?;
        writeln!(out)?;
        writeln!(out, "{name}:")?;
        let start = position.placement();
        write!(out, "{}", render(position.board(), start.king, Some(start.pawn)))?;
        let moves: Vec<String> = answer.line.iter().map(|p| p.mv.to_string()).collect();
        writeln!(
            out,
            "{} to move: {} wins in {}. Line: {}.",
            start.to_move,
            answer.winner,
            answer.value.plies().unwrap_or_default(),
            moves.join(" ")
        )?;
        writeln!(out, "End: {}.", answer.ending)?;
    }
    let position = parse_position(CORNER, Color::White).map_err(Failure::input)?;
    let start = position.placement();
    writeln!(out)?;
    writeln!(out, "White must choose well: one king move wins at once, another gets the king stuck.")?;
    write!(out, "{}", render(position.board(), start.king, Some(start.pawn)))?;
    for (mv, value) in scored_moves(&position).map_err(|e| Failure::Other(e.into()))? {
        writeln!(out, "  {mv}: {value} for White")?;
    }
    Ok(())
}
