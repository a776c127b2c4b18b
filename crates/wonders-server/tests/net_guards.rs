//! The network guards of the in-process server: the `Host` allow-list (against DNS rebinding),
//! the answer a connection over the cap reads (a JSON 503, never a reset), and the limit on the
//! size of a request's headers (a JSON 431 just over it, served just under it).

mod common;

use common::{TestServer, temp_db};
use futures_util::StreamExt;
use serde_json::Value;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use wonders_server::Limits;
use wonders_server::server::ServerConfig;

/// An answer read off a raw connection: status, headers (lower-case names), body.
#[derive(Debug)]
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }

    fn code(&self) -> String {
        self.json()["error"]["code"].as_str().unwrap_or("").to_string()
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

fn parse(bytes: &[u8]) -> Answer {
    let text = String::from_utf8_lossy(bytes);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|s| s.parse().ok()).unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Answer { status, headers, body: body.to_string() }
}

/// Sends `request` on `stream` and reads the answer until the server closes the connection:
/// an error if the connection was reset (or timed out) instead.
async fn exchange(mut stream: TcpStream, request: &[u8]) -> std::io::Result<Answer> {
    stream.write_all(request).await?;
    let mut bytes = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut bytes))
        .await
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "no answer within 5 s"))??;
    Ok(parse(&bytes))
}

/// A `GET path` with the `Host` header `host` and `extra` header lines, on its own connection.
async fn get(s: &TestServer, path: &str, host: &str, extra: &str) -> std::io::Result<Answer> {
    let stream = TcpStream::connect(s.addr).await?;
    let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n{extra}\r\n");
    exchange(stream, request.as_bytes()).await
}

async fn start(limits: Limits) -> (tempfile::TempDir, TestServer) {
    let (dir, db) = temp_db();
    let s = TestServer::start_with_limits(&db, ServerConfig::default(), limits).await;
    (dir, s)
}

#[tokio::test]
async fn only_allowed_hosts_are_answered() {
    let (_dir, s) = start(Limits::loopback()).await;
    let port = s.addr.port();
    // The default: localhost (and its subdomains), IP addresses, each with or without a port.
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        "LOCALHOST".to_string(),
        "localhost.".to_string(),
        format!("app.localhost:{port}"),
        format!("[::1]:{port}"),
        "10.1.2.3".to_string(),
    ] {
        let a = get(&s, "/api/tables", &host, "").await.unwrap();
        assert_eq!(a.status, 200, "Host: {host}: {}", a.body);
    }
    // A name the operator did not list: a page of a rebinding domain, or a stray proxy.
    for host in ["evil.example", "evil.example:8080", "127.0.0.1.evil.example", "localhost.evil.example"] {
        let a = get(&s, "/api/tables", host, "").await.unwrap();
        assert_eq!((a.status, a.code().as_str()), (421, "host_not_allowed"), "Host: {host}: {}", a.body);
        let message = a.json()["error"]["message"].as_str().unwrap_or("").to_string();
        assert!(message.contains(host) && message.contains("--allowed-hosts"), "{message}");
        assert!(a.header("content-security-policy").is_some(), "security headers on the refusal");
    }
    // The page, the health check and the WebSocket are refused alike.
    assert_eq!(get(&s, "/", "evil.example", "").await.unwrap().status, 421);
    assert_eq!(get(&s, "/healthz", "evil.example", "").await.unwrap().status, 421);
    let id = s.create(3, "1e", "random", &[]).await;
    let upgrade = "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
                   Sec-WebSocket-Version: 13\r\n";
    let ws_path = format!("/api/tables/{id}/ws");
    let refused = get(&s, &ws_path, "evil.example", upgrade).await.unwrap();
    assert_eq!(refused.status, 421, "{refused:?}");
    s.stop().await;
}

