//! Materials with Advisors and Elephants against an independent, deliberately simple solver.
//!
//! The oracle knows the rules of `standard` Xiangqi from the rules themselves (points `(file,
//! rank)`, each piece's moves written out here, no move into check or into facing Generals, a
//! side with no legal move loses, endless play draws) and nothing of the crate but nothing at
//! all: it lists every placement of a material and of every material its captures lead to,
//! builds each position's moves, and decides the positions ply by ply (mated at 0, wins at odd
//! plies, losses at even ones) until nothing changes. The store generates its files (only the
//! one of each colour-twin pair that players write), and at every legal position of each
//! material and of its colour twin (answered from the other's file) its value must be the
//! oracle's, and its statistics (`Tablebases::stats`) the oracle's counts.

use std::collections::HashMap;

use endgame_core::{Plies, Value};
use endgame_xiangqi::{Material, Position, Probe, Rules, Setup, Stats, Tablebases};
use rayon::prelude::*;

/// Piece kinds, as FEN letters for Red (Black in lower case).
const KINDS: [char; 7] = ['K', 'A', 'B', 'N', 'R', 'C', 'P'];

/// A piece: its kind (an index into [`KINDS`]) and side (`true` for Red).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Man {
    kind: usize,
    red: bool,
}

/// A position: the men and their points `(file 0..9, rank 0..10)`, Red's back rank 0.
#[derive(Clone, PartialEq, Eq, Debug)]
struct State {
    men: Vec<(Man, (i8, i8))>,
    red_to_move: bool,
}

/// A key for a position: each man's code (kind, side, point) in increasing order, and the turn.
fn key(men: &[(Man, (i8, i8))], red_to_move: bool) -> u128 {
    let mut codes = [0u128; 8];
    for (code, (m, (f, r))) in codes.iter_mut().zip(men) {
        *code = 1 + ((m.kind * 2 + usize::from(m.red)) * 90 + (*r as usize * 9 + *f as usize)) as u128;
    }
    codes.sort_unstable();
    codes.iter().fold(u128::from(red_to_move), |k, &c| (k << 11) | c)
}

fn in_palace(red: bool, (f, r): (i8, i8)) -> bool {
    (3..=5).contains(&f) && if red { (0..=2).contains(&r) } else { (7..=9).contains(&r) }
}

fn on_board((f, r): (i8, i8)) -> bool {
    (0..9).contains(&f) && (0..10).contains(&r)
}

/// The rank counted from the man's own back rank.
fn own_rank(red: bool, r: i8) -> i8 {
    if red { r } else { 9 - r }
}

/// Where a man may stand: Generals in the palace, Advisors on its diagonal points, Elephants on
/// their seven points of their own half, Soldiers on their starting points or further.
fn may_stand(man: Man, p: (i8, i8)) -> bool {
    let (f, r) = (p.0, own_rank(man.red, p.1));
    match KINDS[man.kind] {
        'K' => in_palace(man.red, p),
        'A' => in_palace(man.red, p) && (f + r) % 2 == 1,
        'B' => [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)].contains(&(f, r)),
        'P' => r >= 5 || (r >= 3 && f % 2 == 0),
        _ => true,
    }
}

/// The side of the man on each point (`r * 9 + f`).
type Board = [Option<bool>; 90];

fn board(men: &[(Man, (i8, i8))]) -> Board {
    let mut board = [None; 90];
    for &(m, (f, r)) in men {
        board[(r * 9 + f) as usize] = Some(m.red);
    }
    board
}

