//! Tables under the `perpetual-check` rule set (`standard` Xiangqi where a side that checks
//! forever, while the other side does not, loses) and the `check-and-chase` rule set (the
//! bans on perpetual check and perpetual chase).
//!
//! The core solver ([`endgame_core::perpetual`]) does the work; this module gives it the game:
//! the `standard` moves of a material ([`MaterialGame`]), the mark "the side to move is in
//! check" ([`Checks::in_check`]), under `check-and-chase` the chase label of a move
//! ([`Checks::is_chase`], [`crate::rules::chase`]; on un-moves too), and the values under the rule of
//! the smaller materials that captures lead into ([`Checks::known_by_rule`]).
//!
//! [`PerpetualTablebase`] solves materials in memory, smaller materials first (a table under
//! the rule needs the rule's values of the materials after a capture); the store
//! ([`crate::Tablebases`]) writes its solutions to table files with rule codes.

use std::collections::BTreeMap;
use std::ops::ControlFlow;

use endgame_core::perpetual::{Checks, PerpetualCheck, RuleSolution};
use endgame_core::{Counts, RuleValue};
use endgame_core::{Game, Retrograde, Solution, SolveError, Successor, Unmoves, Value};

use crate::probe::{Probe, ProbeError};
use crate::rules::chase::{Attacks, chase_attacks, creates_chase_attack};
use crate::rules::color::Color;
use crate::rules::material::Material;
use crate::rules::moves::Move;
use crate::rules::piece::Role;
use crate::rules::position::Position;
use crate::rules::rule_set::Rules;
use crate::rules::square::Square;
use crate::tables::index::{MAX_MEN, MaterialIndex, without_slot};
use crate::tables::material_game::{CaptureTable, MaterialGame};
use crate::tables::memory_tables::MemoryTables;
use crate::tables::stats::fold_legal;

/// A solved smaller material as the captures of a solve under a ban read it: its `standard`
/// values ([`CaptureTable`]) and its values under the rule. A table read block by block from
/// its files is one (the store's generation: see `docs/generation.md`).
pub trait RuleCaptureTable: CaptureTable {
    /// The value under the rule of index `i`, a legal position.
    fn rule_value(&self, i: usize) -> RuleValue;
}

/// The table under the rule that answers for a material instead of the in-memory tables of a
/// [`PerpetualGame`] (`None`: those answer), and whether it is that material's colour twin's.
pub type RuleAnswering<'a> = Option<(&'a dyn RuleCaptureTable, bool)>;

/// One material under `perpetual-check` or `check-and-chase` (the rules of its tables), as
/// the core solver sees it.
pub struct PerpetualGame<'a> {
    game: MaterialGame<'a>,
    index: &'a MaterialIndex,
    tables: &'a PerpetualTablebase,
    /// For each slot, the table read from files that answers for the material left when its
    /// piece is captured, when `tables` does not hold it.
    files: Vec<RuleAnswering<'a>>,
}

impl<'a> PerpetualGame<'a> {
    /// The game of `index`'s material under the rules of `tables`; captures are looked up in
    /// `tables` (which must hold every material a capture leads to).
    #[must_use]
    pub fn new(index: &'a MaterialIndex, tables: &'a PerpetualTablebase) -> Self {
        PerpetualGame::with_files(index, tables, |_| None)
    }

    /// The game of `index`'s material under the rules of `tables`; captures are looked up in
    /// `tables`, or where it does not hold the material (nor its colour twin), in the table
    /// `answering` names for it.
    #[must_use]
    pub fn with_files(
        index: &'a MaterialIndex,
        tables: &'a PerpetualTablebase,
        answering: impl Fn(Material) -> RuleAnswering<'a>,
    ) -> Self {
        let files: Vec<RuleAnswering<'a>> = (0..index.pieces().len())
            .map(|slot| {
                let mut material = index.material();
                material.remove(index.piece(slot));
                if tables.answering(material).is_some() { None } else { answering(material) }
            })
            .collect();
        let game = MaterialGame::with_captures(index, tables.rules, |material| {
            let held = tables.plain.answering(material).map(|(t, flipped)| (t as &dyn CaptureTable, flipped));
            held.or_else(|| {
                let (table, flipped) = answering(material)?;
                Some((table as &dyn CaptureTable, flipped))
            })
        });
        PerpetualGame { game, index, tables, files }
    }
}

