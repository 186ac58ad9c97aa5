//! Retrograde solver benchmarks (none yet).

fn main() {}
