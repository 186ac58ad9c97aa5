//! Who may use the server from a browser, and errors that are always JSON.
//!
//! A web page on any site can make the visitor's browser send requests to a server on their
//! machine or LAN: a `text/plain` POST goes without a preflight, and a page whose name the
//! attacker points at the server's address (DNS rebinding) can even read the answers. So:
//!
//! - **Host**: a request's `Host` must be an IP address (any: a page cannot rebind an address),
//!   `localhost` (or a name under `.localhost`), or a name the user allowed with
//!   `--allow-host` ([`Access::allow`]); else 403. A request without `Host` (not from a
//!   browser; HTTP/1.0) is let through.
//! - **Origin**: a request that can change or cost something (any method but GET, HEAD and
//!   OPTIONS) from a browser must come from the server's own page: its `Origin` must name the
//!   same host and port as its `Host`; `Origin: null` and `Sec-Fetch-Site: cross-site` or
//!   `same-site` are refused with 403. Tools that send no `Origin` (curl, scripts) are let
//!   through: they are not a browser driven by someone else's page.
//!
//! [`json_errors`] gives every error answer of the application a JSON body (`{"error": ...}`),
//! whatever produced it (an extractor's rejection, a fallback); the connection layer does the
//! same for hyper's own answers ([`crate::conn`]). [`errors_as_ok`] answers them with status
//! 200 to the clients that ask for it (the page: a browser logs every 4xx as a network error).

use std::net::IpAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::{ApiError, AppState};

/// The host names the server answers to besides IP addresses and `localhost`.
#[derive(Clone, Debug, Default)]
pub struct Access {
    allowed: Vec<String>,
}

/// A host name as compared: lower case, without a trailing dot, and without the port.
fn host_name(authority: &str) -> String {
    let authority = authority.trim();
    let name = if let Some(rest) = authority.strip_prefix('[') {
        // `[v6]:port`: the brackets stay, so that an address stays recognisable.
        rest.split_once(']').map_or(authority, |(inside, _)| &authority[..inside.len() + 2])
    } else {
        match authority.rsplit_once(':') {
            Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
            _ => authority,
        }
    };
    name.trim_end_matches('.').to_ascii_lowercase()
}

impl Access {
    /// Only addresses and `localhost`.
    #[must_use]
    pub fn new() -> Self {
        Access::default()
    }

    /// Also answers to `name` (a host name, with or without a port; the port is not checked).
    #[must_use]
    pub fn allow(mut self, name: &str) -> Self {
        self.allowed.push(host_name(name));
        self
    }

    /// Whether a `Host` (or the authority of an `Origin`) names this server.
    #[must_use]
    pub fn host_allowed(&self, authority: &str) -> bool {
        let name = host_name(authority);
        let bare = name.trim_start_matches('[').trim_end_matches(']');
        !name.is_empty()
            && (bare.parse::<IpAddr>().is_ok()
                || name == "localhost"
                || name.ends_with(".localhost")
                || self.allowed.contains(&name))
    }

    /// Whether a request may go on; else 403 naming the reason.
    ///
    /// # Errors
    /// A `Host` this server does not answer to; a cross-origin write.
    pub fn check(&self, method: &Method, headers: &HeaderMap) -> Result<(), ApiError> {
        let text = |name: header::HeaderName| {
            headers.get(name).map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        };
        let host = text(header::HOST);
        if let Some(host) = &host
            && !self.host_allowed(host)
        {
            let name = host_name(host);
            return Err(forbidden(format!(
                "Host {host:?} is not an address of this server; start it with --allow-host {name} to answer to that name"
            )));
        }
        if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
            return Ok(());
        }
        if let Some(origin) = text(header::ORIGIN) {
            let authority = origin.split_once("://").map(|(_, a)| a.trim_end_matches('/'));
            let same = match (authority, &host) {
                (Some(a), Some(host)) => a.eq_ignore_ascii_case(host.trim()),
                (Some(a), None) => self.host_allowed(a),
                (None, _) => false,
            };
            if !same {
                return Err(forbidden(format!(
                    "{method} from the page of another site (Origin {origin:?}) refused: only this server's own page may send it"
                )));
            }
        } else if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok())
            && (site.eq_ignore_ascii_case("cross-site") || site.eq_ignore_ascii_case("same-site"))
        {
            return Err(forbidden(format!(
                "{method} from the page of another site (Sec-Fetch-Site: {site}) refused: only this server's own page may send it"
            )));
        }
        Ok(())
    }
}

fn forbidden(message: String) -> ApiError {
    ApiError { status: StatusCode::FORBIDDEN, message }
}

