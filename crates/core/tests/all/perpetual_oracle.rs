//! The solver under the ban on perpetual check against a brute-force oracle on small random
//! graphs.
//!
//! The oracle is deliberately literal and shares nothing with the solver but the game:
//!
//! - Mates: the minimax equations iterated round by round (a win in `r` if some move reaches a
//!   loss in `r - 1`, a loss in `r` if every move reaches a win in less), where moves out of
//!   the index count with their mate values only.
//! - Wins of any kind, by **enumerating memoryless strategies**. A state is a node with who is
//!   to move (me or the opponent). For every choice of one move per node for *me* (moves that
//!   win at once are always taken, moves that cannot win never: both only shrink the
//!   enumeration), the graph the opponent still plays in is searched for an escape: a finite
//!   end that is not my win, a reachable cycle through a position where I am to move and not
//!   in check (the opponent stopped checking), or a reachable cycle that never passes a
//!   position where the opponent is to move and not in check (I check forever). I win from a
//!   state iff some strategy leaves no escape from it (memoryless strategies suffice for this
//!   one-pair Rabin objective). The side to move wins if its "me to move" state is won, loses
//!   if its "opponent to move" state is.
//! - What neither side wins is a draw; draws that can reach a drawn end get the shortest such
//!   distance by rounds again.

use crate::common::{
    Edge, Shape, any_game, edges, fixed_games, solver_agrees, union_over_strategies, values_of,
};
use endgame_core::conformance::check_rule_solution;
use endgame_core::explicit::ExplicitGame;
use endgame_core::line::perpetual::best_move;
use endgame_core::perpetual::{PerpetualCheck, RuleSolution};
use endgame_core::{Ban, Game, Plies, RuleValue, SolveError, Successor, Value};
use proptest::prelude::*;

/// The random games: up to 12 nodes, no chase labels.
const SHAPE: Shape = Shape { nodes: 12, check: 0.55, chase: 0.0, bans: &[Ban::Check] };

/// Whether a move's end (a value for the side to move after it) is a win for the player who
/// moves into it, when `mine` says whether that player is me.
fn good_end(next_mover_value: RuleValue, mover_is_me: bool) -> bool {
    use endgame_core::Wdl;
    if mover_is_me { next_mover_value.wdl() == Wdl::Loss } else { next_mover_value.wdl() == Wdl::Win }
}

/// The game on states `2 u + s` (`s = 0`: me to move at `u`, `1`: the opponent).
struct States {
    /// A finite end or a move out that is not my win (for me: my only choice is such).
    local_bad: Vec<bool>,
    /// The opponent's moves (for `s = 1`), or my options (`s = 0`): distinct target states.
    succ: Vec<Vec<usize>>,
    /// Me to move, not in check.
    e: Vec<bool>,
    /// The opponent to move, not in check.
    f: Vec<bool>,
}

fn states(game: &ExplicitGame) -> States {
    let n = game.num_positions();
    let mut st = States {
        local_bad: vec![false; 2 * n],
        succ: vec![Vec::new(); 2 * n],
        e: vec![false; 2 * n],
        f: vec![false; 2 * n],
    };
    for u in 0..n {
        if !game.is_position(u) {
            st.local_bad[2 * u] = true;
            st.local_bad[2 * u + 1] = true;
            continue;
        }
        let check = game.is_check(u);
        st.e[2 * u] = !check;
        st.f[2 * u + 1] = !check;
        if let Some(t) = game.terminal(u) {
            let t = RuleValue::from(t);
            // A finite end: mine if the mover (me at 2u) wins, or the mover (opponent) loses.
            st.local_bad[2 * u] = t.wdl() != endgame_core::Wdl::Win;
            st.local_bad[2 * u + 1] = t.wdl() != endgame_core::Wdl::Loss;
            continue;
        }
        let es = edges(game, u);
        // Me to move.
        if es.iter().any(|e| matches!(e, Edge::End(v) if good_end(*v, true))) {
            // I take the win at once: a good end, no successors.
        } else {
            let mut targets: Vec<usize> = es
                .iter()
                .filter_map(|e| if let Edge::To(q, _) = e { Some(2 * q + 1) } else { None })
                .collect();
            targets.sort_unstable();
            targets.dedup();
            if targets.is_empty() {
                st.local_bad[2 * u] = true;
            } else {
                st.succ[2 * u] = targets;
            }
        }
        // The opponent to move: every move is played.
        if es.is_empty() {
            continue; // the opponent has no move: my win
        }
        if es.iter().any(|e| matches!(e, Edge::End(v) if !good_end(*v, false))) {
            st.local_bad[2 * u + 1] = true;
        }
        let mut targets: Vec<usize> =
            es.iter().filter_map(|e| if let Edge::To(q, _) = e { Some(2 * q) } else { None }).collect();
        targets.sort_unstable();
        targets.dedup();
        st.succ[2 * u + 1] = targets;
    }
    st
}

