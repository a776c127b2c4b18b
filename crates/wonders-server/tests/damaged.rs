//! A damaged database: a table that fails to load is broken with its reason and the others are
//! served; a missing table of the schema stops the start (nothing is recreated); an older schema
//! is brought up to date; `Server::check` reports every table.

mod common;

use common::{TestServer, temp_db};
use rusqlite::Connection;
use serde_json::{Value, json};
use std::collections::HashMap;
use wonders_server::Server;

/// A 3-player table: a person at seat 0 (who makes `acts` actions) and two random bots.
async fn table(s: &TestServer, acts: usize) -> (String, String) {
    let id = s.create(3, "1e", "A", &[None, Some("random"), Some("random")]).await;
    let token = s.take(&id, 0, "Ann").await;
    for _ in 0..acts {
        let st = s
            .wait_state(&id, Some(&token), "Ann's turn", |st| {
                st["view"]["chosen"] == json!([false, true, true])
            })
            .await;
        assert_eq!(s.act(&id, &token, st["turn_id"].as_u64(), &st["legal"][0]).await.0, 200);
    }
    s.wait_state(&id, Some(&token), "the bots", |st| st["view"]["chosen"] == json!([false, true, true]))
        .await;
    (id, token)
}

fn broken_reasons(list: &Value) -> HashMap<String, String> {
    list["finished"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["status"] == "broken")
        .map(|t| (t["id"].as_str().unwrap().to_string(), t["error"].as_str().unwrap().to_string()))
        .collect()
}

#[tokio::test]
async fn damaged_tables_are_broken_with_their_reason_and_the_rest_is_served() {
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    let (ok, ok_token) = table(&s, 1).await;
    let (gap, gap_token) = table(&s, 1).await;
    let (seat, _) = table(&s, 1).await;
    let (oracle, _) = table(&s, 0).await;
    s.stop().await;

    let conn = Connection::open(&db).unwrap();
    // A missing action row, an impossible seat, a bot that no longer exists.
    assert_eq!(conn.execute("DELETE FROM actions WHERE table_id = ?1 AND idx = 1", [&gap]).unwrap(), 1);
    conn.execute("UPDATE actions SET seat = 9 WHERE table_id = ?1 AND idx = 0", [&seat]).unwrap();
    conn.execute("UPDATE seats SET bot = 'oracle' WHERE table_id = ?1 AND seat = 1", [&oracle]).unwrap();
    drop(conn);

    let s = TestServer::start(&db).await;
    let (_, list) = s.get("/api/tables", None).await;
    let reasons = broken_reasons(&list);
    assert_eq!(reasons.len(), 3, "{list}");
    assert!(reasons[&gap].contains("action 1 is missing from the log (found 2)"), "{}", reasons[&gap]);
    assert!(reasons[&seat].contains("action 0"), "{}", reasons[&seat]);
    assert!(
        reasons[&oracle].contains("seat 1") && reasons[&oracle].contains("unknown bot `oracle`"),
        "{}",
        reasons[&oracle]
    );
    assert_eq!(list["open"][0]["id"], json!(ok));

    // A broken table says why, and refuses every change with that reason.
    let st = s.state(&gap, Some(&gap_token)).await;
    assert_eq!(st["table"]["status"], "broken");
    assert_eq!(st["table"]["error"], json!(reasons[&gap]));
    let (status, e) = s.act(&gap, &gap_token, None, &json!({"type": "pass"})).await;
    assert_eq!((status, e["error"]["code"].as_str()), (409, Some("conflict")));
    assert_eq!(e["error"]["message"], json!(reasons[&gap]));

    // The sound table plays on.
    let st = s.state(&ok, Some(&ok_token)).await;
    assert_eq!(st["table"]["status"], "playing");
    assert_eq!(s.act(&ok, &ok_token, st["turn_id"].as_u64(), &st["legal"][0]).await.0, 200);
    s.stop().await;

    // The check reports every table without serving.
    let checks = Server::check(&db).unwrap();
    let status: HashMap<&str, (&str, Option<&str>)> =
        checks.iter().map(|c| (c.id.as_str(), (c.status.as_str(), c.error.as_deref()))).collect();
    assert_eq!(status[ok.as_str()], ("playing", None));
    assert_eq!(status[gap.as_str()], ("broken", Some(reasons[&gap].as_str())));
    assert_eq!(status[oracle.as_str()].0, "broken");
    assert_eq!(checks.len(), 4);
}

#[test]
fn a_missing_schema_table_stops_the_start_and_is_not_recreated() {
    let (_dir, db) = temp_db();
    drop(Server::open(&db).unwrap());
    Connection::open(&db).unwrap().execute_batch("DROP TABLE actions").unwrap();
    let e = Server::open(&db).err().expect("the start is refused").to_string();
    assert!(e.contains("the database is damaged: its `actions` table is missing"), "{e}");
    assert!(e.contains("refusing to start"), "{e}");
    let conn = Connection::open(&db).unwrap();
    let n: i64 = conn
        .query_row("SELECT count(*) FROM sqlite_master WHERE name = 'actions'", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 0, "nothing was recreated");
    // A missing column too.
    conn.execute_batch("CREATE TABLE actions (table_id TEXT, idx INTEGER, seat INTEGER)").unwrap();
    drop(conn);
    let e = Server::open(&db).err().expect("the start is refused").to_string();
    assert!(e.contains("the `actions` table has no `action` column"), "{e}");
    assert!(Server::check(&db).is_err());
    // `check` never creates a file.
    let missing = db.with_file_name("none.db");
    let e = Server::check(&missing).unwrap_err().to_string();
    assert!(e.contains("no such database file"), "{e}");
    assert!(!missing.exists());
}

