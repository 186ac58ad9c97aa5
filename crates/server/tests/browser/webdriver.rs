//! A minimal W3C WebDriver client over plain HTTP/1.1 to a local chromedriver: enough to
//! open pages, find and click elements, read text, run scripts and take screenshots. (A full
//! client such as fantoccini would pull a TLS stack and an HTTP client into the build for
//! nothing: chromedriver listens on the loopback only.)

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The browser (Debian's package `chromium`); `$CHROMIUM` overrides the path.
pub fn chromium() -> String {
    std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".to_string())
}

/// Its driver (Debian's package `chromium-driver`); `$CHROMEDRIVER` overrides the path.
pub fn chromedriver() -> String {
    std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".to_string())
}

/// Whether the browser tests can run here; in CI (`CI=true`) a missing browser is a failure.
pub fn available(test: &str) -> bool {
    let (chromium, chromedriver) = (chromium(), chromedriver());
    if Path::new(&chromium).exists() && Path::new(&chromedriver).exists() {
        return true;
    }
    let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    assert!(
        !ci,
        "{test}: {chromium} or {chromedriver} is missing, and CI must run the browser tests (.ci/run installs them)"
    );
    // Straight to the process's standard error: the test harness captures `eprintln!`.
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED {test}: {chromium} or {chromedriver} is missing (apt-get install -y chromium chromium-driver to run it)"
    );
    false
}

/// A free loopback port.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// One HTTP/1.1 request (the connection closed after it); the status and the body as JSON.
pub fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let (status, bytes) = http_raw(addr, method, path, body.map(|b| b.to_string().into_bytes()).as_deref());
    let json = serde_json::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {}", String::from_utf8_lossy(&bytes)));
    (status, json)
}

/// One HTTP/1.1 request (the connection closed after it) with a raw body; the status and the body's bytes.
pub fn http_raw(addr: SocketAddr, method: &str, path: &str, body: Option<&[u8]>) -> (u16, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).unwrap_or_else(|e| panic!("connecting to {addr}: {e}"));
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let body = body.unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    // Read the head, then as much body as it announces (a server may keep the connection open).
    let mut response = Vec::new();
    let mut buf = [0u8; 1 << 16];
    let split = loop {
        if let Some(split) = response.windows(4).position(|w| w == b"\r\n\r\n") {
            break split;
        }
        let n = stream.read(&mut buf).unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        assert!(n > 0, "{method} {path}: the connection closed before the response head");
        response.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&response[..split]).to_ascii_lowercase();
    let status: u16 = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).expect("a status");
    let length: Option<usize> =
        head.lines().find_map(|l| l.strip_prefix("content-length:")).and_then(|v| v.trim().parse().ok());
    let chunked = head.contains("transfer-encoding: chunked");
    loop {
        let body = &response[split + 4..];
        let done = match length {
            Some(n) => body.len() >= n,
            None if chunked => body.ends_with(b"0\r\n\r\n"),
            None => false,
        };
        if done {
            break;
        }
        let n = stream.read(&mut buf).unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        if n == 0 {
            break;
        }
        response.extend_from_slice(&buf[..n]);
    }
    let body = &response[split + 4..];
    if chunked { (status, dechunk(body)) } else { (status, body.to_vec()) }
}

/// The body of a chunked response.
fn dechunk(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(end) = body.windows(2).position(|w| w == b"\r\n") else { return out };
        let size = usize::from_str_radix(
            String::from_utf8_lossy(&body[..end]).split(';').next().unwrap().trim(),
            16,
        )
        .unwrap_or(0);
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&body[end + 2..end + 2 + size]);
        body = &body[end + 2 + size + 2..];
    }
}

/// The chromedriver process, stopped when dropped (also when a browser start fails).
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A running chromedriver and one headless Chromium session.
pub struct Browser {
    _driver: Driver,
    addr: SocketAddr,
    session: String,
    profile: std::path::PathBuf,
    _turn: std::sync::MutexGuard<'static, ()>,
}

static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

