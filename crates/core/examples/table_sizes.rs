//! Sizes of a table's WDL and DTM data under variants of the version-3 encoding, from a
//! version-2 file (for the measurements in BENCHMARKS.md):
//! `cargo run --release -p endgame-core --example table_sizes -- FILE.egtb GAME VARIANT RULES`.
//!
//! WDL variants: positions per block, zstd level, each block's positions in index order or
//! split by the index's parity (the Xiangqi index's lowest digit is the side to move).
//! DTM variants: `pos` one symbol per position (holes and positions whose category needs no
//! symbol take the previous symbol), or `streams` only the symbols of positions whose category
//! needs one, grouped per block by (parity, category); positions per block; zstd level. The
//! order-0 and order-1 entropies of the streams are the reference for an entropy coder.
//!
//! Further modes (a last argument): `holes` (where holes go), `tune` (the writer's layout
//! under zstd levels `LEVELS=9,12,..` and DTM blocks `BLOCKS=65536,..`, with CPU seconds),
//! `params` (zstd's advanced parameters, `PARAMS`, see [`params`]), `ctx` (the conditional
//! entropy of a symbol given the values at fixed distances in the index, `CTX=2,12;1080`).

use std::collections::HashMap;
use std::time::Instant;

use endgame_core::table::v2::V2Reader;
use endgame_core::table::{Category, TableId};
use endgame_core::{Ban, RuleValue};

fn entry(v: RuleValue) -> u32 {
    match v {
        RuleValue::Win(d) | RuleValue::Loss(d) => d.0,
        RuleValue::Draw(None) => 0,
        RuleValue::Draw(Some(d)) => d.0 + 1,
        RuleValue::WinByRule(b, r) | RuleValue::LossByRule(b, r) => 2 * r + u32::from(b == Ban::Chase),
    }
}

fn zsize(data: &[u8], level: i32) -> usize {
    if data.is_empty() { 0 } else { zstd::bulk::compress(data, level).expect("zstd").len() }
}

fn entropy(counts: &HashMap<u32, u64>) -> f64 {
    let total: u64 = counts.values().sum();
    counts
        .values()
        .map(|&k| {
            let p = k as f64 / total as f64;
            -(k as f64) * p.log2()
        })
        .sum::<f64>()
}

/// The categories `filled` (no holes) of each WDL block of `block` positions, the even
/// positions first, packed 4 to a byte.
fn wdl_blocks(filled: &[i8], block: usize) -> Vec<Vec<u8>> {
    filled
        .chunks(block)
        .map(|ch| {
            let ord: Vec<u8> =
                ch.iter().step_by(2).chain(ch.iter().skip(1).step_by(2)).map(|&c| c as u8).collect();
            ord.chunks(4).map(|c| c.iter().enumerate().fold(0, |b, (i, &x)| b | x << (2 * i))).collect()
        })
        .collect()
}

