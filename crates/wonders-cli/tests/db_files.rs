//! The database's files, on the real binary: after a clean stop (SIGTERM) the `.db` file alone
//! holds every table; `wonders backup` writes a consistent copy, also of a database being
//! served, and refuses what it should with a clear message; `wonders serve --check` verifies a
//! file without writing it (it may be read-only), and a damaged WAL or a `.db` copied without its
//! WAL is reported, never taken silently.

use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{Served, serve_binary};

/// Room for the tests' tables: no cap per address or per minute.
const ROOMY: &[&str] =
    &["--max-open-tables-per-ip", "100", "--tables-per-minute", "0", "--seats-per-minute", "0"];

fn serve(db: &Path, stderr: Stdio) -> Served {
    serve_binary(db, ROOMY, None, stderr, "warn")
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

/// Creates a table with these seats; returns its id.
fn create(addr: &str, seats: Value) -> String {
    let (status, body) =
        http(addr, "POST", "/api/tables", Some(&json!({"players": 4, "seats": seats})), None);
    assert_eq!(status, 201, "{body}");
    body["id"].as_str().unwrap().to_string()
}

fn bots_only(addr: &str) -> String {
    create(addr, json!([{"bot": "random"}, {"bot": "random"}, {"bot": "random"}, {"bot": "random"}]))
}

fn state(addr: &str, id: &str, token: Option<&str>) -> Value {
    let (status, body) = http(addr, "GET", &format!("/api/tables/{id}/state"), None, token);
    assert_eq!(status, 200, "table {id}: {body}");
    body
}

/// Waits (at most 20 s) until the table is over.
fn wait_over(addr: &str, id: &str) {
    let began = Instant::now();
    while state(addr, id, None)["table"]["status"] != "over" {
        assert!(began.elapsed() < Duration::from_secs(20), "table {id}: the bots did not finish");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Waits (at most 10 s) until no bot of the table must act: bots move in the background.
fn settle(addr: &str, id: &str) {
    let began = Instant::now();
    loop {
        let st = state(addr, id, None);
        let seats = &st["table"]["seats"];
        let bots_to_move = st["waiting"]
            .as_array()
            .is_some_and(|w| w.iter().any(|s| !seats[s.as_u64().unwrap() as usize]["bot"].is_null()));
        if !bots_to_move {
            return;
        }
        assert!(began.elapsed() < Duration::from_secs(10), "table {id}: the bots did not move");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A table with people (seats 0 and 1) and two bots, where the people made `rounds` moves
/// (and the bots answered).
fn played_by_people(addr: &str, rounds: usize) -> String {
    let id = create(addr, json!([{}, {}, {"bot": "random"}, {"bot": "random"}]));
    let tokens: Vec<String> = (0..2)
        .map(|seat| {
            let (status, t) = http(
                addr,
                "POST",
                &format!("/api/tables/{id}/seats/{seat}"),
                Some(&json!({"name": "P"})),
                None,
            );
            assert_eq!(status, 201, "{t}");
            t["token"].as_str().unwrap().to_string()
        })
        .collect();
    for _ in 0..rounds {
        for t in &tokens {
            let began = Instant::now();
            let st = loop {
                let st = state(addr, &id, Some(t));
                if !st["legal"].as_array().unwrap().is_empty() {
                    break st;
                }
                assert!(began.elapsed() < Duration::from_secs(10), "no turn came");
                std::thread::sleep(Duration::from_millis(20));
            };
            let body = json!({"turn_id": st["turn_id"], "action": st["legal"][0]});
            let (status, answer) =
                http(addr, "POST", &format!("/api/tables/{id}/actions"), Some(&body), Some(t));
            assert_eq!(status, 200, "{answer}");
        }
    }
    settle(addr, &id);
    id
}

fn wonders(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wonders")).args(args).output().expect("wonders runs")
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temporary path")
}

fn size(p: &Path) -> u64 {
    std::fs::metadata(p).map_or(0, |m| m.len())
}

fn with_suffix(db: &Path, suffix: &str) -> PathBuf {
    let mut name = db.as_os_str().to_os_string();
    name.push(suffix);
    PathBuf::from(name)
}

fn text(out: &Output) -> (String, String) {
    (String::from_utf8_lossy(&out.stdout).to_string(), String::from_utf8_lossy(&out.stderr).to_string())
}

/// A failure: status 1, a message, no panic.
fn refused(out: &Output) -> String {
    let (stdout, stderr) = text(out);
    assert_eq!(out.status.code(), Some(1), "stdout: {stdout}\nstderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

fn stop(mut served: Served) {
    let status = Command::new("kill").args(["-TERM", &served.child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let began = Instant::now();
    loop {
        if let Some(status) = served.child.try_wait().unwrap() {
            assert!(status.success(), "the server exits cleanly on SIGTERM: {status}");
            return;
        }
        assert!(began.elapsed() < Duration::from_secs(20), "the server did not stop on SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn kill(mut served: Served) {
    served.child.kill().unwrap();
    served.child.wait().unwrap();
}

/// A database of a server that was killed (its last changes only in the `-wal` file): the ids of
/// its tables (three finished by bots, one played by people).
fn killed_server_db(db: &Path) -> Vec<String> {
    let served = serve(db, Stdio::null());
    let mut ids: Vec<String> = (0..3).map(|_| bots_only(&served.addr)).collect();
    ids.push(played_by_people(&served.addr, 2));
    for id in &ids[..3] {
        wait_over(&served.addr, id);
    }
    kill(served);
    assert!(size(&with_suffix(db, "-wal")) > 0, "a killed server leaves its WAL");
    ids
}

/// Deterministic noise.
fn noise(n: usize, mut seed: u64) -> Vec<u8> {
    (0..n)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u8
        })
        .collect()
}

#[cfg(unix)]
#[test]
fn after_a_clean_stop_the_db_file_alone_holds_every_table() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let served = serve(&db, Stdio::inherit());
    let addr = served.addr.clone();
    let mut ids: Vec<String> = (0..4).map(|_| bots_only(&addr)).collect();
    ids.push(played_by_people(&addr, 3));
    let waiting = create(&addr, json!([{}, {}, {"bot": "random"}, {}]));
    ids.push(waiting.clone());
    for id in &ids[..4] {
        wait_over(&addr, id);
    }
    let before: Vec<Value> = ids.iter().map(|id| state(&addr, id, None)).collect();
    let wal = with_suffix(&db, "-wal");
    let running = (size(&db), size(&wal));
    stop(served);
    let stopped = (size(&db), size(&wal));
    eprintln!(
        "while serving: .db {} bytes, -wal {} bytes; after SIGTERM: .db {} bytes, -wal {} bytes",
        running.0, running.1, stopped.0, stopped.1
    );

    // Only the .db file, as most people copy a database.
    let elsewhere = tempfile::tempdir().unwrap();
    let copy = elsewhere.path().join("copy.db");
    std::fs::copy(&db, &copy).unwrap();
    let out = wonders(&["serve", "--check", "--db", path(&copy)]);
    let (stdout, stderr) = text(&out);
    for id in &ids {
        assert!(stdout.contains(id.as_str()), "table {id} is in the copied .db file:\n{stdout}{stderr}");
    }
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains(&format!("{waiting}  waiting\n")), "{stdout}");
    assert!(stdout.contains("6 tables, 0 broken"), "{stdout}");
    assert_eq!(stopped.1, 0, "the WAL is emptied into the .db file on a clean stop");

    // A server on the copy shows every table as it was, each log replayed.
    let served = serve(&copy, Stdio::inherit());
    for (id, was) in ids.iter().zip(&before) {
        assert_eq!(&state(&served.addr, id, None), was, "table {id}");
    }
    stop(served);
}

#[test]
fn backup_copies_a_database_while_it_is_served() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("live.db");
    let served = serve(&db, Stdio::inherit());
    let ids: Vec<String> = (0..4).map(|_| bots_only(&served.addr)).collect();
    // Backups while the bots play (and the server writes their moves).
    let mut copies = Vec::new();
    for i in 0..3 {
        let out_file = dir.path().join(format!("copy-{i}.db"));
        let out = wonders(&["backup", "--db", path(&db), path(&out_file)]);
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{stdout}{stderr}");
        assert!(stdout.contains("4 tables"), "{stdout}");
        copies.push(out_file);
        std::thread::sleep(Duration::from_millis(100));
    }
    for id in &ids {
        wait_over(&served.addr, id);
    }
    for copy in &copies {
        assert_eq!(size(&with_suffix(copy, "-wal")), 0, "a copy is one file");
        let out = wonders(&["serve", "--check", "--db", path(copy)]);
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{stdout}{stderr}");
        assert!(stdout.contains("integrity: ok\n") && stdout.contains("4 tables, 0 broken"), "{stdout}");
        for id in &ids {
            assert!(stdout.contains(id.as_str()), "{stdout}");
        }
    }
    stop(served);
}

#[test]
fn backup_refuses_what_it_cannot_do_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name);
    // A missing source: nothing written.
    let out = wonders(&["backup", "--db", path(&d("none.db")), path(&d("out.db"))]);
    let e = refused(&out);
    assert!(e.contains("none.db: no such database file"), "{e}");
    assert!(!d("out.db").exists());

    let db = d("wonders.db");
    let server = wonders_server::Server::open(&db).unwrap();
    let req = serde_json::from_value(json!({"players": 3, "seats": [{}, {"bot": "random"}, {}]})).unwrap();
    let id = server.create_table(&req).unwrap().id;
    server.close();
    drop(server);

    let out = wonders(&["backup", "--db", path(&db), path(&d("out.db"))]);
    assert!(out.status.success(), "{:?}", text(&out));
    assert!(text(&out).0.contains("1 tables, 0 actions"), "{:?}", text(&out));
    let first = std::fs::read(d("out.db")).unwrap();
    // OUT exists: refused without --force, replaced with it.
    let e = refused(&wonders(&["backup", "--db", path(&db), path(&d("out.db"))]));
    assert!(e.contains("out.db: already exists") && e.contains("--force"), "{e}");
    assert_eq!(std::fs::read(d("out.db")).unwrap(), first);
    let out = wonders(&["backup", "--force", "--db", path(&db), path(&d("out.db"))]);
    assert!(out.status.success(), "{:?}", text(&out));
    // Never over the database itself, a directory, or a database with changes in its WAL.
    let before = std::fs::read(&db).unwrap();
    let e = refused(&wonders(&["backup", "--force", "--db", path(&db), path(&db)]));
    assert!(e.contains("is the database itself"), "{e}");
    assert_eq!(std::fs::read(&db).unwrap(), before);
    let e = refused(&wonders(&["backup", "--db", path(&db), path(dir.path())]));
    assert!(e.contains("is a directory"), "{e}");
    std::fs::write(d("busy.db"), b"x").unwrap();
    std::fs::write(d("busy.db-wal"), b"frames").unwrap();
    let e = refused(&wonders(&["backup", "--force", "--db", path(&db), path(&d("busy.db"))]));
    assert!(e.contains("busy.db-wal exists (6 bytes)"), "{e}");
    // A directory that does not exist.
    let e = refused(&wonders(&["backup", "--db", path(&db), path(&d("no/such/dir/out.db"))]));
    assert!(e.contains("no/such/dir"), "{e}");
    // A source that is not a wonders database: a text file, an SQLite file with no table.
    std::fs::write(d("notes.txt"), "not a database at all, just some words here\n".repeat(200)).unwrap();
    let e = refused(&wonders(&["backup", "--db", path(&d("notes.txt")), path(&d("n.db"))]));
    assert!(e.contains("notes.txt") && e.contains("not a database"), "{e}");
    let empty = d("empty.db");
    let store = wonders_server::Store::open(&empty).unwrap();
    store.connection().execute_batch("DROP TABLE actions; DROP TABLE seats; DROP TABLE tables;").unwrap();
    drop(store);
    let e = refused(&wonders(&["backup", "--db", path(&empty), path(&d("e.db"))]));
    assert!(e.contains("empty.db: holds no table") && e.contains("-wal"), "{e}");
    assert!(!d("n.db").exists() && !d("e.db").exists());
    // No temporary file is left behind.
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".backup-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // The copy serves the table.
    let out = wonders(&["serve", "--check", "--db", path(&d("out.db"))]);
    assert!(text(&out).0.contains(&format!("{id}  waiting\n")), "{:?}", text(&out));
}

/// `--check` opens the file read-only: a file that may not be written is checked, and even
/// where permissions do not stop the check (root) the file is left exactly as it was, an older
/// schema included (a server would bring it up to date).
#[cfg(unix)]
#[test]
fn serve_check_verifies_a_file_without_writing_it() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let ro = dir.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    let db = ro.join("old.db");
    let store = wonders_server::Store::open(&db).unwrap();
    // The schema of version 1 (no version number, none of the later columns), with a table.
    store
        .connection()
        .execute_batch(
            "DROP TABLE actions; DROP TABLE seats; DROP TABLE tables;
             CREATE TABLE tables (id TEXT PRIMARY KEY, created INTEGER NOT NULL, edition TEXT NOT NULL,
                players INTEGER NOT NULL, seed INTEGER NOT NULL, wonders TEXT NOT NULL, rematch_of TEXT,
                rematch TEXT);
             CREATE TABLE seats (table_id TEXT NOT NULL, seat INTEGER NOT NULL, bot TEXT, name TEXT,
                token_hash TEXT, PRIMARY KEY (table_id, seat));
             CREATE TABLE actions (table_id TEXT NOT NULL, idx INTEGER NOT NULL, seat INTEGER NOT NULL,
                action TEXT NOT NULL, PRIMARY KEY (table_id, idx));
             INSERT INTO tables VALUES ('abc', 1, '1e', 3, 7, 'A', NULL, NULL);
             INSERT INTO seats VALUES ('abc', 0, NULL, 'Ann', 'x'), ('abc', 1, NULL, NULL, NULL),
                ('abc', 2, 'random', 'Bot 3 (random)', NULL);
             PRAGMA user_version = 0;
             PRAGMA wal_checkpoint(TRUNCATE);",
        )
        .unwrap();
    drop(store);
    let _ = std::fs::remove_file(with_suffix(&db, "-wal"));
    let _ = std::fs::remove_file(with_suffix(&db, "-shm"));
    let bytes = std::fs::read(&db).unwrap();
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o444)).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    if std::fs::OpenOptions::new().write(true).open(&db).is_ok() {
        eprintln!(
            "note: permissions do not stop this user (root): the file and its directory are \
             writable here, so the check's read-only opening is shown by the file left as it was"
        );
    }

    let out = wonders(&["serve", "--check", "--db", path(&db)]);
    let (stdout, stderr) = text(&out);
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("abc  waiting\n"), "{stdout}");
    assert!(std::fs::read(&db).unwrap() == bytes, "the file is not written (its schema not upgraded)");
    assert!(stdout.contains("integrity: ok\n") && stdout.contains("wal: ok\n"), "{stdout}");
    assert_eq!(size(&with_suffix(&db, "-wal")), 0);
}

