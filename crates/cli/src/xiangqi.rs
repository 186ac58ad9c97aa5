//! `endgame xiangqi ...`: Xiangqi positions in FEN, solved exactly.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use endgame_core::tablebase::{read_table, write_table};
use endgame_core::{Phase, Progress, Retrograde, Value};
use endgame_xiangqi::{Color, Material, MaterialIndex, Move, Position, Rules, Setup, Tablebase, hdu, kvkn};
use indicatif::{ProgressBar, ProgressStyle};
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
    /// Materials up to 4 men are solved on the fly; larger ones need `generate` first.
    Moves(PositionArgs),
    /// Generate table files for materials (and every smaller material captures lead to).
    ///
    /// Files go to --dir, else $ENDGAME_TB_DIR, else the user's data directory
    /// ($XDG_DATA_HOME/endgame or ~/.local/share/endgame), under xiangqi/<rules>/. Existing
    /// files are kept.
    Generate(GenerateArgs),
    /// Statistics of a material over its legal positions (both sides to move), generating the
    /// tables it needs when no files exist.
    Stats(StatsArgs),
}

/// Where tables live and under which rules.
#[derive(Args)]
pub struct TableArgs {
    /// The rule set: standard (no move into check, no legal move loses) or hdu (capture the
    /// General to win).
    #[arg(long, default_value = "standard")]
    rules: String,
    /// The directory of the table files (default: $ENDGAME_TB_DIR, else the data directory).
    #[arg(long)]
    dir: Option<PathBuf>,
}

/// `generate` arguments.
#[derive(Args)]
pub struct GenerateArgs {
    /// Materials such as KRvKA, KCPvKAB (red pieces, `v`, black pieces; letters A B N R C P).
    materials: Vec<String>,
    /// Also every material with at most this many men (Generals included).
    #[arg(long, value_name = "K")]
    all_up_to: Option<usize>,
    /// Only list the materials that would be generated, with their index sizes.
    #[arg(long)]
    dry_run: bool,
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
    /// Print JSON: positions, wins, losses, draws, longest_red_win_plies, longest_black_win_plies.
    #[arg(long)]
    json: bool,
}

/// A position and how to print it.
#[derive(Args)]
pub struct PositionArgs {
    /// The position in Xiangqi FEN (Pikafish letters), e.g. "3k5/9/9/9/9/3n5/9/9/9/3K5 w".
    fen: String,
    /// The rule set: hdu (capture the General to win; moving into danger is legal) or
    /// standard (no move into check; no legal move loses).
    #[arg(long, default_value = "hdu")]
    rules: String,
    /// The directory of the table files (default: $ENDGAME_TB_DIR, else the data directory).
    #[arg(long)]
    dir: Option<PathBuf>,
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
        XiangqiCommand::Generate(args) => generate(args, &mut out)?,
        XiangqiCommand::Stats(args) => stats(args, &mut out)?,
    }
    out.flush()?;
    Ok(())
}

fn load(args: &PositionArgs) -> Result<(Position, &'static Tablebase), Failure> {
    let rules: Rules = args.rules.parse().map_err(|e| Failure::input(format!("--rules: {e}")))?;
    let setup: Setup = args.fen.parse().map_err(|e| Failure::input(format!("FEN {:?}: {e}", args.fen)))?;
    let position = Position::from_setup(setup).map_err(|e| Failure::input(format!("position: {e}")))?;
    if rules == Rules::Standard && position.opponent_in_check() {
        return Err(Failure::input(format!(
            "position: {} is in check (or the Generals face each other) with {} to move: illegal under standard rules",
            !position.turn(),
            position.turn()
        )));
    }
    let material = position.material();
    if rules == Rules::Hdu && material.with_smaller().iter().all(|m| kvkn().with_smaller().contains(m)) {
        return Ok((position, hdu()));
    }
    let store = Store::new(rules, args.dir.clone())?;
    let mut tables = Tablebase::new(rules);
    for m in material.with_smaller() {
        if store.path(m).exists() || m.men() <= 4 {
            store.load_or_solve(&mut tables, m, false)?;
        } else {
            return Err(Failure::input(format!(
                "position: material {material} is not generated under {rules} rules (no {}); run `endgame xiangqi generate {material} --rules {rules}`",
                store.path(m).display()
            )));
        }
    }
    // A command runs once: the tables live until the process ends.
    let tables: &'static Tablebase = Box::leak(Box::new(tables));
    tables.probe(&position).map_err(|e| Failure::input(format!("position: {e}")))?;
    Ok((position, tables))
}

/// Table files of one rule set in one directory.
struct Store {
    rules: Rules,
    dir: PathBuf,
}

impl Store {
    fn new(rules: Rules, dir: Option<PathBuf>) -> Result<Store, Failure> {
        let env = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let base = dir
            .or_else(|| env("ENDGAME_TB_DIR"))
            .or_else(|| env("XDG_DATA_HOME").map(|d| d.join("endgame")))
            .or_else(|| env("HOME").map(|h| h.join(".local/share/endgame")))
            .ok_or_else(|| {
                Failure::input("--dir: no directory given and neither $ENDGAME_TB_DIR nor $HOME is set")
            })?;
        Ok(Store { rules, dir: base.join("xiangqi").join(rules.name()) })
    }

