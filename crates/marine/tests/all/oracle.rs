//! The solver against an independent brute force on thousands of random small battles.
//!
//! The brute force below shares no code with the crate: its own grid, its own breadth-first
//! distances computed afresh for every zergling step, its own rules, and a plain breadth-first
//! search over full states (dead zerglings keep their last cell, the marine's HP is part of the
//! state, no symmetry, no dominance, no bound). It also replays every plan the solver returns.

use std::collections::{HashSet, VecDeque};

use endgame_core::search::Pruning;
use endgame_marine::{Action, Battle, Direction, Setup, Unit};
use proptest::prelude::*;

type Pos = (usize, usize);

#[derive(Clone, Debug)]
struct Case {
    open: Vec<Vec<bool>>,
    marine: Pos,
    marine_hp: i32,
    zerglings: Vec<(Pos, i32)>,
    limit: u32,
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Full {
    marine: Pos,
    hp: i32,
    zerglings: Vec<(Pos, i32)>,
}

enum Act {
    Step(i32, i32),
    Fire(usize),
}

const STEPS: [(i32, i32); 4] = [(0, -1), (-1, 0), (0, 1), (1, 0)]; // left, up, right, down

impl Case {
    fn at(&self, p: Pos, d: (i32, i32)) -> Option<Pos> {
        let (r, c) = (p.0 as i32 + d.0, p.1 as i32 + d.1);
        if r < 0 || c < 0 || r as usize >= self.open.len() || c as usize >= self.open[0].len() {
            return None;
        }
        let q = (r as usize, c as usize);
        self.open[q.0][q.1].then_some(q)
    }

    fn distances(&self, from: Pos) -> Vec<Vec<Option<u32>>> {
        let mut dist = vec![vec![None; self.open[0].len()]; self.open.len()];
        dist[from.0][from.1] = Some(0);
        let mut queue = VecDeque::from([from]);
        while let Some(p) = queue.pop_front() {
            for d in STEPS {
                if let Some(q) = self.at(p, d)
                    && dist[q.0][q.1].is_none()
                {
                    dist[q.0][q.1] = Some(dist[p.0][p.1].unwrap() + 1);
                    queue.push_back(q);
                }
            }
        }
        dist
    }

    /// `None`: illegal; `Some(None)`: won; `Some(Some(s))`: the next state (possibly dead).
    fn round(&self, s: &Full, act: &Act) -> Option<Option<Full>> {
        let mut n = s.clone();
        match *act {
            Act::Step(dr, dc) => {
                let to = self.at(s.marine, (dr, dc))?;
                if s.zerglings.iter().any(|&(p, hp)| hp > 0 && p == to) {
                    return None;
                }
                n.marine = to;
            }
            Act::Fire(i) => {
                if n.zerglings[i].1 <= 0 {
                    return None;
                }
                n.zerglings[i].1 -= 1;
                if n.zerglings.iter().all(|z| z.1 <= 0) {
                    return Some(None);
                }
            }
        }
        let dist = self.distances(n.marine);
        let mut from = Vec::new();
        let before = n.zerglings.clone();
        for (k, &(p, hp)) in before.iter().enumerate() {
            if hp <= 0 {
                continue;
            }
            let manhattan = p.0.abs_diff(n.marine.0) + p.1.abs_diff(n.marine.1);
            if manhattan == 1 {
                if !from.contains(&p) {
                    from.push(p);
                }
            } else if let Some(here) = dist[p.0][p.1] {
                let step =
                    STEPS.iter().filter_map(|&d| self.at(p, d)).find(|q| dist[q.0][q.1] == Some(here - 1));
                n.zerglings[k].0 = step.unwrap();
            }
        }
        n.hp -= from.len() as i32;
        Some(Some(n))
    }

    fn actions(&self, s: &Full) -> Vec<Act> {
        let mut acts: Vec<Act> = STEPS.iter().map(|&(r, c)| Act::Step(r, c)).collect();
        acts.extend((0..s.zerglings.len()).map(Act::Fire));
        acts
    }

    fn start(&self) -> Full {
        Full { marine: self.marine, hp: self.marine_hp, zerglings: self.zerglings.clone() }
    }

    /// Plain BFS: the fewest rounds to win, or `None`.
    fn brute_force(&self) -> Option<u32> {
        let mut seen = HashSet::from([self.start()]);
        let mut layer = vec![self.start()];
        for t in 1..=self.limit {
            let mut next = Vec::new();
            for s in &layer {
                for act in self.actions(s) {
                    match self.round(s, &act) {
                        Some(None) => return Some(t),
                        Some(Some(n)) if n.hp > 0 && seen.insert(n.clone()) => next.push(n),
                        _ => {}
                    }
                }
            }
            layer = next;
        }
        None
    }

