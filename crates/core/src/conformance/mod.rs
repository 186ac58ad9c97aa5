//! The conformance harness every game runs in its tests: index round trip, un-moves against
//! moves, symmetry, a full consistency check of a solution, and (in `certificate`) the
//! certificate of a solution under the bans on perpetual play
//! ([`check_rule_solution`]), which a generation also runs on every table it writes.
//!
//! Each check returns `Err` with a message naming the first offending position, so a test can
//! simply `unwrap()` it. The checks are exhaustive over the index: run them on sizes a test
//! can afford.

use std::fmt::Debug;

use rayon::prelude::*;

mod certificate;

pub use certificate::{Lookups, check_rule_solution, check_rule_solution_with};

use crate::game::{FirstLook, Game, Successor, Unmoves};
use crate::line::successor_value;
use crate::retrograde::Solution;
use crate::value::Value;

/// A game whose indices stand for positions of a concrete type.
pub trait Indexed: Game {
    /// The position as the game's rules see it.
    type Position: PartialEq + Debug;

    /// The position with this index; `None` for holes.
    fn decode(&self, index: usize) -> Option<Self::Position>;

    /// The index of a position (its canonical index, where the index uses symmetry).
    fn encode(&self, position: &Self::Position) -> Option<usize>;
}

/// Every index decodes to a position exactly when it is not a hole, and encoding that position
/// gives the index back.
///
/// # Errors
/// A message naming the first index that fails.
pub fn check_index_round_trip<G: Indexed + Sync>(game: &G) -> Result<(), String>
where
    G::Position: Send,
{
    (0..game.num_positions()).into_par_iter().try_for_each(|i| match (game.decode(i), game.is_position(i)) {
        (None, false) => Ok(()),
        (Some(p), true) => match game.encode(&p) {
            Some(j) if j == i => Ok(()),
            other => Err(format!("index {i} decodes to {p:?}, which encodes to {other:?}")),
        },
        (p, hole) => Err(format!("index {i}: decode gives {p:?} but is_position is {hole}")),
    })
}

/// A total order of the values a move may report, to compare lists of them as multisets.
fn value_key(value: Option<Value>) -> (u8, u32) {
    match value {
        None => (0, 0),
        Some(Value::Win(d)) => (1, d.0),
        Some(Value::Loss(d)) => (2, d.0),
        Some(Value::Draw(None)) => (3, 0),
        Some(Value::Draw(Some(d))) => (4, d.0),
    }
}

