//! Times the review of a long game whose last plies are in 5-man tables (the goal of issue
//! 39: a 100-move game whose last 40 plies are in the tables, under 1 s warm): a development
//! tool, not a test.
//!
//! The game: from `KRPvKANP` (7 men), about 160 random plies without captures, then captures of
//! the two Soldiers as soon as there are some (into `KRvKAN`), then 40 plies of best moves from
//! the tables (with `random`, 40 random moves: each needs its best move looked up). Generate
//! `KRvKAN` first; the game is written as PGN (ICCS) to `OUT` for the command line
//! (`endgame xiangqi review OUT --dir DIR`).
//!
//! `cargo run --release -p endgame-xiangqi --example review_time -- DIR [OUT|-] [random]`
use std::time::Instant;

use endgame_xiangqi::review::{ReviewOptions, review};
use endgame_xiangqi::{Move, Position, Probe, Role, Rules, Setup, Tablebases};

/// A small random generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

const START: &str = "3k5/4a4/2n6/9/4p4/4P4/9/9/9/4K3R w";

/// A game as described in the module docs, or `None` when this seed's play went elsewhere.
fn game(tables: &Tablebases, seed: u64, random: bool) -> Option<(Position, Vec<Move>, usize)> {
    let rules = Rules::Standard;
    let start = Position::from_setup(START.parse::<Setup>().ok()?).ok()?;
    start.check(rules).ok()?;
    let mut rng = Rng(seed);
    let (mut at, mut moves) = (start, Vec::new());
    while at.material().men() > 5 {
        let legal = at.legal_moves(rules);
        let quiet: Vec<Move> = legal.iter().copied().filter(|&m| at.capture(m).is_none()).collect();
        let soldiers: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| at.capture(m).is_some_and(|p| p.role == Role::Soldier))
            .collect();
        let mv = if moves.len() >= 158 && !soldiers.is_empty() {
            soldiers[rng.below(soldiers.len())]
        } else if !quiet.is_empty() {
            quiet[rng.below(quiet.len())]
        } else {
            return None;
        };
        moves.push(mv);
        at = at.play_unchecked(mv);
        if moves.len() > 400 {
            return None;
        }
    }
    if at.material().to_string() != "KRvKAN" {
        return None;
    }
    let before = moves.len();
    for _ in 0..40 {
        // Best moves, or with `random` random ones (each then needs the best move looked up).
        let options = tables.moves(&at).ok()?;
        let mv = if random { options.get(rng.below(options.len().max(1)))?.mv } else { options.first()?.mv };
        moves.push(mv);
        at = at.play_unchecked(mv);
    }
    Some((start, moves, before))
}

fn main() {
    let dir = std::env::args().nth(1).expect("the tables' directory (with KRvKAN generated)");
    let tables = Tablebases::open(dir, Rules::Standard);
    let random = std::env::args().nth(3).is_some_and(|a| a == "random");
    let (start, moves, before) = (0..).find_map(|seed| game(&tables, seed, random)).expect("a game");
    if let Some(out) = std::env::args().nth(2).filter(|o| o != "-") {
        let mut pgn = format!("[Event \"review_time\"]\n[FEN \"{}\"]\n\n", start.setup());
        for (k, mv) in moves.iter().enumerate() {
            if k % 2 == 0 {
                pgn.push_str(&format!("{}. ", k / 2 + 1));
            }
            pgn.push_str(&format!("{mv} "));
            if k % 10 == 9 {
                pgn.push('\n');
            }
        }
        pgn.push_str("*\n");
        std::fs::write(&out, pgn).expect("the PGN written");
    }
    // A store opened anew: the first review reads the blocks it needs (cold), the next ones
    // find them in the cache (warm).
    let tables = Tablebases::open(tables.dir().parent().unwrap().parent().unwrap(), Rules::Standard);
    for run in ["cold", "warm", "warm", "warm"] {
        let t = Instant::now();
        let reviewed = review(&tables, &start, &moves, ReviewOptions::default()).expect("a review");
        let in_tables = reviewed.plies.iter().filter(|p| p.value.is_some()).count();
        println!(
            "{run}: {} plies ({before} before the tables, {in_tables} in them): {:.1} ms",
            moves.len(),
            t.elapsed().as_secs_f64() * 1e3
        );
    }
}