/// Calls `out` with each point a man attacks or may move to from `from` (ignoring checks).
fn targets(man: Man, from: (i8, i8), board: &Board, out: &mut dyn FnMut((i8, i8))) {
    let at = |p: (i8, i8)| board[(p.1 * 9 + p.0) as usize];
    let free = |p: (i8, i8)| on_board(p) && at(p).is_none();
    let (f, r) = from;
    let mut step = |p: (i8, i8)| {
        if on_board(p) && at(p) != Some(man.red) {
            out(p);
        }
    };
    match KINDS[man.kind] {
        'K' => {
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                if in_palace(man.red, (f + df, r + dr)) {
                    step((f + df, r + dr));
                }
            }
        }
        'A' => {
            for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                if in_palace(man.red, (f + df, r + dr)) {
                    step((f + df, r + dr));
                }
            }
        }
        'B' => {
            for (df, dr) in [(2, 2), (2, -2), (-2, 2), (-2, -2)] {
                let to = (f + df, r + dr);
                let own_half = (0..=4).contains(&own_rank(man.red, to.1));
                if on_board(to) && own_half && free((f + df / 2, r + dr / 2)) {
                    step(to);
                }
            }
        }
        'N' => {
            for (df, dr) in [(2, 1), (2, -1), (-2, 1), (-2, -1), (1, 2), (-1, 2), (1, -2), (-1, -2)] {
                let leg = if i8::abs(df) == 2 { (f + df / 2, r) } else { (f, r + dr / 2) };
                if on_board((f + df, r + dr)) && free(leg) {
                    step((f + df, r + dr));
                }
            }
        }
        'R' | 'C' => {
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let mut p = (f + df, r + dr);
                let mut screened = false;
                while on_board(p) {
                    match (at(p), KINDS[man.kind], screened) {
                        (None, 'R', _) | (None, 'C', false) => step(p),
                        (None, _, _) => {}
                        (Some(_), 'R', _) | (Some(_), 'C', true) => {
                            step(p);
                            break;
                        }
                        (Some(_), _, _) => screened = true,
                    }
                    p = (p.0 + df, p.1 + dr);
                }
            }
        }
        'P' => {
            let forward = if man.red { 1 } else { -1 };
            step((f, r + forward));
            if own_rank(man.red, r) >= 5 {
                step((f + 1, r));
                step((f - 1, r));
            }
        }
        _ => unreachable!(),
    }
}

/// Whether the side `red` is in check: a man of the other side attacks its General, or the
/// two Generals face each other on a file with nothing between.
fn in_check(men: &[(Man, (i8, i8))], red: bool) -> bool {
    let board = board(men);
    let general = |side: bool| men.iter().find(|(m, _)| KINDS[m.kind] == 'K' && m.red == side).unwrap().1;
    let (own, other) = (general(red), general(!red));
    if own.0 == other.0 {
        let (lo, hi) = (own.1.min(other.1), own.1.max(other.1));
        if (lo + 1..hi).all(|r| board[(r * 9 + own.0) as usize].is_none()) {
            return true;
        }
    }
    let mut attacked = false;
    for &(m, p) in men.iter().filter(|(m, _)| m.red != red) {
        targets(m, p, &board, &mut |to| attacked |= to == own);
    }
    attacked
}

/// The positions after each legal move.
fn children(s: &State) -> Vec<State> {
    let board = board(&s.men);
    let mut out = Vec::new();
    for (i, &(man, from)) in s.men.iter().enumerate() {
        if man.red != s.red_to_move {
            continue;
        }
        let mut tos = Vec::new();
        targets(man, from, &board, &mut |to| tos.push(to));
        for to in tos {
            let mut men: Vec<(Man, (i8, i8))> =
                s.men.iter().enumerate().filter(|&(j, (_, q))| j == i || *q != to).map(|(_, &m)| m).collect();
            let moved = men.iter().position(|&(m, q)| m == man && q == from).unwrap();
            men[moved].1 = to;
            if !in_check(&men, s.red_to_move) {
                out.push(State { men, red_to_move: !s.red_to_move });
            }
        }
    }
    out
}

