//! The solver under the bans on perpetual check and perpetual chase against a brute-force
//! oracle on small random games whose moves are labelled idle, chase or check.
//!
//! The oracle is deliberately literal and shares nothing with the solver but the game:
//!
//! - Mates: the minimax equations iterated round by round, moves out of the index counting
//!   with their mate values only.
//! - Wins by the rule, by **enumerating memoryless strategies**. A state is a node with who is
//!   to move (me or the opponent). For every choice of one move per node for *me* (a move that
//!   wins at once is always taken), the graph the opponent still plays in is searched for an
//!   escape: a finite end that is not my win, or a reachable cycle that is no win of mine by
//!   the levels of its moves (each side's level is the smallest label of its moves in the
//!   cycle: idle 0, chase 1, check 2; I win when the opponent's is higher). I win from a state
//!   iff some strategy leaves no escape from it (memoryless strategies suffice: the objective
//!   is a parity condition). The same search with the ban on perpetual check alone (I win a
//!   cycle when every move of the opponent is a check and not every move of mine; a move out
//!   wins only into a mate or a result of that ban) gives the results that ban decides.
//! - A position is won by the rule if its "me to move" state is won, lost if its "opponent to
//!   move" state is; by the ban on perpetual check when that search already wins it, else by
//!   the ban on perpetual chase. What neither side wins is a draw; draws that can reach a
//!   drawn end get the shortest such distance by rounds again.

use crate::common::{
    CHASE, CHECK, Edge, IDLE, Shape, edges, fixed_games, solver_agrees, union_over_strategies, values_of,
};
use endgame_core::conformance::{Lookups, check_rule_solution, check_rule_solution_with};
use endgame_core::explicit::ExplicitGame;
use endgame_core::line::perpetual::best_move;
use endgame_core::perpetual::Checks;
use endgame_core::perpetual::{PerpetualCheck, RuleSolution};
use endgame_core::{Ban, Game, RuleValue, SolveError, Successor, Wdl};
use proptest::prelude::*;

/// The random games: up to 11 nodes, chase labels on moves, moves out into results of both
/// bans.
const SHAPE: Shape = Shape { nodes: 11, check: 0.4, chase: 0.45, bans: &[Ban::Check, Ban::Chase] };

fn any_game() -> impl Strategy<Value = ExplicitGame> {
    crate::common::any_game(SHAPE)
}

/// Which rule the oracle judges by.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Judge {
    /// Both bans: I win a cycle when the opponent's level is higher than mine.
    Both,
    /// The ban on perpetual check alone.
    CheckOnly,
    /// A deliberately wrong rule (the lower level loses), to show the comparison notices.
    Reversed,
}

impl Judge {
    /// Whether I win a cycle whose moves have these levels.
    fn i_win(self, mine: u8, theirs: u8) -> bool {
        match self {
            Judge::Both => theirs > mine,
            Judge::CheckOnly => theirs == CHECK && mine < CHECK,
            Judge::Reversed => theirs < mine,
        }
    }

    /// Whether a move out to a position of this value (for the side to move there) is a win
    /// for the player who makes it.
    fn good_end(self, after: RuleValue, mover_is_me: bool) -> bool {
        let wdl = if self == Judge::CheckOnly { after.check_wdl() } else { after.wdl() };
        if mover_is_me { wdl == Wdl::Loss } else { wdl == Wdl::Win }
    }
}

/// The game on states `2 u + s` (`s = 0`: me to move at `u`, `1`: the opponent).
struct States {
    /// A finite end or a move out that is not my win (for me: my only choice is such).
    local_bad: Vec<bool>,
    /// The moves of each state: target state and level; for my states, my options.
    succ: Vec<Vec<(usize, u8)>>,
}

