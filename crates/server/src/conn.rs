//! Connections: the accept loop, the connection cap, and the time limits of HTTP/1.1.
//!
//! A client that opens connections and sends nothing (or one byte a second) must not lock
//! everyone else out, so:
//!
//! - **a cap** on open connections ([`Limits::max_connections`], lowered to fit the process's
//!   descriptor limit: [`crate::descriptors::Budget`]). A connection that arrives when the cap
//!   is reached takes the place of an idle one (not in a request), which is closed: first of
//!   those that never sent a whole request (slow or silent clients), then of those between
//!   keep-alive requests, the one idle longest first; but a connection idle for less than
//!   [`GRACE`] is never pushed out (it may be about to send its request), so when every
//!   connection is in a request or that young, the newcomer gets 503 at once. Slow clients
//!   therefore only push each other out, and a burst of them does not close the connections of
//!   clients that use theirs.
//! - **a head time limit** ([`Limits::header_time`]): a connection that has not sent a whole
//!   request head within that time of opening, or of its last answer, is closed (hyper's
//!   header read timeout, which also bounds idle keep-alive connections);
//! - **a write time limit** ([`Limits::write_time`]): an answer the client does not read
//!   within that time (no progress writing) closes the connection;
//! - the body's time limit is the handlers' ([`crate::api`] reads bodies under
//!   [`Limits::body_time`]);
//! - **a head size limit** ([`MAX_HEAD`], 8 KiB: the page's requests take about 1 KiB): a
//!   longer request head gets 431, or 414 when its request line alone is that long;
//! - **accept errors** (descriptors exhausted) pause the loop briefly; they never end it.
//!
//! hyper answers a request it cannot parse (400, 414, 431) itself, with an empty body; the
//! stream wrapper (`Guarded`) replaces those answers by JSON ones, so that every error the
//! server gives has `{"error": ...}`.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, ready};
use std::time::{Duration, Instant};

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, watch};
use tokio::time::Sleep;

use crate::Limits;
use crate::descriptors::Budget;

/// The largest request head (request line and headers) the server reads: 8 KiB. A longer one
/// gets 431 (414 when its request line alone is that long). The page's requests take about
/// 1 KiB, so a browser's cookies for the host may take most of the rest.
pub const MAX_HEAD: usize = 8 << 10;

/// The most hyper keeps in its read buffer (a body is read through it in parts).
const READ_BUFFER: usize = 64 << 10;

/// A connection idle for less than this is not closed to make room for a new one.
pub const GRACE: Duration = Duration::from_millis(20);

/// How long a refused connection is read from after its answer, at most.
const DRAIN: Duration = Duration::from_secs(1);

/// How long the loop pauses after an accept error (descriptors exhausted).
const ACCEPT_PAUSE: Duration = Duration::from_millis(20);

/// One open connection, as the registry sees it.
#[derive(Debug)]
struct Conn {
    /// Requests being answered on it now.
    in_flight: AtomicUsize,
    /// Whether it has sent a whole request head.
    served: AtomicBool,
    /// When it last started or finished a request (or opened), in milliseconds since the
    /// registry started.
    active_at: AtomicU64,
    /// Told when the connection must close (pushed out, or the server stops).
    close: Notify,
}

/// The open connections.
#[derive(Debug)]
struct Registry {
    started: Instant,
    cap: usize,
    next: AtomicU64,
    open: Mutex<HashMap<u64, Arc<Conn>>>,
    /// 503 answers to refused connections being written now, and the most at once (beyond,
    /// a refused connection is closed without an answer).
    refusing: AtomicUsize,
    max_refusing: usize,
}

