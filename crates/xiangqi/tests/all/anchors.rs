//! The `standard` tables against the statistics GamesmanXiangqi published (tests/data/anchors,
//! see its SOURCE.md): counts of legal positions, wins, losses and draws for the side to move,
//! and the longest wins of each colour, summed over the tiers a Soldier material is split into.

use std::collections::BTreeMap;

use endgame_core::Counts;
use endgame_xiangqi::{Material, MemoryTables, Rules, Stats};

const TSV: &str = include_str!("../data/anchors/xiangqi_gamesmanxiangqi_tiers.tsv");

/// The published figures of every material, tiers summed, with the header's erratum applied.
fn published() -> BTreeMap<Material, Stats> {
    let mut out: BTreeMap<Material, Stats> = BTreeMap::new();
    for line in TSV.lines().filter(|l| !l.starts_with('#') && !l.starts_with("material")) {
        let fields: Vec<&str> = line.split('\t').collect();
        let material: Material = fields[0].split(' ').next().unwrap().parse().unwrap();
        let n: Vec<u64> = fields[2..8].iter().map(|f| f.parse().unwrap()).collect();
        let s = out.entry(material).or_default();
        s.counts.positions += n[0];
        s.counts.wins += n[1];
        s.counts.losses += n[2];
        s.counts.draws += n[3];
        s.longest_red_win_plies = s.longest_red_win_plies.max(n[4] as u32);
        s.longest_black_win_plies = s.longest_black_win_plies.max(n[5] as u32);
    }
    // The erratum in the file's header: these materials' published rows are wrong (a bug in
    // GamesmanXiangqi's tier code); the header gives their correct totals.
    let erratum = TSV.lines().find(|l| l.starts_with("#   KPPvKB")).expect("the erratum line");
    let body = erratum.trim_start_matches("#   ").split(" (").next().unwrap();
    for part in body.split(" | ") {
        let words: Vec<&str> = part.split(' ').collect();
        let n: Vec<u64> = words[1..7].iter().map(|f| f.parse().unwrap()).collect();
        out.insert(
            words[0].parse().unwrap(),
            Stats {
                counts: Counts {
                    positions: n[0],
                    wins: n[1],
                    losses: n[2],
                    draws: n[3],
                    ..Counts::default()
                },
                longest_red_win_plies: n[4] as u32,
                longest_black_win_plies: n[5] as u32,
            },
        );
    }
    out
}

fn check(materials: &[Material]) {
    let mut tables = MemoryTables::new(Rules::Standard);
    compare(materials, |material| {
        tables.solve(material).unwrap();
        let ours = tables.table(material).unwrap().stats();
        if material.men() >= 5 {
            // Nothing in the list rests on a 5-man table: free its memory.
            tables.remove(material);
        }
        ours
    });
}

/// Our statistics of each material (from `ours`) against the published ones: every
/// difference is listed.
fn compare(materials: &[Material], mut ours: impl FnMut(Material) -> Stats) {
    let published = published();
    let mut wrong = Vec::new();
    for &material in materials {
        let (ours, theirs) = (ours(material), published[&material]);
        if ours != theirs {
            wrong.push(format!("{material}: ours {ours:?}, published {theirs:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} materials differ:\n{}",
        wrong.len(),
        materials.len(),
        wrong.join("\n")
    );
}

#[test]
fn the_erratum_is_read() {
    let published = published();
    assert_eq!(published.len(), 445);
    assert_eq!(published[&"KPNvKB".parse().unwrap()].counts.positions, 3_444_870);
    assert_eq!(published[&"KvK".parse().unwrap()].counts.positions, 108);
}

#[test]
fn every_pawnless_material_up_to_4_men_matches() {
    let materials: Vec<Material> =
        Material::all_up_to(4).into_iter().filter(|m| !m.to_string().contains('P')).collect();
    assert_eq!(materials.len(), 66);
    check(&materials);
}

#[test]
fn materials_with_soldiers_match() {
    let materials: Vec<Material> =
        ["KPvK", "KvKP", "KPPvK", "KAPvK", "KPvKA", "KBvKP", "KPvKP", "KRvKP", "KNvKP", "KPCvK"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
    check(&materials);
}

#[test]
#[ignore = "every 5-man material: about half an hour on 2 cores"]
fn every_material_with_5_men_matches() {
    let published = published();
    let materials: Vec<Material> = published.keys().copied().filter(|m| m.men() == 5).collect();
    assert_eq!(materials.len(), 354);
    check(&materials);
}

/// `XIANGQI_ANCHORS="KRvKA KCPvK" cargo test --release -- --ignored some_materials_match`
#[test]
#[ignore = "the materials named in $XIANGQI_ANCHORS"]
fn some_materials_match() {
    let names = std::env::var("XIANGQI_ANCHORS").unwrap_or_default();
    let materials: Vec<Material> = names.split_whitespace().map(|m| m.parse().unwrap()).collect();
    check(&materials);
}

/// The files of `endgame xiangqi generate --all-up-to 5 --dir DIR` against the published
/// statistics (a few minutes: every file is read once):
/// `XIANGQI_ANCHOR_DIR=DIR cargo test --release -p endgame-xiangqi --test all -- --ignored anchors::generated_files_match`
#[test]
#[ignore = "reads the generated files of every material up to 5 men in $XIANGQI_ANCHOR_DIR"]
fn generated_files_match() {
    let dir = std::env::var("XIANGQI_ANCHOR_DIR")
        .expect("XIANGQI_ANCHOR_DIR names a directory of generated tables");
    let store = endgame_xiangqi::Tablebases::open(dir, Rules::Standard);
    let materials: Vec<Material> = published().into_keys().collect();
    compare(&materials, |material| {
        assert!(
            store.has_file(material),
            "{material}: no file (nor its colour twin's) in {}",
            store.dir().display()
        );
        store.stats(material).unwrap()
    });
}
