//! A game given by an explicit list of moves per position: for tests, examples and small
//! hand-made games.

use std::collections::{HashMap, HashSet};

use crate::game::{Game, Successor, Unmoves};
use crate::perpetual::Checks;
use crate::value::{Ban, RuleValue, Value};

/// A game whose positions are `0..n` and whose moves are listed explicitly.
///
/// The move of a position is named by its place in that position's list.
#[derive(Clone, Debug, Default)]
pub struct ExplicitGame {
    moves: Vec<Vec<Successor>>,
    terminal: Vec<Option<Value>>,
    holes: Vec<bool>,
    /// Per position, its predecessors (once per move) and whether that move is a chase.
    unmoves: Vec<Vec<(usize, bool)>>,
    checks: Vec<bool>,
    /// The moves marked as chases, by position and move number.
    chases: HashSet<(usize, usize)>,
    /// Values under the ban on perpetual check of moves out of the index, by position and
    /// move number (the others: their plain value).
    rule_known: HashMap<(usize, usize), RuleValue>,
    /// What [`Checks::reversible`] says.
    reversible: bool,
    /// What [`Checks::progress_level`] says, if the game has levels.
    levels: Option<Vec<u32>>,
}

impl ExplicitGame {
    /// A game where `edges[p]` lists the positions that the moves of `p` lead to. A position
    /// with an empty list is lost for the side to move.
    ///
    /// # Panics
    /// When an edge points outside `0..edges.len()`.
    #[must_use]
    pub fn new(edges: Vec<Vec<usize>>) -> Self {
        let n = edges.len();
        let moves = edges
            .into_iter()
            .map(|list| {
                list.into_iter()
                    .inspect(|&q| assert!(q < n, "edge to {q} outside 0..{n}"))
                    .map(Successor::Position)
                    .collect()
            })
            .collect();
        let mut game = ExplicitGame {
            moves,
            terminal: vec![None; n],
            holes: vec![false; n],
            unmoves: Vec::new(),
            checks: vec![false; n],
            chases: HashSet::new(),
            rule_known: HashMap::new(),
            reversible: false,
            levels: None,
        };
        game.rebuild_unmoves();
        game
    }

    /// The game says its moves can be taken back ([`Checks::reversible`]: the check stage then
    /// solves its draws as one layer), whatever its moves.
    #[must_use]
    pub fn reversible(mut self) -> Self {
        self.reversible = true;
        self
    }

    /// Gives the positions these levels ([`Checks::progress_level`]: no move may raise one,
    /// else the solver under the rule fails with
    /// [`SolveError::LevelRaised`](crate::SolveError::LevelRaised)).
    ///
    /// # Panics
    /// When there is not one level per position.
    #[must_use]
    pub fn with_levels(mut self, levels: Vec<u32>) -> Self {
        assert_eq!(levels.len(), self.moves.len(), "one level per position");
        self.levels = Some(levels);
        self
    }

    /// Makes `pos` terminal with this value (its moves are then ignored).
    #[must_use]
    pub fn with_terminal(mut self, pos: usize, value: Value) -> Self {
        self.terminal[pos] = Some(value);
        self.rebuild_unmoves();
        self
    }

    /// Makes every position of `values` terminal with its value, as
    /// [`ExplicitGame::with_terminal`] does for one, with one rebuild of the un-moves for all
    /// (large random games in tests).
    #[must_use]
    pub fn with_terminals(mut self, values: impl IntoIterator<Item = (usize, Value)>) -> Self {
        for (pos, value) in values {
            self.terminal[pos] = Some(value);
        }
        self.rebuild_unmoves();
        self
    }

    /// Makes every position of `positions` a hole, as [`ExplicitGame::with_hole`] does for one,
    /// with one rebuild of the un-moves for all.
    #[must_use]
    pub fn with_holes(mut self, positions: impl IntoIterator<Item = usize>) -> Self {
        for pos in positions {
            self.holes[pos] = true;
        }
        self.rebuild_unmoves();
        self
    }

    /// Adds a move from `pos` out of the index, to a position of known value.
    #[must_use]
    pub fn with_known_move(mut self, pos: usize, value: Value) -> Self {
        self.moves[pos].push(Successor::Known(value));
        self
    }

    /// Marks `pos` as "the side to move is in check" (for [`Checks`]).
    #[must_use]
    pub fn with_check(mut self, pos: usize) -> Self {
        self.checks[pos] = true;
        self
    }