#[tokio::test]
async fn listed_hosts_are_answered_and_the_websocket_works_through_them() {
    let limits =
        Limits { allowed_hosts: vec!["play.example".into(), "Other.Example.".into()], ..Limits::loopback() };
    let (_dir, s) = start(limits).await;
    for host in ["play.example", "play.example:443", "other.example", "localhost", "127.0.0.1"] {
        let a = get(&s, "/healthz", host, "").await.unwrap();
        assert_eq!(a.status, 200, "Host: {host}: {}", a.body);
    }
    let a = get(&s, "/healthz", "www.play.example", "").await.unwrap();
    assert_eq!(a.status, 421, "{}", a.body);
    // The WebSocket upgrade through an allowed name.
    let id = s.create(3, "1e", "random", &[]).await;
    let request = tokio_tungstenite::tungstenite::http::Request::builder()
        .uri(format!("ws://{}/api/tables/{id}/ws", s.addr))
        .header("host", "play.example")
        .header("connection", "Upgrade")
        .header("upgrade", "websocket")
        .header("sec-websocket-version", "13")
        .header("sec-websocket-key", tokio_tungstenite::tungstenite::handshake::client::generate_key())
        .body(())
        .unwrap();
    let (mut ws, _) =
        tokio_tungstenite::connect_async(request).await.expect("the upgrade through play.example");
    let first = tokio::time::timeout(Duration::from_secs(5), ws.next()).await.unwrap().unwrap().unwrap();
    assert!(first.to_text().unwrap().contains("\"state\""), "{first:?}");
    // `*` answers every host.
    let (_dir2, any) = start(Limits { allowed_hosts: vec!["*".into()], ..Limits::loopback() }).await;
    assert_eq!(get(&any, "/healthz", "whatever.example", "").await.unwrap().status, 200);
    any.stop().await;
    s.stop().await;
}

/// Opens `n` connections and makes sure the server counts them (each answers one request and
/// stays open).
async fn hold(s: &TestServer, n: usize) -> Vec<TcpStream> {
    let mut held = Vec::new();
    for _ in 0..n {
        let mut c = TcpStream::connect(s.addr).await.unwrap();
        c.write_all(format!("GET /healthz HTTP/1.1\r\nHost: {}\r\n\r\n", s.addr).as_bytes()).await.unwrap();
        let mut buf = [0u8; 2048];
        let n = tokio::time::timeout(Duration::from_secs(5), c.read(&mut buf)).await.unwrap().unwrap();
        assert!(
            String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"),
            "a held connection is served"
        );
        held.push(c);
    }
    held
}

#[tokio::test]
async fn a_connection_over_the_cap_reads_a_json_503() {
    let (_dir, s) = start(Limits { max_connections: 4, ..Limits::loopback() }).await;
    let _held = hold(&s, 4).await;
    // max + 1: a 503 with a JSON body, then the close.
    let a = get(&s, "/healthz", &s.addr.to_string(), "").await.expect("an answer, not a reset");
    assert_eq!((a.status, a.code().as_str()), (503, "unavailable"), "{a:?}");
    assert!(a.json()["error"]["message"].as_str().unwrap().contains("too many connections"), "{}", a.body);
    assert_eq!(a.header("retry-after"), Some("5"));
    // A client that sends its request a moment later still reads the answer.
    let mut late = TcpStream::connect(s.addr).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    late.write_all(format!("GET /healthz HTTP/1.1\r\nHost: {}\r\n\r\n", s.addr).as_bytes()).await.unwrap();
    let mut bytes = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), late.read_to_end(&mut bytes)).await.unwrap().unwrap();
    assert_eq!(parse(&bytes).status, 503);
    s.stop().await;
}

