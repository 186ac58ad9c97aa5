//! The API in-process (`tower::ServiceExt::oneshot`): every endpoint with good and bad input.
//! The answers are compared with what the game crates compute for the same input (the
//! command-line tool prints the same JSON, see crates/cli/tests).

mod common;

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{CHEESY, JUDGE, MARINE, T1, error};
use endgame_server::{AppState, Limits, MAX_BODY, router};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

async fn call(method: &str, uri: &str, body: impl Into<Body>) -> (StatusCode, Value) {
    call_with(Limits::default(), method, uri, body).await
}

/// A request to a server of its own with `limits`.
async fn call_with(limits: Limits, method: &str, uri: &str, body: impl Into<Body>) -> (StatusCode, Value) {
    common::request(&Arc::new(AppState::new(limits)), method, uri, body).await
}

#[tokio::test]
async fn twixt_replay_is_the_report_plus_threats() {
    use endgame_twixt::Record;
    use endgame_twixt::replay::{self, Report};
    let (status, json) = call("POST", "/api/twixt/replay", T1).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    let record = Record::parse(T1, None).unwrap();
    let played = replay::replay(&record, record.default_config()).unwrap();
    let mut expected = serde_json::to_value(Report::new(&record, &played)).unwrap();
    expected["threats"] = serde_json::to_value(replay::threats(&record, &played.position)).unwrap();
    assert_eq!(json, expected);
    assert_eq!(json["players"][0], "Tom");

    // The judge sample: Black wins by connection on move 11, with a path.
    let (status, json) = call("POST", "/api/twixt/replay", JUDGE).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(json["outcome"]["by"], "connection");
    assert_eq!(json["outcome"]["move"], 11);
    assert!(json["winning_path"].as_array().unwrap().len() >= 2);

    // `upto` replays a prefix: the threats are those after that move.
    let (status, json) = call("POST", "/api/twixt/replay?upto=10&rules=poj&swap=off", JUDGE).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(json["moves"].as_array().unwrap().len(), 10);
    assert!(json["outcome"].is_null());
    let winning = common::point_names(&json["threats"]["winning_now"]);
    assert!(!winning.is_empty(), "the 11th move wins at once: {json}");
}

#[tokio::test]
async fn twixt_bad_input_names_the_place() {
    // The CLI says `error: FILE: move 3 (line 2): (0,3) is already occupied`.
    let (status, json) = call("POST", "/api/twixt/replay", "7 3\n0 3 6 5 0 3\n").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error(&json), "move 3 (line 2): (0,3) is already occupied");
    let (status, json) = call("POST", "/api/twixt/replay?format=xyz", JUDGE).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error(&json).contains("format"), "{json}");
    let (status, json) = call("POST", "/api/twixt/replay?swap=maybe", JUDGE).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error(&json).contains("swap"));
    let (status, json) = call("POST", "/api/twixt/replay?colour=red", JUDGE).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error(&json).contains("unknown parameter 'colour'"));
    let (status, _) = call("POST", "/api/twixt/replay", "").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // No format detected: the API's parameter is named, not the command line's option.
    let (status, json) = call("POST", "/api/twixt/replay", "hello\n").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        error(&json),
        "line 1: cannot tell the record format: expected `N M` (judge), `(;` (SGF) or a `#` header line (T1); \
         choose the format (format=judge, sgf or t1)"
    );
}

#[tokio::test]
async fn cheesy_solve_is_the_report() {
    use endgame_cheesy::Color;
    use endgame_cheesy::report::Report;
    for (side, param) in [(Color::White, "white"), (Color::Black, "black")] {
        let (status, json) = call("POST", &format!("/api/cheesy/solve?to_move={param}"), CHEESY).await;
        assert_eq!(status, StatusCode::OK);
        let position = endgame_cheesy::text::parse_position(CHEESY, side).unwrap();
        let answer = endgame_cheesy::solve(&position).unwrap();
        assert_eq!(json, serde_json::to_value(Report::new(&position, &answer)).unwrap());
        assert_eq!(json["line"].as_array().unwrap().len() as u64, json["plies"].as_u64().unwrap());
    }
    // White by default.
    let (_, json) = call("POST", "/api/cheesy/solve", CHEESY).await;
    assert_eq!(json["to_move"], "White");
}

