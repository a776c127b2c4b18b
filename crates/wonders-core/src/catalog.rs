//! The card and wonder data of one edition, read from its data file.
//!
//! The built-in data lives in `data/*.toml` and is embedded at compile time; [`Catalog::from_toml`]
//! reads the same format at run time, so a data file can replace values without recompiling.

use crate::card::{CardDef, CardId, Colour, NameId, NameSet};
use crate::effect::Effect;
use crate::resources::{Resource, Resources};
use serde::Deserialize;
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

/// The edition of the base game. Their data is never mixed (base-1e.md §6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub enum Edition {
    /// The 1st edition (2010): wonder sides A and B.
    #[default]
    First,
    /// The 2nd edition (2020): Day and Night sides.
    Second,
}

impl Edition {
    /// `"1e"` or `"2e"`.
    pub const fn code(self) -> &'static str {
        match self {
            Edition::First => "1e",
            Edition::Second => "2e",
        }
    }

    /// Parses `"1e"` or `"2e"`.
    pub fn parse(s: &str) -> Option<Edition> {
        match s.trim().to_ascii_lowercase().as_str() {
            "1e" | "1" | "first" => Some(Edition::First),
            "2e" | "2" | "second" => Some(Edition::Second),
            _ => None,
        }
    }
}

impl fmt::Display for Edition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A wonder board, as an index into its edition's catalog.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WonderId(pub u8);

/// The side of a wonder board: A/B in the 1st edition, Day/Night in the 2nd.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Side A (1st edition) or Day (2nd edition).
    A = 0,
    /// Side B (1st edition) or Night (2nd edition).
    B = 1,
}

impl Side {
    /// The name printed on the board in that edition.
    pub const fn label(self, edition: Edition) -> &'static str {
        match (edition, self) {
            (Edition::First, Side::A) => "A",
            (Edition::First, Side::B) => "B",
            (Edition::Second, Side::A) => "Day",
            (Edition::Second, Side::B) => "Night",
        }
    }

    /// Parses `A`, `B`, `Day` or `Night` (any case).
    pub fn parse(s: &str) -> Option<Side> {
        match s.trim().to_ascii_lowercase().as_str() {
            "a" | "day" | "日" => Some(Side::A),
            "b" | "night" | "夜" => Some(Side::B),
            _ => None,
        }
    }
}

/// One stage of a wonder side.
#[derive(Clone, Debug)]
pub struct StageDef {
    /// Resources needed.
    pub cost: Resources,
    /// What it gives.
    pub effects: Vec<Effect>,
    /// A second effect the builder may take instead of `effects` (Carthage, edifice.md §5.4);
    /// empty for an ordinary stage.
    pub alt: Vec<Effect>,
    /// Whether a value of this stage is not confirmed by any public source.
    pub provisional: bool,
    /// Whether building it asks a choice (set at load: see [`StageDef::has_choice`]).
    choice: bool,
}

impl StageDef {
    /// The effects taken: the second ones when `alternative` is set and the stage has them.
    #[inline]
    pub fn effects_for(&self, alternative: bool) -> &[Effect] {
        if alternative && !self.alt.is_empty() { &self.alt } else { &self.effects }
    }

    /// Whether building the stage asks a choice: two effects (Carthage), or the Age of a pawn (Ur).
    #[inline]
    pub fn has_choice(&self) -> bool {
        self.choice
    }
}

/// A wonder board with its two sides.
#[derive(Clone, Debug)]
pub struct WonderDef {
    /// Its id in the catalog.
    pub id: WonderId,
    /// Short English name (`Rhodes`).
    pub name: String,
    /// Full English name (`Colossus of Rhodes`).
    pub full_name: String,
    /// Name in the edition's Chinese rulebook.
    pub zh: String,
    /// Other accepted names.
    pub aliases: Vec<String>,
    /// The starting resource printed on the board.
    pub start: Resource,
    /// The stages of side A (index 0) and side B (index 1).
    pub sides: [Vec<StageDef>; 2],
    /// Where the data comes from.
    pub source: String,
    /// A board of an expansion's box (Ur, Carthage): dealt at random only when that expansion
    /// is played.
    pub expansion: bool,
    /// Usable only with the Edifice expansion (Ur, 001 奇蹟面板).
    pub only_with_edifice: bool,
}

