//! The WebSocket of a table: `GET /api/tables/{id}/ws`.
//!
//! The connection starts as a spectator's and receives `state` messages: one at once, then one
//! after every change of the table, or one for several changes close together: a state that
//! asks nothing of the seat ([`Table::prompts`]: the seat has chosen and waits for the others)
//! may wait up to [`STATE_HOLD`] for the changes that follow, then goes with them; a state that
//! asks the seat to act, shows the game's start or end, or is a spectator's, goes at once. To
//! keep them small, a state carries only the log entries the connection has not received yet
//! (`history_from` says where they start); the answers to `auth` and `refresh` carry the whole
//! log. The client may send (JSON text messages, see [`ClientMsg`]):
//!
//! - `{"type": "auth", "token": "…"}`: from then on the connection sees and acts for the token's
//!   seat (answered by `auth_ok` and a new `state`, or an `error` with code `forbidden`); a seat
//!   a bot played because its turn timer ran out is its player's again. The seat is the token's
//!   only while the token holds it: every state is built for the seat the token holds at that
//!   moment (looked up under the table's lock), so once the seat is left, expires, is held for a
//!   rematch or goes to someone else, the connection gets an `error` (code `forbidden`) saying so
//!   and from then on a spectator's states, at once (never held back);
//! - `{"type": "act", "id": 7, "turn_id": 12, "action": {"type": "build", "card": "Library", …}}`:
//!   answered by `accepted` (stored, then applied) or `error` (nothing changed), both echoing
//!   `id`. The state the action leads to comes with the `accepted`, just after it in the same
//!   write, when it asks the seat to act again (it resolved the step, or the seat has another
//!   choice to make); otherwise it may come up to [`STATE_HOLD`] later, with the other seats'
//!   choices made meanwhile (a client keeps the old state's actions disabled until then: its
//!   `turn_id` is the one the `accepted` gave);
//! - `{"type": "retract", "id": 8}`: takes back the seat's last choice of the current step,
//!   before it resolves; answered like `act`;
//! - `{"type": "refresh"}` and `{"type": "ping"}`.
//!
//! A malformed message is answered by an `error` with code `bad_request`.
//!
//! Limits ([`crate::limits::Limits`]): a client's message (and frame) is at most `ws_max_message`
//! bytes (4 KiB by default; a larger one closes the connection with code 1009, "message too
//! big"); the server sends a WebSocket ping every `ws_ping_interval` and closes a connection
//! from which nothing (not even a pong) arrived for `ws_idle_timeout`; when the server shuts
//! down, each connection gets a close with code 1001 ("going away") after the action it may be
//! storing is acknowledged.

use crate::msg::{ApiError, ClientMsg, ServerMsg};
use crate::net::Net;
use crate::server::{Pending, Server, TableCell};
#[cfg(doc)]
use crate::table::Table;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, close_code};
use futures_util::SinkExt;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The size of a connection's read buffer: client messages are small (an action is one or two
/// hundred bytes; a longer message, up to the `ws_max_message` limit, takes several reads).
/// tungstenite zero-fills the free part of the buffer before each read, a wake-up that finds
/// nothing to read included: with 4 KiB that was 4% of the server's instructions under load.
pub const READ_BUFFER: usize = 512;

/// How many bytes of outgoing frames are buffered before they are written (every send ends with a
/// flush, so this only lets several messages of one send share a write).
pub const WRITE_BUFFER: usize = 64 * 1024;

/// How long a state that asks nothing of its connection's seat ([`Table::prompts`]) may wait for
/// the table's next changes before it is sent: the state a seat's choice leads to while the
/// others still choose, and other seats' choices shown to it meanwhile, usually go with the state
/// of the step they resolve, one state instead of two or three. Hundredths of a second are not
/// seen on a page; under load (the `load` example: 4 seats of 200 tables) the seats received
/// 1.3 to 1.6 states per action otherwise, each a few KiB to build, write and read
/// (docs/src/contributing/speed-journal.md, server round 11).
pub const STATE_HOLD: Duration = Duration::from_millis(25);

