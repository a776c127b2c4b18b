//! `wonders arena`, run as a user would.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn wonders(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wonders")).args(args).output().expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn json(args: &[&str]) -> Value {
    let out = wonders(args);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON on standard output")
}

fn bot<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["bots"].as_array().unwrap().iter().find(|b| b["name"] == name).expect("the bot is reported")
}

#[test]
fn seats_rotate_and_statistics_add_up() {
    let args =
        ["arena", "--players", "3", "--bots", "heuristic,random,random", "--games", "9", "--seed", "4"];
    let mut with_json = args.to_vec();
    with_json.extend(["--json", "--threads", "2"]);
    let report = json(&with_json);
    assert_eq!(report["games"], 9);
    assert_eq!(report["bots"].as_array().unwrap().len(), 2, "a bot named twice is reported once");
    let (h, r) = (bot(&report, "heuristic"), bot(&report, "random"));
    assert_eq!((h["seats"].as_u64(), h["seat_games"].as_u64()), (Some(1), Some(9)));
    assert_eq!((r["seats"].as_u64(), r["seat_games"].as_u64()), (Some(2), Some(18)));
    let wins = h["wins"].as_u64().unwrap() + r["wins"].as_u64().unwrap();
    assert!(wins >= 9, "every game has a winner");
    for b in [h, r] {
        let share = b["win_share"].as_f64().unwrap();
        let n = b["seat_games"].as_f64().unwrap();
        assert!((share - b["wins"].as_f64().unwrap() / n).abs() < 1e-12);
        let ci = b["win_share_ci"].as_array().unwrap();
        let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
        assert!(lo <= share && share <= hi && 0.0 <= lo && hi <= 1.0, "{lo} {share} {hi}");
        let m = &b["mean"];
        let parts: f64 =
            ["military", "treasury", "wonder", "civilian", "science", "commercial", "guilds", "edifice"]
                .iter()
                .map(|c| m[c].as_f64().unwrap())
                .sum();
        assert!((parts - m["total"].as_f64().unwrap()).abs() < 1e-9);
        let rank = b["mean_rank"].as_f64().unwrap();
        assert!((1.0..=3.0).contains(&rank));
    }
    // The heuristic beats random play.
    assert!(h["mean"]["total"].as_f64().unwrap() > r["mean"]["total"].as_f64().unwrap());
    // The same seed gives the same report whatever the number of threads.
    let mut one_thread = args.to_vec();
    one_thread.extend(["--json", "--threads", "1"]);
    let again = json(&one_thread);
    assert_eq!(again["bots"], report["bots"]);
    // The text report names both bots and the parity.
    let out = wonders(&args);
    let stdout = text(&out.stdout);
    assert!(out.status.success());
    assert!(
        stdout.contains("heuristic") && stdout.contains("random") && stdout.contains("parity is 33.3%"),
        "{stdout}"
    );
}

#[test]
fn search_with_iterations_is_reproducible_and_plots() {
    let plot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{}-arena.svg", std::process::id()));
    let plot_arg = plot.to_str().unwrap();
    let args = [
        "arena",
        "-p",
        "3",
        "--bots",
        "search:3it,heuristic,random",
        "-g",
        "3",
        "--json",
        "--plot",
        plot_arg,
    ];
    let a = json(&args);
    let b = json(&args);
    assert_eq!(a["bots"], b["bots"]);
    for name in ["search:3it", "heuristic", "random"] {
        assert_eq!(bot(&a, name)["seat_games"], 3);
    }
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.contains("<svg") && svg.contains("search:3it") && svg.contains("heuristic"));
    let _ = std::fs::remove_file(&plot);
}

#[test]
fn bad_lists_are_refused_with_a_reason() {
    for (bots, why) in [
        ("heuristic,random", "exactly one per seat"),
        ("heuristic,oracle,random", "unknown bot `oracle`"),
        ("heuristic,search:0it,random", "must be positive"),
        ("heuristic,,random", "empty name"),
    ] {
        let out = wonders(&["arena", "--players", "3", "--bots", bots, "--games", "3"]);
        assert!(!out.status.success(), "{bots}");
        assert!(text(&out.stderr).contains(why), "{bots}: {}", text(&out.stderr));
    }
    let out = wonders(&["arena", "--players", "2", "--edition", "2e", "--bots", "random,random"]);
    assert!(!out.status.success());
    let help = text(&wonders(&["arena", "--help"]).stdout);
    for flag in ["--players", "--bots", "--games", "--seed", "--threads", "--json", "--plot", "Exactly N"] {
        assert!(help.contains(flag), "{flag}");
    }
}

