//! JSON wire formats: actions, views and game records. They name cards and wonders in English and
//! are validated into the core types, never trusted: an unknown name or an impossible value is an
//! error that says what is wrong.

use crate::action::{Action, FreeBy, Naval, Payment, SecondPay, StageExtra};
use crate::armada::ArmadaEvent;
use crate::catalog::{Catalog, Edition, Side, UnknownName};
use crate::city::City;
use crate::edifice::{EdificeEvent, Expansions, Outcome};
use crate::errors::{ActionError, SetupError};
use crate::log::{LogEntry, Played};
use crate::score::Score;
use crate::state::{Game, Phase, Setup, WonderDeal};
use crate::view::View;
use serde::{Deserialize, Serialize};

/// How a free construction is free, on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WireFree {
    /// A chain parent is in the city.
    Chain,
    /// Olympia A's free build of the Age.
    FreeBuild,
    /// 2nd edition: first card of its colour.
    FirstOfColour,
    /// 2nd edition: first card of the Age.
    FirstOfAge,
    /// 2nd edition: last card of the Age.
    LastOfAge,
}

impl From<FreeBy> for WireFree {
    fn from(f: FreeBy) -> Self {
        match f {
            FreeBy::Chain => WireFree::Chain,
            FreeBy::FreeBuild => WireFree::FreeBuild,
            FreeBy::FirstOfColour => WireFree::FirstOfColour,
            FreeBy::FirstOfAge => WireFree::FirstOfAge,
            FreeBy::LastOfAge => WireFree::LastOfAge,
        }
    }
}

impl From<WireFree> for FreeBy {
    fn from(f: WireFree) -> Self {
        match f {
            WireFree::Chain => FreeBy::Chain,
            WireFree::FreeBuild => FreeBy::FreeBuild,
            WireFree::FirstOfColour => FreeBy::FirstOfColour,
            WireFree::FirstOfAge => FreeBy::FirstOfAge,
            WireFree::LastOfAge => FreeBy::LastOfAge,
        }
    }
}

/// An action on the wire, e.g. `{"type": "build", "card": "Library", "left": 2}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
// Unknown fields are refused: an action with a stray `"bank"` or a misspelt field is an error,
// not silently something else.
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum WireAction {
    /// Build the card.
    Build {
        /// The card's name.
        card: String,
        /// The card's Age, given only when cards of several Ages share its name (Loom, Glassworks
        /// and Press exist in Ages I and II).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        age: Option<u8>,
        /// Coins to the left neighbour.
        #[serde(default)]
        left: u8,
        /// Coins to the right neighbour.
        #[serde(default)]
        right: u8,
        /// Coins to the bank; when absent, the card's coin cost.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bank: Option<u8>,
        /// Armada: coins to the 2nd player on the left (seat i+2; West Trading Zone, 1 coin per
        /// unit; armada.md §5). Absent when 0.
        #[serde(default, skip_serializing_if = "is_zero")]
        second_left: u8,
        /// Armada: coins to the 2nd player on the right (seat i−2; East Trading Zone). Absent
        /// when 0.
        #[serde(default, skip_serializing_if = "is_zero")]
        second_right: u8,
        /// Set when built free.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        free: Option<WireFree>,
        /// Armada: the fleet of the naval construction paid with the card (`red`, `yellow`,
        /// `blue`, `green`; armada.md §2.3).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        naval: Option<String>,
        /// Armada: the ship a free move of the card (blue Armada cards) advances.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        free_move: Option<String>,
    },
    /// Build the next wonder stage with the card.
    Wonder {
        /// The card's name.
        card: String,
        /// The card's Age, given only when cards of several Ages share its name (Loom, Glassworks
        /// and Press exist in Ages I and II).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        age: Option<u8>,
        /// Coins to the left neighbour.
        #[serde(default)]
        left: u8,
        /// Coins to the right neighbour.
        #[serde(default)]
        right: u8,
        /// Armada: coins to the 2nd player on the left (seat i+2; West Trading Zone, 1 coin per
        /// unit; armada.md §5). Absent when 0.
        #[serde(default, skip_serializing_if = "is_zero")]
        second_left: u8,
        /// Armada: coins to the 2nd player on the right (seat i−2; East Trading Zone). Absent
        /// when 0.
        #[serde(default, skip_serializing_if = "is_zero")]
        second_right: u8,
        /// Edifice: also take part in the current Age's great project.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        take_part: bool,
        /// Coins to the bank (the participation cost); when absent, the current project's cost
        /// if `take_part`, else 0.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bank: Option<u8>,
        /// Carthage: take the stage's second effect.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        second_effect: bool,
        /// Ur: the Age of the pawn taken from the box, for a stage that lets the builder choose.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pawn_age: Option<u8>,
        /// Armada: the fleet of the naval construction paid with the stage.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        naval: Option<String>,
    },
    /// Edifice: discard this built card for a failed project's penalty.
    DiscardBuilt {
        /// The card's name.
        card: String,
        /// The card's Age, when cards of several Ages share its name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        age: Option<u8>,
    },
    /// Discard the card for 3 coins.
    Discard {
        /// The card's name.
        card: String,
        /// The card's Age, given only when cards of several Ages share its name (Loom, Glassworks
        /// and Press exist in Ages I and II).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        age: Option<u8>,
        /// Armada: a free move of the yellow ship instead of the 3 coins (armada.md §2.4).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        yellow: bool,
    },
    /// Halicarnassus: build this card from the discard pile.
    BuildDiscarded {
        /// The card's name.
        card: String,
        /// The card's Age, given only when cards of several Ages share its name (Loom, Glassworks
        /// and Press exist in Ages I and II).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        age: Option<u8>,
        /// Armada: the ship a blue card's free move advances (`red`, `yellow`, `blue`, `green`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        free_move: Option<String>,
    },
    /// Halicarnassus: build nothing from the discard pile. (An empty struct, not a unit variant,
    /// so that unknown fields are refused here too; on the wire it is `{"type": "pass"}`.)
    Pass {},
    /// Armada: keep this island of an exploration, its free moves on these ships.
    ChooseIsland {
        /// The island's working English or Chinese name.
        island: String,
        /// The ships its free moves advance (`red`, `yellow`, `blue`, `green`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        moves: Vec<String>,
    },
    /// Armada, Forgotten Port: stay out of (or take part in) this Age's naval conflict.
    StayOutOfNaval {
        /// Whether the city stays out.
        stay_out: bool,
    },
    /// 2nd edition: choose the side of the wonder board.
    ChooseSide {
        /// `A`/`B`, or `Day`/`Night`.
        side: String,
    },
}

