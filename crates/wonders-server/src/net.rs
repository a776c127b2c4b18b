//! The network side of the server: accepting connections under the [`Limits`], the middleware
//! every request goes through, `GET /healthz`, `GET /metrics`, and the graceful shutdown.
//!
//! Each connection is counted (globally and per IP address) for as long as its socket is open,
//! WebSockets included; one over a cap gets a short JSON answer (503 or 429) and is closed (the
//! answer is written before the close, so the client reads it rather than a reset). A request
//! whose line and headers are over `max_header_bytes` is answered 431, one whose `Host` is not
//! allowed 421 (against DNS rebinding: [`security::check_host`]). HTTP/1
//! connections close when a request's headers do not arrive within `header_timeout` (which also
//! ends idle keep-alive connections), when nothing is read or written for `idle_timeout` between
//! requests, and a request that takes longer than `request_timeout` is answered 503.
//!
//! Every request gets an id (`X-Request-Id` in the answer; behind a proxy, the proxy's own is
//! kept) and a `tracing` span with its method, path and client address; its answer is logged
//! with the status and the time taken. The middleware is `tower_http`'s where it does the job
//! (request ids, spans, security headers, the body limit, the request timeout: [`layered`]);
//! the checks no crate makes are [`guard`]'s. The connection caps, the header-size limit, the
//! idle timeout and the refusal of a connection over a cap are this module's own: they act on
//! sockets, before hyper parses a request or between requests, where no middleware runs.
//!
//! On shutdown the listener closes, idle connections close, requests in progress finish (an
//! action being written is stored and acknowledged), WebSockets get a `1001 going away` close,
//! and the server waits up to `shutdown_grace` for every connection to end.

use crate::limits::{ConnGuard, ConnRefusal, Connections, Limits, RateLimiter};
use crate::metrics::{Metrics, TableCounts};
use crate::msg::ApiError;
use crate::security;
use crate::server::Server;
use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::{ServiceBuilder, ServiceExt};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::map_request_body::MapRequestBodyLayer;
use tower_http::request_id::{MakeRequestId, PropagateRequestIdLayer, RequestId, SetRequestIdLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

/// The network state shared by every connection: the limits and what enforces them, the
/// metrics, and the shutdown signal.
pub struct Net {
    /// The game server.
    pub server: Server,
    /// The limits.
    pub limits: Limits,
    /// Per-IP rate limits.
    pub rates: RateLimiter,
    /// Open connections.
    pub conns: Arc<Connections>,
    /// The metrics.
    pub metrics: Arc<Metrics>,
    shutdown: watch::Sender<bool>,
    next_request: AtomicU64,
    refusing: AtomicUsize,
}

impl Net {
    /// The network state of `server` under `limits`.
    pub fn new(server: Server, limits: Limits) -> Arc<Net> {
        let rates = RateLimiter::new(&limits);
        Arc::new(Net {
            server,
            limits,
            rates,
            conns: Arc::default(),
            metrics: Arc::default(),
            shutdown: watch::channel(false).0,
            next_request: AtomicU64::new(1),
            refusing: AtomicUsize::new(0),
        })
    }

    /// A receiver that changes to `true` when the server starts shutting down.
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    /// Whether the server is shutting down.
    pub fn shutting_down(&self) -> bool {
        *self.shutdown.borrow()
    }

    /// Tables in memory by status.
    pub fn table_counts(&self) -> TableCounts {
        let list = self.server.list_local();
        let mut counts = TableCounts::default();
        for t in list.open.iter().chain(&list.finished) {
            match t.status.as_str() {
                "waiting" => counts.waiting += 1,
                "playing" => counts.playing += 1,
                "over" => counts.over += 1,
                _ => counts.broken += 1,
            }
        }
        counts
    }
}

/// The address of the connection a request came on (a request extension).
#[derive(Clone, Copy, Debug)]
pub struct ClientAddr(pub SocketAddr);

/// The address the rate limits and the per-address caps count a request against (behind a proxy,
/// the client's from `X-Forwarded-For`): a request extension set by [`guard`].
#[derive(Clone, Copy, Debug)]
pub struct ClientIp(pub IpAddr);

/// The address rate limits count a request against: behind a proxy, the last address of
/// `X-Forwarded-For`; else the connection's.
fn client_ip<B>(behind_proxy: bool, req: &axum::http::Request<B>) -> IpAddr {
    let peer = req.extensions().get::<ClientAddr>().map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
    if behind_proxy
        && let Some(forwarded) = req.headers().get("x-forwarded-for").and_then(|v| v.to_str().ok())
        && let Some(Ok(ip)) = forwarded.rsplit(',').next().map(|s| s.trim().parse::<IpAddr>())
    {
        return ip;
    }
    peer
}

/// Whether a request id a client sent is kept: behind a proxy only (the proxy's own id), and only
/// when short and plain (letters, digits, `-_.:`, at most 64 characters).
fn trusted_request_id(behind_proxy: bool, id: &HeaderValue) -> bool {
    behind_proxy
        && !id.is_empty()
        && id.len() <= 64
        && id.as_bytes().iter().all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(b))
}

