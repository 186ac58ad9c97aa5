//! A game given by an explicit list of moves per position: for tests, examples and small
//! hand-made games.

use crate::game::{Game, Successor, Unmoves};
use crate::value::Value;

/// A game whose positions are `0..n` and whose moves are listed explicitly.
///
/// The move of a position is named by its place in that position's list.
#[derive(Clone, Debug, Default)]
pub struct ExplicitGame {
    moves: Vec<Vec<Successor>>,
    terminal: Vec<Option<Value>>,
    holes: Vec<bool>,
    unmoves: Vec<Vec<usize>>,
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
        let mut game =
            ExplicitGame { moves, terminal: vec![None; n], holes: vec![false; n], unmoves: Vec::new() };
        game.rebuild_unmoves();
        game
    }

    /// Makes `pos` terminal with this value (its moves are then ignored).
    #[must_use]
    pub fn with_terminal(mut self, pos: usize, value: Value) -> Self {
        self.terminal[pos] = Some(value);
        self.rebuild_unmoves();
        self
    }

    /// Adds a move from `pos` out of the index, to a position of known value.
    #[must_use]
    pub fn with_known_move(mut self, pos: usize, value: Value) -> Self {
        self.moves[pos].push(Successor::Known(value));
        self
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
            for succ in &self.moves[p] {
                if let Successor::Position(q) = *succ {
                    self.unmoves[q].push(p);
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
        for &p in &self.unmoves[pos] {
            f(p);
        }
    }
}
