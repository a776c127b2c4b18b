//! Several servers on one PostgreSQL database (`wonders_server::pgtemp`: skipped with a note when
//! PostgreSQL is not installed, a failure in CI): each table is owned by one server at a time,
//! a request reaching another server moves the table there, a stopped server's tables are taken
//! over at once, and a server that lost a table stores nothing more for it.

use serde_json::json;
use std::time::{Duration, Instant};
use wonders_server::msg::CreateTable;
use wonders_server::server::{HEARTBEAT, ServerConfig};
use wonders_server::store::{StoredSeat, StoredTable};
use wonders_server::{Server, pgtemp, storage};

fn config() -> ServerConfig {
    ServerConfig { bot_threads: 1, tick: Duration::from_millis(50), ..ServerConfig::default() }
}

/// Polls `done` every 20 ms for at most `limit`; returns how long it took.
fn wait_for(limit: Duration, what: &str, mut done: impl FnMut() -> bool) -> Duration {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
    start.elapsed()
}

fn has(list: &[wonders_server::msg::TableInfo], id: &str) -> bool {
    list.iter().any(|t| t.id == id)
}

/// The store refuses a write for a table another server took over, and the new owner's writes
/// go on from what the previous one stored.
#[test]
fn a_server_that_lost_a_table_stores_nothing_more_for_it() {
    let Some(pg) = pgtemp::for_tests() else { return };
    let url = pg.create_database("fence").unwrap();
    let (mut a, mut b) = (storage::open(&url).unwrap(), storage::open(&url).unwrap());
    assert_ne!(a.node(), b.node());
    let t = StoredTable {
        id: "t1".into(),
        created: 1,
        edition: "1e".into(),
        players: 3,
        wonders: "random".into(),
        seats: vec![StoredSeat::default(); 3],
        ..StoredTable::default()
    };
    a.insert_table(&t).unwrap();
    a.append("t1", 0, &[(0, "a0".into())], None).unwrap();
    // b does not own it: refused, nothing stored.
    let e = b.append("t1", 1, &[(1, "b1".into())], None).unwrap_err();
    assert!(e.0.contains("table t1 is now served by another server"), "{e}");
    b.claim("t1").unwrap();
    assert_eq!(b.heartbeat().unwrap(), ["t1"]);
    assert!(a.heartbeat().unwrap().is_empty(), "a no longer owns t1");
    let e = a.append("t1", 1, &[(0, "a1".into())], None).unwrap_err();
    assert!(e.0.contains("served by another server"), "{e}");
    assert!(a.take_seat("t1", 1, "Ann", "h", 1, &[]).is_err());
    b.append("t1", 1, &[(1, "b1".into())], None).unwrap();
    let log = a.load_one("t1").unwrap().unwrap().actions;
    assert_eq!(log, [(0, "a0".to_string()), (1, "b1".to_string())]);
    // The lobby's view: b's table is elsewhere for a, with its version (1 action... 2 now).
    let elsewhere = a.elsewhere().unwrap();
    assert_eq!(elsewhere, [("t1".to_string(), b.node().unwrap().to_string(), 2 * 64)]);
    // A clean stop hands the tables over: a's next heartbeat takes t1.
    b.close().unwrap();
    assert_eq!(a.heartbeat().unwrap(), ["t1"]);
}

