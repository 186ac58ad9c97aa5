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
    assert_eq!(e["generated"], false);
    assert_eq!(e["command"], format!("endgame xiangqi generate {SMALL} --rules standard"));
    assert!(
        e["text"].as_str().unwrap().starts_with(&format!("{SMALL}: 12 tables, 1,257,984 positions, about ")),
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
    // Nothing runs or waits on this server: the job starts, it is not "queued".
    assert_eq!((job["state"].as_str(), job["ahead"].as_u64()), (Some("starting"), Some(0)), "{job}");
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

/// Issue 40: the estimate of a material whose tables are all there says it is generated (a
/// field and the text), with 0 seconds, not `-0.0`.
#[tokio::test]
async fn the_estimate_of_a_generated_material_says_so() {
    let dir = temp_dir("generated");
    Tablebases::open(&dir, Rules::Standard).generate(&[material(SMALL)], &|_| {}).unwrap();
    let state = state(&dir, Some(1 << 30));
    let uri = format!("/api/xiangqi/estimate?material={SMALL}");
    let request = axum::http::Request::builder().uri(&uri).body(Body::empty()).unwrap();
    let response =
        tower::ServiceExt::oneshot(endgame_server::router(Arc::clone(&state)), request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body = axum::body::to_bytes(response.into_body(), 1 << 20).await.unwrap();
    let text = String::from_utf8(body.to_vec()).unwrap();
    assert!(!text.contains("-0.0"), "{text}");
    let e: Value = serde_json::from_str(&text).unwrap();
    assert_eq!((e["generated"].as_bool(), e["state"].as_str()), (Some(true), Some("done")), "{e}");
    assert_eq!((e["tables"].as_u64(), e["tables_in_all"].as_u64()), (Some(0), Some(12)), "{e}");
    assert_eq!((e["positions"].as_u64(), e["memory_bytes"].as_u64()), (Some(0), Some(0)), "{e}");
    assert_eq!(e["seconds"].as_f64(), Some(0.0), "{e}");
    assert_eq!(e["text"], format!("{SMALL}: generated (12 tables, all there)"));
    // A material of up to 4 men needs no table: nothing to generate, said so.
    let (_, small) = call(&state, "GET", "/api/xiangqi/estimate?material=KRvKA").await;
    assert_eq!(small["generated"], true, "{small}");
    assert_eq!(small["text"], "KRvKA: nothing to generate (materials of up to 4 men are solved in memory)");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 40: a job on an idle server is `starting`, not "queued" behind nothing; a job behind
/// others is `queued` with the number `ahead` of it (the one running and those queued before
/// it), which falls as they finish or are withdrawn.
#[tokio::test]
async fn a_new_job_starts_on_an_idle_server_and_counts_the_jobs_ahead_otherwise() {
    let dir = temp_dir("ahead");
    let state = state(&dir, Some(1 << 30));
    let post = |m: &str| {
        let state = Arc::clone(&state);
        let uri = format!("/api/xiangqi/generate?material={m}");
        async move { call(&state, "POST", &uri).await }
    };
    let (status, first) = post(LARGER).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{first}");
    assert_eq!((first["state"].as_str(), first["ahead"].as_u64()), (Some("starting"), Some(0)), "{first}");
    let (_, second) = post(SMALL).await;
    assert_eq!((second["state"].as_str(), second["ahead"].as_u64()), (Some("queued"), Some(1)), "{second}");
    let (_, third) = post("KCvKAB").await;
    assert_eq!((third["state"].as_str(), third["ahead"].as_u64()), (Some("queued"), Some(2)), "{third}");
    // The estimate of a waiting material names its job and state.
    let (_, e) = call(&state, "GET", "/api/xiangqi/estimate?material=KCvKAB").await;
    assert_eq!((e["state"].as_str(), e["job"].as_u64()), (Some("queued"), third["job"].as_u64()), "{e}");
    // The second withdrawn: one job ahead of the third.
    let id = |j: &Value| j["job"].as_u64().unwrap();
    let (status, cancelled) =
        call(&state, "DELETE", &format!("/api/xiangqi/jobs/{}?ticket={}", id(&second), ticket(&second)))
            .await;
    assert_eq!((status, cancelled["state"].as_str()), (StatusCode::OK, Some("cancelled")), "{cancelled}");
    let (_, now) = call(&state, "GET", &format!("/api/xiangqi/jobs/{}", id(&third))).await;
    assert_eq!((now["state"].as_str(), now["ahead"].as_u64()), (Some("queued"), Some(1)), "{now}");
    // The first done: the third runs (nothing ahead), then is done.
    let seen = follow(&state, id(&first), |_| false).await;
    assert_eq!(seen.last().unwrap()["state"], "done");
    let seen = follow(&state, id(&third), |_| false).await;
    assert_eq!(seen.last().unwrap()["state"], "done", "{seen:?}");
    for job in &seen {
        let (state, ahead) = (job["state"].as_str().unwrap(), job["ahead"].as_u64().unwrap());
        assert!(ahead <= 1 && (state == "queued") == (ahead > 0), "{job}");
    }
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

/// Under a ban a generation runs with less than its estimate (slower, without predecessor
/// lists): the estimate says the least, and a budget of the least fits.
#[tokio::test]
async fn under_a_ban_a_budget_of_the_least_memory_fits() {
    let dir = temp_dir("least");
    let query = format!("/api/xiangqi/estimate?material={SMALL}&rules=check-and-chase");
    let (status, e) = call(&state(&dir, Some(1 << 40)), "GET", &query).await;
    assert_eq!(status, StatusCode::OK, "{e}");
    let (memory, least) = (e["memory_bytes"].as_u64().unwrap(), e["least_memory_bytes"].as_u64().unwrap());
    assert!(0 < least && least < memory, "{e}");
    assert!(e["text"].as_str().unwrap().ends_with(", slower)"), "{e}");
    let (_, e) = call(&state(&dir, Some(least)), "GET", &query).await;
    assert_eq!((e["fits"].as_bool(), e["budget_bytes"].as_u64()), (Some(true), Some(least)), "{e}");
    let (_, e) = call(&state(&dir, Some(least - 1)), "GET", &query).await;
    assert_eq!(e["fits"].as_bool(), Some(false), "{e}");
    // Under `standard` the least is the estimate.
    let (_, e) =
        call(&state(&dir, Some(1 << 40)), "GET", &format!("/api/xiangqi/estimate?material={SMALL}")).await;
    assert_eq!(e["least_memory_bytes"], e["memory_bytes"], "{e}");
    assert_eq!(tables(&dir), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The ticket a `POST /api/xiangqi/generate` answer gives.
fn ticket(answer: &Value) -> &str {
    answer["ticket"].as_str().unwrap_or_else(|| panic!("no ticket in {answer}"))
}

/// Two requests share a job; a job queued behind it is cancelled at once; the running one is
/// cancelled once both requests withdrew and it has finished some tables, which stay; a new
/// server over the same directory (a restart) generates only the rest.
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
    assert_ne!(ticket(&joined), ticket(&job), "each request its own ticket");
    let (status, queued) = call(&first, "POST", &format!("/api/xiangqi/generate?material={SMALL}")).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!((queued["state"].as_str(), queued["ahead"].as_u64()), (Some("queued"), Some(1)), "{queued}");
    let small = queued["job"].as_u64().unwrap();
    assert_ne!(small, id);
    let uri = format!("/api/xiangqi/jobs/{small}?ticket={}", ticket(&queued));
    let (status, cancelled) = call(&first, "DELETE", &uri).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!((cancelled["state"].as_str(), cancelled["others"].as_u64()), (Some("cancelled"), Some(0)));

    let seen = follow(&first, id, |j| j["materials_done"].as_u64() >= Some(1)).await;
    assert_eq!(seen.last().unwrap()["state"], "running", "{seen:?}");
    // The first request withdraws: the second still holds the job, which goes on.
    let (status, withdrawn) =
        call(&first, "DELETE", &format!("/api/xiangqi/jobs/{id}?ticket={}", ticket(&job))).await;
    assert_eq!(status, StatusCode::OK, "{withdrawn}");
    assert_eq!((withdrawn["state"].as_str(), withdrawn["others"].as_u64()), (Some("running"), Some(1)));
    let (status, stopped) =
        call(&first, "DELETE", &format!("/api/xiangqi/jobs/{id}?ticket={}", ticket(&joined))).await;
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

/// Issue 41: what one client can do to the jobs of others. A job is cancelled only with a
/// ticket of a request that asked for it (its number is no secret: the estimate names it),
/// and only once every such request withdrew; a job takes at most `MAX_HOLDERS` tickets;
/// at most `Jobs::MAX_QUEUED` jobs wait, then 503 with Retry-After.
#[tokio::test]
async fn a_client_cannot_cancel_another_clients_job_and_the_queue_is_bounded() {
    use endgame_server::generate::MAX_HOLDERS;
    use endgame_xiangqi::jobs::Jobs;
    use tower::ServiceExt;
    let dir = temp_dir("others");
    let state = state(&dir, Some(1 << 30));
    // Some seconds of work: running while the requests below are answered.
    let running = "KRPvKAB";
    let (status, job) = call(&state, "POST", &format!("/api/xiangqi/generate?material={running}")).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    let id = job["job"].as_u64().unwrap();
    let seen = follow(&state, id, |j| j["state"] == "running").await;
    assert_eq!(seen.last().unwrap()["state"], "running", "{seen:?}");
    let (_, e) = call(&state, "GET", &format!("/api/xiangqi/estimate?material={running}")).await;
    assert_eq!(e["job"].as_u64(), Some(id), "anyone may follow the job: {e}");

    // Without a ticket, with a made-up one, with another job's: 403, and the job goes on.
    let (status, refused) = call(&state, "DELETE", &format!("/api/xiangqi/jobs/{id}")).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{refused}");
    let message = refused["error"].as_str().unwrap();
    assert!(message.starts_with("no ticket given: "), "{message}");
    assert!(message.contains(&format!("DELETE /api/xiangqi/jobs/{id}?ticket=TICKET")), "{message}");
    let made_up = format!("/api/xiangqi/jobs/{id}?ticket=00000000000000000000000000000000");
    let (status, refused) = call(&state, "DELETE", &made_up).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{refused}");
    assert!(refused["error"].as_str().unwrap().starts_with("not a ticket of this job"), "{refused}");
    // Another client joins (its own ticket) and withdraws: the first request still holds it.
    let (_, other) = call(&state, "POST", &format!("/api/xiangqi/generate?material={running}")).await;
    assert_eq!(other["job"].as_u64(), Some(id));
    let (status, withdrawn) =
        call(&state, "DELETE", &format!("/api/xiangqi/jobs/{id}?ticket={}", ticket(&other))).await;
    assert_eq!(status, StatusCode::OK, "{withdrawn}");
    assert_eq!((withdrawn["state"].as_str(), withdrawn["others"].as_u64()), (Some("running"), Some(1)));
    // Its ticket is spent.
    let again = format!("/api/xiangqi/jobs/{id}?ticket={}", ticket(&other));
    assert_eq!(call(&state, "DELETE", &again).await.0, StatusCode::FORBIDDEN);

    // At most MAX_HOLDERS tickets: later requests join without one.
    let mut tickets = vec![ticket(&job).to_string()];
    for _ in 1..MAX_HOLDERS {
        let (_, joined) = call(&state, "POST", &format!("/api/xiangqi/generate?material={running}")).await;
        tickets.push(ticket(&joined).to_string());
    }
    let (status, joined) = call(&state, "POST", &format!("/api/xiangqi/generate?material={running}")).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{joined}");
    assert_eq!((joined["job"].as_u64(), &joined["ticket"]), (Some(id), &Value::Null), "{joined}");

    // The queue: MAX_QUEUED jobs wait, one more is refused.
    // Materials of 5 men (those of up to 4 are solved in memory: nothing to generate), none
    // among those the running job generates.
    let small = [
        "KNvKAA", "KNvKAB", "KNvKBB", "KCvKAA", "KCvKAB", "KCvKBB", "KNNvKA", "KCCvKA", "KNCvKA", "KNvKNA",
        "KNvKNB", "KCvKCA", "KCvKCB", "KNvKCA", "KNvKCB", "KCvKNA", "KCvKNB",
    ];
    assert_eq!(small.len(), Jobs::MAX_QUEUED + 1);
    let mut queued = Vec::new();
    for (i, m) in small[..Jobs::MAX_QUEUED].iter().enumerate() {
        let (status, job) = call(&state, "POST", &format!("/api/xiangqi/generate?material={m}")).await;
        assert_eq!((status, job["state"].as_str()), (StatusCode::ACCEPTED, Some("queued")), "{m}: {job}");
        assert_eq!(job["ahead"].as_u64(), Some(i as u64 + 1), "{m}: {job}");
        queued.push((job["job"].as_u64().unwrap(), ticket(&job).to_string()));
    }
    let last = small[Jobs::MAX_QUEUED];
    let request = axum::http::Request::builder()
        .method("POST")
        .uri(format!("/api/xiangqi/generate?material={last}"))
        .body(Body::empty())
        .unwrap();
    let response = endgame_server::router(Arc::clone(&state)).oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(response.headers()["retry-after"], "10");
    let (_, refused) =
        common::request(&state, "POST", &format!("/api/xiangqi/generate?material={last}"), Body::empty())
            .await;
    assert_eq!(
        refused["error"],
        format!("{} generations are waiting already; try again when one is done", Jobs::MAX_QUEUED)
    );

    // Each request withdrawn: every job cancelled.
    for (job, ticket) in queued {
        let (status, cancelled) =
            call(&state, "DELETE", &format!("/api/xiangqi/jobs/{job}?ticket={ticket}")).await;
        assert_eq!((status, cancelled["state"].as_str()), (StatusCode::OK, Some("cancelled")), "{cancelled}");
    }
    let last_ticket = tickets.pop().unwrap();
    for t in tickets {
        let (_, withdrawn) = call(&state, "DELETE", &format!("/api/xiangqi/jobs/{id}?ticket={t}")).await;
        assert_ne!(withdrawn["state"], "cancelled", "others hold it: {withdrawn}");
    }
    let (status, stopped) =
        call(&state, "DELETE", &format!("/api/xiangqi/jobs/{id}?ticket={last_ticket}")).await;
    assert_eq!(status, StatusCode::OK, "{stopped}");
    let seen = follow(&state, id, |_| false).await;
    assert_eq!(seen.last().unwrap()["state"], "cancelled", "{:?}", seen.last());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A tmpfs of `size` mounted on `dir` while it lives (`None` when mounting is not allowed:
/// not root, or no mount namespace of one's own).
struct Tmpfs(std::path::PathBuf);

impl Tmpfs {
    fn mount(dir: &Path, size: &str) -> Option<Tmpfs> {
        let ok = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then(|| Tmpfs(dir.to_path_buf()))
    }

    fn resize(&self, size: &str) {
        let status = std::process::Command::new("mount")
            .args(["-o", &format!("remount,size={size}")])
            .arg(&self.0)
            .status()
            .unwrap();
        assert!(status.success(), "remounting {} with size={size}", self.0.display());
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

/// Issue 41: the disk fills during a generation. The job fails with the system's message naming
/// the file (relative to the table directory); no temporary or half-written table is left; the
/// tables finished stay and answer; the server keeps answering; with room again, a new request
/// generates only the rest. On a tmpfs of 256 KiB (the tables take about 560 KB); skipped where
/// the test may not mount one.
#[tokio::test]
async fn a_full_disk_fails_the_job_only_and_leaves_whole_tables() {
    let dir = temp_dir("disk-full");
    let Some(tmpfs) = Tmpfs::mount(&dir, "256k") else {
        println!(
            "SKIPPED a_full_disk_fails_the_job_only_and_leaves_whole_tables: mounting a tmpfs needs root"
        );
        return;
    };
    let state = state(&dir, Some(1 << 30));
    let (status, job) = call(&state, "POST", &format!("/api/xiangqi/generate?material={LARGER}")).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{job}");
    let seen = follow(&state, job["job"].as_u64().unwrap(), |_| false).await;
    let last = seen.last().unwrap();
    assert_eq!(last["state"], "failed", "{last}");
    let error = last["error"].as_str().unwrap();
    assert!(error.contains("No space left on device"), "{error}");
    assert!(error.starts_with(&format!("xiangqi{}standard", std::path::MAIN_SEPARATOR)), "{error}");
    assert!(!error.contains(&*dir.to_string_lossy()), "{error}");

    // Whole tables only: no temporary file, and each table there reads whole.
    let tables = Tablebases::open(&dir, Rules::Standard);
    let names: Vec<String> = std::fs::read_dir(tables.dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.iter().any(|n| n.ends_with(".tmp")), "{names:?}");
    let kept: Vec<Material> = names.iter().filter_map(|n| n.strip_suffix(".wdl")?.parse().ok()).collect();
    assert!((1..18).contains(&kept.len()), "{names:?}");
    for &m in &kept {
        tables.read_solution(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    // The server answers meanwhile: the tables kept, and the rest of the API.
    let fen = "3k5/4a4/9/9/9/9/9/9/4R4/4K4%20w";
    assert!(kept.contains(&material("KRvKA")), "{names:?}");
    let (status, answer) = call(&state, "GET", &format!("/api/xiangqi?fen={fen}")).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(call(&state, "GET", "/api/examples").await.0, StatusCode::OK);

    // Room again: the next request generates only what is missing.
    tmpfs.resize("4m");
    let (status, resumed) = call(&state, "POST", &format!("/api/xiangqi/generate?material={LARGER}")).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{resumed}");
    assert_eq!(resumed["materials_total"].as_u64(), Some(18 - kept.len() as u64), "{resumed}");
    let seen = follow(&state, resumed["job"].as_u64().unwrap(), |_| false).await;
    assert_eq!(seen.last().unwrap()["state"], "done", "{:?}", seen.last());
    assert_eq!(self::tables(&dir), 18);
    drop(tmpfs);
    std::fs::remove_dir_all(&dir).unwrap();
}
