//! `generate`: the materials asked for (by name, by men, by attackers), listed with
//! `--dry-run` or generated with progress on standard error (over MPI with the `mpi`
//! feature); and the tables a position (`--generate`) or a statistic needs, generated first.

use std::io::Write;

use clap::Args;
use endgame_core::units;
use endgame_xiangqi::{
    Compression, Defenders, GenerateError, GenerateEvent, GenerateSummary, Material, MaterialIndex, Probe,
    ProbeError, Tablebases,
};
use indicatif::{ProgressBar, ProgressStyle};

use super::{TableArgs, parse_material, tables};
use crate::failure::Failure;

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
    /// The memory the generation may take, in bytes (with a suffix K, M, G: 4G = 4 GiB;
    /// default: the memory available). Under a ban a material whose estimate exceeds it but
    /// whose least estimate fits (see --dry-run) is solved with the predecessor lists that fit,
    /// slower; one whose least estimate exceeds it is refused. Not under mpirun
    /// (--memory-per-rank there).
    #[arg(long, value_name = "BYTES", value_parser = parse_bytes)]
    memory: Option<u64>,
    /// Under mpirun: rank 0 only hands out materials and solves none itself.
    #[cfg(feature = "mpi")]
    #[arg(long)]
    rank0_schedules_only: bool,
    /// Under mpirun: the memory of one rank in bytes (with a suffix K, M, G: 256M = 256 MiB;
    /// default: the memory available on rank 0's machine). A material whose estimate exceeds
    /// it is split over every rank, each holding a part of its index (standard rules only;
    /// --dry-run prints the plan).
    #[cfg(feature = "mpi")]
    #[arg(long, value_name = "BYTES", value_parser = parse_bytes)]
    memory_per_rank: Option<u64>,
    #[command(flatten)]
    tables: TableArgs,
}