#[test]
fn a_damaged_wal_fails_the_check_and_is_reported_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    let ids = killed_server_db(&db);
    let wal = with_suffix(&db, "-wal");
    let wal_size = size(&wal);
    let sound = wonders(&["serve", "--check", "--db", path(&db)]);
    assert!(sound.status.success(), "{:?}", text(&sound));

    // Random bytes over the whole WAL: SQLite ignores all of it.
    let whole = dir.path().join("whole");
    std::fs::create_dir(&whole).unwrap();
    let whole_db = whole.join("games.db");
    std::fs::copy(&db, &whole_db).unwrap();
    std::fs::write(with_suffix(&whole_db, "-wal"), noise(wal_size as usize, 7)).unwrap();
    // (Every table was in the WAL: what SQLite can read holds none.)
    let e = refused(&wonders(&["serve", "--check", "--db", path(&whole_db)]));
    assert!(e.contains(&format!("games.db-wal ({wal_size} bytes) is damaged")), "{e}");
    assert!(
        e.contains("SQLite ignores all of it") && e.contains("what SQLite can read holds no table"),
        "{e}"
    );

    // Random bytes over a third of the way in: the frames after it are lost.
    let middle = dir.path().join("middle");
    std::fs::create_dir(&middle).unwrap();
    let middle_db = middle.join("games.db");
    std::fs::copy(&db, &middle_db).unwrap();
    let mut bytes = std::fs::read(&wal).unwrap();
    let page = u32::from_be_bytes(bytes[8..12].try_into().unwrap()) as usize;
    let frames = (bytes.len() - 32) / (page + 24);
    assert!(frames >= 6, "{frames} frames");
    let at = 32 + frames / 3 * (page + 24) + 24 + 100;
    bytes[at..at + 64].copy_from_slice(&noise(64, 11));
    std::fs::write(with_suffix(&middle_db, "-wal"), &bytes).unwrap();
    let out = wonders(&["serve", "--check", "--db", path(&middle_db)]);
    let e = refused(&out);
    assert!(
        e.contains("WARNING") && e.contains(&format!("games.db-wal ({wal_size} bytes) is damaged")),
        "{e}"
    );
    assert!(e.contains(&format!("frame {} fails its checksum", frames / 3 + 1)), "{e}");
    assert!(e.contains("committed transactions)"), "{e}");
    assert!(e.contains(&format!("the WAL file ({wal_size} bytes) is damaged")), "{e}");
    assert!(text(&out).0.contains("\nwal: the WAL file"), "{:?}", text(&out));

    // The server starts, says so loudly and keeps a copy of the damaged WAL.
    let mut served = serve(&whole_db, Stdio::piped());
    let mut stderr = served.child.stderr.take().unwrap();
    let lists = http(&served.addr, "GET", "/api/tables", None, None).1;
    stop(served);
    let mut said = String::new();
    stderr.read_to_string(&mut said).unwrap();
    assert!(said.contains("WARNING") && said.contains(&format!("({wal_size} bytes) is damaged")), "{said}");
    assert!(said.contains("A copy of the damaged WAL file is kept as"), "{said}");
    let kept: Vec<PathBuf> = std::fs::read_dir(&whole)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains("games.db-wal.damaged-"))
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(std::fs::read(&kept[0]).unwrap(), noise(wal_size as usize, 7));
    eprintln!("served after the damage: {lists}; tables before it: {ids:?}");
    // Then the file is sound again (what SQLite could read is in it).
    let out = wonders(&["serve", "--check", "--db", path(&whole_db)]);
    assert!(out.status.success(), "{:?}", text(&out));
}

#[test]
fn a_db_file_copied_without_its_wal_is_not_taken_silently() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.db");
    killed_server_db(&db);
    let elsewhere = tempfile::tempdir().unwrap();
    let copy = elsewhere.path().join("copy.db");
    std::fs::copy(&db, &copy).unwrap();
    let copied = size(&copy);
    let e = refused(&wonders(&["serve", "--check", "--db", path(&copy)]));
    assert!(e.contains("copy.db: holds no table") && e.contains("-wal file"), "{e}");
    assert_eq!(size(&copy), copied, "the check created nothing in it");
    // A server starts on it (it may be meant as a new database) but says so.
    let mut served = serve(&copy, Stdio::piped());
    let mut stderr = served.child.stderr.take().unwrap();
    stop(served);
    let mut said = String::new();
    stderr.read_to_string(&mut said).unwrap();
    assert!(
        said.contains(&format!(
            "WARNING: {} was an SQLite file of {copied} bytes with no table",
            copy.display()
        )),
        "{said}"
    );
}
