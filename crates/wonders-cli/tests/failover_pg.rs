//! Two `wonders serve` processes on one PostgreSQL database (a throwaway cluster,
//! `wonders_server::pgtemp`: skipped with a note when PostgreSQL is not installed, a failure in
//! CI). The server owning a table is killed with SIGKILL while a player acts on it, ten times
//! over: each time the other server takes its tables over within the lease (it owns them
//! without any request reaching it), every acknowledged action is in the store, and the player
//! continues the game at the other server. The takeover times are printed
//! (`cargo test --release -p wonders-cli --test failover_pg -- --nocapture`).

use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

mod common;
use common::{Served, serve_binary};

const KILLS: usize = 10;

/// One HTTP/1.1 request: (status, JSON body), or `None` when the server cannot be reached or
/// the connection broke (a killed server).
fn http(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    token: Option<&str>,
) -> Option<(u16, Value)> {
    let mut stream = TcpStream::connect(addr).ok()?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{auth}Content-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    let status: u16 = answer.split(' ').nth(1)?.parse().ok()?;
    let text = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    Some((status, serde_json::from_str(text).unwrap_or(Value::Null)))
}

/// A table of three people on `addr`, every seat taken: (id, tokens).
fn new_table(addr: &str) -> (String, Vec<String>) {
    let (status, info) = http(addr, "POST", "/api/tables", Some(&json!({"players": 3})), None).unwrap();
    assert_eq!(status, 201, "{info}");
    let id = info["id"].as_str().unwrap().to_string();
    let tokens = (0..3)
        .map(|seat| {
            let path = format!("/api/tables/{id}/seats/{seat}");
            let (status, body) =
                http(addr, "POST", &path, Some(&json!({"name": format!("P{seat}")})), None).unwrap();
            assert_eq!(status, 201, "{body}");
            body["token"].as_str().unwrap().to_string()
        })
        .collect();
    (id, tokens)
}

/// With `stop`, the player holds after this many acknowledged actions (a 3-player game has 54
/// and more) until it is set.
const HOLD_AT: usize = 30;

/// Acts for each seat that must act, again and again, until the game ends, `stop` is set or the
/// server stops answering (with `stop`, holding at [`HOLD_AT`] actions until it is set); returns
/// the actions acknowledged (answered 200).
fn play(
    addr: &str,
    table: &str,
    tokens: &[String],
    stop: Option<&std::sync::atomic::AtomicBool>,
    progress: &std::sync::atomic::AtomicUsize,
) -> usize {
    let mut acked = 0;
    loop {
        if stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::SeqCst)) {
            return acked;
        }
        if stop.is_some() && acked >= HOLD_AT {
            // Mid-game: waits for the kill rather than finish the game before it (on a quiet
            // machine a whole game can take less time than the killer needs to be scheduled).
            std::thread::sleep(std::time::Duration::from_millis(1));
            continue;
        }
        for t in tokens {
            let Some((200, st)) = http(addr, "GET", &format!("/api/tables/{table}/state"), None, Some(t))
            else {
                return acked;
            };
            if st["table"]["status"] == "over" {
                return acked;
            }
            let legal = st["legal"].as_array().unwrap();
            if legal.is_empty() {
                continue;
            }
            let body = json!({"turn_id": st["turn_id"], "action": legal[acked % legal.len()]});
            match http(addr, "POST", &format!("/api/tables/{table}/actions"), Some(&body), Some(t)) {
                Some((200, _)) => {
                    acked += 1;
                    progress.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                }
                // Refused (a storage error while it dies, a stale turn): not acknowledged.
                Some(_) => {}
                None => return acked,
            }
        }
        if stop.is_none() {
            return acked;
        }
    }
}

/// The unfinished tables a server owns (`wonders_tables_owned` of its metrics).
fn owned(addr: &str) -> Option<u64> {
    let mut stream = TcpStream::connect(addr).ok()?;
    write!(stream, "GET /metrics HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").ok()?;
    let mut text = String::new();
    stream.read_to_string(&mut text).ok()?;
    text.lines().find_map(|l| l.strip_prefix("wonders_tables_owned ")).and_then(|n| n.trim().parse().ok())
}

