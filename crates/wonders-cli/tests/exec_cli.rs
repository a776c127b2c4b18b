//! External bots (`exec:COMMAND`) in `wonders arena` and `wonders play`, and `wonders
//! bot-protocol`, run as a user would. The bots are Python scripts (python3 is on the development
//! machine and in CI).

use serde_json::Value;
use std::process::{Command, Output};

fn wonders(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wonders")).args(args).output().expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn root() -> String {
    format!("{}/../..", env!("CARGO_MANIFEST_DIR"))
}

fn example_bot() -> String {
    format!("exec:python3 {}/examples/bots/random_bot.py", root())
}

fn fixture(mode: &str) -> String {
    format!("exec:python3 {}/crates/wonders-bots/tests/fixtures/fixture_bot.py {mode}", root())
}

fn bot<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["bots"].as_array().unwrap().iter().find(|b| b["name"] == name).expect("the bot is reported")
}

#[test]
fn bot_protocol_prints_the_protocol_document() {
    let out = wonders(&["bot-protocol"]);
    assert!(out.status.success());
    let doc = std::fs::read_to_string(format!("{}/docs/src/research/bot-protocol.md", root())).unwrap();
    assert_eq!(text(&out.stdout), doc);
    for needle in [r#"{"type": "hello", "protocol": 1"#, r#""type": "act""#, "game_over", "| `timeout` |"] {
        assert!(doc.contains(needle), "{needle}");
    }
}

