//! `wonders score` and `wonders cost`: questions about a physical game written in the table format
//! (see `wonders_core::table`).

use crate::output::aligned;
use serde::Serialize;
use std::path::Path;
use wonders_core::Score;
use wonders_core::table::{CostAnswer, CostOption, Table, Target};

/// One player's line of `score --json`.
#[derive(Serialize)]
struct ScoreRow<'a> {
    name: &'a str,
    military: i32,
    treasury: i32,
    wonder: i32,
    civilian: i32,
    science: i32,
    commercial: i32,
    guilds: i32,
    /// Edifice: end-game project rewards and debt tokens (0 without the expansion).
    edifice: i32,
    /// Armada: naval conflict tokens, blue fleet VP and island VP; present only for a table
    /// played with Armada.
    #[serde(skip_serializing_if = "Option::is_none")]
    naval: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fleet: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    islands: Option<i32>,
    total: i32,
    /// `null` for the Free City, which is not ranked.
    rank: Option<u8>,
    /// Present (true) only on the Free City of a 2-player table.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    free_city: bool,
}

/// One team's line of `score --json` (team variant).
#[derive(Serialize)]
struct TeamRow {
    players: [u8; 2],
    total: i32,
    rank: u8,
}

/// The whole of `score --json`.
#[derive(Serialize)]
struct ScoreJson<'a> {
    players: Vec<ScoreRow<'a>>,
    /// The team variant: each team's players, summed total and rank.
    #[serde(skip_serializing_if = "Option::is_none")]
    teams: Option<Vec<TeamRow>>,
    /// Set when the table plays Edifice or Armada: some of their values are provisional
    /// (edifice.md §5, armada.md §10).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    provisional: bool,
}

/// The whole of `cost --json`.
#[derive(Serialize)]
struct CostJson<'a> {
    options: &'a [CostOption],
    /// Armada (`--naval`): the same construction with its naval construction.
    #[serde(skip_serializing_if = "Option::is_none")]
    naval: Option<NavalJson<'a>>,
}

/// The naval part of `cost --naval --json`.
#[derive(Serialize)]
struct NavalJson<'a> {
    what: &'a str,
    options: &'a [CostOption],
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
}

/// `wonders score FILE|- [--json]`: every player's score sheet and rank.
pub fn score(path: &Path, json: bool) -> Result<(), String> {
    let table = load(path)?;
    let scores = table.scores();
    let ranks = table.ranks();
    let armada = table.catalog().armada.is_some();
    let text = if json {
        let players = table
            .names()
            .iter()
            .zip(&scores)
            .zip(&ranks)
            .enumerate()
            .map(|(i, ((name, s), &rank))| ScoreRow {
                name,
                military: s.military,
                treasury: s.treasury,
                wonder: s.wonder,
                civilian: s.civilian,
                science: s.science,
                commercial: s.commercial,
                guilds: s.guilds,
                edifice: s.edifice,
                naval: armada.then_some(s.naval),
                fleet: armada.then_some(s.fleet),
                islands: armada.then_some(s.islands),
                total: s.total,
                rank,
                free_city: table.free_city() == Some(i),
            })
            .collect();
        let teams = table.team_results().map(|teams| {
            teams.iter().map(|t| TeamRow { players: t.players, total: t.total, rank: t.rank }).collect()
        });
        to_json(&ScoreJson { players, teams, provisional: table.expansions().edifice() || armada })?
    } else {
        let mut text = score_text(&table, &scores, &ranks, crate::output::width());
        text.push('\n');
        if let Some(teams) = table.team_results() {
            // Teams level on points are ranked by their summed coins.
            let tied =
                |t: &wonders_core::teams::TeamResult| teams.iter().filter(|o| o.total == t.total).count() > 1;
            let any_tie = teams.iter().any(tied);
            let mut header = vec!["team".to_string(), "total".into()];
            if any_tie {
                header.push("coins".into());
            }
            header.push("rank".into());
            let mut rows = vec![header];
            for t in &teams {
                let name = |i: u8| table.names().get(i as usize).cloned().unwrap_or_default();
                let [a, b] = t.players;
                let mut row = vec![format!("{a} {} + {b} {}", name(a), name(b)), t.total.to_string()];
                if any_tie {
                    row.push(t.coins.to_string());
                }
                row.push(format!("{}{}", t.rank, if tied(t) { "*" } else { " " }));
                rows.push(row);
            }
            text.push_str(&aligned(&rows));
            text.push('\n');
            if any_tie {
                text.push_str("* teams level on points: the most coins (both treasuries) ranks first\n");
            }
        }
        if table.expansions().edifice() {
            text.push_str("edifice: project rewards and debt use provisional values (edifice.md §5)\n");
        }
        if armada {
            text.push_str("armada: provisional shipyard costs, track values, card costs (armada.md §10)\n");
        }
        text.trim_end().to_string()
    };
    write_out(&text)
}

