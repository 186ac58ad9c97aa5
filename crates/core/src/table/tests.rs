//! The format's tests: values round trip through both files whole and block by block, damaged
//! and mismatched files are refused, the cache keeps its budget, and a pair answers at every
//! index.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use proptest::prelude::*;

use super::cache::SHARDS;
use super::*;
use crate::value::{Ban, Plies, RuleValue};

fn id(positions: u64) -> TableId {
    TableId { game: "test".into(), variant: "KvK".into(), rules: "standard".into(), positions }
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("endgame-tf-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

struct Paths {
    wdl: PathBuf,
    dtm: PathBuf,
}

impl Paths {
    fn new(dir: &Path, name: &str) -> Paths {
        Paths { wdl: dir.join(format!("{name}.wdl")), dtm: dir.join(format!("{name}.dtm")) }
    }

    fn paths(&self) -> TablePaths<'_> {
        TablePaths { wdl: &self.wdl, dtm: &self.dtm }
    }
}

/// [`round_trip_with`] the normal compression.
fn round_trip(dir: &Path, values: &[Option<RuleValue>]) -> (u64, u64) {
    round_trip_with(dir, values, Compression::Normal)
}

/// Writes `values` and checks that every value that is not a hole reads back, whole and
/// block by block; returns the files' sizes.
fn round_trip_with(dir: &Path, values: &[Option<RuleValue>], compression: Compression) -> (u64, u64) {
    let pair = Paths::new(dir, "t");
    let id = id(values.len() as u64);
    let counters = vec![("positions".to_string(), values.len() as u64), ("x".to_string(), u64::MAX)];
    write_tables(pair.paths(), &id, &counters, compression, |r, out| out.extend(values[r].iter().copied()))
        .unwrap();
    let files = TableFiles::open(pair.paths(), &id).unwrap();
    files.verify().unwrap();
    assert_eq!(files.wdl.counters(), &counters[..]);
    assert_eq!(files.wdl.counter("x"), Some(u64::MAX));
    let whole = files.read_rule_solution_with(|p| values[p].is_none()).unwrap();
    for (p, v) in values.iter().enumerate() {
        assert_eq!(whole.value(p), *v, "position {p}");
    }
    let plain = files.read_solution_with(|p| values[p].is_none()).unwrap();
    for (p, v) in values.iter().enumerate() {
        assert_eq!(plain.value(p), v.map(RuleValue::plain), "position {p}");
    }
    // A block at a time, holes as stored: as the value looked up at each index.
    let stored = files.read_solution_as_stored().unwrap();
    let looked_up = files.read_solution_at(values.len(), Some).unwrap();
    assert_eq!(stored.len(), values.len());
    for (p, v) in values.iter().enumerate() {
        assert_eq!(stored.value(p), looked_up.value(p), "position {p}");
        if let Some(v) = v {
            assert_eq!(stored.value(p), Some(v.plain()), "position {p}");
        }
    }
    // Block by block, as a probe reads them.
    let wdl: Vec<Block> = (0..files.wdl.blocks()).map(|b| files.wdl.read_block(b).unwrap()).collect();
    let dtm: Vec<Block> = (0..files.dtm.blocks())
        .map(|b| files.dtm.read_dtm_block(b, &wdl[files.dtm.wdl_block_of(b, &files.wdl)]).unwrap())
        .collect();
    for (p, v) in values.iter().enumerate() {
        let Some(v) = *v else { continue };
        let (b, i) = files.wdl.locate(p);
        let c = wdl[b].category(i).unwrap();
        assert_eq!(c, Category::of(v));
        let symbol = if files.dtm.needs_symbol(c) {
            let (b, i) = files.dtm.locate(p);
            dtm[b].symbol(i).unwrap()
        } else {
            0
        };
        assert_eq!(files.dtm.value(c, symbol).unwrap(), v, "position {p}");
    }
    (files.wdl.file_bytes(), files.dtm.file_bytes())
}

fn any_value() -> impl Strategy<Value = Option<RuleValue>> {
    prop_oneof![
        3 => Just(None),
        2 => Just(Some(RuleValue::Draw(None))),
        1 => (0u32..5).prop_map(|d| Some(RuleValue::Draw(Some(Plies(d))))),
        3 => (0u32..300).prop_map(|d| Some(RuleValue::Win(Plies(d)))),
        3 => (0u32..300).prop_map(|d| Some(RuleValue::Loss(Plies(d)))),
        1 => (any_ban(), 0u32..40).prop_map(|(b, r)| Some(RuleValue::WinByRule(b, r))),
        1 => (any_ban(), 0u32..40).prop_map(|(b, r)| Some(RuleValue::LossByRule(b, r))),
        1 => (any_ban(), 0u32..(1 << 29)).prop_map(|(b, r)| Some(RuleValue::LossByRule(b, r))),
    ]
}

fn any_ban() -> impl Strategy<Value = Ban> {
    prop_oneof![Just(Ban::Check), Just(Ban::Chase)]
}

/// Adversarial patterns: runs, one value, holes only, values alternating with holes.
fn patterned() -> impl Strategy<Value = Vec<Option<RuleValue>>> {
    (any_value(), any_value(), 1usize..50, 0usize..3000)
        .prop_map(|(a, b, run, n)| (0..n).map(|i| if (i / run) % 2 == 0 { a } else { b }).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_value_round_trips(
        values in prop::collection::vec(any_value(), 0..3000),
        compression in prop_oneof![Just(Compression::Normal), Just(Compression::Best)],
    ) {
        let dir = scratch(&format!("prop-{}", crc32fast::hash(format!("{values:?}").as_bytes())));
        round_trip_with(&dir, &values, compression);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn patterns_round_trip(values in patterned()) {
        let dir = scratch(&format!("pattern-{}", crc32fast::hash(format!("{values:?}").as_bytes())));
        round_trip(&dir, &values);
        fs::remove_dir_all(&dir).unwrap();
    }
}

/// Positions, their values, the DTM file's width.
type Case = (usize, fn(usize) -> Option<RuleValue>, u8);

#[test]
fn every_symbol_width_round_trips_across_blocks() {
    let dir = scratch("widths");
    // DTM symbols of 0 (one value per category), 8, 16 and 32 bits; several blocks.
    let cases: [Case; 5] = [
        (300_000, |p| if p % 3 == 0 { None } else { Some(RuleValue::Draw(None)) }, 0),
        (200_000, |p| Some(if p % 2 == 0 { RuleValue::Win(Plies(1)) } else { RuleValue::Loss(Plies(0)) }), 0),
        (300_000, |p| (p % 7 != 0).then_some(RuleValue::Win(Plies((p % 255) as u32))), 8),
        (150_000, |p| Some(RuleValue::Loss(Plies((p % 20_000) as u32))), 16),
        (
            140_000,
            |p| Some(RuleValue::WinByRule(if p % 3 == 0 { Ban::Chase } else { Ban::Check }, p as u32 / 2)),
            32,
        ),
    ];
    for (n, f, width) in cases {
        let values: Vec<_> = (0..n).map(f).collect();
        for compression in [Compression::Normal, Compression::Best] {
            round_trip_with(&dir, &values, compression);
            let files = TableFiles::open(Paths::new(&dir, "t").paths(), &id(n as u64)).unwrap();
            assert_eq!(files.dtm.head.width, width, "{n}");
            let dtm_blocks = if width == 0 { 0 } else { n.div_ceil(compression.dtm_block()) };
            assert_eq!(files.dtm.blocks(), dtm_blocks, "{n} {compression:?}");
            assert_eq!(files.wdl.blocks(), n.div_ceil(WDL_BLOCK));
        }
    }
    // Nothing is left under temporary names.
    let left: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.iter().all(|n| !n.to_string_lossy().ends_with(".tmp")), "{left:?}");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn frequent_values_get_small_symbols_and_holes_cost_little() {
    let dir = scratch("remap");
    let n = 1 << 18;
    // Distances 100-199, mostly 150: one byte per symbol, 150 the first of the list.
    let values: Vec<_> = (0..n)
        .map(|p: usize| {
            let h = p.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
            let d = if h.is_multiple_of(5) { 100 + (h / 5 % 100) } else { 150 };
            Some(RuleValue::Win(Plies(d as u32)))
        })
        .collect();
    round_trip(&dir, &values);
    let files = TableFiles::open(Paths::new(&dir, "t").paths(), &id(n as u64)).unwrap();
    assert_eq!(files.dtm.head.lists[Category::Win.symbol()][0], 150);
    // The same values with scattered holes: the holes take a category without DTM
    // symbols (draw), so the DTM file holds the values' symbols only: smaller than with the
    // holes given the previous value (as the WDL file would have them cheapest).
    let hole = |p: usize| (p.wrapping_mul(2_654_435_761) >> 7) % 7 < 3;
    let holed: Vec<_> = values.iter().enumerate().map(|(p, v)| if hole(p) { None } else { *v }).collect();
    let (_, dtm) = round_trip(&dir, &holed);
    let mut last = values[0];
    let previous: Vec<_> = values
        .iter()
        .enumerate()
        .map(|(p, v)| {
            if !hole(p) {
                last = *v;
            }
            last
        })
        .collect();
    let (_, dtm_previous) = round_trip(&dir, &previous);
    assert!(dtm < dtm_previous, "{dtm} vs {dtm_previous}");
    // Without holes, the same DTM file as the holed values' (the holes' symbols cost nothing).
    let drawn: Vec<_> = values
        .iter()
        .enumerate()
        .map(|(p, v)| if hole(p) { Some(RuleValue::Draw(None)) } else { *v })
        .collect();
    let (_, dtm_drawn) = round_trip(&dir, &drawn);
    assert!(dtm.abs_diff(dtm_drawn) <= 4, "{dtm} vs {dtm_drawn}"); // the draws' list: 4 bytes
    fs::remove_dir_all(&dir).unwrap();
}

fn open_err(pair: &Paths, id: &TableId) -> String {
    TableFiles::open(pair.paths(), id).and_then(|f| f.verify()).unwrap_err().to_string()
}

#[test]
fn damaged_truncated_and_mismatched_files_are_refused() {
    let dir = scratch("damage");
    let n = 200_000;
    let values: Vec<_> =
        (0..n).map(|p| (p % 3 != 0).then_some(RuleValue::Win(Plies((p % 90) as u32)))).collect();
    let pair = Paths::new(&dir, "t");
    round_trip(&dir, &values);
    let good = (fs::read(&pair.wdl).unwrap(), fs::read(&pair.dtm).unwrap());
    let id = id(n as u64);
    let restore = || {
        fs::write(&pair.wdl, &good.0).unwrap();
        fs::write(&pair.dtm, &good.1).unwrap();
    };
    for (file, bytes) in [(&pair.wdl, &good.0), (&pair.dtm, &good.1)] {
        // A byte of a block.
        let mut flipped = bytes.clone();
        let last = flipped.len() - 10;
        flipped[last] ^= 0x40;
        fs::write(file, &flipped).unwrap();
        let e = open_err(&pair, &id);
        assert!(
            e.contains("checksum mismatch (damaged file)") && e.contains(&file.display().to_string()),
            "{e}"
        );
        restore();
        // A byte of the header.
        let mut header = bytes.clone();
        header[20] ^= 0x01;
        fs::write(file, &header).unwrap();
        let e = open_err(&pair, &id);
        assert!(e.contains("header checksum mismatch"), "{e}");
        restore();
        // Truncated, longer.
        fs::write(file, &bytes[..bytes.len() - 3]).unwrap();
        assert!(open_err(&pair, &id).contains("truncated"));
        fs::write(file, &bytes[..30]).unwrap();
        assert!(open_err(&pair, &id).contains("truncated"));
        fs::write(file, &bytes[..5]).unwrap();
        assert!(open_err(&pair, &id).contains("truncated"));
        let mut longer = bytes.clone();
        longer.push(0);
        fs::write(file, &longer).unwrap();
        assert!(open_err(&pair, &id).contains("1 bytes after the last block"));
        fs::write(file, b"PK\x03\x04 not a table").unwrap();
        assert!(open_err(&pair, &id).contains("bad magic"));
        restore();
    }
    // Another table, another rule set, the files swapped.
    let e = open_err(&pair, &TableId { rules: "hdu".into(), ..id.clone() });
    assert!(
        e.contains("holds test KvK under rules standard") && e.contains("expected test KvK under rules hdu"),
        "{e}"
    );
    let swapped = Paths { wdl: pair.dtm.clone(), dtm: pair.wdl.clone() };
    assert!(open_err(&swapped, &id).contains("a DTM file where its WDL file was expected"));
    // A DTM file of another generation of the table.
    let other = Paths::new(&dir, "u");
    let changed: Vec<_> = values.iter().map(|v| v.map(|_| RuleValue::Loss(Plies(4)))).collect();
    write_tables(other.paths(), &id, &[], Compression::Normal, |r, out| {
        out.extend(changed[r].iter().copied())
    })
    .unwrap();
    let mixed = Paths { wdl: pair.wdl.clone(), dtm: other.dtm.clone() };
    let e = open_err(&mixed, &id);
    assert!(e.contains("not the DTM file of") && e.contains("not written together"), "{e}");
    // Version 2: refused, the message says it converts.
    let v2 = dir.join("v2.egtb");
    v2::write_v2(&v2, &id, false, |p| values[p]).unwrap();
    let e = TableFile::open(&v2, &id, FileKind::Wdl).unwrap_err();
    assert!(e.needs_conversion());
    assert!(
        e.to_string().contains("format version 2, this program reads version 3 (version 2 files convert"),
        "{e}"
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unwritable_values_leave_nothing_behind() {
    let dir = scratch("unwritable");
    let pair = Paths::new(&dir, "t");
    let values = [Some(RuleValue::Win(Plies(3))), Some(RuleValue::Draw(Some(Plies(u32::MAX))))];
    let e = write_tables(pair.paths(), &id(2), &[], Compression::Normal, |r, out| {
        out.extend(values[r].iter().copied())
    })
    .unwrap_err();
    assert!(matches!(e, TableError::Unwritable { .. }) && e.to_string().contains("position 1"), "{e}");
    // A fill that gives too few values.
    let e =
        write_tables(pair.paths(), &id(10), &[], Compression::Normal, |_, out| out.push(None)).unwrap_err();
    assert!(e.to_string().contains("1 values, expected 10"), "{e}");
    let left: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.is_empty(), "{left:?}");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_cache_keeps_its_budget_and_serves_right_blocks() {
    let dir = scratch("cache");
    let n = 300_000;
    let values: Vec<_> = (0..n).map(|p| Some(RuleValue::Win(Plies((p % 50) as u32)))).collect();
    round_trip(&dir, &values);
    let files = TableFiles::open(Paths::new(&dir, "t").paths(), &id(n as u64)).unwrap();
    // Room for about three DTM blocks per shard at most.
    let cache = BlockCache::new(SHARDS * 3 * (DTM_BLOCK + 100));
    for round in 0..3 {
        for p in (0..n).step_by(331 + round) {
            let (b, i) = files.dtm.locate(p);
            let key = BlockKey { table: 7, block: b as u32 };
            let wdl = files.wdl.read_block(files.dtm.wdl_block_of(b, &files.wdl)).unwrap();
            let block = cache.get_or_load(key, || files.dtm.read_dtm_block(b, &wdl)).unwrap();
            assert_eq!(files.dtm.value(Category::Win, block.symbol(i).unwrap()).unwrap(), values[p].unwrap());
            assert!(cache.bytes() <= cache.budget());
        }
    }
    assert!(cache.bytes() > 0);
    cache.forget_table(7);
    assert_eq!(cache.bytes(), 0);
    fs::remove_dir_all(&dir).unwrap();
}

/// A solution written with [`write_solution`] and [`write_rule_solution`] answers through a
/// [`Pair`] what the solution says at every index (holes aside), its categories without its
/// DTM file, its blocks through a cache.
#[test]
fn a_pair_answers_every_value_and_category_of_the_solution() {
    use crate::perpetual::RuleSolution;
    use crate::retrograde::Solution;
    use crate::value::Value;

    let dir = scratch("pair");
    let n = WDL_BLOCK + 40_000;
    let plain = |p: usize| match p % 7 {
        0 => None,
        1 | 2 => Some(Value::Win(Plies((p % 300) as u32))),
        3 => Some(Value::Loss(Plies((p % 90) as u32))),
        4 => Some(Value::Draw(Some(Plies((p % 5) as u32)))),
        _ => Some(Value::Draw(None)),
    };
    let rule = |p: usize| match p % 11 {
        0 => Some(RuleValue::WinByRule(Ban::Check, (p % 40) as u32)),
        1 => Some(RuleValue::LossByRule(Ban::Chase, (p % 13) as u32)),
        _ => plain(p).map(RuleValue::from),
    };
    let solution = Solution::from_values((0..n).map(plain)).unwrap();
    let rule_solution = RuleSolution::from_values(n, rule).unwrap();
    let pair = Paths::new(&dir, "t");
    let other = Paths::new(&dir, "u");
    write_solution(pair.paths(), &id(n as u64), &[], Compression::Normal, &solution).unwrap();
    write_rule_solution(other.paths(), &id(n as u64), &[], Compression::Best, &rule_solution).unwrap();
    let files = Arc::new(open_files::OpenFiles::new(4));
    let cache = BlockCache::new(SHARDS << 20);
    for (key, (paths, expected)) in [
        (&pair, (0..n).map(|p| solution.value(p).map(RuleValue::from)).collect::<Vec<_>>()),
        (&other, (0..n).map(|p| rule_solution.value(p)).collect()),
    ]
    .into_iter()
    .enumerate()
    {
        let key = key as u32;
        let wdl = TableFile::open(&paths.wdl, &id(n as u64), FileKind::Wdl).unwrap();
        let tables =
            if key == 0 { Pair::new(wdl, &paths.dtm) } else { Pair::new_in(&files, wdl, &paths.dtm) };
        // A category needs no DTM file.
        let aside = dir.join("aside");
        fs::rename(&paths.dtm, &aside).unwrap();
        for (p, v) in expected.iter().enumerate() {
            let Some(v) = *v else { continue };
            assert_eq!(tables.category_at(&cache, key, p).unwrap(), Category::of(v), "position {p}");
        }
        fs::rename(&aside, &paths.dtm).unwrap();
        for (p, v) in expected.iter().enumerate() {
            let Some(v) = *v else { continue };
            assert_eq!(tables.value_at(&cache, key, p).unwrap(), v, "position {p}");
        }
        assert!(!tables.replaced());
        tables.forget(&cache, key);
    }
    assert_eq!(cache.bytes(), 0);
    fs::remove_dir_all(&dir).unwrap();
}