/// The ids of this process's requests (`tower_http::request_id`): hexadecimal numbers from 1.
#[derive(Clone)]
struct NextId(Arc<Net>);

impl MakeRequestId for NextId {
    fn make_request_id<B>(&mut self, _: &axum::http::Request<B>) -> Option<RequestId> {
        let n = self.0.next_request.fetch_add(1, Ordering::Relaxed);
        HeaderValue::from_str(&format!("{n:x}")).ok().map(RequestId::new)
    }
}

/// `X-Request-Id`.
static X_REQUEST_ID: header::HeaderName = header::HeaderName::from_static("x-request-id");

/// `routes` under the middleware every request goes through, outermost first:
///
/// 1. the size of the headers as sent is noted ([`header_bytes`]: [`guard`] limits it); a
///    client's `X-Request-Id` is dropped unless the server is behind a proxy and the id is short
///    and plain (letters, digits, `-_.:`, at most 64 characters); then
///    `tower_http::request_id` gives the request its id (the kept one, or the next number), and
///    copies it into the answer;
/// 2. `tower_http::trace`: a `tracing` span `request` with the id, method, path and client
///    address, and a log line of the answer's status and time taken (`warn` for a 5xx,
///    `info` for a 4xx, `debug` otherwise);
/// 3. `tower_http::set_header`: the security headers ([`security::HEADERS`]) on every answer;
/// 4. the answer is counted by status class (`wonders_http_responses_total`), and the refusals
///    of the two layers below are worded in the API's JSON error form;
/// 5. `tower_http::limit`: bodies over `max_body` bytes are refused (413);
/// 6. `tower_http::timeout`: a request not answered within `request_timeout` is answered 503;
/// 7. [`guard`]: the checks no crate makes.
pub fn layered(routes: Router<Server>, net: Arc<Net>) -> Router<Server> {
    let behind_proxy = net.limits.behind_proxy;
    let stack = ServiceBuilder::new()
        .map_request(move |mut req: Request| {
            let sent = SentHeaderBytes(header_bytes(&req));
            req.extensions_mut().insert(sent);
            if req.headers().get(&X_REQUEST_ID).is_some_and(|id| !trusted_request_id(behind_proxy, id)) {
                req.headers_mut().remove(&X_REQUEST_ID);
            }
            req
        })
        .layer(SetRequestIdLayer::new(X_REQUEST_ID.clone(), NextId(net.clone())))
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(move |req: &Request| {
                    let id = req.headers().get(&X_REQUEST_ID).and_then(|v| v.to_str().ok()).unwrap_or("");
                    let ip = client_ip(behind_proxy, req);
                    let (method, path) = (req.method(), req.uri().path());
                    tracing::info_span!("request", id = %id, method = %method, path = %path, ip = %ip)
                })
                .on_request(())
                .on_response(|response: &Response, latency: Duration, _: &tracing::Span| {
                    let status = response.status().as_u16();
                    let ms = latency.as_secs_f64() * 1e3;
                    if status >= 500 {
                        tracing::warn!(status, ms, "answered");
                    } else if status >= 400 {
                        tracing::info!(status, ms, "refused");
                    } else {
                        tracing::debug!(status, ms, "answered");
                    }
                })
                .on_failure(()),
        )
        .layer(PropagateRequestIdLayer::new(X_REQUEST_ID.clone()))
        .layer(security_header(0))
        .layer(security_header(1))
        .layer(security_header(2))
        .layer(security_header(3))
        .layer(middleware::map_response_with_state(net.clone(), finish::<LimitedBody>))
        .layer(RequestBodyLimitLayer::new(net.limits.max_body))
        .layer(TimeoutLayer::with_status_code(StatusCode::SERVICE_UNAVAILABLE, net.limits.request_timeout))
        .layer(DefaultBodyLimit::disable())
        .layer(MapRequestBodyLayer::new(Body::new))
        .layer(middleware::from_fn_with_state(net, guard));
    routes.layer(stack)
}

