//! The database's files: after a clean stop the `.db` file alone holds every table (the WAL is
//! written into it), and a backup taken while the server writes is a consistent copy.

mod common;

use common::{TestServer, play_http, temp_db};
use serde_json::{Value, json};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use wonders_server::msg::CreateTable;
use wonders_server::{Server, Store};

fn with_suffix(db: &Path, suffix: &str) -> std::path::PathBuf {
    let mut name = db.as_os_str().to_os_string();
    name.push(suffix);
    name.into()
}

fn size(p: &Path) -> u64 {
    std::fs::metadata(p).map_or(0, |m| m.len())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_clean_stop_the_db_file_alone_holds_every_table() {
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    // A game played to its end by people and a bot, two by bots alone, one being played, one
    // waiting.
    let over = s.create(3, "1e", "A", &[None, Some("random"), None]).await;
    let tokens = vec![s.take(&over, 0, "Ann").await, s.take(&over, 2, "Bob").await];
    assert!(play_http(&s, &over, &tokens, 1).await > 30);
    let bots: Vec<String> = [(4, "1e"), (5, "2e")]
        .iter()
        .map(|&(n, edition)| {
            let seats: Vec<Value> = (0..n).map(|_| json!({"bot": "random"})).collect();
            let req: CreateTable =
                serde_json::from_value(json!({"players": n, "edition": edition, "seats": seats})).unwrap();
            s.server.create_table(&req).unwrap().id
        })
        .collect();
    let playing = s.create(3, "2e", "random", &[None, Some("random"), Some("random")]).await;
    let token = s.take(&playing, 0, "Cy").await;
    let st = s
        .wait_state(&playing, Some(&token), "Cy's turn", |st| !st["legal"].as_array().unwrap().is_empty())
        .await;
    assert_eq!(s.act(&playing, &token, st["turn_id"].as_u64(), &st["legal"][0]).await.0, 200);
    // The bots answered Cy's move.
    let bots_done = |st: &Value| st["waiting"].as_array().unwrap().iter().all(|w| w == 0);
    s.wait_state(&playing, None, "the bots' moves", bots_done).await;
    let waiting = s.create(4, "1e", "B", &[None, None, Some("random"), None]).await;
    for id in &bots {
        s.wait_state(id, None, "the bots' game over", |st| st["table"]["status"] == "over").await;
    }
    let ids: Vec<String> = [over.clone(), bots[0].clone(), bots[1].clone(), playing.clone(), waiting].into();
    let mut before = Vec::new();
    for id in &ids {
        before.push(s.state(id, None).await);
    }
    let record = s.get(&format!("/api/tables/{over}/record"), None).await;
    assert_eq!(record.0, 200);

    // A process that stops does not drop its server before it exits (SQLite would fold the WAL
    // in when the last connection closes): keep this one alive while the file is copied.
    let alive = s.server.clone();
    let wal = with_suffix(&db, "-wal");
    let serving = (size(&db), size(&wal));
    s.stop().await;
    let stopped = (size(&db), size(&wal));
    eprintln!(
        "while serving: .db {} bytes, -wal {} bytes; after a clean stop: .db {} bytes, -wal {} bytes",
        serving.0, serving.1, stopped.0, stopped.1
    );
    let elsewhere = tempfile::tempdir().unwrap();
    let copy = elsewhere.path().join("copy.db");
    std::fs::copy(&db, &copy).unwrap();
    drop(alive);

    let s = TestServer::start(&copy).await;
    for (id, was) in ids.iter().zip(&before) {
        let (status, now) = s.get(&format!("/api/tables/{id}/state"), None).await;
        assert_eq!(status, 200, "table {id} is in the copied .db file: {now}");
        assert_eq!(&now, was, "table {id}");
    }
    assert_eq!(s.get(&format!("/api/tables/{over}/record"), None).await, record);
    // The game being played goes on.
    let st = s
        .wait_state(&playing, Some(&token), "Cy's turn", |st| !st["legal"].as_array().unwrap().is_empty())
        .await;
    assert_eq!(s.act(&playing, &token, st["turn_id"].as_u64(), &st["legal"][0]).await.0, 200);
    s.stop().await;
    assert_eq!(stopped.1, 0, "the WAL is emptied into the .db file");
}

/// A table's id, its number of seats and its log.
type Log = (String, usize, Vec<(u8, String)>);

/// Tables and their logs, by id.
fn logs(store: &Store) -> Vec<Log> {
    store.load_all().unwrap().into_iter().map(|t| (t.id, t.seats.len(), t.actions)).collect()
}

#[test]
fn a_backup_taken_while_the_server_writes_holds_every_table() {
    let (dir, db) = temp_db();
    let server = Server::open(&db).unwrap();
    let created = Arc::new(Mutex::new(Vec::<String>::new()));
    let done = Arc::new(AtomicBool::new(false));
    // Bots play game after game in the background while the backups are taken.
    let creator = {
        let (server, created, done) = (server.clone(), created.clone(), done.clone());
        std::thread::spawn(move || {
            let seats: Vec<Value> = (0..4).map(|_| json!({"bot": "random"})).collect();
            let req: CreateTable = serde_json::from_value(json!({"players": 4, "seats": seats})).unwrap();
            while !done.load(Ordering::SeqCst) {
                let id = server.create_table(&req).unwrap().id;
                created.lock().unwrap().push(id);
                std::thread::sleep(std::time::Duration::from_millis(30));
            }
        })
    };
    // A person plays one table a move between backups, so every backup holds a game still being
    // written, whatever the bots' speed (their games may all fall between two backups).
    let seats = json!([{}, {"bot": "random"}, {"bot": "random"}, {"bot": "random"}]);
    let req: CreateTable = serde_json::from_value(json!({"players": 4, "seats": seats})).unwrap();
    let playing = server.create_table(&req).unwrap().id;
    let token = server.take_seat(&playing, 0, "Ann", None).unwrap().token;
    let play_a_move = || {
        for _ in 0..2000 {
            let st = server.state(&playing, Some(&token)).unwrap();
            if let Some(action) = st.legal.first() {
                server.act(&playing, &token, Some(st.turn_id), action).unwrap();
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        panic!("Ann's turn did not come within 10 s");
    };
    let mut copies = Vec::new();
    for i in 0..6 {
        std::thread::sleep(std::time::Duration::from_millis(150));
        play_a_move();
        let known = created.lock().unwrap().clone();
        let out = dir.path().join(format!("copy-{i}.db"));
        let report = wonders_server::backup::backup(&db, &out, false).unwrap();
        assert!(report.tables >= known.len(), "{report:?}, {} tables created before", known.len());
        assert_eq!(report.wal_damage, None);
        copies.push((out, known, report));
    }
    play_a_move();
    done.store(true, Ordering::SeqCst);
    creator.join().unwrap();
    server.close();
    let last = logs(&Store::open_read_only(&db).unwrap());
    for (out, known, report) in &copies {
        let check = Server::check_file(out).unwrap();
        assert!(check.sound(), "{check:?}");
        assert_eq!(check.tables.len(), report.tables);
        let copy = logs(&Store::open_read_only(out).unwrap());
        assert_eq!(copy.iter().map(|t| t.2.len()).sum::<usize>(), report.actions);
        for id in known {
            assert!(copy.iter().any(|t| &t.0 == id), "table {id} created before the backup is in it");
        }
        // Each table's log in the copy is the start of the final one: one consistent moment.
        for (id, seats, actions) in &copy {
            let (_, final_seats, final_actions) = last.iter().find(|t| &t.0 == id).unwrap();
            assert_eq!(seats, final_seats);
            assert_eq!(actions[..], final_actions[..actions.len()], "table {id}");
        }
        // The game Ann plays was being written: the copy holds its start, not all of it.
        let (_, _, actions) = copy.iter().find(|t| t.0 == playing).expect("Ann's table is in the backup");
        let (_, _, final_actions) = last.iter().find(|t| t.0 == playing).unwrap();
        assert!(
            !actions.is_empty() && actions.len() < final_actions.len(),
            "{} of {}",
            actions.len(),
            final_actions.len()
        );
    }
}
