//! `GET /api/tables/{id}/review?seat=N`: a finished game reviewed for a seat by the search bot,
//! for the game's players; refused before the end, without a seat's token, for a seat the game
//! has not.

mod common;

use common::{TestServer, play_http, temp_db};
use serde_json::Value;
use wonders_core::{Game, Record};
use wonders_server::server::ServerConfig;

/// The decisions of `seat` in a record: the indexes of its moves made with more than one legal
/// action, found by replaying the record.
fn decisions_of(record: &Record, seat: u8) -> Vec<usize> {
    let mut game = Game::new(&record.setup().unwrap()).unwrap();
    let mut out = Vec::new();
    for (i, ra) in record.actions.iter().enumerate() {
        let s = ra.seat as usize;
        let a = ra.action.to_action_in(&game, s).unwrap();
        if ra.seat == seat && game.legal_actions(s).len() > 1 {
            out.push(i);
        }
        game.submit(s, a).unwrap();
    }
    out
}

#[tokio::test]
async fn a_finished_games_review_judges_each_decision_of_the_seat() {
    let (_dir, db) = temp_db();
    let config = ServerConfig { review_samples: 40, bot_threads: 1, ..ServerConfig::default() };
    let s = TestServer::start_with(&db, config).await;
    let id = s.create(3, "1e", "A", &[None, Some("heuristic"), Some("heuristic")]).await;
    let ada = s.take(&id, 0, "Ada").await;
    let path = format!("/api/tables/{id}/review");

    // Before the end: nothing to review yet.
    let (status, e) = s.get(&path, Some(&ada)).await;
    assert_eq!(status, 409, "{e}");
    assert!(e["error"]["message"].as_str().unwrap().contains("once the game is over"), "{e}");

    play_http(&s, &id, std::slice::from_ref(&ada), 0).await;
    let st = s.wait_state(&id, None, "the end", |st| st["table"]["status"] == "over").await;
    assert_eq!(st["table"]["status"], "over");
    let (status, record) = s.get(&format!("/api/tables/{id}/record"), None).await;
    assert_eq!(status, 200);
    let record: Record = serde_json::from_value(record).unwrap();

    // The token's own seat by default.
    let (status, review) = s.get(&path, Some(&ada)).await;
    assert_eq!(status, 200, "{review}");
    assert_eq!(review["seat"], 0);
    assert_eq!(review["samples"], 40);
    let decisions = review["decisions"].as_array().unwrap();
    let indexes: Vec<usize> = decisions.iter().map(|d| d["index"].as_u64().unwrap() as usize).collect();
    assert_eq!(indexes, decisions_of(&record, 0));
    // 18 turns at 3 players, each a choice (a hand of two cards is still one).
    assert!(decisions.len() >= 18, "{}", decisions.len());
    let f = |d: &Value, k: &str| d[k].as_f64().unwrap();
    let mut total = 0.0;
    for d in decisions {
        let i = d["index"].as_u64().unwrap() as usize;
        // The move played is the record's.
        let mut played = serde_json::to_value(&record.actions[i]).unwrap();
        played.as_object_mut().unwrap().remove("seat");
        assert_eq!(d["played"], played, "{d}");
        assert!((0.0..=1.0).contains(&f(d, "win_chance")) && (0.0..=1.0).contains(&f(d, "best_win_chance")));
        // (Within a rounding: JSON's decimals read back may differ from the server's in the last bit.)
        assert!(
            (f(d, "loss") - (f(d, "best_win_chance") - f(d, "win_chance")).max(0.0)).abs() < 1e-12,
            "{d}"
        );
        if d["same"] == true {
            assert_eq!(f(d, "loss"), 0.0, "{d}");
            assert_eq!(d["played"]["type"], d["best"]["type"], "{d}");
        }
        // The page marks a mistake by the server's word, not its own threshold.
        assert_eq!(d["mistake"], wonders_bots::coach::is_mistake(f(d, "loss")), "{d}");
        total += f(d, "loss");
    }
    assert!((f(&review, "total_loss") - total).abs() < 1e-9);
    // The chart: the chance at the start (the first decision's preferred move), then after each
    // move played.
    let chart: Vec<f64> = review["chart"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    assert_eq!(chart.len(), decisions.len() + 1);
    assert_eq!(chart[0], f(&decisions[0], "best_win_chance"));
    for (k, d) in decisions.iter().enumerate() {
        assert_eq!(chart[k + 1], f(d, "win_chance"));
    }
    // The biggest mistakes: at most 3, each a loss of 5 points or more, the biggest first, and
    // no decision left out that lost more than the last of them.
    let mistakes: Vec<usize> =
        review["mistakes"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as usize).collect();
    assert!(mistakes.len() <= 3);
    let loss = |i: usize| f(&decisions[i], "loss");
    assert!(mistakes.iter().all(|&i| wonders_bots::coach::is_mistake(loss(i))));
    assert!(mistakes.windows(2).all(|w| loss(w[0]) >= loss(w[1])));
    // Fewer than 3: every loss of 5 points or more; 3: none left out bigger than the third.
    let left_out = |i: usize| match mistakes.get(2) {
        None => wonders_bots::coach::is_mistake(loss(i)),
        Some(&third) => loss(i) > loss(third) + 1e-12,
    };
    let bigger = (0..decisions.len()).filter(|&i| !mistakes.contains(&i) && left_out(i));
    assert_eq!(bigger.count(), 0, "{mistakes:?}");
    // The same review as `wonders review` makes from the record (the shared code), and the same
    // answer asked again.
    let shared = wonders_bots::coach::review(&record, 0, 40).unwrap();
    assert_eq!(shared.len(), decisions.len());
    for (a, d) in shared.iter().zip(decisions) {
        for (x, k) in [(a.win_chance, "win_chance"), (a.best_win_chance, "best_win_chance"), (a.loss, "loss")]
        {
            assert!((x - f(d, k)).abs() < 1e-12, "{k}: {x} against {d}");
        }
    }
    assert_eq!(s.get(&path, Some(&ada)).await, (200, review.clone()));

    // Another seat of the game: a bot's, for its player to study.
    let (status, bot) = s.get(&format!("{path}?seat=2"), Some(&ada)).await;
    assert_eq!(status, 200, "{bot}");
    assert_eq!(bot["seat"], 2);
    let bot_indexes: Vec<usize> =
        bot["decisions"].as_array().unwrap().iter().map(|d| d["index"].as_u64().unwrap() as usize).collect();
    assert_eq!(bot_indexes, decisions_of(&record, 2));

    // Refusals, each changing nothing.
    let refused = [
        (
            format!("{path}?seat=3"),
            Some(ada.as_str()),
            400,
            "seat 3 is out of range: this game has seats 0 to 2",
        ),
        (format!("{path}?seat=x"), Some(&ada), 400, "`seat` must be a seat number"),
        (format!("{path}?samples=9"), Some(&ada), 400, "unknown parameter `samples`"),
        (path.clone(), None, 403, "for the players of the game"),
        (path.clone(), Some("not-a-token"), 403, "holds none of its seats"),
        ("/api/tables/nope/review".to_string(), Some(&ada), 404, "nope"),
    ];
    for (url, token, code, message) in refused {
        let (status, e) = s.get(&url, token).await;
        assert_eq!(status, code, "{url}: {e}");
        assert!(e["error"]["message"].as_str().unwrap().contains(message), "{url}: {e}");
    }
    assert_eq!(s.state(&id, None).await, st);
    s.stop().await;
}