impl WonderDef {
    /// The stages of one side.
    pub fn stages(&self, side: Side) -> &[StageDef] {
        &self.sides[side as usize]
    }
}

/// All the data of one edition: cards, wonders and the decks for each player count.
#[derive(Clone, Debug)]
pub struct Catalog {
    /// The edition this data belongs to.
    pub edition: Edition,
    /// Every distinct card, indexed by [`CardId`]. Read it freely; build a changed catalog
    /// through the constructors (a data file, [`Catalog::with_armada`], …), which work out the
    /// tables derived from it.
    pub cards: Vec<CardDef>,
    /// Every wonder, indexed by [`WonderId`].
    pub wonders: Vec<WonderDef>,
    /// Distinct names, indexed by [`NameId`].
    pub names: Vec<String>,
    /// The Edifice data (projects, pawns, debt), in a catalog extended with that expansion
    /// ([`Catalog::extended`], [`Catalog::with_edifice_toml`]).
    pub edifice: Option<Box<crate::edifice::EdificeData>>,
    /// The Armada data (boards, tracks, cards, islands), in a catalog extended with that
    /// expansion ([`Catalog::with_armada`], [`Catalog::with_builtin_armada`]). Its 24 cards are
    /// the catalog's last cards, from [`Catalog::armada_first`] on.
    pub armada: Option<Box<crate::armada::ArmadaData>>,
    /// The id of the first Armada card: the number of the edition's own cards.
    armada_first: u8,
    lookup: HashMap<String, CardId>,
    /// What move generation reads of each card, packed (indexed by [`CardId`]; kept in step with
    /// `cards` by every constructor): a hand's cards are looked at for every decision.
    hot: Vec<HotCard>,
    /// Each Age's deck for 0 to 7 players, and the guilds: what [`Catalog::age_cards`] and
    /// [`Catalog::guilds`] give, worked out once (a game's setup and every resampling of a
    /// search ask for them).
    decks: Decks,
}

/// The decks a catalog deals ([`Catalog::age_cards`] for `players` ≤ 7, [`Catalog::guilds`]).
#[derive(Clone, Debug, Default)]
struct Decks {
    by_age: [[Vec<CardId>; 8]; 3],
    guilds: Vec<CardId>,
}

impl Decks {
    fn of(cards: &[CardDef]) -> Decks {
        let mut decks = Decks::default();
        for (age, by_players) in (1u8..=3).zip(decks.by_age.iter_mut()) {
            for (players, deck) in (0u8..).zip(by_players.iter_mut()) {
                *deck = deal(cards, age, players);
            }
        }
        decks.guilds = cards.iter().filter(|c| c.is_guild()).map(|c| c.id).collect();
        decks
    }
}

/// The cards of an Age's deck for a player count, guilds aside (the cards whose player-count
/// marks are at most `players`, once per mark), in catalog order.
fn deal(cards: &[CardDef], age: u8, players: u8) -> Vec<CardId> {
    // Room for a 7-player Age deck and its guilds, grown once instead of doubling.
    let mut out = Vec::with_capacity(64);
    for c in cards.iter().filter(|c| c.age == age && !c.is_guild()) {
        for _ in 0..c.copies_for(players) {
            out.push(c.id);
        }
    }
    out
}

