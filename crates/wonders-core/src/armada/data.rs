//! The Armada data: the 8 shipyard boards with their naval-construction costs, the shipyard
//! tracks, the 24 Armada cards and the 27 islands, each value with its [`Status`], read from
//! `data/armada.toml` or a replacement file.

use super::{
    ArmadaCardId, ArmadaEffect, BoardId, Fleet, IslandId, IslandSet, NavalCost, Status, TOP_STEP, TrackStep,
    TrackValue,
};
use crate::card::Colour;
use crate::catalog::normalize;
use crate::resources::Resources;
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

/// Number of shipyard boards in the 1st-edition box (armada.md §1).
pub const BOARDS: usize = 8;
/// Armada cards per Age (armada.md §1: 8 per Age).
pub const CARDS_PER_AGE: usize = 8;
/// Island cards per level (armada.md §1: 9 per level).
pub const ISLANDS_PER_LEVEL: usize = 9;

/// Why an Armada data file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArmadaDataError {
    /// The TOML itself is malformed or has an unknown field (the message names it).
    #[error("armada data: {0}")]
    Syntax(String),
    /// A value inside is wrong.
    #[error("armada data, {what}: {problem}")]
    Value {
        /// The entry concerned, e.g. ``card `Dock` `` or `costs of board 3, red fleet`.
        what: String,
        /// What is wrong.
        problem: String,
    },
}

fn value_err(what: &str, problem: impl Into<String>) -> ArmadaDataError {
    ArmadaDataError::Value { what: what.to_string(), problem: problem.into() }
}

/// A shipyard board (armada.md §3, §10.1, §10.3).
#[derive(Clone, Debug)]
pub struct BoardDef {
    /// Its id.
    pub id: BoardId,
    /// Its number, 1–8 (this project's numbering).
    pub number: u8,
    /// The fleet whose start space carries the wonder symbol: the one a wonder stage may advance.
    pub wonder: Fleet,
    /// Status of the number.
    pub number_status: Status,
    /// Status of the wonder fleet.
    pub wonder_status: Status,
    /// The cost of steps 1–6 of each fleet: `costs[fleet][s − 1]` moves the ship onto step `s`.
    pub costs: [[NavalCost; 6]; 4],
    /// The status of each cost, indexed like `costs`.
    pub cost_status: [[Status; 6]; 4],
    /// Where the board's wonder fleet comes from.
    pub source: String,
    /// Where each fleet's costs come from.
    pub cost_source: [String; 4],
}

/// The status of each single value of an Armada card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardStatus {
    /// Its Age.
    pub age: Status,
    /// Its colour.
    pub colour: Status,
    /// Its Chinese name.
    pub zh: Status,
    /// Its English (working) name and aliases.
    pub name: Status,
    /// Its cost (coins and resources; and that it has no chain).
    pub cost: Status,
    /// Whether it is removed with 3 players.
    pub removed_with_3: Status,
}

/// An Armada card (armada.md §5, §10.4–§10.6): an ordinary structure for every rule.
#[derive(Clone, Debug)]
pub struct ArmadaCardDef {
    /// Its id.
    pub id: ArmadaCardId,
    /// Working English name (no official one is known; armada.md §11.1).
    pub name: String,
    /// Name in rulebook 000.
    pub zh: String,
    /// Other working names.
    pub aliases: Vec<String>,
    /// Age 1, 2 or 3.
    pub age: u8,
    /// Colour: red, yellow, blue or green.
    pub colour: Colour,
    /// The fleet of its colour (the one a naval construction with it advances).
    pub fleet: Fleet,
    /// Coins paid to the bank.
    pub coins: u8,
    /// Resources needed.
    pub cost: Resources,
    /// What it does.
    pub effects: Vec<ArmadaEffect>,
    /// The status of each effect, indexed like `effects`.
    pub effect_status: Vec<Status>,
    /// Whether it shows the two-left / two-right icon and is removed with 3 players (§2.2).
    pub removed_with_3: bool,
    /// The status of its other values.
    pub status: CardStatus,
    /// Where the data comes from.
    pub source: String,
}

