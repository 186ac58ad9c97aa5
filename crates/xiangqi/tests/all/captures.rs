//! Generation with the smaller tables read from their files a block at a time (the store's
//! `solve_from_files`) against the solve in memory with every smaller table held whole
//! (`MemoryTables::solve`): the same value at every index, on materials whose captures lead
//! into several smaller tables (colour twins' files among them); and a damaged smaller file
//! is an error, not a wrong table. The same with the solver's lists spilled to a scratch file.
//!
//! Under `perpetual-check` and `check-and-chase` the same: the store's generation (its
//! `solve_rule_from_files`, the rule's files read a block at a time) against
//! `PerpetualTablebase::solve` with every smaller table held whole.

use endgame_core::Retrograde;
use endgame_xiangqi::{GenerateError, MemoryTables, PerpetualTablebase, Rules, Tablebases};

use crate::common::{material, temp_dir};

fn same_values_as_in_memory(rules: Rules, names: &[&str]) {
    let dir = temp_dir("captures", rules.name());
    let store = Tablebases::open(&dir, rules);
    let blocks = Tablebases::open(&dir, rules).with_captures_by_blocks_only();
    let mut memory = MemoryTables::new(rules);
    let solver = Retrograde::new().compact(true);
    let solver_spilling = Retrograde::new().compact(true).spill_above(0).scratch_dir(&dir);
    for &name in names {
        let m = material(name);
        store.generate(&[m], &|_| {}).unwrap();
        memory.solve(m).unwrap();
        let from_files = store.solve_from_files(m, &solver).unwrap();
        // The solver's lists through a scratch file, as in the solves of 64 M indices or more.
        let spilled = store.solve_from_files(m, &solver_spilling).unwrap();
        // Every smaller table read a block at a time (the small ones are else held whole).
        let by_blocks = blocks.solve_from_files(m, &solver).unwrap();
        let held = memory.table(m).unwrap();
        assert_eq!(from_files.index().len(), held.index().len());
        for i in 0..held.index().len() {
            assert_eq!(
                from_files.solution().value(i),
                held.solution().value(i),
                "{name} under {rules}, index {i}"
            );
            assert_eq!(spilled.solution().value(i), held.solution().value(i), "{name} spilled, index {i}");
            assert_eq!(
                by_blocks.solution().value(i),
                held.solution().value(i),
                "{name} by blocks, index {i}"
            );
        }
        // The captures lead into several tables: the comparison reads more than one.
        assert!(m.after_captures().len() >= 2, "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn standard_values_read_through_the_files_equal_those_held_whole() {
    // KRvKN reads KNvK's file for KvKN (a colour twin); KAABvKAB reads five tables.
    same_values_as_in_memory(Rules::Standard, &["KRvKN", "KNPvKA", "KRvKAB", "KAABvKAB", "KCPvKA"]);
}

#[test]
fn hdu_values_read_through_the_files_equal_those_held_whole() {
    same_values_as_in_memory(Rules::Hdu, &["KRvKN", "KNPvKA", "KRvKAB"]);
}

/// The rule's values of `names` generated under `rules` (smaller tables first), read back
/// from their files, and solved again with every smaller table read a block at a time (none
/// held whole), against the solve in memory, index by index. With `standard_first`, the
/// `standard` files are generated first (the rule's solve starts from them; else it solves
/// under `standard` rules with its captures read from the rule's files too).
fn rule_values_as_in_memory(rules: Rules, names: &[&str], standard_first: bool) {
    let dir = temp_dir("captures", &format!("{}-{standard_first}", rules.name()));
    let store = Tablebases::open(&dir, rules);
    let blocks = Tablebases::open(&dir, rules).with_captures_by_blocks_only();
    let mut memory = PerpetualTablebase::with_rules(rules);
    let solver = Retrograde::new().compact(true);
    for &name in names {
        let m = material(name);
        if standard_first {
            Tablebases::open(&dir, Rules::Standard).generate(&[m], &|_| {}).unwrap();
        }
        store.generate(&[m], &|_| {}).unwrap();
        memory.solve(m).unwrap();
        let held = memory.solution(m).unwrap();
        let written = store.read_rule_solution(m).unwrap();
        let (by_blocks, reads) = blocks
            .solve_rule_from_files(m, &PerpetualTablebase::with_rules(rules), &solver, &|_| {})
            .unwrap();
        assert_eq!(by_blocks.len(), held.len(), "{name}");
        for i in 0..held.len() {
            let expected = held.value(i);
            assert_eq!(written.value(i), expected, "{name} under {rules}, index {i} (written)");
            assert_eq!(by_blocks.value(i), expected, "{name} under {rules}, index {i} (blocks only)");
        }
        // The captures lead into several tables, all read through the files.
        assert!(m.after_captures().len() >= 2, "{name}");
        assert!(reads.values > 0 && reads.blocks > 0, "{name}: {reads:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn perpetual_check_values_read_through_the_files_equal_those_held_whole() {
    // KRvKN reads KNvK's file for KvKN (a colour twin); KRvKAB reads four tables.
    rule_values_as_in_memory(Rules::PerpetualCheck, &["KRvKN", "KRvKAB"], true);
}

#[test]
fn check_and_chase_values_read_through_the_files_equal_those_held_whole() {
    rule_values_as_in_memory(Rules::CheckAndChase, &["KRvKN", "KCvKAB"], false);
}

#[test]
fn a_damaged_smaller_file_is_an_error() {
    let dir = temp_dir("captures", "damaged");
    let store = Tablebases::open(&dir, Rules::Standard);
    let m = material("KRvKAB");
    store.generate(&[m], &|_| {}).unwrap();
    // Flip bytes in the middle of KRvKB's WDL file (its blocks, past the header).
    let path = store.path(material("KRvKB"));
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() - 64;
    for b in &mut bytes[at..at + 16] {
        *b ^= 0x5a;
    }
    std::fs::write(&path, bytes).unwrap();
    let err = store.solve_from_files(m, &Retrograde::new().compact(true)).err().expect("an error");
    assert!(matches!(err, GenerateError::Table(_)), "{err}");
    assert!(err.to_string().contains("KRvKB"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