/// The layer that sets the `i`th of the security headers ([`security::HEADERS`]) on every answer.
fn security_header(i: usize) -> SetResponseHeaderLayer<HeaderValue> {
    let (name, value) = &security::HEADERS[i];
    SetResponseHeaderLayer::overriding(name.clone(), HeaderValue::from_static(value))
}

/// The body of the answers of `tower_http::limit` (the answers [`finish`] reads).
type LimitedBody = tower_http::limit::ResponseBody<Body>;

/// Counts an answer by its status class, and gives the refusals of `tower_http`'s timeout
/// (a 503 with no body) and body limit (a 413 in plain text) the API's JSON error body
/// ([`ApiError`]): every error a client reads is `{"error": {"code": …, "message": …}}`.
async fn finish<B>(State(net): State<Arc<Net>>, response: axum::http::Response<B>) -> Response
where
    B: axum::body::HttpBody<Data = axum::body::Bytes> + Send + 'static,
    B::Error: Into<axum::BoxError>,
{
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    let response = if status == StatusCode::SERVICE_UNAVAILABLE && !json {
        ApiError::Unavailable(format!(
            "the request took longer than {} s; try again",
            net.limits.request_timeout.as_secs_f64()
        ))
        .into_response()
    } else if status == StatusCode::PAYLOAD_TOO_LARGE && !json {
        too_large(net.limits.max_body).into_response()
    } else {
        response.map(Body::new)
    };
    net.metrics.response(response.status().as_u16());
    response
}

/// The checks every request goes through that no crate makes: the size of the headers, the
/// `Host` allow-list ([`security::check_host`]), the cross-site and content-type checks, the
/// shutdown, the per-address rate limits ([`RateLimiter`], with the refusal's wording and
/// `Retry-After`) and the open-table cap. A state-changing request's body is read here (under
/// the timeout and the body limit of [`layered`]), after those checks.
pub async fn guard(State(net): State<Arc<Net>>, req: Request, next: Next) -> Response {
    match checked(&net, req, next).await {
        Ok(response) => response,
        Err(e) => e.into_response(),
    }
}

/// The size of a request's line and headers as the client sent them (a request extension, noted
/// before the middleware adds its `X-Request-Id`).
#[derive(Clone, Copy, Debug)]
struct SentHeaderBytes(usize);

/// The size of a request's line and headers as sent: `METHOD TARGET HTTP/1.1`, each header as
/// `Name: value`, each line with its CRLF, and the empty line that ends them.
pub fn header_bytes(req: &Request) -> usize {
    let target = match req.uri().path_and_query() {
        Some(p) if req.uri().authority().is_none() => p.as_str().len(),
        _ => req.uri().to_string().len(),
    };
    let line = req.method().as_str().len() + 1 + target + " HTTP/1.1\r\n".len();
    let headers: usize = req.headers().iter().map(|(k, v)| k.as_str().len() + 2 + v.len() + 2).sum();
    line + headers + 2
}

