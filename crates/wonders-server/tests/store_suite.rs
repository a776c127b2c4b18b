//! One test suite for both stores: every case runs on a new SQLite file and on a new database of
//! a throwaway PostgreSQL cluster (`wonders_server::pgtemp`: skipped with a note when PostgreSQL
//! is not installed, a failure in CI).

use serde_json::json;
use std::time::{Duration, Instant};
use wonders_server::msg::CreateTable;
use wonders_server::server::ServerConfig;
use wonders_server::store::{AppendEntry, SCHEMA_VERSION, StoredSeat, StoredTable};
use wonders_server::table::Table;
use wonders_server::{Server, Store, TableStore, pgtemp, storage};

fn table(id: &str, created: i64) -> StoredTable {
    StoredTable {
        id: id.into(),
        created,
        edition: "1e".into(),
        players: 3,
        seed: u64::MAX - 3,
        wonders: "random".into(),
        turn_timer: Some(90),
        seats: vec![
            StoredSeat { bot: Some("random".into()), name: Some("Bot".into()), ..StoredSeat::default() },
            StoredSeat::default(),
            StoredSeat { held_for: Some("feed".into()), ..StoredSeat::default() },
        ],
        ..StoredTable::default()
    }
}

fn pass() -> String {
    "{\"type\":\"pass\"}".to_string()
}

/// The rows come back as written; the log is append-only; a seat is taken once.
fn round_trip_and_append_only_log(s: &mut dyn TableStore) {
    s.insert_table(&table("t1", 5)).unwrap();
    assert!(s.exists("t1").unwrap() && !s.exists("t2").unwrap());
    s.take_seat("t1", 1, "Ann", "abc", 0, &[(0, pass())]).unwrap();
    // A taken seat or a bot seat cannot be taken again; nothing is appended then.
    assert!(s.take_seat("t1", 1, "Bob", "def", 1, &[(2, "x".into())]).is_err());
    assert!(s.take_seat("t1", 0, "Bob", "def", 1, &[]).is_err());
    s.append("t1", 1, &[(1, "a".into()), (2, "b".into())], None).unwrap();
    // An index already used is refused (append-only).
    assert!(s.append("t1", 2, &[(1, "c".into())], None).is_err());
    let all = s.load_all().unwrap();
    assert_eq!(all.len(), 1);
    let t = &all[0];
    assert_eq!((t.seed, t.created, t.turn_timer, t.players), (u64::MAX - 3, 5, Some(90), 3));
    assert_eq!(t.seats[0].bot.as_deref(), Some("random"));
    assert_eq!(t.seats[1].name.as_deref(), Some("Ann"));
    assert_eq!(t.seats[1].token_hash.as_deref(), Some("abc"));
    assert_eq!(t.seats[2].held_for.as_deref(), Some("feed"));
    assert_eq!(t.actions, vec![(0, pass()), (1, "a".to_string()), (2, "b".to_string())]);
    assert_eq!(t.damage, None);
    // Leaving needs the token that holds the seat.
    assert!(s.leave_seat("t1", 1, "zzz").is_err());
    s.leave_seat("t1", 1, "abc").unwrap();
    assert_eq!(s.load_one("t1").unwrap().unwrap().seats[1], StoredSeat::default());
    assert_eq!(s.load_one("nope").unwrap(), None);
}

/// A batch is stored whole or not at all, and the next batch is stored as usual.
fn a_failing_batch_stores_nothing(s: &mut dyn TableStore) {
    s.insert_table(&table("t1", 1)).unwrap();
    s.insert_table(&table("t2", 2)).unwrap();
    let one = [(0u8, pass())];
    let two = [(0u8, pass()), (1u8, pass())];
    s.append_batch(&[AppendEntry { table: "t1", first_index: 0, actions: &one, finished: None }]).unwrap();
    let failing = [
        AppendEntry { table: "t2", first_index: 0, actions: &two, finished: Some(9) },
        AppendEntry { table: "t1", first_index: 0, actions: &one, finished: None },
    ];
    assert!(s.append_batch(&failing).is_err());
    assert_eq!(s.load_one("t1").unwrap().unwrap().actions.len(), 1);
    assert!(s.load_one("t2").unwrap().unwrap().actions.is_empty());
    assert!(s.load_unfinished().unwrap().iter().any(|t| t.id == "t2"), "t2's end rolled back");
    let next = [
        AppendEntry { table: "t2", first_index: 0, actions: &two, finished: None },
        AppendEntry { table: "t1", first_index: 1, actions: &one, finished: Some(10) },
    ];
    s.append_batch(&next).unwrap();
    assert_eq!(s.load_one("t1").unwrap().unwrap().actions.len(), 2);
    assert_eq!(s.load_one("t2").unwrap().unwrap().actions.len(), 2);
    let unfinished: Vec<String> = s.load_unfinished().unwrap().into_iter().map(|t| t.id).collect();
    assert_eq!(unfinished, ["t2"]);
    assert_eq!(s.load_one("t1").unwrap().unwrap().finished, Some(10));
}

