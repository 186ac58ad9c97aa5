//! Solves materials and prints their statistics (a development tool).
use endgame_xiangqi::{Material, MemoryTables, Rules};
fn main() {
    let rules: Rules = std::env::args().nth(1).unwrap().parse().unwrap();
    let mut tb = MemoryTables::new(rules);
    for name in std::env::args().skip(2) {
        let m: Material = name.parse().unwrap();
        let t = std::time::Instant::now();
        tb.solve(m).unwrap();
        let s = tb.table(m).unwrap().stats();
        println!(
            "{name}\t{}\t{}\t{}\t{}\t{}\t{}",
            s.counts.positions,
            s.counts.wins,
            s.counts.losses,
            s.counts.draws,
            s.longest_red_win_plies,
            s.longest_black_win_plies
        );
        eprintln!("{name} {:?}", t.elapsed());
    }
}
