//! `verify`: a table checked against the rules position by position finds every wrong value.

use crate::common::material;
use endgame_core::RuleValue;
use endgame_core::Value;
use endgame_xiangqi::tables::audit::{VerifyError, value_from_moves, verify};
use endgame_xiangqi::{MaterialIndex, MemoryTables, Position, Probe, ProbeError, Rules};

/// A table with one value changed: what a solver bug would leave.
struct Tampered<'a> {
    tables: &'a MemoryTables,
    position: Position,
    value: Value,
}

impl Probe for Tampered<'_> {
    fn rules(&self) -> Rules {
        self.tables.rules()
    }

    fn lookup(&self, position: &Position) -> Result<RuleValue, ProbeError> {
        if *position == self.position { Ok(self.value.into()) } else { self.tables.lookup(position) }
    }
}

#[test]
fn solved_tables_agree_with_their_moves_at_every_index() {
    let mut tables = MemoryTables::new(Rules::Standard);
    for name in ["KRvKA", "KNvKB", "KCvKA", "KPvKA"] {
        let m = material(name);
        tables.solve(m).unwrap();
        let found = verify(&tables, m, u64::MAX, 7).unwrap();
        assert!(found.every_index);
        assert_eq!(found.checked + found.skipped, MaterialIndex::new(m).len() as u64, "{name}");
        assert!(found.checked > 1000, "{name}: {found:?}");
        assert_eq!(found.mismatch_count, 0, "{name}: {:?}", found.mismatches);
        // A sample checks fewer positions, the same way.
        let sample = verify(&tables, m, 500, 7).unwrap();
        assert!(!sample.every_index && sample.checked + sample.skipped == 500 && sample.mismatch_count == 0);
    }
}

#[test]
fn one_wrong_value_is_found() {
    let mut tables = MemoryTables::new(Rules::Standard);
    let m = material("KRvKA");
    tables.solve(m).unwrap();
    let index = MaterialIndex::new(m);
    // Some legal positions of each kind, each given a wrong value of another kind or distance.
    let legal = (0..index.len())
        .filter_map(|i| index.decode(i))
        .filter(|p| p.check(Rules::Standard).is_ok() && !p.legal_moves(Rules::Standard).is_empty());
    let mut tried = 0;
    for position in legal.step_by(997).take(6) {
        let right = tables.probe(&position).unwrap().plain();
        for wrong in [Value::Draw(None), Value::win_in(1), Value::loss_in(2), Value::win_in(41)] {
            if wrong == right {
                continue;
            }
            let tampered = Tampered { tables: &tables, position, value: wrong };
            assert_ne!(value_from_moves(&tampered, &position).unwrap(), wrong);
            let found = verify(&tampered, m, u64::MAX, 1).unwrap();
            assert!(found.mismatch_count >= 1, "{right} -> {wrong} not found");
            assert!(
                found
                    .mismatches
                    .iter()
                    .any(|x| x.position == position && x.table == wrong && x.from_moves == right),
                "{right} -> {wrong}: {:?}",
                found.mismatches
            );
            tried += 1;
        }
    }
    assert!(tried >= 12, "{tried}");
}

#[test]
fn other_rules_are_refused() {
    let mut tables = MemoryTables::new(Rules::Hdu);
    tables.solve(material("KvKN")).unwrap();
    assert!(matches!(verify(&tables, material("KvKN"), 10, 1), Err(VerifyError::Rules(Rules::Hdu))));
}
