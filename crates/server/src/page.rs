//! The page: one HTML file, a style sheet and JavaScript modules (plain ES modules, no build
//! step), embedded in the binary. `/`, `/xiangqi`, `/review`, `/twixt`, `/cheesy` and `/marine` all serve
//! the app, which opens the tab the path names (`/?fen=FEN` opens the Xiangqi explorer).
//!
//! The modules: `app.js` (tabs, browser history, keyboard, language switch), `ui.js` (shared
//! helpers), `units.js` (sizes, counts and times as every interface writes them, the same as
//! `endgame_core::units`), `i18n.js` (every string in English and Chinese), one module per game, and for
//! Xiangqi `xiangqi-examples.js` (the examples menu), `xiangqi-board.js` (the SVG board), `xiangqi-notation.js` (FEN, Chinese notation,
//! WXF export), `generate.js` (generation on demand, when a material has no tables),
//! `review.js` and `review-i18n.js` (a game record reviewed against the tables) and
//! `glyphs.js` (the piece characters as SVG paths). `chinese.otf` is the font of the Chinese
//! interface text (a subset of Noto Sans CJK SC, `scripts/page-font.py`). Both are under the
//! SIL Open Font License in `OFL.txt`, so that the page reads on machines without Chinese fonts.

use std::sync::Arc;

use axum::Router;
use axum::extract::Path;
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;

use crate::{ApiError, AppState};

const INDEX: &str = include_str!("../assets/index.html");

/// The embedded assets: name, content type, bytes.
const ASSETS: &[(&str, &str, &[u8])] = &[
    ("style.css", CSS, include_bytes!("../assets/style.css")),
    ("app.js", JS, include_bytes!("../assets/app.js")),
    ("ui.js", JS, include_bytes!("../assets/ui.js")),
    ("units.js", JS, include_bytes!("../assets/units.js")),
    ("i18n.js", JS, include_bytes!("../assets/i18n.js")),
    ("xiangqi.js", JS, include_bytes!("../assets/xiangqi.js")),
    ("xiangqi-examples.js", JS, include_bytes!("../assets/xiangqi-examples.js")),
    ("xiangqi-board.js", JS, include_bytes!("../assets/xiangqi-board.js")),
    ("xiangqi-notation.js", JS, include_bytes!("../assets/xiangqi-notation.js")),
    ("glyphs.js", JS, include_bytes!("../assets/glyphs.js")),
    ("generate.js", JS, include_bytes!("../assets/generate.js")),
    ("review.js", JS, include_bytes!("../assets/review.js")),
    ("review-i18n.js", JS, include_bytes!("../assets/review-i18n.js")),
    ("twixt.js", JS, include_bytes!("../assets/twixt.js")),
    ("cheesy.js", JS, include_bytes!("../assets/cheesy.js")),
    ("marine.js", JS, include_bytes!("../assets/marine.js")),
    ("favicon.svg", SVG, include_bytes!("../assets/favicon.svg")),
    ("OFL.txt", TEXT, include_bytes!("../assets/OFL.txt")),
    ("chinese.otf", OTF, include_bytes!("../assets/chinese.otf")),
];
const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const SVG: &str = "image/svg+xml";
const TEXT: &str = "text/plain; charset=utf-8";
const OTF: &str = "font/otf";

/// The page routes.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/", get(index))
        .route("/xiangqi", get(index))
        .route("/review", get(index))
        .route("/twixt", get(index))
        .route("/cheesy", get(index))
        .route("/marine", get(index))
        .route("/assets/{name}", get(asset))
        .route("/favicon.ico", get(favicon))
}

/// Browsers ask for `/favicon.ico` before reading the page's icon link: the same SVG icon.
async fn favicon() -> Response {
    asset(Path("favicon.svg".to_string())).await
}

async fn index() -> Html<&'static str> {
    Html(INDEX)
}

async fn asset(Path(name): Path<String>) -> Response {
    match ASSETS.iter().find(|(n, _, _)| *n == name) {
        Some((_, kind, bytes)) => {
            ([(header::CONTENT_TYPE, *kind), (header::CACHE_CONTROL, "no-cache")], *bytes).into_response()
        }
        None => ApiError::not_found(format!("no such asset: {name}")).into_response(),
    }
}
