//! Table files under a running store: many more tables than open descriptors (a bounded pool
//! closes the least recently used and opens them again on demand), and a table regenerated
//! while the store runs (read anew, never from the old file).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::common::{material, temp_dir};
use endgame_core::table::open_files::OpenFiles;
use endgame_xiangqi::{Material, MaterialIndex, MemoryTables, Position, Probe, Rules, Tablebases};

/// The legal positions of `m` with their index, the last ones first.
fn legal_positions(m: Material, rules: Rules) -> impl Iterator<Item = (usize, Position)> {
    let index = MaterialIndex::new(m);
    (0..index.len()).rev().filter_map(move |i| {
        let p = index.decode(i)?;
        p.check(rules).ok()?;
        Some((i, p))
    })
}

/// The files under `dir` that this process keeps open although they were deleted.
fn deleted_files_open(dir: &Path) -> Vec<PathBuf> {
    let Ok(fds) = std::fs::read_dir("/proc/self/fd") else { return Vec::new() };
    fds.filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
        .filter(|target| target.starts_with(dir) && target.to_string_lossy().ends_with(" (deleted)"))
        .collect()
}

/// Replaces `path` as a generation does: a new file renamed over the old one.
fn replace(path: &Path, bytes: &[u8]) {
    let tmp = path.with_extension("replacement");
    std::fs::write(&tmp, bytes).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

/// Eleven materials (22 files: a WDL and a DTM file each), at most three files open: every
/// probe right, the pool never over three.
#[test]
fn more_tables_than_open_files_are_all_probed() {
    let dir = temp_dir("open-files", "many");
    let rules = Rules::Standard;
    let names = ["KRvK", "KNvK", "KCvK", "KPvK", "KvKR", "KvKN", "KvKC", "KvKP", "KAvKA", "KBvKB", "KAvKB"];
    let materials: Vec<Material> = names.iter().map(|m| material(m)).collect();
    Tablebases::open(&dir, rules).generate(&materials, &|_| {}).unwrap();
    let files = Arc::new(OpenFiles::new(3));
    let store = Tablebases::open(&dir, rules).with_open_files(Arc::clone(&files)).with_cache_bytes(0);
    let mut memory = MemoryTables::new(rules);
    let mut checked = 0;
    for round in 0..3 {
        for &m in &materials {
            memory.solve(m).unwrap();
            let table = memory.table(m).unwrap();
            for (i, p) in legal_positions(m, rules).skip(round * 7).step_by(97).take(5) {
                assert_eq!(store.probe(&p).unwrap(), table.solution().value(i).unwrap().into(), "{m} {i}");
                assert!(files.len() <= 3, "{} files open", files.len());
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked}");
    // Closed files were opened again when needed.
    assert!(files.opened() > materials.len() as u64, "{}", files.opened());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The case: a damaged table answers "checksum mismatch"; regenerated (a new file
/// renamed over it, as the message advises), the running store answers from the new file at
/// once (the path is checked again before a damaged block is reported). A table replaced
/// while it reads fine is opened anew within a second too, and no descriptor of the deleted
/// file is kept.
#[test]
fn a_table_regenerated_under_a_running_store_is_read_anew() {
    let dir = temp_dir("open-files", "regenerated");
    let rules = Rules::Standard;
    let m = material("KRvKA");
    Tablebases::open(&dir, rules).generate(&[m], &|_| {}).unwrap();
    let files = Arc::new(OpenFiles::new(8));
    let store = Tablebases::open(&dir, rules).with_open_files(Arc::clone(&files)).with_cache_bytes(0);
    let path = store.path(m);
    let good = std::fs::read(&path).unwrap();
    let mut damaged = good.clone();
    *damaged.last_mut().unwrap() ^= 0x55;
    replace(&path, &damaged);
    let mut memory = MemoryTables::new(rules);
    memory.solve(m).unwrap();
    let table = memory.table(m).unwrap();
    // A position of the last block: damaged.
    let (i, p) = legal_positions(m, rules).next().unwrap();
    let e = store.probe(&p).unwrap_err();
    assert!(e.to_string().contains("checksum mismatch"), "{e}");
    replace(&path, &good);
    assert_eq!(store.probe(&p).unwrap(), table.solution().value(i).unwrap().into());
    assert!(deleted_files_open(&dir).is_empty(), "{:?}", deleted_files_open(&dir));
    // Replaced again while it reads fine: within a second, the next probe opens the new file.
    let opened = files.opened();
    replace(&path, &good);
    assert_eq!(store.probe(&p).unwrap(), table.solution().value(i).unwrap().into());
    assert_eq!(deleted_files_open(&dir).len(), 1, "the old file is still read for a moment");
    std::thread::sleep(std::time::Duration::from_millis(
        endgame_xiangqi::store::source::REPLACED_CHECK_MS + 100,
    ));
    assert_eq!(store.probe(&p).unwrap(), table.solution().value(i).unwrap().into());
    assert!(files.opened() > opened, "the new file was opened");
    assert!(deleted_files_open(&dir).is_empty(), "{:?}", deleted_files_open(&dir));
    // Removed: the store notices that too (the material is then solved in memory: 4 men).
    std::fs::remove_file(&path).unwrap();
    std::fs::remove_file(store.dtm_path(m)).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(
        endgame_xiangqi::store::source::REPLACED_CHECK_MS + 100,
    ));
    assert_eq!(store.probe(&p).unwrap(), table.solution().value(i).unwrap().into());
    assert!(deleted_files_open(&dir).is_empty(), "{:?}", deleted_files_open(&dir));
    std::fs::remove_dir_all(&dir).unwrap();
}
