//! `review`: a game of a record (PGN or XQF) played through against the tables, every move's
//! verdict from the first position they answer, and a summary per side; with `--generate`
//! the missing tables that fit this machine generated first.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::Args;
use endgame_core::RuleValue;
use endgame_xiangqi::review::{
    DEFAULT_MISTAKE_PLIES, GameReview, PlyReview, RecordReviewError, ReviewOptions, move_label, review_game,
};
use endgame_xiangqi::{Color, Position, Tablebases, jobs, wxf};

use super::generate::ensure_tables;
use super::probe::describe;
use super::record::read_games;
use super::{TableArgs, tables};
use crate::failure::Failure;

/// `review` arguments.
#[derive(Args)]
pub struct ReviewArgs {
    /// The record: PGN (moves in ICCS, WXF or Chinese notation; UTF-8, UTF-16 or GB18030) or
    /// an XQF file; `-` reads standard input.
    record: PathBuf,
    /// The game of the record to review, 1 for the first.
    #[arg(long = "game", value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    game: u64,
    #[command(flatten)]
    tables: TableArgs,
    /// A winning move that mates at least N plies later than the best is marked a mistake.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MISTAKE_PLIES, value_parser = clap::value_parser!(u32).range(1..))]
    mistake_plies: u32,
    /// Generate the missing tables first: those of the earliest material of the game whose
    /// generation fits the memory available (and every smaller one it needs), with a progress
    /// bar on standard error.
    #[arg(long)]
    generate: bool,
    /// The block cache for probing, in MiB.
    #[arg(long, value_name = "MiB", default_value_t = 64)]
    cache: usize,
    /// Print JSON: `moves` (one per ply: `ply`, `uci`, `fen`, `result`, `for_mover`, `mark`,
    /// `best`, ...) and `summary`.
    #[arg(long)]
    json: bool,
}

/// `review`: the game reviewed, in text or JSON; exit status 0 whatever the verdicts.
pub(super) fn review(args: &ReviewArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let games = read_games(&args.record)?;
    let tables = tables(&args.tables)?.with_cache_bytes(args.cache.saturating_mul(1 << 20));
    let options = ReviewOptions { mistake_plies: args.mistake_plies };
    let game = usize::try_from(args.game).unwrap_or(usize::MAX);
    // Messages name the file, as the record's own do (not standard input).
    let name = args.record.display().to_string();
    let place = |e: RecordReviewError| {
        if args.record == std::path::Path::new("-") { e.to_string() } else { format!("{name}: {e}") }
    };
    let run = || {
        review_game(&tables, games.clone(), Some(game), options, &AtomicBool::new(false)).map_err(|e| {
            if e.table_failure().is_some() {
                Failure::Other(anyhow::anyhow!(place(e)))
            } else {
                Failure::input(place(e))
            }
        })
    };
    let mut reviewed = run()?;
    if args.generate && generate_missing(&tables, &reviewed)? {
        reviewed = run()?;
    }
    if args.json {
        writeln!(out, "{}", reviewed.to_json())?;
    } else {
        print(&reviewed, out)?;
    }
    Ok(())
}

/// Generates the tables of the earliest material of the game that has none and whose
/// generation fits the memory available (with every smaller material it needs: the game's
/// later materials too). Whether it generated anything.
fn generate_missing(tables: &Tablebases, reviewed: &GameReview) -> Result<bool, Failure> {
    use endgame_xiangqi::store::cost::{default_speed, memory_available};
    let budget = memory_available().unwrap_or(u64::MAX);
    let mut too_large = None;
    for missing in reviewed.review.missing.iter().filter(|m| m.can_generate) {
        let Ok(estimate) = jobs::estimate(tables, missing.material, default_speed()) else { continue };
        if estimate.fits(budget) {
            ensure_tables(tables, missing.material)?;
            return Ok(true);
        }
        too_large.get_or_insert(estimate);
    }
    match too_large {
        Some(estimate) => eprintln!(
            "--generate: nothing generated: {} (more than the {} MiB available)",
            estimate.describe(),
            budget >> 20
        ),
        None if reviewed.review.missing.is_empty() => {}
        None => eprintln!("--generate: no material of the game can have tables (too many men)"),
    }
    Ok(false)
}

/// A value in a row: `win in 3 plies`, `draw`, `-` when the tables do not answer.
fn value_text(value: Option<RuleValue>) -> String {
    value.map_or_else(|| "-".to_string(), |v| v.to_string())
}

/// `Game 1 of 2: Red Xu Yinchuan, Black Lü Qin, 87 plies, rules standard, from <fen>`.
fn heading(reviewed: &GameReview) -> String {
    let game = &reviewed.game;
    let mut parts = vec![format!("Game {} of {}", reviewed.number, reviewed.games)];
    for (tag, side) in [("Red", "Red"), ("Black", "Black")] {
        if let Some(name) = game.tag(tag).filter(|n| !n.is_empty()) {
            parts.push(format!("{side} {name}"));
        }
    }
    for tag in ["Event", "Date"] {
        if let Some(value) = game.tag(tag).filter(|v| !v.is_empty() && !v.contains('?')) {
            parts.push(value.to_string());
        }
    }
    parts.push(format!("{} plies", reviewed.review.plies.len()));
    parts.push(format!("rules {}", reviewed.review.rules));
    if game.tag("FEN").is_some() {
        parts.push(format!("from {}", game.start.setup()));
    }
    let mut heading = parts.remove(0);
    heading.push_str(": ");
    heading.push_str(&parts.join(", "));
    heading
}

