//! A bounded load test on loopback: a server process with a temporary database, `--games` tables
//! whose seats are all taken by WebSocket client bots (random legal moves from the legal actions
//! the server sends), played to the end concurrently. Reports actions per second, the time from
//! sending an action to its acknowledgment (median, 99th percentile, max) and the server's memory
//! (VmHWM, VmRSS from /proc).
//!
//! ```sh
//! cargo run --release -p wonders-server --example load -- --games 200
//! ```
//!
//! The server runs with [`wonders_server::Limits::loopback`]: every client is on 127.0.0.1, so the
//! per-IP rate limits and connection caps are lifted; the timeouts and message sizes are the
//! defaults of `wonders serve`.
//!
//! Options: `--games N` (200), `--players P` (4), `--timeout SECONDS` (300). It stops by itself
//! when every game is over or the time is up, and only ever talks to 127.0.0.1.

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::io::BufRead;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

struct Options {
    games: usize,
    players: u8,
    timeout: u64,
    serve_db: Option<String>,
}

fn options() -> Result<Options, String> {
    let mut o = Options { games: 200, players: 4, timeout: 300, serve_db: None };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match a.as_str() {
            "--games" => o.games = value("--games")?.parse().map_err(|e| format!("--games: {e}"))?,
            "--players" => o.players = value("--players")?.parse().map_err(|e| format!("--players: {e}"))?,
            "--timeout" => o.timeout = value("--timeout")?.parse().map_err(|e| format!("--timeout: {e}"))?,
            "--serve-only" => o.serve_db = Some(value("--serve-only")?),
            other => return Err(format!("unknown option {other} (--games N, --players P, --timeout S)")),
        }
    }
    if !(1..=2000).contains(&o.games) || !(3..=7).contains(&o.players) || o.timeout == 0 {
        return Err("bounds: 1 to 2000 games, 3 to 7 players, a timeout above 0".into());
    }
    Ok(o)
}

/// The server process: serves on a free loopback port and prints it.
fn serve_only(db: &str) {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let server = wonders_server::Server::open(std::path::Path::new(db)).unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        println!("ADDR {}", listener.local_addr().unwrap());
        // 200 games from one address: the per-IP rate limits and connection caps are lifted
        // (`Limits::loopback`); timeouts and message sizes stay the defaults.
        let limits = wonders_server::Limits::loopback();
        wonders_server::serve_with(listener, server, limits, std::future::pending()).await.unwrap();
    });
}

fn proc_status(pid: u32, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[derive(Default)]
struct Totals {
    actions: AtomicU64,
    errors: AtomicU64,
    games_over: AtomicU64,
}

/// One seat's client: plays random legal actions until the game is over; returns the
/// send-to-acknowledgment times.
async fn seat_client(url: String, token: String, seed: u64, totals: Arc<Totals>) -> Vec<Duration> {
    let mut latencies = Vec::new();
    let Ok((mut ws, _)) = tokio_tungstenite::connect_async(url).await else {
        totals.errors.fetch_add(1, Ordering::Relaxed);
        return latencies;
    };
    let auth = json!({"type": "auth", "token": token}).to_string();
    if ws.send(Message::Text(auth.into())).await.is_err() {
        return latencies;
    }
    let mut rng = seed | 1;
    let mut acted: Option<u64> = None;
    let mut sent: Option<(u64, Instant)> = None;
    let mut next_id = 0u64;
    while let Some(Ok(msg)) = ws.next().await {
        let Message::Text(text) = msg else { continue };
        let Ok(v) = serde_json::from_str::<Value>(text.as_str()) else { continue };
        match v["type"].as_str() {
            Some("state") => {
                if v["table"]["status"] == "over" {
                    if v["you"] == json!(0) {
                        totals.games_over.fetch_add(1, Ordering::Relaxed);
                    }
                    break;
                }
                let legal = v["legal"].as_array().map_or(&[][..], |l| l.as_slice());
                let turn_id = v["turn_id"].as_u64().unwrap_or(0);
                if legal.is_empty() || acted == Some(turn_id) || sent.is_some() {
                    continue;
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let action = &legal[(rng % legal.len() as u64) as usize];
                next_id += 1;
                let msg = json!({"type": "act", "id": next_id, "turn_id": turn_id, "action": action});
                sent = Some((next_id, Instant::now()));
                acted = Some(turn_id);
                if ws.send(Message::Text(msg.to_string().into())).await.is_err() {
                    break;
                }
            }
            Some("accepted") | Some("error") => {
                if let Some((id, at)) = sent
                    && v["id"].as_u64() == Some(id)
                {
                    latencies.push(at.elapsed());
                    sent = None;
                    if v["type"] == "accepted" {
                        totals.actions.fetch_add(1, Ordering::Relaxed);
                    } else {
                        totals.errors.fetch_add(1, Ordering::Relaxed);
                        acted = None;
                        let refresh = json!({"type": "refresh"}).to_string();
                        let _ = ws.send(Message::Text(refresh.into())).await;
                    }
                }
            }
            _ => {}
        }
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
        serve_only(db);
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("load.db");
    let mut child = Command::new(std::env::current_exe().unwrap())
        .arg("--serve-only")
        .arg(&db)
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server process starts");
    let pid = child.id();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let addr = loop {
        let line = lines.next().expect("the server prints its address").unwrap();
        if let Some(a) = line.strip_prefix("ADDR ") {
            break a.to_string();
        }
    };
    assert!(addr.starts_with("127.0.0.1:"), "loopback only");
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let result = runtime.block_on(run(&o, &addr, pid));
    let hwm = proc_status(pid, "VmHWM:");
    let rss = proc_status(pid, "VmRSS:");
    let _ = child.kill();
    let _ = child.wait();
    let (elapsed, mut latencies, totals) = result;
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
    println!("time: {:.2} s, {:.0} actions/s", elapsed.as_secs_f64(), actions as f64 / elapsed.as_secs_f64());
    println!(
        "send → acknowledgment: median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        pct(0.5),
        pct(0.99),
        latencies.last().map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    );
    println!(
        "server memory: VmHWM {} MiB, VmRSS {} MiB (at the end)",
        hwm.map_or("?".into(), |k| format!("{:.1}", k as f64 / 1024.0)),
        rss.map_or("?".into(), |k| format!("{:.1}", k as f64 / 1024.0))
    );
    if totals.games_over.load(Ordering::Relaxed) != o.games as u64 {
        std::process::exit(1);
    }
}

async fn run(o: &Options, addr: &str, _pid: u32) -> (Duration, Vec<Duration>, Arc<Totals>) {
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
    (start.elapsed(), latencies, totals)
}
