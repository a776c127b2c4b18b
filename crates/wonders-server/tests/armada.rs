//! Armada tables over HTTP: the table options (3–8 players, 8 only
//! with Armada, never with the 2-player Free City), the Armada part of every view (shipyards,
//! islands, decks; the islands dealt while exploring stay the explorer's), the naval
//! construction and the yellow discard among the legal actions, a whole game with bots whose
//! Age ends carry the naval results, a record that replays, and a restart that restores it.

mod common;

use common::{TestServer, play_http, temp_db};
use serde_json::{Value, json};
use wonders_core::Record;

fn message(e: &Value) -> &str {
    e["error"]["message"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn armada_table_options_are_checked() {
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    // 8 players: only with Armada (000 8人遊戲規則); the message names the problem.
    let (status, e) = s.post("/api/tables", &json!({"players": 8}), None).await;
    assert_eq!(status, 400, "{e}");
    assert!(message(&e).contains("8 players") && message(&e).contains("8 with Armada"), "{e}");
    let (status, e) = s.post("/api/tables", &json!({"players": 9, "expansions": ["armada"]}), None).await;
    assert_eq!(status, 400, "{e}");
    assert!(message(&e).contains("9 players"), "{e}");
    // Armada with the 2-player Free City: no rulebook covers it.
    let (status, e) = s.post("/api/tables", &json!({"players": 2, "expansions": ["armada"]}), None).await;
    assert_eq!(status, 400, "{e}");
    assert!(message(&e).to_lowercase().contains("armada"), "{e}");
    // Edifice's pawn table stops at 7 players (edifice.md §5.1): 8 with both is refused.
    let (status, e) =
        s.post("/api/tables", &json!({"players": 8, "expansions": ["armada", "edifice"]}), None).await;
    assert_eq!(status, 400, "{e}");
    assert!(message(&e).contains("Edifice plays with 3 to 7 players"), "{e}");
    assert_eq!(s.get("/api/tables", None).await.1["open_total"], 0, "nothing created");
    // Armada with Edifice (6 players, in teams): accepted, and the table names both.
    let (status, info) = s
        .post("/api/tables", &json!({"players": 6, "expansions": ["armada", "edifice"], "teams": true}), None)
        .await;
    assert_eq!(status, 201, "{info}");
    assert_eq!(info["expansions"], json!(["edifice", "armada"]));
    // 8 players with Armada, in teams: accepted.
    let seats: Vec<Value> = (0..8).map(|_| json!({"bot": "random"})).collect();
    let body = json!({"players": 8, "expansions": ["armada"], "teams": true, "seats": seats});
    let (status, info) = s.post("/api/tables", &body, None).await;
    assert_eq!(status, 201, "{info}");
    assert_eq!(info["expansions"], json!(["armada"]));
    assert_eq!(info["players"], 8);
    let id = info["id"].as_str().unwrap();
    // All seats are bots: the game starts; every view has 8 shipyards, on 8 different boards.
    let st = s.wait_state(id, None, "the game to start", |st| st["view"]["armada"].is_object()).await;
    let yards = st["view"]["armada"]["cities"].as_array().unwrap();
    assert_eq!(yards.len(), 8);
    let mut boards: Vec<u64> = yards.iter().map(|y| y["board"].as_u64().unwrap()).collect();
    boards.sort();
    assert_eq!(boards, (1..=8).collect::<Vec<u64>>(), "8 boards dealt (§2.2 item 6)");
    s.stop().await;
}

#[tokio::test]
async fn an_armada_table_plays_to_the_end_and_replays_after_a_restart() {
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    let body = json!({"players": 4, "expansions": ["armada"],
        "seats": [{}, {"bot": "heuristic"}, {"bot": "random"}, {"bot": "search"}]});
    let (status, info) = s.post("/api/tables", &body, None).await;
    assert_eq!(status, 201, "{info}");
    assert_eq!(info["expansions"], json!(["armada"]));
    let id = info["id"].as_str().unwrap().to_string();
    let ann = s.take(&id, 0, "Ann").await;
    let st = s.state(&id, Some(&ann)).await;
    let armada = &st["view"]["armada"];
    // 000 遊戲準備: 8-card hands (7 turns), ships on their start spaces, 9 islands per deck.
    assert_eq!(st["view"]["hand"].as_array().unwrap().len(), 8);
    assert_eq!(armada["deck_sizes"], json!([9, 9, 9]));
    for y in armada["cities"].as_array().unwrap() {
        let ships = y["ships"].as_array().unwrap();
        let fleets: Vec<&str> = ships.iter().map(|s| s["fleet"].as_str().unwrap()).collect();
        assert_eq!(fleets, ["red", "yellow", "blue", "green"]);
        assert!(ships.iter().all(|s| s["step"] == 0 && s["next"]["step"] == 1));
        assert_eq!(ships.iter().filter(|s| s["wonder"] == true).count(), 1);
        assert_eq!((y["naval_strength"].as_u64(), y["trade_level"].as_u64()), (Some(0), Some(0)));
        // Yellow's first step gives trade level 1 (armada.md §4, confirmed).
        assert_eq!(ships[1]["next"]["gives"], json!({"trade": 1}));
    }
    // Every card can be discarded for 3 coins or for a free move of the yellow ship (§2.4), and
    // a red, yellow, blue or green card is offered with its naval construction too (§2.3).
    let legal = st["legal"].as_array().unwrap();
    for card in st["view"]["hand"].as_array().unwrap() {
        let discards: Vec<&Value> =
            legal.iter().filter(|a| a["type"] == "discard" && a["card"] == *card).collect();
        assert_eq!(discards.len(), 2, "{card}");
        assert!(discards.iter().any(|a| a["yellow"] == true));
    }
    assert!(legal.iter().all(|a| a["naval"].is_null()
        || ["red", "yellow", "blue", "green"].contains(&a["naval"].as_str().unwrap())));
    play_http(&s, &id, std::slice::from_ref(&ann), 0).await;
    let st = s.state(&id, Some(&ann)).await;
    assert_eq!(st["table"]["status"], "over");
    // The Age-end record of each Age holds each city's naval token of that Age: the same as the
    // tokens of the shipyards in the view (armada.md §2.5).
    let ends = st["age_ends"].as_array().unwrap();
    assert_eq!(ends.len(), 3);
    let yards = st["view"]["armada"]["cities"].as_array().unwrap();
    for (a, end) in ends.iter().enumerate() {
        for (i, c) in end["cities"].as_array().unwrap().iter().enumerate() {
            assert_eq!(c["naval"]["token"], yards[i]["naval_tokens"][a], "Age {} city {i}", a + 1);
        }
    }
    // The naval score category is the sum of those tokens; fleet = the blue fleet's VP.
    let scores = st["scores"].as_array().unwrap();
    for (l, y) in scores.iter().zip(yards) {
        let tokens: i64 = y["naval_tokens"].as_array().unwrap().iter().map(|t| t.as_i64().unwrap()).sum();
        assert_eq!(l["naval"].as_i64().unwrap_or(0), tokens, "{l}");
        assert_eq!(l["fleet"].as_i64().unwrap_or(0), y["fleet_points"].as_i64().unwrap(), "{l}");
        let parts: i64 = [
            "military",
            "treasury",
            "wonder",
            "civilian",
            "science",
            "commercial",
            "guilds",
            "naval",
            "fleet",
            "islands",
        ]
        .iter()
        .map(|k| l[*k].as_i64().unwrap_or(0))
        .sum();
        assert_eq!(parts, l["total"].as_i64().unwrap(), "{l}");
    }
    let (status, record) = s.get(&format!("/api/tables/{id}/record"), None).await;
    assert_eq!(status, 200);
    assert_eq!(record["expansions"], json!(["armada"]));
    let record: Record = serde_json::from_value(record).unwrap();
    let game = record.replay().unwrap();
    assert!(game.armada().is_some());
    assert_eq!(
        serde_json::to_value(game.scores()).unwrap(),
        serde_json::to_value(record.scores.unwrap()).unwrap()
    );
    s.stop().await;
    // After a restart on the same database the table is restored by replaying its log.
    let s = TestServer::start(&db).await;
    let again = s.state(&id, Some(&ann)).await;
    assert_eq!(again["table"]["status"], "over");
    assert_eq!(again["table"]["expansions"], json!(["armada"]));
    assert_eq!(again["view"]["armada"], st["view"]["armada"]);
    assert_eq!(again["scores"], st["scores"]);
    assert_eq!(again["age_ends"], st["age_ends"]);
    s.stop().await;
}