/// Rematch links, finished order, deleting a waiting rematch.
fn rematches_finished_order_and_delete(s: &mut dyn TableStore) {
    s.insert_table(&table("a", 1)).unwrap();
    s.insert_table(&table("b", 2)).unwrap();
    s.append("a", 0, &[], Some(100)).unwrap();
    s.append("b", 0, &[], Some(200)).unwrap();
    let mut r = table("r", 3);
    r.rematch_of = Some("a".into());
    s.insert_rematch("a", &r).unwrap();
    let mut r2 = table("r2", 4);
    r2.rematch_of = Some("a".into());
    assert!(s.insert_rematch("a", &r2).is_err(), "a has its rematch");
    assert!(!s.exists("r2").unwrap(), "the refused rematch rolled back");
    assert_eq!(s.load_one("a").unwrap().unwrap().rematch.as_deref(), Some("r"));
    assert_eq!(s.finished_ids(10).unwrap(), ["b", "a"]);
    assert_eq!(s.finished_ids(1).unwrap(), ["b"]);
    s.delete_table("r").unwrap();
    assert!(!s.exists("r").unwrap());
    assert_eq!(s.load_one("a").unwrap().unwrap().rematch, None);
    let order: Vec<String> = s.load_all().unwrap().into_iter().map(|t| t.id).collect();
    assert_eq!(order, ["a", "b"]);
}

/// After close every write is refused; reads go on.
fn a_closed_store_refuses_every_write(s: &mut dyn TableStore) {
    s.insert_table(&table("t1", 1)).unwrap();
    s.close().unwrap();
    let e = s.insert_table(&table("t2", 2)).unwrap_err();
    assert!(e.0.contains("the store is closed"), "{e}");
    assert!(s.append("t1", 0, &[(0, "{}".into())], None).is_err());
    assert!(s.take_seat("t1", 1, "Ann", "abc", 0, &[]).is_err());
    assert!(s.delete_table("t1").is_err());
    let all = s.load_all().unwrap();
    assert_eq!((all.len(), all[0].actions.len()), (1, 0));
}

/// A server over the store plays a bots' game to its end; a second server over the same store
/// replays it to the same record, and reads it as finished.
fn a_server_replays_its_games(open: &dyn Fn() -> Box<dyn TableStore>) {
    let config = ServerConfig { bot_threads: 1, ..ServerConfig::default() };
    let server = Server::with_boxed_store(open(), config.clone()).unwrap();
    let req: CreateTable = serde_json::from_value(json!({
        "players": 3, "seats": [{"bot": "random"}, {"bot": "random"}, {"bot": "random"}]
    }))
    .unwrap();
    let waiting: CreateTable = serde_json::from_value(json!({"players": 3})).unwrap();
    let id = server.create_table(&req).unwrap().id;
    let other = server.create_table(&waiting).unwrap().id;
    let token = server.take_seat(&other, 1, "Ann", None).unwrap().token;
    let deadline = Instant::now() + Duration::from_secs(60);
    while server.table(&id).unwrap().lock().info().status != "over" {
        assert!(Instant::now() < deadline, "the bots' game did not end");
        std::thread::sleep(Duration::from_millis(20));
    }
    let record = server.record(&id).unwrap();
    server.close();
    drop(server);
    let store = open();
    let stored = store.load_one(&id).unwrap().unwrap();
    // Every action of the record is in the log, and at least one per seat for each of the 18
    // turns (3 ages of 6 turns).
    assert_eq!(stored.actions.len(), record.actions.len());
    assert!(stored.actions.len() >= 54, "{}", stored.actions.len());
    assert!(record.scores.is_some() && stored.finished.is_some());
    let replayed = Table::load(stored).record().unwrap();
    assert_eq!(replayed, record);
    let again = Server::with_boxed_store(store, config).unwrap();
    assert_eq!(again.record(&id).unwrap(), record);
    let list = again.list();
    assert!(list.finished.iter().any(|t| t.id == id));
    let waiting = list.open.iter().find(|t| t.id == other).expect("the waiting table is back");
    assert_eq!(waiting.seats[1].name.as_deref(), Some("Ann"));
    assert_eq!(again.authorize(&other, &token).unwrap(), 1);
    again.close();
}

