//! The Twixt tab: a record replayed, its pegs, links and moves as the API gives them.

use serde_json::{Value, json};

use crate::common::{self, JUDGE};
use crate::page::Page;

pub(crate) fn twixt_shows_the_apis_pegs_and_moves(page: &Page) {
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
    let expected = common::point_names(&before["threats"]["winning_now"]);
    assert!(!expected.is_empty());
    let shown = page.wait(
        "the threats after move 10",
        "const t = document.querySelector('#twixt-threats').textContent; return t.includes('Wins at once') && t;",
    );
    assert!(shown.as_str().unwrap().contains(&format!("Wins at once {}", expected.join(", "))), "{shown}");
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
