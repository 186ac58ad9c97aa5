//! The committed header `include/endgame.h` against `src/lib.rs`.
//!
//! - Always (CI): every function the library exports is declared in the header with its
//!   parameters in order, every constant defined, every field of the structs declared, and
//!   nothing else: read from both files' text, without cbindgen (which takes about 95 s of CPU
//!   to compile). `tests/c_example.rs` compiles a C program against the header besides.
//! - With the feature `header` (a long check, see `docs/testing.md`): the header is exactly what
//!   cbindgen makes of `src/lib.rs`, comments included;
//!   `ENDGAME_BLESS=1 cargo test -p endgame-ffi --features header --test header` writes it
//!   anew.

use std::path::Path;

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The identifier that ends `text` (a parameter's or field's name after its type).
fn last_name(text: &str) -> String {
    let text = text.split('[').next().unwrap_or_default();
    let start = text.rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
    text[start..].to_string()
}

/// What C sees of the Rust source: `fn NAME(PARAM, ...)` of every exported function, `const
/// NAME` of every public constant, `STRUCT.FIELD` of every field of a `#[repr(C)]` struct.
fn rust_api(source: &str) -> Vec<String> {
    let source = source.split("#[cfg(test)]").next().unwrap_or_default();
    let mut api = Vec::new();
    let lines: Vec<&str> = source.lines().map(str::trim).collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line == "#[unsafe(no_mangle)]" {
            // The signature, to its parameter list's end.
            let mut signature = String::new();
            i += 1;
            while i < lines.len() && !signature.contains(')') {
                signature.push_str(lines[i]);
                i += 1;
            }
            let (head, rest) = signature.split_once('(').expect("a parameter list");
            let name = last_name(head);
            let params: Vec<&str> = rest.split(')').next().unwrap_or_default().split(',').collect();
            let params: Vec<String> = params
                .iter()
                .filter_map(|p| p.split_once(':').map(|(name, _)| name.trim().to_string()))
                .collect();
            api.push(format!("fn {name}({})", params.join(", ")));
            continue;
        }
        if let Some(rest) = line.strip_prefix("pub const ") {
            api.push(format!("const {}", rest.split(':').next().unwrap_or_default()));
        }
        if line == "#[repr(C)]" {
            let mut j = i + 1;
            while !lines[j].starts_with("pub struct ") {
                j += 1;
            }
            let name = lines[j]["pub struct ".len()..].trim_end_matches(" {").to_string();
            j += 1;
            while lines[j] != "}" {
                if let Some(field) = lines[j].strip_prefix("pub ") {
                    api.push(format!("{name}.{}", field.split(':').next().unwrap_or_default()));
                }
                j += 1;
            }
            i = j;
        }
        i += 1;
    }
    api.sort();
    api
}

/// The same of the C header: its prototypes, `#define`s and `typedef struct`s.
fn c_api(header: &str) -> Vec<String> {
    let code: Vec<&str> =
        header.lines().map(str::trim).filter(|l| !l.starts_with("//") && !l.starts_with('*')).collect();
    let mut api = Vec::new();
    let mut struct_fields: Vec<String> = Vec::new();
    let mut in_struct = false;
    let mut in_functions = false;
    let mut prototype = String::new();
    for line in code {
        if let Some(rest) = line.strip_prefix("#define EG_") {
            api.push(format!("const EG_{}", rest.split_whitespace().next().unwrap_or_default()));
        } else if line == "typedef struct {" {
            in_struct = true;
        } else if in_struct && line.starts_with('}') {
            let name = line.trim_start_matches('}').trim().trim_end_matches(';');
            api.extend(struct_fields.drain(..).map(|f| format!("{name}.{f}")));
            in_struct = false;
        } else if in_struct {
            struct_fields.push(last_name(line.trim_end_matches(';')));
        } else if line == "extern \"C\" {" {
            in_functions = true;
        } else if in_functions && line.starts_with('}') {
            in_functions = false;
        } else if in_functions && !line.starts_with('#') {
            prototype.push_str(line);
            if let Some(declared) = prototype.strip_suffix(';') {
                let (head, rest) = declared.split_once('(').expect("a prototype");
                let params = rest.trim_end_matches(')');
                let params: Vec<String> =
                    if params == "void" { Vec::new() } else { params.split(',').map(last_name).collect() };
                api.push(format!("fn {}({})", last_name(head), params.join(", ")));
                prototype.clear();
            }
        }
    }
    api.sort();
    api
}

#[test]
fn the_header_declares_what_the_library_exports() {
    let source = std::fs::read_to_string(crate_dir().join("src/lib.rs")).expect("src/lib.rs");
    let header = std::fs::read_to_string(crate_dir().join("include/endgame.h")).expect("include/endgame.h");
    let (rust, c) = (rust_api(&source), c_api(&header));
    assert!(rust.len() > 15 && rust.contains(&"fn eg_probe_wdl(tb, fen, wdl)".to_string()), "{rust:?}");
    assert!(
        rust.contains(&"eg_move.uci".to_string()) && rust.contains(&"const EG_OK".to_string()),
        "{rust:?}"
    );
    assert_eq!(
        rust, c,
        "crates/ffi/include/endgame.h does not declare what src/lib.rs exports; run \
         `ENDGAME_BLESS=1 cargo test -p endgame-ffi --features header --test header` and commit it"
    );
    // The comparison sees a parameter renamed, a field dropped and a function missing.
    for (from, to) in
        [("const char *fen, int *wdl", "const char *fen, int *w"), ("int dtm;", ""), ("void eg_close", "//")]
    {
        assert!(header.contains(from), "{from}");
        assert_ne!(c_api(&header.replacen(from, to, 1)), rust, "{from} -> {to}");
    }
}

#[cfg(feature = "header")]
#[test]
fn the_header_is_cbindgens() {
    let config = cbindgen::Config::from_file(crate_dir().join("cbindgen.toml")).expect("cbindgen.toml reads");
    let bindings = cbindgen::Builder::new()
        .with_crate(crate_dir())
        .with_config(config)
        .generate()
        .expect("cbindgen reads src/lib.rs");
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let generated = String::from_utf8(generated).expect("a UTF-8 header");
    let path = crate_dir().join("include/endgame.h");
    if std::env::var_os("ENDGAME_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("writing include/endgame.h");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "crates/ffi/include/endgame.h is not what cbindgen makes of src/lib.rs; run \
         `ENDGAME_BLESS=1 cargo test -p endgame-ffi --features header --test header` and commit it"
    );
}
