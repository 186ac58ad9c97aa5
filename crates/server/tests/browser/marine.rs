//! The Marine tab: a battle solved and edited.

use serde_json::json;

use crate::page::Page;

pub(crate) fn marine_solves_and_edits(page: &Page) {
    page.open("/marine");
    page.wait("the map", "return document.querySelectorAll('#marine-grid .cell').length > 0;");
    let battle =
        page.js("return document.querySelector('#marine-text').value;").as_str().unwrap().to_string();
    let (status, api) = page.post("/api/marine/solve?rounds=34", &battle);
    assert_eq!(status, 200);
    // The example is solved at once, as the Twixt page replays its example: no click on Solve.
    assert_eq!(page.text("#marine-result"), format!("WIN in {} rounds", api["rounds"]));
    assert_eq!(page.js("return document.querySelector('#marine-next').disabled;"), json!(false));
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