#[tokio::test]
async fn cheesy_bad_input() {
    let (status, json) = call("POST", "/api/cheesy/solve", "..K\n.X.\n..P\n").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error(&json).starts_with("line 2"), "{json}");
    let (status, json) = call("POST", "/api/cheesy/solve?to_move=red", CHEESY).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error(&json).contains("expected white or black"));
    // Not UTF-8: the place of the first bad byte.
    let (status, json) = call("POST", "/api/cheesy/solve", vec![b'.', b'\n', 0xff]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error(&json), "line 2, column 1: expected UTF-8 text");
}

#[tokio::test]
async fn marine_solve_is_the_solution() {
    use endgame_core::search::Pruning;
    use endgame_marine::Battle;
    let (status, json) = call("POST", "/api/marine/solve?rounds=34", MARINE).await;
    assert_eq!(status, StatusCode::OK);
    let battle: Battle = MARINE.parse().unwrap();
    assert_eq!(json, endgame_marine::report::to_json(&battle, &battle.solve(34, Pruning::ALL)));
    assert_eq!(json["result"], "win");
    // Too few rounds: a loss, no plan.
    let (status, json) = call("POST", "/api/marine/solve?rounds=2", MARINE).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(json["result"], "lose");
    assert!(json["plan"].is_null());
}

#[tokio::test]
async fn marine_bad_input_and_limits() {
    let (status, json) = call("POST", "/api/marine/solve", "M.\n..\n\n3 3\n").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(!error(&json).is_empty());
    let (status, json) = call("POST", "/api/marine/solve?rounds=-1", MARINE).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error(&json).contains("rounds"));
    let (status, json) = call("POST", "/api/marine/solve?rounds=100000", MARINE).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error(&json).contains("limit"));
    // A search over the state limit stops with 503 and says why.
    let tight = Limits { marine_states: 10, ..Limits::default() };
    let big = include_str!("../../marine/tests/data/battle10.txt");
    let (status, json) = call_with(tight, "POST", "/api/marine/solve?rounds=200", big).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{json}");
    assert!(error(&json).contains("limit"), "{json}");
}

#[tokio::test]
async fn limits_on_size_and_time() {
    // A body over 1 MiB: 413 with a JSON message.
    let (status, json) = call("POST", "/api/cheesy/solve", vec![b'.'; MAX_BODY + 1]).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(error(&json).contains("request body"));
    // A search over the time limit: 503 (the search goes on to its state limit, holding its
    // slot, and the runtime waits for it at the end of the test).
    let slow = Limits {
        search_time: std::time::Duration::from_millis(1),
        marine_states: 200_000,
        ..Limits::default()
    };
    let big = include_str!("../../marine/tests/data/battle10.txt");
    let (status, json) = call_with(slow, "POST", "/api/marine/solve?rounds=200", big).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(error(&json).contains("longer than"));
}

#[tokio::test]
async fn unknown_paths_and_methods_are_json_errors() {
    let (status, json) = call("GET", "/api/nothing", Body::empty()).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(error(&json).contains("/api/nothing"));
    let (status, json) = call("GET", "/api/cheesy/solve", Body::empty()).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert!(error(&json).contains("POST"));
}

