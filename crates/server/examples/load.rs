//! A bounded load test of the API on 127.0.0.1: the server in this process on a free loopback
//! port, 16 client threads with keep-alive connections, 20,000 requests in all (a mix of every
//! endpoint), then the error count, latency percentiles and peak memory.
//!
//! `cargo run --release -p endgame-server --example load [-- REQUESTS CLIENTS]`

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use endgame_server::{AppState, Limits};

const CHEESY: &str = include_str!("../../cheesy/examples/sample2.txt");
const MARINE: &str = include_str!("../../marine/examples/corner.txt");
const TWIXT: &str = "7 11\n0 3 6 5 3 2 5 7 7 2 4 4\n5 3 5 2 4 5 4 0 2 4\n";

/// The requests, in turn: method, path, body.
const MIX: &[(&str, &str, &str)] = &[
    ("GET", "/api/xiangqi?fen=3k5/9/9/9/9/3n5/9/9/9/3K5%20w", ""),
    ("GET", "/api/xiangqi?fen=4k4/9/9/9/9/2P6/9/9/9/3K5%20w", ""),
    ("GET", "/api/xiangqi?fen=4k4/4a4/9/9/9/9/9/9/9/R2K5%20w", ""),
    ("GET", "/api/xiangqi/stats?material=KRvK", ""),
    ("POST", "/api/twixt/replay", TWIXT),
    ("POST", "/api/cheesy/solve?to_move=black", CHEESY),
    ("POST", "/api/marine/solve?rounds=34", MARINE),
    ("GET", "/api/xiangqi?fen=bad", ""),
];

/// Sends one request on a keep-alive connection; gives the status.
fn request(stream: &mut BufReader<TcpStream>, method: &str, path: &str, body: &str) -> u16 {
    let head =
        format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {}\r\n\r\n", body.len());
    let s = stream.get_mut();
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body.as_bytes()).unwrap();
    let mut line = String::new();
    stream.read_line(&mut line).unwrap();
    let status: u16 = line.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let mut length = 0usize;
    loop {
        line.clear();
        stream.read_line(&mut line).unwrap();
        if line == "\r\n" || line.is_empty() {
            break;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap();
        }
    }
    let mut buf = vec![0; length];
    stream.read_exact(&mut buf).unwrap();
    status
}

fn peak_rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kib: f64 = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0);
    kib / 1024.0
}

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().expect("REQUESTS CLIENTS")).collect();
    let total = args.first().copied().unwrap_or(20_000);
    let clients = args.get(1).copied().unwrap_or(16);
    let dir = std::env::temp_dir().join("endgame-load-no-tables");
    let limits = Limits { tb_dir: Some(dir), ..Limits::default() };
    let addr = endgame_server::spawn("127.0.0.1:0".parse().unwrap(), AppState::new(limits)).unwrap();
    assert!(addr.ip().is_loopback());
    // Warm up: each request once (the in-memory tables are solved on first use).
    let mut warm = BufReader::new(TcpStream::connect(addr).unwrap());
    for (method, path, body) in MIX {
        request(&mut warm, method, path, body);
    }
    let started = Instant::now();
    let threads: Vec<_> = (0..clients)
        .map(|c| {
            let count = total / clients + usize::from(c < total % clients);
            std::thread::spawn(move || {
                let stream = TcpStream::connect(addr).unwrap();
                stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
                let mut stream = BufReader::new(stream);
                let mut latencies = Vec::with_capacity(count);
                let mut errors = Vec::new();
                for i in 0..count {
                    let (method, path, body) = MIX[(c + i) % MIX.len()];
                    let t = Instant::now();
                    let status = request(&mut stream, method, path, body);
                    latencies.push(t.elapsed());
                    // The last request of the mix is a bad FEN: 400 is its right answer.
                    let expected = if path.ends_with("=bad") { 400 } else { 200 };
                    if status != expected {
                        errors.push(format!("{status} {method} {}", path.split('?').next().unwrap_or(path)));
                    }
                }
                (latencies, errors)
            })
        })
        .collect();
    let mut latencies = Vec::with_capacity(total);
    let mut unexpected: Vec<String> = Vec::new();
    for t in threads {
        let (l, e) = t.join().unwrap();
        latencies.extend(l);
        unexpected.extend(e);
    }
    let errors = unexpected.len();
    unexpected.sort();
    let wall = started.elapsed();
    latencies.sort();
    let pct = |p: f64| latencies[((latencies.len() as f64 * p) as usize).min(latencies.len() - 1)];
    println!(
        "{} requests from {clients} clients in {:.2} s ({:.0} requests/s): {errors} errors; latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; peak RSS {:.1} MiB",
        latencies.len(),
        wall.as_secs_f64(),
        latencies.len() as f64 / wall.as_secs_f64(),
        pct(0.50).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        latencies.last().unwrap().as_secs_f64() * 1e3,
        peak_rss_mib(),
    );
    let mut kinds = unexpected.clone();
    kinds.dedup();
    for kind in kinds {
        println!("  {} x {kind}", unexpected.iter().filter(|e| **e == kind).count());
    }
    assert_eq!(errors, 0, "every request answered as expected");
}
