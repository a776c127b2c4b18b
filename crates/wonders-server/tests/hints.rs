//! `GET /api/tables/{id}/hint`: the search bot's preferred moves for a seat, at a table where
//! every other seat is a bot; refused in a game between people, without the seat's token, or
//! when the game does not wait for the seat.

mod common;

use common::{TestServer, temp_db};
use serde_json::json;

#[tokio::test]
async fn a_hint_is_the_search_bots_best_moves_at_a_table_against_bots() {
    let (_dir, db) = temp_db();
    let s = TestServer::start(&db).await;
    let solo = s.create(4, "1e", "A", &[None, Some("heuristic"), Some("heuristic"), Some("heuristic")]).await;
    let ada = s.take(&solo, 0, "Ada").await;
    let (status, hint) = s.get(&format!("/api/tables/{solo}/hint"), Some(&ada)).await;
    assert_eq!(status, 200, "{hint}");
    assert_eq!(hint["samples"], 2000);
    let moves = hint["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3, "{hint}");
    let st = s.state(&solo, Some(&ada)).await;
    let legal = st["legal"].as_array().unwrap();
    let mut total = 0;
    for (i, m) in moves.iter().enumerate() {
        assert!(legal.contains(&m["action"]), "a hint is a legal action: {m}");
        let win = m["win_chance"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&win), "{m}");
        total += m["samples"].as_u64().unwrap();
        if i > 0 {
            assert!(m["samples"].as_u64() <= moves[i - 1]["samples"].as_u64(), "best first: {hint}");
        }
    }
    assert!(total > 0 && total <= 2000, "{hint}");
    // The same position, the same hint.
    let (_, again) = s.get(&format!("/api/tables/{solo}/hint"), Some(&ada)).await;
    assert_eq!(again, hint);
    // The hint changes nothing: the seat still has its choice to make.
    assert_eq!(s.state(&solo, Some(&ada)).await["turn_id"], st["turn_id"]);

    // Once the seat has chosen, the game does not wait for it: nothing to hint.
    let (status, _) = s.act(&solo, &ada, st["turn_id"].as_u64(), &moves[0]["action"]).await;
    assert_eq!(status, 200);
    let after = s.state(&solo, Some(&ada)).await;
    if after["turn_id"] == st["turn_id"].as_u64().unwrap() + 1 && after["legal"] == json!([]) {
        let (status, e) = s.get(&format!("/api/tables/{solo}/hint"), Some(&ada)).await;
        assert_eq!(status, 409, "{e}");
    }

    // No token, a wrong one: refused.
    let (status, e) = s.get(&format!("/api/tables/{solo}/hint"), None).await;
    assert_eq!(status, 403, "{e}");
    assert!(e["error"]["message"].as_str().unwrap().contains("holder of a seat"), "{e}");
    let (status, _) = s.get(&format!("/api/tables/{solo}/hint"), Some("not-a-token")).await;
    assert_eq!(status, 403);

    // Two people at the table: no advice.
    let duo = s.create(3, "1e", "A", &[None, None, Some("heuristic")]).await;
    let bea = s.take(&duo, 0, "Bea").await;
    let _cy = s.take(&duo, 1, "Cy").await;
    let (status, e) = s.get(&format!("/api/tables/{duo}/hint"), Some(&bea)).await;
    assert_eq!(status, 403, "{e}");
    assert!(e["error"]["message"].as_str().unwrap().contains("every other seat is a bot"), "{e}");
    s.stop().await;
}
