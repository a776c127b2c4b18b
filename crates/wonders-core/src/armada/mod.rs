//! The **Armada** expansion (Repos Production, 2018; 1st edition, 8 shipyard boards): its data and
//! the compact types its rules will use.
//!
//! Sources: the rulebook `seeds/000_bce4267dd5cf5144.txt` ("000") and the reference
//! `shared/reference/armada.md` (§N below). The data lives in `data/armada.toml`, one readable
//! entry per board, fleet row, track step, card and island, every value with its status
//! (`confirmed` with its confidence, or `provisional`) and its source; [`ArmadaData::builtin`]
//! reads it once and [`ArmadaData::from_toml`] reads a replacement file at run time.
//!
//! Besides the data, the model layer the turn flow builds on: the cards in the catalog
//! ([`crate::Catalog::with_armada`]), each city's Armada state ([`ArmadaCity`]), the rules as pure
//! functions ([`naval::naval_conflict`], [`coins::coin_losses`], [`explore::deal`]) and scoring
//! ([`score`], called by [`crate::score::score_city_with`]). A game without Armada pays nothing
//! for it. The rest of this page is the design the rules follow.
//!
//! ```
//! use wonders_core::armada::{ArmadaData, BoardId, Fleet, TrackValue};
//! let data = ArmadaData::builtin();
//! // Board 1 carries the wonder symbol on its red fleet; its first red step costs 1 wood
//! // (armada.md §10.1, §10.3: 000's example of Ann building Giza's first stage).
//! let b1 = BoardId(0);
//! assert_eq!(data.board(b1).wonder, Fleet::Red);
//! assert_eq!(data.step_cost(b1, Fleet::Red, 1).unwrap().to_string(), "W");
//! assert!(data.step_cost_status(b1, Fleet::Red, 1).unwrap().is_provisional());
//! // The yellow ship's 4th step: 4 coins on arrival, a tax of 2, trade level 2 (§4, confirmed).
//! let y4 = data.track(Fleet::Yellow, 4).unwrap();
//! assert_eq!((y4.coins, y4.tax, y4.trade), (4, 2, 2));
//! assert!(!data.track_status(Fleet::Yellow, 4, TrackValue::Tax).unwrap().is_provisional());
//! ```
//!
//! # Types
//!
//! Hot types are small and `Copy`: [`Fleet`] (a `u8`), [`BoardId`], [`ArmadaCardId`],
//! [`IslandId`] (indices into [`ArmadaData`]), [`NavalCost`] (coins + a resource multiset),
//! [`TrackStep`] (six `u8` values of a track space), [`Shipyard`] (a board and the four ships'
//! steps: the whole per-city shipyard state, 5 bytes) and [`ArmadaEffect`], the closed set of
//! effects of Armada cards, islands and track spaces. Base-game effects that Armada cards and
//! islands also have (shields, points, coins, non-sellable production, a wild science symbol)
//! are [`ArmadaEffect::Base`], so that [`crate::city::City::gain`] can take them unchanged.
//!
//! # How the rules will hook into a turn (design for the rules to come)
//!
//! Armada becomes a module called by the conductor (`game/`) at named points, as the guide asks; the state it
//! adds is per city a [`Shipyard`], its islands (an [`IslandSet`], a `u32` bitset), naval tokens
//! (like military tokens) and this turn's pending Armada events, and per game three island
//! decks. Only games with Armada carry it (an `Option<Box<ArmadaState>>` or a side array), so
//! the base game's speed does not change.
//!
//! 1. **Setup (§2.2; 000 遊戲準備).** The 24 Armada cards join the card catalog as ordinary
//!    structures (their ids after the base cards: 78 + 24 = 102 ≤ 256 for [`crate::CardSet`],
//!    names within the 128 of [`crate::card::NameSet`]); their [`ArmadaEffect::Base`] parts go
//!    into the catalog card's `effects`, the Armada parts stay in a table indexed by card id
//!    ([`ArmadaData::card`]). Each Age deck gets [`dealt_per_age`]`(players)` Armada cards drawn
//!    at random from [`ArmadaData::age_pool`] (with 3 players the 5 two-neighbour cards are out
//!    first). Hands hold [`hand_size`]`(players)` cards: 8, so 7 turns per Age (with 8 players
//!    7 cards and 6 turns). The 8 boards are shuffled and one dealt to each player ([`Shipyard::new`],
//!    ships on step 0); the islands of each level ([`ArmadaData::islands_of_level`]) are shuffled
//!    into three hidden decks. Start coins stay 3 ([`START_COINS`]). Armada is refused with the
//!    2-player Free City (no rulebook covers it); 8 players need Armada (000 8人遊戲規則).
//! 2. **Legal actions and payment (§2.3).** An action gains one optional naval construction (a
//!    `Option<Fleet>` field; the action stays `Copy`): building a card whose colour is a fleet
//!    ([`Fleet::from_colour`]) may also move that fleet; building a wonder stage may move the
//!    board's wonder fleet ([`BoardDef::wonder`]; with Lost Isle, any fleet, for free); a ship on
//!    [`TOP_STEP`] cannot move. The card (or stage) cost and [`ArmadaData::next_step_cost`] are
//!    **one purchase**: the payment solver runs on their sum, so it returns the Pareto-minimal
//!    ways to pay the total. A card built free (chain, Olympia) still pays the naval cost; a card
//!    built from the discard pile never has a naval construction. Ancient Port takes 1 resource
//!    off the naval part (never coins). East/West Trading Zone add the 2nd player on that side as
//!    a seller of at most 1 / 2 units per turn at 1 coin each; islands never sell. With Edifice,
//!    a wonder stage has a naval construction **or** a project participation (§2.10).
//! 3. **Discard (§2.4).** Discarding gives 3 coins ([`DISCARD_COINS`]) or a free move of the
//!    yellow ship (not if it is on step 6): two distinct actions.
//! 4. **Turn resolution, the six steps of 000 回合結算 (§2.4)**, in place of today's single pass:
//!    1. pay every cost (card, stage, naval);
//!    2. move the ships of the naval constructions;
//!    3. resolve every effect except coin losses: card effects, arrival effects of the spaces
//!       reached ([`TrackStep`]: coins now; a tax is noted), free moves (blue cards; the player
//!       picks the ship as part of the action), Wondrous Port's coin per construction, green
//!       cards' [`ArmadaEffect::TopIsland`] (top card, no choice), incursion tokens handed over;
//!    4. explorations: every green ship that reached an `explore` space this turn; explorers of
//!       the same level share that deck (§2.6), a lone explorer draws [`SOLO_EXPLORE_DRAW`] and
//!       keeps 1; a deck that runs short or out follows §10.8 (provisional: the explorer takes
//!       what is left, or gets nothing). This needs a **choice phase** (like Halikarnassos' discard build): each
//!       explorer picks one of the cards dealt to them, and the cards they saw join what their
//!       view remembers. Islands that give free moves (Topaz, Amber, White-Surf, Tempest) add a
//!       further choice, and the spaces they reach resolve as in step 3;
//!    5. builds from the discard pile (no naval construction);
//!    6. coin losses: only the highest tax levied this turn applies, its levier pays nothing,
//!       everyone else loses `max(0, tax − own trade level)`; each piracy (pirate cards, Pirate
//!       Port) costs every other player their trade level; Misty Isle is immune; a player pays
//!       what they have (§10.9).
//!
//!    Babylon B's last card is an extra turn with a naval construction (000 FAQ).
//! 5. **Age end (§2.5, §2.8).** Land conflicts first, with incursions: one extra land conflict
//!    against the token's target with that Age's values, at most one land conflict per pair of
//!    players per Age, Diplomacy no protection. Then the naval conflict between all players with
//!    [`naval_tokens`] and every tie rule of §2.5 (all equal: nobody scores). Forgotten Port's
//!    holder chooses, before it, whether to take part: a real choice, so an Age-end choice phase.
//! 6. **Scoring.** Guilds are capped at [`GUILD_CAP`] each. New categories: `naval` (naval
//!    tokens), `fleet` (the blue track's [`TrackStep::points`]) and `islands` (island VP: printed
//!    VP, Pirate Port, Haven, Rainbow, Luxury). Card VP stay in their card's category (Customs
//!    House: commercial; blue Armada cards: civilian). Extra science symbols
//!    ([`ArmadaEffect::ScienceMost`], and Golden Archipelago's wild one) are placed at best.
//!
//! # Open points that need a decision (armada.md §11 and the rulebook's silences)
//!
//! - §11.1 official English names: unknown; the data's working names are flagged provisional.
//! - §11.2 whether the 2nd edition changed cards or tracks: this data is the 1st edition only.
//! - §11.3 a joint exploration with fewer cards left than explorers (§10.8 does not say how the
//!   remaining cards are shared). Proposal: deal the remaining cards one by one in seat order
//!   from the explorer after the turn's first player; explorers left without a card get nothing.
//! - §11.4 Ancient Port on a step costing two different resources: which is waived. Proposal:
//!   the player's choice, i.e. the solver tries each and keeps the Pareto-minimal payments.
//! - §11.5 the real board costs: [`ArmadaData::from_toml`] takes a corrected file as is; 000's
//!   Ann example (a red step costing 1 wood on a board with the wonder symbol on red) is a check
//!   any real table must pass.
//! - [`ArmadaEffect::ScienceMost`] with several such symbols or a tie: 000 lets the player choose
//!   among tied symbols; whether a second "most" symbol sees the first one is unsaid. Proposal:
//!   each is placed in turn on a symbol that is most numerous at that moment, at best.
//! - Several piracies in one turn: the symbol sheet limits only taxes to once per turn, so each
//!   pirate effect applies (proposal).
//! - Free moves from a card: the ship is chosen in the action (it is known then); from an island
//!   gained by exploration or a green card, in a choice phase of step 4.
//! - Whether a free move that reaches a tax space levies the tax: yes (a tax is levied when the
//!   ship *reaches* the space, however it got there).
//! - A free move from an island that reaches an exploration space (e.g. Tempest Archipelago
//!   moving the green ship): proposal, that exploration is resolved in the same step 4, after
//!   the explorations already under way.
//! - Shipyard boards are dealt at random (000 says "each player takes a board").
//! - Team games (000 團隊遊戲規則): ties between teams of equal totals — to decide (proposal:
//!   the base game's tie-break on coins, summed over the team; otherwise shared).

