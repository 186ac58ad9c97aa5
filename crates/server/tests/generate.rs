//! Generation on demand through the API, in-process: the estimate, a job started, joined,
//! followed to the end and the position answered after it; a job refused over the budget;
//! cancelled while queued and while running; resumed by a restarted server; generation off.

mod common;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::StatusCode;
use endgame_server::{AppState, Limits};
use endgame_xiangqi::{Material, Rules, Tablebases};
use serde_json::Value;

/// Five men, 12 tables, 1.26 M positions.
const SMALL: &str = "KNvKAAB";
const SMALL_FEN: &str = "3ak4/4a4/4b4/9/9/9/9/4N4/9/4K4 w";
/// Six men, 18 tables, 4.6 M positions: long enough to be caught running.
const LARGER: &str = "KRvKAABB";

fn temp_dir(name: &str) -> std::path::PathBuf {
    common::fresh_dir(&format!("generate-{name}"))
}

fn state(dir: &Path, budget: Option<u64>) -> Arc<AppState> {
    Arc::new(AppState::new(Limits {
        tb_dir: Some(dir.to_path_buf()),
        generate_memory: budget,
        ..Limits::default()
    }))
}

async fn call(state: &Arc<AppState>, method: &str, uri: &str) -> (StatusCode, Value) {
    common::request(state, method, uri, Body::empty()).await
}

/// The tables of `dir` under standard rules: its files named as `Tablebases::path` names them
/// (the file whose presence means the table is there).
fn tables(dir: &Path) -> usize {
    let path = Tablebases::open(dir, Rules::Standard).path(material("KvK"));
    let suffix = format!(".{}", path.extension().unwrap().to_string_lossy());
    std::fs::read_dir(path.parent().unwrap())
        .map_or(0, |d| d.flatten().filter(|e| e.file_name().to_string_lossy().ends_with(&suffix)).count())
}

fn material(text: &str) -> Material {
    text.parse().unwrap()
}