#[tokio::test]
async fn a_flood_over_the_cap_reads_503s_not_resets() {
    let (_dir, s) = start(Limits { max_connections: 4, ..Limits::loopback() }).await;
    let _held = hold(&s, 4).await;
    // Many more at once than the server answers at leisure: each still reads its 503.
    let addr = s.addr;
    let clients: Vec<_> = (0..60)
        .map(|_| {
            tokio::spawn(async move {
                let stream = TcpStream::connect(addr).await?;
                let request = format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\n\r\n");
                exchange(stream, request.as_bytes()).await
            })
        })
        .collect();
    let mut failures = Vec::new();
    for c in clients {
        match c.await.unwrap() {
            Ok(a) if a.status == 503 && a.code() == "unavailable" => {}
            other => failures.push(format!("{other:?}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of 60 got no 503: {:?}",
        failures.len(),
        &failures[..failures.len().min(3)]
    );
    s.stop().await;
}

/// A request whose request line and headers take exactly `size` bytes (with the final empty line),
/// padded by an `X-Pad` header.
fn request_of_size(host: &str, size: usize) -> Vec<u8> {
    let start = format!("GET /healthz HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nX-Pad: ");
    let end = "\r\n\r\n";
    let pad = size - start.len() - end.len();
    let mut r = start.into_bytes();
    r.extend(std::iter::repeat_n(b'a', pad));
    r.extend_from_slice(end.as_bytes());
    assert_eq!(r.len(), size);
    r
}

#[tokio::test]
async fn headers_are_limited_at_the_configured_size() {
    for max in [Limits::default().max_header_bytes, 4096, 20_000] {
        let (_dir, s) = start(Limits { max_header_bytes: max, ..Limits::loopback() }).await;
        let host = s.addr.to_string();
        for (size, served) in
            [(max - 16, true), (max, true), (max + 1, false), (max + 16, false), (max + 5000, false)]
        {
            let stream = TcpStream::connect(s.addr).await.unwrap();
            let a = exchange(stream, &request_of_size(&host, size)).await;
            let a = a.unwrap_or_else(|e| panic!("max {max}, headers of {size} bytes: {e}"));
            if served {
                assert_eq!(a.status, 200, "max {max}, headers of {size} bytes: {a:?}");
            } else {
                assert_eq!(
                    (a.status, a.code().as_str()),
                    (431, "headers_too_large"),
                    "max {max}, headers of {size} bytes: {a:?}"
                );
                let message = a.json()["error"]["message"].as_str().unwrap_or("").to_string();
                assert!(message.contains(&max.to_string()), "{message}");
            }
        }
        // Far over the limit, sent in pieces: refused with a 431 as well, not a reset.
        let mut stream = TcpStream::connect(s.addr).await.unwrap();
        let big = request_of_size(&host, max * 4);
        for piece in big.chunks(1000) {
            if stream.write_all(piece).await.is_err() {
                break;
            }
        }
        let mut bytes = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut bytes)).await;
        assert_eq!(parse(&bytes).status, 431, "max {max}, headers of {} bytes in pieces", max * 4);
        s.stop().await;
    }
}

/// Whether `id` is one of the server's own request ids: a hexadecimal number.
fn servers_own(id: Option<&str>) -> bool {
    id.is_some_and(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[tokio::test]
async fn request_ids_are_the_servers_own_unless_a_proxy_sent_a_plain_one() {
    // Not behind a proxy: a client's id is never taken; each request has its own.
    let (_dir, s) = start(Limits::loopback()).await;
    let host = s.addr.to_string();
    let a = get(&s, "/healthz", &host, "X-Request-Id: chosen-by-the-client\r\n").await.unwrap();
    let b = get(&s, "/api/nothing-here", &host, "").await.unwrap();
    assert_eq!(b.status, 404);
    let (ida, idb) = (a.header("x-request-id"), b.header("x-request-id"));
    assert!(servers_own(ida) && servers_own(idb), "{ida:?} {idb:?}");
    assert_ne!(ida, idb);
    s.stop().await;

    // Behind a proxy: the proxy's id is kept when short and plain, else replaced.
    let (_dir, s) = start(Limits { behind_proxy: true, ..Limits::loopback() }).await;
    let host = s.addr.to_string();
    let kept = get(&s, "/healthz", &host, "X-Request-Id: edge-7f3a.01:9_b\r\n").await.unwrap();
    assert_eq!(kept.header("x-request-id"), Some("edge-7f3a.01:9_b"));
    let long = "a".repeat(65);
    for sent in ["has space", "semi;colon", long.as_str()] {
        let a = get(&s, "/healthz", &host, &format!("X-Request-Id: {sent}\r\n")).await.unwrap();
        assert!(servers_own(a.header("x-request-id")), "{sent:?}: {:?}", a.header("x-request-id"));
    }
    s.stop().await;
}

/// Sends a `POST /api/tables` of `head` (its headers after the `Host`) and `body`, and reads the
/// answer until the server closes the connection.
async fn post_raw(s: &TestServer, head: &str, body: &[u8]) -> Answer {
    let stream = TcpStream::connect(s.addr).await.unwrap();
    let mut request = format!(
        "POST /api/tables HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\n{head}\r\n",
        s.addr
    )
    .into_bytes();
    request.extend_from_slice(body);
    exchange(stream, &request).await.unwrap()
}

/// The refusal of a request (a JSON error of `status` and `code` whose message holds `words`),
/// with the security headers and a request id like every answer.
fn assert_refusal(a: &Answer, status: u16, code: &str, words: &str) {
    assert_eq!((a.status, a.code().as_str()), (status, code), "{a:?}");
    assert_eq!(a.header("content-type"), Some("application/json"), "{a:?}");
    let message = a.json()["error"]["message"].as_str().unwrap_or("").to_string();
    assert!(message.contains(words), "{message}");
    assert!(a.header("content-security-policy").is_some_and(|c| c.contains("frame-ancestors 'none'")));
    assert_eq!(a.header("x-frame-options"), Some("DENY"));
    assert!(servers_own(a.header("x-request-id")), "{a:?}");
}

#[tokio::test]
async fn bodies_over_the_limit_are_refused_in_json_with_or_without_a_length() {
    let (_dir, s) = start(Limits { max_body: 100, ..Limits::loopback() }).await;
    let body = format!(r#"{{"players": 3, "pad": "{}"}}"#, "x".repeat(100));
    // Declared: refused before the body is read.
    let declared = post_raw(&s, &format!("Content-Length: {}\r\n", body.len()), body.as_bytes()).await;
    assert_refusal(&declared, 413, "too_large", "over the limit of 100 bytes");
    // Chunked, with no length: refused once the body read passes the limit.
    let chunked = format!("{:x}\r\n{body}\r\n0\r\n\r\n", body.len());
    let a = post_raw(&s, "Transfer-Encoding: chunked\r\n", chunked.as_bytes()).await;
    assert_refusal(&a, 413, "too_large", "over the limit of 100 bytes");
    // Just under the limit, the same table is created.
    let small = r#"{"players": 3}"#;
    let ok = post_raw(&s, &format!("Content-Length: {}\r\n", small.len()), small.as_bytes()).await;
    assert_eq!(ok.status, 201, "{ok:?}");
    s.stop().await;
}

#[tokio::test]
async fn a_request_over_its_time_is_answered_a_json_503() {
    let limits = Limits { request_timeout: Duration::from_millis(300), ..Limits::loopback() };
    let (_dir, s) = start(limits).await;
    // A body announced at 50 bytes of which 10 come: the server waits for the rest until the
    // request's time is up.
    let started = std::time::Instant::now();
    let a = post_raw(&s, "Content-Length: 50\r\n", br#"{"players""#).await;
    assert_refusal(&a, 503, "unavailable", "longer than 0.3 s");
    assert!(started.elapsed() < Duration::from_secs(3), "answered after {:?}", started.elapsed());
    // The server goes on serving.
    assert_eq!(get(&s, "/healthz", &s.addr.to_string(), "").await.unwrap().status, 200);
    s.stop().await;
}