pub mod city;
pub mod coins;
pub mod data;
pub mod effect;
pub mod explore;
pub mod log;
pub mod naval;
pub mod score;
pub mod state;
pub mod trade;
pub mod turn;
pub mod wire;

pub use city::ArmadaCity;
pub use data::{
    ArmadaCardDef, ArmadaData, ArmadaDataError, BoardDef, CardStatus, IslandDef, IslandStatus,
    UnknownArmadaName,
};
pub use effect::{ArmadaEffect, Direction, FleetChoice};
pub use log::{ArmadaEvent, MoveCause};
pub use state::{ArmadaState, Losses};

use crate::card::Colour;
use crate::resources::{Resource, Resources};
use std::fmt;

/// One of the four fleets of a shipyard board, in the board's column order (armada.md §2.1, §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Fleet {
    /// 紅色（軍事）艦隊, the war fleet: naval strength.
    Red = 0,
    /// 黃色（商貿）艦隊, the merchant fleet: trade level, coins, taxes.
    Yellow = 1,
    /// 藍色（平民）艦隊, the civil fleet: victory points.
    Blue = 2,
    /// 綠色（科研）艦隊, the science fleet: island exploration.
    Green = 3,
}

impl Fleet {
    /// The four fleets in column order.
    pub const ALL: [Fleet; 4] = [Fleet::Red, Fleet::Yellow, Fleet::Blue, Fleet::Green];