/// `--generate`: makes sure the tables of `material` (and of every material its captures lead
/// to) are there, generating what is missing with a progress bar; refused up front when the
/// least estimate exceeds the memory available.
pub(super) fn ensure_tables(tables: &Tablebases, material: Material) -> Result<(), Failure> {
    use endgame_xiangqi::jobs::{self, EnsureError, EnsureOptions, Ensured, JobProgress};
    use endgame_xiangqi::store::cost::{default_speed, memory_available};
    let speed = default_speed();
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
            "{}/{} tables{current}, {}, about {} left",
            p.materials_done,
            p.materials_total,
            per_second(p.positions_per_second),
            units::duration(p.seconds_left)
        ));
    };
    let budget = memory_available().unwrap_or(u64::MAX);
    let done = jobs::ensure(tables, material, EnsureOptions { budget, cancel: None, speed }, &report);
    bar.finish_and_clear();
    match done {
        Ok(Ensured::Generated { summary, seconds, .. }) => {
            eprintln!(
                "{}: {} generated in {seconds:.1} s ({}), in {}",
                material,
                tables_count(summary.generated),
                per_second(estimate.positions as f64 / seconds.max(1e-9)),
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

/// `256M`, `2G`, `1048576`: bytes with an optional binary suffix (K = 1024).
fn parse_bytes(text: &str) -> Result<u64, String> {
    let (digits, shift) = match text.char_indices().last() {
        Some((at, 'K' | 'k')) => (&text[..at], 10),
        Some((at, 'M' | 'm')) => (&text[..at], 20),
        Some((at, 'G' | 'g')) => (&text[..at], 30),
        Some((at, 'T' | 't')) => (&text[..at], 40),
        _ => (text, 0),
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .ok_or_else(|| format!("expected a number of bytes such as 268435456, 256M or 2G, found {text:?}"))
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
    let needed = tables.needed_here(wanted).map_err(input)?;
    let mut files: Vec<Material> = needed.iter().map(|&m| tables.file_material(m)).collect();
    files.sort_by_key(|m| (m.men(), m.to_string()));
    files.dedup();
    let (mut total, mut to_write, mut peak, mut there) = (0u64, 0u64, 0u64, 0usize);
    let mut least_peak = 0u64;
    for &m in &files {
        let n = MaterialIndex::size(m).map_or(u64::MAX, |n| n as u64);
        total = total.saturating_add(n);
        // The memory a solve of it needs with none of its smaller tables loaded yet.
        // Under a ban, the least it runs with besides (without predecessor lists, slower).
        let (memory, least) = tables.estimates(m, |_| false);
        let at_least =
            if least < memory { format!(" (at least {})", units::bytes(least)) } else { String::new() };
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
            least_peak = least_peak.max(least);
            ""
        };
        writeln!(
            out,
            "{:<12} {:>14} positions {:>9}{at_least}{answers}{exists}",
            m.to_string(),
            units::count(n),
            units::bytes(memory)
        )?;
    }
    let asked: std::collections::BTreeSet<Material> = wanted.iter().copied().collect();
    writeln!(
        out,
        "{} asked for, {} with what they need ({} answered from their colour twins' files): {} files, {} positions",
        match asked.len() {
            1 => "1 material".to_string(),
            n => format!("{n} materials"),
        },
        needed.len(),
        needed.len() - files.len(),
        files.len(),
        units::count(total)
    )?;
    let at_least = if least_peak < peak {
        format!(" (at least {}, slower)", units::bytes(least_peak))
    } else {
        String::new()
    };
    writeln!(
        out,
        "{} files to generate ({} there), {} positions, at most {} of memory{at_least}",
        files.len() - there,
        there,
        units::count(to_write),
        units::bytes(peak)
    )?;
    Ok(())
}

/// `generate`: the materials asked for, listed (`--dry-run`) or generated.
pub(super) fn generate(args: &GenerateArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let wanted = wanted(args)?;
    let tables = tables(&args.tables)?.with_compression(args.compression);
    #[cfg(feature = "mpi")]
    if launched_by_mpi() {
        return cluster_generation(tables, &wanted, args, out);
    }
    if args.dry_run {
        return dry_run(&tables, &wanted, out);
    }
    let summary = run_generation(&tables, &wanted, args.memory)?;
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
            "peak memory {} (estimate {}), {:.2} bytes per index of the largest material generated ({} indices)",
            units::bytes(peak),
            units::bytes(summary.estimate),
            peak as f64 / summary.largest as f64,
            units::count(summary.largest as u64)
        )?;
    }
    Ok(())
}

/// A generation speed, the count grouped as every count ([`units::rate`]): `2,160 positions/s`,
/// `3,214,775 positions/s`.
fn per_second(rate: f64) -> String {
    format!("{} positions/s", units::rate(rate))
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
    tables: Tablebases,
    materials: &[Material],
    args: &GenerateArgs,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    use endgame_xiangqi::cluster::{self, ClusterError, Finished, SplitOptions};
    use mpi::traits::Communicator;
    if args.memory.is_some() {
        return Err(Failure::input("--memory: a generation in one process; under mpirun, --memory-per-rank"));
    }
    let rank0_solves = !args.rank0_schedules_only;
    let universe = mpi::initialize().ok_or_else(|| anyhow::anyhow!("MPI was initialised already"))?;
    let world = universe.world();
    let memory_per_rank =
        args.memory_per_rank.or_else(endgame_xiangqi::store::cost::memory_available).unwrap_or(u64::MAX);
    let tables = &tables.with_cluster(world.size() as usize, memory_per_rank);
    if args.dry_run {
        // Rank 0 prints the plan; the others have nothing to add.
        if world.rank() != 0 {
            return Ok(());
        }
        dry_run(tables, materials, out)?;
        return split_plan(tables, materials, world.size() as usize, memory_per_rank, out);
    }
    if !rank0_solves && world.size() == 1 {
        return Err(Failure::input(
            "--rank0-schedules-only: with a single rank nobody would solve; start more ranks",
        ));
    }
    let started = std::time::Instant::now();
    let finished = |f: Finished| {
        let Some(split) = f.split else {
            eprintln!(
                "{}: rank {}, {:.2} s, {}",
                f.material,
                f.rank,
                f.seconds,
                per_second(f.positions as f64 / f.seconds.max(1e-9))
            );
            return;
        };
        eprintln!(
            "{}: split over {} ranks, {:.2} s, {}; {} events between ranks ({}) over {} levels, rank 0 at most {} in a level, {} exchanges; largest rank peak {}",
            f.material,
            split.ranks,
            f.seconds,
            per_second(f.positions as f64 / f.seconds.max(1e-9)),
            units::count(split.events),
            units::bytes(split.events * 8),
            split.levels,
            units::count(split.rank0_level_max),
            units::count(split.exchanges),
            units::bytes(split.peak_rank_bytes)
        );
    };
    let split = SplitOptions { memory_per_rank };
    match cluster::generate(&world, tables, materials, rank0_solves, split, &finished) {
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

/// `--dry-run` under mpirun, after the list: how each material whose estimate exceeds the
/// memory of a rank is solved (split over how many ranks, each rank's estimate, or why whole).
#[cfg(feature = "mpi")]
fn split_plan(
    tables: &Tablebases,
    materials: &[Material],
    ranks: usize,
    memory_per_rank: u64,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    use endgame_xiangqi::store::split::Share;
    let input = |e: ProbeError| Failure::input(format!("materials: {e}"));
    let needed = tables.needed_here(materials).map_err(input)?;
    let mut files: Vec<Material> = needed.iter().map(|&m| tables.file_material(m)).collect();
    files.sort_by_key(|m| (m.men(), m.to_string()));
    files.dedup();
    writeln!(out, "on {ranks} ranks of {} each:", units::bytes(memory_per_rank))?;
    let (mut whole, mut over) = (0, 0);
    for m in files {
        match tables.share_of(m, ranks, memory_per_rank) {
            Share::Whole { why: None } => whole += 1,
            Share::Whole { why: Some(why) } => {
                (whole, over) = (whole + 1, over + 1);
                writeln!(
                    out,
                    "{:<12} whole on one rank, {} ({why}): more than a rank's memory",
                    m.to_string(),
                    units::bytes(tables.estimate(m, |_| false))
                )?;
            }
            Share::Split { ranks, needs, share, budget } => {
                let fits = if needs > ranks {
                    format!("; more than a rank's memory even over {ranks} ranks")
                } else {
                    format!(" (needs {needs})")
                };
                writeln!(
                    out,
                    "{:<12} split over {ranks} ranks{fits}, each rank about {} (events: {} a round)",
                    m.to_string(),
                    units::bytes(share),
                    units::bytes(budget)
                )?;
            }
        }
    }
    let over = if over > 0 { format!(" ({over} of them over a rank's memory)") } else { String::new() };
    writeln!(out, "{whole} files solved whole, each by one rank{over}")?;
    Ok(())
}

/// Generates with a progress bar on a terminal and a line per material on standard error,
/// within `memory` bytes when given ([`Tablebases::generate_within`]).
pub(super) fn run_generation(
    tables: &Tablebases,
    materials: &[Material],
    memory: Option<u64>,
) -> Result<GenerateSummary, Failure> {
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
                    "{material} ({rules} rules): {} positions, about {} of memory",
                    units::count(positions as u64),
                    units::bytes(memory)
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
            // Both files of the table: `<material>.wdl` (the path reported) and `.dtm`.
            let dtm = tables.dtm_path(material);
            let dtm = dtm.file_name().map_or_else(|| dtm.display().to_string(), |n| n.display().to_string());
            bar.suspend(|| {
                eprintln!(
                    "{material}: solved in {seconds:.2} s ({}), written to {} and {dtm}",
                    per_second(positions as f64 / seconds.max(1e-9)),
                    path.display()
                );
            });
        }
    };
    let never = std::sync::atomic::AtomicBool::new(false);
    let summary = tables.generate_within(materials, &report, &never, memory.unwrap_or(u64::MAX));
    bar.finish_and_clear();
    summary.map_err(|e| match e {
        GenerateError::Probe(e) => Failure::input(format!("materials: {e}")),
        // Less than the least the user's --memory gave: their input.
        e @ GenerateError::Memory { .. } if memory.is_some() => Failure::input(format!("--memory: {e}")),
        other => Failure::Other(other.into()),
    })
}
