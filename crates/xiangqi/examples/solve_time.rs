//! Times the solve of one material under standard rules, its smaller materials solved first
//! (untimed), and prints a digest of its values (to compare two builds): a development tool
//! for `scripts/bench/xiangqi-speed.sh`.
//!
//! `cargo run --release -p endgame-xiangqi --example solve_time -- KNvKNC`
use endgame_core::{Phase, Progress, Retrograde, Value};
use endgame_xiangqi::{Material, MemoryTables, Rules};

fn main() {
    let name = std::env::args().nth(1).unwrap_or_else(|| "KRvKR".into());
    let material: Material = name.parse().expect("a material");
    let mut tables = MemoryTables::new(Rules::Standard);
    for m in material.with_smaller() {
        if m != material {
            tables.solve(m).expect("a smaller material");
        }
    }
    let start = std::time::Instant::now();
    let cpu0 = cpu_seconds();
    // When each phase of the solver began (seconds of wall time and of the process's CPU time
    // from the start).
    let phases = std::sync::Mutex::new(Vec::<(Phase, f64, f64)>::new());
    let report = |p: Progress| {
        let mut seen = phases.lock().unwrap();
        if seen.last().is_none_or(|&(phase, _, _)| phase != p.phase) {
            seen.push((p.phase, start.elapsed().as_secs_f64(), cpu_seconds() - cpu0));
            if std::env::var_os("SOLVE_TIME_MEMORY").is_some() {
                eprintln!("{:?} starts: {}", p.phase, memory());
            }
        }
    };
    tables.solve_with(material, &Retrograde::new().compact(true).progress(&report)).expect("the material");
    let secs = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu0;
    let phases: Vec<String> = phases
        .into_inner()
        .unwrap()
        .iter()
        .map(|(phase, at, cpu_at)| format!("{phase:?} from {at:.2} s ({cpu_at:.2} s CPU)"))
        .collect();
    let table = tables.table(material).expect("solved");
    eprintln!(
        "{name}: {}, end {secs:.2} s ({cpu:.2} s CPU); {} escapes (distances beyond 1-byte cells)",
        phases.join(", "),
        table.solution().escapes()
    );
    // FNV-1a over a code of every value: equal digests, equal tables.
    let mut digest: u64 = 0xcbf2_9ce4_8422_2325;
    for v in table.solution().values() {
        let code = match v {
            None => 0,
            Some(Value::Win(d)) => (1 << 32) | u64::from(d.0),
            Some(Value::Loss(d)) => (2 << 32) | u64::from(d.0),
            Some(Value::Draw(None)) => 3 << 32,
            Some(Value::Draw(Some(d))) => (4 << 32) | u64::from(d.0),
        };
        digest = (digest ^ code).wrapping_mul(0x0100_0000_01b3);
    }
    if std::env::var_os("SOLVE_TIME_MEMORY").is_some() {
        eprintln!("end: {}", memory());
    }
    println!("{name}\t{secs:.3}\t{}\t{digest:016x}", table.solution().len());
}

/// The CPU time of this process so far (user + system, from `/proc/self/stat`; 0 where there
/// is no such file).
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else { return 0.0 };
    // The fields after the command name (in parentheses, which may hold spaces).
    let rest = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of the line (11 and 12 counting from 0 after the
    // name); 100 ticks a second on Linux.
    (ticks(11) + ticks(12)) / 100.0
}

/// The resident memory now and at its peak so far (from `/proc/self/status`).
fn memory() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status.lines().filter(|l| l.starts_with("VmRSS") || l.starts_with("VmHWM")).collect::<Vec<_>>().join(", ")
}
