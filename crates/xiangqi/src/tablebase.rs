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
//! needs no reverse edges: 2 bytes per index for the values (compact cells), plus the solver's
//! lists of decided positions and of captures into smaller materials (measured: about 5 bytes
//! per index at the peak for a 5-man material, tables of the smaller materials included).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use endgame_core::tablebase::TableId;
use endgame_core::{Retrograde, Solution, SolveError, Value};

use crate::index::{MAX_MEN, MaterialIndex};
use crate::material::Material;
pub use crate::material_game::{MaterialGame, legal};
use crate::moves::Move;
use crate::piece::Color;
use crate::position::Position;
use crate::rules::Rules;
use crate::square::Square;

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
}

/// A position the tables cannot answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("material {material} is outside what has been solved under {rules} rules (solved: {solved})")]
pub struct ProbeError {
    /// The position's material.
    pub material: Material,
    /// The rule set of the tables.
    pub rules: Rules,
    /// The solved materials, comma separated.
    pub solved: String,
}

/// Solved materials under one rule set.
pub struct Tablebase {
    rules: Rules,
    tables: BTreeMap<Material, Table>,
}

impl Tablebase {
    /// No material solved yet.
    #[must_use]
    pub const fn new(rules: Rules) -> Tablebase {
        Tablebase { rules, tables: BTreeMap::new() }
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
    /// may report progress); the generation uses 2-byte cells when `solver` is compact.
    ///
    /// # Errors
    /// When the solver's limits are exceeded.
    pub fn solve_with(&mut self, material: Material, solver: &Retrograde<'_>) -> Result<(), SolveError> {
        if self.tables.contains_key(&material) {
            return Ok(());
        }
        for smaller in material.after_captures() {
            self.solve_with(smaller, solver)?;
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
            return Err(SolveError::TooManyPositions(solution.len()));
        }
        self.tables.insert(material, Table { index, solution });
        Ok(())
    }

    /// Drops the table of `material` (to free its memory), returning it.
    pub fn remove(&mut self, material: Material) -> Option<Table> {
        self.tables.remove(&material)
    }

    /// What a table file of `material` under these rules holds (checked when reading it).
    #[must_use]
    pub fn table_id(&self, material: Material) -> TableId {
        TableId {
            game: "xiangqi".into(),
            variant: material.to_string(),
            rules: self.rules.name().into(),
            positions: MaterialIndex::new(material).len() as u64,
        }
    }

    /// The table of a solved material.
    #[must_use]
    pub fn table(&self, material: Material) -> Option<&Table> {
        self.tables.get(&material)
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

    /// The value of a position for the side to move (`loss in 0` once its General is gone).
    ///
    /// # Errors
    /// When the position's material has not been solved.
    pub fn probe(&self, position: &Position) -> Result<Value, ProbeError> {
        if position.is_game_over() {
            return Ok(Value::loss_in(0));
        }
        let material = position.material();
        self.table(material)
            .and_then(|t| t.index.encode(position).and_then(|i| t.solution.value(i)))
            .ok_or_else(|| ProbeError {
                material,
                rules: self.rules,
                solved: self.materials().map(|m| m.to_string()).collect::<Vec<_>>().join(", "),
            })
    }

    /// Every legal move with its value for the side to move before it, best first (the
    /// shortest win, then draws, then the longest loss; ties in move generation order).
    ///
    /// # Errors
    /// When the position or a position after a move is outside the solved materials.
    pub fn scored_moves(&self, position: &Position) -> Result<Vec<(Move, Value)>, ProbeError> {
        self.probe(position)?;
        let mut moves = Vec::new();
        for mv in position.legal_moves(self.rules) {
            moves.push((mv, self.probe(&position.play(mv))?.before_move()));
        }
        moves.sort_by_key(|&(_, value)| std::cmp::Reverse(value));
        Ok(moves)
    }

    /// The main line: best moves until the game ends, a position repeats (endless play) or
    /// `max_plies` moves were made.
    ///
    /// # Errors
    /// When the position is outside the solved materials.
    pub fn main_line(&self, position: &Position, max_plies: usize) -> Result<Vec<(Move, Value)>, ProbeError> {
        let mut line = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut at = *position;
        while line.len() < max_plies && seen.insert(at) {
            let Some(&best) = self.scored_moves(&at)?.first() else { break };
            line.push(best);
            at = at.play(best.0);
        }
        Ok(line)
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
    /// Positions won by the side to move.
    pub wins: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// Drawn positions.
    pub draws: u64,
    /// The longest win of Red to move, in plies (0 when there is none); as GamesmanXiangqi
    /// counts it, a position with Black to move lost in more plies does not count.
    pub longest_red_win_plies: u32,
    /// The longest win of Black to move, in plies (0 when there is none).
    pub longest_black_win_plies: u32,
}

impl Stats {
    fn add(mut self, turn: Color, value: Value) -> Stats {
        self.positions += 1;
        let d = match value {
            Value::Win(d) => {
                self.wins += 1;
                d.0
            }
            Value::Loss(_) => {
                self.losses += 1;
                return self;
            }
            Value::Draw(_) => {
                self.draws += 1;
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

    fn merge(self, o: Stats) -> Stats {
        Stats {
            positions: self.positions + o.positions,
            wins: self.wins + o.wins,
            losses: self.losses + o.losses,
            draws: self.draws + o.draws,
            longest_red_win_plies: self.longest_red_win_plies.max(o.longest_red_win_plies),
            longest_black_win_plies: self.longest_black_win_plies.max(o.longest_black_win_plies),
        }
    }
}

impl Table {
    /// Counts over the legal positions of this table (see [`Stats`]).
    #[must_use]
    pub fn stats(&self) -> Stats {
        use rayon::prelude::*;
        let index = &self.index;
        let n = index.pieces().len();
        (0..index.len())
            .into_par_iter()
            .with_min_len(1 << 12)
            .fold(Stats::default, |stats, pos| {
                let mut all = [Square::A0; MAX_MEN];
                let Some(turn) = index.squares(pos, &mut all) else { return stats };
                let squares = &all[..n];
                if !legal(squares, index.pieces(), turn) {
                    return stats;
                }
                let value = self.solution.value(pos).expect("a legal position has a value");
                // The mirror image of an asymmetric position is a position of its own.
                let stats = stats.add(turn, value);
                if index.is_symmetric(squares) { stats } else { stats.add(turn, value) }
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
