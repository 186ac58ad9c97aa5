//! The table store: probes from files equal the solution in memory, with any cache size and
//! from many threads at once; main lines are complete and replayable; materials beyond the
//! tables are refused at once.

use std::path::PathBuf;

use crate::common::{material, position, temp_dir};
use endgame_core::Value;
use endgame_core::table::{FileKind, TableError, TableFile};
use endgame_xiangqi::Loaded;
use endgame_xiangqi::store::cost::check_size;
use endgame_xiangqi::store::source::{TWIN_ORDER, table_id};
use endgame_xiangqi::{
    Compression, LineEnd, Material, MaterialIndex, MemoryTables, Position, Probe, ProbeError, Rules,
    Tablebases,
};

/// Generates `materials` under `rules` into a new directory and solves them in memory too.
fn generated(name: &str, rules: Rules, materials: &[&str]) -> (PathBuf, MemoryTables) {
    let dir = temp_dir("store", name);
    let materials: Vec<Material> = materials.iter().map(|m| material(m)).collect();
    let summary = Tablebases::open(&dir, rules).generate(&materials, &|_| {}).unwrap();
    assert_eq!(summary.kept, 0);
    let mut memory = MemoryTables::new(rules);
    for &m in &materials {
        memory.solve(m).unwrap();
    }
    (dir, memory)
}

/// Every legal position of `m`, probed through `store`, has the in-memory value.
fn check_every_position(
    store: &Tablebases,
    memory: &MemoryTables,
    m: Material,
    stride: usize,
    offset: usize,
) -> usize {
    let table = memory.table(m).unwrap();
    let mut probed = 0;
    for i in (offset..table.index().len()).step_by(stride) {
        let Some(position) = table.index().decode(i) else { continue };
        if position.check(store.rules()).is_err() {
            assert!(store.probe(&position).unwrap_err().is_illegal());
            continue;
        }
        assert_eq!(
            store.probe(&position).unwrap(),
            table.solution().value(i).unwrap().into(),
            "{}",
            position.setup()
        );
        probed += 1;
    }
    probed
}

