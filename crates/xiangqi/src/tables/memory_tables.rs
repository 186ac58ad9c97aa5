//! Tables solved in memory: one material's [`Table`] (its index and the value of every index)
//! and [`MemoryTables`], the solved materials of one rule set, which answer probes
//! ([`Probe`]) and the captures of the next solve ([`MemoryTables::answering`]). They are
//! filled by solving ([`super::solve`]) or with solutions read from table files
//! ([`MemoryTables::insert`]). Not to be confused with the store on disk, [`crate::Tablebases`].

use std::collections::BTreeMap;

use endgame_core::RuleValue;
use endgame_core::{Solution, SolveError};

use crate::probe::{Probe, ProbeError};
use crate::rules::material::Material;
use crate::rules::position::Position;
use crate::rules::rule_set::Rules;
use crate::tables::index::{ColourFlip, MaterialIndex};
use crate::tables::stats::Stats;

/// One solved material.
pub struct Table {
    pub(super) index: MaterialIndex,
    pub(super) solution: Solution,
}

impl Table {
    /// The table of `index`'s material with these values.
    ///
    /// # Panics
    /// When the solution's size is not the index's.
    #[must_use]
    pub fn new(index: MaterialIndex, solution: Solution) -> Table {
        assert_eq!(index.len(), solution.len(), "a solution of the index's size");
        Table { index, solution }
    }

    /// The index of its positions.
    #[must_use]
    pub const fn index(&self) -> &MaterialIndex {
        &self.index
    }

    /// The value of every index.
    #[must_use]
    pub const fn solution(&self) -> &Solution {
        &self.solution
    }

    /// The table of this material's colour twin, derived position by position (in parallel,
    /// 1-byte cells) instead of solved: valid under rules that treat both sides alike
    /// ([`Rules::colour_symmetric`]), where it gives the twin's solution value for value.
    ///
    /// # Errors
    /// When a distance exceeds the solver's limit (as it would have in the solve).
    pub fn colour_twin(&self) -> Result<Table, SolveError> {
        let index = MaterialIndex::new(self.index.material().colour_twin());
        let flip = ColourFlip::new(&index, &self.index);
        let solution =
            Solution::from_fn_bytes(index.len(), |i| flip.index(i).and_then(|j| self.solution.value(j)))?;
        Ok(Table { index, solution })
    }
}

impl Table {
    /// Counts over the legal positions of this table (see [`Stats`]).
    #[must_use]
    pub fn stats(&self) -> Stats {
        Stats::of_legal(&self.index, |p| self.solution.value(p).map(RuleValue::from))
    }
}

/// Solved materials under one rule set.
pub struct MemoryTables {
    pub(super) rules: Rules,
    pub(super) tables: BTreeMap<Material, Table>,
    pub(super) colour_twins: bool,
}

impl MemoryTables {
    /// No material solved yet.
    #[must_use]
    pub const fn new(rules: Rules) -> MemoryTables {
        MemoryTables { rules, tables: BTreeMap::new(), colour_twins: true }
    }

    /// Whether a solve derives a material from its colour twin when the twin is solved already
    /// and the rules treat both sides alike ([`Table::colour_twin`]; the default), or solves
    /// every material (to compare the two).
    #[must_use]
    pub const fn colour_twins(mut self, derive: bool) -> MemoryTables {
        self.colour_twins = derive;
        self
    }

    /// The rule set.
    #[must_use]
    pub const fn rules(&self) -> Rules {
        self.rules
    }

    /// Adds the solution of `material` read from elsewhere (a file), replacing any.
    ///
    /// # Errors
    /// When its size is not the size of the material's index.
    pub fn insert(&mut self, material: Material, solution: Solution) -> Result<(), SolveError> {
        let index = MaterialIndex::new(material);
        if solution.len() != index.len() {
            return Err(SolveError::WrongSize { expected: index.len(), found: solution.len() });
        }
        self.tables.insert(material, Table { index, solution });
        Ok(())
    }

    /// Drops the table of `material` (to free its memory), returning it.
    pub fn remove(&mut self, material: Material) -> Option<Table> {
        self.tables.remove(&material)
    }

    /// The table of a solved material.
    #[must_use]
    pub fn table(&self, material: Material) -> Option<&Table> {
        self.tables.get(&material)
    }

    /// The table that answers for `material`: its own, or under rules that treat both sides
    /// alike its colour twin's (then `true`: a position is looked up there seen from the other
    /// side, [`Position::colour_twin`]).
    #[must_use]
    pub fn answering(&self, material: Material) -> Option<(&Table, bool)> {
        if let Some(table) = self.tables.get(&material) {
            return Some((table, false));
        }
        self.tables
            .get(&material.colour_twin())
            .filter(|_| self.rules.colour_symmetric())
            .map(|table| (table, true))
    }

    /// The solved materials, smallest first.
    pub fn materials(&self) -> impl Iterator<Item = Material> + '_ {
        self.tables.keys().copied()
    }

    /// Every solved table, taking them out.
    pub fn into_tables(self) -> impl Iterator<Item = (Material, Table)> {
        self.tables.into_iter()
    }
}

impl Probe for MemoryTables {
    fn rules(&self) -> Rules {
        self.rules
    }

    fn lookup(&self, position: &Position) -> Result<RuleValue, ProbeError> {
        let material = position.material();
        let Some((table, flipped)) = self.answering(material) else {
            return Err(ProbeError::NotSolved {
                material,
                rules: self.rules,
                solved: self.materials().map(|m| m.to_string()).collect::<Vec<_>>().join(", "),
            });
        };
        let position = if flipped { position.colour_twin() } else { *position };
        table
            .index
            .encode(&position)
            .and_then(|i| table.solution.value(i))
            .map(RuleValue::from)
            .ok_or(ProbeError::NoValue { material })
    }
}
