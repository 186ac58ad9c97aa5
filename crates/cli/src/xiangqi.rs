//! `endgame xiangqi ...`: Xiangqi positions in FEN, solved exactly.

use std::io::Write;

use clap::{Args, Subcommand};
use endgame_core::Value;
use endgame_xiangqi::{Color, Move, Position, Rules, Setup, Tablebase, hdu};
use serde_json::json;

use crate::failure::Failure;
use crate::output;

/// Xiangqi subcommands.
#[derive(Subcommand)]
pub enum XiangqiCommand {
    /// Solve a position: result, distance in plies, best move, main line, boards.
    ///
    /// Solved so far: KvKN (a lone Red General against a Black General and Horse) and KvK,
    /// under the hdu rules.
    Solve(PositionArgs),
    /// List every legal move with its result and distance, best first.
    ///
    /// Solved so far: KvKN and KvK, under the hdu rules.
    Moves(PositionArgs),
}

/// A position and how to print it.
#[derive(Args)]
pub struct PositionArgs {
    /// The position in Xiangqi FEN (Pikafish letters), e.g. "3k5/9/9/9/9/3n5/9/9/9/3K5 w".
    fen: String,
    /// The rule set: hdu (capture the General to win; moving into danger is legal).
    #[arg(long, default_value = "hdu")]
    rules: String,
    /// Print JSON (fields like the lichess tablebase API: category, dtm, moves[].uci).
    #[arg(long)]
    json: bool,
}

/// Runs a subcommand.
pub fn run(command: &XiangqiCommand) -> Result<(), Failure> {
    let mut out = output::stdout();
    match command {
        XiangqiCommand::Solve(args) => solve(args, &mut out)?,
        XiangqiCommand::Moves(args) => moves(args, &mut out)?,
    }
    out.flush()?;
    Ok(())
}

fn load(args: &PositionArgs) -> Result<(Position, &'static Tablebase), Failure> {
    let rules: Rules = args.rules.parse().map_err(|e| Failure::input(format!("--rules: {e}")))?;
    let setup: Setup = args.fen.parse().map_err(|e| Failure::input(format!("FEN {:?}: {e}", args.fen)))?;
    let position = Position::from_setup(setup).map_err(|e| Failure::input(format!("position: {e}")))?;
    let tables = match rules {
        Rules::Hdu => hdu(),
    };
    tables.probe(&position).map_err(|e| Failure::input(format!("position: {e}")))?;
    Ok((position, tables))
}

fn category(value: Value) -> &'static str {
    match value {
        Value::Win(_) => "win",
        Value::Draw(_) => "draw",
        Value::Loss(_) => "loss",
    }
}

/// Plies to the end, positive for a win of the side to move, negative for a loss, `None`
/// for a draw (lichess's sign convention).
fn dtm(value: Value) -> Option<i64> {
    match value {
        Value::Win(d) => Some(i64::from(d.0)),
        Value::Loss(d) => Some(-i64::from(d.0)),
        Value::Draw(_) => None,
    }
}

fn describe(value: Value) -> String {
    match value {
        Value::Draw(_) => "draw (endless play)".to_string(),
        other => other.to_string(),
    }
}

/// `e0d1 (takes the Horse)`.
fn move_text(position: &Position, mv: Move) -> String {
    match position.capture(mv) {
        Some(p) => format!("{mv} (takes {}'s {})", p.color, p.role),
        None => mv.to_string(),
    }
}

fn header(out: &mut dyn Write, position: &Position, tables: &Tablebase) -> std::io::Result<()> {
    writeln!(
        out,
        "{} to move, material {}, rules {}:",
        position.turn(),
        position.material(),
        tables.rules()
    )?;
    writeln!(out, "{}", position.board())
}

fn result(out: &mut dyn Write, position: &Position, value: Value) -> std::io::Result<()> {
    writeln!(out, "Result: {} to move: {}.", position.turn(), describe(value))?;
    if value.wdl() == endgame_core::Wdl::Draw {
        writeln!(out, "(The HDU 5897 contest scores endless play as a win for Red, its Alice.)")?;
    }
    Ok(())
}

