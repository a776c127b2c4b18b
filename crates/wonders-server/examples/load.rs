//! A bounded load test on loopback: a server process with a temporary database, `--games` tables
//! whose seats are all taken by WebSocket client bots (random legal moves from the legal actions
//! the server sends), played to the end concurrently. Reports actions per second, the time from
//! sending an action to its acknowledgment (median, 99th percentile, max), the server's CPU time
//! per action (user + system, from /proc: on a shared machine it varies less than the rate), the
//! load client's own CPU time per action (it shares the cores with the server), how many states
//! the seats received per action, and the server's memory (VmHWM, VmRSS from /proc).
//!
//! ```sh
//! cargo run --release -p wonders-server --example load -- --games 200
//! ```
//!
//! The server runs with [`wonders_server::Limits::loopback`]: every client is on 127.0.0.1, so the
//! per-IP rate limits and connection caps are lifted; the timeouts and message sizes are the
//! defaults of `wonders serve`.
//!
//! Options: `--games N` (200), `--players P` (4), `--timeout SECONDS` (300), `--finished-keep
//! SECONDS` (how long the server keeps a finished game in memory; its default otherwise) and
//! `--settle SECONDS` (0: after the games, wait that long and report the server's memory again,
//! and per finished game), `--bot-games N` (0: then create N tables of four random bots one after
//! the other, wait for their end and `--settle`, and report the server's memory per such game).
//! `--server ADDR` plays against a server already running (`load --serve-only DB` prints its
//! `ADDR`: to profile it alone, e.g. under `valgrind --tool=callgrind`).
//!
//! Stores: `--db postgres://…` serves from that PostgreSQL database (which must hold no table)
//! instead of a temporary SQLite file, and `--servers N` (1; up to 4, PostgreSQL only) starts N
//! server processes on it, the tables created at each in turn and every seat playing at the
//! server that created its table; the CPU time is theirs together, the memory the first's.
//! `--compare` runs the same load three times in one run — SQLite, PostgreSQL with one server,
//! PostgreSQL with two — on a throwaway PostgreSQL cluster (`wonders_server::pgtemp`, its
//! default durability: `fsync` and `synchronous_commit` on; `--pg-fsync off` to measure without
//! the flush, SQLite's own setting's equivalent), and prints the three results and a summary:
//!
//! ```sh
//! cargo run --release -p wonders-server --example load -- --compare --games 200
//! ```
//! It stops by itself when every game is over or the time is up, and only ever talks to 127.0.0.1.

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::io::BufRead;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

// The allocator of `wonders serve` (this process is also the server, `--serve-only`): mimalloc.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