/// The fields of a card that move generation reads for every card of every hand, 32 bytes
/// instead of a [`CardDef`]'s 200-odd spread over several cache lines.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HotCard {
    /// The card's chain parents ([`CardDef::chain_parents`]).
    pub chain_parents: NameSet,
    /// Its resource cost ([`CardDef::cost`]).
    pub cost: Resources,
    /// Its name ([`CardDef::name_id`]).
    pub name_id: NameId,
    /// Its colour ([`CardDef::colour`]).
    pub colour: Colour,
    /// Its coin cost ([`CardDef::coins`]).
    pub coins: u8,
    /// Whether building it gives coins at once ([`Effect::gives_coins_when_built`]): the turn's
    /// resolution skips the effects of the others.
    pub gives_coins: bool,
    /// The points its [`Effect::Points`] give, and whether it has no other effect that scores
    /// ([`Effect::scores_by_counting`]): then these are all its points, and the score sheet
    /// does not read its effects.
    pub plain_points: Option<u8>,
    /// Whether another card has its name (Loom, Glassworks and Press of Ages I and II): its wire
    /// form names its Age too ([`crate::wire::WireAction::from_action`]).
    pub name_shared: bool,
}

fn hot_table(cards: &[CardDef]) -> Vec<HotCard> {
    let mut named = [0u8; 256];
    for c in cards {
        named[c.name_id.0 as usize] = named[c.name_id.0 as usize].saturating_add(1);
    }
    cards
        .iter()
        .map(|c| HotCard {
            name_shared: named[c.name_id.0 as usize] > 1,
            chain_parents: c.chain_parents,
            cost: c.cost,
            name_id: c.name_id,
            colour: c.colour,
            coins: c.coins,
            gives_coins: c.effects.iter().any(Effect::gives_coins_when_built),
            plain_points: (!c.effects.iter().any(Effect::scores_by_counting))
                .then(|| c.effects.iter().map(|e| if let Effect::Points(p) = e { *p } else { 0 }).sum()),
        })
        .collect()
}