    fn battle(&self) -> Battle {
        let (rows, cols) = (self.open.len(), self.open[0].len());
        let wall = self.open.iter().flatten().map(|o| !o).collect();
        let map = endgame_marine::Map::new(rows, cols, wall).unwrap();
        let cell = |p: Pos| map.cell(p.0, p.1).unwrap();
        let zerglings = self
            .zerglings
            .iter()
            .enumerate()
            .map(|(i, &(p, hp))| Unit { label: (b'a' + i as u8) as char, cell: cell(p), hp: hp as u8 })
            .collect();
        let setup = Setup { marine: cell(self.marine), marine_hp: self.marine_hp as u16, zerglings, map };
        Battle::new(setup).unwrap()
    }

    /// Replays a plan with the brute force's rules: does it win in exactly its length?
    fn plan_wins(&self, plan: &[Action]) -> bool {
        let mut s = self.start();
        for (i, a) in plan.iter().enumerate() {
            let act = match *a {
                Action::Move(d) => {
                    let k = Direction::ALL.iter().position(|&x| x == d).unwrap();
                    Act::Step(STEPS[k].0, STEPS[k].1)
                }
                Action::Shoot(k) => Act::Fire(k.into()),
            };
            match self.round(&s, &act) {
                Some(None) => return i + 1 == plan.len(),
                Some(Some(n)) if n.hp > 0 => s = n,
                _ => return false,
            }
        }
        false
    }
}

fn case(
    max_side: usize,
    max_zerglings: usize,
    max_hp: i32,
    max_marine_hp: i32,
) -> impl Strategy<Value = Case> {
    (1..=max_side, 2..=max_side, 1..=max_zerglings, 0..=10u32).prop_flat_map(move |(rows, cols, k, extra)| {
        let cells = rows * cols;
        (
            proptest::collection::vec(proptest::bool::weighted(0.25), cells),
            Just(()).prop_perturb(move |_, mut rng| {
                // Distinct cells for the marine and the zerglings.
                let mut order: Vec<usize> = (0..cells).collect();
                for i in (1..cells).rev() {
                    order.swap(i, rng.random_range(0..=i));
                }
                order
            }),
            1..=max_marine_hp,
            proptest::collection::vec(1..=max_hp, k),
        )
            .prop_map(move |(walls, order, marine_hp, hps)| {
                let pos = |i: usize| (order[i] / cols, order[i] % cols);
                let mut open: Vec<Vec<bool>> =
                    (0..rows).map(|r| (0..cols).map(|c| !walls[r * cols + c]).collect()).collect();
                let units: Vec<Pos> = (0..=hps.len().min(cells - 1)).map(pos).collect();
                for p in &units {
                    open[p.0][p.1] = true;
                }
                Case {
                    open,
                    marine: units[0],
                    marine_hp,
                    zerglings: units[1..].iter().zip(&hps).map(|(&p, &hp)| (p, hp)).collect(),
                    // A win needs a shot per hit point: allow that many rounds and a few more.
                    limit: hps.iter().sum::<i32>() as u32 + extra,
                }
            })
    })
}

fn check(case: &Case) -> Result<(), TestCaseError> {
    let expected = case.brute_force();
    let battle = case.battle();
    let solution = battle.solve(case.limit, Pruning::ALL);
    prop_assert_eq!(solution.rounds(), expected, "{}", battle);
    if let Some(plan) = &solution.plan {
        let actions: Vec<Action> = plan.iter().map(|t| t.action).collect();
        prop_assert!(case.plan_wins(&actions), "plan {:?} does not win\n{}", actions, battle);
        prop_assert!(plan.last().unwrap().won);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn small_battles_agree_with_brute_force(case in case(4, 3, 3, 4)) {
        check(&case)?;
    }

    #[test]
    fn pruning_never_changes_the_answer(case in case(4, 3, 3, 4)) {
        let battle = case.battle();
        let all = battle.solve(case.limit, Pruning::ALL).rounds();
        for bits in 0..8 {
            let p = Pruning { symmetry: bits & 1 != 0, dominance: bits & 2 != 0, bound: bits & 4 != 0 };
            let solution = battle.solve(case.limit, p);
            prop_assert_eq!(solution.rounds(), all, "{:?}\n{}", p, battle);
            if let Some(plan) = &solution.plan {
                let actions: Vec<Action> = plan.iter().map(|t| t.action).collect();
                prop_assert!(case.plan_wins(&actions));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Maps up to the contest's 5 x 5 with two zerglings, small hit points and the full 34 rounds.
    #[test]
    fn contest_sized_battles_agree_with_brute_force(case in case(5, 2, 3, 6).prop_map(|mut c| {
        c.limit = 34;
        c
    })) {
        check(&case)?;
    }
}

/// A contest case (5 rows, then `m z`) as a brute-force case with the limit of 34 rounds.
fn contest_case(text: &str) -> Case {
    let lines: Vec<&str> = text.lines().collect();
    let mut open = Vec::new();
    let (mut marine, mut big, mut small) = ((0, 0), (0, 0), (0, 0));
    for (r, line) in lines[..5].iter().enumerate() {
        open.push(line.chars().map(|c| c != '1').collect());
        for (c, ch) in line.chars().enumerate() {
            match ch {
                'M' => marine = (r, c),
                'Z' => big = (r, c),
                'z' => small = (r, c),
                _ => {}
            }
        }
    }
    let hp: Vec<i32> = lines[5].split_whitespace().map(|t| t.parse().unwrap()).collect();
    Case { open, marine, marine_hp: hp[0], zerglings: vec![(big, hp[1]), (small, hp[1])], limit: 34 }
}

#[test]
fn sample_twin_and_slowest_case_agree_with_brute_force() {
    for (input, output) in [
        (include_str!("../data/sample.in"), include_str!("../data/sample.out")),
        (include_str!("../data/twin.in"), include_str!("../data/twin.out")),
        (include_str!("../data/slowest.in"), include_str!("../data/slowest.out")),
    ] {
        let case = contest_case(input);
        let expected = match case.brute_force() {
            Some(n) => format!("WIN\n{n}\n"),
            None => "LOSE\n".to_string(),
        };
        assert_eq!(expected, output);
        let mut judged = Vec::new();
        endgame_marine::judge::run(input, &mut judged).unwrap();
        assert_eq!(String::from_utf8(judged).unwrap(), output);
        check(&case).unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// What the dominance on the marine's HP relies on: from a state with more HP, every action
    /// is still allowed and leads to the same state with at least as much HP, or to a win.
    #[test]
    fn more_hit_points_never_hurt(case in case(4, 3, 3, 4), extra in 1..5u16) {
        use endgame_marine::{Outcome, actions, play};
        let battle = case.battle();
        let map = battle.map();
        let mut layer = vec![battle.start()];
        for _ in 0..6 {
            let mut next = Vec::new();
            for s in &layer {
                let mut richer = *s;
                richer.hp += extra;
                for (action, outcome) in actions(map, s) {
                    let better = play(map, &richer, action);
                    match (outcome, better) {
                        (Outcome::Won(_), Some(Outcome::Won(_))) | (Outcome::Lost, Some(_)) => {}
                        (Outcome::Continue { state, damage }, Some(Outcome::Continue { state: r, damage: d })) => {
                            prop_assert_eq!((state.key(), damage), (r.key(), d));
                            prop_assert!(r.hp > state.hp);
                            next.push(state);
                        }
                        (o, b) => prop_assert!(false, "{:?} with more HP gives {:?}", o, b),
                    }
                }
            }
            layer = next;
            layer.truncate(200);
        }
    }
}

/// A case a random run of `pruning_never_changes_the_answer` once failed on: three zerglings,
/// two of them alike in HP, on an open 4 x 4 map.
#[test]
fn three_zerglings_with_equal_hp_replay_under_every_pruning() {
    let case = Case {
        open: vec![vec![true; 4]; 4],
        marine: (2, 0),
        marine_hp: 4,
        zerglings: vec![((1, 3), 2), ((3, 3), 2), ((1, 2), 3)],
        limit: 17,
    };
    let battle = case.battle();
    let all = battle.solve(case.limit, Pruning::ALL).rounds();
    for bits in 0..8 {
        let p = Pruning { symmetry: bits & 1 != 0, dominance: bits & 2 != 0, bound: bits & 4 != 0 };
        let solution = battle.solve(case.limit, p);
        assert_eq!(solution.rounds(), all, "{p:?}");
        let plan = solution.plan.expect("the marine wins this battle");
        let actions: Vec<Action> = plan.iter().map(|t| t.action).collect();
        assert!(case.plan_wins(&actions), "{p:?}");
    }
}