struct Options {
    games: usize,
    players: u8,
    timeout: u64,
    serve_db: Option<String>,
    finished_keep: Option<u64>,
    settle: u64,
    bot_games: usize,
    /// A server already running (`--server ADDR`, a loopback address printed by `--serve-only`):
    /// played against instead of starting one (to profile the server alone).
    server: Option<String>,
    /// The store (`--db`): a `postgres://` URL; a temporary SQLite file when absent.
    db: Option<String>,
    /// How many server processes share the store (`--servers`).
    servers: usize,
    /// `--compare`: SQLite, PostgreSQL with one server and with two, in one run.
    compare: bool,
    /// `--pg-fsync on|off`: the throwaway cluster's `fsync` in `--compare`.
    pg_fsync: String,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        games: 200,
        players: 4,
        timeout: 300,
        serve_db: None,
        finished_keep: None,
        settle: 0,
        bot_games: 0,
        server: None,
        db: None,
        servers: 1,
        compare: false,
        pg_fsync: "on".into(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match a.as_str() {
            "--games" => o.games = value("--games")?.parse().map_err(|e| format!("--games: {e}"))?,
            "--players" => o.players = value("--players")?.parse().map_err(|e| format!("--players: {e}"))?,
            "--timeout" => o.timeout = value("--timeout")?.parse().map_err(|e| format!("--timeout: {e}"))?,
            "--serve-only" => o.serve_db = Some(value("--serve-only")?),
            "--server" => o.server = Some(value("--server")?),
            "--finished-keep" => {
                o.finished_keep =
                    Some(value("--finished-keep")?.parse().map_err(|e| format!("--finished-keep: {e}"))?)
            }
            "--settle" => o.settle = value("--settle")?.parse().map_err(|e| format!("--settle: {e}"))?,
            "--bot-games" => {
                o.bot_games = value("--bot-games")?.parse().map_err(|e| format!("--bot-games: {e}"))?
            }
            "--db" => o.db = Some(value("--db")?),
            "--servers" => o.servers = value("--servers")?.parse().map_err(|e| format!("--servers: {e}"))?,
            "--compare" => o.compare = true,
            "--pg-fsync" => o.pg_fsync = value("--pg-fsync")?,
            other => return Err(format!("unknown option {other} (--games N, --players P, --timeout S)")),
        }
    }
    if !(1..=2000).contains(&o.games)
        || !(3..=7).contains(&o.players)
        || o.timeout == 0
        || o.settle > 600
        || o.bot_games > 5000
        || !(1..=4).contains(&o.servers)
        || !matches!(o.pg_fsync.as_str(), "on" | "off")
    {
        return Err("bounds: 1 to 2000 games, 3 to 7 players, a timeout above 0, settle up to 600, bot games up to 5000".into());
    }
    if o.servers > 1 && !o.db.as_deref().is_some_and(wonders_server::storage::is_postgres_url) {
        return Err("--servers above 1 needs --db postgres://… (an SQLite file has one server)".into());
    }
    Ok(o)
}

/// The server process: serves on a free loopback port and prints it.
fn serve_only(db: &str, finished_keep: Option<u64>) {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let mut config = wonders_server::server::ServerConfig::default();
        if let Some(secs) = finished_keep {
            config.finished_keep = Duration::from_secs(secs);
        }
        let server = wonders_server::Server::open_db(db, config).unwrap();
        // A backlog for every seat connecting at once (`wonders_server::listen`): with tokio's
        // default of 128, the kernel dropped hundreds of the 800 connections and their tables
        // waited a second for TCP to try again.
        let listener = wonders_server::listen(([127, 0, 0, 1], 0).into()).unwrap();
        println!("ADDR {}", listener.local_addr().unwrap());
        // 200 games from one address: the per-IP rate limits and connection caps are lifted
        // (`Limits::loopback`); timeouts and message sizes stay the defaults.
        let limits = wonders_server::Limits::loopback();
        wonders_server::serve_with(listener, server, limits, std::future::pending()).await.unwrap();
    });
}

