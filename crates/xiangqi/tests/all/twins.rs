//! Colour twins answered from one file: a generation writes one file for a material and its
//! colour twin (colours swapped, ranks flipped), and the store answers the twin from it. The
//! answers (every legal position's value, moves, main lines, statistics) must be those of the
//! twin's own file, under every rule set.

use crate::common::{material, temp_dir};
use endgame_xiangqi::{Material, MaterialIndex, MemoryTables, PerpetualTablebase, Probe, Rules, Tablebases};

/// Writes the files of `materials` and of every material they rest on, each solved on its
/// own (no file answers for another), into `dir` under `rules`.
fn own_files(dir: &std::path::Path, rules: Rules, materials: &[Material]) {
    let store = Tablebases::open(dir, rules);
    std::fs::create_dir_all(store.dir()).unwrap();
    let all = Tablebases::needed(materials).unwrap();
    let mut twins: Vec<Material> = all.iter().map(|m| m.colour_twin()).collect();
    twins.extend(all);
    twins.sort_by_key(|m| (m.men(), m.to_string()));
    twins.dedup();
    if rules.has_bans() {
        let mut tables = PerpetualTablebase::with_rules(rules);
        for &m in &twins {
            tables.solve(m).unwrap();
        }
        for m in twins {
            store.write_rule_solution(m, tables.solution(m).unwrap()).unwrap();
        }
    } else {
        let mut tables = MemoryTables::new(rules).colour_twins(false);
        for &m in &twins {
            tables.solve(m).unwrap();
        }
        for m in twins {
            store.write_solution(m, tables.table(m).unwrap().solution()).unwrap();
        }
    }
}

/// For each of `materials`: a generation writes the file of the one players write and not its
/// twin's, and at every index of the twin the store answers as the twin's own file does (value,
/// or the same refusal of an illegal position); the twin's statistics, and the moves and main
/// line of some of its positions, are those of its own file.
fn answered_from_the_twin(name: &str, rules: Rules, materials: &[&str]) {
    let materials: Vec<Material> = materials.iter().map(|m| material(m)).collect();
    let (one, both) = (temp_dir("twins", &format!("{name}-one")), temp_dir("twins", &format!("{name}-both")));
    let generated = Tablebases::open(&one, rules);
    let summary = generated.generate(&materials, &|_| {}).unwrap();
    assert!(summary.twins > 0, "{summary:?}");
    own_files(&both, rules, &materials);
    let own = Tablebases::open(&both, rules);
    for &m in &materials {
        let (written, twin) = (m.canonical(), m.canonical().colour_twin());
        assert_ne!(written, twin, "{m}: a material with a twin");
        assert!(generated.path(written).exists(), "{written} is written");
        assert!(!generated.path(twin).exists(), "{twin} is not written: its twin's file answers for it");
        assert_eq!(generated.file_material(twin), written);
        assert!(generated.has_file(twin));
        let index = MaterialIndex::new(twin);
        let mut answered = 0;
        for i in 0..index.len() {
            let Some(position) = index.decode(i) else { continue };
            match (generated.probe(&position), own.probe(&position)) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a, b, "{twin} under {rules}: {}", position.setup());
                    assert_eq!(generated.probe_wdl(&position).unwrap(), endgame_xiangqi::Category::of(a));
                    answered += 1;
                    if i % 997 == 0 {
                        assert_eq!(generated.moves(&position).unwrap(), own.moves(&position).unwrap());
                        assert_eq!(
                            generated.main_line(&position).unwrap(),
                            own.main_line(&position).unwrap()
                        );
                    }
                }
                (Err(a), Err(b)) => {
                    assert!(a.is_illegal() && b.is_illegal(), "{twin}: {a} / {b}");
                }
                (a, b) => panic!("{twin} under {rules}: {}: {a:?} against {b:?}", position.setup()),
            }
        }
        assert!(answered > index.len() / 4, "{twin}: {answered} of {}", index.len());
        assert_eq!(generated.stats(twin).unwrap(), own.stats(twin).unwrap(), "{twin} under {rules}");
        assert_eq!(generated.stats(written).unwrap(), own.stats(written).unwrap(), "{written} under {rules}");
    }
    let _ = std::fs::remove_dir_all(one);
    let _ = std::fs::remove_dir_all(both);
}

#[test]
fn standard_twins_are_answered_from_one_file() {
    // An attacker against defenders (a Soldier: its ranks flip), two identical Advisors, and
    // no attacker at all.
    answered_from_the_twin("standard", Rules::Standard, &["KAABvKP", "KNvKAB", "KAvKBB"]);
}

#[test]
fn hdu_twins_are_answered_from_one_file() {
    answered_from_the_twin("hdu", Rules::Hdu, &["KvKN", "KCvKA"]);
}

#[test]
fn perpetual_check_twins_are_answered_from_one_file() {
    // KRvKN has wins and losses by the rule, whose ranks the twin's answers keep.
    answered_from_the_twin("perpetual", Rules::PerpetualCheck, &["KNvKR", "KPvKA"]);
}

#[test]
fn check_and_chase_twins_are_answered_from_one_file() {
    // KRvKN has wins and losses by the ban on perpetual check; the chase stage runs on the
    // draws it leaves (no material this small has results of the ban on perpetual chase).
    answered_from_the_twin("chase", Rules::CheckAndChase, &["KNvKR", "KPvKA"]);
}

/// Asking for a twin writes the file of the material players write, once; asking again finds it.
#[test]
fn a_generation_never_writes_both_twins() {
    let dir = temp_dir("twins", "never-both");
    let store = Tablebases::open(&dir, Rules::Standard);
    let summary = store.generate(&[material("KAABBvKR")], &|_| {}).unwrap();
    assert!(store.path(material("KRvKAABB")).exists());
    for m in Tablebases::needed(&[material("KAABBvKR")]).unwrap() {
        let (has, twins) = (store.path(m).exists(), store.path(m.colour_twin()).exists());
        assert!(has || twins, "{m} has a file");
        assert!(!(has && twins) || m == m.colour_twin(), "{m}: both twins written");
    }
    assert_eq!(summary.generated, summary.materials);
    let again = store.generate(&[material("KRvKAABB"), material("KAABBvKR")], &|_| {}).unwrap();
    assert_eq!((again.generated, again.kept), (0, summary.materials));
    let _ = std::fs::remove_dir_all(dir);
}
