//! The page: one HTML file, a style sheet and JavaScript modules, embedded in the binary.
//! `/`, `/xiangqi`, `/twixt`, `/cheesy` and `/marine` all serve the app, which opens the tab
//! the path names (`/?fen=FEN` opens the Xiangqi explorer).

use std::sync::Arc;

use axum::Router;
use axum::extract::Path;
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;

use crate::{ApiError, AppState};

const INDEX: &str = include_str!("../assets/index.html");

/// The embedded assets: name, content type, text.
const ASSETS: &[(&str, &str, &str)] = &[
    ("style.css", "text/css; charset=utf-8", include_str!("../assets/style.css")),
    ("app.js", "text/javascript; charset=utf-8", include_str!("../assets/app.js")),
    ("xiangqi.js", "text/javascript; charset=utf-8", include_str!("../assets/xiangqi.js")),
    ("twixt.js", "text/javascript; charset=utf-8", include_str!("../assets/twixt.js")),
    ("cheesy.js", "text/javascript; charset=utf-8", include_str!("../assets/cheesy.js")),
    ("marine.js", "text/javascript; charset=utf-8", include_str!("../assets/marine.js")),
];

/// The page routes.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/", get(index))
        .route("/xiangqi", get(index))
        .route("/twixt", get(index))
        .route("/cheesy", get(index))
        .route("/marine", get(index))
        .route("/assets/{name}", get(asset))
}

async fn index() -> Html<&'static str> {
    Html(INDEX)
}

async fn asset(Path(name): Path<String>) -> Response {
    match ASSETS.iter().find(|(n, _, _)| *n == name) {
        Some((_, kind, text)) => {
            ([(header::CONTENT_TYPE, *kind), (header::CACHE_CONTROL, "no-cache")], *text).into_response()
        }
        None => ApiError::not_found(format!("no such asset: {name}")).into_response(),
    }
}
