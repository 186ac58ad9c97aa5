//! `stats` and `verify`: a material's table as a whole: its statistics (generated first when
//! it has no file), and its values checked against the rules.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use endgame_xiangqi::{Probe, Rules, report};

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
    /// (under perpetual-check also wins_by_rule, losses_by_rule, standard_draws).
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
        run_generation(&tables, &[material])?;
    }
    let s = tables.stats(material).map_err(|e| {
        if e.is_table_failure() {
            Failure::Other(anyhow::anyhow!("stats: {e}"))
        } else {
            Failure::input(format!("stats: {e}"))
        }
    })?;
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
        writeln!(out, "{}", report::stats_with_files_json(&tables, material, &s))?;
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
