//! The Twixt crate's integration tests, one module per subject, in one test binary (one compile and link, not one per file: CI's compile time).

mod common;
mod crossing;
mod hostile_records;
mod random_games;
mod records;