#[test]
fn probes_from_files_equal_the_solution_in_memory_with_any_cache() {
    let (dir, memory) = generated("every", Rules::Standard, &["KNvKC", "KRvKA"]);
    for m in ["KNvKC", "KRvKA", "KNvK", "KvKC"] {
        let m = material(m);
        // The default cache, and one far smaller than a table (a few blocks: every third
        // position still reads every block many times over).
        for (store, stride) in [
            (Tablebases::open(&dir, Rules::Standard), 1),
            (Tablebases::open(&dir, Rules::Standard).with_cache_bytes(40_000), 3),
        ] {
            assert!(check_every_position(&store, &memory, m, stride, 0) > 0);
            assert!(store.cache().bytes() <= store.cache().budget());
        }
    }
    // Statistics from the file equal those of the solution in memory.
    let store = Tablebases::open(&dir, Rules::Standard);
    assert_eq!(store.stats(material("KNvKC")).unwrap(), memory.table(material("KNvKC")).unwrap().stats());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn many_threads_probe_one_store() {
    let (dir, memory) = generated("threads", Rules::Hdu, &["KCvKA"]);
    let store = Tablebases::open(&dir, Rules::Hdu).with_cache_bytes(100_000);
    let m = material("KCvKA");
    let probed: usize = std::thread::scope(|s| {
        let (store, memory) = (&store, &memory);
        let workers: Vec<_> =
            (0..8).map(|t| s.spawn(move || check_every_position(store, memory, m, 3, t % 3))).collect();
        workers.into_iter().map(|w| w.join().unwrap()).sum()
    });
    assert!(probed > 50_000, "{probed}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn main_lines_are_complete_and_replay_to_the_end() {
    let store = Tablebases::open(temp_dir("store", "lines"), Rules::Standard);
    // The longest wins of KNvKA (37 plies, the published figure) are found and played out.
    let memory = {
        let mut t = MemoryTables::new(Rules::Standard);
        t.solve(material("KNvKA")).unwrap();
        t
    };
    let table = memory.table(material("KNvKA")).unwrap();
    let longest = (0..table.index().len())
        .filter(|&i| matches!(table.solution().value(i), Some(Value::Win(d)) if d.0 == 37))
        .filter_map(|i| table.index().decode(i))
        .find(|p| p.check(Rules::Standard).is_ok())
        .expect("a win in 37 plies");
    for start in [longest, position("4k4/9/9/9/9/9/9/9/4A4/3RK4 w")] {
        let value = store.probe(&start).unwrap().plain();
        let Value::Win(d) = value else { panic!("{value}") };
        let line = store.main_line(&start).unwrap();
        assert_eq!(line.moves.len(), d.0 as usize, "{}", start.setup());
        let mut at = start;
        for m in &line.moves {
            assert!(at.legal_moves(Rules::Standard).contains(&m.mv));
            at = at.play_unchecked(m.mv);
        }
        assert_eq!(at, line.last);
        assert!(at.legal_moves(Rules::Standard).is_empty());
        assert_eq!(line.end, LineEnd::NoLegalMove { loser: !start.turn(), checkmated: at.in_check() });
    }
}

/// Every ply of `probe`'s main line from `start` is the first move [`Probe::moves`] lists there
/// (the main line finds it without every move's value).
fn lines_follow_the_first_of_moves(probe: &impl Probe, start: &Position) {
    let line = probe.main_line(start).unwrap();
    let mut at = *start;
    for (ply, m) in line.moves.iter().enumerate() {
        let first = probe.moves(&at).unwrap()[0];
        assert_eq!(*m, first, "{} ply {ply}", start.setup());
        at = at.play_unchecked(m.mv);
    }
    assert_eq!(at, line.last);
}

#[test]
fn main_lines_follow_the_first_of_moves_from_files_and_in_memory() {
    let (dir, memory) = generated("first-of-moves", Rules::Standard, &["KRvKN", "KNvKA"]);
    let store = Tablebases::open(&dir, Rules::Standard);
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    for (m, wanted) in [("KRvKN", 60), ("KNvKA", 60), ("KRvK", 20)] {
        let index = MaterialIndex::new(material(m));
        let (mut wins, mut losses) = (0, 0);
        while wins + losses < wanted {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let Some(p) = index.decode((state % index.len() as u64) as usize) else { continue };
            if p.check(Rules::Standard).is_err() {
                continue;
            }
            match store.probe(&p).unwrap().plain() {
                Value::Win(_) if wins < wanted / 2 => wins += 1,
                Value::Loss(_) if losses < wanted / 2 => losses += 1,
                _ => continue,
            }
            lines_follow_the_first_of_moves(&store, &p);
            lines_follow_the_first_of_moves(&memory, &p);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn drawn_lines_stop_at_a_real_repetition_or_the_bound() {
    let store = Tablebases::open(temp_dir("store", "draws"), Rules::Standard);
    let mut repeats = 0;
    for fen in ["4k4/9/9/9/9/9/9/9/9/3K5 w", "3k5/9/9/9/9/9/9/9/4A4/4K4 b", "4k4/4a4/9/9/9/9/9/9/9/3K5 w"] {
        let start = position(fen);
        assert_eq!(store.probe(&start).unwrap(), Value::ENDLESS_DRAW.into(), "{fen}");
        let line = store.main_line(&start).unwrap();
        let mut seen = vec![start];
        for m in &line.moves {
            assert_eq!(m.value, Value::ENDLESS_DRAW.into());
            seen.push(seen.last().unwrap().play_unchecked(m.mv));
        }
        assert_eq!(*seen.last().unwrap(), line.last);
        match line.end {
            LineEnd::Repeats { ply, again } => {
                repeats += 1;
                assert_eq!(again, line.moves.len());
                assert_eq!(seen[ply], line.last);
                assert!(!seen[..seen.len() - 1].iter().skip(ply + 1).any(|p| *p == line.last));
            }
            LineEnd::Bounded => assert_eq!(line.moves.len(), endgame_xiangqi::DRAW_LINE_PLIES),
            other => panic!("{fen}: {other:?}"),
        }
    }
    assert!(repeats > 0);
}

#[test]
fn materials_beyond_the_tables_are_refused_at_once() {
    let store = Tablebases::open(temp_dir("store", "beyond"), Rules::Standard);
    let start = position("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w");
    let err = store.probe(&start).unwrap_err();
    assert!(matches!(err, ProbeError::BeyondTables { men: 32, .. }), "{err}");
    assert!(err.to_string().contains("has 32 men"), "{err}");
    // 15 men: the index fits in 64 bits, but no machine here holds it.
    let fifteen = material("KAABBPPPPPvKAABB");
    assert_eq!(fifteen.men(), 15);
    assert!(MaterialIndex::size(fifteen).is_some());
    assert!(matches!(check_size(fifteen), Err(ProbeError::BeyondTables { men: 15, .. })));
    assert!(Tablebases::plan(&[fifteen]).is_err());
    // The largest 6-man material has more than u32::MAX indices: the solver takes it (8-byte
    // position numbers in its lists), the memory it needs is its only limit.
    let largest_six = material("KNRvKNR");
    assert_eq!(endgame_xiangqi::store::cost::index_size(largest_six).unwrap(), 7_085_880_000);
    let need = Tablebases::memory_estimate(largest_six);
    assert!((7_085_880_000..7_085_880_000 * 2).contains(&need), "{need}");
    // A 5-man material without a file: not generated, with the command that generates it.
    let err = store.probe(&position("3k5/9/9/9/9/9/9/9/4A4/2R1K1R2 w")).unwrap_err();
    assert!(err.is_not_generated(), "{err}");
    assert!(err.to_string().contains("run `endgame xiangqi generate KARRvK --rules standard`"), "{err}");
}

#[test]
fn the_plan_lists_dependencies_first() {
    let plan = Tablebases::plan(&[material("KRvKA"), material("KCvK")]).unwrap();
    let names: Vec<String> = plan.iter().map(ToString::to_string).collect();
    // KvKA is answered from the file of its colour twin KAvK.
    assert_eq!(names, ["KvK", "KAvK", "KCvK", "KRvK", "KRvKA"]);
    for (i, m) in plan.iter().enumerate() {
        for smaller in m.after_captures() {
            assert!(plan[..i].contains(&smaller.canonical()), "{smaller} after {m}");
        }
    }
    let needed = Tablebases::needed(&[material("KRvKA"), material("KCvK")]).unwrap();
    let names: Vec<String> = needed.iter().map(ToString::to_string).collect();
    assert_eq!(names, ["KvK", "KCvK", "KRvK", "KvKA", "KRvKA"]);
}

#[test]
fn a_generation_drops_the_largest_tables_that_a_solve_does_not_read_first() {
    let names = ["KvK", "KvKA", "KRvK", "KNvK", "KAvK", "KRvKR"];
    let fresh = || {
        let mut t = MemoryTables::new(Rules::Standard);
        for m in names {
            t.solve(material(m)).unwrap();
        }
        Loaded::Plain(t)
    };
    // What the loaded tables take: their 1-byte cells (and a few long distances beside).
    let all = fresh();
    let held: u64 = names.iter().map(|&m| all.held(material(m))).sum();
    let krvkr = all.held(material("KRvKR"));
    assert!(krvkr >= MaterialIndex::new(material("KRvKR")).len() as u64);
    assert!(krvkr < Loaded::bytes(material("KRvKR")), "less than the estimate of a table to read");
    let loaded_names = |l: &Loaded| l.materials().iter().map(ToString::to_string).collect::<Vec<_>>();
    // KRvKA reads KvKA and KRvK (captures of the Advisor and of the Rook).
    let solving = material("KRvKA");
    let needed = 1000;
    let mut loaded = fresh();
    let reads = solving.after_captures();
    loaded.make_room(&reads, needed, held + needed);
    assert_eq!(loaded.materials().len(), names.len(), "room enough: nothing dropped");
    loaded.make_room(&reads, needed, held + needed - 1);
    assert!(!loaded.contains(material("KRvKR")), "the largest unread table goes first");
    assert_eq!(loaded.materials().len(), names.len() - 1, "{:?}", loaded_names(&loaded));
    let mut loaded = fresh();
    loaded.make_room(&reads, needed, held + needed - krvkr);
    assert!(!loaded.contains(material("KRvKR")), "the largest unread table goes first");
    assert_eq!(loaded.materials().len(), names.len() - 1, "{:?}", loaded_names(&loaded));
    let mut loaded = fresh();
    loaded.make_room(&reads, needed, 0);
    assert_eq!(loaded_names(&loaded), ["KvKA", "KRvK"], "the tables read stay");
}

/// Under a ban a loaded table holds its `standard` values twice (a table, and the rule
/// solution's) and a word per `standard` draw: what the estimate of a solve counts for a table
/// it holds whole (the difference between the estimates without and with the table loaded)
/// is at least what the table takes once read, as a generation reads it, for materials with
/// few and with many draws. A table read a block at a time is counted by its blocks, loaded
/// or not.
#[test]
fn the_estimate_under_a_ban_counts_what_a_table_read_takes() {
    use endgame_xiangqi::PerpetualTablebase;
    use endgame_xiangqi::store::cost::{capture_block_bytes, held_whole};
    let dir = temp_dir("store", "rule-read");
    let (standard, rule) =
        (Tablebases::open(&dir, Rules::Standard), Tablebases::open(&dir, Rules::PerpetualCheck));
    // KRvKN: few draws; KNvKA: nearly all. Each held whole, as the colour twin of a material
    // a capture leads to (KNvKR, KAvKN), and read a block at a time by a larger solve.
    for (read, by, by_blocks) in [("KRvKN", "KNAvKR", "KRvKNA"), ("KNvKA", "KAvKNA", "KNAvKAA")] {
        let (read, by, by_blocks) = (material(read), material(by), material(by_blocks));
        assert!(held_whole(by).contains(&read), "{by}");
        assert!(!held_whole(by_blocks).contains(&read), "{by_blocks}");
        standard.generate(&[read], &|_| {}).unwrap();
        rule.generate(&[read], &|_| {}).unwrap();
        let blocks = rule.estimate(by_blocks, |_| false);
        assert_eq!(blocks, rule.estimate(by_blocks, |m| m == read), "{by_blocks}");
        assert!(capture_block_bytes(by_blocks) > 0 && blocks > capture_block_bytes(by_blocks));
        let counted = rule.estimate(by, |_| false) - rule.estimate(by, |m| m == read);
        let mut tables = PerpetualTablebase::with_rules(Rules::PerpetualCheck);
        for m in read.after_captures() {
            tables.solve(m).unwrap();
        }
        tables.insert(read, rule.read_rule_solution(read).unwrap()).unwrap();
        let loaded = Loaded::Rule(Box::new(tables));
        let held = loaded.held(read);
        let index = MaterialIndex::new(read).len() as u64;
        assert!(held > 2 * index, "{read}: {held} bytes held for {index} indices");
        assert!(counted >= held, "{read}: {counted} bytes counted, {held} held");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A 5-man material with wins of 87 plies (the published longest for KRvKNN): generated into
/// files (about 20 s on 2 quiet cores), lines of 80 plies and more probed from them and
/// replayed to the end (checkmate or stalemate).
#[test]
fn lines_of_80_plies_and_more_are_complete_and_replay_to_the_end() {
    let dir = temp_dir("store", "long");
    let store = Tablebases::open(&dir, Rules::Standard).with_cache_bytes(1 << 20);
    // Players write KNNvKR (the colour twin of KRvKNN): its file answers for both.
    store.generate(&[material("KRvKNN")], &|_| {}).unwrap();
    let m = store.file_material(material("KRvKNN"));
    assert_eq!(m, material("KNNvKR"));
    let index = MaterialIndex::new(m);
    let solution = store.read_solution(m).unwrap();
    let long: Vec<usize> = (0..index.len())
        .filter(|&i| matches!(solution.value(i), Some(Value::Win(d) | Value::Loss(d)) if d.0 >= 80))
        .collect();
    assert!(!long.is_empty());
    // The longest win (87 plies, as published) and the longest loss one ply longer.
    let longest = |win: bool| {
        long.iter()
            .filter_map(|&i| solution.value(i))
            .filter(|v| matches!(v, Value::Win(_)) == win)
            .filter_map(Value::plies)
            .max()
    };
    assert_eq!(
        (longest(true), longest(false)),
        (Some(endgame_core::Plies(87)), Some(endgame_core::Plies(88)))
    );
    // Lines of both twins (KRvKNN's answered from KNNvKR's file).
    let starts = long.iter().step_by(long.len().div_ceil(6)).map(|&i| index.decode(i).unwrap());
    for start in starts.flat_map(|p| [p, p.colour_twin()]) {
        let value = store.probe(&start).unwrap().plain();
        let line = store.main_line(&start).unwrap();
        assert_eq!(Some(line.moves.len() as u32), value.plies().map(|p| p.0), "{}", start.setup());
        let mut at = start;
        for m in &line.moves {
            assert!(at.legal_moves(Rules::Standard).contains(&m.mv), "{} in {}", m.mv, at.setup());
            at = at.play_unchecked(m.mv);
        }
        assert_eq!(at, line.last);
        // Checkmate or stalemate: under standard rules both lose.
        assert!(at.legal_moves(Rules::Standard).is_empty(), "{}", at.setup());
        let loser = if matches!(value, Value::Win(_)) { !start.turn() } else { start.turn() };
        assert_eq!(line.end, LineEnd::NoLegalMove { loser, checkmated: at.in_check() });
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn generate_removes_only_this_hosts_temporaries_of_dead_processes() {
    let dir = temp_dir("store", "stale");
    let store = Tablebases::open(&dir, Rules::Standard);
    std::fs::create_dir_all(store.dir()).unwrap();
    let host = endgame_core::table::host_tag();
    let mine = format!("KRvK.wdl.{host}.999999999.1.0.tmp");
    let mine_dtm = format!("KRvK.dtm.{host}.999999999.1.1.tmp");
    let mine_v2 = format!("KRvK.egtb.{host}.999999999.1.2.tmp");
    // A table being written under a candidate's temporary name (`--compression best`).
    let mine_candidate = format!("KRvK.wdl.{host}.999999999.1.3.tmp.{host}.999999999.1.4.tmp");
    let pid = std::process::id();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let live = format!("KRvK.wdl.{host}.{pid}.{now}.0.tmp");
    // This process's id on a name made in 1970: another process had the id then (ids are
    // reused), and it is gone.
    let reused = format!("KRvK.wdl.{host}.{pid}.1.0.tmp");
    let others = ["KRvK.wdl.some-other-host.999999999.1.0.tmp", "notes.wdl.999999999.tmp", "KRvK.dtm.tmp"];
    let mine_all =
        [mine.as_str(), mine_dtm.as_str(), mine_v2.as_str(), mine_candidate.as_str(), reused.as_str()];
    for name in mine_all.into_iter().chain([live.as_str()]).chain(others) {
        std::fs::write(store.dir().join(name), b"partial").unwrap();
    }
    store.generate(&[material("KvK")], &|_| {}).unwrap();
    for name in mine_all {
        assert!(!store.dir().join(name).exists(), "a dead process's file of this host stays: {name}");
    }
    assert!(store.dir().join(&live).exists(), "a live process's file was removed");
    for name in others {
        assert!(store.dir().join(name).exists(), "{name} was removed");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Under the best compression a table is kept in its colour twin's order when that is smaller
/// (`KRvKN` is: its twin's order saves bytes, see [`TWIN_ORDER`]): its files answer every
/// position of the material and of its twin as the files in its own order do, read back whole
/// as solved, and hold the same statistics. The generation under `perpetual-check` reads the
/// `standard` file beside it, in its twin's order too.
#[test]
fn tables_in_their_twins_order_answer_as_tables_in_their_own() {
    let m = material("KRvKN");
    let (own, twin) = (temp_dir("store", "own-order"), temp_dir("store", "twin-order"));
    for rules in [Rules::Standard, Rules::PerpetualCheck] {
        Tablebases::open(&own, rules).generate(&[m], &|_| {}).unwrap();
        let best = Tablebases::open(&twin, rules).with_compression(Compression::Best);
        best.generate(&[m], &|_| {}).unwrap();
        let normal = Tablebases::open(&own, rules);
        let header = |store: &Tablebases| std::fs::read(store.path(m)).unwrap();
        let has_counter = |bytes: &[u8]| bytes.windows(TWIN_ORDER.len()).any(|w| w == TWIN_ORDER.as_bytes());
        // A reader that does not know the order (one that opens the material's own id)
        // refuses the files as another table instead of reading every value from the wrong
        // place.
        let n = MaterialIndex::new(m).len();
        let plain = TableFile::open(&best.path(m), &table_id(m, rules, n), FileKind::Wdl);
        assert!(matches!(plain, Err(TableError::Mismatch { .. })), "{m} ({rules}): {plain:?}");
        assert!(has_counter(&header(&best)), "{m} ({rules}): not kept in its twin's order");
        assert!(!has_counter(&header(&normal)), "{m} ({rules})");
        let mut probed = 0;
        for material in [m, m.colour_twin()] {
            let index = MaterialIndex::new(material);
            for i in 0..index.len() {
                let Some(position) = index.decode(i) else { continue };
                let (a, b) = (best.probe(&position), normal.probe(&position));
                assert_eq!(a.as_ref().ok(), b.as_ref().ok(), "{rules}: {}", position.setup());
                assert_eq!(a.is_err(), b.is_err(), "{rules}: {}", position.setup());
                let (a, b) = (best.probe_wdl(&position), normal.probe_wdl(&position));
                assert_eq!(a.ok(), b.ok(), "{rules}: {}", position.setup());
                probed += 1;
            }
            assert_eq!(
                best.stats(material).unwrap(),
                normal.stats(material).unwrap(),
                "{material} ({rules})"
            );
        }
        assert!(probed > 100_000, "{probed}");
        let (a, b) = (best.read_rule_solution(m).unwrap(), normal.read_rule_solution(m).unwrap());
        assert!(a.values().eq(b.values()), "{m} ({rules}): read whole");
        if rules == Rules::Standard {
            let (a, b) = (best.read_solution(m).unwrap(), normal.read_solution(m).unwrap());
            assert!(a.values().eq(b.values()), "{m} ({rules}): read whole");
        }
    }
    std::fs::remove_dir_all(&own).unwrap();
    std::fs::remove_dir_all(&twin).unwrap();
}