/// The verdicts, a row per move from the first one the tables answer (the moves before them
/// in one line), the final position and the summary.
fn print(reviewed: &GameReview, out: &mut dyn Write) -> std::io::Result<()> {
    let review = &reviewed.review;
    let first = review.first_mover();
    writeln!(out, "{}", heading(reviewed))?;
    let outside = review.plies.iter().take_while(|p| p.value.is_none()).count();
    if outside > 0 {
        let materials: Vec<String> =
            review.missing.iter().filter(|m| m.ply <= outside).map(|m| m.material.to_string()).collect();
        let range = if outside == 1 { "Ply 1".to_string() } else { format!("Plies 1-{outside}") };
        let missing = match materials.len() {
            0 => String::new(),
            1..=3 => format!(" ({})", materials.join(", ")),
            n => format!(" ({} and {} more)", materials[..3].join(", "), n - 3),
        };
        writeln!(out, "{range}: not in the tables{missing}.")?;
        if let Some(hint) = review.missing.iter().rev().find(|m| m.can_generate) {
            writeln!(out, "  {} (or add --generate)", hint.message)?;
        }
    }
    // The moves from the first the tables answer (the capture into them included).
    let shown = review.plies.iter().position(|p| p.value.is_some() || p.played.is_some());
    let shown = shown.unwrap_or(review.plies.len());
    if shown < review.plies.len() {
        writeln!(
            out,
            "{:>4}  {:<7} {:<5} {:<5} {:<20} {:<20} {:<8} best",
            "ply", "move", "ICCS", "WXF", "before (mover)", "after the move", "mark"
        )?;
    }
    for p in &review.plies[shown..] {
        writeln!(out, "{}", row(first, p))?;
    }
    let turn = review.end.turn();
    writeln!(
        out,
        "Final position (after ply {}), {turn} to move: {}.",
        review.plies.len(),
        end_text(&review.end, review.end_value)
    )?;
    let summary = review.summary();
    writeln!(
        out,
        "Summary (blunder: a win or draw thrown away; mistake: a win kept but {} or more plies slower than the best):",
        review.options.mistake_plies
    )?;
    match summary.perfect_play {
        Some(perfect) => {
            let result = match perfect.winner() {
                Some(winner) => {
                    format!("{winner} wins ({} to move: {})", perfect.turn, describe(perfect.value))
                }
                None => format!("a draw ({} to move)", perfect.turn),
            };
            let from = if perfect.ply > review.plies.len() {
                format!("the final position (after ply {})", review.plies.len())
            } else {
                format!("move {} (ply {})", move_label(first, perfect.ply), perfect.ply)
            };
            writeln!(out, "  Under perfect play from {from}: {result}.")?;
        }
        None => writeln!(out, "  The tables answer no position of this game.")?,
    }
    for color in Color::ALL {
        let side = summary.side(color);
        let first_blunder =
            side.first_blunder.map_or_else(String::new, |ply| format!(" (first at ply {ply})"));
        writeln!(
            out,
            "  {:<6} {} in the tables, {}{first_blunder}, {}.",
            format!("{color}:"),
            count(side.in_tables, "move"),
            count(side.blunders, "blunder"),
            count(side.mistakes, "mistake")
        )?;
    }
    Ok(())
}

/// `1 move`, `3 blunders`.
fn count(n: usize, what: &str) -> String {
    if n == 1 { format!("1 {what}") } else { format!("{n} {what}s") }
}

/// One move's row: ply, number, ICCS, WXF, the values before and after for the mover, the
/// mark and the best move when it is another.
fn row(first: Color, p: &PlyReview) -> String {
    let mark = p.mark.map_or(String::new(), |m| m.name().to_uppercase());
    let best = match p.best {
        Some(best) if best.mv != p.mv => {
            let wxf = wxf::to_wxf(&p.before, best.mv).unwrap_or_default();
            format!("{} {wxf} ({})", best.mv, best.value)
        }
        _ => String::new(),
    };
    let line = format!(
        "{:>4}  {:<7} {:<5} {:<5} {:<20} {:<20} {:<8} {best}",
        p.ply,
        move_label(first, p.ply),
        p.mv.to_string(),
        wxf::to_wxf(&p.before, p.mv).unwrap_or_default(),
        value_text(p.value),
        value_text(p.played),
        mark,
    );
    line.trim_end().to_string()
}

/// The final position's value, or why there is none.
fn end_text(end: &Position, value: Option<RuleValue>) -> String {
    match value {
        Some(value) => describe(value),
        None => format!("not in the tables ({})", end.material()),
    }
}