impl WireAction {
    /// The wire form of an action.
    pub fn from_action(catalog: &Catalog, action: &Action) -> WireAction {
        let name = |c: crate::CardId| catalog.card(c).name.clone();
        // The Age only for a name that several cards share (worked out once per catalog).
        let age = |c: crate::CardId| catalog.hot(c).name_shared.then(|| catalog.card(c).age);
        match *action {
            Action::Build { card, pay, naval } => WireAction::Build {
                card: name(card),
                age: age(card),
                left: pay.left,
                right: pay.right,
                bank: Some(pay.bank),
                second_left: pay.second.left(),
                second_right: pay.second.right(),
                free: pay.free.map(Into::into),
                naval: naval.construction().map(|f| f.name().to_string()),
                free_move: naval.free_move().map(|f| f.name().to_string()),
            },
            Action::Wonder { card, pay, extra } => WireAction::Wonder {
                card: name(card),
                age: age(card),
                left: pay.left,
                right: pay.right,
                second_left: pay.second.left(),
                second_right: pay.second.right(),
                take_part: extra.take_part(),
                bank: (pay.bank != 0).then_some(pay.bank),
                second_effect: extra.alternative(),
                pawn_age: (extra.pawn_age() != 0).then_some(extra.pawn_age()),
                naval: extra.naval().map(|f| f.name().to_string()),
            },
            Action::DiscardBuilt { card } => WireAction::DiscardBuilt { card: name(card), age: age(card) },
            Action::Discard { card } => {
                WireAction::Discard { card: name(card), age: age(card), yellow: false }
            }
            Action::DiscardYellow { card } => {
                WireAction::Discard { card: name(card), age: age(card), yellow: true }
            }
            Action::BuildDiscarded { card, free_move } => WireAction::BuildDiscarded {
                card: name(card),
                age: age(card),
                free_move: free_move.map(|f| f.name().to_string()),
            },
            Action::Pass => WireAction::Pass {},
            Action::ChooseSide { side } => {
                WireAction::ChooseSide { side: side.label(catalog.edition).to_string() }
            }
            Action::ChooseIsland { island, moves } => WireAction::ChooseIsland {
                island: catalog
                    .armada
                    .as_deref()
                    .and_then(|d| d.islands().get(island.0 as usize))
                    .map_or_else(|| format!("island #{}", island.0), |i| i.name.clone()),
                moves: crate::armada::Fleet::ALL
                    .iter()
                    .filter(|&&f| moves & (1 << f as u8) != 0)
                    .map(|f| f.name().to_string())
                    .collect(),
            },
            Action::StayOutOfNaval { stay_out } => WireAction::StayOutOfNaval { stay_out },
        }
    }