#[test]
fn a_new_or_empty_file_gets_the_schema_and_an_older_one_is_upgraded() {
    let (_dir, db) = temp_db();
    std::fs::write(&db, b"").unwrap();
    drop(Server::open(&db).unwrap());
    let version: i64 =
        Connection::open(&db).unwrap().query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert_eq!(version, wonders_server::store::SCHEMA_VERSION);

    // The schema of version 1 (no version number, none of the later columns), with a table.
    let old = db.with_file_name("old.db");
    let conn = Connection::open(&old).unwrap();
    conn.execute_batch(
        "CREATE TABLE tables (id TEXT PRIMARY KEY, created INTEGER NOT NULL, edition TEXT NOT NULL,
            players INTEGER NOT NULL, seed INTEGER NOT NULL, wonders TEXT NOT NULL, rematch_of TEXT,
            rematch TEXT);
         CREATE TABLE seats (table_id TEXT NOT NULL, seat INTEGER NOT NULL, bot TEXT, name TEXT,
            token_hash TEXT, PRIMARY KEY (table_id, seat));
         CREATE TABLE actions (table_id TEXT NOT NULL, idx INTEGER NOT NULL, seat INTEGER NOT NULL,
            action TEXT NOT NULL, PRIMARY KEY (table_id, idx));
         INSERT INTO tables VALUES ('abc', 1, '1e', 3, 7, 'A', NULL, NULL);
         INSERT INTO seats VALUES ('abc', 0, NULL, 'Ann', 'x'), ('abc', 1, NULL, NULL, NULL),
            ('abc', 2, 'random', 'Bot 3 (random)', NULL);",
    )
    .unwrap();
    drop(conn);
    let checks = Server::check(&old).unwrap();
    assert_eq!(checks.len(), 1);
    assert_eq!(
        (checks[0].id.as_str(), checks[0].status.as_str(), &checks[0].error),
        ("abc", "waiting", &None)
    );
    let server = Server::open(&old).unwrap();
    let info = server.table("abc").unwrap().lock().info();
    assert_eq!(info.seats[0].name.as_deref(), Some("Ann"));
    assert_eq!(info.turn_timer_secs, None);
}

/// A copy of the files of a server killed now (the database and its WAL as they are on disk).
fn crash_copy(db: &std::path::Path, to: &std::path::Path) {
    std::fs::copy(db, to).unwrap();
    let wal = |p: &std::path::Path| std::path::PathBuf::from(format!("{}-wal", p.display()));
    std::fs::copy(wal(db), wal(to)).unwrap();
}

#[tokio::test]
async fn a_damaged_wal_is_reported_by_the_check_and_on_start_and_a_copy_is_kept() {
    let (dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    let mut ids = Vec::new();
    for acts in [1, 2, 1, 0, 2, 1] {
        ids.push(table(&s, acts).await.0);
    }
    // The files as a killed server leaves them: the tables are in the WAL only.
    let damaged = dir.path().join("damaged.db");
    crash_copy(&db, &damaged);
    s.stop().await;
    let wal = dir.path().join("damaged.db-wal");
    let mut bytes = std::fs::read(&wal).unwrap();
    let size = bytes.len() as u64;
    let sound = Server::check_file(&dir.path().join("damaged.db")).unwrap();
    assert!(sound.sound() && sound.tables.len() == ids.len(), "{sound:?}");

    // Random bytes in the page of a frame in the middle: SQLite drops it and every later frame.
    let page = u32::from_be_bytes(bytes[8..12].try_into().unwrap()) as usize;
    let frames = (bytes.len() - 32) / (page + 24);
    let at = 32 + frames / 2 * (page + 24) + 24 + 40;
    for (i, b) in bytes[at..at + 32].iter_mut().enumerate() {
        *b ^= 0x5a ^ i as u8;
    }
    std::fs::write(&wal, &bytes).unwrap();
    let check = Server::check_file(&damaged).unwrap();
    let damage = check.wal_damage.clone().expect("the damage is found");
    assert!(!check.sound());
    assert_eq!(
        (damage.size, damage.reason.as_str()),
        (size, format!("frame {} fails its checksum", frames / 2 + 1).as_str())
    );
    assert!(damage.lost_frames > 1 && damage.lost_commits > 0, "{damage:?}");
    assert!(check.tables.len() < ids.len(), "tables were lost: {:?}", check.tables);
    let said = damage.to_string();
    assert!(said.contains(&format!("damaged.db-wal ({size} bytes) is damaged")), "{said}");
    assert_eq!(std::fs::read(&wal).unwrap(), bytes, "the check leaves the WAL as it is");

    // The server starts with what SQLite reads, says what was lost, and keeps the damaged WAL.
    let server = Server::open(&damaged).unwrap();
    assert_eq!(server.warnings().len(), 1, "{:?}", server.warnings());
    let warning = &server.warnings()[0];
    assert!(warning.starts_with(&said), "{warning}");
    let kept = warning.split("kept as ").nth(1).unwrap().split(" (").next().unwrap();
    assert_eq!(std::fs::read(kept).unwrap(), bytes);
    assert_eq!(server.list().open.len(), check.tables.len());
    server.close();
    drop(server);
    // What SQLite could read is in the database file now: nothing is reported again.
    let again = Server::check_file(&damaged).unwrap();
    assert!(again.sound(), "{again:?}");
    assert_eq!(again.tables, check.tables);
    assert!(Server::open(&damaged).unwrap().warnings().is_empty());
}
