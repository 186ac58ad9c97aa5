//! The server against hostile clients, over real connections on 127.0.0.1 (bounded loops):
//! slow and silent connections, a connection cap with every connection busy, requests hyper
//! refuses itself, foreign Host and Origin headers, searches flooding the slots while probes
//! go on, a search cancelled at its time limit; and in-process, the first probes of materials
//! with table files while a search holds the only slot.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use common::start;
use endgame_server::{Access, Limits};
use serde_json::Value;

/// Limits with no table directory (the in-memory materials answer) and short time limits.
fn limits() -> Limits {
    let dir = common::empty_dir("hostile-no-tables");
    Limits { tb_dir: Some(dir), header_time: Duration::from_secs(1), ..Limits::default() }
}

fn connect(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    stream
}

/// An answer: status, headers (lower case), body as JSON.
#[derive(Debug)]
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    json: Value,
}

/// Reads one answer (with a content length) from `stream`.
fn read_answer(stream: &mut BufReader<TcpStream>) -> Answer {
    let mut line = String::new();
    stream.read_line(&mut line).unwrap();
    let status =
        line.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("{line:?}"));
    let mut headers = Vec::new();
    loop {
        line.clear();
        stream.read_line(&mut line).unwrap();
        if line == "\r\n" || line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':').unwrap();
        headers.push((name.to_ascii_lowercase(), value.trim().to_string()));
    }
    let length: usize =
        headers.iter().find(|(n, _)| n == "content-length").map_or(0, |(_, v)| v.parse().unwrap());
    let mut body = vec![0; length];
    stream.read_exact(&mut body).unwrap();
    let json = serde_json::from_slice(&body)
        .unwrap_or_else(|e| panic!("status {status}: not JSON ({e}): {:?}", String::from_utf8_lossy(&body)));
    Answer { status, headers, json }
}

/// Sends raw bytes on a new connection and reads one answer.
fn raw(addr: SocketAddr, bytes: &[u8]) -> Answer {
    let mut stream = connect(addr);
    // The server may answer and close before it has read everything (a head too long).
    let _ = stream.write_all(bytes);
    read_answer(&mut BufReader::new(stream))
}

fn request(addr: SocketAddr, method: &str, path: &str, headers: &[&str], body: &str) -> Answer {
    let mut head =
        format!("{method} {path} HTTP/1.1\r\nContent-Length: {}\r\nConnection: close\r\n", body.len());
    if !headers.iter().any(|h| h.to_ascii_lowercase().starts_with("host:")) {
        head.push_str(&format!("Host: {addr}\r\n"));
    }
    for h in headers {
        head.push_str(h);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    raw(addr, format!("{head}{body}").as_bytes())
}

fn error(answer: &Answer) -> &str {
    answer.json["error"].as_str().unwrap_or_else(|| panic!("no error message in {answer:?}"))
}

/// Whether the server closes `stream` (reads end, or the connection is reset) rather than
/// answering; `false` when nothing happens for a minute.
fn closed_by_server(stream: &mut TcpStream) -> bool {
    let mut buf = [0; 64];
    match stream.read(&mut buf) {
        Ok(n) => n == 0,
        Err(e) => !matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut),
    }
}

const PROBE: &str = "/api/xiangqi?fen=3k5/9/9/9/9/3n5/9/9/9/3K5%20w";
const MARINE: &str = include_str!("../../marine/examples/corner.txt");
const BIG_MARINE: &str = include_str!("../../marine/tests/data/battle16.txt");

#[test]
fn slow_connections_make_room_and_are_closed_at_the_head_time_limit() {
    let addr = start(Limits { max_connections: 8, ..limits() }, Access::new());
    assert_eq!(request(addr, "GET", PROBE, &[], "").status, 200);
    // Twelve connections that send a head and never finish it: more than the cap. Each new one
    // takes the place of the one idle longest, once that one has had its moment of grace.
    let mut slow: Vec<TcpStream> = (0..12)
        .map(|_| {
            let mut s = connect(addr);
            s.write_all(b"GET / HTTP/1.1\r\nHo").unwrap();
            std::thread::sleep(endgame_server::conn::GRACE / 4);
            s
        })
        .collect();
    std::thread::sleep(endgame_server::conn::GRACE);
    // A normal client is still answered.
    for _ in 0..5 {
        let answer = request(addr, "GET", PROBE, &[], "");
        assert_eq!(answer.status, 200, "{answer:?}");
        assert_eq!(answer.json["category"], "loss");
    }
    // And every slow connection is closed: pushed out, or at the head time limit (1 s here).
    for s in &mut slow {
        let _ = s.write_all(b"s");
        assert!(closed_by_server(s));
    }
    // A silent connection too.
    let mut silent = connect(addr);
    assert!(closed_by_server(&mut silent));
}

