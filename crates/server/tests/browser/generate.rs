//! Generation on demand from the page (generate.js): the estimate, the Generate button, the
//! progress ("Starting…" on an idle server) and the analysis after it, Cancel, a material
//! beyond the budget, a server that does not generate; the masters' endgames (the time said in
//! the examples menu and asked to confirm before a long generation starts); and the time from
//! the Generate click to the analysis (a benchmark).

use std::time::{Duration, Instant};

use endgame_core::units;
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
/// `KRvKAAB` under `check-and-chase`: within the test server's budget without the predecessor
/// lists only (slower).
const GEN_SLOWER: &str = "2bak4/4a4/9/9/9/9/9/9/R8/3K5 w";
/// `KRPvKAABB`: beyond the test server's budget.
pub(crate) const GEN_BIG: &str = "2bakab2/9/9/9/9/9/4P4/9/R8/3K5 w";

/// The estimate's line as the page writes it (`gen.estimate`, with the units of
/// `endgame_core::units`).
fn estimate_line(e: &Value) -> String {
    let tables = e["tables"].as_u64().unwrap();
    format!(
        "{}: {}, {} positions, about {} and {} on this machine",
        e["material"].as_str().unwrap(),
        if tables == 1 { "1 table".to_string() } else { format!("{tables} tables") },
        units::count(e["positions"].as_u64().unwrap()),
        units::duration(e["seconds"].as_f64().unwrap()),
        units::bytes(e["memory_bytes"].as_u64().unwrap())
    )
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
    estimate_under(page, fen, "standard")
}