type Case = fn(&mut dyn TableStore);
const CASES: &[(&str, Case)] = &[
    ("round_trip_and_append_only_log", round_trip_and_append_only_log),
    ("a_failing_batch_stores_nothing", a_failing_batch_stores_nothing),
    ("rematches_finished_order_and_delete", rematches_finished_order_and_delete),
    ("a_closed_store_refuses_every_write", a_closed_store_refuses_every_write),
];

#[test]
fn suite_on_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    for (i, (name, case)) in CASES.iter().enumerate() {
        eprintln!("sqlite: {name}");
        let path = dir.path().join(format!("case{i}.db"));
        case(&mut Store::open(&path).unwrap());
    }
    let path = dir.path().join("server.db");
    let db = path.to_str().unwrap().to_string();
    a_server_replays_its_games(&|| storage::open(&db).unwrap());
}

#[test]
fn suite_on_postgresql() {
    let Some(pg) = pgtemp::for_tests() else { return };
    for (i, (name, case)) in CASES.iter().enumerate() {
        eprintln!("postgresql: {name}");
        let url = pg.create_database(&format!("case{i}")).unwrap();
        let mut store = storage::open(&url).unwrap();
        assert_eq!(store.kind(), "postgresql");
        case(store.as_mut());
    }
    let url = pg.create_database("server").unwrap();
    a_server_replays_its_games(&|| storage::open(&url).unwrap());
}

/// Both stores keep the schema's version: a database of a newer version is refused, naming it.
#[test]
fn a_newer_schema_is_refused_by_both() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.db");
    drop(Store::open(&path).unwrap());
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1).unwrap();
    drop(conn);
    let e = Store::open(&path).err().unwrap();
    assert!(e.0.contains(&format!("schema version {}", SCHEMA_VERSION + 1)), "{e}");

    let Some(pg) = pgtemp::for_tests() else { return };
    let url = pg.create_database("newer").unwrap();
    drop(storage::open(&url).unwrap());
    psql(&pg, "newer", &format!("UPDATE wonders_meta SET version = {}", SCHEMA_VERSION + 1));
    let e = storage::open(&url).err().unwrap();
    assert!(e.0.contains(&format!("schema version {}", SCHEMA_VERSION + 1)), "{e}");
    // A database with part of the schema is damaged: the missing table is named.
    let url = pg.create_database("partial").unwrap();
    drop(storage::open(&url).unwrap());
    psql(&pg, "partial", "DROP TABLE wonders_actions");
    let e = storage::open(&url).err().unwrap();
    assert!(e.0.contains("`wonders_actions` table is missing"), "{e}");
}

/// Runs one SQL statement with the cluster's `psql`.
fn psql(pg: &pgtemp::TempPostgres, db: &str, sql: &str) {
    let bin = pgtemp::bin_dir().unwrap().join("psql");
    let out = std::process::Command::new(bin)
        .args(["-h", "127.0.0.1", "-p", &pg.port().to_string(), "-U", "postgres", "-d", db, "-c", sql])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// An unreachable PostgreSQL fails the open within the store's timeout, naming the server.
#[test]
fn an_unreachable_postgresql_is_named() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let started = Instant::now();
    let e = storage::open(&format!("postgres://ann:secret@127.0.0.1:{port}/w")).err().unwrap();
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(e.0.contains(&format!("postgresql://ann@127.0.0.1:{port}/w")), "{e}");
    assert!(!e.0.contains("secret"), "{e}");
}