#[test]
fn when_every_connection_is_busy_a_new_one_gets_503() {
    let addr =
        start(Limits { max_connections: 2, body_time: Duration::from_secs(1), ..limits() }, Access::new());
    // Two requests that announce a body of 100 bytes and send 1: in a request, not idle.
    let busy: Vec<TcpStream> = (0..2)
        .map(|_| {
            let mut s = connect(addr);
            write!(s, "POST /api/marine/solve HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 100\r\n\r\nM")
                .unwrap();
            s
        })
        .collect();
    // Let the server read both heads.
    std::thread::sleep(Duration::from_millis(300));
    let answer = request(addr, "GET", PROBE, &[], "");
    assert_eq!(answer.status, 503, "{answer:?}");
    assert!(error(&answer).contains("connections open"), "{answer:?}");
    assert!(answer.headers.iter().any(|(n, v)| n == "retry-after" && v == "1"));
    // The body time limit frees them (408, JSON) and the server answers again.
    for s in busy {
        let answer = read_answer(&mut BufReader::new(s));
        assert_eq!(answer.status, 408, "{answer:?}");
        assert!(error(&answer).starts_with("request body: not received within"), "{answer:?}");
    }
    assert_eq!(request(addr, "GET", PROBE, &[], "").status, 200);
}

