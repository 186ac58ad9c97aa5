//! End-to-end tests in headless Chromium: the server on a free loopback port, the page driven
//! through chromedriver, the values on the page checked against the API's answers.
//! Screenshots go to `target/screenshots/`. Without Chromium the tests say they were skipped,
//! except in CI (`CI=true`), where they fail.

mod webdriver;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use endgame_server::{AppState, Limits};
use serde_json::{Value, json};
use webdriver::{Browser, available, http_raw};

/// Starts the server on a free loopback port in a thread of its own; gives its address.
fn start_server() -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime.block_on(async move {
            let listener = endgame_server::bind("127.0.0.1:0".parse().unwrap()).await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            endgame_server::serve(listener, Arc::new(AppState::new(Limits::default()))).await.unwrap();
        });
    });
    rx.recv().unwrap()
}

fn post(addr: SocketAddr, path: &str, body: &str) -> (u16, Value) {
    let (status, bytes) = http_raw(addr, "POST", path, Some(body.as_bytes()));
    (status, serde_json::from_slice(&bytes).unwrap())
}

fn screenshots() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots")
}

const JUDGE: &str = "7 11\n0 3 6 5 3 2 5 7 7 2 4 4\n5 3 5 2 4 5 4 0 2 4\n";

/// Twixt, Cheesy Chess and Marine in one browser session (a browser start costs seconds).
#[test]
fn twixt_cheesy_marine_pages_show_the_apis_answers() {
    if !available("twixt_cheesy_marine_pages_show_the_apis_answers") {
        return;
    }
    let server = start_server();
    let browser = Browser::start();
    let base = format!("http://{server}");

    // Twixt: the judge example replayed; pegs, moves and outcome as the API says.
    let (status, api) = post(server, "/api/twixt/replay", JUDGE);
    assert_eq!(status, 200);
    browser.goto(&format!("{base}/twixt"));
    browser.wait_for(
        "the board",
        "return document.querySelectorAll('#twixt-moves div').length === 11;",
        json!([]),
    );
    let pegs = browser.script("return document.querySelectorAll('#twixt-svg .peg').length;", json!([]));
    assert_eq!(pegs, json!(api["moves"].as_array().unwrap().len()));
    assert!(browser.text("#twixt-info").contains("Black wins by connection on move 11"));
    assert!(browser.text("#twixt-threats").contains("The game is over"));
    // One move back with the button: the threats after move 10 are the API's (upto=10).
    browser.click("#twixt-prev");
    let (_, before) = post(server, "/api/twixt/replay?upto=10", JUDGE);
    let expected: Vec<&str> = before["threats"]["winning_now"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(!expected.is_empty());
    let shown = browser.wait_for(
        "the threats after move 10",
        "const t = document.querySelector('#twixt-threats').textContent; return t.includes('Wins at once') && t;",
        json!([]),
    );
    assert!(shown.as_str().unwrap().contains(&format!("Wins at once{}", expected.join(", "))), "{shown}");
    assert_eq!(
        browser.script("return document.querySelector('#twixt-slider').value;", json!([])),
        json!("10")
    );
    browser.click("#twixt-next");
    browser.wait_for(
        "the winning path",
        "return document.querySelector('#twixt-threats').textContent.includes('over');",
        json!([]),
    );
    browser.screenshot(&screenshots().join("twixt.png"));

    // A record with an illegal move: the API's message, inline.
    browser.script(
        "document.querySelector('#twixt-record').value = arguments[0];",
        json!(["7 3\n0 3 6 5 0 3\n"]),
    );
    browser.click("#twixt-replay");
    assert_eq!(browser.text("#twixt-error-text"), "move 3 (line 2): (0,3) is already occupied");

    // Cheesy Chess: the example solved; the verdict and the line as the API says.
    browser.goto(&format!("{base}/cheesy"));
    browser.wait_for(
        "the board",
        "return document.querySelectorAll('#cheesy-grid div').length > 0;",
        json!([]),
    );
    let board = browser
        .script("return document.querySelector('#cheesy-text').value;", json!([]))
        .as_str()
        .unwrap()
        .to_string();
    let (status, api) = post(server, "/api/cheesy/solve?to_move=white", &board);
    assert_eq!(status, 200);
    browser.click("#cheesy-solve");
    assert_eq!(
        browser.text("#cheesy-result"),
        format!("{} wins in {} plies", api["winner"].as_str().unwrap(), api["plies"])
    );
    let plies = api["line"].as_array().unwrap();
    let lines = browser.script("return document.querySelectorAll('#cheesy-line div').length;", json!([]));
    assert_eq!(lines, json!(plies.len() + 1));
    // The last ply's board on the page is the API's.
    browser.click(&format!("#cheesy-line div[data-ply='{}']", plies.len()));
    let cells = browser.script(
        "return [...document.querySelectorAll('#cheesy-grid div')].map(d => d.textContent === '♔' ? 'K' : d.textContent === '♟' ? 'P' : '.').join('');",
        json!([]),
    );
    let last: String = plies.last().unwrap()["board"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| {
            r.as_str().unwrap().chars().map(|c| match c {
                'K' => 'K',
                'P' | 'p' => 'P',
                _ => '.',
            })
        })
        .collect();
    assert_eq!(cells, json!(last));
    browser.screenshot(&screenshots().join("cheesy.png"));
    // A bad board: the API's message.
    browser.script(
        "const t = document.querySelector('#cheesy-text'); t.value = '..K\\n.X.\\n..P\\n';",
        json!([]),
    );
    browser.click("#cheesy-solve");
    let (_, bad) = post(server, "/api/cheesy/solve", "..K\n.X.\n..P\n");
    assert_eq!(browser.text("#cheesy-error-text"), bad["error"].as_str().unwrap());

    // Marine: the example solved, the plan with HP.
    browser.goto(&format!("{base}/marine"));
    browser.wait_for(
        "the map",
        "return document.querySelectorAll('#marine-grid div').length > 0;",
        json!([]),
    );
    let battle = browser
        .script("return document.querySelector('#marine-text').value;", json!([]))
        .as_str()
        .unwrap()
        .to_string();
    let (status, api) = post(server, "/api/marine/solve?rounds=34", &battle);
    assert_eq!(status, 200);
    browser.click("#marine-solve");
    assert_eq!(browser.text("#marine-result"), format!("WIN in {} rounds", api["rounds"]));
    let rounds = api["plan"].as_array().unwrap();
    browser.click(&format!("#marine-plan div[data-round='{}']", rounds.len() - 1));
    let hp = browser.text("#marine-hp");
    let marine_hp = rounds[rounds.len() - 2]["marine"]["hp"].as_u64().unwrap();
    assert!(hp.starts_with(&format!("Marine{marine_hp} HP")), "{hp}");
    browser.screenshot(&screenshots().join("marine.png"));
}
