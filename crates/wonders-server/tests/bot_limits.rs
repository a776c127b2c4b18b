//! Bots cannot take the server from people: a bot's budget from the API is capped, and every
//! bot thinks on the server's fixed pool of bot threads (`wonders_server::pool`), so three
//! all-bot tables of seven slow searches add no thinking threads, and a person's action at
//! another table is answered without waiting for them. (`examples/bot_attack.rs` measures the
//! latency under a larger attack.) One test in this file: it counts the process's threads.

mod common;

use common::{TestServer, temp_db};
use serde_json::json;
use std::time::{Duration, Instant};
use wonders_server::server::ServerConfig;

fn threads() -> usize {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("Threads:"))?.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_think_on_a_bounded_pool_and_their_budgets_are_capped() {
    let (_dir, db) = temp_db();
    let s = TestServer::start_with(&db, ServerConfig { bot_threads: 1, ..ServerConfig::default() }).await;
    // Budgets over the caps are refused, naming them.
    for (bot, cap) in [("search:2000000it", "40000 iterations"), ("search:10s", "at most 2s")] {
        let seats: Vec<_> = (0..3).map(|_| json!({"bot": bot})).collect();
        let (status, body) = s.post("/api/tables", &json!({"players": 3, "seats": seats}), None).await;
        assert_eq!(status, 400, "{body}");
        assert!(body["error"]["message"].as_str().unwrap().contains(cap), "{body}");
    }
    // A people's table, then the attack: three all-bot tables of seven `search:2s`.
    let id = s.create(3, "1e", "A", &[None, None, None]).await;
    let tokens = [s.take(&id, 0, "Ann").await, s.take(&id, 1, "Bob").await, s.take(&id, 2, "Cy").await];
    tokio::time::sleep(Duration::from_millis(300)).await;
    let before = threads();
    for _ in 0..3 {
        let seats: Vec<_> = (0..7).map(|_| json!({"bot": "search:2s"})).collect();
        let (status, body) = s.post("/api/tables", &json!({"players": 7, "seats": seats}), None).await;
        assert_eq!(status, 201, "{body}");
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let during = threads();
    // Each busy table has one driver waiting for its moves; no thread per bot (21 before).
    assert!(during <= before + 3 + 2, "{before} threads before the attack, {during} during it");
    // The people play on: each of their actions is answered without waiting for a bot.
    let mut slowest = Duration::ZERO;
    for token in &tokens {
        let state = s.state(&id, Some(token)).await;
        let action = state["legal"][0].clone();
        let start = Instant::now();
        let (status, body) = s.act(&id, token, state["turn_id"].as_u64(), &action).await;
        slowest = slowest.max(start.elapsed());
        assert_eq!(status, 200, "{body}");
    }
    assert!(slowest < Duration::from_millis(500), "an action took {slowest:?} under the attack");
    s.stop().await;
}