/// The page asks for its errors with status 200 (`X-Endgame-Errors: ok`) and reads their status
/// in `X-Endgame-Status`, with the same body; other clients get the documented statuses.
#[tokio::test]
async fn errors_with_status_200_for_the_page_only() {
    let state = Arc::new(AppState::new(xiangqi_limits()));
    let cases = [
        ("GET", "/api/xiangqi?fen=hello".to_string(), "", StatusCode::BAD_REQUEST),
        (
            "GET",
            format!("/api/xiangqi?fen={}", query("2bakab2/9/9/9/9/9/4P4/9/R8/3K5 w")),
            "",
            StatusCode::NOT_FOUND,
        ),
        ("GET", "/api/xiangqi/stats?material=KRPvKAABB".to_string(), "", StatusCode::NOT_FOUND),
        ("POST", "/api/twixt/replay".to_string(), "not a record", StatusCode::BAD_REQUEST),
        ("GET", "/api/nothing".to_string(), "", StatusCode::NOT_FOUND),
    ];
    for (method, uri, body, status) in cases {
        let (plain, plain_json) = common::request(&state, method, &uri, body).await;
        assert_eq!(plain, status, "{uri}: {plain_json}");
        let request = Request::builder()
            .method(method)
            .uri(&uri)
            .header("x-endgame-errors", "ok")
            .body(Body::from(body))
            .unwrap();
        let response = router(Arc::clone(&state)).oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{uri}");
        assert_eq!(response.headers()["x-endgame-status"], status.as_str(), "{uri}");
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let json: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(json, plain_json, "{uri}");
    }
    // A good answer is the same either way, without the header.
    let request = Request::get("/api/xiangqi?fen=4k4/9/9/9/9/9/9/9/4A4/3RK4%20w")
        .header("x-endgame-errors", "ok")
        .body(Body::empty())
        .unwrap();
    let response = router(state).oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers().get("x-endgame-status").is_none());
}

#[tokio::test]
async fn the_page_and_its_assets_are_served() {
    for path in ["/", "/xiangqi", "/twixt", "/cheesy", "/marine", "/?fen=x"] {
        let app = router(Arc::new(AppState::new(Limits::default())));
        let response = app.oneshot(Request::get(path).body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let body = response.into_body().collect().await.unwrap().to_bytes();
        assert!(String::from_utf8_lossy(&body).contains("/assets/app.js"));
    }
    // Every file of assets/ is served (a module missing from page.rs would break the page),
    // with its own bytes.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    let mut served = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name == "index.html" {
            continue;
        }
        let app = router(Arc::new(AppState::new(Limits::default())));
        let response =
            app.oneshot(Request::get(format!("/assets/{name}")).body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{name}");
        let body = response.into_body().collect().await.unwrap().to_bytes();
        assert_eq!(body, std::fs::read(dir.join(&name)).unwrap(), "{name}");
        served += 1;
    }
    assert!(served >= 13, "{served} assets");
    let app = router(Arc::new(AppState::new(Limits::default())));
    let response = app.oneshot(Request::get("/favicon.ico").body(Body::empty()).unwrap()).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "image/svg+xml");
    let (_, json) = call("GET", "/api/examples", Body::empty()).await;
    assert!(json["cheesy"].as_str().unwrap().contains('K'));
    // The Xiangqi examples menu: named in both languages, each a legal position of its
    // material (answered, or 404 when its tables are not generated).
    let list = json["xiangqi"].as_array().unwrap();
    assert!(list.len() >= 5);
    for example in list {
        assert!(!example["english"].as_str().unwrap().is_empty(), "{example}");
        assert!(!example["chinese"].as_str().unwrap().is_empty(), "{example}");
        let (status, answer) =
            get(&format!("/api/xiangqi?fen={}", query(example["fen"].as_str().unwrap()))).await;
        assert!(status == StatusCode::OK || status == StatusCode::NOT_FOUND, "{example}: {answer}");
        if status == StatusCode::OK {
            assert_eq!(answer["material"], example["material"], "{example}");
        }
    }
}