/// Every legal position (the side not to move not in check) of the men `men` (Generals
/// first), each placement of identical men once.
fn placements(men: &[Man]) -> Vec<State> {
    let mut out = Vec::new();
    let mut placed: Vec<(Man, (i8, i8))> = Vec::new();
    fn go(men: &[Man], placed: &mut Vec<(Man, (i8, i8))>, out: &mut Vec<State>) {
        let Some((&man, rest)) = men.split_first() else {
            for red_to_move in [true, false] {
                if !in_check(placed, !red_to_move) {
                    out.push(State { men: placed.clone(), red_to_move });
                }
            }
            return;
        };
        // Identical men in increasing order of their points.
        let after = placed.iter().rev().find(|(m, _)| *m == man).map(|&(_, (f, r))| r * 9 + f);
        for r in 0..10 {
            for f in 0..9 {
                let p = (f, r);
                if after.is_some_and(|a| r * 9 + f <= a)
                    || !may_stand(man, p)
                    || placed.iter().any(|(_, q)| *q == p)
                {
                    continue;
                }
                placed.push((man, p));
                go(rest, placed, out);
                placed.pop();
            }
        }
    }
    go(men, &mut placed, &mut out);
    out
}

/// The men of a material (Generals first, then as written).
fn men_of(material: &str) -> Vec<Man> {
    let (red, black) = material.split_once('v').unwrap();
    let mut men = Vec::new();
    for (side, red_side) in [(red, true), (black, false)] {
        for c in side.chars() {
            men.push(Man { kind: KINDS.iter().position(|&k| k == c).unwrap(), red: red_side });
        }
    }
    men.sort_by_key(|m| m.kind != 0);
    men
}

/// The oracle: the value of every legal position of the materials named and of every material
/// their captures lead to.
struct Oracle {
    states: Vec<State>,
    values: Vec<Option<Value>>,
}

impl Oracle {
    fn solve(materials: &[&str]) -> Oracle {
        // Every subset of each material's men other than the Generals.
        let mut armies: Vec<Vec<Man>> = Vec::new();
        for material in materials {
            let men = men_of(material);
            let others = &men[2..];
            for mask in 0..1u32 << others.len() {
                let mut army = men[..2].to_vec();
                army.extend(others.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1).map(|(_, &m)| m));
                army.sort_by_key(|m| (m.kind != 0, m.kind, m.red));
                if !armies.contains(&army) {
                    armies.push(army);
                }
            }
        }
        let states: Vec<State> = armies.iter().flat_map(|a| placements(a)).collect();
        let by_key: HashMap<u128, usize> =
            states.iter().enumerate().map(|(i, s)| (key(&s.men, s.red_to_move), i)).collect();
        assert_eq!(by_key.len(), states.len(), "each position once");
        let moves: Vec<Vec<usize>> = states
            .par_iter()
            .map(|s| children(s).iter().map(|c| by_key[&key(&c.men, c.red_to_move)]).collect())
            .collect();
        let mut parents: Vec<Vec<usize>> = vec![Vec::new(); states.len()];
        for (i, children) in moves.iter().enumerate() {
            for &c in children {
                parents[c].push(i);
            }
        }
        let mut values: Vec<Option<Value>> = vec![None; states.len()];
        // Ply by ply: lost in d when every move leads to a win in less than d (mated at 0: no
        // move), won in d when a move leads to a loss in d - 1. Only a position with a move
        // into one decided at the ply before can be decided at this one; a ply that decides
        // nothing ends it (the next would have no such position).
        let mut candidates: Vec<usize> = (0..states.len()).collect();
        for d in 0u32.. {
            let decided: Vec<(usize, Value)> = candidates
                .par_iter()
                .filter(|&&i| values[i].is_none())
                .filter_map(|&i| {
                    let mut children = moves[i].iter().map(|&c| values[c]);
                    let value = if d.is_multiple_of(2) {
                        let lost = children.all(|v| matches!(v, Some(Value::Win(n)) if n.0 < d));
                        lost.then_some(Value::Loss(Plies(d)))
                    } else {
                        let won = children.any(|v| v == Some(Value::Loss(Plies(d - 1))));
                        won.then_some(Value::Win(Plies(d)))
                    };
                    value.map(|v| (i, v))
                })
                .collect();
            if decided.is_empty() {
                break;
            }
            candidates = decided.iter().flat_map(|&(i, _)| parents[i].iter().copied()).collect();
            candidates.sort_unstable();
            candidates.dedup();
            for (i, v) in decided {
                values[i] = Some(v);
            }
        }
        Oracle { states, values }
    }

    /// The positions of `material` (as written, its men in any order) with their values.
    fn positions<'a>(&'a self, material: &str) -> impl Iterator<Item = (&'a State, Option<Value>)> + 'a {
        let mut men = men_of(material);
        men.sort_by_key(|m| (m.kind, m.red));
        self.states
            .iter()
            .zip(&self.values)
            .filter(move |(s, _)| {
                let mut have: Vec<Man> = s.men.iter().map(|(m, _)| *m).collect();
                have.sort_by_key(|m| (m.kind, m.red));
                have == men
            })
            .map(|(s, v)| (s, *v))
    }
}

