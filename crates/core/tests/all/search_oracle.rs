//! The shortest-win search against a plain breadth-first search on random puzzles.
//!
//! A puzzle: a walk on a random directed graph with hit points. Every move costs 0 to 2 HP
//! (at 0 HP the walker has lost); some moves win, some lose. Nodes come in twins `2i`, `2i+1`
//! whose moves are images of each other under swapping every twin pair, so the swap is a
//! symmetry. The dominance key is the node (more HP never hurts) and the bound is the number of
//! moves to the nearest winning move, ignoring HP.

use std::collections::{HashSet, VecDeque};

use endgame_core::{Pruning, Puzzle, Step, shortest_win};
use proptest::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Next,
    Won,
    Lost,
}

#[derive(Clone, Debug)]
struct Walk {
    /// `moves[node]` = (target, cost, kind).
    moves: Vec<Vec<(usize, u32, Kind)>>,
    start: (usize, u32),
    /// Moves to the nearest winning move, ignoring HP (`u32::MAX` when there is none).
    to_win: Vec<u32>,
}

fn twin(node: usize) -> usize {
    node ^ 1
}

impl Walk {
    fn new(even: Vec<Vec<(usize, u32, Kind)>>, start: (usize, u32)) -> Walk {
        let mut moves = Vec::new();
        for list in even {
            moves.push(list.clone());
            moves.push(list.into_iter().map(|(to, cost, kind)| (twin(to), cost, kind)).collect());
        }
        let n = moves.len();
        let mut to_win = vec![u32::MAX; n];
        for _ in 0..=n {
            for v in 0..n {
                for &(to, _, kind) in &moves[v] {
                    let d = match kind {
                        Kind::Won => 1,
                        Kind::Next if to_win[to] != u32::MAX => to_win[to] + 1,
                        _ => continue,
                    };
                    to_win[v] = to_win[v].min(d);
                }
            }
        }
        Walk { moves, start, to_win }
    }

    fn step(&self, (node, hp): (usize, u32), action: usize) -> Step<(usize, u32)> {
        let (to, cost, kind) = self.moves[node][action];
        match kind {
            Kind::Won => Step::Won,
            Kind::Lost => Step::Lost,
            Kind::Next if cost >= hp => Step::Lost,
            Kind::Next => Step::Next((to, hp - cost)),
        }
    }

    /// Plain BFS over full states: the fewest moves to a win within `limit`.
    fn oracle(&self, limit: u32) -> Option<u32> {
        let mut seen = HashSet::from([self.start]);
        let mut queue = VecDeque::from([(self.start, 0u32)]);
        while let Some((state, t)) = queue.pop_front() {
            if t == limit {
                continue;
            }
            for action in 0..self.moves[state.0].len() {
                match self.step(state, action) {
                    Step::Won => return Some(t + 1),
                    Step::Lost => {}
                    Step::Next(next) => {
                        if seen.insert(next) {
                            queue.push_back((next, t + 1));
                        }
                    }
                }
            }
        }
        None
    }
}

impl Puzzle for Walk {
    type State = (usize, u32);
    type Action = usize;
    type Key = usize;

    fn start(&self) -> (usize, u32) {
        self.start
    }

    fn for_each_action(&self, state: &(usize, u32), mut f: impl FnMut(usize, Step<(usize, u32)>)) {
        for action in 0..self.moves[state.0].len() {
            f(action, self.step(*state, action));
        }
    }

    fn canonical(&self, (node, hp): (usize, u32)) -> (usize, u32) {
        (node.min(twin(node)), hp)
    }

    fn dominance_key(&self, &(node, hp): &(usize, u32)) -> (usize, u64) {
        (node, u64::from(hp))
    }

    fn lower_bound(&self, &(node, _): &(usize, u32)) -> u32 {
        self.to_win[node]
    }
}

