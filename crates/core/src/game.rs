//! What a game supplies to the retrograde solver.
//!
//! A game numbers its positions densely, `0..num_positions()`. Numbers that are not positions
//! (holes in the index, such as two pieces on one point) are allowed: the game says so with
//! [`Game::is_position`]. For every position the game gives its fixed value if the game is over
//! there ([`Game::terminal`]) and otherwise its moves, each leading either to another indexed
//! position or to a position outside the index whose value is already known
//! ([`Successor::Known`], e.g. a capture that ends the game or leads into a smaller material).

use std::ops::ControlFlow;

use crate::value::Value;

/// Where a move leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Successor {
    /// To the position with this index in the same game.
    Position(usize),
    /// To a position outside the index whose value, for the side to move *there*, is known.
    ///
    /// A move that wins at once (capturing the opponent's General) is
    /// `Known(Value::loss_in(0))`: the opponent has lost, and the move itself is a win in 1 ply.
    Known(Value),
}

/// A finite two-player game with alternating moves, as the retrograde solver sees it.
///
/// The game may have cycles. A position that is not terminal and has no move at all is lost
/// for the side to move (`loss in 0 plies`); a game where that is not so says otherwise through
/// [`Game::terminal`].
pub trait Game: Sync {
    /// A move as the game names it (for best-move and main-line extraction).
    type Move: Copy;

    /// The size of the dense index: positions are numbered `0..num_positions()`.
    fn num_positions(&self) -> usize;

    /// Whether `pos` is a position at all (`false` for holes in the index). Holes get no value
    /// and must not be a successor of any position.
    fn is_position(&self, pos: usize) -> bool {
        let _ = pos;
        true
    }

    /// The value of a position where the game is over (for the side to move), else `None`.
    /// The moves of a terminal position are never asked for.
    fn terminal(&self, pos: usize) -> Option<Value>;

    /// Calls `f` once for every move of a non-terminal position, with where it leads.
    /// Two moves may lead to the same position; each is reported.
    fn for_each_move(&self, pos: usize, f: impl FnMut(Self::Move, Successor));

    /// [`Game::for_each_move`] until `f` breaks: `f` hears the moves of a non-terminal
    /// position in the order `for_each_move` reports them, up to and with the first for which
    /// it returns [`ControlFlow::Break`]; returns whether one did. For a search that needs one
    /// move of a kind (such as a certificate's proof of a win). The default generates every
    /// move and skips `f` after the break; a game may stop generating them.
    fn try_for_each_move(
        &self,
        pos: usize,
        mut f: impl FnMut(Self::Move, Successor) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut flow = ControlFlow::Continue(());
        self.for_each_move(pos, |mv, to| {
            if flow.is_continue() {
                flow = f(mv, to);
            }
        });
        flow
    }

    /// Calls `f` once for every move of a non-terminal position (in any order), as
    /// [`Game::for_each_move`] does, with `Some(value)` for a [`Successor::Known`] and `None` for a move to a position
    /// of the index: all that the solver's first pass needs, so a game may skip computing the
    /// indices.
    fn for_each_move_value(&self, pos: usize, mut f: impl FnMut(Option<Value>)) {
        self.for_each_move(pos, |_, succ| {
            f(match succ {
                Successor::Known(v) => Some(v),
                Successor::Position(_) => None,
            });
        });
    }

    /// The solver's first look at `pos`: [`Game::is_position`], then [`Game::terminal`], then
    /// for a position that is neither a hole nor terminal [`Game::for_each_move_value`], in
    /// one call (a game may share the work of the three).
    fn first_look(&self, pos: usize, f: impl FnMut(Option<Value>)) -> FirstLook {
        if !self.is_position(pos) {
            return FirstLook::Hole;
        }
        if let Some(value) = self.terminal(pos) {
            return FirstLook::Terminal(value);
        }
        self.for_each_move_value(pos, f);
        FirstLook::Moves
    }
}

/// What [`Game::first_look`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstLook {
    /// A hole of the index.
    Hole,
    /// A terminal position with its value.
    Terminal(Value),
    /// A position whose moves were reported.
    Moves,
}

/// A game that can generate un-moves: the positions from which one move leads to a position.
///
/// With un-moves the solver needs no reverse edges of its own (4 bytes per position instead of
/// 12 bytes per position plus 4 bytes per move).
pub trait Unmoves: Game {
    /// Calls `f` once for every move `p -> pos` with `Successor::Position(pos)`, for every
    /// non-terminal position `p`: as a multiset, exactly the reverse of [`Game::for_each_move`].
    /// Reporting terminal positions or holes in addition is allowed (they are ignored).
    fn for_each_unmove(&self, pos: usize, f: impl FnMut(usize));
}
