//! Exact tables: the value of every position of a material under a rule set, solved by the
//! core retrograde solver.
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
//! materials in 1-byte cells (measured: at most 1.37 bytes per index at the peak for a 5-man
//! material, all included). A material whose colour twin is solved is derived from it
//! ([`Table::colour_twin`]) instead of solved.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use endgame_core::perpetual::RuleValue;
use endgame_core::{Retrograde, Solution, SolveError};

use crate::index::{ColourFlip, MaterialIndex};
pub use crate::material_game::MaterialGame;
use crate::probe::{Probe, ProbeError};
use crate::rules::color::Color;
use crate::rules::material::Material;
use crate::rules::position::Position;
use crate::rules::rule_set::Rules;

/// One solved material.
pub struct Table {
    index: MaterialIndex,
    solution: Solution,
}

impl Table {
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

/// Solved materials under one rule set.
pub struct Tablebase {
    rules: Rules,
    tables: BTreeMap<Material, Table>,
    colour_twins: bool,
}

impl Tablebase {
    /// No material solved yet.
    #[must_use]
    pub const fn new(rules: Rules) -> Tablebase {
        Tablebase { rules, tables: BTreeMap::new(), colour_twins: true }
    }

    /// Whether a solve derives a material from its colour twin when the twin is solved already
    /// and the rules treat both sides alike ([`Table::colour_twin`]; the default), or solves
    /// every material (to compare the two).
    #[must_use]
    pub const fn colour_twins(mut self, derive: bool) -> Tablebase {
        self.colour_twins = derive;
        self
    }

    /// The rule set.
    #[must_use]
    pub const fn rules(&self) -> Rules {
        self.rules
    }

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
    /// [`Tablebase::colour_twins`]).
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

    /// The core's view of a solved material (for the conformance checks).
    #[must_use]
    pub fn game(&self, material: Material) -> Option<MaterialGame<'_>> {
        self.table(material).map(|t| MaterialGame::new(&t.index, self.rules, self))
    }

    /// Every solved table, taking them out.
    pub fn into_tables(self) -> impl Iterator<Item = (Material, Table)> {
        self.tables.into_iter()
    }
}

impl Probe for Tablebase {
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

/// Counts over the legal positions of one material: both sides to move, no symmetry
/// reduction, identical pieces counted once per set of points. Legal: every piece on a point it
/// may stand on, the side not to move not in check (attacked, or the Generals facing each other
/// on an open file).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Legal positions.
    pub positions: u64,
    /// Positions won by the side to move (by mate, under `perpetual-check`).
    pub wins: u64,
    /// Positions lost by the side to move (by mate, under `perpetual-check`).
    pub losses: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions won by the side to move by the perpetual-check rule (`standard` draws; 0
    /// under the other rule sets).
    pub wins_by_rule: u64,
    /// Positions lost by the side to move by the perpetual-check rule (`standard` draws).
    pub losses_by_rule: u64,
    /// The longest win of Red to move, in plies (0 when there is none); as GamesmanXiangqi
    /// counts it, a position with Black to move lost in more plies does not count.
    pub longest_red_win_plies: u32,
    /// The longest win of Black to move, in plies (0 when there is none).
    pub longest_black_win_plies: u32,
}

impl Stats {
    fn add(mut self, turn: Color, value: RuleValue) -> Stats {
        self.positions += 1;
        let d = match value {
            RuleValue::Win(d) => {
                self.wins += 1;
                d.0
            }
            RuleValue::Loss(_) => {
                self.losses += 1;
                return self;
            }
            RuleValue::Draw(_) => {
                self.draws += 1;
                return self;
            }
            RuleValue::WinByRule(..) => {
                self.wins_by_rule += 1;
                return self;
            }
            RuleValue::LossByRule(..) => {
                self.losses_by_rule += 1;
                return self;
            }
        };
        let longest = match turn {
            Color::Red => &mut self.longest_red_win_plies,
            Color::Black => &mut self.longest_black_win_plies,
        };
        *longest = (*longest).max(d);
        self
    }

    /// The statistics of the colour twin material ([`Material::colour_twin`]): the same
    /// counts (each position stands for its twin, with the same value for the side to move),
    /// with the longest wins of Red and Black to move swapped.
    #[must_use]
    pub const fn colour_twin(self) -> Stats {
        Stats {
            longest_red_win_plies: self.longest_black_win_plies,
            longest_black_win_plies: self.longest_red_win_plies,
            ..self
        }
    }