/// Two servers: the lobby of each lists the other's table; a request at the other server moves
/// the table there (the first stops serving it: its copy is marked moved), and back; seats taken
/// on either are all kept.
#[test]
fn a_table_moves_to_the_server_its_requests_reach() {
    let Some(pg) = pgtemp::for_tests() else { return };
    let url = pg.create_database("moves").unwrap();
    let s1 = Server::open_db(&url, config()).unwrap();
    let s2 = Server::open_db(&url, config()).unwrap();
    let req: CreateTable = serde_json::from_value(json!({"players": 3})).unwrap();
    let id = s1.create_table(&req).unwrap().id;
    let limit = HEARTBEAT * 6;
    wait_for(limit, "s2's lobby lists s1's table", || has(&s2.list().open, &id));
    assert!(!has(&s2.list_local().open, &id), "listed, not served by s2");
    let ann = s1.take_seat(&id, 0, "Ann", None).unwrap().token;
    let old = s1.table(&id).unwrap();
    // A request at s2 takes the table over, with Ann's seat.
    let bob = s2.take_seat(&id, 1, "Bob", None).unwrap().token;
    assert_eq!(s2.authorize(&id, &ann).unwrap(), 0);
    wait_for(limit, "s1 stops serving the table", || old.moved());
    assert!(!has(&s1.list_local().open, &id));
    wait_for(limit, "s1's lobby lists it as s2's", || has(&s1.list().open, &id));
    // Back to s1: the last seat there starts the game with all three players.
    let cy = s1.take_seat(&id, 2, "Cy", None).unwrap().token;
    let info = s1.table(&id).unwrap().lock().info();
    assert_eq!(info.status, "playing");
    let names: Vec<_> = info.seats.iter().map(|s| s.name.clone().unwrap_or_default()).collect();
    assert_eq!(names, ["Ann", "Bob", "Cy"]);
    for (seat, token) in [(0, &ann), (1, &bob), (2, &cy)] {
        assert_eq!(s1.authorize(&id, token).unwrap(), seat);
    }
    s1.close();
    s2.close();
}

/// A server that stops cleanly hands its tables over: the other takes them at its next
/// heartbeat, its bots play on and the person's moves are taken there; the record replays from
/// the store.
///
/// A person sits at the table so that the game waits for them: a game of bots alone can reach
/// its end before the first server has stopped, and a finished table is not handed over.
#[test]
fn a_stopped_servers_games_go_on_at_the_other() {
    let Some(pg) = pgtemp::for_tests() else { return };
    let url = pg.create_database("handover").unwrap();
    let s1 = Server::open_db(&url, config()).unwrap();
    let s2 = Server::open_db(&url, config()).unwrap();
    let req: CreateTable = serde_json::from_value(json!({
        "players": 3, "seats": [{}, {"bot": "random"}, {"bot": "random"}]
    }))
    .unwrap();
    let id = s1.create_table(&req).unwrap().id;
    let ann = s1.take_seat(&id, 0, "Ann", None).unwrap().token;
    act_first(&s1, &id, &ann).unwrap();
    wait_for(Duration::from_secs(30), "the bots' first moves", || {
        s1.table(&id).unwrap().lock().info().turn >= 2
    });
    s1.close();
    assert_eq!(s1.table(&id).unwrap().lock().info().status, "playing", "the game waits for Ann");
    // Handed over at the next heartbeat, not after the lease ran out (as for a killed server):
    // within the lease's time (a heartbeat is 500 ms; the rest is room for a loaded machine).
    let took = wait_for(wonders_server::postgres::LEASE, "s2 takes the table over", || {
        has(&s2.list_local().open, &id)
    });
    assert!(took < wonders_server::postgres::LEASE, "{took:?}");
    // Ann plays on at s2 (whenever she has a choice to make) and s2's bots answer.
    wait_for(Duration::from_secs(60), "the game ends at s2", || {
        if s2.table(&id).unwrap().lock().info().status == "over" {
            return true;
        }
        if !s2.state(&id, Some(&ann)).unwrap().legal.is_empty() {
            act_first(&s2, &id, &ann).unwrap();
        }
        false
    });
    let record = s2.record(&id).unwrap();
    let stored = storage::open(&url).unwrap().load_one(&id).unwrap().unwrap();
    assert_eq!(stored.actions.len(), record.actions.len());
    assert!(record.scores.is_some());
    assert_eq!(s2.store_metrics().shared.map(|m| m.takeovers), Some(1), "{:?}", s2.store_metrics());
    s2.close();
}

/// Acts for `seat` with its first legal action: the store's answer.
fn act_first(s: &Server, id: &str, token: &str) -> Result<u64, wonders_server::ApiError> {
    let st = s.state(id, Some(token))?;
    let action = st.legal.first().expect("the seat may act").clone();
    s.act(id, token, Some(st.turn_id), &action)
}

