//! Sizes of a table's WDL and DTM data under variants of the version-3 encoding, from a
//! version-2 file (for the measurements in BENCHMARKS.md):
//! `cargo run --release -p endgame-core --example table_sizes -- FILE.egtb GAME VARIANT RULES`.
//!
//! Each variant: positions per block, zstd level, how holes and positions without a DTM
//! symbol are filled (`prev`: the previous position's symbol; `zero`: symbol 0).

use std::collections::HashMap;
use std::time::Instant;

use endgame_core::perpetual::RuleValue;
use endgame_core::table_file::{Category, TableId};
use endgame_core::table_v2::V2Reader;

fn entry(v: RuleValue) -> u32 {
    match v {
        RuleValue::Win(d) | RuleValue::Loss(d) => d.0,
        RuleValue::Draw(None) => 0,
        RuleValue::Draw(Some(d)) => d.0 + 1,
        RuleValue::WinByRule(r) | RuleValue::LossByRule(r) => 2 * r,
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, game, variant, rules] = &args[..] else {
        return Err("usage: table_sizes FILE.egtb GAME VARIANT RULES".into());
    };
    let positions = std::fs::metadata(file)?.len(); // replaced below
    let _ = positions;
    // The size of the index is in the file's header: positions after the three names.
    let bytes = std::fs::read(file)?;
    let mut at = 12;
    for _ in 0..3 {
        let len = u16::from_le_bytes([bytes[at], bytes[at + 1]]) as usize;
        at += 2 + len;
    }
    let positions = u64::from_le_bytes(bytes[at..at + 8].try_into()?);
    let id = TableId { game: game.clone(), variant: variant.clone(), rules: rules.clone(), positions };
    let solution = V2Reader::open(std::path::Path::new(file), &id)?.read()?;
    let n = positions as usize;
    let values: Vec<Option<RuleValue>> = (0..n).map(|p| solution.value(p)).collect();
    let mut counts: [HashMap<u32, u64>; 5] = Default::default();
    for v in values.iter().flatten() {
        *counts[Category::of(*v) as usize].entry(entry(*v)).or_insert(0) += 1;
    }
    let maps: Vec<HashMap<u32, u32>> = counts
        .iter()
        .map(|c| {
            let mut list: Vec<(u64, u32)> = c.iter().map(|(&e, &k)| (k, e)).collect();
            list.sort_by_key(|&(k, e)| (std::cmp::Reverse(k), e));
            list.into_iter().enumerate().map(|(s, (_, e))| (e, s as u32)).collect()
        })
        .collect();
    let needed: Vec<bool> = maps.iter().map(|m| m.len() > 1).collect();
    println!("{variant}: {n} positions, {} holes", values.iter().filter(|v| v.is_none()).count());
    for fill in ["prev", "zero"] {
        let mut cats = Vec::with_capacity(n);
        let mut syms = Vec::with_capacity(n);
        let (mut cat, mut sym) = (0u8, 0u32);
        for v in &values {
            match v {
                Some(v) => {
                    let c = Category::of(*v) as usize;
                    cat = c as u8;
                    if needed[c] {
                        sym = maps[c][&entry(*v)];
                    } else if fill == "zero" {
                        sym = 0;
                    }
                }
                None if fill == "zero" => sym = 0,
                None => {}
            }
            cats.push(cat);
            syms.push(sym);
        }
        for split in [false, true] {
            // With `split`, each block's positions with Red to move (even indices) first.
            let order = |data: &[u8], block: usize| -> Vec<u8> {
                if !split {
                    return data.to_vec();
                }
                data.chunks(block)
                    .flat_map(|c| {
                        c.iter().step_by(2).chain(c.iter().skip(1).step_by(2)).copied().collect::<Vec<u8>>()
                    })
                    .collect()
            };
            for (block, level) in
                [(1usize << 14, 1), (1 << 14, 3), (1 << 14, 9), (1 << 16, 3), (1 << 16, 9), (1 << 16, 19)]
            {
                let wdl: Vec<u8> = order(&cats, block)
                    .chunks(4)
                    .map(|c| c.iter().enumerate().fold(0, |b, (i, &x)| b | x << (2 * i)))
                    .collect();
                let dtm: Vec<u8> = order(&syms.iter().map(|&s| s.min(255) as u8).collect::<Vec<u8>>(), block);
                let t = Instant::now();
                let size = |data: &[u8], per: usize| -> usize {
                    data.chunks(per).map(|c| zstd::bulk::compress(c, level).unwrap().len() + 8).sum()
                };
                let w = size(&wdl, block / 4);
                let d = size(&dtm, block);
                let secs = t.elapsed().as_secs_f64();
                // Decompression of one DTM block.
                let sample = zstd::bulk::compress(&dtm[..block.min(dtm.len())], level)?;
                let t = Instant::now();
                for _ in 0..20 {
                    let _ = zstd::bulk::decompress(&sample, block)?;
                }
                let us = t.elapsed().as_secs_f64() / 20.0 * 1e6;
                println!(
                    "fill {fill:4} split {split:5} block {block:7} level {level:2}: WDL {w:>10} DTM {d:>10} total {:>10} ({secs:.1} s to compress, {us:.0} us to decompress a DTM block)",
                    w + d
                );
            }
        }
    }
    Ok(())
}