impl ArmadaCardDef {
    /// Whether any value of the card is provisional.
    pub fn provisional(&self) -> bool {
        let s = self.status;
        [s.age, s.colour, s.zh, s.name, s.cost, s.removed_with_3]
            .into_iter()
            .chain(self.effect_status.iter().copied())
            .any(Status::is_provisional)
    }

    /// The cost as shown to players, e.g. `1 coin` or `CGL`.
    pub fn cost_text(&self) -> String {
        NavalCost { coins: self.coins, resources: self.cost }.to_string()
    }

    /// Effects as one line of text.
    pub fn effect_text(&self) -> String {
        effects_text(&self.effects)
    }

    /// Effects as one line of Traditional Chinese (the terms of rulebook 000).
    pub fn effect_text_zh(&self) -> String {
        effects_text_zh(&self.effects)
    }
}

/// The status of each single value of an island.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IslandStatus {
    /// Its level.
    pub level: Status,
    /// Its Chinese name.
    pub zh: Status,
    /// Its English (working) name.
    pub name: Status,
}

/// An island card (armada.md §6, §10.7).
#[derive(Clone, Debug)]
pub struct IslandDef {
    /// Its id.
    pub id: IslandId,
    /// Working English name.
    pub name: String,
    /// Name in rulebook 000.
    pub zh: String,
    /// Other working names.
    pub aliases: Vec<String>,
    /// Level 1, 2 or 3 (unrelated to the Age).
    pub level: u8,
    /// What it does, from the moment it is in play.
    pub effects: Vec<ArmadaEffect>,
    /// The status of each effect, indexed like `effects`.
    pub effect_status: Vec<Status>,
    /// The status of its other values.
    pub status: IslandStatus,
    /// Where the data comes from.
    pub source: String,
}

impl IslandDef {
    /// Whether any value of the island is provisional.
    pub fn provisional(&self) -> bool {
        let s = self.status;
        [s.level, s.zh, s.name]
            .into_iter()
            .chain(self.effect_status.iter().copied())
            .any(Status::is_provisional)
    }

    /// Effects as one line of text.
    pub fn effect_text(&self) -> String {
        effects_text(&self.effects)
    }

    /// Effects as one line of Traditional Chinese (the terms of rulebook 000).
    pub fn effect_text_zh(&self) -> String {
        effects_text_zh(&self.effects)
    }
}

/// Effects as one line of English, comma-separated.
fn effects_text(effects: &[ArmadaEffect]) -> String {
    effects.iter().map(|e| e.to_string()).collect::<Vec<_>>().join(", ")
}

/// Effects as one line of Traditional Chinese, separated by full-width commas.
fn effects_text_zh(effects: &[ArmadaEffect]) -> String {
    effects.iter().map(|e| e.text_zh()).collect::<Vec<_>>().join("，")
}

/// A name that matches no Armada card or island, with the closest known name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} `{name}`{}", suggestion.as_ref().map(|s| format!("; did you mean `{s}`?")).unwrap_or_default())]
pub struct UnknownArmadaName {
    /// `Armada card` or `island`.
    pub kind: &'static str,
    /// The name given.
    pub name: String,
    /// The closest known name, if any is close.
    pub suggestion: Option<String>,
}

/// All the Armada data.
#[derive(Clone, Debug)]
pub struct ArmadaData {
    boards: Vec<BoardDef>,
    track: [[TrackStep; 7]; 4],
    track_status: [[[Option<Status>; 6]; 7]; 4],
    track_source: [[String; 7]; 4],
    cards: Vec<ArmadaCardDef>,
    islands: Vec<IslandDef>,
    card_lookup: HashMap<String, ArmadaCardId>,
    island_lookup: HashMap<String, IslandId>,
    /// For each kind of effect ([`ArmadaEffect::kind`]), the cards and the islands that have
    /// one, as bitsets of their ids: derived from `cards` and `islands` when the data are read,
    /// so that a city's effects of one kind are read without going through all its effects.
    kinds: [(u32, IslandSet); ArmadaEffect::KINDS],
}