fn states(game: &ExplicitGame, judge: Judge) -> States {
    let n = game.num_positions();
    let mut st = States { local_bad: vec![false; 2 * n], succ: vec![Vec::new(); 2 * n] };
    for u in 0..n {
        if !game.is_position(u) {
            st.local_bad[2 * u] = true;
            st.local_bad[2 * u + 1] = true;
            continue;
        }
        if let Some(t) = game.terminal(u) {
            let t = RuleValue::from(t);
            st.local_bad[2 * u] = t.wdl() != Wdl::Win;
            st.local_bad[2 * u + 1] = t.wdl() != Wdl::Loss;
            continue;
        }
        let es = edges(game, u);
        // Me to move: a win at once is taken; else every move into the index is an option.
        if !es.iter().any(|e| matches!(e, Edge::End(v) if judge.good_end(*v, true))) {
            let mut options: Vec<(usize, u8)> = es
                .iter()
                .filter_map(|e| if let Edge::To(q, l) = *e { Some((2 * q + 1, l)) } else { None })
                .collect();
            options.sort_unstable();
            options.dedup();
            if options.is_empty() {
                st.local_bad[2 * u] = true;
            }
            st.succ[2 * u] = options;
        }
        // The opponent to move: every move is played (no move at all: my win).
        if es.iter().any(|e| matches!(e, Edge::End(v) if !judge.good_end(*v, false))) {
            st.local_bad[2 * u + 1] = true;
        }
        let mut moves: Vec<(usize, u8)> =
            es.iter().filter_map(|e| if let Edge::To(q, l) = *e { Some((2 * q, l)) } else { None }).collect();
        moves.sort_unstable();
        moves.dedup();
        st.succ[2 * u + 1] = moves;
    }
    st
}

/// States reachable in one or more steps along the moves `keep` accepts (by source state and
/// level).
fn closure(succ: &[Vec<(usize, u8)>], keep: impl Fn(usize, u8) -> bool) -> Vec<u32> {
    let k = succ.len();
    let mut reach = vec![0u32; k];
    loop {
        let mut changed = false;
        for x in 0..k {
            let mut r = reach[x];
            for &(y, l) in &succ[x] {
                if keep(x, l) {
                    r |= 1 << y | reach[y];
                }
            }
            if r != reach[x] {
                reach[x] = r;
                changed = true;
            }
        }
        if !changed {
            return reach;
        }
    }
}

/// The states from which every play of the graph `succ` (my choices fixed: one move per
/// state of mine) is my win under `judge`.
///
/// A cycle's levels are the smallest label of each side's moves in it. Every pair of levels a
/// closed walk can have is that of a strongly connected part of the graph cut to the moves
/// at or above the pair (the walk through all of the part's moves has exactly those levels),
/// so the nine cut graphs show every cycle the opponent may keep to.
fn winning_with(st: &States, succ: &[Vec<(usize, u8)>], judge: Judge) -> u32 {
    let k = succ.len();
    let mine = |x: usize| x.is_multiple_of(2);
    let mut escape = 0u32;
    for x in 0..k {
        if st.local_bad[x] {
            escape |= 1 << x;
        }
    }
    for lo in [IDLE, CHASE, CHECK] {
        for lm in [IDLE, CHASE, CHECK] {
            let within = |x: usize, l: u8| if mine(x) { l >= lm } else { l >= lo };
            let reach = closure(succ, within);
            for x in 0..k {
                if reach[x] >> x & 1 == 0 {
                    continue;
                }
                // x's strongly connected part in the cut graph, and its levels.
                let part = |y: usize| y == x || (reach[x] >> y & 1 == 1 && reach[y] >> x & 1 == 1);
                let (mut am, mut ao) = (CHECK, CHECK);
                for a in (0..k).filter(|&a| part(a)) {
                    for &(b, l) in &succ[a] {
                        if within(a, l) && part(b) {
                            if mine(a) {
                                am = am.min(l);
                            } else {
                                ao = ao.min(l);
                            }
                        }
                    }
                }
                if !judge.i_win(am, ao) {
                    escape |= 1 << x;
                }
            }
        }
    }
    let reach = closure(succ, |_, _| true);
    let mut won = 0u32;
    for x in 0..k {
        if escape >> x & 1 == 0 && reach[x] & escape == 0 {
            won |= 1 << x;
        }
    }
    won
}

/// My winning states under `judge`, by enumerating my memoryless strategies.
fn winning_region(st: &States, judge: Judge) -> u32 {
    union_over_strategies(&st.succ, |succ| winning_with(st, succ, judge))
}

