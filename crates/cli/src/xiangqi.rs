//! `endgame xiangqi ...`: Xiangqi positions in FEN, solved exactly.

// The arguments' doc comments are clap's help text, shown as written (`xiangqi/<rules>/`).
#![allow(rustdoc::invalid_html_tags)]

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use endgame_core::perpetual::RuleValue;
use endgame_xiangqi::{Compression, Defenders};
use endgame_xiangqi::{
    GenerateError, GenerateEvent, GenerateSummary, Material, MaterialIndex, Move, Position, Probe,
    ProbeError, Rules, Tablebases, input, kvkn, report,
};
use indicatif::{ProgressBar, ProgressStyle};

use crate::failure::Failure;
use crate::output;

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
}

/// A directory of tables.
#[derive(Args)]
pub struct DirArgs {
    /// The directory (the one given to --dir: it holds xiangqi/<rules>/).
    dir: PathBuf,
}

/// `convert` arguments.
#[derive(Args)]
pub struct ConvertArgs {
    #[command(flatten)]
    dir: DirArgs,
    /// The compression of the files written (see `generate --compression`).
    #[arg(long, value_name = "HOW", default_value = "normal")]
    compression: Compression,
    /// Rewrite the version-3 tables too (with --compression), not only version-2 files.
    #[arg(long)]
    rewrite: bool,
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

/// `generate` arguments.
#[derive(Args)]
pub struct GenerateArgs {
    /// Materials such as KRvKA, KCPvKAB (red pieces, `v`, black pieces; letters A B N R C P).
    materials: Vec<String>,
    /// Also every material with at most this many men (Generals included, 2 to 7).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u8).range(2..=7))]
    all_up_to: Option<u8>,
    /// Also every material with at most N attacking pieces (Horses, Chariots, Cannons,
    /// Soldiers) in all, both sides together, and Advisors and Elephants as --defenders says.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=8))]
    attackers: Option<u8>,
    /// The Advisors and Elephants of the --attackers materials: any (0 to 2 of each, each
    /// side), none, full (both sides AABB), or STRONG-vs-WEAK for the side with more attacking
    /// pieces and the other, each any, none, full or letters (none-vs-full: KRvKAABB;
    /// full-vs-any; A-vs-AB).
    #[arg(long, value_name = "WHICH", default_value = "any", requires = "attackers")]
    defenders: Defenders,
    /// Leave out the --attackers and --all-up-to materials with more positions (index size)
    /// than this (a number, or with a suffix K, M, G: 500M).
    #[arg(long, value_name = "P", value_parser = parse_count)]
    max_positions: Option<u64>,
    /// Only list what would be generated: each file with its positions and memory, and the
    /// totals.
    #[arg(long)]
    dry_run: bool,
    /// How hard the files are compressed: normal (zstd level 9), or best (level 19 and longer
    /// DTM blocks: files about 10 % smaller for tables to share, about 10 times the
    /// compressing CPU, a slower first distance probe of a block).
    #[arg(long, value_name = "HOW", default_value = "normal")]
    compression: Compression,
    /// Under mpirun: rank 0 only hands out materials and solves none itself.
    #[cfg(feature = "mpi")]
    #[arg(long)]
    rank0_schedules_only: bool,
    #[command(flatten)]
    tables: TableArgs,
}

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

/// Runs a subcommand.
pub fn run(command: &XiangqiCommand) -> Result<(), Failure> {
    let mut out = output::stdout();
    match command {
        XiangqiCommand::Solve(args) => solve(args, &mut out)?,
        XiangqiCommand::Moves(args) => moves(args, &mut out)?,
        XiangqiCommand::Generate(args) => generate(args, &mut out)?,
        XiangqiCommand::Stats(args) => stats(args, &mut out)?,
        XiangqiCommand::Verify(args) => verify(args, &mut out)?,
        XiangqiCommand::Convert(args) => convert(args, &mut out)?,
        XiangqiCommand::Manifest(args) => manifest(args, &mut out)?,
        XiangqiCommand::VerifyFiles(args) => verify_files(args, &mut out)?,
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

/// `--generate`: makes sure the tables of `material` (and of every material its captures lead
/// to) are there, generating what is missing with a progress bar; refused up front when the
/// estimate exceeds the memory available.
fn ensure_tables(tables: &Tablebases, material: Material) -> Result<(), Failure> {
    use endgame_xiangqi::jobs::{self, EnsureError, EnsureOptions, Ensured, JobProgress};
    let speed = jobs::default_speed();
    let estimate =
        jobs::estimate(tables, material, speed).map_err(|e| Failure::input(format!("position: {e}")))?;
    if estimate.is_done() {
        return Ok(());
    }
    eprintln!("{} ({} rules) to generate", estimate.describe(), tables.rules());
    let bar = ProgressBar::new(estimate.positions);
    bar.set_style(
        ProgressStyle::with_template("[{bar:30}] {percent:>3}% {msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    let report = |p: &JobProgress| {
        bar.set_length(p.positions_total.max(1));
        bar.set_position(p.positions_done);
        let current = p.current.map_or_else(String::new, |m| format!(", {m}"));
        bar.set_message(format!(
            "{}/{} tables{current}, {:.1} M positions/s, {:.0} s left",
            p.materials_done,
            p.materials_total,
            p.positions_per_second / 1e6,
            p.seconds_left.ceil()
        ));
    };
    let budget = jobs::memory_available().unwrap_or(u64::MAX);
    let done = jobs::ensure(tables, material, EnsureOptions { budget, cancel: None, speed }, &report);
    bar.finish_and_clear();
    match done {
        Ok(Ensured::Generated { summary, seconds, .. }) => {
            eprintln!(
                "{}: {} generated in {seconds:.1} s ({:.1} million positions/s), in {}",
                material,
                tables_count(summary.generated),
                estimate.positions as f64 / seconds.max(1e-9) / 1e6,
                tables.dir().display()
            );
            Ok(())
        }
        Ok(Ensured::Already(_)) => Ok(()),
        Err(e @ (EnsureError::OverBudget { .. } | EnsureError::Probe(_))) => {
            Err(Failure::input(format!("position: {e}")))
        }
        Err(e) => Err(Failure::Other(anyhow::Error::new(e).context("generating"))),
    }
}

fn load(args: &PositionArgs) -> Result<(Position, Tablebases), Failure> {
    let position = input::position(&args.fen, args.tables.rules)?;
    let tables = tables(&args.tables)?.with_cache_bytes(args.cache.saturating_mul(1 << 20));
    Ok((position, tables))
}

/// `--rules` in any case (`HDU`, `Standard`), as [`input::rules`] reads it (clap names the
/// option, so the message is the library's without its `rules: ` prefix).
fn parse_rules(text: &str) -> Result<Rules, String> {
    input::rules(text).map_err(|e| e.message)
}

/// A material in any case: `krvknn` is `KRvKNN` (no piece letter is a `v`).
fn parse_material(text: &str) -> Result<Material, Failure> {
    Ok(input::material(text)?)
}

/// `1500`, `500M`, `2G`, `64K`: a count with an optional decimal suffix.
fn parse_count(text: &str) -> Result<u64, String> {
    let (digits, scale) = match text.char_indices().last() {
        Some((at, 'K' | 'k')) => (&text[..at], 1_000),
        Some((at, 'M' | 'm')) => (&text[..at], 1_000_000),
        Some((at, 'G' | 'g')) => (&text[..at], 1_000_000_000),
        _ => (text, 1),
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
        .ok_or_else(|| format!("expected a number of positions such as 1000000, 500M or 2G, found {text:?}"))
}

/// The materials `generate` is asked for: those named, `--all-up-to`, `--attackers` (the last
/// two within `--max-positions`).
fn wanted(args: &GenerateArgs) -> Result<Vec<Material>, Failure> {
    let mut wanted = args.materials.iter().map(|m| parse_material(m)).collect::<Result<Vec<_>, _>>()?;
    let mut listed = Vec::new();
    if let Some(k) = args.all_up_to {
        listed.extend(Material::all_up_to(k.into()));
    }
    if let Some(n) = args.attackers {
        listed.extend(Material::by_attackers(n.into(), args.defenders));
    }
    let fits = |m: &Material| {
        args.max_positions.is_none_or(|p| MaterialIndex::size(*m).is_some_and(|n| n as u64 <= p))
    };
    wanted.extend(listed.into_iter().filter(fits));
    if wanted.is_empty() {
        return Err(Failure::input(if args.max_positions.is_some() {
            "materials: none within --max-positions"
        } else {
            "materials: expected at least one material, --all-up-to K or --attackers N"
        }));
    }
    Ok(wanted)
}

/// `--dry-run`: every file the generation would write (or finds), with its positions and the
/// memory its solve needs, then the totals.
fn dry_run(tables: &Tablebases, wanted: &[Material], out: &mut dyn Write) -> Result<(), Failure> {
    let input = |e: ProbeError| Failure::input(format!("materials: {e}"));
    let needed = Tablebases::needed(wanted).map_err(input)?;
    let mut files: Vec<Material> = needed.iter().map(|&m| tables.file_material(m)).collect();
    files.sort_by_key(|m| (m.men(), m.to_string()));
    files.dedup();
    let (mut total, mut to_write, mut peak, mut there) = (0u64, 0u64, 0u64, 0usize);
    for &m in &files {
        let n = MaterialIndex::size(m).map_or(u64::MAX, |n| n as u64);
        total = total.saturating_add(n);
        // The memory a solve of it needs with none of its smaller tables loaded yet.
        let memory = tables.estimate(m, |_| false);
        let twin = m.colour_twin();
        let answers = if twin != m && needed.contains(&twin) {
            format!(" (answers for {twin})")
        } else {
            String::new()
        };
        let exists = if tables.path(m).exists() {
            there += 1;
            " (file exists)"
        } else {
            to_write = to_write.saturating_add(n);
            peak = peak.max(memory);
            ""
        };
        writeln!(
            out,
            "{:<12} {n:>12} positions {:>8} MiB{answers}{exists}",
            m.to_string(),
            memory.div_ceil(1 << 20)
        )?;
    }
    let asked: std::collections::BTreeSet<Material> = wanted.iter().copied().collect();
    writeln!(
        out,
        "{} materials asked for, {} with what they need ({} answered from their colour twins' files): {} files, {} positions",
        asked.len(),
        needed.len(),
        needed.len() - files.len(),
        files.len(),
        thousands(total)
    )?;
    writeln!(
        out,
        "{} files to generate ({} there), {} positions, at most {} MiB of memory",
        files.len() - there,
        there,
        thousands(to_write),
        peak.div_ceil(1 << 20)
    )?;
    Ok(())
}

/// `7580141568` as `7,580,141,568`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn generate(args: &GenerateArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let wanted = wanted(args)?;
    let tables = tables(&args.tables)?.with_compression(args.compression);
    if args.dry_run {
        return dry_run(&tables, &wanted, out);
    }
    #[cfg(feature = "mpi")]
    if launched_by_mpi() {
        return cluster_generation(&tables, &wanted, !args.rank0_schedules_only, out);
    }
    let summary = run_generation(&tables, &wanted)?;
    for &m in &wanted {
        let file = tables.file_material(m);
        if file != m {
            eprintln!(
                "{m}: answered from the file of its colour twin {file} (colours swapped, ranks flipped)"
            );
        }
    }
    let replaced = if summary.replaced > 0 {
        format!(" ({} of them replacing damaged files)", summary.replaced)
    } else {
        String::new()
    };
    let twins = match summary.twins {
        0 => String::new(),
        1 => " (and 1 material answered from its colour twin's file)".to_string(),
        n => format!(" (and {n} materials answered from their colour twins' files)"),
    };
    writeln!(
        out,
        "{} generated{replaced}, {} already there, {} in all{twins}, rules {}, in {}",
        tables_count(summary.generated),
        summary.kept,
        summary.materials,
        tables.rules(),
        tables.dir().display()
    )?;
    if let Some(peak) = summary.peak_memory.filter(|_| summary.largest > 0) {
        writeln!(
            out,
            "peak memory {} MiB (estimate {} MiB), {:.2} bytes per index of the largest material generated ({} indices)",
            peak >> 20,
            summary.estimate.div_ceil(1 << 20),
            peak as f64 / summary.largest as f64,
            summary.largest
        )?;
    }
    Ok(())
}

/// `1 table`, `2 tables`.
fn tables_count(n: usize) -> String {
    if n == 1 { "1 table".to_string() } else { format!("{n} tables") }
}

/// Whether this process was started by `mpirun`/`srun` (Open MPI, PMI or PMIx variables).
#[cfg(feature = "mpi")]
fn launched_by_mpi() -> bool {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"].iter().any(|v| std::env::var_os(v).is_some())
}

/// Generation over MPI: every rank runs this; rank 0 prints a line per finished material and
/// the summary.
#[cfg(feature = "mpi")]
fn cluster_generation(
    tables: &Tablebases,
    materials: &[Material],
    rank0_solves: bool,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    use endgame_xiangqi::cluster::{self, ClusterError, Finished};
    use mpi::traits::Communicator;
    let universe = mpi::initialize().ok_or_else(|| anyhow::anyhow!("MPI was initialised already"))?;
    let world = universe.world();
    if !rank0_solves && world.size() == 1 {
        return Err(Failure::input(
            "--rank0-schedules-only: with a single rank nobody would solve; start more ranks",
        ));
    }
    let started = std::time::Instant::now();
    let finished = |f: Finished| {
        eprintln!(
            "{}: rank {}, {:.2} s, {:.1} million positions/s",
            f.material,
            f.rank,
            f.seconds,
            f.positions as f64 / f.seconds.max(1e-9) / 1e6
        );
    };
    match cluster::generate(&world, tables, materials, rank0_solves, &finished) {
        Ok(Some(summary)) => {
            writeln!(
                out,
                "{} generated, {} already there, {} in all, rules {}, in {}, on {} ranks in {:.1} s",
                tables_count(summary.generated),
                summary.kept,
                summary.materials,
                tables.rules(),
                tables.dir().display(),
                world.size(),
                started.elapsed().as_secs_f64()
            )?;
            Ok(())
        }
        Ok(None) => Ok(()),
        Err(ClusterError::Generate(GenerateError::Probe(e))) => {
            Err(Failure::input(format!("materials: {e}")))
        }
        Err(e) if world.rank() == 0 => {
            eprintln!("error: {e}; the finished tables are kept: run the same command again to resume");
            cluster::abort(&world)
        }
        Err(e) => Err(Failure::Other(e.into())),
    }
}

/// Generates with a progress bar on a terminal and a line per material on standard error.
fn run_generation(tables: &Tablebases, materials: &[Material]) -> Result<GenerateSummary, Failure> {
    let rules = tables.rules();
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{msg:>22} [{bar:30}] {pos}/{len} {elapsed}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    let report = |event: GenerateEvent<'_>| match event {
        GenerateEvent::Kept { .. } => {}
        GenerateEvent::Replacing { material, error } => {
            bar.suspend(|| eprintln!("{material}: {error}; generating it anew"));
        }
        GenerateEvent::Solving { material, positions, memory } => {
            bar.suspend(|| {
                eprintln!(
                    "{material} ({rules} rules): {positions} positions, about {} MiB of memory",
                    memory >> 20
                );
            });
            bar.set_length(positions as u64);
            bar.set_position(0);
        }
        GenerateEvent::Progress { material, progress } => {
            bar.set_message(format!("{material} {}", progress.phase.name()));
            bar.set_position(progress.done);
        }
        GenerateEvent::Step { material, step } => {
            if bar.is_hidden() {
                // Not a terminal: a line per step (the rule's passes can take minutes).
                eprintln!("{material}: {step}");
            }
            bar.set_message(format!("{material} {step}"));
        }
        GenerateEvent::Written { material, positions, seconds, path } => {
            bar.suspend(|| {
                eprintln!(
                    "{material}: solved in {seconds:.2} s ({:.1} million positions/s), written to {}",
                    positions as f64 / seconds.max(1e-9) / 1e6,
                    path.display()
                );
            });
        }
    };
    let summary = tables.generate(materials, &report);
    bar.finish_and_clear();
    summary.map_err(|e| match e {
        GenerateError::Probe(e) => Failure::input(format!("materials: {e}")),
        other => Failure::Other(other.into()),
    })
}

fn stats(args: &StatsArgs, out: &mut dyn Write) -> Result<(), Failure> {
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
    let bits = |bytes: u64| if s.positions == 0 { 0.0 } else { bytes as f64 * 8.0 / s.positions as f64 };
    if args.json {
        // The same fields as the Python module's `stats`.
        writeln!(out, "{}", report::stats_with_files_json(&tables, material, &s))?;
        return Ok(());
    }
    writeln!(out, "{material} under {rules} rules, legal positions with either side to move:")?;
    writeln!(out, "  positions  {}", s.positions)?;
    writeln!(out, "  wins       {} (for the side to move)", s.wins)?;
    writeln!(out, "  losses     {}", s.losses)?;
    writeln!(out, "  draws      {}", s.draws)?;
    if rules.has_bans() {
        let standard = s.draws + s.wins_by_rule + s.losses_by_rule;
        let rule = if rules == Rules::PerpetualCheck { "the perpetual-check rule" } else { "the two bans" };
        writeln!(out, "  (wins and losses above are by mate, as under standard rules)")?;
        writeln!(out, "  wins by {rule}    {} (standard draws)", s.wins_by_rule)?;
        writeln!(out, "  losses by {rule}  {} (standard draws)", s.losses_by_rule)?;
        writeln!(
            out,
            "  standard draws: {standard}: {} became wins, {} losses by the rule, {} stayed drawn",
            s.wins_by_rule, s.losses_by_rule, s.draws
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

fn dir_failure(e: endgame_xiangqi::files::FilesError) -> Failure {
    Failure::Other(anyhow::Error::new(e))
}

fn convert(args: &ConvertArgs, out: &mut dyn Write) -> Result<(), Failure> {
    use endgame_xiangqi::files::{self, ConvertOptions, Converted};
    let dir = &args.dir.dir;
    if !dir.is_dir() {
        return Err(Failure::input(format!("DIR {}: not a directory", dir.display())));
    }
    let printed = std::sync::Mutex::new(Vec::new());
    let done = |c: &Converted| {
        let line = format!(
            "{} ({}): {} bytes -> WDL {} + DTM {} = {} bytes",
            c.material,
            c.rules,
            c.before,
            c.after.0,
            c.after.1,
            c.after.0 + c.after.1
        );
        eprintln!("{line}");
        printed.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(line);
    };
    let options = ConvertOptions { compression: args.compression, rewrite: args.rewrite };
    let converted = files::convert(dir, options, &done).map_err(dir_failure)?;
    let before: u64 = converted.iter().map(|c| c.before).sum();
    let after: u64 = converted.iter().map(|c| c.after.0 + c.after.1).sum();
    let verb = if args.rewrite { "converted or rewritten" } else { "converted" };
    writeln!(out, "{} tables {verb}: {before} bytes -> {after} bytes", converted.len())?;
    Ok(())
}

fn manifest(args: &DirArgs, out: &mut dyn Write) -> Result<(), Failure> {
    use endgame_xiangqi::files;
    if !args.dir.is_dir() {
        return Err(Failure::input(format!("DIR {}: not a directory", args.dir.display())));
    }
    let entries = files::write_manifest(&args.dir).map_err(dir_failure)?;
    write!(out, "{}", files::manifest_text(&entries))?;
    writeln!(out, "# {} files, written to {}", entries.len(), args.dir.join(files::MANIFEST).display())?;
    Ok(())
}

fn verify_files(args: &DirArgs, out: &mut dyn Write) -> Result<(), Failure> {
    use endgame_xiangqi::files;
    if !args.dir.is_dir() {
        return Err(Failure::input(format!("DIR {}: not a directory", args.dir.display())));
    }
    let check = files::verify_files(&args.dir).map_err(dir_failure)?;
    for (e, what) in &check.differing {
        writeln!(out, "differs: {} ({what})", e.file)?;
    }
    for e in &check.missing {
        writeln!(out, "missing: {}", e.file)?;
    }
    for file in &check.unlisted {
        writeln!(out, "not in the manifest: {file}")?;
    }
    let listed = check.matching + check.differing.len() + check.missing.len();
    writeln!(out, "{} of {listed} files match the manifest", check.matching)?;
    if !check.ok() {
        let count = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        return Err(Failure::Other(anyhow::anyhow!(
            "{} from the manifest, {} missing",
            count(check.differing.len(), "file differs", "files differ"),
            count(check.missing.len(), "file", "files")
        )));
    }
    Ok(())
}

fn verify(args: &VerifyArgs, out: &mut dyn Write) -> Result<(), Failure> {
    use endgame_xiangqi::verify::{self, VerifyError};
    let material = parse_material(&args.material)?;
    let tables = tables(&args.tables)?.with_cache_bytes(args.cache.saturating_mul(1 << 20));
    let found = verify::verify(&tables, material, args.samples, args.seed).map_err(|e| match e {
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

fn describe(value: RuleValue) -> String {
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

fn header(out: &mut dyn Write, position: &Position, rules: Rules) -> std::io::Result<()> {
    writeln!(out, "{} to move, material {}, rules {rules}:", position.turn(), position.material())?;
    writeln!(out, "{}", position.board())
}

fn result(out: &mut dyn Write, position: &Position, value: RuleValue, rules: Rules) -> std::io::Result<()> {
    writeln!(out, "Result: {} to move: {}.", position.turn(), describe(value))?;
    if value.wdl() == endgame_core::Wdl::Draw && rules == Rules::Hdu && position.material() == kvkn() {
        writeln!(out, "(The HDU 5897 contest scores endless play as a win for Red, its Alice.)")?;
    }
    Ok(())
}

fn solve(args: &PositionArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (position, tables) = load(args)?;
    if args.generate {
        ensure_tables(&tables, position.material())?;
    }
    let rules = tables.rules();
    let value = tables.probe(&position).map_err(probe_failure)?;
    let line = tables.main_line(&position).map_err(probe_failure)?;
    if args.json {
        writeln!(out, "{}", report::solve_json(&position, rules, value, &line))?;
        return Ok(());
    }
    header(out, &position, rules)?;
    result(out, &position, value, rules)?;
    if let Some(best) = line.moves.first() {
        writeln!(out, "Best move: {}: {}.", move_text(&position, best.mv), describe(best.value))?;
    }
    let mut at = position;
    let mut texts = Vec::new();
    for m in &line.moves {
        texts.push(move_text(&at, m.mv));
        at = at.play_unchecked(m.mv);
    }
    writeln!(out, "Main line ({}): {}", endgame_core::Plies(line.moves.len() as u32), texts.join(" "))?;
    writeln!(out, "Final position:")?;
    writeln!(out, "{}", line.last.board())?;
    writeln!(out, "{}", line.end.describe())?;
    Ok(())
}

fn moves(args: &PositionArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (position, tables) = load(args)?;
    if args.generate {
        ensure_tables(&tables, position.material())?;
    }
    let rules = tables.rules();
    let value = tables.probe(&position).map_err(probe_failure)?;
    let scored = tables.moves(&position).map_err(probe_failure)?;
    if args.json {
        writeln!(out, "{}", report::moves_json(&position, rules, value, &scored))?;
        return Ok(());
    }
    header(out, &position, rules)?;
    result(out, &position, value, rules)?;
    writeln!(out, "{} legal moves, best first (results for {}):", scored.len(), position.turn())?;
    for m in scored {
        let wxf = endgame_xiangqi::wxf::to_wxf(&position, m.mv).unwrap_or_default();
        writeln!(out, "  {wxf:<5} {:<24} {}", move_text(&position, m.mv), describe(m.value))?;
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
