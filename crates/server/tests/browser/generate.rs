//! Generation on demand from the page (generate.js): the estimate, the Generate button, the
//! progress and the analysis after it, Cancel, a material beyond the budget, a server that
//! does not generate; and the time from the Generate click to the analysis (a benchmark).

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common;
use crate::page::{Page, budget, start_server};
use crate::webdriver::{Browser, available};
use crate::whole_page::assert_fits;
use crate::xiangqi::analysis;

/// `KRvKAB`, Red to move: generated on demand in a fraction of a second (0.5 M positions).
const GEN_SMALL: &str = "2bak4/9/9/9/9/9/9/9/R8/3K5 w";
/// `KRvKAABB`, Red to move (the timing from the page).
const GEN_MEDIUM: &str = "2bakab2/9/9/9/9/9/9/9/R8/3K5 w";
/// `KRPvKAB`: about 26 M positions, some seconds: cancelled while it runs.
const GEN_CANCEL: &str = "2bak4/9/9/9/9/9/4P4/9/R8/3K5 w";
/// `KRPvKAABB`: beyond the test server's budget.
pub(crate) const GEN_BIG: &str = "2bakab2/9/9/9/9/9/4P4/9/R8/3K5 w";

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
/// with the time left, the analysis after it without a reload, Cancel (with another client
/// holding the same job: it goes on until that one withdraws too), and a material beyond the
/// budget with the commands for a bigger machine and a cluster.
pub(crate) fn generate_on_demand(page: &Page) {
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
    // Another client asks for the same material: the page's Cancel withdraws the page's
    // request only, the job goes on (no Cancel then); it stops once the other withdraws.
    let (status, other) =
        page.post(&format!("/api/xiangqi/generate?fen={}", GEN_CANCEL.replace(' ', "%20")), "");
    assert_eq!(status, 202, "{other}");
    page.click("#xq-gen-cancel");
    let note = page.wait(
        "the note that the job goes on",
        "const n = document.querySelector('#xq-gen-note'); return n && !document.querySelector('#xq-gen-cancel') && n.textContent;",
    );
    assert_eq!(
        note,
        json!("Your request is withdrawn; the generation goes on for another request that asked for it.")
    );
    let withdraw = format!("/api/xiangqi/jobs/{}?ticket={}", other["job"], other["ticket"].as_str().unwrap());
    let (status, _) = crate::webdriver::http_raw(page.server, "DELETE", &withdraw, None);
    assert_eq!(status, 200);
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
    let off = start_server(common::fresh_dir("browser-no-generate"), None);
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
/// the screenshots of the flow (`target/screenshots/generate-*.png`, those of `docs/server-api.md`).
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
        let dir = common::fresh_dir(&format!("browser-timing-{material}"));
        let server = start_server(dir.clone(), Some(4 << 30));
        let page = Page::new(browser.take().unwrap(), server);
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
