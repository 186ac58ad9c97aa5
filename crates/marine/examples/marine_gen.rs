//! Random battles, and a hunt for the slowest contest cases.
//!
//! ```text
//! cargo run --release -p endgame-marine --example marine_gen -- contest <count> <seed>
//! cargo run --release -p endgame-marine --example marine_gen -- battle <rows> <cols> <zerglings> <zergling hp> <marine hp> <seed>
//! cargo run --release -p endgame-marine --example marine_gen -- slowest <tries> <seed>
//! cargo run --release -p endgame-marine --example marine_gen -- prunings <battle file> <rounds> [<bits>]
//! ```
//!
//! `contest` prints random judge cases (5 x 5, two zerglings, m 1..=16, z 1..=17);
//! `battle` prints one random battle file (about a fifth of the cells walls);
//! `slowest` solves random contest cases, biased towards open maps and high HP, and prints
//! the five that expanded the most states, with their times, as judge cases;
//! `prunings` solves a battle file with every combination of prunings (or only the one whose
//! bits are given: 1 symmetry, 2 dominance, 4 bound) and prints the counts and times.

use std::time::Instant;

use endgame_core::search::Pruning;
use endgame_marine::{DEFAULT_ROUNDS, judge};

/// xorshift64*: small, deterministic, good enough to scatter walls.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A grid with walls at `wall_percent`, and `units` distinct passable cells for the units.
fn grid(rng: &mut Rng, rows: usize, cols: usize, wall_percent: u64, units: &[char]) -> Vec<Vec<char>> {
    let mut g: Vec<Vec<char>> = (0..rows)
        .map(|_| (0..cols).map(|_| if rng.below(100) < wall_percent { '1' } else { '0' }).collect())
        .collect();
    let mut cells: Vec<usize> = (0..rows * cols).collect();
    for (i, &u) in units.iter().enumerate() {
        let j = i + rng.below((cells.len() - i) as u64) as usize;
        cells.swap(i, j);
        g[cells[i] / cols][cells[i] % cols] = u;
    }
    g
}

fn contest_case(rng: &mut Rng, wall_percent: u64, m: u64, z: u64) -> String {
    let g = grid(rng, 5, 5, wall_percent, &['M', 'Z', 'z']);
    let mut s: String = g.iter().map(|r| r.iter().collect::<String>() + "\n").collect();
    s.push_str(&format!("{m} {z}\n"));
    s
}

/// States expanded and seconds to solve a contest case (`None` if it is not valid).
fn measure(case: &str) -> Option<(u64, f64, String)> {
    let battle = case.parse::<endgame_marine::Battle>().ok()?;
    let t = Instant::now();
    let solution = battle.solve(DEFAULT_ROUNDS, Pruning::ALL);
    Some((solution.stats.expanded, t.elapsed().as_secs_f64(), case.to_string()))
}

