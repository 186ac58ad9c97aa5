//! Converting version-2 files, and the manifest of a table set (issue 22).

use std::path::Path;

use crate::common::{material, temp_dir};
use endgame_core::Retrograde;
use endgame_core::RuleValue;
use endgame_core::table::v2::write_v2;
use endgame_xiangqi::store::convert::{self, ConvertOptions};
use endgame_xiangqi::store::manifest::{self, MANIFEST};
use endgame_xiangqi::store::source::table_id;
use endgame_xiangqi::{
    Compression, Material, MaterialIndex, MemoryTables, PerpetualTablebase, Probe, Rules, Tablebases,
};

/// Version-2 files of `KRvKN` and its smaller materials (`KCvKA` under `hdu`, whose holes are
/// other indices than the other rule sets'; written from tables solved in memory, as the
/// previous version wrote them) are refused with the command that converts them; converted,
/// every index of every material holds its value (holes `None`), the files are byte for byte
/// those a generation writes, and the old files are gone. Rewritten with the other compression
/// and back, the same holds.
#[test]
fn convert_keeps_every_index_and_writes_what_a_generation_writes() {
    for rules in [Rules::Standard, Rules::PerpetualCheck, Rules::Hdu] {
        let dir = temp_dir("files", &format!("convert-{rules}"));
        let reference = temp_dir("files", &format!("reference-{rules}"));
        let top = material(if rules == Rules::Hdu { "KCvKA" } else { "KRvKN" });
        Tablebases::open(&reference, rules).generate(&[top], &|_| {}).unwrap();
        let store = Tablebases::open(&dir, rules);
        std::fs::create_dir_all(store.dir()).unwrap();
        // The values, solved in memory.
        let mut values: Vec<(Material, Vec<Option<RuleValue>>)> = Vec::new();
        if rules != Rules::PerpetualCheck {
            let mut tables = MemoryTables::new(rules);
            for m in top.with_smaller() {
                tables.solve(m).unwrap();
                let s = tables.table(m).unwrap().solution();
                values.push((m, s.values().map(|v| v.map(RuleValue::from)).collect()));
            }
        } else {
            let mut tables = PerpetualTablebase::new();
            for m in top.with_smaller() {
                tables.solve_one(m, None, &Retrograde::new()).unwrap();
                values.push((m, tables.solution(m).unwrap().values().collect()));
            }
        }
        for (m, v) in &values {
            let id = table_id(*m, rules, v.len());
            write_v2(&store.v2_path(*m), &id, rules == Rules::PerpetualCheck, |p| v[p]).unwrap();
        }
        let position = MaterialIndex::new(top)
            .decode(12_345)
            .into_iter()
            .chain((0..).filter_map(|i| MaterialIndex::new(top).decode(i)))
            .find(|p| p.check(rules).is_ok())
            .unwrap();
        let e = store.probe(&position).unwrap_err().to_string();
        assert!(e.contains("format version 2") && e.contains("endgame xiangqi convert"), "{e}");
        let converted = convert::convert(&dir, ConvertOptions::default(), &|_| {}).unwrap();
        assert_eq!(converted.len(), values.len());
        let store = Tablebases::open(&dir, rules);
        for (m, _) in &values {
            assert!(!store.v2_path(*m).exists(), "{m}");
        }
        same_values_and_files(&store, &values, &reference);
        assert!(store.probe(&position).is_ok());
        // A second run has nothing to convert.
        assert!(convert::convert(&dir, ConvertOptions::default(), &|_| {}).unwrap().is_empty());
        // Rewritten with the best compression, every index still holds its value, and the files
        // are those a generation with it writes; rewritten back, the first files again.
        let best = temp_dir("files", &format!("best-{rules}"));
        Tablebases::open(&best, rules).with_compression(Compression::Best).generate(&[top], &|_| {}).unwrap();
        for (compression, like) in [(Compression::Best, &best), (Compression::Normal, &reference)] {
            let options = ConvertOptions { compression, rewrite: true };
            let rewritten = convert::convert(&dir, options, &|_| {}).unwrap();
            assert_eq!(rewritten.len(), values.len());
            let left: Vec<_> =
                std::fs::read_dir(store.dir()).unwrap().map(|e| e.unwrap().file_name()).collect();
            assert_eq!(left.len(), 2 * values.len(), "{left:?}");
            same_values_and_files(&Tablebases::open(&dir, rules), &values, like);
        }
        assert!(Tablebases::open(&dir, rules).probe(&position).is_ok());
        std::fs::remove_dir_all(&best).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::remove_dir_all(&reference).unwrap();
    }
}

