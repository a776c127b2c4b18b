//! Seats and turns on loopback: leaving a waiting table, waiting tables expiring, the turn timer
//! handing a seat to a stand-in bot and its player taking it back, the rematch rule and its held
//! seats, finished games leaving memory, and a slow bot not blocking other requests.

mod common;

use common::{TestServer, play_http, temp_db};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;
use wonders_server::server::ServerConfig;

/// Short limits, checked every 50 ms.
fn quick(waiting: u64, finished_keep: u64, rematch_hold: u64) -> ServerConfig {
    ServerConfig {
        waiting_expiry: Some(Duration::from_secs(waiting)),
        finished_keep: Duration::from_secs(finished_keep),
        rematch_hold: Duration::from_secs(rematch_hold),
        tick: Duration::from_millis(50),
        ..ServerConfig::default()
    }
}

#[tokio::test]
async fn a_player_leaves_a_waiting_table_and_the_seat_is_free_again() {
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    let id = s.create(4, "1e", "A", &[None, None, None, Some("random")]).await;
    let ann = s.take(&id, 0, "Ann").await;
    let seat = format!("/api/tables/{id}/seats/0");

    // Leaving needs the seat's own token.
    assert_eq!(s.delete(&seat, None).await.0, 403);
    let bob = s.take(&id, 1, "Bob").await;
    let (status, e) = s.delete(&seat, Some(&bob)).await;
    assert_eq!((status, e["error"]["code"].as_str()), (403, Some("forbidden")), "{e}");

    let (status, body) = s.delete(&seat, Some(&ann)).await;
    assert_eq!((status, body), (200, json!({"left": true, "seat": 0})));
    let st = s.state(&id, None).await;
    assert_eq!(
        st["table"]["seats"][0],
        json!({"seat": 0, "name": null, "bot": null, "taken": false, "held": false, "away": false})
    );
    assert_eq!(st["table"]["status"], "waiting");
    // The token no longer holds a seat.
    assert_eq!(s.get(&format!("/api/tables/{id}/state"), Some(&ann)).await.0, 403);
    assert_eq!(s.delete(&seat, Some(&ann)).await.0, 403);

    // Someone else takes it; the table starts, and a seat of a started game cannot be left.
    let cy = s.take(&id, 0, "Cy").await;
    s.take(&id, 2, "Dee").await;
    assert_eq!(s.state(&id, Some(&cy)).await["table"]["status"], "playing");
    let (status, e) = s.delete(&seat, Some(&cy)).await;
    assert_eq!((status, e["error"]["code"].as_str()), (409, Some("conflict")), "{e}");
    assert!(e["error"]["message"].as_str().unwrap().contains("has started"), "{e}");
    s.stop().await;
}