impl Browser {
    /// Starts chromedriver on a free loopback port and a headless Chromium with a fresh profile.
    pub fn start() -> Browser {
        // One browser at a time: two at once on a 2-core machine only slow each other down.
        let turn = TURN.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let port = free_port();
        let driver = Command::new(chromedriver())
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting chromedriver");
        let driver = Driver(driver);
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(addr).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not listen on {addr}");
            std::thread::sleep(Duration::from_millis(50));
        }
        let profile = std::env::temp_dir().join(format!("endgame-chromium-{}-{port}", std::process::id()));
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--window-size=1280,900",
        ];
        let mut args: Vec<String> = args.iter().map(ToString::to_string).collect();
        args.push(format!("--user-data-dir={}", profile.display()));
        // The console's messages (network errors included) are kept for `console_errors`.
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:loggingPrefs": { "browser": "ALL" },
            "goog:chromeOptions": { "binary": chromium(), "args": args }
        } } });
        // A browser start can fail on a loaded machine: try three times.
        let mut tries = 0;
        let (status, answer) = loop {
            tries += 1;
            let attempt = std::panic::catch_unwind(|| http(addr, "POST", "/session", Some(&caps)));
            match attempt {
                Ok((200, answer)) => break (200, answer),
                Ok(other) if tries >= 3 => break other,
                Err(e) if tries >= 3 => std::panic::resume_unwind(e),
                _ => std::thread::sleep(Duration::from_secs(1)),
            }
        };
        assert_eq!(status, 200, "new session: {answer}");
        let session = answer["value"]["sessionId"].as_str().expect("a session id").to_string();
        Browser { _driver: driver, addr, session, profile, _turn: turn }
    }

    fn command(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        let (status, answer) = http(self.addr, method, &path, body.as_ref());
        assert_eq!(status, 200, "{method} {path}: {answer}");
        answer["value"].clone()
    }

    /// Opens a URL.
    pub fn goto(&self, url: &str) {
        self.command("POST", "/url", Some(json!({ "url": url })));
    }

    /// Runs a script (`return ...;`) with arguments and gives its value.
    pub fn script(&self, script: &str, args: Value) -> Value {
        self.command("POST", "/execute/sync", Some(json!({ "script": script, "args": args })))
    }

    /// Waits (at most 20 s) until the script returns something other than null/false/"",
    /// and gives that value.
    pub fn wait_for(&self, what: &str, script: &str, args: Value) -> Value {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let v = self.script(script, args.clone());
            if !(v.is_null() || v == json!(false) || v == json!("")) {
                return v;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The text of the first element matching a CSS selector, once there is one.
    pub fn text(&self, selector: &str) -> String {
        let v = self.wait_for(
            selector,
            "const e = document.querySelector(arguments[0]); return e && e.textContent;",
            json!([selector]),
        );
        v.as_str().unwrap().to_string()
    }

    /// Clicks the first element matching a CSS selector (with WebDriver's click, as a user).
    pub fn click(&self, selector: &str) {
        self.wait_for(selector, "return !!document.querySelector(arguments[0]);", json!([selector]));
        let found =
            self.command("POST", "/element", Some(json!({ "using": "css selector", "value": selector })));
        let id =
            found.as_object().and_then(|o| o.values().next()).and_then(Value::as_str).expect("an element id");
        self.command("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    /// Types `keys` into the page as a user (WebDriver key actions; `\u{E012}` is ←,
    /// `\u{E014}` →), to whatever has the focus.
    pub fn keys(&self, keys: &str) {
        let actions: Vec<Value> = keys
            .chars()
            .flat_map(|c| {
                [
                    json!({ "type": "keyDown", "value": c.to_string() }),
                    json!({ "type": "keyUp", "value": c.to_string() }),
                ]
            })
            .collect();
        self.command(
            "POST",
            "/actions",
            Some(json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": actions }] })),
        );
        self.command("DELETE", "/actions", None);
    }

    /// Shows pages as a phone of `width` x `height` CSS pixels would (Chrome's device
    /// emulation); `None` goes back to the window's own size.
    pub fn emulate(&self, size: Option<(u32, u32)>) {
        let (cmd, params) = match size {
            Some((width, height)) => (
                "Emulation.setDeviceMetricsOverride",
                json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": true }),
            ),
            None => ("Emulation.clearDeviceMetricsOverride", json!({})),
        };
        self.cdp(cmd, params);
    }

    /// A command of the Chrome DevTools Protocol, and its answer.
    pub fn cdp(&self, cmd: &str, params: Value) -> Value {
        self.command("POST", "/goog/cdp/execute", Some(json!({ "cmd": cmd, "params": params })))
    }

    /// The errors of the browser's console since the last call (the red lines a developer
    /// sees: failed requests, uncaught exceptions), each as `source: message`.
    pub fn console_errors(&self) -> Vec<String> {
        let entries = self.command("POST", "/se/log", Some(json!({ "type": "browser" })));
        entries
            .as_array()
            .expect("log entries")
            .iter()
            .filter(|e| e["level"] == "SEVERE")
            .map(|e| {
                format!("{}: {}", e["source"].as_str().unwrap_or("?"), e["message"].as_str().unwrap_or("?"))
            })
            .collect()
    }

    /// Saves a PNG screenshot of the window.
    pub fn screenshot(&self, path: &Path) {
        let data = self.command("GET", "/screenshot", None);
        let png = base64_decode(data.as_str().expect("base64 PNG"));
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(path, png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // Closing the session ends Chromium; the driver stops when its field drops.
        let _ = std::panic::catch_unwind(|| {
            http_raw(self.addr, "DELETE", &format!("/session/{}", self.session), None)
        });
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> =
        text.bytes().filter(|&c| c != b'=' && !c.is_ascii_whitespace()).map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut n = 0u32;
        for (i, &d) in chunk.iter().enumerate() {
            n |= u32::from(d) << (18 - 6 * i);
        }
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}