#[test]
fn teams_stay_together_and_win_together() {
    // Teams heuristic+heuristic against random+random; the rotation moves by whole teams, so over
    // a group of 2 games each team plays seats 0+1 and 2+3 once.
    let args =
        ["arena", "--teams", "--players", "4", "--bots", "heuristic,heuristic,random,random", "--games", "4"];
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let report = json(&with_json);
    assert_eq!(report["teams"], true);
    let (h, r) = (bot(&report, "heuristic"), bot(&report, "random"));
    assert_eq!((h["seat_games"].as_u64(), r["seat_games"].as_u64()), (Some(8), Some(8)));
    // Teammates are the same bot, so each game's win is counted twice for one bot (or shared).
    let wins = h["wins"].as_u64().unwrap() + r["wins"].as_u64().unwrap();
    assert!(wins >= 8 && wins % 2 == 0, "{wins}");
    let out = wonders(&args);
    let stdout = text(&out.stdout);
    assert!(out.status.success());
    assert!(
        stdout.contains("heuristic+heuristic, random+random") && stdout.contains("parity is 50.0%"),
        "{stdout}"
    );
}

#[test]
fn the_text_report_fits_80_columns_with_the_categories_in_play() {
    // Piped, the report fits 80 columns: the win shares in one table, the mean points by
    // category in a second; the categories of expansions not in play are left out.
    for (expansions, has, hasnt) in [
        ("", &["mil", "guild"][..], &["edif", "naval", "fleet", "isle"][..]),
        ("edifice", &["edif"], &["naval", "fleet", "isle"]),
        ("armada", &["naval", "fleet", "isle"], &["edif"]),
        ("armada,edifice", &["edif", "naval", "fleet", "isle"], &[]),
    ] {
        let mut args = vec!["arena", "-p", "3", "--bots", "heuristic,random,random", "-g", "3"];
        if !expansions.is_empty() {
            args.extend(["--expansions", expansions]);
        }
        let out = wonders(&args);
        assert!(out.status.success(), "stderr: {}", text(&out.stderr));
        let stdout = text(&out.stdout);
        for line in stdout.lines() {
            assert!(line.chars().count() <= 80, "{expansions}: over 80 columns: {line}");
        }
        let head = stdout.lines().find(|l| l.starts_with("bot ")).unwrap();
        assert!(head.contains("win share (95% CI)") && !head.contains("total"), "{stdout}");
        let at = stdout.find("mean points by category:\n").expect("a second table");
        let categories: Vec<&str> = stdout[at..].lines().nth(1).unwrap().split_whitespace().collect();
        assert_eq!((categories[0], categories.last().copied()), ("bot", Some("total")), "{stdout}");
        assert!(has.iter().all(|c| categories.contains(c)), "{expansions}: {stdout}");
        assert!(!hasnt.iter().any(|c| categories.contains(c)), "{expansions}: {stdout}");
    }
}

/// The Weng-Lin update (Bradley-Terry, full pairing: Weng and Lin's Algorithm 1, β = 25/6, κ =
/// 10⁻⁶) of one bot holding `seats` seats, each compared with one opponent rated `(mu_o, s_o)`
/// with result `score` (1 win, 0 loss).
fn weng_lin(me: (f64, f64), other: (f64, f64), seats: f64, score: f64) -> (f64, f64) {
    let ((mu, s), (mu_o, s_o)) = (me, other);
    let c = (s * s + s_o * s_o + 2.0 * (25.0f64 / 6.0).powi(2)).sqrt();
    let p = (mu / c).exp() / ((mu / c).exp() + (mu_o / c).exp());
    let omega = seats * s * s / c * (score - p);
    let delta = seats * (s / c) * s * s / (c * c) * p * (1.0 - p);
    (mu + omega, s * (1.0 - delta).max(1e-6).sqrt())
}