    fn path(&self, material: Material) -> PathBuf {
        self.dir.join(format!("{material}.egtb"))
    }

    /// Reads the table of `material` (its smaller materials already in `tables`), or solves it
    /// and, when `write` is set, writes it.
    fn load_or_solve(
        &self,
        tables: &mut Tablebase,
        material: Material,
        write: bool,
    ) -> Result<bool, Failure> {
        if tables.table(material).is_some() {
            return Ok(false);
        }
        let path = self.path(material);
        let id = tables.table_id(material);
        if path.exists() {
            let solution = read_table(&path, &id).map_err(|e| Failure::input(format!("table {e}")))?;
            tables.insert(material, solution).map_err(|e| anyhow::anyhow!("{material}: {e}"))?;
            return Ok(false);
        }
        let positions = id.positions;
        let needed = memory_estimate(tables, material);
        if write {
            eprintln!(
                "{material} ({} rules): {positions} positions, about {} MiB of memory",
                self.rules,
                needed >> 20
            );
        }
        if let Some(available) = mem_available()
            && needed > available
        {
            return Err(anyhow::anyhow!(
                "{material} needs about {} MiB of memory, only {} MiB are available",
                needed >> 20,
                available >> 20
            )
            .into());
        }
        let bar = if write { ProgressBar::new(positions) } else { ProgressBar::hidden() };
        bar.set_style(
            ProgressStyle::with_template("{msg:>22} [{bar:30}] {pos}/{len} {elapsed}")
                .expect("a valid template")
                .progress_chars("=> "),
        );
        let report = |p: Progress| {
            let phase = match p.phase {
                Phase::Start => "counting moves",
                Phase::ReverseEdges => "reverse edges",
                Phase::WinsAndLosses => "wins and losses",
                Phase::Draws => "draws",
            };
            bar.set_message(format!("{material} {phase}"));
            bar.set_position(p.done);
        };
        let solver = Retrograde::new().compact(true).progress(&report);
        let start = std::time::Instant::now();
        tables.solve_with(material, &solver).map_err(|e| anyhow::anyhow!("{material}: {e}"))?;
        bar.finish_and_clear();
        if write {
            std::fs::create_dir_all(&self.dir).map_err(|e| anyhow::anyhow!("{}: {e}", self.dir.display()))?;
            let table = tables.table(material).expect("just solved");
            write_table(&path, &id, table.solution()).map_err(|e| anyhow::anyhow!("{e}"))?;
            let secs = start.elapsed().as_secs_f64();
            eprintln!(
                "{material}: solved in {secs:.2} s ({:.1} million positions/s), written to {}",
                positions as f64 / secs.max(1e-9) / 1e6,
                path.display()
            );
        }
        Ok(true)
    }
}

/// Bytes a solve of `material` needs: 2 per position for its cells and, measured, up to about
/// 4 more for the solver's lists of decided positions and of captures into smaller materials,
/// plus the tables captures lead into that are not loaded yet (4 per position when read from a
/// file).
fn memory_estimate(tables: &Tablebase, material: Material) -> u64 {
    let own = MaterialIndex::new(material).len() as u64 * 6;
    let smaller: u64 = material
        .after_captures()
        .into_iter()
        .filter(|&m| tables.table(m).is_none())
        .map(|m| MaterialIndex::new(m).len() as u64 * 4)
        .sum();
    own + smaller
}

/// `MemAvailable` of /proc/meminfo, in bytes (`None` where there is no such file).
fn mem_available() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

fn parse_material(text: &str) -> Result<Material, Failure> {
    text.parse().map_err(|e| Failure::input(format!("material {text:?}: {e}")))
}

fn parse_rules(text: &str) -> Result<Rules, Failure> {
    text.parse().map_err(|e| Failure::input(format!("--rules: {e}")))
}

