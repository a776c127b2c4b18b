//! `wonders score` and `wonders cost`: questions about a physical game written in the table format
//! (see `wonders_core::table`).

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
        let mut text = score_text(&table, &scores, &ranks);
        if let Some(teams) = table.team_results() {
            let mut rows = vec![vec!["team".to_string(), "total".into(), "rank".into()]];
            for t in teams {
                let name = |i: u8| table.names().get(i as usize).cloned().unwrap_or_default();
                let [a, b] = t.players;
                rows.push(vec![
                    format!("{a} {} + {b} {}", name(a), name(b)),
                    t.total.to_string(),
                    t.rank.to_string(),
                ]);
            }
            text.push_str(&aligned(&rows));
        }
        if table.expansions().edifice() {
            text.push_str("edifice: project rewards and debt use provisional values (edifice.md §5)\n");
        }
        if armada {
            text.push_str(
                "armada: shipyard costs, most track values and card costs are provisional (armada.md §10)\n",
            );
        }
        text
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

/// Columns of a terminal a string takes: 2 for East Asian wide characters, 1 otherwise.
fn display_width(s: &str) -> usize {
    s.chars()
        .map(|c| {
            let c = c as u32;
            let wide = matches!(c,
                0x1100..=0x115F | 0x2E80..=0x303E | 0x3041..=0x33FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF
                | 0xA000..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F
                | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 | 0x1F300..=0x1F64F | 0x20000..=0x3FFFD);
            if wide { 2 } else { 1 }
        })
        .sum()
}

/// An aligned table: the first column left-aligned, the others right-aligned.
fn aligned(rows: &[Vec<String>]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| rows.iter().filter_map(|r| r.get(c)).map(|s| display_width(s)).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for row in rows {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            let pad = " ".repeat(widths[c].saturating_sub(display_width(cell)));
            if c == 0 {
                line.push_str(cell);
                line.push_str(&pad);
            } else {
                line.push_str("  ");
                line.push_str(&pad);
                line.push_str(cell);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.pop();
    out
}

fn score_text(table: &Table, scores: &[Score], ranks: &[Option<u8>]) -> String {
    let mut header = vec!["player".to_string()];
    let armada = table.catalog().armada.is_some();
    header.extend(Score::shown(armada).map(|i| Score::CATEGORIES[i].to_string()));
    header.push("rank".into());
    let mut rows = vec![header];
    for (i, (s, rank)) in scores.iter().zip(ranks).enumerate() {
        let name = table.names().get(i).map(String::as_str).unwrap_or_default();
        let free_city = if table.free_city() == Some(i) { " (Free City)" } else { "" };
        let mut row = vec![format!("{i} {name}{free_city}")];
        let values = s.values();
        row.extend(Score::shown(armada).map(|i| values[i].to_string()));
        row.push(rank.map_or("-".to_string(), |r| r.to_string()));
        rows.push(row);
    }
    aligned(&rows)
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
    fn alignment_counts_wide_characters_twice() {
        assert_eq!(display_width("Ann"), 3);
        assert_eq!(display_width("安妮"), 4);
        let text = aligned(&[
            vec!["player".into(), "total".into()],
            vec!["安妮".into(), "7".into()],
            vec!["Bob".into(), "12".into()],
        ]);
        assert_eq!(text, "player  total\n安妮        7\nBob        12");
    }
}
