//! The catalog endpoint: every card and wonder of an edition, with English and Chinese names,
//! costs and effect summaries, for the UI to draw cards and switch languages; with the Edifice
//! expansion's projects and debt tokens (the score pad lists them), the Armada cards, and the
//! Armada shipyards (every step of every track with its cost on each board, for the page to draw
//! whole boards).

use crate::msg::ApiError;
use serde::Serialize;
use std::sync::OnceLock;
use wonders_core::{Catalog, Edition, Side};

/// A card in the catalog.
#[derive(Serialize)]
struct CardJson<'a> {
    name: &'a str,
    zh: &'a str,
    age: u8,
    colour: &'static str,
    coins: u8,
    /// Resource letters (W wood, S stone, C clay, O ore, G glass, L loom, P papyrus); empty when none.
    cost: String,
    effect: String,
    /// The effect in Traditional Chinese.
    effect_zh: String,
    chain_from: &'a [String],
    /// Armada: the card is one of the expansion's (its effect then includes the Armada part).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    armada: bool,
    /// Armada: whether any value of the card is provisional (armada.md §10.4).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    provisional: bool,
}

#[derive(Serialize)]
struct StageJson {
    cost: String,
    effect: String,
    effect_zh: String,
}

#[derive(Serialize)]
struct SideJson {
    label: &'static str,
    stages: Vec<StageJson>,
}

#[derive(Serialize)]
struct WonderJson<'a> {
    name: &'a str,
    full_name: &'a str,
    zh: &'a str,
    start: char,
    sides: Vec<SideJson>,
}

/// An Edifice great project (for the score pad's lists and the game page's texts).
#[derive(Serialize)]
struct ProjectJson<'a> {
    name: &'a str,
    zh: &'a str,
    age: u8,
    cost: String,
    reward: String,
    penalty: String,
    /// Whether any of its values is provisional (edifice.md §5).
    provisional: bool,
}

/// The Edifice data: every project, and the points each Age's debt token costs.
#[derive(Serialize)]
struct EdificeJson<'a> {
    projects: Vec<ProjectJson<'a>>,
    /// VP lost per debt token of Age I, II and III.
    debt: [u8; 3],
    /// Whether each debt value is provisional.
    debt_provisional: [bool; 3],
}

/// What one track space gives (zero values left out), as the state's `armada` writes it.
#[derive(Serialize)]
struct TrackSpaceJson {
    #[serde(skip_serializing_if = "is_zero")]
    naval: u8,
    #[serde(skip_serializing_if = "is_zero")]
    trade: u8,
    #[serde(skip_serializing_if = "is_zero")]
    coins: u8,
    #[serde(skip_serializing_if = "is_zero")]
    tax: u8,
    #[serde(skip_serializing_if = "is_zero")]
    points: u8,
    #[serde(skip_serializing_if = "is_zero")]
    explore: u8,
    /// Whether a value of the space has no printed source (armada.md §10.2).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    provisional: bool,
}

fn is_zero(v: &u8) -> bool {
    *v == 0
}

/// The cost of moving a ship onto one step.
#[derive(Serialize)]
struct StepCostJson {
    #[serde(skip_serializing_if = "is_zero")]
    coins: u8,
    /// Resource letters; empty when none.
    #[serde(skip_serializing_if = "String::is_empty")]
    resources: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    provisional: bool,
}

/// A shipyard board: its number, its wonder fleet, and the cost of steps 1–6 of each fleet.
#[derive(Serialize)]
struct BoardJson {
    number: u8,
    wonder: &'static str,
    /// Fleet name → the costs of steps 1 to 6.
    costs: std::collections::BTreeMap<&'static str, Vec<StepCostJson>>,
}

/// The Armada shipyards: the four tracks (the same on every board) and the boards' costs.
#[derive(Serialize)]
struct ArmadaJson {
    /// Fleet name → spaces 0 (start) to 6.
    tracks: std::collections::BTreeMap<&'static str, Vec<TrackSpaceJson>>,
    boards: Vec<BoardJson>,
}