    /// Lower-case English name as in the data file.
    pub const fn name(self) -> &'static str {
        ["red", "yellow", "blue", "green"][self as usize]
    }

    /// The colour's name in Traditional Chinese (000).
    pub const fn zh(self) -> &'static str {
        ["紅色", "黃色", "藍色", "綠色"][self as usize]
    }

    /// Parses a lower-case English name.
    pub fn parse(s: &str) -> Option<Fleet> {
        Fleet::ALL.into_iter().find(|f| f.name() == s)
    }

    /// The fleet a card of this colour may advance (000 海軍建設 a); none for brown, grey and
    /// purple cards.
    ///
    /// ```
    /// use wonders_core::armada::Fleet;
    /// use wonders_core::Colour;
    /// assert_eq!(Fleet::from_colour(Colour::Green), Some(Fleet::Green));
    /// assert_eq!(Fleet::from_colour(Colour::Purple), None);
    /// ```
    pub const fn from_colour(c: Colour) -> Option<Fleet> {
        match c {
            Colour::Red => Some(Fleet::Red),
            Colour::Yellow => Some(Fleet::Yellow),
            Colour::Blue => Some(Fleet::Blue),
            Colour::Green => Some(Fleet::Green),
            _ => None,
        }
    }

    /// The card colour of this fleet.
    pub const fn colour(self) -> Colour {
        [Colour::Red, Colour::Yellow, Colour::Blue, Colour::Green][self as usize]
    }
}