/// `wonders cost FILE|- --player I (--card NAME | --stage [--take-part AGE]) [--json]`: every
/// Pareto-minimal way to pay.
pub fn cost(
    path: &Path,
    player: usize,
    card: Option<&str>,
    stage: bool,
    take_part: Option<u8>,
    naval: bool,
    json: bool,
) -> Result<(), String> {
    let target = match (card, stage, take_part) {
        (Some(name), false, None) => Target::Card(name.to_string()),
        (None, true, None) => Target::Stage,
        (None, true, Some(age)) => Target::StageAndTakePart(age),
        _ => return Err("give either --card NAME or --stage".into()),
    };
    let table = load(path)?;
    let answer = table.cost(player, &target).map_err(|e| e.to_string())?;
    let with_naval = match (naval, &target) {
        (false, _) => None,
        (true, Target::Card(name)) => Some(table.cost(player, &Target::CardWithNaval(name.clone()))),
        (true, _) => Some(table.cost(player, &Target::StageWithNaval)),
    }
    .transpose()
    .map_err(|e| e.to_string())?;
    let text = if json {
        let naval = with_naval.as_ref().map(|a| NavalJson {
            what: &a.what,
            options: &a.options,
            reason: a.reason.as_deref(),
        });
        to_json(&CostJson { options: &answer.options, naval })?
    } else {
        let who = table.who(player).to_string();
        let mut text = cost_text(&who, &answer);
        if let Some(a) = &with_naval {
            text.push('\n');
            text.push_str(&cost_text(&who, a));
        }
        text
    };
    write_out(&text)
}

/// Reads and validates the table, naming the input in errors.
fn load(path: &Path) -> Result<Table, String> {
    let text = crate::read_input(path)?;
    Table::from_json(&text).map_err(|e| {
        let source =
            if path.as_os_str() == "-" { "standard input".to_string() } else { path.display().to_string() };
        format!("{source}: {e}")
    })
}

fn to_json<T: Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string_pretty(value).map_err(|e| format!("writing JSON: {e}"))
}

/// Writes a line to standard output; a closed pipe (`| head`) ends the command quietly.
fn write_out(text: &str) -> Result<(), String> {
    crate::output::emit(&mut std::io::stdout().lock(), &format!("{text}\n"))
}