#[derive(Serialize)]
struct CatalogJson<'a> {
    edition: &'static str,
    cards: Vec<CardJson<'a>>,
    wonders: Vec<WonderJson<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    edifice: Option<EdificeJson<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    armada: Option<ArmadaJson>,
}

fn armada_json(data: &wonders_core::armada::ArmadaData) -> ArmadaJson {
    use wonders_core::armada::{Fleet, Status, TrackValue};
    let tracks = Fleet::ALL
        .iter()
        .map(|&f| {
            let spaces = (0..=6u8)
                .map(|step| {
                    let t = data.track(f, step).unwrap_or_default();
                    let provisional = TrackValue::ALL.iter().any(|&v| {
                        t.get(v) > 0 && data.track_status(f, step, v).is_some_and(Status::is_provisional)
                    });
                    TrackSpaceJson {
                        naval: t.naval,
                        trade: t.trade,
                        coins: t.coins,
                        tax: t.tax,
                        points: t.points,
                        explore: t.explore,
                        provisional,
                    }
                })
                .collect();
            (f.name(), spaces)
        })
        .collect();
    let boards = data
        .boards()
        .iter()
        .map(|b| BoardJson {
            number: b.number,
            wonder: b.wonder.name(),
            costs: Fleet::ALL
                .iter()
                .map(|&f| {
                    let costs = (1..=6u8)
                        .map(|step| {
                            let c = data.step_cost(b.id, f, step).unwrap_or_default();
                            StepCostJson {
                                coins: c.coins,
                                resources: letters(&c.resources),
                                provisional: data
                                    .step_cost_status(b.id, f, step)
                                    .is_some_and(Status::is_provisional),
                            }
                        })
                        .collect();
                    (f.name(), costs)
                })
                .collect(),
        })
        .collect();
    ArmadaJson { tracks, boards }
}

fn letters(r: &wonders_core::Resources) -> String {
    if r.is_empty() { String::new() } else { r.to_string() }
}