/// `/api/examples` lists the classic Xiangqi endgames (names in English and Chinese, material,
/// a typical position); those of up to 4 men answer at once (solved in memory), the others
/// are a material to generate (404 with the command).
#[tokio::test]
async fn examples_list_the_classic_xiangqi_endgames() {
    let (status, json) = get("/api/examples").await;
    assert_eq!(status, StatusCode::OK);
    let list = json["xiangqi"].as_array().unwrap();
    assert!(list.len() >= 20, "{json}");
    let krkaabb = list.iter().find(|e| e["material"] == "KRvKAABB").unwrap();
    assert_eq!(krkaabb["chinese"], "单车对士象全");
    assert_eq!(krkaabb["english"], "Chariot against a full defence");
    for e in list {
        let fen = e["fen"].as_str().unwrap();
        let (status, answer) = get(&format!("/api/xiangqi?fen={}", query(fen))).await;
        if e["material"].as_str().unwrap().len() <= 5 {
            assert_eq!(status, StatusCode::OK, "{e}: {answer}");
            assert_eq!(answer["material"], e["material"]);
        } else {
            assert_eq!(status, StatusCode::NOT_FOUND, "{e}: {answer}");
            assert!(error(&answer).contains("endgame xiangqi generate"), "{answer}");
        }
    }
}

/// A server whose Xiangqi directory is empty: materials of up to 4 men are solved in memory.
fn xiangqi_limits() -> Limits {
    Limits { tb_dir: Some(common::empty_dir("api-no-tables")), ..Limits::default() }
}

async fn get(uri: &str) -> (StatusCode, Value) {
    call_with(xiangqi_limits(), "GET", uri, Body::empty()).await
}

fn query(fen: &str) -> String {
    fen.replace(' ', "%20")
}

#[tokio::test]
async fn xiangqi_position_is_the_libraries_answer() {
    use endgame_xiangqi::probe::Probe;
    use endgame_xiangqi::{Position, Rules, Tablebases, report};
    let fen = "3k5/9/9/9/9/3n5/9/9/9/3K5 w";
    for rules in [Rules::Standard, Rules::Hdu] {
        let (status, json) = get(&format!("/api/xiangqi?fen={}&rules={}", query(fen), rules.name())).await;
        assert_eq!(status, StatusCode::OK, "{json}");
        let tables = Tablebases::open(xiangqi_limits().tb_dir.unwrap(), rules);
        let position = Position::from_setup(fen.parse().unwrap()).unwrap();
        let solved = report::solve(&tables, &position).unwrap();
        let listed = report::moves(&tables, &position).unwrap();
        for field in [
            "fen",
            "rules",
            "material",
            "turn",
            "category",
            "dtm",
            "best_move",
            "main_line",
            "line_end",
            "final_fen",
        ] {
            assert_eq!(json[field], solved[field], "{field}");
        }
        assert_eq!(json["moves"], listed["moves"]);
        // Best first: the first move is the main line's, and each has its WXF name.
        assert_eq!(json["moves"][0]["uci"], json["best_move"]);
        assert_eq!(json["moves"][0]["wxf"], "K6+1");
        assert_eq!(
            json["main_line_wxf"].as_array().unwrap().len(),
            json["main_line"].as_array().unwrap().len()
        );
        assert_eq!(tables.probe(&position).unwrap().wdl(), endgame_core::Wdl::Loss);
    }
    // Standard rules by default.
    let (_, json) = get(&format!("/api/xiangqi?fen={}", query(fen))).await;
    assert_eq!(json["rules"], "standard");
    assert_eq!(json["category"], "loss");
    assert_eq!(json["dtm"], -8);
}

