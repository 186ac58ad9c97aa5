//! The page as a whole, on every tab: its icon, the Chinese interface, and the layout at a
//! phone's width.

use serde_json::json;

use crate::page::Page;
use crate::webdriver::http_raw;
use crate::{CHARIOT, SOLDIER};

pub(crate) fn favicon(page: &Page) {
    let href = page.js("return document.querySelector('link[rel=icon]').getAttribute('href');");
    assert_eq!(href, json!("/assets/favicon.svg"));
    for path in ["/assets/favicon.svg", "/favicon.ico"] {
        let (status, body) = http_raw(page.server, "GET", path, None);
        assert_eq!(status, 200, "{path}");
        assert!(String::from_utf8(body).unwrap().starts_with("<svg"), "{path}");
    }
}

pub(crate) fn chinese_interface(page: &Page) {
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
    // Drawn with the page's own font: no empty boxes on a machine without Chinese fonts.
    for selector in [
        "nav a[data-tab='xiangqi']",
        "nav a[data-tab='twixt']",
        "nav a[data-tab='cheesy']",
        "#xq-verdict",
        "#xq-moves tr[data-uci] td.wxf",
        "#xq-moves tr[data-uci] td.res",
        "#xq-moves th",
        "#xq-moves td.uci",
        "#xq-line span[data-ply]",
        "footer a",
    ] {
        drawn_with_the_pages_font(page, selector);
    }
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
        // Cheesy Chess and Marine solve their examples at once.
        ("cheesy", "#cheesy-result", "黑方 13 步胜"),
        ("marine", "#marine-result", "10 回合获胜"),
    ] {
        page.click(&format!("nav a[data-tab='{tab}']"));
        page.wait_for(
            &format!("the {tab} page in Chinese"),
            "return document.querySelector(arguments[0])?.textContent === arguments[1];",
            json!([ready, text]),
        );
        page.assert_clean(&format!("the Chinese {tab} page"));
        drawn_with_the_pages_font(page, if tab == "twixt" { "#twixt-threats div" } else { ready });
    }
    // Twixt's facts in Chinese: the record's format named as the menu names it, after a space.
    page.click("nav a[data-tab='twixt']");
    assert_eq!(page.text("#twixt-info div"), "格式 评测格式");
    drawn_with_the_pages_font(page, "#twixt-info b");
    page.shot("twixt-zh.png");
    page.click("nav a[data-tab='marine']");
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

/// Whether this machine has Chinese fonts of its own (`fc-list :lang=zh`; CI has none): the
/// browser may then draw Chinese with them, before the page's font.
fn machine_has_chinese_fonts() -> bool {
    std::process::Command::new("fc-list").arg(":lang=zh").output().is_ok_and(|o| !o.stdout.is_empty())
}

/// Checks that Chromium drew every Chinese character of the element at `selector` (its own
/// text) with the page's font, "Endgame Sans SC" (`assets/chinese.otf`), as the DevTools
/// protocol reports the fonts it used; on a machine with Chinese fonts of its own, that every
/// one was drawn with a Chinese font.
pub(crate) fn drawn_with_the_pages_font(page: &Page, selector: &str) {
    let text = page
        .script(
            "const e = document.querySelector(arguments[0]);              return [...e.childNodes].filter(n => n.nodeType === Node.TEXT_NODE).map(n => n.textContent).join('');",
            json!([selector]),
        )
        .as_str()
        .unwrap()
        .to_string();
    let chinese = text.chars().filter(|&c| matches!(u32::from(c), 0x2E80..=0x9FFF | 0xFF00..=0xFFEF)).count();
    assert!(chinese > 0, "{selector}: no Chinese in {text:?}");
    page.cdp("DOM.enable", json!({}));
    page.cdp("CSS.enable", json!({}));
    let root = page.cdp("DOM.getDocument", json!({ "depth": 0 }))["root"]["nodeId"].clone();
    let node =
        page.cdp("DOM.querySelector", json!({ "nodeId": root, "selector": selector }))["nodeId"].clone();
    let fonts = page.cdp("CSS.getPlatformFontsForNode", json!({ "nodeId": node }))["fonts"].clone();
    let ours: u64 = fonts
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["familyName"] == "Endgame Sans SC" && f["isCustomFont"] == json!(true))
        .map(|f| f["glyphCount"].as_u64().unwrap())
        .sum();
    if machine_has_chinese_fonts() {
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            format!("{selector}: this machine has Chinese fonts; drawn with {fonts}\n").as_bytes(),
        );
    } else {
        assert_eq!(ours, chinese as u64, "{selector}: {text:?} drawn with {fonts}");
    }
    let loaded = page.js("return document.fonts.check('15px \"Endgame Sans SC\"', '象棋');");
    assert_eq!(loaded, json!(true));
}

/// The layout at a phone's width: nothing wider than the screen, the tabs on one row.
pub(crate) fn assert_fits(page: &Page, width: u32, what: &str) {
    let layout = page.js(
        "const tabs = [...document.querySelectorAll('nav a')].map(a => a.getBoundingClientRect()); \
         const panels = [...document.querySelectorAll('section:not([hidden]) .panel')].map(p => p.getBoundingClientRect()); \
         return { scroll: document.documentElement.scrollWidth, \
           tabs: tabs.map(r => [Math.round(r.left), Math.round(r.right), Math.round(r.top), Math.round(r.height)]), \
           panels: panels.map(r => [Math.round(r.left), Math.round(r.right)]) };",
    );
    assert!(layout["scroll"].as_u64().unwrap() <= u64::from(width), "{what}: {layout}");
    let tabs = layout["tabs"].as_array().unwrap();
    assert_eq!(tabs.len(), 5);
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

pub(crate) fn phone_layout(page: &Page) {
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
        // The verdict and the best move right under the board and its buttons, on the first
        // screen (not below the FEN box and the editor).
        let places = page.js(
            "window.scrollTo(0, 0); const r = (s) => document.querySelector(s).getBoundingClientRect(); \
             return { board: r('#xq-svg').bottom, buttons: r('#xq-board-panel .nav').bottom, verdict: [r('#xq-verdict').top, r('#xq-verdict').bottom], \
               best: r('#xq-moves tr[data-uci]').bottom, fen: r('#xq-fen').top, editor: r('#xq-editor-panel').top, screen: innerHeight };",
        );
        let at = |key: &str| places[key].as_f64().unwrap();
        let (top, bottom) = (places["verdict"][0].as_f64().unwrap(), places["verdict"][1].as_f64().unwrap());
        assert!(
            top >= at("buttons") && top - at("board") < 100.0,
            "{lang}: the verdict under the board: {places}"
        );
        assert!(
            bottom <= at("screen") && at("best") <= at("screen"),
            "{lang}: the verdict and the best move on the first screen: {places}"
        );
        assert!(at("fen") > at("best") && at("editor") > at("best"), "{lang}: {places}");
        let breaks = page.js("return [...document.querySelectorAll('#xq-line span[data-ply]')].filter(s => s.getClientRects().length !== 1).length;");
        assert_eq!(breaks, json!(0));
        page.shot(&format!("phone-xiangqi-{lang}.png"));
        for (tab, ready) in [
            ("review", "#rv-input"),
            ("twixt", "#twixt-svg"),
            ("cheesy", "#cheesy-grid"),
            ("marine", "#marine-grid"),
        ] {
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
