//! A Xiangqi game on the page: the browser's history through its positions, the game record
//! (copied and exported), taking back moves, and playing against perfect play.

use std::time::Duration;

use serde_json::json;

use crate::SOLDIER;
use crate::page::Page;
use crate::xiangqi::{after, game_record, mover_result};

pub(crate) fn browser_history_steps_through_positions(page: &Page) {
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

pub(crate) fn game_record_copy_and_export(page: &Page) {
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

pub(crate) fn back_while_playing_takes_back_the_pair(page: &Page) {
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
    // The browser's Back does the same: two moves and their replies, then Back twice.
    let second = play_best_and_reply(page, SOLDIER);
    let third = play_best_and_reply(page, &second);
    for (from, to) in [(&third, &second), (&second, &SOLDIER.to_string())] {
        page.js("history.back();");
        page.wait_fen(to);
        std::thread::sleep(Duration::from_millis(1000));
        assert_eq!(&page.fen(), to, "Back from {from} stops on our turn, and perfect play waits");
        assert_eq!(page.text("#xq-play-text"), "You play Red: your move.");
    }
    // Forward steps to our next turn, past perfect play's reply.
    page.js("history.forward();");
    page.wait_fen(&second);
    std::thread::sleep(Duration::from_millis(1000));
    assert_eq!(page.fen(), second);
    assert_eq!(page.text("#xq-play-text"), "You play Red: your move.");
    page.click("#xq-stop");
}

/// Plays the API's best move from `fen` (ours, as Red) on the page and waits for perfect play's
/// reply; gives the position after it.
fn play_best_and_reply(page: &Page, fen: &str) -> String {
    page.wait_for(
        "our turn",
        "const t = document.querySelector('#xq-play-text'); return document.querySelector('#xq-fen').value === arguments[0] && t && t.textContent.includes('your move');",
        json!([fen]),
    );
    let best = page.position(fen)["moves"][0]["uci"].as_str().unwrap().to_string();
    page.click(&format!("#xq-moves tr[data-uci='{best}']"));
    let mine = after(fen, &best);
    let reply = page.position(&mine)["moves"][0]["uci"].as_str().unwrap().to_string();
    let next = after(&mine, &reply);
    page.wait_fen(&next);
    next
}

/// The colour of an element as the page shows it.
fn colour(page: &Page, selector: &str) -> String {
    page.script("return getComputedStyle(document.querySelector(arguments[0])).color;", json!([selector]))
        .as_str()
        .unwrap()
        .to_string()
}

pub(crate) fn playing_against_perfect_play(page: &Page) {
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
