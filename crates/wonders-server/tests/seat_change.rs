//! A WebSocket authenticated for a seat sees that seat only while its token holds it: after the
//! seat is left (and someone else sits there) the connection is a spectator's, before any state
//! of the seat is built for it. The attack: take seat 0, authenticate a WebSocket, leave seat 0,
//! take seat 1; when another player sits in seat 0 the old socket must not receive seat 0's hand
//! or legal actions, on a change or on `refresh`, and cannot act for it.

mod common;

use common::{TestServer, temp_db};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn send(ws: &mut Ws, v: &Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

/// The next JSON message, or `None` after `wait` without one.
async fn next_within(ws: &mut Ws, wait: std::time::Duration) -> Option<Value> {
    loop {
        let msg = tokio::time::timeout(wait, ws.next()).await.ok()??.ok()?;
        if let Message::Text(t) = msg {
            return Some(serde_json::from_str(t.as_str()).unwrap());
        }
    }
}

/// Whether a state message shows a seat's private part: a seat, a hand or legal actions.
fn shows_a_seat(v: &Value) -> bool {
    v["type"] == "state"
        && (!v["you"].is_null()
            || v["legal"].as_array().is_some_and(|l| !l.is_empty())
            || v["view"]["hand"].as_array().is_some_and(|h| !h.is_empty()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_loses_its_seat_when_the_seat_is_left() {
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    let id = s.create(3, "1e", "A", &[None, None, None]).await;
    let old_token = s.take(&id, 0, "Mallory").await;
    let (mut ws, _) = connect_async(s.ws_url(&id)).await.unwrap();
    let first = next_within(&mut ws, std::time::Duration::from_secs(10)).await.unwrap();
    assert_eq!(first["type"], "state");
    send(&mut ws, &json!({"type": "auth", "token": old_token})).await;
    let ok = next_within(&mut ws, std::time::Duration::from_secs(10)).await.unwrap();
    assert_eq!(ok, json!({"type": "auth_ok", "seat": 0}));
    let mine = next_within(&mut ws, std::time::Duration::from_secs(10)).await.unwrap();
    assert_eq!(mine["you"], 0);
    // Leave seat 0, take seat 1 with a new token; then Alice sits in seat 0 and Bob in seat 2:
    // the game starts.
    let (status, body) = s.delete(&format!("/api/tables/{id}/seats/0"), Some(&old_token)).await;
    assert_eq!(status, 200, "{body}");
    let _mallory = s.take(&id, 1, "Mallory").await;
    let alice = s.take(&id, 0, "Alice").await;
    let _bob = s.take(&id, 2, "Bob").await;
    let alice_state = s.state(&id, Some(&alice)).await;
    assert_eq!(alice_state["you"], 0);
    assert!(!alice_state["legal"].as_array().unwrap().is_empty(), "the game started");
    // Everything the old socket receives from the leave on: the downgrade notice, then only
    // spectators' states.
    let mut seen = Vec::new();
    while let Some(v) = next_within(&mut ws, std::time::Duration::from_millis(500)).await {
        seen.push(v);
    }
    send(&mut ws, &json!({"type": "refresh"})).await;
    seen.push(next_within(&mut ws, std::time::Duration::from_secs(10)).await.unwrap());
    let leaks: Vec<&Value> = seen.iter().filter(|v| shows_a_seat(v)).collect();
    assert!(leaks.is_empty(), "the old socket saw a seat: {leaks:?}");
    let notice = seen.iter().find(|v| v["type"] == "error").expect("the socket is told it lost its seat");
    assert_eq!(notice["code"], "forbidden");
    assert!(notice["message"].as_str().unwrap().contains("seat 0 is no longer held"), "{notice}");
    assert!(seen.iter().any(|v| v["type"] == "state" && v["view"].is_object()), "it still watches the game");
    // Acting through it is refused, and seat 0 is Alice's, unchanged.
    let action = alice_state["legal"][0].clone();
    send(&mut ws, &json!({"type": "act", "id": 5, "turn_id": 0, "action": action})).await;
    let refused = next_within(&mut ws, std::time::Duration::from_secs(10)).await.unwrap();
    assert_eq!((&refused["type"], &refused["code"]), (&json!("error"), &json!("forbidden")), "{refused}");
    assert_eq!(s.state(&id, Some(&alice)).await["turn_id"], 0);
    s.stop().await;
}