/// Why a data file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CatalogError {
    /// The TOML itself is malformed or has unexpected fields.
    #[error("data file: {0}")]
    Syntax(String),
    /// A value inside is wrong.
    #[error("data file, {what}: {problem}")]
    Value {
        /// The card or wonder concerned.
        what: String,
        /// What is wrong.
        problem: String,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileData {
    edition: String,
    cards: Vec<FileCard>,
    wonders: Vec<FileWonder>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileCard {
    age: u8,
    name: String,
    zh: String,
    #[serde(default)]
    aliases: Vec<String>,
    colour: String,
    #[serde(default)]
    coins: u8,
    #[serde(default)]
    cost: String,
    effects: Vec<String>,
    #[serde(default)]
    chain_from: Vec<String>,
    #[serde(default)]
    copies: Vec<u8>,
    source: String,
    #[serde(default)]
    provisional: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileStage {
    cost: String,
    effects: Vec<String>,
    #[serde(default)]
    or: Vec<String>,
    #[serde(default)]
    provisional: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FileWonder {
    #[serde(default)]
    only_with_edifice: bool,
    name: String,
    full_name: String,
    zh: String,
    #[serde(default)]
    aliases: Vec<String>,
    start: String,
    source: String,
    #[serde(rename = "A")]
    a: Vec<FileStage>,
    #[serde(rename = "B")]
    b: Vec<FileStage>,
}

pub(crate) fn value_err(what: &str, problem: impl Into<String>) -> CatalogError {
    CatalogError::Value { what: what.to_string(), problem: problem.into() }
}

fn effects(what: &str, codes: &[String]) -> Result<Vec<Effect>, CatalogError> {
    codes.iter().map(|c| Effect::parse(c).map_err(|e| value_err(what, e.to_string()))).collect()
}

pub(crate) fn resources(what: &str, letters: &str) -> Result<Resources, CatalogError> {
    Resources::from_letters(letters)
        .ok_or_else(|| value_err(what, format!("bad resource letters `{letters}`")))
}

/// Lower-cases a name and folds the Chinese character variants the rulebooks mix
/// (采/採, 粘/黏, 舖/鋪, 臺/台; base-1e.md §1).
pub fn normalize(name: &str) -> String {
    name.trim()
        .to_lowercase()
        .chars()
        .map(|c| match c {
            '采' => '採',
            '粘' => '黏',
            '舖' => '鋪',
            '臺' => '台',
            '’' => '\'',
            c => c,
        })
        .collect()
}

impl Catalog {
    /// The built-in data of an edition.
    ///
    /// ```
    /// use wonders_core::{Catalog, Edition};
    /// let cat = Catalog::get(Edition::First);
    /// assert_eq!(cat.cards.len(), 78);
    /// assert_eq!(cat.wonders.len(), 7);
    /// ```
    pub fn get(edition: Edition) -> &'static Catalog {
        static FIRST: OnceLock<Catalog> = OnceLock::new();
        static SECOND: OnceLock<Catalog> = OnceLock::new();
        let (cell, text) = match edition {
            Edition::First => (&FIRST, include_str!("../data/base-1e.toml")),
            Edition::Second => (&SECOND, include_str!("../data/base-2e.toml")),
        };
        cell.get_or_init(|| match Catalog::from_toml(text) {
            Ok(c) => c,
            // The built-in files are checked by the test suite; this cannot happen in a build
            // that passed its tests.
            Err(e) => panic!("built-in {edition} data is invalid: {e}"),
        })
    }

    /// Reads a catalog from the data-file format.
    pub fn from_toml(text: &str) -> Result<Catalog, CatalogError> {
        let file: FileData = toml::from_str(text).map_err(|e| CatalogError::Syntax(e.to_string()))?;
        let edition = Edition::parse(&file.edition)
            .ok_or_else(|| value_err("edition", format!("unknown edition `{}`", file.edition)))?;
        if file.cards.len() > 256 {
            return Err(value_err("cards", "at most 256 distinct cards"));
        }
        let mut names: Vec<String> = Vec::new();
        let mut cards = Vec::with_capacity(file.cards.len());
        for (i, c) in file.cards.iter().enumerate() {
            let what = format!("card `{}`", c.name);
            if !(1..=3).contains(&c.age) {
                return Err(value_err(&what, format!("age {} is not 1, 2 or 3", c.age)));
            }
            let colour = Colour::parse(&c.colour)
                .ok_or_else(|| value_err(&what, format!("unknown colour `{}`", c.colour)))?;
            let name_id = match names.iter().position(|n| *n == c.name) {
                Some(p) => NameId(p as u8),
                None => {
                    names.push(c.name.clone());
                    NameId((names.len() - 1) as u8)
                }
            };
            if colour == Colour::Purple && !c.copies.is_empty() {
                return Err(value_err(&what, "guilds have no player-count marks"));
            }
            if colour != Colour::Purple && c.copies.is_empty() {
                return Err(value_err(&what, "no copies"));
            }
            cards.push(CardDef {
                id: CardId(i as u8),
                name: c.name.clone(),
                zh: c.zh.clone(),
                aliases: c.aliases.clone(),
                name_id,
                age: c.age,
                colour,
                coins: c.coins,
                cost: resources(&what, &c.cost)?,
                effects: effects(&what, &c.effects)?,
                chain_from: c.chain_from.clone(),
                chain_parents: NameSet::default(),
                copies: c.copies.clone(),
                source: c.source.clone(),
                provisional: c.provisional,
            });
        }
        if names.len() > 128 {
            return Err(value_err("cards", "at most 128 distinct names"));
        }
        // Resolve chains: every parent must be a card of an earlier Age.
        for i in 0..cards.len() {
            let mut set = NameSet::default();
            for parent in &cards[i].chain_from {
                let p =
                    cards.iter().find(|c| &c.name == parent && c.age < cards[i].age).ok_or_else(|| {
                        value_err(
                            &format!("card `{}`", cards[i].name),
                            format!("chain parent `{parent}` is no card of an earlier Age"),
                        )
                    })?;
                set.insert(p.name_id);
            }
            cards[i].chain_parents = set;
        }
        let wonders = file
            .wonders
            .iter()
            .enumerate()
            .map(|(i, w)| parse_wonder(i, w, false))
            .collect::<Result<Vec<_>, _>>()?;
        let lookup = build_lookup(&cards);
        let armada_first = cards.len() as u8;
        let hot = hot_table(&cards);
        let decks = Decks::of(&cards);
        Ok(Catalog {
            edition,
            cards,
            wonders,
            names,
            edifice: None,
            armada: None,
            armada_first,
            lookup,
            hot,
            decks,
        })
    }

    /// The built-in data of an edition extended with the Edifice expansion
    /// (`data/edifice.toml`): its projects, pawns and debt, and the Ur and Carthage boards
    /// appended after the edition's own (which keep their ids).
    ///
    /// ```
    /// use wonders_core::{Catalog, Edition};
    /// let cat = Catalog::extended(Edition::Second);
    /// assert_eq!(cat.wonders.len(), 9);
    /// assert_eq!(cat.edifice.as_ref().unwrap().projects.len(), 15);
    /// ```
    pub fn extended(edition: Edition) -> &'static Catalog {
        static FIRST: OnceLock<Catalog> = OnceLock::new();
        static SECOND: OnceLock<Catalog> = OnceLock::new();
        let cell = match edition {
            Edition::First => &FIRST,
            Edition::Second => &SECOND,
        };
        cell.get_or_init(|| match Catalog::get(edition).with_edifice_toml(crate::edifice::BUILTIN) {
            Ok(c) => c,
            // Checked by the test suite, like the base files.
            Err(e) => panic!("built-in Edifice data is invalid: {e}"),
        })
    }

    /// This catalog extended with an Edifice data file (the format of `data/edifice.toml`):
    /// a replacement file read at run time fixes the provisional values without recompiling.
    pub fn with_edifice_toml(&self, text: &str) -> Result<Catalog, CatalogError> {
        let (data, wonders) = crate::edifice::parse_file(text)?;
        let mut out = self.clone();
        out.wonders.retain(|w| !w.expansion);
        for w in &wonders {
            if out.wonders.iter().any(|o| normalize(&o.name) == normalize(&w.name)) {
                return Err(value_err(&format!("wonder `{}`", w.name), "already in the edition's data"));
            }
            let id = out.wonders.len();
            out.wonders.push(parse_wonder(id, w, true)?);
        }
        out.edifice = Some(Box::new(data));
        Ok(out)
    }

    /// The built-in data of an edition extended with the Armada expansion (`data/armada.toml`),
    /// and with Edifice too when `edifice` is set ([`Catalog::extended`] first, then Armada).
    ///
    /// ```
    /// use wonders_core::{Catalog, Edition};
    /// let cat = Catalog::with_builtin_armada(Edition::First, false);
    /// assert_eq!(cat.cards.len(), 78 + 24);
    /// let dock = cat.find_card("船塢").unwrap();
    /// assert_eq!(cat.card(dock).name, "Dock");
    /// assert!(cat.armada_card(dock).is_some());
    /// assert_eq!(cat.armada_card(cat.find_card("Lumber Yard").unwrap()), None);
    /// ```
    pub fn with_builtin_armada(edition: Edition, edifice: bool) -> &'static Catalog {
        static CELLS: [OnceLock<Catalog>; 4] = [const { OnceLock::new() }; 4];
        let i = (edition == Edition::Second) as usize * 2 + edifice as usize;
        CELLS[i].get_or_init(|| {
            let base = if edifice { Catalog::extended(edition) } else { Catalog::get(edition) };
            match base.with_armada(crate::armada::ArmadaData::builtin()) {
                Ok(c) => c,
                // Checked by the test suite, like the base files.
                Err(e) => panic!("built-in Armada data does not fit the {edition} catalog: {e}"),
            }
        })
    }

    /// This catalog extended with Armada data: the 24 Armada cards become ordinary structures
    /// appended after the edition's cards (which keep their ids), found by their working English
    /// names, Chinese names and aliases (armada.md §2.1: an Armada card is an ordinary building
    /// for every rule). Each catalog card carries its card's base-game effects
    /// ([`crate::armada::ArmadaEffect::Base`]: shields, coins, points); the Armada effects stay in
    /// [`Catalog::armada`], reached through [`Catalog::armada_card`]. Armada cards have no
    /// player-count marks, so [`Catalog::age_cards`] never deals them: a game adds them by
    /// [`Catalog::armada_age_pool`] (§2.2). A catalog that already has Armada data has it
    /// replaced. A replacement data file is read with [`crate::armada::ArmadaData::from_toml`]
    /// and passed here; a game needs the result as `&'static` (leak it once, as
    /// `Box::leak(Box::new(..))`, like a replaced base data file).
    ///
    /// Refuses an Armada card whose name is already a card of the edition, and catalogs beyond
    /// the capacity of [`crate::CardSet`] (256 cards) and [`crate::card::NameSet`] (128 names).
    pub fn with_armada(&self, data: &crate::armada::ArmadaData) -> Result<Catalog, CatalogError> {
        let mut out = self.clone();
        let first = self.armada_first as usize;
        if out.armada.is_some() {
            out.cards.truncate(first);
            let names_before = out.cards.iter().map(|c| c.name_id.0 as usize + 1).max().unwrap_or(0);
            out.names.truncate(names_before);
            out.lookup = build_lookup(&out.cards);
        }
        if first + data.cards().len() > 256 {
            return Err(value_err("Armada cards", "at most 256 distinct cards in all"));
        }
        if out.names.len() + data.cards().len() > 128 {
            return Err(value_err("Armada cards", "at most 128 distinct card names in all"));
        }
        for a in data.cards() {
            let what = format!("Armada card `{}`", a.name);
            for n in std::iter::once(&a.name).chain(std::iter::once(&a.zh)).chain(&a.aliases) {
                if let Some(&other) = out.lookup.get(&normalize(n)) {
                    return Err(value_err(
                        &what,
                        format!("the name `{n}` is already the card `{}`", out.card(other).name),
                    ));
                }
            }
            let id = CardId((first + a.id.0 as usize) as u8);
            out.names.push(a.name.clone());
            let name_id = NameId((out.names.len() - 1) as u8);
            let effects = a
                .effects
                .iter()
                .filter_map(|e| match e {
                    crate::armada::ArmadaEffect::Base(b) => Some(*b),
                    _ => None,
                })
                .collect();
            out.cards.push(CardDef {
                id,
                name: a.name.clone(),
                zh: a.zh.clone(),
                aliases: a.aliases.clone(),
                name_id,
                age: a.age,
                colour: a.colour,
                coins: a.coins,
                cost: a.cost,
                effects,
                chain_from: Vec::new(),
                chain_parents: NameSet::default(),
                copies: Vec::new(),
                source: a.source.clone(),
                provisional: a.provisional(),
            });
            for n in std::iter::once(&a.name).chain(std::iter::once(&a.zh)).chain(&a.aliases) {
                out.lookup.insert(normalize(n), id);
            }
        }
        out.armada = Some(Box::new(data.clone()));
        out.hot = hot_table(&out.cards);
        out.decks = Decks::of(&out.cards);
        Ok(out)
    }

    /// The id of the first Armada card (the number of the edition's own cards). Armada card
    /// `a` is catalog card `armada_first() + a`.
    #[inline]
    pub fn armada_first(&self) -> u8 {
        self.armada_first
    }

    /// The Armada card a catalog card is, if it is one (its Armada effects are
    /// `self.armada.card(..)`); `None` for every card of the edition and in a catalog without
    /// Armada.
    #[inline]
    pub fn armada_card(&self, id: CardId) -> Option<crate::armada::ArmadaCardId> {
        match self.armada {
            Some(_) if id.0 >= self.armada_first => {
                Some(crate::armada::ArmadaCardId(id.0 - self.armada_first))
            }
            _ => None,
        }
    }

    /// The catalog card of an Armada card; `None` in a catalog without Armada or for an id
    /// beyond its data.
    #[inline]
    pub fn card_of_armada(&self, a: crate::armada::ArmadaCardId) -> Option<CardId> {
        let data = self.armada.as_deref()?;
        (usize::from(a.0) < data.cards().len()).then(|| CardId(self.armada_first + a.0))
    }

    /// The Armada cards of Age `age` from which a game draws one per player (§2.2; with 3
    /// players the 5 two-neighbour cards are out), as catalog cards; empty without Armada.
    pub fn armada_age_pool(&self, age: u8, players: u8) -> Vec<CardId> {
        match self.armada.as_deref() {
            Some(data) => {
                data.age_pool(age, players).into_iter().filter_map(|a| self.card_of_armada(a)).collect()
            }
            None => Vec::new(),
        }
    }

    /// The definition of a card.
    #[inline]
    pub fn card(&self, id: CardId) -> &CardDef {
        &self.cards[id.0 as usize]
    }

    /// What move generation reads of a card (see [`HotCard`]).
    #[inline]
    pub(crate) fn hot(&self, id: CardId) -> &HotCard {
        &self.hot[id.0 as usize]
    }

    /// The definition of a wonder.
    #[inline]
    pub fn wonder(&self, id: WonderId) -> &WonderDef {
        &self.wonders[id.0 as usize]
    }

    /// Finds a card by its English name (any case), its Chinese name or an alias. A name shared
    /// by cards of two Ages gives the earlier one (they are the same structure).
    ///
    /// ```
    /// use wonders_core::{Catalog, Edition};
    /// let cat = Catalog::get(Edition::First);
    /// let id = cat.find_card("lumber yard").unwrap();
    /// assert_eq!(cat.card(id).zh, "伐木場");
    /// let err = cat.find_card("Lumbr Yard").unwrap_err();
    /// assert!(err.to_string().contains("did you mean `Lumber Yard`"));
    /// ```
    pub fn find_card(&self, name: &str) -> Result<CardId, UnknownName> {
        if let Some(&id) = self.lookup.get(&normalize(name)) {
            return Ok(id);
        }
        let candidates = self.cards.iter().flat_map(|c| {
            std::iter::once((c.name.as_str(), c.name.as_str()))
                .chain(std::iter::once((c.zh.as_str(), c.name.as_str())))
        });
        Err(UnknownName::new("card", name, candidates, self.edition))
    }

    /// Finds a card of a given Age by name.
    pub fn find_card_in_age(&self, name: &str, age: u8) -> Option<CardId> {
        let first = self.find_card(name).ok()?;
        let name_id = self.card(first).name_id;
        self.cards.iter().find(|c| c.name_id == name_id && c.age == age).map(|c| c.id)
    }

    /// Finds a wonder by name, full name, Chinese name or alias.
    pub fn find_wonder(&self, name: &str) -> Result<WonderId, UnknownName> {
        let key = normalize(name);
        for w in &self.wonders {
            let all = [&w.name, &w.full_name, &w.zh].into_iter().chain(&w.aliases);
            if all.into_iter().any(|n| normalize(n) == key) {
                return Ok(w.id);
            }
        }
        let candidates = self
            .wonders
            .iter()
            .flat_map(|w| [(w.name.as_str(), w.name.as_str()), (w.zh.as_str(), w.name.as_str())]);
        Err(UnknownName::new("wonder", name, candidates, self.edition))
    }

    /// Every copy of the Age `age` deck for `players` players, guilds excluded.
    pub fn age_cards(&self, age: u8, players: u8) -> Vec<CardId> {
        match self.decks.by_age.get((age as usize).wrapping_sub(1)).and_then(|d| d.get(players as usize)) {
            Some(deck) => {
                // Room for a 7-player Age deck and its guilds, grown once instead of doubling.
                let mut out = Vec::with_capacity(deck.len().max(64));
                out.extend_from_slice(deck);
                out
            }
            None => deal(&self.cards, age, players),
        }
    }

    /// The guilds of the edition.
    pub fn guilds(&self) -> Vec<CardId> {
        self.decks.guilds.clone()
    }
}

/// The name lookup of a card list: English, Chinese and alias names. Later Ages first, so that a
/// name shared by two Ages ("Loom") finds the earlier card.
fn build_lookup(cards: &[CardDef]) -> HashMap<String, CardId> {
    let mut lookup = HashMap::new();
    for c in cards.iter().rev() {
        for n in std::iter::once(&c.name).chain(std::iter::once(&c.zh)).chain(&c.aliases) {
            lookup.insert(normalize(n), c.id);
        }
    }
    lookup
}

fn parse_wonder(i: usize, w: &FileWonder, expansion: bool) -> Result<WonderDef, CatalogError> {
    let what = format!("wonder `{}`", w.name);
    let mut chars = w.start.chars();
    let start = match (chars.next().and_then(Resource::from_letter), chars.next()) {
        (Some(r), None) => r,
        _ => return Err(value_err(&what, format!("bad start resource `{}`", w.start))),
    };
    let side = |stages: &[FileStage]| -> Result<Vec<StageDef>, CatalogError> {
        if stages.is_empty() || stages.len() > 4 {
            return Err(value_err(&what, "a side has 1 to 4 stages"));
        }
        stages
            .iter()
            .map(|s| {
                let main = effects(&what, &s.effects)?;
                let alt = effects(&what, &s.or)?;
                let choice = !alt.is_empty() || main.contains(&Effect::TakePawn(0));
                Ok(StageDef {
                    cost: resources(&what, &s.cost)?,
                    effects: main,
                    alt,
                    provisional: s.provisional,
                    choice,
                })
            })
            .collect()
    };
    Ok(WonderDef {
        id: WonderId(i as u8),
        name: w.name.clone(),
        full_name: w.full_name.clone(),
        zh: w.zh.clone(),
        aliases: w.aliases.clone(),
        start,
        sides: [side(&w.a)?, side(&w.b)?],
        source: w.source.clone(),
        expansion,
        only_with_edifice: w.only_with_edifice,
    })
}

/// A name that matches no card or wonder, with the closest known name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} `{name}` in the {edition} data{}", suggestion.as_ref().map(|s| format!("; did you mean `{s}`?")).unwrap_or_default())]
pub struct UnknownName {
    /// `card` or `wonder`.
    pub kind: &'static str,
    /// The name given.
    pub name: String,
    /// The closest known name, if any is close.
    pub suggestion: Option<String>,
    /// The edition searched.
    pub edition: Edition,
}

impl UnknownName {
    fn new<'a>(
        kind: &'static str,
        name: &str,
        candidates: impl Iterator<Item = (&'a str, &'a str)>,
        edition: Edition,
    ) -> UnknownName {
        let key = normalize(name);
        let best = candidates
            .map(|(cand, english)| (strsim::levenshtein(&key, &normalize(cand)), english))
            .min_by_key(|(d, _)| *d);
        let suggestion =
            best.filter(|(d, _)| *d <= key.chars().count().max(3) / 2 + 1).map(|(_, s)| s.to_string());
        UnknownName { kind, name: name.to_string(), suggestion, edition }
    }
}
