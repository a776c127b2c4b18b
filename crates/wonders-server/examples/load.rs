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
//! It stops by itself when every game is over or the time is up, and only ever talks to 127.0.0.1.

use futures_util::{SinkExt, StreamExt};
use serde_json::value::RawValue;
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
            other => return Err(format!("unknown option {other} (--games N, --players P, --timeout S)")),
        }
    }
    if !(1..=2000).contains(&o.games)
        || !(3..=7).contains(&o.players)
        || o.timeout == 0
        || o.settle > 600
        || o.bot_games > 5000
    {
        return Err("bounds: 1 to 2000 games, 3 to 7 players, a timeout above 0, settle up to 600, bot games up to 5000".into());
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
        let server = wonders_server::Server::open_with(std::path::Path::new(db), config).unwrap();
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

/// What a seat's client reads of a server message: serde skips every other field without
/// building it (the client shares the machine's cores with the server, so it reads no more than
/// it needs).
/// The legal actions are kept as their JSON text (borrowed from the message), copied as they are
/// into the chosen action's message.
#[derive(serde::Deserialize)]
struct Incoming<'a> {
    #[serde(rename = "type", borrow)]
    kind: &'a str,
    id: Option<u64>,
    #[serde(borrow)]
    table: Option<TableStatus<'a>>,
    you: Option<u8>,
    turn_id: Option<u64>,
    #[serde(default, borrow)]
    legal: Vec<&'a RawValue>,
    /// An error's explanation.
    message: Option<String>,
}

#[derive(serde::Deserialize)]
struct TableStatus<'a> {
    status: &'a str,
}

/// The read buffer of a seat's client's WebSocket.
const CLIENT_READ_BUFFER: usize = 16 * 1024;

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
        let Ok(v) = serde_json::from_str::<Incoming>(text.as_str()) else { continue };
        match v.kind {
            "state" => {
                totals.states.fetch_add(1, Ordering::Relaxed);
                if v.table.is_some_and(|t| t.status == "over") {
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
                let action = legal[(rng % legal.len() as u64) as usize].get();
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
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("load.db");
    // The server: this program's `--serve-only` in a process of its own, or the one `--server`
    // names (then its CPU time and memory are not reported: pid 0 has no /proc entry).
    let (mut child, pid, addr) = match &o.server {
        Some(addr) => (None, 0, addr.clone()),
        None => {
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
            (Some(child), pid, addr)
        }
    };
    assert!(addr.starts_with("127.0.0.1:"), "loopback only");
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let result = runtime.block_on(run(&o, &addr, pid));
    let cpu = proc_cpu(pid);
    let client_cpu = proc_cpu(std::process::id());
    let hwm = proc_status(pid, "VmHWM:");
    let rss = proc_status(pid, "VmRSS:");
    let settled = (o.settle > 0).then(|| {
        std::thread::sleep(Duration::from_secs(o.settle));
        proc_status(pid, "VmRSS:")
    });
    let bot_memory = if o.bot_games > 0 { runtime.block_on(bot_games(&o, &addr, pid)) } else { None };
    if let Some(child) = child.as_mut() {
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

async fn run(o: &Options, addr: &str, pid: u32) -> (Duration, Vec<Duration>, Arc<Totals>, Option<u64>) {
    let http = reqwest::Client::new();
    let base = format!("http://{addr}");
    let mut seats = Vec::new();
    for g in 0..o.games {
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
            seats.push((id.clone(), tok["token"].as_str().unwrap().to_string()));
        }
    }
    let before_play = proc_status(pid, "VmRSS:");
    let totals = Arc::new(Totals::default());
    let start = Instant::now();
    let mut tasks = Vec::new();
    for (i, (id, token)) in seats.into_iter().enumerate() {
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
