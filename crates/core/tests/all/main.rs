//! The core crate's integration tests, one module per subject, in one test binary: the
//! solvers' generic code is compiled and linked once, not once per file (CI's compile time).

mod chase_oracle;
mod common;
mod partition;
mod perpetual_oracle;
mod retrograde_oracle;
mod schedule;
mod search_oracle;
mod spill;
mod synthetic;
mod tictactoe;
