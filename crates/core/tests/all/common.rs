//! What the oracle tests of the bans on perpetual play share (`perpetual_oracle.rs`,
//! `chase_oracle.rs`): random games with check marks and chase labels, the oracle's view of a
//! move, mates and draw distances by rounds, and the enumeration of memoryless strategies.
//! Like the oracles, these share nothing with the solver but the game; the last helper,
//! [`solver_agrees`], holds the solver's settings against an oracle's values.

use endgame_core::conformance::{Lookups, check_rule_solution, check_rule_solution_with};
use endgame_core::explicit::ExplicitGame;
use endgame_core::perpetual::{PerpetualCheck, RuleSolution};
use endgame_core::{Ban, Game, Plies, Retrograde, RuleValue, Successor, Value, Wdl};
use proptest::prelude::*;
use proptest::strategy::ValueTree;

/// At most this many strategies per game (the generator trims moves to stay below).
pub const MAX_STRATEGIES: usize = 4096;

/// The levels of a move's label.
pub const IDLE: u8 = 0;
pub const CHASE: u8 = 1;
pub const CHECK: u8 = 2;

/// A move as the oracle sees it: to a node with its level (a move into a position in check is
/// a check, else a chase when the game labels it so, else idle), or an end with its value for
/// the side to move there.
#[derive(Clone, Copy)]
#[allow(dead_code, reason = "perpetual_oracle.rs reads no levels")]
pub enum Edge {
    To(usize, u8),
    End(RuleValue),
}

pub fn edges(game: &ExplicitGame, u: usize) -> Vec<Edge> {
    game.moves_of(u)
        .iter()
        .enumerate()
        .map(|(mv, s)| match *s {
            Successor::Position(q) if game.is_check(q) => Edge::To(q, CHECK),
            Successor::Position(q) if game.is_chase_move(u, mv) => Edge::To(q, CHASE),
            Successor::Position(q) => Edge::To(q, IDLE),
            Successor::Known(_) => Edge::End(game.known_rule_value(u, mv).unwrap()),
        })
        .collect()
}

/// Mate values by rounds: the minimax equations iterated round by round (a win in `r` if some
/// move reaches a loss in `r - 1`, a loss in `r` if every move reaches a win in less), moves
/// out of the index counting with their mate values only (`None`: no forced mate either way).
pub fn mates(game: &ExplicitGame) -> Vec<Option<RuleValue>> {
    let n = game.num_positions();
    let mut value: Vec<Option<RuleValue>> = vec![None; n];
    for u in 0..n {
        if game.is_position(u) {
            value[u] = match game.terminal(u) {
                Some(t) => Some(t.into()),
                None if game.moves_of(u).is_empty() => Some(RuleValue::Loss(Plies(0))),
                None => None,
            };
        }
    }
    let fixed: Vec<bool> = value.iter().map(Option::is_some).collect();
    for r in 1..=(2 * n + 10) as u32 {
        let before = value.clone();
        for u in 0..n {
            if !game.is_position(u) || fixed[u] || before[u].is_some() {
                continue;
            }
            let children: Vec<Option<RuleValue>> = edges(game, u)
                .into_iter()
                .map(|e| match e {
                    Edge::To(q, _) => before[q],
                    Edge::End(v) => Some(v),
                })
                .collect();
            if children.iter().any(|c| *c == Some(RuleValue::Loss(Plies(r - 1)))) {
                value[u] = Some(RuleValue::Win(Plies(r)));
            } else if children.iter().all(|c| matches!(c, Some(RuleValue::Win(d)) if d.0 < r)) {
                value[u] = Some(RuleValue::Loss(Plies(r)));
            }
        }
    }
    // Terminal draws and the undecided are no mates.
    value.iter().map(|v| v.filter(|v| matches!(v, RuleValue::Win(_) | RuleValue::Loss(_)))).collect()
}

/// The oracle's values from the winning region `won` (bit `2 u`: the side to move at `u` wins,
/// bit `2 u + 1`: the other side does): terminal values, mates (which must agree with `won`),
/// results by the rule of the ban `ban(state)` (rank 0) for the rest of `won`, and draws.
pub fn values_of(game: &ExplicitGame, won: u32, ban: impl Fn(usize) -> Ban) -> Vec<Option<RuleValue>> {
    let n = game.num_positions();
    let mate = mates(game);
    let mut value: Vec<Option<RuleValue>> = vec![None; n];
    for u in 0..n {
        if !game.is_position(u) {
            continue;
        }
        let (mine, theirs) = (won >> (2 * u) & 1 == 1, won >> (2 * u + 1) & 1 == 1);
        assert!(!(mine && theirs), "the oracle lets both sides win at {u}");
        value[u] = match (game.terminal(u), mate[u]) {
            (Some(t), _) => Some(t.into()),
            (None, Some(m)) => {
                assert_eq!(m.wdl() == Wdl::Win, mine, "oracle: mate and strategy disagree at {u}");
                Some(m)
            }
            (None, None) if mine => Some(RuleValue::WinByRule(ban(2 * u), 0)),
            (None, None) if theirs => Some(RuleValue::LossByRule(ban(2 * u + 1), 0)),
            (None, None) => None,
        };
    }
    with_draws(game, value)
}

