//! The table format: the cities of a physical game written down as JSON, to score them or to ask
//! what a construction would cost.
//!
//! ```json
//! {"edition": "1e",
//!  "players": [{"name": "Ann", "wonder": "Giza", "side": "A", "stages": 2,
//!               "cards": ["Lumber Yard", "Scriptorium"], "coins": 14,
//!               "military": [1, 3, -1]}]}
//! ```
//!
//! - Players are listed clockwise: the left neighbour of `players[i]` is `players[(i+1) % n]`, the
//!   right one `players[(i-1) % n]` ([`crate::seating::left_of`], [`crate::seating::right_of`]).
//! - `edition` defaults to `"1e"`; `side` (A/B, or Day/Night) is required; `stages` and `coins`
//!   default to 0, `cards` and `military` to `[]`; each military token is 1, 3, 5 or −1.
//! - Cards and wonders are named in English (any case) or with the rulebook's Chinese names.
//!
//! With the Edifice expansion (edifice.md), the top level names it and the three projects, one
//! per Age in Age order, with whether each was completed; each player lists the Ages of the
//! participation pawns and of the debt tokens held. Immediate rewards and penalties are already
//! in the coins, cards and tokens written down; the end-game rewards and the debt are scored in
//! the `edifice` category:
//!
//! ```json
//! {"expansions": ["edifice"],
//!  "projects": [{"name": "Belvedere", "completed": true}, {"name": "River Port", "completed": false},
//!               {"name": "Agora", "completed": true}],
//!  "players": [{"name": "Ann", "wonder": "Ur", "side": "Day", "pawns": [1, 3], "debt": [2]}, …]}
//! ```
//!
//! The team variant (4 or 6 players; armada.md §2.9) is `"teams": true` at the top level: players
//! 2k and 2k+1 (in table order) are teammates, each player has the team's rank, and
//! [`Table::team_results`] gives each team's summed total. Military tokens are written as won
//! (a team victory is two tokens of the Age's value).
//!
//! A Carthage stage built with its second effect is listed in the player's `"second_effects"`
//! (stage numbers, e.g. `[2]`).
//!
//! A table is validated against the rules before anything is computed: 3 to 7 players, distinct
//! wonders, no more stages than the side has, no two structures of the same name in a city
//! (rulebook 002 2.a; the Age I and Age II Loom are the same structure, base-1e.md §4.9), no more
//! copies of a card in all the cities than the deck holds for that player count (a guild exists
//! once; n + 2 guilds are in play), and no more military tokens than the game can give (two per
//! Age). Nothing here panics on any input.

use crate::armada::{ArmadaCity, BoardId, Fleet, TOP_STEP};
use crate::card::{CardId, NameId};
use crate::catalog::{Catalog, Edition, Side, UnknownName};
use crate::city::City;
use crate::payment::{self, Market, Options};
use crate::resources::{Resource, Resources};
use crate::score::{self, Score};
use crate::seating::{left_of, right_of};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Names longer than this (in characters) are refused without looking for a close match.
const MAX_NAME_CHARS: usize = 64;

/// The players a table may hold.
pub const PLAYERS: std::ops::RangeInclusive<usize> = 3..=7;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TableFile {
    #[serde(default)]
    edition: Option<String>,
    #[serde(default)]
    expansions: Vec<String>,
    #[serde(default)]
    projects: Vec<ProjectFile>,
    #[serde(default)]
    teams: bool,
    players: Vec<PlayerFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProjectFile {
    name: String,
    #[serde(default)]
    completed: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerFile {
    name: String,
    wonder: String,
    side: String,
    #[serde(default)]
    stages: u8,
    #[serde(default)]
    cards: Vec<String>,
    #[serde(default)]
    coins: u16,
    #[serde(default)]
    military: Vec<i64>,
    /// The 2-player variant's Free City (1st edition).
    #[serde(default)]
    free_city: bool,
    /// Edifice: the Ages of the participation pawns held.
    #[serde(default)]
    pawns: Vec<u8>,
    /// Edifice: the Ages of the debt tokens held.
    #[serde(default)]
    debt: Vec<u8>,
    /// Carthage: the stages (1-based) built with their second effect.
    #[serde(default)]
    second_effects: Vec<u8>,
    /// Armada: the shipyard board and the step of each ship.
    #[serde(default)]
    shipyard: Option<ShipyardFile>,
    /// Armada: the islands in play in the city.
    #[serde(default)]
    islands: Vec<String>,
    /// Armada: the naval conflict tokens taken.
    #[serde(default)]
    naval: Vec<i64>,
}

/// Armada: `{"board": 3, "red": 2, "yellow": 4, "blue": 6, "green": 2}` (steps default to 0).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShipyardFile {
    board: i64,
    #[serde(default)]
    red: i64,
    #[serde(default)]
    yellow: i64,
    #[serde(default)]
    blue: i64,
    #[serde(default)]
    green: i64,
}

/// A player of a table as named in messages: `player 0 (Ann)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Who {
    /// The player's index in the table (0-based).
    pub index: usize,
    /// The player's name as written in the table.
    pub name: String,
}

impl fmt::Display for Who {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.name.is_empty() {
            write!(f, "player {}", self.index)
        } else {
            write!(f, "player {} ({})", self.index, self.name)
        }
    }
}

/// Why a table, or a question about it, was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The text is not JSON of the table format (serde's message, with line and column).
    #[error("malformed table: {0}")]
    Json(String),
    /// The edition is not `1e` or `2e`.
    #[error("unknown edition `{0}` (expected \"1e\" or \"2e\")")]
    UnknownEdition(String),
    /// A Free City table in an edition without the 2-player variant.
    #[error("the {0} edition has no 2-player rules: a table with a Free City is 1st edition (\"1e\") only")]
    UnsupportedEdition(Edition),
    /// Not 3 to 7 players.
    #[error("{0} players: a table holds 3 to 7 players (8 with Armada), or 2 players and a Free City")]
    PlayerCount(usize),
    /// A Free City table that is not 2 players and one Free City.
    #[error(
        "a table with a Free City holds exactly 2 players and 1 Free City (entries marked \"free_city\": {0})"
    )]
    FreeCity(usize),
    /// A card or wonder name matches nothing (with the closest name when one is close).
    #[error("{who}: {error}")]
    UnknownName {
        /// The player whose entry holds the name.
        who: Who,
        /// The unknown name and its suggestion.
        error: UnknownName,
    },
    /// The side is not A, B, Day or Night.
    #[error("{who}: unknown side `{side}` (expected A or B, or Day or Night)")]
    Side {
        /// The player.
        who: Who,
        /// The side as written.
        side: String,
    },
    /// More stages than the wonder side has.
    #[error("{who}: {stages} stages, but {wonder} side {side} has {max}")]
    TooManyStages {
        /// The player.
        who: Who,
        /// The wonder's name.
        wonder: String,
        /// The side's label.
        side: &'static str,
        /// Stages given.
        stages: u8,
        /// Stages on that side.
        max: u8,
    },
    /// Two structures of the same name in one city.
    #[error("{who}: {card} is listed twice (a city never holds two structures of the same name)")]
    DuplicateCard {
        /// The player.
        who: Who,
        /// The card's English name.
        card: String,
    },
    /// Two players on the same wonder board.
    #[error("{first} and {second} both have {wonder}: each wonder board exists once")]
    SameWonder {
        /// The wonder's name.
        wonder: String,
        /// The first player with it.
        first: Who,
        /// The second player with it.
        second: Who,
    },
    /// More copies of a card in the cities than the deck holds.
    #[error(
        "{card} is in {count} {} ({holders}), but a {players}-player game has {available} {}",
        if *count == 1 { "city" } else { "cities" },
        if *available == 1 { "copy" } else { "copies" }
    )]
    TooManyCopies {
        /// The card's English name.
        card: String,
        /// Cities holding it.
        count: usize,
        /// The players holding it.
        holders: String,
        /// The player count.
        players: usize,
        /// Copies in that game's deck.
        available: usize,
    },
    /// More guilds than the game draws.
    #[error("{count} guilds in the cities, but a {players}-player game uses only {max} ({players} + 2)")]
    TooManyGuilds {
        /// Guilds in all the cities.
        count: usize,
        /// The player count.
        players: usize,
        /// Guilds in play.
        max: usize,
    },
    /// A military token that does not exist.
    #[error("{who}: military token {token} does not exist (tokens are 1, 3, 5 or -1)")]
    MilitaryToken {
        /// The player.
        who: Who,
        /// The value given.
        token: i64,
    },
    /// More military tokens than a game can give.
    #[error("{who}: {problem}")]
    MilitaryCount {
        /// The player.
        who: Who,
        /// What is impossible.
        problem: String,
    },
    /// A question about a player the table does not have.
    #[error("there is no player {index}: the table has {players} players (0 to {})", players.saturating_sub(1))]
    NoSuchPlayer {
        /// The index asked for.
        index: usize,
        /// Players in the table.
        players: usize,
    },
    /// A question about a card name that matches nothing.
    #[error("{0}")]
    Name(UnknownName),
    /// The expansions, the projects, or a player's pawns or debt are wrong.
    #[error("edifice: {0}")]
    Edifice(String),
    /// A shipyard, an island, a naval token or an Armada card is wrong, or Armada fields are
    /// given without `"expansions": ["armada"]`.
    #[error("armada: {0}")]
    Armada(String),
    /// The team variant does not fit the table (`"teams": true` with 4 or 6 players).
    #[error("teams: {0}")]
    Teams(String),
}

/// What [`Table::cost`] is asked about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A card, by English or Chinese name.
    Card(String),
    /// The next stage of the player's wonder side.
    Stage,
    /// Edifice: the next stage and taking part in the project of this Age (1–3), paid together
    /// as one purchase (001 參與計劃; edifice.md §2).
    StageAndTakePart(u8),
    /// Armada: a card and the naval construction of its colour's fleet (the next step of that
    /// ship), paid together as one purchase (armada.md §2.3). A card free by chain still pays
    /// the naval cost.
    CardWithNaval(String),
    /// Armada: the next stage and the naval construction of the board's wonder fleet, paid
    /// together as one purchase (§2.3; with Lost Isle the naval part is free, §6).
    StageWithNaval,
}

/// One way to pay for a construction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CostOption {
    /// Coins paid to the left neighbour.
    pub left: u8,
    /// Coins paid to the right neighbour.
    pub right: u8,
    /// Coins paid to the bank (the card's coin cost).
    pub bank: u8,
    /// Whether it is free through a chain parent in the city.
    pub chain: bool,
    /// Armada: coins to the 2nd player on the left (West Trading Zone; armada.md §5). Absent
    /// from JSON when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub second_left: u8,
    /// Armada: coins to the 2nd player on the right (East Trading Zone). Absent when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub second_right: u8,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

impl CostOption {
    /// A way to pay with nothing to the 2nd players.
    pub const fn new(left: u8, right: u8, bank: u8, chain: bool) -> CostOption {
        CostOption { left, right, bank, chain, second_left: 0, second_right: 0 }
    }

    /// Coins leaving the treasury.
    pub const fn total(&self) -> u16 {
        self.left as u16
            + self.right as u16
            + self.bank as u16
            + self.second_left as u16
            + self.second_right as u16
    }
}

