//! `stats` and `verify`: a material's table as a whole: its statistics (generated first when
//! it has no file), and its values checked against the rules.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use endgame_xiangqi::{Probe, ProbeError, Rules, SideStats, StatsBySide, report};

use super::generate::run_generation;
use super::{TableArgs, parse_material, tables};
use crate::failure::Failure;

/// `stats` arguments.
#[derive(Args)]
pub struct StatsArgs {
    /// The material, such as KRvKA.
    material: String,
    #[command(flatten)]
    tables: TableArgs,
    /// Print JSON: positions, wins, losses, draws, longest_red_win_plies, longest_black_win_plies
    /// (under perpetual-check also wins_by_rule, losses_by_rule, standard_draws), the files'
    /// sizes, and red_to_move and black_to_move: the counts of each side to move.
    #[arg(long)]
    json: bool,
}

/// `verify` arguments.
#[derive(Args)]
pub struct VerifyArgs {
    /// The material, such as KRvKA.
    material: String,
    /// How many random indices to check (every index when the material has no more).
    #[arg(long, default_value_t = 100_000)]
    samples: u64,
    /// The seed of the random sample.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The block cache for probing, in MiB.
    #[arg(long, value_name = "MiB", default_value_t = 256)]
    cache: usize,
    #[command(flatten)]
    tables: TableArgs,
}

/// `stats`: positions, wins, losses, draws, the longest wins and the files' sizes.
pub(super) fn stats(args: &StatsArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let material = parse_material(&args.material)?;
    let tables = tables(&args.tables)?;
    let rules = tables.rules();
    if !tables.has_file(material) {
        run_generation(&tables, &[material], None)?;
    }
    let failure = |e: ProbeError| {
        if e.is_table_failure() {
            Failure::Other(anyhow::anyhow!("stats: {e}"))
        } else {
            Failure::input(format!("stats: {e}"))
        }
    };
    let s = tables.stats(material).map_err(failure)?;
    // Counted from the values (every block of the WDL file read once): no header holds them.
    let sides = tables.stats_by_side(material).map_err(failure)?;
    // The sizes of the files that answer for the material (its own or its twin's), per legal
    // position.
    let size = |path: PathBuf| std::fs::metadata(path).ok().map(|m| m.len());
    let file = tables.file_material(material);
    let sizes = size(tables.path(file)).zip(size(tables.dtm_path(file)));
    let bits = |bytes: u64| {
        if s.counts.positions == 0 { 0.0 } else { bytes as f64 * 8.0 / s.counts.positions as f64 }
    };
    if args.json {
        // The same fields as the Python module's `stats`.
        let mut json = report::stats_with_files_json(&tables, material, &s);
        report::add_stats_by_side(&mut json, rules, &sides);
        writeln!(out, "{json}")?;
        return Ok(());
    }
    writeln!(out, "{material} under {rules} rules, legal positions with either side to move:")?;
    writeln!(out, "  positions  {}", s.counts.positions)?;
    writeln!(out, "  wins       {} (for the side to move)", s.counts.wins)?;
    writeln!(out, "  losses     {}", s.counts.losses)?;
    writeln!(out, "  draws      {}", s.counts.draws)?;
    if rules.has_bans() {
        let standard = s.counts.draws + s.counts.wins_by_rule + s.counts.losses_by_rule;
        let rule = if rules == Rules::PerpetualCheck { "the perpetual-check rule" } else { "the two bans" };
        writeln!(out, "  (wins and losses above are by mate, as under standard rules)")?;
        writeln!(out, "  wins by {rule}    {} (standard draws)", s.counts.wins_by_rule)?;
        writeln!(out, "  losses by {rule}  {} (standard draws)", s.counts.losses_by_rule)?;
        writeln!(
            out,
            "  standard draws: {standard}: {} became wins, {} losses by the rule, {} stayed drawn",
            s.counts.wins_by_rule, s.counts.losses_by_rule, s.counts.draws
        )?;
    }
    writeln!(out, "  longest win of Red to move:   {} plies", s.longest_red_win_plies)?;
    writeln!(out, "  longest win of Black to move: {} plies", s.longest_black_win_plies)?;
    write_sides(out, rules, &sides)?;
    if let Some((wdl, dtm)) = sizes {
        writeln!(
            out,
            "  files: WDL {wdl} bytes ({:.3} bits per position), DTM {dtm} bytes ({:.3} bits per position)",
            bits(wdl),
            bits(dtm)
        )?;
    }
    Ok(())
}

/// The counts of each side to move, a line each under a line of headings (the columns of the
/// results by the rule under the bans).
fn write_sides(out: &mut dyn Write, rules: Rules, sides: &StatsBySide) -> std::io::Result<()> {
    let bans = rules.has_bans();
    let mut headings = vec!["positions", "wins", "draws", "losses"];
    if bans {
        headings.extend(["wins by rule", "losses by rule"]);
    }
    let cells = |s: &SideStats| {
        let mut cells = vec![s.positions, s.wins, s.draws, s.losses];
        if bans {
            cells.extend([s.wins_by_rule, s.losses_by_rule]);
        }
        cells.into_iter().map(|n| n.to_string()).collect::<Vec<_>>()
    };
    let (red, black) = (cells(&sides.red), cells(&sides.black));
    let width = |k: usize| headings[k].len().max(red[k].len()).max(black[k].len());
    let row = |first: &str, cells: &[String], last: &str| {
        let mut line = format!("  {first:<15}");
        for (k, c) in cells.iter().enumerate() {
            line.push_str(&format!("  {c:>w$}", w = width(k)));
        }
        format!("{line}  {last}")
    };
    let headings: Vec<String> = headings.iter().map(|h| (*h).to_string()).collect();
    writeln!(out, "{}", row("by side to move", &headings, "longest win").trim_end())?;
    writeln!(out, "{}", row("Red to move", &red, &format!("{} plies", sides.red.longest_win_plies)))?;
    writeln!(out, "{}", row("Black to move", &black, &format!("{} plies", sides.black.longest_win_plies)))?;
    Ok(())
}

/// `verify`: every value (or a sample) checked against the values of its moves.
pub(super) fn verify(args: &VerifyArgs, out: &mut dyn Write) -> Result<(), Failure> {
    use endgame_xiangqi::tables::audit::{self, VerifyError};
    let material = parse_material(&args.material)?;
    let tables = tables(&args.tables)?.with_cache_bytes(args.cache.saturating_mul(1 << 20));
    let found = audit::verify(&tables, material, args.samples, args.seed).map_err(|e| match e {
        VerifyError::Probe(e) if e.is_table_failure() => Failure::Other(anyhow::anyhow!("verify: {e}")),
        e => Failure::input(format!("verify: {e}")),
    })?;
    let what = if found.every_index { "every index" } else { "a random sample" };
    writeln!(
        out,
        "{material} under {} rules, {what}: {} legal positions checked against their moves ({} holes or illegal skipped)",
        tables.rules(),
        found.checked,
        found.skipped
    )?;
    for m in &found.mismatches {
        writeln!(out, "  {}: table says {}, its moves give {}", m.position.setup(), m.table, m.from_moves)?;
    }
    if found.mismatch_count > 0 {
        return Err(Failure::Other(anyhow::anyhow!(
            "{} of {} positions of {material} disagree with their moves",
            found.mismatch_count,
            found.checked
        )));
    }
    writeln!(out, "every value agrees with the moves")?;
    Ok(())
}