async fn checked(net: &Net, req: Request, next: Next) -> Result<Response, ApiError> {
    // hyper answers headers far over the limit with a bare 431 (see `connection`); this is the
    // exact limit, counted as the client sent them, with a JSON answer: no crate counts it.
    let max = net.limits.max_header_bytes;
    let size = req.extensions().get::<SentHeaderBytes>().map_or_else(|| header_bytes(&req), |s| s.0);
    if size > max {
        return Err(ApiError::HeadersTooLarge(format!(
            "the request line and headers take {size} bytes, over the limit of {max} bytes"
        )));
    }
    security::check_host(req.headers(), &net.limits.allowed_hosts)?;
    let upgrade = security::is_upgrade(req.headers());
    let changes = security::changes_state(req.method());
    if changes || upgrade {
        security::check_origin(req.headers(), &net.limits.allowed_origins)?;
    }
    if !changes {
        return Ok(next.run(req).await);
    }
    if net.shutting_down() {
        return Err(ApiError::Unavailable("the server is shutting down; try again soon".into()));
    }
    let declared =
        req.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    // A DELETE carries no body (leaving a seat): nothing to type. Cross-site, it is not a simple
    // request, and its Origin was checked above.
    let bodiless_delete = req.method() == axum::http::Method::DELETE
        && declared.unwrap_or(0) == 0
        && !req.headers().contains_key(header::TRANSFER_ENCODING);
    if !bodiless_delete {
        security::check_json_content_type(req.headers())?;
    }
    let ip = client_ip(net.limits.behind_proxy, &req);
    if let Some(quota) = security::quota_of(req.method(), req.uri().path()) {
        if let Err(wait) = net.rates.take(ip, quota) {
            net.metrics.rate_limited();
            let mut response = ApiError::RateLimited(format!(
                "too many {} from your address; try again in {wait} s",
                quota.what()
            ))
            .into_response();
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(wait));
            return Ok(response);
        }
        if quota == crate::limits::Quota::Rematch {
            // A rematch's table against the global cap (a new table's caps, per address too,
            // are checked where it is created: `Server::create_table_from`). Counted from each
            // table's status, without building the table list (every table's info, sorted):
            // that made creating n tables cost n² infos.
            let open = net.server.open_tables();
            if open >= net.limits.max_open_tables {
                net.metrics.rate_limited();
                return Err(ApiError::Unavailable(format!(
                    "the server already has {open} open tables, its most; try again later"
                )));
            }
        }
    }
    let (mut parts, body) = req.into_parts();
    parts.extensions.insert(ClientIp(ip));
    // The body limit is `tower_http::limit`'s (in `layered`): a body over it, or one cut short,
    // fails to read.
    let bytes = axum::body::to_bytes(body, usize::MAX).await.map_err(|_| too_large(net.limits.max_body))?;
    Ok(next.run(Request::from_parts(parts, Body::from(bytes))).await)
}

fn too_large(max: usize) -> ApiError {
    ApiError::TooLarge(format!("the request body is over the limit of {max} bytes (or was cut short)"))
}

/// `GET /healthz`: 200 `{"status": "ok"}` while serving, 503 once shutting down.
pub async fn healthz(axum::Extension(net): axum::Extension<Arc<Net>>) -> Response {
    if net.shutting_down() {
        ApiError::Unavailable("shutting down".into()).into_response()
    } else {
        axum::Json(serde_json::json!({"status": "ok"})).into_response()
    }
}

/// `GET /metrics`: see [`crate::metrics`].
pub async fn metrics(axum::Extension(net): axum::Extension<Arc<Net>>) -> Response {
    let counts = net.table_counts();
    let text = net.metrics.render(counts, net.conns.total(), &net.server.store_metrics());
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], text).into_response()
}

