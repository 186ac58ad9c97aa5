//! The committed header `include/endgame.h` is what cbindgen makes of `src/lib.rs` now.
//! `ENDGAME_BLESS=1 cargo test -p endgame-ffi --test header` writes it anew.

use std::path::Path;

#[test]
fn the_header_is_up_to_date() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("cbindgen.toml reads");
    let bindings = cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen reads src/lib.rs");
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let generated = String::from_utf8(generated).expect("a UTF-8 header");
    let path = crate_dir.join("include/endgame.h");
    if std::env::var_os("ENDGAME_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("writing include/endgame.h");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "crates/ffi/include/endgame.h is not what cbindgen makes of src/lib.rs; run \
         `ENDGAME_BLESS=1 cargo test -p endgame-ffi --test header` and commit it"
    );
}