/// The DTM symbols `sym` (clipped to a byte) of each block of `block` positions: one stream
/// per category that needs symbols, of the positions of that category in `filled`.
fn dtm_streams(filled: &[i8], sym: &[u32], needed: &[bool], block: usize) -> Vec<Vec<u8>> {
    (0..filled.len())
        .step_by(block)
        .map(|start| {
            let end = filled.len().min(start + block);
            let mut d = Vec::new();
            for c in 0..5 {
                if needed[c] {
                    d.extend((start..end).filter(|&p| filled[p] == c as i8).map(|p| sym[p].min(255) as u8));
                }
            }
            d
        })
        .collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, game, variant, rules, rest @ ..] = &args[..] else {
        return Err(
            "usage: table_sizes FILE.egtb GAME VARIANT RULES [quick | holes | tune | params | ctx]".into()
        );
    };
    let quick = rest.iter().any(|a| a == "quick");
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
    let holes = values.iter().filter(|v| v.is_none()).count();
    let by_cat: Vec<u64> = counts.iter().map(|c| c.values().sum()).collect();
    println!(
        "{variant}: {n} positions, {holes} holes; draw {} win {} loss {} win-rule {} loss-rule {}; list lengths {:?}",
        by_cat[0],
        by_cat[1],
        by_cat[2],
        by_cat[3],
        by_cat[4],
        maps.iter().map(HashMap::len).collect::<Vec<_>>()
    );
    // Each position's category (holes: -1) and symbol.
    let cat: Vec<i8> = values.iter().map(|v| v.map_or(-1, |v| Category::of(v) as i8)).collect();
    let sym: Vec<u32> = values
        .iter()
        .map(|v| {
            v.map_or(0, |v| {
                if needed[Category::of(v) as usize] { maps[Category::of(v) as usize][&entry(v)] } else { 0 }
            })
        })
        .collect();
    let wide = maps.iter().map(HashMap::len).max().unwrap_or(0) > 256;
    println!("symbols wider than a byte: {wide} (sizes below clip them to a byte)");

    // Entropy of the symbols of each (parity, category), order 0 and order 1 (context: the
    // previous symbol of the same stream, clipped to 63).
    let mut h0: HashMap<(usize, usize), HashMap<u32, u64>> = HashMap::new();
    let mut h1: HashMap<(usize, usize, u32), HashMap<u32, u64>> = HashMap::new();
    let mut prev: HashMap<(usize, usize), u32> = HashMap::new();
    for p in 0..n {
        let c = cat[p];
        if c < 0 || !needed[c as usize] {
            continue;
        }
        let key = (p & 1, c as usize);
        *h0.entry(key).or_default().entry(sym[p]).or_insert(0) += 1;
        let ctx = prev.get(&key).copied().unwrap_or(0).min(63);
        *h1.entry((key.0, key.1, ctx)).or_default().entry(sym[p]).or_insert(0) += 1;
        prev.insert(key, sym[p]);
    }
    let e0: f64 = h0.values().map(entropy).sum::<f64>() / 8.0;
    let e1: f64 = h1.values().map(entropy).sum::<f64>() / 8.0;
    println!(
        "DTM entropy per (parity, category): order 0 {e0:.0} bytes, order 1 {e1:.0} bytes (models not counted)"
    );

    // A mode given runs alone (the first of this list when several are).
    let modes = ["wdl", "residues", "params", "ctx", "tune", "holes"];
    if let Some(mode) = modes.into_iter().find(|m| rest.iter().any(|a| a == m)) {
        match mode {
            "wdl" => wdl_variants(&cat, &needed),
            "residues" => residues(&cat, &sym, &needed),
            "params" => params(&cat, &sym, &needed)?,
            "ctx" => contexts(&cat, &sym, &needed),
            "tune" => tune(&cat, &sym, &needed)?,
            _ => holes_variants(&cat, &sym, &needed),
        }
        return Ok(());
    }
    let levels: &[i32] = if quick { &[9] } else { &[3, 9, 19] };
    // WDL.
    for split in [false, true] {
        for block in [1usize << 16, 1 << 18] {
            for &level in levels {
                let t = Instant::now();
                let mut total = 0;
                for (b, chunk) in cat.chunks(block).enumerate() {
                    let order: Vec<usize> = if split {
                        (0..chunk.len()).step_by(2).chain((1..chunk.len()).step_by(2)).collect()
                    } else {
                        (0..chunk.len()).collect()
                    };
                    // Holes: the previous category in this order (the first value's at the start).
                    let first = chunk.iter().find(|&&c| c >= 0).copied().unwrap_or(0);
                    let mut last = first;
                    let filled: Vec<u8> = order
                        .iter()
                        .map(|&i| {
                            if chunk[i] >= 0 {
                                last = chunk[i];
                            }
                            last as u8
                        })
                        .collect();
                    let packed: Vec<u8> = filled
                        .chunks(4)
                        .map(|c| c.iter().enumerate().fold(0, |b, (i, &x)| b | x << (2 * i)))
                        .collect();
                    total += zsize(&packed, level) + 8;
                    let _ = b;
                }
                println!(
                    "WDL split {split:5} block {block:7} level {level:2}: {total:>10} bytes ({:.1} s)",
                    t.elapsed().as_secs_f64()
                );
            }
        }
    }
    // DTM, one symbol per position.
    for &level in levels {
        let block = 1usize << 14;
        let t = Instant::now();
        let mut last = 0u8;
        let filled: Vec<u8> = (0..n)
            .map(|p| {
                if cat[p] >= 0 && needed[cat[p] as usize] {
                    last = sym[p].min(255) as u8;
                }
                last
            })
            .collect();
        let total: usize = filled.chunks(block).map(|c| zsize(c, level) + 8).sum();
        println!(
            "DTM pos     block {block:7} level {level:2}: {total:>10} bytes ({:.1} s)",
            t.elapsed().as_secs_f64()
        );
    }
    // DTM, streams.
    for split in [false, true] {
        for block in [1usize << 14, 1 << 16, 1 << 18, 1 << 20] {
            for &level in levels {
                let t = Instant::now();
                let mut total = 0;
                let mut raw = 0;
                let mut decode = 0.0;
                for start in (0..n).step_by(block) {
                    let end = n.min(start + block);
                    let mut data = Vec::new();
                    for parity in if split { vec![0, 1] } else { vec![2] } {
                        for c in 0..5 {
                            if !needed[c] {
                                continue;
                            }
                            data.extend(
                                (start..end)
                                    .filter(|&p| (parity == 2 || p & 1 == parity) && cat[p] == c as i8)
                                    .map(|p| sym[p].min(255) as u8),
                            );
                        }
                    }
                    raw += data.len();
                    if data.is_empty() {
                        continue;
                    }
                    let z = zstd::bulk::compress(&data, level)?;
                    total += z.len() + 8;
                    if start == 0 {
                        let t = Instant::now();
                        for _ in 0..10 {
                            let _ = zstd::bulk::decompress(&z, data.len())?;
                        }
                        decode = t.elapsed().as_secs_f64() / 10.0 * 1e6;
                    }
                }
                println!(
                    "DTM streams split {split:5} block {block:7} level {level:2}: {total:>10} bytes of {raw} ({:.1} s; first block decodes in {decode:.0} us)",
                    t.elapsed().as_secs_f64()
                );
            }
        }
    }
    Ok(())
}