fn oracle_by(game: &ExplicitGame, judge: Judge) -> Vec<Option<RuleValue>> {
    let won = winning_region(&states(game, judge), judge);
    let by_check = winning_region(&states(game, Judge::CheckOnly), Judge::CheckOnly);
    values_of(game, won, |s| {
        if judge != Judge::Reversed && by_check >> s & 1 == 1 { Ban::Check } else { Ban::Chase }
    })
}

fn oracle(game: &ExplicitGame) -> Vec<Option<RuleValue>> {
    oracle_by(game, Judge::Both)
}

/// Checks that the solver's best moves win: with them as my strategy everywhere, every play
/// from a position won (by mate or by the rule) for its side to move, and from a position lost
/// for its side to move with the opponent to move, is my win; and my win under the ban on
/// perpetual check alone where that ban decided the result.
fn best_moves_win(game: &ExplicitGame, solution: &RuleSolution) -> Result<(), String> {
    let n = game.num_positions();
    for judge in [Judge::Both, Judge::CheckOnly] {
        let st = states(game, judge);
        let mut succ = st.succ.clone();
        let mut local_bad = st.local_bad.clone();
        for u in 0..n {
            if !game.is_position(u) || game.terminal(u).is_some() || game.moves_of(u).is_empty() {
                continue;
            }
            let best = best_move(game, solution, u).expect("a move");
            let es = edges(game, u);
            match es[best.mv] {
                Edge::To(q, l) => {
                    succ[2 * u] = vec![(2 * q + 1, l)];
                    local_bad[2 * u] = false;
                }
                Edge::End(v) => {
                    succ[2 * u] = Vec::new();
                    local_bad[2 * u] = !judge.good_end(v, true);
                }
            }
        }
        let fixed = States { local_bad, succ: Vec::new() };
        let won = winning_with(&fixed, &succ, judge);
        for u in 0..n {
            let v = solution.value(u);
            let (state, side) = match v {
                Some(RuleValue::Win(_) | RuleValue::WinByRule(..)) => (2 * u, "the side to move"),
                Some(RuleValue::Loss(_) | RuleValue::LossByRule(..)) => (2 * u + 1, "the opponent"),
                _ => continue,
            };
            if judge == Judge::CheckOnly && v.is_some_and(|v| v.ban() != Some(Ban::Check)) {
                continue;
            }
            if won >> state & 1 == 0 {
                return Err(format!(
                    "position {u} ({v:?}): {side} plays the best moves and does not win ({judge:?})"
                ));
            }
        }
    }
    Ok(())
}

