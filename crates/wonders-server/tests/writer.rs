//! The store writer (group commit, `crate::writer`): an acknowledged action is on disk (a server
//! started again from the file after a crash has every acknowledged action and nothing else), and
//! a failed write is reported to the client of that action, with nothing changed.

use serde_json::json;
use std::path::Path;
use wonders_core::WireAction;
use wonders_server::msg::CreateTable;
use wonders_server::{ApiError, Server, Store};

/// A table of `players` people: its id and the seats' tokens.
fn table_of_people(server: &Server, players: u8) -> (String, Vec<String>) {
    let req: CreateTable = serde_json::from_value(json!({"players": players})).unwrap();
    let id = server.create_table(&req).unwrap().id;
    let tokens = (0..players as usize)
        .map(|seat| server.take_seat(&id, seat, &format!("P{seat}"), None).unwrap().token)
        .collect();
    (id, tokens)
}

/// The state of each seat, as JSON (what its player would be sent).
fn states(server: &Server, id: &str, tokens: &[String]) -> Vec<serde_json::Value> {
    tokens.iter().map(|t| serde_json::to_value(server.state(id, Some(t)).unwrap()).unwrap()).collect()
}

/// One seat discards a card `actions` times (discarding is always legal in a turn and triggers
/// no wonder power, so every seat acts once per turn), each as soon as it may act; returns the
/// `turn_id` of every acknowledgment.
fn play(server: &Server, id: &str, token: &str, actions: usize) -> Vec<u64> {
    let mut acks = Vec::new();
    for _ in 0..20_000 {
        if acks.len() == actions {
            break;
        }
        let state = server.state(id, Some(token)).unwrap();
        let Some(discard) = state.legal.iter().find(|a| matches!(a, WireAction::Discard { .. })) else {
            std::thread::yield_now();
            continue;
        };
        // A refusal (the step moved on meanwhile) is tried again from a fresh state.
        if let Ok(next) = server.act(id, token, Some(state.turn_id), discard) {
            acks.push(next);
        }
    }
    acks
}