    /// Validates the names into a core action for `seat` of `game`. A name shared by cards of
    /// two Ages (the Loom of Age I and of Age II) without an `age` means the one in the seat's
    /// hand, or in the discard pile for a build from it. Legality is the game's to check.
    pub fn to_action_in(&self, game: &Game, seat: usize) -> Result<Action, UnknownName> {
        let catalog = game.catalog();
        let mut action = self.to_action(catalog)?;
        if let (WireAction::Wonder { take_part: true, bank: None, .. }, Action::Wonder { pay, .. }) =
            (self, &mut action)
        {
            let city = game.acting_city(seat.min(game.players().saturating_sub(1)));
            pay.bank = game.joinable_project(city).map_or(0, |p| p.coins);
        }
        let Some(card) = action.card() else {
            return Ok(action);
        };
        let explicit_age = match self {
            WireAction::Build { age, .. }
            | WireAction::Wonder { age, .. }
            | WireAction::Discard { age, .. }
            | WireAction::BuildDiscarded { age, .. } => age.is_some(),
            WireAction::Pass {}
            | WireAction::ChooseSide { .. }
            | WireAction::DiscardBuilt { .. }
            | WireAction::ChooseIsland { .. }
            | WireAction::StayOutOfNaval { .. } => false,
        };
        if explicit_age {
            return Ok(action);
        }
        let name = catalog.card(card).name_id;
        let pool: &[crate::CardId] = match action {
            Action::BuildDiscarded { .. } => game.discard_pile(),
            _ => game.hand(seat.min(game.players().saturating_sub(1))),
        };
        let Some(&held) = pool.iter().find(|c| catalog.card(**c).name_id == name) else {
            return Ok(action);
        };
        Ok(match action {
            Action::Build { pay, naval, .. } => Action::Build { card: held, pay, naval },
            Action::Wonder { pay, extra, .. } => Action::Wonder { card: held, pay, extra },
            Action::Discard { .. } => Action::Discard { card: held },
            Action::DiscardYellow { .. } => Action::DiscardYellow { card: held },
            Action::BuildDiscarded { free_move, .. } => Action::BuildDiscarded { card: held, free_move },
            Action::Pass => Action::Pass,
            Action::ChooseSide { side } => Action::ChooseSide { side },
            Action::DiscardBuilt { card } => Action::DiscardBuilt { card },
            other @ (Action::ChooseIsland { .. } | Action::StayOutOfNaval { .. }) => other,
        })
    }

    /// Validates the names into a core action (its legality is the game's to check).
    pub fn to_action(&self, catalog: &Catalog) -> Result<Action, UnknownName> {
        let find = |card: &str, age: &Option<u8>| -> Result<crate::CardId, UnknownName> {
            let id = catalog.find_card(card)?;
            Ok(age.and_then(|a| catalog.find_card_in_age(card, a)).unwrap_or(id))
        };
        let fleet =
            |f: &Option<String>| -> Result<Option<crate::armada::Fleet>, UnknownName> {
                match f {
                    None => Ok(None),
                    Some(s) => crate::armada::Fleet::parse(&s.trim().to_ascii_lowercase())
                        .map(Some)
                        .ok_or_else(|| UnknownName {
                            kind: "fleet",
                            name: s.clone(),
                            suggestion: Some("red, yellow, blue or green".into()),
                            edition: catalog.edition,
                        }),
                }
            };
        Ok(match self {
            WireAction::Build {
                card,
                age,
                left,
                right,
                bank,
                second_left,
                second_right,
                free,
                naval,
                free_move,
            } => {
                let id = find(card, age)?;
                let second = SecondPay::new(*second_left, *second_right);
                let pay = match free {
                    // A free card still pays its naval construction (armada.md §2.3).
                    Some(f) => Payment {
                        left: *left,
                        right: *right,
                        bank: bank.unwrap_or(0),
                        free: Some((*f).into()),
                        second,
                    },
                    None => Payment {
                        left: *left,
                        right: *right,
                        bank: bank.unwrap_or(catalog.card(id).coins),
                        free: None,
                        second,
                    },
                };
                Action::Build { card: id, pay, naval: Naval::new(fleet(naval)?, fleet(free_move)?) }
            }
            WireAction::Wonder {
                card,
                age,
                left,
                right,
                second_left,
                second_right,
                take_part,
                bank,
                second_effect,
                pawn_age,
                naval,
            } => Action::Wonder {
                card: find(card, age)?,
                pay: Payment {
                    second: SecondPay::new(*second_left, *second_right),
                    ..Payment::paid(*left, *right, bank.unwrap_or(0))
                },
                extra: StageExtra::new(*take_part, *second_effect, pawn_age.unwrap_or(0))
                    .with_naval(fleet(naval)?),
            },
            WireAction::DiscardBuilt { card, age } => Action::DiscardBuilt { card: find(card, age)? },
            WireAction::Discard { card, age, yellow: false } => Action::Discard { card: find(card, age)? },
            WireAction::Discard { card, age, yellow: true } => {
                Action::DiscardYellow { card: find(card, age)? }
            }
            WireAction::BuildDiscarded { card, age, free_move } => {
                Action::BuildDiscarded { card: find(card, age)?, free_move: fleet(free_move)? }
            }
            WireAction::Pass {} => Action::Pass,
            WireAction::ChooseIsland { island, moves } => {
                let unknown = |name: &str, kind: &'static str, suggestion: Option<String>| UnknownName {
                    kind,
                    name: name.to_string(),
                    suggestion,
                    edition: catalog.edition,
                };
                let data = catalog.armada.as_deref().ok_or_else(|| unknown(island, "island", None))?;
                let id = data.find_island(island).map_err(|e| unknown(island, "island", e.suggestion))?;
                let mut mask = 0u8;
                for m in moves {
                    let f = crate::armada::Fleet::parse(&m.trim().to_ascii_lowercase())
                        .ok_or_else(|| unknown(m, "fleet", Some("red, yellow, blue or green".into())))?;
                    mask |= 1 << f as u8;
                }
                Action::ChooseIsland { island: id, moves: mask }
            }
            WireAction::StayOutOfNaval { stay_out } => Action::StayOutOfNaval { stay_out: *stay_out },
            WireAction::ChooseSide { side } => Action::ChooseSide {
                side: Side::parse(side).ok_or_else(|| UnknownName {
                    kind: "wonder side",
                    name: side.clone(),
                    suggestion: Some("A, B, Day or Night".into()),
                    edition: catalog.edition,
                })?,
            },
        })
    }
}