/// The score sheet as a table within `width` columns: one row per player, a column per category
/// (Edifice's and Armada's only for a table that plays them), the total and the rank. The
/// categories' full names when they fit, short ones (`mil`, `treas`, …) otherwise. Players level
/// on points are ranked by their coins (the rulebook's tie-break): then a `coins` column shows
/// them, the tied ranks are marked `*`, and a line under the table says so.
fn score_text(table: &Table, scores: &[Score], ranks: &[Option<u8>], width: usize) -> String {
    let armada = table.catalog().armada.is_some();
    let edifice = table.expansions().edifice();
    let shown: Vec<usize> =
        Score::shown(armada).filter(|&i| edifice || Score::CATEGORIES[i] != "edifice").collect();
    // Players (the Free City aside; team ranks are the teams') level on points with another.
    let ranked = |i: usize| table.free_city() != Some(i) && !table.teams();
    let tied: Vec<bool> = (0..scores.len())
        .map(|i| {
            ranked(i) && (0..scores.len()).any(|j| j != i && ranked(j) && scores[j].total == scores[i].total)
        })
        .collect();
    let any_tie = tied.iter().any(|&t| t);
    let coins = |i: usize| table.cities().get(i).map_or(0, |c| c.coins);
    let name = |i: usize| table.names().get(i).map(String::as_str).unwrap_or_default();
    let build = |short: bool, gap: usize| {
        let mut header = vec!["player".to_string()];
        header.extend(shown.iter().map(|&i| {
            let c = Score::CATEGORIES[i];
            if short { crate::output::short_category(c) } else { c }.to_string()
        }));
        if any_tie {
            header.push("coins".into());
        }
        header.push("rank".into());
        let mut rows = vec![header];
        for (i, (s, rank)) in scores.iter().zip(ranks).enumerate() {
            let free_city = if table.free_city() == Some(i) { " (Free City)" } else { "" };
            let mut row = vec![format!("{i} {}{free_city}", name(i))];
            let values = s.values();
            row.extend(shown.iter().map(|&k| values[k].to_string()));
            if any_tie {
                row.push(coins(i).to_string());
            }
            let mark = if tied[i] { "*" } else { " " };
            row.push(format!("{}{mark}", rank.map_or("-".to_string(), |r| r.to_string())));
            rows.push(row);
        }
        crate::output::aligned_with(&rows, gap)
    };
    // The first layout that fits: full names, short names, short names one space apart.
    let fits = |t: &String| t.lines().all(|l| crate::output::display_width(l) <= width);
    let mut text = [(false, 2), (true, 2), (true, 1)]
        .into_iter()
        .map(|(short, gap)| build(short, gap))
        .find(fits)
        .unwrap_or_else(|| build(true, 1));
    // One line per group of tied players.
    let mut totals: Vec<i32> = (0..scores.len()).filter(|&i| tied[i]).map(|i| scores[i].total).collect();
    totals.sort_unstable_by(|a, b| b.cmp(a));
    totals.dedup();
    for total in totals {
        let mut group: Vec<usize> =
            (0..scores.len()).filter(|&i| tied[i] && scores[i].total == total).collect();
        group.sort_by_key(|&i| std::cmp::Reverse(coins(i)));
        let share = if group.windows(2).any(|w| coins(w[0]) == coins(w[1])) {
            "; equal coins share the rank"
        } else {
            ""
        };
        text.push_str(&format!("\n* level on {total} points: ranked by coins, most first{share}"));
    }
    text
}

fn cost_text(who: &str, answer: &CostAnswer) -> String {
    let mut out = format!("{} for {who}: ", answer.what);
    match answer.options.as_slice() {
        [] => {
            out.push_str("cannot be built now");
            if let Some(reason) = &answer.reason {
                out.push_str(&format!("\n{reason}"));
            }
        }
        [only] if only.chain && only.total() == 0 => {
            out.push_str(answer.reason.as_deref().unwrap_or("free by chain"))
        }
        options => {
            let n = options.len();
            out.push_str(&format!("{n} way{} to pay\n", if n == 1 { "" } else { "s" }));
            // Armada's trading zones: two more columns, only when a way pays the 2nd players.
            let second = options.iter().any(|o| o.second_left > 0 || o.second_right > 0);
            let mut header = vec![String::new(), "left".into(), "right".into()];
            if second {
                header.extend(["2nd left".into(), "2nd right".into()]);
            }
            header.extend(["bank".into(), "total".into()]);
            let mut rows = vec![header];
            for o in options {
                let mut row = vec![String::new(), o.left.to_string(), o.right.to_string()];
                if second {
                    row.extend([o.second_left.to_string(), o.second_right.to_string()]);
                }
                row.extend([o.bank.to_string(), o.total().to_string()]);
                rows.push(row);
            }
            out.push_str(&aligned(&rows));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wide_terminal_keeps_the_full_category_names() {
        let table = Table::from_json(
            r#"{"players": [{"name": "Ann", "wonder": "Giza", "side": "A", "coins": 4},
                {"name": "Bob", "wonder": "Rhodes", "side": "A"},
                {"name": "Cy", "wonder": "Babylon", "side": "A"}]}"#,
        )
        .unwrap();
        let (scores, ranks) = (table.scores(), table.ranks());
        let wide = score_text(&table, &scores, &ranks, 120);
        let header: Vec<&str> = wide.lines().next().unwrap().split_whitespace().collect();
        assert_eq!(
            header,
            [
                "player",
                "military",
                "treasury",
                "wonder",
                "civilian",
                "science",
                "commercial",
                "guilds",
                "total",
                "coins",
                "rank"
            ]
        );
        assert!(wide.lines().any(|l| l.len() > 80), "{wide}");
        let narrow = score_text(&table, &scores, &ranks, 80);
        assert!(narrow.lines().all(|l| l.len() <= 80), "{narrow}");
        assert!(narrow.starts_with("player  mil  treas  wond"), "{narrow}");
    }
}
