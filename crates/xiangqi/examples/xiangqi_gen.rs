//! Random legal HDU 5897 inputs, for the judge benchmark.
//!
//! `cargo run --release -p endgame-xiangqi --example xiangqi_gen -- [CASES] [SEED] > queries.txt`
//! writes `CASES` (default 1,000,000) cases, each a uniformly random legal placement (Horse
//! anywhere, the Generals in their palaces, no two on one point) and side to move.

use std::io::{BufWriter, Write};

/// A xorshift generator: reproducible without dependencies.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let cases: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(5897);
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut out = BufWriter::new(std::io::stdout().lock());
    writeln!(out, "{cases}")?;
    for _ in 0..cases {
        loop {
            let (x1, y1) = (rng.below(10), rng.below(9));
            let (x2, y2) = (7 + rng.below(3), 3 + rng.below(3));
            let (x3, y3) = (rng.below(3), 3 + rng.below(3));
            let p = rng.below(2);
            if (x1, y1) != (x2, y2) && (x1, y1) != (x3, y3) {
                writeln!(out, "{x1} {y1} {x2} {y2} {x3} {y3} {p}")?;
                break;
            }
        }
    }
    out.flush()
}
