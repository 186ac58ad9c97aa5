//! End-to-end tests in headless Chromium: the server on a free loopback port, the page driven
//! through chromedriver as a player uses it (clicks, keys, the browser's back and forward), and
//! what the page shows (text, colours, counts, positions on the screen) checked against the
//! API's answers, at desktop and phone widths, in English and Chinese.
//!
//! One browser session runs every check in turn (a browser start costs seconds); each check is
//! a function named after what it shows, and its time is printed. Screenshots go to
//! `target/screenshots/`. Without Chromium the test says it was skipped, except in CI
//! (`CI=true`), where it fails.

mod webdriver;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use endgame_server::{AppState, Limits};
use serde_json::{Value, json};
use webdriver::{Browser, available, http_raw};

/// Starts the server on a free loopback port in a thread of its own, with its tables in `dir`
/// and generation on demand within `budget` bytes (`None`: off, as `serve --no-generate`);
/// gives its address.
fn start_server(dir: PathBuf, budget: Option<u64>) -> SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        runtime.block_on(async move {
            let listener = endgame_server::bind("127.0.0.1:0".parse().unwrap()).await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            let limits = Limits { tb_dir: Some(dir), generate_memory: budget, ..Limits::default() };
            endgame_server::serve(listener, Arc::new(AppState::new(limits))).await.unwrap();
        });
    });
    rx.recv().unwrap()
}

