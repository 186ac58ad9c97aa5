//! What the server's test binaries share: a server on a free loopback port, requests to the
//! router in-process, table directories, and the example inputs of the games.

// Each test binary uses a part of it.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use endgame_server::{Access, AppState, Limits, router};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

/// The judge's sample Twixt record: Black wins by connection on move 11.
pub const JUDGE: &str = "7 11\n0 3 6 5 3 2 5 7 7 2 4 4\n5 3 5 2 4 5 4 0 2 4\n";
/// A T1 Twixt record.
pub const T1: &str = include_str!("../../../twixt/tests/data/sample.T1");
/// A Cheesy Chess board.
pub const CHEESY: &str = include_str!("../../../cheesy/examples/sample2.txt");
/// A Marine battle (a win in 34 rounds).
pub const MARINE: &str = include_str!("../../../marine/examples/corner.txt");

/// A server on a free port of 127.0.0.1, on a thread of its own; its address.
pub fn start(limits: Limits, access: Access) -> SocketAddr {
    endgame_server::spawn("127.0.0.1:0".parse().unwrap(), AppState::with_access(limits, access)).unwrap()
}

/// A table directory with no tables, which no test writes to (materials of up to 4 men are
/// solved in memory): `endgame-server-{name}-{pid}` under the temporary directory.
pub fn empty_dir(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("endgame-server-{name}-{}", std::process::id()))
}

/// A new, empty table directory for a test that writes tables (removed first if a run left
/// it behind): `endgame-server-{name}-{pid}` under the temporary directory.
pub fn fresh_dir(name: &str) -> PathBuf {
    let dir = empty_dir(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `method uri` with `body` through the router of `state`, in-process: the status and the
/// answer, which must be JSON.
pub async fn request(
    state: &Arc<AppState>,
    method: &str,
    uri: &str,
    body: impl Into<Body>,
) -> (StatusCode, Value) {
    let request = Request::builder().method(method).uri(uri).body(body.into()).unwrap();
    let response = router(Arc::clone(state)).oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let json = serde_json::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("{uri}: not JSON ({e}): {}", String::from_utf8_lossy(&bytes)));
    (status, json)
}

/// The message of an error answer.
pub fn error(json: &Value) -> &str {
    json["error"].as_str().unwrap_or_else(|| panic!("no error message in {json}"))
}

/// The names of a list of Twixt points in an answer (`threats.winning_now`, say).
pub fn point_names(points: &Value) -> Vec<&str> {
    points.as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect()
}
