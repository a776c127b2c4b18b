//! External bots (`exec:COMMAND`) in the server: refused unless the operator allowed them, then
//! offered and played like the built-in bots. (Allowing is process-wide, hence this test binary
//! of its own.) The bot is the Python example; python3 is on the development machine and in CI.

mod common;

use common::{TestServer, temp_db};
use serde_json::json;
use wonders_core::{Action, Game, Record};

#[tokio::test]
async fn external_bots_run_only_when_the_operator_allows_them() {
    let ext = format!("exec:python3 {}/../../examples/bots/random_bot.py", env!("CARGO_MANIFEST_DIR"));
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;

    // Not allowed: a visitor cannot make the server run a command.
    for name in [ext.as_str(), "exec:touch /tmp/wonders-should-not-exist"] {
        let (status, answer) =
            s.post("/api/tables", &json!({"players": 3, "seats": [{"bot": name}]}), None).await;
        assert_eq!(status, 400, "{answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains("is not allowed") && message.contains("--allow-bot"), "{message}");
    }
    assert!(!std::path::Path::new("/tmp/wonders-should-not-exist").exists());
    let (_, bots) = s.get("/api/bots", None).await;
    assert_eq!(bots, json!(wonders_server::BOT_NAMES), "only the built-in bots are offered");

    // The operator allows one; it is offered and plays.
    wonders_server::allow_exec_bots(std::slice::from_ref(&ext)).unwrap();
    let (_, bots) = s.get("/api/bots", None).await;
    let mut offered: Vec<String> = wonders_server::BOT_NAMES.iter().map(|b| b.to_string()).collect();
    offered.push(ext.clone());
    assert_eq!(bots, json!(offered));
    let seats = json!([{"bot": ext}, {"bot": "heuristic"}, {"bot": "random"}]);
    let (status, info) = s.post("/api/tables", &json!({"players": 3, "seats": seats}), None).await;
    assert_eq!(status, 201, "{info}");
    assert_eq!(info["seats"][0]["bot"], ext.as_str());
    let id = info["id"].as_str().unwrap();
    // Bots move in the background: wait for the game's end.
    s.wait_state(id, None, "the bots' game to end", |st| st["table"]["status"] == "over").await;
    let (status, record) = s.get(&format!("/api/tables/{id}/record"), None).await;
    assert_eq!(status, 200);
    let record: Record = serde_json::from_value(record).unwrap();
    assert!(record.replay().expect("the record replays").is_over());
    // Seat 0 played by the example's rule (build when it can, else a wonder stage, else
    // anything): its own answers were played, not a fallback's.
    let kind = |a: &Action| match a {
        Action::Build { .. } => 0,
        Action::Wonder { .. } => 1,
        _ => 2,
    };
    let mut game = Game::new(&record.setup().unwrap()).unwrap();
    let mut seat0 = 0;
    for ra in &record.actions {
        let seat = ra.seat as usize;
        let action = ra.action.to_action_in(&game, seat).unwrap();
        if seat == 0 {
            let best = game.legal_actions(0).iter().map(kind).min().unwrap();
            assert_eq!(kind(&action), best, "{:?}", ra.action);
            seat0 += 1;
        }
        game.submit(seat, action).unwrap();
    }
    assert!(game.is_over() && seat0 >= 18, "{seat0} decisions of seat 0");

    // Only the allowed name: another time-out is another command line.
    let (status, answer) = s
        .post("/api/tables", &json!({"players": 3, "seats": [{"bot": format!("{ext}:timeout=1s")}]}), None)
        .await;
    assert_eq!(status, 400, "{answer}");
    s.stop().await;
}