/// `value` with the draws filled in: every position left `None` is a draw, with the shortest
/// distance through draws to a drawn end (by rounds) when it can reach one.
pub fn with_draws(game: &ExplicitGame, mut value: Vec<Option<RuleValue>>) -> Vec<Option<RuleValue>> {
    let n = game.num_positions();
    let draws: Vec<usize> = (0..n).filter(|&u| game.is_position(u) && value[u].is_none()).collect();
    for r in 1..=(n + 10) as u32 {
        let before = value.clone();
        for &u in &draws {
            if before[u].is_none()
                && edges(game, u).into_iter().any(|e| {
                    let child = match e {
                        Edge::To(q, _) => before[q],
                        Edge::End(v) => Some(v),
                    };
                    child == Some(RuleValue::Draw(Some(Plies(r - 1))))
                })
            {
                value[u] = Some(RuleValue::Draw(Some(Plies(r))));
            }
        }
    }
    for &u in &draws {
        value[u].get_or_insert(RuleValue::Draw(None));
    }
    value
}

/// The union over my memoryless strategies of what `won_with` says I win with each: on states
/// `2 u + s` (`s = 0`: me to move), a strategy keeps one of the moves `succ` lists for each of
/// my states (the others' moves all stay).
pub fn union_over_strategies<T: Clone>(succ: &[Vec<T>], mut won_with: impl FnMut(&[Vec<T>]) -> u32) -> u32 {
    let choosers: Vec<usize> =
        (0..succ.len()).filter(|&x| x.is_multiple_of(2) && succ[x].len() > 1).collect();
    let mut pick = vec![0usize; choosers.len()];
    let mut won = 0u32;
    loop {
        let mut fixed = succ.to_vec();
        for (c, &x) in choosers.iter().enumerate() {
            fixed[x] = vec![succ[x][pick[c]].clone()];
        }
        won |= won_with(&fixed);
        // The next strategy (an odometer).
        let mut c = 0;
        while c < choosers.len() {
            pick[c] += 1;
            if pick[c] < succ[choosers[c]].len() {
                break;
            }
            pick[c] = 0;
            c += 1;
        }
        if c == choosers.len() {
            return won;
        }
    }
}

pub fn any_plain_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        (0u32..4).prop_map(Value::win_in),
        (0u32..4).prop_map(Value::loss_in),
        (0u32..3).prop_map(|d| Value::Draw(Some(Plies(d)))),
        Just(Value::Draw(None)),
    ]
}

/// A value under the rule of a move out of the index: a plain value, or a result of one of
/// `bans`.
pub fn any_rule_value(bans: &[Ban]) -> impl Strategy<Value = RuleValue> + use<> {
    let ban = prop::sample::select(bans.to_vec());
    prop_oneof![
        any_plain_value().prop_map(RuleValue::from),
        (ban.clone(), 0u32..5).prop_map(|(b, r)| RuleValue::WinByRule(b, r)),
        (ban, 0u32..5).prop_map(|(b, r)| RuleValue::LossByRule(b, r)),
    ]
}

/// The shape of the random games.
#[derive(Clone, Copy)]
pub struct Shape {
    /// At most this many nodes.
    pub nodes: usize,
    /// How often a node is in check.
    pub check: f64,
    /// How often a move is labelled a chase (0: never).
    pub chase: f64,
    /// The bans of the moves out's results by the rule.
    pub bans: &'static [Ban],
}

/// `count` random games of `shape`, the same ones on every run (proptest's deterministic
/// runner): for the tests that count or mutate over many games rather than shrink one.
pub fn fixed_games(shape: Shape, count: usize) -> impl Iterator<Item = ExplicitGame> {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let games = any_game(shape);
    (0..count).map(move |_| games.new_tree(&mut runner).unwrap().current())
}

