//! The Xiangqi explorer's analysis: a position's moves and values as the API gives them, the
//! board as the page draws it, the best-move arrow and the colours of distance, the editor,
//! the examples menu, errors, the side to move and the colours swapped.

use serde_json::{Value, json};

use crate::page::Page;
use crate::{CHARIOT, HORSE, SOLDIER};

/// The result of a move for its player, as the page writes it.
pub(crate) fn mover_result(m: &Value) -> String {
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
pub(crate) fn after(fen: &str, uci: &str) -> String {
    let position = endgame_xiangqi::Position::from_setup(fen.parse().unwrap()).unwrap();
    let next = position.play_unchecked(uci.parse().unwrap()).setup().to_string();
    format!("{} {}", board_of(&next), next.split(' ').nth(1).unwrap())
}

pub(crate) fn xiangqi_moves_are_the_apis(page: &Page) {
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

pub(crate) fn pieces_and_river_are_drawn_by_the_page(page: &Page) {
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

/// The results of the moves listed that start with `prefix` (`Win in `, `Loss in `): their
/// plies and the alpha of their cell's colour, fewest plies first.
fn tints(page: &Page, prefix: &str) -> Vec<(u32, f64)> {
    let cells = page.js(
        "return [...document.querySelectorAll('#xq-moves td.res')].map(c => [c.textContent, getComputedStyle(c).backgroundColor]);",
    );
    let mut tints: Vec<(u32, f64)> = cells
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| {
            let plies = c[0].as_str().unwrap().strip_prefix(prefix)?.parse().ok()?;
            Some((plies, alpha(c[1].as_str().unwrap())))
        })
        .collect();
    tints.sort_by_key(|t| t.0);
    tints
}

pub(crate) fn best_move_arrow_and_distance_colours(page: &Page) {
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
    let wins = tints(page, "Win in ");
    assert!(wins.first().unwrap().0 < wins.last().unwrap().0, "{wins:?}");
    assert!(wins.windows(2).all(|w| w[0].1 >= w[1].1), "{wins:?}");
    assert!(wins.first().unwrap().1 > wins.last().unwrap().1 + 0.05, "{wins:?}");
    // A loss nearer the end is a stronger red, too.
    page.open_xiangqi(HORSE);
    let losses = tints(page, "Loss in ");
    assert!(losses.first().unwrap().0 < losses.last().unwrap().0, "{losses:?}");
    assert!(losses.first().unwrap().1 > losses.last().unwrap().1, "{losses:?}");
}

pub(crate) fn editor_shows_the_servers_messages(page: &Page) {
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

pub(crate) fn examples_menu_is_the_apis(page: &Page) {
    let (status, examples) = page.get("/api/examples");
    assert_eq!(status, 200);
    let list = examples["xiangqi"].as_array().unwrap();
    page.open_xiangqi(HORSE);
    page.wait("the examples", "return document.querySelectorAll('#xq-examples option').length > 1;");
    // The masters' endgames say what generating them takes on this server (its estimates).
    page.wait(
        "the masters' endgames' estimates",
        "const o = document.querySelectorAll('#xq-examples optgroup[data-group=masters] option'); \
         return o.length > 0 && [...o].every(x => x.dataset.seconds);",
    );
    let groups = page.js(
        "return [...document.querySelectorAll('#xq-examples optgroup')].map(g => [g.label, g.children.length]);",
    );
    let masters = list.iter().filter(|x| x["group"] == "masters").count();
    assert_eq!(masters, 7);
    assert_eq!(
        groups,
        json!([
            ["Classic endgames", list.len() - masters],
            ["Masters’ endgames (billions of positions: generated on demand)", masters]
        ])
    );
    let options = page.js(
        "return [...document.querySelectorAll('#xq-examples option')].map(o => [o.value, o.textContent]);",
    );
    let mut expected = vec![json!(["", "Examples…"])];
    expected.extend(list.iter().map(|x| {
        let name = format!("{}: {}", x["material"].as_str().unwrap(), x["english"].as_str().unwrap());
        if x["group"] == "masters" {
            let (status, e) =
                page.get(&format!("/api/xiangqi/estimate?material={}", x["material"].as_str().unwrap()));
            assert_eq!(status, 200, "{e}");
            assert_eq!(e["generated"], false, "{e}");
            let time = endgame_core::units::duration(e["seconds"].as_f64().unwrap());
            json!([x["fen"], format!("{name} · about {time} to generate")])
        } else {
            json!([x["fen"], name])
        }
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
pub(crate) fn analysis(page: &Page) -> Value {
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

pub(crate) fn errors_clear_the_analysis(page: &Page) {
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

/// Positions the page explains (a bad FEN, an illegal position, a material without tables, an
/// illegal setup in the editor, a record that does not parse) leave no red line in the
/// browser's console: the page asks for its errors with status 200 and shows their messages.
pub(crate) fn no_failed_requests_in_the_console(page: &Page) {
    page.open_xiangqi(HORSE);
    page.console_errors();
    // Not a FEN, then an illegal position: the server's messages, shown.
    for fen in ["hello", "4k4/9/9/9/9/9/9/9/4R4/3K5 w"] {
        load_fen_box(page, fen);
        page.wait_for(
            "the error",
            "return document.querySelector('#xq-fen').value === arguments[0] && !!document.querySelector('#xq-error-text');",
            json!([fen]),
        );
        let (status, api_error) = page.get(&format!("/api/xiangqi?fen={}", fen.replace(' ', "%20")));
        assert_eq!(status, 400, "{api_error}");
        assert_eq!(analysis(page)["error"], api_error["error"]);
    }
    // A material without tables (404 for other clients): what generating it takes.
    let big = crate::generate::GEN_BIG;
    let (status, _) = page.get(&format!("/api/xiangqi?fen={}", big.replace(' ', "%20")));
    assert_eq!(status, 404);
    load_fen_box(page, big);
    page.wait("the estimate", "return !!document.querySelector('#xq-gen-refused');");
    assert_eq!(analysis(page)["verdict"], json!("No answer"));
    // The editor's illegal setup (no Black General).
    page.open_xiangqi(HORSE);
    page.click("#xq-edit");
    page.click("#xq-editor button[data-piece='']");
    page.click("#xq-svg g.piece[data-sq='d9']");
    assert!(page.text("#xq-edit-error-text").contains("General"));
    page.click("#xq-edit");
    page.wait("the illegal position", "return !!document.querySelector('#xq-error-text');");
    // A Twixt record that does not parse.
    page.click("nav a[data-tab='twixt']");
    page.wait("the Twixt page", "return !!document.querySelector('#twixt-svg');");
    page.script("document.querySelector('#twixt-record').value = arguments[0];", json!(["not a record"]));
    page.click("#twixt-replay");
    page.wait("the Twixt error", "return !!document.querySelector('#twixt-error-text');");
    page.click("nav a[data-tab='xiangqi']");
    assert_eq!(page.console_errors(), Vec::<String>::new());
}

pub(crate) fn small_fixes(page: &Page) {
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

pub(crate) fn side_to_move_and_swapped_colours(page: &Page) {
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
pub(crate) fn game_record(page: &Page) -> Value {
    page.js("return [...document.querySelectorAll('#xq-game .ply[data-ply]')].map(p => [Number(p.dataset.ply), p.textContent, p.classList.contains('current')]);")
}