/// The states from which every play of the graph `succ` (my choices fixed) is my win.
fn winning_with(st: &States, succ: &[Vec<usize>]) -> u32 {
    let k = succ.len();
    // reach[x]: states reachable in one or more steps; reach_nf[x]: the same through states
    // outside F only.
    let mut reach = vec![0u32; k];
    let mut reach_nf = vec![0u32; k];
    loop {
        let mut changed = false;
        for x in 0..k {
            let (mut r, mut rn) = (reach[x], reach_nf[x]);
            for &y in &succ[x] {
                r |= 1 << y | reach[y];
                if !st.f[y] {
                    rn |= 1 << y | reach_nf[y];
                }
            }
            if r != reach[x] || rn != reach_nf[x] {
                changed = true;
                reach[x] = r;
                reach_nf[x] = rn;
            }
        }
        if !changed {
            break;
        }
    }
    let mut escape = 0u32;
    for x in 0..k {
        let on_cycle = reach[x] >> x & 1 == 1;
        let on_cycle_outside_f = !st.f[x] && reach_nf[x] >> x & 1 == 1;
        if st.local_bad[x] || (st.e[x] && on_cycle) || on_cycle_outside_f {
            escape |= 1 << x;
        }
    }
    let mut won = 0u32;
    for x in 0..k {
        if (escape >> x & 1) == 0 && reach[x] & escape == 0 {
            won |= 1 << x;
        }
    }
    won
}

/// My winning states, by enumerating my memoryless strategies.
fn winning_region(st: &States) -> u32 {
    union_over_strategies(&st.succ, |succ| winning_with(st, succ))
}

fn oracle(game: &ExplicitGame) -> Vec<Option<RuleValue>> {
    let won = winning_region(&states(game));
    values_of(game, won, |_| Ban::Check)
}

/// Checks that the solver's best moves win: with them as my strategy everywhere, every play
/// from a position won (by mate or by the rule) for its side to move, and from a position lost
/// for its side to move with the opponent to move, is my win.
fn best_moves_win(game: &ExplicitGame, solution: &RuleSolution) -> Result<(), String> {
    let n = game.num_positions();
    let st = states(game);
    let mut succ = st.succ.clone();
    let mut local_bad = st.local_bad.clone();
    for u in 0..n {
        if !game.is_position(u) || game.terminal(u).is_some() || game.moves_of(u).is_empty() {
            continue;
        }
        let best = best_move(game, solution, u).expect("a move");
        match best.to {
            Successor::Position(q) => {
                succ[2 * u] = vec![2 * q + 1];
                local_bad[2 * u] = false;
            }
            Successor::Known(_) => {
                succ[2 * u] = Vec::new();
                local_bad[2 * u] = !good_end(game.known_rule_value(u, best.mv).unwrap(), true);
            }
        }
    }
    let fixed = States { local_bad, succ: Vec::new(), e: st.e.clone(), f: st.f.clone() };
    let won = winning_with(&fixed, &succ);
    for u in 0..n {
        let v = solution.value(u);
        let (state, side) = match v {
            Some(RuleValue::Win(_) | RuleValue::WinByRule(..)) => (2 * u, "the side to move"),
            Some(RuleValue::Loss(_) | RuleValue::LossByRule(..)) => (2 * u + 1, "the opponent"),
            _ => continue,
        };
        if won >> state & 1 == 0 {
            return Err(format!("position {u} ({v:?}): {side} plays the best moves and does not win"));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6000))]

    #[test]
    fn perpetual_check_agrees_with_the_oracle(game in any_game(SHAPE)) {
        let expected = oracle(&game);
        solver_agrees(&game, &expected, best_moves_win)?;
    }
}

