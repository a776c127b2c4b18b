//! Open-table slots under attack: many addresses each creating the most tables their rate limit
//! allows must not lock everyone else out. Each address may have a few open tables; when the
//! server has its most, the oldest table nobody sits at makes room; an empty table expires
//! soon. The addresses are given behind a (loopback) proxy with `X-Forwarded-For`.

mod common;

use common::{TestServer, temp_db};
use serde_json::{Value, json};
use std::time::Duration;
use wonders_server::Limits;
use wonders_server::server::ServerConfig;

/// Creates a 3-player table from `address` (through the proxy header): (status, body).
async fn create_from(s: &TestServer, address: &str) -> (u16, Value) {
    let r = s
        .http
        .post(s.url("/api/tables"))
        .header("x-forwarded-for", address)
        .json(&json!({"players": 3}))
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

fn limits() -> Limits {
    Limits {
        max_open_tables: 50,
        max_open_tables_per_ip: 4,
        tables_per_minute: 10,
        behind_proxy: true,
        ..Limits::loopback()
    }
}

/// The attack an audit ran, scaled down: 30 addresses × 10 tables (each within its rate limit)
/// against a cap of 50 open tables. An address with 4 open tables is refused (429, naming the
/// cap) until one of its tables is gone (the oldest empty ones make room for new tables); no
/// request gets 503 and the server never holds more than 50 open tables; a new address, and a
/// table with a person in it created before the flood, both still have their place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_empty_tables_never_locks_newcomers_out() {
    let (_dir, db) = temp_db();
    let s = TestServer::start_with_limits(&db, ServerConfig::default(), limits()).await;
    let (status, info) = create_from(&s, "192.0.2.1").await;
    assert_eq!(status, 201, "{info}");
    let played = info["id"].as_str().unwrap().to_string();
    let _token = s.take(&played, 0, "Ann").await;
    let (mut created, mut capped, mut other) = (0, 0, Vec::new());
    for a in 0..30 {
        for _ in 0..10 {
            match create_from(&s, &format!("10.0.{a}.1")).await {
                (201, _) => created += 1,
                (429, body) => {
                    assert!(
                        body["error"]["message"]
                            .as_str()
                            .unwrap()
                            .contains("the most one address may have (4)"),
                        "{body}"
                    );
                    capped += 1;
                }
                (st, body) => other.push((st, body)),
            }
        }
    }
    assert!(other.is_empty(), "{other:?}");
    assert!(created >= 30 * 4 && capped > 0, "{created} created, {capped} refused");
    assert_eq!(s.server.open_tables(), 50);
    let (status, body) = create_from(&s, "198.51.100.7").await;
    assert_eq!(status, 201, "a newcomer can still create a table: {body}");
    let (status, _) = s.get(&format!("/api/tables/{played}"), None).await;
    assert_eq!(status, 200, "the table with a person in it stays");
    s.stop().await;
}

/// The tables of one IPv6 /64 count together; another /64 has its own.
#[tokio::test]
async fn an_ipv6_address_counts_by_its_slash_64() {
    let (_dir, db) = temp_db();
    let s = TestServer::start_with_limits(&db, ServerConfig::default(), limits()).await;
    for i in 1..=4 {
        assert_eq!(create_from(&s, &format!("2001:db8:0:1::{i}")).await.0, 201);
    }
    assert_eq!(create_from(&s, "2001:db8:0:1:ffff::5").await.0, 429);
    assert_eq!(create_from(&s, "2001:db8:0:2::1").await.0, 201);
    s.stop().await;
}

/// A table nobody sits at expires after `empty_expiry`; one with a person waits for
/// `waiting_expiry`.
#[tokio::test]
async fn an_empty_table_expires_soon() {
    let (_dir, db) = temp_db();
    let config = ServerConfig {
        empty_expiry: Some(Duration::from_secs(1)),
        tick: Duration::from_millis(50),
        ..ServerConfig::default()
    };
    let s = TestServer::start_with(&db, config).await;
    let empty = s.create(3, "1e", "A", &[None, None, None]).await;
    let taken = s.create(3, "1e", "A", &[None, None, None]).await;
    let _token = s.take(&taken, 1, "Bob").await;
    // The empty table is due within a second of its creation (counted in whole seconds), the
    // one with a person only after `waiting_expiry`: 2.5 s on, that one is still there (checked
    // below). The empty one's expiry is waited for, as a loaded machine may sweep it late.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    for _ in 0..200 {
        if s.get(&format!("/api/tables/{empty}"), None).await.0 == 404 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(s.get(&format!("/api/tables/{empty}"), None).await.0, 404, "the empty table expired");
    assert_eq!(s.get(&format!("/api/tables/{taken}"), None).await.0, 200);
    s.stop().await;
}