/// A city on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireCity {
    /// Wonder name.
    pub wonder: String,
    /// Side label (`A`/`B`, or `Day`/`Night`).
    pub side: String,
    /// Stages built.
    pub stages: u8,
    /// Stages on this side.
    pub stages_total: u8,
    /// Coins.
    pub coins: u16,
    /// Military token values.
    pub military: Vec<i32>,
    /// Shields.
    pub shields: u8,
    /// Built cards, by name.
    pub cards: Vec<String>,
    /// Edifice: the Ages of the participation pawns held (one entry per pawn).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pawns: Vec<u8>,
    /// Edifice: the Ages of the debt tokens held (one entry per token).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub debt: Vec<u8>,
}

/// Serde: a zero count is left out.
fn is_zero(n: &u8) -> bool {
    *n == 0
}

fn ages_list(counts: [u8; 3]) -> Vec<u8> {
    (1u8..=3).flat_map(|a| std::iter::repeat_n(a, counts[a as usize - 1] as usize)).collect()
}

impl WireCity {
    /// The wire form of a city.
    pub fn from_city(catalog: &Catalog, c: &City) -> WireCity {
        WireCity {
            wonder: catalog.wonder(c.wonder).name.clone(),
            side: c.side.label(catalog.edition).to_string(),
            stages: c.stages,
            stages_total: c.stage_count(catalog),
            coins: c.coins,
            military: c.tokens.values(),
            shields: c.shields,
            cards: c.built.iter().map(|id| catalog.card(id).name.clone()).collect(),
            pawns: ages_list(c.edifice.pawns),
            debt: ages_list(c.edifice.debt),
        }
    }
}

/// A log entry on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireLogEntry {
    /// Age.
    pub age: u8,
    /// Turn (7 = Babylon's last card).
    pub turn: u8,
    /// Seat.
    pub seat: u8,
    /// `chose_side`, `built`, `stage`, `discarded`, `built_discarded`, `passed`, `edifice_*`
    /// (Edifice events) or `armada_*` (Armada events, [`WireArmadaEvent`]).
    pub played: String,
    /// The card built, if public (for `chose_side`, the side chosen).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
    /// The stage built.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stage: Option<u8>,
    /// Coins paid to the left neighbour.
    pub left: u8,
    /// Coins paid to the right neighbour.
    pub right: u8,
    /// Coins paid to the bank.
    pub bank: u8,
    /// Armada: coins paid to the 2nd player on the left (West Trading Zone); absent when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub second_left: u8,
    /// Armada: coins paid to the 2nd player on the right (East Trading Zone); absent when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub second_right: u8,
    /// Coins received at the end of the step.
    pub income: u16,
    /// Edifice `edifice_ur_pawn`: the Age of the pawn taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pawn_age: Option<u8>,
    /// Edifice (`edifice_*`): the Age of the project the event is about. It is the entry's
    /// `age` except for an Ur pawn and the reward of an earlier Age's completed project that an
    /// Ur pawn brings (`age` and `turn` are always when the event happened).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project_age: Option<u8>,
    /// Armada (`played` is `armada_` + [`crate::armada::ArmadaEvent::kind`]): the event's values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub armada: Option<WireArmadaEvent>,
}