#[test]
fn the_random_games_split_into_layers() {
    // The comparison of the layered solve means something: most games' draws split.
    let (mut games, mut split) = (0, 0);
    for game in fixed_games(SHAPE, 300) {
        let stats = PerpetualCheck::new().layer_size(0).solve(&game).unwrap().stats();
        if stats.plain_draws > 0 {
            games += 1;
            split += usize::from(stats.layers > 1);
        }
        let by_default = PerpetualCheck::new().solve(&game).unwrap().stats();
        assert_eq!(by_default.layers, u32::from(stats.plain_draws > 0));
    }
    assert!(split * 2 > games, "{split} of {games}");
}

#[test]
fn the_side_that_checks_forever_loses() {
    // 0 <-> 1; at 0 the side to move is in check: the side moving from 1 checks forever.
    let game = ExplicitGame::new(vec![vec![1], vec![0]]).with_check(0);
    let s = PerpetualCheck::new().solve(&game).unwrap();
    assert!(matches!(s.value(0), Some(RuleValue::WinByRule(..))));
    assert!(matches!(s.value(1), Some(RuleValue::LossByRule(..))));
    // Both check: a draw. Neither: a draw.
    for game in [
        ExplicitGame::new(vec![vec![1], vec![0]]).with_check(0).with_check(1),
        ExplicitGame::new(vec![vec![1], vec![0]]),
    ] {
        let s = PerpetualCheck::new().solve(&game).unwrap();
        assert_eq!(s.value(0), Some(RuleValue::Draw(None)));
        assert_eq!(s.value(1), Some(RuleValue::Draw(None)));
    }
}

#[test]
fn the_winner_must_leave_a_winning_cycle_to_win() {
    // 0 (me to move, in check) -> 1 or 2. 1: the opponent, not in check, must go to 0: the
    // opponent checks forever and I do not. 2: the opponent to move, in check (I checked),
    // goes back to 0. Staying in 0 -> 2 -> 0 (both check) is a draw; 0 -> 1 -> 0 wins.
    let game = ExplicitGame::new(vec![vec![2, 1], vec![0], vec![0]]).with_check(0).with_check(2);
    let s = PerpetualCheck::new().solve(&game).unwrap();
    assert!(matches!(s.value(0), Some(RuleValue::WinByRule(..))));
    assert_eq!(best_move(&game, &s, 0).unwrap().to, Successor::Position(1));
    assert_eq!(best_moves_win(&game, &s), Ok(()));
}

#[test]
fn a_mate_is_never_traded_for_a_rule_win() {
    // 0 can mate at once (known loss in 0) or enter a cycle it wins by the rule.
    let game = ExplicitGame::new(vec![vec![1], vec![0]]).with_check(0).with_known_move(0, Value::loss_in(0));
    let s = PerpetualCheck::new().solve(&game).unwrap();
    assert_eq!(s.value(0), Some(RuleValue::Win(Plies(1))));
    assert_eq!(s.value(1), Some(RuleValue::Loss(Plies(2))));
    let summary = s.summary();
    assert_eq!((summary.wins, summary.losses, summary.draws), (1, 1, 0));
}

#[test]
fn the_move_counts_are_bytes_and_a_draw_with_more_moves_is_refused() {
    // 0 moves to each of 1..=k, each moves back: all draws, 0 with k moves into the draws.
    // The rule's counts are bytes: 255 moves are solved, 256 refused (naming position 0).
    let star = |k: usize| {
        let mut moves = vec![(1..=k).collect::<Vec<_>>()];
        moves.extend((1..=k).map(|_| vec![0]));
        ExplicitGame::new(moves).with_check(0)
    };
    let s = PerpetualCheck::new().solve(&star(255)).unwrap();
    assert!(matches!(s.value(0), Some(RuleValue::WinByRule(..))));
    assert!(matches!(s.value(255), Some(RuleValue::LossByRule(..))));
    assert_eq!(check_rule_solution(&star(255), &s), Ok(()));
    assert_eq!(PerpetualCheck::new().solve(&star(256)).unwrap_err(), SolveError::TooManyMoves(0));
}
