//! A newcomer's path through the guide, run as the guide shows it: the first games of *Getting
//! started*, and the examples whose output the guide prints (the terminal's score sheet, the score
//! pad's table with `wonders score` and `wonders cost --json`) give exactly that output. (That
//! every command line of the guide parses is checked by the `wonders` binary's unit tests,
//! `guide_check`; the guide's first Python script runs in CI after the Python tests.)

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn page(path: &str) -> String {
    std::fs::read_to_string(root().join("docs/src").join(path)).unwrap()
}

/// The fenced code blocks of a page, in order, as (language, text).
fn blocks(page: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = page.lines();
    while let Some(line) = lines.next() {
        if let Some(lang) = line.strip_prefix("```") {
            let mut body = String::new();
            for l in lines.by_ref() {
                if l.starts_with("```") {
                    break;
                }
                body.push_str(l);
                body.push('\n');
            }
            out.push((lang.trim().to_string(), body));
        }
    }
    out
}

/// The `wonders` arguments of the page's `cargo run --release -- …` line that starts with `prefix`
/// (the comment dropped).
fn shown_command(page: &str, prefix: &str) -> Vec<String> {
    let line = blocks(page)
        .into_iter()
        .filter(|(lang, _)| lang == "sh")
        .flat_map(|(_, body)| body.lines().map(str::to_string).collect::<Vec<_>>())
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("the page shows no `{prefix}…`"));
    let line = line.split(" #").next().unwrap();
    line.strip_prefix("cargo run --release -- ").unwrap().split_whitespace().map(String::from).collect()
}

fn wonders(args: &[String], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wonders"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().unwrap();
    // The game may end before reading everything: a broken pipe is fine here.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    child.wait_with_output().unwrap()
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "status {:?}, stderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_first_games_of_getting_started_play_to_the_end() {
    let start = page("getting-started.md");
    // Watching bots: no input at all.
    let auto = shown_command(&start, "cargo run --release -- play --auto");
    let out = stdout(&wonders(&auto, ""));
    assert!(out.contains("Every seat is played by a bot (--auto)."), "{out}");
    assert!(out.contains("Final scores:") && out.contains("\nWinner: "), "{out}");
    // Playing against random bots, answering 1 to every question.
    let game = shown_command(&start, "cargo run --release -- play --players 3");
    assert!(!game.contains(&"--auto".to_string()));
    let out = stdout(&wonders(&game, &"1\n".repeat(400)));
    assert!(out.contains("Your hand"), "{out}");
    assert!(out.contains("Final scores:"), "{out}");
    // Both in the 1st edition: three Ages of conflicts each.
    assert_eq!(out.matches("== End of Age").count(), 3, "{out}");
}

#[test]
fn the_terminal_pages_score_sheet_is_what_the_shown_game_prints() {
    let terminal = page("playing/terminal.md");
    // The sheet shown is that of `wonders play --auto --seed 7` (said under it).
    assert!(terminal.contains("(`wonders play --auto --seed 7`: four heuristic bots.)"));
    let shown = blocks(&terminal)
        .into_iter()
        .map(|(_, body)| body)
        .find(|b| b.trim_start().starts_with("#0"))
        .expect("a score sheet on the page");
    let args: Vec<String> = ["play", "--auto", "--seed", "7"].map(String::from).to_vec();
    let out = stdout(&wonders(&args, ""));
    assert!(out.contains(&shown), "the page's sheet:\n{shown}\nis not in the output:\n{out}");
}

#[test]
fn the_score_pads_table_scores_and_costs_as_the_page_shows() {
    let pad = page("playing/score-pad.md");
    let all = blocks(&pad);
    let table = &all.iter().find(|(lang, _)| lang == "json").expect("the table's JSON").1;
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("guide-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("table.json");
    std::fs::write(&file, table).unwrap();
    let file = file.display().to_string();

    // `wonders score table.json`, piped: the sheet the page shows.
    let sheet = &all.iter().find(|(_, b)| b.starts_with("player  mil")).expect("the sheet on the page").1;
    let out = stdout(&wonders(&["score".into(), file.clone()], ""));
    assert_eq!(&out, sheet);

    // `wonders cost table.json --player 0 --card Library --json`: the options the page shows.
    let shown_cost = &all.iter().filter(|(lang, _)| lang == "json").nth(1).expect("the cost's JSON").1;
    let args = shown_command(&pad, "cargo run --release -- cost table.json --player 0 --card Library --json");
    let args: Vec<String> =
        args.into_iter().map(|a| if a == "table.json" { file.clone() } else { a }).collect();
    let out = stdout(&wonders(&args, ""));
    let got: serde_json::Value = serde_json::from_str(&out).unwrap();
    let want: serde_json::Value = serde_json::from_str(shown_cost).unwrap();
    assert_eq!(got, want);
    // The Library chains from Ann's Scriptorium: free, as the page says.
    assert_eq!(got["options"][0]["chain"], true);
    std::fs::remove_dir_all(&dir).unwrap();
}