#[test]
fn the_example_bot_plays_in_the_arena_without_fault() {
    let list = format!("{},random,random", example_bot());
    let out = wonders(&["arena", "--players", "3", "--bots", &list, "--games", "3", "--seed", "2", "--json"]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ext = bot(&report, &example_bot());
    assert_eq!(ext["seat_games"], 3);
    let zero = serde_json::json!({"handshake": 0, "crash": 0, "timeout": 0, "illegal": 0,
                                  "malformed": 0, "fallback_moves": 0});
    assert_eq!(ext["faults"], zero);
    assert_eq!(bot(&report, "random")["faults"], zero);
}

#[test]
fn a_crashing_bot_is_reported_and_the_arena_finishes() {
    let list = format!("{},random,random", fixture("crash"));
    let out = wonders(&["arena", "-p", "3", "-b", &list, "-g", "3", "-s", "5", "--threads", "1", "--json"]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let faults = &bot(&report, &fixture("crash"))["faults"];
    // One crash per game, at its 3rd decision; the fallback plays every later move (at least 16
    // of the 18 turns of a game).
    assert_eq!(faults["crash"], 3);
    assert_eq!(faults["timeout"].as_u64().unwrap() + faults["illegal"].as_u64().unwrap(), 0);
    assert!(faults["fallback_moves"].as_u64().unwrap() >= 3 * 16, "{faults}");
    let stderr = text(&out.stderr);
    assert_eq!(stderr.matches("(Age 1, turn 3, decision 3): crash: it exited (exit status: 3)").count(), 3);
    assert!(stderr.contains("the fallback (heuristic) plays the rest of the game"), "{stderr}");

    // The text report says it too.
    let out = wonders(&["arena", "-p", "3", "-b", &list, "-g", "1", "-s", "5"]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains(&format!("faults of {}: 1 crash; ", fixture("crash"))), "{stdout}");
}

#[test]
fn a_bot_failing_its_handshake_is_refused_before_any_game() {
    let list = format!("{},random,random", fixture("bad_hello"));
    let out = wonders(&["arena", "-p", "3", "-b", &list, "-g", "3"]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("failed its handshake") && stderr.contains("is not a hello"), "{stderr}");
    assert!(out.stdout.is_empty(), "no game was played");
    let out = wonders(&["play", "--auto", "-p", "3", "-b", "exec:./no-such-bot"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("cannot start `./no-such-bot`"), "{}", text(&out.stderr));
}

#[test]
fn play_runs_an_external_bot_and_passes_its_stderr_through() {
    let list = format!("{},random,heuristic", fixture("first"));
    let out = wonders(&["play", "--auto", "-p", "3", "--seed", "8", "-b", &list]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    // Lines fit 80 columns: the bot's long name goes on to the next line, indented.
    let stdout = text(&out.stdout).replace("\n    ", " ");
    assert!(stdout.contains(&format!("bot: {}", fixture("first"))), "{stdout}");
    assert!(stdout.contains("Final scores:"), "{stdout}");
    // The bot was told the game is over, and what it wrote on its standard error came through.
    let stderr = text(&out.stderr);
    let prefix = format!("[seat 0 {}] fixture-first: game over, rank ", fixture("first"));
    assert!(stderr.contains(&prefix), "{stderr}");
}

/// `wonders arena --json` with `args`: its report, after checking it ran without error or panic.
fn arena_report(args: &[&str]) -> (Value, String) {
    let out = wonders(&[&["arena", "--json"][..], args].concat());
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{args:?}: {:?}, stderr: {stderr}", out.status);
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    (serde_json::from_slice(&out.stdout).unwrap(), stderr)
}

/// The kinds of game of the expansions and variants: `--expansions`, players, `--teams`, and the
/// expansions as the engine's hello names them.
const KINDS: [(&str, &str, bool, &str); 4] = [
    ("armada", "4", false, r#"["armada"]"#),
    ("edifice", "4", false, r#"["edifice"]"#),
    ("armada,edifice", "5", false, r#"["edifice", "armada"]"#),
    ("armada", "8", true, r#"["armada"]"#),
];

/// The example bot and a bot answering with wire actions play whole Armada, Edifice,
/// Armada+Edifice and 8-player team games in the arena, without a fault and with real results
/// (an external bot in an expansion game used to panic the whole arena), and the handshake
/// names the expansions and the teams.
#[test]
fn external_bots_play_whole_expansion_and_team_games_in_the_arena() {
    for (expansions, players, teams, hello) in KINDS {
        let n: usize = players.parse().unwrap();
        let mut list = vec![example_bot(), fixture("by_action")];
        list.resize(n, "random".to_string());
        let list = list.join(",");
        let mut args = vec!["-p", players, "-b", &list, "-g", "2", "-s", "3", "--expansions", expansions];
        if teams {
            args.push("--teams");
        }
        let (report, stderr) = arena_report(&args);
        assert_eq!(report["games"], 2, "{args:?}");
        let zero = serde_json::json!({"handshake": 0, "crash": 0, "timeout": 0, "illegal": 0,
                                      "malformed": 0, "fallback_moves": 0});
        for name in [example_bot(), fixture("by_action")] {
            let b = bot(&report, &name);
            assert_eq!(b["seat_games"], 2, "{args:?}: {name}");
            assert_eq!(b["faults"], zero, "{args:?}: {name}: {stderr}");
            assert!(b["mean"]["total"].as_f64().unwrap() > 0.0, "{args:?}: {name}: {b}");
        }
        // The engine's hello, as the bot wrote it on its standard error (keys sorted).
        let line = stderr.lines().find(|l| l.contains("engine hello: ")).expect("the bot wrote its hello");
        assert!(line.contains(&format!("\"expansions\": {hello}")), "{line}");
        assert!(line.contains(&format!("\"teams\": {teams}")), "{line}");
        assert!(line.contains(&format!("\"players\": {players}")), "{line}");
    }

    // `wonders play` too, with both expansions.
    let list = format!("{},random,random", example_bot());
    let out =
        wonders(&["play", "--auto", "-p", "3", "--seed", "5", "--expansions", "armada,edifice", "-b", &list]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Final scores:"), "{}", text(&out.stdout));
    assert!(!text(&out.stderr).contains("wonders: bot"), "no fault: {}", text(&out.stderr));
}

/// Faults never stop a game of any kind: in every expansion and in teams, a bot that answers
/// garbage loses only its faulty moves, and one that crashes the rest of its games, to the
/// fallback; the arena finishes and reports them.
#[test]
fn faulty_bots_never_stop_expansion_or_team_games() {
    for (expansions, players, teams, _) in KINDS {
        let n: usize = players.parse().unwrap();
        let mut list = vec![fixture("faulty"), fixture("crash")];
        list.resize(n, "random".to_string());
        let list = list.join(",");
        let mut args = vec!["-p", players, "-b", &list, "-g", "2", "-s", "4", "--expansions", expansions];
        if teams {
            args.push("--teams");
        }
        let (report, stderr) = arena_report(&args);
        // Two games each: the faulty bot's decisions 2 to 6 are refused (3 illegal, 2 malformed),
        // the crashing bot exits at its 3rd decision and the fallback plays the rest.
        let faulty = &bot(&report, &fixture("faulty"))["faults"];
        assert_eq!(faulty["illegal"], 2 * 3, "{args:?}: {faulty}");
        assert_eq!(faulty["malformed"], 2 * 2, "{args:?}: {faulty}");
        assert_eq!(faulty["fallback_moves"], 2 * 5, "{args:?}: {faulty}");
        let crash = &bot(&report, &fixture("crash"))["faults"];
        assert_eq!(crash["crash"], 2, "{args:?}: {crash}");
        assert!(crash["fallback_moves"].as_u64().unwrap() >= 2 * 16, "{args:?}: {crash}");
        assert_eq!(stderr.matches("crash: it exited (exit status: 3)").count(), 2, "{stderr}");
        for b in report["bots"].as_array().unwrap() {
            assert!(b["mean"]["total"].as_f64().unwrap() > 0.0, "{args:?}: {b}");
        }
    }
}