/// The answer of [`Table::cost`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CostAnswer {
    /// What was asked about: a card's English name, or `stage 2 of Giza (A)`.
    pub what: String,
    /// Every Pareto-minimal payment, by coins to the left ascending; empty when it cannot be
    /// built now.
    pub options: Vec<CostOption>,
    /// Why there is no option, or which chain parent makes it free.
    pub reason: Option<String>,
}

/// The cities of a physical game, validated.
#[derive(Clone, Debug)]
pub struct Table {
    catalog: &'static Catalog,
    names: Vec<String>,
    cities: Vec<City>,
    free_city: Option<usize>,
    expansions: crate::edifice::Expansions,
    projects: Option<([crate::edifice::ProjectId; 3], [bool; 3])>,
    /// Armada: every city's shipyard, islands, Armada cards and naval tokens.
    armada: Option<Vec<ArmadaCity>>,
    /// The team variant: players 2k and 2k+1 are teammates ([`crate::teams`]).
    teams: bool,
}

impl Table {
    /// Reads and validates a table.
    ///
    /// ```
    /// use wonders_core::table::{Table, Target};
    /// let table = Table::from_json(
    ///     r#"{"players": [
    ///         {"name": "Ann", "wonder": "Giza", "side": "A", "stages": 2,
    ///          "cards": ["Lumber Yard", "Altar"], "coins": 14, "military": [1, 3, -1]},
    ///         {"name": "Bob", "wonder": "Rhodes", "side": "B", "cards": ["Loom"], "coins": 3},
    ///         {"name": "Cy", "wonder": "巴比倫空中花園", "side": "A", "cards": ["粘土坑"]}]}"#,
    /// )
    /// .unwrap();
    /// let ann = table.scores()[0];
    /// // Tokens 1 + 3 − 1, 14 coins = 4 points, Giza A stages 3 + 5, the Altar's 2 points.
    /// assert_eq!((ann.military, ann.treasury, ann.wonder, ann.civilian), (3, 4, 8, 2));
    /// assert_eq!(ann.total, 17);
    /// assert_eq!(table.ranks(), vec![Some(1), Some(2), Some(3)]);
    /// // Players sit clockwise: Bob's left neighbour is Cy, his right one Ann. His Stockade needs
    /// // wood, which only Ann sells: 2 coins to the right.
    /// let answer = table.cost(1, &Target::Card("Stockade".into())).unwrap();
    /// assert_eq!((answer.options[0].left, answer.options[0].right), (0, 2));
    /// assert!(Table::from_json(r#"{"players": []}"#).is_err());
    /// ```
    pub fn from_json(text: &str) -> Result<Table, TableError> {
        let file: TableFile = serde_json::from_str(text).map_err(|e| TableError::Json(e.to_string()))?;
        let edition = match &file.edition {
            None => Edition::First,
            Some(s) => Edition::parse(s).ok_or_else(|| TableError::UnknownEdition(shorten(s)))?,
        };
        let free_cities = file.players.iter().filter(|p| p.free_city).count();
        if free_cities > 0 {
            // 002 2人變體規則: 2 players and the Free City between them (1st edition only).
            if free_cities > 1 || file.players.len() != 3 {
                return Err(TableError::FreeCity(free_cities));
            }
            if edition != Edition::First {
                return Err(TableError::UnsupportedEdition(edition));
            }
        }
        let expansions = crate::edifice::Expansions::parse(&file.expansions).map_err(TableError::Edifice)?;
        let armada = expansions.armada();
        // The edition's own boards, or with Ur and Carthage when Edifice is played or a board is
        // not among the edition's own (Carthage without Edifice).
        let base = Catalog::get(edition);
        let beyond = file.players.iter().any(|p| base.find_wonder(&p.wonder).is_err());
        let extended = expansions.edifice() || beyond;
        let catalog = match (armada, extended) {
            (true, _) => Catalog::with_builtin_armada(edition, extended),
            (false, true) => Catalog::extended(edition),
            (false, false) => base,
        };
        let uses_armada =
            file.players.iter().any(|p| p.shipyard.is_some() || !p.islands.is_empty() || !p.naval.is_empty());
        if uses_armada && !armada {
            return Err(TableError::Armada(
                "\"shipyard\", \"islands\" and \"naval\" need \"expansions\": [\"armada\"]".into(),
            ));
        }
        if armada && free_cities > 0 {
            return Err(TableError::Armada(
                "no rulebook covers Armada with the 2-player Free City: play it with 3 to 8 players".into(),
            ));
        }
        let mut table = Table::build(catalog, &file.players, expansions.edifice(), armada)?;
        table.edifice(&file, expansions.edifice())?;
        table.read_armada(&file, armada)?;
        if file.teams {
            if free_cities > 0 {
                return Err(TableError::Teams("the 2-player Free City variant has no teams".into()));
            }
            crate::teams::check_players(file.players.len() as u8, expansions).map_err(TableError::Teams)?;
            table.teams = true;
        }
        Ok(table)
    }

