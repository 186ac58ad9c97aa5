//! Where a solve under the rule spends its time and memory: with `ENDGAME_RULE_PROFILE` set
//! in the environment, each stage writes one line to standard error (seconds since the last
//! line, the process's resident memory and its peak, and the stage's figures). A tool for
//! measuring (BENCHMARKS.md), silent otherwise.

use std::time::Instant;

/// The stages' clock, on only when `ENDGAME_RULE_PROFILE` is set.
pub(super) struct Profile {
    last: Option<Instant>,
}

impl Profile {
    /// A clock that runs when the environment asks for it.
    pub(super) fn new() -> Self {
        Profile { last: std::env::var_os("ENDGAME_RULE_PROFILE").map(|_| Instant::now()) }
    }

    /// Whether lines are written.
    #[allow(dead_code)]
    pub(super) fn on(&self) -> bool {
        self.last.is_some()
    }

    /// Writes a line for the stage that just ended (`what` is only called when on).
    pub(super) fn step(&mut self, what: impl FnOnce() -> String) {
        let Some(last) = self.last else { return };
        let now = Instant::now();
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|k| k.parse::<u64>().ok())
                .map_or(0, |kib| kib >> 10)
        };
        eprintln!(
            "rule profile: {:8.2} s  rss {:6} MiB  peak {:6} MiB  {}",
            (now - last).as_secs_f64(),
            field("VmRSS:"),
            field("VmHWM:"),
            what()
        );
        self.last = Some(now);
    }
}
