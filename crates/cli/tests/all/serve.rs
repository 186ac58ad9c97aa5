//! `endgame serve`: it says where it listens, answers there, and refuses a bad address.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use assert_cmd::cargo::cargo_bin;

/// `endgame serve --addr 127.0.0.1:0 ARGS --dir` a directory without tables.
fn serve(args: &[&str]) -> Command {
    let dir = std::env::temp_dir().join("endgame-serve-test-no-tables");
    std::fs::create_dir_all(&dir).unwrap();
    let mut command = Command::new(cargo_bin("endgame"));
    command.args(["serve", "--addr", "127.0.0.1:0"]).args(args).arg("--dir").arg(dir);
    command
}

/// The first line the server `command` starts prints on standard error.
fn first_status_line(command: &mut Command) -> String {
    let mut child = command.stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap()).read_line(&mut line).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    line
}

/// The server `command` starts, and the address its first line says it listens on.
fn listening(command: &mut Command) -> (Child, String) {
    let mut child = command.stdout(Stdio::piped()).spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr =
        line.trim().strip_prefix("Listening on http://").unwrap_or_else(|| panic!("{line:?}")).to_string();
    (child, addr)
}

/// `GET path` to the server at `addr` under the host name `host`: the whole answer.
fn get(addr: &str, host: &str, path: &str) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

#[test]
fn serve_prints_its_address_and_answers() {
    let (mut child, addr) = listening(&mut serve(&[]));
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    let response = get(&addr, &addr, "/api/xiangqi?fen=bad");
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(response.starts_with("HTTP/1.1 400"), "{response}");
    assert!(response.contains(r#"{"error":"FEN \"bad\": "#), "{response}");
}

/// `--allow-host` adds a name; any other name gets 403 with a JSON error.
#[test]
fn serve_answers_to_allowed_host_names_only() {
    let (mut child, addr) = listening(&mut serve(&["--allow-host", "club.lan"]));
    let examples = |host: &str| get(&addr, host, "/api/examples");
    let allowed = examples("club.lan:8000");
    let refused = examples("evil.example");
    let local = examples(&addr);
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
    let status_line = |extra: &[&str]| first_status_line(&mut serve(extra));
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

/// Issue 40: a --dir that does not exist is said at once (the explorer still answers small
/// positions, so it starts); a file there is refused.
#[test]
fn serve_warns_about_a_table_directory_that_does_not_exist() {
    let missing = std::env::temp_dir().join(format!("endgame-serve-test-missing-{}", std::process::id()));
    let start = |extra: &[&str]| {
        let mut command = Command::new(cargo_bin("endgame"));
        command.args(["serve", "--addr", "127.0.0.1:0"]).args(extra).arg("--dir").arg(&missing);
        first_status_line(&mut command)
    };
    let expected = format!(
        "warning: --dir {}: no such directory: positions of up to 4 men are solved in memory; larger \
         materials need tables",
        missing.display()
    );
    let line = start(&[]);
    assert!(line.starts_with(&expected), "{line}");
    assert!(line.ends_with("(the page's Generate button writes them there)\n"), "{line}");
    let line = start(&["--no-generate"]);
    assert!(line.starts_with(&expected), "{line}");
    assert!(
        line.ends_with(&format!(
            "(`endgame xiangqi generate --dir {} <MATERIAL>` writes them)\n",
            missing.display()
        )),
        "{line}"
    );
    let file = std::env::current_exe().unwrap();
    let out = Command::new(cargo_bin("endgame"))
        .args(["serve", "--addr", "127.0.0.1:0", "--dir"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("error: --dir {}: expected a directory, found a file\n", file.display())
    );
}

/// Issue 23: table files do not exhaust the descriptors. Under a limit of 32 open files (set in
/// the child's shell, soft and hard, so the server cannot raise it), a server over 20
/// materials with table files (40 files: far more than the limit leaves once the server has
/// its own) answers every probe right, round after round, keeps at most its share of table
/// files open, and still serves the page afterwards.
#[cfg(target_os = "linux")]
#[test]
fn serve_under_a_low_descriptor_limit_answers_every_material() {
    use endgame_xiangqi::probe::Probe;
    use endgame_xiangqi::{Material, MaterialIndex, Rules, Tablebases, report};
    const LIMIT: u64 = 32;
    let dir = std::env::temp_dir().join(format!("endgame-serve-test-nofile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let names = [
        "KRvK", "KNvK", "KCvK", "KPvK", "KAvK", "KBvK", "KAAvK", "KABvK", "KBBvK", "KAvKA", "KAvKB", "KBvKB",
        "KRvKA", "KRvKB", "KNvKA", "KNvKB", "KCvKA", "KCvKB", "KPvKA", "KPvKB",
    ];
    let materials: Vec<Material> = names.iter().map(|m| m.parse().unwrap()).collect();
    let store = Tablebases::open(&dir, Rules::Standard);
    store.generate(&materials, &|_| {}).unwrap();
    // Two positions of each material (its first and last legal index), with the answer the
    // library gives in this process (no limit).
    let mut expected = Vec::new();
    for &m in &materials {
        let index = MaterialIndex::new(m);
        let legal = |i: usize| index.decode(i).filter(|p| p.check(Rules::Standard).is_ok());
        let first = (0..index.len()).find_map(legal).unwrap();
        let last = (0..index.len()).rev().find_map(legal).unwrap();
        for p in [first, last] {
            let json = report::solve_json(
                &p,
                Rules::Standard,
                store.probe(&p).unwrap(),
                &store.main_line(&p).unwrap(),
            );
            expected.push((
                m,
                p.setup().to_string().replace(' ', "%20"),
                json["category"].clone(),
                json["dtm"].clone(),
            ));
        }
    }
    let (mut child, addr) = listening(
        Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -n {LIMIT} && exec \"$0\" serve --addr 127.0.0.1:0 --dir \"$1\""))
            .arg(cargo_bin("endgame"))
            .arg(&dir),
    );
    let limits = std::fs::read_to_string(format!("/proc/{}/limits", child.id())).unwrap();
    let nofile = limits.lines().find(|l| l.starts_with("Max open files")).unwrap().to_string();
    // The open table files of the server now.
    let table_files = || {
        std::fs::read_dir(format!("/proc/{}/fd", child.id()))
            .unwrap()
            .filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
            .filter(|target| target.starts_with(&dir))
            .count()
    };
    let ask = |path: &str| get(&addr, &addr, path);
    let share = endgame_server::descriptors::Budget::for_limit(LIMIT, 1024).table_files;
    let mut failures = Vec::new();
    let mut most = 0;
    for _round in 0..3 {
        for (m, fen, category, dtm) in &expected {
            let response = ask(&format!("/api/xiangqi?fen={fen}"));
            let body = response.split("\r\n\r\n").nth(1).unwrap_or("");
            let json: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
            if !response.starts_with("HTTP/1.1 200") || json["category"] != *category || json["dtm"] != *dtm {
                failures.push(format!("{m} {fen}: {response}"));
            }
            most = most.max(table_files());
        }
    }
    let page = ask("/");
    child.kill().unwrap();
    child.wait().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(nofile.split_whitespace().nth(3), Some("32"), "the limit in force: {nofile}");
    assert!(
        failures.is_empty(),
        "{} of {} probes failed, the first: {}",
        failures.len(),
        3 * expected.len(),
        failures[0]
    );
    assert!(most <= share, "{most} table files open at once, more than the share of {share}");
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
}