impl fmt::Display for Fleet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How well the sources support a confirmed value (shared/reference/README.md, Conventions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Confidence {
    /// Low.
    Low,
    /// Medium.
    Medium,
    /// High.
    High,
}

/// The status of one value of the data: confirmed by the sources (with a confidence) or
/// provisional, a working value no printed or official source confirms (armada.md §10). Faces
/// mark provisional values as such.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Confirmed by no printed or official source.
    Provisional,
    /// Confirmed, with the confidence armada.md gives it.
    Confirmed(Confidence),
}

impl Status {
    /// Whether the value is provisional.
    pub const fn is_provisional(self) -> bool {
        matches!(self, Status::Provisional)
    }

    /// Parses the data file's form: `provisional` or `confirmed high|medium|low`.
    pub fn parse(s: &str) -> Option<Status> {
        Some(match s {
            "provisional" => Status::Provisional,
            "confirmed high" => Status::Confirmed(Confidence::High),
            "confirmed medium" => Status::Confirmed(Confidence::Medium),
            "confirmed low" => Status::Confirmed(Confidence::Low),
            _ => return None,
        })
    }
}

impl fmt::Display for Status {
    /// `provisional`, or `confirmed (high)` etc.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Provisional => f.write_str("provisional"),
            Status::Confirmed(c) => write!(f, "confirmed ({})", format!("{c:?}").to_lowercase()),
        }
    }
}

/// A shipyard board, as an index into [`ArmadaData`]: board number `n` (1–8) is `BoardId(n − 1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoardId(pub u8);

/// An Armada card, as an index into [`ArmadaData::cards`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ArmadaCardId(pub u8);

/// An island card, as an index into [`ArmadaData::islands`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IslandId(pub u8);

/// A set of islands (at most 32 per data file; the box has 27), as a bitset: the islands in one
/// city, or those a seat has seen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct IslandSet(pub u32);

impl IslandSet {
    /// The empty set.
    pub const EMPTY: IslandSet = IslandSet(0);

    /// Whether `i` is in the set.
    #[inline]
    pub const fn contains(self, i: IslandId) -> bool {
        i.0 < 32 && self.0 & (1 << i.0) != 0
    }

    /// Adds `i` (ids of 32 and above are ignored: no data file has them).
    #[inline]
    pub fn insert(&mut self, i: IslandId) {
        if i.0 < 32 {
            self.0 |= 1 << i.0;
        }
    }