/// When a connection last read or wrote, and how many of its requests are being answered.
#[derive(Debug)]
struct Activity {
    start: Instant,
    last_ms: AtomicU64,
    busy: AtomicUsize,
}

impl Activity {
    fn touch(&self) {
        self.last_ms.store(self.start.elapsed().as_millis() as u64, Ordering::Relaxed);
    }

    fn idle_for(&self) -> Duration {
        let now = self.start.elapsed().as_millis() as u64;
        Duration::from_millis(now.saturating_sub(self.last_ms.load(Ordering::Relaxed)))
    }
}

/// A request being answered, counted until dropped.
struct Busy(Arc<Activity>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.busy.fetch_sub(1, Ordering::Relaxed);
        self.0.touch();
    }
}

/// A connection's socket, counted while open and noting its activity.
struct Guarded {
    stream: TcpStream,
    activity: Arc<Activity>,
    _guard: ConnGuard,
}

impl AsyncRead for Guarded {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.stream).poll_read(cx, buf);
        if r.is_ready() {
            this.activity.touch();
        }
        r
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.stream).poll_write(cx, buf);
        if r.is_ready() {
            this.activity.touch();
        }
        r
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let r = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        if r.is_ready() {
            this.activity.touch();
        }
        r
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

/// Refused connections kept open for a moment after their answer, at most: more are closed at
/// once after it.
const MAX_REFUSING: usize = 16;

/// The short answer to a connection over a cap (a JSON 503 or 429 with `Retry-After`).
fn refusal(why: ConnRefusal) -> String {
    let (status, code, message) = match why {
        ConnRefusal::Full => {
            ("503 Service Unavailable", "unavailable", "the server has too many connections")
        }
        ConnRefusal::PerIp => {
            ("429 Too Many Requests", "rate_limited", "too many connections from your address")
        }
    };
    let body = format!(r#"{{"error":{{"code":"{code}","message":"{message}"}}}}"#);
    format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\
         retry-after: 5\r\n\r\n{body}",
        body.len()
    )
}

/// Reads (and drops) what the client already sent, without waiting.
fn drain_now(stream: &mut std::net::TcpStream) {
    use std::io::Read;
    let mut buf = [0u8; 1024];
    for _ in 0..16 {
        match stream.read(&mut buf) {
            Ok(n) if n > 0 => {}
            _ => break,
        }
    }
}

/// Answers a connection over a cap and closes it. The answer is written at once (it fits the new
/// socket's send buffer), then the server's side is shut (the client reads the answer and an
/// end of stream) and what the request sent so far is read, so that the close is not a reset.
/// Up to [`MAX_REFUSING`] refused connections are then kept for up to half a second, reading
/// the rest of the request (a client that writes its request after the answer still reads it
/// rather than a reset); the others are closed at once: a flood of connections costs the server
/// no more than that, and each of them still reads its answer.
fn refuse(net: &Arc<Net>, stream: TcpStream, why: ConnRefusal) {
    use std::io::Write;
    let Ok(mut stream) = stream.into_std() else {
        return;
    };
    let answer = refusal(why);
    if !matches!(stream.write(answer.as_bytes()), Ok(n) if n == answer.len()) {
        return;
    }
    let _ = stream.shutdown(std::net::Shutdown::Write);
    drain_now(&mut stream);
    if net.refusing.fetch_add(1, Ordering::Relaxed) >= MAX_REFUSING {
        net.refusing.fetch_sub(1, Ordering::Relaxed);
        return;
    }
    let net = net.clone();
    tokio::spawn(async move {
        use tokio::io::AsyncReadExt;
        if let Ok(mut stream) = TcpStream::from_std(stream) {
            let _ = tokio::time::timeout(Duration::from_millis(500), async {
                let mut buf = [0u8; 1024];
                for _ in 0..16 {
                    if stream.read(&mut buf).await? == 0 {
                        break;
                    }
                }
                Ok::<(), io::Error>(())
            })
            .await;
        }
        net.refusing.fetch_sub(1, Ordering::Relaxed);
    });
}

