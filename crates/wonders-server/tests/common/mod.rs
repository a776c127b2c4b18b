//! Helpers shared by the server's tests: an in-process server on a loopback port with a temporary
//! database, and a small HTTP client.

#![allow(dead_code)]

use serde_json::{Value, json};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use wonders_server::Server;

/// A server running in this process.
pub struct TestServer {
    pub addr: SocketAddr,
    pub db: PathBuf,
    pub task: tokio::task::JoinHandle<()>,
    pub http: reqwest::Client,
    /// The served server, to close on [`TestServer::stop`].
    pub server: Server,
}

impl TestServer {
    /// Starts a server on 127.0.0.1 with the database `db` (created if needed).
    pub async fn start(db: &Path) -> TestServer {
        TestServer::start_with(db, wonders_server::server::ServerConfig::default()).await
    }

    /// Starts a server with the given time limits.
    pub async fn start_with(db: &Path, config: wonders_server::server::ServerConfig) -> TestServer {
        // Every client is on 127.0.0.1: per-IP rate limits off (tests/serve_limits.rs of the
        // CLI checks them on the real binary).
        TestServer::start_with_limits(db, config, wonders_server::Limits::loopback()).await
    }

    /// Starts a server with the given time limits and request limits.
    pub async fn start_with_limits(
        db: &Path,
        config: wonders_server::server::ServerConfig,
        limits: wonders_server::Limits,
    ) -> TestServer {
        let server = Server::open_with(db, config).expect("open the store");
        let served = server.clone();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let task = tokio::spawn(async move {
            let _ = wonders_server::serve_with(listener, server, limits, std::future::pending()).await;
        });
        TestServer { addr, db: db.to_path_buf(), task, http: reqwest::Client::new(), server: served }
    }

    /// Stops the server (its connections drop with it), then closes it: its bots stop and what
    /// it handed the store writer is stored, so another server may open the file (as a restart
    /// of the process would).
    pub async fn stop(self) {
        self.task.abort();
        let _ = self.task.await;
        let server = self.server;
        tokio::task::spawn_blocking(move || server.close()).await.unwrap();
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    pub fn ws_url(&self, table: &str) -> String {
        format!("ws://{}/api/tables/{}/ws", self.addr, table)
    }

    /// GET, with an optional bearer token: (status, JSON body).
    pub async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        let mut req = self.http.get(self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let resp = req.send().await.unwrap();
        let status = resp.status().as_u16();
        let text = resp.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
    }

    /// POST a raw body, with an optional bearer token: (status, JSON body).
    pub async fn post_raw(&self, path: &str, body: &str, token: Option<&str>) -> (u16, Value) {
        let mut req =
            self.http.post(self.url(path)).header("content-type", "application/json").body(body.to_string());
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let resp = req.send().await.unwrap();
        let status = resp.status().as_u16();
        let text = resp.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
    }

    /// DELETE, with an optional bearer token: (status, JSON body).
    pub async fn delete(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        let mut req = self.http.delete(self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        let resp = req.send().await.unwrap();
        let status = resp.status().as_u16();
        let text = resp.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
    }

    pub async fn post(&self, path: &str, body: &Value, token: Option<&str>) -> (u16, Value) {
        self.post_raw(path, &body.to_string(), token).await
    }

    /// Creates a table; `bots[i]` is the bot of seat i, if any. Returns its id.
    pub async fn create(&self, players: u8, edition: &str, wonders: &str, bots: &[Option<&str>]) -> String {
        let seats: Vec<Value> = bots.iter().map(|b| json!({"bot": b})).collect();
        let (status, body) = self
            .post(
                "/api/tables",
                &json!({"players": players, "edition": edition, "wonders": wonders, "seats": seats}),
                None,
            )
            .await;
        assert_eq!(status, 201, "{body}");
        body["id"].as_str().unwrap().to_string()
    }

    /// Takes a seat; returns its token.
    pub async fn take(&self, table: &str, seat: u8, name: &str) -> String {
        let (status, body) =
            self.post(&format!("/api/tables/{table}/seats/{seat}"), &json!({"name": name}), None).await;
        assert_eq!(status, 201, "{body}");
        body["token"].as_str().unwrap().to_string()
    }

    pub async fn state(&self, table: &str, token: Option<&str>) -> Value {
        let (status, body) = self.get(&format!("/api/tables/{table}/state"), token).await;
        assert_eq!(status, 200, "{body}");
        body
    }

    /// Polls the state (every 20 ms, for at most 10 s) until `ready` holds: bots move in the
    /// background, after the change that gave them their turn is acknowledged.
    pub async fn wait_state(
        &self,
        table: &str,
        token: Option<&str>,
        what: &str,
        ready: impl Fn(&Value) -> bool,
    ) -> Value {
        for _ in 0..500 {
            let st = self.state(table, token).await;
            if ready(&st) {
                return st;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        panic!("waited 10 s for {what}");
    }

    /// Acts over HTTP: (status, body).
    pub async fn act(&self, table: &str, token: &str, turn_id: Option<u64>, action: &Value) -> (u16, Value) {
        let mut body = json!({"action": action});
        if let Some(t) = turn_id {
            body["turn_id"] = json!(t);
        }
        self.post(&format!("/api/tables/{table}/actions"), &body, Some(token)).await
    }
}

/// Plays a table to its end over HTTP, each seat taking the `pick`-th legal action (modulo);
/// returns the number of actions made. When no person can act (the bots think), it waits.
pub async fn play_http(s: &TestServer, table: &str, tokens: &[String], pick: usize) -> usize {
    let mut n = 0;
    let mut idle = 0;
    for _ in 0..20_000 {
        let mut acted = false;
        for t in tokens {
            let st = s.state(table, Some(t)).await;
            if st["table"]["status"] == "over" {
                return n;
            }
            let legal = st["legal"].as_array().unwrap();
            if legal.is_empty() {
                continue;
            }
            let action = &legal[(pick + n) % legal.len()];
            let (status, body) = s.act(table, t, st["turn_id"].as_u64(), action).await;
            assert_eq!(status, 200, "{body}");
            n += 1;
            acted = true;
        }
        if acted {
            idle = 0;
        } else {
            idle += 1;
            assert!(idle < 500, "nobody could act for 10 s");
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }
    panic!("the game did not end");
}

/// A temporary directory and a database path in it.
pub fn temp_db() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("wonders.db");
    (dir, db)
}