    /// Reads the Edifice part of a table: projects, pawns, debt (edifice.md; module docs).
    fn edifice(&mut self, file: &TableFile, on: bool) -> Result<(), TableError> {
        let err = |m: String| Err(TableError::Edifice(m));
        let uses = !file.projects.is_empty()
            || file.players.iter().any(|p| !p.pawns.is_empty() || !p.debt.is_empty());
        if !on {
            if uses {
                return err("projects, pawns and debt need \"expansions\": [\"edifice\"]".into());
            }
            if let Some(c) = self.cities.iter().find(|c| self.catalog.wonder(c.wonder).only_with_edifice) {
                return err(format!(
                    "{} is usable only with the Edifice expansion (001)",
                    self.catalog.wonder(c.wonder).name
                ));
            }
            return Ok(());
        }
        let Some(data) = self.catalog.edifice.as_deref() else {
            return err("these data have no Edifice projects".into());
        };
        if file.projects.len() != 3 {
            return err(format!(
                "{} projects: list the three, one per Age in Age order",
                file.projects.len()
            ));
        }
        let mut completed = [false; 3];
        let mut ids = [0u8; 3];
        for (a, p) in file.projects.iter().enumerate() {
            let id = data.find(&p.name).ok_or_else(|| {
                TableError::Edifice(format!(
                    "unknown project `{}` (known: {})",
                    shorten(&p.name),
                    data.projects.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", ")
                ))
            })?;
            let def = data.project(id);
            if def.age as usize != a + 1 {
                return err(format!("{} is an Age {} project, listed for Age {}", def.name, def.age, a + 1));
            }
            completed[a] = p.completed;
            ids[a] = id.0;
        }
        for (i, p) in file.players.iter().enumerate() {
            let who = self.who(i);
            for &age in p.pawns.iter().chain(&p.debt) {
                if !(1..=3).contains(&age) {
                    return err(format!(
                        "{who}: Age {age} does not exist (pawns and debt tokens are of Age 1, 2 or 3)"
                    ));
                }
            }
            if p.pawns.len() > 9 || p.debt.len() > 9 {
                return err(format!("{who}: more pawns or debt tokens than a game can give"));
            }
            let city = &mut self.cities[i];
            for &age in &p.pawns {
                city.edifice.pawns[age as usize - 1] += 1;
                if completed[age as usize - 1] {
                    city.edifice.held[age as usize - 1] = ids[age as usize - 1] + 1;
                }
            }
            for &age in &p.debt {
                city.edifice.debt[age as usize - 1] += 1;
            }
        }
        for a in 0..3 {
            if completed[a] && !self.cities.iter().any(|c| c.edifice.pawns[a] > 0) {
                return err(format!(
                    "Age {} project {} is completed but nobody holds its pawn",
                    a + 1,
                    data.project(crate::edifice::ProjectId(ids[a])).name
                ));
            }
        }
        self.expansions = crate::edifice::Expansions::EDIFICE;
        self.projects = Some((ids.map(crate::edifice::ProjectId), completed));
        Ok(())
    }

    /// Reads the Armada part of a table: each player's shipyard, islands and naval tokens, and
    /// the Armada cards among its cards (armada.md; module docs). Every player of an Armada table
    /// has a shipyard.
    fn read_armada(&mut self, file: &TableFile, on: bool) -> Result<(), TableError> {
        let err = |m: String| Err(TableError::Armada(m));
        let uses =
            file.players.iter().any(|p| p.shipyard.is_some() || !p.islands.is_empty() || !p.naval.is_empty());
        if !on {
            if uses {
                return err(
                    "\"shipyard\", \"islands\" and \"naval\" need \"expansions\": [\"armada\"]".into()
                );
            }
            return Ok(());
        }
        let Some(data) = self.catalog.armada.as_deref() else {
            return err("these data have no Armada expansion".into());
        };
        let n = self.cities.len();
        let mut boards: Vec<Option<usize>> = vec![None; data.boards().len()];
        let mut islands: Vec<Option<usize>> = vec![None; data.islands().len()];
        let mut state = Vec::with_capacity(n);
        for (i, p) in file.players.iter().enumerate() {
            let who = self.who(i);
            let Some(sy) = &p.shipyard else {
                return err(format!(
                    "{who} has no \"shipyard\" (with Armada each player has one, e.g. {{\"board\": 1, \"red\": 0, \"yellow\": 2, \"blue\": 0, \"green\": 1}})"
                ));
            };
            let count = data.boards().len();
            let board =
                usize::try_from(sy.board).ok().filter(|b| (1..=count).contains(b)).ok_or_else(|| {
                    TableError::Armada(format!(
                        "{who}: shipyard board {} does not exist (boards are numbered 1 to {count})",
                        sy.board
                    ))
                })?;
            if let Some(first) = boards[board - 1].replace(i) {
                return err(format!(
                    "{} and {who} both have shipyard board {board}: each board exists once",
                    self.who(first)
                ));
            }
            let mut a = ArmadaCity::new(BoardId(board as u8 - 1));
            for (fleet, step) in Fleet::ALL.into_iter().zip([sy.red, sy.yellow, sy.blue, sy.green]) {
                let Some(step) = u8::try_from(step).ok().filter(|&s| s <= TOP_STEP) else {
                    return err(format!(
                        "{who}: the {fleet} ship on step {step}: steps are 0 (the start space) to {TOP_STEP}"
                    ));
                };
                a.shipyard.steps[fleet as usize] = step;
            }
            a.naval = naval_by_age(&p.naval).map_err(|m| TableError::Armada(format!("{who}: {m}")))?;
            for card in self.cities[i].built.iter() {
                if let Some(c) = self.catalog.armada_card(card) {
                    a.add_card(c);
                }
            }
            for name in &p.islands {
                let found = if name.chars().count() > MAX_NAME_CHARS {
                    Err(format!("unknown island `{}`", shorten(name)))
                } else {
                    data.find_island(name).map_err(|e| e.to_string())
                };
                let id = found.map_err(|m| TableError::Armada(format!("{who}: {m}")))?;
                if let Some(first) = islands[id.0 as usize].replace(i) {
                    let island = &data.island(id).name;
                    return err(if first == i {
                        format!("{who}: {island} is listed twice (each island card exists once)")
                    } else {
                        format!(
                            "{} and {who} both have {island}: each island card exists once",
                            self.who(first)
                        )
                    });
                }
                a.gain_island(data, id, &mut self.cities[i]);
            }
            state.push(a);
        }
        // One Armada card per player is added to each Age deck, 7 with 8 players (§2.2).
        let dealt = usize::from(crate::armada::dealt_per_age(n as u8));
        for age in 1..=3u8 {
            let in_play = state
                .iter()
                .flat_map(|a| a.card_ids())
                .filter(|&c| usize::from(c.0) < data.cards().len() && data.card(c).age == age)
                .count();
            if in_play > dealt {
                return err(format!(
                    "{in_play} Armada cards of Age {age} in the cities, but a {n}-player game adds only {dealt} to that Age"
                ));
            }
        }
        self.armada = Some(state);
        Ok(())
    }

    /// The expansions the table names.
    pub fn expansions(&self) -> crate::edifice::Expansions {
        self.expansions
    }

    /// Edifice: the three projects (Age order) and whether each was completed.
    pub fn projects(&self) -> Option<([crate::edifice::ProjectId; 3], [bool; 3])> {
        self.projects
    }

    fn build(
        catalog: &'static Catalog,
        players: &[PlayerFile],
        edifice: bool,
        armada: bool,
    ) -> Result<Table, TableError> {
        let n = players.len();
        // 8 players only with Armada (000 8人遊戲規則).
        let allowed = PLAYERS.contains(&n) || (armada && n == 8);
        if !allowed {
            return Err(TableError::PlayerCount(n - players.iter().filter(|p| p.free_city).count()));
        }
        let mut cities: Vec<City> = Vec::with_capacity(n);
        for (index, p) in players.iter().enumerate() {
            let who = Who { index, name: p.name.clone() };
            let wonder = find_wonder(catalog, &p.wonder)
                .map_err(|error| TableError::UnknownName { who: who.clone(), error })?;
            if let Some(first) = cities.iter().position(|c| c.wonder == wonder) {
                return Err(TableError::SameWonder {
                    wonder: catalog.wonder(wonder).name.clone(),
                    first: Who { index: first, name: players[first].name.clone() },
                    second: who,
                });
            }
            let side = Side::parse(&p.side)
                .ok_or_else(|| TableError::Side { who: who.clone(), side: shorten(&p.side) })?;
            let mut city = City::new(catalog, wonder, side);
            let max = city.stage_count(catalog);
            if p.stages > max {
                return Err(TableError::TooManyStages {
                    who,
                    wonder: catalog.wonder(wonder).name.clone(),
                    side: side.label(catalog.edition),
                    stages: p.stages,
                    max,
                });
            }
            for name in &p.cards {
                let card = find_card(catalog, name)
                    .map_err(|error| TableError::UnknownName { who: who.clone(), error })?;
                if city.has_name(catalog, card) {
                    return Err(TableError::DuplicateCard { who, card: catalog.card(card).name.clone() });
                }
                city.place(catalog, card);
            }
            let stage_defs = catalog.wonder(wonder).stages(side);
            for &k in &p.second_effects {
                let ok = (1..=p.stages).contains(&k) && !stage_defs[k as usize - 1].alt.is_empty();
                if !ok {
                    return Err(TableError::Edifice(format!(
                        "{who}: stage {k} was not built with a second effect ({} side {} has \
                         two effects on stages {:?}, {} built)",
                        catalog.wonder(wonder).name,
                        side.label(catalog.edition),
                        (1..=stage_defs.len())
                            .filter(|&i| !stage_defs[i - 1].alt.is_empty())
                            .collect::<Vec<_>>(),
                        p.stages
                    )));
                }
            }
            for k in 1..=p.stages {
                city.build_stage_choosing(catalog, p.second_effects.contains(&k));
            }
            city.coins = p.coins;
            for &token in &p.military {
                let valid = i32::try_from(token).is_ok_and(|t| matches!(t, 1 | 3 | 5 | -1));
                if !valid {
                    return Err(TableError::MilitaryToken { who, token });
                }
            }
            check_token_counts(&p.military, edifice, armada)
                .map_err(|problem| TableError::MilitaryCount { who: who.clone(), problem })?;
            for &token in &p.military {
                // Values and counts are checked above: no counter can overflow.
                city.tokens.add(token as i32);
            }
            cities.push(city);
        }
        let table = Table {
            catalog,
            names: players.iter().map(|p| p.name.clone()).collect(),
            cities,
            free_city: players.iter().position(|p| p.free_city),
            expansions: crate::edifice::Expansions::NONE,
            projects: None,
            armada: None,
            teams: false,
        };
        table.check_copies()?;
        Ok(table)
    }

    /// Checks that the cities hold no more copies of a card than the deck, and no more guilds than
    /// are in play.
    fn check_copies(&self) -> Result<(), TableError> {
        let n = self.cities.len();
        for (i, name) in self.catalog.names.iter().enumerate() {
            let Ok(raw) = u8::try_from(i) else { break };
            let name_id = NameId(raw);
            let holders: Vec<usize> = (0..n).filter(|&s| self.cities[s].names.contains(name_id)).collect();
            if holders.is_empty() {
                continue;
            }
            let available: usize = self
                .catalog
                .cards
                .iter()
                .filter(|c| c.name_id == name_id)
                .map(|c| match self.catalog.armada_card(c.id) {
                    // Armada cards: one of each in the box, the two-neighbour ones out with 3
                    // players (armada.md §2.2).
                    Some(a) => {
                        let removed =
                            self.catalog.armada.as_deref().is_some_and(|d| d.card(a).removed_with_3);
                        usize::from(!(n == 3 && removed))
                    }
                    None if c.is_guild() => 1,
                    None => c.copies_for(n as u8),
                })
                .sum();
            if holders.len() > available {
                return Err(TableError::TooManyCopies {
                    card: name.clone(),
                    count: holders.len(),
                    holders: holders.iter().map(|&s| self.who(s).to_string()).collect::<Vec<_>>().join(", "),
                    players: n,
                    available,
                });
            }
        }
        let guilds: usize = self
            .cities
            .iter()
            .map(|c| c.built.iter().filter(|&id| self.catalog.card(id).is_guild()).count())
            .sum();
        // n + 2 guilds; 9 with 8 players (000 8人遊戲規則).
        let max = if n == 8 { 9 } else { n + 2 };
        if guilds > max {
            return Err(TableError::TooManyGuilds { count: guilds, players: n, max });
        }
        Ok(())
    }

    /// The edition's data.
    pub fn catalog(&self) -> &'static Catalog {
        self.catalog
    }

    /// The edition.
    pub fn edition(&self) -> Edition {
        self.catalog.edition
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.cities.len()
    }

    /// The players' names, in table order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The cities, in table order (clockwise).
    pub fn cities(&self) -> &[City] {
        &self.cities
    }

    /// A player as named in messages, e.g. `player 0 (Ann)`.
    pub fn who(&self, player: usize) -> Who {
        Who { index: player, name: self.names.get(player).cloned().unwrap_or_default() }
    }

    /// Every player's score sheet, in table order (rulebook 002, 總分數計算細則; with Armada,
    /// [`crate::armada::score`]).
    pub fn scores(&self) -> Vec<Score> {
        score::score_all_with(self.catalog, &self.cities, self.armada.as_deref())
    }

    /// Armada: every city's shipyard, islands, Armada cards and naval tokens, in table order;
    /// `None` for a table without Armada.
    pub fn armada(&self) -> Option<&[ArmadaCity]> {
        self.armada.as_deref()
    }

    /// The Free City's index in the table, for a 2-player table.
    pub fn free_city(&self) -> Option<usize> {
        self.free_city
    }

    /// Whether the table plays the team variant (`"teams": true`): players 2k and 2k+1 are
    /// teammates.
    pub fn teams(&self) -> bool {
        self.teams
    }

    /// Team variant: each team's players, summed total and coins, and rank (by summed total,
    /// then summed coins, else shared; [`crate::teams::results`]). `None` without teams.
    pub fn team_results(&self) -> Option<Vec<crate::teams::TeamResult>> {
        let scores = self.scores();
        let keys: Vec<(i32, u16)> =
            scores.iter().zip(&self.cities).map(|(s, c)| (s.total, c.coins)).collect();
        self.teams.then(|| crate::teams::results(&keys))
    }

    /// Every entry's place, 1 = winner: by total, then by coins; players still level share the
    /// place and the next place is skipped (002 遊戲結束). The Free City is not a player: `None`.
    /// In the team variant each player has its team's place.
    pub fn ranks(&self) -> Vec<Option<u8>> {
        if let Some(teams) = self.team_results() {
            return (0..self.cities.len()).map(|i| Some(teams[crate::teams::team_of(i)].rank)).collect();
        }
        let players: Vec<usize> = (0..self.cities.len()).filter(|&i| Some(i) != self.free_city).collect();
        let scores = self.scores();
        let keys: Vec<(i32, u16)> =
            players.iter().map(|&i| (scores[i].total, self.cities[i].coins)).collect();
        let ranked = score::ranks(&keys);
        let mut out = vec![None; self.cities.len()];
        for (&i, r) in players.iter().zip(ranked) {
            out[i] = Some(r);
        }
        out
    }

    /// Armada: what `player` faces with its trading zones (as in a game), or `None` without one.
    fn trade_market(&self, player: usize) -> Option<crate::armada::trade::TradeMarket<'_>> {
        use crate::armada::Direction;
        let (data, state) = (self.catalog.armada.as_deref()?, self.armada.as_deref()?);
        let a = state.get(player)?;
        let (left_units, right_units) = (
            a.second_neighbour_purchases(data, Direction::Left),
            a.second_neighbour_purchases(data, Direction::Right),
        );
        let n = self.cities.len();
        if (left_units == 0 && right_units == 0) || n < 4 {
            return None;
        }
        let (sl, sr) = (Direction::Left.target(player, n), Direction::Right.target(player, n));
        Some(crate::armada::trade::TradeMarket {
            market: self.market(player),
            second_left: &self.cities[sl].for_sale,
            left_units,
            second_right: &self.cities[sr].for_sale,
            right_units,
            same: sl == sr,
        })
    }

    /// What `player` faces when buying from the neighbours (as `Game::market` in a game).
    fn market(&self, player: usize) -> Market<'_> {
        let n = self.cities.len();
        let city = &self.cities[player];
        let mut prices = [[2u8; 7]; 2];
        for (side, row) in prices.iter_mut().enumerate() {
            for r in Resource::ALL {
                row[r as usize] = city.price(side, r);
            }
        }
        Market {
            own: &city.production,
            left: &self.cities[left_of(player, n)].for_sale,
            right: &self.cities[right_of(player, n)].for_sale,
            prices,
        }
    }

    /// Every Pareto-minimal way for `player` to pay for a card or the next wonder stage now, with
    /// the coins and neighbours of the table (002 貿易; base-1e.md §4.1). Cards in the table are
    /// taken as built on earlier turns, so their trading discounts apply.
    ///
    /// - A card whose name is already in the city: no option.
    /// - A card with a chain parent in the city: one free option (`chain: true`).
    /// - Otherwise every (left, right) payment no other beats on both sides, with `bank` = the
    ///   card's coin cost, spending at most the treasury; no option when the coins fall short.
    /// - [`Target::Stage`]: the next stage of the side; no option when the wonder is complete.
    ///
    /// ```
    /// use wonders_core::table::{CostOption, Table, Target};
    /// // Example A of rulebook 002 (貿易): University costs 2 wood + glass + papyrus.
    /// let table = Table::from_json(
    ///     r#"{"players": [
    ///         {"name": "Ann", "wonder": "Alexandria", "side": "A", "cards": ["Lumber Yard"], "coins": 4},
    ///         {"name": "Bob", "wonder": "Olympia", "side": "A"},
    ///         {"name": "Cy", "wonder": "Ephesos", "side": "A"}]}"#,
    /// )
    /// .unwrap();
    /// let answer = table.cost(0, &Target::Card("University".into())).unwrap();
    /// assert_eq!(answer.options, vec![CostOption::new(2, 2, 0, false)]);
    /// ```
    pub fn cost(&self, player: usize, target: &Target) -> Result<CostAnswer, TableError> {
        let Some(city) = self.cities.get(player) else {
            return Err(TableError::NoSuchPlayer { index: player, players: self.cities.len() });
        };
        let who = self.who(player);
        let catalog = self.catalog;
        match target {
            Target::Card(name) => {
                let card = find_card(catalog, name).map_err(TableError::Name)?;
                let def = catalog.card(card);
                let what = def.name.clone();
                if city.has_name(catalog, card) {
                    let reason = format!(
                        "{who} already has {} (a city never holds two structures of the same name)",
                        def.name
                    );
                    return Ok(CostAnswer { what, options: Vec::new(), reason: Some(reason) });
                }
                if city.has_chain_for(catalog, card) {
                    let parent = city
                        .built
                        .iter()
                        .find(|&c| def.chain_parents.contains(catalog.card(c).name_id))
                        .map(|c| catalog.card(c).name.clone())
                        .unwrap_or_default();
                    let free = CostOption::new(0, 0, 0, true);
                    let reason = format!("free by chain: {who} has {parent}");
                    return Ok(CostAnswer { what, options: vec![free], reason: Some(reason) });
                }
                let coin_cost = u16::from(def.coins);
                if city.coins < coin_cost {
                    let reason =
                        format!("{} costs {} coin(s); {who} has {}", def.name, def.coins, city.coins);
                    return Ok(CostAnswer { what, options: Vec::new(), reason: Some(reason) });
                }
                Ok(self.paid(player, what, &def.cost, def.coins, city.coins - coin_cost))
            }
            Target::Stage => {
                let wonder = catalog.wonder(city.wonder);
                let stages = wonder.stages(city.side);
                let side = city.side.label(catalog.edition);
                let Some(stage) = stages.get(city.stages as usize) else {
                    let what = format!("a stage of {} ({side})", wonder.name);
                    let reason =
                        format!("{who} has built all {} stages of {} side {side}", stages.len(), wonder.name);
                    return Ok(CostAnswer { what, options: Vec::new(), reason: Some(reason) });
                };
                let what = format!("stage {} of {} ({side})", city.stages + 1, wonder.name);
                Ok(self.paid(player, what, &stage.cost, 0, city.coins))
            }
            &Target::StageAndTakePart(age) => {
                let (Some(data), Some((ids, completed))) = (catalog.edifice.as_deref(), self.projects) else {
                    return Err(TableError::Edifice(
                        "taking part needs a table with \"expansions\": [\"edifice\"] and its \"projects\""
                            .into(),
                    ));
                };
                if !(1..=3).contains(&age) {
                    return Err(TableError::Edifice(format!(
                        "Age {age} does not exist (projects are of Age 1, 2 or 3)"
                    )));
                }
                let a = age as usize - 1;
                let project = data.project(ids[a]);
                let stage_answer = self.cost(player, &Target::Stage)?;
                let what = format!("{} and taking part in {} (Age {age})", stage_answer.what, project.name);
                let refused = if stage_answer.reason.is_some() && stage_answer.options.is_empty() {
                    stage_answer.reason
                } else if completed[a] {
                    Some(format!("{} is completed: no pawn is left to take", project.name))
                } else if city.edifice.pawns[a] > 0 {
                    Some(format!("{who} already holds a pawn of Age {age}: one participation per Age"))
                } else if city.coins < u16::from(project.coins) {
                    Some(format!(
                        "taking part in {} costs {} coin(s); {who} has {}",
                        project.name, project.coins, city.coins
                    ))
                } else {
                    None
                };
                if let Some(reason) = refused {
                    return Ok(CostAnswer { what, options: Vec::new(), reason: Some(reason) });
                }
                let wonder = catalog.wonder(city.wonder);
                let stage = &wonder.stages(city.side)[city.stages as usize];
                let mut need = stage.cost;
                for r in crate::resources::Resource::ALL {
                    need.add(r, project.resources.get(r));
                }
                Ok(self.paid(player, what, &need, project.coins, city.coins - u16::from(project.coins)))
            }
            Target::CardWithNaval(name) => self.cost_with_naval(player, Some(name)),
            Target::StageWithNaval => self.cost_with_naval(player, None),
        }
    }

    /// Armada: a card or the next stage with a naval construction (§2.3): the card or stage
    /// cost and the ship's next step cost are one purchase. Ancient Port waives 1 resource of the
    /// naval part, the player's choice (§6, §11.4: every choice is tried and the Pareto-minimal
    /// payments kept); coins of the naval part are paid in full.
    fn cost_with_naval(&self, player: usize, card: Option<&str>) -> Result<CostAnswer, TableError> {
        let (Some(data), Some(state)) = (self.catalog.armada.as_deref(), self.armada.as_deref()) else {
            return Err(TableError::Armada(
                "a naval construction needs a table with \"expansions\": [\"armada\"] and its shipyards"
                    .into(),
            ));
        };
        let plain = match card {
            Some(name) => self.cost(player, &Target::Card(name.to_string()))?,
            None => self.cost(player, &Target::Stage)?,
        };
        let (city, a, who) = (&self.cities[player], &state[player], self.who(player));
        let what = format!("{} with a naval construction", plain.what);
        let refuse =
            |reason: String| Ok(CostAnswer { what: what.clone(), options: Vec::new(), reason: Some(reason) });
        if plain.options.is_empty() {
            return refuse(plain.reason.unwrap_or_default());
        }
        let lost_isle = card.is_none() && a.wonder_naval_free(data);
        let board = a.shipyard.board;
        let fleet = match card {
            Some(_) => {
                let def = self
                    .catalog
                    .card(find_card(self.catalog, card.unwrap_or_default()).map_err(TableError::Name)?);
                match Fleet::from_colour(def.colour) {
                    Some(f) => f,
                    None => {
                        return refuse(format!(
                            "{} is {}: only red, yellow, blue and green cards have a naval construction",
                            def.name, def.colour
                        ));
                    }
                }
            }
            None => data.board(board).wonder,
        };
        if lost_isle {
            // Lost Isle: free, and any fleet may move (the stage's own cost only).
            let mut out = plain;
            out.what = format!("{what} (free with Lost Isle, any fleet that can move)");
            if Fleet::ALL.iter().all(|&f| !a.shipyard.can_advance(f)) {
                return refuse(format!("{who}: every ship is on step {TOP_STEP}, the top"));
            }
            return Ok(out);
        }
        let step = a.shipyard.step(fleet);
        let Some(naval) = data.next_step_cost(board, fleet, step) else {
            return refuse(format!("{who}: the {fleet} ship is on step {TOP_STEP}, the top: it cannot move"));
        };
        let what = format!(
            "{} with a naval construction ({fleet} ship to step {}: {naval}{})",
            plain.what,
            step + 1,
            if data.step_cost_status(board, fleet, step + 1).is_some_and(|s| s.is_provisional()) {
                ", provisional"
            } else {
                ""
            }
        );
        let chain = plain.options.iter().any(|o| o.chain);
        let (card_cost, card_coins) = match card {
            Some(name) if !chain => {
                let def = self.catalog.card(find_card(self.catalog, name).map_err(TableError::Name)?);
                (def.cost, def.coins)
            }
            Some(_) => (Resources::default(), 0),
            None => {
                let stage = &self.catalog.wonder(city.wonder).stages(city.side)[city.stages as usize];
                (stage.cost, 0)
            }
        };
        let bank = u16::from(card_coins) + u16::from(naval.coins);
        if city.coins < bank {
            return Ok(CostAnswer {
                what,
                options: Vec::new(),
                reason: Some(format!("{who} must pay {bank} coin(s) to the bank and has {}", city.coins)),
            });
        }
        let mut needs: Vec<Resources> = Vec::new();
        let sum = |naval_part: &Resources| {
            let mut need = card_cost;
            for r in Resource::ALL {
                need.add(r, naval_part.get(r));
            }
            need
        };
        if a.naval_discount(data) && !naval.resources.is_empty() {
            for r in Resource::ALL.into_iter().filter(|&r| naval.resources.get(r) > 0) {
                let mut part = Resources::default();
                for q in Resource::ALL {
                    part.add(q, naval.resources.get(q) - u8::from(q == r));
                }
                needs.push(sum(&part));
            }
        } else {
            needs.push(sum(&naval.resources));
        }
        let bank = u8::try_from(bank).unwrap_or(u8::MAX);
        let mut answer = self.paid(player, what.clone(), &needs[0], bank, city.coins - u16::from(bank));
        for need in &needs[1..] {
            let more = self.paid(player, what.clone(), need, bank, city.coins - u16::from(bank));
            answer.options.extend(more.options);
        }
        // Keep the Pareto-minimal payments of every choice.
        let all = answer.options.clone();
        let key = |o: &CostOption| [o.left, o.right, o.second_left, o.second_right];
        answer.options.retain(|o| {
            !all.iter().any(|p| key(p).iter().zip(&key(o)).all(|(a, b)| a <= b) && key(p) != key(o))
        });
        answer.options.sort_by_key(|o| (o.left, o.right, o.second_left, o.second_right));
        answer.options.dedup();
        for o in &mut answer.options {
            o.chain = chain;
        }
        // Teams (000 團隊遊戲規則): nothing is bought from the teammate for a chain build. The
        // payments to the teammate leave the Pareto set; those left are the Pareto set of the
        // purchase without the teammate (a payment with nothing to one side is never beaten by
        // one that pays that side).
        let n = self.cities.len();
        let to_mate_refused = chain && self.teams && !answer.options.is_empty();
        if to_mate_refused {
            answer.options.retain(|o| {
                let pay = crate::Payment { left: o.left, right: o.right, ..crate::Payment::default() };
                crate::teams::chain_purchase_allowed(player, n, &pay)
            });
        }
        if !answer.options.is_empty() {
            answer.reason = chain.then(|| plain.reason.unwrap_or_default());
        } else if to_mate_refused {
            answer.reason = Some(format!(
                "{who}: team play (000 團隊遊戲規則) forbids buying from a teammate for a building built \
                 through a chain, and the naval construction's resources can be had only from the teammate"
            ));
        }
        Ok(answer)
    }

    /// The payments for `need` within `budget` coins, each with `bank` coins to the bank.
    fn paid(&self, player: usize, what: String, need: &Resources, bank: u8, budget: u16) -> CostAnswer {
        let market = self.market(player);
        let mut out = Options::new();
        let mut options: Vec<CostOption> = match self.trade_market(player) {
            // Armada: East and West Trading Zones add the 2nd players as sellers.
            Some(tm) => {
                let mut front = crate::armada::trade::TradeOptions::new();
                crate::armada::trade::solve(&tm, need, budget, &mut front);
                front
                    .iter()
                    .map(|t| CostOption {
                        second_left: t.second_left,
                        second_right: t.second_right,
                        ..CostOption::new(t.left, t.right, bank, false)
                    })
                    .collect()
            }
            None => {
                payment::solve(&market, need, budget, &mut out);
                out.iter().map(|&(left, right)| CostOption::new(left, right, bank, false)).collect()
            }
        };
        options.sort_by_key(|o| (o.left, o.right, o.second_left, o.second_right));
        let reason = if options.is_empty() {
            let who = self.who(player);
            payment::solve(&market, need, u16::MAX, &mut out);
            let mut cheapest: Option<u16> = out.iter().map(|&(l, r)| u16::from(l) + u16::from(r)).min();
            if let Some(tm) = self.trade_market(player) {
                let mut front = crate::armada::trade::TradeOptions::new();
                crate::armada::trade::solve(&tm, need, u16::MAX, &mut front);
                cheapest = front.iter().map(|t| t.total()).min();
            }
            Some(match cheapest {
                Some(cheapest) => format!(
                    "{who} has {budget} coin(s) to spend on trade, but buying what is missing of {need} \
                     costs at least {cheapest}"
                ),
                None => {
                    format!("{who}'s city and what the neighbours may sell cannot supply {need} in one turn")
                }
            })
        } else {
            None
        };
        CostAnswer { what, options, reason }
    }
}

