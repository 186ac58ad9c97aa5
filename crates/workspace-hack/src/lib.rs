//! No code: this crate only switches on, for the `endgame` binary, the features of shared
//! dependencies that the rest of the workspace switches on in `cargo test --workspace`, so
//! that the quick start (`cargo run -- demo`, then `cargo test --workspace`) compiles them,
//! and every endgame crate over them, once. Its `Cargo.toml` says which and why.
