//! The HTTP API: tables, seats, tokens, refusals that change nothing, whole games, records that
//! replay, rematches and a restart of the server on the same database.

mod common;

use common::{TestServer, play_http, temp_db};
use serde_json::{Value, json};
use wonders_core::Record;

#[tokio::test]
async fn creating_tables_validates_every_option() {
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    let cases = [
        (r#"{"players": 9}"#, "at most 8"),
        (r#"{"players": 8}"#, "8 with Armada"),
        (r#"{"players": 1}"#, "players"),
        (r#"{"players": 3, "edition": "3e"}"#, "unknown edition"),
        (r#"{"players": 3, "wonders": "C"}"#, "unknown wonder mode"),
        (r#"{"players": 3, "seats": [{"bot": "oracle"}]}"#, "unknown bot `oracle`"),
        (r#"{"players": 3, "seats": [{}, {}, {}, {}]}"#, "4 seats described for 3 players"),
        (r#"{"players": 3, "colour": "red"}"#, "unknown field"),
        (r#"{"players": "three"}"#, "malformed"),
        (r#"not json"#, "malformed"),
    ];
    for (body, needle) in cases {
        let (status, answer) = s.post_raw("/api/tables", body, None).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(answer["error"]["code"], "bad_request");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains(needle), "{body}: {message}");
    }
    let (_, list) = s.get("/api/tables", None).await;
    assert_eq!(
        list,
        json!({"open": [], "finished": [], "open_total": 0, "finished_total": 0, "offset": 0, "limit": 50}),
        "a refused table is not created"
    );

    let (status, info) =
        s.post_raw("/api/tables", r#"{"players": 4, "edition": "2e", "wonders": "night"}"#, None).await;
    assert_eq!(status, 201, "{info}");
    assert_eq!(info["edition"], "2e");
    assert_eq!(info["wonders"], "Night");
    assert_eq!(info["status"], "waiting");
    assert_eq!(info["seats"].as_array().unwrap().len(), 4);
    assert!(info.get("seed").is_none(), "the seed stays secret while the game is not over");
    assert_eq!(s.get("/api/tables/nope/state", None).await.0, 404);
    assert_eq!(s.get("/api/catalog/3e", None).await.0, 404);
    let (status, cat) = s.get("/api/catalog/1e", None).await;
    assert_eq!(status, 200);
    let library = cat["cards"].as_array().unwrap().iter().find(|c| c["name"] == "Library").unwrap();
    assert_eq!(library["colour"], "green");
    assert_eq!(library["cost"], "SSL");
    assert!(!library["zh"].as_str().unwrap().is_empty());
    s.stop().await;
}

#[tokio::test]
async fn seats_tokens_and_refusals() {
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    let id = s.create(3, "1e", "A", &[None, Some("random"), None]).await;

    // Seats: a bot's cannot be taken, a number out of range is unknown, names are checked.
    let (status, e) = s.post(&format!("/api/tables/{id}/seats/1"), &json!({"name": "Eve"}), None).await;
    assert_eq!((status, e["error"]["code"].as_str()), (409, Some("conflict")));
    assert_eq!(s.post(&format!("/api/tables/{id}/seats/3"), &json!({"name": "Eve"}), None).await.0, 404);
    assert_eq!(s.post(&format!("/api/tables/{id}/seats/x"), &json!({"name": "Eve"}), None).await.0, 400);
    assert_eq!(s.post(&format!("/api/tables/{id}/seats/0"), &json!({"name": "  "}), None).await.0, 400);

    let ann = s.take(&id, 0, "Ann").await;
    assert_eq!(ann.len(), 32, "128-bit hex token");
    assert!(ann.bytes().all(|b| b.is_ascii_hexdigit()));
    let (status, _) = s.post(&format!("/api/tables/{id}/seats/0"), &json!({"name": "Eve"}), None).await;
    assert_eq!(status, 409, "a taken seat cannot be taken again");

    // Not started: no view, acting is refused.
    let st = s.state(&id, Some(&ann)).await;
    assert_eq!(st["table"]["status"], "waiting");
    assert!(st["view"].is_null());
    let (status, e) = s.act(&id, &ann, None, &json!({"type": "pass"})).await;
    assert_eq!((status, e["error"]["code"].as_str()), (409, Some("conflict")));

    let cy = s.take(&id, 2, "Cy").await;
    assert_ne!(ann, cy);
    let before_ann =
        s.wait_state(&id, Some(&ann), "the bot's choice", |st| st["view"]["chosen"][1] == true).await;
    assert_eq!(before_ann["table"]["status"], "playing");
    assert_eq!(before_ann["you"], 0);
    let hand = before_ann["view"]["hand"].as_array().unwrap().clone();
    assert_eq!(hand.len(), 7);
    // The bot already chose; the people did not.
    assert_eq!(before_ann["view"]["chosen"], json!([false, true, false]));
    assert_eq!(before_ann["waiting"], json!([0, 2]));

    // A spectator's state has no hand and no legal actions.
    let spectator = s.state(&id, None).await;
    assert!(spectator["you"].is_null());
    assert!(spectator["view"].get("hand").is_none());
    assert!(spectator["legal"].as_array().unwrap().is_empty());
    assert_eq!(spectator["view"]["hand_sizes"], json!([7, 7, 7]));

    // A wrong token is refused (403) when reading or acting; nothing changes.
    let (status, e) =
        s.get(&format!("/api/tables/{id}/state"), Some("00112233445566778899aabbccddeeff")).await;
    assert_eq!((status, e["error"]["code"].as_str()), (403, Some("forbidden")));
    let action = before_ann["legal"][0].clone();
    let (status, _) = s.act(&id, "00112233445566778899aabbccddeeff", None, &action).await;
    assert_eq!(status, 403);
    let (status, _) = s.post(&format!("/api/tables/{id}/actions"), &json!({"action": action}), None).await;
    assert_eq!(status, 403, "acting needs a token");
    // Cy cannot play a card of Ann's hand that is not in hers (or is, but for Ann's seat):
    // her token acts for seat 2 only.
    let cy_state = s.state(&id, Some(&cy)).await;
    let cy_hand: Vec<Value> = cy_state["view"]["hand"].as_array().unwrap().clone();
    if let Some(card) = hand.iter().find(|c| !cy_hand.contains(c)) {
        let (status, e) = s.act(&id, &cy, None, &json!({"type": "discard", "card": card})).await;
        assert_eq!((status, e["error"]["code"].as_str()), (422, Some("illegal")), "{e}");
    }
    // Malformed and unknown actions.
    let (status, e) = s.post_raw(&format!("/api/tables/{id}/actions"), "{\"action\": 5}", Some(&ann)).await;
    assert_eq!((status, e["error"]["code"].as_str()), (400, Some("bad_request")));
    let (status, e) = s.act(&id, &ann, None, &json!({"type": "discard", "card": "Lumbr Yard"})).await;
    assert_eq!(status, 400);
    assert!(e["error"]["message"].as_str().unwrap().contains("Lumber Yard"), "{e}");
    let (status, _) = s.act(&id, &ann, None, &json!({"type": "fly"})).await;
    assert_eq!(status, 400);
    // A stale turn_id.
    let (status, e) = s.act(&id, &ann, Some(5), &action).await;
    assert_eq!((status, e["error"]["code"].as_str()), (409, Some("stale")));
    assert_eq!(s.state(&id, Some(&ann)).await, before_ann, "refusals change nothing");

    // The action itself, then the same again: refused as stale, then (without turn_id) as
    // already chosen.
    let (status, ok) = s.act(&id, &ann, Some(0), &action).await;
    assert_eq!(status, 200, "{ok}");
    assert_eq!(ok["turn_id"], 1);
    let after = s.state(&id, Some(&ann)).await;
    assert_eq!(after["view"]["chosen"], json!([true, true, false]));
    assert!(after["legal"].as_array().unwrap().is_empty());
    let (status, e) = s.act(&id, &ann, Some(0), &action).await;
    assert_eq!((status, e["error"]["code"].as_str()), (409, Some("stale")));
    assert!(e["error"]["message"].as_str().unwrap().contains("sent twice"), "{e}");
    let (status, e) = s.act(&id, &ann, None, &action).await;
    assert_eq!((status, e["error"]["code"].as_str()), (422, Some("illegal")));
    assert!(e["error"]["message"].as_str().unwrap().contains("already chosen"), "{e}");
    assert_eq!(s.state(&id, Some(&ann)).await, after);

    // The record is not available before the end (it would reveal every hand).
    let (status, _) = s.get(&format!("/api/tables/{id}/record"), None).await;
    assert_eq!(status, 409);
    s.stop().await;
}

#[tokio::test]
async fn whole_games_replay_restart_and_rematch() {
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    // 1st edition with a bot, 2nd edition with sides chosen by the players, 4 people.
    let a = s.create(3, "1e", "B", &[None, None, Some("random")]).await;
    let b = s.create(4, "2e", "choose", &[]).await;
    let ta = vec![s.take(&a, 0, "Ann").await, s.take(&a, 1, "Bob").await];
    let mut tb = Vec::new();
    for (i, name) in ["Ann", "Bob", "Cy", "Dee"].iter().enumerate() {
        tb.push(s.take(&b, i as u8, name).await);
    }
    // Play part of game b, then restart the server on the same database.
    for t in &tb {
        let st = s.state(&b, Some(t)).await;
        assert_eq!(st["view"]["phase"], "choose_side");
        let (status, body) = s.act(&b, t, Some(0), &st["legal"][0]).await;
        assert_eq!(status, 200, "{body}");
    }
    let states_before: Vec<Value> = {
        let mut v = Vec::new();
        for t in &tb {
            v.push(s.state(&b, Some(t)).await);
        }
        v.push(s.state(&b, None).await);
        v
    };
    assert_eq!(states_before[0]["view"]["phase"], "choose");
    s.stop().await;
    let s = TestServer::start(&db).await;
    for (i, t) in tb.iter().enumerate() {
        assert_eq!(s.state(&b, Some(t)).await, states_before[i], "seat {i} after the restart");
    }
    assert_eq!(s.state(&b, None).await, states_before[4]);

    let na = play_http(&s, &a, &ta, 0).await;
    let nb = play_http(&s, &b, &tb, 3).await;
    assert!(na >= 36 && nb >= 72, "{na} {nb}");
    for (id, tokens) in [(&a, &ta), (&b, &tb)] {
        let st = s.state(id, Some(&tokens[0])).await;
        assert_eq!(st["table"]["status"], "over");
        assert!(st["table"]["seed"].is_u64(), "the seed is public once the game is over");
        let scores = st["scores"].as_array().unwrap().clone();
        assert_eq!(scores.len(), st["table"]["players"].as_u64().unwrap() as usize);
        for line in &scores {
            let parts: i64 =
                ["military", "treasury", "wonder", "civilian", "science", "commercial", "guilds"]
                    .iter()
                    .map(|k| line[k].as_i64().unwrap())
                    .sum();
            assert_eq!(parts, line["total"].as_i64().unwrap());
            assert!((1..=4).contains(&line["rank"].as_u64().unwrap()), "{line}");
        }
        // The record replays to the same scores.
        let (status, record) = s.get(&format!("/api/tables/{id}/record"), None).await;
        assert_eq!(status, 200);
        let record: Record = serde_json::from_value(record).unwrap();
        let game = record.replay().expect("the record replays");
        assert!(game.is_over());
        let totals: Vec<i64> = scores.iter().map(|l| l["total"].as_i64().unwrap()).collect();
        assert_eq!(totals, game.scores().iter().map(|s| s.total as i64).collect::<Vec<_>>());
        assert_eq!(record.seed, st["table"]["seed"].as_u64().unwrap());
        // Acting after the end is refused.
        let (status, e) = s.act(id, &tokens[0], None, &json!({"type": "pass"})).await;
        assert_eq!(status, 422, "{e}");
    }

    let (_, list) = s.get("/api/tables", None).await;
    let finished: Vec<&str> =
        list["finished"].as_array().unwrap().iter().map(|t| t["id"].as_str().unwrap()).collect();
    assert!(finished.contains(&a.as_str()) && finished.contains(&b.as_str()));

    // Rematch: a new table, same options and bots, free seats for people; asked twice, the same.
    let (status, r) = s.post(&format!("/api/tables/{a}/rematch"), &json!({}), Some(&ta[0])).await;
    assert_eq!(status, 200, "{r}");
    let (_, r2) = s.post(&format!("/api/tables/{a}/rematch"), &json!({}), Some(&ta[1])).await;
    assert_eq!(r["id"], r2["id"]);
    assert_ne!(r["id"], json!(a));
    assert_eq!(r["rematch_of"], json!(a));
    assert_eq!(r["wonders"], "B");
    assert_eq!(r["seats"][2]["bot"], "random");
    assert_eq!(r["seats"][0]["taken"], false);
    assert_eq!(s.state(&a, None).await["table"]["rematch"], r["id"]);
    let (_, list) = s.get("/api/tables", None).await;
    assert!(list["open"].as_array().unwrap().iter().any(|t| t["id"] == r["id"]));
    s.stop().await;
}

#[tokio::test]
async fn tables_of_bots_play_out_and_two_player_tables_work() {
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    let id = s.create(5, "1e", "random", &[Some("random"); 5]).await;
    let st = s.wait_state(&id, None, "the bots' game to end", |st| st["table"]["status"] == "over").await;
    assert!(st["history"].as_array().unwrap().len() >= 5 * 18);
    let (status, record) = s.get(&format!("/api/tables/{id}/record"), None).await;
    assert_eq!(status, 200);
    let record: Record = serde_json::from_value(record).unwrap();
    assert_eq!(record.replay().unwrap().scores().len(), 5);

    // The 2-player variant: one person against a bot, with the Free City.
    let id = s.create(2, "1e", "A", &[None, Some("random")]).await;
    let t = s.take(&id, 0, "Ann").await;
    let st = s.state(&id, Some(&t)).await;
    assert_eq!(st["view"]["cities"].as_array().unwrap().len(), 3);
    assert_eq!(st["view"]["free_city"], 2);
    play_http(&s, &id, &[t], 1).await;
    assert_eq!(s.state(&id, None).await["table"]["status"], "over");
    s.stop().await;
}

#[tokio::test]
async fn a_team_table_shows_the_teammates_hand_and_team_ranks() {
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    // The team variant needs 4 or 6 players: refused, naming the problem, and nothing created.
    let (status, e) = s.post("/api/tables", &json!({"players": 5, "teams": true}), None).await;
    assert_eq!(status, 400, "{e}");
    assert!(e["error"]["message"].as_str().unwrap().contains("teams: 5 players"), "{e}");
    let seats = json!([{}, {}, {"bot": "random"}, {"bot": "random"}]);
    let (status, info) =
        s.post("/api/tables", &json!({"players": 4, "teams": true, "seats": seats}), None).await;
    assert_eq!(status, 201, "{info}");
    assert_eq!(info["teams"], true);
    let id = info["id"].as_str().unwrap().to_string();
    let tokens = vec![s.take(&id, 0, "Ann").await, s.take(&id, 1, "Bob").await];
    // Ann and Bob (seats 0 and 1) are teammates: each sees the other's hand; a spectator sees none.
    let ann = s.state(&id, Some(&tokens[0])).await;
    let bob = s.state(&id, Some(&tokens[1])).await;
    assert_eq!(ann["view"]["teams"], true);
    assert_eq!(ann["view"]["teammate_hand"], bob["view"]["hand"]);
    assert_eq!(bob["view"]["teammate_hand"], ann["view"]["hand"]);
    assert_eq!(ann["view"]["teammate_hand"].as_array().unwrap().len(), 7);
    let spectator = s.state(&id, None).await;
    assert!(spectator["view"].get("teammate_hand").is_none());
    // After a restart (the game is replayed from the store) the table is still a team table.
    s.stop().await;
    let s = TestServer::start(&db).await;
    assert_eq!(s.state(&id, Some(&tokens[0])).await["view"]["teammate_hand"], bob["view"]["hand"]);
    play_http(&s, &id, &tokens, 1).await;
    let st = s.state(&id, Some(&tokens[0])).await;
    assert_eq!(st["table"]["status"], "over");
    // Teammates share their team's rank; the team with the higher summed total is first.
    let lines = st["scores"].as_array().unwrap();
    let total = |i: usize| lines[i]["total"].as_i64().unwrap();
    let coins = |i: usize| lines[i]["coins"].as_i64().unwrap();
    let rank = |i: usize| lines[i]["rank"].as_u64().unwrap();
    assert_eq!((rank(0), rank(2)), (rank(1), rank(3)));
    let (a, b) = ((total(0) + total(1), coins(0) + coins(1)), (total(2) + total(3), coins(2) + coins(3)));
    let expected = match a.cmp(&b) {
        std::cmp::Ordering::Greater => (1, 2),
        std::cmp::Ordering::Less => (2, 1),
        std::cmp::Ordering::Equal => (1, 1),
    };
    assert_eq!((rank(0), rank(2)), expected);
    // The record names the variant and replays.
    let (_, record) = s.get(&format!("/api/tables/{id}/record"), None).await;
    assert_eq!(record["teams"], true);
    let record: Record = serde_json::from_value(record).unwrap();
    assert!(record.replay().unwrap().teams());
}
