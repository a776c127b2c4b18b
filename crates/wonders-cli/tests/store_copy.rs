//! `wonders store copy`: an SQLite file's tables copied into PostgreSQL (a throwaway cluster,
//! `wonders_server::pgtemp`: skipped with a note when PostgreSQL is not installed, a failure in
//! CI) and back into a new SQLite file: every row equal, every game replayed to the same record;
//! a copy into a store that holds tables is refused.

use serde_json::json;
use std::process::Command;
use std::time::{Duration, Instant};
use wonders_server::msg::CreateTable;
use wonders_server::server::ServerConfig;
use wonders_server::{Server, storage};

fn copy(from: &str, to: &str) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_wonders"))
        .args(["store", "copy", "--from", from, "--to", to])
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

#[test]
fn a_store_copied_to_postgresql_and_back_replays_every_game() {
    let Some(pg) = wonders_server::pgtemp::for_tests() else { return };
    let dir = tempfile::tempdir().unwrap();
    let sqlite = dir.path().join("games.db").to_string_lossy().into_owned();
    // Two finished bots' games, one of them with a rematch waiting, and a waiting table with a
    // person seated.
    let server = Server::open_with(
        std::path::Path::new(&sqlite),
        ServerConfig { bot_threads: 1, ..ServerConfig::default() },
    )
    .unwrap();
    let bots: CreateTable = serde_json::from_value(json!({
        "players": 3, "seats": [{"bot": "random"}, {"bot": "random"}, {}]
    }))
    .unwrap();
    let all_bots: CreateTable = serde_json::from_value(json!({
        "players": 4, "edition": "2e", "seats": [{"bot": "random"}, {"bot": "random"}, {"bot": "random"}, {"bot": "random"}]
    }))
    .unwrap();
    let first = server.create_table(&bots).unwrap().id;
    let token = server.take_seat(&first, 2, "Ann", None).unwrap().token;
    let second = server.create_table(&all_bots).unwrap().id;
    let waiting = server.create_table(&serde_json::from_value(json!({"players": 5})).unwrap()).unwrap().id;
    server.take_seat(&waiting, 3, "Bob", None).unwrap();
    // Ann plays her seat's first legal action each time until the game ends.
    let deadline = Instant::now() + Duration::from_secs(120);
    while server.table(&first).unwrap().lock().info().status != "over" {
        assert!(Instant::now() < deadline, "the game did not end");
        let st = server.state(&first, Some(&token)).unwrap();
        match st.legal.first() {
            Some(a) => drop(server.act(&first, &token, Some(st.turn_id), &a.clone())),
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    }
    while server.table(&second).unwrap().lock().info().status != "over" {
        assert!(Instant::now() < deadline, "the bots' game did not end");
        std::thread::sleep(Duration::from_millis(20));
    }
    let rematch = server.rematch(&first, &token).unwrap().id;
    server.close();
    drop(server);

    let url = pg.create_database("copied").unwrap();
    let (ok, text) = copy(&sqlite, &url);
    assert!(ok, "{text}");
    assert!(text.contains("4 tables") && text.contains("4 games replayed in both, identical"), "{text}");
    let back = dir.path().join("back.db").to_string_lossy().into_owned();
    let (ok, text) = copy(&url, &back);
    assert!(ok, "{text}");
    let (original, returned) =
        (storage::open_existing(&sqlite).unwrap(), storage::open_existing(&back).unwrap());
    let (a, b) = (original.load_all().unwrap(), returned.load_all().unwrap());
    assert_eq!(a.len(), 4);
    for t in &a {
        let r = b.iter().find(|r| r.id == t.id).expect("every table comes back");
        assert_eq!(r, t, "table {} comes back whole", t.id);
    }
    assert_eq!(a.iter().find(|t| t.id == first).unwrap().rematch.as_deref(), Some(rematch.as_str()));
    assert_eq!(storage::verify_copy(original.as_ref(), returned.as_ref()).unwrap(), 4);
    // A server on the copy serves the same games.
    let served = Server::open_db(&url, ServerConfig::default()).unwrap();
    let list = served.list();
    assert_eq!(list.open.iter().filter(|t| t.id == waiting || t.id == rematch).count(), 2);
    assert_eq!(list.finished.iter().filter(|t| t.id == first || t.id == second).count(), 2);
    served.close();
    // Copying into a store that holds tables is refused, naming why.
    let (ok, text) = copy(&sqlite, &url);
    assert!(!ok && text.contains("the destination already holds tables"), "{text}");
}
