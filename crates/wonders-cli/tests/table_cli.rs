//! `wonders score` and `wonders cost`, run as the real binary on files and standard input.

use serde_json::{Value, json};
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `wonders` with `args`, feeding `stdin`.
fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wonders"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the wonders binary starts");
    if let Some(mut input) = child.stdin.take() {
        // The command may exit before reading everything (a bad argument): ignore a closed pipe.
        let _ = input.write_all(stdin);
    }
    child.wait_with_output().expect("the wonders binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs and expects success; returns standard output.
fn ok(args: &[&str], stdin: &[u8]) -> String {
    let out = run(args, stdin);
    assert!(out.status.success(), "{args:?} failed: {}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
    text(&out.stdout)
}

/// Runs and expects a clean failure; returns standard error.
fn fails(args: &[&str], stdin: &[u8]) -> String {
    let out = run(args, stdin);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?} should fail cleanly; stderr: {err}");
    assert!(err.starts_with("wonders: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    err
}

/// A finished 3-player game whose scores follow from the rulebook's worked examples:
/// - Ann (Alexandria A, 3 stages): tokens +1 +3 +5 −1 −1 −1 = 6; 14 coins = 4; wonder 3 + 7 = 10;
///   Altar 2 + Aqueduct 5 + Town Hall 6 = 13; science 3/2/1 = 9 + 4 + 1 + 7 = 21. Total 54.
/// - Bob (Giza A, 2 stages): tokens +1 −1 = 0; 3 coins = 1; wonder 3 + 5 = 8; Workers Guild, the
///   brown cards of his neighbours Cy (2) and Ann (0) = 2. Total 11.
/// - Cy (Rhodes A, 1 stage): tokens +1 +1 = 2; `cy_coins` coins = 1; wonder 3; Baths 3 +
///   Theater 2 = 5. Total 11.
fn finished_game(cy_coins: u16) -> Value {
    json!({"edition": "1e", "players": [
        {"name": "Ann", "wonder": "Alexandria", "side": "A", "stages": 3, "coins": 14,
         "military": [1, 3, 5, -1, -1, -1],
         "cards": ["Altar", "Aqueduct", "Town Hall", "Apothecary", "Dispensary", "Lodge",
                   "Workshop", "Laboratory", "Scriptorium"]},
        {"name": "Bob", "wonder": "Giza", "side": "A", "stages": 2, "coins": 3, "military": [1, -1],
         "cards": ["Workers Guild", "Lumber Yard", "Stone Pit"]},
        {"name": "Cy", "wonder": "Rhodes", "side": "A", "stages": 1, "coins": cy_coins,
         "military": [1, 1], "cards": ["Clay Pool", "Ore Vein", "Baths", "Theater"]}
    ]})
}

fn temp_table(value: &Value) -> tempfile::NamedTempFile {
    let mut file = tempfile::NamedTempFile::new().expect("a temporary file");
    file.write_all(value.to_string().as_bytes()).expect("the table is written");
    file
}

#[test]
fn score_json_from_a_file() {
    let file = temp_table(&finished_game(3));
    let path = file.path().to_str().expect("a UTF-8 temporary path");
    let raw = ok(&["score", path, "--json"], b"");
    let out: Value = serde_json::from_str(&raw).expect("JSON output");
    let expected = json!({"players": [
        {"name": "Ann", "military": 6, "treasury": 4, "wonder": 10, "civilian": 13, "science": 21,
         "commercial": 0, "guilds": 0, "edifice": 0, "total": 54, "rank": 1},
        {"name": "Bob", "military": 0, "treasury": 1, "wonder": 8, "civilian": 0, "science": 0,
         "commercial": 0, "guilds": 2, "edifice": 0, "total": 11, "rank": 2},
        {"name": "Cy", "military": 2, "treasury": 1, "wonder": 3, "civilian": 5, "science": 0,
         "commercial": 0, "guilds": 0, "edifice": 0, "total": 11, "rank": 2}
    ]});
    assert_eq!(out, expected);
    // These keys, printed in this order.
    let first = &raw[..raw.find('}').unwrap_or(raw.len())];
    let keys = [
        "name",
        "military",
        "treasury",
        "wonder",
        "civilian",
        "science",
        "commercial",
        "guilds",
        "edifice",
        "total",
        "rank",
    ];
    let at: Vec<Option<usize>> = keys.iter().map(|k| first.find(&format!("\"{k}\""))).collect();
    assert!(at.iter().all(Option::is_some) && at.windows(2).all(|w| w[0] < w[1]), "{raw}");
}

#[test]
fn score_ties_are_broken_by_coins() {
    // Cy has one coin more than Bob (still 1 point): level on 11, Cy is second and Bob third.
    let input = finished_game(4).to_string();
    let out: Value = serde_json::from_str(&ok(&["score", "-", "--json"], input.as_bytes())).expect("JSON");
    let ranks: Vec<u64> = (0..3).filter_map(|i| out["players"][i]["rank"].as_u64()).collect();
    let totals: Vec<i64> = (0..3).filter_map(|i| out["players"][i]["total"].as_i64()).collect();
    assert_eq!(totals, vec![54, 11, 11]);
    assert_eq!(ranks, vec![1, 3, 2]);
}

#[test]
fn score_table_from_stdin() {
    // Piped, the table fits 80 columns: short headings, no edifice column for a base table.
    let input = finished_game(3).to_string();
    let out = ok(&["score", "-"], input.as_bytes());
    let lines: Vec<&str> = out.lines().collect();
    let header: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(
        header,
        ["player", "mil", "treas", "wond", "civ", "sci", "comm", "guild", "total", "coins", "rank"]
    );
    let ann: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(ann, ["0", "Ann", "6", "4", "10", "13", "21", "0", "0", "54", "14", "1"]);
    // Bob and Cy are level on 11 with 3 coins each: they share rank 2, marked, and said so.
    let cy: Vec<&str> = lines[3].split_whitespace().collect();
    assert_eq!(cy, ["2", "Cy", "2", "1", "3", "5", "0", "0", "0", "11", "3", "2*"]);
    assert_eq!(lines[4], "* level on 11 points: ranked by coins, most first; equal coins share the rank");
    assert_eq!(lines.len(), 5, "{out}");
    // Aligned: every row is as long as the header (less the space a rank leaves for the mark),
    // numbers right-aligned under it.
    assert!(lines[1..4].iter().all(|l| l.len() + usize::from(!l.ends_with('*')) == lines[0].len()), "{out}");
    assert!(lines.iter().all(|l| l.len() <= 80), "{out}");
}

#[test]
fn score_says_the_coins_break_a_tie() {
    // Cy has one coin more than Bob: level on 11, Cy second, Bob third, both marked.
    let out = ok(&["score", "-"], finished_game(4).to_string().as_bytes());
    let lines: Vec<&str> = out.lines().collect();
    let tail = |l: &str| l.split_whitespace().rev().take(2).collect::<Vec<_>>().join(" ");
    assert_eq!((tail(lines[2]), tail(lines[3])), ("3* 3".into(), "2* 4".into()), "{out}");
    assert_eq!(lines[4], "* level on 11 points: ranked by coins, most first");
    assert!(!lines[1].contains('*'), "{out}");
    // Without a tie, no coins column and no mark.
    let mut game = finished_game(3);
    game["players"][2]["cards"].as_array_mut().unwrap().push(json!("Statue"));
    let out = ok(&["score", "-"], game.to_string().as_bytes());
    assert!(!out.contains("coins") && !out.contains('*'), "{out}");
    assert_eq!(out.lines().count(), 4, "{out}");
}

#[test]
fn score_tables_of_the_expansions_fit_80_columns_and_their_notes_their_own_lines() {
    // Edifice: its column, Armada's three hidden; Armada: its three, Edifice's hidden; each note
    // on its own line.
    let edifice = json!({"expansions": ["edifice"],
        "projects": [{"name": "Belvedere", "completed": true}, {"name": "River Port", "completed": false},
                     {"name": "Gold Reserves", "completed": false}],
        "players": [
            {"name": "Ann", "wonder": "Rhodes", "side": "A", "stages": 2, "pawns": [1], "debt": [2]},
            {"name": "Bob", "wonder": "Giza", "side": "A", "coins": 3},
            {"name": "Cy", "wonder": "Carthage", "side": "Day"}]})
    .to_string();
    for (table, has, hasnt) in [
        (edifice, &["edif"][..], &["naval", "fleet", "isle"][..]),
        (armada_table(), &["naval", "fleet", "isle"], &["edif"]),
    ] {
        let out = ok(&["score", "-"], table.as_bytes());
        let header: Vec<&str> = out.lines().next().unwrap().split_whitespace().collect();
        assert!(has.iter().all(|c| header.contains(c)) && !hasnt.iter().any(|c| header.contains(c)), "{out}");
        assert!(out.lines().all(|l| l.chars().count() <= 80), "{out}");
        let note = out.lines().find(|l| l.contains("provisional")).unwrap();
        assert!(note.starts_with("edifice: ") || note.starts_with("armada: "), "{out}");
    }
}

/// Rulebook 002 貿易, example A: University (2 wood + glass + papyrus); Ann makes 1 wood and 1
/// glass; Bob (left) sells wood, Cy (right) papyrus.
fn example_a(coins: u16) -> String {
    json!({"players": [
        {"name": "Ann", "wonder": "Alexandria", "side": "A", "cards": ["Lumber Yard"], "coins": coins},
        {"name": "Bob", "wonder": "Olympia", "side": "A"},
        {"name": "Cy", "wonder": "Ephesos", "side": "A"}
    ]})
    .to_string()
}

#[test]
fn cost_json_example_a() {
    let out = ok(&["cost", "-", "--player", "0", "--card", "University", "--json"], example_a(4).as_bytes());
    let out: Value = serde_json::from_str(&out).expect("JSON output");
    assert_eq!(out, json!({"options": [{"left": 2, "right": 2, "bank": 0, "chain": false}]}));
    // With 3 coins: an empty list, not an error.
    let out = ok(&["cost", "-", "--player", "0", "--card", "大學", "--json"], example_a(3).as_bytes());
    assert_eq!(serde_json::from_str::<Value>(&out).ok(), Some(json!({"options": []})));
    // Readable form.
    let out = ok(&["cost", "-", "--player", "0", "--card", "university"], example_a(4).as_bytes());
    assert!(out.starts_with("University for player 0 (Ann): 1 way to pay"), "{out}");
    let row: Vec<&str> = out.lines().nth(2).unwrap_or_default().split_whitespace().collect();
    assert_eq!(row, ["2", "2", "0", "4"]);
    let out = ok(&["cost", "-", "--player", "0", "--card", "University"], example_a(3).as_bytes());
    assert!(out.contains("cannot be built now") && out.contains("costs at least 4"), "{out}");
}

#[test]
fn cost_json_chain_choices_and_stage() {
    let file = temp_table(&json!({"players": [
        {"name": "Ann", "wonder": "Giza", "side": "A", "coins": 10,
         "cards": ["Scriptorium", "East Trading Post"]},
        {"name": "Bob", "wonder": "Olympia", "side": "A"},
        {"name": "Cy", "wonder": "Rhodes", "side": "A", "cards": ["Lumber Yard"]}
    ]}));
    let path = file.path().to_str().expect("a UTF-8 temporary path");
    let cost = |args: &[&str]| -> Value {
        let mut all = vec!["cost", path, "--player", "0", "--json"];
        all.extend_from_slice(args);
        serde_json::from_str(&ok(&all, b"")).expect("JSON output")
    };
    // Scriptorium → Library: free by chain.
    assert_eq!(
        cost(&["--card", "Library"]),
        json!({"options": [{"left": 0, "right": 0, "bank": 0, "chain": true}]})
    );
    // Stockade (wood): 2 from Bob (left), or 1 from Cy (right) with the East Trading Post.
    assert_eq!(
        cost(&["--card", "Stockade"]),
        json!({"options": [
            {"left": 0, "right": 1, "bank": 0, "chain": false},
            {"left": 2, "right": 0, "bank": 0, "chain": false}
        ]})
    );
    // Giza A stage 1: 2 stone; she makes 1, the neighbours none.
    assert_eq!(cost(&["--stage"]), json!({"options": []}));
    // Timber Yard: 1 coin to the bank.
    assert_eq!(
        cost(&["--card", "Timber Yard"]),
        json!({"options": [{"left": 0, "right": 0, "bank": 1, "chain": false}]})
    );
    // Already built.
    assert_eq!(cost(&["--card", "Scriptorium"]), json!({"options": []}));
    let out = ok(&["cost", path, "--player", "0", "--card", "Library"], b"");
    assert!(out.contains("free by chain") && out.contains("Scriptorium"), "{out}");
}

#[test]
fn bad_input_fails_cleanly() {
    let game = finished_game(3).to_string();
    // Malformed JSON, with serde's position.
    let err = fails(&["score", "-"], b"{\"players\": [");
    assert!(err.contains("standard input") && err.contains("line 1"), "{err}");
    // Not UTF-8.
    fails(&["score", "-"], &[0xff, 0xfe, 0x00, 0x80]);
    // Empty input.
    fails(&["score", "-", "--json"], b"");
    // A missing file names the path.
    let err = fails(&["score", "/nonexistent/table.json"], b"");
    assert!(err.contains("/nonexistent/table.json"), "{err}");
    // Unknown card, with the suggestion.
    let typo = game.replace("\"Lumber Yard\"", "\"Lumbr Yard\"");
    let err = fails(&["score", "-"], typo.as_bytes());
    assert!(err.contains("player 1 (Bob)") && err.contains("did you mean `Lumber Yard`"), "{err}");
    // Two players.
    let two = json!({"players": [
        {"name": "Ann", "wonder": "Giza", "side": "A"},
        {"name": "Bob", "wonder": "Rhodes", "side": "A"}
    ]})
    .to_string();
    let err = fails(&["score", "-"], two.as_bytes());
    assert!(err.contains("2 players"), "{err}");
    // Questions the table cannot answer.
    let err = fails(&["cost", "-", "--player", "7", "--stage"], game.as_bytes());
    assert!(err.contains("no player 7"), "{err}");
    let err = fails(&["cost", "-", "--player", "0", "--card", "Univercity"], game.as_bytes());
    assert!(err.contains("did you mean `University`"), "{err}");
    // Odd values anywhere.
    for bad in [
        "null",
        "[]",
        "{\"players\": 3}",
        "{\"players\": [{\"name\": 1}]}",
        "{\"edition\": \"2e\", \"players\": []}",
        "{\"players\": [{\"name\": \"A\", \"wonder\": \"Giza\", \"side\": \"A\", \"coins\": 99999}]}",
        "{\"players\": [{\"name\": \"A\", \"wonder\": \"Giza\", \"side\": \"A\", \"stages\": 300}]}",
    ] {
        fails(&["score", "-"], bad.as_bytes());
        fails(&["cost", "-", "--player", "0", "--stage"], bad.as_bytes());
    }
}

#[test]
fn score_a_two_player_table_with_the_free_city() {
    let table = r#"{"players": [
        {"name": "Ann", "wonder": "Giza", "side": "A", "stages": 1, "cards": ["Lumber Yard"], "coins": 6, "military": [1]},
        {"name": "Bob", "wonder": "Rhodes", "side": "A", "cards": ["Barracks"], "coins": 9, "military": [1, -1]},
        {"name": "Free City", "free_city": true, "wonder": "Babylon", "side": "A", "cards": ["Clay Pool"], "coins": 3, "military": [-1]}]}"#;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_wonders"))
        .args(["score", "-", "--json"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(table.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let players = v["players"].as_array().unwrap();
    assert_eq!(players.len(), 3);
    assert_eq!(players[0]["total"], 6);
    assert_eq!(players[0]["rank"], 1);
    assert_eq!(players[1]["rank"], 2);
    assert_eq!(players[2]["rank"], serde_json::Value::Null);
    assert_eq!(players[2]["free_city"], true);
    assert!(players[0].get("free_city").is_none());
}

#[test]
fn score_an_edifice_table() {
    // Belvedere completed (1 VP per own stage): Ann, 2 stages → 2, minus an Age II debt token (−3).
    let table = json!({"expansions": ["edifice"],
        "projects": [{"name": "Belvedere", "completed": true}, {"name": "River Port", "completed": false},
                     {"name": "Gold Reserves", "completed": false}],
        "players": [
            {"name": "Ann", "wonder": "Rhodes", "side": "A", "stages": 2, "pawns": [1], "debt": [2]},
            {"name": "Bob", "wonder": "Giza", "side": "A"},
            {"name": "Cy", "wonder": "Carthage", "side": "Day"}]})
    .to_string();
    let out: Value = serde_json::from_str(&ok(&["score", "-", "--json"], table.as_bytes())).expect("JSON");
    assert_eq!(out["provisional"], true);
    assert_eq!(out["players"][0]["edifice"], -1);
    assert_eq!(out["players"][0]["wonder"], 3, "Rhodes A: stage 1 gives 3 VP, stage 2 shields");
    assert_eq!(out["players"][2]["edifice"], 0, "Carthage, no pawn, no debt");
    let text = ok(&["score", "-"], table.as_bytes());
    assert!(text.contains("provisional"), "{text}");
}

#[test]
fn cost_of_a_stage_and_taking_part() {
    // 001's example: a stage of 2 wood (Rhodes A stage 1) with Belvedere (1 coin, edifice.md
    // §5.3) costs 2 wood + 1 coin, paid as one purchase. Ann makes 1 wood (Lumber Yard) and buys
    // the other from Bob's Timber Yard (wood or stone), her left neighbour, for 2 coins (002
    // trading: 2 coins a unit).
    let table = |coins: u16, pawns: &[u8]| {
        json!({"expansions": ["edifice"],
            "projects": [{"name": "Belvedere", "completed": false}, {"name": "River Port", "completed": false},
                         {"name": "Gold Reserves", "completed": false}],
            "players": [
                {"name": "Ann", "wonder": "Rhodes", "side": "A", "cards": ["Lumber Yard"], "coins": coins,
                 "pawns": pawns},
                {"name": "Bob", "wonder": "Giza", "side": "A", "cards": ["Timber Yard"]},
                {"name": "Cy", "wonder": "Babylon", "side": "A"}]})
        .to_string()
    };
    let args = ["cost", "-", "--player", "0", "--stage", "--take-part", "1", "--json"];
    let out: Value = serde_json::from_str(&ok(&args, table(5, &[]).as_bytes())).expect("JSON");
    assert_eq!(out, json!({"options": [{"left": 2, "right": 0, "bank": 1, "chain": false}]}));
    // The stage alone: the same purchase without the coin.
    let stage = ["cost", "-", "--player", "0", "--stage", "--json"];
    let out: Value = serde_json::from_str(&ok(&stage, table(5, &[]).as_bytes())).expect("JSON");
    assert_eq!(out, json!({"options": [{"left": 2, "right": 0, "bank": 0, "chain": false}]}));
    // 2 coins buy the wood but leave nothing for Belvedere's coin.
    let out: Value = serde_json::from_str(&ok(&args, table(2, &[]).as_bytes())).expect("JSON");
    assert_eq!(out, json!({"options": []}));
    // Once per Age: a pawn of Age I already held.
    let text = ok(&args[..7], table(5, &[1]).as_bytes());
    assert!(text.contains("already holds a pawn of Age 1"), "{text}");
}

/// An Armada table: Ann on board 1 with the rulebook's red step (1 wood).
fn armada_table() -> String {
    json!({"expansions": ["armada"],
        "players": [
            {"name": "Ann", "wonder": "Giza", "side": "A", "cards": ["Quarry", "海關"], "coins": 5,
             "shipyard": {"board": 1, "red": 0, "yellow": 4, "blue": 6, "green": 2},
             "islands": ["Inhabited Isle", "庇護群島"], "naval": [3, -2, 5]},
            {"name": "Bob", "wonder": "Rhodes", "side": "A", "shipyard": {"board": 2}},
            {"name": "Cy", "wonder": "Babylon", "side": "A", "cards": ["Lumber Yard"],
             "shipyard": {"board": 3}}]})
    .to_string()
}

#[test]
fn score_an_armada_table() {
    let table = armada_table();
    let out: Value = serde_json::from_str(&ok(&["score", "-", "--json"], table.as_bytes())).expect("JSON");
    let ann = &out["players"][0];
    // Naval tokens 3 − 2 + 5; blue on step 6: 10 VP; Inhabited Isle 3 + Haven 2 × 2 islands;
    // Customs House 2 × trade level 2 (yellow step 4) in commercial.
    assert_eq!(
        (ann["naval"].clone(), ann["fleet"].clone(), ann["islands"].clone()),
        (json!(6), json!(10), json!(7))
    );
    assert_eq!(ann["commercial"], 4);
    assert_eq!(
        out["players"][1]["naval"], 0,
        "the categories are listed for every player of an Armada table"
    );
    assert_eq!(out["provisional"], true);
    let text = ok(&["score", "-"], table.as_bytes());
    let header = text.lines().next().unwrap();
    assert!(header.contains("naval") && header.contains("fleet") && header.contains("isle"), "{text}");
    assert!(text.contains("armada: provisional shipyard costs"), "{text}");
    // A base table's sheet has none of them.
    let base = json!({"players": [{"name": "A", "wonder": "Giza", "side": "A"},
        {"name": "B", "wonder": "Rhodes", "side": "A"}, {"name": "C", "wonder": "Babylon", "side": "A"}]})
    .to_string();
    let out: Value = serde_json::from_str(&ok(&["score", "-", "--json"], base.as_bytes())).expect("JSON");
    assert!(out["players"][0].get("naval").is_none());
    assert!(!ok(&["score", "-"], base.as_bytes()).contains("naval"));
}

#[test]
fn bad_armada_tables_fail_cleanly() {
    let bad = armada_table().replace("\"board\":2", "\"board\":0");
    let err = fails(&["score", "-"], bad.as_bytes());
    assert!(err.contains("armada: player 1 (Bob): shipyard board 0 does not exist"), "{err}");
    let no_exp = armada_table().replace("\"expansions\":[\"armada\"],", "");
    assert!(no_exp != armada_table());
    let err = fails(&["score", "-"], no_exp.as_bytes());
    let want = r#"armada: "shipyard", "islands" and "naval" need "expansions": ["armada"]"#;
    assert!(err.contains(want), "{err}");
}

#[test]
fn cost_with_and_without_the_naval_construction() {
    // Giza A stage 1 (SS): Giza's stone + Quarry, free. With the red step (board 1: 1 wood,
    // armada.md §10.3's Ann example) the wood is bought from Cy (right) for 2.
    let args = ["cost", "-", "--player", "0", "--stage", "--naval", "--json"];
    let out: Value = serde_json::from_str(&ok(&args, armada_table().as_bytes())).expect("JSON");
    assert_eq!(out["options"], json!([{"left": 0, "right": 0, "bank": 0, "chain": false}]));
    assert_eq!(out["naval"]["options"], json!([{"left": 0, "right": 2, "bank": 0, "chain": false}]));
    let text = ok(&["cost", "-", "--player", "0", "--stage", "--naval"], armada_table().as_bytes());
    assert!(text.contains("with a naval construction (red ship to step 1: W, provisional)"), "{text}");
    // --naval on a table without Armada: a clear error.
    let base = json!({"players": [{"name": "A", "wonder": "Giza", "side": "A"},
        {"name": "B", "wonder": "Rhodes", "side": "A"}, {"name": "C", "wonder": "Babylon", "side": "A"}]})
    .to_string();
    let err = fails(&["cost", "-", "--player", "0", "--stage", "--naval"], base.as_bytes());
    assert!(err.contains("a naval construction needs a table with"), "{err}");
}

#[test]
fn cost_with_a_trading_zone_lists_the_2nd_players() {
    // 5 players clockwise: Ann (Giza, S) holds East Trading Zone; her 2nd right is Dee (Babylon,
    // C), her right Eve (Alexandria, G) with a Clay Pool, her left Bob (Olympia, W). Guard Tower
    // costs 1 clay: 1 coin to the 2nd right (East, armada.md §5) or 2 to the right; neither is
    // cheaper for every player, so both are listed. With board 1's red step (1 wood, §10.3) the
    // wood comes from Bob for 2: (left 2, 2nd right 1) or (left 2, right 2).
    let table = json!({"expansions": ["armada"],
        "players": [
            {"name": "Ann", "wonder": "Giza", "side": "A", "cards": ["East Trading Zone"], "coins": 5,
             "shipyard": {"board": 1}},
            {"name": "Bob", "wonder": "Olympia", "side": "A", "shipyard": {"board": 2}},
            {"name": "Cy", "wonder": "Rhodes", "side": "A", "shipyard": {"board": 3}},
            {"name": "Dee", "wonder": "Babylon", "side": "A", "shipyard": {"board": 4}},
            {"name": "Eve", "wonder": "Alexandria", "side": "A", "cards": ["Clay Pool"],
             "shipyard": {"board": 5}}]})
    .to_string();
    let args = ["cost", "-", "--player", "0", "--card", "Guard Tower", "--naval", "--json"];
    let out: Value = serde_json::from_str(&ok(&args, table.as_bytes())).expect("JSON");
    assert_eq!(
        out["options"],
        json!([{"left": 0, "right": 0, "bank": 0, "chain": false, "second_right": 1},
               {"left": 0, "right": 2, "bank": 0, "chain": false}])
    );
    assert_eq!(
        out["naval"]["options"],
        json!([{"left": 2, "right": 0, "bank": 0, "chain": false, "second_right": 1},
               {"left": 2, "right": 2, "bank": 0, "chain": false}])
    );
    let text = ok(&["cost", "-", "--player", "0", "--card", "Guard Tower"], table.as_bytes());
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[1].contains("2nd left") && lines[1].contains("2nd right"), "{text}");
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    // Without the card (Bob): no 2nd-player columns.
    let text = ok(&["cost", "-", "--player", "1", "--card", "Guard Tower"], table.as_bytes());
    assert!(!text.contains("2nd"), "{text}");
}

/// A 4-player team table (`"teams": true`; teams Ann+Bob and Cy+Dee), each score worked by hand:
/// - Ann (Giza A, 2 stages): tokens 2×(+1) = 2 (a team victory gives two tokens); 9 coins = 3;
///   wonder 3 + 5 = 8; Altar 2. Total 15.
/// - Bob (Rhodes A, 0 stages): tokens 2×(−1) = −2; 3 coins = 1; Baths 3. Total 2.
/// - Cy (Ephesus A, 1 stage): no tokens; 6 coins = 2; wonder 3; Theater 2. Total 7.
/// - Dee (Olympia A, 0 stages): tokens 2×(+3) = 6; 6 coins = 2; Altar is Ann's: Pawnshop 3. Total 11.
///
/// Teams: Ann+Bob 17, Cy+Dee 18: Cy and Dee win although Ann scored most.
fn team_table() -> Value {
    json!({"edition": "1e", "teams": true, "players": [
        {"name": "Ann", "wonder": "Giza", "side": "A", "stages": 2, "coins": 9, "military": [1, 1],
         "cards": ["Altar"]},
        {"name": "Bob", "wonder": "Rhodes", "side": "A", "coins": 3, "military": [-1, -1],
         "cards": ["Baths"]},
        {"name": "Cy", "wonder": "Ephesus", "side": "A", "stages": 1, "coins": 6, "cards": ["Theater"]},
        {"name": "Dee", "wonder": "Olympia", "side": "A", "coins": 6, "military": [3, 3],
         "cards": ["Pawnshop"]}
    ]})
}

#[test]
fn a_team_table_scores_each_team() {
    let input = team_table().to_string();
    let out: Value = serde_json::from_str(&ok(&["score", "-", "--json"], input.as_bytes())).unwrap();
    let totals: Vec<i64> =
        out["players"].as_array().unwrap().iter().map(|p| p["total"].as_i64().unwrap()).collect();
    assert_eq!(totals, vec![15, 2, 7, 11]);
    let ranks: Vec<i64> =
        out["players"].as_array().unwrap().iter().map(|p| p["rank"].as_i64().unwrap()).collect();
    assert_eq!(ranks, vec![2, 2, 1, 1], "each player has the team's rank");
    assert_eq!(
        out["teams"],
        json!([{"players": [0, 1], "total": 17, "rank": 2}, {"players": [2, 3], "total": 18, "rank": 1}])
    );
    let text = ok(&["score", "-"], input.as_bytes());
    assert!(text.contains("0 Ann + 1 Bob") && text.contains("2 Cy + 3 Dee"), "{text}");
    // Without "teams" there is no "teams" key and Ann wins alone.
    let mut plain = team_table();
    plain.as_object_mut().unwrap().remove("teams");
    let out: Value =
        serde_json::from_str(&ok(&["score", "-", "--json"], plain.to_string().as_bytes())).unwrap();
    assert!(out.get("teams").is_none());
    assert_eq!(out["players"][0]["rank"], 1);
    // A team table of 3 or 5 players is refused, naming the problem.
    let mut five = team_table();
    five["players"]
        .as_array_mut()
        .unwrap()
        .push(json!({"name": "Eve", "wonder": "Babylon", "side": "A", "coins": 3}));
    let err = fails(&["score", "-"], five.to_string().as_bytes());
    assert!(err.contains("teams: 5 players") && err.contains("4, 6 or 8"), "{err}");
}

/// `wonders score` agrees with the library on the Agora (edifice.md §5.3; 000 行會計分): with
/// Armada, Philosophers Guild counting the neighbours' 12 green cards scores 10 (the cap), and the
/// Agora's second application 10 too; without Armada, a second Scientists Guild is a second wild
/// symbol (1/1/1 with one wild = 10, with two = 13: 3 VP), chosen over the Traders Guild's 2.
#[test]
fn score_the_agora_with_the_guild_cap_and_the_scientists_guild() {
    let projects = json!([{"name": "Money Changer", "completed": false},
        {"name": "Auction House", "completed": false}, {"name": "Agora", "completed": true}]);
    let yard = |board: u8| json!({"board": board});
    let capped = json!({"expansions": ["edifice", "armada"], "projects": projects,
        "players": [
            {"name": "Ann", "wonder": "Rhodes", "side": "A", "pawns": [3], "shipyard": yard(1),
             "cards": ["Philosophers Guild"]},
            {"name": "Bob", "wonder": "Giza", "side": "A", "shipyard": yard(2),
             "cards": ["Apothecary", "Workshop", "Scriptorium", "Dispensary", "Laboratory", "Library"]},
            {"name": "Cy", "wonder": "Babylon", "side": "A", "shipyard": yard(3),
             "cards": ["School", "Lodge", "Observatory", "University", "Academy", "Study"]}]})
    .to_string();
    let out: Value = serde_json::from_str(&ok(&["score", "-", "--json"], capped.as_bytes())).expect("JSON");
    assert_eq!((&out["players"][0]["guilds"], &out["players"][0]["edifice"]), (&json!(10), &json!(10)));
    let science = json!({"expansions": ["edifice"], "projects": projects,
        "players": [
            {"name": "Ann", "wonder": "Rhodes", "side": "A", "pawns": [3],
             "cards": ["Apothecary", "Workshop", "Scientists Guild", "Traders Guild"]},
            {"name": "Bob", "wonder": "Giza", "side": "A", "cards": ["East Trading Post"]},
            {"name": "Cy", "wonder": "Babylon", "side": "A", "cards": ["Marketplace"]}]})
    .to_string();
    let out: Value = serde_json::from_str(&ok(&["score", "-", "--json"], science.as_bytes())).expect("JSON");
    let ann = &out["players"][0];
    assert_eq!((&ann["science"], &ann["guilds"], &ann["edifice"]), (&json!(10), &json!(2), &json!(3)));
}

/// `wonders cost` agrees with the library on the team rule with Armada (000 團隊遊戲規則: no
/// buying from a teammate for a chain build): Stables free through Ann's Apothecary, with the red
/// step (board 1: 1 wood); both neighbours sell wood, but Bob, on her left, is her teammate:
/// only the 2 coins to Dee on her right remain. Without teams both ways are listed.
#[test]
fn cost_of_a_chain_build_with_a_naval_step_in_a_team_game() {
    let table = |teams: bool| {
        json!({"expansions": ["armada"], "teams": teams, "players": [
            {"name": "Ann", "wonder": "Rhodes", "side": "A", "coins": 5, "cards": ["Apothecary"],
             "shipyard": {"board": 1}},
            {"name": "Bob", "wonder": "Olympia", "side": "A", "cards": ["Lumber Yard"], "shipyard": {"board": 2}},
            {"name": "Cy", "wonder": "Giza", "side": "A", "shipyard": {"board": 3}},
            {"name": "Dee", "wonder": "Babylon", "side": "A", "cards": ["Lumber Yard"], "shipyard": {"board": 4}}]})
        .to_string()
    };
    let args = ["cost", "-", "--player", "0", "--card", "Stables", "--naval", "--json"];
    let ways = |teams: bool| -> Vec<(u64, u64)> {
        let out: Value = serde_json::from_str(&ok(&args, table(teams).as_bytes())).expect("JSON");
        out["naval"]["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| (o["left"].as_u64().unwrap(), o["right"].as_u64().unwrap()))
            .collect()
    };
    assert_eq!(ways(false), vec![(0, 2), (2, 0)]);
    assert_eq!(ways(true), vec![(0, 2)]);
}