/// A move's value for the side that plays it (`for_mover`, the convention of every interface:
/// a winning move reads "win"), beside the lichess API's `category` and `dtm` of the position
/// after it, for the opponent; under every rule set, with results by the rule.
#[tokio::test]
async fn a_moves_value_is_for_the_side_that_plays_it() {
    let cases = [
        ("4k4/9/9/9/9/9/9/9/4A4/3RK4 w", "standard"),
        ("3k5/9/9/9/9/3n5/9/9/9/3K5 w", "hdu"),
        ("3k5/4a4/9/9/9/9/9/9/4A4/4K4 w", "standard"),
        ("9/9/4k4/9/9/9/n8/9/9/R2K5 b", "perpetual-check"),
        ("9/9/4k4/9/9/9/9/9/1n7/R2K5 w", "perpetual-check"),
    ];
    for (fen, rules) in cases {
        let (status, json) = get(&format!("/api/xiangqi?fen={}&rules={rules}", query(fen))).await;
        assert_eq!(status, StatusCode::OK, "{json}");
        for m in json["moves"].as_array().unwrap() {
            let mover = &m["for_mover"];
            let flipped = match m["category"].as_str().unwrap() {
                "win" => "loss",
                "loss" => "win",
                other => other,
            };
            assert_eq!(mover["category"], flipped, "{fen}: {m}");
            // One ply more, seen from the other side.
            let dtm = m["dtm"].as_i64().map(|d| if d > 0 { -(d + 1) } else { 1 - d });
            assert_eq!(mover["dtm"].as_i64(), dtm, "{fen}: {m}");
            assert_eq!(mover.get("rule"), m.get("rule"), "{fen}: {m}");
        }
    }
    // KRAvK: the best move wins in 3 plies for Red, who plays it; Black, to move after it,
    // loses in 2.
    let (_, json) = get(&format!("/api/xiangqi?fen={}", query(cases[0].0))).await;
    let best = &json["moves"][0];
    assert_eq!(best["uci"], "d0d8");
    assert_eq!(best["for_mover"], serde_json::json!({ "category": "win", "dtm": 3 }));
    assert_eq!((&best["category"], &best["dtm"]), (&Value::from("loss"), &Value::from(-2)));
    // Under perpetual-check: the winning move wins by the rule for its mover.
    let (_, json) = get(&format!("/api/xiangqi?fen={}&rules=perpetual-check", query(cases[4].0))).await;
    assert_eq!(
        json["moves"][0]["for_mover"],
        serde_json::json!({ "category": "win", "dtm": null, "rule": "perpetual-check" })
    );
}

#[tokio::test]
async fn xiangqi_bad_positions() {
    // The command line's messages: `FEN "...": ...` and `position: ...`.
    let (status, json) = get("/api/xiangqi?fen=4k4/9/9%20w").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error(&json).starts_with("FEN \"4k4/9/9 w\": "), "{json}");
    assert!(error(&json).contains("expected 10 ranks"), "{json}");
    // Black in check with Red to move: illegal under standard rules, fine under hdu.
    let fen = query("4k4/9/9/9/9/9/9/9/4R4/3K5 w");
    let (status, json) = get(&format!("/api/xiangqi?fen={fen}")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error(&json).starts_with("position: Black is in check"), "{json}");
    let (status, _) = get(&format!("/api/xiangqi?fen={fen}&rules=hdu")).await;
    assert_eq!(status, StatusCode::OK);
    // Two Red Generals.
    let (status, json) = get(&format!("/api/xiangqi?fen={}", query("4k4/9/9/9/9/9/9/9/4K4/3K5 w"))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error(&json).starts_with("position: "), "{json}");
    // Five men without their table: 404 with the command that generates it.
    let (status, json) = get(&format!("/api/xiangqi?fen={}", query("3k5/9/9/9/9/3n5/9/4R4/9/3K1C3 w"))).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{json}");
    assert!(error(&json).contains("endgame xiangqi generate KRCvKN --rules standard"), "{json}");
    // The start position: an answer at once, naming the number of men.
    let start = query("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w");
    let (status, json) = get(&format!("/api/xiangqi?fen={start}")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{json}");
    assert!(error(&json).contains("32 men"), "{json}");
    // Parameters.
    let (status, json) = get("/api/xiangqi").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error(&json).contains("fen"));
    let (status, json) = get(&format!("/api/xiangqi?fen={fen}&rules=asian")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error(&json).contains("expected standard, hdu, perpetual-check or check-and-chase"));
}

