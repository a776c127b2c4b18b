//! WebSocket play: whole games driven by WebSocket clients, duplicated and malformed messages,
//! and the hidden-information check: no message to a seat or a spectator ever holds another
//! seat's hand or a later Age's cards.

mod common;

use common::{TestServer, temp_db};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::collections::HashMap;
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;
use wonders_core::{Game, Record};

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn send(ws: &mut Ws, v: &Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

async fn next_json(ws: &mut Ws) -> Option<(String, Value)> {
    loop {
        let msg = tokio::time::timeout(std::time::Duration::from_secs(20), ws.next()).await.ok()??.ok()?;
        if let Message::Text(t) = msg {
            let v = serde_json::from_str(t.as_str()).unwrap();
            return Some((t.to_string(), v));
        }
    }
}

/// A seat's client (or a spectator's, without a token): plays random legal actions, once sends
/// an action twice and a malformed message; returns every message received.
async fn client(url: String, token: Option<String>, seed: u64) -> Vec<(String, Value)> {
    let (mut ws, _) = connect_async(url).await.unwrap();
    let mut seen = Vec::new();
    let mut rng = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
    let mut acted_at: Option<u64> = None;
    let mut tested_duplicate = false;
    let mut tested_malformed = false;
    let mut pending_duplicate: Option<Value> = None;
    if let Some(t) = &token {
        // Acting before authenticating is refused.
        send(&mut ws, &json!({"type": "act", "id": 1, "action": {"type": "pass"}})).await;
        send(&mut ws, &json!({"type": "auth", "token": "ffffffffffffffffffffffffffffffff"})).await;
        send(&mut ws, &json!({"type": "auth", "token": t})).await;
    }
    while let Some((text, v)) = next_json(&mut ws).await {
        seen.push((text, v.clone()));
        match v["type"].as_str().unwrap() {
            "state" => {
                if v["table"]["status"] == "over" {
                    break;
                }
                let legal = v["legal"].as_array().unwrap();
                let turn_id = v["turn_id"].as_u64().unwrap();
                if token.is_none() || legal.is_empty() || acted_at == Some(turn_id) {
                    continue;
                }
                rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let action = legal[(rng >> 33) as usize % legal.len()].clone();
                let msg = json!({"type": "act", "id": turn_id + 100, "turn_id": turn_id, "action": action});
                send(&mut ws, &msg).await;
                acted_at = Some(turn_id);
                if !tested_duplicate {
                    tested_duplicate = true;
                    pending_duplicate = Some(msg.clone());
                    send(&mut ws, &msg).await;
                }
                if !tested_malformed {
                    tested_malformed = true;
                    ws.send(Message::Text("{\"type\": \"act\", \"action\": ".into())).await.unwrap();
                    send(&mut ws, &json!({"type": "dance"})).await;
                }
            }
            "error" => {
                let code = v["code"].as_str().unwrap();
                if let Some(d) = &pending_duplicate
                    && v["id"] == d["id"]
                {
                    assert_eq!(code, "stale", "{v}");
                    pending_duplicate = None;
                } else {
                    assert!(matches!(code, "bad_request" | "forbidden"), "unexpected error {v}");
                }
            }
            "accepted" | "auth_ok" | "pong" => {}
            other => panic!("unknown message type {other}"),
        }
    }
    seen
}

/// Every array of strings in a JSON value, sorted (as multisets), with its path.
fn string_arrays(v: &Value, path: &str, out: &mut Vec<(String, Vec<String>)>) {
    match v {
        Value::Array(items) => {
            if !items.is_empty() && items.iter().all(Value::is_string) {
                let mut s: Vec<String> = items.iter().map(|i| i.as_str().unwrap().to_string()).collect();
                s.sort();
                out.push((path.to_string(), s));
            }
            for (i, item) in items.iter().enumerate() {
                string_arrays(item, &format!("{path}[{i}]"), out);
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                string_arrays(item, &format!("{path}.{k}"), out);
            }
        }
        _ => {}
    }
}

fn has_key(v: &Value, key: &str) -> bool {
    match v {
        Value::Array(items) => items.iter().any(|i| has_key(i, key)),
        Value::Object(map) => map.iter().any(|(k, i)| k == key || has_key(i, key)),
        _ => false,
    }
}

fn names(game: &Game, cards: &[wonders_core::CardId]) -> Vec<String> {
    let mut v: Vec<String> = cards.iter().map(|c| game.catalog().card(*c).name.clone()).collect();
    v.sort();
    v
}

/// For each step of the recorded game, every hand each seat held during it.
/// Sorted card names.
type Cards = Vec<String>;
/// For each step, for each seat, every hand it held during the step.
type HandsByStep = HashMap<u64, Vec<Vec<Cards>>>;
/// Every message one client received, and whose client it was (`None`: a spectator).
type Received = Vec<(Option<usize>, Vec<(String, Value)>)>;

/// Also the hands dealt for Ages II and III, with their Age. With 2 players the Free City's
/// face-down pile counts as one more hidden hand.
fn hands_by_step(record: &Record) -> (HandsByStep, Vec<(u64, Cards)>) {
    let mut game = Game::new(&record.setup().unwrap()).unwrap();
    let n = game.cities().len();
    let mut later = Vec::new();
    for age in 2..=3 {
        for seat in 0..n {
            later.push((age as u64, names(&game, game.later_hand(age, seat))));
        }
    }
    let mut by_step: HandsByStep = HashMap::new();
    let mut step = 0u64;
    let snapshot = |game: &Game, step: u64, by_step: &mut HandsByStep| {
        let entry = by_step.entry(step).or_insert_with(|| vec![Vec::new(); n]);
        for (seat, hands) in entry.iter_mut().enumerate() {
            hands.push(names(game, game.hand(seat)));
        }
    };
    snapshot(&game, step, &mut by_step);
    for ra in &record.actions {
        let key = (game.age(), game.turn(), game.phase());
        let action = ra.action.to_action_in(&game, ra.seat as usize).unwrap();
        game.submit(ra.seat as usize, action).unwrap();
        if (game.age(), game.turn(), game.phase()) != key {
            step += 1;
        }
        snapshot(&game, step, &mut by_step);
    }
    (by_step, later)
}

#[tokio::test]
async fn websocket_games_never_leak_hidden_information() {
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    for (players, edition, wonders, bots) in [
        (3u8, "1e", "B", vec![None, None, None]),
        (4, "2e", "choose", vec![None, Some("random"), None, None]),
        (2, "1e", "random", vec![None, None]),
    ] {
        let id = s.create(players, edition, wonders, &bots).await;
        // A spectator watches from the start.
        let spectator = tokio::spawn(client(s.ws_url(&id), None, 0));
        let mut tokens = HashMap::new();
        for (seat, bot) in bots.iter().enumerate() {
            if bot.is_none() {
                tokens.insert(seat, s.take(&id, seat as u8, &format!("P{seat}")).await);
            }
        }
        let mut clients = Vec::new();
        for (&seat, t) in &tokens {
            clients.push((seat, tokio::spawn(client(s.ws_url(&id), Some(t.clone()), seat as u64 + 7))));
        }
        let mut received: Received = Vec::new();
        for (seat, c) in clients {
            received.push((Some(seat), c.await.unwrap()));
        }
        received.push((None, spectator.await.unwrap()));

        let state = s.state(&id, None).await;
        assert_eq!(state["table"]["status"], "over", "the game was played to its end");
        let (_, record) = s.get(&format!("/api/tables/{id}/record"), None).await;
        let record: Record = serde_json::from_value(record).unwrap();
        let replayed = record.replay().unwrap();
        let final_totals: Vec<i64> =
            state["scores"].as_array().unwrap().iter().map(|l| l["total"].as_i64().unwrap()).collect();
        assert_eq!(final_totals, replayed.scores().iter().map(|s| s.total as i64).collect::<Vec<_>>());
        let (hands, later) = hands_by_step(&record);

        let mut states = 0;
        for (who, messages) in &received {
            assert!(messages.len() > 10, "{who:?} received {} messages", messages.len());
            let mut saw_own_hand = false;
            for (text, v) in messages {
                assert!(!text.contains(&record.seed.to_string()) || v["table"]["status"] == "over");
                if v["type"] != "state" || v["view"].is_null() {
                    continue;
                }
                states += 1;
                let step = v["step"].as_u64().unwrap();
                let at_step = &hands[&step];
                let mut arrays = Vec::new();
                string_arrays(v, "", &mut arrays);
                // A seat's client is a spectator until its `auth` is answered.
                let viewer = v["you"].as_u64().map(|s| s as usize);
                assert!(viewer.is_none() || viewer == *who, "{who:?} got a state for {viewer:?}");
                match viewer {
                    None => {
                        assert!(!has_key(v, "hand") && !has_key(v, "discard"), "spectator got {text}");
                        assert!(v["legal"].as_array().unwrap().is_empty());
                    }
                    Some(me) => {
                        let mut own: Vec<String> = v["view"]["hand"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|c| c.as_str().unwrap().to_string())
                            .collect();
                        own.sort();
                        assert!(at_step[me].contains(&own), "seat {me}'s hand at step {step}");
                        saw_own_hand |= !own.is_empty();
                        if v["view"].get("discard").is_some() {
                            assert_eq!(v["view"]["phase"], "build_from_discard");
                        }
                    }
                }
                for (other, seat_hands) in at_step.iter().enumerate() {
                    if Some(other) == viewer {
                        continue;
                    }
                    for h in seat_hands.iter().filter(|h| h.len() >= 2) {
                        for (path, a) in &arrays {
                            assert_ne!(a, h, "{who:?} saw seat {other}'s hand at {path} (step {step})");
                        }
                    }
                }
                let age = v["view"]["age"].as_u64().unwrap();
                for (_, h) in later.iter().filter(|(a, _)| *a > age) {
                    for (path, a) in &arrays {
                        assert_ne!(a, h, "{who:?} saw a later Age's hand at {path}");
                    }
                }
            }
            assert!(who.is_none() || saw_own_hand);
        }
        assert!(states > 50, "{states} states checked");
    }
    s.stop().await;
}

#[tokio::test]
async fn websocket_errors_change_nothing_and_reconnects_get_the_state() {
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    let id = s.create(3, "1e", "A", &[None, Some("random"), Some("random")]).await;
    let token = s.take(&id, 0, "Ann").await;
    // The bots choose in the background; wait for them so that no state interleaves below.
    let bots_chose = |st: &Value| st["view"]["chosen"] == json!([false, true, true]);
    let before = s.wait_state(&id, Some(&token), "the bots' choices", bots_chose).await;
    let (mut ws, _) = connect_async(s.ws_url(&id)).await.unwrap();
    let (_, first) = next_json(&mut ws).await.unwrap();
    assert_eq!(first["type"], "state");
    assert!(first["you"].is_null());

    for bad in ["nonsense", "{\"type\": \"act\"}", "{\"type\": \"auth\", \"token\": 5}", "[]"] {
        ws.send(Message::Text(bad.into())).await.unwrap();
        let (_, e) = next_json(&mut ws).await.unwrap();
        assert_eq!(e["type"], "error");
        assert_eq!(e["code"], "bad_request", "{bad}: {e}");
    }
    ws.send(Message::Binary(vec![1u8, 2, 3].into())).await.unwrap();
    assert_eq!(next_json(&mut ws).await.unwrap().1["code"], "bad_request");
    send(&mut ws, &json!({"type": "act", "id": 9, "action": before["legal"][0]})).await;
    let (_, e) = next_json(&mut ws).await.unwrap();
    assert_eq!((e["code"].as_str(), e["id"].as_u64()), (Some("forbidden"), Some(9)));
    send(&mut ws, &json!({"type": "auth", "token": "0123"})).await;
    assert_eq!(next_json(&mut ws).await.unwrap().1["code"], "forbidden");
    send(&mut ws, &json!({"type": "ping"})).await;
    assert_eq!(next_json(&mut ws).await.unwrap().1["type"], "pong");
    assert_eq!(s.state(&id, Some(&token)).await, before, "errors change nothing");

    send(&mut ws, &json!({"type": "auth", "token": token})).await;
    assert_eq!(next_json(&mut ws).await.unwrap().1, json!({"type": "auth_ok", "seat": 0}));
    let (_, st) = next_json(&mut ws).await.unwrap();
    assert_eq!(st["you"], 0);
    assert_eq!(st["view"], before["view"]);
    // An illegal build (a card of the right name but a wrong payment) is refused.
    let mut wrong = before["legal"][0].clone();
    wrong["type"] = json!("build");
    wrong["left"] = json!(99);
    send(&mut ws, &json!({"type": "act", "id": 1, "turn_id": 0, "action": wrong})).await;
    let (_, e) = next_json(&mut ws).await.unwrap();
    assert_eq!((e["type"].as_str(), e["id"].as_u64()), (Some("error"), Some(1)));
    assert_eq!(e["code"], "illegal");
    // A message longer than the connection's read buffer (`ws::READ_BUFFER`, 512 bytes) and
    // under the 4 KiB limit is read whole over several reads: the action padded with 3,000
    // spaces of JSON whitespace is played.
    let act = json!({"type": "act", "id": 2, "turn_id": 0, "action": before["legal"][0]}).to_string();
    let padded = format!("{}{}}}", &act[..act.len() - 1], " ".repeat(3000));
    assert!(padded.len() > 3000 && padded.len() < 4096);
    ws.send(Message::Text(padded.into())).await.unwrap();
    let mut accepted = false;
    let mut next_state = None;
    while !(accepted && next_state.is_some()) {
        let (_, m) = next_json(&mut ws).await.unwrap();
        match m["type"].as_str().unwrap() {
            "accepted" => {
                assert_eq!(m, json!({"type": "accepted", "id": 2, "turn_id": 1}));
                accepted = true;
            }
            "state" => next_state = Some(m),
            other => panic!("{other}"),
        }
    }
    // The bots had chosen, so the turn resolved: a new step, a new hand of 6.
    let st = next_state.unwrap();
    assert_eq!(st["step"], 1);
    assert_eq!(st["view"]["hand"].as_array().unwrap().len(), 6);
    assert_eq!(st["history"].as_array().unwrap().len(), 3);
    drop(ws);
    s.wait_state(&id, Some(&token), "the bots' choices of turn 2", bots_chose).await;

    // A reconnecting client gets the current state at once.
    let (mut ws, _) = connect_async(s.ws_url(&id)).await.unwrap();
    next_json(&mut ws).await.unwrap();
    send(&mut ws, &json!({"type": "auth", "token": token})).await;
    next_json(&mut ws).await.unwrap();
    let (_, mut again) = next_json(&mut ws).await.unwrap();
    assert_eq!(again["type"], "state");
    again.as_object_mut().unwrap().remove("type");
    assert_eq!(again, serde_json::to_value(s.state(&id, Some(&token)).await).unwrap());
    assert_eq!(again["turn_id"], 1);
    s.stop().await;
}

/// A 3-player table with Ann, Bob and Cid seated: its id and their tokens, by seat.
async fn three_people_seated(s: &TestServer) -> (String, Vec<String>) {
    let id = s.create(3, "1e", "A", &[None, None, None]).await;
    let mut tokens = Vec::new();
    for (seat, name) in ["Ann", "Bob", "Cid"].into_iter().enumerate() {
        tokens.push(s.take(&id, seat as u8, name).await);
    }
    (id, tokens)
}

/// Sends a ping and expects the pong as the very next message: nothing else was pending.
async fn nothing_pending(ws: &mut Ws, who: &str) {
    send(ws, &json!({"type": "ping"})).await;
    let (_, m) = next_json(ws).await.unwrap();
    assert_eq!(m["type"], "pong", "{who}: a message was pending: {m}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_acknowledged_action_brings_its_state_once_and_watchers_get_one_state_per_change() {
    // The store writer acknowledges a batch's actions before it wakes the tables' watchers: the
    // acting connection sends the `accepted`, then the state it leads to (together when it
    // resolves the turn; up to `ws::STATE_HOLD` later when the seat waits for the others), and
    // the wake-up that follows sends it nothing more; every other connection gets one state
    // (the actions here are a ping apart, not close enough to share one).
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    let (id, tokens) = three_people_seated(&s).await;
    let mut conns = Vec::new();
    let mut last = Vec::new();
    for (seat, token) in tokens.iter().enumerate() {
        let (mut ws, _) = connect_async(s.ws_url(&id)).await.unwrap();
        assert_eq!(next_json(&mut ws).await.unwrap().1["type"], "state");
        send(&mut ws, &json!({"type": "auth", "token": token})).await;
        assert_eq!(next_json(&mut ws).await.unwrap().1, json!({"type": "auth_ok", "seat": seat}));
        let (_, st) = next_json(&mut ws).await.unwrap();
        assert_eq!((st["you"].as_u64(), st["turn_id"].as_u64()), (Some(seat as u64), Some(0)));
        nothing_pending(&mut ws, "after auth").await;
        conns.push(ws);
        last.push(st);
    }
    for actor in 0..3 {
        let action = last[actor]["legal"][0].clone();
        let msg = json!({"type": "act", "id": 10 + actor, "turn_id": 0, "action": action});
        send(&mut conns[actor], &msg).await;
        let (_, ack) = next_json(&mut conns[actor]).await.unwrap();
        assert_eq!(ack, json!({"type": "accepted", "id": 10 + actor, "turn_id": 1}));
        let (_, st) = next_json(&mut conns[actor]).await.unwrap();
        assert_eq!((st["type"].as_str(), st["turn_id"].as_u64()), (Some("state"), Some(1)), "{st}");
        if actor < 2 {
            // Its choice is shown, the step waits for the others.
            assert_eq!(st["pending"].as_array().map(Vec::len), Some(1), "{st}");
            assert_eq!(st["view"]["chosen"][actor], true);
        } else {
            // The last choice resolved the turn: a new hand of 6.
            assert_eq!(st["view"]["turn"], 2, "{st}");
            assert_eq!(st["view"]["hand"].as_array().map(Vec::len), Some(6));
        }
        last[actor] = st;
        for (seat, ws) in conns.iter_mut().enumerate() {
            if seat != actor {
                let (_, st) = next_json(ws).await.unwrap();
                assert_eq!(st["type"], "state", "seat {seat} after seat {actor}'s action: {st}");
                assert_eq!(st["view"]["chosen"][actor], actor < 2 || st["view"]["turn"] == 1);
                last[seat] = st;
            }
        }
        // Nothing more on any connection: no state twice for one change, now or a little later
        // (the writer wakes the watchers just after it acknowledges).
        for (seat, ws) in conns.iter_mut().enumerate() {
            nothing_pending(ws, &format!("seat {seat} after seat {actor}'s action")).await;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        for (seat, ws) in conns.iter_mut().enumerate() {
            nothing_pending(ws, &format!("seat {seat}, 50 ms after seat {actor}'s action")).await;
        }
    }
    // Every seat is at turn 2 with a hand of 6.
    for st in &last {
        assert_eq!(
            (st["view"]["turn"].as_u64(), st["legal"].as_array().is_some_and(|l| !l.is_empty())),
            (Some(2), true)
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_heard_from_stays_open_and_a_silent_one_closes_after_the_idle_timeout() {
    // One idle timer per connection, set again from the last message heard when it fires: a
    // client that keeps talking is never closed, a silent one is closed once the timeout passed.
    use std::time::{Duration, Instant};
    let (_dir, db) = temp_db();
    let server = wonders_server::Server::open(&db).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let mut limits = wonders_server::Limits::loopback();
    // A second: the talker's pings, 100 ms apart, leave a loaded machine 900 ms of delay.
    limits.ws_idle_timeout = Duration::from_secs(1);
    limits.ws_ping_interval = Duration::from_secs(3600);
    let served = server.clone();
    let task = tokio::spawn(async move {
        let _ = wonders_server::serve_with(listener, served, limits, std::future::pending()).await;
    });
    let created: Value = reqwest::Client::new()
        .post(format!("http://{addr}/api/tables"))
        .json(&json!({"players": 3}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let url = format!("ws://{addr}/api/tables/{}/ws", created["id"].as_str().unwrap());
    let (mut talker, _) = connect_async(&url).await.unwrap();
    let (mut silent, _) = connect_async(&url).await.unwrap();
    let opened = Instant::now();
    assert_eq!(next_json(&mut talker).await.unwrap().1["type"], "state");
    // Three idle timeouts long, a ping every 100 ms: each answered.
    while opened.elapsed() < Duration::from_secs(3) {
        nothing_pending(&mut talker, "the talker").await;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    nothing_pending(&mut talker, "the talker, at the end").await;
    // The silent one got its state, then a close for going away, after the timeout and well
    // before the talker's time was up.
    assert_eq!(next_json(&mut silent).await.unwrap().1["type"], "state");
    let closed = loop {
        match tokio::time::timeout(Duration::from_secs(5), silent.next()).await.unwrap() {
            Some(Ok(Message::Close(frame))) => break frame.unwrap(),
            Some(Ok(_)) => continue,
            other => panic!("expected a close, got {other:?}"),
        }
    };
    assert_eq!(u16::from(closed.code), 1001);
    assert_eq!(closed.reason.as_str(), "idle for too long");
    task.abort();
    let _ = task.await;
    tokio::task::spawn_blocking(move || server.close()).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_sending_without_pause_still_gets_every_change() {
    // A connection reads its client's waiting messages before it sends a change's state (so that
    // an action's answer carries it): a client that never stops sending is still shown every
    // change, with the answers.
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    let (id, tokens) = three_people_seated(&s).await;
    let (mut ws, _) = connect_async(s.ws_url(&id)).await.unwrap();
    assert_eq!(next_json(&mut ws).await.unwrap().1["view"]["turn"], 1);
    let (mut sink, mut stream) = ws.split();
    const PINGS: usize = 300;
    let pinger = tokio::spawn(async move {
        for _ in 0..PINGS {
            sink.send(Message::Text(json!({"type": "ping"}).to_string().into())).await.unwrap();
        }
        sink
    });
    // Meanwhile every seat acts: the turn resolves.
    for token in &tokens {
        let (server, id, token) = (s.server.clone(), id.clone(), token.clone());
        tokio::task::spawn_blocking(move || {
            let st = server.state(&id, Some(&token)).unwrap();
            server.act(&id, &token, Some(st.turn_id), &st.legal[0]).unwrap();
        })
        .await
        .unwrap();
    }
    let mut sink = pinger.await.unwrap();
    let (mut pongs, mut last_turn) = (0, 1);
    while pongs < PINGS || last_turn != 2 {
        let msg = tokio::time::timeout(std::time::Duration::from_secs(20), stream.next())
            .await
            .expect("every ping answered and the resolved turn shown")
            .unwrap()
            .unwrap();
        let Message::Text(t) = msg else { continue };
        let v: Value = serde_json::from_str(t.as_str()).unwrap();
        match v["type"].as_str().unwrap() {
            "pong" => pongs += 1,
            "state" => last_turn = v["view"]["turn"].as_u64().unwrap(),
            other => panic!("unexpected {other}: {v}"),
        }
        assert!(pongs <= PINGS);
    }
    // Nothing more is owed.
    sink.send(Message::Text(json!({"type": "ping"}).to_string().into())).await.unwrap();
    let msg = tokio::time::timeout(std::time::Duration::from_secs(20), stream.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(serde_json::from_str::<Value>(msg.to_text().unwrap()).unwrap()["type"], "pong");
}
