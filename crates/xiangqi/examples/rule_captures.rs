//! Measures the captures of one solve under `perpetual-check` or `check-and-chase` read from
//! the smaller tables' files a block at a time against the same solve with every smaller
//! table held whole (as the generation read them before): the time, the values and blocks
//! read (the block cache's hit rate) and a digest of the values (the two must agree). A
//! development tool for `docs/generation.md`; run each mode in its own process for its peak.
//!
//! `cargo run -p endgame-xiangqi --example rule_captures -- DIR perpetual-check KAARvKN blocks`
//! (`whole` for the other mode). `DIR` holds the smaller tables under the rule set (and, for
//! the material's `standard` values, its file under `standard`, else they are solved first).
use std::hash::{Hash, Hasher};

use endgame_core::Retrograde;
use endgame_xiangqi::store::captures::CaptureReads;
use endgame_xiangqi::{Material, PerpetualTablebase, Rules, Tablebases};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, rules, material, mode] = &args[..] else {
        eprintln!("usage: rule_captures DIR RULES MATERIAL whole|blocks");
        std::process::exit(2);
    };
    let rules: Rules = rules.parse().expect("a rule set");
    let material: Material = material.parse().expect("a material");
    let store = Tablebases::open(dir, rules);
    let mut held = PerpetualTablebase::with_rules(rules);
    let store = match mode.as_str() {
        "whole" => {
            for smaller in material.after_captures() {
                let file = store.file_material(smaller);
                if held.answering(file).is_none() {
                    held.insert(file, store.read_rule_solution(file).expect("a smaller table")).unwrap();
                }
            }
            store
        }
        "blocks" => store.with_captures_by_blocks_only(),
        _ => panic!("whole or blocks, not {mode}"),
    };
    let solver = Retrograde::new().compact(true);
    let start = std::time::Instant::now();
    let step = |name: &'static str| eprintln!("{:8.2} s  {name}", start.elapsed().as_secs_f64());
    let (solution, reads) = store.solve_rule_from_files(material, &held, &solver, &step).expect("solved");
    let seconds = start.elapsed().as_secs_f64();
    let mut digest = std::collections::hash_map::DefaultHasher::new();
    for i in 0..solution.len() {
        solution.value(i).hash(&mut digest);
    }
    let CaptureReads { values, blocks } = reads;
    let hits = if values == 0 { 0.0 } else { 100.0 * (1.0 - blocks as f64 / values as f64) };
    println!(
        "{material} under {rules}, smaller tables {mode}: {seconds:.1} s; {values} values read through the files, \
         {blocks} blocks loaded ({hits:.3} % hits); digest {:016x}",
        digest.finish()
    );
}
