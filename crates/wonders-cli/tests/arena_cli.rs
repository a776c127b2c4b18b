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