/// The values of an Armada event of the log ([`crate::armada::ArmadaEvent`]); only those of the
/// event's kind are present. A loss's coins actually paid are the entry's `bank`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireArmadaEvent {
    /// The ship that moved: `red`, `yellow`, `blue` or `green`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fleet: Option<String>,
    /// The step it reached (1–6; it came from the step below).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<u8>,
    /// Why it moved: `construction`, `discard`, `card` or `island`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<String>,
    /// The island that came into the city (working English name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub island: Option<String>,
    /// The island's name in rulebook 000.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub island_zh: Option<String>,
    /// `explored_nothing`: the level whose deck was empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// `incursion_token`, `incursion`: the seat targeted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<u8>,
    /// `tax`: the tax levied; `lost`: the coins owed to the tax.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tax: Option<u8>,
    /// `tax`: whether it is the turn's highest, the one that applies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub applies: Option<bool>,
    /// `piracy`: the number of piracies; `lost`: the coins owed to the piracies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub piracy: Option<u8>,
    /// `immune`: what the city would have owed (Misty Isle).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owed: Option<u8>,
    /// `naval`: the city's naval strength.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength: Option<u8>,
    /// `naval`: the token taken (0: none); `incursion`: the holder's token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<i8>,
    /// `incursion`: the target's token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_token: Option<i8>,
}

impl WireArmadaEvent {
    /// The wire form of an Armada event of Age `age`.
    pub fn from_event(catalog: &Catalog, e: ArmadaEvent, age: u8) -> WireArmadaEvent {
        let mut w = WireArmadaEvent::default();
        if let Some((fleet, to, cause)) = e.ship_move() {
            w.fleet = Some(fleet.name().to_string());
            w.to = Some(to);
            w.cause = Some(cause.name().to_string());
        }
        if let Some(i) = e.island()
            && let Some(def) = catalog.armada.as_deref().and_then(|d| d.islands().get(i.0 as usize))
        {
            w.island = Some(def.name.clone());
            w.island_zh = Some(def.zh.clone());
        }
        match e {
            ArmadaEvent::ExploredNothing { level } => w.level = Some(level),
            ArmadaEvent::IncursionToken { target } => w.target = Some(target),
            ArmadaEvent::Tax { amount, applies } => {
                w.tax = Some(amount);
                w.applies = Some(applies);
            }
            ArmadaEvent::Piracy { count } => w.piracy = Some(count),
            ArmadaEvent::Lost { tax, piracy } => {
                w.tax = Some(tax);
                w.piracy = Some(piracy);
            }
            ArmadaEvent::Immune { owed } => w.owed = Some(owed),
            ArmadaEvent::Naval { strength, token } => {
                w.strength = Some(strength);
                w.token = Some(token);
            }
            ArmadaEvent::Incursion { target, token } => {
                w.target = Some(target);
                w.token = Some(token);
                w.target_token = e.incursion_target_token(age);
            }
            _ => {}
        }
        w
    }
}

impl WireLogEntry {
    /// The wire form of a log entry.
    pub fn from_entry(catalog: &Catalog, e: &LogEntry) -> WireLogEntry {
        let (played, card, stage) = match e.played {
            Played::ChoseSide(s) => ("chose_side", Some(s.label(catalog.edition).to_string()), None),
            Played::Built(c) => ("built", Some(catalog.card(c).name.clone()), None),
            Played::Stage(s) => ("stage", None, Some(s)),
            Played::Discarded => ("discarded", None, None),
            Played::BuiltDiscarded(c) => ("built_discarded", Some(catalog.card(c).name.clone()), None),
            Played::Passed => ("passed", None, None),
            Played::Edifice(ev) => match ev {
                EdificeEvent::TookPart => ("edifice_took_part", None, None),
                EdificeEvent::UrPawn(_) => ("edifice_ur_pawn", None, None),
                EdificeEvent::Rewarded(_) => ("edifice_rewarded", None, None),
                EdificeEvent::Spared => ("edifice_spared", None, None),
                EdificeEvent::Paid => ("edifice_paid", None, None),
                EdificeEvent::Discarded(c) => ("edifice_discarded", Some(catalog.card(c).name.clone()), None),
                EdificeEvent::Debt => ("edifice_debt", None, None),
            },
            Played::Armada(_) => ("armada", None, None),
        };
        let played = match e.played {
            Played::Armada(ev) => format!("armada_{}", ev.kind()),
            _ => played.to_string(),
        };
        WireLogEntry {
            age: e.age,
            turn: e.turn,
            seat: e.seat,
            played,
            card,
            stage,
            left: e.pay.left,
            right: e.pay.right,
            bank: e.pay.bank,
            second_left: e.pay.second.left(),
            second_right: e.pay.second.right(),
            income: e.income,
            pawn_age: match e.played {
                Played::Edifice(EdificeEvent::UrPawn(a)) => Some(a),
                _ => None,
            },
            project_age: match e.played {
                Played::Edifice(ev) => Some(ev.project_age(e.age)),
                _ => None,
            },
            armada: match e.played {
                Played::Armada(ev) => Some(WireArmadaEvent::from_event(catalog, ev, e.age)),
                _ => None,
            },
        }
    }
}

