//! The certificate of a solution under the bans on perpetual play: every result by the rule
//! proven by its moves and ranks, position by position (the store runs it on every table it
//! generates under those rules, the tests on every solve).

use std::ops::ControlFlow;

use rayon::prelude::*;

use crate::game::Successor;
use crate::perpetual::{
    CHECK_STATE_BYTES_PER_DRAW, Checks, Choice, Label, RuleSolution, RuleStats, value_of_word, winning_move,
};
use crate::value::{Ban, RuleValue, Value, Wdl};

/// Positions handled by one parallel task.
const CHUNK: usize = 1 << 12;

/// Checks a solution under the rule against the game, position by position, as a certificate:
///
/// - mates and drawn ends are those of the plain solution (check that one with
///   [`crate::conformance::check_solution`]: a [`RuleSolution`] holds the plain value at
///   every position that is no plain draw, so only the plain draws are looked at here);
///   every result by the rule is a plain draw;
/// - a win by the ban on perpetual check of rank `r` has a move to a loss by that ban of
///   smaller rank (or out of the index to a loss by that ban), in an earlier round when the
///   side to move is not in check (that it has no move to a mate is the plain solution's:
///   the moves after the first such one are not looked at); from a loss by that ban of rank `r`
///   every move leads to a win of the opponent by mate or by that ban, in the same round or an
///   earlier one and of smaller rank when the side to move is in check;
/// - for a win by the ban on perpetual chase, the move [`winning_move`] plays is a win out
///   of the index, into a result of the ban on perpetual check, or to a loss by the ban on
///   perpetual chase whose `ρ` (rank / 2) is smaller for a check, whose round of `Z3` is not
///   later for a chase, whose round of `Z5` is not later for an idle move; from a loss by
///   that ban every move leads to a win of the opponent: by mate, by the ban on perpetual
///   check, out of the index, or to a win by the ban on perpetual chase whose `ρ` is smaller
///   for a check, whose round of `Z3` is earlier for a chase, whose round of `Z5` is earlier
///   for an idle move;
/// - a draw has no move to a loss of any kind and some move to a draw.
///
/// These prove every result by the rule (see the module notes: the winner's moves keep the
/// win, and along any play the rounds and `ρ` cannot fall forever); a result of the ban on
/// perpetual check stays among them. The draws' rule is only necessary (that no side can
/// force a win, and which ban a result needs, is the solver's fixpoint, proven on small games
/// against a brute-force oracle).
///
/// # Errors
/// A message naming the first position that fails.
pub fn check_rule_solution<G: Checks>(game: &G, solution: &RuleSolution) -> Result<(), String> {
    check_rule_solution_with(game, solution, Lookups::Auto)
}

/// Where [`check_rule_solution_with`] looks up the values the moves lead to (the same
/// certificate whichever: a [`RuleSolution`] and its copy hold the same values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookups {
    /// [`Lookups::Words`] when the copy, with the plain values the solution holds again
    /// (a byte a position: they were put away while the check stage ran), takes at most
    /// what the check stage held besides its results: its predecessor lists
    /// ([`RuleStats::lists_bytes`](crate::perpetual::RuleStats::lists_bytes)) and 11 bytes
    /// a plain draw of its state (16 before issue 42's nineteenth session made it leaner, 12
    /// before its twentieth);
    /// else [`Lookups::Solution`]. (`KNRvKAR`,
    /// 393.7 M positions and 72.1 M plain draws: words with its 1,513 MiB of lists, the solution
    /// without them, where the copy made the certificate the peak of the solve: 2,309 MiB
    /// against 1,953 in the check stage; 1,680 with the solution.)
    Auto,
    /// The solution itself (the plain value, then for a plain draw the set of draws and the
    /// draw's word): no memory besides.
    Solution,
    /// A copy of every value as one word (4 bytes a position), made first: one memory access
    /// a move (`KNRvKAR`: the certificate 27.3 s against 29.1, on 72.1 M plain draws and
    /// 393.7 M positions).
    Words,
}

/// Whether [`Lookups::Auto`] takes the copy of every value as a word for a solution of
/// `positions` positions solved with `stats`.
fn words_fit(positions: u64, stats: RuleStats) -> bool {
    let held = stats.lists_bytes.saturating_add(CHECK_STATE_BYTES_PER_DRAW.saturating_mul(stats.plain_draws));
    positions.saturating_mul(5) <= held
}

