//! `wonders serve` killed with SIGKILL mid-game and restarted on the same database resumes every
//! game exactly; the finished game's record replays with `wonders replay`.

use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};

mod common;
use common::{Served, serve_binary};

fn serve(db: &Path) -> Served {
    serve_binary(db, &[], None, Stdio::inherit(), "warn")
}

/// One HTTP/1.1 request: (status, JSON body).
fn http(addr: &str, method: &str, path: &str, body: Option<&Value>, token: Option<&str>) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{auth}Content-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status: u16 = answer.split(' ').nth(1).unwrap().parse().unwrap();
    let text = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(text).unwrap_or(Value::Null))
}

fn state(addr: &str, table: &str, token: Option<&str>) -> Value {
    let (status, body) = http(addr, "GET", &format!("/api/tables/{table}/state"), None, token);
    assert_eq!(status, 200, "{body}");
    body
}

/// Waits (at most 5 s) until no bot of the table must act: bots move in the background.
fn settle(addr: &str, table: &str) {
    for _ in 0..250 {
        let st = state(addr, table, None);
        let seats = &st["table"]["seats"];
        let bots_waiting = st["waiting"].as_array().unwrap().iter().any(|s| {
            let seat = s.as_u64().unwrap() as usize;
            !seats[seat]["bot"].is_null() || seats[seat]["away"] == true
        });
        if !bots_waiting {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    panic!("the bots of table {table} did not move within 5 s");
}

/// Makes one action for each seat that must act (after the bots moved); returns how many.
fn round(addr: &str, table: &str, tokens: &[String], pick: usize) -> usize {
    settle(addr, table);
    let mut n = 0;
    for t in tokens {
        let st = state(addr, table, Some(t));
        let legal = st["legal"].as_array().unwrap();
        if legal.is_empty() {
            continue;
        }
        let body = json!({"turn_id": st["turn_id"], "action": legal[pick % legal.len()]});
        let (status, answer) =
            http(addr, "POST", &format!("/api/tables/{table}/actions"), Some(&body), Some(t));
        assert_eq!(status, 200, "{answer}");
        n += 1;
    }
    n
}

#[test]
fn a_killed_server_resumes_every_game_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let mut server = serve(&db);
    let addr = server.addr.clone();

    // Two tables: people and bots (1st edition), and people only (2nd edition).
    let (status, a) = http(
        &addr,
        "POST",
        "/api/tables",
        Some(&json!({"players": 3, "seats": [{}, {"bot": "random"}, {}]})),
        None,
    );
    assert_eq!(status, 201, "{a}");
    let a = a["id"].as_str().unwrap().to_string();
    let (_, b) = http(&addr, "POST", "/api/tables", Some(&json!({"players": 3, "edition": "2e"})), None);
    let b = b["id"].as_str().unwrap().to_string();
    let mut tokens = std::collections::HashMap::new();
    for (table, seats) in [(&a, vec![0, 2]), (&b, vec![0, 1, 2])] {
        let mut list = Vec::new();
        for seat in seats {
            let (status, t) = http(
                &addr,
                "POST",
                &format!("/api/tables/{table}/seats/{seat}"),
                Some(&json!({"name": "P"})),
                None,
            );
            assert_eq!(status, 201, "{t}");
            list.push(t["token"].as_str().unwrap().to_string());
        }
        tokens.insert(table.clone(), list);
    }
    let mut acted = 0;
    for i in 0..8 {
        acted += round(&addr, &a, &tokens[&a], i);
        acted += round(&addr, &b, &tokens[&b], i + 1);
    }
    assert!(acted >= 30, "{acted}");
    settle(&addr, &a);
    let snapshot = |addr: &str| -> Vec<Value> {
        let mut v = Vec::new();
        for table in [&a, &b] {
            v.push(state(addr, table, None));
            for t in &tokens[table] {
                v.push(state(addr, table, Some(t)));
            }
        }
        v
    };
    let before = snapshot(&addr);
    assert_eq!(before[1]["table"]["status"], "playing");

    // SIGKILL, right after the last acknowledged action.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    drop(server);
    assert!(TcpStream::connect(&addr).is_err() || http(&addr, "GET", "/api/tables", None, None).0 != 200);

    let server = serve(&db);
    let addr = server.addr.clone();
    assert_eq!(snapshot(&addr), before, "every seat's and every spectator's state is identical");

    // Both games go on to their end, the bot included.
    for i in 0..200 {
        let n = round(&addr, &a, &tokens[&a], i) + round(&addr, &b, &tokens[&b], i);
        if n == 0 {
            break;
        }
    }
    let dir_path = dir.path().to_path_buf();
    for table in [&a, &b] {
        let st = state(&addr, table, None);
        assert_eq!(st["table"]["status"], "over", "{table}");
        let totals: Vec<i64> =
            st["scores"].as_array().unwrap().iter().map(|l| l["total"].as_i64().unwrap()).collect();
        let (status, record) = http(&addr, "GET", &format!("/api/tables/{table}/record"), None, None);
        assert_eq!(status, 200);
        let file = dir_path.join(format!("{table}.json"));
        std::fs::write(&file, record.to_string()).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_wonders"))
            .arg("replay")
            .arg(&file)
            .arg("--json")
            .output()
            .unwrap();
        assert!(out.status.success(), "replay: {}", String::from_utf8_lossy(&out.stderr));
        let replayed: Value = serde_json::from_slice(&out.stdout).unwrap();
        let replayed_totals: Vec<i64> = find_totals(&replayed);
        assert_eq!(replayed_totals, totals, "the replayed scores equal the live game's");
    }
    drop(server);
}

/// The `total` of each player in `wonders replay --json`'s output.
fn find_totals(v: &Value) -> Vec<i64> {
    let list = v.get("scores").unwrap_or(v);
    list.as_array()
        .unwrap_or_else(|| panic!("unexpected replay output {v}"))
        .iter()
        .map(|p| p["total"].as_i64().unwrap())
        .collect()
}