fn generate(args: &GenerateArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let rules = parse_rules(&args.tables.rules)?;
    let store = Store::new(rules, args.tables.dir.clone())?;
    let mut wanted: Vec<Material> = Vec::new();
    for text in &args.materials {
        for m in parse_material(text)?.with_smaller() {
            if !wanted.contains(&m) {
                wanted.push(m);
            }
        }
    }
    if let Some(k) = args.all_up_to {
        if !(2..=7).contains(&k) {
            return Err(Failure::input(format!("--all-up-to: expected 2 to 7 men, found {k}")));
        }
        for m in Material::all_up_to(k) {
            if !wanted.contains(&m) {
                wanted.push(m);
            }
        }
    }
    if wanted.is_empty() {
        return Err(Failure::input("materials: expected at least one material or --all-up-to K"));
    }
    // Fewer men first: a capture always leads to fewer men.
    wanted.sort_by_key(|m| (m.men(), m.to_string()));
    if args.dry_run {
        let mut total = 0u64;
        for &m in &wanted {
            let n = MaterialIndex::new(m).len() as u64;
            total += n;
            let there = if store.path(m).exists() { " (file exists)" } else { "" };
            writeln!(out, "{m:<10} {n:>12} positions{there}")?;
        }
        writeln!(out, "{} materials, {total} positions in all", wanted.len())?;
        return Ok(());
    }
    let mut tables = Tablebase::new(rules);
    let (mut made, mut kept) = (0, 0);
    let start = std::time::Instant::now();
    for (i, &m) in wanted.iter().enumerate() {
        if store.path(m).exists() {
            kept += 1;
            continue;
        }
        for smaller in m.after_captures() {
            store.load_or_solve(&mut tables, smaller, true)?;
        }
        store.load_or_solve(&mut tables, m, true)?;
        made += 1;
        // Keep only what a later material's captures lead into.
        let later: Vec<Material> = wanted[i + 1..].iter().flat_map(|m| m.after_captures()).collect();
        let loaded: Vec<Material> = tables.materials().collect();
        for l in loaded {
            if !later.contains(&l) {
                tables.remove(l);
            }
        }
    }
    writeln!(
        out,
        "{made} tables generated, {kept} already there, {} in all, in {:.1} s, rules {rules}, in {}",
        wanted.len(),
        start.elapsed().as_secs_f64(),
        store.dir.display()
    )?;
    Ok(())
}

fn stats(args: &StatsArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let rules = parse_rules(&args.tables.rules)?;
    let material = parse_material(&args.material)?;
    let store = Store::new(rules, args.tables.dir.clone())?;
    let mut tables = Tablebase::new(rules);
    if !store.path(material).exists() {
        for smaller in material.with_smaller() {
            store.load_or_solve(&mut tables, smaller, true)?;
        }
    }
    store.load_or_solve(&mut tables, material, true)?;
    let s = tables.table(material).expect("loaded").stats();
    if args.json {
        let report = json!({
            "material": material.to_string(),
            "rules": rules.name(),
            "positions": s.positions,
            "wins": s.wins,
            "losses": s.losses,
            "draws": s.draws,
            "longest_red_win_plies": s.longest_red_win_plies,
            "longest_black_win_plies": s.longest_black_win_plies,
        });
        writeln!(out, "{report}")?;
        return Ok(());
    }
    writeln!(out, "{material} under {rules} rules, legal positions with either side to move:")?;
    writeln!(out, "  positions  {}", s.positions)?;
    writeln!(out, "  wins       {} (for the side to move)", s.wins)?;
    writeln!(out, "  losses     {}", s.losses)?;
    writeln!(out, "  draws      {}", s.draws)?;
    writeln!(out, "  longest win of Red to move:   {} plies", s.longest_red_win_plies)?;
    writeln!(out, "  longest win of Black to move: {} plies", s.longest_black_win_plies)?;
    Ok(())
}

/// The fields `solve --json` and `moves --json` share: the position and its value.
fn position_json(position: &Position, tables: &Tablebase, value: Value) -> serde_json::Value {
    json!({
        "fen": position.setup().to_string(),
        "rules": tables.rules().name(),
        "material": position.material().to_string(),
        "turn": turn_name(position.turn()),
        "category": category(value),
        "dtm": dtm(value),
    })
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

fn result(out: &mut dyn Write, position: &Position, value: Value, rules: Rules) -> std::io::Result<()> {
    writeln!(out, "Result: {} to move: {}.", position.turn(), describe(value))?;
    if value.wdl() == endgame_core::Wdl::Draw && rules == Rules::Hdu && position.material() == kvkn() {
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
    } else if last.legal_moves(tables.rules()).is_empty() {
        let how = if last.in_check() { "checkmated" } else { "stalemated" };
        format!("{} has no legal move ({how}) and loses.", last.turn())
    } else {
        "The position repeats: endless play, a draw.".to_string()
    };
    if args.json {
        let mut report = position_json(&position, tables, value);
        report["best_move"] = json!(line.first().map(|(mv, _)| mv.to_string()));
        report["main_line"] = json!(line.iter().map(|(mv, _)| mv.to_string()).collect::<Vec<_>>());
        report["final_fen"] = json!(last.setup().to_string());
        writeln!(out, "{report}")?;
        return Ok(());
    }
    header(out, &position, tables)?;
    result(out, &position, value, tables.rules())?;
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
        let mut report = position_json(&position, tables, value);
        report["moves"] = json!(moves);
        writeln!(out, "{report}")?;
        return Ok(());
    }
    header(out, &position, tables)?;
    result(out, &position, value, tables.rules())?;
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
    let args = PositionArgs { fen: fen.to_string(), rules: "hdu".to_string(), dir: None, json: false };
    solve(&args, out)?;
    let fen = "4k4/9/9/9/9/9/9/9/4A4/3RK4 w";
    writeln!(
        out,
        "\nUnder standard rules (no move into check; a side without a legal move loses), a Chariot \
         and an Advisor\nagainst a lone General (`endgame xiangqi solve --rules standard \"{fen}\"`):"
    )?;
    let args = PositionArgs { fen: fen.to_string(), rules: "standard".to_string(), dir: None, json: false };
    solve(&args, out)
}