    /// The number of islands.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The islands in id order.
    pub fn iter(self) -> impl Iterator<Item = IslandId> {
        set_bits(self.0).map(IslandId)
    }
}

/// The set bits of `mask`, lowest first, visiting only the set ones (the rules ask which effects
/// a city's cards and islands hold many times per legal-action list).
#[inline]
pub(crate) fn set_bits(mask: u32) -> impl Iterator<Item = u8> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        if rest == 0 {
            return None;
        }
        let b = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        Some(b)
    })
}

/// The top step of every fleet: a ship there cannot move again (§2.3).
pub const TOP_STEP: u8 = 6;

/// Coins each player starts with (§2.2 item 5, §7).
pub const START_COINS: u8 = 3;

/// Coins for a discarded card, the alternative being a free yellow move (§2.4).
pub const DISCARD_COINS: u8 = 3;

/// The most points one guild scores (§2.4, 000 行會計分).
pub const GUILD_CAP: u8 = 10;

/// Island cards a lone explorer draws, keeping 1 (§2.6).
pub const SOLO_EXPLORE_DRAW: u8 = 4;

/// Cards in each hand at the start of an Age (§2.2, §7): 8, or 7 with 8 players.
pub const fn hand_size(players: u8) -> u8 {
    if players >= 8 { 7 } else { 8 }
}

/// Armada cards shuffled into each Age deck: one per player, 7 with 8 players (§2.2, §7).
pub const fn dealt_per_age(players: u8) -> u8 {
    if players >= 8 { 7 } else { players }
}

/// The naval conflict tokens of one Age (§2.5, 000 海上衝突).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NavalTokens {
    /// The weakest player's token (negative).
    pub weakest: i8,
    /// The strongest player's token.
    pub first: i8,
    /// The 2nd strongest player's token (also what tied strongest players take).
    pub second: i8,
    /// The 3rd strongest player's token (0 before Age III; also what the player after tied
    /// strongest ones takes in Age III).
    pub third: i8,
}

/// The naval conflict tokens of Age `age` (1–3; §2.5). Other ages give no tokens.
///
/// ```
/// use wonders_core::armada::naval_tokens;
/// let t = naval_tokens(3);
/// assert_eq!((t.weakest, t.first, t.second, t.third), (-3, 7, 5, 3));
/// ```
pub const fn naval_tokens(age: u8) -> NavalTokens {
    match age {
        1 => NavalTokens { weakest: -1, first: 3, second: 1, third: 0 },
        2 => NavalTokens { weakest: -2, first: 5, second: 3, third: 0 },
        3 => NavalTokens { weakest: -3, first: 7, second: 5, third: 3 },
        _ => NavalTokens { weakest: 0, first: 0, second: 0, third: 0 },
    }
}

/// The cost of one naval-construction step: coins to the bank and resources (§3, §10.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NavalCost {
    /// Coins paid to the bank.
    pub coins: u8,
    /// Resources needed.
    pub resources: Resources,
}

impl NavalCost {
    /// Parses the data file's form: resource letters and/or `N coin(s)`, joined by `+`
    /// (`OO`, `GL`, `1 coin`, `1 coin + W`), or `free`.
    ///
    /// ```
    /// use wonders_core::armada::NavalCost;
    /// use wonders_core::Resource;
    /// let c = NavalCost::parse("1 coin + WW").unwrap();
    /// assert_eq!((c.coins, c.resources.get(Resource::Wood)), (1, 2));
    /// assert!(NavalCost::parse("1 wood").is_none());
    /// ```
    pub fn parse(s: &str) -> Option<NavalCost> {
        let s = s.trim();
        if s == "free" {
            return Some(NavalCost::default());
        }
        let mut out = NavalCost::default();
        for part in s.split('+').map(str::trim) {
            if let Some(n) = part.strip_suffix(" coins").or_else(|| part.strip_suffix(" coin")) {
                let n: u8 = n.trim().parse().ok().filter(|&n| n > 0)?;
                out.coins = out.coins.checked_add(n)?;
            } else {
                if part.is_empty() {
                    return None;
                }
                let r = Resources::from_letters(part)?;
                for res in Resource::ALL {
                    out.resources.add(res, r.get(res));
                }
            }
        }
        Some(out)
    }