/// Polls job `id` until `until` holds or it is finished (at most a minute); every answer seen.
async fn follow(state: &Arc<AppState>, id: u64, until: impl Fn(&Value) -> bool) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut seen = Vec::new();
    loop {
        let (status, job) = call(state, "GET", &format!("/api/xiangqi/jobs/{id}")).await;
        assert_eq!(status, StatusCode::OK, "{job}");
        let over = until(&job) || ["done", "failed", "cancelled"].contains(&job["state"].as_str().unwrap());
        seen.push(job);
        if over {
            return seen;
        }
        assert!(Instant::now() < deadline, "a minute: {:?}", seen.last());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_missing_material_is_estimated_generated_and_answered() {
    let dir = temp_dir("flow");
    let state = state(&dir, Some(1 << 30));
    let fen = SMALL_FEN.replace(' ', "%20");
    let (status, answer) = call(&state, "GET", &format!("/api/xiangqi?fen={fen}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");

    let (status, e) = call(&state, "GET", &format!("/api/xiangqi/estimate?fen={fen}")).await;
    assert_eq!(status, StatusCode::OK, "{e}");
    assert_eq!(e["material"], SMALL);
    assert_eq!(e["rules"], "standard");
    assert_eq!(
        (e["state"].as_str(), e["tables"].as_u64(), e["tables_in_all"].as_u64()),
        (Some("missing"), Some(12), Some(12))
    );
    assert_eq!(e["positions"], 1_257_984);
    assert_eq!((e["fits"].as_bool(), e["generate"].as_bool()), (Some(true), Some(true)));
    assert!(e["memory_bytes"].as_u64().unwrap() > 1 << 20);
    assert!(e["seconds"].as_f64().unwrap() > 0.0);
    assert_eq!(e["command"], format!("endgame xiangqi generate {SMALL} --rules standard"));
    assert!(
        e["text"].as_str().unwrap().starts_with(&format!("{SMALL}: 12 tables, 1.3 M positions, about ")),
        "{e}"
    );
    assert!(e["job"].is_null());
    // material= says the same.
    let (_, by_material) = call(&state, "GET", &format!("/api/xiangqi/estimate?material={SMALL}")).await;
    assert_eq!(by_material["positions"], e["positions"]);

    let (status, job) =
        call(&state, "POST", &format!("/api/xiangqi/generate?material={SMALL}&rules=standard")).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    assert_eq!((job["material"].as_str(), job["rules"].as_str()), (Some(SMALL), Some("standard")));
    assert_eq!(job["positions"], 1_257_984);
    assert!(job["memory_bytes"].as_u64().unwrap() > 0);
    assert!(["queued", "running"].contains(&job["state"].as_str().unwrap()), "{job}");
    let id = job["job"].as_u64().unwrap();
    // The estimate names the job while it runs.
    let (_, e) = call(&state, "GET", &format!("/api/xiangqi/estimate?material={SMALL}")).await;
    assert!(e["job"].as_u64() == Some(id) || e["state"] == "done", "{e}");

    let seen = follow(&state, id, |_| false).await;
    let last = seen.last().unwrap();
    assert_eq!(last["state"], "done", "{last}");
    assert_eq!((last["materials_done"].as_u64(), last["materials_total"].as_u64()), (Some(12), Some(12)));
    assert_eq!(last["positions_done"], 1_257_984);
    assert_eq!(last["seconds_left"], 0.0);
    assert!(last["error"].is_null());
    for pair in seen.windows(2) {
        assert!(pair[0]["positions_done"].as_u64() <= pair[1]["positions_done"].as_u64(), "{pair:?}");
    }
    for job in &seen {
        for field in ["materials_done", "materials_total", "positions_per_second", "seconds_left"] {
            assert!(job[field].is_number(), "{field}: {job}");
        }
    }
    assert_eq!(tables(&dir), 12);

    // The position is answered now, by the same server.
    let (status, answer) = call(&state, "GET", &format!("/api/xiangqi?fen={fen}")).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["material"], SMALL);
    assert!(!answer["moves"].as_array().unwrap().is_empty());
    let (status, stats) = call(&state, "GET", &format!("/api/xiangqi/stats?material={SMALL}")).await;
    assert_eq!(status, StatusCode::OK, "{stats}");

    // Asked again: there already.
    let (status, again) = call(&state, "POST", &format!("/api/xiangqi/generate?fen={fen}")).await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!((again["state"].as_str(), again["tables"].as_u64()), (Some("done"), Some(0)));
    assert!(again["job"].is_null());
    let (_, e) = call(&state, "GET", &format!("/api/xiangqi/estimate?material={SMALL}")).await;
    assert_eq!(e["state"], "done");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn over_the_budget_the_answer_is_413_with_the_estimate() {
    let dir = temp_dir("budget");
    let state = state(&dir, Some(1 << 20));
    let (status, e) = call(&state, "GET", &format!("/api/xiangqi/estimate?material={LARGER}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!((e["fits"].as_bool(), e["budget_bytes"].as_u64()), (Some(false), Some(1 << 20)));
    let (status, refused) = call(&state, "POST", &format!("/api/xiangqi/generate?material={LARGER}")).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{refused}");
    assert_eq!(refused["state"], "refused");
    assert_eq!(
        (refused["tables"].as_u64(), refused["positions"].as_u64()),
        (Some(18), e["positions"].as_u64())
    );
    assert_eq!(refused["memory_bytes"], e["memory_bytes"]);
    let message = refused["error"].as_str().unwrap();
    assert!(message.contains("more memory than the 1 MiB"), "{message}");
    assert!(message.contains(&format!("endgame xiangqi generate {LARGER} --rules standard")), "{message}");
    assert!(refused["cluster_command"].as_str().unwrap().starts_with("mpirun "), "{refused}");
    assert_eq!(tables(&dir), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two requests share a job; a job queued behind it is cancelled at once; the running one is
/// cancelled once it has finished some tables, which stay; a new server over the same
/// directory (a restart) generates only the rest.
#[tokio::test]
async fn jobs_are_shared_cancelled_and_resumed_after_a_restart() {
    let dir = temp_dir("cancel");
    let first = state(&dir, Some(1 << 30));
    let (status, job) = call(&first, "POST", &format!("/api/xiangqi/generate?material={LARGER}")).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    let id = job["job"].as_u64().unwrap();
    let (status, joined) = call(&first, "POST", &format!("/api/xiangqi/generate?material={LARGER}")).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{joined}");
    assert_eq!(joined["job"].as_u64(), Some(id));
    let (status, queued) = call(&first, "POST", &format!("/api/xiangqi/generate?material={SMALL}")).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(queued["state"], "queued", "{queued}");
    let small = queued["job"].as_u64().unwrap();
    assert_ne!(small, id);
    let (status, cancelled) = call(&first, "DELETE", &format!("/api/xiangqi/jobs/{small}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(cancelled["state"], "cancelled", "{cancelled}");

    let seen = follow(&first, id, |j| j["materials_done"].as_u64() >= Some(1)).await;
    assert_eq!(seen.last().unwrap()["state"], "running", "{seen:?}");
    let (status, stopped) = call(&first, "DELETE", &format!("/api/xiangqi/jobs/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(stopped["state"], "cancelled", "{stopped}");
    let (_, after) = call(&first, "GET", &format!("/api/xiangqi/jobs/{id}")).await;
    assert_eq!(after["state"], "cancelled");
    let kept = tables(&dir);
    assert!((1..18).contains(&kept), "{kept} tables");
    // The cancelled small job never ran.
    assert!(!Tablebases::open(&dir, Rules::Standard).path(material(SMALL)).exists());

    // A restart: the job is unknown, and a new request generates only what is missing.
    let second = state(&dir, Some(1 << 30));
    let (status, gone) = call(&second, "GET", &format!("/api/xiangqi/jobs/{id}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{gone}");
    assert!(gone["error"].as_str().unwrap().contains("ask for the material again"), "{gone}");
    let (status, resumed) = call(&second, "POST", &format!("/api/xiangqi/generate?material={LARGER}")).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{resumed}");
    assert_eq!(resumed["materials_total"].as_u64(), Some(18 - kept as u64), "{resumed}");
    assert!(resumed["positions"].as_u64() < job["positions"].as_u64());
    let seen = follow(&second, resumed["job"].as_u64().unwrap(), |_| false).await;
    assert_eq!(seen.last().unwrap()["state"], "done", "{:?}", seen.last());
    assert_eq!(tables(&dir), 18);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn without_generation_and_with_bad_requests() {
    let dir = temp_dir("off");
    let off = state(&dir, None);
    let (status, e) = call(&off, "GET", &format!("/api/xiangqi/estimate?material={SMALL}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!((e["generate"].as_bool(), e["fits"].as_bool()), (Some(false), Some(false)));
    assert!(e["budget_bytes"].is_null());
    let (status, refused) = call(&off, "POST", &format!("/api/xiangqi/generate?material={SMALL}")).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains(&format!("endgame xiangqi generate {SMALL} --rules standard"))
    );
    let (status, _) = call(&off, "GET", "/api/xiangqi/jobs/1").await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let on = state(&dir, Some(1 << 30));
    for (method, uri, expected) in [
        ("GET", "/api/xiangqi/estimate", "expected material=MATERIAL or fen=FEN"),
        ("GET", "/api/xiangqi/estimate?material=KNvKAAB&fen=x", "expected material=MATERIAL or fen=FEN"),
        ("GET", "/api/xiangqi/estimate?material=KXvK", "material \"KXvK\""),
        ("GET", "/api/xiangqi/estimate?fen=bad", "FEN \"bad\""),
        ("GET", "/api/xiangqi/estimate?material=KNvKAAB&rules=xyz", "invalid value 'xyz' for rules"),
        ("GET", "/api/xiangqi/estimate?material=KNvKAAB&colour=red", "unknown parameter 'colour'"),
        (
            "POST",
            "/api/xiangqi/generate?material=KAABBNNRRCCPPPPPvKAABBNNRRCCPPPPP",
            "does not fit in 64 bits",
        ),
        ("GET", "/api/xiangqi/jobs/abc", "expected the number of a job"),
    ] {
        let (status, json) = call(&on, method, uri).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}: {json}");
        assert!(json["error"].as_str().unwrap().contains(expected), "{uri}: {json}");
    }
    let (status, json) = call(&on, "GET", "/api/xiangqi/jobs/12345").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{json}");
    let (status, json) = call(&on, "DELETE", "/api/xiangqi/jobs/12345").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{json}");
    let (status, json) = call(&on, "GET", "/api/xiangqi/generate?material=KNvKAAB").await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{json}");
    assert!(json["error"].as_str().unwrap().ends_with("expected POST"), "{json}");
    let (status, json) = call(&on, "PUT", "/api/xiangqi/jobs/1").await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{json}");
    assert_eq!(tables(&dir), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}
