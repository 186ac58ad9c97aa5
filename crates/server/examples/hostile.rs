//! Hostile clients against a running `endgame serve` on 127.0.0.1, with bounded loops; prints
//! the latency of normal requests meanwhile (`scripts/bench/server_hostile.sh` runs all three):
//!
//! - `slow ADDR [CONNECTIONS] [SECONDS]`: holds CONNECTIONS (500) connections that send a
//!   request head one byte a second (reopening those the server closes) while one client
//!   probes on a keep-alive connection and another on a new connection per probe; then how
//!   long the server kept the slow connections open.
//! - `flood ADDR [SECONDS] [DIR]`: 4 clients send expensive searches back to back (Marine
//!   battles of hundreds of millions of states, 1 MiB Twixt records whose points collide under
//!   the old peg-map hash) while 16 clients probe Xiangqi positions on keep-alive connections:
//!   with DIR (the server's table directory), one position of every material with a file
//!   there, none asked before (so the first probe of each material is under the flood, issue
//!   41); else three materials solved in memory, warmed up first. Prints the probes' latency
//!   and statuses, the first probe of each material's apart, and the searches' by status
//!   (a 503 refused for want of a slot told from one stopped at a limit).
//! - `files ADDR DIR [ROUNDS]`: probes one legal position of every material with a table file
//!   in `DIR/xiangqi/<rules>` and of its colour twin (answered from the same file), under
//!   every rule set there (ROUNDS passes, 1 by default), on one keep-alive connection, counting
//!   errors; with the server's pid in `$SERVER_PID`, also its open descriptors.
//!
//! `cargo run --release -p endgame-server --example hostile -- MODE ADDR ...`

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use endgame_xiangqi::{Material, MaterialIndex, Rules};

const BIG_MARINE: &str = include_str!("../../marine/tests/data/battle16.txt");

/// Positions of materials solved in memory (warmed up before measuring).
const PROBES: &[&str] = &[
    "/api/xiangqi?fen=3k5/9/9/9/9/3n5/9/9/9/3K5%20w",
    "/api/xiangqi?fen=4k4/9/9/9/9/2P6/9/9/9/3K5%20w",
    "/api/xiangqi?fen=4k4/4a4/9/9/9/9/9/9/9/R2K5%20w",
];

/// Sends one request on a keep-alive connection; gives the status (0 when the connection
/// failed).
fn request(stream: &mut BufReader<TcpStream>, method: &str, path: &str, body: &[u8]) -> u16 {
    exchange(stream, method, path, body).0
}

/// [`request`], with the answer's body (empty when the connection failed).
fn exchange(stream: &mut BufReader<TcpStream>, method: &str, path: &str, body: &[u8]) -> (u16, Vec<u8>) {
    let failed = (0, Vec::new());
    let head =
        format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {}\r\n\r\n", body.len());
    let s = stream.get_mut();
    if s.write_all(head.as_bytes()).and_then(|()| s.write_all(body)).is_err() {
        return failed;
    }
    let mut line = String::new();
    if stream.read_line(&mut line).is_err() {
        return failed;
    }
    let status: u16 = line.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let mut length = 0usize;
    loop {
        line.clear();
        if stream.read_line(&mut line).is_err() {
            return failed;
        }
        if line == "\r\n" || line.is_empty() {
            break;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    let mut buf = vec![0; length];
    if stream.read_exact(&mut buf).is_err() {
        return failed;
    }
    (status, buf)
}

/// A connection whose reads give up after 15 s (longer than any answer within the server's
/// limits; a request that gets no answer counts as an error); `None` when the server does not
/// accept it within 5 s.
fn try_connect(addr: SocketAddr) -> Option<BufReader<TcpStream>> {
    let stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(15))).ok()?;
    stream.set_nodelay(true).ok()?;
    Some(BufReader::new(stream))
}

fn connect(addr: SocketAddr) -> BufReader<TcpStream> {
    try_connect(addr).expect("connecting to the server")
}

/// p50, p99 and max in milliseconds.
fn percentiles(latencies: &mut [Duration]) -> String {
    if latencies.is_empty() {
        return "no requests".to_string();
    }
    latencies.sort();
    let pct = |p: f64| latencies[((latencies.len() as f64 * p) as usize).min(latencies.len() - 1)];
    format!(
        "p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        pct(0.50).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        latencies.last().unwrap().as_secs_f64() * 1e3
    )
}

