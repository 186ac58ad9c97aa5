//! The Review tab: the example game reviewed, its marks, summary and graph as the API gives
//! them, a move's position with every move's value, the shareable address, a dropped file, a
//! bad record, the Chinese interface, and generation of the material the game starts in.

use serde_json::{Value, json};

use crate::page::Page;

/// The example record (`/api/examples`' `xiangqi_review`).
const EXAMPLE: &str = include_str!("../../../xiangqi/examples/review.pgn");

/// The plies of the rows of the move list with the class `mark`.
fn rows_marked(page: &Page, mark: &str) -> Value {
    page.script(
        "return [...document.querySelectorAll(`#rv-moves tr.${arguments[0]}`)].map(r => Number(r.dataset.ply));",
        json!([mark]),
    )
}

/// Waits until the move list shows `n` moves.
fn wait_moves(page: &Page, n: usize) {
    page.wait_for(
        &format!("{n} reviewed moves"),
        "return document.querySelectorAll('#rv-moves tr[data-ply]').length === arguments[0];",
        json!([n]),
    );
}

pub(crate) fn review_marks_the_examples_mistakes(page: &Page) {
    let (status, api) = page.post("/api/xiangqi/review", EXAMPLE);
    assert_eq!(status, 200, "{api}");
    let moves = api["moves"].as_array().unwrap();
    page.open("/review");
    page.click("#rv-example");
    wait_moves(page, moves.len());
    // The marks where the API puts them, by name in a badge (never "undefined").
    let marked = |mark: &str| -> Value {
        json!(moves.iter().filter(|m| m["mark"] == mark).map(|m| m["ply"].clone()).collect::<Vec<_>>())
    };
    assert_eq!(rows_marked(page, "blunder"), marked("blunder"));
    assert_eq!(rows_marked(page, "mistake"), marked("mistake"));
    assert_eq!(marked("blunder"), json!([25, 26]));
    assert_eq!(page.text("#rv-moves tr[data-ply='13'] .badge"), "mistake");
    assert_eq!(page.text("#rv-moves tr[data-ply='25'] .badge"), "blunder");
    let row13 = page.js("return [...document.querySelector('#rv-moves tr[data-ply=\"13\"]').children].map(c => c.textContent);");
    assert_eq!(row13, json!(["7. H6-5", "Win in 25", "Win in 37", "mistake", "H6+7"]));
    // The first move is outside the tables (5 men, no file): it says so.
    let row1 = page.js("return [...document.querySelector('#rv-moves tr[data-ply=\"1\"]').children].map(c => c.textContent);");
    assert_eq!(row1, json!(["1. H2+3", "—", "Win in 37", "", ""]));
    // The summary, per side, and the result under perfect play.
    assert_eq!(page.text("#rv-red"), "Red: 18 moves in the tables, 1 blunder, 1 mistake");
    assert_eq!(page.text("#rv-black"), "Black: 18 moves in the tables, 1 blunder, 0 mistakes");
    assert_eq!(page.text("#rv-perfect"), "Under perfect play from move 1... (Black to move): Red wins.");
    assert_eq!(page.text("#rv-missing"), "Not in the tables: KNvKAB");
    // The graph: a bar per position the tables answer, a dot per mark.
    let graph = page.js(
        "return [document.querySelectorAll('#rv-graph-svg rect.bar').length, \
         [...document.querySelectorAll('#rv-graph-svg circle.mark')].map(c => [Number(c.dataset.ply), c.classList[1]])];",
    );
    assert_eq!(graph, json!([37, [[13, "mistake"], [25, "blunder"], [26, "blunder"]]]));
    page.assert_clean("the reviewed example");
    // The picture of the docs (docs/explorer-review.png): the whole tab on a tall screen.
    page.click("#rv-moves tr[data-ply='25']");
    page.emulate(Some((1280, 1240)));
    page.shot("review.png");
    page.emulate(None);

    // A move's position: the board before it, every move with the explorer's values, the move
    // played and the best marked.
    page.click("#rv-moves tr[data-ply='25']");
    page.wait("the position before ply 25", "return document.querySelector('#rv-moves tr.current')?.dataset.ply === '25' && !!document.querySelector('#rv-position-moves tr.played');");
    let fen = moves[24]["fen"].as_str().unwrap();
    let position = page.position(fen);
    let listed = page.js(
        "return [...document.querySelectorAll('#rv-position-moves tr[data-uci]')].map(r => r.dataset.uci);",
    );
    let expected: Vec<&Value> = position["moves"].as_array().unwrap().iter().map(|m| &m["uci"]).collect();
    assert_eq!(listed, json!(expected));
    assert_eq!(
        page.js("return document.querySelector('#rv-position-moves tr.played').dataset.uci;"),
        moves[24]["uci"]
    );
    let played = page.js("return [...document.querySelector('#rv-position-moves tr.played').children].map(c => c.textContent);");
    assert_eq!(played[2], json!("Draw"));
    assert_eq!(page.text("#rv-verdict"), format!("Red to move wins in {} plies", position["dtm"]));
    assert_eq!(
        page.js("return document.querySelector('#rv-board svg .arrow')?.dataset.uci;"),
        moves[24]["uci"]
    );
    let explorer = page.js("return document.querySelector('#rv-explorer').getAttribute('href');");
    assert_eq!(explorer, json!(format!("/xiangqi?fen={}", fen.replace(' ', "%20"))));
    page.shot("review-position.png");
    // The keys step through the game.
    page.blur();
    page.keys("\u{E014}");
    page.wait("ply 26", "return document.querySelector('#rv-moves tr.current')?.dataset.ply === '26';");

    // The address holds the game: opened anew, the same review at the same move.
    let url = page.js("return location.pathname + location.search;").as_str().unwrap().to_string();
    assert!(
        url.starts_with("/review?fen=5ab2/9/4k2N1/")
            && url.contains("&moves=h7g9,f9e8,")
            && url.ends_with("&ply=26"),
        "{url}"
    );
    page.open("/");
    page.open(&url);
    wait_moves(page, moves.len());
    page.wait("ply 26 again", "return document.querySelector('#rv-moves tr.current')?.dataset.ply === '26';");
    assert_eq!(rows_marked(page, "blunder"), json!([25, 26]));
}

