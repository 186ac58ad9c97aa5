//! `solve` and `moves`: a position's value, its main line and its moves, from the tables
//! (generated first with `--generate`); and the demo, which solves two positions.

use std::io::Write;

use clap::Args;
use endgame_core::RuleValue;
use endgame_xiangqi::{Move, MoveValue, Position, Probe, ProbeError, Rules, Tablebases, kvkn, report, typed};

use super::generate::ensure_tables;
use super::{TableArgs, tables};
use crate::failure::Failure;

/// A position and how to print it.
#[derive(Args)]
pub struct PositionArgs {
    /// The position in Xiangqi FEN (Pikafish letters), e.g. "3k5/9/9/9/9/3n5/9/9/9/3K5 w".
    fen: String,
    #[command(flatten)]
    tables: TableArgs,
    /// The block cache for probing, in MiB.
    #[arg(long, value_name = "MiB", default_value_t = 64)]
    cache: usize,
    /// Print JSON (fields like the lichess tablebase API: category, dtm, moves[].uci).
    #[arg(long)]
    json: bool,
    /// Generate the tables the position needs when they are missing (with a progress bar on
    /// standard error; refused up front, with the estimate, when it needs more memory than is
    /// available), then answer.
    #[arg(long)]
    generate: bool,
}

fn probe_failure(e: ProbeError) -> Failure {
    if e.is_table_failure() {
        // A file that cannot be read, a damaged table: not the user's input (exit 1).
        Failure::Other(anyhow::Error::new(e).context("position"))
    } else if e.is_not_generated() {
        Failure::input(format!("position: {e} (or add --generate to this command)"))
    } else {
        Failure::input(format!("position: {e}"))
    }
}