/// The middleware of [`Access::check`].
pub async fn check_access(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    match state.access.check(request.method(), request.headers()) {
        Ok(()) => next.run(request).await,
        Err(e) => e.into_response(),
    }
}

/// The most of a non-JSON error body kept as the message.
const MAX_MESSAGE: usize = 4 << 10;

/// Gives an error answer that is not JSON a JSON body: `{"error": its text}` (or the status's
/// reason when it has none), keeping its status and other headers.
pub async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let bytes = axum::body::to_bytes(body, MAX_MESSAGE).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    let message = match text.trim() {
        "" => status.canonical_reason().unwrap_or("error").to_string(),
        text => text.to_string(),
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(header::CONTENT_TYPE, header::HeaderValue::from_static("application/json"));
    let body = serde_json::json!({ "error": message }).to_string();
    Response::from_parts(parts, Body::from(body))
}

/// The request header with which a client asks for error answers with status 200 OK
/// (`X-Endgame-Errors: ok`): the page sends it, so that the browser's console shows no failed
/// request for what the page expects and explains (a position without tables, a bad FEN).
pub const ERRORS_AS_OK: &str = "x-endgame-errors";

/// The response header that then carries the error's status (`X-Endgame-Status: 404`).
pub const ERROR_STATUS: &str = "x-endgame-status";

/// Answers an error with status 200 and its own status in [`ERROR_STATUS`] when the request
/// asked for it with [`ERRORS_AS_OK`]; the body (`{"error": ...}` and any other field) stays.
/// Other clients get the statuses the API documents.
pub async fn errors_as_ok(request: Request, next: Next) -> Response {
    let asked = request.headers().get(ERRORS_AS_OK).is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"ok"));
    let mut response = next.run(request).await;
    let status = response.status();
    if asked && (status.is_client_error() || status.is_server_error()) {
        let headers = response.headers_mut();
        headers.insert(ERROR_STATUS, header::HeaderValue::from(status.as_u16()));
        headers.append(header::VARY, header::HeaderValue::from_static(ERRORS_AS_OK));
        *response.status_mut() = StatusCode::OK;
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts() {
        let access = Access::new().allow("chess.club.lan:8000").allow("Board.");
        for ok in [
            "127.0.0.1:8000",
            "127.0.0.1",
            "192.168.1.20:80",
            "[::1]:8000",
            "[::1]",
            "localhost:8000",
            "LOCALHOST",
            "app.localhost",
            "chess.club.lan",
            "chess.club.lan:9000",
            "board:8000",
        ] {
            assert!(access.host_allowed(ok), "{ok}");
        }
        for refused in
            ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "localhost.evil", "", ":80"]
        {
            assert!(!access.host_allowed(refused), "{refused:?}");
        }
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, value.parse().unwrap());
        }
        map
    }

    #[test]
    fn writes_from_another_site_are_refused() {
        let access = Access::new();
        let post = Method::POST;
        // Curl and scripts: no Origin.
        assert!(access.check(&post, &headers(&[("host", "127.0.0.1:8000")])).is_ok());
        // The server's own page.
        let own = [("host", "127.0.0.1:8000"), ("origin", "http://127.0.0.1:8000")];
        assert!(access.check(&post, &headers(&own)).is_ok());
        let same = [("host", "127.0.0.1:8000"), ("sec-fetch-site", "same-origin")];
        assert!(access.check(&post, &headers(&same)).is_ok());
        for bad in [
            vec![("host", "127.0.0.1:8000"), ("origin", "http://evil.example")],
            vec![("host", "127.0.0.1:8000"), ("origin", "http://127.0.0.1:9000")],
            vec![("host", "127.0.0.1:8000"), ("origin", "null")],
            vec![("host", "127.0.0.1:8000"), ("sec-fetch-site", "cross-site")],
            vec![("host", "evil.example:8000"), ("origin", "http://evil.example:8000")],
        ] {
            let e = access.check(&post, &headers(&bad)).unwrap_err();
            assert_eq!(e.status, StatusCode::FORBIDDEN, "{bad:?}");
        }
        // Reads from another site's page are harmless (the browser hides the answer).
        let read = [("host", "127.0.0.1:8000"), ("origin", "http://evil.example")];
        assert!(access.check(&Method::GET, &headers(&read)).is_ok());
        // But not under another name (DNS rebinding).
        let e = access.check(&Method::GET, &headers(&[("host", "evil.example:8000")])).unwrap_err();
        assert!(e.message.contains("--allow-host evil.example"), "{}", e.message);
    }
}