/// One great project on the wire (Edifice).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireProject {
    /// Its Age.
    pub age: u8,
    /// English name.
    pub name: String,
    /// Chinese name, when known.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub zh: String,
    /// The participation cost, as text.
    pub cost: String,
    /// Participation cost in coins.
    pub cost_coins: u8,
    /// The reward, as text.
    pub reward: String,
    /// The penalty, as text.
    pub penalty: String,
    /// `open`, `completed` or `failed`.
    pub outcome: String,
    /// Pawns left on the card.
    pub pawns_left: u8,
    /// Seats holding a pawn of this Age.
    pub holders: Vec<u8>,
    /// Whether it is the current Age's project.
    pub current: bool,
    /// Whether any value shown is provisional (edifice.md §5).
    pub provisional: bool,
    /// Which values are provisional: `cost`, `reward`, `penalty`.
    pub provisional_values: Vec<String>,
}

/// The great projects of a game on the wire.
pub fn wire_projects(
    catalog: &Catalog,
    state: &crate::EdificeState,
    cities: &[City],
    age: u8,
) -> Vec<WireProject> {
    let Some(data) = catalog.edifice.as_deref() else {
        return Vec::new();
    };
    (0..3)
        .map(|a| {
            let p = data.project(state.projects[a]);
            let mut provisional_values = Vec::new();
            for (name, st) in
                [("cost", p.cost_status), ("reward", p.reward_status), ("penalty", p.penalty_status)]
            {
                if st.provisional() {
                    provisional_values.push(name.to_string());
                }
            }
            WireProject {
                age: a as u8 + 1,
                name: p.name.clone(),
                zh: p.zh.clone(),
                cost: p.cost_text(),
                cost_coins: p.coins,
                reward: p.reward_text(),
                penalty: p.penalty.to_string(),
                outcome: match state.outcome[a] {
                    Outcome::Open => "open",
                    Outcome::Completed => "completed",
                    Outcome::Failed => "failed",
                }
                .into(),
                pawns_left: state.left[a],
                holders: (0..cities.len())
                    .filter(|&c| cities[c].edifice.pawns[a] > 0)
                    .map(|c| c as u8)
                    .collect(),
                current: age as usize == a + 1 && state.outcome[a] == Outcome::Open,
                provisional: p.provisional(),
                provisional_values,
            }
        })
        .collect()
}

/// A seat's view on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireView {
    /// The seat.
    pub seat: u8,
    /// `1e` or `2e`.
    pub edition: String,
    /// Age.
    pub age: u8,
    /// Turn.
    pub turn: u8,
    /// `choose_side`, `choose`, `play_last_card`, `build_from_discard` or `over`.
    pub phase: String,
    /// The city the phase concerns, for the one-city phases.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase_city: Option<u8>,
    /// The city this seat's next action is for (its own, or the Free City).
    pub acting_city: u8,
    /// 2-player variant: the Free City's index among the cities.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub free_city: Option<u8>,
    /// 2-player variant: the seat holding the Free City card.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub free_city_holder: Option<u8>,
    /// 2-player variant: cards left in the Free City's draw pile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_pile_size: Option<u8>,
    /// This seat's hand.
    pub hand: Vec<String>,
    /// Every city.
    pub cities: Vec<WireCity>,
    /// Hand sizes.
    pub hand_sizes: Vec<u8>,
    /// Who has chosen.
    pub chosen: Vec<bool>,
    /// Discard pile size.
    pub discard_size: u8,
    /// Discard pile contents, only while this seat builds from it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discard: Option<Vec<String>>,
    /// The last step's log.
    pub log: Vec<WireLogEntry>,
    /// The whole public log since the start of the game.
    #[serde(default)]
    pub history: Vec<WireLogEntry>,
    /// The hands this seat has held this Age, by turn.
    #[serde(default)]
    pub seen_hands: Vec<Vec<String>>,
    /// Edifice: the three great projects, in Age order (absent without the expansion).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub projects: Vec<WireProject>,
    /// The team variant is played (absent otherwise).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub teams: bool,
    /// Team variant: the teammate's current hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teammate_hand: Option<Vec<String>>,
    /// Armada: every shipyard, the islands, the decks' sizes (absent without the expansion).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub armada: Option<crate::armada::wire::WireArmada>,
}