impl Registry {
    fn now(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// Admits a new connection: under the cap, or in place of an idle one (see the module's
    /// docs). `None` when every connection is in a request or idle for less than [`GRACE`].
    fn admit(&self) -> Option<(u64, Arc<Conn>)> {
        let now = self.now();
        let conn = Arc::new(Conn {
            in_flight: AtomicUsize::new(0),
            served: AtomicBool::new(false),
            active_at: AtomicU64::new(now),
            close: Notify::new(),
        });
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if open.len() >= self.cap {
            let young = now.saturating_sub(GRACE.as_millis() as u64);
            let victim = open
                .iter()
                .filter(|(_, c)| c.in_flight.load(Ordering::Relaxed) == 0)
                .map(|(&id, c)| (c.served.load(Ordering::Relaxed), c.active_at.load(Ordering::Relaxed), id))
                .filter(|&(_, at, _)| at < young)
                .min()
                .map(|(_, _, id)| id)?;
            if let Some(old) = open.remove(&victim) {
                old.close.notify_one();
            }
        }
        open.insert(id, Arc::clone(&conn));
        Some((id, conn))
    }

    fn remove(&self, id: u64) {
        self.open.lock().unwrap_or_else(PoisonError::into_inner).remove(&id);
    }

    fn len(&self) -> usize {
        self.open.lock().unwrap_or_else(PoisonError::into_inner).len()
    }
}

/// Counts a request in flight on a connection while it lives.
struct InFlight {
    conn: Arc<Conn>,
    registry: Arc<Registry>,
}

impl InFlight {
    fn new(conn: &Arc<Conn>, registry: &Arc<Registry>) -> Self {
        conn.in_flight.fetch_add(1, Ordering::Relaxed);
        conn.served.store(true, Ordering::Relaxed);
        conn.active_at.store(registry.now(), Ordering::Relaxed);
        InFlight { conn: Arc::clone(conn), registry: Arc::clone(registry) }
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.conn.active_at.store(self.registry.now(), Ordering::Relaxed);
        self.conn.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Serves `app` on `listener` until `shutdown` completes; then closes idle connections, lets
/// requests in flight finish (for at most `drain`), and returns.
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    limits: &Limits,
    shutdown: impl Future<Output = ()> + Send,
    drain: Duration,
) -> io::Result<()> {
    let budget = Budget::current(limits.max_connections);
    let registry = Arc::new(Registry {
        started: Instant::now(),
        cap: budget.connections,
        next: AtomicU64::new(0),
        open: Mutex::new(HashMap::new()),
        refusing: AtomicUsize::new(0),
        max_refusing: budget.refusing,
    });
    let (stopping, stop) = watch::channel(false);
    let mut tasks = tokio::task::JoinSet::new();
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_time)
        .keep_alive(true)
        .max_header_size(MAX_HEAD)
        .max_buf_size(READ_BUFFER);
    let builder = Arc::new(builder);
    tokio::pin!(shutdown);
    loop {
        let (stream, _peer) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(_) => {
                    // Out of descriptors (EMFILE, ENFILE), or a connection reset before it was
                    // accepted: wait a little, never stop serving.
                    tokio::time::sleep(ACCEPT_PAUSE).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        // Reap finished connection tasks as we go.
        while tasks.try_join_next().is_some() {}
        let Some((id, conn)) = registry.admit() else {
            refuse(stream, &registry, limits.write_time);
            continue;
        };
        let registry = Arc::clone(&registry);
        let app = app.clone();
        let builder = Arc::clone(&builder);
        let mut stop = stop.clone();
        let write_time = limits.write_time;
        tasks.spawn(async move {
            let service = {
                let (conn, registry) = (Arc::clone(&conn), Arc::clone(&registry));
                let app = TowerToHyperService::new(app);
                hyper::service::service_fn(move |request| {
                    let in_flight = InFlight::new(&conn, &registry);
                    let answer = hyper::service::Service::call(&app, request);
                    async move {
                        let answer = answer.await;
                        drop(in_flight);
                        answer
                    }
                })
            };
            let io = TokioIo::new(Guarded::new(stream, write_time));
            let connection = builder.serve_connection(io, service);
            tokio::pin!(connection);
            let closing = tokio::select! {
                _ = connection.as_mut() => None,
                () = conn.close.notified() => Some(Duration::from_secs(1)),
                _ = stop.wait_for(|&s| s) => Some(drain),
            };
            if let Some(within) = closing {
                // Idle: closed at once; in a request: that request is answered first.
                connection.as_mut().graceful_shutdown();
                let _ = tokio::time::timeout(within, connection).await;
            }
            registry.remove(id);
        });
    }
    let _ = stopping.send(true);
    let _ = tokio::time::timeout(drain + Duration::from_secs(1), async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
    Ok(())
}

/// Answers a connection over the cap with 503 (when not too many such answers are being
/// written already) and closes it.
fn refuse(mut stream: TcpStream, registry: &Arc<Registry>, write_time: Duration) {
    if registry.refusing.fetch_add(1, Ordering::Relaxed) >= registry.max_refusing {
        registry.refusing.fetch_sub(1, Ordering::Relaxed);
        return;
    }
    let registry = Arc::clone(registry);
    let message = format!(
        "the server has {} connections open, each in a request or just opened; try again in a moment",
        registry.len()
    );
    tokio::spawn(async move {
        let answer = json_answer(503, "Service Unavailable", &message, &["retry-after: 1"]);
        let written = tokio::time::timeout(write_time, async {
            stream.write_all(&answer).await?;
            stream.shutdown().await
        })
        .await;
        if let Ok(Ok(())) = written {
            // Read what the client sent until it closes (for a moment), so that closing with
            // unread data does not reset the connection before the client reads the answer.
            let _ = tokio::time::timeout(DRAIN, async {
                let mut sink = [0; 4096];
                while stream.read(&mut sink).await? > 0 {}
                io::Result::Ok(())
            })
            .await;
        }
        registry.refusing.fetch_sub(1, Ordering::Relaxed);
    });
}

/// A whole HTTP/1.1 answer with a JSON error body, closing the connection.
fn json_answer(status: u16, reason: &str, message: &str, headers: &[&str]) -> Vec<u8> {
    let body = serde_json::json!({ "error": message }).to_string();
    let mut head = format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n",
        body.len()
    );
    for h in headers {
        head.push_str(h);
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body.as_bytes());
    bytes
}

/// hyper's own answer to a request it could not parse (an empty body): its replacement.
/// `in_request_line`: whether the line read last looks like a request line (a head too long
/// while its request line is read is a path too long: 414, not 431).
fn replacement(buf: &[u8], in_request_line: bool) -> Option<Vec<u8>> {
    let kib = MAX_HEAD >> 10;
    let (status, reason, message) = if buf.starts_with(b"HTTP/1.1 400 ") {
        (
            400,
            "Bad Request",
            "the request is not valid HTTP/1.1 (its request line or a header could not be read)".to_string(),
        )
    } else if buf.starts_with(b"HTTP/1.1 414 ") || (buf.starts_with(b"HTTP/1.1 431 ") && in_request_line) {
        (
            414,
            "URI Too Long",
            format!("the request's path and query are longer than the server reads ({kib} KiB)"),
        )
    } else if buf.starts_with(b"HTTP/1.1 431 ") {
        (
            431,
            "Request Header Fields Too Large",
            format!(
                "the request's head (its request line and headers, cookies included) is longer than the server reads ({kib} KiB)"
            ),
        )
    } else {
        return None;
    };
    // The whole head, with no body: the server's own answers always have one.
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")?;
    if end + 4 != buf.len() {
        return None;
    }
    let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
    head.lines().any(|l| l.trim() == "content-length: 0").then(|| json_answer(status, reason, &message, &[]))
}

/// What the line read last looks like, from its first space or colon.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Line {
    /// Neither seen yet.
    Unknown,
    /// A space first: `METHOD SP TARGET ...`.
    Request,
    /// A colon first: `Name: value`.
    Header,
}

impl Line {
    /// The kind of the line read so far (`self`) once `bytes` more of it are read.
    fn extended(self, bytes: &[u8]) -> Line {
        if self != Line::Unknown {
            return self;
        }
        match bytes.iter().find(|&&b| b == b' ' || b == b':') {
            Some(b' ') => Line::Request,
            Some(_) => Line::Header,
            None => Line::Unknown,
        }
    }