/// [`check_rule_solution`] with the values the moves lead to looked up as `lookups` says.
///
/// # Errors
/// A message naming the first position that fails.
pub fn check_rule_solution_with<G: Checks>(
    game: &G,
    solution: &RuleSolution,
    lookups: Lookups,
) -> Result<(), String> {
    let words = match lookups {
        Lookups::Auto => words_fit(solution.len() as u64, solution.stats()),
        Lookups::Solution => false,
        Lookups::Words => true,
    };
    // (A value whose distance or rank does not fit in a word leaves the look-ups to the
    // solution.)
    let every_word = if words { solution.every_word() } else { None };
    let value_of = |q: usize| match &every_word {
        Some(every_word) => every_word.get(q).and_then(|&word| value_of_word(word)),
        None => solution.value(q),
    };
    (0..game.num_positions()).into_par_iter().with_min_len(CHUNK).try_for_each_init(
        Vec::new,
        |children, pos| {
            let plain = solution.plain().value(pos);
            if !matches!(plain, Some(Value::Draw(_))) {
                // A hole, a win or a loss of the plain game: a `RuleSolution` holds the plain
                // value there (only the plain draws have a word of their own), so nothing of
                // the rule is to be proven (`KNRvKAR`: 322 M of its 394 M indices, each read
                // twice and compared, or tested for legality when a hole, before).
                return Ok(());
            }
            if !game.is_position(pos) || game.terminal(pos).is_some() {
                return Ok(());
            }
            let Some(value) = value_of(pos) else { return Err(format!("position {pos} has no value")) };
            if !value.is_by_rule() && value.wdl() != Wdl::Draw {
                return Err(format!("position {pos}: {value:?} but {plain:?} in the plain game"));
            }
            let check = game.in_check(pos);
            // The value a move leads to, and whether it stays in the index.
            let after = |mv, to| match to {
                Successor::Position(q) => (value_of(q), true),
                Successor::Known(v) => (Some(game.known_by_rule(pos, mv, v)), false),
            };
            let fail = |what: &str| Err(format!("position {pos} ({value:?}, in check: {check}): {what}"));
            let rho_round = |r: u32| (solution.chase_round(r), r >> 1);
            // Whether rank `r` is of the round of `value`'s rank or an earlier one, and of an
            // earlier one (the round's bounds found once, not a search per move).
            let round = match value {
                RuleValue::WinByRule(Ban::Check, rank) | RuleValue::LossByRule(Ban::Check, rank) => {
                    solution.round(rank)
                }
                _ => 0,
            };
            let (this_top, last_top) =
                (solution.round_top(round), round.checked_sub(1).map(|r| solution.round_top(r)));
            let not_later = |r: u32| this_top.is_none_or(|top| r <= top);
            let earlier = |r: u32| last_top.flatten().is_some_and(|top| r <= top);
            if let RuleValue::WinByRule(Ban::Check, rank) = value {
                // One move to a loss by that ban of a smaller rank proves the win: the moves
                // after it are not generated (`KNRvKR`: a third of the plain draws, the first
                // such move the 7th of 16 on average). That none mates is the plain solution's
                // (a plain draw has no such move).
                let progress = game.try_for_each_move(pos, |mv, to| {
                    let (after, inside) = after(mv, to);
                    let progress = match after {
                        Some(RuleValue::LossByRule(Ban::Check, r)) if inside => {
                            r < rank && (check || earlier(r))
                        }
                        Some(RuleValue::LossByRule(Ban::Check, _)) => true,
                        _ => false,
                    };
                    if progress { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
                });
                return if progress.is_break() {
                    Ok(())
                } else {
                    fail("no move to a smaller rank (of an earlier round when not in check)")
                };
            }
            // The labels (a check test and a chase test per move, the costly part) only where
            // the rule reads them: for a result of the ban on perpetual chase, the moves into
            // the other side's result of that ban in the index (the others stay `Idle`, unread:
            // see the arms below and `winning_move`).
            let labelled = |after: Option<RuleValue>, inside: bool| {
                inside
                    && matches!(
                        (value, after),
                        (RuleValue::WinByRule(Ban::Chase, _), Some(RuleValue::LossByRule(Ban::Chase, _)))
                            | (
                                RuleValue::LossByRule(Ban::Chase, _),
                                Some(RuleValue::WinByRule(Ban::Chase, _))
                            )
                    )
            };
            children.clear();
            game.for_each_move(pos, |mv, to| {
                let (after, inside) = after(mv, to);
                let label = if labelled(after, inside) { game.label(pos, mv, to) } else { Label::Idle };
                children.push((after, inside, label));
            });
            if value.wdl() != Wdl::Draw
                && children.iter().any(|(c, ..)| matches!(c, Some(RuleValue::Loss(_))))
            {
                return fail("a move mates");
            }
            match value {
                RuleValue::LossByRule(Ban::Check, rank) => {
                    for &(child, inside, _) in children.iter() {
                        let ok = match child {
                            Some(RuleValue::Win(_)) => true,
                            Some(RuleValue::WinByRule(Ban::Check, r)) if inside => {
                                not_later(r) && (!check || r < rank)
                            }
                            Some(RuleValue::WinByRule(Ban::Check, _)) => true,
                            _ => false,
                        };
                        if !ok {
                            return fail(&format!("a move to {child:?}"));
                        }
                    }
                }
                RuleValue::WinByRule(Ban::Chase, rank) => {
                    let choices: Vec<Choice> = children
                        .iter()
                        .map(|&(after, inside, label)| Choice {
                            label,
                            after: after.unwrap_or(RuleValue::Draw(None)),
                            inside,
                        })
                        .collect();
                    let Some(k) = winning_move(value, &choices) else {
                        return fail("no move keeps the win as the ranks say");
                    };
                    let ((r5, r3), rho) = rho_round(rank);
                    let ok = match choices[k] {
                        Choice { after: RuleValue::LossByRule(Ban::Chase, r), inside: true, label } => {
                            let ((t5, t3), t) = rho_round(r);
                            match label {
                                Label::Check => t < rho,
                                Label::Chase => t3 <= r3,
                                Label::Idle => t5 <= r5,
                            }
                        }
                        Choice { after, .. } => after.wdl() == Wdl::Loss,
                    };
                    if !ok {
                        return fail(&format!(
                            "the winning move (number {k}, {:?}) makes no progress",
                            choices[k]
                        ));
                    }
                }
                RuleValue::LossByRule(Ban::Chase, rank) => {
                    let ((r5, r3), rho) = rho_round(rank);
                    for &(child, inside, label) in children.iter() {
                        let ok = match child {
                            Some(RuleValue::Win(_) | RuleValue::WinByRule(Ban::Check, _)) => true,
                            Some(RuleValue::WinByRule(Ban::Chase, r)) if inside => {
                                let ((t5, t3), t) = rho_round(r);
                                match label {
                                    Label::Check => t < rho,
                                    Label::Chase => t3 < r3,
                                    Label::Idle => t5 < r5,
                                }
                            }
                            Some(RuleValue::WinByRule(Ban::Chase, _)) => true,
                            _ => false,
                        };
                        if !ok {
                            return fail(&format!("a move ({label:?}) to {child:?}"));
                        }
                    }
                }
                _ => {
                    if children.iter().any(|(c, ..)| c.is_some_and(|c| c.wdl() == Wdl::Loss)) {
                        return fail("a move wins");
                    }
                    if !children.iter().any(|(c, ..)| c.is_some_and(|c| c.wdl() == Wdl::Draw)) {
                        return fail("no move draws");
                    }
                }
            }
            Ok(())
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The copy of every value is made while it takes no more than what the check stage held:
    /// `KNRvKAR`'s figures with its lists, without them, and with half of them.
    #[test]
    fn the_copy_of_the_values_fits_in_what_the_check_stage_held() {
        let (positions, draws) = (393_660_000, 72_148_618);
        let stats = |lists_bytes| RuleStats { plain_draws: draws, lists_bytes, ..RuleStats::default() };
        assert!(words_fit(positions, stats(1_513 << 20)));
        assert!(!words_fit(positions, stats(0)));
        assert!(!words_fit(positions, stats(756 << 20)));
        // A table of draws alone holds the copy in the state of the stage.
        assert!(words_fit(positions, RuleStats { plain_draws: positions, ..RuleStats::default() }));
    }
}