#[tokio::test]
async fn waiting_tables_expire_and_started_ones_stay() {
    let (_dir, db) = temp_db();
    let s = TestServer::start_with(&db, quick(1, 600, 60)).await;
    let waiting = s.create(3, "1e", "A", &[None, None, Some("random")]).await;
    s.take(&waiting, 0, "Ann").await;
    let started = s.create(3, "1e", "A", &[None, Some("random"), Some("random")]).await;
    let t = s.take(&started, 0, "Bob").await;

    // Created within the same second or the one before: gone within about two seconds.
    let began = Instant::now();
    loop {
        let (status, _) = s.get(&format!("/api/tables/{waiting}"), None).await;
        if status == 404 {
            break;
        }
        assert!(began.elapsed() < Duration::from_secs(5), "the waiting table did not expire");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (_, list) = s.get("/api/tables", None).await;
    let ids: Vec<&str> = list["open"].as_array().unwrap().iter().map(|t| t["id"].as_str().unwrap()).collect();
    assert_eq!(ids, vec![started.as_str()], "only the started table is listed");
    let (status, _) = s.post(&format!("/api/tables/{waiting}/seats/1"), &json!({"name": "Eve"}), None).await;
    assert_eq!(status, 404, "an expired table's seats cannot be taken");
    assert_eq!(s.state(&started, Some(&t)).await["table"]["status"], "playing");
    s.stop().await;

    // It is gone from the store too.
    let s = TestServer::start(&db).await;
    assert_eq!(s.get(&format!("/api/tables/{waiting}"), None).await.0, 404);
    assert_eq!(s.get(&format!("/api/tables/{started}"), None).await.0, 200);
    s.stop().await;
}

async fn ws_json(
    ws: &mut tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next()).await.unwrap().unwrap().unwrap();
        if let Message::Text(t) = msg {
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

#[tokio::test]
async fn the_turn_timer_hands_the_seat_to_a_bot_until_its_player_is_back() {
    let (_dir, db) = temp_db();
    let s = TestServer::start_with(&db, quick(600, 600, 60)).await;
    let (status, info) = s
        .post(
            "/api/tables",
            &json!({"players": 3, "seats": [{}, {}, {"bot": "random"}], "turn_timer_secs": 3}),
            None,
        )
        .await;
    assert_eq!(status, 201, "{info}");
    assert_eq!(info["turn_timer_secs"], 3);
    let id = info["id"].as_str().unwrap().to_string();
    for bad in [0, 86_401] {
        let (status, e) = s.post("/api/tables", &json!({"players": 3, "turn_timer_secs": bad}), None).await;
        assert_eq!(status, 400, "{e}");
        assert!(e["error"]["message"].as_str().unwrap().contains("1 to 86400 seconds"), "{e}");
    }
    let ann = s.take(&id, 0, "Ann").await;
    // The clocks start when the last seat is taken: measured from before that, the wait below is
    // at least the timer's 3 seconds whatever the requests in between take.
    let began = Instant::now();
    let bob = s.take(&id, 1, "Bob").await;

    // Bob plays at once; Ann does not: after the timer's 3 seconds her seat is played by a bot,
    // which chooses her card, and the turn resolves. (3 seconds, not 1: where Ann acts herself
    // below, a loaded machine must not let the timer run out first.)
    // Each seat's state says how many seconds it has left by the server's clock (a reloaded page
    // counts down from it); a spectator's says nothing.
    let st = s.state(&id, Some(&bob)).await;
    let left = st["timer_left_secs"].as_u64().expect("Bob's seconds left");
    assert!((2..=3).contains(&left), "{left}");
    assert!(s.state(&id, None).await.get("timer_left_secs").is_none());
    let (status, _) = s.act(&id, &bob, st["turn_id"].as_u64(), &st["legal"][0]).await;
    assert_eq!(status, 200);
    assert!(s.state(&id, Some(&bob)).await.get("timer_left_secs").is_none(), "Bob has chosen: no clock");
    let st = s.wait_state(&id, Some(&ann), "the turn to resolve", |st| st["step"] == 1).await;
    assert!(began.elapsed() >= Duration::from_secs(3), "the timer waited its 3 seconds");
    assert_eq!(st["table"]["seats"][0]["away"], true, "{}", st["table"]["seats"][0]);
    assert_eq!(st["table"]["seats"][1]["away"], false);
    assert!(st["turn_id"].as_u64().unwrap() >= 1, "Ann's seat acted, by the stand-in bot");
    assert!(st.get("timer_left_secs").is_none(), "a stand-in plays Ann's seat: no clock");
    // While she is away the bot plays her next turn at once: only Bob is waited for.
    let st = s.wait_state(&id, Some(&ann), "the stand-in's choice", |st| st["waiting"] == json!([1])).await;
    assert_eq!(st["turn_id"], 2);
    assert!(st["legal"].as_array().unwrap().is_empty());

    // Ann is back (her token on the WebSocket): the seat is hers again.
    let (mut ws, _) = connect_async(s.ws_url(&id)).await.unwrap();
    ws_json(&mut ws).await;
    ws.send(Message::Text(json!({"type": "auth", "token": ann}).to_string().into())).await.unwrap();
    assert_eq!(ws_json(&mut ws).await, json!({"type": "auth_ok", "seat": 0}));
    let st = s.state(&id, Some(&ann)).await;
    assert_eq!(st["table"]["seats"][0]["away"], false);
    // Bob plays; the next turn waits for Ann, who plays it herself.
    let st_bob = s.state(&id, Some(&bob)).await;
    assert_eq!(s.act(&id, &bob, st_bob["turn_id"].as_u64(), &st_bob["legal"][0]).await.0, 200);
    let st = s
        .wait_state(&id, Some(&ann), "turn 3", |st| st["step"] == 2 && st["view"]["chosen"][2] == true)
        .await;
    assert_eq!(st["waiting"], json!([0, 1]), "Ann's seat waits for her, not for a bot");
    assert_eq!(s.act(&id, &ann, st["turn_id"].as_u64(), &st["legal"][0]).await.0, 200);
    assert_eq!(s.state(&id, Some(&ann)).await["turn_id"], 3);
    drop(ws);

    // Acting also takes the seat back: Ann goes away again (3 seconds without acting); her next
    // action, even refused, makes the seat hers again. It is sent for a turn long past, so that
    // it is refused whatever the stand-in has done meanwhile (a `pass` alone could be legal, in a
    // step where her city builds from the discard pile).
    let st_bob =
        s.wait_state(&id, Some(&bob), "Bob's turn", |st| !st["legal"].as_array().unwrap().is_empty()).await;
    assert_eq!(s.act(&id, &bob, st_bob["turn_id"].as_u64(), &st_bob["legal"][0]).await.0, 200);
    s.wait_state(&id, None, "Ann's seat to go away", |st| st["table"]["seats"][0]["away"] == true).await;
    let (status, e) = s.act(&id, &ann, Some(0), &json!({"type": "pass"})).await;
    assert_eq!((status, e["error"]["code"].as_str()), (409, Some("stale")), "{e}");
    assert_eq!(s.state(&id, None).await["table"]["seats"][0]["away"], false);
    s.stop().await;
}

#[tokio::test]
async fn a_rematch_is_for_the_players_of_a_finished_game_and_holds_their_seats() {
    let (_dir, db) = temp_db();
    let s = TestServer::start_with(&db, quick(600, 600, 2)).await;
    let id = s.create(3, "1e", "A", &[None, None, Some("random")]).await;
    let tokens = vec![s.take(&id, 0, "Ann").await, s.take(&id, 1, "Bob").await];
    let rematch = format!("/api/tables/{id}/rematch");

    // Not while the game is in progress, even for a player.
    let (status, e) = s.post(&rematch, &json!({}), Some(&tokens[0])).await;
    assert_eq!((status, e["error"]["code"].as_str()), (409, Some("conflict")), "{e}");
    assert!(e["error"]["message"].as_str().unwrap().contains("once the game is over"), "{e}");
    play_http(&s, &id, &tokens, 2).await;

    // Not for someone who did not play it.
    assert_eq!(s.post(&rematch, &json!({}), None).await.0, 403);
    let other = s.create(3, "1e", "A", &[None, Some("random"), Some("random")]).await;
    let stranger = s.take(&other, 0, "Eve").await;
    let (status, e) = s.post(&rematch, &json!({}), Some(&stranger)).await;
    assert_eq!((status, e["error"]["code"].as_str()), (403, Some("forbidden")), "{e}");

    let (status, r) = s.post(&rematch, &json!({}), Some(&tokens[1])).await;
    assert_eq!(status, 200, "{r}");
    let new = r["id"].as_str().unwrap().to_string();
    assert_eq!(r["seats"][0]["held"], true);
    assert_eq!(r["seats"][1]["held"], true);
    assert_eq!(r["seats"][2]["held"], false, "a bot's seat is not held");
    assert!(r["hold_until"].as_i64().unwrap() > r["created"].as_i64().unwrap());
    let seat = |n: u8| format!("/api/tables/{new}/seats/{n}");

    // While held: not for a newcomer, nor for the other previous player; for its own player.
    let (status, e) = s.post(&seat(0), &json!({"name": "Eve"}), None).await;
    assert_eq!((status, e["error"]["code"].as_str()), (409, Some("conflict")), "{e}");
    assert!(e["error"]["message"].as_str().unwrap().contains("held for its player"), "{e}");
    assert_eq!(s.post(&seat(0), &json!({"name": "Eve"}), Some(&stranger)).await.0, 409);
    assert_eq!(s.post(&seat(0), &json!({"name": "Bob"}), Some(&tokens[1])).await.0, 409);
    let (status, t) = s.post(&seat(0), &json!({"name": "Ann"}), Some(&tokens[0])).await;
    assert_eq!(status, 201, "{t}");
    assert_ne!(t["token"], json!(tokens[0]), "a new token for the new table");

    // Once the hold is over (2 s), anyone may take the other seat.
    let began = Instant::now();
    loop {
        let (status, t) = s.post(&seat(1), &json!({"name": "Eve"}), None).await;
        if status == 201 {
            break;
        }
        assert_eq!(status, 409, "{t}");
        assert!(began.elapsed() < Duration::from_secs(5), "the hold did not end");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(s.state(&new, None).await["table"]["status"], "playing");
    s.stop().await;
}

#[tokio::test]
async fn finished_games_leave_memory_and_stay_readable() {
    let (_dir, db) = temp_db();
    let s = TestServer::start_with(&db, quick(600, 0, 60)).await;
    let id = s.create(3, "1e", "A", &[Some("random"); 3]).await;
    // The game plays out and leaves memory at once (finished_keep 0); its state, record and
    // listing come back from the store.
    let st = s.wait_state(&id, None, "the end", |st| st["table"]["status"] == "over").await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let again = s.state(&id, None).await;
    assert_eq!(again, st, "read back from the store, the same state");
    let (status, record) = s.get(&format!("/api/tables/{id}/record"), None).await;
    assert_eq!(status, 200);
    assert_eq!(record["scores"].as_array().unwrap().len(), 3);
    let (_, list) = s.get("/api/tables", None).await;
    assert!(list["finished"].as_array().unwrap().iter().any(|t| t["id"] == json!(id)));
    assert!(list["open"].as_array().unwrap().is_empty());
    s.stop().await;
    // After a restart the finished game is listed without being loaded.
    let s = TestServer::start(&db).await;
    let (_, list) = s.get("/api/tables", None).await;
    assert_eq!(list["finished"][0]["id"], json!(id));
    assert_eq!(list["finished"][0]["status"], "over");
    s.stop().await;
}

#[tokio::test]
async fn a_slow_bot_thinks_without_blocking_its_table_or_others() {
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    let other = s.create(3, "1e", "A", &[None, Some("random"), Some("random")]).await;
    let other_token = s.take(&other, 0, "Bob").await;
    // The other table's bots move before the searches start: on a pool of one thread (a 2-core
    // machine's), a move of theirs still queued would wait for a whole search.
    s.wait_state(&other, Some(&other_token), "the quick bots", |st| st["waiting"] == json!([0])).await;
    // The bots' budget is long beside the bounds below, so that a loaded machine (the other
    // tests of this file run alongside, on as few as 2 cores) does not make a blocked request
    // and a slow one look alike: blocked, a request would wait the whole 2 s.
    let slow = s.create(3, "1e", "A", &[None, Some("search:2000ms"), Some("search:2000ms")]).await;
    assert_eq!(s.state(&slow, None).await["table"]["seats"][1]["bot"], "search:2000ms");
    let began = Instant::now();
    let ann = s.take(&slow, 0, "Ann").await;
    // The two search bots now think for 2 s (the most the server allows). Meanwhile every request is answered at once:
    // the slow table's own state, another table's state and action, a new table.
    let mut slowest = Duration::ZERO;
    let timed = Instant::now();
    let st = s.state(&slow, Some(&ann)).await;
    slowest = slowest.max(timed.elapsed());
    assert_eq!(st["view"]["chosen"], json!([false, false, false]), "the bots are still thinking");
    let timed = Instant::now();
    let o = s.state(&other, Some(&other_token)).await;
    assert_eq!(o["waiting"], json!([0]), "the other table waits for Bob");
    assert_eq!(s.act(&other, &other_token, o["turn_id"].as_u64(), &o["legal"][0]).await.0, 200);
    slowest = slowest.max(timed.elapsed());
    let timed = Instant::now();
    s.create(3, "1e", "A", &[]).await;
    slowest = slowest.max(timed.elapsed());
    assert!(began.elapsed() < Duration::from_millis(1700), "the requests ended before the bots did");
    assert!(slowest < Duration::from_millis(1000), "a request took {slowest:?}");
    // Ann plays while they think; then the bots' moves arrive.
    assert_eq!(s.act(&slow, &ann, Some(0), &st["legal"][0]).await.0, 200);
    let st = s.wait_state(&slow, Some(&ann), "the search bots", |st| st["step"] == 1).await;
    assert!(began.elapsed() >= Duration::from_millis(1900), "the bots used their budget");
    assert_eq!(st["view"]["hand"].as_array().unwrap().len(), 6);
    s.stop().await;
}

#[tokio::test]
async fn open_tables_counts_the_waiting_and_playing_ones_as_the_table_list_does() {
    // The open-table cap counts with `Server::open_tables` (each table's status), not by
    // building the list: both must agree whatever the tables' states.
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    let count = |s: &TestServer| (s.server.open_tables(), s.server.list().open.len());
    assert_eq!(count(&s), (0, 0));
    let waiting = s.create(3, "1e", "A", &[None, None, Some("random")]).await;
    assert_eq!(count(&s), (1, 1));
    let playing = s.create(3, "1e", "A", &[None, Some("random"), Some("random")]).await;
    s.take(&playing, 0, "Ann").await;
    assert_eq!(s.state(&playing, None).await["table"]["status"], "playing");
    assert_eq!(count(&s), (2, 2));
    // A game of bots plays to its end by itself: over, no longer open.
    let bots = s.create(3, "1e", "A", &[Some("random"), Some("random"), Some("random")]).await;
    let deadline = Instant::now() + Duration::from_secs(60);
    while s.state(&bots, None).await["table"]["status"] != "over" {
        assert!(Instant::now() < deadline, "the bots' game did not end");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(count(&s), (2, 2));
    assert_eq!(s.state(&waiting, None).await["table"]["status"], "waiting");
    s.stop().await;
}

/// `remaining_ms`: the step's clock by the server, the same for a reloaded page as for the one
/// that was open: a seat the game waits for sees its own, a seat that has chosen and a spectator
/// the longest of the people still to choose; a new step starts the clock again; a table without
/// a timer has none.
#[tokio::test]
async fn each_state_says_how_long_the_step_has_left() {
    let (_dir, db) = temp_db();
    let s = TestServer::start_with(&db, quick(600, 600, 60)).await;
    let (status, info) = s
        .post(
            "/api/tables",
            &json!({"players": 3, "seats": [{}, {}, {"bot": "random"}], "turn_timer_secs": 60}),
            None,
        )
        .await;
    assert_eq!(status, 201, "{info}");
    let id = info["id"].as_str().unwrap().to_string();
    let ann = s.take(&id, 0, "Ann").await;
    let bob = s.take(&id, 1, "Bob").await;
    let ms = |st: &serde_json::Value| {
        st["remaining_ms"].as_u64().unwrap_or_else(|| panic!("remaining_ms in {st}"))
    };

    // The game waits for Ann and Bob: 60 s less the moment since the start, in milliseconds,
    // agreeing with the whole seconds of `timer_left_secs`.
    let st = s.state(&id, Some(&ann)).await;
    let first = ms(&st);
    assert!((50_000..=60_000).contains(&first), "{first}");
    let secs = st["timer_left_secs"].as_u64().unwrap();
    assert!(first / 1000 == secs || first / 1000 + 1 == secs, "{first} ms, {secs} s");
    let spectator = ms(&s.state(&id, None).await);
    assert!(spectator <= first && first - spectator < 5_000, "{spectator} after {first}");

    // Read again a second later (a reload): a second less, not the whole minute again.
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    let again = ms(&s.state(&id, Some(&ann)).await);
    assert!(again + 1_000 <= first && again + 6_000 > first, "{again} a second after {first}");

    // Ann chooses: her state no longer has her own clock but Bob's, whose turn it still is.
    let (status, _) = s.act(&id, &ann, st["turn_id"].as_u64(), &st["legal"][0]).await;
    assert_eq!(status, 200);
    let st = s.state(&id, Some(&ann)).await;
    assert!(st.get("timer_left_secs").is_none(), "Ann has chosen: {st}");
    let bobs = ms(&s.state(&id, Some(&bob)).await);
    let anns = ms(&st);
    assert!(anns.abs_diff(bobs) < 2_000 && anns <= again, "Ann sees Bob's clock: {anns} and {bobs}");

    // Bob chooses too (the bot has): the next step starts a whole minute again.
    let st_bob = s.state(&id, Some(&bob)).await;
    assert_eq!(s.act(&id, &bob, st_bob["turn_id"].as_u64(), &st_bob["legal"][0]).await.0, 200);
    let st = s.wait_state(&id, Some(&ann), "the second turn", |st| st["step"] == 1).await;
    let next = ms(&st);
    assert!(next > again && (55_000..=60_000).contains(&next), "{next}");

    // A table without a timer: no clock, for a seat nor a spectator.
    let (_, info) = s
        .post(
            "/api/tables",
            &json!({"players": 3, "seats": [{}, {"bot": "random"}, {"bot": "random"}]}),
            None,
        )
        .await;
    let id = info["id"].as_str().unwrap().to_string();
    let cid = s.take(&id, 0, "Cid").await;
    let st =
        s.wait_state(&id, Some(&cid), "the start", |st| !st["legal"].as_array().unwrap().is_empty()).await;
    assert!(st.get("remaining_ms").is_none() && st.get("timer_left_secs").is_none(), "{st}");
    assert!(s.state(&id, None).await.get("remaining_ms").is_none());
}
