//! Edifice tables over HTTP: the option at creation, the projects in every view, the
//! stage + take part actions, a whole game, a record that names the expansion and replays, and a
//! restart that restores the table with its expansion.

mod common;

use common::{TestServer, play_http, temp_db};
use serde_json::{Value, json};
use wonders_core::Record;

#[tokio::test]
async fn an_edifice_table_plays_to_the_end_and_replays() {
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    let (status, e) = s.post("/api/tables", &json!({"players": 3, "expansions": ["babel"]}), None).await;
    assert_eq!(status, 400);
    assert!(e["error"]["message"].as_str().unwrap().contains("unknown expansion `babel`"));
    assert_eq!(s.get("/api/tables", None).await.1["open_total"], 0, "nothing created");
    let body = json!({"players": 3, "expansions": ["edifice"], "seats": [{}, {"bot": "heuristic"}, {"bot": "random"}]});
    let (status, info) = s.post("/api/tables", &body, None).await;
    assert_eq!(status, 201, "{info}");
    assert_eq!(info["expansions"], json!(["edifice"]));
    let id = info["id"].as_str().unwrap().to_string();
    let ann = s.take(&id, 0, "Ann").await;
    let st = s.state(&id, Some(&ann)).await;
    let projects = st["view"]["projects"].as_array().unwrap();
    assert_eq!(projects.len(), 3);
    for (a, p) in projects.iter().enumerate() {
        assert_eq!(p["age"], a as u64 + 1);
        assert_eq!(p["pawns_left"], 2, "3 players: 2 pawns (edifice.md §5.1)");
        assert_eq!(p["outcome"], "open");
        assert_eq!(p["current"], a == 0);
        assert_eq!(p["provisional"], true);
    }
    // A spectator sees the projects too (public).
    let public = s.state(&id, None).await;
    assert_eq!(public["view"]["projects"], st["view"]["projects"]);
    // Taking part, when offered, is its own action with the participation coins to the bank.
    for a in st["legal"].as_array().unwrap() {
        if a["take_part"] == true {
            assert!(a["bank"].as_u64().unwrap() >= 1, "{a}");
        }
    }
    play_http(&s, &id, std::slice::from_ref(&ann), 0).await;
    let (status, record) = s.get(&format!("/api/tables/{id}/record"), None).await;
    assert_eq!(status, 200);
    assert_eq!(record["expansions"], json!(["edifice"]));
    let record: Record = serde_json::from_value(record).unwrap();
    let game = record.replay().unwrap();
    assert!(game.edifice().is_some());
    s.stop().await;
    // After a restart on the same database the table is restored with its expansion.
    let s = TestServer::start(&db).await;
    let st: Value = s.state(&id, None).await;
    assert_eq!(st["table"]["status"], "over");
    assert_eq!(st["table"]["expansions"], json!(["edifice"]));
    assert_eq!(st["view"]["projects"].as_array().unwrap().len(), 3);
    let scores = st["scores"].as_array().unwrap();
    // The edifice category is in each score line (left out when 0), and in the total.
    for l in scores {
        let parts: i64 =
            ["military", "treasury", "wonder", "civilian", "science", "commercial", "guilds", "edifice"]
                .iter()
                .map(|k| l[*k].as_i64().unwrap_or(0))
                .sum();
        assert_eq!(parts, l["total"].as_i64().unwrap(), "{l}");
    }
    s.stop().await;
}