/// Where holes go: the WDL file with holes given the previous category (`prev`), or a
/// category that needs no DTM symbol when there is one (`free`), or a symbol of their own
/// (`own`, the value 3); the DTM streams then hold the holes that landed in a category with
/// symbols (the previous symbol of their stream). Parity split, zstd level 9.
fn holes_variants(cat: &[i8], sym: &[u32], needed: &[bool]) {
    let free = (0..5).find(|&c| !needed[c] && c < 3).map(|c| c as i8);
    let level: i32 = std::env::var("LEVEL").ok().and_then(|l| l.parse().ok()).unwrap_or(9);
    for mode in ["prev", "free", "own"] {
        for block in [1usize << 16, 1 << 17, 1 << 18] {
            let mut wdl = 0;
            let mut dtm = 0;
            let mut raw = 0;
            for start in (0..cat.len()).step_by(block) {
                let chunk = &cat[start..cat.len().min(start + block)];
                let first = chunk.iter().find(|&&c| c >= 0).copied().unwrap_or(0);
                let mut filled = Vec::with_capacity(chunk.len());
                for parity in 0..2 {
                    let mut last = first;
                    for i in (parity..chunk.len()).step_by(2) {
                        let c = chunk[i];
                        let f = if c >= 0 {
                            last = c;
                            c
                        } else {
                            match mode {
                                "prev" => last,
                                "free" => free.unwrap_or(last),
                                _ => 3,
                            }
                        };
                        filled.push((i, f));
                    }
                }
                let packed: Vec<u8> = filled
                    .chunks(4)
                    .map(|c| c.iter().enumerate().fold(0, |b, (k, &(_, x))| b | (x as u8) << (2 * k)))
                    .collect();
                wdl += zsize(&packed, level) + 8;
                // DTM streams: per parity and category, in index order.
                let mut data = Vec::new();
                for parity in 0..2 {
                    for c in 0..5i8 {
                        if !needed[c as usize] {
                            continue;
                        }
                        let mut last = 0u8;
                        for &(i, _) in filled.iter().filter(|(i, f)| i & 1 == parity && *f == c) {
                            if chunk[i] >= 0 {
                                last = sym[start + i].min(255) as u8;
                            }
                            data.push(last);
                        }
                    }
                }
                raw += data.len();
                dtm += zsize(&data, level) + 8;
            }
            println!(
                "holes {mode:4} level {level} block {block:7}: WDL {wdl:>9} DTM {dtm:>10} of {raw:>9} in all {:>10}",
                wdl + dtm
            );
        }
    }
}