    /// The kind of the line being read after `bytes` (a read) are read.
    fn after(self, bytes: &[u8]) -> Line {
        match bytes.iter().rposition(|&b| b == b'\n') {
            Some(end) => Line::Unknown.extended(&bytes[end + 1..]),
            None => self.extended(bytes),
        }
    }
}

/// A connection's stream: JSON for hyper's own error answers, and a time limit on writes that
/// make no progress.
struct Guarded {
    inner: TcpStream,
    write_time: Duration,
    /// Running while a write waits for the client to read.
    stalled: Option<Pin<Box<Sleep>>>,
    /// A replacement answer still to write, and how much of it is written.
    pending: Vec<u8>,
    written: usize,
    /// The line being read (a 431 while a request line is read is a 414).
    line: Line,
}

impl Guarded {
    fn new(inner: TcpStream, write_time: Duration) -> Self {
        Guarded { inner, write_time, stalled: None, pending: Vec::new(), written: 0, line: Line::Unknown }
    }

    /// `Pending` while a write makes no progress; an error once that lasts `write_time`.
    fn stall(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        let limit = self.write_time;
        let timer = self.stalled.get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client read nothing of the answer in time",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn write_inner(&mut self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        match Pin::new(&mut self.inner).poll_write(cx, buf) {
            Poll::Pending => self.stall(cx),
            Poll::Ready(result) => {
                self.stalled = None;
                Poll::Ready(result)
            }
        }
    }

    /// Writes what is left of a replacement answer.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.pending.len() {
            let pending = std::mem::take(&mut self.pending);
            let result = self.write_inner(cx, &pending[self.written..]);
            self.pending = pending;
            match ready!(result)? {
                0 => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                n => self.written += n,
            }
        }
        Poll::Ready(Ok(()))
    }
}

