//! The Xiangqi crate's integration tests, one module per subject, in one test binary: the
//! crate and its solvers are compiled and linked once, not once per file (CI's compile time).

mod anchors;
mod captures;
mod catalogue;
mod chase;
mod check_and_chase;
mod common;
mod defenders;
mod files;
mod jobs;
mod judge;
mod memory;
mod notation;
mod open_files;
mod oracle;
mod perpetual;
mod records;
mod records_xqf;
mod review;
mod side_stats;
mod spec;
mod standard;
mod store;
mod tables;
mod twins;
mod verify;
mod wxf;