/// Refuses more tokens than a game can give: two per Age (one per neighbour), so at most two of
/// each victory value and six in all.
/// With Edifice, projects can give one more victory token per Age (edifice.md §5.3: Outpost,
/// Staging Camp, Military School). With Armada, incursions add at most two land conflicts per
/// Age (against the 2nd player on each side, armada.md §2.8), so two more of each value and six
/// more in all.
fn check_token_counts(tokens: &[i64], edifice: bool, armada: bool) -> Result<(), String> {
    let extra = if edifice { 3 } else { 0 } + if armada { 2 } else { 0 };
    let extra_total = if edifice { 3 } else { 0 } + if armada { 6 } else { 0 };
    if tokens.len() > 6 + extra_total {
        return Err(format!(
            "{} military tokens, but a game gives at most {} (one per neighbour in each Age)",
            tokens.len(),
            6 + extra_total
        ));
    }
    for v in [1, 3, 5] {
        let k = tokens.iter().filter(|&&t| t == v).count();
        if k > 2 + extra {
            return Err(format!(
                "{k} tokens of +{v}, but a game gives at most {} (one per neighbour)",
                2 + extra
            ));
        }
    }
    Ok(())
}

/// Armada: the naval tokens of a player by Age (index 0 = Age I), refusing values no naval token
/// has and sets no three Ages can give (one token per Age; armada.md §1, §2.5: Age I +3/+1/−1,
/// Age II +5/+3/−2, Age III +7/+5/+3/−3).
fn naval_by_age(tokens: &[i64]) -> Result<[i8; 3], String> {
    const AGES: [&[i64]; 3] = [&[3, 1, -1], &[5, 3, -2], &[7, 5, 3, -3]];
    if let Some(t) = tokens.iter().find(|t| !AGES.iter().any(|a| a.contains(t))) {
        return Err(format!("naval token {t} does not exist (victory +1, +3, +5, +7; defeat -1, -2, -3)"));
    }
    let problem = || {
        format!(
            "naval tokens {tokens:?} cannot come from three Ages (one token per Age: Age I +3/+1/-1, \
             Age II +5/+3/-2, Age III +7/+5/+3/-3)"
        )
    };
    if tokens.len() > 3 {
        return Err(problem());
    }
    // Try every way to give the tokens to distinct Ages (at most 3! orders).
    for order in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
        if tokens.iter().zip(order).all(|(t, age)| AGES[age].contains(t)) {
            let mut out = [0i8; 3];
            for (t, age) in tokens.iter().zip(order) {
                out[age] = *t as i8;
            }
            return Ok(out);
        }
    }
    Err(problem())
}