#[test]
fn acknowledged_actions_survive_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash.db");
    let server = Server::open(&db).unwrap();
    let (id, tokens) = table_of_people(&server, 3);
    // Three players act at once (their actions share the writer's transactions), 8 each: the 6
    // turns of Age I (7 cards a hand, 6 played, the 7th discarded: rulebook 002), then 2
    // turns of Age II.
    let acks: Vec<Vec<u64>> = std::thread::scope(|scope| {
        let handles: Vec<_> = tokens.iter().map(|t| scope.spawn(|| play(&server, &id, t, 8))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    // Each acknowledgment gave the seat's count of actions: 1, 2, …, 8.
    for seat_acks in &acks {
        assert_eq!(seat_acks, &(1..=8).collect::<Vec<u64>>());
    }
    let before = states(&server, &id, &tokens);
    assert_eq!((&before[0]["table"]["age"], &before[0]["table"]["turn"]), (&json!(2), &json!(3)));
    // The crash: the process state is lost without any shutdown (the writer's thread, the
    // connection and the tables are leaked, never closed), and a new server opens the file.
    std::mem::forget(server);
    let again = Server::open(&db).unwrap();
    let after = states(&again, &id, &tokens);
    assert_eq!(after, before, "the server started from the file shows exactly what was acknowledged");
    for (seat, state) in after.iter().enumerate() {
        assert_eq!(state["turn_id"], json!(8), "seat {seat}: 8 acknowledged actions");
    }
    // The stored log holds the 24 actions, numbered 0 to 23, and nothing more.
    let stored = Store::open(&db).unwrap().load_one(&id).unwrap().unwrap();
    assert_eq!(stored.actions.len(), 24);
}

/// Makes every append to the actions log fail, through a second connection to the file.
fn refuse_appends(db: &Path, refuse: bool) {
    let store = Store::open(db).unwrap();
    let sql = if refuse {
        "CREATE TRIGGER refuse BEFORE INSERT ON actions BEGIN SELECT RAISE(ABORT, 'disk is full (test)'); END;"
    } else {
        "DROP TRIGGER refuse;"
    };
    store.connection().execute_batch(sql).unwrap();
}

#[test]
fn a_failed_write_is_reported_to_its_client_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("fail.db");
    let server = Server::open(&db).unwrap();
    let (id, tokens) = table_of_people(&server, 3);
    let before = states(&server, &id, &tokens);
    let first = before[0]["legal"][0].clone();
    let action = serde_json::from_value(first).unwrap();
    refuse_appends(&db, true);
    match server.act(&id, &tokens[0], Some(0), &action) {
        Err(ApiError::Storage(message)) => {
            assert!(message.contains("disk is full (test)"), "the cause is named: {message}");
            assert!(message.contains(&id), "the table is named: {message}");
        }
        other => panic!("a failed write must be reported as a storage error, not {other:?}"),
    }
    assert_eq!(states(&server, &id, &tokens), before, "nothing changed, for any seat");
    // Once the disk takes writes again, the same action (same turn_id) is accepted.
    refuse_appends(&db, false);
    assert_eq!(server.act(&id, &tokens[0], Some(0), &action).unwrap(), 1);
    let after = states(&server, &id, &tokens);
    assert_eq!(after[0]["turn_id"], json!(1));
    assert_eq!(after[0]["pending"].as_array().map(Vec::len), Some(1), "seat 0's choice is made");
    let stored = Store::open(&db).unwrap().load_one(&id).unwrap().unwrap();
    assert_eq!(stored.actions.len(), 1);
}

#[test]
fn an_action_queued_after_a_failed_one_is_not_stored_either() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("gap.db");
    let server = Server::open(&db).unwrap();
    let (id, tokens) = table_of_people(&server, 3);
    let before = states(&server, &id, &tokens);
    let first_discard = |seat: usize| -> WireAction {
        serde_json::from_value(
            before[seat]["legal"]
                .as_array()
                .unwrap()
                .iter()
                .find(|a| a["type"] == "discard")
                .unwrap()
                .clone(),
        )
        .unwrap()
    };
    // Only the first entry of the log (index 0) fails to be written.
    Store::open(&db)
        .unwrap()
        .connection()
        .execute_batch(
            "CREATE TRIGGER refuse BEFORE INSERT ON actions WHEN NEW.idx = 0 \
             BEGIN SELECT RAISE(ABORT, 'bad sector (test)'); END;",
        )
        .unwrap();
    // Two players' actions handed to the writer one after the other: the second is planned on
    // top of the first (index 1). Whether the writer takes them in one batch or two, the first
    // fails, and so does the second: stored alone at index 1 it would leave a gap in the log.
    let a = server.submit_act(&id, &tokens[0], Some(0), &first_discard(0), false).unwrap();
    let b = server.submit_act(&id, &tokens[1], Some(0), &first_discard(1), false).unwrap();
    assert!(matches!(a.wait(), Err(ApiError::Storage(m)) if m.contains("bad sector (test)")));
    assert!(matches!(b.wait(), Err(ApiError::Storage(_))));
    assert_eq!(states(&server, &id, &tokens), before, "nothing changed, for any seat");
    assert_eq!(Store::open(&db).unwrap().load_one(&id).unwrap().unwrap().actions.len(), 0);
    // After the failure the table plans from its stored state again: index 0, then 1.
    Store::open(&db).unwrap().connection().execute_batch("DROP TRIGGER refuse;").unwrap();
    assert_eq!(server.act(&id, &tokens[1], Some(0), &first_discard(1)).unwrap(), 1);
    assert_eq!(server.act(&id, &tokens[0], Some(0), &first_discard(0)).unwrap(), 1);
    let stored = Store::open(&db).unwrap().load_one(&id).unwrap().unwrap();
    assert_eq!(stored.actions.iter().map(|(seat, _)| *seat).collect::<Vec<_>>(), vec![1, 0]);
}

/// How many actions the file holds for table `id`.
fn stored_actions(db: &Path, id: &str) -> usize {
    Store::open(db).unwrap().load_one(id).unwrap().unwrap().actions.len()
}

