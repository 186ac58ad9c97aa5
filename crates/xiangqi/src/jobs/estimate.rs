//! The estimate of a generation ([`estimate`]): the tables a material still needs (the files
//! of the store's [`Plan`] not there yet), their positions, the peak memory of the generation
//! and the time it would take at a speed ([`default_speed`]), from the cost model of
//! [`crate::store::cost`]. Nothing is read but the directory.
//!
//! [`Plan`]: crate::store::generate::Plan
//! [`default_speed`]: crate::store::cost::default_speed

use endgame_core::units;

use crate::probe::{Probe, ProbeError};
use crate::rules::material::Material;
use crate::rules::rule_set::Rules;
use crate::store::Tablebases;
use crate::store::cost::{PERPETUAL_CHECK_COST, index_size};
use crate::store::source::SOLVE_ON_THE_FLY_MEN;

/// What a generation of a material's tables would take.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The material asked for.
    pub material: Material,
    /// The rule set.
    pub rules: Rules,
    /// Tables to generate: those of the material and of every material its captures lead to
    /// that have no file (one file for a material and its colour twin) (0 when the material is answered already; materials of up to
    /// [`SOLVE_ON_THE_FLY_MEN`] men without a file are solved in memory, and generated only
    /// along with larger ones).
    pub tables: usize,
    /// The files the material needs in all, those there included (one for each pair of colour
    /// twins).
    pub tables_in_all: usize,
    /// Positions (indices) of the tables to generate.
    pub positions: u64,
    /// The peak memory of the generation in bytes: the largest estimate of its solves (each
    /// with the smaller tables it reads).
    pub memory_bytes: u64,
    /// The material whose solve needs that memory (`None` when nothing is to be generated).
    pub largest: Option<Material>,
    /// The least memory the generation needs in bytes: the largest least estimate of its
    /// solves ([`Tablebases::least_estimate`]). Under a ban it is below `memory_bytes` (the
    /// predecessor lists not counted): with memory between the two the solves keep the lists
    /// that fit, slower (`KNRvKAR`: 1.4 times the time with none in the check stage; several
    /// times where even the chase stage's lists do not fit, `KNRvKAAR`; BENCHMARKS.md). Under
    /// `standard` and `hdu` the same.
    pub least_memory_bytes: u64,
    /// The time it would take, in seconds, at `speed`.
    pub seconds: f64,
    /// The speed assumed, in positions solved per second.
    pub speed: f64,
}

impl Estimate {
    /// Whether every table the material needs is there.
    #[must_use]
    pub const fn is_done(&self) -> bool {
        self.tables == 0
    }

    /// The command that generates these tables in a terminal.
    #[must_use]
    pub fn command(&self) -> String {
        format!("endgame xiangqi generate {} --rules {}", self.material, self.rules)
    }

    /// Whether `budget` bytes of memory are enough for the generation (perhaps slower than
    /// with [`Estimate::memory_bytes`]): the least memory fits.
    #[must_use]
    pub const fn fits(&self, budget: u64) -> bool {
        self.least_memory_bytes <= budget
    }

    /// One line for a person, in the units of [`endgame_core::units`]:
    /// `KRPvKAABB: 36 tables, 255,301,014 positions, about 23 s and 346 MiB of memory`, with
    /// `(at least 2.73 GiB, slower)` after the memory when the least is less; once every
    /// table is there, `KRPvKAABB: generated (36 tables, all there)`.
    #[must_use]
    pub fn describe(&self) -> String {
        if self.is_done() {
            return if self.material.men() <= SOLVE_ON_THE_FLY_MEN {
                format!(
                    "{}: nothing to generate (materials of up to {SOLVE_ON_THE_FLY_MEN} men are solved in memory)",
                    self.material
                )
            } else {
                format!("{}: generated ({}, all there)", self.material, tables_count(self.tables_in_all))
            };
        }
        let least = if self.least_memory_bytes < self.memory_bytes {
            format!(" (at least {}, slower)", units::bytes(self.least_memory_bytes))
        } else {
            String::new()
        };
        format!(
            "{}: {}, {} positions, about {} and {} of memory{least}",
            self.material,
            tables_count(self.tables),
            units::count(self.positions),
            units::duration(self.seconds),
            units::bytes(self.memory_bytes)
        )
    }
}

/// `1 table`, `36 tables`.
fn tables_count(n: usize) -> String {
    if n == 1 { "1 table".to_string() } else { format!("{n} tables") }
}

/// The time one table takes relative to solving its positions under `standard` rules.
pub(super) fn cost(tables: &Tablebases) -> f64 {
    if tables.rules().has_bans() { PERPETUAL_CHECK_COST } else { 1.0 }
}

/// A table to generate: the material, its positions and the work it takes (positions times
/// its [`cost`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Planned {
    pub(super) material: Material,
    pub(super) positions: u64,
    pub(super) work: f64,
}

/// What a generation of `material` would take on this machine at `speed` positions per second
/// (see [`Estimate`]). Looks only at which files exist, not into them: a damaged file found
/// by the generation is generated anew on top of this.
///
/// # Errors
/// When a material's index does not fit in 64 bits ([`ProbeError::BeyondTables`]).
pub fn estimate(tables: &Tablebases, material: Material, speed: f64) -> Result<Estimate, ProbeError> {
    estimate_plan(tables, material, speed).map(|(estimate, _)| estimate)
}

pub(super) fn estimate_plan(
    tables: &Tablebases,
    material: Material,
    speed: f64,
) -> Result<(Estimate, Vec<Planned>), ProbeError> {
    // Refused before its (possibly millions of) smaller materials are listed.
    index_size(material)?;
    let rules = tables.rules();
    // The files that answer for them: a material's own, or its colour twin's (one file for
    // both), as `Tablebases::generate` writes them.
    let files = tables.plan_of(material.with_smaller()).files;
    let mut missing: Vec<Material> = files.iter().copied().filter(|&m| !tables.path(m).exists()).collect();
    if missing.iter().all(|m| m.men() <= SOLVE_ON_THE_FLY_MEN) {
        missing.clear();
    }
    let (mut memory, mut largest, mut least) = (0, None, 0);
    let mut planned = Vec::with_capacity(missing.len());
    for &m in &missing {
        let positions = index_size(m)? as u64;
        let (needed, least_needed) = tables.estimates(m, |_| false);
        if needed > memory {
            (memory, largest) = (needed, Some(m));
        }
        least = least.max(least_needed);
        planned.push(Planned { material: m, positions, work: positions as f64 * cost(tables) });
    }
    // Summed from +0.0: an empty sum of `f64` is -0.0, which JSON would show as `-0.0` seconds.
    let work = planned.iter().fold(0.0, |sum, p| sum + p.work);
    let estimate = Estimate {
        material,
        rules,
        tables: planned.len(),
        tables_in_all: files.len(),
        positions: planned.iter().map(|p| p.positions).sum(),
        memory_bytes: memory,
        largest,
        least_memory_bytes: least,
        seconds: work / speed.max(1.0),
        speed,
    };
    Ok((estimate, planned))
}
