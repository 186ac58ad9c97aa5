//! The solve of one material under `perpetual-check` or `check-and-chase` in a generation
//! ([`Tablebases::solve_rule_from_files`]): its `standard` values (read from the sibling
//! `standard` file, or solved), then the rule's passes and the certificate check, with the
//! captures reading the smaller tables' rule files a block at a time ([`CaptureFile`]) but
//! the few held whole ([`held_whole`]), as under `standard`.
//!
//! [`held_whole`]: super::cost::held_whole

use endgame_core::conformance::check_rule_solution;
use endgame_core::perpetual::{DEFAULT_EDGE_BUDGET, PerpetualCheck, RuleSolution};
use endgame_core::{Retrograde, Solution};

use super::Tablebases;
use super::captures::{self, CaptureFile, CaptureReads};
use super::cost::meminfo;
use super::generate::GenerateError;
use crate::rules::material::Material;
use crate::rules::rule_set::Rules;
use crate::tables::index::{ColourFlip, MaterialIndex};
use crate::tables::material_game::{CaptureTable, MaterialGame};
use crate::tables::perpetual::{PerpetualGame, PerpetualTablebase, RuleAnswering, RuleCaptureTable};

/// The solver under `rules` (`perpetual-check` or `check-and-chase`) for a material of `positions` indices with `drawn`
/// `standard` draws, checked against the memory available now (the estimate before the
/// `standard` solve could only guess the draws): its predecessor lists get at most half of
/// what is left, so that they never take the last of the memory (without them the passes
/// generate un-moves instead), and at most `lists` bytes when given (the room a generation's
/// memory leaves above its least estimate, [`Tablebases::generate_within`]).
fn rule_solver(
    material: Material,
    rules: Rules,
    positions: u64,
    drawn: u64,
    lists: Option<u64>,
) -> Result<PerpetualCheck, GenerateError> {
    let needed = if rules.bans_chases() {
        PerpetualCheck::chase_memory_estimate(positions, drawn)
    } else {
        PerpetualCheck::memory_estimate(positions, drawn)
    };
    // (Without `MemAvailable`, as much as the budget and `lists` allow.)
    let mut room = lists.unwrap_or(u64::MAX);
    if let Some(available) = meminfo("MemAvailable:") {
        if needed > available {
            return Err(GenerateError::Memory { material, needed, available });
        }
        room = room.min((available - needed) / 2);
    }
    let budget = usize::try_from(room).unwrap_or(usize::MAX).min(DEFAULT_EDGE_BUDGET);
    Ok(PerpetualCheck::new().edge_budget(budget.min(lists_cap().unwrap_or(usize::MAX))))
}

/// `ENDGAME_RULE_LISTS`, in MiB: a cap on the predecessor lists' budget, for measuring what
/// less memory costs (the check stage keeps the lists of as many draws as it holds, the
/// chase stage all its lists or none, within the budget or the room the check stage's counts
/// leave; BENCHMARKS.md). Unset or not a number: no cap.
fn lists_cap() -> Option<usize> {
    let mib: usize = std::env::var("ENDGAME_RULE_LISTS").ok()?.trim().parse().ok()?;
    Some(mib.saturating_mul(1 << 20))
}

impl Tablebases {
    /// The `standard` table of `material` from the sibling `standard` directory, when that
    /// file (or its colour twin's, which answers for it) exists and reads back whole (else
    /// `None`: it is solved).
    fn standard_solution(&self, material: Material, positions: usize) -> Option<Solution> {
        let standard = Tablebases::open(self.dir.parent()?.parent()?, Rules::Standard);
        let file = standard.file_material(material);
        let solution = standard.read_solution(file).ok()?;
        if file == material {
            return Some(solution);
        }
        let (index, twin) = (MaterialIndex::new(material), MaterialIndex::new(file));
        let flip = ColourFlip::new(&index, &twin);
        Solution::from_fn_bytes(positions, |i| flip.index(i).and_then(|j| solution.value(j))).ok()
    }