fn warm_up(addr: SocketAddr) {
    let mut stream = connect(addr);
    for path in PROBES {
        assert_eq!(request(&mut stream, "GET", path, b""), 200, "{path}");
    }
}

/// One slow connection: when it opened, and whether the server has closed it.
struct Slow {
    stream: TcpStream,
    opened: Instant,
    sent: usize,
}

const SLOW_HEAD: &[u8] = b"GET /api/examples HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

fn open_slow(addr: SocketAddr) -> Option<Slow> {
    let stream = TcpStream::connect_timeout(&addr, Duration::from_millis(200)).ok()?;
    stream.set_nonblocking(true).ok()?;
    Some(Slow { stream, opened: Instant::now(), sent: 0 })
}

fn slow(addr: SocketAddr, connections: usize, seconds: u64) {
    warm_up(addr);
    let stop = Arc::new(AtomicBool::new(false));
    let holder = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            let mut slow: Vec<Slow> = (0..connections).filter_map(|_| open_slow(addr)).collect();
            let mut lifetimes: Vec<Duration> = Vec::new();
            let mut reopened = 0usize;
            while !stop.load(Ordering::Relaxed) {
                for s in &mut slow {
                    let byte = SLOW_HEAD[s.sent % SLOW_HEAD.len()];
                    let written = s.stream.write(&[byte]);
                    let mut buf = [0; 256];
                    let read = s.stream.read(&mut buf);
                    let closed = matches!(written, Err(ref e) if e.kind() != ErrorKind::WouldBlock)
                        || read.is_ok()
                        || matches!(read, Err(ref e) if e.kind() != ErrorKind::WouldBlock);
                    if closed {
                        lifetimes.push(s.opened.elapsed());
                        if let Some(new) = open_slow(addr) {
                            *s = new;
                            reopened += 1;
                        }
                    } else {
                        s.sent += 1;
                    }
                }
                std::thread::sleep(Duration::from_secs(1));
            }
            (lifetimes, reopened)
        })
    };
    std::thread::sleep(Duration::from_secs(2));
    let started = Instant::now();
    let mut keep_alive = try_connect(addr);
    let (mut kept, mut fresh) = (Vec::new(), Vec::new());
    let mut errors: Vec<String> = Vec::new();
    let mut i = 0;
    while started.elapsed() < Duration::from_secs(seconds) {
        let path = PROBES[i % PROBES.len()];
        let t = Instant::now();
        match keep_alive.as_mut().map_or(0, |s| request(s, "GET", path, b"")) {
            200 => {}
            status => {
                errors.push(format!("keep-alive: {status}"));
                keep_alive = try_connect(addr);
            }
        }
        kept.push(t.elapsed());
        let t = Instant::now();
        match try_connect(addr).map_or(0, |mut s| request(&mut s, "GET", path, b"")) {
            200 => {}
            status => errors.push(format!("new connection: {status}")),
        }
        fresh.push(t.elapsed());
        i += 1;
        std::thread::sleep(Duration::from_millis(5));
    }
    stop.store(true, Ordering::Relaxed);
    let (mut lifetimes, reopened) = holder.join().unwrap();
    println!(
        "slow: {connections} slow connections held for {seconds} s ({reopened} reopened after the server closed them)"
    );
    println!("  {} probes on a keep-alive connection: {}", kept.len(), percentiles(&mut kept));
    println!("  {} probes on a new connection each: {}", fresh.len(), percentiles(&mut fresh));
    errors.sort();
    let mut kinds = errors.clone();
    kinds.dedup();
    let kinds: Vec<String> =
        kinds.iter().map(|k| format!("{} x {k}", errors.iter().filter(|e| *e == k).count())).collect();
    println!(
        "  probe errors: {} {kinds:?} (status 0: not accepted within 5 s, no answer within 15 s, or closed)",
        errors.len()
    );
    lifetimes.sort();
    println!(
        "  slow connections closed by the server: {}, open for {} s at most (median {} s)",
        lifetimes.len(),
        lifetimes.last().map_or(0, Duration::as_secs),
        lifetimes.get(lifetimes.len() / 2).map_or(0, Duration::as_secs)
    );
}

/// A 1 MiB judge record of points that collide under the old fixed peg-map hash.
fn hostile_twixt() -> String {
    let n = 1 << 30;
    let mut points = endgame_twixt::generate::colliding_points(n, 50_001, 1);
    let mut text = endgame_twixt::generate::judge_text(n.into(), &points);
    while text.len() > endgame_server::MAX_BODY {
        points.truncate(points.len() - 2);
        text = endgame_twixt::generate::judge_text(n.into(), &points);
    }
    text
}