/// PostgreSQL stopped under a server: actions are refused at once with an error naming it,
/// nothing refused is stored, the lease metric shows the loss; once PostgreSQL is back the same
/// server accepts actions again without a restart, and the log holds exactly the acknowledged
/// actions.
#[test]
fn actions_are_refused_while_postgresql_is_down_and_accepted_when_it_is_back() {
    let Some(mut pg) = pgtemp::for_tests() else { return };
    let url = pg.create_database("outage").unwrap();
    let s = Server::open_db(&url, config()).unwrap();
    let req: CreateTable = serde_json::from_value(json!({"players": 3})).unwrap();
    let id = s.create_table(&req).unwrap().id;
    let tokens: Vec<String> =
        (0..3).map(|seat| s.take_seat(&id, seat, &format!("P{seat}"), None).unwrap().token).collect();
    let mut acked = 0;
    for t in &tokens[..2] {
        act_first(&s, &id, t).unwrap();
        acked += 1;
    }
    // A bots' game plays on meanwhile: its moves fail while PostgreSQL is down.
    let bots: CreateTable = serde_json::from_value(json!({
        "players": 4, "seats": [{"bot": "random"}, {"bot": "random"}, {"bot": "random"}, {"bot": "random"}]
    }))
    .unwrap();
    let busy = s.create_table(&bots).unwrap().id;
    pg.stop();
    let started = Instant::now();
    let e = act_first(&s, &id, &tokens[2]).unwrap_err();
    assert!(started.elapsed() < wonders_server::postgres::OP_TIMEOUT + Duration::from_secs(1));
    assert_eq!(e.code(), "storage", "{e}");
    let text = e.to_string();
    assert!(text.contains("PostgreSQL") && text.contains("postgresql://postgres@127.0.0.1"), "{text}");
    // Every later request is refused too (the table is read back from the store, which is down).
    assert_eq!(act_first(&s, &id, &tokens[2]).unwrap_err().code(), "storage");
    wait_for(HEARTBEAT * 6, "the lease metric shows the loss", || {
        s.store_metrics().shared.is_some_and(|m| !m.lease_ok)
    });
    pg.start_server().unwrap();
    let back = wait_for(Duration::from_secs(15), "an action is accepted again", || {
        match act_first(&s, &id, &tokens[2]) {
            Ok(_) => true,
            Err(e) => {
                eprintln!("still refused: {e}");
                false
            }
        }
    });
    acked += 1;
    eprintln!("accepted again {back:?} after PostgreSQL answered");
    wait_for(HEARTBEAT * 6, "the lease is renewed", || s.store_metrics().shared.is_some_and(|m| m.lease_ok));
    let stored = storage::open(&url).unwrap().load_one(&id).unwrap().unwrap();
    assert_eq!(stored.actions.len(), acked, "exactly the acknowledged actions");
    // The three choices resolved the first turn: the game is at turn 2.
    assert_eq!(s.table(&id).unwrap().lock().info().turn, 2);
    // The bots' game is read back from the store and played to its end; its log has no gap and
    // replays to the game's record.
    wait_for(Duration::from_secs(60), "the bots' game ends", || {
        s.table(&busy).is_ok_and(|c| c.lock().info().status == "over")
    });
    let record = s.record(&busy).unwrap();
    let stored = storage::open(&url).unwrap().load_one(&busy).unwrap().unwrap();
    assert_eq!(stored.actions.len(), record.actions.len());
    assert_eq!(wonders_server::table::Table::load(stored).record().unwrap(), record);
    s.close();
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The next JSON text message of a WebSocket (at most 10 s away).
async fn next_json(ws: &mut Ws) -> serde_json::Value {
    use futures_util::StreamExt;
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next()).await.unwrap().unwrap().unwrap();
        if let tokio_tungstenite::tungstenite::Message::Text(t) = msg {
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

/// The next message of type `kind`, skipping the table's states before it (the bots may choose,
/// and the table's state be sent anew, between a connection's first state and its answer to
/// `auth`).
async fn next_of(ws: &mut Ws, kind: &str) -> serde_json::Value {
    loop {
        let m = next_json(ws).await;
        if m["type"] == kind {
            return m;
        }
        assert_eq!(m["type"], "state", "waiting for {kind}: {m}");
    }
}

/// Serves `server` on a loopback port; returns its address.
async fn serve(server: Server) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let limits = wonders_server::Limits::loopback();
    tokio::spawn(async move {
        let _ = wonders_server::serve_with(listener, server, limits, std::future::pending()).await;
    });
    addr
}

/// A player's WebSocket at the server that loses its table is closed with code 1012; the
/// player reconnects at the server that took it, authenticates with the same token and plays on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_websocket_follows_the_table_to_its_new_server() {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    let Some(pg) = pgtemp::for_tests() else { return };
    let url = pg.create_database("follow").unwrap();
    let (u1, u2) = (url.clone(), url.clone());
    let s1 = tokio::task::spawn_blocking(move || Server::open_db(&u1, config()).unwrap()).await.unwrap();
    let s2 = tokio::task::spawn_blocking(move || Server::open_db(&u2, config()).unwrap()).await.unwrap();
    let (a1, a2) = (serve(s1.clone()).await, serve(s2.clone()).await);
    let (id, tokens) = {
        let s1 = s1.clone();
        tokio::task::spawn_blocking(move || {
            let req: CreateTable = serde_json::from_value(
                json!({"players": 3, "seats": [{}, {"bot": "random"}, {"bot": "random"}]}),
            )
            .unwrap();
            let id = s1.create_table(&req).unwrap().id;
            let token = s1.take_seat(&id, 0, "Ann", None).unwrap().token;
            (id, token)
        })
        .await
        .unwrap()
    };
    let (mut ws, _) =
        tokio_tungstenite::connect_async(format!("ws://{a1}/api/tables/{id}/ws")).await.unwrap();
    assert_eq!(next_json(&mut ws).await["type"], "state");
    ws.send(Message::Text(json!({"type": "auth", "token": tokens}).to_string().into())).await.unwrap();
    next_of(&mut ws, "auth_ok").await;
    let before = next_json(&mut ws).await;
    assert_eq!(before["you"], 0);
    // A request at s2 takes the table over.
    let (s2b, idb) = (s2.clone(), id.clone());
    tokio::task::spawn_blocking(move || s2b.table(&idb).map(|_| ())).await.unwrap().unwrap();
    let closed = loop {
        use futures_util::StreamExt;
        match tokio::time::timeout(HEARTBEAT * 4, ws.next()).await.expect("closed within 2 s") {
            Some(Ok(Message::Close(frame))) => break frame.unwrap(),
            Some(Ok(_)) => continue,
            other => panic!("expected a close, got {other:?}"),
        }
    };
    assert_eq!(u16::from(closed.code), 1012);
    assert_eq!(closed.reason.as_str(), "the table is served anew: reconnect");
    // At s2: the same seat, the same step, and the game goes on.
    let (mut ws, _) =
        tokio_tungstenite::connect_async(format!("ws://{a2}/api/tables/{id}/ws")).await.unwrap();
    next_json(&mut ws).await;
    ws.send(Message::Text(json!({"type": "auth", "token": tokens}).to_string().into())).await.unwrap();
    next_of(&mut ws, "auth_ok").await;
    let state = next_json(&mut ws).await;
    assert_eq!(
        (state["you"].clone(), state["turn_id"].clone()),
        (before["you"].clone(), before["turn_id"].clone())
    );
    let action = state["legal"][0].clone();
    let act = json!({"type": "act", "id": 1, "turn_id": state["turn_id"], "action": action});
    ws.send(Message::Text(act.to_string().into())).await.unwrap();
    let answer = loop {
        let m = next_json(&mut ws).await;
        if m["type"] != "state" {
            break m;
        }
    };
    assert_eq!((answer["type"].clone(), answer["id"].clone()), (json!("accepted"), json!(1)), "{answer}");
    tokio::task::spawn_blocking(move || {
        s1.close();
        s2.close();
    })
    .await
    .unwrap();
}
