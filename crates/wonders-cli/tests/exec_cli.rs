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
    let doc = std::fs::read_to_string(format!("{}/docs/bot-protocol.md", root())).unwrap();
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
    let stdout = text(&out.stdout);
    assert!(stdout.contains(&format!("bot: {}", fixture("first"))), "{stdout}");
    assert!(stdout.contains("Final scores:"), "{stdout}");
    // The bot was told the game is over, and what it wrote on its standard error came through.
    let stderr = text(&out.stderr);
    let prefix = format!("[seat 0 {}] fixture-first: game over, rank ", fixture("first"));
    assert!(stderr.contains(&prefix), "{stderr}");
}