    pub(crate) fn merge(self, o: Stats) -> Stats {
        Stats {
            positions: self.positions + o.positions,
            wins: self.wins + o.wins,
            losses: self.losses + o.losses,
            draws: self.draws + o.draws,
            wins_by_rule: self.wins_by_rule + o.wins_by_rule,
            losses_by_rule: self.losses_by_rule + o.losses_by_rule,
            longest_red_win_plies: self.longest_red_win_plies.max(o.longest_red_win_plies),
            longest_black_win_plies: self.longest_black_win_plies.max(o.longest_black_win_plies),
        }
    }
}

impl Stats {
    /// Counts over the positions of `range` of `index`, with their values from `value`.
    pub(crate) fn count(
        index: &MaterialIndex,
        range: std::ops::Range<usize>,
        value: impl Fn(usize) -> Option<RuleValue>,
    ) -> Stats {
        let mut stats = Stats::default();
        index.for_each_legal(range, |pos, turn, times| {
            if let Some(value) = value(pos) {
                for _ in 0..times {
                    stats = stats.add(turn, value);
                }
            }
        });
        stats
    }
}

impl Stats {
    /// Counts over the positions of `index` whose values `value` gives, `None` for holes, in
    /// parallel: the same as [`Stats::count`] over a table solved under `rules`. A table's
    /// holes are exactly the indices that are no legal position, so no position's legality is
    /// tested (each index takes a lookup and a digit or two), except under `hdu`, whose
    /// tables also value the positions where the side not to move is in check (its General
    /// is taken next): those are no legal positions and are not counted.
    pub(crate) fn of_values(
        index: &MaterialIndex,
        rules: Rules,
        value: impl Fn(usize) -> Option<RuleValue> + Sync,
    ) -> Stats {
        use rayon::prelude::*;
        const CHUNK: usize = 1 << 16;
        (0..index.len().div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let mut stats = Stats::default();
                for p in c * CHUNK..index.len().min((c + 1) * CHUNK) {
                    if rules == Rules::Hdu && !index.is_legal(p) {
                        continue;
                    }
                    if let Some(v) = value(p) {
                        let turn = MaterialIndex::turn(p);
                        for _ in 0..index.stands_for(p) {
                            stats = stats.add(turn, v);
                        }
                    }
                }
                stats
            })
            .reduce(Stats::default, Stats::merge)
    }

    /// The names of the counters of a table file's header (see
    /// [`endgame_core::table_file`]), in the order of [`Stats::counters`].
    pub const COUNTERS: [&'static str; 8] = [
        "positions",
        "wins",
        "losses",
        "draws",
        "wins_by_rule",
        "losses_by_rule",
        "longest_red_win_plies",
        "longest_black_win_plies",
    ];

    /// The statistics as a table file's counters.
    #[must_use]
    pub fn counters(&self) -> Vec<(String, u64)> {
        let values = [
            self.positions,
            self.wins,
            self.losses,
            self.draws,
            self.wins_by_rule,
            self.losses_by_rule,
            u64::from(self.longest_red_win_plies),
            u64::from(self.longest_black_win_plies),
        ];
        Stats::COUNTERS.iter().zip(values).map(|(n, v)| ((*n).to_string(), v)).collect()
    }

    /// The statistics from a table file's counters; `None` when one is missing or too large.
    #[must_use]
    pub fn from_counters(counter: impl Fn(&str) -> Option<u64>) -> Option<Stats> {
        let [positions, wins, losses, draws, wins_by_rule, losses_by_rule, red, black] =
            Stats::COUNTERS.map(&counter);
        Some(Stats {
            positions: positions?,
            wins: wins?,
            losses: losses?,
            draws: draws?,
            wins_by_rule: wins_by_rule?,
            losses_by_rule: losses_by_rule?,
            longest_red_win_plies: u32::try_from(red?).ok()?,
            longest_black_win_plies: u32::try_from(black?).ok()?,
        })
    }
}

impl Table {
    /// Counts over the legal positions of this table (see [`Stats`]).
    #[must_use]
    pub fn stats(&self) -> Stats {
        use rayon::prelude::*;
        const CHUNK: usize = 1 << 14;
        (0..self.index.len().div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let range = c * CHUNK..self.index.len().min((c + 1) * CHUNK);
                Stats::count(&self.index, range, |p| self.solution.value(p).map(RuleValue::from))
            })
            .reduce(Stats::default, Stats::merge)
    }
}

/// The material of HDU 5897: a lone Red General against a Black General and Horse.
#[must_use]
pub fn kvkn() -> Material {
    "KvKN".parse().expect("KvKN is a material")
}

/// `KvKN` (and `KvK`) under `hdu` rules, solved on first use (a few milliseconds).
pub fn hdu() -> &'static Tablebase {
    static TABLES: OnceLock<Tablebase> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut tables = Tablebase::new(Rules::Hdu);
        tables.solve(kvkn()).expect("9,720 positions are within the solver's limits");
        tables
    })
}
