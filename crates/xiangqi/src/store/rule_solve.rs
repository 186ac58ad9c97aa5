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
/// generate un-moves instead).
fn rule_solver(
    material: Material,
    rules: Rules,
    positions: u64,
    drawn: u64,
) -> Result<PerpetualCheck, GenerateError> {
    let needed = if rules.bans_chases() {
        PerpetualCheck::chase_memory_estimate(positions, drawn)
    } else {
        PerpetualCheck::memory_estimate(positions, drawn)
    };
    let Some(available) = meminfo("MemAvailable:") else { return Ok(PerpetualCheck::new()) };
    if needed > available {
        return Err(GenerateError::Memory { material, needed, available });
    }
    let lists = usize::try_from((available - needed) / 2).unwrap_or(usize::MAX).min(DEFAULT_EDGE_BUDGET);
    Ok(PerpetualCheck::new().edge_budget(lists.min(lists_cap().unwrap_or(usize::MAX))))
}

/// `ENDGAME_RULE_LISTS`, in MiB: a cap on the predecessor lists' budget, for measuring what
/// less memory costs (the check stage keeps the lists of as many draws as it holds, the
/// chase stage all its lists or none; BENCHMARKS.md). Unset or not a number: no cap.
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
        let rule = rule_solver(material, self.rules, index.len() as u64, plain.summary().draws)?;
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
