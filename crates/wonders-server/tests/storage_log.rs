//! Storage failures are logged with SQLite's reason, and a failure that repeats does not flood
//! the log. The disk is "full": the database may not grow past its size (`PRAGMA
//! max_page_count`), so inserts that need a page fail with SQLITE_FULL, as on a full disk.
//!
//! The log is captured by a subscriber set for the whole process (the store writer logs from its
//! own thread): this file holds one test.

use std::io::Write;
use std::sync::{Arc, Mutex};
use wonders_server::msg::CreateTable;
use wonders_server::{Server, Store};

/// The log, shared with the subscriber.
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<u8>>>);

impl Write for Log {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Log {
    fn lines(&self) -> Vec<String> {
        String::from_utf8_lossy(&self.0.lock().unwrap()).lines().map(str::to_string).collect()
    }
}

const FULL: &str = "database or disk is full";

#[test]
fn a_full_disk_is_logged_with_sqlites_reason_without_flooding_the_log() {
    let log = Log::default();
    let writer = log.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_ansi(false)
        .with_max_level(tracing::Level::INFO)
        .with_writer(move || writer.clone())
        .finish();
    tracing::subscriber::set_global_default(subscriber).unwrap();

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("wonders.db");
    // A game of three people, started on a disk with room.
    let server = Server::open(&db).unwrap();
    let req: CreateTable = serde_json::from_value(serde_json::json!({"players": 3})).unwrap();
    let id = server.create_table(&req).unwrap().id;
    let tokens: Vec<String> = ["Ann", "Bob", "Cy"]
        .iter()
        .enumerate()
        .map(|(seat, name)| server.take_seat(&id, seat, name, None).unwrap().token)
        .collect();
    server.close();
    drop(server);

    // The same file, with no room to grow.
    let store = Store::open(&db).unwrap();
    let pages: i64 = store.connection().query_row("PRAGMA page_count", [], |r| r.get(0)).unwrap();
    store.connection().pragma_update(None, "max_page_count", pages).unwrap();
    let server = Server::with_store(store).unwrap();

    // Play until the actions' pages are full, then on: every action fails the same way.
    let mut failures = 0;
    let mut stored = 0;
    for _ in 0..3000 {
        let Some((token, st)) = tokens.iter().find_map(|t| {
            let st = server.state(&id, Some(t)).unwrap();
            (!st.legal.is_empty()).then_some((t, st))
        }) else {
            panic!("nobody can act");
        };
        match server.act(&id, token, Some(st.turn_id), &st.legal[0]) {
            Ok(_) => stored += 1,
            Err(e) => {
                assert_eq!(e.code(), "storage", "{e}");
                assert!(e.to_string().contains(FULL), "{e}");
                failures += 1;
                if failures == 200 {
                    break;
                }
            }
        }
    }
    assert_eq!(failures, 200, "the disk never filled ({stored} actions stored)");
    // Creating tables fails too once their pages are full (the request's storage fails).
    let mut refused = 0;
    for _ in 0..2000 {
        if let Err(e) = server.create_table(&req) {
            assert!(e.to_string().contains(FULL), "{e}");
            refused += 1;
            if refused == 50 {
                break;
            }
        }
    }
    assert_eq!(refused, 50, "the tables' pages never filled");
    server.close();

    let lines = log.lines();
    let full: Vec<&String> = lines.iter().filter(|l| l.contains(FULL)).collect();
    // Each failing operation is logged with SQLite's reason, at error level, naming the table…
    let action =
        full.iter().find(|l| l.contains("storing an action failed")).unwrap_or_else(|| panic!("{lines:#?}"));
    assert!(action.contains("ERROR") && action.contains(&id), "{action}");
    assert!(full.iter().any(|l| l.contains("a request's use of the store failed")), "{lines:#?}");
    // …once: 250 identical failures are counted, not logged one by one.
    assert!(full.len() <= 4, "{} lines for 250 failures: {full:#?}", full.len());
}
