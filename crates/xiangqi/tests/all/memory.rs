//! The memory a generation announces against what it holds: the solver's own count of its
//! structures at their peak ([`Solution::solver_peak_bytes`]) within the estimate the store
//! announces and checks ([`Retrograde::memory_estimate`]), for defender-heavy materials, and
//! the tables a solve reads within what the estimate counts for them.

use endgame_core::Retrograde;
use endgame_xiangqi::store::cost::process_bytes;
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
            // What the store announces adds the tables it reads (2 bytes an index each) and the
            // process: the tables as loaded take no more.
            let announced = Tablebases::memory_estimate(material, |_| false);
            let reads: u64 = material
                .after_captures()
                .into_iter()
                .map(|m| m.canonical())
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .map(|m| {
                    let t = tables.answering(m).unwrap().0;
                    (t.solution().bytes_per_position() * t.index().len() + t.solution().escapes() * 16) as u64
                })
                .sum();
            assert!(
                peak + reads + process_bytes() <= announced,
                "{name}: {peak} + {reads} against {announced}"
            );
            assert_eq!(MaterialIndex::size(material), Some(n as usize));
        }
    }
}