/// This thread's CPU time in seconds.
fn cpu() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec for clock_gettime to write.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// The writer's layout (holes a category without symbols when there is one), zstd levels,
/// block sizes and a dictionary trained per table: bytes and CPU seconds of compression.
fn tune(cat: &[i8], sym: &[u32], needed: &[bool]) -> Result<(), Box<dyn std::error::Error>> {
    let free = (0..5).find(|&c| !needed[c] && c < 3).map(|c| c as i8);
    let levels: Vec<i32> = std::env::var("LEVELS").ok().map_or_else(
        || vec![9, 12, 15, 17, 19],
        |l| l.split(',').map(|x| x.parse().expect("a level")).collect(),
    );
    let blocks: Vec<usize> = std::env::var("BLOCKS").ok().map_or_else(
        || vec![1 << 16, 1 << 18],
        |l| l.split(',').map(|x| x.parse().expect("a size")).collect(),
    );
    // Categories with holes filled, and each position's symbol (holes: previous of the category).
    let mut filled = Vec::with_capacity(cat.len());
    let mut fsym = Vec::with_capacity(cat.len());
    let mut last = [0u32; 5];
    let mut lastc = cat.iter().find(|&&c| c >= 0).copied().unwrap_or(0);
    for (p, &c) in cat.iter().enumerate() {
        if c >= 0 {
            lastc = c;
            last[c as usize] = sym[p];
            filled.push(c);
            fsym.push(sym[p]);
        } else if let Some(f) = free {
            filled.push(f);
            fsym.push(0);
        } else {
            filled.push(lastc);
            fsym.push(last[lastc as usize]);
        }
    }
    // WDL, 262,144, even first.
    let wdl = wdl_blocks(&filled, 1 << 18);
    for &level in &levels {
        let t = cpu();
        let total: usize = wdl.iter().map(|d| zsize(d, level) + 8).sum();
        println!("WDL level {level:2}: {total:>10} bytes, {:.2} s CPU", cpu() - t);
    }
    for &block in &blocks {
        let data = dtm_streams(&filled, &fsym, needed, block);
        let raw: usize = data.iter().map(Vec::len).sum();
        for &level in &levels {
            let t = cpu();
            let total: usize = data.iter().map(|d| zsize(d, level) + 8).sum();
            let c = cpu() - t;
            let mut z = zstd::bulk::Compressor::new(level)?;
            let big = data.iter().max_by_key(|d| d.len()).expect("a block");
            let zb = z.compress(big)?;
            let mut dz = zstd::bulk::Decompressor::new()?;
            let t2 = cpu();
            for _ in 0..20 {
                let _ = dz.decompress(&zb, big.len())?;
            }
            let dec = (cpu() - t2) / 20.0 * 1e6;
            println!(
                "DTM block {block:7} level {level:2}: {total:>10} bytes of {raw}, {c:.2} s CPU ({:.1} MB/s); largest block decodes in {dec:.0} us",
                raw as f64 / c / 1e6
            );
        }
    }
    Ok(())
}

