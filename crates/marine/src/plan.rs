//! A solution written for people: the answer, then every round of the plan with its board.

use endgame_core::units::count;
use std::fmt::{self, Write};

use crate::setup::Battle;
use crate::solve::Solution;

impl Battle {
    /// Writes `WIN in N rounds` and the plan (every round: the marine's action, the damage
    /// taken, the board after the zerglings acted, every unit's cell and HP), or `LOSE` with
    /// the round limit it was searched within.
    ///
    /// # Errors
    /// Only those of `out`.
    pub fn write_solution(&self, solution: &Solution, out: &mut dyn Write) -> fmt::Result {
        let searched = format!(
            "{} rounds allowed, {} states kept, {} expanded",
            solution.limit,
            count(solution.stats.states),
            count(solution.stats.expanded)
        );
        let Some(plan) = &solution.plan else {
            let limit = solution.limit;
            return writeln!(
                out,
                "LOSE: the marine cannot win within {limit} round{} ({} states kept, {} expanded)",
                if limit == 1 { "" } else { "s" },
                count(solution.stats.states),
                count(solution.stats.expanded)
            );
        };
        let n = plan.len();
        writeln!(out, "WIN in {n} round{} ({searched})", if n == 1 { "" } else { "s" })?;
        writeln!(
            out,
            "Legend: # wall, . floor, M marine, letters zerglings, + several zerglings in one cell"
        )?;
        writeln!(out)?;
        writeln!(out, "start: {}", self.status(&self.start()))?;
        for row in self.board(&self.start()) {
            writeln!(out, "  {row}")?;
        }
        for (i, turn) in plan.iter().enumerate() {
            writeln!(out)?;
            let what = self.describe(turn.action);
            if turn.won {
                writeln!(out, "round {}: {what}, the last zergling dies: WIN", i + 1)?;
            } else {
                writeln!(out, "round {}: {what}, marine loses {} HP", i + 1, turn.damage)?;
            }
            writeln!(out, "  {}", self.status(&turn.state))?;
            for row in self.board(&turn.state) {
                writeln!(out, "  {row}")?;
            }
        }
        Ok(())
    }
}