#[test]
fn every_error_is_json_even_hypers_own() {
    let addr = start(limits(), Access::new());
    // Not HTTP at all.
    let answer = raw(addr, b"HELLO\x01 there\r\n\r\n");
    assert_eq!(answer.status, 400, "{answer:?}");
    assert!(error(&answer).contains("not valid HTTP/1.1"));
    // A head far over 8 KiB: a long header (431), or a long path (414).
    let long = "x".repeat(300_000);
    let answer = raw(addr, format!("GET / HTTP/1.1\r\nHost: {addr}\r\nX-Long: {long}\r\n\r\n").as_bytes());
    assert_eq!(answer.status, 431, "{answer:?}");
    assert!(error(&answer).contains("8 KiB"));
    let answer = raw(addr, format!("GET /{long} HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes());
    assert_eq!(answer.status, 414, "{answer:?}");
    assert!(error(&answer).starts_with("the request's path and query are longer"), "{answer:?}");
    // Bad percent-encoding in a path: the extractor's rejection.
    let answer = request(addr, "GET", "/assets/%FF", &[], "");
    assert_eq!(answer.status, 400, "{answer:?}");
    assert!(answer.headers.iter().any(|(n, v)| n == "content-type" && v == "application/json"));
    assert!(!error(&answer).is_empty());
    // Every status the API gives.
    for (method, path, body, status) in [
        ("GET", "/api/xiangqi?fen=bad", "", 400),
        ("GET", "/api/xiangqi?fen=bad&fen=worse", "", 400),
        ("GET", "/nothing", "", 404),
        ("DELETE", "/api/xiangqi", "", 405),
        ("POST", "/api/cheesy/solve", &".".repeat(endgame_server::MAX_BODY + 1), 413),
    ] {
        let answer = request(addr, method, path, &[], body);
        assert_eq!(answer.status, status, "{method} {path}: {answer:?}");
        assert!(!error(&answer).is_empty());
    }
    let answer = request(addr, "GET", "/api/xiangqi?fen=bad&fen=worse", &[], "");
    assert_eq!(error(&answer), "query: parameter 'fen' given twice (expected it once)");
}

/// Issue 41: a request head is bounded to 8 KiB. A 64 KB header (in one write, or a line at a
/// time) gets 431 with a JSON body, as a 64 KB query gets 414; a browser's head with 5 KiB of
/// cookies is answered.
#[test]
fn a_head_over_8_kib_gets_431_and_a_browsers_head_with_cookies_is_answered() {
    let addr = start(limits(), Access::new());
    let big = "x".repeat(64_000);
    let answer = request(addr, "GET", "/", &[&format!("X-Big: {big}")], "");
    assert_eq!(answer.status, 431, "a 64 KB header: expected 431, got {answer:?}");
    assert!(answer.headers.iter().any(|(n, v)| n == "content-type" && v == "application/json"));
    assert_eq!(
        error(&answer),
        "the request's head (its request line and headers, cookies included) is longer than the server reads (8 KiB)"
    );
    // Many headers of 1 KB, sent one at a time.
    let mut stream = connect(addr);
    write!(stream, "GET {PROBE} HTTP/1.1\r\nHost: {addr}\r\n").unwrap();
    for i in 0..64 {
        if write!(stream, "X-Part-{i}: {}\r\n", &big[..1000]).and_then(|()| stream.flush()).is_err() {
            break;
        }
    }
    let _ = stream.write_all(b"\r\n");
    let answer = read_answer(&mut BufReader::new(stream));
    assert_eq!(answer.status, 431, "64 headers of 1 KB: expected 431, got {answer:?}");
    let answer = request(addr, "GET", &format!("{PROBE}&x={big}"), &[], "");
    assert_eq!(answer.status, 414, "a 64 KB query: expected 414, got {answer:?}");
    // What Chromium sends for the page's requests, with 5 KiB of cookies of other local sites.
    let cookies: Vec<String> = (0..20).map(|i| format!("site{i}_session={}", "c".repeat(240))).collect();
    let browser = [
        "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
        "Accept: */*",
        "Accept-Encoding: gzip, deflate, br, zstd",
        "Accept-Language: en-GB,en;q=0.9,zh-CN;q=0.8,zh;q=0.7",
        "sec-ch-ua: \"Chromium\";v=\"131\", \"Not_A Brand\";v=\"24\"",
        "sec-ch-ua-mobile: ?0",
        "sec-ch-ua-platform: \"Linux\"",
        "Sec-Fetch-Site: same-origin",
        "Sec-Fetch-Mode: cors",
        "Sec-Fetch-Dest: empty",
        "Referer: http://127.0.0.1:8000/xiangqi?fen=3k5%2F9%2F9%2F9%2F9%2F3n5%2F9%2F9%2F9%2F3K5+w&rules=check-and-chase",
        &format!("Cookie: {}", cookies.join("; ")),
    ];
    let answer = request(addr, "GET", PROBE, &browser, "");
    assert_eq!(answer.status, 200, "a browser's head with 5 KiB of cookies: expected 200, got {answer:?}");
}

#[test]
fn foreign_hosts_and_origins_get_403() {
    let addr = start(limits(), Access::new().allow("club.lan"));
    // DNS rebinding: another name for this address.
    let answer = request(addr, "GET", PROBE, &["Host: evil.example:8000"], "");
    assert_eq!(answer.status, 403, "{answer:?}");
    assert!(error(&answer).contains("--allow-host evil.example"), "{answer:?}");
    // A name the user allowed, localhost, the address.
    for host in ["club.lan:8000", "localhost", &addr.to_string()] {
        assert_eq!(request(addr, "GET", PROBE, &[&format!("Host: {host}")], "").status, 200, "{host}");
    }
    // A text/plain POST from another site's page (no preflight): refused before any work.
    let evil = ["Origin: http://evil.example", "Content-Type: text/plain"];
    let answer = request(addr, "POST", "/api/marine/solve", &evil, MARINE);
    assert_eq!(answer.status, 403, "{answer:?}");
    assert!(error(&answer).contains("Origin \"http://evil.example\""), "{answer:?}");
    let answer = request(addr, "POST", "/api/marine/solve", &["Origin: null"], MARINE);
    assert_eq!(answer.status, 403);
    // From the server's own page, and from tools without an Origin: answered.
    let own = format!("Origin: http://{addr}");
    assert_eq!(request(addr, "POST", "/api/marine/solve", &[&own], MARINE).status, 200);
    assert_eq!(request(addr, "POST", "/api/marine/solve", &[], MARINE).status, 200);
}

/// Searches that take every slot and more do not delay probes: every probe is answered while
/// four clients flood the server with searches that run to the time limit.
#[test]
fn probes_are_answered_while_searches_flood_the_slots() {
    let limits = Limits {
        workers: 1,
        search_time: Duration::from_millis(1500),
        queue_time: Duration::from_millis(200),
        marine_states: 50_000_000,
        ..limits()
    };
    let addr = start(limits, Access::new());
    assert_eq!(request(addr, "GET", PROBE, &[], "").status, 200, "the probe's material solved once");
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flooders: Vec<_> = (0..4)
        .map(|_| {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut statuses = Vec::new();
                for _ in 0..100 {
                    if stop.load(std::sync::atomic::Ordering::Relaxed) {
                        break;
                    }
                    let answer = request(addr, "POST", "/api/marine/solve?rounds=100", &[], BIG_MARINE);
                    statuses.push((answer.status, error(&answer).to_string()));
                }
                statuses
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let mut stream = BufReader::new(connect(addr));
    for i in 0..200 {
        write!(stream.get_mut(), "GET {PROBE} HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
        let answer = read_answer(&mut stream);
        assert_eq!(answer.status, 200, "probe {i}: {answer:?}");
        std::thread::sleep(Duration::from_millis(10));
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let statuses: Vec<(u16, String)> = flooders.into_iter().flat_map(|t| t.join().unwrap()).collect();
    // The searches got 503: busy slots, or stopped at the time limit.
    assert!(statuses.iter().all(|(s, _)| *s == 503), "{statuses:?}");
    assert!(statuses.iter().any(|(_, e)| e.contains("search slots are busy")), "{statuses:?}");
    assert!(statuses.iter().any(|(_, e)| e.contains("was stopped")), "{statuses:?}");
}

/// A search past its time limit is cancelled and frees its slot: the next search (which may
/// wait for the slot far longer than the cancelled one would have run on) is answered.
#[test]
fn a_search_past_its_time_limit_stops_and_frees_its_slot() {
    let limits = Limits {
        workers: 1,
        search_time: Duration::from_millis(300),
        queue_time: Duration::from_secs(20),
        marine_states: 50_000_000,
        ..limits()
    };
    let addr = start(limits, Access::new());
    let answer = request(addr, "POST", "/api/marine/solve?rounds=100", &[], BIG_MARINE);
    assert_eq!(answer.status, 503, "{answer:?}");
    assert!(error(&answer).contains("was stopped"), "{answer:?}");
    // Without cancellation the first search would store its 50 million states (minutes, and
    // gigabytes) before the slot freed; the queue time of 20 s would then run out.
    let answer = request(addr, "POST", "/api/marine/solve?rounds=34", &[], MARINE);
    assert_eq!(answer.status, 200, "{answer:?}");
    assert_eq!(answer.json["result"], "win");
}

/// Issue 23: a table regenerated under a running server is read anew. A damaged `KRvKA`
/// table answers 500 "checksum mismatch"; written anew as the message advises (a new file
/// renamed over it), the very next request answers from the new file, without a restart.
#[test]
fn a_table_regenerated_under_a_running_server_answers_at_once() {
    use endgame_xiangqi::{Rules, Tablebases};
    let dir = common::fresh_dir("hostile-replaced");
    let tables = Tablebases::open(&dir, Rules::Standard);
    let m = "KRvKA".parse().unwrap();
    tables.generate(&[m], &|_| {}).unwrap();
    let path = tables.path(m);
    let good = std::fs::read(&path).unwrap();
    let mut damaged = good.clone();
    *damaged.last_mut().unwrap() ^= 0x55;
    let replace = |bytes: &[u8]| {
        let tmp = path.with_extension("new");
        std::fs::write(&tmp, bytes).unwrap();
        std::fs::rename(&tmp, &path).unwrap();
    };
    replace(&damaged);
    let addr = start(Limits { tb_dir: Some(dir.clone()), ..limits() }, Access::new());
    // Red: king e0, rook e1; Black: king d9, advisor e8 (the last block of a one-block table).
    let probe = "/api/xiangqi?fen=3k5/4a4/9/9/9/9/9/9/4R4/4K4%20w";
    let answer = request(addr, "GET", probe, &[], "");
    assert_eq!(answer.status, 500, "{answer:?}");
    assert!(error(&answer).contains("checksum mismatch"), "{answer:?}");
    assert!(error(&answer).contains("endgame xiangqi generate KRvKA"), "{answer:?}");
    replace(&good);
    let answer = request(addr, "GET", probe, &[], "");
    assert_eq!(answer.status, 200, "{answer:?}");
    assert_eq!(answer.json["category"], "win", "{answer:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 41: the first position of a material whose tables are on disk only opens files, so it
/// is a probe and never waits for a search slot. With the only slot held by a search and no
/// queue (a request that would wait gets 503 at once), the first position of each of several
/// materials with files (none asked before, one answered from its colour twin's file) and a
/// material's statistics answer 200, and a material that needs a generation 404; only a
/// material of up to 4 men without files (solved in memory: search work) gets 503, until the
/// slot is free again.
#[tokio::test]
async fn first_probes_of_materials_with_files_never_wait_for_a_search_slot() {
    use endgame_server::AppState;
    use endgame_xiangqi::{Material, Rules, Tablebases};
    let dir = common::fresh_dir("hostile-first-probes");
    let generated: Vec<Material> = ["KRvKA", "KCvKA", "KNvKB"].iter().map(|m| m.parse().unwrap()).collect();
    Tablebases::open(&dir, Rules::Standard).generate(&generated, &|_| {}).unwrap();
    let limits = Limits { workers: 1, queue: 0, tb_dir: Some(dir.clone()), ..limits() };
    let state = Arc::new(AppState::new(limits));
    // A search holds the only slot until `release` is sent.
    let (started, held) = tokio::sync::oneshot::channel();
    let (release, released) = std::sync::mpsc::channel::<()>();
    let holder = {
        let state = Arc::clone(&state);
        tokio::spawn(async move {
            state
                .search(move |_| {
                    let _ = started.send(());
                    let _ = released.recv();
                })
                .await
        })
    };
    held.await.expect("the search holding the slot started");
    let get = |uri: String| {
        let state = Arc::clone(&state);
        async move { common::request(&state, "GET", &uri, axum::body::Body::empty()).await }
    };
    let position = |fen: &str| format!("/api/xiangqi?fen={}", fen.replace(' ', "%20"));
    for (material, fen) in [
        ("KRvKA", "3k5/4a4/9/9/9/9/9/9/4R4/4K4 w"),
        ("KRvK", "3k5/9/9/9/9/9/9/9/4R4/4K4 w"),
        ("KvKA", "3k5/4a4/9/9/9/9/9/9/9/4K4 w"),
        ("KCvKA", "3k5/4a4/9/9/9/9/9/9/4C4/4K4 w"),
        ("KNvKB", "3k5/9/4b4/9/9/9/9/9/4N4/4K4 w"),
        // Answered from KRvKA's file.
        ("KAvKR", "3k5/9/9/9/9/9/r8/9/4A4/4K4 w"),
    ] {
        let (status, json) = get(position(fen)).await;
        assert_eq!(status, 200, "{material} ({fen}), with its file on disk: expected 200, got {json}");
        assert_eq!(json["material"], material, "{json}");
    }
    let (status, json) = get("/api/xiangqi/stats?material=KvKB".to_string()).await;
    assert_eq!(status, 200, "the statistics of KvKB, from its file's header: expected 200, got {json}");
    // A material of 5 men without files: 404 with the command that generates it, at once.
    let (status, json) = get(position("2bak4/9/9/9/9/9/9/9/1R7/5K3 w")).await;
    assert_eq!(status, 404, "KRvKAB without files: expected 404, got {json}");
    assert!(common::error(&json).contains("endgame xiangqi generate KRvKAB"), "{json}");
    // KPvK has no file (its capture KvK has): solved in memory, a search, refused while the
    // slot is held; answered once it is free.
    let pawn = position("3k5/9/9/9/9/4P4/9/9/9/4K4 w");
    let (status, json) = get(pawn.clone()).await;
    assert_eq!(
        status, 503,
        "KPvK without files while the only search slot is held: expected 503, got {json}"
    );
    assert!(common::error(&json).contains("search slots are busy"), "{json}");
    release.send(()).unwrap();
    holder.await.unwrap().expect("the holding search finished");
    let (status, json) = get(pawn).await;
    assert_eq!(status, 200, "KPvK once the slot is free: expected 200, got {json}");
    std::fs::remove_dir_all(&dir).unwrap();
}