/// Conditional entropies of the DTM symbols given the value of positions at fixed distances
/// in the index (a context model's reference).
fn contexts(cat: &[i8], sym: &[u32], needed: &[bool]) {
    let strides: Vec<Vec<usize>> = std::env::var("CTX").map_or_else(
        |_| {
            vec![
                vec![1],
                vec![2],
                vec![12],
                vec![1080],
                vec![2, 1080],
                vec![2, 12],
                vec![12, 1080],
                vec![2, 12, 1080],
                vec![9720],
                vec![2, 9720],
            ]
        },
        |v| v.split(';').map(|g| g.split(',').map(|x| x.parse().expect("a stride")).collect()).collect(),
    );
    // A position's context value: 0 hole/outside, else 1 + category * 64 + symbol (clipped).
    let val = |p: usize, s: usize| -> u32 {
        if p < s || cat[p - s] < 0 { 0 } else { 1 + cat[p - s] as u32 * 64 + sym[p - s].min(63) }
    };
    for group in &strides {
        let mut h: HashMap<(u8, u64), HashMap<u32, u64>> = HashMap::new();
        for p in 0..cat.len() {
            let c = cat[p];
            if c < 0 || !needed[c as usize] {
                continue;
            }
            let mut key = 0u64;
            for &s in group {
                key = key * 400 + u64::from(val(p, s));
            }
            *h.entry(((p & 1) as u8 * 8 + c as u8, key)).or_default().entry(sym[p]).or_insert(0) += 1;
        }
        let e: f64 = h.values().map(entropy).sum::<f64>() / 8.0;
        println!("H(symbol | parity, category, values at -{group:?}) = {e:.0} bytes ({} contexts)", h.len());
    }
}

/// zstd's advanced parameters on the DTM streams of blocks of `BLOCK` positions (holes a free
/// category) and the WDL blocks: `PARAMS` is `;`-separated sets of `level,min_match,search_log,strategy,target_length`
/// (0: the level's own).
fn params(cat: &[i8], sym: &[u32], needed: &[bool]) -> Result<(), Box<dyn std::error::Error>> {
    use zstd::zstd_safe::{CParameter, Strategy};
    let block: usize = std::env::var("BLOCK").ok().and_then(|b| b.parse().ok()).unwrap_or(1 << 16);
    let free = (0..5).find(|&c| !needed[c] && c < 3).map(|c| c as i8).expect("a free category");
    let filled: Vec<i8> = cat.iter().map(|&c| if c < 0 { free } else { c }).collect();
    let data = dtm_streams(&filled, sym, needed, block);
    let wdl = wdl_blocks(&filled, 1 << 18);
    let raw: usize = data.iter().map(Vec::len).sum();
    for set in std::env::var("PARAMS")?.split(';') {
        let v: Vec<u32> = set.split(',').map(|x| x.parse().expect("a number")).collect();
        let mut z = zstd::bulk::Compressor::new(v[0] as i32)?;
        if v.len() > 1 && v[1] > 0 {
            z.set_parameter(CParameter::MinMatch(v[1]))?;
        }
        if v.len() > 2 && v[2] > 0 {
            z.set_parameter(CParameter::SearchLog(v[2]))?;
        }
        if v.len() > 3 && v[3] > 0 {
            let s = [
                Strategy::ZSTD_fast,
                Strategy::ZSTD_dfast,
                Strategy::ZSTD_greedy,
                Strategy::ZSTD_lazy,
                Strategy::ZSTD_lazy2,
                Strategy::ZSTD_btlazy2,
                Strategy::ZSTD_btopt,
                Strategy::ZSTD_btultra,
                Strategy::ZSTD_btultra2,
            ][v[3] as usize - 1];
            z.set_parameter(CParameter::Strategy(s))?;
        }
        if v.len() > 4 && v[4] > 0 {
            z.set_parameter(CParameter::TargetLength(v[4]))?;
        }
        let t = cpu();
        let total: usize = data.iter().map(|d| z.compress(d).expect("zstd").len() + 8).sum();
        let c = cpu() - t;
        let t = cpu();
        let wtotal: usize = wdl.iter().map(|d| z.compress(d).expect("zstd").len() + 8).sum();
        let wc = cpu() - t;
        println!("{set:>20}: DTM {total:>10} bytes of {raw}, {c:.2} s CPU; WDL {wtotal:>9}, {wc:.2} s CPU");
    }
    Ok(())
}