/// The CPU time the process has used (user + system), from /proc/PID/stat.
fn proc_cpu(pid: u32) -> Option<Duration> {
    if pid == 0 {
        return None;
    }
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and
    // 13th, in clock ticks (100 per second on Linux).
    let fields: Vec<&str> = text.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

fn proc_status(pid: u32, key: &str) -> Option<u64> {
    if pid == 0 {
        return None;
    }
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// What a seat's client reads of a server message (the fields a random bot needs). The legal
/// actions are kept as their JSON text (borrowed from the message), copied as they are into the
/// chosen action's message.
///
/// Read by [`Incoming::read`], which walks the message's top-level fields and skips the others
/// (the view, the log, the summaries: most of a state's few KiB) by matching brackets and quotes
/// only, without checking them as JSON: the client shares the machine's 2 cores with the
/// server, and serde_json's checking skip of those fields was 72% of the client's instructions
/// (about 85,000 per state; docs/src/contributing/speed-journal.md, server round 11). The server's
/// messages are JSON (its tests check them against serde_json's); [`tests`] checks this reading
/// against serde's on them.
#[derive(Debug, Default, PartialEq)]
struct Incoming<'a> {
    kind: &'a str,
    id: Option<u64>,
    /// `table.status`, when the message has a table.
    status: Option<&'a str>,
    you: Option<u8>,
    turn_id: Option<u64>,
    legal: Vec<&'a str>,
    /// An error's explanation.
    message: Option<String>,
}

impl<'a> Incoming<'a> {
    /// The fields of a server message; `None` if it is not a JSON object as the server writes
    /// them.
    fn read(text: &'a str) -> Option<Incoming<'a>> {
        let mut v = Incoming::default();
        let mut kind = None;
        fields(text, |key, value| {
            match key {
                "type" => kind = Some(string(value)?),
                "id" => v.id = number(value),
                "table" => fields(value, |k, x| {
                    if k == "status" {
                        v.status = Some(string(x)?);
                    }
                    Some(())
                })?,
                "you" => v.you = number(value).and_then(|n| u8::try_from(n).ok()),
                "turn_id" => v.turn_id = number(value),
                "legal" => v.legal = elements(value)?,
                "message" => v.message = serde_json::from_str(value).ok(),
                _ => {}
            }
            Some(())
        })?;
        v.kind = kind?;
        Some(v)
    }
}

/// The index after the whitespace from `i` on.
fn skip_space(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

/// Bytes whose high bit is set where `w`'s byte is zero (exactly at the lowest zero byte; bytes
/// above it may be marked falsely, which only the first one found is read for).
fn zero_bytes(w: u64) -> u64 {
    w.wrapping_sub(0x0101_0101_0101_0101) & !w & 0x8080_8080_8080_8080
}

/// The end (exclusive) of the JSON string whose opening quote is at `i`: eight bytes at a time
/// to the next `"` or `\\`.
fn string_end(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    loop {
        while let Some(chunk) = b.get(j..j + 8) {
            let w = u64::from_le_bytes(chunk.try_into().ok()?);
            let hits = zero_bytes(w ^ 0x2222_2222_2222_2222) | zero_bytes(w ^ 0x5c5c_5c5c_5c5c_5c5c);
            if hits != 0 {
                j += hits.trailing_zeros() as usize / 8;
                break;
            }
            j += 8;
        }
        match *b.get(j)? {
            b'"' => return Some(j + 1),
            b'\\' => j += 2,
            _ => j += 1,
        }
    }
}

/// The end (exclusive) of the JSON value that starts at `i` (no whitespace before it): a string,
/// an object or array (to its matching bracket, strings skipped whole), or a number, `true`,
/// `false` or `null`.
fn value_end(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => string_end(b, i),
        b'{' | b'[' => {
            let (mut depth, mut j) = (1usize, i + 1);
            while let Some(&c) = b.get(j) {
                match c {
                    b'"' => {
                        j = string_end(b, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            None
        }
        _ => Some(
            i + b[i..]
                .iter()
                .position(|&c| matches!(c, b',' | b'}' | b']') || c.is_ascii_whitespace())
                .unwrap_or(b.len() - i),
        ),
    }
}

/// Calls `f` with each key of the JSON object `text` and its value's text.
fn fields<'a>(text: &'a str, mut f: impl FnMut(&'a str, &'a str) -> Option<()>) -> Option<()> {
    let b = text.as_bytes();
    let mut i = skip_space(b, 0);
    if b.get(i) != Some(&b'{') {
        return None;
    }
    i = skip_space(b, i + 1);
    if b.get(i) == Some(&b'}') {
        return Some(());
    }
    loop {
        let key_end = string_end(b, i)?;
        // The server's keys are plain words (no escapes).
        let key = text.get(i + 1..key_end - 1)?;
        i = skip_space(b, key_end);
        if b.get(i) != Some(&b':') {
            return None;
        }
        i = skip_space(b, i + 1);
        let end = value_end(b, i)?;
        f(key, text.get(i..end)?)?;
        i = skip_space(b, end);
        match b.get(i)? {
            b',' => i = skip_space(b, i + 1),
            b'}' => return Some(()),
            _ => return None,
        }
    }
}

/// The elements' texts of the JSON array `text`.
fn elements(text: &str) -> Option<Vec<&str>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = skip_space(b, 0);
    if b.get(i) != Some(&b'[') {
        return None;
    }
    i = skip_space(b, i + 1);
    if b.get(i) == Some(&b']') {
        return Some(out);
    }
    loop {
        let end = value_end(b, i)?;
        out.push(text.get(i..end)?);
        i = skip_space(b, end);
        match b.get(i)? {
            b',' => i = skip_space(b, i + 1),
            b']' => return Some(out),
            _ => return None,
        }
    }
}

/// A JSON string's text without its quotes (the server's type and status words have no escapes);
/// `None` if it is not a string.
fn string(value: &str) -> Option<&str> {
    value.strip_prefix('"')?.strip_suffix('"')
}

/// A JSON number that is an unsigned integer; `None` otherwise (`null` included).
fn number(value: &str) -> Option<u64> {
    value.parse().ok()
}

/// The read buffer of a seat's client's WebSocket: tungstenite zero-fills its free part before
/// each read (16 KiB: 9,000 instructions per state, 18% of the client's once it read the states'
/// fields only); a 4-seat state is about 4 KiB, and a larger one takes another read.
const CLIENT_READ_BUFFER: usize = 8 * 1024;

/// How many times a seat's client tries to open its WebSocket before giving up.
const CONNECT_ATTEMPTS: u64 = 10;

#[derive(Default)]
struct Totals {
    actions: AtomicU64,
    errors: AtomicU64,
    /// WebSocket connections that failed and were tried again (or given up: then also an error).
    connect_failures: AtomicU64,
    games_over: AtomicU64,
    /// `state` messages received by the seats' clients.
    states: AtomicU64,
}

/// One seat's client: plays random legal actions until the game is over; returns the
/// send-to-acknowledgment times.
async fn seat_client(url: String, token: String, seed: u64, totals: Arc<Totals>) -> Vec<Duration> {
    let mut latencies = Vec::new();
    // 800 clients connect at once: a connection the loopback refuses or drops during the
    // handshake is tried again (a seat whose client gave up would leave its table unfinished
    // until the timeout); each failure is counted and the first ones are printed.
    let mut attempt = 0u64;
    let mut ws = loop {
        // tungstenite zero-fills the free part of its read buffer before each read (128 KiB by
        // default: most of a client's time went to that); a state is a few KiB.
        let config = WebSocketConfig::default().read_buffer_size(CLIENT_READ_BUFFER);
        match tokio_tungstenite::connect_async_with_config(url.as_str(), Some(config), false).await {
            Ok((ws, _)) => break ws,
            Err(e) => {
                attempt += 1;
                if totals.connect_failures.fetch_add(1, Ordering::Relaxed) < 5 {
                    eprintln!("load: connecting failed (attempt {attempt} of {CONNECT_ATTEMPTS}): {e}");
                }
                if attempt == CONNECT_ATTEMPTS {
                    totals.errors.fetch_add(1, Ordering::Relaxed);
                    return latencies;
                }
                tokio::time::sleep(Duration::from_millis(50 * attempt)).await;
            }
        }
    };
    // A client that stops before its game is over leaves its table unfinished: it says why.
    let lost = |why: String| {
        if totals.errors.fetch_add(1, Ordering::Relaxed) < 5 {
            eprintln!("load: a seat's client stopped before its game ended: {why}");
        }
    };
    let auth = json!({"type": "auth", "token": token}).to_string();
    if let Err(e) = ws.send(Message::Text(auth.into())).await {
        lost(format!("sending `auth` failed: {e}"));
        return latencies;
    }
    let mut rng = seed | 1;
    let mut acted: Option<u64> = None;
    let mut sent: Option<(u64, Instant)> = None;
    let mut next_id = 0u64;
    let mut over = false;
    let mut ended = "the server closed the connection".to_string();
    while let Some(msg) = ws.next().await {
        let msg = match msg {
            Ok(msg) => msg,
            Err(e) => {
                ended = format!("reading failed: {e}");
                break;
            }
        };
        let Message::Text(text) = msg else { continue };
        let Some(v) = Incoming::read(text.as_str()) else { continue };
        match v.kind {
            "state" => {
                totals.states.fetch_add(1, Ordering::Relaxed);
                if v.status == Some("over") {
                    if v.you == Some(0) {
                        totals.games_over.fetch_add(1, Ordering::Relaxed);
                    }
                    over = true;
                    break;
                }
                let legal = &v.legal;
                let turn_id = v.turn_id.unwrap_or(0);
                if legal.is_empty() || acted == Some(turn_id) || sent.is_some() {
                    continue;
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let action = legal[(rng % legal.len() as u64) as usize];
                next_id += 1;
                let msg = format!(r#"{{"type":"act","id":{next_id},"turn_id":{turn_id},"action":{action}}}"#);
                sent = Some((next_id, Instant::now()));
                acted = Some(turn_id);
                if let Err(e) = ws.send(Message::Text(msg.into())).await {
                    ended = format!("sending an action failed: {e}");
                    break;
                }
            }
            "accepted" | "error" => {
                if let Some((id, at)) = sent
                    && v.id == Some(id)
                {
                    latencies.push(at.elapsed());
                    sent = None;
                    if v.kind == "accepted" {
                        totals.actions.fetch_add(1, Ordering::Relaxed);
                    } else {
                        if totals.errors.fetch_add(1, Ordering::Relaxed) < 5 {
                            eprintln!("load: action refused: {}", v.message.as_deref().unwrap_or("?"));
                        }
                        acted = None;
                        let refresh = json!({"type": "refresh"}).to_string();
                        let _ = ws.send(Message::Text(refresh.into())).await;
                    }
                }
            }
            _ => {}
        }
    }
    if !over {
        lost(ended);
    }
    latencies
}

fn main() {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("load: {e}");
            std::process::exit(2);
        }
    };
    if let Some(db) = &o.serve_db {
        serve_only(db, o.finished_keep);
        return;
    }
    if o.compare {
        compare(&o);
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = o.db.clone().unwrap_or_else(|| dir.path().join("load.db").to_string_lossy().into_owned());
    // The servers: this program's `--serve-only` in processes of their own, or the one `--server`
    // names (then its CPU time and memory are not reported: pid 0 has no /proc entry).
    let mut children = Vec::new();
    let (pids, addrs): (Vec<u32>, Vec<String>) = match &o.server {
        Some(addr) => (vec![0], vec![addr.clone()]),
        None => (0..o.servers)
            .map(|_| {
                let mut command = Command::new(std::env::current_exe().unwrap());
                command.arg("--serve-only").arg(&db);
                if let Some(secs) = o.finished_keep {
                    command.arg("--finished-keep").arg(secs.to_string());
                }
                let mut child = command.stdout(Stdio::piped()).spawn().expect("the server process starts");
                let pid = child.id();
                let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
                let addr = loop {
                    let line = lines.next().expect("the server prints its address").unwrap();
                    if let Some(a) = line.strip_prefix("ADDR ") {
                        break a.to_string();
                    }
                };
                children.push(child);
                (pid, addr)
            })
            .unzip(),
    };
    assert!(addrs.iter().all(|a| a.starts_with("127.0.0.1:")), "loopback only");
    let (pid, addr) = (pids[0], addrs[0].clone());
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let result = runtime.block_on(run(&o, &addrs, pid));
    let cpu = pids.iter().map(|&p| proc_cpu(p)).sum::<Option<Duration>>();
    let client_cpu = proc_cpu(std::process::id());
    let hwm = proc_status(pid, "VmHWM:");
    let rss = proc_status(pid, "VmRSS:");
    let settled = (o.settle > 0).then(|| {
        std::thread::sleep(Duration::from_secs(o.settle));
        proc_status(pid, "VmRSS:")
    });
    let bot_memory = if o.bot_games > 0 { runtime.block_on(bot_games(&o, &addr, pid)) } else { None };
    for child in &mut children {
        let _ = child.kill();
        let _ = child.wait();
    }
    let (elapsed, mut latencies, totals, before_play) = result;
    latencies.sort();
    let pct = |p: f64| -> f64 {
        if latencies.is_empty() {
            return 0.0;
        }
        let i = ((latencies.len() as f64 * p).ceil() as usize).clamp(1, latencies.len()) - 1;
        latencies[i].as_secs_f64() * 1000.0
    };
    let actions = totals.actions.load(Ordering::Relaxed);
    println!(
        "games: {} of {} played to the end ({} players each)",
        totals.games_over.load(Ordering::Relaxed),
        o.games,
        o.players
    );
    println!("actions: {actions} accepted, {} refused or failed", totals.errors.load(Ordering::Relaxed));
    let states = totals.states.load(Ordering::Relaxed);
    println!(
        "states: {states} received by the seats, {:.2} per accepted action",
        states as f64 / actions.max(1) as f64
    );
    let connect_failures = totals.connect_failures.load(Ordering::Relaxed);
    if connect_failures > 0 {
        println!("connections: {connect_failures} attempts failed and were tried again (or given up)");
    }
    println!("time: {:.2} s, {:.0} actions/s", elapsed.as_secs_f64(), actions as f64 / elapsed.as_secs_f64());
    println!(
        "send → acknowledgment: median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        pct(0.5),
        pct(0.99),
        latencies.last().map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    );
    if let Some(cpu) = cpu {
        // Includes creating the tables and taking the seats.
        println!(
            "server CPU time: {:.2} s, {:.0} µs per accepted action",
            cpu.as_secs_f64(),
            cpu.as_secs_f64() * 1e6 / actions.max(1) as f64
        );
    }
    if let Some(cpu) = client_cpu {
        // The clients share the cores with the server: what they take, the server cannot use.
        println!(
            "load client CPU time: {:.2} s, {:.0} µs per accepted action",
            cpu.as_secs_f64(),
            cpu.as_secs_f64() * 1e6 / actions.max(1) as f64
        );
    }
    println!(
        "server memory: VmHWM {} MiB, VmRSS {} MiB (at the end)",
        hwm.map_or("?".into(), |k| format!("{:.1}", k as f64 / 1024.0)),
        rss.map_or("?".into(), |k| format!("{:.1}", k as f64 / 1024.0))
    );
    let mib = |k: u64| format!("{:.1}", k as f64 / 1024.0);
    let per_game = |end: u64, start: u64| format!("{:.1}", (end as f64 - start as f64) / o.games as f64);
    if let (Some(start), Some(end)) = (before_play, rss) {
        println!(
            "server VmRSS: {} MiB with every table seated, before play; {} KiB more per game once all are over",
            mib(start),
            per_game(end, start)
        );
        if let Some(Some(later)) = settled {
            println!(
                "server VmRSS {} s later: {} MiB ({} KiB per finished game above the seated tables)",
                o.settle,
                mib(later),
                per_game(later, start)
            );
        }
    }
    if let Some((start, end)) = bot_memory {
        println!(
            "{} games of 4 random bots, one after the other: server VmRSS {} → {} MiB, {:.2} KiB per finished game",
            o.bot_games,
            mib(start),
            mib(end),
            (end as f64 - start as f64) / o.bot_games as f64
        );
    }
    if totals.games_over.load(Ordering::Relaxed) != o.games as u64 {
        std::process::exit(1);
    }
}

async fn run(o: &Options, addrs: &[String], pid: u32) -> (Duration, Vec<Duration>, Arc<Totals>, Option<u64>) {
    let http = reqwest::Client::new();
    let mut seats = Vec::new();
    for g in 0..o.games {
        // Each server in turn creates a table; its seats play there.
        let addr = &addrs[g % addrs.len()];
        let base = format!("http://{addr}");
        let info: Value = http
            .post(format!("{base}/api/tables"))
            .json(&json!({"players": o.players}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let id = info["id"].as_str().unwrap().to_string();
        for seat in 0..o.players {
            let tok: Value = http
                .post(format!("{base}/api/tables/{id}/seats/{seat}"))
                .json(&json!({"name": format!("load{g}-{seat}")}))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            seats.push((addr.clone(), id.clone(), tok["token"].as_str().unwrap().to_string()));
        }
    }
    let before_play = proc_status(pid, "VmRSS:");
    let totals = Arc::new(Totals::default());
    let start = Instant::now();
    let mut tasks = Vec::new();
    for (i, (addr, id, token)) in seats.into_iter().enumerate() {
        let url = format!("ws://{addr}/api/tables/{id}/ws");
        tasks.push(tokio::spawn(seat_client(url, token, 0x9e37_79b9_7f4a_7c15 ^ i as u64, totals.clone())));
    }
    let mut latencies = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(o.timeout);
    for t in tasks {
        match tokio::time::timeout_at(deadline, t).await {
            Ok(Ok(l)) => latencies.extend(l),
            Ok(Err(_)) => {}
            Err(_) => {
                eprintln!("load: the time is up ({} s); reporting what was done", o.timeout);
                break;
            }
        }
    }
    (start.elapsed(), latencies, totals, before_play)
}

/// `--compare`: the same load on SQLite, on PostgreSQL with one server and with two, each a
/// run of this program in a process of its own (a new database each), then a summary.
fn compare(o: &Options) {
    let pg =
        wonders_server::pgtemp::TempPostgres::start_with(&[("fsync", &o.pg_fsync)]).unwrap_or_else(|e| {
            eprintln!("load: {e}");
            std::process::exit(2);
        });
    let runs: [(&str, Option<&str>, usize); 3] = [
        ("SQLite, 1 server", None, 1),
        ("PostgreSQL, 1 server", Some("one"), 1),
        ("PostgreSQL, 2 servers", Some("two"), 2),
    ];
    let mut summary = Vec::new();
    for (name, database, servers) in runs {
        let mut command = Command::new(std::env::current_exe().unwrap());
        command.args(["--games", &o.games.to_string(), "--players", &o.players.to_string()]);
        command.args(["--timeout", &o.timeout.to_string(), "--servers", &servers.to_string()]);
        if let Some(database) = database {
            command.arg("--db").arg(pg.create_database(database).unwrap());
        }
        let out = command.stderr(Stdio::inherit()).output().expect("a run starts");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        println!("== {name}\n{text}");
        let line = |prefix: &str| {
            text.lines().find_map(|l| l.strip_prefix(prefix)).unwrap_or("?").trim().to_string()
        };
        summary.push((name, line("time:"), line("send → acknowledgment:"), line("server CPU time:")));
    }
    println!(
        "== summary ({} games of {} players; PostgreSQL {} with fsync={}, synchronous_commit=on)",
        o.games,
        o.players,
        wonders_server::pgtemp::bin_dir().map_or("?".into(), |d| d.display().to_string()),
        o.pg_fsync
    );
    for (name, time, ack, cpu) in summary {
        println!("{name:<22} {time:<28} {ack}; server CPU {cpu}");
    }
}

/// Creates `--bot-games` tables of four random bots, one after the other, waits for their end and
/// `--settle` seconds: the server's VmRSS before and after, in KiB.
async fn bot_games(o: &Options, addr: &str, pid: u32) -> Option<(u64, u64)> {
    let http = reqwest::Client::new();
    let base = format!("http://{addr}");
    let before = proc_status(pid, "VmRSS:")?;
    for _ in 0..o.bot_games {
        let info: Value = http
            .post(format!("{base}/api/tables"))
            .json(&json!({"players": 4, "seats": [{"bot": "random"}, {"bot": "random"}, {"bot": "random"}, {"bot": "random"}]}))
            .send()
            .await
            .ok()?
            .json()
            .await
            .ok()?;
        let id = info["id"].as_str()?.to_string();
        // One game at a time: the next starts once this one is over.
        for _ in 0..5000 {
            let info: Value =
                http.get(format!("{base}/api/tables/{id}")).send().await.ok()?.json().await.ok()?;
            if info["status"] == "over" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }
    tokio::time::sleep(Duration::from_secs(o.settle)).await;
    Some((before, proc_status(pid, "VmRSS:")?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::value::RawValue;

    /// What serde reads of a message (the client's former reading).
    #[derive(serde::Deserialize)]
    struct BySerde<'a> {
        #[serde(rename = "type", borrow)]
        kind: &'a str,
        id: Option<u64>,
        #[serde(borrow)]
        table: Option<TableStatus<'a>>,
        you: Option<u8>,
        turn_id: Option<u64>,
        #[serde(default, borrow)]
        legal: Vec<&'a RawValue>,
        message: Option<String>,
    }

    #[derive(serde::Deserialize)]
    struct TableStatus<'a> {
        status: &'a str,
    }

    fn by_serde(text: &str) -> Incoming<'_> {
        let v: BySerde = serde_json::from_str(text).unwrap();
        Incoming {
            kind: v.kind,
            id: v.id,
            status: v.table.map(|t| t.status),
            you: v.you,
            turn_id: v.turn_id,
            legal: v.legal.iter().map(|r| r.get()).collect(),
            message: v.message,
        }
    }

    #[test]
    fn messages_are_read_as_serde_reads_them() {
        let messages = [
            r#"{"type":"accepted","id":7,"turn_id":3}"#,
            r#"{"type":"auth_ok","seat":2}"#,
            r#"{"type":"pong"}"#,
            r#"{"type":"error","id":4,"code":"conflict","message":"a \"quoted\" word, \\ and \u00e9"}"#,
            r#"{"type":"error","code":"bad_request","message":"malformed"}"#,
            r#"{ "type" : "state" , "table" : {"id":"ab]c}","seats":[{"name":"A\"}]{["}],"status":"over"} ,
                "step":12,"you":null,"turn_id":0,"view":{"x":[1,-2.5e3,true,false,null,{"y":"]"}]},
                "legal":[],"waiting":[],"history":[{"t":"]}"}]}"#,
            r#"{"type":"state","table":{"status":"playing","players":4},"step":3,"you":1,"turn_id":5,
                "view":{"hand":["Altar","Baths"],"log":[]},"legal":[{"type":"build","card":"Altar","pay":{"left":1}},
                {"type":"discard","card":"Baths"} , {"type":"wonder","card":"Altar","note":"a , ] } \" \\"}],
                "summaries":[],"scores":null}"#,
        ];
        for m in messages {
            assert_eq!(Incoming::read(m), Some(by_serde(m)), "{m}");
        }
        // Strings longer than 8 bytes, escapes at every offset of an 8-byte chunk.
        for pad in 0..17 {
            let word = "x".repeat(pad);
            let m = format!(
                r#"{{"type":"state","view":{{"a":"{word}\\\\","b":"{word}\"]}}{word}","c":["{word}"]}},"legal":[{{"n":"{word}\\\\"}},"{word}"],"you":3}}"#
            );
            assert_eq!(Incoming::read(&m), Some(by_serde(&m)), "{m}");
        }
        // Every seat's and a spectator's state after every change of whole games, as the
        // server writes them (the first legal action played each time).
        let dir = tempfile::tempdir().unwrap();
        let server = wonders_server::Server::open(&dir.path().join("t.db")).unwrap();
        for req in [json!({"players": 4}), json!({"players": 3, "expansions": ["armada"]})] {
            let req = serde_json::from_value(req).unwrap();
            let id = server.create_table(&req).unwrap().id;
            let players = server.table(&id).unwrap().lock().info().players;
            let tokens: Vec<String> = (0..players)
                .map(|s| server.take_seat(&id, s as usize, "A \\\"b\"", None).unwrap().token)
                .collect();
            let cell = server.table(&id).unwrap();
            let mut read = 0;
            loop {
                let mut acted = false;
                for you in std::iter::once(None).chain((0..players).map(Some)) {
                    let mut text = String::new();
                    wonders_server::json::write_state_msg(&mut text, &server.state_for(&cell, you, 0));
                    let v = Incoming::read(&text);
                    assert_eq!(v, Some(by_serde(&text)), "{text}");
                    read += 1;
                    let v = v.unwrap();
                    if let (Some(seat), Some(action)) = (you, v.legal.first())
                        && !acted
                    {
                        let action = serde_json::from_str(action).unwrap();
                        server.act(&id, &tokens[seat as usize], v.turn_id, &action).unwrap();
                        acted = true;
                    }
                }
                if !acted {
                    break;
                }
            }
            assert_eq!(cell.lock().status(), "over", "{read} states read");
        }
        // Not an object as the server writes them: nothing read.
        for m in ["", "[]", r#"{"type":"state""#, r#"{"type":"state","legal":[1,}"#, "{\"type\":7}"] {
            assert_eq!(Incoming::read(m), None, "{m}");
        }
    }
}