fn any_walk() -> impl Strategy<Value = Walk> {
    (2usize..9).prop_flat_map(|pairs| {
        let n = 2 * pairs;
        let kind = prop_oneof![8 => Just(Kind::Next), 1 => Just(Kind::Won), 1 => Just(Kind::Lost)];
        let edge = (0..n, 0u32..4, kind);
        (prop::collection::vec(prop::collection::vec(edge, 1..5), pairs), 0..n, 1u32..12)
            .prop_map(|(even, node, hp)| Walk::new(even, (node, hp)))
    })
}

/// Replays a plan through the rules (in canonical states, as the search took it).
fn replays_to_a_win(walk: &Walk, plan: &[usize]) -> bool {
    let mut state = walk.canonical(walk.start);
    for (i, &action) in plan.iter().enumerate() {
        match walk.step(state, action) {
            Step::Won => return i + 1 == plan.len(),
            Step::Lost => return false,
            Step::Next(next) => state = walk.canonical(next),
        }
    }
    false
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn every_pruning_agrees_with_plain_bfs(walk in any_walk(), limit in 0u32..12) {
        let expected = walk.oracle(limit);
        for symmetry in [false, true] {
            for dominance in [false, true] {
                for bound in [false, true] {
                    let pruning = Pruning { symmetry, dominance, bound };
                    let result = shortest_win(&walk, limit, pruning);
                    let steps = result.plan.as_ref().map(|p| p.len() as u32);
                    prop_assert_eq!(steps, expected, "{:?}", pruning);
                    if let Some(plan) = &result.plan {
                        prop_assert!(replays_to_a_win(&walk, plan), "{:?}: plan {:?}", pruning, plan);
                    }
                    // A flag nobody sets changes nothing.
                    let flagged = endgame_core::shortest_win_cancellable(
                        &walk, limit, pruning, u64::MAX, &mut |_| {}, &std::sync::atomic::AtomicBool::new(false),
                    ).unwrap();
                    prop_assert_eq!(flagged.plan, result.plan);
                    prop_assert_eq!(flagged.stats, result.stats);
                }
            }
        }
    }
}

#[test]
fn pruning_keeps_fewer_states() {
    // A ring of 6 twin pairs with costly moves; the win is far away.
    let mut even = Vec::new();
    for i in 0..6 {
        let next = 2 * ((i + 1) % 6);
        even.push(vec![(next, 0, Kind::Next), (next + 1, 1, Kind::Next)]);
    }
    even[5].push((0, 0, Kind::Won));
    let walk = Walk::new(even, (0, 5));
    let plain = shortest_win(&walk, 10, Pruning::NONE);
    let pruned = shortest_win(&walk, 10, Pruning::ALL);
    assert_eq!(plain.plan.as_ref().map(Vec::len), Some(6));
    assert_eq!(pruned.plan.as_ref().map(Vec::len), Some(6));
    assert!(pruned.stats.states < plain.stats.states, "{:?} vs {:?}", pruned.stats, plain.stats);
}

#[test]
fn a_state_limit_stops_the_search_cleanly() {
    // A ring with no win: the search would store every (node, hp) it reaches.
    let even: Vec<Vec<(usize, u32, Kind)>> = (0..6)
        .map(|i| vec![(2 * ((i + 1) % 6), 0, Kind::Next), (2 * ((i + 2) % 6) + 1, 1, Kind::Next)])
        .collect();
    let walk = Walk::new(even, (0, 30));
    let unlimited = endgame_core::shortest_win(&walk, 40, Pruning::NONE);
    assert!(unlimited.plan.is_none() && unlimited.stats.states > 20);
    let stopped = endgame_core::shortest_win_within(&walk, 40, Pruning::NONE, 20).unwrap_err();
    assert_eq!(stopped.max_states, 20);
    assert!(stopped.stats.states > 20);
    let enough = endgame_core::shortest_win_within(&walk, 40, Pruning::NONE, unlimited.stats.states).unwrap();
    assert_eq!(enough.stats, unlimited.stats);
}