/// The solver's values without ranks.
fn solved(game: &ExplicitGame, solver: PerpetualCheck) -> Vec<Option<RuleValue>> {
    let solution = solver.solve(game).unwrap();
    (0..game.num_positions()).map(|p| solution.value(p).map(RuleValue::without_rank)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn the_rule_agrees_with_the_oracle(game in any_game()) {
        let expected = oracle(&game);
        solver_agrees(&game, &expected, best_moves_win)?;
    }

    #[test]
    fn without_chases_the_rule_is_the_ban_on_perpetual_check(game in any_game()) {
        // Chases switched off: the oracle of the ban on perpetual check alone, every result
        // by that ban.
        let expected: Vec<Option<RuleValue>> = oracle_by(&game, Judge::CheckOnly)
            .into_iter()
            .map(|v| match v {
                Some(RuleValue::WinByRule(..)) => Some(RuleValue::WinByRule(Ban::Check, 0)),
                Some(RuleValue::LossByRule(..)) => Some(RuleValue::LossByRule(Ban::Check, 0)),
                v => v,
            })
            .collect();
        // (Moves out of the index into results of the ban on perpetual chase are draws there.)
        let off = solved(&game, PerpetualCheck::new().chases(false));
        prop_assert_eq!(&off, &expected);
        // With chases on, the results of the ban on perpetual check are the same.
        let on = solved(&game, PerpetualCheck::new());
        let by_check = |v: &Option<RuleValue>| v.filter(|v| v.ban() == Some(Ban::Check));
        prop_assert_eq!(on.iter().map(by_check).collect::<Vec<_>>(), off.iter().map(by_check).collect::<Vec<_>>());
    }

    /// Levels in 2-byte cells (the default), in 4-byte cells from the start, and in 2-byte
    /// cells held to a tiny limit (past it the solve starts again with 4-byte ones) give the
    /// same values, ranks and draw distances included.
    #[test]
    fn the_width_of_the_levels_changes_nothing(game in any_game(), limit in 1u32..4) {
        let narrow = values(&game, PerpetualCheck::new());
        prop_assert_eq!(&values(&game, PerpetualCheck::new().narrow_levels(0)), &narrow);
        prop_assert_eq!(&values(&game, PerpetualCheck::new().narrow_levels(limit)), &narrow);
    }
}

/// The solver's values, ranks and distances included.
fn values(game: &ExplicitGame, solver: PerpetualCheck) -> Vec<Option<RuleValue>> {
    let solution = solver.solve(game).unwrap();
    (0..game.num_positions()).map(|p| solution.value(p)).collect()
}

/// A chain of forced moves into a perpetual check (0 <-> 1, the side to move at 0 in check)
/// ranks its positions ever higher: held to 2-byte levels of at most 2, the solve starts
/// again with 4-byte ones and finds the same ranks as with those from the start, above 2.
#[test]
fn levels_past_the_narrow_limit_solve_again_wide() {
    let mut moves = vec![vec![1], vec![0]];
    moves.extend((2..12).map(|p| vec![p - 1]));
    let game = ExplicitGame::new(moves).with_check(0);
    let wide = values(&game, PerpetualCheck::new().narrow_levels(0));
    let rank = |v: &Option<RuleValue>| match v {
        Some(RuleValue::WinByRule(_, r) | RuleValue::LossByRule(_, r)) => *r,
        _ => 0,
    };
    assert!(wide.iter().map(rank).max() > Some(2), "{wide:?}");
    assert_eq!(values(&game, PerpetualCheck::new().narrow_levels(2)), wide);
    assert_eq!(values(&game, PerpetualCheck::new()), wide);
}

/// A game where the two bans differ: a cycle 0 -> 1 -> 0 in which the move 1 -> 0 is a chase
/// and 0 -> 1 idle.
fn chase_cycle() -> ExplicitGame {
    ExplicitGame::new(vec![vec![1], vec![0]]).with_chase(1, 0)
}

#[test]
fn the_side_that_chases_forever_loses() {
    let s = PerpetualCheck::new().solve(&chase_cycle()).unwrap();
    assert!(matches!(s.value(0), Some(RuleValue::WinByRule(Ban::Chase, _))));
    assert!(matches!(s.value(1), Some(RuleValue::LossByRule(Ban::Chase, _))));
    // Both chase: a draw. A chase against a check: the checker loses, by the ban on
    // perpetual check.
    let both = ExplicitGame::new(vec![vec![1], vec![0]]).with_chase(1, 0).with_chase(0, 0);
    let s = PerpetualCheck::new().solve(&both).unwrap();
    assert_eq!((s.value(0), s.value(1)), (Some(RuleValue::Draw(None)), Some(RuleValue::Draw(None))));
    let check_chase = ExplicitGame::new(vec![vec![1], vec![0]]).with_chase(1, 0).with_check(1);
    let s = PerpetualCheck::new().solve(&check_chase).unwrap();
    assert!(matches!(s.value(0), Some(RuleValue::LossByRule(Ban::Check, _))));
}

#[test]
fn the_loser_who_may_chase_or_check_loses_by_the_chase_ban() {
    // 0 (the loser to move) may check into 1 or chase into 2; from 1 and 2 the winner goes
    // back to 0 quietly. Checking forever loses by the ban on perpetual check, chasing
    // forever by the ban on perpetual chase: the loser can avoid the first, so the result is
    // the second's.
    let game = ExplicitGame::new(vec![vec![1, 2], vec![0], vec![0]]).with_check(1).with_chase(0, 1);
    let s = PerpetualCheck::new().solve(&game).unwrap();
    assert!(matches!(s.value(0), Some(RuleValue::LossByRule(Ban::Chase, _))), "{:?}", s.value(0));
    // Only the check: the ban on perpetual check decides.
    let game = ExplicitGame::new(vec![vec![1], vec![0]]).with_check(1);
    let s = PerpetualCheck::new().solve(&game).unwrap();
    assert!(matches!(s.value(0), Some(RuleValue::LossByRule(Ban::Check, _))));
}

#[test]
fn the_comparison_notices_a_wrong_rule() {
    // Mutations: a solver that ignores chases, and an oracle with the levels reversed,
    // disagree with the solver and the oracle on games where chases decide.
    let game = chase_cycle();
    assert_ne!(solved(&game, PerpetualCheck::new().chases(false)), oracle(&game));
    assert_ne!(oracle_by(&game, Judge::Reversed), oracle(&game));
    let (mut off, mut reversed, mut games) = (0, 0, 0);
    for game in fixed_games(SHAPE, 300) {
        let solution = solved(&game, PerpetualCheck::new());
        if !solution.iter().any(|v| v.and_then(RuleValue::ban) == Some(Ban::Chase)) {
            continue;
        }
        games += 1;
        off += usize::from(solved(&game, PerpetualCheck::new().chases(false)) != solution);
        reversed += usize::from(oracle_by(&game, Judge::Reversed) != solution);
    }
    assert!(games > 20, "{games}");
    assert_eq!(off, games);
    assert!(reversed * 4 > games, "{reversed} of {games}");
}

#[test]
fn the_random_games_split_into_layers() {
    // The comparison of the layered solve means something: most games' draws split.
    let (mut games, mut split, mut kept_split, mut leveled_split) = (0, 0, 0, 0);
    for game in fixed_games(SHAPE, 300) {
        let leveled = game.clone().with_levels(crate::common::reach_levels(&game));
        let by_levels = PerpetualCheck::new().layer_size(0).solve(&leveled).unwrap().stats();
        leveled_split += usize::from(by_levels.layers > 1);
        let stats = PerpetualCheck::new().layer_size(0).search_share(0).solve(&game).unwrap().stats();
        let kept = PerpetualCheck::new().layer_size(0).search_share(u32::MAX).solve(&game).unwrap().stats();
        if stats.chase_draws > 0 {
            games += 1;
            split += usize::from(stats.chase_layers > 1);
            // The check stage's layers, kept, split the chase stage's draws too.
            kept_split += usize::from(kept.chase_layers > 1);
        }
        assert_eq!(
            PerpetualCheck::new().solve(&game).unwrap().stats().chase_layers,
            u32::from(stats.chase_draws > 0)
        );
    }
    assert!(split * 2 > games, "{split} of {games}");
    assert!(kept_split * 3 > games, "{kept_split} of {games} (kept)");
    // The game's levels split the check stage's draws of a third of the games (139 of 300).
    assert!(leveled_split * 3 > 300, "{leveled_split} of 300 (the game's levels)");
}

#[test]
fn a_move_that_raises_the_games_level_is_an_error() {
    // 0 <-> 1 forever (draws), 1 <-> 2 too; the move 0 -> 1 leads from level 0 to level 1.
    let game = ExplicitGame::new(vec![vec![1], vec![0, 2], vec![1]]);
    let solve =
        |levels: Vec<u32>| PerpetualCheck::new().layer_size(0).solve(&game.clone().with_levels(levels));
    assert_eq!(solve(vec![0, 1, 1]).err(), Some(SolveError::LevelRaised { from: 0, to: 1 }));
    assert_eq!(solve(vec![1, 0, 0]).err(), Some(SolveError::LevelRaised { from: 1, to: 0 }));
    // Levels that hold (one for the whole cycle) solve it: all drawn.
    let solution = solve(vec![3, 3, 3]).unwrap();
    assert!((0..3).all(|p| solution.value(p).is_some_and(|v| v.wdl() == Wdl::Draw)));
}

#[test]
fn the_certificate_refuses_wrong_values() {
    // A result by the rule turned into a draw, or into the other side's result, fails the
    // certificate; so does a chase result whose rank is zeroed.
    let mut tried = 0;
    for game in fixed_games(SHAPE, 300) {
        let solution = PerpetualCheck::new().solve(&game).unwrap();
        for p in 0..game.num_positions() {
            let Some(v) = solution.value(p).filter(|v| v.is_by_rule()) else { continue };
            for wrong in [RuleValue::Draw(None), -v] {
                let mutated = solution.with_value(p, wrong).unwrap();
                assert!(check_rule_solution(&game, &mutated).is_err(), "{p}: {v:?} -> {wrong:?}");
                for lookups in [Lookups::Solution, Lookups::Words] {
                    let refused = check_rule_solution_with(&game, &mutated, lookups);
                    assert!(refused.is_err(), "{p}: {v:?} -> {wrong:?} ({lookups:?})");
                }
            }
            tried += 1;
        }
    }
    assert!(tried > 100, "{tried}");
}

/// Over `count` of the fixed random games, forges the value of each position `forge` picks
/// (`Some`: the forged value) and asserts that the certificate refuses the solution so
/// changed; returns how many were forged.
fn refused_forgeries(
    count: usize,
    forge: impl Fn(&ExplicitGame, &RuleSolution, usize) -> Option<RuleValue>,
) -> usize {
    let mut tried = 0;
    for game in fixed_games(SHAPE, count) {
        let solution = PerpetualCheck::new().solve(&game).unwrap();
        for p in 0..game.num_positions() {
            let Some(forged) = forge(&game, &solution, p) else { continue };
            let mutated = solution.with_value(p, forged).unwrap();
            let was = solution.value(p);
            assert!(check_rule_solution(&game, &mutated).is_err(), "{p}: {was:?} -> {forged:?}");
            for lookups in [Lookups::Solution, Lookups::Words] {
                let refused = check_rule_solution_with(&game, &mutated, lookups);
                assert!(refused.is_err(), "{p}: {was:?} -> {forged:?} ({lookups:?})");
            }
            tried += 1;
        }
    }
    tried
}

#[test]
fn the_certificate_refuses_a_win_without_an_earlier_round() {
    // A win by the ban on perpetual check, not in check, must have a move to a loss by that
    // ban of a smaller rank *of an earlier round*. Give such a win the rank just above its
    // moves to losses, all of one round, in that round: every other condition still holds
    // (its rank only fell, which its predecessors accept), so only the rounds refuse it.
    let tried = refused_forgeries(2_000, |game, solution, p| {
        let Some(RuleValue::WinByRule(Ban::Check, rank)) = solution.value(p) else { return None };
        if game.in_check(p) {
            return None;
        }
        let mut witnesses = Vec::new();
        let mut known = false;
        game.for_each_move(p, |_, to| match to {
            Successor::Position(q) => {
                if let Some(RuleValue::LossByRule(Ban::Check, r)) = solution.value(q) {
                    witnesses.push(r);
                }
            }
            Successor::Known(_) => known = true,
        });
        let &top = witnesses.iter().max()?;
        let round = solution.round(top);
        let forged = top + 1;
        if known || witnesses.iter().any(|&r| solution.round(r) != round) || solution.round(forged) != round {
            return None;
        }
        assert!(forged < rank, "{p}: rank {rank}, moves to {witnesses:?}");
        Some(RuleValue::WinByRule(Ban::Check, forged))
    });
    assert!(tried > 20, "{tried}");
}

#[test]
fn the_certificate_refuses_a_loss_before_the_round_of_its_moves() {
    // From a loss by the ban on perpetual check every move must lead to a win of the opponent
    // in the loss's round or an earlier one. Give a loss, not in check, with a move to a win
    // by that ban of its own round, the largest rank of the round before: every other
    // condition still holds (not in check, its moves need no smaller rank; its rank only
    // fell, which the wins that move to it accept), so only the rounds refuse it (80 such
    // losses over 8,000 games; dropping the certificate's round condition fails it).
    let tried = refused_forgeries(8_000, |game, solution, p| {
        let Some(RuleValue::LossByRule(Ban::Check, rank)) = solution.value(p) else { return None };
        let round = solution.round(rank);
        if game.in_check(p) || round == 0 {
            return None;
        }
        let forged = solution.round_top(round - 1)?;
        let mut of_its_round = false;
        game.for_each_move(p, |_, to| {
            if let Successor::Position(q) = to
                && let Some(RuleValue::WinByRule(Ban::Check, r)) = solution.value(q)
            {
                of_its_round |= solution.round(r) == round;
            }
        });
        if !of_its_round {
            return None;
        }
        assert!(forged < rank, "{p}: rank {rank} of round {round}, forged {forged}");
        Some(RuleValue::LossByRule(Ban::Check, forged))
    });
    assert!(tried > 50, "{tried}");
}