fn solve(args: &PositionArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (position, tables) = load(args)?;
    let value = tables.probe(&position).map_err(|e| Failure::input(format!("position: {e}")))?;
    let line = tables.main_line(&position, 40).map_err(|e| Failure::input(format!("position: {e}")))?;
    let mut last = position;
    let mut texts = Vec::new();
    for &(mv, _) in &line {
        texts.push(move_text(&last, mv));
        last = last.play(mv);
    }
    let ending = if last.is_game_over() {
        format!("{} has captured {}'s General.", !last.turn(), last.turn())
    } else {
        "The position repeats: endless play, a draw.".to_string()
    };
    if args.json {
        let report = json!({
            "fen": position.setup().to_string(),
            "rules": tables.rules().name(),
            "material": position.material().to_string(),
            "turn": turn_name(position.turn()),
            "category": category(value),
            "dtm": dtm(value),
            "best_move": line.first().map(|(mv, _)| mv.to_string()),
            "main_line": line.iter().map(|(mv, _)| mv.to_string()).collect::<Vec<_>>(),
            "final_fen": last.setup().to_string(),
        });
        writeln!(out, "{report}")?;
        return Ok(());
    }
    header(out, &position, tables)?;
    result(out, &position, value)?;
    if let Some(&(best, best_value)) = line.first() {
        writeln!(out, "Best move: {}: {}.", move_text(&position, best), describe(best_value))?;
    }
    writeln!(out, "Main line ({}): {}", endgame_core::Plies(line.len() as u32), texts.join(" "))?;
    writeln!(out, "Final position:")?;
    writeln!(out, "{}", last.board())?;
    writeln!(out, "{ending}")?;
    Ok(())
}

fn turn_name(color: Color) -> &'static str {
    match color {
        Color::Red => "red",
        Color::Black => "black",
    }
}

fn moves(args: &PositionArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (position, tables) = load(args)?;
    let value = tables.probe(&position).map_err(|e| Failure::input(format!("position: {e}")))?;
    let scored = tables.scored_moves(&position).map_err(|e| Failure::input(format!("position: {e}")))?;
    if args.json {
        // As in the lichess API, a move's category and dtm are those of the position after it,
        // for the side to move there.
        let moves: Vec<serde_json::Value> = scored
            .iter()
            .map(|&(mv, _)| {
                let after =
                    tables.probe(&position.play(mv)).map_err(|e| Failure::input(format!("position: {e}")))?;
                Ok(json!({
                    "uci": mv.to_string(),
                    "category": category(after),
                    "dtm": dtm(after),
                    "capture": position.capture(mv).map(|p| p.role.name()),
                }))
            })
            .collect::<Result<_, Failure>>()?;
        let report = json!({
            "fen": position.setup().to_string(),
            "rules": tables.rules().name(),
            "material": position.material().to_string(),
            "turn": turn_name(position.turn()),
            "category": category(value),
            "dtm": dtm(value),
            "moves": moves,
        });
        writeln!(out, "{report}")?;
        return Ok(());
    }
    header(out, &position, tables)?;
    result(out, &position, value)?;
    writeln!(out, "{} legal moves, best first (results for {}):", scored.len(), position.turn())?;
    for (mv, v) in scored {
        writeln!(out, "  {:<24} {}", move_text(&position, mv), describe(v))?;
    }
    Ok(())
}

/// The demo: the contest's sample, then a position solved and its line explained.
pub fn demo(out: &mut dyn Write) -> Result<(), Failure> {
    writeln!(out, "Xiangqi, HDU 5897 \"The Game\": Alice (Red) has a lone General, Bob (Black) a General")?;
    writeln!(out, "and a Horse. Bob wins by capturing her General; endless play counts as Alice's win.")?;
    writeln!(out, "A point (x, y) of the contest is rank x (0 = Red's back rank) and file y (0..8 = a..i).")?;
    let sample = include_str!("../../xiangqi/tests/data/sample.in");
    writeln!(
        out,
        "\nContest sample (`endgame judge hdu5897`): Horse, Bob's General, Alice's General, side:"
    )?;
    write!(out, "{sample}")?;
    writeln!(out, "answers:")?;
    endgame_xiangqi::judge::run(sample, out)?;
    let fen = include_str!("../../xiangqi/tests/data/demo.fen").trim();
    writeln!(out, "\nThe spec's case `4 3 9 3 0 3 0` as a position (`endgame xiangqi solve \"{fen}\"`):")?;
    let args = PositionArgs { fen: fen.to_string(), rules: "hdu".to_string(), json: false };
    solve(&args, out)
}