#[test]
fn progress_is_reported_after_every_layer() {
    let even: Vec<Vec<(usize, u32, Kind)>> = (0..6)
        .map(|i| vec![(2 * ((i + 1) % 6), 0, Kind::Next), (2 * ((i + 2) % 6) + 1, 1, Kind::Next)])
        .collect();
    let walk = Walk::new(even, (0, 30));
    let mut seen = Vec::new();
    let result =
        endgame_core::shortest_win_observed(&walk, 40, Pruning::NONE, u64::MAX, &mut |s| seen.push(*s))
            .unwrap();
    assert_eq!(result.stats, endgame_core::shortest_win(&walk, 40, Pruning::NONE).stats);
    // At most one report per layer (no expansion count reached 2^16 here), counting up.
    assert!(!seen.is_empty() && seen.len() as u32 <= result.stats.layers, "{seen:?}");
    assert!(seen.windows(2).all(|w| w[0].states <= w[1].states && w[0].layers < w[1].layers));
    assert!(seen.last().unwrap().states <= result.stats.states);
    // One layer is "1 layer".
    let stopped = endgame_core::shortest_win_within(&walk, 40, Pruning::NONE, 1).unwrap_err();
    assert_eq!(stopped.stats.layers, 1);
    assert!(stopped.to_string().contains("states in 1 layer without"), "{stopped}");
}

/// An endless binary tree without a win: every state has two children.
struct Tree;

impl Puzzle for Tree {
    type State = u64;
    type Action = u8;
    type Key = u64;
    fn start(&self) -> u64 {
        1
    }
    fn for_each_action(&self, &state: &u64, mut f: impl FnMut(u8, Step<u64>)) {
        f(0, Step::Next(2 * state));
        f(1, Step::Next(2 * state + 1));
    }
    fn dominance_key(&self, &state: &u64) -> (u64, u64) {
        (state, 0)
    }
}

#[test]
fn a_cancelled_search_stops_within_one_block() {
    use endgame_core::{CANCEL_EVERY, Stopped, shortest_win_cancellable};
    use std::sync::atomic::{AtomicBool, Ordering};
    // Set before the start: it stops at the first check.
    let cancel = AtomicBool::new(true);
    let stopped =
        shortest_win_cancellable(&Tree, 40, Pruning::ALL, u64::MAX, &mut |_| {}, &cancel).unwrap_err();
    let Stopped::Cancelled(stats) = stopped else { panic!("{stopped:?}") };
    assert_eq!(stats.expanded, CANCEL_EVERY);
    assert!(stopped.to_string().starts_with("the search was stopped after storing"), "{stopped}");
    // Set from elsewhere mid-search (here by the progress report of layer 12, 4,095 states
    // expanded): it stops within CANCEL_EVERY more expansions.
    let cancel = AtomicBool::new(false);
    let mut at = None;
    let stopped = shortest_win_cancellable(
        &Tree,
        40,
        Pruning::ALL,
        u64::MAX,
        &mut |s| {
            if s.layers == 12 && at.is_none() {
                at = Some(s.expanded);
                cancel.store(true, Ordering::Relaxed);
            }
        },
        &cancel,
    )
    .unwrap_err();
    let Stopped::Cancelled(stats) = stopped else { panic!("{stopped:?}") };
    let at = at.unwrap();
    assert!(stats.expanded > at && stats.expanded <= at + CANCEL_EVERY, "{at} then {stats:?}");
    // Without the flag, a state limit still stops it as before.
    let stopped =
        shortest_win_cancellable(&Tree, 40, Pruning::ALL, 5000, &mut |_| {}, &AtomicBool::new(false))
            .unwrap_err();
    assert!(matches!(stopped, Stopped::TooManyStates(e) if e.max_states == 5000), "{stopped:?}");
}