/// A name as quoted in a message: at most [`MAX_NAME_CHARS`] characters.
fn shorten(name: &str) -> String {
    if name.chars().count() <= MAX_NAME_CHARS {
        name.to_string()
    } else {
        let mut s: String = name.chars().take(MAX_NAME_CHARS).collect();
        s.push('…');
        s
    }
}

fn too_long(kind: &'static str, name: &str, catalog: &Catalog) -> Option<UnknownName> {
    (name.chars().count() > MAX_NAME_CHARS).then(|| UnknownName {
        kind,
        name: shorten(name),
        suggestion: None,
        edition: catalog.edition,
    })
}

/// [`Catalog::find_card`], refusing absurdly long names before the close-match search.
fn find_card(catalog: &Catalog, name: &str) -> Result<CardId, UnknownName> {
    match too_long("card", name, catalog) {
        Some(e) => Err(e),
        None => catalog.find_card(name),
    }
}

/// [`Catalog::find_wonder`], refusing absurdly long names before the close-match search.
fn find_wonder(catalog: &Catalog, name: &str) -> Result<crate::catalog::WonderId, UnknownName> {
    match too_long("wonder", name, catalog) {
        Some(e) => Err(e),
        None => catalog.find_wonder(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// A player entry.
    fn p(name: &str, wonder: &str, side: &str, stages: u8, cards: &[&str], coins: u16) -> Value {
        json!({"name": name, "wonder": wonder, "side": side, "stages": stages, "cards": cards, "coins": coins})
    }

    fn table(players: Vec<Value>) -> Table {
        let text = json!({ "players": players }).to_string();
        match Table::from_json(&text) {
            Ok(t) => t,
            Err(e) => panic!("table refused: {e}\n{text}"),
        }
    }

    fn refused(players: Vec<Value>) -> String {
        let text = json!({ "players": players }).to_string();
        match Table::from_json(&text) {
            Ok(_) => panic!("table accepted: {text}"),
            Err(e) => e.to_string(),
        }
    }

    /// Two filler players with nothing built and no coins.
    fn fillers(a: &str, b: &str) -> Vec<Value> {
        vec![p("X", a, "A", 0, &[], 0), p("Y", b, "A", 0, &[], 0)]
    }

    fn with_fillers(first: Value, a: &str, b: &str) -> Table {
        let mut v = vec![first];
        v.extend(fillers(a, b));
        table(v)
    }

    fn options(t: &Table, player: usize, card: &str) -> Vec<(u8, u8, u8, bool)> {
        let target = Target::Card(card.to_string());
        let answer = t.cost(player, &target).unwrap_or_else(|e| panic!("{e}"));
        answer.options.iter().map(|o| (o.left, o.right, o.bank, o.chain)).collect()
    }

    fn stage_options(t: &Table, player: usize) -> Vec<(u8, u8, u8, bool)> {
        let answer = t.cost(player, &Target::Stage).unwrap_or_else(|e| panic!("{e}"));
        answer.options.iter().map(|o| (o.left, o.right, o.bank, o.chain)).collect()
    }

    // --- Scoring: the worked examples of 002 總分數計算細則 ---

    #[test]
    fn military_tokens_example() {
        // 002 計分 1: +1, +3, +5, −1, −1, −1 = 6.
        let mut ann = p("Ann", "Alexandria", "A", 0, &[], 0);
        ann["military"] = json!([1, 3, 5, -1, -1, -1]);
        let t = with_fillers(ann, "Giza", "Rhodes");
        let s = t.scores()[0];
        assert_eq!(s.military, 6);
        assert_eq!(s.total, 6);
    }

    #[test]
    fn treasury_example() {
        // 002 計分 2: 14 coins = 4 points, the remaining 2 are dropped.
        let t = with_fillers(p("Ann", "Alexandria", "A", 0, &[], 14), "Giza", "Rhodes");
        assert_eq!(t.scores()[0].treasury, 4);
        assert_eq!(t.scores()[0].total, 4);
    }

    #[test]
    fn wonder_example() {
        // 002 計分 3: Alexandria side A, all three stages: 3 + 7 = 10 (stage 2 gives a resource).
        let t = with_fillers(p("Ann", "Alexandria", "A", 3, &[], 0), "Giza", "Rhodes");
        assert_eq!(t.scores()[0].wonder, 10);
        assert_eq!(t.scores()[0].total, 10);
    }

    #[test]
    fn civilian_example() {
        // 002 計分 4: Altar (2) + Aqueduct (5) + Town Hall (6) = 13.
        let t = with_fillers(
            p("Ann", "Alexandria", "A", 0, &["Altar", "Aqueduct", "Town Hall"], 0),
            "Giza",
            "Rhodes",
        );
        assert_eq!(t.scores()[0].civilian, 13);
        assert_eq!(t.scores()[0].total, 13);
    }

    #[test]
    fn commercial_example() {
        // 002 計分 6: Chamber of Commerce with two grey cards = 2 × 2 = 4. The Chamber is
        // marked 4+: a 3-player table cannot hold it.
        let ann = p("Ann", "Alexandria", "A", 0, &["Chamber of Commerce", "Loom", "Glassworks"], 0);
        let mut v = vec![ann.clone()];
        v.extend(fillers("Giza", "Rhodes"));
        let e = refused(v.clone());
        assert!(e.contains("Chamber of Commerce is in 1 city") && e.contains("has 0 copies"), "{e}");
        v.push(p("Dee", "Olympia", "A", 0, &[], 0));
        let t = table(v);
        let s = t.scores()[0];
        assert_eq!(s.commercial, 4);
        assert_eq!(s.total, 4);
    }

    #[test]
    fn science_example() {
        // 002 計分 5: 3 compasses, 2 gears, 1 tablet = 9 + 4 + 1 + 7 = 21.
        let cards = ["Apothecary", "Dispensary", "Lodge", "Workshop", "Laboratory", "Scriptorium"];
        let t = with_fillers(p("Ann", "Alexandria", "A", 0, &cards, 0), "Giza", "Rhodes");
        assert_eq!(t.scores()[0].science, 21);
        // One more tablet (Library): 3/2/2 = 9 + 4 + 4 + 2 × 7 = 31 (002 prints 9+4+1, a
        // translation error; base-1e.md §3 item 9).
        let mut more = cards.to_vec();
        more.push("Library");
        let t = with_fillers(p("Ann", "Alexandria", "A", 0, &more, 0), "Giza", "Rhodes");
        assert_eq!(t.scores()[0].science, 31);
        assert_eq!(t.scores()[0].total, 31);
    }

    #[test]
    fn babylon_wild_is_placed_where_it_scores_most() {
        // Babylon A stage 2 gives a wild symbol. With 2 compasses, 2 gears and 1 tablet it becomes
        // a tablet: 2/2/2 = 12 + 2 × 7 = 26 (a third compass would give 9 + 4 + 1 + 7 = 21).
        let cards = ["Apothecary", "Dispensary", "Workshop", "Laboratory", "Scriptorium"];
        let t = with_fillers(p("Ann", "Babylon", "A", 2, &cards, 0), "Giza", "Rhodes");
        let s = t.scores()[0];
        assert_eq!(s.science, 26);
        assert_eq!(s.wonder, 3);
        assert_eq!(s.total, 29);
        // Without the stage: 2/2/1 = 4 + 4 + 1 + 7 = 16.
        let t = with_fillers(p("Ann", "Babylon", "A", 1, &cards, 0), "Giza", "Rhodes");
        assert_eq!(t.scores()[0].science, 16);
    }

    #[test]
    fn olympia_b_copies_the_most_valuable_neighbour_guild() {
        // Ann (Olympia B, 3 stages) sits between Bob (left: Workers Guild) and Cy (right:
        // Magistrates Guild). Seen from Ann, Workers counts the brown cards of Bob and Cy: 2;
        // Magistrates counts their blue cards: 3. She copies the Magistrates Guild.
        let t = table(vec![
            p("Ann", "Olympia", "B", 3, &[], 0),
            p("Bob", "Giza", "A", 0, &["Workers Guild", "Lumber Yard", "Stone Pit"], 0),
            p("Cy", "Rhodes", "A", 0, &["Magistrates Guild", "Altar", "Theater", "Baths"], 0),
        ]);
        let s = t.scores();
        assert_eq!(s[0].guilds, 3);
        assert_eq!(s[0].wonder, 5); // stage 2 only
        assert_eq!(s[0].total, 8);
        // The owners are unaffected. Bob's Workers Guild counts Cy's and Ann's brown cards: 0;
        // Cy's Magistrates Guild counts Ann's and Bob's blue cards: 0.
        assert_eq!(s[1].guilds, 0);
        assert_eq!(s[2].guilds, 0);
        assert_eq!(s[2].civilian, 2 + 2 + 3);

        // The other way round: the left guild is worth more, and is the one copied.
        let t = table(vec![
            p("Ann", "Olympia", "B", 3, &[], 0),
            p("Bob", "Giza", "A", 0, &["Workers Guild", "Lumber Yard", "Stone Pit", "Ore Vein"], 0),
            p("Cy", "Rhodes", "A", 0, &["Magistrates Guild", "Altar", "Clay Pool"], 0),
        ]);
        // Workers: brown of Bob (3) and Cy (1) = 4; Magistrates: blue of Bob and Cy = 1.
        assert_eq!(t.scores()[0].guilds, 4);

        // Before stage 3 nothing is copied.
        let t = table(vec![
            p("Ann", "Olympia", "B", 2, &[], 0),
            p("Bob", "Giza", "A", 0, &["Workers Guild", "Lumber Yard"], 0),
            p("Cy", "Rhodes", "A", 0, &[], 0),
        ]);
        assert_eq!(t.scores()[0].guilds, 0);
    }

    #[test]
    fn olympia_b_copied_scientists_guild_scores_as_science() {
        // Ann has a compass and a gear (1 + 1 = 2 points). Copying Bob's Scientists Guild makes
        // them 1/1/1 = 3 + 7 = 10: +8 under science, more than Cy's Workers Guild (2 brown cards
        // among Bob and Cy: Cy's Lumber Yard and Stone Pit).
        let t = table(vec![
            p("Ann", "Olympia", "B", 3, &["Apothecary", "Workshop"], 0),
            p("Bob", "Giza", "A", 0, &["Scientists Guild"], 0),
            p("Cy", "Rhodes", "A", 0, &["Workers Guild", "Lumber Yard", "Stone Pit"], 0),
        ]);
        let s = t.scores()[0];
        assert_eq!(s.science, 10);
        assert_eq!(s.guilds, 0);
        assert_eq!(s.total, 5 + 10);
        // Bob's own Scientists Guild: his wild alone is one symbol = 1 point.
        assert_eq!(t.scores()[1].science, 1);
    }

    #[test]
    fn guild_scopes() {
        // Ann's Workers Guild counts the brown cards of her neighbours only: Bob's 2 + Cy's 1 = 3
        // (her own Lumber Yard does not count). Bob's Builders Guild counts the stages of his own
        // city and of both neighbours: 1 + 3 + 2 = 6 (002 行會 注意).
        let t = table(vec![
            p("Ann", "Giza", "A", 2, &["Workers Guild", "Lumber Yard"], 0),
            p("Bob", "Rhodes", "A", 1, &["Builders Guild", "Stone Pit", "Ore Vein"], 0),
            p("Cy", "Ephesos", "A", 3, &["Clay Pool"], 0),
        ]);
        let s = t.scores();
        assert_eq!(s[0].guilds, 3);
        assert_eq!(s[0].total, 3 + 3 + 5);
        assert_eq!(s[1].guilds, 6);
        assert_eq!(s[1].total, 6 + 3);
        assert_eq!(s[2].guilds, 0);
    }

    #[test]
    fn shipowners_guild_counts_itself() {
        // Brown, grey and purple cards of the own city, itself included: Lumber Yard, Loom and
        // the guild = 3 (002: "船主行會牌本身也要計算在內"). Neighbours' cards do not count.
        let t = table(vec![
            p("Ann", "Giza", "A", 0, &["Shipowners Guild", "Lumber Yard", "Loom"], 0),
            p("Bob", "Rhodes", "A", 0, &["Stone Pit", "Glassworks"], 0),
            p("Cy", "Ephesos", "A", 0, &["Clay Pool"], 0),
        ]);
        assert_eq!(t.scores()[0].guilds, 3);
        assert_eq!(t.scores()[0].total, 3);
    }

    #[test]
    fn olympia_b_copied_shipowners_guild_counts_itself() {
        // 002 奧林匹亞 B 說明: the copy is scored "as if the player had built this guild", and the
        // Shipowners Guild counts itself. Ann (Lumber Yard, Loom) copying Bob's Shipowners Guild
        // should score 2 + 1 = 3.
        let t = table(vec![
            p("Ann", "Olympia", "B", 3, &["Lumber Yard", "Loom"], 0),
            p("Bob", "Giza", "A", 0, &["Shipowners Guild"], 0),
            p("Cy", "Rhodes", "A", 0, &[], 0),
        ]);
        assert_eq!(t.scores()[0].guilds, 3);
    }

    #[test]
    fn ties_are_broken_by_coins_then_shared() {
        // Totals 3, 3, 3 and 3: Ann (Baths 3, 2 coins = 0), Bob (Altar 2 + 3 coins = 1),
        // Cy (Theater 2 + 3 coins = 1), Dee (Pawnshop 3, 1 coin = 0).
        // Bob and Cy lead on coins and share first place; Ann is third; Dee fourth.
        let t = table(vec![
            p("Ann", "Giza", "A", 0, &["Baths"], 2),
            p("Bob", "Rhodes", "A", 0, &["Altar"], 3),
            p("Cy", "Ephesos", "A", 0, &["Theater"], 3),
            p("Dee", "Olympia", "A", 0, &["Pawnshop"], 1),
        ]);
        let totals: Vec<i32> = t.scores().iter().map(|s| s.total).collect();
        assert_eq!(totals, vec![3, 3, 3, 3]);
        assert_eq!(t.ranks(), vec![Some(3), Some(1), Some(1), Some(4)]);
    }

    // --- Trading: 002 貿易, examples A, B and C, and base-1e.md §4.1 ---

    #[test]
    fn trading_example_a() {
        // University (2 wood + glass + papyrus); the city makes 1 wood and 1 glass; the left
        // neighbour (Olympia) sells wood, the right one (Ephesos) papyrus: 2 coins to each.
        let t = table(vec![
            p("Ann", "Alexandria", "A", 0, &["Lumber Yard"], 4),
            p("Bob", "Olympia", "A", 0, &[], 0),
            p("Cy", "Ephesos", "A", 0, &[], 0),
        ]);
        assert_eq!(options(&t, 0, "University"), vec![(2, 2, 0, false)]);
        // With 3 coins she cannot.
        let t = table(vec![
            p("Ann", "Alexandria", "A", 0, &["Lumber Yard"], 3),
            p("Bob", "Olympia", "A", 0, &[], 0),
            p("Cy", "Ephesos", "A", 0, &[], 0),
        ]);
        let answer = t.cost(0, &Target::Card("University".into())).unwrap();
        assert!(answer.options.is_empty());
        let reason = answer.reason.unwrap_or_default();
        assert!(reason.contains("has 3 coin(s)") && reason.contains("costs at least 4"), "{reason}");
    }

    #[test]
    fn trading_example_b() {
        // Library (2 stone + loom) entirely from her own production, with no coins at all.
        let t = with_fillers(p("Ann", "Giza", "A", 0, &["Stone Pit", "Loom"], 0), "Rhodes", "Ephesos");
        assert_eq!(options(&t, 0, "Library"), vec![(0, 0, 0, false)]);
    }

    #[test]
    fn trading_example_c() {
        // Forum (2 clay): she makes 1 clay (Babylon's board), her left neighbour sells clay, but she
        // has 1 coin at the start of the turn: no way to build it.
        let t = table(vec![
            p("Ann", "Babylon", "A", 0, &[], 1),
            p("Bob", "Giza", "A", 0, &["Clay Pool"], 0),
            p("Cy", "Rhodes", "A", 0, &[], 0),
        ]);
        let answer = t.cost(0, &Target::Card("Forum".into())).unwrap();
        assert_eq!(answer.options, vec![]);
        assert!(answer.reason.is_some());
        // With 2 coins: 2 to the left.
        let t = table(vec![
            p("Ann", "Babylon", "A", 0, &[], 2),
            p("Bob", "Giza", "A", 0, &["Clay Pool"], 0),
            p("Cy", "Rhodes", "A", 0, &[], 0),
        ]);
        assert_eq!(options(&t, 0, "Forum"), vec![(2, 0, 0, false)]);
    }

    /// Ann (Giza) between Bob (left, Olympia: wood) and Cy (right, Rhodes with a Lumber Yard).
    fn wood_on_both_sides(ann_cards: &[&str]) -> Table {
        table(vec![
            p("Ann", "Giza", "A", 0, ann_cards, 10),
            p("Bob", "Olympia", "A", 0, &[], 0),
            p("Cy", "Rhodes", "A", 0, &["Lumber Yard"], 0),
        ])
    }

    #[test]
    fn trading_posts_discount_one_direction() {
        // Stockade costs 1 wood, sold by both neighbours.
        assert_eq!(
            options(&wood_on_both_sides(&[]), 0, "Stockade"),
            vec![(0, 2, 0, false), (2, 0, 0, false)]
        );
        // East Trading Post: raw materials from the RIGHT neighbour cost 1.
        assert_eq!(
            options(&wood_on_both_sides(&["East Trading Post"]), 0, "Stockade"),
            vec![(0, 1, 0, false), (2, 0, 0, false)]
        );
        // West Trading Post: from the LEFT neighbour.
        assert_eq!(
            options(&wood_on_both_sides(&["West Trading Post"]), 0, "Stockade"),
            vec![(0, 2, 0, false), (1, 0, 0, false)]
        );
        // Both posts: 1 on each side.
        assert_eq!(
            options(&wood_on_both_sides(&["East Trading Post", "West Trading Post"]), 0, "Stockade"),
            vec![(0, 1, 0, false), (1, 0, 0, false)]
        );
        // The posts do not cheapen manufactured goods: Marketplace does, from both sides.
        let glass = |cards: &[&str]| {
            table(vec![
                p("Ann", "Giza", "A", 0, cards, 10),
                p("Bob", "Olympia", "A", 0, &["Glassworks"], 0),
                p("Cy", "Alexandria", "A", 0, &[], 0),
            ])
        };
        assert_eq!(
            options(&glass(&["East Trading Post", "West Trading Post"]), 0, "Workshop"),
            vec![(0, 2, 0, false), (2, 0, 0, false)]
        );
        assert_eq!(
            options(&glass(&["Marketplace"]), 0, "Workshop"),
            vec![(0, 1, 0, false), (1, 0, 0, false)]
        );
    }

    #[test]
    fn olympia_b_stage_1_discounts_raw_materials_on_both_sides() {
        // Ann (Olympia B, stage 1) between Bob (left, Rhodes: ore) and Cy (right, Ephesos with an
        // Ore Vein): ore costs 1 on either side, papyrus still 2.
        let t = table(vec![
            p("Ann", "Olympia", "B", 1, &[], 10),
            p("Bob", "Rhodes", "A", 0, &[], 0),
            p("Cy", "Ephesos", "A", 0, &["Ore Vein"], 0),
        ]);
        assert_eq!(options(&t, 0, "Barracks"), vec![(0, 1, 0, false), (1, 0, 0, false)]);
        assert_eq!(options(&t, 0, "Scriptorium"), vec![(0, 2, 0, false)]);
        // Statue (wood + 2 ore): her board gives the wood; each side sells one ore, for 1 each.
        assert_eq!(options(&t, 0, "Statue"), vec![(1, 1, 0, false)]);
        // Without the stage, 2 per unit.
        let t = table(vec![
            p("Ann", "Olympia", "B", 0, &[], 10),
            p("Bob", "Rhodes", "A", 0, &[], 0),
            p("Cy", "Ephesos", "A", 0, &["Ore Vein"], 0),
        ]);
        assert_eq!(options(&t, 0, "Statue"), vec![(2, 2, 0, false)]);
    }

    #[test]
    fn what_neighbours_may_not_sell() {
        // Ann (Giza) between Bob (left, Alexandria A with stage 2: any raw material, not for sale;
        // its starting glass is for sale) and Cy (right, Halicarnassus with Caravansery and Forum,
        // whose output is for Cy alone; its starting loom is for sale).
        let t = table(vec![
            p("Ann", "Giza", "A", 0, &[], 10),
            p("Bob", "Alexandria", "A", 2, &[], 0),
            p("Cy", "Halicarnassus", "A", 0, &["Caravansery", "Forum"], 0),
        ]);
        for raw in ["Stockade", "Barracks", "Guard Tower"] {
            let answer = t.cost(0, &Target::Card(raw.into())).unwrap();
            assert_eq!(answer.options, vec![], "{raw}");
            assert!(answer.reason.unwrap_or_default().contains("cannot supply"), "{raw}");
        }
        assert_eq!(options(&t, 0, "Workshop"), vec![(2, 0, 0, false)]); // Alexandria's glass
        assert_eq!(options(&t, 0, "Apothecary"), vec![(0, 2, 0, false)]); // Halicarnassus' loom
        assert_eq!(options(&t, 0, "Scriptorium"), vec![]); // only Cy's Forum makes papyrus
        // The owners use them freely.
        assert_eq!(options(&t, 1, "Stockade"), vec![(0, 0, 0, false)]);
        assert_eq!(options(&t, 2, "Scriptorium"), vec![(0, 0, 0, false)]);
        assert_eq!(options(&t, 2, "Guard Tower"), vec![(0, 0, 0, false)]);
    }

    #[test]
    fn neighbour_either_or_card_sells_either_resource() {
        // Bob (left) has a Clay Pit (clay or ore): Ann may buy clay or ore from it, not both.
        let t = table(vec![
            p("Ann", "Olympia", "A", 0, &[], 10),
            p("Bob", "Giza", "A", 0, &["Clay Pit"], 0),
            p("Cy", "Ephesos", "A", 0, &[], 0),
        ]);
        assert_eq!(options(&t, 0, "Guard Tower"), vec![(2, 0, 0, false)]);
        assert_eq!(options(&t, 0, "Barracks"), vec![(2, 0, 0, false)]);
        // Stables: wood (her board) + clay + ore: the Clay Pit gives only one of them.
        assert_eq!(options(&t, 0, "Stables"), vec![]);
        // With an Ore Vein on the right, the Clay Pit sells the clay.
        let t = table(vec![
            p("Ann", "Olympia", "A", 0, &[], 10),
            p("Bob", "Giza", "A", 0, &["Clay Pit"], 0),
            p("Cy", "Ephesos", "A", 0, &["Ore Vein"], 0),
        ]);
        assert_eq!(options(&t, 0, "Stables"), vec![(2, 2, 0, false)]);
    }

    #[test]
    fn chains_names_coins_and_stages() {
        let t = table(vec![
            p("Ann", "Giza", "A", 0, &["Scriptorium", "Loom", "Stone Pit"], 0),
            p("Bob", "Rhodes", "B", 2, &[], 1),
            p("Cy", "Ephesos", "A", 0, &[], 0),
        ]);
        // Scriptorium → Library and Courthouse: free, even with no coins.
        assert_eq!(options(&t, 0, "Library"), vec![(0, 0, 0, true)]);
        assert_eq!(options(&t, 0, "Courthouse"), vec![(0, 0, 0, true)]);
        let answer = t.cost(0, &Target::Card("法院".into())).unwrap(); // Courthouse in Chinese
        assert_eq!(answer.what, "Courthouse");
        assert!(answer.reason.unwrap_or_default().contains("Scriptorium"));
        // A Loom is already in the city (the Age II Loom is the same structure).
        let answer = t.cost(0, &Target::Card("loom".into())).unwrap();
        assert_eq!(answer.options, vec![]);
        assert!(answer.reason.unwrap_or_default().contains("already has Loom"));
        // Coin costs go to the bank; with 0 coins a 1-coin card is out of reach.
        assert_eq!(options(&t, 0, "Timber Yard"), vec![]);
        assert_eq!(options(&t, 1, "Timber Yard"), vec![(0, 0, 1, false)]);
        // Giza A stage 1 (2 stone): her board and her Stone Pit.
        assert_eq!(stage_options(&t, 0), vec![(0, 0, 0, false)]);
        assert_eq!(t.cost(0, &Target::Stage).unwrap().what, "stage 1 of Giza (A)");
        // Rhodes B has two stages, both built.
        let answer = t.cost(1, &Target::Stage).unwrap();
        assert_eq!(answer.options, vec![]);
        assert!(answer.reason.is_some());
        // Ephesos A stage 1 (2 stone): Ann (Cy's left neighbour) sells 2 stone, 4 coins; Cy has 0.
        assert_eq!(stage_options(&t, 2), vec![]);
        // Unknown player, unknown card.
        assert!(matches!(t.cost(3, &Target::Stage), Err(TableError::NoSuchPlayer { index: 3, players: 3 })));
        let e = t.cost(0, &Target::Card("Libary".into())).unwrap_err().to_string();
        assert!(e.contains("did you mean `Library`"), "{e}");
    }

    #[test]
    fn stage_payments_use_neighbours() {
        // Cy (Ephesos A, stage 1: 2 stone) sits between Ann (left: Giza's stone and a Stone Pit)
        // and Bob (right: a Quarry, 2 stone). Every split of the 2 units is Pareto-minimal.
        let cy = |coins: u16| {
            table(vec![
                p("Ann", "Giza", "A", 0, &["Stone Pit"], 0),
                p("Bob", "Rhodes", "A", 0, &["Quarry"], 0),
                p("Cy", "Ephesos", "A", 0, &[], coins),
            ])
        };
        assert_eq!(stage_options(&cy(4), 2), vec![(0, 4, 0, false), (2, 2, 0, false), (4, 0, 0, false)]);
        assert_eq!(stage_options(&cy(3), 2), vec![]);
        assert_eq!(cy(4).cost(2, &Target::Stage).unwrap().what, "stage 1 of Ephesos (A)");
    }

    // --- Validation ---

    #[test]
    fn unknown_names_quote_the_name_and_suggest() {
        let mut v = vec![p("Ann", "Giza", "A", 0, &["Lumbr Yard"], 0)];
        v.extend(fillers("Rhodes", "Ephesos"));
        let e = refused(v);
        assert!(e.contains("player 0 (Ann)"), "{e}");
        assert!(e.contains("`Lumbr Yard`"), "{e}");
        assert!(e.contains("did you mean `Lumber Yard`"), "{e}");
        let mut v = vec![p("Ann", "Gizza", "A", 0, &[], 0)];
        v.extend(fillers("Rhodes", "Ephesos"));
        let e = refused(v);
        assert!(e.contains("unknown wonder `Gizza`") && e.contains("did you mean `Giza`"), "{e}");
        // A huge name is refused quickly, quoted shortened.
        let long = "x".repeat(100_000);
        let mut v = vec![p("Ann", "Giza", "A", 0, &[long.as_str()], 0)];
        v.extend(fillers("Rhodes", "Ephesos"));
        let e = refused(v);
        assert!(e.len() < 300, "{e}");
    }

    #[test]
    fn chinese_names() {
        // 伐木場 = Lumber Yard, 吉薩金字塔 = Giza, 布料作坊 = Loom.
        let t = with_fillers(p("Ann", "吉薩金字塔", "A", 0, &["伐木場", "布料作坊"], 0), "Rhodes", "Ephesos");
        let c = &t.cities()[0];
        assert_eq!(t.catalog().wonder(c.wonder).name, "Giza");
        let built: Vec<&str> = c.built.iter().map(|id| t.catalog().card(id).name.as_str()).collect();
        assert_eq!(built, vec!["Lumber Yard", "Loom"]);
        assert_eq!(c.production.fixed, Resources::from_letters("WSL").unwrap_or_default());
        // Stockade (wood) is free for her.
        assert_eq!(options(&t, 0, "圍寨"), vec![(0, 0, 0, false)]);
    }

    #[test]
    fn same_name_twice_is_refused() {
        for cards in [["Loom", "Loom"], ["Loom", "布料作坊"]] {
            let mut v = vec![p("Ann", "Giza", "A", 0, &cards, 0)];
            v.extend(fillers("Rhodes", "Ephesos"));
            let e = refused(v);
            assert!(e.contains("player 0 (Ann): Loom is listed twice"), "{e}");
        }
    }

    #[test]
    fn copies_across_cities() {
        // 3 players: one Age I Loom (3+) and one Age II Loom (3+): two cities may hold a Loom,
        // not three.
        let ok = table(vec![
            p("Ann", "Giza", "A", 0, &["Loom"], 0),
            p("Bob", "Rhodes", "A", 0, &["Loom"], 0),
            p("Cy", "Ephesos", "A", 0, &[], 0),
        ]);
        assert_eq!(ok.players(), 3);
        let e = refused(vec![
            p("Ann", "Giza", "A", 0, &["Loom"], 0),
            p("Bob", "Rhodes", "A", 0, &["Loom"], 0),
            p("Cy", "Ephesos", "A", 0, &["Loom"], 0),
        ]);
        assert!(e.contains("Loom is in 3 cities") && e.contains("a 3-player game has 2 copies"), "{e}");
        assert!(e.contains("player 2 (Cy)"), "{e}");
        // Guard Tower is marked 3+ 4+: one copy with 3 players, two with 4.
        let e = refused(vec![
            p("Ann", "Giza", "A", 0, &["Guard Tower"], 0),
            p("Bob", "Rhodes", "A", 0, &["Guard Tower"], 0),
            p("Cy", "Ephesos", "A", 0, &[], 0),
        ]);
        assert!(e.contains("has 1 copy"), "{e}");
        table(vec![
            p("Ann", "Giza", "A", 0, &["Guard Tower"], 0),
            p("Bob", "Rhodes", "A", 0, &["Guard Tower"], 0),
            p("Cy", "Ephesos", "A", 0, &[], 0),
            p("Dee", "Olympia", "A", 0, &[], 0),
        ]);
        // Tree Farm (6+) is not in a 3-player deck.
        let e = refused(vec![
            p("Ann", "Giza", "A", 0, &["Tree Farm"], 0),
            p("Bob", "Rhodes", "A", 0, &[], 0),
            p("Cy", "Ephesos", "A", 0, &[], 0),
        ]);
        assert!(e.contains("has 0 copies"), "{e}");
        // A guild exists once.
        let e = refused(vec![
            p("Ann", "Giza", "A", 0, &["Spies Guild"], 0),
            p("Bob", "Rhodes", "A", 0, &["Spies Guild"], 0),
            p("Cy", "Ephesos", "A", 0, &[], 0),
        ]);
        assert!(e.contains("Spies Guild is in 2 cities"), "{e}");
        // 3 players: 5 guilds in play, not 6.
        let e = refused(vec![
            p("Ann", "Giza", "A", 0, &["Spies Guild", "Workers Guild", "Traders Guild"], 0),
            p("Bob", "Rhodes", "A", 0, &["Builders Guild", "Magistrates Guild", "Scientists Guild"], 0),
            p("Cy", "Ephesos", "A", 0, &[], 0),
        ]);
        assert!(e.contains("6 guilds") && e.contains("only 5"), "{e}");
    }

    #[test]
    fn stages_wonders_sides_and_tokens() {
        // Rhodes B has 2 stages.
        let e = refused(vec![
            p("Ann", "Rhodes", "B", 3, &[], 0),
            p("Bob", "Giza", "A", 0, &[], 0),
            p("Cy", "Ephesos", "A", 0, &[], 0),
        ]);
        assert!(e.contains("player 0 (Ann): 3 stages, but Rhodes side B has 2"), "{e}");
        // Giza B has 4.
        table(vec![
            p("Ann", "Giza", "B", 4, &[], 0),
            p("Bob", "Rhodes", "A", 0, &[], 0),
            p("Cy", "Ephesos", "A", 0, &[], 0),
        ]);
        // The same board twice, whatever its side or spelling.
        let e = refused(vec![
            p("Ann", "Giza", "A", 0, &[], 0),
            p("Bob", "Rhodes", "A", 0, &[], 0),
            p("Cy", "吉薩金字塔", "B", 0, &[], 0),
        ]);
        assert!(e.contains("player 0 (Ann) and player 2 (Cy) both have Giza"), "{e}");
        // Unknown side.
        let e = refused(vec![
            p("Ann", "Giza", "C", 0, &[], 0),
            p("Bob", "Rhodes", "A", 0, &[], 0),
            p("Cy", "Ephesos", "A", 0, &[], 0),
        ]);
        assert!(e.contains("unknown side `C`"), "{e}");
        // Tokens: 2 does not exist; 7 tokens, or 3 of +5, cannot be won.
        for (tokens, needle) in [
            (json!([1, 2]), "military token 2 does not exist"),
            (json!([5, 5, 5]), "3 tokens of +5"),
            (json!([-1, -1, -1, -1, -1, -1, -1]), "7 military tokens"),
            (json!([4_000_000_000_i64]), "military token 4000000000"),
        ] {
            let mut ann = p("Ann", "Giza", "A", 0, &[], 0);
            ann["military"] = tokens;
            let mut v = vec![ann];
            v.extend(fillers("Rhodes", "Ephesos"));
            let e = refused(v);
            assert!(e.contains("player 0 (Ann)") && e.contains(needle), "{e}");
        }
    }

    #[test]
    fn malformed_input_and_player_counts() {
        let e = Table::from_json("{\"players\": [").unwrap_err().to_string();
        assert!(e.starts_with("malformed table") && e.contains("line 1"), "{e}");
        let e = Table::from_json("{\"players\": [], \"extra\": 1}").unwrap_err().to_string();
        assert!(e.contains("unknown field `extra`"), "{e}");
        let e =
            Table::from_json(r#"{"players": [{"name": "A", "wonder": "Giza"}]}"#).unwrap_err().to_string();
        assert!(e.contains("missing field `side`"), "{e}");
        let e =
            Table::from_json(r#"{"players": [{"name": "A", "wonder": "Giza", "side": "A", "stages": -1}]}"#)
                .unwrap_err()
                .to_string();
        assert!(e.contains("line 1 column"), "{e}");
        for text in ["", "null", "[]", "{}", "\"players\"", "{\"players\": {}}"] {
            assert!(matches!(Table::from_json(text), Err(TableError::Json(_))), "{text}");
        }
        // Player counts.
        let e = refused(fillers("Giza", "Rhodes"));
        assert_eq!(
            e,
            "2 players: a table holds 3 to 7 players (8 with Armada), or 2 players and a Free City"
        );
        let all = ["Giza", "Rhodes", "Ephesos", "Babylon", "Olympia", "Halicarnassus", "Alexandria"];
        let seven: Vec<Value> = all.iter().map(|w| p(w, w, "A", 0, &[], 0)).collect();
        assert_eq!(table(seven.clone()).players(), 7);
        let mut eight = seven;
        eight.push(p("H", "Giza", "A", 0, &[], 0));
        assert_eq!(
            refused(eight),
            "8 players: a table holds 3 to 7 players (8 with Armada), or 2 players and a Free City"
        );
        // Editions: the 2nd edition scores with its own data (Decorators Guild, Night sides).
        let mut v = fillers("Giza", "Rhodes");
        v.push(p("Z", "Ephesos", "A", 0, &[], 0));
        let text = json!({"edition": "2e", "players": v}).to_string();
        assert_eq!(Table::from_json(&text).unwrap().edition(), Edition::Second);
        let text = json!({"edition": "3e", "players": v}).to_string();
        assert!(matches!(Table::from_json(&text), Err(TableError::UnknownEdition(_))));
        let text = json!({"edition": "1e", "players": v}).to_string();
        assert!(Table::from_json(&text).is_ok());
    }
}

#[cfg(test)]
mod free_city_and_second_edition {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_two_player_table_with_the_free_city() {
        // 002 2人變體規則: the Free City is a third city between the two players; it fights and
        // trades like any city but is not ranked.
        let text = json!({"edition": "1e", "players": [
            {"name": "Ann", "wonder": "Giza", "side": "A", "stages": 1, "cards": ["Lumber Yard"], "coins": 6, "military": [1]},
            {"name": "Bob", "wonder": "Rhodes", "side": "A", "cards": ["Barracks"], "coins": 9, "military": [1, -1]},
            {"name": "Free City", "free_city": true, "wonder": "Babylon", "side": "A", "cards": ["Clay Pool"], "coins": 3, "military": [-1]}
        ]})
        .to_string();
        let t = Table::from_json(&text).unwrap();
        assert_eq!(t.free_city(), Some(2));
        let totals: Vec<i32> = t.scores().iter().map(|s| s.total).collect();
        // Ann: 1 + 2 coins-points + 3 (stage 1) = 6; Bob: 0 + 3 = 3; Free City: −1 + 1 = 0.
        assert_eq!(totals, vec![6, 3, 0]);
        assert_eq!(t.ranks(), vec![Some(1), Some(2), None]);
        // The Free City buys from its neighbours (Bob on its right, Ann on its left).
        let a = t.cost(2, &Target::Card("Stockade".into())).unwrap();
        assert_eq!(a.options.iter().map(|o| (o.left, o.right)).collect::<Vec<_>>(), vec![(2, 0)]);
        // Two Free Cities, or a Free City with 3 players, or in the 2nd edition: refused.
        let two = text.replace(r#""name":"Bob","#, r#""name":"Bob","free_city":true,"#);
        assert!(matches!(Table::from_json(&two), Err(TableError::FreeCity(2))), "{two}");
        let second = text.replace(r#""edition":"1e""#, r#""edition":"2e""#);
        assert!(matches!(Table::from_json(&second), Err(TableError::UnsupportedEdition(Edition::Second))));
    }

    #[test]
    fn a_second_edition_table() {
        // 2nd edition: Decorators Guild 7 VP with a complete wonder (Rhodes Night has 2 stages);
        // the Altar is worth 3; Ludus (5+) scores its red cards; Pawnshop does not exist.
        let text = json!({"edition": "2e", "players": [
            {"name": "Ann", "wonder": "Rhodes", "side": "Night", "stages": 2, "cards": ["Decorators Guild", "Altar"], "coins": 0},
            {"name": "Bob", "wonder": "Babylon", "side": "Day", "cards": [], "coins": 0},
            {"name": "Cy", "wonder": "Giza", "side": "Day", "cards": ["Ludus", "Barracks", "Stockade"], "coins": 0},
            {"name": "Dee", "wonder": "Olympia", "side": "Day", "coins": 0},
            {"name": "Eve", "wonder": "Ephesos", "side": "Night", "coins": 0}
        ]})
        .to_string();
        let t = Table::from_json(&text).unwrap();
        let s = t.scores();
        // Ann: 3 + 4 (stages) wonder, 3 (the 2nd edition's Altar) civilian, 7 guilds.
        assert_eq!((s[0].wonder, s[0].civilian, s[0].guilds, s[0].total), (7, 3, 7, 17));
        assert_eq!(s[2].commercial, 2, "Ludus: 1 VP per red card");
        let stockade = t.cost(2, &Target::Card("Stockade".into())).unwrap();
        assert!(stockade.options.is_empty(), "Cy already has a Stockade");
        let altar = t.cost(2, &Target::Card("Altar".into())).unwrap();
        assert_eq!(altar.options.len(), 1, "the Altar is free");
        let pawnshop = text.replace("\"Altar\"", "\"Pawnshop\"");
        assert!(Table::from_json(&pawnshop).unwrap_err().to_string().contains("Pawnshop"));
    }
}