impl PerpetualGame<'_> {
    /// The value under the rule, for the side to move after it, of the capture by the piece
    /// of `slot` of the piece of `taken` on `to`, in the position with these points and
    /// `turn` to move.
    fn capture_by_rule(
        &self,
        all: &[Square; MAX_MEN],
        turn: Color,
        (slot, to, taken): (usize, Square, usize),
    ) -> RuleValue {
        let pieces = self.index.pieces();
        let n = pieces.len();
        if pieces[taken].role == Role::General {
            return Value::loss_in(0).into();
        }
        let mut all = *all;
        all[slot] = to;
        if let Some((table, flipped)) = self.files[taken] {
            let (mut rest, n) = without_slot(&all[..n], taken);
            let i = if flipped {
                table.index().index_of_twin_position(&rest[..n], !turn)
            } else {
                table.index().canonical_index(&mut rest[..n], !turn)
            };
            return table.rule_value(i.expect("pieces stay on legal points"));
        }
        self.tables
            .after_capture(self.index, &all[..n], taken, !turn)
            .expect("the materials after a capture are solved first")
    }
}

impl Game for PerpetualGame<'_> {
    type Move = Move;

    fn num_positions(&self) -> usize {
        self.game.num_positions()
    }

    fn is_position(&self, pos: usize) -> bool {
        self.game.is_position(pos)
    }

    fn terminal(&self, pos: usize) -> Option<Value> {
        self.game.terminal(pos)
    }

    fn for_each_move(&self, pos: usize, f: impl FnMut(Move, Successor)) {
        self.game.for_each_move(pos, f);
    }

    fn try_for_each_move(
        &self,
        pos: usize,
        f: impl FnMut(Move, Successor) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        self.game.try_for_each_move(pos, f)
    }
}

impl Unmoves for PerpetualGame<'_> {
    fn for_each_unmove(&self, pos: usize, f: impl FnMut(usize)) {
        self.game.for_each_unmove(pos, f);
    }
}

impl Checks for PerpetualGame<'_> {
    /// From the placement (see `MaterialGame::points_and_check`).
    fn in_check(&self, pos: usize) -> bool {
        self.game.points_and_check(pos).is_some_and(|(_, checked)| checked)
    }

    /// From the placement, which the moves just generated left in the cache.
    fn known_by_rule(&self, pos: usize, mv: Move, plain: Value) -> RuleValue {
        let (all, _) = self.game.points_and_check(pos).expect("a position with moves");
        let turn = MaterialIndex::turn(pos);
        let n = self.index.pieces().len();
        let slot = all[..n].iter().position(|&s| s == mv.from).expect("the move's piece");
        let Some(taken) = all[..n].iter().position(|&s| s == mv.to) else { return plain.into() };
        self.capture_by_rule(&all, turn, (slot, mv.to, taken))
    }

    /// One decoding of the index, from the placement shared with the other side to move, and
    /// the captures alone (see `MaterialGame::for_each_capture`).
    fn look_out(&self, pos: usize, mut f: impl FnMut(RuleValue)) -> bool {
        let Some((all, checked)) = self.game.points_and_check(pos) else { return false };
        let turn = MaterialIndex::turn(pos);
        self.game.for_each_capture(&all, turn, checked, |slot, to, taken| {
            f(self.capture_by_rule(&all, turn, (slot, to, taken)));
        });
        checked
    }

    fn has_chases(&self) -> bool {
        self.tables.rules.bans_chases()
    }

    /// Only a Soldier's advance cannot be taken back.
    fn reversible(&self) -> bool {
        !self.index.pieces().iter().any(|p| p.role == Role::Soldier)
    }

    fn has_progress_levels(&self) -> bool {
        !self.reversible()
    }

    /// The steps the Soldiers have left to the far rank (one per rank: a step sideways keeps
    /// the level, a step forward lowers it, none raises it; a capture leaves the material).
    fn progress_level(&self, pos: usize) -> u32 {
        let mut all = [Square::A0; MAX_MEN];
        if self.index.squares(pos, &mut all).is_none() {
            return 0;
        }
        let pieces = self.index.pieces();
        pieces
            .iter()
            .zip(&all)
            .filter(|(p, _)| p.role == Role::Soldier)
            .map(|(p, sq)| {
                let rank = u32::from(sq.rank().index());
                match p.color {
                    Color::Red => 9 - rank,
                    Color::Black => rank,
                }
            })
            .sum()
    }

    fn is_chase(&self, pos: usize, mv: Move) -> bool {
        let mut all = [Square::A0; MAX_MEN];
        if self.index.squares(pos, &mut all).is_none() {
            return false;
        }
        let n = self.index.pieces().len();
        let Some(slot) = all[..n].iter().position(|&s| s == mv.from) else { return false };
        creates_chase_attack(&all[..n], self.index.pieces(), slot, mv.to, None)
    }

    /// The un-moves of [`MaterialGame`] with their placements: the chase-attacks of the side
    /// that moved are worked out once per placement (the position or its mirror image), those
    /// before the move only when there are any after it.
    fn for_each_labelled_unmove(
        &self,
        pos: usize,
        wanted: impl Fn(usize) -> bool,
        mut f: impl FnMut(usize, bool),
    ) {
        let pieces = self.index.pieces();
        let n = pieces.len();
        let mut cached: Option<([Square; MAX_MEN], Attacks)> = None;
        self.game.for_each_unmove_from(pos, |p, squares, slot, from| {
            if !wanted(p) {
                return;
            }
            let side = pieces[slot].color;
            let after = match &cached {
                Some((s, attacks)) if s[..n] == *squares => *attacks,
                _ => {
                    let attacks = chase_attacks(squares, pieces, side);
                    let mut s = [Square::A0; MAX_MEN];
                    s[..n].copy_from_slice(squares);
                    cached = Some((s, attacks));
                    attacks
                }
            };
            let chase = !after.is_empty() && {
                let mut before = [Square::A0; MAX_MEN];
                before[..n].copy_from_slice(squares);
                before[slot] = from;
                let before = chase_attacks(&before[..n], pieces, side);
                after.new_since(&before).next().is_some()
            };
            f(p, chase);
        });
    }
}

