//! `wonders serve` on loopback under attack-like traffic, with small limits set by its flags:
//! idle sockets under a low limit on open files, an oversized WebSocket message, WebSocket pings
//! and idle timeout, per-IP rate limits and the open-table cap, cross-site and malformed
//! requests, the security headers, `/healthz`, `/metrics` and the graceful shutdown on SIGTERM.
//! Every test is bounded in time; servers listen on 127.0.0.1 and are killed if a test fails.

use serde_json::{Value, json};
use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{Served, serve_binary};

/// Starts `wonders serve` on a free loopback port with `flags`; `open_files` sets its limit on
/// open files (through the shell's `ulimit`).
fn serve(db: &Path, flags: &[&str], open_files: Option<u32>) -> Served {
    serve_binary(db, flags, open_files, Stdio::inherit(), "warn")
}

fn temp_db() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("wonders.db");
    (dir, db)
}

/// An answer: status, headers (lower-case names) and body.
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

    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    fn code(&self) -> String {
        self.json()["error"]["code"].as_str().unwrap_or("").to_string()
    }
}

fn parse_answer(text: &str) -> Answer {
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((text, ""));
    let mut lines = head.lines();
    let status = lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|s| s.parse().ok()).unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Answer { status, headers, body: body.to_string() }
}

/// One HTTP/1.1 request on its own connection, with extra header lines (`Name: value\r\n`).
fn request(addr: &str, method: &str, path: &str, extra: &str, body: &str) -> Answer {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{extra}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut text = String::new();
    stream.read_to_string(&mut text).unwrap();
    parse_answer(&text)
}

const JSON: &str = "Content-Type: application/json\r\n";

fn post(addr: &str, path: &str, body: &Value, extra: &str) -> Answer {
    request(addr, "POST", path, &format!("{JSON}{extra}"), &body.to_string())
}

/// A connection from another loopback address (127.0.0.2): another client as far as the
/// server's per-IP caps are concerned.
fn connect_from(local: &str, addr: &str) -> std::io::Result<TcpStream> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4()?;
        socket.bind(format!("{local}:0").parse().unwrap())?;
        let stream = socket.connect(addr.parse().unwrap()).await?;
        let stream = stream.into_std()?;
        stream.set_nonblocking(false)?;
        Ok(stream)
    })
}

fn get_on(mut stream: TcpStream, addr: &str, path: &str) -> std::io::Result<Answer> {
    stream.set_read_timeout(Some(Duration::from_secs(3)))?;
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n")?;
    let mut text = String::new();
    stream.read_to_string(&mut text)?;
    Ok(parse_answer(&text))
}

/// Waits until `stream` is closed by the server (a read returns 0 or fails); false after `limit`.
fn closed_within(stream: &mut TcpStream, limit: Duration) -> bool {
    stream.set_read_timeout(Some(Duration::from_millis(100))).unwrap();
    let start = Instant::now();
    let mut buf = [0u8; 512];
    while start.elapsed() < limit {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => return true,
        }
    }
    false
}

#[test]
fn idle_sockets_under_a_low_open_file_limit_do_not_starve_other_clients() {
    let (_dir, db) = temp_db();
    let s = serve(&db, &["--header-timeout", "3", "--max-connections-per-ip", "64"], Some(256));
    // 300 sockets that never send a byte, all from 127.0.0.1.
    let opened = Instant::now();
    let mut idle: Vec<TcpStream> = (0..300).filter_map(|_| TcpStream::connect(&s.addr).ok()).collect();
    assert!(idle.len() >= 250, "only {} idle sockets connected", idle.len());
    // The server answers at most 16 refused connections at once (closing the others without an
    // answer), each for at most half a second: let those of the flood end.
    std::thread::sleep(Duration::from_millis(700));
    // One more from the same address is over its cap of 64: a quick JSON 429, not a hang.
    let started = Instant::now();
    let over = get_on(TcpStream::connect(&s.addr).unwrap(), &s.addr, "/healthz").unwrap();
    assert_eq!((over.status, over.code().as_str()), (429, "rate_limited"), "{}", over.body);
    // Another client is served at once.
    let other = get_on(connect_from("127.0.0.2", &s.addr).unwrap(), &s.addr, "/healthz").unwrap();
    assert_eq!(other.status, 200, "{}", other.body);
    assert_eq!(other.json(), json!({"status": "ok"}));
    assert!(started.elapsed() < Duration::from_secs(2), "took {:?}", started.elapsed());
    // The first idle socket was kept open by the server (the ones over the cap got their 429
    // and were closed)...
    assert!(!closed_within(&mut idle[0], Duration::from_millis(200)), "the first socket was not kept");
    // ...until the header timeout (3 s) closed it.
    assert!(closed_within(&mut idle[0], Duration::from_secs(6)), "an idle socket stays open");
    let closed_after = opened.elapsed();
    assert!(closed_after >= Duration::from_millis(2900), "closed after {closed_after:?}");
    // ...and the first address is served again.
    let again = get_on(TcpStream::connect(&s.addr).unwrap(), &s.addr, "/healthz").unwrap();
    assert_eq!(again.status, 200, "{}", again.body);
}