impl AsyncRead for Guarded {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let read = Pin::new(&mut this.inner).poll_read(cx, buf);
        this.line = this.line.after(&buf.filled()[before..]);
        read
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.poll_pending(cx))?;
        if let Some(answer) = replacement(buf, this.line == Line::Request) {
            // Taken whole; written by this call or the flush that follows.
            this.pending = answer;
            this.written = 0;
            if let Poll::Ready(Err(e)) = this.poll_pending(cx) {
                return Poll::Ready(Err(e));
            }
            return Poll::Ready(Ok(buf.len()));
        }
        this.write_inner(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_pending(cx))?;
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_pending(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }

    fn is_write_vectored(&self) -> bool {
        // hyper then writes each answer's head in one buffer, where `replacement` sees it.
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry(cap: usize) -> Registry {
        Registry {
            // Far enough in the past that `now()` is well over GRACE.
            started: Instant::now() - Duration::from_secs(60),
            cap,
            next: AtomicU64::new(0),
            open: Mutex::new(HashMap::new()),
            refusing: AtomicUsize::new(0),
            max_refusing: 1,
        }
    }

    #[test]
    fn the_cap_pushes_out_slow_connections_first_and_never_busy_or_young_ones() {
        let r = registry(3);
        let conns: Vec<(u64, Arc<Conn>)> = (0..3).map(|_| r.admit().unwrap()).collect();
        // 0: a keep-alive connection idle the longest; 1: a slow one (never sent a request);
        // 2: in a request.
        let at = |c: &Conn, ms: u64| c.active_at.store(ms, Ordering::Relaxed);
        at(&conns[0].1, 1_000);
        conns[0].1.served.store(true, Ordering::Relaxed);
        at(&conns[1].1, 5_000);
        at(&conns[2].1, 0);
        conns[2].1.in_flight.store(1, Ordering::Relaxed);
        let (new, _) = r.admit().unwrap();
        let open: Vec<u64> = {
            let mut ids: Vec<u64> = r.open.lock().unwrap().keys().copied().collect();
            ids.sort_unstable();
            ids
        };
        assert_eq!(open, vec![conns[0].0, conns[2].0, new], "the slow one went first");
        // Then the keep-alive one (the new one is young).
        let (newer, _) = r.admit().unwrap();
        assert!(!r.open.lock().unwrap().contains_key(&conns[0].0));
        assert_eq!(r.len(), 3);
        // Now: one in a request, two just opened: refused.
        assert!(r.admit().is_none());
        assert!(r.open.lock().unwrap().contains_key(&newer));
    }

    #[test]
    fn hyper_error_answers_are_replaced_by_json() {
        let hyper_400 =
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\ndate: Mon, 01 Dec 2026 00:00:00 GMT\r\n\r\n";
        let answer = String::from_utf8(replacement(hyper_400, false).unwrap()).unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{head}");
        assert!(head.contains(&format!("content-length: {}", body.len())), "{head}");
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(json["error"].as_str().unwrap().contains("not valid HTTP/1.1"));
        for status in ["414 URI Too Long", "431 Request Header Fields Too Large"] {
            let head = format!("HTTP/1.1 {status}\r\ncontent-length: 0\r\n\r\n");
            let answer = replacement(head.as_bytes(), false).unwrap();
            assert!(answer.starts_with(format!("HTTP/1.1 {status}\r\n").as_bytes()), "{status}");
        }
        // A head too long while its request line is read: the path is too long.
        let hyper_431 = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n\r\n";
        assert!(replacement(hyper_431, true).unwrap().starts_with(b"HTTP/1.1 414 URI Too Long\r\n"));
        // The server's own answers (a body, or another status) pass untouched.
        for answer in [
            &b"HTTP/1.1 400 Bad Request\r\ncontent-length: 12\r\n\r\n"[..],
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n{}",
            b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n",
        ] {
            assert!(replacement(answer, true).is_none(), "{}", String::from_utf8_lossy(answer));
        }
    }

    #[test]
    fn the_line_being_read_is_told_by_its_first_space_or_colon() {
        let read = |chunks: &[&[u8]]| chunks.iter().fold(Line::Unknown, |line, c| line.after(c));
        assert_eq!(read(&[b"GET /api/xiangqi?fen=", b"xxxx"]), Line::Request);
        assert_eq!(read(&[b"GE", b"T /xxx"]), Line::Request);
        assert_eq!(read(&[b"GET / HTTP/1.1\r\nHost: a\r\nX-Long: x", b"x y"]), Line::Header);
        assert_eq!(read(&[b"GET / HTTP/1.1\r\nX-Lo", b"ng"]), Line::Unknown);
        // A request after a keep-alive request.
        assert_eq!(read(&[b"GET / HTTP/1.1\r\nHost: a\r\n\r\n", b"POST /x"]), Line::Request);
    }
}