/// Holds the connection's next state back ([`STATE_HOLD`]): starts the timer unless a state is
/// already held, whose time is not extended (a held state waits at most `STATE_HOLD`).
fn hold_state(hold: std::pin::Pin<&mut tokio::time::Sleep>, holding: &mut bool) {
    if !*holding {
        *holding = true;
        hold.reset(tokio::time::Instant::now() + STATE_HOLD);
    }
}

fn error(id: Option<u64>, e: &ApiError) -> ServerMsg {
    ServerMsg::Error { id, code: e.code().to_string(), message: e.to_string() }
}

/// Serialises a message into a buffer sized after the connection's previous message (a state is
/// several KiB: growing a small buffer step by step costs more than the serialisation). A state
/// is written by [`crate::json::write_state_msg`] (the same bytes as `serde_json`, faster), the
/// other messages by `serde_json`; both write a `String`, which needs no UTF-8 check again.
fn encode(msg: &ServerMsg, size_hint: &mut usize) -> Option<Message> {
    let text = match msg {
        ServerMsg::State(state) => {
            let mut text = String::with_capacity(*size_hint);
            crate::json::write_state_msg(&mut text, state);
            text
        }
        _ => serde_json::to_string(msg).ok()?,
    };
    *size_hint = (*size_hint).max(text.len() + text.len() / 8);
    Some(Message::Text(Utf8Bytes::from(text)))
}

async fn send(socket: &mut WebSocket, msg: &ServerMsg) -> bool {
    send_all(socket, std::slice::from_ref(msg), &mut 256).await
}

/// Sends messages in order with one flush (one write to the socket for all of them).
async fn send_all(socket: &mut WebSocket, msgs: &[ServerMsg], size_hint: &mut usize) -> bool {
    for msg in msgs {
        let Some(message) = encode(msg, size_hint) else {
            return false;
        };
        if socket.feed(message).await.is_err() {
            return false;
        }
    }
    socket.flush().await.is_ok()
}

async fn close(socket: &mut WebSocket, code: u16, reason: &'static str) {
    let frame = CloseFrame { code, reason: Utf8Bytes::from_static(reason) };
    let _ = socket.send(Message::Close(Some(frame))).await;
}

/// Waits for an action handed to the store writer, without holding a thread while it is written.
/// It was checked and queued at once on this task's thread when the writer's queue had room
/// (`quick`: the table's lock is held only for that), else on a blocking thread, which may wait
/// for room (`slow`).
async fn stored(
    quick: Option<Result<Pending, ApiError>>,
    slow: impl FnOnce() -> Result<Pending, ApiError> + Send + 'static,
) -> Result<u64, ApiError> {
    let submitted = match quick {
        Some(submitted) => submitted,
        None => match tokio::task::spawn_blocking(slow).await {
            Ok(submitted) => submitted,
            Err(e) => Err(ApiError::Storage(format!("the task failed: {e}"))),
        },
    };
    submitted?.done().await
}