/// Every move leads to a position (not a hole), [`Game::for_each_move_value`] reports the same
/// moves as [`Game::for_each_move`], and the un-moves are exactly the reversed moves, as
/// multisets.
///
/// # Errors
/// A message naming the first position whose un-moves disagree with the moves.
pub fn check_unmoves<G: Unmoves>(game: &G) -> Result<(), String> {
    let n = game.num_positions();
    let open = |p: usize| game.is_position(p) && game.terminal(p).is_none();
    (0..n).into_par_iter().filter(|&p| !open(p)).try_for_each(|p| {
        let expected = if game.is_position(p) {
            FirstLook::Terminal(game.terminal(p).expect("not open"))
        } else {
            FirstLook::Hole
        };
        match game.first_look(p, |_| {}) {
            look if look == expected => Ok(()),
            look => Err(format!("position {p}: first_look gives {look:?}, expected {expected:?}")),
        }
    })?;
    let mut forward: Vec<(usize, usize)> = (0..n)
        .into_par_iter()
        .filter(|&p| open(p))
        .try_fold(Vec::new, |mut acc, p| {
            let mut bad = None;
            let mut values = Vec::new();
            game.for_each_move(p, |_, to| {
                values.push(match to {
                    Successor::Known(v) => Some(v),
                    Successor::Position(_) => None,
                });
                if let Successor::Position(q) = to {
                    if q >= n || !game.is_position(q) {
                        bad = Some(q);
                    }
                    acc.push((q, p));
                }
            });
            let mut reported = Vec::new();
            game.for_each_move_value(p, |v| reported.push(v));
            let mut looked = Vec::new();
            let look = game.first_look(p, |v| looked.push(v));
            // The same moves, in any order.
            for list in [&mut values, &mut reported, &mut looked] {
                list.sort_by_key(|v| value_key(*v));
            }
            if look != FirstLook::Moves || looked != values {
                return Err(format!(
                    "position {p}: first_look gives {look:?} and {looked:?}, expected its moves {values:?}"
                ));
            }
            match bad {
                Some(q) => Err(format!("position {p} has a move to {q}, which is not a position")),
                None if reported != values => Err(format!(
                    "position {p}: for_each_move_value gives {reported:?}, for_each_move {values:?}"
                )),
                None => Ok(acc),
            }
        })
        .try_reduce(Vec::new, |mut a, mut b| {
            a.append(&mut b);
            Ok(a)
        })?;
    let mut backward: Vec<(usize, usize)> = (0..n)
        .into_par_iter()
        .filter(|&q| game.is_position(q))
        .fold(Vec::new, |mut acc, q| {
            game.for_each_unmove(q, |p| {
                if p < n && open(p) {
                    acc.push((q, p));
                }
            });
            acc
        })
        .reduce(Vec::new, |mut a, mut b| {
            a.append(&mut b);
            a
        });
    forward.par_sort_unstable();
    backward.par_sort_unstable();
    if forward == backward {
        return Ok(());
    }
    let (mut i, mut j) = (0, 0);
    while i < forward.len() && j < backward.len() && forward[i] == backward[j] {
        i += 1;
        j += 1;
    }
    Err(match (forward.get(i), backward.get(j)) {
        (Some(&(q, p)), Some(&(bq, bp))) if (q, p) < (bq, bp) => {
            format!("the move {p} -> {q} has no un-move")
        }
        (_, Some(&(q, p))) => format!("the un-move {q} <- {p} is not a move"),
        (Some(&(q, p)), None) => format!("the move {p} -> {q} has no un-move"),
        (None, None) => unreachable!("the lists differ"),
    })
}

/// Symmetric positions get equal values: `images(pos)` lists the positions equivalent to `pos`.
///
/// # Errors
/// A message naming the first pair with different values.
pub fn check_symmetry(
    solution: &Solution,
    images: impl Fn(usize) -> Vec<usize> + Sync,
) -> Result<(), String> {
    (0..solution.len()).into_par_iter().try_for_each(|p| {
        let v = solution.value(p);
        for q in images(p) {
            if solution.value(q) != v {
                return Err(format!("position {p} is {v:?} but its image {q} is {:?}", solution.value(q)));
            }
        }
        Ok(())
    })
}

/// The solution is consistent with the game: terminal positions have their value, holes have
/// none, and every other position's value is exactly the best value of its moves: a win in `n`
/// has a move to a loss in `n - 1` and none to a faster one; a loss in `n` has only moves to
/// wins in at most `n - 1`, one of them exactly `n - 1`; a draw has a move to a draw and none
/// to a loss (a draw that ends in `n` has a move to a draw that ends in `n - 1` and none
/// shorter). Wins and losses that satisfy this are well founded, so a solution that passes is
/// the exact solution.
///
/// # Errors
/// A message naming the first position that breaks it.
pub fn check_solution<G: Game>(game: &G, solution: &Solution) -> Result<(), String> {
    if solution.len() != game.num_positions() {
        return Err(format!("{} values for {} positions", solution.len(), game.num_positions()));
    }
    (0..solution.len()).into_par_iter().try_for_each(|p| {
        let got = solution.value(p);
        if !game.is_position(p) {
            return match got {
                None => Ok(()),
                Some(v) => Err(format!("hole {p} has value {v}")),
            };
        }
        let expected = match game.terminal(p) {
            Some(v) => Some(v),
            None => {
                let mut best = None;
                let mut hole = None;
                game.for_each_move(p, |_, to| match successor_value(solution, to) {
                    Some(child) => best = best.max(Some(child.before_move())),
                    None => hole = Some(to),
                });
                if let Some(to) = hole {
                    return Err(format!("position {p} has a move to {to:?}, which has no value"));
                }
                Some(best.unwrap_or(crate::Value::loss_in(0)))
            }
        };
        if got == expected {
            Ok(())
        } else {
            Err(format!("position {p} has {got:?} but its moves give {expected:?}"))
        }
    })
}