/// Materials solved in memory under `perpetual-check` or `check-and-chase` (with their
/// `standard` tables, which the solver starts from).
pub struct PerpetualTablebase {
    rules: Rules,
    plain: MemoryTables,
    rule: BTreeMap<Material, RuleSolution>,
}

impl Default for PerpetualTablebase {
    fn default() -> Self {
        Self::new()
    }
}

impl PerpetualTablebase {
    /// No material solved yet, under `perpetual-check`.
    #[must_use]
    pub fn new() -> Self {
        Self::with_rules(Rules::PerpetualCheck)
    }

    /// No material solved yet, under `rules`: `perpetual-check` or `check-and-chase`.
    ///
    /// # Panics
    /// For rules without bans on endless play ([`Rules::has_bans`]).
    #[must_use]
    pub fn with_rules(rules: Rules) -> Self {
        assert!(rules.has_bans(), "{rules} tables are solved by crate::MemoryTables");
        PerpetualTablebase { rules, plain: MemoryTables::new(Rules::Standard), rule: BTreeMap::new() }
    }

    /// The rule set.
    #[must_use]
    pub const fn rules(&self) -> Rules {
        self.rules
    }

    /// The `standard` tables of the solved materials.
    #[must_use]
    pub const fn standard(&self) -> &MemoryTables {
        &self.plain
    }

    /// Solves `material` and, first, every material a capture leads to.
    ///
    /// # Errors
    /// When the solver's limits are exceeded.
    pub fn solve(&mut self, material: Material) -> Result<(), SolveError> {
        if self.rule.contains_key(&material) {
            return Ok(());
        }
        for smaller in material.after_captures() {
            // A material whose colour twin is solved is answered from the twin's table.
            if self.answering(smaller).is_none() {
                self.solve(smaller)?;
            }
        }
        self.plain.solve(material)?;
        let table = self.plain.table(material).expect("just solved");
        let plain = Solution::from_values_compact(table.solution().values())?;
        let solution = PerpetualCheck::solve_from_plain(&PerpetualGame::new(table.index(), self), plain)?;
        self.rule.insert(material, solution);
        Ok(())
    }

    /// Solves `material` alone, whose smaller materials must all be in: from its `standard`
    /// solution when one is given (read from a file), else solving that first with `solver`.
    /// Returns the solution's figures. The two steps are [`PerpetualTablebase::plain_step`]
    /// and [`PerpetualTablebase::rule_step`] (a caller may check memory between them).
    ///
    /// # Errors
    /// When the solver's limits are exceeded, or `plain` has the wrong size.
    ///
    /// # Panics
    /// When a material a capture leads to is missing.
    pub fn solve_one(
        &mut self,
        material: Material,
        plain: Option<Solution>,
        solver: &Retrograde<'_>,
    ) -> Result<endgame_core::perpetual::RuleStats, SolveError> {
        let plain = self.plain_step(material, plain, solver)?;
        self.rule_step(material, plain, &PerpetualCheck::new())
    }