    /// Whether the step costs nothing.
    pub fn is_free(&self) -> bool {
        self.coins == 0 && self.resources.is_empty()
    }
}

impl fmt::Display for NavalCost {
    /// `W`, `GL`, `1 coin`, `1 coin + W` or `free`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.coins, self.resources.is_empty()) {
            (0, true) => f.write_str("free"),
            (c, true) => write!(f, "{c} coin{}", if c == 1 { "" } else { "s" }),
            (0, false) => write!(f, "{}", self.resources),
            (c, false) => write!(f, "{c} coin{} + {}", if c == 1 { "" } else { "s" }, self.resources),
        }
    }
}

/// One value of a track space (the columns of armada.md §10.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum TrackValue {
    /// Naval strength while the ship is there.
    Naval = 0,
    /// Trade level while the ship is there (yellow).
    Trade = 1,
    /// Coins gained when the ship arrives.
    Coins = 2,
    /// Tax levied when the ship arrives.
    Tax = 3,
    /// Victory points at game end while the ship is there (blue).
    Points = 4,
    /// Level of the island explored when the ship arrives (green); 0 for none.
    Explore = 5,
}

impl TrackValue {
    /// Every track value, in the data file's order.
    pub const ALL: [TrackValue; 6] = [
        TrackValue::Naval,
        TrackValue::Trade,
        TrackValue::Coins,
        TrackValue::Tax,
        TrackValue::Points,
        TrackValue::Explore,
    ];

    /// The key used in the data file.
    pub const fn key(self) -> &'static str {
        ["naval", "trade", "coins", "tax", "points", "explore"][self as usize]
    }
}

/// What one space of a track gives: the value of the space the ship is on, not a running total
/// (§4). The start space (step 0) gives nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TrackStep {
    /// Naval strength while the ship is there.
    pub naval: u8,
    /// Trade level while the ship is there.
    pub trade: u8,
    /// Coins gained on arrival.
    pub coins: u8,
    /// Tax levied on arrival (0: none).
    pub tax: u8,
    /// Victory points at game end while the ship is there.
    pub points: u8,
    /// Level of the island explored on arrival (0: none).
    pub explore: u8,
}

impl TrackStep {
    /// One value.
    pub const fn get(&self, v: TrackValue) -> u8 {
        match v {
            TrackValue::Naval => self.naval,
            TrackValue::Trade => self.trade,
            TrackValue::Coins => self.coins,
            TrackValue::Tax => self.tax,
            TrackValue::Points => self.points,
            TrackValue::Explore => self.explore,
        }
    }

    fn set(&mut self, v: TrackValue, n: u8) {
        match v {
            TrackValue::Naval => self.naval = n,
            TrackValue::Trade => self.trade = n,
            TrackValue::Coins => self.coins = n,
            TrackValue::Tax => self.tax = n,
            TrackValue::Points => self.points = n,
            TrackValue::Explore => self.explore = n,
        }
    }

    /// The space's non-zero values as effects, for display (e.g. yellow step 4: trade level 2,
    /// 4 coins, tax 2).
    pub fn effects(&self) -> Vec<ArmadaEffect> {
        let mut out = Vec::new();
        if self.trade > 0 {
            out.push(ArmadaEffect::TradeLevel(self.trade));
        }
        if self.coins > 0 {
            out.push(ArmadaEffect::Base(crate::effect::Effect::Coins(self.coins)));
        }
        if self.tax > 0 {
            out.push(ArmadaEffect::Tax(self.tax));
        }
        if self.naval > 0 {
            out.push(ArmadaEffect::Naval(self.naval));
        }
        if self.points > 0 {
            out.push(ArmadaEffect::Base(crate::effect::Effect::Points(self.points)));
        }
        if self.explore > 0 {
            out.push(ArmadaEffect::Explore(self.explore));
        }
        out
    }
}

