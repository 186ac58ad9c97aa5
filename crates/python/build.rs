//! macOS links an extension module with `-undefined dynamic_lookup` (the importing
//! interpreter provides Python's symbols; see `.cargo/config.toml`); elsewhere this adds nothing.

fn main() {
    pyo3_build_config::add_extension_module_link_args();
}