/// A value for people: `win in 3 plies`, `draw (endless play)`, `loss by the perpetual-check rule`.
pub(super) fn describe(value: RuleValue) -> String {
    match value {
        RuleValue::Draw(None) => "draw (endless play)".to_string(),
        // `win by the perpetual-check rule`, `loss by the perpetual-chase rule`, mates.
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

/// The position (side to move, material, rules, the board) and its value.
fn header(out: &mut dyn Write, position: &Position, value: RuleValue, rules: Rules) -> std::io::Result<()> {
    writeln!(out, "{} to move, material {}, rules {rules}:", position.turn(), position.material())?;
    writeln!(out, "{}", position.board())?;
    writeln!(out, "Result: {} to move: {}.", position.turn(), describe(value))?;
    if value.wdl() == endgame_core::Wdl::Draw && rules == Rules::Hdu && position.material() == kvkn() {
        writeln!(out, "(The HDU 5897 contest scores endless play as a win for Red, its Alice.)")?;
    }
    Ok(())
}

/// What `solve` and `moves` print about the position of `args` (its tables generated first
/// with `--generate`): with `--json` the JSON of its value and of what `fetch` finds, else the
/// position, its value and `text`.
fn answer<T>(
    args: &PositionArgs,
    out: &mut dyn Write,
    fetch: impl FnOnce(&Tablebases, &Position) -> Result<T, ProbeError>,
    json: impl FnOnce(&Position, Rules, RuleValue, &T) -> serde_json::Value,
    text: impl FnOnce(&mut dyn Write, &Position, &T) -> std::io::Result<()>,
) -> Result<(), Failure> {
    let position = typed::position(&args.fen, args.tables.rules)?;
    let tables = tables(&args.tables)?.with_cache_bytes(args.cache.saturating_mul(1 << 20));
    if args.generate {
        ensure_tables(&tables, position.material())?;
    }
    let rules = tables.rules();
    let value = tables.probe(&position).map_err(probe_failure)?;
    let found = fetch(&tables, &position).map_err(probe_failure)?;
    if args.json {
        writeln!(out, "{}", json(&position, rules, value, &found))?;
    } else {
        header(out, &position, value, rules)?;
        text(out, &position, &found)?;
    }
    Ok(())
}

/// `solve`: the value, the best move and the main line to its end.
pub(super) fn solve(args: &PositionArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let line = |tables: &Tablebases, position: &Position| tables.main_line(position);
    answer(args, out, line, report::solve_json, |out, position, line| {
        if let Some(best) = line.moves.first() {
            writeln!(out, "Best move: {}: {}.", move_text(position, best.mv), describe(best.value))?;
        }
        let mut at = *position;
        let mut texts = Vec::new();
        for m in &line.moves {
            texts.push(move_text(&at, m.mv));
            at = at.play_unchecked(m.mv);
        }
        writeln!(out, "Main line ({}): {}", endgame_core::Plies(line.moves.len() as u32), texts.join(" "))?;
        writeln!(out, "Final position:")?;
        writeln!(out, "{}", line.last.board())?;
        writeln!(out, "{}", line.end.describe())
    })
}

/// `moves`: every legal move with its value, best first.
pub(super) fn moves(args: &PositionArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let moves = |tables: &Tablebases, position: &Position| tables.moves(position);
    let json = |position: &Position, rules, value, moves: &Vec<MoveValue>| {
        report::moves_json(position, rules, value, moves)
    };
    answer(args, out, moves, json, |out, position, moves| {
        writeln!(out, "{} legal moves, best first (results for {}):", moves.len(), position.turn())?;
        for m in moves {
            let wxf = endgame_xiangqi::wxf::to_wxf(position, m.mv).unwrap_or_default();
            writeln!(out, "  {wxf:<5} {:<24} {}", move_text(position, m.mv), describe(m.value))?;
        }
        Ok(())
    })
}

/// The demo: the contest's sample, then a position solved and its line explained.
pub fn demo(out: &mut dyn Write) -> Result<(), Failure> {
    writeln!(out, "Xiangqi, HDU 5897 \"The Game\": Alice (Red) has a lone General, Bob (Black) a General")?;
    writeln!(out, "and a Horse. Bob wins by capturing her General; endless play counts as Alice's win.")?;
    writeln!(out, "A point (x, y) of the contest is rank x (0 = Red's back rank) and file y (0..8 = a..i).")?;
    writeln!(
        out,
        "Boards: Red in capitals, Black in lower case: K General, A Advisor, B Elephant, N Horse,\n\
         R Chariot, C Cannon, P Soldier; ~ the river; moves from point to point (d0d1: file d, rank 0 to 1)."
    )?;
    let sample = include_str!("../../../xiangqi/tests/data/sample.in");
    writeln!(
        out,
        "\nContest sample (`endgame judge hdu5897`): Horse, Bob's General, Alice's General, side:"
    )?;
    write!(out, "{sample}")?;
    writeln!(out, "answers:")?;
    endgame_xiangqi::judge::run(sample, out)?;
    let fen = include_str!("../../../xiangqi/tests/data/demo.fen").trim();
    writeln!(out, "\nThe spec's case `4 3 9 3 0 3 0` as a position (`endgame xiangqi solve \"{fen}\"`):")?;
    solve(&demo_args(fen, Rules::Hdu), out)?;
    let fen = "4k4/9/9/9/9/9/9/9/4A4/3RK4 w";
    writeln!(
        out,
        "\nUnder standard rules (no move into check; a side without a legal move loses), a Chariot \
         and an Advisor\nagainst a lone General (`endgame xiangqi solve --rules standard \"{fen}\"`):"
    )?;
    solve(&demo_args(fen, Rules::Standard), out)
}

/// A position to solve in the demo: small materials, solved in memory (no files are read
/// from a directory that does not exist).
fn demo_args(fen: &str, rules: Rules) -> PositionArgs {
    let nowhere = std::env::temp_dir().join(format!("endgame-demo-no-tables-{}", std::process::id()));
    PositionArgs {
        fen: fen.to_string(),
        tables: TableArgs { rules, dir: Some(nowhere) },
        cache: 8,
        json: false,
        generate: false,
    }
}