#[tokio::test]
async fn xiangqi_stats_are_the_libraries() {
    use endgame_xiangqi::{Rules, Tablebases};
    let (status, json) = get("/api/xiangqi/stats?material=KRvK&rules=standard").await;
    assert_eq!(status, StatusCode::OK, "{json}");
    let tables = Tablebases::open(xiangqi_limits().tb_dir.unwrap(), Rules::Standard);
    let s = tables.stats("KRvK".parse().unwrap()).unwrap();
    assert_eq!(json, endgame_xiangqi::report::stats_json("KRvK".parse().unwrap(), Rules::Standard, &s));
    assert_eq!(
        json["positions"].as_u64().unwrap(),
        json["wins"].as_u64().unwrap() + json["losses"].as_u64().unwrap() + json["draws"].as_u64().unwrap()
    );

    let (status, json) = get("/api/xiangqi/stats?material=KXvK").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error(&json).starts_with("material \"KXvK\": "), "{json}");
    let (status, json) = get("/api/xiangqi/stats?material=KRRvKNN").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{json}");
    assert!(error(&json).contains("endgame xiangqi generate"), "{json}");
}

#[tokio::test]
async fn xiangqi_under_perpetual_check() {
    // The defender's perpetual check no longer saves it (`docs/rules.md`, hand-checked).
    let fen = query("9/9/4k4/9/9/9/n8/9/9/R2K5 b");
    let (status, json) = get(&format!("/api/xiangqi?fen={fen}&rules=perpetual-check")).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(
        (&json["category"], &json["rule"], &json["dtm"]),
        (&Value::from("loss"), &Value::from("perpetual-check"), &Value::Null)
    );
    assert_eq!(json["best_move"], "a3b1");
    assert_eq!(json["line_end"], "perpetual_check");
    assert!(json["line_end_text"].as_str().unwrap().contains("perpetual-check rule"), "{json}");
    assert_eq!(json["moves"][0]["rule"], "perpetual-check");
    // Under standard rules the same position is a draw.
    let (_, json) = get(&format!("/api/xiangqi?fen={fen}")).await;
    assert_eq!(json["category"], "draw");
    assert!(json.get("rule").is_none());
    let (status, json) = get("/api/xiangqi/stats?material=KRvKN&rules=perpetual-check").await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!((json["wins_by_rule"].as_u64(), json["losses_by_rule"].as_u64()), (Some(624), Some(2570)));
    assert_eq!((json["draws"].as_u64(), json["standard_draws"].as_u64()), (Some(1218), Some(4412)));
}

#[tokio::test]
async fn xiangqi_under_check_and_chase() {
    // Up to 4 men the bans on perpetual check and chase decide what the first decides alone;
    // each result names the ban.
    let fen = query("9/9/4k4/9/9/9/n8/9/9/R2K5 b");
    let (status, json) = get(&format!("/api/xiangqi?fen={fen}&rules=check-and-chase")).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(
        (&json["rules"], &json["rule"]),
        (&Value::from("check-and-chase"), &Value::from("perpetual-check"))
    );
    assert_eq!(json["line_end"], "perpetual_check");
    let (status, json) = get("/api/xiangqi/stats?material=KRvKN&rules=check-and-chase").await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!((json["wins_by_rule"].as_u64(), json["losses_by_rule"].as_u64()), (Some(624), Some(2570)));
    assert_eq!(json["standard_draws"].as_u64(), Some(4412));
}

