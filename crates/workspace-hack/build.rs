//! Empty: Cargo resolves a package's build-dependencies (here `syn`, for the features the
//! proc macros are compiled with) only when it has a build script.

fn main() {}
