//! The memory a generation announces against what it holds: the solver's own count of its
//! structures at their peak ([`Solution::solver_peak_bytes`]) within the estimate the store
//! announces and checks ([`Retrograde::memory_estimate`]), for defender-heavy materials; and
//! (ignored: minutes) the peak memory of a whole generation of a material of 393 M indices
//! within what it announced.

use endgame_core::Retrograde;
use endgame_xiangqi::store::cost::{capture_bytes, process_bytes};
use endgame_xiangqi::{Material, MaterialIndex, MemoryTables, Rules, Tablebases};

#[test]
fn the_solvers_peak_stays_within_the_estimate() {
    let solver = Retrograde::new().compact(true);
    for rules in [Rules::Standard, Rules::Hdu] {
        let mut tables = MemoryTables::new(rules);
        for name in ["KRvKAB", "KNvKAAB", "KPvKABB", "KAABvKAB", "KCAvKAB", "KRvKN"] {
            let material: Material = name.parse().unwrap();
            tables.solve(material).unwrap();
            let table = tables.table(material).unwrap();
            let n = table.index().len() as u64;
            let peak = table.solution().solver_peak_bytes().expect("solved, not read");
            let estimate = solver.memory_estimate(n);
            assert!(
                peak <= estimate,
                "{name} under {rules}: peak {peak} bytes, estimate {estimate} ({n} indices)"
            );
            // The cells alone take a byte per index: the count is not empty (all of it when
            // nothing is decided: `KPvKABB` is drawn throughout, no level pass runs).
            assert!(peak >= n, "{name}: {peak} bytes for {n} indices");
            // What the store announces adds the blocks its captures read and the process.
            let announced = Tablebases::memory_estimate(material);
            assert!(
                peak + capture_bytes(material) + process_bytes() <= announced,
                "{name}: {peak} against {announced}"
            );
            assert_eq!(MaterialIndex::size(material), Some(n as usize));
        }
    }
}

/// `cargo test -p endgame-xiangqi --test all -- --ignored --exact memory::a_generations_peak_stays_within_its_estimate`
/// (alone: the peak is the process's). `KNRvKAR` (393,660,000 indices) and its 14 smaller
/// files from nothing under `standard` rules: the peak resident set of the process (`VmHWM`)
/// within the run's announced estimate, which counts no smaller table whole.
#[test]
#[ignore = "generates 480 M positions: minutes; run alone (the process's peak)"]
fn a_generations_peak_stays_within_its_estimate() {
    let dir = crate::common::temp_dir("memory", "peak");
    let material: Material = "KNRvKAR".parse().unwrap();
    let tables = Tablebases::open(&dir, Rules::Standard);
    let summary = tables.generate(&[material], &|_| {}).unwrap();
    let (peak, announced) = (summary.peak_memory.expect("Linux tells the peak"), summary.estimate);
    assert_eq!(summary.largest, 393_660_000);
    assert_eq!(announced, Tablebases::memory_estimate(material));
    assert!(peak <= announced, "peak {} MiB, announced {} MiB", peak >> 20, announced >> 20);
    // Not held whole: the smaller tables would take 2 bytes per index (`KNRvKR`: 157 MB).
    assert!(announced < MaterialIndex::size(material).unwrap() as u64 * 3 / 2 + (100 << 20));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `cargo test -p endgame-xiangqi --test all -- --ignored --exact memory::a_generations_peak_under_the_bans_stays_within_its_estimate`
/// (alone: the peak is the process's). `KAARvKN` (8,748,000 indices) and its 11 smaller files
/// from nothing under `perpetual-check`, then under `check-and-chase` (their `standard`
/// values solved too): the peak resident set of the process within the larger of the two
/// runs' announced estimates.
#[test]
#[ignore = "generates 28 M positions under the bans; run alone (the process's peak)"]
fn a_generations_peak_under_the_bans_stays_within_its_estimate() {
    let dir = crate::common::temp_dir("memory", "peak-bans");
    let material: Material = "KAARvKN".parse().unwrap();
    let mut announced = 0;
    let mut peak = 0;
    for rules in [Rules::PerpetualCheck, Rules::CheckAndChase] {
        let summary = Tablebases::open(&dir, rules).generate(&[material], &|_| {}).unwrap();
        assert_eq!(summary.largest, 8_748_000);
        announced = announced.max(summary.estimate);
        peak = summary.peak_memory.expect("Linux tells the peak");
    }
    assert!(peak <= announced, "peak {} MiB, announced {} MiB", peak >> 20, announced >> 20);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `cargo test -p endgame-xiangqi --release --test all -- --ignored --exact memory::a_cannon_materials_peak_under_the_bans_stays_within_its_estimate`
/// (alone: the peak is the process's; about a minute). `KCCvKC` (38,928,600 indices, 16.5
/// moves a draw between its draws: predecessor lists of 39.6 bytes a draw, the most of any
/// material of up to 5 men) under `check-and-chase` after its `standard` files: the process's
/// peak within the announcement, which counts the Cannons' moves, and the announcement within
/// 1.5 times the peak (before: 811 MiB announced, 1,060 MiB at the peak in this process).
#[test]
#[ignore = "solves 40 M positions under the bans: minutes; run alone (the process's peak)"]
fn a_cannon_materials_peak_under_the_bans_stays_within_its_estimate() {
    let dir = crate::common::temp_dir("memory", "cannons");
    let material: Material = "KCCvKC".parse().unwrap();
    Tablebases::open(&dir, Rules::Standard).generate(&[material], &|_| {}).unwrap();
    let tables = Tablebases::open(&dir, Rules::CheckAndChase);
    let summary = tables.generate(&[material], &|_| {}).unwrap();
    let (peak, announced) = (summary.peak_memory.expect("Linux tells the peak"), summary.estimate);
    assert_eq!(summary.largest, 38_928_600);
    assert!(peak <= announced, "peak {} MiB, announced {} MiB", peak >> 20, announced >> 20);
    assert!(announced <= peak * 3 / 2, "peak {} MiB, announced {} MiB", peak >> 20, announced >> 20);
    std::fs::remove_dir_all(&dir).unwrap();
}
