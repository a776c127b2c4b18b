//! Players' names over HTTP: a seat is refused to a name that shows as nothing or as spaces, or
//! that passes for a bot (each refusal naming the problem), and taken with emoji sequences,
//! combining marks and other scripts, the name kept as given.

mod common;

use common::{TestServer, temp_db};
use serde_json::json;

/// Tries to take `seat` of `table` as `name`: (status, body).
async fn take(s: &TestServer, table: &str, seat: u8, name: &str) -> (u16, serde_json::Value) {
    s.post(&format!("/api/tables/{table}/seats/{seat}"), &json!({"name": name}), None).await
}

#[tokio::test]
async fn seats_refuse_invisible_names_and_names_of_bots() {
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    let id = s.create(4, "1e", "random", &[None, Some("heuristic")]).await;
    // How the table names its bot seat: the label a person must not take.
    let st = s.state(&id, None).await;
    assert_eq!(st["table"]["seats"][1]["name"], "Bot 2 (heuristic)", "{}", st["table"]["seats"]);
    for (name, why) in [
        ("\u{3164}", "U+3164"),
        ("\u{3164}\u{3164}\u{3164}", "Hangul filler"),
        ("\u{115F}\u{1160}", "U+115F"),
        ("\u{FFA0}", "Hangul filler"),
        ("\u{034F}", "U+034F"),
        ("\u{2800}\u{2800}", "blank Braille pattern"),
        ("\u{17B4}", "U+17B4"),
        ("\u{FE0F}", "variation selector"),
        ("\u{0301}\u{0301}", "combining mark"),
        ("\u{200B}", "U+200B"),
        ("Ann\u{3164}Lee", "U+3164"),
        ("Bot 2 (heuristic)", "looks like a bot's seat"),
        ("bot 3 (Random)", "looks like a bot's seat"),
        ("Heuristic", "is a bot's name"),
        ("search:300ms", "is a bot's name"),
        ("Ann (bot)", "mark of a bot's seat"),
    ] {
        let (status, body) = take(&s, &id, 0, name).await;
        assert_eq!((status, body["error"]["code"].as_str()), (400, Some("bad_request")), "{name:?}: {body}");
        let message = body["error"]["message"].as_str().unwrap();
        assert!(message.contains(why), "{name:?}: {message}");
    }
    // Nobody sat down.
    let st = s.state(&id, None).await;
    assert_eq!(st["table"]["seats"][0]["taken"], false, "{}", st["table"]["seats"][0]);
    s.stop().await;
}

#[tokio::test]
async fn seats_take_emoji_sequences_marks_and_other_scripts() {
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    let names = [
        "👨\u{200D}👩\u{200D}👧\u{200D}👦",
        "e\u{0301}mile",
        "李小龍",
        "I ❤\u{FE0F} 7W",
        "🏳\u{FE0F}\u{200D}🌈 Robin",
        "Botanist",
    ];
    let id = s.create(names.len() as u8, "1e", "random", &[]).await;
    for (seat, name) in names.iter().enumerate() {
        let (status, body) = take(&s, &id, seat as u8, name).await;
        assert_eq!(status, 201, "{name:?}: {body}");
    }
    let st = s.state(&id, None).await;
    for (seat, name) in names.iter().enumerate() {
        assert_eq!(st["table"]["seats"][seat]["name"], *name, "{}", st["table"]["seats"][seat]);
    }
    s.stop().await;
}