/// A fresh table directory for a test server (removed first if a run left it behind).
fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("endgame-browser-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The generation budget of the test server: `KRvKAB` and `KRPvKAB` fit (2 and 42 MiB besides
/// what the process itself holds, which grows with the threads), `KRPvKAABB` (347 MiB) does not.
fn budget() -> u64 {
    (96 << 20) + endgame_xiangqi::store::process_bytes()
}

/// The page under test: the browser and the server.
struct Page {
    browser: Browser,
    server: SocketAddr,
    base: String,
}

impl std::ops::Deref for Page {
    type Target = Browser;
    fn deref(&self) -> &Browser {
        &self.browser
    }
}

impl Page {
    fn open(&self, path: &str) {
        self.goto(&format!("{}{path}", self.base));
    }

    fn post(&self, path: &str, body: &str) -> (u16, Value) {
        let (status, bytes) = http_raw(self.server, "POST", path, Some(body.as_bytes()));
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    fn get(&self, path: &str) -> (u16, Value) {
        let (status, bytes) = http_raw(self.server, "GET", path, None);
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    /// The API's answer for a Xiangqi position.
    fn position(&self, fen: &str) -> Value {
        let (status, json) = self.get(&format!("/api/xiangqi?fen={}", fen.replace(' ', "%20")));
        assert_eq!(status, 200, "{fen}: {json}");
        json
    }

    fn js(&self, script: &str) -> Value {
        self.script(script, json!([]))
    }

    fn wait(&self, what: &str, script: &str) -> Value {
        self.wait_for(what, script, json!([]))
    }

    /// The FEN in the page's FEN box.
    fn fen(&self) -> String {
        self.js("return document.querySelector('#xq-fen').value;").as_str().unwrap().to_string()
    }

    fn wait_fen(&self, fen: &str) {
        self.wait_for(
            &format!("the position {fen}"),
            "return document.querySelector('#xq-fen').value === arguments[0] && !!document.querySelector('#xq-verdict:not(.muted)');",
            json!([fen]),
        );
    }

    /// Opens a Xiangqi position and waits for its moves.
    fn open_xiangqi(&self, fen: &str) {
        self.open(&format!("/xiangqi?fen={}", fen.replace(' ', "%20")));
        self.wait_fen(fen);
    }

    /// Waits until the element of `selector` shows `text`.
    fn wait_text(&self, selector: &str, text: &str) {
        self.wait_for(
            &format!("{selector} showing {text:?}"),
            "const e = document.querySelector(arguments[0]); return !!e && e.textContent === arguments[1];",
            json!([selector, text]),
        );
    }

    /// Takes the focus off any field, as a click on the page's background does.
    fn blur(&self) {
        self.js("document.activeElement && document.activeElement.blur();");
    }

    /// No `undefined`, `NaN` or `[object ...]` in the page's text, its SVG titles or its
    /// tooltips, and no string missing from the language tables.
    fn assert_clean(&self, what: &str) {
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
    fn shot(&self, name: &str) {
        self.js("window.scrollTo(0, 0);");
        self.screenshot(&screenshots().join(name));
    }
}

fn screenshots() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots")
}

const JUDGE: &str = "7 11\n0 3 6 5 3 2 5 7 7 2 4 4\n5 3 5 2 4 5 4 0 2 4\n";
/// Red wins in 11 plies (KPvK).
const SOLDIER: &str = "4k4/9/9/9/9/2P6/9/9/9/3K5 w";
/// Red to move loses in 8 plies (KvKN).
const HORSE: &str = "3k5/9/9/9/9/3n5/9/9/9/3K5 w";
/// Red wins in 3, 7 or 11 plies (KRvKN).
const CHARIOT: &str = "4k4/9/4n4/9/9/9/9/9/4R4/3K5 w";

/// A check: its name and what it does with the page.
type Check = (&'static str, fn(&Page));

/// The whole explorer in one browser session.
#[test]
fn the_explorer_as_a_player_sees_it() {
    if !available("the_explorer_as_a_player_sees_it") {
        return;
    }
    let started = Instant::now();
    // No tables at the start: the positions of 5 men or more are generated on demand.
    let dir = fresh_dir("no-tables");
    let server = start_server(dir.clone(), Some(budget()));
    let page = Page { browser: Browser::start(), server, base: format!("http://{server}") };
    let checks: [Check; 19] = [
        ("xiangqi_moves_are_the_apis", xiangqi_moves_are_the_apis),
        ("pieces_and_river_are_drawn_by_the_page", pieces_and_river_are_drawn_by_the_page),
        ("best_move_arrow_and_distance_colours", best_move_arrow_and_distance_colours),
        ("editor_shows_the_servers_messages", editor_shows_the_servers_messages),
        ("examples_menu_is_the_apis", examples_menu_is_the_apis),
        ("errors_clear_the_analysis", errors_clear_the_analysis),
        ("small_fixes", small_fixes),
        ("side_to_move_and_swapped_colours", side_to_move_and_swapped_colours),
        ("browser_history_steps_through_positions", browser_history_steps_through_positions),
        ("game_record_copy_and_export", game_record_copy_and_export),
        ("back_while_playing_takes_back_the_pair", back_while_playing_takes_back_the_pair),
        ("playing_against_perfect_play", playing_against_perfect_play),
        ("twixt_shows_the_apis_pegs_and_moves", twixt_shows_the_apis_pegs_and_moves),
        ("cheesy_solves_and_edits", cheesy_solves_and_edits),
        ("marine_solves_and_edits", marine_solves_and_edits),
        ("favicon", favicon),
        ("generate_on_demand", generate_on_demand),
        ("chinese_interface", chinese_interface),
        ("phone_layout", phone_layout),
    ];
    for (name, check) in checks {
        let at = Instant::now();
        check(&page);
        // Straight to the process's standard error: the test harness captures `eprintln!`.
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            format!("{name}: {:.1} s\n", at.elapsed().as_secs_f64()).as_bytes(),
        );
    }
    let _ = std::io::Write::write_all(
        &mut std::io::stderr(),
        format!("the explorer's browser checks: {:.1} s in all\n", started.elapsed().as_secs_f64())
            .as_bytes(),
    );
    let _ = std::fs::remove_dir_all(&dir);
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

/// The position after `uci`, as the page writes it (board and side to move).
fn after(fen: &str, uci: &str) -> String {
    let position = endgame_xiangqi::Position::from_setup(fen.parse().unwrap()).unwrap();
    let next = position.play_unchecked(uci.parse().unwrap()).setup().to_string();
    format!("{} {}", board_of(&next), next.split(' ').nth(1).unwrap())
}

fn xiangqi_moves_are_the_apis(page: &Page) {
    // A shared URL opens the explorer on its position: every move listed with the API's values.
    let api = page.position(HORSE);
    page.open(&format!("/?fen={}", HORSE.replace(' ', "%20")));
    page.wait_fen(HORSE);
    let rows = page.js(
        "return [...document.querySelectorAll('#xq-moves tr[data-uci]')].map(r => [...r.children].map(c => c.textContent));",
    );
    let expected: Vec<Value> = api["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| json!([m["wxf"], m["uci"], mover_result(m)]))
        .collect();
    assert_eq!(rows, json!(expected));
    assert_eq!(page.text("#xq-verdict"), "Red to move loses in 8 plies");
    assert_eq!(api["dtm"], -8);
    page.assert_clean("a Xiangqi position");

    // Click the General: its targets light up, exactly the API's moves from d0.
    page.click("g.piece[data-sq='d0']");
    let targets =
        page.js("return [...document.querySelectorAll('#xq-svg .target')].map(t => t.dataset.sq).sort();");
    let mut from_d0: Vec<String> = api["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["uci"].as_str().unwrap().strip_prefix("d0").map(String::from))
        .collect();
    from_d0.sort();
    assert_eq!(targets, json!(from_d0));
    page.assert_clean("a piece's targets");
    page.shot("xiangqi.png");
    // Play d0e0 by clicking its target: the page shows the API's answer for the new position.
    page.click("#xq-svg .target[data-sq='e0']");
    let next = after(HORSE, "d0e0");
    page.wait_fen(&next);
    let answer = page.position(&next);
    assert_eq!(page.text("#xq-verdict"), format!("Black to move wins in {} plies", answer["dtm"]));
    // Back returns to the start.
    page.click("#xq-back");
    page.wait_fen(HORSE);
}

fn pieces_and_river_are_drawn_by_the_page(page: &Page) {
    page.open_xiangqi(CHARIOT);
    // Every piece is a disc with its character drawn as a path from glyphs.js: nothing on the
    // board (and nothing on the English page) needs a Chinese font.
    let drawn = page.js(
        "return [...document.querySelectorAll('#xq-svg g.piece')].map(g => { const p = g.querySelector('path.glyph'); \
         const box = p.getBBox(); return [g.dataset.sq, g.dataset.piece, p.dataset.char, p.getAttribute('d').length > 200, box.width > 10 && box.height > 10]; });",
    );
    let mut drawn: Vec<Value> = drawn.as_array().unwrap().clone();
    drawn.sort_by_key(|v| v[0].as_str().unwrap().to_string());
    assert_eq!(
        json!(drawn),
        json!([
            ["d0", "K", "帥", true, true],
            ["e1", "R", "俥", true, true],
            ["e7", "n", "馬", true, true],
            ["e9", "k", "將", true, true]
        ])
    );
    let river = page.js(
        "return [...document.querySelectorAll('#xq-svg .river path')].map(p => p.dataset.char).join('');",
    );
    assert_eq!(river, json!("楚河漢界"));
    let cjk = page.js(
        "const cjk = /[\\u3000-\\u9fff]/; return [...document.querySelectorAll('#xq-svg text')].some(t => cjk.test(t.textContent)) || cjk.test(document.body.innerText);",
    );
    assert_eq!(cjk, json!(false), "text that needs a Chinese font");
    // The editor's 14 piece buttons: the same drawings.
    page.click("#xq-edit");
    let buttons = page.js(
        "return [...document.querySelectorAll('#xq-editor button[data-piece]')].filter(b => b.dataset.piece).map(b => b.querySelector('path.glyph').dataset.char).join('');",
    );
    assert_eq!(buttons, json!("帥仕相傌俥炮兵將士象馬車砲卒"));
    page.click("#xq-edit");
    page.wait_fen(CHARIOT);
    // Flipped, the river text stays in the river, in reading order, inside the board.
    let river_boxes = "const s = document.querySelector('#xq-svg').getBoundingClientRect(); \
        return [...document.querySelectorAll('#xq-svg .river path')].map(p => { const r = p.getBoundingClientRect(); \
        return [Math.round(100 * (r.left + r.width / 2 - s.left) / s.width), Math.round(100 * (r.top + r.height / 2 - s.top) / s.height)]; });";
    let straight = page.js(river_boxes);
    page.click("#xq-flip");
    let flipped = page.js(river_boxes);
    assert_eq!(straight, flipped);
    for point in flipped.as_array().unwrap() {
        let (x, y) = (point[0].as_i64().unwrap(), point[1].as_i64().unwrap());
        assert!((10..=90).contains(&x) && (45..=55).contains(&y), "river glyph at {x} %, {y} %");
    }
    let xs: Vec<i64> = flipped.as_array().unwrap().iter().map(|p| p[0].as_i64().unwrap()).collect();
    assert!(xs.windows(2).all(|w| w[0] < w[1]), "{xs:?}");
    // Flipped, Black's General is at the bottom.
    let ys = page.js(
        "const y = (sq) => document.querySelector(`#xq-svg g.piece[data-sq='${sq}'] circle`).getBoundingClientRect().top; return [y('e9'), y('d0')];",
    );
    assert!(ys[0].as_f64().unwrap() > ys[1].as_f64().unwrap(), "{ys}");
    page.click("#xq-flip");
}

/// The alpha of a CSS colour `rgba(r, g, b, a)` (1 for `rgb(...)`).
fn alpha(colour: &str) -> f64 {
    colour
        .strip_prefix("rgba(")
        .and_then(|c| c.trim_end_matches(')').rsplit(',').next())
        .map_or(1.0, |a| a.trim().parse().unwrap())
}

fn best_move_arrow_and_distance_colours(page: &Page) {
    page.open_xiangqi(CHARIOT);
    let api = page.position(CHARIOT);
    // The arrow shows the API's best move, in the colour of a win.
    let arrow = page.js("const a = document.querySelector('#xq-svg .arrow'); return [a.dataset.uci, getComputedStyle(a).fill];");
    assert_eq!(arrow[0], api["moves"][0]["uci"]);
    let fill = arrow[1].as_str().unwrap().to_string();
    let rgb: Vec<u32> = fill
        .trim_start_matches("rgb(")
        .trim_end_matches(')')
        .split(',')
        .map(|c| c.trim().parse().unwrap())
        .collect();
    assert!(rgb[1] > rgb[0] + 40 && rgb[1] > rgb[2] + 40, "a green arrow: {fill}");
    // The arrow goes with its box.
    page.click("#xq-arrow");
    assert_eq!(page.js("return document.querySelectorAll('#xq-svg .arrow').length;"), json!(0));
    page.click("#xq-arrow");
    // Results are tinted by distance: a nearer mate is stronger.
    let cells = page.js(
        "return [...document.querySelectorAll('#xq-moves td.res')].map(c => [c.textContent, getComputedStyle(c).backgroundColor]);",
    );
    let mut wins: Vec<(u32, f64)> = cells
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| {
            let plies = c[0].as_str().unwrap().strip_prefix("Win in ")?.parse().ok()?;
            Some((plies, alpha(c[1].as_str().unwrap())))
        })
        .collect();
    wins.sort_by_key(|w| w.0);
    assert!(wins.first().unwrap().0 < wins.last().unwrap().0, "{wins:?}");
    assert!(wins.windows(2).all(|w| w[0].1 >= w[1].1), "{wins:?}");
    assert!(wins.first().unwrap().1 > wins.last().unwrap().1 + 0.05, "{wins:?}");
    // A loss nearer the end is a stronger red, too.
    page.open_xiangqi(HORSE);
    let cells = page.js(
        "return [...document.querySelectorAll('#xq-moves td.res')].map(c => [c.textContent, getComputedStyle(c).backgroundColor]);",
    );
    let mut losses: Vec<(u32, f64)> = cells
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| {
            let plies = c[0].as_str().unwrap().strip_prefix("Loss in ")?.parse().ok()?;
            Some((plies, alpha(c[1].as_str().unwrap())))
        })
        .collect();
    losses.sort_by_key(|l| l.0);
    assert!(losses.first().unwrap().0 < losses.last().unwrap().0, "{losses:?}");
    assert!(losses.first().unwrap().1 > losses.last().unwrap().1, "{losses:?}");
}

fn editor_shows_the_servers_messages(page: &Page) {
    page.open_xiangqi(HORSE);
    // Without Black's General the setup is illegal, and the page says why, inline.
    page.click("#xq-edit");
    page.click("#xq-editor button[data-piece='']");
    page.click("#xq-svg g.piece[data-sq='d9']");
    let message = page.text("#xq-edit-error-text");
    let fen = page.fen();
    let (status, api_error) = page.get(&format!("/api/xiangqi?fen={}", fen.replace(' ', "%20")));
    assert_eq!(status, 400);
    assert_eq!(json!(message), api_error["error"]);
    // Put it back on e9: legal again.
    page.click("#xq-editor button[data-piece='k']");
    page.click("#xq-svg rect.point[data-sq='e9']");
    assert!(page.text("#xq-edit-ok").starts_with("Legal: "));
    page.click("#xq-edit");
    page.wait("the edited position", "return document.querySelector('#xq-fen').value.startsWith('4k4/');");
}

fn examples_menu_is_the_apis(page: &Page) {
    let (status, examples) = page.get("/api/examples");
    assert_eq!(status, 200);
    let list = examples["xiangqi"].as_array().unwrap();
    page.open_xiangqi(HORSE);
    page.wait("the examples", "return document.querySelectorAll('#xq-examples option').length > 1;");
    let options = page.js(
        "return [...document.querySelectorAll('#xq-examples option')].map(o => [o.value, o.textContent]);",
    );
    let mut expected = vec![json!(["", "Examples…"])];
    expected.extend(list.iter().map(|x| {
        json!([x["fen"], format!("{}: {}", x["material"].as_str().unwrap(), x["english"].as_str().unwrap())])
    }));
    assert_eq!(options, json!(expected));
    // Choosing one opens its position (a new game), and the menu reads "Examples…" again.
    let fen = list[0]["fen"].as_str().unwrap();
    page.script(
        "const s = document.querySelector('#xq-examples'); s.value = arguments[0]; s.dispatchEvent(new Event('change'));",
        json!([fen]),
    );
    // (Its material may need tables this server lacks: only the position is checked.)
    page.wait_for(
        "the example",
        "return document.querySelector('#xq-fen').value === arguments[0];",
        json!([fen]),
    );
    assert_eq!(page.js("return document.querySelector('#xq-examples').value;"), json!(""));
    assert_eq!(game_record(page).as_array().unwrap().len(), 1);
}

/// The analysis panel's state: verdict, error, moves, main line, statistics, pieces drawn.
fn analysis(page: &Page) -> Value {
    page.js(
        "return { verdict: document.querySelector('#xq-verdict').textContent, error: document.querySelector('#xq-error-text')?.textContent ?? null, \
         moves: document.querySelectorAll('#xq-moves tr[data-uci]').length, line: document.querySelector('#xq-line').textContent, \
         stats: document.querySelector('#xq-stats').textContent, pieces: document.querySelectorAll('#xq-svg g.piece').length, \
         arrows: document.querySelectorAll('#xq-svg .arrow').length, play: document.querySelector('#xq-play-red').disabled };",
    )
}

fn load_fen_box(page: &Page, text: &str) {
    page.script("document.querySelector('#xq-fen').value = arguments[0];", json!([text]));
    page.click("#xq-load");
}

fn errors_clear_the_analysis(page: &Page) {
    page.open_xiangqi(CHARIOT);
    page.wait(
        "the statistics",
        "return document.querySelector('#xq-stats').textContent.includes('Positions');",
    );
    // Text that is not a FEN: the server's message, and nothing of the last position.
    load_fen_box(page, "hello");
    page.wait("the error", "return !!document.querySelector('#xq-error-text');");
    let (_, api_error) = page.get("/api/xiangqi?fen=hello");
    assert_eq!(
        analysis(page),
        json!({ "verdict": "No answer", "error": api_error["error"], "moves": 0, "line": "", "stats": "", "pieces": 0, "arrows": 0, "play": true })
    );
    page.assert_clean("an error");
    // An illegal position: drawn, with the server's message and no analysis.
    let illegal = "4k4/9/9/9/9/9/9/9/4R4/3K5 w";
    load_fen_box(page, illegal);
    page.wait("the error", "return document.querySelector('#xq-fen').value.startsWith('4k4') && !!document.querySelector('#xq-error-text');");
    let state = analysis(page);
    assert!(state["error"].as_str().unwrap().starts_with("position: Black is in check"), "{state}");
    assert_eq!(
        (state["moves"].clone(), state["line"].clone(), state["pieces"].clone()),
        (json!(0), json!(""), json!(3))
    );
    // A 200 KB FEN: said too long, not sent, not put into the address.
    load_fen_box(page, &"x".repeat(200_000));
    page.wait(
        "the new error",
        "return !!document.querySelector('#xq-error-text')?.textContent.startsWith('FEN too');",
    );
    let message = page.text("#xq-error-text");
    assert!(message.starts_with("FEN too long: 200000 characters"), "{message}");
    let url_length = page.js("return location.href.length;").as_u64().unwrap();
    assert!(url_length < 300, "{url_length}");
    // Rules in the address the page does not know: said, and standard rules in the menu.
    page.open(&format!("/xiangqi?fen={}&rules=bogus", SOLDIER.replace(' ', "%20")));
    page.wait_fen(SOLDIER);
    let notice = page.text("#xq-notice");
    assert!(
        notice.starts_with("Unknown rules “bogus” in the address (expected standard, hdu, perpetual-check"),
        "{notice}"
    );
    let menu = page.js(
        "const s = document.querySelector('#xq-rules'); return [s.value, s.selectedOptions[0].textContent];",
    );
    assert_eq!(menu, json!(["standard", "standard rules"]));
    assert_eq!(page.text("#xq-verdict"), "Red to move wins in 11 plies");
}

fn small_fixes(page: &Page) {
    // One ply, not "1 plies".
    let mate = "3k5/9/9/9/9/9/9/9/4R4/5K3 w";
    page.open_xiangqi(mate);
    assert_eq!(page.text("#xq-verdict"), "Red to move wins in 1 ply");
    assert_eq!(page.text("#xq-line-end"), "1 ply. Black has no legal move (stalemated) and loses.");
    // Nothing to go back or forward to: both disabled.
    assert_eq!(page.js("return [document.querySelector('#xq-back').disabled, document.querySelector('#xq-forward').disabled];"), json!([true, true]));
    // After the last move: Play and Best move disabled, the game-over line not in a loser's red.
    page.blur();
    page.keys(" ");
    let end = after(mate, "e1e8");
    page.wait_fen(&end);
    let state = page.js(
        "return [document.querySelector('#xq-play-red').disabled, document.querySelector('#xq-play-black').disabled, document.querySelector('#xq-best').disabled, \
         document.querySelector('#xq-back').disabled, document.querySelector('#xq-verdict').textContent, getComputedStyle(document.querySelector('#xq-verdict')).color];",
    );
    assert_eq!(
        state,
        json!([
            true,
            true,
            true,
            false,
            "Game over: Black has no legal move (stalemated) and loses.",
            "rgb(34, 34, 34)"
        ])
    );
    // Main-line moves never break inside a move: each is one box on one line.
    page.open_xiangqi(SOLDIER);
    let breaks = page.js(
        "return [...document.querySelectorAll('#xq-line span[data-ply]')].filter(s => s.getClientRects().length !== 1 || getComputedStyle(s).whiteSpace !== 'nowrap').length;",
    );
    assert_eq!(breaks, json!(0));
}

/// The FEN with the colours swapped: the board turned round, every piece of the other colour.
fn swapped(fen: &str) -> String {
    let (board, turn) = fen.split_once(' ').unwrap();
    let rows: Vec<String> = board
        .split('/')
        .rev()
        .map(|row| {
            row.chars()
                .rev()
                .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
                .collect()
        })
        .collect();
    format!("{} {}", rows.join("/"), if turn == "w" { "b" } else { "w" })
}

fn side_to_move_and_swapped_colours(page: &Page) {
    page.open_xiangqi(HORSE);
    assert_eq!(page.text("#xq-turn"), "Red to move ⇄");
    page.click("#xq-turn");
    let black = "3k5/9/9/9/9/3n5/9/9/9/3K5 b";
    page.wait_fen(black);
    assert_eq!(page.text("#xq-turn"), "Black to move ⇄");
    let answer = page.position(black);
    assert_eq!(page.text("#xq-verdict"), format!("Black to move wins in {} plies", answer["dtm"]));
    page.click("#xq-swap");
    let twin = swapped(black);
    assert_eq!(twin, "5k3/9/9/9/5N3/9/9/9/9/5K3 w");
    page.wait_fen(&twin);
    // The same position seen from the other side: the same value, for Red now.
    assert_eq!(page.position(&twin)["dtm"], answer["dtm"]);
    assert_eq!(page.text("#xq-verdict"), format!("Red to move wins in {} plies", answer["dtm"]));
}

/// The page's game record: the ply numbers of its moves and their texts.
fn game_record(page: &Page) -> Value {
    page.js("return [...document.querySelectorAll('#xq-game .ply[data-ply]')].map(p => [Number(p.dataset.ply), p.textContent, p.classList.contains('current')]);")
}

fn browser_history_steps_through_positions(page: &Page) {
    page.open_xiangqi(SOLDIER);
    let api = page.position(SOLDIER);
    let first = after(SOLDIER, api["moves"][0]["uci"].as_str().unwrap());
    let reply = page.position(&first);
    let second = after(&first, reply["moves"][0]["uci"].as_str().unwrap());
    // Space plays the best move; each position is an entry of the browser's history.
    page.blur();
    page.keys(" ");
    page.wait_fen(&first);
    page.keys(" ");
    page.wait_fen(&second);
    let url = page.js("return location.pathname + location.search;");
    assert_eq!(url, json!(format!("/xiangqi?fen={}", second.replace(' ', "%20"))));
    page.js("history.back();");
    page.wait_fen(&first);
    page.js("history.back();");
    page.wait_fen(SOLDIER);
    page.js("history.forward();");
    page.wait_fen(&first);
    // The game played is still there.
    assert_eq!(game_record(page).as_array().unwrap().len(), 3);
    // Another tab and back: the Xiangqi page as it was.
    page.click("nav a[data-tab='twixt']");
    page.wait(
        "the Twixt page",
        "return !document.querySelector('#twixt').hidden && location.pathname === '/twixt';",
    );
    page.js("history.back();");
    page.wait("the Xiangqi page", "return !document.querySelector('#xiangqi').hidden;");
    page.wait_fen(&first);
    assert_eq!(game_record(page).as_array().unwrap().len(), 3);
    // The keys: ← → step, f flips.
    page.blur();
    page.keys("\u{E012}");
    page.wait_fen(SOLDIER);
    page.keys("\u{E014}\u{E014}");
    page.wait_fen(&second);
    page.keys("f");
    assert_eq!(page.js("return document.querySelector('#xq-flip').checked;"), json!(true));
    page.keys("f");
    assert_eq!(page.js("return document.querySelector('#xq-flip').checked;"), json!(false));
}

fn game_record_copy_and_export(page: &Page) {
    // Two moves played from SOLDIER (the last check): numbered by move, with their results.
    let api = page.position(SOLDIER);
    let first = after(SOLDIER, api["moves"][0]["uci"].as_str().unwrap());
    let reply = page.position(&first);
    let second = after(&first, reply["moves"][0]["uci"].as_str().unwrap());
    page.wait_fen(&second);
    let red = &api["moves"][0];
    let black = &reply["moves"][0];
    assert_eq!(
        game_record(page),
        json!([
            [0, "Start", false],
            [1, format!("{}{}", red["wxf"].as_str().unwrap(), mover_result(red)), false],
            [2, format!("{}{}", black["wxf"].as_str().unwrap(), mover_result(black)), true],
        ])
    );
    assert_eq!(page.js("return [...document.querySelectorAll('#xq-game .moveno')].map(n => n.textContent).join(' ').trim();"), json!("1."));
    // A click on a move opens its position.
    page.click("#xq-game .ply[data-ply='1']");
    page.wait_fen(&first);
    page.click("#xq-game .ply[data-ply='2']");
    page.wait_fen(&second);
    page.shot("xiangqi-game.png");
    // Copy FEN and copy link (the clipboard recorded), with a word on the button.
    page.js(
        "window.copied = []; navigator.clipboard.writeText = async (text) => { window.copied.push(text); };",
    );
    page.click("#xq-copy-fen");
    page.click("#xq-copy-link");
    page.wait("the copies", "return window.copied.length === 2;");
    let copied = page.js("return [window.copied, document.querySelector('#xq-copy-fen').textContent];");
    assert_eq!(
        copied,
        json!([[second, format!("{}/xiangqi?fen={}", page.base, second.replace(' ', "%20"))], "Copied"])
    );
    // The game as a WXF file.
    page.click("#xq-export");
    let text = page.js("return document.querySelector('#xq-wxf').value;");
    let lines: Vec<&str> = text.as_str().unwrap().lines().collect();
    assert_eq!(lines[0], "FORMAT          WXF");
    assert!(lines[4].starts_with("DATE            20"), "{text}");
    assert_eq!(lines[5], "RESULT          *");
    assert_eq!(lines[6], format!("FEN             {SOLDIER} - - 0 1"));
    assert_eq!(
        &lines[7..],
        [
            "START{",
            &format!("  1. {:<10}{}", red["wxf"].as_str().unwrap(), black["wxf"].as_str().unwrap()),
            "}END"
        ]
    );
    let link = page.js("const a = document.querySelector('#xq-download'); return [a.getAttribute('download'), a.href.startsWith('blob:')];");
    assert_eq!(link, json!(["endgame.wxf", true]));
    page.click("#xq-export");
    // Other rules: the game stays, with each move's result under them.
    page.js("const s = document.querySelector('#xq-rules'); s.value = 'hdu'; s.dispatchEvent(new Event('change'));");
    let hdu = |fen: &str| {
        let (status, json) = page.get(&format!("/api/xiangqi?fen={}&rules=hdu", fen.replace(' ', "%20")));
        assert_eq!(status, 200, "{json}");
        json
    };
    let (red_hdu, black_hdu) = (hdu(&first), hdu(&second));
    let expected = json!([
        [0, "Start", false],
        [1, format!("{}{}", red["wxf"].as_str().unwrap(), mover_result(&red_hdu)), false],
        [2, format!("{}{}", black["wxf"].as_str().unwrap(), mover_result(&black_hdu)), true],
    ]);
    page.wait_for(
        "the game's results under hdu rules",
        "return JSON.stringify([...document.querySelectorAll('#xq-game .ply[data-ply]')].map(p => [Number(p.dataset.ply), p.textContent, p.classList.contains('current')])) === arguments[0];",
        json!([expected.to_string()]),
    );
    assert_eq!(page.js("return location.search.endsWith('&rules=hdu');"), json!(true));
}

fn back_while_playing_takes_back_the_pair(page: &Page) {
    page.open_xiangqi(SOLDIER);
    page.click("#xq-play-red");
    assert_eq!(page.js("return document.querySelector('#xq-back').disabled;"), json!(true));
    let api = page.position(SOLDIER);
    let best = api["moves"][0]["uci"].as_str().unwrap();
    page.click(&format!("#xq-moves tr[data-uci='{best}']"));
    let first = after(SOLDIER, best);
    let reply = page.position(&first)["moves"][0]["uci"].as_str().unwrap().to_string();
    page.wait_fen(&after(&first, &reply));
    // One Back takes back perfect play's reply and our move, and perfect play waits.
    page.click("#xq-back");
    page.wait_fen(SOLDIER);
    std::thread::sleep(Duration::from_millis(1000));
    assert_eq!(page.fen(), SOLDIER);
    assert_eq!(page.text("#xq-play-text"), "You play Red: your move.");
    page.click("#xq-stop");
}

/// The colour of an element as the page shows it.
fn colour(page: &Page, selector: &str) -> String {
    page.script("return getComputedStyle(document.querySelector(arguments[0])).color;", json!([selector]))
        .as_str()
        .unwrap()
        .to_string()
}

fn playing_against_perfect_play(page: &Page) {
    // Play a won position against perfect play, always choosing the best move, once as the
    // winner (Red: the server takes the longest loss) and once as the loser (Black: the server
    // takes the shortest win). Every reply is the API's best move, and the game lasts exactly
    // as many plies as the API said.
    let plies = page.position(SOLDIER)["dtm"].as_i64().unwrap();
    assert!(plies > 1);
    for (human, button) in [('w', "#xq-play-red"), ('b', "#xq-play-black")] {
        assert_eq!(play_against_perfect_play(page, human, button), plies);
        let over = page.text("#xq-verdict");
        let (text, rgb) = if human == 'w' {
            ("Game over: you win. Black has no legal move (stalemated) and loses.", "rgb(31, 138, 59)")
        } else {
            ("Game over: you lose. Black has no legal move (stalemated) and loses.", "rgb(192, 57, 43)")
        };
        assert_eq!(over, text);
        assert_eq!(colour(page, "#xq-verdict"), rgb, "{over}");
        let you = if human == 'w' { "You play Red." } else { "You play Black." };
        assert_eq!(page.text("#xq-play-text"), you);
        // Playing Black turns the board round.
        let flipped = page.js("return document.querySelector('#xq-flip').checked;");
        assert_eq!(flipped, json!(human == 'b'));
        page.assert_clean("a game against perfect play");
        page.shot(&format!("xiangqi-play-{human}.png"));
    }
}

/// Plays SOLDIER on the page as `human` (`w` or `b`) against the server, choosing the API's
/// best move on our turns; checks every reply of the server against the API's best move;
/// gives the number of plies played until the game ended.
fn play_against_perfect_play(page: &Page, human: char, button: &str) -> i64 {
    page.open_xiangqi(SOLDIER);
    page.click(button);
    let mut current = SOLDIER.to_string();
    let mut played = 0;
    loop {
        assert!(played < 200, "the game does not end");
        let answer = page.position(&current);
        let Some(best) = answer["moves"][0]["uci"].as_str() else { break };
        let to_move = current.split(' ').nth(1).unwrap().chars().next().unwrap();
        if to_move == human {
            // Our turn, once the page has this position's moves: click the best one.
            page.wait_for(
                "our turn",
                "const t = document.querySelector('#xq-play-text'); return t && t.textContent.includes('your move') && !!document.querySelector(`#xq-moves tr[data-uci='${arguments[0]}']`);",
                json!([best]),
            );
            page.click(&format!("#xq-moves tr[data-uci='{best}']"));
        }
        // Whoever moved, the page must show the position after the API's best move.
        let next = after(&current, best);
        page.wait_for(
            &format!("{best} on the page (after {current})"),
            "return document.querySelector('#xq-fen').value === arguments[0];",
            json!([next]),
        );
        played += 1;
        current = next;
    }
    page.wait("the end", "return document.querySelector('#xq-verdict').textContent.startsWith('Game over');");
    played
}

fn twixt_shows_the_apis_pegs_and_moves(page: &Page) {
    // The judge example replayed: pegs, their colours, moves and outcome as the API says.
    let (status, api) = page.post("/api/twixt/replay", JUDGE);
    assert_eq!(status, 200);
    page.open("/twixt");
    page.wait("the board", "return document.querySelectorAll('#twixt-moves div').length === 11;");
    // The Xiangqi tab opened from here for the first time, and the browser's Back: Twixt again.
    page.click("nav a[data-tab='xiangqi']");
    page.wait(
        "the Xiangqi page",
        "return location.pathname === '/xiangqi' && !!document.querySelector('#xq-moves tr[data-uci]');",
    );
    page.js("history.back();");
    page.wait(
        "the Twixt page",
        "return !document.querySelector('#twixt').hidden && location.pathname === '/twixt';",
    );
    let moves = api["moves"].as_array().unwrap();
    let pegs = page.js("return [...document.querySelectorAll('#twixt-svg .peg')].map(p => [p.dataset.point, p.getAttribute('fill')]);");
    let expected: Vec<Value> = moves
        .iter()
        .map(|m| {
            let fill = match m["color"].as_str().unwrap() {
                "Black" => "#222",
                "White" => "#fff",
                other => panic!("a colour {other}"),
            };
            json!([m["point"]["name"], fill])
        })
        .collect();
    assert_eq!(pegs, json!(expected));
    // Both colours are on the board, as a person sees them.
    let fills = page.js("return [...new Set([...document.querySelectorAll('#twixt-svg .peg')].map(p => getComputedStyle(p).fill))].sort();");
    assert_eq!(fills, json!(["rgb(255, 255, 255)", "rgb(34, 34, 34)"]));
    // Every move reads "number. colour point", as the API says.
    let labels =
        page.js("return [...document.querySelectorAll('#twixt-moves div')].map(d => d.textContent);");
    for (label, m) in labels.as_array().unwrap().iter().zip(moves) {
        let start = format!(
            "{}. {} {}",
            m["number"],
            m["color"].as_str().unwrap(),
            m["point"]["name"].as_str().unwrap()
        );
        assert!(label.as_str().unwrap().starts_with(&start), "{label} for {m}");
    }
    assert!(page.text("#twixt-info").contains("Black wins by connection on move 11"));
    assert!(page.text("#twixt-threats").contains("The game is over"));
    page.assert_clean("a Twixt record");
    assert_eq!(page.js("return document.querySelector('#twixt-next').disabled;"), json!(true));
    // One move back with the button: the threats after move 10 are the API's (upto=10).
    page.click("#twixt-prev");
    let (_, before) = page.post("/api/twixt/replay?upto=10", JUDGE);
    let expected: Vec<&str> = before["threats"]["winning_now"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(!expected.is_empty());
    let shown = page.wait(
        "the threats after move 10",
        "const t = document.querySelector('#twixt-threats').textContent; return t.includes('Wins at once') && t;",
    );
    assert!(shown.as_str().unwrap().contains(&format!("Wins at once{}", expected.join(", "))), "{shown}");
    assert_eq!(page.js("return document.querySelector('#twixt-slider').value;"), json!("10"));
    page.blur();
    page.keys("\u{E014}");
    page.wait(
        "the winning path",
        "return document.querySelector('#twixt-threats').textContent.includes('over');",
    );
    page.shot("twixt.png");
    // A record with an illegal move: the API's message, inline, and nothing of the last record.
    page.script(
        "document.querySelector('#twixt-record').value = arguments[0];",
        json!(["7 3\n0 3 6 5 0 3\n"]),
    );
    page.click("#twixt-replay");
    assert_eq!(page.text("#twixt-error-text"), "move 3 (line 2): (0,3) is already occupied");
    let cleared = page.js(
        "return [document.querySelectorAll('#twixt-svg').length, document.querySelector('#twixt-info').textContent, document.querySelectorAll('#twixt-moves div').length];",
    );
    assert_eq!(cleared, json!([0, "", 0]));
    // No format detected: the page's menu is named, not the command line's option.
    page.script("document.querySelector('#twixt-record').value = arguments[0];", json!(["hello\n"]));
    page.click("#twixt-replay");
    page.wait(
        "the format error",
        "return !!document.querySelector('#twixt-error-text')?.textContent.includes('format');",
    );
    let message = page.text("#twixt-error-text");
    assert!(
        message.ends_with("; choose the format (format=judge, sgf or t1)") && !message.contains("--format"),
        "{message}"
    );
}

fn cheesy_solves_and_edits(page: &Page) {
    page.open("/cheesy");
    page.wait("the board", "return document.querySelectorAll('#cheesy-grid .cell').length > 0;");
    // Before a solve there is nothing to step through.
    let disabled = "return ['first', 'prev', 'play', 'next', 'last'].map(b => document.querySelector(`#cheesy-${b}`).disabled);";
    assert_eq!(page.js(disabled), json!([true, true, true, true, true]));
    let board = page.js("return document.querySelector('#cheesy-text').value;").as_str().unwrap().to_string();
    // The grid is labelled: columns 1.. below, rows from the bottom on the left.
    let lines: Vec<&str> = board.lines().collect();
    let (rows, cols) = (lines.len(), lines[0].len());
    let labels =
        page.js("return [...document.querySelectorAll('#cheesy-grid .coord')].map(c => c.textContent);");
    let mut expected: Vec<String> = (0..rows).map(|r| (rows - r).to_string()).collect();
    expected.extend((1..=cols).map(|c| c.to_string()));
    assert_eq!(labels, json!(expected));
    let (status, api) = page.post("/api/cheesy/solve?to_move=white", &board);
    assert_eq!(status, 200);
    page.click("#cheesy-solve");
    assert_eq!(
        page.text("#cheesy-result"),
        format!("{} wins in {} plies", api["winner"].as_str().unwrap(), api["plies"])
    );
    assert_eq!(page.js(disabled), json!([true, true, false, false, false]));
    let plies = api["line"].as_array().unwrap();
    assert_eq!(
        page.js("return document.querySelectorAll('#cheesy-line div').length;"),
        json!(plies.len() + 1)
    );
    // The last ply's board on the page is the API's.
    page.click(&format!("#cheesy-line div[data-ply='{}']", plies.len()));
    let cells = page.js(
        "return [...document.querySelectorAll('#cheesy-grid .cell')].map(d => d.textContent === '♔' ? 'K' : d.textContent === '♟' ? 'P' : '.').join('');",
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
    page.assert_clean("a Cheesy Chess solution");
    page.shot("cheesy.png");
    // The board can be edited after a solve: a click edits the board as it was set up.
    page.click("button[data-tool='F']");
    page.click("#cheesy-grid .cell[data-r='0'][data-c='0']");
    let edited = page.js("return [document.querySelector('#cheesy-text').value, document.querySelectorAll('#cheesy-result').length, document.querySelectorAll('#cheesy-line div').length];");
    let mut expected = board.clone();
    expected.replace_range(0..1, "F");
    assert_eq!(edited, json!([expected, 0, 0]));
    // A bad board: the API's message, and no solution of another board.
    page.click("#cheesy-solve");
    page.wait("the new solution", "return !!document.querySelector('#cheesy-result');");
    page.script("document.querySelector('#cheesy-text').value = arguments[0];", json!(["..K\n.X.\n..P\n"]));
    page.click("#cheesy-solve");
    let (_, bad) = page.post("/api/cheesy/solve", "..K\n.X.\n..P\n");
    assert_eq!(page.text("#cheesy-error-text"), bad["error"].as_str().unwrap());
    let cleared = page.js("return [document.querySelectorAll('#cheesy-result').length, document.querySelectorAll('#cheesy-line div').length, document.querySelector('#cheesy-verdict').textContent];");
    assert_eq!(cleared, json!([0, 0, "Edit the board and press Solve."]));
}

fn marine_solves_and_edits(page: &Page) {
    page.open("/marine");
    page.wait("the map", "return document.querySelectorAll('#marine-grid .cell').length > 0;");
    let battle =
        page.js("return document.querySelector('#marine-text').value;").as_str().unwrap().to_string();
    let (status, api) = page.post("/api/marine/solve?rounds=34", &battle);
    assert_eq!(status, 200);
    page.click("#marine-solve");
    assert_eq!(page.text("#marine-result"), format!("WIN in {} rounds", api["rounds"]));
    let rounds = api["plan"].as_array().unwrap();
    page.click(&format!("#marine-plan div[data-round='{}']", rounds.len() - 1));
    let hp = page.text("#marine-hp");
    let marine_hp = rounds[rounds.len() - 2]["marine"]["hp"].as_u64().unwrap();
    assert!(hp.starts_with(&format!("Marine{marine_hp} HP")), "{hp}");
    page.assert_clean("a Marine plan");
    page.shot("marine.png");
    // "within 1 round", not "1 rounds".
    page.script("document.querySelector('#marine-rounds').value = '1';", json!([]));
    page.click("#marine-solve");
    page.wait_text("#marine-result", "LOSE (no win within 1 round)");
    // A click on the map after a solve edits it.
    page.click("button[data-tool='#']");
    page.click("#marine-grid .cell[data-cell='r2c2']");
    let edited = page.js("return [document.querySelector('#marine-text').value.split('\\n')[1], document.querySelectorAll('#marine-result').length];");
    let row: String = battle
        .lines()
        .nth(1)
        .unwrap()
        .chars()
        .enumerate()
        .map(|(i, c)| if i == 1 { '#' } else { c })
        .collect();
    assert_eq!(edited, json!([row, 0]));
    // A 16 x 16 map stays inside its panel, labelled r1..r16 and c1..c16.
    let mut rows = vec![".".repeat(16); 16];
    rows[0].replace_range(0..1, "M");
    rows[15].replace_range(15..16, "a");
    let big = format!("{}\n\nM 5\na 3\n", rows.join("\n"));
    page.script(
        "const t = document.querySelector('#marine-text'); t.value = arguments[0]; t.dispatchEvent(new Event('input'));",
        json!([big]),
    );
    let fit = page.js(
        "const g = document.querySelector('#marine-grid').getBoundingClientRect(), p = document.querySelector('#marine-board').closest('.panel').getBoundingClientRect(); \
         return [g.left >= p.left, g.right <= p.right, document.querySelectorAll('#marine-grid .cell').length, \
         [...document.querySelectorAll('#marine-grid .coord')].map(c => c.textContent).join(' ')];",
    );
    let labels: Vec<String> =
        (1..=16).map(|c| format!("c{c}")).chain((1..=16).map(|r| format!("r{r}"))).collect();
    assert_eq!(fit, json!([true, true, 256, labels.join(" ")]));
    // A bad battle: the API's message, and no plan of another battle.
    page.click("#marine-example");
    page.wait("the example", "return document.querySelectorAll('#marine-grid .cell').length === 20;");
    page.script("document.querySelector('#marine-rounds').value = '34';", json!([]));
    page.click("#marine-solve");
    page.wait("the plan", "return !!document.querySelector('#marine-result');");
    page.script(
        "document.querySelector('#marine-text').value = arguments[0];",
        json!(["M.a\n.?.\n\nM 3\na 1\n"]),
    );
    page.click("#marine-solve");
    let (_, bad) = page.post("/api/marine/solve", "M.a\n.?.\n\nM 3\na 1\n");
    assert_eq!(page.text("#marine-error-text"), bad["error"].as_str().unwrap());
    let cleared = page.js("return [document.querySelectorAll('#marine-result').length, document.querySelector('#marine-plan').textContent, document.querySelector('#marine-hp').textContent];");
    assert_eq!(cleared, json!([0, "", ""]));
}

fn favicon(page: &Page) {
    let href = page.js("return document.querySelector('link[rel=icon]').getAttribute('href');");
    assert_eq!(href, json!("/assets/favicon.svg"));
    for path in ["/assets/favicon.svg", "/favicon.ico"] {
        let (status, body) = http_raw(page.server, "GET", path, None);
        assert_eq!(status, 200, "{path}");
        assert!(String::from_utf8(body).unwrap().starts_with("<svg"), "{path}");
    }
}

/// `KRvKAB`, Red to move: generated on demand in a fraction of a second (0.5 M positions).
const GEN_SMALL: &str = "2bak4/9/9/9/9/9/9/9/R8/3K5 w";
/// `KRvKAABB`, Red to move (the timing from the page).
const GEN_MEDIUM: &str = "2bakab2/9/9/9/9/9/9/9/R8/3K5 w";
/// `KRPvKAB`: about 26 M positions, some seconds: cancelled while it runs.
const GEN_CANCEL: &str = "2bak4/9/9/9/9/9/4P4/9/R8/3K5 w";
/// `KRPvKAABB`: beyond the test server's budget.
const GEN_BIG: &str = "2bakab2/9/9/9/9/9/4P4/9/R8/3K5 w";

/// The page's words for a count of positions (generate.js's `gen.count`, from 10 M up).
fn millions(n: u64) -> String {
    format!("{} M", (n as f64 / 1e6).round())
}

/// The page's words for a time (generate.js's `gen.time`).
fn duration(seconds: f64) -> String {
    match seconds {
        s if s < 1.0 => "1 s".to_string(),
        s if s < 120.0 => format!("{} s", s.round()),
        s if s < 7200.0 => format!("{} min", (s / 60.0).round()),
        s => format!("{:.1} h", s / 3600.0),
    }
}

/// What the generation box shows.
fn generation_box(page: &Page) -> Value {
    page.js(
        "const q = (s) => document.querySelector(s)?.textContent ?? null; \
         return { title: q('.gen-title'), text: q('#xq-gen-text'), refused: q('#xq-gen-refused'), note: q('#xq-gen-note'), \
         commands: [...document.querySelectorAll('#xq-gen code')].map(c => c.textContent), \
         generate: document.querySelector('#xq-generate') ? !document.querySelector('#xq-generate').disabled : null, \
         error_hidden: document.querySelector('#xq-error-text')?.hidden ?? null };",
    )
}

/// The estimate of a position's material, from the API.
fn estimate(page: &Page, fen: &str) -> Value {
    let (status, e) = page.get(&format!("/api/xiangqi/estimate?fen={}", fen.replace(' ', "%20")));
    assert_eq!(status, 200, "{e}");
    e
}

/// Generation on demand (generate.js): the estimate and the Generate button, the progress bar
/// with the time left, the analysis after it without a reload, Cancel, and a material beyond
/// the budget with the commands for a bigger machine and a cluster.
fn generate_on_demand(page: &Page) {
    // Beyond the budget: said, with both commands, and no button.
    let big = estimate(page, GEN_BIG);
    assert_eq!((big["fits"].clone(), big["generate"].clone()), (json!(false), json!(true)), "{big}");
    page.open(&format!("/xiangqi?fen={}", GEN_BIG.replace(' ', "%20")));
    page.wait("the refusal", "return !!document.querySelector('#xq-gen-refused');");
    let memory = format!("{} MB", (big["memory_bytes"].as_f64().unwrap() / 1e6).round());
    assert_eq!(
        generation_box(page),
        json!({
            "title": "KRPvKAABB has no tables under standard rules yet.",
            "text": format!("KRPvKAABB: {} tables, {} positions, about {} and {memory} on this machine",
                big["tables"], millions(big["positions"].as_u64().unwrap()), duration(big["seconds"].as_f64().unwrap())),
            "refused": format!(
                "KRPvKAABB needs about {memory} of memory: more than this server may use for a generation ({} MB).",
                (budget() as f64 / 1e6).round()
            ),
            "note": null,
            "commands": [big["command"], big["cluster_command"]],
            "generate": null,
            "error_hidden": true,
        })
    );
    assert_eq!(analysis(page)["verdict"], json!("No answer"));
    page.assert_clean("a generation beyond the budget");
    page.emulate(Some((390, 844)));
    assert_fits(page, 390, "a generation beyond the budget");
    page.emulate(None);
    // In Chinese, every line of it.
    page.click("#lang");
    page.wait("Chinese", "return document.documentElement.lang === 'zh-CN';");
    let zh = generation_box(page);
    assert_eq!(zh["title"], json!("KRPvKAABB 在标准规则下还没有残局库。"));
    assert!(
        zh["text"].as_str().unwrap().starts_with(&format!("KRPvKAABB：{} 张表，", big["tables"])),
        "{zh}"
    );
    assert!(zh["refused"].as_str().unwrap().starts_with("KRPvKAABB 约需 "), "{zh}");
    assert_eq!(zh["commands"], json!([big["command"], big["cluster_command"]]));
    page.assert_clean("a generation beyond the budget, in Chinese");
    page.click("#lang");
    page.wait("English", "return document.documentElement.lang === 'en';");

    // Generate, the progress, then the analysis in the same page (no reload).
    let small = estimate(page, GEN_SMALL);
    assert_eq!((small["state"].clone(), small["fits"].clone()), (json!("missing"), json!(true)), "{small}");
    page.open(&format!("/xiangqi?fen={}", GEN_SMALL.replace(' ', "%20")));
    page.wait("the Generate button", "return !!document.querySelector('#xq-generate:not([disabled])');");
    let shown = generation_box(page);
    let text = shown["text"].as_str().unwrap();
    assert!(
        text.starts_with(&format!("KRvKAB: {} tables, ", small["tables"]))
            && text.ends_with("MB on this machine"),
        "{shown}"
    );
    // Every progress line the page draws, as it draws it.
    page.js(
        "window.sameDocument = true; window.progressSeen = []; \
         new MutationObserver(() => { const bar = document.querySelector('#xq-gen-bar'); \
           if (bar) window.progressSeen.push([document.querySelector('#xq-gen-text').textContent, bar.value]); }) \
         .observe(document.querySelector('#xq-no-table'), { childList: true, subtree: true });",
    );
    page.click("#xq-generate");
    page.wait_fen(GEN_SMALL);
    let api = page.position(GEN_SMALL);
    let state = analysis(page);
    assert_eq!(state["moves"].as_u64().unwrap(), api["moves"].as_array().unwrap().len() as u64, "{state}");
    assert_ne!(state["verdict"], json!("No answer"));
    assert_eq!(
        page.js("return [window.sameDocument, !!document.querySelector('#xq-gen')];"),
        json!([true, false])
    );
    let seen = page.js("return window.progressSeen;");
    let seen = seen.as_array().unwrap();
    assert!(!seen.is_empty(), "no progress bar was drawn");
    let tables = small["tables"].as_u64().unwrap();
    for line in seen {
        let text = line[0].as_str().unwrap();
        let ok = text == "Waiting for another generation to finish…"
            || text
                .split_once(&format!(" of {tables} tables done · generating K"))
                .is_some_and(|(done, _)| done.parse::<u64>().is_ok_and(|d| d <= tables));
        assert!(ok, "{text:?} in {seen:?}");
    }
    page.wait(
        "the statistics",
        "return document.querySelector('#xq-stats').textContent.includes('Positions');",
    );
    page.assert_clean("the analysis after a generation");

    // Cancel while it runs: the Generate button again, the tables finished kept.
    let before = estimate(page, GEN_CANCEL);
    page.open(&format!("/xiangqi?fen={}", GEN_CANCEL.replace(' ', "%20")));
    page.wait("the Generate button", "return !!document.querySelector('#xq-generate:not([disabled])');");
    page.click("#xq-generate");
    let left = page.wait(
        "the time left",
        "const e = document.querySelector('#xq-gen-left'); return e && e.textContent.startsWith('about ') && e.textContent;",
    );
    let left = left.as_str().unwrap();
    assert!(left.ends_with(" positions per second") && left.contains(" left · "), "{left}");
    assert!(page.text("#xq-gen-percent").ends_with(" %"));
    page.click("#xq-gen-cancel");
    page.wait(
        "the Generate button again",
        "return !!document.querySelector('#xq-generate:not([disabled])');",
    );
    let after = estimate(page, GEN_CANCEL);
    assert_eq!((after["state"].clone(), after["job"].clone()), (json!("missing"), json!(null)), "{after}");
    assert!(after["tables"].as_u64() <= before["tables"].as_u64(), "{before} {after}");
    let shown = generation_box(page);
    assert_eq!(
        shown["note"],
        json!("Cancelled. The tables finished so far are kept: generating again goes on from them.")
    );
    assert!(
        shown["text"].as_str().unwrap().starts_with(&format!("KRPvKAB: {} tables, ", after["tables"])),
        "{shown}"
    );
    assert_eq!(analysis(page)["verdict"], json!("No answer"));
    page.assert_clean("a cancelled generation");

    // A server that does not generate: the estimate and the command for a terminal.
    let off = start_server(fresh_dir("no-generate"), None);
    page.goto(&format!("http://{off}/xiangqi?fen={}", GEN_SMALL.replace(' ', "%20")));
    page.wait("the refusal", "return !!document.querySelector('#xq-gen-refused');");
    let shown = generation_box(page);
    assert!(shown["text"].as_str().unwrap().starts_with("KRvKAB: "), "{shown}");
    assert_eq!(
        (shown["refused"].as_str().unwrap(), &shown["commands"], &shown["generate"]),
        (
            "This server does not generate tables (it was started with --no-generate, or listens beyond this machine). In a terminal:",
            &json!(["endgame xiangqi generate KRvKAB --rules standard"]),
            &json!(null)
        )
    );
    page.assert_clean("a server that does not generate");
}

fn chinese_interface(page: &Page) {
    // Both tables have the same keys.
    let keys = page.js(
        "const s = window.endgameI18n.STRINGS; return [Object.keys(s.en).sort(), Object.keys(s.zh).sort()];",
    );
    assert_eq!(keys[0], keys[1]);
    page.open_xiangqi(CHARIOT);
    // The switch shows 中文 as drawn characters (no Chinese font needed to find it).
    assert_eq!(
        page.js("return document.querySelector('#lang svg').getAttribute('aria-label');"),
        json!("中文")
    );
    page.click("#lang");
    page.wait("Chinese", "return document.documentElement.lang === 'zh-CN';");
    let api = page.position(CHARIOT);
    assert_eq!(page.text("#xq-verdict"), format!("红方走棋，{} 步（半回合）胜", api["dtm"]));
    assert_eq!(page.text("nav a[data-tab='xiangqi']"), "象棋");
    assert_eq!(page.text("#lang"), "English");
    // Moves in Chinese notation, results in Chinese.
    let first = page
        .js("return [...document.querySelector('#xq-moves tr[data-uci]').children].map(c => c.textContent);");
    assert_eq!(first, json!(["车五进六", "e1e7 ×马", "3 步胜"]));
    page.assert_clean("the Chinese Xiangqi page");
    let example = page.js("return document.querySelectorAll('#xq-examples option')[1].textContent;");
    let first = &page.get("/api/examples").1["xiangqi"][0];
    assert_eq!(
        example,
        json!(format!("{}：{}", first["material"].as_str().unwrap(), first["chinese"].as_str().unwrap()))
    );
    page.shot("xiangqi-zh.png");
    // Remembered: a new visit opens in Chinese.
    page.open_xiangqi(SOLDIER);
    assert_eq!(page.js("return document.documentElement.lang;"), json!("zh-CN"));
    assert_eq!(page.text("#xq-verdict"), "红方走棋，11 步（半回合）胜");
    // Every page in Chinese: no string missing, nothing undefined.
    for (tab, ready, text) in [
        ("twixt", "#twixt-threats", "对局结束：黑方第 11 步连通获胜。"),
        ("cheesy", "#cheesy-verdict", "编辑棋盘后点击“求解”。"),
        ("marine", "#marine-verdict", "编辑战局后点击“求解”。"),
    ] {
        page.click(&format!("nav a[data-tab='{tab}']"));
        page.wait_for(
            &format!("the {tab} page in Chinese"),
            "return document.querySelector(arguments[0]).textContent === arguments[1];",
            json!([ready, text]),
        );
        page.assert_clean(&format!("the Chinese {tab} page"));
    }
    page.click("#marine-solve");
    page.wait(
        "the plan in Chinese",
        "return document.querySelector('#marine-result')?.textContent === '10 回合获胜';",
    );
    page.assert_clean("a Chinese Marine plan");
    page.click("#lang");
    page.wait("English", "return document.documentElement.lang === 'en';");
    assert_eq!(page.text("#marine-result"), "WIN in 10 rounds");
}

/// The layout at a phone's width: nothing wider than the screen, the tabs on one row.
fn assert_fits(page: &Page, width: u32, what: &str) {
    let layout = page.js(
        "const tabs = [...document.querySelectorAll('nav a')].map(a => a.getBoundingClientRect()); \
         const panels = [...document.querySelectorAll('section:not([hidden]) .panel')].map(p => p.getBoundingClientRect()); \
         return { scroll: document.documentElement.scrollWidth, \
           tabs: tabs.map(r => [Math.round(r.left), Math.round(r.right), Math.round(r.top), Math.round(r.height)]), \
           panels: panels.map(r => [Math.round(r.left), Math.round(r.right)]) };",
    );
    assert!(layout["scroll"].as_u64().unwrap() <= u64::from(width), "{what}: {layout}");
    let tabs = layout["tabs"].as_array().unwrap();
    assert_eq!(tabs.len(), 4);
    for (i, tab) in tabs.iter().enumerate() {
        let (left, right, top, height) = (
            tab[0].as_i64().unwrap(),
            tab[1].as_i64().unwrap(),
            tab[2].as_i64().unwrap(),
            tab[3].as_i64().unwrap(),
        );
        assert!(left >= 0 && right <= i64::from(width), "{what}: tab {i} {tab}");
        assert_eq!(top, tabs[0][2].as_i64().unwrap(), "{what}: the tabs on one row: {layout}");
        assert!(height < 60, "{what}: {layout}");
        if i > 0 {
            assert!(left >= tabs[i - 1][1].as_i64().unwrap(), "{what}: tabs overlap: {layout}");
        }
    }
    for panel in layout["panels"].as_array().unwrap() {
        assert!(
            panel[0].as_i64().unwrap() >= 0 && panel[1].as_i64().unwrap() <= i64::from(width),
            "{what}: {layout}"
        );
    }
}

fn phone_layout(page: &Page) {
    let (width, height) = (390, 844);
    page.emulate(Some((width, height)));
    for lang in ["en", "zh"] {
        page.open_xiangqi(SOLDIER);
        if page.js("return document.documentElement.lang;")
            != json!(if lang == "en" { "en" } else { "zh-CN" })
        {
            page.click("#lang");
        }
        page.wait_fen(SOLDIER);
        assert_fits(page, width, &format!("Xiangqi ({lang})"));
        let board = page
            .js("return document.querySelector('#xq-svg').getBoundingClientRect().width;")
            .as_f64()
            .unwrap();
        assert!((300.0..=f64::from(width)).contains(&board), "the board is {board} px wide");
        let breaks = page.js("return [...document.querySelectorAll('#xq-line span[data-ply]')].filter(s => s.getClientRects().length !== 1).length;");
        assert_eq!(breaks, json!(0));
        page.shot(&format!("phone-xiangqi-{lang}.png"));
        for (tab, ready) in [("twixt", "#twixt-svg"), ("cheesy", "#cheesy-grid"), ("marine", "#marine-grid")]
        {
            page.click(&format!("nav a[data-tab='{tab}']"));
            page.wait_for(
                &format!("the {tab} page"),
                "return !!document.querySelector(arguments[0]);",
                json!([ready]),
            );
            assert_fits(page, width, &format!("{tab} ({lang})"));
            page.shot(&format!("phone-{tab}-{lang}.png"));
        }
    }
    page.click("#lang");
    page.emulate(None);
}

/// The CPU time (user + system) and the peak memory of this process (the server, the solver
/// included; the browser runs in processes of its own), from `/proc/self`.
fn cpu_and_peak() -> (f64, u64) {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let peak = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").parse().ok())
        .unwrap_or(0);
    // Linux counts CPU time in ticks of 1/100 s (USER_HZ).
    (ticks / 100.0, peak)
}

/// The time from the Generate click to the analysis, as a player waits for it, for `KRvKAABB`
/// and `KRPvKAABB` from an empty directory (each with a server of its own; budget 4 GiB), and
/// the screenshots of the flow (`target/screenshots/generate-*.png`, the README's).
/// Long (about a minute on a 2-core machine): `scripts/bench/xiangqi-page-generate.sh`.
#[test]
#[ignore = "a benchmark: about a minute; scripts/bench/xiangqi-page-generate.sh"]
fn generate_from_the_page_timing() {
    if !available("generate_from_the_page_timing") {
        return;
    }
    let mut browser = Some(Browser::start());
    for (material, fen) in [("KRvKAABB", GEN_MEDIUM), ("KRPvKAABB", GEN_BIG)] {
        let shots = material == "KRPvKAABB";
        let dir = fresh_dir(&format!("timing-{material}"));
        let server = start_server(dir.clone(), Some(4 << 30));
        let page = Page { browser: browser.take().unwrap(), server, base: format!("http://{server}") };
        let e = estimate(&page, fen);
        page.open(&format!("/xiangqi?fen={}", fen.replace(' ', "%20")));
        page.wait("the Generate button", "return !!document.querySelector('#xq-generate:not([disabled])');");
        if shots {
            page.shot("generate-estimate.png");
        }
        let (cpu, _) = cpu_and_peak();
        page.click("#xq-generate");
        let clicked = Instant::now();
        let deadline = clicked + Duration::from_secs(3600);
        let mut shot = !shots;
        while page.script(
            "return document.querySelector('#xq-fen').value === arguments[0] && !!document.querySelector('#xq-verdict:not(.muted)') && document.querySelectorAll('#xq-moves tr[data-uci]').length > 0;",
            json!([fen]),
        ) != json!(true)
        {
            assert!(Instant::now() < deadline, "{material}: no analysis after an hour");
            if !shot && clicked.elapsed() > Duration::from_secs(15) {
                page.shot("generate-progress.png");
                shot = true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let wall = clicked.elapsed().as_secs_f64();
        let (cpu_after, peak) = cpu_and_peak();
        if shots {
            page.shot("generate-done.png");
        }
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            format!(
                "{material}: {} tables, {} positions, estimated {:.1} s and {} MiB; Generate to analysis {wall:.1} s wall, {:.1} s CPU (user+sys) of the server, peak RSS of the process {} MiB\n",
                e["tables"], e["positions"], e["seconds"].as_f64().unwrap(), e["memory_bytes"].as_u64().unwrap() >> 20,
                cpu_after - cpu, peak >> 10
            )
            .as_bytes(),
        );
        let _ = std::fs::remove_dir_all(&dir);
        // The same browser for the next server.
        browser = Some(page.browser);
    }
}