#[test]
fn ratings_follow_every_game_in_order() {
    let args =
        ["arena", "--players", "3", "--bots", "heuristic,random,random", "--games", "9", "--seed", "4"];
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let report = json(&with_json);
    let (h, r) = (bot(&report, "heuristic"), bot(&report, "random"));
    // The heuristic won every game outright (it always does against random play: 100% of 2,000
    // games in the guide), so each game is a win of its one seat over each random seat; the two
    // random seats are not compared with each other (one bot).
    assert_eq!(
        (h["wins"].as_u64(), h["mean_rank"].as_f64(), r["wins"].as_u64()),
        (Some(9), Some(1.0), Some(0))
    );
    let (mut hr, mut rr) = ((25.0, 25.0 / 3.0), (25.0, 25.0 / 3.0));
    for _ in 0..9 {
        (hr, rr) = (weng_lin(hr, rr, 2.0, 1.0), weng_lin(rr, hr, 2.0, 0.0));
    }
    for (b, (mu, sigma)) in [(h, hr), (r, rr)] {
        let got = (b["rating"].as_f64().unwrap(), b["sigma"].as_f64().unwrap());
        assert!((got.0 - mu).abs() < 1e-9 && (got.1 - sigma).abs() < 1e-9, "{got:?} against {mu} ± {sigma}");
        let conservative = b["conservative_rating"].as_f64().unwrap();
        assert!((conservative - (mu - 3.0 * sigma)).abs() < 1e-9);
        assert_eq!(b["games"], 9);
    }
    assert!(hr.0 > 30.0 && rr.0 < 20.0, "{hr:?} {rr:?}");
    // The text report has them too, best first.
    let out = wonders(&args);
    let stdout = text(&out.stdout);
    assert!(out.status.success());
    let at = stdout.find("ratings (Weng-Lin").expect("a ratings table");
    let rows: Vec<Vec<&str>> = stdout[at..].lines().skip(2).map(|l| l.split_whitespace().collect()).collect();
    let expect = |name: &str, (mu, s): (f64, f64)| {
        vec![
            name.to_string(),
            format!("{mu:.2}"),
            format!("{s:.2}"),
            format!("{:.2}", mu - 3.0 * s),
            "9".into(),
        ]
    };
    assert_eq!(rows[0], expect("heuristic", hr), "{stdout}");
    assert_eq!(rows[1], expect("random", rr), "{stdout}");
}

#[test]
fn a_pool_seats_every_combination_and_rates_every_bot() {
    // 4 bots, 3 seats: C(4, 3) = 4 combinations, each seated 3 times on one deal: 12 games, 9 for
    // each bot, every pair meeting in 2 combinations.
    let args = [
        "arena",
        "--players",
        "3",
        "--pool",
        "random,card-first,heuristic,search:3it",
        "--games",
        "12",
        "--seed",
        "2",
        "--json",
    ];
    let mut two = args.to_vec();
    two.extend(["--threads", "2"]);
    let report = json(&two);
    assert_eq!(report["pool"], true);
    assert_eq!(report["bots"].as_array().unwrap().len(), 4);
    for name in ["random", "card-first", "heuristic", "search:3it"] {
        let b = bot(&report, name);
        assert_eq!(
            (b["games"].as_u64(), b["seat_games"].as_u64(), b["seats"].as_u64()),
            (Some(9), Some(9), Some(1))
        );
        let (mu, s) = (b["rating"].as_f64().unwrap(), b["sigma"].as_f64().unwrap());
        assert!(s < 25.0 / 3.0 && (b["conservative_rating"].as_f64().unwrap() - (mu - 3.0 * s)).abs() < 1e-9);
    }
    let rating = |name| bot(&report, name)["rating"].as_f64().unwrap();
    assert!(rating("heuristic") > rating("random") && rating("heuristic") > rating("card-first"));
    // Whatever the threads, the same games in the same order: the same ratings.
    let mut one = args.to_vec();
    one.extend(["--threads", "1"]);
    assert_eq!(json(&one)["bots"], report["bots"]);
    // The text names the pool; 10 games do not complete the cycle of 12, and it says so.
    let out = wonders(&["arena", "-p", "3", "--pool", "random,card-first,heuristic,search:3it", "-g", "10"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("pool: random, card-first, heuristic, search:3it;"), "{stdout}");
    assert!(stdout.contains("not a multiple of 12"), "{stdout}");
}

#[test]
fn bad_pools_are_refused_with_a_reason() {
    for (extra, why) in [
        (&["--pool", "random,oracle,heuristic"][..], "unknown bot `oracle`"),
        (&["--pool", "random,heuristic"], "2 bots for 3 players"),
        (&["--pool", "random,heuristic,Random"], "names `random` twice"),
        (&["--pool", "random,heuristic,card-first", "--bots", "random,random,random"], "cannot be used with"),
        (&[], "--bots"),
    ] {
        let mut args = vec!["arena", "--players", "3", "--games", "3"];
        args.extend(extra);
        let out = wonders(&args);
        assert!(!out.status.success(), "{extra:?}");
        assert!(text(&out.stderr).contains(why), "{extra:?}: {}", text(&out.stderr));
    }
    let out =
        wonders(&["arena", "--players", "4", "--teams", "--pool", "random,heuristic,card-first,search:3it"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("for teams, give the seats with --bots"), "{}", text(&out.stderr));
}