    /// Marks the move number `mv` of `pos` as a chase (for [`Checks::is_chase`]; a move into a
    /// position in check stays a check).
    ///
    /// # Panics
    /// When `pos` has no such move.
    #[must_use]
    pub fn with_chase(mut self, pos: usize, mv: usize) -> Self {
        assert!(mv < self.moves[pos].len(), "position {pos} has no move {mv}");
        self.chases.insert((pos, mv));
        self.rebuild_unmoves();
        self
    }

    /// Whether the move number `mv` of `pos` is marked as a chase.
    #[must_use]
    pub fn is_chase_move(&self, pos: usize, mv: usize) -> bool {
        self.chases.contains(&(pos, mv))
    }

    /// Adds a move from `pos` out of the index, to a position whose value under the rule
    /// is `value` (its plain value: [`RuleValue::plain`]).
    #[must_use]
    pub fn with_known_rule_move(mut self, pos: usize, value: RuleValue) -> Self {
        self.rule_known.insert((pos, self.moves[pos].len()), value);
        self.moves[pos].push(Successor::Known(value.plain()));
        self
    }

    /// The value under the rule of the move `mv` of `pos` if it leaves the index.
    #[must_use]
    pub fn known_rule_value(&self, pos: usize, mv: usize) -> Option<RuleValue> {
        match self.moves[pos].get(mv)? {
            Successor::Known(v) => Some(self.rule_known.get(&(pos, mv)).copied().unwrap_or((*v).into())),
            Successor::Position(_) => None,
        }
    }

    /// Whether the side to move is in check at `pos`.
    #[must_use]
    pub fn is_check(&self, pos: usize) -> bool {
        self.checks[pos]
    }

    /// Makes `pos` a hole in the index (it must not be the target of a move).
    #[must_use]
    pub fn with_hole(mut self, pos: usize) -> Self {
        self.holes[pos] = true;
        self.rebuild_unmoves();
        self
    }

    /// The moves of `pos` as given (also for terminal positions).
    #[must_use]
    pub fn moves_of(&self, pos: usize) -> &[Successor] {
        &self.moves[pos]
    }

    fn rebuild_unmoves(&mut self) {
        let n = self.moves.len();
        self.unmoves = vec![Vec::new(); n];
        for p in 0..n {
            if self.holes[p] || self.terminal[p].is_some() {
                continue;
            }
            for (mv, succ) in self.moves[p].iter().enumerate() {
                if let Successor::Position(q) = *succ {
                    self.unmoves[q].push((p, self.chases.contains(&(p, mv))));
                }
            }
        }
    }
}

impl Game for ExplicitGame {
    type Move = usize;

    fn num_positions(&self) -> usize {
        self.moves.len()
    }

    fn is_position(&self, pos: usize) -> bool {
        !self.holes[pos]
    }

    fn terminal(&self, pos: usize) -> Option<Value> {
        self.terminal[pos]
    }

    fn for_each_move(&self, pos: usize, mut f: impl FnMut(usize, Successor)) {
        for (i, &succ) in self.moves[pos].iter().enumerate() {
            f(i, succ);
        }
    }
}

impl Unmoves for ExplicitGame {
    fn for_each_unmove(&self, pos: usize, mut f: impl FnMut(usize)) {
        for &(p, _) in &self.unmoves[pos] {
            f(p);
        }
    }
}

impl Checks for ExplicitGame {
    fn in_check(&self, pos: usize) -> bool {
        self.checks[pos]
    }

    fn known_by_rule(&self, pos: usize, mv: usize, plain: Value) -> RuleValue {
        self.rule_known.get(&(pos, mv)).copied().unwrap_or(plain.into())
    }

    fn has_chases(&self) -> bool {
        !self.chases.is_empty() || self.rule_known.values().any(|v| v.ban() == Some(Ban::Chase))
    }

    fn reversible(&self) -> bool {
        self.reversible
    }

    fn has_progress_levels(&self) -> bool {
        self.levels.is_some()
    }

    fn progress_level(&self, pos: usize) -> u32 {
        self.levels.as_ref().map_or(0, |l| l[pos])
    }

    fn is_chase(&self, pos: usize, mv: usize) -> bool {
        self.chases.contains(&(pos, mv))
    }

    fn for_each_labelled_unmove(
        &self,
        pos: usize,
        wanted: impl Fn(usize) -> bool,
        mut f: impl FnMut(usize, bool),
    ) {
        for &(p, chase) in &self.unmoves[pos] {
            if wanted(p) {
                f(p, chase);
            }
        }
    }
}