/// The estimate of a position's material under `rules`, from the API.
fn estimate_under(page: &Page, fen: &str, rules: &str) -> Value {
    let (status, e) =
        page.get(&format!("/api/xiangqi/estimate?fen={}&rules={rules}", fen.replace(' ', "%20")));
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
    let memory = units::bytes(big["memory_bytes"].as_u64().unwrap());
    assert_eq!(
        generation_box(page),
        json!({
            "title": "KRPvKAABB has no tables under standard rules yet.",
            "text": estimate_line(&big),
            "refused": format!(
                "KRPvKAABB needs at least about {memory} of memory: more than this server may use for a generation ({}).",
                units::bytes(budget())
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
    assert!(zh["refused"].as_str().unwrap().starts_with("KRPvKAABB 至少约需 "), "{zh}");
    assert_eq!(zh["commands"], json!([big["command"], big["cluster_command"]]));
    page.assert_clean("a generation beyond the budget, in Chinese");
    page.click("#lang");
    page.wait("English", "return document.documentElement.lang === 'en';");

    // Under a ban, within the budget only without the fastest's memory: offered, slower.
    let slow = estimate_under(page, GEN_SLOWER, "check-and-chase");
    let (memory, least) =
        (slow["memory_bytes"].as_u64().unwrap(), slow["least_memory_bytes"].as_u64().unwrap());
    assert!(least <= budget() && budget() < memory, "{slow}");
    page.open(&format!("/xiangqi?fen={}&rules=check-and-chase", GEN_SLOWER.replace(' ', "%20")));
    page.wait("the Generate button", "return !!document.querySelector('#xq-generate:not([disabled])');");
    assert_eq!(
        page.js("return document.querySelector('#xq-gen-slower')?.textContent ?? null;"),
        json!(format!(
            "This server lets a generation use {}, less than the {} that makes it fastest: it will take longer than estimated, perhaps several times as long.",
            units::bytes(budget()),
            units::bytes(memory)
        ))
    );
    page.assert_clean("a generation slower within the budget");
    page.shot("generate-slower.png");

    // Generate, the progress, then the analysis in the same page (no reload).
    let small = estimate(page, GEN_SMALL);
    assert_eq!((small["state"].clone(), small["fits"].clone()), (json!("missing"), json!(true)), "{small}");
    page.open(&format!("/xiangqi?fen={}", GEN_SMALL.replace(' ', "%20")));
    page.wait("the Generate button", "return !!document.querySelector('#xq-generate:not([disabled])');");
    let shown = generation_box(page);
    let text = shown["text"].as_str().unwrap();
    assert_eq!(text, estimate_line(&small), "{shown}");
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
        let ok = text == "Starting…"
            || text
                .split_once(&format!(" of {tables} tables done · generating K"))
                .is_some_and(|(done, _)| done.parse::<u64>().is_ok_and(|d| d <= tables));
        assert!(ok, "{text:?} in {seen:?}");
    }
    // Issue 40: nothing runs or waits on this server, so the job is starting at once, never
    // "waiting" for another.
    assert_eq!(seen[0][0], json!("Starting…"), "{seen:?}");
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

    // Issue 40: a job behind another says how many are ahead of it ("waiting" only then).
    let (status, running) = page.post("/api/xiangqi/generate?material=KNPvKAB", "");
    assert_eq!((status, running["state"].as_str()), (202, Some("starting")), "{running}");
    let (status, waiting) = page.post("/api/xiangqi/generate?material=KCvKAB", "");
    assert_eq!(
        (status, waiting["state"].as_str(), waiting["ahead"].as_u64()),
        (202, Some("queued"), Some(1)),
        "{waiting}"
    );
    page.open("/xiangqi?fen=2bak4/9/9/9/9/9/9/9/C8/3K5%20w");
    page.wait_text("#xq-gen-text", "Waiting for 1 generation before this one…");
    // Another client's job: followed, not cancelled from here.
    assert_eq!(page.js("return !!document.querySelector('#xq-gen-cancel');"), json!(false));
    page.assert_clean("a job waiting behind another");
    for job in [&waiting, &running] {
        let path = format!("/api/xiangqi/jobs/{}?ticket={}", job["job"], job["ticket"].as_str().unwrap());
        let (status, _) = crate::webdriver::http_raw(page.server, "DELETE", &path, None);
        assert_eq!(status, 200, "{path}");
    }
    page.wait(
        "the Generate button again",
        "return !!document.querySelector('#xq-generate:not([disabled])');",
    );

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

/// Issue 37 in the page: the masters' endgames open from the examples menu, which says how
/// long generating each takes on this server, or that it is generated; a generation estimated
/// at ten minutes or more asks first, with its time, before anything starts (Not now: nothing
/// started). On a server of its own with a budget every estimate fits (1 TiB; nothing is
/// generated: the page's requests to start a job are stopped in the browser, so that no
/// generation of billions of positions can start even if the confirmation were missing), whose
/// directory holds a file at the name of every table `KRRvKAABBR` needs (the estimate looks at
/// the names only): "generated".
pub(crate) fn masters_endgames_say_how_long_first(page: &Page) {
    use endgame_xiangqi::{Material, Rules, Tablebases};
    let dir = common::fresh_dir("browser-masters");
    let store = Tablebases::open(&dir, Rules::Standard);
    let done: Material = "KRRvKAABBR".parse().unwrap();
    for file in store.plan_of(done.with_smaller()).files {
        let path = store.path(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, b"").unwrap();
    }
    let server = start_server(dir.clone(), Some(1 << 40));
    let base = format!("http://{server}");
    let get = |path: &str| {
        let (status, bytes) = crate::webdriver::http_raw(server, "GET", path, None);
        assert_eq!(status, 200, "{path}");
        serde_json::from_slice::<Value>(&bytes).unwrap()
    };
    let examples = get("/api/examples");
    let masters: Vec<&Value> =
        examples["xiangqi"].as_array().unwrap().iter().filter(|x| x["group"] == "masters").collect();
    assert_eq!(masters.len(), 7);
    let first = masters[0];
    assert_eq!(first["material"], "KNRvKAABBR");
    let fen = first["fen"].as_str().unwrap();
    page.goto(&format!("{base}/xiangqi?fen={}", fen.replace(' ', "%20")));
    // The menu: each masters' endgame with its time, the one whose tables are there "generated".
    page.wait(
        "the masters' endgames' estimates",
        "const o = document.querySelectorAll('#xq-examples optgroup[data-group=masters] option'); \
         return o.length === 7 && [...o].every(x => x.dataset.generated);",
    );
    let shown = page.js(
        "return [...document.querySelectorAll('#xq-examples optgroup[data-group=masters] option')].map(o => o.textContent);",
    );
    let expected: Vec<String> = masters
        .iter()
        .map(|x| {
            let material = x["material"].as_str().unwrap();
            let e = get(&format!("/api/xiangqi/estimate?material={material}"));
            let name = format!("{material}: {}", x["english"].as_str().unwrap());
            if material == "KRRvKAABBR" {
                assert_eq!((&e["generated"], &e["seconds"]), (&json!(true), &json!(0.0)), "{e}");
                format!("{name} · generated")
            } else {
                assert_eq!(e["generated"], false, "{e}");
                format!("{name} · about {} to generate", units::duration(e["seconds"].as_f64().unwrap()))
            }
        })
        .collect();
    assert_eq!(shown, json!(expected));
    // The position: what its tables take, and Generate.
    page.wait("the Generate button", "return !!document.querySelector('#xq-generate:not([disabled])');");
    let e = get(&format!("/api/xiangqi/estimate?fen={}", fen.replace(' ', "%20")));
    assert!(e["seconds"].as_f64().unwrap() >= 600.0 && e["fits"] == json!(true), "{e}");
    assert_eq!(generation_box(page)["text"], json!(estimate_line(&e)));
    // Requests to start a job stop in the browser (counted), whatever the page does.
    page.js(
        "window.startsAsked = 0; const real = window.fetch; \
         window.fetch = (path, init) => String(path).startsWith('/api/xiangqi/generate') \
           ? (window.startsAsked += 1, Promise.reject(new TypeError('stopped by the test'))) : real(path, init);",
    );
    let time = units::duration(e["seconds"].as_f64().unwrap());
    page.click("#xq-generate");
    let asked = page.wait(
        "the confirmation",
        "const c = document.querySelector('#xq-gen-confirm-text'); return c && c.textContent;",
    );
    assert_eq!(
        asked,
        json!(format!(
            "Generating KNRvKAABBR takes about {time} on this machine, with all its cores busy. It goes on if you close this page; Cancel stops it and keeps the tables finished."
        ))
    );
    assert_eq!(page.text("#xq-gen-confirm"), format!("Generate: about {time}"));
    assert_eq!(page.text("#xq-gen-back"), "Not now");
    assert_eq!(page.js("return window.startsAsked;"), json!(0), "nothing starts before the confirmation");
    page.assert_clean("the confirmation of a long generation");
    page.shot("generate-confirm.png");
    // Not now: back to the estimate and Generate; nothing was asked of the server.
    page.click("#xq-gen-back");
    page.wait(
        "the Generate button again",
        "return !!document.querySelector('#xq-generate:not([disabled])') && !document.querySelector('#xq-gen-confirm');",
    );
    assert_eq!(page.js("return window.startsAsked;"), json!(0));
    let after = get(&format!("/api/xiangqi/estimate?fen={}", fen.replace(' ', "%20")));
    assert_eq!((&after["state"], &after["job"]), (&json!("missing"), &Value::Null), "{after}");
    // In Chinese: the time in the menu and in the confirmation.
    page.click("#lang");
    page.wait("Chinese", "return document.documentElement.lang === 'zh-CN';");
    let zh = page.js(
        "return [...document.querySelectorAll('#xq-examples optgroup[data-group=masters] option')].map(o => o.textContent);",
    );
    assert!(zh[4].as_str().unwrap().ends_with(" · 已生成"), "{zh}");
    assert!(zh[0].as_str().unwrap().starts_with("KNRvKAABBR：车马对车士象全 · 生成约需 "), "{zh}");
    page.click("#xq-generate");
    let asked = page.wait(
        "the confirmation in Chinese",
        "const c = document.querySelector('#xq-gen-confirm-text'); return c && c.textContent;",
    );
    assert!(asked.as_str().unwrap().starts_with("在本机生成 KNRvKAABBR 约需 "), "{asked}");
    page.assert_clean("the confirmation in Chinese");
    page.click("#xq-gen-back");
    page.click("#lang");
    page.wait("English", "return document.documentElement.lang === 'en';");
    // Confirmed: only then is the job asked for (stopped here by the test).
    page.wait("the Generate button", "return !!document.querySelector('#xq-generate:not([disabled])');");
    page.click("#xq-generate");
    page.wait("the confirmation", "return !!document.querySelector('#xq-gen-confirm');");
    page.click("#xq-gen-confirm");
    page.wait("the request", "return window.startsAsked === 1;");
    let _ = std::fs::remove_dir_all(&dir);
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
