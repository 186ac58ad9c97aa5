//! The Marine crate's integration tests, one module per subject, in one test binary (one compile and link, not one per file: CI's compile time).

mod files;
mod oracle;