/// A contest case with one random change: a cell flipped, two cells swapped, or an HP moved by 1.
fn mutate(rng: &mut Rng, case: &str) -> String {
    let mut lines: Vec<Vec<char>> = case.lines().map(|l| l.chars().collect()).collect();
    let (a, b) = (rng.below(25) as usize, rng.below(25) as usize);
    match rng.below(3) {
        0 => {
            let c = &mut lines[a / 5][a % 5];
            *c = match *c {
                '0' => '1',
                '1' => '0',
                other => other,
            };
        }
        1 => {
            let t = lines[a / 5][a % 5];
            lines[a / 5][a % 5] = lines[b / 5][b % 5];
            lines[b / 5][b % 5] = t;
        }
        _ => {
            let hp: String = lines[5].iter().collect();
            let mut n: Vec<i64> = hp.split_whitespace().filter_map(|t| t.parse().ok()).collect();
            let i = rng.below(2) as usize;
            n[i] = (n[i] + if rng.below(2) == 0 { 1 } else { -1 }).clamp(1, if i == 0 { 16 } else { 17 });
            lines[5] = format!("{} {}", n[0], n[1]).chars().collect();
        }
    }
    lines.into_iter().map(|l| l.into_iter().collect::<String>() + "\n").collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize| -> u64 {
        args.get(i).and_then(|a| a.parse().ok()).expect("numeric arguments, see the docs")
    };
    match args.first().map(String::as_str) {
        Some("contest") => {
            let mut rng = Rng(num(2) * 2 + 1);
            for _ in 0..num(1) {
                let (w, m, z) = (rng.below(40), 1 + rng.below(16), 1 + rng.below(17));
                print!("{}", contest_case(&mut rng, w, m, z));
            }
        }
        Some("battle") => {
            let (rows, cols, k) = (num(1) as usize, num(2) as usize, num(3) as usize);
            let mut rng = Rng(num(6) * 2 + 1);
            let labels: Vec<char> =
                std::iter::once('M').chain(('a'..='z').filter(|&c| c != 'm').take(k)).collect();
            let g = grid(&mut rng, rows, cols, 20, &labels);
            for row in g {
                let row: String = row
                    .into_iter()
                    .map(|c| {
                        if c == '1' {
                            '#'
                        } else if c == '0' {
                            '.'
                        } else {
                            c
                        }
                    })
                    .collect();
                println!("{row}");
            }
            println!("\nM {}", num(5));
            for &l in &labels[1..] {
                println!("{l} {}", num(4));
            }
        }
        Some("slowest") => {
            let mut rng = Rng(num(2) * 2 + 1);
            let mut found: Vec<(u64, f64, String)> = Vec::new();
            for _ in 0..num(1) {
                let (w, m, z) = (rng.below(25), 8 + rng.below(9), 10 + rng.below(8));
                let case = contest_case(&mut rng, w, m, z);
                if let Some(result) = measure(&case) {
                    found.push(result);
                }
            }
            // Then climb: mutate the slowest cases (a cell, a unit's place, an HP) while that
            // makes the search expand more states.
            found.sort_by_key(|f| std::cmp::Reverse(f.0));
            found.truncate(5);
            for _ in 0..num(1) {
                let pick = rng.below(found.len() as u64) as usize;
                let case = mutate(&mut rng, &found[pick].2);
                if let Some(result) = measure(&case)
                    && result.0 > found[found.len() - 1].0
                    && found.iter().all(|f| f.2.replace('Z', "z") != result.2.replace('Z', "z"))
                {
                    found.push(result);
                    found.sort_by_key(|f| std::cmp::Reverse(f.0));
                    found.truncate(5);
                }
            }
            for (expanded, secs, case) in &found {
                let mut answer = Vec::new();
                judge::run(case, &mut answer).expect("a generated case is valid");
                let answer = String::from_utf8_lossy(&answer).replace('\n', " ");
                println!("# {expanded} states expanded, {:.2} ms, answer {}", secs * 1e3, answer.trim());
                print!("{case}");
            }
        }
        Some("prunings") => {
            let file = args.get(1).expect("a battle file");
            let text = std::fs::read_to_string(file).expect("a readable battle file");
            let battle: endgame_marine::Battle = text.parse().unwrap_or_else(|e| panic!("{file}: {e}"));
            let rounds = num(2) as u32;
            let only: Option<u64> = args.get(3).and_then(|a| a.parse().ok());
            println!(
                "{:<8} {:<9} {:<5} {:>10} {:>10} {:>9}  answer",
                "symmetry", "dominance", "bound", "kept", "expanded", "seconds"
            );
            for bits in (0..8u64).rev().filter(|b| only.is_none_or(|o| o == *b)) {
                let p = Pruning { symmetry: bits & 1 != 0, dominance: bits & 2 != 0, bound: bits & 4 != 0 };
                let t = Instant::now();
                let solution = battle.solve(rounds, p);
                let secs = t.elapsed().as_secs_f64();
                let answer = solution.rounds().map_or("LOSE".to_string(), |n| format!("WIN {n}"));
                println!(
                    "{:<8} {:<9} {:<5} {:>10} {:>10} {:>9.3}  {answer}",
                    p.symmetry, p.dominance, p.bound, solution.stats.states, solution.stats.expanded, secs
                );
            }
        }
        _ => eprintln!(
            "usage: gen contest <count> <seed> | battle <rows> <cols> <k> <zhp> <mhp> <seed> | slowest <tries> <seed>"
        ),
    }
}