    /// Solves `material` under this store's rule set (`perpetual-check` or `check-and-chase`):
    /// from the `standard` file in the sibling directory when there is one, else solving
    /// under `standard` rules first with `solver`. The smaller tables its captures lead to are
    /// read from `held` when it holds them (or their colour twins): a generation holds there
    /// those [`held_whole`](super::cost::held_whole) names; the others are read from their
    /// files a block at a time. `step` hears each step's name. The solution is checked against
    /// its certificate. Returns it with what was read from the files read a block at a time.
    ///
    /// # Errors
    /// When a smaller table's file cannot be opened or read, memory is short, the solver
    /// fails, or the certificate does not hold.
    pub fn solve_rule_from_files(
        &self,
        material: Material,
        held: &PerpetualTablebase,
        solver: &Retrograde<'_>,
        step: &dyn Fn(&'static str),
    ) -> Result<(RuleSolution, CaptureReads), GenerateError> {
        self.solve_rule_within(material, held, solver, step, None)
    }

    /// [`Tablebases::solve_rule_from_files`] with at most `lists` bytes of predecessor lists
    /// when given (else as the memory available allows).
    pub(super) fn solve_rule_within(
        &self,
        material: Material,
        held: &PerpetualTablebase,
        solver: &Retrograde<'_>,
        step: &dyn Fn(&'static str),
        lists: Option<u64>,
    ) -> Result<(RuleSolution, CaptureReads), GenerateError> {
        let failed = |error| GenerateError::Solve { material, error };
        let files = self.capture_block_files(material, |m| held.answering(m).is_some())?;
        let symmetric = self.rules.colour_symmetric();
        let answering = |smaller: Material| -> RuleAnswering<'_> {
            captures::answering(&files, smaller, symmetric)
                .map(|(file, flip)| (file as &dyn RuleCaptureTable, flip))
        };
        let index = MaterialIndex::new(material);
        step("reading the standard table");
        let plain = match self.standard_solution(material, index.len()) {
            Some(plain) => plain,
            None => {
                step("solving under standard rules");
                let standard = held.standard();
                let game = MaterialGame::with_captures(&index, Rules::Standard, |smaller| {
                    let held =
                        standard.answering(smaller).map(|(t, flipped)| (t as &dyn CaptureTable, flipped));
                    held.or_else(|| answering(smaller).map(|(t, flipped)| (t as &dyn CaptureTable, flipped)))
                });
                let solved = solver.solve_with_unmoves(&game);
                drop(game);
                errors(&files)?;
                Solution::from_values_bytes(solved.map_err(failed)?.values()).map_err(failed)?
            }
        };
        let rule = rule_solver(material, self.rules, index.len() as u64, plain.summary().draws, lists)?;
        step("solving under the rule");
        let game = PerpetualGame::with_files(&index, held, answering);
        let solution = rule.solve_plain(&game, plain).map_err(failed);
        errors(&files)?;
        let solution = solution?;
        step("checking the certificate");
        let checked = check_rule_solution(&game, &solution);
        errors(&files)?;
        checked.map_err(|why| GenerateError::Certificate { material, why })?;
        Ok((solution, CaptureReads::of(files.iter().map(|(_, f)| f))))
    }
}

/// The first error a read of `files` met: the values read after it are wrong.
fn errors(files: &[(Material, CaptureFile)]) -> Result<(), GenerateError> {
    match files.iter().find_map(|(_, file)| file.error()) {
        Some(error) => Err(error.into()),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lists get no more than the room a generation's memory leaves above the least
    /// estimate (`Tablebases::generate_within`), and without that room as the memory available
    /// allows.
    #[test]
    fn the_lists_take_no_more_than_the_room_given() {
        let m: Material = "KNvKAAB".parse().unwrap();
        let budget = |lists| {
            let solver = rule_solver(m, Rules::CheckAndChase, 1 << 20, 1 << 10, lists).unwrap();
            let text = format!("{solver:?}");
            let at = text.find("edge_budget: ").unwrap() + "edge_budget: ".len();
            text[at..].split(',').next().unwrap().parse::<usize>().unwrap()
        };
        assert_eq!(budget(Some(0)), 0);
        assert_eq!(budget(Some(12_345)), 12_345);
        assert!(budget(None) > 12_345);
    }
}
