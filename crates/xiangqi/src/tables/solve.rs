//! Solving in memory: a material and, first, every material its captures lead to, by the core
//! retrograde solver, into [`MemoryTables`]; and [`hdu()`], the table of the HDU 5897 contest.
//!
//! A material's positions are numbered by [`MaterialIndex`]. A move that captures a General
//! wins at once (`Successor::Known(loss in 0)` for the side left without it); any other
//! capture leads into a smaller material, solved first, whose value is looked up
//! (`Successor::Known`). So `KvKN` rests on `KvK`, where under `hdu` rules the side to move
//! wins in 1 ply when the Generals face each other and nobody can force anything otherwise.
//!
//! Under `standard` rules the placements where the side not to move is in check are holes of
//! the index, and a move is legal when it leaves its General out of check (looked at closely
//! only when the General moves, is in check, or the piece moves from or to its file, rank or
//! a Horse-leg point next to it).
//!
//! Generation works on piece lists (occupancy as two 90-bit sets) with un-moves, so the solver
//! needs no reverse edges: 1 byte per index for the values (compact cells, long distances in a
//! side list) and two level bitmaps of pairs of positions, plus the tables of the smaller
//! materials in 1-byte cells (at most 1.37 bytes per index at the peak for a 5-man material,
//! all included: see `BENCHMARKS.md`). A material whose colour twin is solved is derived from
//! it ([`Table::colour_twin`]) instead of solved.

use std::sync::OnceLock;

use endgame_core::{Retrograde, SolveError};

use crate::rules::material::Material;
use crate::rules::rule_set::Rules;
use crate::tables::index::MaterialIndex;
use crate::tables::material_game::MaterialGame;
use crate::tables::memory_tables::{MemoryTables, Table};

impl MemoryTables {
    /// Solves `material` and, first, every material a capture leads to.
    ///
    /// # Errors
    /// When the solver's limits are exceeded.
    pub fn solve(&mut self, material: Material) -> Result<(), SolveError> {
        self.solve_with(material, &Retrograde::new().compact(true))
    }

    /// Solves `material` and, first, every material a capture leads to, with `solver` (which
    /// may report progress); the generation uses 1-byte cells when `solver` is compact. A
    /// material whose colour twin is solved already is derived from it (see
    /// [`MemoryTables::colour_twins`]).
    ///
    /// # Errors
    /// When the solver's limits are exceeded.
    pub fn solve_with(&mut self, material: Material, solver: &Retrograde<'_>) -> Result<(), SolveError> {
        if self.tables.contains_key(&material) {
            return Ok(());
        }
        if self.colour_twins
            && self.rules.colour_symmetric()
            && let Some(twin) = self.tables.get(&material.colour_twin())
        {
            let table = twin.colour_twin()?;
            self.tables.insert(material, table);
            return Ok(());
        }
        for smaller in material.after_captures() {
            // A material whose colour twin is solved is answered from the twin's table.
            if self.answering(smaller).is_none() {
                self.solve_with(smaller, solver)?;
            }
        }
        let index = MaterialIndex::new(material);
        let solution = solver.solve_with_unmoves(&MaterialGame::new(&index, self.rules, self))?;
        self.tables.insert(material, Table { index, solution });
        Ok(())
    }

    /// The core's view of a solved material (for the conformance checks).
    #[must_use]
    pub fn game(&self, material: Material) -> Option<MaterialGame<'_>> {
        self.table(material).map(|t| MaterialGame::new(&t.index, self.rules, self))
    }
}

/// The material of HDU 5897: a lone Red General against a Black General and Horse.
#[must_use]
pub fn kvkn() -> Material {
    "KvKN".parse().expect("KvKN is a material")
}

/// `KvKN` (and `KvK`) under `hdu` rules, solved on first use (a few milliseconds).
pub fn hdu() -> &'static MemoryTables {
    static TABLES: OnceLock<MemoryTables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut tables = MemoryTables::new(Rules::Hdu);
        tables.solve(kvkn()).expect("9,720 positions are within the solver's limits");
        tables
    })
}