/// Each block's positions grouped by their index modulo `m` (2: by side to move; 12: also by
/// the index's next digit), in the WDL blocks (262,144) and in each category's DTM stream
/// (blocks of `BLOCK`), holes a free category, zstd level 9.
fn residues(cat: &[i8], sym: &[u32], needed: &[bool]) {
    let block: usize = std::env::var("BLOCK").ok().and_then(|b| b.parse().ok()).unwrap_or(1 << 16);
    let free = (0..5).find(|&c| !needed[c] && c < 3).map(|c| c as i8).expect("a free category");
    let filled: Vec<i8> = cat.iter().map(|&c| if c < 0 { free } else { c }).collect();
    let moduli: Vec<usize> = std::env::var("MODULI").map_or_else(
        |_| vec![1, 2, 4, 12, 36, 1080],
        |v| v.split(',').map(|x| x.parse().expect("a modulus")).collect(),
    );
    for &m in &moduli {
        let order = |len: usize| -> Vec<usize> { (0..m).flat_map(|r| (r..len).step_by(m)).collect() };
        let t = cpu();
        let wdl: usize = filled
            .chunks(1 << 18)
            .map(|ch| {
                let ord: Vec<u8> = order(ch.len()).into_iter().map(|i| ch[i] as u8).collect();
                let packed: Vec<u8> = ord
                    .chunks(4)
                    .map(|c| c.iter().enumerate().fold(0, |b, (i, &x)| b | x << (2 * i)))
                    .collect();
                zsize(&packed, 9) + 8
            })
            .sum();
        let wc = cpu() - t;
        let t = cpu();
        let dtm: usize = (0..cat.len())
            .step_by(block)
            .map(|start| {
                let end = cat.len().min(start + block);
                let ord = order(end - start);
                let mut d = Vec::new();
                for c in 0..5 {
                    if needed[c] {
                        d.extend(
                            ord.iter()
                                .map(|&i| start + i)
                                .filter(|&p| filled[p] == c as i8)
                                .map(|p| sym[p].min(255) as u8),
                        );
                    }
                }
                zsize(&d, 9) + 8
            })
            .sum();
        println!(
            "modulus {m:5}: WDL {wdl:>9} ({wc:.2} s CPU), DTM {dtm:>10} ({:.2} s CPU), in all {:>10}",
            cpu() - t,
            wdl + dtm
        );
    }
}

/// WDL blocks of 262,144 with holes a free category: packed 4 to a byte, a byte each, or two
/// bit planes; zstd levels 3, 6, 9.
fn wdl_variants(cat: &[i8], needed: &[bool]) {
    let free = (0..5).find(|&c| !needed[c] && c < 3).map(|c| c as i8).expect("a free category");
    let filled: Vec<u8> = cat.iter().map(|&c| if c < 0 { free } else { c } as u8).collect();
    for level in [3, 6, 9] {
        for kind in ["packed", "bytes", "planes"] {
            let t = cpu();
            let total: usize = filled
                .chunks(1 << 18)
                .map(|ch| {
                    let data: Vec<u8> = match kind {
                        "packed" => ch
                            .chunks(4)
                            .map(|c| c.iter().enumerate().fold(0, |b, (i, &x)| b | x << (2 * i)))
                            .collect(),
                        "bytes" => ch.to_vec(),
                        _ => (0..2)
                            .flat_map(|plane| {
                                ch.chunks(8).map(move |c| {
                                    c.iter().enumerate().fold(0u8, |b, (i, &x)| b | ((x >> plane) & 1) << i)
                                })
                            })
                            .collect(),
                    };
                    zsize(&data, level) + 8
                })
                .sum();
            println!("WDL {kind:6} level {level}: {total:>9} bytes, {:.2} s CPU", cpu() - t);
        }
    }
}