#[tokio::test]
async fn xiangqi_reads_the_table_directory_it_was_given() {
    // A damaged KRvK file in the directory: the server reads it (rather than solving KRvK in
    // memory) and says what is wrong and how to regenerate it.
    let dir = common::fresh_dir("api-damaged");
    let tables = dir.join("xiangqi").join("standard");
    std::fs::create_dir_all(&tables).unwrap();
    std::fs::write(tables.join("KRvK.wdl"), b"not a table").unwrap();
    let limits = Limits { tb_dir: Some(dir.clone()), ..Limits::default() };
    let (status, json) =
        call_with(limits.clone(), "GET", "/api/xiangqi/stats?material=KRvK", Body::empty()).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{json}");
    assert!(error(&json).contains("endgame xiangqi generate KRvK --rules standard"), "{json}");
    // The file is named relative to the table directory, which the message does not show.
    assert!(
        error(&json).contains(&format!("xiangqi{0}standard{0}KRvK.", std::path::MAIN_SEPARATOR)),
        "{json}"
    );
    assert!(!error(&json).contains(&*dir.to_string_lossy()), "{json}");
    let fen = query("3k5/9/9/9/9/9/9/9/4R4/5K3 w");
    let (status, json) =
        call_with(limits.clone(), "GET", &format!("/api/xiangqi?fen={fen}"), Body::empty()).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{json}");
    // Other materials still answer.
    let (status, _) = call_with(limits, "GET", "/api/xiangqi/stats?material=KNvK", Body::empty()).await;
    assert_eq!(status, StatusCode::OK);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A material is answered from its colour twin's file: with only `KRvKAB` generated, a
/// position of `KABvKR` (the same seen from the other side) and its statistics answer, and no
/// file of its own is written.
#[tokio::test]
async fn xiangqi_answers_a_material_from_its_colour_twins_file() {
    use endgame_xiangqi::{Rules, Tablebases};
    let dir = common::fresh_dir("api-twins");
    let tables = Tablebases::open(&dir, Rules::Standard);
    tables.generate(&["KABvKR".parse().unwrap()], &|_| {}).unwrap();
    assert!(tables.path("KRvKAB".parse().unwrap()).exists());
    assert!(!tables.path("KABvKR".parse().unwrap()).exists());
    let limits = Limits { tb_dir: Some(dir.clone()), ..Limits::default() };
    let ask = |uri: String| {
        let limits = limits.clone();
        async move { call_with(limits, "GET", &uri, Body::empty()).await }
    };
    let (status, red) = ask(format!("/api/xiangqi?fen={}", query("2bak4/9/9/9/9/9/9/9/1R7/5K3 w"))).await;
    assert_eq!(status, StatusCode::OK, "{red}");
    let (status, black) = ask(format!("/api/xiangqi?fen={}", query("5k3/1r7/9/9/9/9/9/9/9/2BAK4 b"))).await;
    assert_eq!(status, StatusCode::OK, "{black}");
    assert_eq!((&red["material"], &black["material"]), (&Value::from("KRvKAB"), &Value::from("KABvKR")));
    assert_eq!(red["category"], "win");
    assert_eq!((&red["category"], &red["dtm"]), (&black["category"], &black["dtm"]));
    assert_eq!(red["moves"].as_array().unwrap().len(), black["moves"].as_array().unwrap().len());
    let (status, a) = ask("/api/xiangqi/stats?material=KRvKAB".to_string()).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    let (status, b) = ask("/api/xiangqi/stats?material=KABvKR".to_string()).await;
    assert_eq!(status, StatusCode::OK, "{b}");
    assert_eq!((&a["positions"], &a["wins"], &a["draws"]), (&b["positions"], &b["wins"], &b["draws"]));
    assert_eq!(a["longest_red_win_plies"], b["longest_black_win_plies"]);
    assert!(a["longest_red_win_plies"].as_u64().unwrap() > 0);
    assert!(!tables.path("KABvKR".parse().unwrap()).exists(), "nothing written by the server");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The example record of `endgame xiangqi review`: a Horse against an Advisor and an
/// Elephant; marks at plies 13 (mistake), 25 and 26 (blunders).
const REVIEW_EXAMPLE: &str = include_str!("../../xiangqi/examples/review.pgn");

/// The plies and marks of a review.
fn review_marks(json: &Value) -> Vec<(u64, &str)> {
    json["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| Some((m["ply"].as_u64()?, m["mark"].as_str()?)))
        .collect()
}

#[tokio::test]
async fn a_review_is_the_json_the_command_line_prints() {
    use endgame_xiangqi::review::{ReviewOptions, review_record};
    use endgame_xiangqi::{Rules, Tablebases};
    let state = Arc::new(AppState::new(xiangqi_limits()));
    let (status, json) = common::request(&state, "POST", "/api/xiangqi/review", REVIEW_EXAMPLE).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(review_marks(&json), [(13, "mistake"), (25, "blunder"), (26, "blunder")]);
    // The library's JSON, the table directory left out of the messages.
    let dir = xiangqi_limits().tb_dir.unwrap();
    let tables = Tablebases::open(&dir, Rules::Standard);
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let reviewed =
        review_record(&tables, REVIEW_EXAMPLE.as_bytes(), None, ReviewOptions::default(), &cancel).unwrap();
    let mut expected = reviewed.to_json();
    let message = expected["summary"]["missing"][0]["message"].as_str().unwrap().to_string();
    let relative = message.replace(&format!("{}/", dir.display()), "");
    assert!(relative.contains("(no xiangqi/standard/KNvKAB.wdl)"), "{relative}");
    expected["summary"]["missing"][0]["message"] = relative.into();
    assert_eq!(json, expected);
    // Every rule set, another N, another game.
    let uri = "/api/xiangqi/review?rules=check-and-chase&mistake_plies=13&game=1";
    let (status, json) = common::request(&state, "POST", uri, REVIEW_EXAMPLE).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!((json["rules"].as_str(), json["mistake_plies"].as_u64()), (Some("check-and-chase"), Some(13)));
    assert_eq!(review_marks(&json), [(25, "blunder"), (26, "blunder")]);
}

#[tokio::test]
async fn a_bad_record_gets_400_naming_the_game_and_the_move() {
    let state = Arc::new(AppState::new(xiangqi_limits()));
    let (status, json) =
        common::request(&state, "POST", "/api/xiangqi/review", "1. h2e2 h9g7 2. e2e9 *\n").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error(&json).starts_with("game 1, move 2. (Red, ply 3, line 1) \"e2e9\": "), "{json}");
    let (status, json) = common::request(&state, "POST", "/api/xiangqi/review?game=2", REVIEW_EXAMPLE).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error(&json), "game 2: the record holds 1 game");
    for (query, what) in [
        ("game=0", "game"),
        ("mistake_plies=0", "mistake_plies"),
        ("rules=fide", "rules"),
        ("depth=3", "depth"),
    ] {
        let uri = format!("/api/xiangqi/review?{query}");
        let (status, json) = common::request(&state, "POST", &uri, REVIEW_EXAMPLE).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}");
        assert!(error(&json).contains(what), "{query}: {json}");
    }
    // An XQF file (binary): read as the command line reads it.
    let xqf = include_bytes!("../../xiangqi/tests/data/records/xqf10-example.xqf").to_vec();
    let (status, json) = common::request(&state, "POST", "/api/xiangqi/review", xqf).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    assert_eq!(json["moves"].as_array().unwrap().len(), 16);
    // Bytes that are no record (not UTF-8 either): the reader's message, not a crash.
    let (status, json) =
        common::request(&state, "POST", "/api/xiangqi/review", vec![0xffu8, 0xfe, 0x00, 0x80]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{json}");
    let (status, _) = common::request(&state, "POST", "/api/xiangqi/review", vec![b' '; MAX_BODY + 1]).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
}