    /// The first step of [`PerpetualTablebase::solve_one`]: keeps the `standard` values of
    /// `material` (given, or solved with `solver`) for the larger materials, and returns them
    /// for [`PerpetualTablebase::rule_step`].
    ///
    /// # Errors
    /// When the solver's limits are exceeded, or `plain` has the wrong size.
    ///
    /// # Panics
    /// When a material a capture leads to is missing.
    pub fn plain_step(
        &mut self,
        material: Material,
        plain: Option<Solution>,
        solver: &Retrograde<'_>,
    ) -> Result<Solution, SolveError> {
        for smaller in material.after_captures() {
            assert!(self.answering(smaller).is_some(), "{smaller} is solved before {material}");
        }
        Ok(match plain {
            Some(plain) => {
                let copy = Solution::from_values_bytes(plain.values())?;
                self.plain.insert(material, copy)?;
                plain
            }
            None => {
                self.plain.solve_with(material, solver)?;
                let table = self.plain.table(material).expect("just solved");
                Solution::from_values_bytes(table.solution().values())?
            }
        })
    }

    /// The second step of [`PerpetualTablebase::solve_one`]: solves `material` under the rule
    /// with `rule`'s settings, from the `standard` values that
    /// [`PerpetualTablebase::plain_step`] returned.
    ///
    /// # Errors
    /// When the solver's limits are exceeded.
    ///
    /// # Panics
    /// When [`PerpetualTablebase::plain_step`] was not called for `material`.
    pub fn rule_step(
        &mut self,
        material: Material,
        plain: Solution,
        rule: &PerpetualCheck,
    ) -> Result<endgame_core::perpetual::RuleStats, SolveError> {
        let table = self.plain.table(material).expect("the plain step comes first");
        let solution = rule.solve_plain(&PerpetualGame::new(table.index(), self), plain)?;
        let stats = solution.stats();
        self.rule.insert(material, solution);
        Ok(stats)
    }

    /// Adds the solution of `material` read from elsewhere (a table file), replacing any: its
    /// rule values, and its `standard` values for the solves of larger materials.
    ///
    /// # Errors
    /// When its size is not the size of the material's index.
    pub fn insert(&mut self, material: Material, solution: RuleSolution) -> Result<(), SolveError> {
        self.plain.insert(material, Solution::from_values_bytes(solution.plain().values())?)?;
        self.rule.insert(material, solution);
        Ok(())
    }

    /// Drops the tables of `material` (to free their memory), returning its solution.
    pub fn remove(&mut self, material: Material) -> Option<RuleSolution> {
        self.plain.remove(material);
        self.rule.remove(&material)
    }

    /// Every solved material's solution, taking them out.
    pub fn into_solutions(self) -> impl Iterator<Item = (Material, RuleSolution)> {
        self.rule.into_iter()
    }

    /// The solution of a solved material.
    #[must_use]
    pub fn solution(&self, material: Material) -> Option<&RuleSolution> {
        self.rule.get(&material)
    }

    /// Bytes the tables of `material` take in memory: its `standard` values and its rule
    /// solution (which holds them again, with a word per `standard` draw); 0 when it is not
    /// solved.
    #[must_use]
    pub fn held_bytes(&self, material: Material) -> u64 {
        let plain = self.plain.table(material).map_or(0, |t| t.solution().heap_bytes());
        plain + self.rule.get(&material).map_or(0, RuleSolution::heap_bytes)
    }

    /// The index of a solved material.
    #[must_use]
    pub fn index(&self, material: Material) -> Option<&MaterialIndex> {
        self.plain.table(material).map(|t| t.index())
    }