/// Serves one accepted connection until it closes, idles too long, or the server shuts down.
async fn connection(stream: Guarded, peer: SocketAddr, app: Router, net: Arc<Net>) {
    let activity = stream.activity.clone();
    let busy_activity = activity.clone();
    let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
        req.extensions_mut().insert(ClientAddr(peer));
        busy_activity.busy.fetch_add(1, Ordering::Relaxed);
        let busy = Busy(busy_activity.clone());
        let app = app.clone();
        async move {
            let response = app.oneshot(req).await;
            drop(busy);
            response
        }
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    // The exact limit on the headers is checked on the parsed request (`checked`: a JSON 431).
    // hyper's read buffer holds 8 KiB more (it is at least 8 KiB), so that headers a little over
    // the limit are parsed and get that answer; headers that do not fit it at all get hyper's
    // own 431, without a body, and the connection closes.
    let buffer = net.limits.max_header_bytes.saturating_add(8192);
    builder.timer(TokioTimer::new()).header_read_timeout(net.limits.header_timeout).max_buf_size(buffer);
    let conn = builder.serve_connection(TokioIo::new(stream), service).with_upgrades();
    tokio::pin!(conn);
    let mut shutdown = net.shutdown_signal();
    let mut draining = *shutdown.borrow();
    if draining {
        conn.as_mut().graceful_shutdown();
    }
    let idle = net.limits.idle_timeout;
    loop {
        let busy = activity.busy.load(Ordering::Relaxed) > 0;
        let wait =
            if busy { idle } else { idle.saturating_sub(activity.idle_for()) }.max(Duration::from_millis(50));
        tokio::select! {
            done = conn.as_mut() => {
                if let Err(e) = done {
                    tracing::debug!(%peer, error = %e, "connection ended");
                }
                return;
            }
            changed = shutdown.changed(), if !draining => {
                draining = true;
                if changed.is_ok() {
                    conn.as_mut().graceful_shutdown();
                }
            }
            () = tokio::time::sleep(wait) => {
                if activity.busy.load(Ordering::Relaxed) == 0 && activity.idle_for() >= idle {
                    tracing::debug!(%peer, "closing an idle connection");
                    return;
                }
            }
        }
    }
}

/// How often the acknowledgment times recorded are folded into the metrics' histogram
/// ([`Metrics::upkeep`]).
const METRICS_UPKEEP: Duration = Duration::from_secs(5);

/// The length of the queue of connections the kernel completes before the server accepts them,
/// for [`listen`]. The standard library's and tokio's `TcpListener::bind` ask for 128: when more
/// clients connect at once (players coming back after a restart; the load test's 800 seats), the
/// kernel drops the connections beyond it and their clients try again only after a second (TCP's
/// first SYN retransmission). The kernel caps it at `net.core.somaxconn` (4096 by default).
pub const LISTEN_BACKLOG: u32 = 1024;

/// A listening socket on `addr` with a backlog of [`LISTEN_BACKLOG`] connections (otherwise as
/// `tokio::net::TcpListener::bind`: the address may be reused at once after a restart). Call it
/// from inside a tokio runtime.
pub fn listen(addr: SocketAddr) -> io::Result<TcpListener> {
    let socket =
        if addr.is_ipv4() { tokio::net::TcpSocket::new_v4()? } else { tokio::net::TcpSocket::new_v6()? };
    #[cfg(not(windows))]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(LISTEN_BACKLOG)
}

