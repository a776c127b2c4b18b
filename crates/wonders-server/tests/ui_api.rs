//! What the page needs beyond the game view: taking back a choice, each card's reason, the city
//! summaries, the Age-end conflicts, and the score pad's endpoint.

mod common;

use common::{TestServer, temp_db};
use serde_json::{Value, json};

#[tokio::test]
async fn a_choice_is_taken_back_until_the_turn_resolves_and_survives_a_restart() {
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    let table = s.create(3, "1e", "A", &[None, None, Some("heuristic")]).await;
    let ada = s.take(&table, 0, "Ada").await;
    let bob = s.take(&table, 1, "Bob").await;
    let st = s.state(&table, Some(&ada)).await;
    let hand: Vec<String> =
        st["view"]["hand"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect();
    let first = json!({"type": "discard", "card": hand[0]});
    let (status, body) = s.act(&table, &ada, st["turn_id"].as_u64(), &first).await;
    assert_eq!(status, 200, "{body}");
    let st = s.state(&table, Some(&ada)).await;
    // (The pending action is in wire form: a name two Ages share, such as Loom, carries its
    // `age` too, so compare the kind and the card.)
    let pending = st["pending"].as_array().unwrap();
    assert_eq!(pending.len(), 1, "{pending:?}");
    assert_eq!((&pending[0]["type"], &pending[0]["card"]), (&first["type"], &first["card"]));
    assert_eq!(st["legal"], json!([]));
    // Only the seat's own token takes it back; a spectator has nothing to take back.
    let (status, _) = s.post(&format!("/api/tables/{table}/retract"), &json!({}), None).await;
    assert_eq!(status, 403);
    let (status, body) = s.post(&format!("/api/tables/{table}/retract"), &json!({}), Some(&ada)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["turn_id"], json!(2));
    let st = s.state(&table, Some(&ada)).await;
    assert_eq!(st["pending"], json!([]));
    assert!(!st["legal"].as_array().unwrap().is_empty());
    // Nothing left to take back: refused, nothing changes.
    let (status, body) = s.post(&format!("/api/tables/{table}/retract"), &json!({}), Some(&ada)).await;
    assert_eq!(status, 422, "{body}");
    assert!(body["error"]["message"].as_str().unwrap().contains("nothing to take back"), "{body}");
    // A different choice, then Bob's: the turn resolves with Ada's second choice (3 + 3 coins).
    let second = json!({"type": "discard", "card": hand[1]});
    let (status, body) = s.act(&table, &ada, Some(2), &second).await;
    assert_eq!(status, 200, "{body}");
    let st = s.state(&table, Some(&bob)).await;
    let bob_card = st["view"]["hand"][0].clone();
    let (status, body) =
        s.act(&table, &bob, st["turn_id"].as_u64(), &json!({"type": "discard", "card": bob_card})).await;
    assert_eq!(status, 200, "{body}");
    let st = s.state(&table, Some(&ada)).await;
    assert_eq!(st["view"]["turn"], json!(2));
    assert_eq!(st["view"]["cities"][0]["coins"], json!(6));
    let (status, _) = s.post(&format!("/api/tables/{table}/retract"), &json!({}), Some(&ada)).await;
    assert_eq!(status, 422, "a resolved turn cannot be taken back");
    // The bot (seat 2) chooses its move of turn 2 on its own thread once the turn resolved: wait
    // until it is shown (stored), so that the state before the restart is the whole stored log.
    let mut before = s.state(&table, Some(&ada)).await;
    for _ in 0..500 {
        if before["view"]["chosen"][2] == json!(true) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        before = s.state(&table, Some(&ada)).await;
    }
    assert_eq!(before["view"]["chosen"][2], json!(true), "the bot chose its move of turn 2");
    // After a restart the stored log (with its retraction) replays to the same game.
    s.stop().await;
    let s = TestServer::start(&db).await;
    let after = s.state(&table, Some(&ada)).await;
    assert_eq!(after["view"], before["view"]);
    assert_eq!(after["turn_id"], before["turn_id"]);
    s.stop().await;
}

#[tokio::test]
async fn reasons_summaries_and_age_ends() {
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    let table =
        s.create(4, "1e", "random", &[None, Some("heuristic"), Some("random"), Some("heuristic")]).await;
    let ada = s.take(&table, 0, "Ada").await;
    let mut checked = 0;
    loop {
        let st = s.state(&table, Some(&ada)).await;
        if st["table"]["status"] == "over" {
            break;
        }
        let legal = st["legal"].as_array().unwrap().clone();
        if legal.is_empty() {
            continue;
        }
        // While a hand is played (a hand action always includes a discard), each card of the
        // hand has a reason exactly when no legal action builds it, and the stage has one
        // exactly when it cannot be built. Halicarnassus' pick from the discard pile (at the
        // end of a turn, when the view's hand is already the next one) has no reasons: its
        // builds are from the pile, not the hand.
        let hand = st["view"]["hand"].as_array().unwrap();
        let reasons = st["reasons"].as_array().unwrap();
        if legal.iter().any(|a| a["type"] == "discard") {
            assert_eq!(reasons.len(), hand.len());
            for (card, reason) in hand.iter().zip(reasons) {
                let buildable = legal.iter().any(|a| a["type"] == "build" && a["card"] == *card);
                assert_eq!(reason.is_null(), buildable, "{card}: {reason}");
                checked += 1;
            }
            let stage_ok = legal.iter().any(|a| a["type"] == "wonder");
            assert_eq!(st["stage_reason"].is_null(), stage_ok, "{}", st["stage_reason"]);
        } else {
            assert!(reasons.is_empty(), "{reasons:?}");
            assert!(st["stage_reason"].is_null(), "{}", st["stage_reason"]);
        }
        // Summaries: one per city, with its coins' worth in the running score.
        let sums = st["summaries"].as_array().unwrap();
        assert_eq!(sums.len(), 4);
        let a = legal.iter().find(|a| a["type"] == "build").unwrap_or(&legal[0]).clone();
        let (status, body) = s.act(&table, &ada, st["turn_id"].as_u64(), &a).await;
        assert_eq!(status, 200, "{body}");
    }
    assert!(checked >= 18 * 3, "{checked}");
    let st = s.state(&table, None).await;
    let ends = st["age_ends"].as_array().unwrap();
    assert_eq!(ends.iter().map(|e| e["age"].as_u64().unwrap()).collect::<Vec<_>>(), vec![1, 2, 3]);
    let cities = st["view"]["cities"].as_array().unwrap();
    for (i, city) in cities.iter().enumerate() {
        // The tokens of the three Age ends are the city's tokens (002 時代結束).
        let from_ends: i64 = ends
            .iter()
            .map(|e| e["cities"][i]["left"].as_i64().unwrap() + e["cities"][i]["right"].as_i64().unwrap())
            .sum();
        let tokens: i64 = city["military"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).sum();
        assert_eq!(from_ends, tokens, "city {i}");
        assert_eq!(st["summaries"][i]["military_points"].as_i64().unwrap(), tokens);
        assert_eq!(st["summaries"][i]["score_now"], st["scores"][i]["total"]);
        for (age, e) in ends.iter().enumerate() {
            // A victory over the left neighbour is its defeat on its right, and the token is
            // the Age's: 1, 3, 5.
            let me = &e["cities"][i];
            let left = &e["cities"][(i + 1) % 4];
            let win = [1, 3, 5][age];
            match me["left"].as_i64().unwrap() {
                0 => assert_eq!(left["right"], json!(0)),
                -1 => assert_eq!(left["right"], json!(win)),
                v => {
                    assert_eq!(v, win);
                    assert_eq!(left["right"], json!(-1));
                    assert!(me["shields"].as_u64() > left["shields"].as_u64());
                }
            }
        }
    }
    s.stop().await;
}

#[tokio::test]
async fn the_score_pad_scores_a_table() {
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    let table = json!({"edition": "1e", "players": [
        {"name": "Ann", "wonder": "Giza", "side": "A", "stages": 2,
         "cards": ["Lumber Yard", "Baths", "Apothecary", "Workshop"], "coins": 14, "military": [1, 3, -1]},
        {"name": "Bob", "wonder": "Rhodes", "side": "B", "stages": 1, "cards": ["Ore Vein"], "coins": 5,
         "military": [1]},
        {"name": "Cy", "wonder": "Babylon", "side": "A", "stages": 0, "cards": ["Clay Pool"], "coins": 5,
         "military": [-1]}]});
    let (status, body) = s.post("/api/score", &table, None).await;
    assert_eq!(status, 200, "{body}");
    let ann: &Value = &body["players"][0];
    // Ann: tokens 1 + 3 − 1 = 3; 14 coins = 4; Giza A stages 1–2 = 3 + 5 points; Baths 3;
    // a compass and a gear = 1 + 1 = 2; total 20.
    assert_eq!(ann["name"], "Ann");
    assert_eq!(ann["military"], 3);
    assert_eq!(ann["treasury"], 4);
    assert_eq!(ann["wonder"], 8);
    assert_eq!(ann["civilian"], 3);
    assert_eq!(ann["science"], 2);
    assert_eq!(ann["total"], 20);
    assert_eq!(ann["rank"], 1);
    // Bob: token 1; 5 coins = 1; Rhodes B stage 1: 3 points = 5. Cy: −1 + 1 = 0.
    assert_eq!(body["players"][1]["total"], 5);
    assert_eq!(body["players"][2]["total"], 0);
    assert_eq!(body["players"][1]["rank"], 2);
    let (status, body) = s
        .post("/api/score", &json!({"players": [{"name": "Ann", "wonder": "Atlantis", "side": "A"},
            {"name": "Bob", "wonder": "Rhodes", "side": "A"}, {"name": "Cy", "wonder": "Babylon", "side": "A"}]}), None)
        .await;
    assert_eq!(status, 400);
    assert!(body["error"]["message"].as_str().unwrap().contains("Atlantis"), "{body}");
    let (status, _) = s.post_raw("/api/score", "{not json", None).await;
    assert_eq!(status, 400);
    let (status, body) = s.get("/score", None).await;
    assert_eq!(status, 200);
    assert!(body.as_str().unwrap().contains("<main id=\"app\">"));
    let (status, bots) = s.get("/api/bots", None).await;
    assert_eq!(status, 200);
    assert_eq!(bots, json!(wonders_server::BOT_NAMES));
    s.stop().await;
}