/// A random game of up to `shape.nodes` nodes: check marks, chase labels on moves, holes,
/// terminal values, moves (cycles and repeated moves included) and moves out with values under
/// the rule. Moves are trimmed so that the oracle enumerates at most [`MAX_STRATEGIES`]
/// strategies.
pub fn any_game(shape: Shape) -> impl Strategy<Value = ExplicitGame> {
    (1usize..=shape.nodes).prop_flat_map(move |n| {
        let node = (
            prop::collection::vec((0..n, prop::bool::weighted(shape.chase)), 0..5),
            prop::option::weighted(0.08, any_plain_value()),
            prop::option::weighted(0.25, any_rule_value(shape.bans)),
            prop::bool::weighted(shape.check),
            prop::bool::weighted(0.05),
        );
        prop::collection::vec(node, n).prop_map(move |nodes| {
            let holes: Vec<bool> = nodes.iter().enumerate().map(|(i, node)| node.4 && i > 0).collect();
            let mut product = 1usize;
            let mut chases = Vec::new();
            let edges: Vec<Vec<usize>> = nodes
                .iter()
                .enumerate()
                .map(|(u, (targets, ..))| {
                    let mut list: Vec<(usize, bool)> = Vec::new();
                    let mut distinct = 0usize;
                    for &(q, chase) in targets {
                        if holes[q] {
                            continue;
                        }
                        // Distinct options of a node (target and label): their product bounds
                        // the strategies.
                        if !list.contains(&(q, chase)) {
                            let grown = product / distinct.max(1) * (distinct + 1);
                            if grown > MAX_STRATEGIES {
                                continue;
                            }
                            product = grown;
                            distinct += 1;
                        }
                        list.push((q, chase));
                    }
                    for (mv, &(_, chase)) in list.iter().enumerate() {
                        if chase {
                            chases.push((u, mv));
                        }
                    }
                    list.into_iter().map(|(q, _)| q).collect()
                })
                .collect();
            let mut game = ExplicitGame::new(edges);
            for (u, mv) in chases {
                game = game.with_chase(u, mv);
            }
            for (p, (_, terminal, known, check, _)) in nodes.into_iter().enumerate() {
                if holes[p] {
                    game = game.with_hole(p);
                    continue;
                }
                if let Some(v) = terminal {
                    game = game.with_terminal(p, v);
                }
                if let Some(v) = known {
                    game = game.with_known_rule_move(p, v);
                }
                if check {
                    game = game.with_check(p);
                }
            }
            game
        })
    })
}