#[test]
fn a_closed_server_writes_nothing_more_and_the_next_one_finishes_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("close.db");
    let server = Server::open(&db).unwrap();
    // Three bots, thinking 10 ms a move in the background, and Ann, whom this test plays: the
    // game waits for her, so it cannot end before the close however fast the bots are (four bots
    // alone could finish it first on a fast or busy machine).
    let bot = json!({"bot": "search:10ms"});
    let seats = json!([{}, bot, bot, bot]);
    let req: CreateTable = serde_json::from_value(json!({"players": 4, "seats": seats})).unwrap();
    let id = server.create_table(&req).unwrap().id;
    let ann = server.take_seat(&id, 0, "Ann", None).unwrap().token;
    // Ann plays her first legal action if she may; whether she did.
    let ann_plays = |server: &Server| {
        let st = server.state(&id, Some(&ann)).unwrap();
        let Some(action) = st.legal.first() else { return false };
        server.act(&id, &ann, Some(st.turn_id), action).unwrap();
        true
    };
    // Ann plays until 8 actions are stored, the last of them hers: right after her move the bots
    // think theirs (the step she resolved or joined waits for them).
    while !(ann_plays(&server) && stored_actions(&db, &id) >= 8) {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    // Closing stops the bots mid-game and waits for the writer: once it returns, the file does
    // not change any more, and it holds exactly what the closed server shows.
    server.close();
    let at_close = stored_actions(&db, &id);
    let shown = serde_json::to_value(server.state(&id, None).unwrap()).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(stored_actions(&db, &id), at_close, "nothing is written after close");
    assert_ne!(shown["table"]["status"], json!("over"), "the bots were stopped mid-game");
    // A new server over the same file (a restart) shows the same state, then Ann and its bots
    // finish the game, appending to the log without a clash of indices.
    let again = Server::open(&db).unwrap();
    let mut state = serde_json::to_value(again.state(&id, None).unwrap()).unwrap();
    let (age, turn) = (shown["table"]["age"].clone(), shown["table"]["turn"].clone());
    assert!(state["table"]["age"].as_u64() >= age.as_u64());
    for _ in 0..10_000 {
        if state["table"]["status"] == json!("over") {
            break;
        }
        if !ann_plays(&again) {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        state = serde_json::to_value(again.state(&id, None).unwrap()).unwrap();
    }
    assert_eq!(state["table"]["status"], json!("over"), "the game ends (from Age {age}, turn {turn})");
    // 4 players, 3 Ages of 6 turns, one action a seat a turn (random bots may also take wonder
    // or rule choices, which add actions): at least 72 actions, all in the log.
    let total = stored_actions(&db, &id);
    assert!(total >= 72 && total > at_close, "{total} actions stored");
    again.close();
}

/// Every seat of a table plays at once from its own thread, as fast as it may (its actions and
/// the others' share the writer's transactions and wait in the table's queue ahead of the
/// durable state), choosing random legal actions and often taking its choice back: each action
/// chosen from the seat's state with its `turn_id` is accepted (nothing the others queued
/// meanwhile can make it illegal or stale), a retraction is refused only once the others' queued
/// choices resolved the step, the game reaches its end, and a server started again from the file
/// shows exactly the same final states.
#[test]
fn every_seat_acting_and_taking_back_at_once_plays_a_whole_game() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("concurrent.db");
    let server = Server::open(&db).unwrap();
    let (id, tokens) = table_of_people(&server, 4);
    let counts: Vec<(usize, usize, usize)> = std::thread::scope(|scope| {
        let handles: Vec<_> = tokens
            .iter()
            .enumerate()
            .map(|(seat, token)| {
                let (server, id) = (&server, &id);
                scope.spawn(move || {
                    let mut rng = 0x9e37_79b9_7f4a_7c15u64 ^ (seat as u64 + 1);
                    let mut next = move |n: usize| {
                        rng ^= rng << 13;
                        rng ^= rng >> 7;
                        rng ^= rng << 17;
                        (rng % n as u64) as usize
                    };
                    let (mut acted, mut retracted, mut too_late) = (0, 0, 0);
                    for _ in 0..2_000_000 {
                        let state = server.state(id, Some(token)).unwrap();
                        assert_ne!(state.table.status, "broken", "seat {seat}: the table broke");
                        if state.table.status == "over" {
                            break;
                        }
                        if state.legal.is_empty() {
                            // Chosen, waiting for the others: sometimes take it back.
                            if !state.pending.is_empty() && next(4) == 0 {
                                match server.retract(id, token) {
                                    Ok(_) => retracted += 1,
                                    Err(ApiError::Illegal(_)) => too_late += 1,
                                    Err(e) => panic!("seat {seat}: a retraction failed: {e}"),
                                }
                            }
                            std::thread::yield_now();
                            continue;
                        }
                        if seat == 3 {
                            // A slower player (longer than the writer's group-commit wait): the
                            // others' choices are then often stored while the step waits for its
                            // one, so their retractions can succeed. Without it, seats acting
                            // within one group commit resolve each step before any takes back.
                            std::thread::sleep(wonders_server::writer::GROUP_WAIT * 2);
                        }
                        let action = &state.legal[next(state.legal.len())];
                        let turn_id = server
                            .act(id, token, Some(state.turn_id), action)
                            .unwrap_or_else(|e| panic!("seat {seat}: {action:?} refused: {e}"));
                        assert_eq!(turn_id, state.turn_id + 1, "seat {seat}: the acknowledged turn id");
                        acted += 1;
                    }
                    (acted, retracted, too_late)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let end = states(&server, &id, &tokens);
    assert_eq!(end[0]["table"]["status"], json!("over"));
    // Each seat's turn id counts its actions and its retractions.
    for (seat, (acted, retracted, _)) in counts.iter().enumerate() {
        assert_eq!(end[seat]["turn_id"], json!(acted + retracted), "seat {seat}");
    }
    let retracted: usize = counts.iter().map(|c| c.1).sum();
    assert!(retracted >= 4, "the seats took choices back while others' changes waited: {counts:?}");
    drop(server);
    let again = Server::open(&db).unwrap();
    assert_eq!(states(&again, &id, &tokens), end, "the stored log rebuilds the same game");
}
