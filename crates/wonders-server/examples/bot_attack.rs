//! Bots as an attack on loopback: how long a person's action takes at one table while another
//! visitor keeps many all-bot tables of slow searches busy (the server's bot threads,
//! `wonders_server::pool`).
//!
//! ```sh
//! cargo run --release -p wonders-server --example bot_attack -- --tables 9 --actions 60
//! ```
//!
//! A server process with a temporary database serves on a free loopback port (this program's
//! `--serve-only`, with the defaults of `wonders serve`, the per-IP limits lifted as in the
//! `load` example). The victim is a 3-player table of three people, played over HTTP by this
//! program: `--actions` actions are timed (request sent to answer received) with no attack, then
//! again once `--tables` all-bot tables of 7 `search:2s` bots (the attack an audit ran) are
//! playing. Reported: the median, 99th percentile and maximum of each, the server's threads and
//! the CPU time it used. It stops by itself when the victim's actions are done, and only ever
//! talks to 127.0.0.1.

use serde_json::{Value, json};
use std::io::BufRead;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

struct Options {
    tables: usize,
    actions: usize,
    bot: String,
    serve_db: Option<String>,
}

fn options() -> Result<Options, String> {
    let mut o = Options { tables: 9, actions: 60, bot: "search:2s".into(), serve_db: None };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match a.as_str() {
            "--tables" => o.tables = value("--tables")?.parse().map_err(|e| format!("--tables: {e}"))?,
            "--actions" => o.actions = value("--actions")?.parse().map_err(|e| format!("--actions: {e}"))?,
            "--bot" => o.bot = value("--bot")?,
            "--serve-only" => o.serve_db = Some(value("--serve-only")?),
            other => return Err(format!("unknown option `{other}` (--tables N, --actions N, --bot NAME)")),
        }
    }
    if !(1..=50).contains(&o.tables) || !(1..=1000).contains(&o.actions) {
        return Err("bounds: 1 to 50 attacking tables, 1 to 1000 actions".into());
    }
    Ok(o)
}

/// The server process: serves on a free loopback port and prints it.
fn serve_only(db: &str) {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let server = wonders_server::Server::open(std::path::Path::new(db)).unwrap();
        let listener = wonders_server::listen(([127, 0, 0, 1], 0).into()).unwrap();
        println!("ADDR {}", listener.local_addr().unwrap());
        let limits = wonders_server::Limits::loopback();
        wonders_server::serve_with(listener, server, limits, std::future::pending()).await.unwrap();
    });
}

fn proc_field(pid: u32, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    text.lines().find(|l| l.starts_with(key))?.split_whitespace().nth(1)?.parse().ok()
}

/// The CPU time (user + system) the process has used, from /proc/PID/stat.
fn proc_cpu(pid: u32) -> Option<Duration> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = text.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// A 3-player table of three people: its id and the seats' tokens.
async fn victim(http: &reqwest::Client, base: &str) -> (String, Vec<String>) {
    let info: Value = http
        .post(format!("{base}/api/tables"))
        .json(&json!({"players": 3}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = info["id"].as_str().unwrap().to_string();
    let mut tokens = Vec::new();
    for seat in 0..3 {
        let t: Value = http
            .post(format!("{base}/api/tables/{id}/seats/{seat}"))
            .json(&json!({"name": format!("Player {}", seat + 1)}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        tokens.push(t["token"].as_str().unwrap().to_string());
    }
    (id, tokens)
}

/// Plays `n` actions at the victim's table (each seat in turn takes its first legal action; a
/// finished game starts a new table), timing each action's request.
async fn play(http: &reqwest::Client, base: &str, n: usize) -> Vec<Duration> {
    let (mut id, mut tokens) = victim(http, base).await;
    let mut times = Vec::with_capacity(n);
    while times.len() < n {
        let mut acted = false;
        for token in &tokens {
            let state: Value = http
                .get(format!("{base}/api/tables/{id}/state"))
                .bearer_auth(token)
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            let Some(action) = state["legal"].as_array().and_then(|l| l.first()).cloned() else {
                continue;
            };
            let body = json!({"action": action, "turn_id": state["turn_id"]});
            let start = Instant::now();
            let answer = http
                .post(format!("{base}/api/tables/{id}/actions"))
                .bearer_auth(token)
                .json(&body)
                .send()
                .await
                .unwrap();
            times.push(start.elapsed());
            assert!(answer.status().is_success(), "{}", answer.text().await.unwrap_or_default());
            acted = true;
        }
        if !acted {
            // The game is over: a new table.
            (id, tokens) = victim(http, base).await;
        }
    }
    times
}

fn report(what: &str, mut times: Vec<Duration>) {
    times.sort();
    let pct = |p: f64| {
        let i = ((times.len() as f64 * p).ceil() as usize).clamp(1, times.len()) - 1;
        times[i].as_secs_f64() * 1000.0
    };
    println!(
        "{what}: {} actions, median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        times.len(),
        pct(0.5),
        pct(0.99),
        pct(1.0)
    );
}

fn main() {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("bot_attack: {e}");
            std::process::exit(2);
        }
    };
    if let Some(db) = &o.serve_db {
        serve_only(db);
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("attack.db");
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
    let base = format!("http://{addr}");
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let http = reqwest::Client::new();
        report("no attack", play(&http, &base, o.actions).await);
        let cpu_before = proc_cpu(pid);
        let mut refused = 0;
        for _ in 0..o.tables {
            let seats: Vec<Value> = (0..7).map(|_| json!({"bot": o.bot})).collect();
            let r = http
                .post(format!("{base}/api/tables"))
                .json(&json!({"players": 7, "seats": seats}))
                .send()
                .await
                .unwrap();
            if !r.status().is_success() {
                refused += 1;
                eprintln!("bot_attack: a table was refused: {}", r.text().await.unwrap_or_default());
            }
        }
        println!("attack: {} all-bot tables of 7 `{}` ({} refused)", o.tables, o.bot, refused);
        tokio::time::sleep(Duration::from_secs(2)).await;
        let threads = proc_field(pid, "Threads:");
        let start = Instant::now();
        report("under attack", play(&http, &base, o.actions).await);
        let cpu = proc_cpu(pid).zip(cpu_before).map(|(a, b)| a.saturating_sub(b));
        println!(
            "server: {} threads under attack; {:.1} s of CPU in {:.1} s since the attack began",
            threads.map_or("?".into(), |t| t.to_string()),
            cpu.map_or(0.0, |c| c.as_secs_f64()),
            start.elapsed().as_secs_f64() + 2.0
        );
    });
    let _ = child.kill();
    let _ = child.wait();
}
