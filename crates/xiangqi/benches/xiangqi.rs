//! Benchmarks: solving `KRvKR` under `standard` rules and `KvKN` (and `KvK`) under `hdu`
//! rules from scratch, and the HDU 5897
//! judge on random legal queries (as `examples/gen.rs` writes them, fewer of them).

use endgame_xiangqi::{MemoryTables, Rules, kvkn};

fn main() {
    divan::main();
}

/// The 4-man `KRvKR` under standard rules (1,312,200 indices), with its smaller materials.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn solve_krvkr_standard() -> MemoryTables {
    let mut tables = MemoryTables::new(Rules::Standard);
    tables.solve("KRvKR".parse().unwrap()).unwrap();
    tables
}

#[divan::bench]
fn solve_kvkn() -> MemoryTables {
    let mut tables = MemoryTables::new(Rules::Hdu);
    tables.solve(kvkn()).unwrap();
    tables
}

fn queries(cases: usize) -> String {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut below = |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let mut text = format!("{cases}\n");
    let mut written = 0;
    while written < cases {
        let (x1, y1, x2, y2, x3, y3, p) =
            (below(10), below(9), 7 + below(3), 3 + below(3), below(3), 3 + below(3), below(2));
        if (x1, y1) != (x2, y2) && (x1, y1) != (x3, y3) {
            text += &format!("{x1} {y1} {x2} {y2} {x3} {y3} {p}\n");
            written += 1;
        }
    }
    text
}

#[divan::bench]
fn judge_10k_queries(bencher: divan::Bencher) {
    let input = queries(10_000);
    let mut out = Vec::with_capacity(input.len());
    endgame_xiangqi::judge::run("0", &mut out).unwrap();
    bencher.bench_local(|| {
        out.clear();
        endgame_xiangqi::judge::run(&input, &mut out).unwrap();
    });
}