/// The position in Xiangqi FEN (rank 9 first).
fn fen(s: &State) -> String {
    let mut rows = Vec::new();
    for r in (0..10).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for f in 0..9 {
            match s.men.iter().find(|(_, p)| *p == (f, r)) {
                Some((m, _)) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let c = KINDS[m.kind];
                    row.push(if m.red { c } else { c.to_ascii_lowercase() });
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    format!("{} {}", rows.join("/"), if s.red_to_move { 'w' } else { 'b' })
}

/// The same position seen from the other side: colours swapped, ranks flipped, the other side
/// to move (a position of the colour twin material, with the same value by the rules' symmetry).
fn flipped(s: &State) -> State {
    let men = s.men.iter().map(|&(m, (f, r))| (Man { red: !m.red, ..m }, (f, 9 - r))).collect();
    State { men, red_to_move: !s.red_to_move }
}

/// The store's generation of `materials` (into a directory of its own) against the oracle: at
/// every legal position of each material and of its colour twin (the oracle's positions seen
/// from the other side; one of the two answered from the other's file) the value, and the
/// statistics counted from those values.
fn agree(name: &str, materials: &[&str]) {
    let oracle = Oracle::solve(materials);
    let dir = std::env::temp_dir().join(format!("endgame-defenders-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Tablebases::open(&dir, Rules::Standard);
    let wanted: Vec<Material> = materials.iter().map(|m| m.parse().unwrap()).collect();
    let summary = store.generate(&wanted, &|_| {}).unwrap();
    assert!(summary.twins > 0, "{summary:?}");
    let mut decided = 0;
    for &name in materials {
        let material: Material = name.parse().unwrap();
        for (m, twin) in [(material, false), (material.colour_twin(), true)] {
            let mut stats = Stats::default();
            let rows: Vec<(State, Option<Value>)> =
                oracle.positions(name).map(|(s, v)| (if twin { flipped(s) } else { s.clone() }, v)).collect();
            let answers: Vec<Value> = rows
                .par_iter()
                .map(|(s, _)| {
                    let setup: Setup = fen(s).parse().unwrap();
                    store.probe(&Position::from_setup(setup).unwrap()).unwrap().plain()
                })
                .collect();
            for ((s, want), got) in rows.into_iter().zip(answers) {
                stats.counts.positions += 1;
                match want {
                    Some(v) => {
                        assert_eq!(got, v, "{m}: {}", fen(&s));
                        decided += 1;
                        if let Value::Win(n) = v {
                            stats.counts.wins += 1;
                            let longest = if s.red_to_move {
                                &mut stats.longest_red_win_plies
                            } else {
                                &mut stats.longest_black_win_plies
                            };
                            *longest = (*longest).max(n.0);
                        } else {
                            stats.counts.losses += 1;
                        }
                    }
                    None => {
                        assert!(matches!(got, Value::Draw(_)), "{m}: {}: {got:?}, a draw", fen(&s));
                        stats.counts.draws += 1;
                    }
                }
            }
            assert!(stats.counts.positions > 10_000, "{m}: {stats:?}");
            assert_eq!(store.stats(m).unwrap(), stats, "{m}");
        }
    }
    assert!(decided > 1000, "{decided} decided positions");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn advisors_and_elephants_against_one_attacker() {
    // A Soldier against an Advisor and an Elephant, a Horse against two Advisors, and a full
    // defence with nothing else (all drawn): each and its colour twin.
    agree("small", &["KPvKAB", "KNvKAA", "KAABBvK"]);
}
