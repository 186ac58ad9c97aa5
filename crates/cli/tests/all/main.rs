//! The command line's integration tests, one module per game or subject, in one test binary (one compile and link, not one per file: CI's compile time).

mod cheesy;
mod cli;
mod common;
mod docs;
mod fuzz_corpus;
mod hostile;
mod marine;
mod perpetual;
mod record;
mod review;
mod serve;
mod twixt;
mod xiangqi;
