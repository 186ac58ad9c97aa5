//! Probing a 5-man table from its file: random legal positions of `KRvKNN` (38.9 million
//! indices) through a warm store (the file open, the block cache filled by earlier probes),
//! and a cold one (a new store per sample: the header read, every block read anew).
//!
//! The table is read from `$ENDGAME_BENCH_TB_DIR` (default `target/bench-tables`) and
//! generated there first when it is missing (about a minute on 2 cores, once).

use std::path::PathBuf;

use endgame_xiangqi::{Material, MaterialIndex, Position, Probe, Rules, Tablebases};

fn main() {
    divan::main();
}

fn dir() -> PathBuf {
    std::env::var_os("ENDGAME_BENCH_TB_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/bench-tables"),
        PathBuf::from,
    )
}

fn material() -> Material {
    "KRvKNN".parse().expect("a material")
}

/// The store, with the table generated if needed, and 4096 random legal positions.
fn setup() -> (Tablebases, Vec<Position>) {
    let tables = Tablebases::open(dir(), Rules::Standard);
    if !tables.has_file(material()) {
        tables.generate(&[material()], &|_| {}).expect("generating KRvKNN");
    }
    let index = MaterialIndex::new(material());
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut positions = Vec::new();
    while positions.len() < 4096 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        if let Some(p) = index.decode((state % index.len() as u64) as usize)
            && p.check(Rules::Standard).is_ok()
        {
            positions.push(p);
        }
    }
    (tables, positions)
}

/// One probe of a random position, the store warm (every block of the sample cached).
#[divan::bench]
fn probe_warm(bencher: divan::Bencher) {
    let (tables, positions) = setup();
    for p in &positions {
        tables.probe(p).expect("a value");
    }
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % positions.len();
        tables.probe(&positions[i]).expect("a value")
    });
}

/// One category probe ([`Probe::probe_wdl`]: the WDL file only) of a random position, the
/// store warm.
#[divan::bench]
fn probe_wdl_warm(bencher: divan::Bencher) {
    let (tables, positions) = setup();
    for p in &positions {
        tables.probe_wdl(p).expect("a category");
    }
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % positions.len();
        tables.probe_wdl(&positions[i]).expect("a category")
    });
}

/// One probe of a random position whose block is not cached (a read and a decompression).
#[divan::bench]
fn probe_uncached_block(bencher: divan::Bencher) {
    let (_, positions) = setup();
    let tables = Tablebases::open(dir(), Rules::Standard).with_cache_bytes(0);
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % positions.len();
        tables.probe(&positions[i]).expect("a value")
    });
}

/// Every legal move of a random position with its value (`moves --json`'s work).
#[divan::bench]
fn moves_warm(bencher: divan::Bencher) {
    let (tables, positions) = setup();
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % 64;
        tables.moves(&positions[i]).expect("values")
    });
}
