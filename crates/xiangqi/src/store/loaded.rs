//! The tables a generation keeps in memory for the captures of the materials it solves
//! ([`Loaded`]), and which of them it drops when the next solve needs the room.

use super::cost::{BYTES_PER_LOADED_INDEX, indices};
use crate::rules::material::Material;
use crate::rules::rule_set::Rules;
use crate::tables::memory_tables::MemoryTables;
use crate::tables::perpetual::PerpetualTablebase;

/// The tables a generation keeps in memory for the captures of the materials it solves.
pub enum Loaded {
    /// Under `standard` or `hdu`.
    Plain(MemoryTables),
    /// Under `perpetual-check` or `check-and-chase`: each material's rule values and `standard` values.
    Rule(Box<PerpetualTablebase>),
}

impl Loaded {
    /// None loaded yet, for tables of `rules`.
    #[must_use]
    pub fn new(rules: Rules) -> Loaded {
        match rules {
            rules if rules.has_bans() => Loaded::Rule(Box::new(PerpetualTablebase::with_rules(rules))),
            rules => Loaded::Plain(MemoryTables::new(rules)),
        }
    }

    /// Whether `material` is loaded.
    #[must_use]
    pub fn contains(&self, material: Material) -> bool {
        match self {
            Loaded::Plain(t) => t.table(material).is_some(),
            Loaded::Rule(t) => t.solution(material).is_some(),
        }
    }

    /// The loaded materials, smallest first.
    #[must_use]
    pub fn materials(&self) -> Vec<Material> {
        match self {
            Loaded::Plain(t) => t.materials().collect(),
            Loaded::Rule(t) => t.materials().collect(),
        }
    }

    /// Drops the tables of `material`.
    pub fn remove(&mut self, material: Material) {
        match self {
            Loaded::Plain(t) => drop(t.remove(material)),
            Loaded::Rule(t) => drop(t.remove(material)),
        }
    }

    /// Bytes the loaded table of `material` takes under `standard` rules (an estimate, as the
    /// memory estimates count it: 2 bytes per index; under a ban [`Tablebases::estimate`] adds
    /// the rule solution's set of draws and words).
    ///
    /// [`Tablebases::estimate`]: super::Tablebases::estimate
    #[must_use]
    pub fn bytes(material: Material) -> u64 {
        indices(material).saturating_mul(BYTES_PER_LOADED_INDEX)
    }

    /// Bytes the table of `material` takes now that it is loaded: its cells and the long
    /// distances kept beside them (1 byte per index and a few more) under `standard` rules;
    /// under a ban those of the `standard` values (twice: as a table and in the rule solution)
    /// and the rule solution's set of draws and word per draw; 0 when it is not loaded.
    #[must_use]
    pub fn held(&self, material: Material) -> u64 {
        match self {
            Loaded::Plain(t) => t.table(material).map_or(0, |t| t.solution().heap_bytes()),
            Loaded::Rule(t) => t.held_bytes(material),
        }
    }

    /// Drops loaded tables other than `reads` (those the next solve reads), the largest first,
    /// until the loaded tables (the bytes they take) and that solve's estimate `needed` (which
    /// counts the tables it reads that are not loaded yet) fit in `budget` bytes, or none is
    /// left to drop. The others stay: reading a table again costs time.
    pub fn make_room(&mut self, reads: &[Material], needed: u64, budget: u64) {
        let loaded: Vec<(Material, u64)> = self.materials().into_iter().map(|m| (m, self.held(m))).collect();
        let mut held: u64 = loaded.iter().map(|&(_, bytes)| bytes).sum();
        let mut droppable: Vec<(Material, u64)> =
            loaded.into_iter().filter(|(m, _)| !reads.contains(m)).collect();
        droppable.sort_by_key(|&(_, bytes)| std::cmp::Reverse(bytes));
        for (m, bytes) in droppable {
            if held.saturating_add(needed) <= budget {
                break;
            }
            self.remove(m);
            held = held.saturating_sub(bytes);
        }
    }
}
