//! `endgame marine ...`: one marine against zerglings (BZOJ 2205).

use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

use clap::Subcommand;
use endgame_core::search::{Pruning, SearchStats, TooManyStates};
use endgame_core::units;
use endgame_marine::{BYTES_PER_STATE, Battle, DEFAULT_ROUNDS, default_max_states, report};
use indicatif::{ProgressBar, ProgressStyle};

use crate::failure::Failure;
use crate::output;

/// Commands of `endgame marine`.
#[derive(Subcommand)]
pub enum MarineCommand {
    /// Solve a battle file: WIN with the fewest rounds and the plan, round by round, or LOSE.
    ///
    /// The file: map rows (`#`/`1` wall, `.`/`0` floor, `M` the marine, other letters
    /// zerglings), then `M <hp>` and `<letter> <hp>` lines, or one line `<marine hp>
    /// <zergling hp>`. A contest case is a battle file.
    Solve {
        /// The battle file (`-` for standard input).
        file: PathBuf,
        /// The round limit (a win in the last round counts).
        #[arg(long, default_value_t = DEFAULT_ROUNDS)]
        rounds: u32,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// Stop (exit status 1) once the search stores this many states (at most 160 bytes
        /// each); default: as many as half the available memory holds. A progress bar shows
        /// the rounds searched and the states stored when standard error is a terminal.
        #[arg(long)]
        max_states: Option<u64>,
    },
}

/// A search stopped by `--max-states`, with what it cost and what to do.
#[derive(Debug)]
struct StateLimit(TooManyStates);

impl std::fmt::Display for StateLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}, up to {}; `--max-states` sets the limit, fewer `--rounds` or hit points make the search smaller",
            self.0,
            units::bytes(self.0.stats.states * BYTES_PER_STATE)
        )
    }
}

impl std::error::Error for StateLimit {}

/// Runs an `endgame marine` command.
pub fn run(command: &MarineCommand) -> Result<(), Failure> {
    match command {
        MarineCommand::Solve { file, rounds, json, max_states } => {
            let input = output::read_text(Some(file), output::FILE_LIMIT)?;
            let battle: Battle = input.text.parse().map_err(|e| input.error(e))?;
            let max_states = max_states.unwrap_or_else(default_max_states);
            let bar = ProgressBar::new(u64::from(*rounds));
            bar.set_style(
                ProgressStyle::with_template("round {pos}/{len} [{bar:30}] {msg} {elapsed}")
                    .expect("a valid template")
                    .progress_chars("=> "),
            );
            let mut progress = |stats: &SearchStats| {
                bar.set_position(u64::from(stats.layers));
                bar.set_message(format!(
                    "{} states, up to {} ({}% of the limit)",
                    units::count(stats.states),
                    units::bytes(stats.states * BYTES_PER_STATE),
                    stats.states * 100 / max_states.max(1)
                ));
            };
            let solution = battle.solve_observed(*rounds, Pruning::ALL, max_states, &mut progress);
            bar.finish_and_clear();
            let solution = solution.map_err(|error| anyhow::Error::new(StateLimit(error)))?;
            let mut out = output::stdout();
            if *json {
                serde_json::to_writer_pretty(&mut out, &report::to_json(&battle, &solution))
                    .map_err(anyhow::Error::from)?;
                writeln!(out)?;
            } else {
                let mut s = String::new();
                battle.write_solution(&solution, &mut s).map_err(anyhow::Error::from)?;
                out.write_all(s.as_bytes())?;
            }
            out.flush()?;
            Ok(())
        }
    }
}

/// The demo: the contest sample, its twin with one HP less, and a small battle's plan.
pub fn demo(out: &mut dyn Write) -> Result<(), Failure> {
    let sample = include_str!("../../marine/tests/data/sample.in");
    let corner = include_str!("../../marine/examples/corner.txt");
    writeln!(out, "Marine vs zerglings (BZOJ 2205): each round the marine moves or shoots one zergling")?;
    writeln!(
        out,
        "(1 HP); then the zerglings attack if adjacent or chase the marine. Fewest rounds to win?"
    )?;
    writeln!(out, "Boards: # wall, . floor, M the marine, letters the zerglings (the contest's Z and z).")?;
    let mut text = String::new();
    for (m, what) in [(15, "the contest sample"), (14, "the same map with m = 14")] {
        let case = sample.replace("15 15", &format!("{m} 15"));
        let battle: Battle = case.parse()?;
        let solution = battle.solve(DEFAULT_ROUNDS, Pruning::ALL);
        let answer = match solution.rounds() {
            Some(n) => format!("WIN in {n} rounds"),
            None => "LOSE".to_string(),
        };
        writeln!(text, "\n{what} (marine {m} HP, zerglings 15 HP each, 34 rounds): {answer}")
            .map_err(anyhow::Error::from)?;
        for row in battle.board(&battle.start()) {
            writeln!(text, "  {row}").map_err(anyhow::Error::from)?;
        }
    }
    let battle: Battle = corner.parse()?;
    writeln!(
        text,
        "\nA smaller battle and its plan (`endgame marine solve <file>` prints any): the marine steps\n\
         into the corner so that zerglings a and c attack from one cell (1 HP a round, not 2);\n\
         b has no path to the marine and waits."
    )
    .map_err(anyhow::Error::from)?;
    battle
        .write_solution(&battle.solve(DEFAULT_ROUNDS, Pruning::ALL), &mut text)
        .map_err(anyhow::Error::from)?;
    out.write_all(text.as_bytes())?;
    Ok(())
}
