//! `endgame serve`: it says where it listens, answers there, and refuses a bad address.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

use assert_cmd::cargo::cargo_bin;

#[test]
fn serve_prints_its_address_and_answers() {
    let mut child = Command::new(cargo_bin("endgame"))
        .args(["serve", "--addr", "127.0.0.1:0", "--dir"])
        .arg(std::env::temp_dir().join("endgame-serve-test-no-tables"))
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr =
        line.trim().strip_prefix("Listening on http://").unwrap_or_else(|| panic!("{line:?}")).to_string();
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    let mut stream = TcpStream::connect(&addr).unwrap();
    write!(stream, "GET /api/xiangqi?fen=bad HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(response.starts_with("HTTP/1.1 400"), "{response}");
    assert!(response.contains(r#"{"error":"FEN \"bad\": "#), "{response}");
}

/// `--allow-host` adds a name; any other name gets 403 with a JSON error.
#[test]
fn serve_answers_to_allowed_host_names_only() {
    let mut child = Command::new(cargo_bin("endgame"))
        .args(["serve", "--addr", "127.0.0.1:0", "--allow-host", "club.lan", "--dir"])
        .arg(std::env::temp_dir().join("endgame-serve-test-no-tables"))
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.trim().strip_prefix("Listening on http://").unwrap().to_string();
    let get = |host: &str| {
        let mut stream = TcpStream::connect(&addr).unwrap();
        write!(stream, "GET /api/examples HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response
    };
    let allowed = get("club.lan:8000");
    let refused = get("evil.example");
    let local = get(&addr);
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(allowed.starts_with("HTTP/1.1 200"), "{allowed}");
    assert!(local.starts_with("HTTP/1.1 200"), "{local}");
    assert!(refused.starts_with("HTTP/1.1 403"), "{refused}");
    assert!(
        refused.contains(r#"{"error":"Host \"evil.example\" is not an address of this server"#),
        "{refused}"
    );
}

#[test]
fn serve_refuses_a_bad_address() {
    let out = Command::new(cargo_bin("endgame")).args(["serve", "--addr", "localhost"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: arguments: "));
    // A port already taken: exit status 2 and the reason.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let out = Command::new(cargo_bin("endgame")).args(["serve", "--addr", &addr]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with(&format!("error: --addr {addr}: cannot listen: ")), "{err}");
}

/// Generation on demand (a line on standard error): on by default on the loopback (half the
/// memory available), with the budget given, off with --no-generate; the two flags together
/// are refused.
#[test]
fn serve_says_whether_it_generates() {
    let status_line = |extra: &[&str]| {
        let mut child = Command::new(cargo_bin("endgame"))
            .args(["serve", "--addr", "127.0.0.1:0", "--dir"])
            .arg(std::env::temp_dir().join("endgame-serve-test-no-tables"))
            .args(extra)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stderr.take().unwrap()).read_line(&mut line).unwrap();
        child.kill().unwrap();
        child.wait().unwrap();
        line
    };
    assert!(status_line(&[]).starts_with("Generating missing tables on demand, up to "));
    assert_eq!(
        status_line(&["--generate-memory", "300"]),
        "Generating missing tables on demand, up to 300 MiB of memory each\n"
    );
    assert!(status_line(&["--no-generate"]).starts_with("Generating no tables on demand"));
    let out = Command::new(cargo_bin("endgame"))
        .args(["serve", "--no-generate", "--generate-memory", "300"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