    /// The solved materials, smallest first.
    pub fn materials(&self) -> impl Iterator<Item = Material> + '_ {
        self.rule.keys().copied()
    }

    /// The value after a capture: `squares` (pieces of `index`'s material after the move)
    /// without the piece of slot `taken`, with `turn` to move.
    fn after_capture(
        &self,
        index: &MaterialIndex,
        squares: &[Square],
        taken: usize,
        turn: Color,
    ) -> Option<RuleValue> {
        let mut material = index.material();
        material.remove(index.piece(taken));
        let (smaller, solution, flipped) = self.answering(material)?;
        let (mut rest, n) = without_slot(squares, taken);
        let i = if flipped {
            smaller.index_of_twin_position(&rest[..n], turn)?
        } else {
            smaller.canonical_index(&mut rest[..n], turn)?
        };
        solution.value(i)
    }

    /// The index and solution that answer for `material`: its own, or its colour twin's (then
    /// `true`: a position is looked up there seen from the other side; the rule treats both
    /// sides alike, ranks included).
    #[must_use]
    pub fn answering(&self, material: Material) -> Option<(&MaterialIndex, &RuleSolution, bool)> {
        for (m, flipped) in [(material, false), (material.colour_twin(), true)] {
            if flipped && !self.rules.colour_symmetric() {
                break;
            }
            if let (Some(index), Some(solution)) = (self.index(m), self.rule.get(&m)) {
                return Some((index, solution, flipped));
            }
        }
        None
    }

    /// The value of a position for the side to move; `None` when its material is not solved or
    /// the position is not legal under `standard` rules.
    #[must_use]
    pub fn value(&self, position: &Position) -> Option<RuleValue> {
        if position.is_game_over() {
            return Some(RuleValue::Loss(endgame_core::Plies(0)));
        }
        position.check(self.rules).ok()?;
        let (index, solution, flipped) = self.answering(position.material())?;
        let position = if flipped { position.colour_twin() } else { *position };
        solution.value(index.encode(&position)?)
    }

    /// Every legal move of a position with the value it gives the side to move, best first:
    /// the shortest mate, then wins by the rule (the first of them keeps the win and leads to
    /// it: the smallest rank, or under `check-and-chase` for a win by the ban on perpetual
    /// chase the certificate's move, see [`endgame_core::perpetual::winning_move`]; a capture
    /// into a smaller material that wins by the rule counts as rank 0), draws, losses by the rule, the longest loss. `None` as for [`Self::value`].
    #[must_use]
    pub fn moves(&self, position: &Position) -> Option<Vec<(Move, RuleValue)>> {
        self.value(position)?;
        let material = position.material();
        let mut out = Vec::new();
        for mv in position.legal_moves(self.rules) {
            let child = position.play_unchecked(mv);
            let value = if position.captures_general(mv) {
                RuleValue::Loss(endgame_core::Plies(0))
            } else if child.material() == material {
                self.value(&child)?
            } else {
                self.value(&child)?.without_rank()
            };
            out.push((mv, value.before_move()));
        }
        out.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
        if self.rules.bans_chases() {
            let value = self.value(position)?;
            let inside = |mv| position.capture(mv).is_none();
            let after = out.iter().map(|&(mv, v)| (mv, -v, inside(mv)));
            if let Some(k) = crate::probe::certified_move(position, value, after) {
                let first = out.remove(k);
                out.insert(0, first);
            }
        }
        Some(out)
    }

    /// Counts over the legal positions of a solved material (both sides to move, mirror
    /// images counted as GamesmanXiangqi counts them, as [`crate::Stats`] does).
    #[must_use]
    pub fn stats(&self, material: Material) -> Option<PerpetualStats> {
        let index = self.index(material)?;
        let solution = self.rule.get(&material)?;
        Some(fold_legal(
            index,
            |stats: &mut PerpetualStats, pos, _, times| {
                if let (Some(value), Some(plain)) = (solution.value(pos), solution.plain().value(pos)) {
                    stats.counts.add_times(Some(value), times);
                    if !matches!(plain, Value::Draw(_)) && RuleValue::from(plain) != value {
                        stats.changed_decided += times;
                    }
                }
            },
            |a, b| PerpetualStats {
                counts: a.counts.merge(b.counts),
                changed_decided: a.changed_decided + b.changed_decided,
            },
        ))
    }
}

impl Probe for PerpetualTablebase {
    fn rules(&self) -> Rules {
        self.rules
    }

    fn lookup(&self, position: &Position) -> Result<RuleValue, ProbeError> {
        let material = position.material();
        let not_solved = || ProbeError::NotSolved {
            material,
            rules: self.rules,
            solved: self.materials().map(|m| m.to_string()).collect::<Vec<_>>().join(", "),
        };
        let (index, solution, flipped) = self.answering(material).ok_or_else(not_solved)?;
        let position = if flipped { position.colour_twin() } else { *position };
        index.encode(&position).and_then(|i| solution.value(i)).ok_or(ProbeError::NoValue { material })
    }
}

/// Counts over the legal positions of one material under `perpetual-check` or
/// `check-and-chase`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PerpetualStats {
    /// Over the legal positions (both sides to move, mirror images counted as [`crate::Stats`]
    /// counts them): wins and losses by mate (as under `standard`) and by the rule, with those
    /// by the ban on perpetual chase, and draws.
    pub counts: Counts,
    /// Positions whose winner or distance differs from `standard` although `standard` does
    /// not call them a draw (0, or the solver is wrong).
    pub changed_decided: u64,
}
