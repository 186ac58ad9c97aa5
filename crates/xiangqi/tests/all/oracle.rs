//! An independent oracle: a memoised, depth-limited minimax over the spec's own terms
//! (points `(x, y)`, Bob's Horse and General, Alice's General), with its own move rules written
//! from the spec and nothing from the crate but the FEN parser and the table being checked.
//! It must agree with the table on every position decided within 16 plies, and no position may
//! be decided between 17 and 20 plies (the longest loss is 16).

use std::collections::HashMap;

use endgame_core::Value;
use endgame_xiangqi::{Position, Probe, Setup, hdu};

type Point = (i8, i8);

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct State {
    horse: Option<Point>,
    bob: Point,
    alice: Point,
    bob_to_move: bool,
}

const STEPS: [Point; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

fn in_bob_palace(p: Point) -> bool {
    (7..=9).contains(&p.0) && (3..=5).contains(&p.1)
}

fn in_alice_palace(p: Point) -> bool {
    (0..=2).contains(&p.0) && (3..=5).contains(&p.1)
}

/// Horse targets from `h` whose leg is free, with the two Generals as the only other pieces.
fn horse_targets(h: Point, bob: Point, alice: Point) -> Vec<Point> {
    let mut out = Vec::new();
    for (dx, dy) in [(2, 1), (2, -1), (-2, 1), (-2, -1), (1, 2), (-1, 2), (1, -2), (-1, -2)] {
        let to = (h.0 + dx, h.1 + dy);
        let leg = if dx.abs() == 2 { (h.0 + dx / 2, h.1) } else { (h.0, h.1 + dy / 2) };
        if (0..=9).contains(&to.0) && (0..=8).contains(&to.1) && leg != bob && leg != alice {
            out.push(to);
        }
    }
    out
}

/// The Generals share a column and the Horse (if alive) is not strictly between them.
fn facing(s: &State) -> bool {
    s.bob.1 == s.alice.1 && !s.horse.is_some_and(|h| h.1 == s.bob.1 && s.alice.0 < h.0 && h.0 < s.bob.0)
}

/// Positive: the side to move wins in n plies; negative: loses in n; None: not decided
/// within `depth` plies.
struct Oracle {
    memo: HashMap<(State, u32), Option<i32>>,
}

impl Oracle {
    fn children(s: &State) -> Vec<State> {
        let mut out = Vec::new();
        if s.bob_to_move {
            for (dx, dy) in STEPS {
                let to = (s.bob.0 + dx, s.bob.1 + dy);
                if in_bob_palace(to) && Some(to) != s.horse {
                    out.push(State { bob: to, bob_to_move: false, ..*s });
                }
            }
            if let Some(h) = s.horse {
                for to in horse_targets(h, s.bob, s.alice) {
                    // Landing on Alice's General is a capture, handled as an immediate win.
                    if to != s.bob && to != s.alice {
                        out.push(State { horse: Some(to), bob_to_move: false, ..*s });
                    }
                }
            }
        } else {
            for (dx, dy) in STEPS {
                let to = (s.alice.0 + dx, s.alice.1 + dy);
                if in_alice_palace(to) {
                    let horse = s.horse.filter(|&h| h != to);
                    out.push(State { horse, alice: to, bob_to_move: true, ..*s });
                }
            }
        }
        out
    }

    fn wins_at_once(s: &State) -> bool {
        facing(s)
            || (s.bob_to_move && s.horse.is_some_and(|h| horse_targets(h, s.bob, s.alice).contains(&s.alice)))
    }

    fn value(&mut self, s: State, depth: u32) -> Option<i32> {
        if depth == 0 {
            return None;
        }
        if Self::wins_at_once(&s) {
            return Some(1);
        }
        if let Some(&v) = self.memo.get(&(s, depth)) {
            return v;
        }
        let mut best_win: Option<i32> = None;
        let mut longest_loss = 0;
        let mut all_lose = true;
        for child in Self::children(&s) {
            match self.value(child, depth - 1) {
                Some(v) if v < 0 => best_win = Some(best_win.map_or(1 - v, |b| b.min(1 - v))),
                Some(v) => longest_loss = longest_loss.max(v + 1),
                None => all_lose = false,
            }
        }
        let v = match best_win {
            Some(w) => Some(w),
            None if all_lose => Some(-longest_loss),
            None => None,
        };
        self.memo.insert((s, depth), v);
        v
    }
}

/// The FEN of a state, written here from the spec's coordinates (x = rank, y = file).
fn fen(s: &State) -> String {
    let mut grid = [['.'; 9]; 10];
    grid[s.bob.0 as usize][s.bob.1 as usize] = 'k';
    grid[s.alice.0 as usize][s.alice.1 as usize] = 'K';
    if let Some(h) = s.horse {
        grid[h.0 as usize][h.1 as usize] = 'n';
    }
    let ranks: Vec<String> = (0..10)
        .rev()
        .map(|x| {
            let mut text = String::new();
            let mut empty = 0;
            for c in grid[x] {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        text += &empty.to_string();
                    }
                    empty = 0;
                    text.push(c);
                }
            }
            if empty > 0 {
                text += &empty.to_string();
            }
            text
        })
        .collect();
    format!("{} {}", ranks.join("/"), if s.bob_to_move { 'b' } else { 'w' })
}

fn all_states() -> Vec<State> {
    let palace = |rows: [i8; 3]| rows.into_iter().flat_map(|x| (3..=5).map(move |y| (x, y)));
    let mut horses: Vec<Option<Point>> = vec![None];
    horses.extend((0..=9).flat_map(|x| (0..=8).map(move |y| Some((x, y)))));
    let mut states = Vec::new();
    for horse in horses {
        for bob in palace([7, 8, 9]) {
            for alice in palace([0, 1, 2]) {
                if horse == Some(bob) || horse == Some(alice) {
                    continue;
                }
                for bob_to_move in [false, true] {
                    states.push(State { horse, bob, alice, bob_to_move });
                }
            }
        }
    }
    states
}

fn as_value(v: i32) -> Value {
    if v > 0 { Value::win_in(v as u32) } else { Value::loss_in((-v) as u32) }
}

#[test]
fn minimax_agrees_with_the_table_within_16_plies() {
    let mut oracle = Oracle { memo: HashMap::new() };
    let states = all_states();
    assert_eq!(states.len(), 14_580 - 9 * 9 * 2 * 2 + 9 * 9 * 2);
    let (mut decided, mut longest) = (0, 0);
    for s in states {
        let position = Position::from_setup(fen(&s).parse::<Setup>().unwrap()).unwrap();
        let table = hdu().probe(&position).unwrap().plain();
        let shallow = oracle.value(s, 16);
        let deep = oracle.value(s, 20);
        assert_eq!(shallow, deep, "{s:?}: decided only after 16 plies");
        match shallow {
            Some(v) => {
                assert_eq!(table, as_value(v), "{s:?} ({})", fen(&s));
                decided += 1;
                longest = longest.max(v.abs());
            }
            None => assert!(matches!(table, Value::Draw(_)), "{s:?}: table {table}, oracle undecided"),
        }
    }
    assert_eq!(longest, 16);
    assert!(decided > 1000, "only {decided} decided positions");
}