fn build(catalog: &'static Catalog) -> String {
    let cards = catalog
        .cards
        .iter()
        .map(|c| {
            // Armada cards: the whole effect, Armada part included.
            let armada = catalog.armada.as_deref().zip(catalog.armada_card(c.id)).map(|(d, a)| d.card(a));
            CardJson {
                name: &c.name,
                zh: &c.zh,
                age: c.age,
                colour: c.colour.name(),
                coins: c.coins,
                cost: letters(&c.cost),
                effect: armada.map_or_else(|| c.effect_text(), |a| a.effect_text()),
                effect_zh: armada.map_or_else(|| c.effect_text_zh(), |a| a.effect_text_zh()),
                chain_from: &c.chain_from,
                armada: armada.is_some(),
                provisional: armada.is_some_and(|a| a.provisional()),
            }
        })
        .collect();
    let wonders = catalog
        .wonders
        .iter()
        .map(|w| WonderJson {
            name: &w.name,
            full_name: &w.full_name,
            zh: &w.zh,
            start: w.start.letter(),
            sides: [Side::A, Side::B]
                .into_iter()
                .map(|side| SideJson {
                    label: side.label(catalog.edition),
                    stages: w
                        .stages(side)
                        .iter()
                        .map(|s| StageJson {
                            cost: letters(&s.cost),
                            effect: s.effects.iter().map(|e| e.to_string()).collect::<Vec<_>>().join(", "),
                            effect_zh: s.effects.iter().map(|e| e.text_zh()).collect::<Vec<_>>().join("，"),
                        })
                        .collect(),
                })
                .collect(),
        })
        .collect();
    let edifice = catalog.edifice.as_deref().map(|data| EdificeJson {
        projects: data
            .projects
            .iter()
            .map(|p| ProjectJson {
                name: &p.name,
                zh: &p.zh,
                age: p.age,
                cost: p.cost_text(),
                reward: p.reward_text(),
                penalty: p.penalty.to_string(),
                provisional: p.provisional(),
            })
            .collect(),
        debt: data.debt.map(|d| d.0),
        debt_provisional: data.debt.map(|d| d.1.provisional()),
    });
    let armada = catalog.armada.as_deref().map(armada_json);
    let doc = CatalogJson { edition: catalog.edition.code(), cards, wonders, edifice, armada };
    serde_json::to_string(&doc).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

/// The catalog of an edition (`1e` or `2e`) as JSON, built once.
pub fn json(edition: &str) -> Result<&'static str, ApiError> {
    static FIRST: OnceLock<String> = OnceLock::new();
    static SECOND: OnceLock<String> = OnceLock::new();
    let edition = Edition::parse(edition)
        .ok_or_else(|| ApiError::NotFound(format!("unknown edition `{edition}` (1e or 2e)")))?;
    let cell = match edition {
        Edition::First => &FIRST,
        Edition::Second => &SECOND,
    };
    // With Ur and Carthage (Edifice's boards; the edition's own keep their ids) and the 24
    // Armada cards (after the edition's, which keep theirs).
    Ok(cell.get_or_init(|| build(Catalog::with_builtin_armada(edition, true))).as_str())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_catalog_lists_the_edifice_projects_and_debt() {
        // edifice.md §5.3: five projects per Age; debt tokens −2, −3, −5 (001, confirmed).
        let doc: serde_json::Value = serde_json::from_str(super::json("1e").unwrap()).unwrap();
        let projects = doc["edifice"]["projects"].as_array().unwrap();
        for age in 1..=3 {
            assert_eq!(projects.iter().filter(|p| p["age"] == age).count(), 5);
        }
        let belvedere = projects.iter().find(|p| p["name"] == "Belvedere").unwrap();
        assert_eq!(
            (&belvedere["zh"], &belvedere["cost"]),
            (&serde_json::json!("景觀樓"), &serde_json::json!("1 coin"))
        );
        assert_eq!(doc["edifice"]["debt"], serde_json::json!([2, 3, 5]));
        assert_eq!(doc["edifice"]["debt_provisional"], serde_json::json!([false, false, false]));
    }

    #[test]
    fn the_catalog_draws_whole_shipyards() {
        // Every board's four tracks: spaces 0 to 6 and the cost of steps 1 to 6, as the state
        // gives a ship's next step.
        let doc: serde_json::Value = serde_json::from_str(super::json("1e").unwrap()).unwrap();
        let armada = &doc["armada"];
        for fleet in ["red", "yellow", "blue", "green"] {
            assert_eq!(armada["tracks"][fleet].as_array().unwrap().len(), 7, "{fleet}");
        }
        let boards = armada["boards"].as_array().unwrap();
        assert_eq!(boards.len(), 8);
        for b in boards {
            for fleet in ["red", "yellow", "blue", "green"] {
                assert_eq!(b["costs"][fleet].as_array().unwrap().len(), 6);
            }
        }
        // The blue track ends on VP, the green one explores, the yellow one gives a trade level.
        let top = |f: &str| armada["tracks"][f][6].clone();
        assert!(top("blue")["points"].as_u64().unwrap() > 0, "{}", top("blue"));
        assert!(
            armada["tracks"]["green"].as_array().unwrap().iter().any(|s| s["explore"].as_u64().is_some())
        );
        assert!(top("yellow")["trade"].as_u64().unwrap() > 0, "{}", top("yellow"));
    }

    #[test]
    fn armada_cards_have_their_effects_in_chinese() {
        // The Chinese page shows `effect_zh`: an Armada card's whole effect, its Armada part too.
        let doc: serde_json::Value = serde_json::from_str(super::json("1e").unwrap()).unwrap();
        let card =
            |name: &str| doc["cards"].as_array().unwrap().iter().find(|c| c["name"] == name).unwrap().clone();
        let dock = card("Dry Dock");
        assert_eq!(
            (&dock["effect"], &dock["effect_zh"]),
            (
                &serde_json::json!("free move of any ship, 2 VP"),
                &serde_json::json!("免費移動任意一艘船隻一格，2分")
            )
        );
        for c in doc["cards"].as_array().unwrap().iter().filter(|c| c["armada"] == true) {
            let zh = c["effect_zh"].as_str().unwrap();
            assert!(!zh.is_empty() && !zh.chars().any(|ch| ch.is_ascii_alphabetic()), "{}: {zh}", c["name"]);
        }
    }
}