/// The solver under the rule against `expected` (an oracle's values, ranks aside) at every
/// position of `game`, in each of its settings (compact cells, un-moves instead of predecessor
/// lists, lists of some draws only or of the chase stage only: the same values and ranks;
/// every level of the draws' components a layer of its own, or the game's levels with or
/// without room for their lists: the same values, other ranks);
/// the plain game's mates kept; and, for the default and the layered solves, `best_moves_win`
/// (the oracle's check of the best moves) and the certificate.
pub fn solver_agrees(
    game: &ExplicitGame,
    expected: &[Option<RuleValue>],
    best_moves_win: impl Fn(&ExplicitGame, &RuleSolution) -> Result<(), String>,
) -> Result<(), TestCaseError> {
    let solution = PerpetualCheck::new().solve(game).unwrap();
    let compact = PerpetualCheck::new().compact(true).solve(game).unwrap();
    // Without predecessor lists the passes generate (labelled) un-moves.
    let unmoves = PerpetualCheck::new().edge_budget(0).chase_room(0).solve(game).unwrap();
    // Without the check stage's lists, the chase stage's in the room the check stage leaves
    // (as in a generation within its least memory).
    let least = PerpetualCheck::new().edge_budget(0).chase_room(64).solve(game).unwrap();
    // With the check stage's lists of the first draws only, as when its budget holds no more:
    // its passes generate the others' un-moves.
    let partial = [1, 3].map(|draws| PerpetualCheck::new().listed_draws(draws).solve(game).unwrap());
    // These games are smaller than a layer by default. The chase stage searches its own
    // layers or keeps the check stage's by the share of draws the check stage decided: both
    // ways forced besides.
    let layered = PerpetualCheck::new().layer_size(0).solve(game).unwrap();
    let searched = PerpetualCheck::new().layer_size(0).search_share(0).solve(game).unwrap();
    let kept = PerpetualCheck::new().layer_size(0).search_share(u32::MAX).solve(game).unwrap();
    // A game that says its moves can be taken back: its check stage in one layer (with
    // lists), its chase stage layered.
    let reversible = PerpetualCheck::new().layer_size(0).solve(&game.clone().reversible()).unwrap();
    // A game that gives levels no move raises: both stages layered by them, no search.
    let leveled = game.clone().with_levels(reach_levels(game));
    let by_levels = PerpetualCheck::new().layer_size(0).solve(&leveled).unwrap();
    // The same without room for the lists of its layers: back to one layer, un-moves.
    let by_levels_unlisted =
        PerpetualCheck::new().layer_size(0).edge_budget(1).chase_room(0).solve(&leveled).unwrap();
    let plain = Retrograde::new().solve(game).unwrap();
    for p in 0..game.num_positions() {
        let got = solution.value(p).map(RuleValue::without_rank);
        prop_assert_eq!(got, expected[p], "position {}", p);
        prop_assert_eq!(compact.value(p), solution.value(p), "position {} (compact)", p);
        prop_assert_eq!(unmoves.value(p), solution.value(p), "position {} (un-moves)", p);
        prop_assert_eq!(least.value(p), solution.value(p), "position {} (the chase stage's lists only)", p);
        for (partial, draws) in partial.iter().zip([1, 3]) {
            prop_assert_eq!(partial.value(p), solution.value(p), "position {} ({} draws listed)", p, draws);
        }
        prop_assert_eq!(layered.value(p).map(RuleValue::without_rank), got, "position {} (layers)", p);
        prop_assert_eq!(
            searched.value(p).map(RuleValue::without_rank),
            got,
            "position {} (searched layers)",
            p
        );
        prop_assert_eq!(kept.value(p).map(RuleValue::without_rank), got, "position {} (kept layers)", p);
        prop_assert_eq!(reversible.value(p).map(RuleValue::without_rank), got, "position {} (reversible)", p);
        prop_assert_eq!(
            by_levels.value(p).map(RuleValue::without_rank),
            got,
            "position {} (game's levels)",
            p
        );
        prop_assert_eq!(
            by_levels_unlisted.value(p).map(RuleValue::without_rank),
            got,
            "position {} (game's levels, no room for lists)",
            p
        );
        if let Some(v @ (Value::Win(_) | Value::Loss(_))) = plain.value(p) {
            prop_assert_eq!(solution.value(p), Some(RuleValue::from(v)), "position {} changed its mate", p);
        }
    }
    prop_assert_eq!(best_moves_win(game, &solution), Ok(()));
    prop_assert_eq!(check_rule_solution(game, &solution), Ok(()));
    for lookups in [Lookups::Solution, Lookups::Words] {
        prop_assert_eq!(check_rule_solution_with(game, &solution, lookups), Ok(()));
    }
    prop_assert_eq!(best_moves_win(game, &layered), Ok(()));
    prop_assert_eq!(check_rule_solution(game, &layered), Ok(()));
    prop_assert_eq!(check_rule_solution(game, &searched), Ok(()));
    prop_assert_eq!(check_rule_solution(game, &kept), Ok(()));
    prop_assert_eq!(check_rule_solution(&game.clone().reversible(), &reversible), Ok(()));
    prop_assert_eq!(check_rule_solution(&leveled, &by_levels), Ok(()));
    prop_assert_eq!(check_rule_solution(&leveled, &by_levels_unlisted), Ok(()));
    // The certificate compares rounds by their largest ranks: a rank is of round `k` or an
    // earlier one iff it is at most round `k`'s largest (or `k` is past the last round).
    let ranks: Vec<u32> = (0..game.num_positions())
        .filter_map(|p| match solution.value(p) {
            Some(RuleValue::WinByRule(Ban::Check, r) | RuleValue::LossByRule(Ban::Check, r)) => Some(r),
            _ => None,
        })
        .collect();
    let rounds = ranks.iter().map(|&r| solution.round(r)).max().map_or(0, |k| k + 2);
    for &r in &ranks {
        for k in 0..rounds {
            let by_top = solution.round_top(k).is_none_or(|top| r <= top);
            prop_assert_eq!(solution.round(r) <= k, by_top, "rank {} and round {}", r, k);
        }
    }
    Ok(())
}

/// Levels that no move raises: how many positions each reaches (itself included; a move's
/// target reaches a subset of what its source reaches). They split a game with cycles about as
/// its strongly connected components do, found without a search for them.
pub fn reach_levels(game: &ExplicitGame) -> Vec<u32> {
    let n = game.num_positions();
    (0..n)
        .map(|start| {
            let mut seen = vec![false; n];
            let mut stack = vec![start];
            seen[start] = true;
            while let Some(p) = stack.pop() {
                if game.terminal(p).is_some() {
                    continue;
                }
                game.for_each_move(p, |_, to| {
                    if let Successor::Position(q) = to
                        && !seen[q]
                    {
                        seen[q] = true;
                        stack.push(q);
                    }
                });
            }
            seen.iter().filter(|&&s| s).count() as u32
        })
        .collect()
}
