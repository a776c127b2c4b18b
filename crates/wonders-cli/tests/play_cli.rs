//! `wonders play` and `wonders replay`, run as a user would.

use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn wonders(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wonders"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    // The game may end (or fail) before reading everything: a broken pipe is fine here.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    child.wait_with_output().expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn temp(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{}-{name}", std::process::id()))
}

/// The score sheet: from the `Final scores:` line to the winner line.
fn sheet(stdout: &str) -> String {
    let start = stdout.find("Final scores:").expect("a score sheet");
    let rest = &stdout[start..];
    let end = rest.find("Winner:").or_else(|| rest.find("Shared win:")).expect("a winner line");
    let line_end = rest[end..].find('\n').map_or(rest.len(), |i| end + i);
    rest[..line_end].to_string()
}

fn totals(scores: &Value) -> Vec<i64> {
    scores
        .as_array()
        .expect("a list of scores")
        .iter()
        .map(|s| s["total"].as_i64().expect("a total"))
        .collect()
}

#[test]
fn auto_game_writes_a_record_that_replays_to_the_same_scores() {
    let record = temp("auto-5.json");
    let record_arg = record.to_str().unwrap();
    let out = wonders(&["play", "--auto", "--seed", "5", "--players", "3", "--record", record_arg], "");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    assert!(stdout.contains("seed 5"));
    assert!(stdout.contains("-- Age I, turn 1:") && stdout.contains("-- Age III, turn 6:"));
    assert!(stdout.contains("End of Age III"));
    let played_sheet = sheet(&stdout);
    for category in ["military", "treasury", "wonder", "civilian", "science", "commercial", "guilds", "total"]
    {
        assert!(played_sheet.contains(category), "{played_sheet}");
    }

    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(saved["players"], 3);
    assert_eq!(saved["seed"], 5);
    let recorded = totals(&saved["scores"]);
    assert_eq!(recorded.len(), 3);

    // The text replay reproduces the log and the sheet.
    let replay = wonders(&["replay", record_arg], "");
    assert!(replay.status.success(), "stderr: {}", text(&replay.stderr));
    let replayed = text(&replay.stdout);
    assert_eq!(sheet(&replayed), played_sheet);
    assert!(replayed.contains("-- Age III, turn 6:"));

    // The JSON replay gives the same totals, with ranks.
    let json = wonders(&["replay", record_arg, "--json"], "");
    assert!(json.status.success(), "stderr: {}", text(&json.stderr));
    let v: Value = serde_json::from_str(&text(&json.stdout)).unwrap();
    assert_eq!(v["over"], true);
    assert_eq!(totals(&v["scores"]), recorded);
    assert!(v["scores"].as_array().unwrap().iter().any(|s| s["rank"] == 1));

    // From standard input too.
    let piped = wonders(&["replay", "-", "--json"], &std::fs::read_to_string(&record).unwrap());
    assert!(piped.status.success());
    assert_eq!(totals(&serde_json::from_str::<Value>(&text(&piped.stdout)).unwrap()["scores"]), recorded);

    // Same seed, same game.
    let again = wonders(&["play", "--auto", "--seed", "5", "--players", "3"], "");
    assert_eq!(sheet(&text(&again.stdout)), played_sheet);
    let _ = std::fs::remove_file(&record);
}

#[test]
fn free_city_and_second_edition_games_record_and_replay() {
    for (i, args) in [
        &["--players", "2", "--edition", "1e"][..],
        &["--players", "3", "--edition", "2e"],
        &["--players", "7", "--edition", "2e"],
    ]
    .into_iter()
    .enumerate()
    {
        let record = temp(&format!("kinds-{i}.json"));
        let mut cmd = vec!["play", "--auto", "--seed", "13", "--record", record.to_str().unwrap()];
        cmd.extend_from_slice(args);
        let out = wonders(&cmd, "");
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        if args[1] == "2" {
            assert!(stdout.contains("the Free City ("), "{stdout}");
        } else {
            assert!(stdout.contains("-- Wonder sides:"), "{stdout}");
        }
        let saved: Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
        let replay = wonders(&["replay", record.to_str().unwrap(), "--json"], "");
        assert!(replay.status.success(), "{args:?}: {}", text(&replay.stderr));
        let v: Value = serde_json::from_str(&text(&replay.stdout)).unwrap();
        assert_eq!(totals(&v["scores"]), totals(&saved["scores"]));
        let replay = wonders(&["replay", record.to_str().unwrap()], "");
        assert_eq!(sheet(&text(&replay.stdout)), sheet(&stdout), "{args:?}");
        let _ = std::fs::remove_file(&record);
    }
}

