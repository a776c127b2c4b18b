//! `wonders simulate`, run as a user would.

use serde_json::Value;
use std::process::{Command, Output};

fn wonders(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wonders")).args(args).output().expect("the binary runs")
}

fn json(args: &[&str]) -> Value {
    let out = wonders(args);
    assert!(out.status.success(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON output")
}

const CATEGORIES: [&str; 9] =
    ["military", "treasury", "wonder", "civilian", "science", "commercial", "guilds", "edifice", "total"];

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let one =
        json(&["simulate", "--players", "4", "--games", "200", "--seed", "1", "--threads", "1", "--json"]);
    let two =
        json(&["simulate", "--players", "4", "--games", "200", "--seed", "1", "--threads", "2", "--json"]);
    assert_eq!(one["mean"], two["mean"]);
    assert_eq!(one["win_share"], two["win_share"]);
    assert_eq!(one["games"], 200);
    assert_eq!(two["games"], 200);
    // Another seed gives other games.
    let other =
        json(&["simulate", "--players", "4", "--games", "200", "--seed", "2", "--threads", "2", "--json"]);
    assert_ne!(one["mean"], other["mean"]);
}

#[test]
fn every_kind_of_game_is_deterministic_across_threads() {
    for args in [
        &["--players", "2"][..],
        &["--players", "3", "--edition", "2e"],
        &["--players", "7", "--edition", "2e"],
    ] {
        let mut one = vec!["simulate", "--games", "60", "--seed", "5", "--json", "--threads", "1"];
        one.extend_from_slice(args);
        let mut two = one.clone();
        two[7] = "2";
        let (a, b) = (json(&one), json(&two));
        assert_eq!(a["mean"], b["mean"], "{args:?}");
        assert_eq!(a["win_share"], b["win_share"], "{args:?}");
        assert_eq!(a["win_share"].as_array().unwrap().len(), args[1].parse::<usize>().unwrap());
    }
}

#[test]
fn json_has_exactly_the_documented_keys_and_plausible_values() {
    let v = json(&["simulate", "--players", "5", "--games", "100", "--seed", "3", "--json"]);
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    keys.sort();
    assert_eq!(keys, ["games", "games_per_second", "mean", "win_share"]);
    let mean = v["mean"].as_object().unwrap();
    let mut mean_keys: Vec<&str> = mean.keys().map(|k| k.as_str()).collect();
    mean_keys.sort();
    let mut expected = CATEGORIES.to_vec();
    expected.sort();
    assert_eq!(mean_keys, expected);

    let m = |k: &str| mean[k].as_f64().unwrap();
    let parts: f64 = CATEGORIES[..8].iter().map(|k| m(k)).sum();
    assert!((parts - m("total")).abs() < 1e-9, "the categories add up to the total");
    assert!(m("total") > 0.0 && m("total") < 150.0, "mean total {}", m("total"));
    assert!(m("treasury") >= 0.0 && m("science") >= 0.0 && m("civilian") >= 0.0);
    // Military tokens: each Age's wins and defeats; the mean lies between -6 and +18.
    assert!(m("military") > -6.0 && m("military") < 18.0);

    let share: Vec<f64> = v["win_share"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    assert_eq!(share.len(), 5);
    assert!(share.iter().all(|s| (0.0..=1.0).contains(s)));
    let sum: f64 = share.iter().sum();
    assert!(sum >= 1.0 - 1e-9, "every game has at least one winner: {sum}");
    assert!(v["games_per_second"].as_f64().unwrap() > 0.0);
}

#[test]
fn text_report() {
    let out = wonders(&["simulate", "--games", "50", "--seed", "4", "--threads", "1"]);
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("50 random games of 4 players"));
    assert!(stdout.contains("games per second"));
    for c in CATEGORIES {
        assert!(stdout.contains(c), "{c}");
    }
    assert!(stdout.contains("seat 3"));
}

#[test]
fn the_card_first_policy_is_named_deterministic_and_plays_other_games() {
    let args = ["simulate", "--players", "4", "--games", "200", "--seed", "1", "--json"];
    let card_first =
        |threads: &str| json(&[&args[..], &["--policy", "card-first", "--threads", threads]].concat());
    let (one, two) = (card_first("1"), card_first("2"));
    assert_eq!(one["policy"], "card-first");
    assert_eq!(one["mean"], two["mean"], "deterministic across threads");
    assert_eq!(one["win_share"], two["win_share"]);
    assert_eq!(one["games"], 200);
    // The default policy is `uniform`, unnamed in the JSON, and plays other games from the seed.
    let uniform = json(&[&args[..], &["--policy", "uniform", "--threads", "1"]].concat());
    let default = json(&[&args[..], &["--threads", "1"]].concat());
    assert!(uniform.get("policy").is_none());
    assert_eq!((&uniform["mean"], &uniform["win_share"]), (&default["mean"], &default["win_share"]));
    assert_ne!(one["mean"], uniform["mean"]);
    // Card-first play discards more (a discard weighs as much as all of a card's builds), which
    // leaves more coins in the treasuries.
    assert!(one["mean"]["treasury"].as_f64() > uniform["mean"]["treasury"].as_f64(), "{one} {uniform}");
    let text =
        wonders(&["simulate", "--games", "20", "--seed", "4", "--threads", "1", "--policy", "card-first"]);
    assert!(text.status.success());
    assert!(String::from_utf8_lossy(&text.stdout).contains("20 card-first random games of 4 players"));
}

#[test]
fn bad_arguments_are_refused_with_a_message() {
    for (args, needle) in [
        (&["simulate", "--players", "9", "--games", "5"][..], "2..=8"),
        (&["simulate", "--players", "1", "--games", "5"], "2..=8"),
        (&["simulate", "--players", "8", "--games", "5"], "8 with Armada"),
        (&["simulate", "--players", "2", "--expansions", "armada", "--games", "5"], "Free City"),
        (&["simulate", "--players", "2", "--edition", "2e", "--games", "5"], "1st edition only"),
        (&["simulate", "--edition", "x", "--games", "5"], "unknown edition"),
        (&["simulate", "--games", "0"], "--games"),
        (&["simulate", "--games", "5", "--threads", "0"], "--threads"),
        (&["simulate", "--games", "many"], "--games"),
        (&["simulate", "--games", "5", "--policy", "greedy"], "possible values: uniform, card-first"),
    ] {
        let out = wonders(args);
        assert!(!out.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn edifice_games_report_projects_and_read_a_replacement_data_file() {
    let args =
        ["simulate", "--players", "4", "--games", "40", "--seed", "2", "--json", "--expansions", "edifice"];
    let (a, b) =
        (json(&[&args[..], &["--threads", "1"]].concat()), json(&[&args[..], &["--threads", "2"]].concat()));
    assert_eq!(a["mean"], b["mean"], "deterministic across threads");
    assert_eq!(a["provisional"], true, "Edifice's values are provisional");
    let done = a["projects_completed"].as_array().unwrap();
    assert_eq!(done.len(), 3);
    assert!(done.iter().all(|d| (0.0..=1.0).contains(&d.as_f64().unwrap())));
    // Without the expansion: neither key, and the edifice category is 0.
    let base = json(&["simulate", "--players", "4", "--games", "20", "--seed", "2", "--json"]);
    assert!(base.get("provisional").is_none() && base.get("projects_completed").is_none());
    assert_eq!(base["mean"]["edifice"], 0.0);
    // A replacement data file: every debt token worth 40 makes the edifice category plunge.
    let text = include_str!("../../wonders-core/data/edifice.toml")
        .replace("points = 2,", "points = 40,")
        .replace("points = 3,", "points = 40,")
        .replace("points = 5,", "points = 40,");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("edifice.toml");
    std::fs::write(&path, text).unwrap();
    let heavy = json(&[&args[..], &["--threads", "1", "--data", path.to_str().unwrap()]].concat());
    assert!(heavy["mean"]["edifice"].as_f64().unwrap() < a["mean"]["edifice"].as_f64().unwrap());
    // Refused with the problem named.
    let out = wonders(&["simulate", "--games", "1", "--expansions", "babel"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown expansion `babel`"));
    std::fs::write(&path, "pawns = 3").unwrap();
    let out =
        wonders(&["simulate", "--games", "1", "--expansions", "edifice", "--data", path.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("edifice.toml"));
}

#[test]
fn team_games_report_team_win_shares() {
    let r = json(&["simulate", "--teams", "--players", "6", "--games", "60", "--seed", "3", "--json"]);
    let teams: Vec<f64> =
        r["team_win_share"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    assert_eq!(teams.len(), 3);
    // Each seat has its team's rank, so teammates' win shares are equal and a team's is theirs.
    let seats: Vec<f64> = r["win_share"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    for k in 0..3 {
        assert_eq!((seats[2 * k], seats[2 * k + 1]), (teams[k], teams[k]));
    }
    // Every game has at least one winning team (shared wins count for each).
    assert!(teams.iter().sum::<f64>() >= 1.0 - 1e-9, "{teams:?}");
    // Without --teams there is no team share.
    let plain = json(&["simulate", "--players", "6", "--games", "10", "--json"]);
    assert!(plain.get("team_win_share").is_none());
    // 5 players cannot play in teams: a clear message, a failure status.
    let out = wonders(&["simulate", "--teams", "--players", "5", "--games", "1"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("teams: 5 players") && err.contains("4, 6 or 8"), "{err}");
}

/// A reader that goes away before the report is written (`wonders simulate | head`, or here a
/// pipe closed before anything is read) ends the command quietly: exit status 0, nothing on
/// standard error (it used to panic on the broken pipe with status 101).
#[test]
fn a_closed_pipe_is_not_an_error() {
    for args in [
        &["simulate", "--players", "3", "--games", "50", "--seed", "1"][..],
        &["simulate", "--players", "3", "--games", "50", "--json"],
        &["arena", "--players", "3", "--games", "3", "--bots", "random,random,random"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_wonders"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("the binary runs");
        // Close the reading end at once: every write to standard output fails with EPIPE.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {:?}, stderr: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stderr.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}
