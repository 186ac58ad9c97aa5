//! The Cheesy Chess tab: a board solved and edited.

use serde_json::json;

use crate::page::Page;

pub(crate) fn cheesy_solves_and_edits(page: &Page) {
    page.open("/cheesy");
    page.wait("the board", "return document.querySelectorAll('#cheesy-grid .cell').length > 0;");
    let disabled = "return ['first', 'prev', 'play', 'next', 'last'].map(b => document.querySelector(`#cheesy-${b}`).disabled);";
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
    // The example is solved at once, as the Twixt page replays its example: no click on Solve.
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
    // Before a solve there is nothing to step through.
    assert_eq!(page.js(disabled), json!([true, true, true, true, true]));
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