fn flood(addr: SocketAddr, seconds: u64, dir: Option<&std::path::Path>) {
    let probes: Vec<String> = match dir {
        Some(dir) => {
            positions(&materials(dir)).into_iter().map(|(_, fen)| format!("/api/xiangqi?fen={fen}")).collect()
        }
        None => {
            warm_up(addr);
            PROBES.iter().map(|p| (*p).to_string()).collect()
        }
    };
    assert!(!probes.is_empty(), "no material with a table file to probe");
    let probes = Arc::new(probes);
    // The probes asked at least once, by index: the first probe of each is told apart.
    let asked = Arc::new(std::sync::Mutex::new(std::collections::HashSet::new()));
    let twixt = Arc::new(hostile_twixt());
    let stop = Arc::new(AtomicBool::new(false));
    let flooders: Vec<_> = (0..4)
        .map(|c| {
            let (stop, twixt) = (Arc::clone(&stop), Arc::clone(&twixt));
            std::thread::spawn(move || {
                // (status, whether refused for want of a slot, latency)
                let mut answers: Vec<(u16, bool, Duration)> = Vec::new();
                let mut stream = connect(addr);
                while !stop.load(Ordering::Relaxed) {
                    let t = Instant::now();
                    let (status, body) = if c % 2 == 0 {
                        exchange(&mut stream, "POST", "/api/marine/solve?rounds=100", BIG_MARINE.as_bytes())
                    } else {
                        exchange(&mut stream, "POST", "/api/twixt/replay", twixt.as_bytes())
                    };
                    // A search refused (no slot within the queue time) told from one stopped at a limit.
                    let refused = String::from_utf8_lossy(&body).contains("search slots are busy");
                    answers.push((status, refused, t.elapsed()));
                    if status == 0 {
                        stream = connect(addr);
                    }
                }
                answers
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let probers: Vec<_> = (0..16)
        .map(|c| {
            let (stop, probes, asked) = (Arc::clone(&stop), Arc::clone(&probes), Arc::clone(&asked));
            std::thread::spawn(move || {
                let mut stream = connect(addr);
                // (status, latency, whether it was the first probe of its material)
                let mut answers: Vec<(u16, Duration, bool)> = Vec::new();
                let mut i = c * probes.len() / 16;
                while !stop.load(Ordering::Relaxed) {
                    let at = i % probes.len();
                    let first = asked.lock().unwrap().insert(at);
                    let t = Instant::now();
                    let status = request(&mut stream, "GET", &probes[at], b"");
                    answers.push((status, t.elapsed(), first));
                    if status != 200 {
                        stream = connect(addr);
                    }
                    i += 1;
                }
                answers
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs(seconds));
    stop.store(true, Ordering::Relaxed);
    let probed: Vec<(u16, Duration, bool)> = probers.into_iter().flat_map(|t| t.join().unwrap()).collect();
    let answers: Vec<(u16, bool, Duration)> = flooders.into_iter().flat_map(|t| t.join().unwrap()).collect();
    println!(
        "flood: 4 clients of expensive searches (Marine battle16, 1 MiB colliding Twixt records) and 16 probing {} positions ({}), {seconds} s",
        probes.len(),
        if dir.is_some() {
            "one of each material with a table file, none asked before"
        } else {
            "solved in memory, warmed up"
        }
    );
    let mut latencies: Vec<Duration> = probed.iter().map(|p| p.1).collect();
    let errors = probed.iter().filter(|p| p.0 != 200).count();
    println!("  {} probes: {}; errors: {errors}", latencies.len(), percentiles(&mut latencies));
    let mut firsts: Vec<Duration> = probed.iter().filter(|p| p.2).map(|p| p.1).collect();
    let first_errors = probed.iter().filter(|p| p.2 && p.0 != 200).count();
    println!(
        "  the first probe of each: {}: {}; errors: {first_errors}",
        firsts.len(),
        percentiles(&mut firsts)
    );
    let mut statuses: Vec<u16> = probed.iter().map(|p| p.0).collect();
    statuses.sort_unstable();
    statuses.dedup();
    for status in statuses.into_iter().filter(|&s| s != 200) {
        let mut times: Vec<Duration> = probed.iter().filter(|p| p.0 == status).map(|p| p.1).collect();
        println!("  probes answered {status}: {}, {}", times.len(), percentiles(&mut times));
    }
    let mut kinds: Vec<(u16, bool)> = answers.iter().map(|a| (a.0, a.1)).collect();
    kinds.sort_unstable();
    kinds.dedup();
    for (status, refused) in kinds {
        let mut times: Vec<Duration> =
            answers.iter().filter(|a| (a.0, a.1) == (status, refused)).map(|a| a.2).collect();
        let why = match (status, refused) {
            (503, true) => " (refused: no search slot within the queue time)",
            (503, false) => " (stopped at the time or state limit)",
            _ => "",
        };
        println!("  expensive requests answered {status}{why}: {}, {}", times.len(), percentiles(&mut times));
    }
}

fn open_descriptors(pid: &str) -> Option<usize> {
    Some(std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?.count())
}

/// Every material with a WDL file under every rule set's directory of `dir`, and its colour
/// twin (answered from the same file where the rules treat both sides alike), sorted by rule
/// set and material.
fn materials(dir: &std::path::Path) -> Vec<(Rules, Material)> {
    let mut materials: Vec<(Rules, Material)> = Vec::new();
    for rules in Rules::ALL {
        let Ok(entries) = std::fs::read_dir(dir.join("xiangqi").join(rules.name())) else { continue };
        for e in entries.filter_map(Result::ok) {
            let Some(m) =
                e.file_name().to_str().and_then(|n| n.strip_suffix(".wdl")?.parse::<Material>().ok())
            else {
                continue;
            };
            materials.push((rules, m));
            if rules.colour_symmetric() && m.colour_twin() != m {
                materials.push((rules, m.colour_twin()));
            }
        }
    }
    materials.sort_by_key(|(r, m)| (r.name(), m.to_string()));
    materials.dedup();
    materials
}

/// One legal position of each of `materials` that has one, as a query (`FEN&rules=R`).
fn positions(materials: &[(Rules, Material)]) -> Vec<(Material, String)> {
    materials
        .iter()
        .filter_map(|&(rules, m)| {
            let index = MaterialIndex::new(m);
            (0..index.len()).find_map(|i| {
                let p = index.decode(i)?;
                p.check(rules).ok()?;
                Some((m, format!("{}&rules={}", p.setup().to_string().replace(' ', "%20"), rules.name())))
            })
        })
        .collect()
}

fn files(addr: SocketAddr, dir: &std::path::Path, rounds: usize) {
    let materials = materials(dir);
    let fens = positions(&materials);
    let pid = std::env::var("SERVER_PID").ok();
    let mut stream = connect(addr);
    let (mut latencies, mut errors) = (Vec::new(), Vec::new());
    let mut most = 0;
    let started = Instant::now();
    for _ in 0..rounds {
        for (m, fen) in &fens {
            let t = Instant::now();
            let status = request(&mut stream, "GET", &format!("/api/xiangqi?fen={fen}"), b"");
            latencies.push(t.elapsed());
            if status != 200 {
                errors.push(format!("{m} (fen={fen}): {status}"));
                stream = connect(addr);
            }
            if let Some(n) = pid.as_deref().and_then(open_descriptors) {
                most = most.max(n);
            }
        }
    }
    let mut index = connect(addr);
    let page = request(&mut index, "GET", "/", b"");
    println!(
        "files: {} materials (with their colour twins, every rule set) answered from a table file ({} with a legal position), {rounds} pass(es) in {:.1} s",
        materials.len(),
        fens.len(),
        started.elapsed().as_secs_f64()
    );
    println!("  {} probes: {}; errors: {}", latencies.len(), percentiles(&mut latencies), errors.len());
    for e in errors.iter().take(5) {
        println!("    {e}");
    }
    if pid.is_some() {
        println!("  the server's open descriptors: at most {most}");
    }
    println!("  GET / afterwards: {page}");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: hostile slow|flood|files ADDR ...";
    let addr: SocketAddr = args.get(1).expect(usage).parse().expect("ADDR: an address like 127.0.0.1:8000");
    assert!(addr.ip().is_loopback(), "hostile clients only against 127.0.0.1");
    let number = |i: usize, default: u64| args.get(i).map_or(default, |a| a.parse().expect("a number"));
    match args[0].as_str() {
        "slow" => slow(addr, number(2, 500) as usize, number(3, 20)),
        "flood" => flood(addr, number(2, 20), args.get(3).map(std::path::Path::new)),
        "files" => files(addr, std::path::Path::new(args.get(2).expect("DIR")), number(3, 1) as usize),
        _ => panic!("{usage}"),
    }
}