/// A minimal WebSocket client over a blocking socket (frames masked as a client's must be).
struct Ws {
    stream: TcpStream,
}

impl Ws {
    fn connect(addr: &str, path: &str, origin: Option<&str>) -> Result<Ws, Answer> {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let origin = origin.map(|o| format!("Origin: {o}\r\n")).unwrap_or_default();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n{origin}\r\n"
        )
        .unwrap();
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            if stream.read(&mut byte).unwrap_or(0) == 0 {
                break;
            }
            head.push(byte[0]);
        }
        let answer = parse_answer(&String::from_utf8_lossy(&head));
        if answer.status != 101 {
            let len = answer.header("content-length").and_then(|l| l.parse().ok()).unwrap_or(0);
            let mut rest = vec![0u8; len];
            let _ = stream.read_exact(&mut rest);
            return Err(Answer { body: String::from_utf8_lossy(&rest).into_owned(), ..answer });
        }
        Ok(Ws { stream })
    }

    fn send(&mut self, opcode: u8, payload: &[u8]) -> std::io::Result<()> {
        let mask = [0x12u8, 0x34, 0x56, 0x78];
        let mut frame = vec![0x80 | opcode];
        match payload.len() {
            n if n < 126 => frame.push(0x80 | n as u8),
            n if n < 65536 => {
                frame.push(0x80 | 126);
                frame.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                frame.push(0x80 | 127);
                frame.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        frame.extend_from_slice(&mask);
        frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        self.stream.write_all(&frame)
    }

    /// The next frame: (opcode, payload); `None` when the connection ended.
    fn recv(&mut self) -> Option<(u8, Vec<u8>)> {
        let mut head = [0u8; 2];
        self.stream.read_exact(&mut head).ok()?;
        let len = match head[1] & 0x7f {
            126 => {
                let mut b = [0u8; 2];
                self.stream.read_exact(&mut b).ok()?;
                u64::from(u16::from_be_bytes(b))
            }
            127 => {
                let mut b = [0u8; 8];
                self.stream.read_exact(&mut b).ok()?;
                u64::from_be_bytes(b)
            }
            n => u64::from(n),
        };
        let mut payload = vec![0u8; len as usize];
        self.stream.read_exact(&mut payload).ok()?;
        Some((head[0] & 0x0f, payload))
    }

    /// The next text message, skipping pings.
    fn text(&mut self) -> Option<Value> {
        loop {
            let (op, payload) = self.recv()?;
            match op {
                1 => return serde_json::from_slice(&payload).ok(),
                9 | 10 => continue,
                _ => return None,
            }
        }
    }

    /// Reads until a close frame: its code.
    fn close_code(&mut self) -> Option<u16> {
        loop {
            let (op, payload) = self.recv()?;
            if op == 8 {
                return payload.get(..2).map(|b| u16::from_be_bytes([b[0], b[1]]));
            }
        }
    }
}

fn create_table(addr: &str, body: &Value) -> String {
    let a = post(addr, "/api/tables", body, "");
    assert_eq!(a.status, 201, "{}", a.body);
    a.json()["id"].as_str().unwrap().to_string()
}

#[test]
fn websocket_messages_are_limited_pinged_and_idle_sockets_closed() {
    let (_dir, db) = temp_db();
    let s = serve(
        &db,
        &["--ws-max-message", "1024", "--ws-ping-interval", "0.3", "--ws-idle-timeout", "1"],
        None,
    );
    let id = create_table(&s.addr, &json!({"players": 3}));
    let path = format!("/api/tables/{id}/ws");

    // A small message is answered; one over 1 KiB closes the connection with 1009 (too big).
    let mut ws = Ws::connect(&s.addr, &path, None).unwrap();
    assert_eq!(ws.text().unwrap()["type"], "state");
    ws.send(1, br#"{"type": "ping"}"#).unwrap();
    assert_eq!(ws.text().unwrap(), json!({"type": "pong"}));
    ws.send(1, br#"{"type": "ping", "zzz": 1}"#).unwrap();
    let refused = ws.text().unwrap();
    assert_eq!(refused["code"], "bad_request", "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("unknown field `zzz`"), "{refused}");
    let big = format!(r#"{{"type": "auth", "token": "{}"}}"#, "x".repeat(2000));
    ws.send(1, big.as_bytes()).unwrap();
    assert_eq!(ws.close_code(), Some(1009));

    // A silent client is pinged every 0.3 s, then closed (1001) after 1 s without an answer.
    let started = Instant::now();
    let mut silent = Ws::connect(&s.addr, &path, None).unwrap();
    let mut pings = 0;
    let code = loop {
        match silent.recv() {
            Some((9, _)) => pings += 1,
            Some((8, payload)) => break u16::from_be_bytes([payload[0], payload[1]]),
            Some(_) => {}
            None => panic!("the connection ended without a close frame"),
        }
    };
    let took = started.elapsed();
    assert_eq!(code, 1001);
    assert!(pings >= 2, "{pings} pings");
    assert!(took >= Duration::from_millis(900) && took < Duration::from_secs(3), "closed after {took:?}");

    // A client that answers the pings stays.
    let mut alive = Ws::connect(&s.addr, &path, None).unwrap();
    let until = Instant::now() + Duration::from_millis(1600);
    while Instant::now() < until {
        let (op, payload) = alive.recv().expect("the connection stays open");
        assert_ne!(op, 8, "closed while answering pings");
        if op == 9 {
            alive.send(10, &payload).unwrap();
        }
    }

    // A cross-site page cannot open the WebSocket.
    let refused = Ws::connect(&s.addr, &path, Some("http://evil.example")).err().expect("refused");
    assert_eq!((refused.status, refused.code().as_str()), (403, "forbidden"), "{}", refused.body);
}

#[test]
fn rate_limits_and_the_open_table_cap() {
    let (_dir, db) = temp_db();
    // Behind a proxy, each X-Forwarded-For address is a client of its own.
    let s = serve(
        &db,
        &[
            "--behind-proxy",
            "--tables-per-minute",
            "2",
            "--seats-per-minute",
            "3",
            "--rematches-per-minute",
            "1",
            "--max-open-tables",
            "3",
        ],
        None,
    );
    let a = "X-Forwarded-For: 203.0.113.1\r\n";
    let b = "X-Forwarded-For: 203.0.113.2\r\n";
    let c = "X-Forwarded-For: 203.0.113.3\r\n";
    let table = json!({"players": 3});
    let t1 = post(&s.addr, "/api/tables", &table, a);
    assert_eq!(t1.status, 201, "{}", t1.body);
    let t2 = post(&s.addr, "/api/tables", &table, a);
    assert_eq!(t2.status, 201, "{}", t2.body);
    let third = post(&s.addr, "/api/tables", &table, a);
    assert_eq!((third.status, third.code().as_str()), (429, "rate_limited"), "{}", third.body);
    let wait: u64 = third.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=30).contains(&wait), "retry after {wait} s (2 per minute: one every 30 s)");
    assert!(third.json()["error"]["message"].as_str().unwrap().contains("tables created"));

    // Another address may create, up to the open-table cap of 3.
    let t3 = post(&s.addr, "/api/tables", &table, b);
    assert_eq!(t3.status, 201, "{}", t3.body);
    let (id, id2, id3) = [&t1, &t2, &t3].map(|t| t.json()["id"].as_str().unwrap().to_string()).into();
    // A person sits at each (address d); at the cap, with no table nobody sits at to make room,
    // a new table is refused.
    let d = "X-Forwarded-For: 203.0.113.4
";
    for t in [&id, &id2, &id3] {
        let taken = post(&s.addr, &format!("/api/tables/{t}/seats/2"), &json!({"name": "Dee"}), d);
        assert_eq!(taken.status, 201, "{}", taken.body);
    }
    let full = post(&s.addr, "/api/tables", &table, b);
    assert_eq!((full.status, full.code().as_str()), (503, "unavailable"), "{}", full.body);
    assert!(full.json()["error"]["message"].as_str().unwrap().contains("3 open tables"), "{}", full.body);

    // Seats: 3 per minute per address, whatever the table.
    for (t, seat) in [(&id, 0), (&id, 1), (&id3, 0)] {
        let taken = post(&s.addr, &format!("/api/tables/{t}/seats/{seat}"), &json!({"name": "Ann"}), c);
        assert_eq!(taken.status, 201, "{}", taken.body);
    }
    let fourth = post(&s.addr, &format!("/api/tables/{id2}/seats/0"), &json!({"name": "Ann"}), c);
    assert_eq!((fourth.status, fourth.code().as_str()), (429, "rate_limited"), "{}", fourth.body);
    let info = request(&s.addr, "GET", &format!("/api/tables/{id2}"), "", "").json();
    assert_eq!(info["seats"][0]["taken"], false, "a refused seat stays free");

    // Rematches: 1 per minute per address (the first may be refused for other reasons, never
    // for the rate).
    let first = post(&s.addr, &format!("/api/tables/{id}/rematch"), &json!({}), c);
    assert_ne!(first.status, 429, "{}", first.body);
    let second = post(&s.addr, &format!("/api/tables/{id}/rematch"), &json!({}), c);
    assert_eq!((second.status, second.code().as_str()), (429, "rate_limited"), "{}", second.body);

    // The list of tables is paged.
    let page = request(&s.addr, "GET", "/api/tables?limit=1&offset=1", "", "").json();
    assert_eq!(page["limit"], 1);
    assert_eq!(page["offset"], 1);
    assert_eq!(page["open"].as_array().unwrap().len(), 1);
    assert!(page["open_total"].as_u64().unwrap() >= 3, "{page}");
    let bad = request(&s.addr, "GET", "/api/tables?limit=100000", "", "");
    assert_eq!(bad.status, 400, "{}", bad.body);
}

#[test]
fn cross_site_malformed_and_oversized_requests_are_refused_with_security_headers() {
    let (_dir, db) = temp_db();
    let s = serve(&db, &["--max-body", "2048"], None);
    let create = json!({"players": 3}).to_string();

    // A cross-site form or "simple" fetch can only send text/plain: refused, nothing created.
    let plain = request(
        &s.addr,
        "POST",
        "/api/tables",
        "Content-Type: text/plain\r\nOrigin: http://evil.example\r\n",
        &create,
    );
    assert_eq!(plain.status, 403, "{}", plain.body);
    let plain = request(&s.addr, "POST", "/api/tables", "Content-Type: text/plain\r\n", &create);
    assert_eq!((plain.status, plain.code().as_str()), (415, "unsupported_media_type"), "{}", plain.body);
    let none = request(&s.addr, "POST", "/api/tables", "", &create);
    assert_eq!(none.status, 415, "{}", none.body);
    // JSON from another origin: refused; from the server's own: accepted.
    let evil = post(&s.addr, "/api/tables", &json!({"players": 3}), "Origin: http://evil.example\r\n");
    assert_eq!((evil.status, evil.code().as_str()), (403, "forbidden"), "{}", evil.body);
    let list = request(&s.addr, "GET", "/api/tables", "", "").json();
    assert_eq!(list["open_total"], 0, "a refused request creates nothing");
    let own = post(&s.addr, "/api/tables", &json!({"players": 3}), &format!("Origin: http://{}\r\n", s.addr));
    assert_eq!(own.status, 201, "{}", own.body);
    let id = own.json()["id"].as_str().unwrap().to_string();

    // Bodies: a bare array, unknown fields, over the size limit.
    let array = request(&s.addr, "POST", "/api/tables", JSON, "[3]");
    assert_eq!(array.status, 400, "{}", array.body);
    assert!(array.body.contains("JSON object"), "{}", array.body);
    let unknown = post(&s.addr, "/api/tables", &json!({"players": 3, "zzz": 1}), "");
    assert_eq!(unknown.status, 400);
    assert!(unknown.body.contains("unknown field `zzz`"), "{}", unknown.body);
    let big = request(
        &s.addr,
        "POST",
        "/api/tables",
        JSON,
        &format!(r#"{{"players": 3, "pad": "{}"}}"#, "x".repeat(4000)),
    );
    assert_eq!((big.status, big.code().as_str()), (413, "too_large"), "{}", big.body);
    assert_eq!(big.header("content-type"), Some("application/json"));

    // Names: no bidi overrides, zero-width or control characters; the seat stays free.
    for name in ["evil\u{202E}gnp", "a\u{200B}b", "tab\tname"] {
        let seat = post(&s.addr, &format!("/api/tables/{id}/seats/0"), &json!({"name": name}), "");
        assert_eq!(seat.status, 400, "{name:?}: {}", seat.body);
    }
    let info = request(&s.addr, "GET", &format!("/api/tables/{id}"), "", "").json();
    assert_eq!(info["seats"][0]["taken"], false);

    // Actions with unknown or junk fields are refused and change nothing.
    let mut tokens = Vec::new();
    for seat in 0..3 {
        let t = post(
            &s.addr,
            &format!("/api/tables/{id}/seats/{seat}"),
            &json!({"name": format!("P{seat}")}),
            "",
        );
        assert_eq!(t.status, 201, "{}", t.body);
        tokens.push(t.json()["token"].as_str().unwrap().to_string());
    }
    let auth = format!("Authorization: Bearer {}\r\n", tokens[0]);
    let state = request(&s.addr, "GET", &format!("/api/tables/{id}/state"), &auth, "").json();
    let card = state["view"]["hand"][0].as_str().unwrap().to_string();
    for action in [
        json!({"type": "discard", "card": card, "zzz": 1}),
        json!({"type": "wonder", "card": card, "free": "junk"}),
        json!({"type": "discard", "card": card, "bank": 0}),
    ] {
        let act = post(&s.addr, &format!("/api/tables/{id}/actions"), &json!({"action": action}), &auth);
        assert_eq!(act.status, 400, "{action}: {}", act.body);
        assert!(act.body.contains("unknown field"), "{action}: {}", act.body);
    }
    let after = request(&s.addr, "GET", &format!("/api/tables/{id}/state"), &auth, "").json();
    assert_eq!(after["turn_id"], state["turn_id"], "nothing changed");

    // A WebSocket route asked without the upgrade: a JSON error too.
    let plain_get = request(&s.addr, "GET", &format!("/api/tables/{id}/ws"), "", "");
    assert_eq!((plain_get.status, plain_get.code().as_str()), (400, "bad_request"), "{}", plain_get.body);

    // Security headers on the page, the API and errors.
    for path in ["/", "/api/tables", "/api/tables/nope"] {
        let a = request(&s.addr, "GET", path, "", "");
        let csp = a.header("content-security-policy").unwrap_or_default();
        assert!(csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'"), "{path}: {csp}");
        assert_eq!(a.header("x-content-type-options"), Some("nosniff"), "{path}");
        assert_eq!(a.header("referrer-policy"), Some("no-referrer"), "{path}");
        assert_eq!(a.header("x-frame-options"), Some("DENY"), "{path}");
        assert!(a.header("x-request-id").is_some_and(|id| !id.is_empty()), "{path}");
    }
}

/// The value of a metric line (`name{labels} value`).
fn metric(text: &str, name: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|rest| rest.strip_prefix(' ')))
        .unwrap_or_else(|| panic!("no `{name}` in\n{text}"))
        .parse()
        .unwrap()
}

#[test]
fn healthz_metrics_and_graceful_shutdown() {
    let (_dir, db) = temp_db();
    let mut s = serve(&db, &["--shutdown-grace", "3"], None);
    let health = request(&s.addr, "GET", "/healthz", "", "");
    assert_eq!((health.status, health.json()), (200, json!({"status": "ok"})));

    let id = create_table(&s.addr, &json!({"players": 3}));
    let mut tokens = Vec::new();
    for seat in 0..3 {
        let t = post(
            &s.addr,
            &format!("/api/tables/{id}/seats/{seat}"),
            &json!({"name": format!("P{seat}")}),
            "",
        );
        tokens.push(t.json()["token"].as_str().unwrap().to_string());
    }
    create_table(&s.addr, &json!({"players": 4}));
    let auth = format!("Authorization: Bearer {}\r\n", tokens[0]);
    let state = request(&s.addr, "GET", &format!("/api/tables/{id}/state"), &auth, "").json();
    let act =
        post(&s.addr, &format!("/api/tables/{id}/actions"), &json!({"action": state["legal"][0]}), &auth);
    assert_eq!(act.status, 200, "{}", act.body);
    let mut ws = Ws::connect(&s.addr, &format!("/api/tables/{id}/ws"), None).unwrap();
    assert_eq!(ws.text().unwrap()["type"], "state");

    let m = request(&s.addr, "GET", "/metrics", "", "");
    assert_eq!(m.status, 200);
    assert!(m.header("content-type").unwrap().starts_with("text/plain; version=0.0.4"));
    let text = m.body;
    assert_eq!(metric(&text, "wonders_tables{status=\"waiting\"}"), 1.0);
    assert_eq!(metric(&text, "wonders_games_in_progress"), 1.0);
    assert_eq!(metric(&text, "wonders_actions_total"), 1.0);
    assert_eq!(metric(&text, "wonders_ack_seconds_count"), 1.0);
    assert_eq!(metric(&text, "wonders_ack_seconds_bucket{le=\"+Inf\"}"), 1.0);
    assert_eq!(metric(&text, "wonders_websockets"), 1.0);
    assert!(metric(&text, "wonders_connections") >= 2.0, "the WebSocket and the scrape");

    // SIGTERM: the WebSocket is told the server is going away, the process ends by itself.
    let status = Command::new("kill").args(["-TERM", &s.child.id().to_string()]).status().unwrap();
    assert!(status.success());
    assert_eq!(ws.close_code(), Some(1001));
    let started = Instant::now();
    let exit = loop {
        if let Some(exit) = s.child.try_wait().unwrap() {
            break exit;
        }
        assert!(started.elapsed() < Duration::from_secs(5), "the server did not stop");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(exit.success(), "{exit:?}");
    // The reader thread forwards the last lines once the pipe closes.
    let out: Vec<String> =
        std::iter::from_fn(|| s.stdout.recv_timeout(Duration::from_secs(2)).ok()).collect();
    assert!(out.iter().any(|l| l.contains("stopped (every game is saved)")), "{out:?}");

    // The action acknowledged before the stop is on disk.
    let s = serve(&db, &[], None);
    let state = request(&s.addr, "GET", &format!("/api/tables/{id}/state"), &auth, "").json();
    assert_eq!(state["turn_id"], 1, "{state}");
}

#[test]
fn logs_are_json_lines_carrying_the_request_id() {
    let (_dir, db) = temp_db();
    let mut s = serve_binary(&db, &["--log-format", "json"], None, Stdio::piped(), "info");
    let refused = request(&s.addr, "POST", "/api/tables", "Content-Type: text/plain\r\n", "{}");
    assert_eq!(refused.status, 415);
    let id = refused.header("x-request-id").unwrap().to_string();
    let _ = s.child.kill();
    let mut logs = String::new();
    s.child.stderr.take().unwrap().read_to_string(&mut logs).unwrap();
    let line: Value = logs
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|l| l["fields"]["status"] == 415)
        .unwrap_or_else(|| panic!("no log line for the refusal in\n{logs}"));
    assert_eq!(line["level"], "INFO", "{line}");
    assert_eq!(line["span"]["id"], id.as_str(), "{line}");
    assert_eq!(line["span"]["method"], "POST", "{line}");
    assert_eq!(line["span"]["path"], "/api/tables", "{line}");
    assert_eq!(line["span"]["ip"], "127.0.0.1", "{line}");
}

/// Sends `bytes` on a new connection and reads until the server closes it: the answer, or the
/// error (a reset) instead.
fn exchange(addr: &str, bytes: &[u8]) -> std::io::Result<Answer> {
    let mut stream = TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    stream.write_all(bytes)?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw)?;
    Ok(parse_answer(&String::from_utf8_lossy(&raw)))
}

/// A `GET path` with the `Host` header `host` and `extra` header lines.
fn get_as(addr: &str, host: &str, path: &str, extra: &str) -> Answer {
    let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n{extra}\r\n");
    exchange(addr, request.as_bytes()).unwrap_or_else(|e| panic!("Host {host}, {path}: {e}"))
}

/// The status line and headers of a WebSocket upgrade asked with the `Host` header `host`.
fn upgrade_as(addr: &str, host: &str, path: &str) -> Answer {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    .unwrap();
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap_or(0) == 1 {
        head.push(byte[0]);
    }
    parse_answer(&String::from_utf8_lossy(&head))
}

/// A request whose line and headers take exactly `size` bytes (padded by an `X-Pad` header).
fn request_of_size(host: &str, size: usize) -> Vec<u8> {
    let start = format!("GET /healthz HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nX-Pad: ");
    let pad = size - start.len() - 4;
    format!("{start}{}\r\n\r\n", "a".repeat(pad)).into_bytes()
}

#[test]
fn hosts_the_header_limit_and_the_connection_cap() {
    let (_dir, db) = temp_db();
    let flags = [
        "--allowed-hosts",
        "play.example,Other.Example",
        "--max-header-bytes",
        "4096",
        "--max-connections",
        "6",
    ];
    let s = serve(&db, &flags, None);
    let port = s.addr.rsplit(':').next().unwrap().to_string();

    // Hosts: localhost, IP addresses and the listed names are answered; any other is refused
    // (421, naming the rule): a rebinding domain's page cannot use the server.
    for host in
        [s.addr.clone(), format!("localhost:{port}"), "play.example".into(), "other.example:443".into()]
    {
        let a = get_as(&s.addr, &host, "/healthz", "");
        assert_eq!(a.status, 200, "Host {host}: {}", a.body);
    }
    for host in ["evil.example", "www.play.example", "localhost.evil.example"] {
        let a = get_as(&s.addr, host, "/api/tables", "");
        assert_eq!((a.status, a.code().as_str()), (421, "host_not_allowed"), "Host {host}: {}", a.body);
        assert!(a.body.contains("--allowed-hosts"), "{}", a.body);
    }
    // The page and the WebSocket through an allowed name; not through another.
    assert_eq!(get_as(&s.addr, "play.example", "/", "").status, 200);
    let id = create_table(&s.addr, &json!({"players": 3}));
    let ws = format!("/api/tables/{id}/ws");
    assert_eq!(upgrade_as(&s.addr, "play.example", &ws).status, 101);
    assert_eq!(upgrade_as(&s.addr, "evil.example", &ws).status, 421);

    // Headers: served up to 4096 bytes, a JSON 431 past them.
    for (size, status) in [(4000, 200), (4096, 200), (4097, 431), (9000, 431)] {
        let a = exchange(&s.addr, &request_of_size(&s.addr, size))
            .unwrap_or_else(|e| panic!("{size} bytes: {e}"));
        assert_eq!(a.status, status, "{size} bytes of headers: {}", a.body);
        if status == 431 {
            assert_eq!(a.code(), "headers_too_large", "{}", a.body);
            assert!(a.body.contains("4096"), "{}", a.body);
        }
    }

    // The connection cap: 6 connections held open, the 7th reads a JSON 503 (not a reset).
    std::thread::sleep(Duration::from_millis(300));
    let mut held = Vec::new();
    for _ in 0..6 {
        let mut c = TcpStream::connect(&s.addr).unwrap();
        c.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        write!(c, "GET /healthz HTTP/1.1\r\nHost: {}\r\n\r\n", s.addr).unwrap();
        let mut buf = [0u8; 1024];
        let n = c.read(&mut buf).unwrap();
        assert!(buf[..n].starts_with(b"HTTP/1.1 200"), "{}", String::from_utf8_lossy(&buf[..n]));
        held.push(c);
    }
    let over = get_as(&s.addr, &s.addr, "/healthz", "");
    assert_eq!((over.status, over.code().as_str()), (503, "unavailable"), "{over:?}");
    // A burst over the cap: every one reads its 503.
    let burst: Vec<_> = (0..40)
        .map(|_| {
            let addr = s.addr.clone();
            std::thread::spawn(move || {
                exchange(&addr, format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes())
                    .map(|a| a.status)
            })
        })
        .collect();
    let statuses: Vec<_> = burst.into_iter().map(|t| t.join().unwrap().map_err(|e| e.kind())).collect();
    assert!(statuses.iter().all(|s| *s == Ok(503)), "{statuses:?}");
    drop(held);
}
