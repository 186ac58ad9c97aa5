//! The harness: a test server on a free loopback port with its table directory, and the page
//! under test (the browser and the server) with the helpers every check uses.

use std::net::SocketAddr;
use std::path::PathBuf;

use endgame_server::{Access, Limits};
use serde_json::{Value, json};

use crate::common;
use crate::webdriver::{Browser, http_raw};

/// Starts the server on a free loopback port in a thread of its own, with its tables in `dir`
/// and generation on demand within `budget` bytes (`None`: off, as `serve --no-generate`);
/// gives its address.
pub(crate) fn start_server(dir: PathBuf, budget: Option<u64>) -> SocketAddr {
    common::start(Limits { tb_dir: Some(dir), generate_memory: budget, ..Limits::default() }, Access::new())
}

/// The generation budget of the test server: `KRvKAB` and `KRPvKAB` fit (2 and 42 MiB besides
/// what the process itself holds, which grows with the threads), `KRPvKAABB` (347 MiB) does not.
pub(crate) fn budget() -> u64 {
    (96 << 20) + endgame_xiangqi::store::cost::process_bytes()
}

/// The page under test: the browser and the server.
pub(crate) struct Page {
    pub(crate) browser: Browser,
    pub(crate) server: SocketAddr,
    pub(crate) base: String,
}

impl std::ops::Deref for Page {
    type Target = Browser;
    fn deref(&self) -> &Browser {
        &self.browser
    }
}

impl Page {
    /// The page of `server` in `browser`.
    pub(crate) fn new(browser: Browser, server: SocketAddr) -> Page {
        Page { browser, server, base: format!("http://{server}") }
    }

    pub(crate) fn open(&self, path: &str) {
        self.goto(&format!("{}{path}", self.base));
    }

    pub(crate) fn post(&self, path: &str, body: &str) -> (u16, Value) {
        let (status, bytes) = http_raw(self.server, "POST", path, Some(body.as_bytes()));
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    pub(crate) fn get(&self, path: &str) -> (u16, Value) {
        let (status, bytes) = http_raw(self.server, "GET", path, None);
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    /// The API's answer for a Xiangqi position.
    pub(crate) fn position(&self, fen: &str) -> Value {
        let (status, json) = self.get(&format!("/api/xiangqi?fen={}", fen.replace(' ', "%20")));
        assert_eq!(status, 200, "{fen}: {json}");
        json
    }

    pub(crate) fn js(&self, script: &str) -> Value {
        self.script(script, json!([]))
    }

    pub(crate) fn wait(&self, what: &str, script: &str) -> Value {
        self.wait_for(what, script, json!([]))
    }

    /// The FEN in the page's FEN box.
    pub(crate) fn fen(&self) -> String {
        self.js("return document.querySelector('#xq-fen').value;").as_str().unwrap().to_string()
    }

    pub(crate) fn wait_fen(&self, fen: &str) {
        self.wait_for(
            &format!("the position {fen}"),
            "return document.querySelector('#xq-fen').value === arguments[0] && !!document.querySelector('#xq-verdict:not(.muted)');",
            json!([fen]),
        );
    }

    /// Opens a Xiangqi position and waits for its moves.
    pub(crate) fn open_xiangqi(&self, fen: &str) {
        self.open(&format!("/xiangqi?fen={}", fen.replace(' ', "%20")));
        self.wait_fen(fen);
    }

    /// Waits until the element of `selector` shows `text`.
    pub(crate) fn wait_text(&self, selector: &str, text: &str) {
        self.wait_for(
            &format!("{selector} showing {text:?}"),
            "const e = document.querySelector(arguments[0]); return !!e && e.textContent === arguments[1];",
            json!([selector, text]),
        );
    }

    /// Takes the focus off any field, as a click on the page's background does.
    pub(crate) fn blur(&self) {
        self.js("document.activeElement && document.activeElement.blur();");
    }

    /// No `undefined`, `NaN` or `[object ...]` in the page's text, its SVG titles or its
    /// tooltips, and no string missing from the language tables.
    pub(crate) fn assert_clean(&self, what: &str) {
        let found = self.js(
            "const texts = [document.body.innerText, ...[...document.querySelectorAll('title')].map(t => t.textContent), \
             ...[...document.querySelectorAll('[title]')].map(e => e.getAttribute('title'))]; \
             const bad = texts.filter(t => /undefined|NaN|\\[object/.test(t)); \
             return { bad, missing: [...window.endgameI18n.missing] };",
        );
        assert_eq!(found["bad"], json!([]), "{what}: text with undefined, NaN or [object");
        assert_eq!(found["missing"], json!([]), "{what}: strings missing from the language tables");
    }

    /// A screenshot of the top of the page.
    pub(crate) fn shot(&self, name: &str) {
        self.js("window.scrollTo(0, 0);");
        self.screenshot(&screenshots().join(name));
    }
}

pub(crate) fn screenshots() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots")
}