impl WireView {
    /// The wire form of a view.
    pub fn from_view(catalog: &Catalog, v: &View) -> WireView {
        let name = |c: &crate::CardId| catalog.card(*c).name.clone();
        let (phase, phase_city) = match v.phase {
            Phase::ChooseSide => ("choose_side", None),
            Phase::Choose => ("choose", None),
            Phase::PlayLastCard { city } => ("play_last_card", Some(city)),
            Phase::BuildFromDiscard { city } => ("build_from_discard", Some(city)),
            Phase::EdificeDiscard { city } => ("edifice_discard", Some(city)),
            Phase::Explore { city } => ("explore", Some(city)),
            Phase::IslandMoves { city } => ("island_moves", Some(city)),
            Phase::NavalOptOut { city } => ("naval_opt_out", Some(city)),
            Phase::Over => ("over", None),
        };
        WireView {
            seat: v.seat,
            edition: v.edition.code().to_string(),
            age: v.age,
            turn: v.turn,
            phase: phase.to_string(),
            phase_city,
            acting_city: v.acting_city,
            free_city: v.free_city,
            free_city_holder: v.free_city_holder,
            draw_pile_size: v.free_city.map(|_| v.draw_pile_size),
            hand: v.hand.iter().map(name).collect(),
            cities: v.cities.iter().map(|c| WireCity::from_city(catalog, c)).collect(),
            hand_sizes: v.hand_sizes.to_vec(),
            chosen: v.chosen.to_vec(),
            discard_size: v.discard_size,
            discard: v.discard.as_ref().map(|d| d.iter().map(name).collect()),
            log: v.log.iter().map(|e| WireLogEntry::from_entry(catalog, e)).collect(),
            history: v.history.iter().map(|e| WireLogEntry::from_entry(catalog, e)).collect(),
            seen_hands: v.seen_hands.iter().map(|h| h.iter().map(name).collect()).collect(),
            projects: v
                .edifice
                .as_ref()
                .map(|e| wire_projects(catalog, e, &v.cities, v.age))
                .unwrap_or_default(),
            teams: v.teams,
            teammate_hand: v.teammate_hand.as_ref().map(|h| h.iter().map(name).collect()),
            armada: v.armada.as_ref().map(crate::armada::wire::WireArmada::from_view),
        }
    }
}

/// How the wonders of a recorded game were given out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum WireWonders {
    /// `"random"`; `"A"`/`"B"` (`"Day"`/`"Night"`) for random boards on one side; `"choose"` for
    /// random boards whose sides the players choose.
    Mode(String),
    /// One board per seat.
    Chosen(Vec<WireBoard>),
}

/// A chosen board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireBoard {
    /// Wonder name.
    pub wonder: String,
    /// Side; random when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
}

/// A recorded action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedAction {
    /// The seat that acted.
    pub seat: u8,
    /// What it did.
    #[serde(flatten)]
    pub action: WireAction,
}

/// A whole game: options, seed and every action in the order submitted. Replaying it gives the
/// identical game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// `1e` or `2e`.
    pub edition: String,
    /// Players.
    pub players: u8,
    /// The seed.
    pub seed: u64,
    /// How wonders were given out.
    pub wonders: WireWonders,
    /// The expansions played (`["edifice"]`); absent for the base game. A record replays only
    /// with the expansions it names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expansions: Vec<String>,
    /// The team variant (`true`); absent otherwise, so older records read as before.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub teams: bool,
    /// Every action, in order.
    pub actions: Vec<RecordedAction>,
    /// The final scores, when the game ended; checked on replay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<Vec<Score>>,
}

/// Why a record does not replay.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// A setup value is wrong.
    #[error("record setup: {0}")]
    Setup(String),
    /// An action names an unknown card.
    #[error("action {index}: {error}")]
    Name {
        /// Index in `actions`.
        index: usize,
        /// The problem.
        error: UnknownName,
    },
    /// An action is illegal at its point of the game.
    #[error("action {index} (seat {seat}): {error}")]
    Illegal {
        /// Index in `actions`.
        index: usize,
        /// Seat.
        seat: u8,
        /// Why.
        error: ActionError,
    },
    /// The recorded scores differ from the replayed ones.
    #[error("the recorded scores differ from the replay: recorded {recorded:?}, replayed {replayed:?}")]
    Scores {
        /// In the record.
        recorded: Vec<i32>,
        /// After replay.
        replayed: Vec<i32>,
    },
}

impl From<SetupError> for RecordError {
    fn from(e: SetupError) -> Self {
        RecordError::Setup(e.to_string())
    }
}

impl Record {
    /// A record of a game about to start.
    pub fn new(setup: &Setup, catalog: &Catalog) -> Record {
        let wonders = match &setup.wonders {
            WonderDeal::Random => WireWonders::Mode("random".into()),
            WonderDeal::RandomBoards(s) => WireWonders::Mode(s.label(setup.edition).into()),
            WonderDeal::RandomBoardsChooseSides => WireWonders::Mode("choose".into()),
            WonderDeal::Chosen(list) => WireWonders::Chosen(
                list.iter()
                    .map(|(w, s)| WireBoard {
                        wonder: catalog.wonder(*w).name.clone(),
                        side: s.map(|s| s.label(setup.edition).to_string()),
                    })
                    .collect(),
            ),
        };
        Record {
            edition: setup.edition.code().into(),
            players: setup.players,
            seed: setup.seed,
            wonders,
            expansions: setup.expansions.names().into_iter().map(String::from).collect(),
            teams: setup.teams,
            actions: Vec::new(),
            scores: None,
        }
    }

    /// Appends an action.
    pub fn push(&mut self, catalog: &Catalog, seat: usize, action: &Action) {
        self.actions
            .push(RecordedAction { seat: seat as u8, action: WireAction::from_action(catalog, action) });
    }

