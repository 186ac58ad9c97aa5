//! Probes per second through the Rust API, for `scripts/bench/bindings.sh`, which measures the
//! C library and the Python module on the same positions in the same run.
//!
//! - `probe_rate fens MATERIAL COUNT` prints `COUNT` random legal positions of `MATERIAL` as
//!   FEN, one a line (a fixed seed: the same positions every time).
//! - `probe_rate rate DIR FILE [THREADS]` probes every FEN of `FILE` (standard rules, tables
//!   in `DIR`) once to warm the cache, then 5 passes, and prints the best pass's probes per
//!   second and the process's CPU time per probe over the 5 passes (the figure a loaded
//!   machine disturbs least), from FEN text (`typed::fen` + `probe`: the work of `eg_probe`
//!   and `tb.probe`) and from parsed positions (`probe` alone), with THREADS threads (default
//!   1) each probing every position: `NAME THREADS PROBES_PER_SECOND CPU_NS_PER_PROBE`.

use std::time::Instant;

use endgame_xiangqi::{Material, MaterialIndex, Position, Probe, Rules, Tablebases, typed};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["fens", material, count] => fens(material.parse()?, count.parse()?),
        ["rate", dir, file] => rate(dir, file, 1),
        ["rate", dir, file, threads] => rate(dir, file, threads.parse()?),
        _ => Err("usage: probe_rate fens MATERIAL COUNT | probe_rate rate DIR FILE [THREADS]".into()),
    }
}

/// Random legal positions of `material` (xorshift over its indices, as the `probe` bench).
fn fens(material: Material, count: usize) -> Result<(), Box<dyn std::error::Error>> {
    let index = MaterialIndex::new(material);
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut found = 0;
    while found < count {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        if let Some(p) = index.decode((state % index.len() as u64) as usize)
            && p.check(Rules::Standard).is_ok()
        {
            println!("{}", p.setup());
            found += 1;
        }
    }
    Ok(())
}

/// The CPU time of the whole process (every thread), in seconds.
fn cpu_seconds() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid, writable timespec; CLOCK_PROCESS_CPUTIME_ID exists on Linux.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &raw mut t) };
    assert_eq!(status, 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID)");
    t.tv_sec as f64 + t.tv_nsec as f64 / 1e9
}

/// 5 passes of `pass` over `n` positions on `threads` threads (every thread probes all `n`):
/// the best pass's probes per second, and the CPU nanoseconds per probe over the 5 passes.
fn best_rate(threads: usize, n: usize, pass: &(dyn Fn() + Sync)) -> (f64, f64) {
    let mut best = f64::MAX;
    let cpu = cpu_seconds();
    for _ in 0..5 {
        let start = Instant::now();
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(pass);
            }
        });
        best = best.min(start.elapsed().as_secs_f64());
    }
    let probes = (5 * threads * n) as f64;
    ((threads * n) as f64 / best, (cpu_seconds() - cpu) * 1e9 / probes)
}

fn rate(dir: &str, file: &str, threads: usize) -> Result<(), Box<dyn std::error::Error>> {
    let text = std::fs::read_to_string(file)?;
    let fens: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
    let tables = Tablebases::open(dir, Rules::Standard);
    let positions: Vec<Position> = fens.iter().map(|f| typed::fen(f)).collect::<Result<_, _>>()?;
    for p in &positions {
        tables.probe(p)?; // warm: files open, blocks cached
    }
    let from_fen = best_rate(threads, fens.len(), &|| {
        for f in &fens {
            let position = typed::fen(f).expect("a FEN");
            std::hint::black_box(tables.probe(&position).expect("a value"));
        }
    });
    let parsed = best_rate(threads, positions.len(), &|| {
        for p in &positions {
            std::hint::black_box(tables.probe(p).expect("a value"));
        }
    });
    println!("rust_fen {threads} {:.0} {:.0}", from_fen.0, from_fen.1);
    println!("rust_position {threads} {:.0} {:.0}", parsed.0, parsed.1);
    Ok(())
}
