//! The catalog endpoint: every card and wonder of an edition, with English and Chinese names,
//! costs and effect summaries, for the UI to draw cards and switch languages; with the Edifice
//! expansion's projects and debt tokens (the score pad lists them), and the Armada cards.

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

#[derive(Serialize)]
struct CatalogJson<'a> {
    edition: &'static str,
    cards: Vec<CardJson<'a>>,
    wonders: Vec<WonderJson<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    edifice: Option<EdificeJson<'a>>,
}

fn letters(r: &wonders_core::Resources) -> String {
    if r.is_empty() { String::new() } else { r.to_string() }
}

fn build(catalog: &'static Catalog) -> String {
    let cards = catalog
        .cards
        .iter()
        .map(|c| {
            // Armada cards: the whole effect, Armada part included (in English only: the data
            // has no Chinese effect texts).
            let armada = catalog.armada.as_deref().zip(catalog.armada_card(c.id)).map(|(d, a)| d.card(a));
            CardJson {
                name: &c.name,
                zh: &c.zh,
                age: c.age,
                colour: c.colour.name(),
                coins: c.coins,
                cost: letters(&c.cost),
                effect: armada.map_or_else(|| c.effect_text(), |a| a.effect_text()),
                effect_zh: armada.map_or_else(|| c.effect_text_zh(), |a| a.effect_text()),
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
    let doc = CatalogJson { edition: catalog.edition.code(), cards, wonders, edifice };
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
}