/// One city's shipyard: its board and the step of each fleet's ship (0 = start space, 6 = top).
/// The whole per-city state of the shipyard, 5 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shipyard {
    /// The board.
    pub board: BoardId,
    /// The step of each ship, indexed by [`Fleet`].
    pub steps: [u8; 4],
}

impl Shipyard {
    /// A board with its four ships on their start spaces (§2.2 item 6).
    pub const fn new(board: BoardId) -> Shipyard {
        Shipyard { board, steps: [0; 4] }
    }

    /// The step of one fleet's ship.
    pub const fn step(&self, fleet: Fleet) -> u8 {
        self.steps[fleet as usize]
    }

    /// Whether that ship can still move (it is below step 6; §2.3).
    pub const fn can_advance(&self, fleet: Fleet) -> bool {
        self.steps[fleet as usize] < TOP_STEP
    }

    /// The values of the space one ship is on.
    pub fn space(&self, data: &ArmadaData, fleet: Fleet) -> TrackStep {
        data.track(fleet, self.step(fleet)).unwrap_or_default()
    }

    /// Naval strength from the shipyard alone: the red ship's space plus the naval symbols of the
    /// other ships' spaces (yellow step 6: +2, blue step 6: +1; §10.2). Cards and islands add
    /// theirs on top.
    pub fn naval(&self, data: &ArmadaData) -> u8 {
        Fleet::ALL.iter().map(|&f| self.space(data, f).naval).sum()
    }

    /// The trade level: the number on the yellow ship's space (§2.7).
    pub fn trade_level(&self, data: &ArmadaData) -> u8 {
        self.space(data, Fleet::Yellow).trade
    }

    /// Victory points of the shipyard at game end (the blue ship's space; §10.2).
    pub fn points(&self, data: &ArmadaData) -> u8 {
        Fleet::ALL.iter().map(|&f| self.space(data, f).points).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hot_types_are_small() {
        // A city's whole shipyard is 5 bytes; a status 1; an effect stays a few bytes.
        assert_eq!(std::mem::size_of::<Shipyard>(), 5);
        assert_eq!(std::mem::size_of::<Status>(), 1);
        assert_eq!(std::mem::size_of::<Fleet>(), 1);
        assert_eq!(std::mem::size_of::<TrackStep>(), 6);
        // Coins and a `Resources`, which is one aligned 8-byte word (the solver reads it whole).
        assert_eq!(std::mem::size_of::<NavalCost>(), 16);
        assert_eq!(std::mem::size_of::<IslandSet>(), 4);
        // A base effect may carry a `Resources` word, 8-byte aligned.
        assert!(std::mem::size_of::<ArmadaEffect>() <= 16, "{}", std::mem::size_of::<ArmadaEffect>());
    }

    #[test]
    fn island_sets() {
        let mut s = IslandSet::EMPTY;
        for i in [0u8, 5, 26, 40] {
            s.insert(IslandId(i));
        }
        assert_eq!(s.len(), 3, "id 40 is ignored");
        assert!(s.contains(IslandId(26)) && !s.contains(IslandId(4)) && !s.contains(IslandId(40)));
        assert_eq!(s.iter().map(|i| i.0).collect::<Vec<_>>(), vec![0, 5, 26]);
    }

    #[test]
    fn naval_costs_read_and_print() {
        assert_eq!(NavalCost::parse("free"), Some(NavalCost::default()));
        assert_eq!(NavalCost::parse("2 coins").map(|c| c.coins), Some(2));
        assert_eq!(NavalCost::parse("1 coin + PW").unwrap().to_string(), "1 coin + WP");
        for bad in ["", "0 coins", "x coin", "W +", "1 wood"] {
            assert_eq!(NavalCost::parse(bad), None, "{bad:?}");
        }
    }
}
