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

fn get(addr: SocketAddr, path: &str) -> Value {
    let (status, bytes) = http_raw(addr, "GET", path, None);
    let json: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(status, 200, "{path}: {json}");
    json
}

fn position_of(addr: SocketAddr, fen: &str) -> Value {
    get(addr, &format!("/api/xiangqi?fen={}", fen.replace(' ', "%20")))
}

/// The result of a move for its player, as the page writes it.
fn mover_result(m: &Value) -> String {
    match m["category"].as_str().unwrap() {
        "draw" => "Draw".to_string(),
        "loss" => format!("Win in {}", m["dtm"].as_i64().unwrap().abs() + 1),
        _ => format!("Loss in {}", m["dtm"].as_i64().unwrap().abs() + 1),
    }
}

/// The board part of a FEN.
fn board_of(fen: &str) -> &str {
    fen.split(' ').next().unwrap()
}

fn page_fen(browser: &Browser) -> String {
    browser.script("return document.querySelector('#xq-fen').value;", json!([])).as_str().unwrap().to_string()
}

#[test]
fn xiangqi_page_shows_the_apis_values_and_plays_perfectly() {
    if !available("xiangqi_page_shows_the_apis_values_and_plays_perfectly") {
        return;
    }
    let server = start_server();
    let browser = Browser::start();
    let base = format!("http://{server}");

    // A shared URL opens the explorer on its position: every move listed with the API's values.
    let fen = "3k5/9/9/9/9/3n5/9/9/9/3K5 w";
    let api = position_of(server, fen);
    browser.goto(&format!("{base}/?fen={}", fen.replace(' ', "%20")));
    browser.wait_for(
        "the moves",
        "return document.querySelectorAll('#xq-moves tr[data-uci]').length > 0;",
        json!([]),
    );
    let rows = browser.script(
        "return [...document.querySelectorAll('#xq-moves tr[data-uci]')].map(r => [...r.children].map(c => c.textContent));",
        json!([]),
    );
    let expected: Vec<Value> = api["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| json!([m["wxf"], m["uci"], mover_result(m)]))
        .collect();
    assert_eq!(rows, json!(expected));
    assert_eq!(browser.text("#xq-verdict"), "Red to move loses in 8 plies");
    assert_eq!(api["dtm"], -8);

    // Click the General: its targets light up, exactly the API's moves from d0.
    browser.click("g.piece[data-sq='d0']");
    let targets = browser.script(
        "return [...document.querySelectorAll('#xq-svg .target')].map(t => t.dataset.sq).sort();",
        json!([]),
    );
    let mut from_d0: Vec<String> = api["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["uci"].as_str().unwrap().strip_prefix("d0").map(String::from))
        .collect();
    from_d0.sort();
    assert_eq!(targets, json!(from_d0));
    browser.screenshot(&screenshots().join("xiangqi.png"));
    // Play d0e0 by clicking its target: the page shows the API's answer for the new position.
    browser.click("#xq-svg .target[data-sq='e0']");
    browser.wait_for(
        "the new position",
        "return document.querySelector('#xq-fen').value.endsWith(' b');",
        json!([]),
    );
    let after = position_of(server, &page_fen(&browser));
    let verdict = browser.wait_for(
        "the new verdict",
        "const v = document.querySelector('#xq-verdict').textContent; return v.startsWith('Black') && v;",
        json!([]),
    );
    assert_eq!(verdict, json!(format!("Black to move wins in {} plies", after["dtm"])));
    assert_eq!(board_of(after["fen"].as_str().unwrap()), "3k5/9/9/9/9/3n5/9/9/9/4K4");
    // Back returns to the start.
    browser.click("#xq-back");
    browser.wait_for(
        "the start again",
        "return document.querySelector('#xq-fen').value.endsWith(' w');",
        json!([]),
    );

    // The editor: without Black's General the setup is illegal, and the page says why, inline.
    browser.click("#xq-edit");
    browser.click("#xq-editor button[data-piece='']");
    browser.click("#xq-svg g.piece[data-sq='d9']");
    let message = browser.text("#xq-edit-error-text");
    let fen = page_fen(&browser);
    let (status, bytes) =
        http_raw(server, "GET", &format!("/api/xiangqi?fen={}", fen.replace(' ', "%20")), None);
    assert_eq!(status, 400);
    let api_error: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(json!(message), api_error["error"]);
    // Put it back on e9: legal again.
    browser.click("#xq-editor button[data-piece='k']");
    browser.click("#xq-svg rect.point[data-sq='e9']");
    assert!(browser.text("#xq-edit-ok").starts_with("Legal: "));
    browser.click("#xq-edit");
    browser.wait_for(
        "the edited position",
        "return document.querySelector('#xq-fen').value.startsWith('4k4/');",
        json!([]),
    );

    // An illegal setup: the API's message, inline.
    browser.script(
        "document.querySelector('#xq-fen').value = arguments[0];",
        json!(["4k4/9/9/9/9/9/9/9/4R4/3K5 w"]),
    );
    browser.click("#xq-load");
    let message = browser.text("#xq-error-text");
    assert!(message.starts_with("position: Black is in check"), "{message}");

    // Play against perfect play from a won position, always choosing the best move, once as
    // the winner (Red: the server takes the longest loss) and once as the loser (Black: the
    // server takes the shortest win). Every reply is the API's best move, and the game lasts
    // exactly as many plies as the API said.
    let fen = "4k4/9/9/9/9/2P6/9/9/9/3K5 w";
    let plies = position_of(server, fen)["dtm"].as_i64().unwrap();
    assert!(plies > 1);
    for (human, button) in [('w', "#xq-play-red"), ('b', "#xq-play-black")] {
        assert_eq!(play_against_perfect_play(&browser, server, &base, fen, human, button), plies);
        let over = browser.text("#xq-play-text");
        assert!(over.starts_with("Game over: Black has no legal move"), "{over}");
        browser.screenshot(&screenshots().join(format!("xiangqi-play-{human}.png")));
    }
}

/// Plays `fen` on the page as `human` (`w` or `b`) against the server, choosing the API's best
/// move on our turns; checks every reply of the server against the API's best move; gives the
/// number of plies played until the game ended.
fn play_against_perfect_play(
    browser: &Browser,
    server: SocketAddr,
    base: &str,
    fen: &str,
    human: char,
    button: &str,
) -> i64 {
    browser.goto(&format!("{base}/xiangqi?fen={}", fen.replace(' ', "%20")));
    browser.wait_for(
        "the moves",
        "return document.querySelectorAll('#xq-moves tr[data-uci]').length > 0;",
        json!([]),
    );
    browser.click(button);
    let mut current = fen.to_string();
    let mut played = 0;
    loop {
        assert!(played < 200, "the game does not end");
        let answer = position_of(server, &current);
        let Some(best) = answer["moves"][0]["uci"].as_str() else { break };
        let to_move = current.split(' ').nth(1).unwrap().chars().next().unwrap();
        if to_move == human {
            // Our turn, once the page has this position's moves: click the best one.
            browser.wait_for(
                "our turn",
                "const t = document.querySelector('#xq-play-text'); return t && t.textContent.includes('your move') && !!document.querySelector(`#xq-moves tr[data-uci='${arguments[0]}']`);",
                json!([best]),
            );
            browser.click(&format!("#xq-moves tr[data-uci='{best}']"));
        }
        // Whoever moved, the page must show the position after the API's best move.
        let position = endgame_xiangqi::Position::from_setup(current.parse().unwrap()).unwrap();
        let after = position.play_unchecked(best.parse().unwrap()).setup().to_string();
        let next = format!("{} {}", board_of(&after), after.split(' ').nth(1).unwrap());
        browser.wait_for(
            &format!("{best} on the page (after {current})"),
            "return document.querySelector('#xq-fen').value === arguments[0];",
            json!([next]),
        );
        played += 1;
        current = next;
    }
    browser.wait_for(
        "the end",
        "const t = document.querySelector('#xq-play-text'); return t && t.textContent.startsWith('Game over');",
        json!([]),
    );
    played
}