    /// The setup this record starts from.
    pub fn setup(&self) -> Result<Setup, RecordError> {
        let edition = Edition::parse(&self.edition)
            .ok_or_else(|| RecordError::Setup(format!("unknown edition `{}` (1e or 2e)", self.edition)))?;
        // The extended catalog finds Ur and Carthage too; the edition's boards keep their ids.
        let catalog = Catalog::extended(edition);
        let expansions = Expansions::parse(&self.expansions).map_err(RecordError::Setup)?;
        let wonders = match &self.wonders {
            WireWonders::Mode(m) if m.eq_ignore_ascii_case("random") => WonderDeal::Random,
            WireWonders::Mode(m) if m.eq_ignore_ascii_case("choose") => WonderDeal::RandomBoardsChooseSides,
            WireWonders::Mode(m) => WonderDeal::RandomBoards(Side::parse(m).ok_or_else(|| {
                RecordError::Setup(format!("unknown wonder mode `{m}` (random, or a side)"))
            })?),
            WireWonders::Chosen(list) => WonderDeal::Chosen(
                list.iter()
                    .map(|b| {
                        let w =
                            catalog.find_wonder(&b.wonder).map_err(|e| RecordError::Setup(e.to_string()))?;
                        let side = match &b.side {
                            None => None,
                            Some(s) => Some(
                                Side::parse(s)
                                    .ok_or_else(|| RecordError::Setup(format!("unknown side `{s}`")))?,
                            ),
                        };
                        Ok((w, side))
                    })
                    .collect::<Result<_, RecordError>>()?,
            ),
        };
        Ok(Setup { edition, players: self.players, seed: self.seed, wonders, expansions, teams: self.teams })
    }

    /// Replays the record, checking every action and the recorded scores.
    pub fn replay(&self) -> Result<Game, RecordError> {
        let mut game = Game::new(&self.setup()?)?;
        for (index, ra) in self.actions.iter().enumerate() {
            let action = ra
                .action
                .to_action_in(&game, ra.seat as usize)
                .map_err(|error| RecordError::Name { index, error })?;
            game.submit(ra.seat as usize, action).map_err(|error| RecordError::Illegal {
                index,
                seat: ra.seat,
                error,
            })?;
        }
        if let Some(recorded) = &self.scores {
            let replayed = game.scores();
            if *recorded != replayed {
                return Err(RecordError::Scores {
                    recorded: recorded.iter().map(|s| s.total).collect(),
                    replayed: replayed.iter().map(|s| s.total).collect(),
                });
            }
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A card's wire form names its Age exactly when another card of the catalog has its name
    /// (the flag worked out once per catalog, against a scan of every card), in every catalog.
    #[test]
    fn the_age_is_named_exactly_for_names_several_cards_share() {
        use crate::catalog::Catalog;
        let catalogs = [
            Catalog::get(crate::Edition::First),
            Catalog::get(crate::Edition::Second),
            Catalog::extended(crate::Edition::First),
            Catalog::with_builtin_armada(crate::Edition::First, true),
            Catalog::with_builtin_armada(crate::Edition::Second, false),
        ];
        let mut shared = 0;
        for catalog in catalogs {
            for d in &catalog.cards {
                let scan = catalog.cards.iter().any(|o| o.name_id == d.name_id && o.id != d.id);
                assert_eq!(catalog.hot(d.id).name_shared, scan, "{}", d.name);
                let wire = WireAction::from_action(catalog, &Action::Discard { card: d.id });
                assert_eq!(
                    wire,
                    WireAction::Discard { card: d.name.clone(), age: scan.then_some(d.age), yellow: false }
                );
                shared += usize::from(scan);
            }
        }
        assert!(shared >= 6, "Loom, Glassworks and Press of two Ages: {shared}");
    }

    #[test]
    fn actions_refuse_unknown_fields_but_records_keep_their_seat() {
        for (json, field) in [
            (r#"{"type": "wonder", "card": "Altar", "free": "junk"}"#, "free"),
            (r#"{"type": "discard", "card": "Altar", "zzz": 1}"#, "zzz"),
            (r#"{"type": "pass", "card": "Altar"}"#, "card"),
        ] {
            let e = serde_json::from_str::<WireAction>(json).unwrap_err().to_string();
            assert!(e.contains(&format!("unknown field `{field}`")), "{json}: {e}");
        }
        assert_eq!(serde_json::to_string(&WireAction::Pass {}).unwrap(), r#"{"type":"pass"}"#);
        assert_eq!(serde_json::from_str::<WireAction>(r#"{"type": "pass"}"#).unwrap(), WireAction::Pass {});
        let recorded: RecordedAction =
            serde_json::from_str(r#"{"seat": 2, "type": "discard", "card": "Altar"}"#).unwrap();
        assert_eq!(recorded.seat, 2);
        assert_eq!(recorded.action, WireAction::Discard { card: "Altar".into(), age: None, yellow: false });
    }
}