pub(crate) fn review_reads_dropped_files_and_refuses_bad_records(page: &Page) {
    page.open("/review");
    // A file dropped on the record's panel: its bytes go to the server as they are.
    page.script(
        "const file = new File([arguments[0]], 'game.pgn'); const data = new DataTransfer(); data.items.add(file); \
         document.querySelector('#rv-input-panel').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));",
        json!([EXAMPLE]),
    );
    wait_moves(page, 37);
    assert!(page.text("#rv-file-name").starts_with("game.pgn ("), "{}", page.text("#rv-file-name"));
    // An XQF file (binary) chosen: the same game as its GB18030 PGN, 16 plies from the start.
    let xqf: Vec<u8> = include_bytes!("../../../xiangqi/tests/data/records/xqf10-example.xqf").to_vec();
    page.script(
        "const file = new File([new Uint8Array(arguments[0])], 'game.xqf'); const data = new DataTransfer(); data.items.add(file); \
         document.querySelector('#rv-input-panel').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));",
        json!([xqf]),
    );
    wait_moves(page, 16);
    assert_eq!(page.text("#rv-perfect"), "The tables answer no position of this game.");
    // A record with an illegal move: the reader's message, naming the game and the move.
    page.js("const box = document.querySelector('#rv-input'); box.value = '1. h2e2 h9g7 2. e2e9 *'; box.dispatchEvent(new Event('input'));");
    page.click("#rv-go");
    page.wait("the record's error", "return !!document.querySelector('#rv-error-text');");
    assert_eq!(
        page.text("#rv-error-text"),
        "game 1, move 2. (Red, ply 3, line 1) \"e2e9\": not a legal move of Red's Cannon on e2 here"
    );
    page.assert_clean("a refused record");
}

pub(crate) fn review_in_chinese_and_generation(page: &Page) {
    page.open("/review");
    page.click("#rv-example");
    wait_moves(page, 37);
    page.click("#lang");
    page.wait("Chinese", "return document.documentElement.lang === 'zh-CN';");
    assert_eq!(page.text("nav a[data-tab='review']"), "复盘");
    // The position's title follows the language (the move in Chinese notation).
    assert_eq!(page.text("#rv-position-title"), "1... 士6进5 之前");
    assert_eq!(page.text("#rv-moves tr[data-ply='25'] .badge"), "败着");
    assert_eq!(page.text("#rv-moves tr[data-ply='13'] .badge"), "失误");
    assert_eq!(page.text("#rv-red"), "红方：残局库内 18 着，败着 1 次，失误 1 次");
    page.assert_clean("the Chinese review");
    crate::whole_page::drawn_with_the_pages_font(page, "#rv-red");
    crate::whole_page::drawn_with_the_pages_font(page, "#rv-moves tr[data-ply='25'] .badge");
    page.shot("review-zh.png");
    page.click("#lang");
    page.wait("English", "return document.documentElement.lang === 'en';");
    // The material the game starts in has no tables: Generate, then the first move is judged.
    page.wait(
        "the Generate button",
        "return !!document.querySelector('#rv-generate #xq-generate:not(:disabled)');",
    );
    page.click("#rv-generate #xq-generate");
    page.wait(
        "the first move judged",
        "const r = document.querySelector('#rv-moves tr[data-ply=\"1\"] td.res'); return !!r && r.textContent === 'Win in 37';",
    );
    assert_eq!(page.text("#rv-perfect"), "Under perfect play from move 1. (Red to move): Red wins.");
    assert_eq!(page.js("return document.querySelector('#rv-missing');"), Value::Null);
}