/// Serves `server` on `listener` under `limits` until `shutdown` completes, then shuts down
/// gracefully (see the module's documentation).
pub async fn serve_with(
    listener: TcpListener,
    server: Server,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send,
) -> io::Result<()> {
    let net = Net::new(server, limits);
    let app = crate::http::router_with(net.clone());
    let (max_total, lowered) = net.limits.fitted_to_open_files();
    if lowered {
        tracing::warn!(
            max_connections = max_total,
            "the limit on open files is low: at most {max_total} connections (raise it with `ulimit -n`)"
        );
    }
    let per_ip = net.limits.max_connections_per_ip;
    let upkeep = net.clone();
    tokio::spawn(async move {
        let mut shutdown = upkeep.shutdown_signal();
        let mut every = tokio::time::interval(METRICS_UPKEEP);
        while !*shutdown.borrow() {
            tokio::select! {
                _ = every.tick() => upkeep.metrics.upkeep(),
                _ = shutdown.changed() => {}
            }
        }
    });
    let mut last_accept_warning: Option<Instant> = None;
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let (stream, peer) = match accepted {
            Ok(pair) => pair,
            Err(e) => {
                // Out of file descriptors, or a connection reset before it was accepted: wait a
                // little (the caps and timeouts free descriptors) and go on.
                if last_accept_warning.is_none_or(|t| t.elapsed() >= Duration::from_secs(1)) {
                    tracing::warn!(error = %e, "accepting a connection failed");
                    last_accept_warning = Some(Instant::now());
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let guard = match net.conns.open(peer.ip(), max_total, per_ip) {
            Ok(guard) => guard,
            Err(why) => {
                net.metrics.refused();
                tracing::debug!(%peer, ?why, "connection refused");
                refuse(&net, stream, why);
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let activity = Arc::new(Activity {
            start: Instant::now(),
            last_ms: AtomicU64::new(0),
            busy: AtomicUsize::new(0),
        });
        let io = Guarded { stream, activity, _guard: guard };
        tokio::spawn(connection(io, peer, app.clone(), net.clone()));
    }
    drop(listener);
    tracing::info!(connections = net.conns.total(), "shutting down: finishing open connections");
    net.shutdown.send_replace(true);
    let deadline = Instant::now() + net.limits.shutdown_grace;
    while net.conns.total() > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Bots stop moving and every change handed to the store writer is stored before this returns.
    let server = net.server.clone();
    let _ = tokio::task::spawn_blocking(move || server.close()).await;
    tracing::info!(left = net.conns.total(), "stopped");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Connects `n` clients at once to `listener`, accepting none of them; the time the slowest
    /// took (`None` if one did not connect within 900 ms: its SYN was dropped, and TCP tries again
    /// only after a second).
    async fn connect_all(listener: &TcpListener, n: usize) -> Option<Duration> {
        let addr = listener.local_addr().unwrap();
        let start = Instant::now();
        let attempts = (0..n).map(|_| {
            tokio::spawn(tokio::time::timeout(Duration::from_millis(900), TcpStream::connect(addr)))
        });
        let mut streams = Vec::new();
        for attempt in attempts.collect::<Vec<_>>() {
            streams.push(attempt.await.unwrap().ok()?.unwrap());
        }
        Some(start.elapsed())
    }

    #[tokio::test]
    async fn hundreds_of_clients_connecting_at_once_are_queued_not_dropped() {
        // More than the default backlog of 128, within the kernel's cap (`somaxconn`).
        let somaxconn = std::fs::read_to_string("/proc/sys/net/core/somaxconn")
            .ok()
            .and_then(|s| s.trim().parse::<u32>().ok())
            .unwrap_or(LISTEN_BACKLOG);
        let n = somaxconn.min(LISTEN_BACKLOG).min(400) as usize;
        if n <= 200 {
            eprintln!("net.core.somaxconn is {somaxconn}: too low to tell the backlogs apart, skipped");
            return;
        }
        let listener = listen(([127, 0, 0, 1], 0).into()).unwrap();
        let took = connect_all(&listener, n).await;
        assert!(took.is_some(), "{n} clients connecting at once: some were dropped");
        // Every one of them is then accepted.
        for _ in 0..n {
            tokio::time::timeout(Duration::from_secs(5), listener.accept()).await.unwrap().unwrap();
        }
    }
}
