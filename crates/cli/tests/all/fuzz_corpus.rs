//! The fuzz targets' seeds and every input a fuzzer found a bug with, checked on stable: the
//! check functions of `fuzz/src/lib.rs` (the same the cargo-fuzz targets call) run over every
//! file of `fuzz/corpus/<target>/` and `fuzz/artifacts/<target>/`.

#[path = "../../../../fuzz/src/lib.rs"]
mod checks;

use std::path::Path;

#[test]
fn every_seed_and_every_crash_found_passes_its_check() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut checked = 0;
    for (target, check) in checks::TARGETS {
        let mut seeds = 0;
        for dir in ["corpus", "artifacts"] {
            let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else { continue };
            for entry in entries {
                let path = entry.unwrap().path();
                let data = std::fs::read(&path).unwrap();
                let result = std::panic::catch_unwind(|| check(&data));
                assert!(result.is_ok(), "{target}: {} fails its check", path.display());
                seeds += usize::from(dir == "corpus");
                checked += 1;
            }
        }
        assert!(seeds > 0, "{target}: no seed in fuzz/corpus/{target}");
    }
    assert!(checked >= checks::TARGETS.len());
}
