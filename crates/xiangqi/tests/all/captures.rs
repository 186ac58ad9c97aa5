//! Generation with the smaller tables read from their files a block at a time (the store's
//! `solve_from_files`) against the solve in memory with every smaller table held whole
//! (`MemoryTables::solve`): the same value at every index, on materials whose captures lead
//! into several smaller tables (colour twins' files among them); and a damaged smaller file
//! is an error, not a wrong table. The same with the solver's lists spilled to a scratch file.

use endgame_core::Retrograde;
use endgame_xiangqi::{GenerateError, MemoryTables, Rules, Tablebases};

use crate::common::{material, temp_dir};

fn same_values_as_in_memory(rules: Rules, names: &[&str]) {
    let dir = temp_dir("captures", rules.name());
    let store = Tablebases::open(&dir, rules);
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
        let held = memory.table(m).unwrap();
        assert_eq!(from_files.index().len(), held.index().len());
        for i in 0..held.index().len() {
            assert_eq!(
                from_files.solution().value(i),
                held.solution().value(i),
                "{name} under {rules}, index {i}"
            );
            assert_eq!(spilled.solution().value(i), held.solution().value(i), "{name} spilled, index {i}");
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
