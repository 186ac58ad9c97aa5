//! The API in-process (`tower::ServiceExt::oneshot`): every endpoint with good and bad input.
//! The answers are compared with what the game crates compute for the same input (the
//! command-line tool prints the same JSON, see crates/cli/tests).

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use endgame_server::{AppState, Limits, MAX_BODY, router};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

async fn call(method: &str, uri: &str, body: impl Into<Body>) -> (StatusCode, Value) {
    call_with(Limits::default(), method, uri, body).await
}

async fn call_with(limits: Limits, method: &str, uri: &str, body: impl Into<Body>) -> (StatusCode, Value) {
    let app = router(Arc::new(AppState::new(limits)));
    let response =
        app.oneshot(Request::builder().method(method).uri(uri).body(body.into()).unwrap()).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let json = serde_json::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("{uri}: not JSON ({e}): {}", String::from_utf8_lossy(&bytes)));
    (status, json)
}

fn error(json: &Value) -> &str {
    json["error"].as_str().unwrap_or_else(|| panic!("no error message in {json}"))
}

const JUDGE: &str = "7 11\n0 3 6 5 3 2 5 7 7 2 4 4\n5 3 5 2 4 5 4 0 2 4\n";
const T1: &str = include_str!("../../twixt/tests/data/sample.T1");
const CHEESY: &str = include_str!("../../cheesy/examples/sample2.txt");
const MARINE: &str = include_str!("../../marine/examples/corner.txt");

#[tokio::test]
async fn twixt_replay_is_the_report_plus_threats() {
    use endgame_twixt::Record;
    use endgame_twixt::replay::{self, Report};
    let (status, json) = call("POST", "/api/twixt/replay", T1).await;
    assert_eq!(status, StatusCode::OK, "{json}");
    let record = Record::parse(T1, None).unwrap();
    let played = replay::replay(&record, record.default_config()).unwrap();
    let mut expected = serde_json::to_value(Report::new(&record, &played)).unwrap();
    expected["threats"] = serde_json::to_value(replay::threats(&record, &played.game)).unwrap();
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
    let winning: Vec<&str> = json["threats"]["winning_now"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
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
}

#[tokio::test]
async fn cheesy_solve_is_the_report() {
    use endgame_cheesy::Side;
    use endgame_cheesy::report::Report;
    for (side, param) in [(Side::White, "white"), (Side::Black, "black")] {
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

#[tokio::test]
async fn the_page_and_its_assets_are_served() {
    for path in ["/", "/xiangqi", "/twixt", "/cheesy", "/marine", "/?fen=x"] {
        let app = router(Arc::new(AppState::new(Limits::default())));
        let response = app.oneshot(Request::get(path).body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let body = response.into_body().collect().await.unwrap().to_bytes();
        assert!(String::from_utf8_lossy(&body).contains("/assets/app.js"));
    }
    for asset in ["app.js", "style.css", "xiangqi.js", "twixt.js", "cheesy.js", "marine.js"] {
        let app = router(Arc::new(AppState::new(Limits::default())));
        let response =
            app.oneshot(Request::get(format!("/assets/{asset}")).body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{asset}");
    }
    let (_, json) = call("GET", "/api/examples", Body::empty()).await;
    assert!(json["cheesy"].as_str().unwrap().contains('K'));
}
