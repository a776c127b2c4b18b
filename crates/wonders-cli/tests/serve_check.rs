//! `wonders serve --check` reports every table of a database (waiting, ok, finished, broken with
//! its reason) without serving, and exits non-zero when one is broken or the schema is damaged.

use serde_json::json;
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};
use wonders_server::Server;
use wonders_server::msg::CreateTable;

fn create(server: &Server, seats: serde_json::Value) -> String {
    let req: CreateTable =
        serde_json::from_value(json!({"players": 3, "wonders": "A", "seats": seats})).unwrap();
    server.create_table(&req).unwrap().id
}

/// Waits (at most 10 s) until the bots of a table have moved as `ready` says.
fn wait(server: &Server, id: &str, ready: impl Fn(&wonders_server::msg::StateMsg) -> bool) {
    let began = Instant::now();
    while !ready(&server.state(id, None).unwrap()) {
        assert!(began.elapsed() < Duration::from_secs(10), "table {id}: the bots did not move");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn check(db: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wonders"))
        .args(["serve", "--check", "--db"])
        .arg(db)
        .output()
        .expect("wonders runs")
}

#[test]
fn serve_check_reports_every_table_and_fails_on_a_broken_one() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("wonders.db");
    let server = Server::open(&db).unwrap();
    let waiting = create(&server, json!([{}, {"bot": "random"}, {}]));
    let finished = create(&server, json!([{"bot": "random"}, {"bot": "random"}, {"bot": "random"}]));
    let playing = create(&server, json!([{}, {"bot": "random"}, {"bot": "random"}]));
    server.take_seat(&playing, 0, "Ann", None).unwrap();
    wait(&server, &finished, |st| st.table.status == "over");
    wait(&server, &playing, |st| st.view.as_ref().is_some_and(|v| v.chosen == [false, true, true]));
    drop(server);

    let out = check(&db);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains(&format!("{waiting}  waiting\n")), "{text}");
    assert!(text.contains(&format!("{finished}  finished\n")), "{text}");
    assert!(text.contains(&format!("{playing}  ok (playing, Age 1 turn 1)\n")), "{text}");
    assert!(text.contains("3 tables, 0 broken"), "{text}");

    // A bot name this version does not know: that table is broken, the check fails.
    let store = wonders_server::Store::open(&db).unwrap();
    store
        .connection()
        .execute("UPDATE seats SET bot = 'oracle' WHERE table_id = ?1 AND seat = 1", [&playing])
        .unwrap();
    drop(store);
    let out = check(&db);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains(&format!(
            "{playing}  broken: table {playing}: the stored bot of seat 1 cannot play: unknown bot `oracle`"
        )),
        "{text}"
    );
    assert!(text.contains(&format!("{waiting}  waiting\n")), "{text}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 of 3 tables are broken"));

    // A damaged schema: a clear message, nothing served, nothing recreated.
    let store = wonders_server::Store::open(&db).unwrap();
    store.connection().execute_batch("DROP TABLE actions").unwrap();
    drop(store);
    let out = check(&db);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("the database is damaged: its `actions` table is missing"), "{err}");
}