#[test]
fn a_human_can_play_the_free_city_and_choose_a_side() {
    let out = wonders(&["play", "--players", "2", "--seed", "4"], &"1\n".repeat(600));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    assert!(stdout.contains("Choose for the Free City"), "{stdout}");
    assert!(stdout.contains("Final scores:"));
    let out = wonders(&["play", "--edition", "2e", "--seed", "4"], &"2\n1\n".repeat(600));
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    assert!(stdout.contains("choose the side of your wonder board"), "{stdout}");
    assert!(stdout.contains("you (seat 0,") && stdout.contains("chose side Night"), "{stdout}");
    assert!(stdout.contains("Final scores:"));
}

#[test]
fn scripted_human_game_finishes() {
    let input = "1\n".repeat(400);
    let record = temp("human-9.json");
    let out = wonders(
        &["play", "--seed", "9", "--players", "4", "--seat", "2", "--record", record.to_str().unwrap()],
        &input,
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    assert!(stdout.contains("you (seat 2"));
    assert!(stdout.contains("Your hand — pick a card"));
    assert!(stdout.contains("\nLeft: seat 3 (") && stdout.contains("\nRight: seat 1 ("));
    assert!(stdout.contains("] discard"));
    assert!(stdout.contains("Final scores:"));
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let replay = wonders(&["replay", record.to_str().unwrap(), "--json"], "");
    assert!(replay.status.success(), "stderr: {}", text(&replay.stderr));
    let replayed: Value = serde_json::from_str(&text(&replay.stdout)).unwrap();
    assert_eq!(totals(&replayed["scores"]), totals(&saved["scores"]));
    let _ = std::fs::remove_file(&record);
}

/// The screens of a game: the text from each prompt to the next (the answer, the last turn's log,
/// the situation, the hand or the card's ways, and the next prompt's line), with the numbers the
/// next prompt offers (`Your choice (1-9, …`, `Your card (1-7, …`, `Your choice (0-3, …`).
fn turns(stdout: &str) -> Vec<(&str, usize, usize)> {
    let parts: Vec<&str> = stdout.split("q to quit): ").collect();
    let range = |part: &str| -> Option<(usize, usize)> {
        let (low, high) = part.rsplit('(').next()?.split(',').next()?.split_once('-')?;
        Some((low.parse().ok()?, high.parse().ok()?))
    };
    (1..parts.len()).filter_map(|i| range(parts[i]).map(|(low, high)| (parts[i], low, high))).collect()
}

#[test]
fn bad_input_reprompts() {
    let input = format!("x\n0\n1000\n\n{}", "1\n".repeat(400));
    let out = wonders(&["play", "--seed", "3", "--players", "3"], &input);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    assert!(stdout.contains("`x` is not a number"));
    assert!(stdout.contains("0 is out of range"));
    assert!(stdout.contains("1000 is out of range"));
    assert!(stdout.contains("Final scores:"));
}

#[test]
fn end_of_input_mid_game_fails_cleanly() {
    let out = wonders(&["play", "--seed", "3", "--players", "3"], "1\n1\n1\n");
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("standard input ended"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // Quitting on purpose is also a clean failure.
    let out = wonders(&["play", "--seed", "3", "--players", "3"], "q\n");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("abandoned"));
}

#[test]
fn bad_arguments_are_refused_with_a_message() {
    let out = wonders(&["play", "--players", "9"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("2..=8"), "{}", text(&out.stderr));
    let out = wonders(&["play", "--players", "2", "--edition", "2e", "--auto"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("Free City variant is 1st edition only"), "{}", text(&out.stderr));
    let out = wonders(&["play", "--edition", "3e"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("unknown edition"), "{}", text(&out.stderr));
    let out = wonders(&["play", "--players", "4", "--seat", "4", "--auto"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("--seat 4 is out of range"), "{}", text(&out.stderr));
    let out = wonders(&["play", "--seed", "minus-one"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("--seed"));
    let out = wonders(&["play", "--auto", "--record", "/nonexistent-dir/x.json"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("cannot write"), "{}", text(&out.stderr));
}

#[test]
fn a_record_that_does_not_replay_names_the_action() {
    let record = temp("tampered.json");
    let out = wonders(
        &["play", "--auto", "--seed", "21", "--players", "4", "--record", record.to_str().unwrap()],
        "",
    );
    assert!(out.status.success());
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();

    // An Age III card cannot be played in the first turn.
    v["actions"][2] = serde_json::json!({"seat": 2, "type": "build", "card": "Palace"});
    v["scores"] = Value::Null;
    let bad = temp("tampered-action.json");
    std::fs::write(&bad, serde_json::to_string(&v).unwrap()).unwrap();
    let out = wonders(&["replay", bad.to_str().unwrap()], "");
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("action 2"), "{stderr}");
    assert!(stderr.contains("does not replay"), "{stderr}");

    // Wrong recorded scores.
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    v["scores"][0]["total"] = serde_json::json!(999);
    std::fs::write(&bad, serde_json::to_string(&v).unwrap()).unwrap();
    let out = wonders(&["replay", bad.to_str().unwrap(), "--json"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("scores differ"), "{}", text(&out.stderr));

    // Not a record at all, and a missing file.
    let out = wonders(&["replay", "-"], "{\"hello\": 1}");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("not a game record"), "{}", text(&out.stderr));
    let out = wonders(&["replay", "/nonexistent/record.json"], "");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("reading /nonexistent/record.json"), "{}", text(&out.stderr));

    // A record cut short replays up to where it stops.
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    v["actions"].as_array_mut().unwrap().truncate(10);
    v["scores"] = Value::Null;
    std::fs::write(&bad, serde_json::to_string(&v).unwrap()).unwrap();
    let out = wonders(&["replay", bad.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("stops before the end"));
    for f in [record, bad] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn every_command_has_help() {
    for cmd in [&["--help"][..], &["play", "--help"], &["simulate", "--help"], &["replay", "--help"]] {
        let out = wonders(cmd, "");
        assert!(out.status.success(), "{cmd:?}");
        assert!(text(&out.stdout).contains("Usage"), "{cmd:?}");
    }
    let help = text(&wonders(&["play", "--help"], "").stdout);
    for flag in ["--players", "--seat", "--seed", "--record", "--auto"] {
        assert!(help.contains(flag), "{flag}");
    }
}

#[test]
fn an_armada_game_replays_with_the_same_log_and_age_end_blocks() {
    // 8 players with Armada (000 8人遊戲規則): the text replay prints the same log lines as the
    // game did — the Armada events, the incursions and each Age's naval conflict — within 80
    // columns for every Armada line.
    let record = temp("armada-8.json");
    let record_arg = record.to_str().unwrap();
    let out = wonders(
        &[
            "play",
            "--auto",
            "--seed",
            "3",
            "--players",
            "8",
            "--expansions",
            "armada",
            "--record",
            record_arg,
        ],
        "",
    );
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let played = text(&out.stdout);
    let replay = wonders(&["replay", record_arg], "");
    assert!(replay.status.success(), "stderr: {}", text(&replay.stderr));
    let replayed = text(&replay.stdout);
    let log = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.starts_with("-- ") || l.starts_with("== ") || l.starts_with("   "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(log(&replayed), log(&played));
    for age in ["I", "II", "III"] {
        let head = format!("== End of Age {age}: naval conflict (");
        assert_eq!(played.matches(&head).count(), 1, "{head}");
    }
    assert!(
        played.contains("== End of Age III: naval conflict (strongest +7, 2nd +5, 3rd +3, weakest -3) ==")
    );
    // One naval line per city taking part, or one saying it stayed out, in each Age.
    let naval =
        played.lines().filter(|l| l.contains(": naval strength ") || l.contains("stayed out of")).count();
    assert_eq!(naval, 8 * 3, "{played}");
    // 8 players: 6 turns an Age (armada.md §2.2).
    assert!(played.contains("-- Age III, turn 6:") && !played.contains("-- Age III, turn 7:"));
    // A naval construction joins the line of the play it comes with (`…; red ship 0→1: …`).
    assert!(log(&played).iter().any(|l| l.contains(" ship 0→1: ")), "ships moved");
    // Armada's log lines fit 80 display columns (a Chinese island name takes two per character).
    use unicode_width::UnicodeWidthStr;
    let armada_words =
        [" ship ", "naval strength", " levied ", " lost ", " owed ", " pirated", "island", "incursion"];
    for l in log(&played).iter().filter(|l| armada_words.iter().any(|w| l.contains(w))) {
        assert!(l.width() <= 80, "{l:?}");
    }
    let _ = std::fs::remove_file(&record);
}

/// The screens of a piped game: what is printed from one prompt to the next, the next prompt's
/// line included (the first screen: the game's opening up to the first prompt). What follows the
/// last prompt (the game's end and its score sheet) is no turn and is left out. Each screen is
/// its number of lines and its text.
fn screens(stdout: &str) -> Vec<(usize, &str)> {
    let parts: Vec<&str> = stdout.split("q to quit): ").collect();
    let mut out = Vec::new();
    for (i, part) in parts.iter().enumerate().take(parts.len().saturating_sub(1)) {
        // After a prompt, its answer's line is the prompt's own (counted with the screen
        // before); the opening has no answer line but adds the prompt's line.
        let lines = part.matches('\n').count() + usize::from(i == 0);
        out.push((lines, *part));
    }
    out
}

/// The median of `v` (sorted here), halves kept: `32.5`.
fn median(v: &mut [usize]) -> f64 {
    v.sort_unstable();
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2] as f64,
        n => (v[n / 2 - 1] + v[n / 2]) as f64 / 2.0,
    }
}

/// Every kind of game, played whole through the binary as `yes 1 | wonders play -s SEED …`
/// over seeds 1 to 10: no screen (from one prompt to the next) over 45 lines, no line over 80
/// display columns (a Chinese name takes two a character), every game to its score sheet, and
/// every number a prompt offers shown once on its screen. Prints the median and the most lines of
/// a turn (a screen showing the situation, `=== Age …`) by kind:
/// `cargo test -p wonders-cli --test play_cli every_kind_of_game -- --nocapture`.
#[test]
fn every_kind_of_game_fits_an_80_by_45_terminal() {
    use unicode_width::UnicodeWidthStr;
    let kinds: [(&str, &[&str]); 15] = [
        ("2p Free City", &["-p", "2"]),
        ("3p", &["-p", "3"]),
        ("4p", &["-p", "4"]),
        ("5p", &["-p", "5"]),
        ("6p", &["-p", "6"]),
        ("7p", &["-p", "7"]),
        ("3p 2e", &["-p", "3", "-e", "2e"]),
        ("7p 2e", &["-p", "7", "-e", "2e"]),
        ("4p teams", &["-p", "4", "--teams"]),
        ("4p Edifice", &["-p", "4", "--expansions", "edifice"]),
        ("7p Edifice", &["-p", "7", "--expansions", "edifice"]),
        ("4p Armada", &["-p", "4", "--expansions", "armada"]),
        ("8p Armada teams", &["-p", "8", "--expansions", "armada", "--teams"]),
        ("7p Armada+Edifice 2e", &["-p", "7", "-e", "2e", "--expansions", "armada,edifice"]),
        ("6p Armada+Edifice teams", &["-p", "6", "--expansions", "armada,edifice", "--teams"]),
    ];
    let mut faults: Vec<String> = Vec::new();
    let mut table = String::from("kind                       turns  median  max | any screen max\n");
    for (kind, args) in kinds {
        let (mut turn_lines, mut most) = (Vec::new(), 0);
        for seed in 1..=10 {
            let seed = seed.to_string();
            let mut cmd = vec!["play", "-s", &seed];
            cmd.extend_from_slice(args);
            let out = wonders(&cmd, &"1\n".repeat(3000));
            let stdout = text(&out.stdout);
            assert!(out.status.success(), "{cmd:?}: {}", text(&out.stderr));
            assert!(stdout.contains("Final scores:"), "{cmd:?}: no score sheet");
            for line in stdout.lines().filter(|l| l.width() > 80) {
                faults.push(format!("{cmd:?}: {} columns: {line:?}", line.width()));
            }
            // No development notes: the rulebook files' section numbers are for the code.
            for line in stdout.lines().filter(|l| l.contains('§') || l.contains(".md")) {
                faults.push(format!("{cmd:?}: a development note: {line:?}"));
            }
            for (lines, screen) in screens(&stdout) {
                most = most.max(lines);
                if screen.contains("\n=== Age ") {
                    turn_lines.push(lines);
                }
                if lines > 45 {
                    faults.push(format!("{cmd:?}: a screen of {lines} lines:\n{screen}"));
                }
            }
            for (turn, low, high) in turns(&stdout) {
                for k in low.max(1)..=high {
                    if turn.matches(&format!("[{k}] ")).count() != 1 {
                        faults.push(format!("{cmd:?}: [{k}] not shown once in:\n{turn}"));
                    }
                }
            }
        }
        let n = turn_lines.len();
        let max = turn_lines.iter().copied().max().unwrap_or(0);
        let med = median(&mut turn_lines);
        table.push_str(&format!("{kind:<26} {n:>5}  {med:>6.1}  {max:>3} | {most:>3}\n"));
    }
    println!("{table}");
    let shown: Vec<&String> = faults.iter().take(3).collect();
    assert!(faults.is_empty(), "{} faults, the first ones:\n{shown:#?}\n{table}", faults.len());
}