/// Every index of every material of `values` reads back from `store` as it was, and each file
/// is byte for byte the one a generation wrote under `reference` (when the generation wrote it
/// and not its colour twin's).
fn same_values_and_files(
    store: &Tablebases,
    values: &[(Material, Vec<Option<RuleValue>>)],
    reference: &Path,
) {
    let rules = store.rules();
    let reference = Tablebases::open(reference, rules);
    let mut compared = 0;
    for (m, v) in values {
        let back = store.read_rule_solution(*m).unwrap();
        for (p, value) in v.iter().enumerate() {
            assert_eq!(back.value(p), *value, "{m} ({rules}) index {p}");
        }
        // A generation writes one file per pair of colour twins (the previous version wrote
        // both, and both convert).
        if !reference.path(*m).exists() {
            assert!(reference.path(m.colour_twin()).exists(), "{m}");
            continue;
        }
        compared += 1;
        for (a, b) in [(store.path(*m), reference.path(*m)), (store.dtm_path(*m), reference.dtm_path(*m))] {
            assert!(std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap(), "{}", a.display());
        }
    }
    assert!(compared >= 3, "{compared}");
}

#[test]
fn the_manifest_catches_a_changed_byte_and_a_missing_file() {
    let dir = temp_dir("files", "manifest");
    let store = Tablebases::open(&dir, Rules::Standard);
    store.generate(&[material("KRvKA")], &|_| {}).unwrap();
    let entries = manifest::write_manifest(&dir).unwrap();
    // KvK, KRvK, KAvK (which answers for KvKA), KRvKA: two files each.
    assert_eq!(entries.len(), 8);
    assert_eq!(manifest::read_manifest(&dir.join(MANIFEST)).unwrap(), entries);
    let check = manifest::verify_files(&dir).unwrap();
    assert!(check.ok() && check.matching == 8, "{check:?}");
    // One byte of a DTM file.
    let dtm = store.dtm_path(material("KRvKA"));
    let mut bytes = std::fs::read(&dtm).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&dtm, &bytes).unwrap();
    let check = manifest::verify_files(&dir).unwrap();
    assert!(!check.ok());
    assert_eq!(check.differing.len(), 1);
    assert_eq!(check.differing[0].0.file, "xiangqi/standard/KRvKA.dtm");
    assert!(check.differing[0].1.starts_with("SHA-256 "), "{:?}", check.differing);
    // A missing file, and one the manifest does not list.
    std::fs::remove_file(store.path(material("KAvK"))).unwrap();
    std::fs::write(dir.join("xiangqi/standard/KCvK.wdl"), b"new").unwrap();
    let check = manifest::verify_files(&dir).unwrap();
    assert_eq!(
        check.missing.iter().map(|e| e.file.as_str()).collect::<Vec<_>>(),
        ["xiangqi/standard/KAvK.wdl"]
    );
    assert_eq!(check.unlisted, ["xiangqi/standard/KCvK.wdl"]);
    assert_eq!(check.matching, 6);
    // A bad line is named.
    std::fs::write(dir.join(MANIFEST), "KvK  standard  xiangqi/standard/KvK.wdl  12  abc\n").unwrap();
    let e = manifest::verify_files(&dir).unwrap_err().to_string();
    assert!(e.contains("line 1: sha256 \"abc\": expected 64 lowercase hexadecimal digits"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `stats` of a generated material comes from the header, equal to the count over the table
/// solved in memory (under `hdu` too, whose tables value positions that are not legal ones).
#[test]
fn statistics_in_the_header_equal_a_count_over_the_table() {
    for rules in [Rules::Standard, Rules::Hdu] {
        let dir = temp_dir("files", &format!("stats-{rules}"));
        let store = Tablebases::open(&dir, rules);
        let names = ["KRvKA", "KAvKR", "KNvKB", "KNvK"];
        for m in names {
            store.generate(&[material(m)], &|_| {}).unwrap();
        }
        let mut memory = MemoryTables::new(rules);
        for name in names {
            let m = material(name);
            for smaller in m.with_smaller() {
                if memory.table(smaller).is_none() {
                    memory.solve(smaller).unwrap();
                }
            }
            let expected = memory.table(m).unwrap().stats();
            // KAvKR is answered from the file of its colour twin KRvKA.
            let file = store.file_material(m);
            let from_header = store.file_stats(file).unwrap().unwrap();
            if file == m {
                assert_eq!(from_header, expected, "{m} ({rules})");
            } else {
                assert!(store.file_stats(m).unwrap().is_none(), "{m}");
                assert_eq!(from_header.colour_twin(), expected, "{m} ({rules})");
            }
            assert_eq!(store.stats(m).unwrap(), expected, "{m} ({rules})");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