// ---------------------------------------------------------------------------------------------
// The file format (see the header of data/armada.toml).

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileData {
    boards: Vec<FileBoard>,
    costs: Vec<FileCosts>,
    track: Vec<FileTrack>,
    cards: Vec<FileCard>,
    islands: Vec<FileIsland>,
}

/// One status, or one per item of a list.
#[derive(Deserialize)]
#[serde(untagged)]
enum FileStatus {
    One(String),
    Each(Vec<String>),
}

type StatusTable = BTreeMap<String, FileStatus>;

/// One fleet's six step costs, their statuses and their source, as read.
type CostRow = ([NavalCost; 6], [Status; 6], String);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileBoard {
    number: u8,
    wonder: String,
    status: StatusTable,
    source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileCosts {
    board: u8,
    fleet: String,
    steps: Vec<String>,
    status: StatusTable,
    source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileTrack {
    fleet: String,
    step: u8,
    naval: Option<u8>,
    trade: Option<u8>,
    coins: Option<u8>,
    tax: Option<u8>,
    points: Option<u8>,
    explore: Option<u8>,
    status: StatusTable,
    source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileCard {
    age: u8,
    colour: String,
    zh: String,
    name: String,
    #[serde(default)]
    aliases: Vec<String>,
    cost: String,
    effects: Vec<String>,
    removed_with_3: bool,
    status: StatusTable,
    source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileIsland {
    level: u8,
    zh: String,
    name: String,
    #[serde(default)]
    aliases: Vec<String>,
    effects: Vec<String>,
    status: StatusTable,
    source: String,
}

/// Reads an entry's `status` table: every value must have a status, and no other key is allowed.
struct Statuses<'a> {
    what: &'a str,
    table: StatusTable,
}

impl<'a> Statuses<'a> {
    fn new(what: &'a str, table: StatusTable) -> Self {
        Statuses { what, table }
    }

    fn parse(&self, key: &str, s: &str) -> Result<Status, ArmadaDataError> {
        Status::parse(s).ok_or_else(|| {
            value_err(
                self.what,
                format!(
                    "status `{s}` of `{key}` is not `provisional`, `confirmed high`, `confirmed medium` or `confirmed low`"
                ),
            )
        })
    }

    /// The status of a single value.
    fn one(&mut self, key: &str) -> Result<Status, ArmadaDataError> {
        match self.table.remove(key) {
            None => Err(value_err(self.what, format!("no status for `{key}`"))),
            Some(FileStatus::One(s)) => self.parse(key, &s),
            Some(FileStatus::Each(_)) => {
                Err(value_err(self.what, format!("`{key}` takes one status, not a list")))
            }
        }
    }

    /// The statuses of the `n` items of a list: one for all, or one each.
    fn each(&mut self, key: &str, n: usize) -> Result<Vec<Status>, ArmadaDataError> {
        match self.table.remove(key) {
            None => Err(value_err(self.what, format!("no status for `{key}`"))),
            Some(FileStatus::One(s)) => Ok(vec![self.parse(key, &s)?; n]),
            Some(FileStatus::Each(list)) if list.len() == n => {
                list.iter().map(|s| self.parse(key, s)).collect()
            }
            Some(FileStatus::Each(list)) => {
                Err(value_err(self.what, format!("`{key}` has {n} items but {} statuses", list.len())))
            }
        }
    }

    /// Refuses a status for a value the entry does not have.
    fn finish(self) -> Result<(), ArmadaDataError> {
        match self.table.keys().next() {
            None => Ok(()),
            Some(k) => Err(value_err(self.what, format!("status for unknown value `{k}`"))),
        }
    }
}

fn parse_fleet(what: &str, s: &str) -> Result<Fleet, ArmadaDataError> {
    Fleet::parse(s)
        .ok_or_else(|| value_err(what, format!("unknown fleet `{s}` (red, yellow, blue or green)")))
}

fn parse_cost(what: &str, s: &str) -> Result<NavalCost, ArmadaDataError> {
    NavalCost::parse(s).ok_or_else(|| value_err(what, format!("bad cost `{s}`")))
}

fn parse_effects(what: &str, codes: &[String]) -> Result<Vec<ArmadaEffect>, ArmadaDataError> {
    if codes.is_empty() {
        return Err(value_err(what, "no effects"));
    }
    codes.iter().map(|c| ArmadaEffect::parse(c).map_err(|e| value_err(what, e.to_string()))).collect()
}

/// Adds every name of an entry to a lookup table, refusing a name used twice.
fn register<I: Copy>(
    lookup: &mut HashMap<String, I>,
    what: &str,
    names: impl IntoIterator<Item = String>,
    id: I,
) -> Result<(), ArmadaDataError> {
    for n in names {
        let key = normalize(&n);
        if key.is_empty() {
            return Err(value_err(what, "an empty name"));
        }
        if lookup.insert(key, id).is_some() {
            return Err(value_err(what, format!("the name `{n}` is used twice")));
        }
    }
    Ok(())
}

fn closest<'a>(name: &str, candidates: impl Iterator<Item = (&'a str, &'a str)>) -> Option<String> {
    let key = normalize(name);
    candidates
        .map(|(cand, english)| (strsim::levenshtein(&key, &normalize(cand)), english))
        .min_by_key(|(d, _)| *d)
        .filter(|(d, _)| *d <= key.chars().count().max(3) / 2 + 1)
        .map(|(_, s)| s.to_string())
}

impl ArmadaData {
    /// The built-in data (`data/armada.toml`).
    pub fn builtin() -> &'static ArmadaData {
        static DATA: OnceLock<ArmadaData> = OnceLock::new();
        DATA.get_or_init(|| match ArmadaData::from_toml(include_str!("../../data/armada.toml")) {
            Ok(d) => d,
            // The built-in file is checked by the test suite; this cannot happen in a build that
            // passed its tests.
            Err(e) => panic!("built-in Armada data is invalid: {e}"),
        })
    }

    /// Reads the data-file format (the header of `data/armada.toml` describes it). Refuses, with
    /// a message naming the entry, malformed TOML, unknown fields, unknown fleets, colours,
    /// effect codes or statuses, a value without a status, duplicate or missing boards, fleet
    /// rows and track steps, and card or island counts other than the box's (8 per Age, 9 per
    /// level).
    ///
    /// ```
    /// use wonders_core::armada::ArmadaData;
    /// let text = include_str!("../../data/armada.toml").replace("\"NAVAL3\"]", "\"NAVAL9X\"]");
    /// let err = ArmadaData::from_toml(&text).unwrap_err().to_string();
    /// assert!(err.contains("Coastal Fortifications") && err.contains("NAVAL9X"), "{err}");
    /// ```
    pub fn from_toml(text: &str) -> Result<ArmadaData, ArmadaDataError> {
        let file: FileData = toml::from_str(text).map_err(|e| ArmadaDataError::Syntax(e.to_string()))?;

        // Boards.
        let mut wonder: [Option<(Fleet, Status, Status, String)>; BOARDS] = Default::default();
        for b in file.boards {
            let what = format!("board {}", b.number);
            if !(1..=BOARDS as u8).contains(&b.number) {
                return Err(value_err(&what, format!("boards are numbered 1 to {BOARDS}")));
            }
            let fleet = parse_fleet(&what, &b.wonder)?;
            let mut st = Statuses::new(&what, b.status);
            let (number_status, wonder_status) = (st.one("number")?, st.one("wonder")?);
            st.finish()?;
            let slot = &mut wonder[b.number as usize - 1];
            if slot.is_some() {
                return Err(value_err(&what, "defined twice"));
            }
            *slot = Some((fleet, number_status, wonder_status, b.source));
        }
        let mut costs: [[Option<CostRow>; 4]; BOARDS] = Default::default();
        for c in file.costs {
            let what = format!("costs of board {}, {} fleet", c.board, c.fleet);
            if !(1..=BOARDS as u8).contains(&c.board) {
                return Err(value_err(&what, format!("boards are numbered 1 to {BOARDS}")));
            }
            let fleet = parse_fleet(&what, &c.fleet)?;
            if c.steps.len() != TOP_STEP as usize {
                return Err(value_err(&what, format!("{} step costs, not {TOP_STEP}", c.steps.len())));
            }
            let mut steps = [NavalCost::default(); 6];
            for (slot, s) in steps.iter_mut().zip(&c.steps) {
                *slot = parse_cost(&what, s)?;
            }
            let mut st = Statuses::new(&what, c.status);
            let status: [Status; 6] = st.each("steps", 6)?.try_into().unwrap_or([Status::Provisional; 6]);
            st.finish()?;
            let slot = &mut costs[c.board as usize - 1][fleet as usize];
            if slot.is_some() {
                return Err(value_err(&what, "defined twice"));
            }
            *slot = Some((steps, status, c.source));
        }
        let mut boards = Vec::with_capacity(BOARDS);
        for (i, (w, row)) in wonder.into_iter().zip(costs).enumerate() {
            let what = format!("board {}", i + 1);
            let (fleet, number_status, wonder_status, source) =
                w.ok_or_else(|| value_err(&what, "missing (every board 1-8 needs an entry in `boards`)"))?;
            let mut board = BoardDef {
                id: BoardId(i as u8),
                number: i as u8 + 1,
                wonder: fleet,
                number_status,
                wonder_status,
                costs: [[NavalCost::default(); 6]; 4],
                cost_status: [[Status::Provisional; 6]; 4],
                source,
                cost_source: Default::default(),
            };
            for (f, entry) in Fleet::ALL.into_iter().zip(row) {
                let (steps, status, source) =
                    entry.ok_or_else(|| value_err(&what, format!("no costs for the {f} fleet")))?;
                board.costs[f as usize] = steps;
                board.cost_status[f as usize] = status;
                board.cost_source[f as usize] = source;
            }
            boards.push(board);
        }

        // Tracks.
        let mut track = [[TrackStep::default(); 7]; 4];
        let mut track_status = [[[None; 6]; 7]; 4];
        let mut track_source: [[String; 7]; 4] = Default::default();
        let mut seen = [[false; 7]; 4];
        for t in file.track {
            let what = format!("track {} step {}", t.fleet, t.step);
            let fleet = parse_fleet(&what, &t.fleet)?;
            if !(1..=TOP_STEP).contains(&t.step) {
                return Err(value_err(&what, "steps are numbered 1 to 6 (the start space gives nothing)"));
            }
            let (f, s) = (fleet as usize, t.step as usize);
            if std::mem::replace(&mut seen[f][s], true) {
                return Err(value_err(&what, "defined twice"));
            }
            let values = [t.naval, t.trade, t.coins, t.tax, t.points, t.explore];
            let mut st = Statuses::new(&what, t.status);
            for (v, n) in TrackValue::ALL.into_iter().zip(values) {
                if let Some(n) = n {
                    if v == TrackValue::Explore && n > 3 {
                        return Err(value_err(&what, format!("island level {n} is not 1, 2 or 3")));
                    }
                    track[f][s].set(v, n);
                    track_status[f][s][v as usize] = Some(st.one(v.key())?);
                }
            }
            st.finish()?;
            track_source[f][s] = t.source;
        }
        for fleet in Fleet::ALL {
            for step in 1..=TOP_STEP {
                if !seen[fleet as usize][step as usize] {
                    return Err(value_err(&format!("track {fleet} step {step}"), "missing"));
                }
            }
        }
        // The start space: trade level 0, confirmed (armada.md §4, §10.2); it gives nothing else.
        track_status[Fleet::Yellow as usize][0][TrackValue::Trade as usize] =
            Some(Status::Confirmed(super::Confidence::High));
        for src in &mut track_source {
            src[0] = "armada.md §4, §10.2 (the start space gives nothing)".to_string();
        }

        // Cards.
        let mut cards = Vec::with_capacity(file.cards.len());
        let mut card_lookup = HashMap::new();
        for (i, c) in file.cards.into_iter().enumerate() {
            let what = format!("card `{}`", c.name);
            if !(1..=3).contains(&c.age) {
                return Err(value_err(&what, format!("age {} is not 1, 2 or 3", c.age)));
            }
            let colour = Colour::parse(&c.colour)
                .ok_or_else(|| value_err(&what, format!("unknown colour `{}`", c.colour)))?;
            let fleet = Fleet::from_colour(colour).ok_or_else(|| {
                value_err(
                    &what,
                    format!("colour `{}`: Armada cards are red, yellow, blue or green", c.colour),
                )
            })?;
            let cost = parse_cost(&what, &c.cost)?;
            let effects = parse_effects(&what, &c.effects)?;
            let mut st = Statuses::new(&what, c.status);
            let status = CardStatus {
                age: st.one("age")?,
                colour: st.one("colour")?,
                zh: st.one("zh")?,
                name: st.one("name")?,
                cost: st.one("cost")?,
                removed_with_3: st.one("removed_with_3")?,
            };
            let effect_status = st.each("effects", effects.len())?;
            st.finish()?;
            let id = ArmadaCardId(i as u8);
            let names = [c.name.clone(), c.zh.clone()].into_iter().chain(c.aliases.iter().cloned());
            register(&mut card_lookup, &what, names, id)?;
            cards.push(ArmadaCardDef {
                id,
                name: c.name,
                zh: c.zh,
                aliases: c.aliases,
                age: c.age,
                colour,
                fleet,
                coins: cost.coins,
                cost: cost.resources,
                effects,
                effect_status,
                removed_with_3: c.removed_with_3,
                status,
                source: c.source,
            });
        }
        for age in 1..=3u8 {
            let n = cards.iter().filter(|c| c.age == age).count();
            if n != CARDS_PER_AGE {
                return Err(value_err("cards", format!("Age {age} has {n} cards, not {CARDS_PER_AGE}")));
            }
        }

        // Islands.
        let mut islands = Vec::with_capacity(file.islands.len());
        let mut island_lookup = HashMap::new();
        for (i, d) in file.islands.into_iter().enumerate() {
            let what = format!("island `{}`", d.name);
            if !(1..=3).contains(&d.level) {
                return Err(value_err(&what, format!("level {} is not 1, 2 or 3", d.level)));
            }
            let effects = parse_effects(&what, &d.effects)?;
            let mut st = Statuses::new(&what, d.status);
            let status = IslandStatus { level: st.one("level")?, zh: st.one("zh")?, name: st.one("name")? };
            let effect_status = st.each("effects", effects.len())?;
            st.finish()?;
            let id = IslandId(i as u8);
            let names = [d.name.clone(), d.zh.clone()].into_iter().chain(d.aliases.iter().cloned());
            register(&mut island_lookup, &what, names, id)?;
            islands.push(IslandDef {
                id,
                name: d.name,
                zh: d.zh,
                aliases: d.aliases,
                level: d.level,
                effects,
                effect_status,
                status,
                source: d.source,
            });
        }
        for level in 1..=3u8 {
            let n = islands.iter().filter(|d| d.level == level).count();
            if n != ISLANDS_PER_LEVEL {
                return Err(value_err(
                    "islands",
                    format!("level {level} has {n} islands, not {ISLANDS_PER_LEVEL}"),
                ));
            }
        }

        let mut kinds = [(0u32, IslandSet::EMPTY); ArmadaEffect::KINDS];
        for card in &cards {
            for e in &card.effects {
                if card.id.0 < 32 {
                    kinds[e.kind()].0 |= 1 << card.id.0;
                }
            }
        }
        for island in &islands {
            for e in &island.effects {
                kinds[e.kind()].1.insert(island.id);
            }
        }
        Ok(ArmadaData {
            boards,
            track,
            track_status,
            track_source,
            cards,
            islands,
            card_lookup,
            island_lookup,
            kinds,
        })
    }

    /// Every board, indexed by [`BoardId`] (board number − 1).
    pub fn boards(&self) -> &[BoardDef] {
        &self.boards
    }

    /// One board.
    #[inline]
    pub fn board(&self, id: BoardId) -> &BoardDef {
        &self.boards[id.0 as usize]
    }

    /// The board with that printed number (1–8).
    pub fn board_by_number(&self, number: u8) -> Option<BoardId> {
        self.boards.iter().find(|b| b.number == number).map(|b| b.id)
    }

    /// The cost of moving `fleet`'s ship onto step `step` (1–6) on board `board`; `None` for any
    /// other step.
    #[inline]
    pub fn step_cost(&self, board: BoardId, fleet: Fleet, step: u8) -> Option<NavalCost> {
        let i = (step as usize).checked_sub(1)?;
        self.board(board).costs[fleet as usize].get(i).copied()
    }

    /// The cost of the next step of a ship now on step `at` (0–5); `None` on the top step.
    #[inline]
    pub fn next_step_cost(&self, board: BoardId, fleet: Fleet, at: u8) -> Option<NavalCost> {
        self.step_cost(board, fleet, at.checked_add(1)?)
    }

    /// The status of the cost of step `step` (1–6).
    pub fn step_cost_status(&self, board: BoardId, fleet: Fleet, step: u8) -> Option<Status> {
        let i = (step as usize).checked_sub(1)?;
        self.board(board).cost_status[fleet as usize].get(i).copied()
    }

    /// The values of space `step` (0–6) of `fleet`'s track, the same on every board; `None` above
    /// step 6.
    #[inline]
    pub fn track(&self, fleet: Fleet, step: u8) -> Option<TrackStep> {
        self.track[fleet as usize].get(step as usize).copied()
    }

    /// The status of one value of a track space; `None` where the data gives no such value
    /// there (it is 0: e.g. a red space has no trade level).
    pub fn track_status(&self, fleet: Fleet, step: u8, value: TrackValue) -> Option<Status> {
        self.track_status[fleet as usize].get(step as usize)?[value as usize]
    }

    /// Where a track space's values come from.
    pub fn track_source(&self, fleet: Fleet, step: u8) -> Option<&str> {
        self.track_source[fleet as usize].get(step as usize).map(String::as_str)
    }

    /// Every Armada card, indexed by [`ArmadaCardId`].
    pub fn cards(&self) -> &[ArmadaCardDef] {
        &self.cards
    }

    /// The cards (a bitset of [`ArmadaCardId`]) and the islands that have an effect of that
    /// kind ([`ArmadaEffect::kind`]).
    #[inline]
    pub(crate) fn with_kind(&self, kind: usize) -> (u32, IslandSet) {
        self.kinds.get(kind).copied().unwrap_or((0, IslandSet::EMPTY))
    }

    /// One Armada card.
    #[inline]
    pub fn card(&self, id: ArmadaCardId) -> &ArmadaCardDef {
        &self.cards[id.0 as usize]
    }

    /// The Armada cards of Age `age` from which [`super::dealt_per_age`]`(players)` are drawn
    /// (§2.2): all 8 of the Age, without the two-neighbour cards with 3 players.
    ///
    /// ```
    /// use wonders_core::armada::ArmadaData;
    /// let data = ArmadaData::builtin();
    /// assert_eq!(data.age_pool(1, 4).len(), 8);
    /// assert_eq!(data.age_pool(1, 3).len(), 6); // Dock and East Trading Zone are out
    /// ```
    pub fn age_pool(&self, age: u8, players: u8) -> Vec<ArmadaCardId> {
        self.age_pool_iter(age, players).collect()
    }

    /// [`Self::age_pool`] without a list of its own, in the same (id) order.
    pub fn age_pool_iter(&self, age: u8, players: u8) -> impl Iterator<Item = ArmadaCardId> + '_ {
        self.cards.iter().filter(move |c| c.age == age && !(players == 3 && c.removed_with_3)).map(|c| c.id)
    }

    /// Finds a card by its working English name (any case), Chinese name or alias.
    pub fn find_card(&self, name: &str) -> Result<ArmadaCardId, UnknownArmadaName> {
        self.card_lookup.get(&normalize(name)).copied().ok_or_else(|| UnknownArmadaName {
            kind: "Armada card",
            name: name.to_string(),
            suggestion: closest(
                name,
                self.cards
                    .iter()
                    .flat_map(|c| [(c.name.as_str(), c.name.as_str()), (c.zh.as_str(), c.name.as_str())]),
            ),
        })
    }

    /// Every island, indexed by [`IslandId`].
    pub fn islands(&self) -> &[IslandDef] {
        &self.islands
    }

    /// One island.
    #[inline]
    pub fn island(&self, id: IslandId) -> &IslandDef {
        &self.islands[id.0 as usize]
    }

    /// The islands of one level (1–3), the cards of that level's deck.
    pub fn islands_of_level(&self, level: u8) -> Vec<IslandId> {
        self.islands.iter().filter(|d| d.level == level).map(|d| d.id).collect()
    }

    /// Finds an island by its working English name (any case), Chinese name or alias.
    ///
    /// ```
    /// use wonders_core::armada::ArmadaData;
    /// let data = ArmadaData::builtin();
    /// let id = data.find_island("inhabited isle").unwrap();
    /// assert_eq!(data.island(id).zh, "人煙之島");
    /// assert_eq!(data.find_island("迷霧島").map(|i| data.island(i).level), Ok(1));
    /// let err = data.find_island("Misty Isel").unwrap_err();
    /// assert_eq!(err.to_string(), "unknown island `Misty Isel`; did you mean `Misty Isle`?");
    /// ```
    pub fn find_island(&self, name: &str) -> Result<IslandId, UnknownArmadaName> {
        self.island_lookup.get(&normalize(name)).copied().ok_or_else(|| UnknownArmadaName {
            kind: "island",
            name: name.to_string(),
            suggestion: closest(
                name,
                self.islands
                    .iter()
                    .flat_map(|d| [(d.name.as_str(), d.name.as_str()), (d.zh.as_str(), d.name.as_str())]),
            ),
        })
    }

    /// Every value of the data with its status, each labelled (`board 1 wonder`, `board 1 red
    /// step 1 cost`, `track yellow step 2 trade`, ``card `Dock` cost``, ``island `Wild Isle`
    /// effect 1``), for faces that list what is provisional.
    pub fn statuses(&self) -> Vec<(String, Status)> {
        let mut out = Vec::new();
        for b in &self.boards {
            out.push((format!("board {} number", b.number), b.number_status));
            out.push((format!("board {} wonder", b.number), b.wonder_status));
        }
        for b in &self.boards {
            for f in Fleet::ALL {
                for (s, st) in b.cost_status[f as usize].iter().enumerate() {
                    out.push((format!("board {} {f} step {} cost", b.number, s + 1), *st));
                }
            }
        }
        for f in Fleet::ALL {
            for step in 0..=TOP_STEP {
                for v in TrackValue::ALL {
                    if let Some(st) = self.track_status(f, step, v) {
                        out.push((format!("track {f} step {step} {}", v.key()), st));
                    }
                }
            }
        }
        for c in &self.cards {
            let s = c.status;
            for (k, st) in [
                ("age", s.age),
                ("colour", s.colour),
                ("zh", s.zh),
                ("name", s.name),
                ("cost", s.cost),
                ("removed_with_3", s.removed_with_3),
            ] {
                out.push((format!("card `{}` {k}", c.name), st));
            }
            for (i, st) in c.effect_status.iter().enumerate() {
                out.push((format!("card `{}` effect {}", c.name, i + 1), *st));
            }
        }
        for d in &self.islands {
            let s = d.status;
            for (k, st) in [("level", s.level), ("zh", s.zh), ("name", s.name)] {
                out.push((format!("island `{}` {k}", d.name), st));
            }
            for (i, st) in d.effect_status.iter().enumerate() {
                out.push((format!("island `{}` effect {}", d.name, i + 1), *st));
            }
        }
        out
    }
}