fn serve(db: &Path) -> Served {
    serve_binary(db, &["--bot-threads", "1"], None, Stdio::null(), "warn")
}

#[test]
fn a_killed_owners_tables_are_taken_over_with_every_acknowledged_action() {
    let Some(pg) = wonders_server::pgtemp::for_tests() else { return };
    let url = pg.create_database("failover").unwrap();
    let db = Path::new(&url);
    let mut servers = [serve(db), serve(db)];
    let mut acked: HashMap<String, usize> = HashMap::new();
    let mut takeovers = Vec::new();
    let mut o = 0;
    for kill in 0..KILLS {
        let (owner, other) = (servers[o].addr.clone(), servers[1 - o].addr.clone());
        let (id, tokens) = new_table(&owner);
        // A player acts on the owner while it is killed.
        let stop = std::sync::atomic::AtomicBool::new(false);
        let progress = std::sync::atomic::AtomicUsize::new(0);
        let (n, killed_at, owned_before) = std::thread::scope(|s| {
            let player = s.spawn(|| play(&owner, &id, &tokens, Some(&stop), &progress));
            // Killed once the player has a few actions acknowledged, mid-game.
            let start = Instant::now();
            while progress.load(std::sync::atomic::Ordering::SeqCst) < 5 {
                assert!(start.elapsed() < Duration::from_secs(20), "kill {kill}: the player cannot act");
                std::thread::sleep(Duration::from_millis(10));
            }
            std::thread::sleep(Duration::from_millis(100));
            let owned_before = owned(&other).unwrap();
            let mine = owned(&owner).unwrap();
            servers[o].child.kill().unwrap();
            let killed_at = Instant::now();
            let _ = servers[o].child.wait();
            stop.store(true, std::sync::atomic::Ordering::SeqCst);
            (player.join().unwrap(), killed_at, owned_before + mine)
        });
        assert!(n > 0, "kill {kill}: the player made no action before the kill");
        *acked.entry(id.clone()).or_default() += n;
        // The other server takes every table of the killed one over, with no request for them.
        loop {
            if owned(&other).unwrap() >= owned_before {
                break;
            }
            assert!(killed_at.elapsed() < Duration::from_secs(10), "kill {kill}: no takeover within 10 s");
            std::thread::sleep(Duration::from_millis(10));
        }
        let took = killed_at.elapsed();
        takeovers.push(took);
        // Every acknowledged action of every table is in the store (the one in flight at the
        // kill may be stored without its acknowledgment).
        let store = wonders_server::storage::open_existing(&url).unwrap();
        for (t, count) in acked.iter_mut() {
            let stored = store.load_one(t).unwrap().unwrap().actions.len();
            let (count, in_flight) = (*count, usize::from(*t == id));
            assert!(
                stored >= count && stored <= count + in_flight,
                "kill {kill}: table {t} has {stored} actions stored, {count} acknowledged"
            );
            let _ = count;
        }
        for (t, count) in acked.iter_mut() {
            *count = store.load_one(t).unwrap().unwrap().actions.len();
        }
        drop(store);
        // The player continues at the other server.
        let more = play(&other, &id, &tokens, None, &std::sync::atomic::AtomicUsize::new(0));
        assert!(more > 0, "kill {kill}: the game does not continue at the other server");
        *acked.get_mut(&id).unwrap() += more;
        servers[o] = serve(db);
        o = 1 - o;
    }
    takeovers.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    eprintln!(
        "takeover after SIGKILL over {KILLS} kills: min {:.0} ms, median {:.0} ms, max {:.0} ms (lease {} s); \
         acknowledged actions lost: 0 of {}",
        ms(takeovers[0]),
        ms(takeovers[KILLS / 2]),
        ms(takeovers[KILLS - 1]),
        wonders_server::postgres::LEASE.as_secs(),
        acked.values().sum::<usize>()
    );
}