/// Serves one WebSocket connection until it closes.
pub async fn run(server: Server, net: Arc<Net>, id: String, cell: Arc<TableCell>, mut socket: WebSocket) {
    let _counted = net.metrics.websocket();
    let mut shutdown = net.shutdown_signal();
    let (ping_every, idle_after) = (net.limits.ws_ping_interval, net.limits.ws_idle_timeout);
    let mut pings = tokio::time::interval_at(tokio::time::Instant::now() + ping_every, ping_every);
    let mut last_heard = tokio::time::Instant::now();
    // The idle timer: one timer for the connection's life, set again (from `last_heard`) only
    // when it fires, not a new timer registered and dropped for every message.
    let idle = tokio::time::sleep_until(last_heard + idle_after);
    tokio::pin!(idle);
    let mut changes = cell.subscribe();
    // The table's version the last state sent after a change was built at (read before it was
    // built): a wake-up for a version already sent (with an `accepted`) sends nothing.
    let mut sent_version = *changes.borrow_and_update();
    // The seat's token, with its hash (hashed once, at `auth`: each action is checked by it).
    let mut token: Option<(String, String)> = None;
    let mut seat: Option<u8> = None;
    // Log entries this connection has received: later states carry only the new ones.
    let mut sent_history = 0usize;
    // A state for the seat the connection's token holds *now* (looked up with the state, under
    // the table's lock): when the seat was left, taken back for a rematch, expired or given to
    // someone else since `auth`, the connection is downgraded to a spectator's before anything
    // of the seat is sent, and told so with an `error` (code `forbidden`) first.
    let mut state = |token: &mut Option<(String, String)>, seat: &mut Option<u8>, full: bool| {
        let hash = token.as_ref().map(|(_, h)| h.as_str());
        let (s, now) = server.state_for_token(&cell, hash, if full { 0 } else { sent_history });
        let mut out = Vec::with_capacity(2);
        if *seat != now {
            if let Some(old) = *seat {
                let e = ApiError::Forbidden(format!(
                    "seat {old} is no longer held by this connection's token (left, expired or held for a \
                     rematch): it now watches as a spectator; send `auth` with a token that holds a seat"
                ));
                out.push(error(None, &e));
            }
            if now.is_none() {
                *token = None;
            }
            *seat = now;
        }
        sent_history = s.history_from + s.history.len();
        out.push(ServerMsg::State(Box::new(s)));
        out
    };
    // A change's state held back ([`STATE_HOLD`]) until this timer fires, if `holding`.
    let hold = tokio::time::sleep_until(tokio::time::Instant::now());
    tokio::pin!(hold);
    let mut holding = false;
    // The size of the largest message so far (the next state's buffer starts at it).
    let mut size_hint = 4096usize;
    if !send_all(&mut socket, &state(&mut token, &mut seat, true), &mut size_hint).await {
        return;
    }
    loop {
        tokio::select! {
            // In this order, not at random: a client's message already waiting is read before
            // a change's state is built. An action's answer carries the newest state, so a seat
            // whose action arrived as another seat's change was made visible gets one state
            // for both (with its `accepted`) instead of a state it has already acted past.
            biased;
            _ = shutdown.changed() => {
                close(&mut socket, close_code::AWAY, "the server is shutting down").await;
                return;
            }
            () = &mut idle => {
                if tokio::time::Instant::now() < last_heard + idle_after {
                    // Heard from since the timer was set: it waits from then on.
                    idle.as_mut().reset(last_heard + idle_after);
                    continue;
                }
                close(&mut socket, close_code::AWAY, "idle for too long").await;
                return;
            }
            _ = pings.tick() => {
                if socket.send(Message::Ping(Default::default())).await.is_err() {
                    return;
                }
            }
            incoming = socket.recv() => {
                last_heard = tokio::time::Instant::now();
                let arrived = Instant::now();
                let text = match incoming {
                    None | Some(Ok(Message::Close(_))) => return,
                    Some(Err(e)) => {
                        // Over the size limit (tungstenite's "Space limit exceeded: Message too
                        // long"), or a broken frame.
                        let text = e.to_string();
                        if text.contains("too long") || text.contains("limit") {
                            close(&mut socket, close_code::SIZE, "message too big").await;
                        } else {
                            close(&mut socket, close_code::PROTOCOL, "malformed frame").await;
                        }
                        return;
                    }
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Binary(_))) => {
                        let e = ApiError::BadRequest("messages are JSON text".into());
                        if !send(&mut socket, &error(None, &e)).await {
                            return;
                        }
                        continue;
                    }
                    Some(Ok(_)) => continue,
                };
                let reply = match serde_json::from_str::<ClientMsg>(text.as_str()) {
                    Err(e) => vec![error(None, &ApiError::BadRequest(format!("malformed message: {e}")))],
                    Ok(ClientMsg::Ping {}) => vec![ServerMsg::Pong],
                    Ok(ClientMsg::Refresh {}) => state(&mut token, &mut seat, true),
                    Ok(ClientMsg::Auth { token: t }) => match server.authorize(&id, &t) {
                        Ok(s) => {
                            let hash = crate::token::hash_token(&t);
                            token = Some((t, hash));
                            seat = Some(s);
                            let mut v = vec![ServerMsg::AuthOk { seat: s }];
                            v.extend(state(&mut token, &mut seat, true));
                            v
                        }
                        Err(e) => vec![error(None, &e)],
                    },
                    Ok(ClientMsg::Retract { id: msg_id }) => match &token {
                        None => vec![error(
                            msg_id,
                            &ApiError::Forbidden("send `auth` with the seat's token before taking back a choice".into()),
                        )],
                        Some((t, hash)) => {
                            let quick = server.try_submit_retract(&id, hash);
                            let (server2, table, t) = (server.clone(), id.clone(), t.clone());
                            let result = stored(quick, move || server2.submit_retract(&table, &t, true)).await;
                            match result {
                                Ok(turn_id) => vec![ServerMsg::Accepted { id: msg_id, turn_id }],
                                Err(e) => vec![error(msg_id, &e)],
                            }
                        }
                    },
                    Ok(ClientMsg::Act { id: msg_id, turn_id, action }) => match &token {
                        None => vec![error(
                            msg_id,
                            &ApiError::Forbidden("send `auth` with the seat's token before acting".into()),
                        )],
                        Some((t, hash)) => {
                            let quick = server.try_submit_act(&id, hash, turn_id, &action);
                            let (server2, table, t) = (server.clone(), id.clone(), t.clone());
                            let result = stored(quick, move || {
                                server2.submit_act(&table, &t, turn_id, &action, true)
                            })
                            .await;
                            match result {
                                Ok(turn_id) => {
                                    net.metrics.action(arrived.elapsed());
                                    vec![ServerMsg::Accepted { id: msg_id, turn_id }]
                                }
                                Err(e) => vec![error(msg_id, &e)],
                            }
                        }
                    },
                };
                let mut reply = reply;
                // A stored change was made visible (the table's version counted) before it was
                // acknowledged: its state goes out with the answer, in the same write (answer
                // first), whether or not the writer has woken the watchers yet; after an
                // `accepted`, only if it asks the seat to act (else it is held, see
                // [`STATE_HOLD`]: it usually goes with the state of the step the action is
                // part of, once the other seats have chosen).
                let version = *changes.borrow_and_update();
                if version != sent_version {
                    let acknowledged = matches!(reply.first(), Some(ServerMsg::Accepted { .. }));
                    let hash = token.as_ref().map(|(_, h)| h.as_str());
                    if acknowledged && server.may_hold(&cell, hash, seat) {
                        hold_state(hold.as_mut(), &mut holding);
                    } else {
                        sent_version = version;
                        holding = false;
                        reply.extend(state(&mut token, &mut seat, false));
                    }
                }
                if !send_all(&mut socket, &reply, &mut size_hint).await {
                    return;
                }
            }
            () = &mut hold, if holding => {
                holding = false;
                let version = *changes.borrow_and_update();
                if version == sent_version {
                    continue;
                }
                sent_version = version;
                if !send_all(&mut socket, &state(&mut token, &mut seat, false), &mut size_hint).await {
                    return;
                }
            }
            changed = changes.changed() => {
                if changed.is_err() {
                    return;
                }
                if cell.moved() {
                    // Another server sharing the store took the table over, or a change failed
                    // to be stored and the table is read back: the client reconnects (through
                    // the proxy) and finds the game as stored.
                    close(&mut socket, close_code::RESTART, "the table is served anew: reconnect").await;
                    return;
                }
                let version = *changes.borrow_and_update();
                if version == sent_version {
                    continue;
                }
                let hash = token.as_ref().map(|(_, h)| h.as_str());
                if server.may_hold(&cell, hash, seat) {
                    // Nothing for this seat to do: the state waits for the next changes (and
                    // goes with the first that asks something of it, or when the hold ends). A
                    // seat this token no longer holds is not held back: the downgrade goes now.
                    hold_state(hold.as_mut(), &mut holding);
                    continue;
                }
                sent_version = version;
                holding = false;
                if !send_all(&mut socket, &state(&mut token, &mut seat, false), &mut size_hint).await {
                    return;
                }
            }
        }
    }
}
