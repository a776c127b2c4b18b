//! Armada in the public log: what everyone at the table sees happen, as [`ArmadaEvent`]s carried
//! by [`crate::Played::Armada`] entries of [`crate::Game::history`] (armada.md §2.3–§2.8; 000
//! 回合結算).
//!
//! The entry's `seat` is the city the event is about (the mover, the explorer, the levier, the
//! pirate, the city losing coins, the incursion's holder). Entries come in the order of the six
//! steps of 000 回合結算, after the actions of the turn:
//! - steps 2–3 ([`ArmadaEvent::Construction`], [`ArmadaEvent::DiscardMove`],
//!   [`ArmadaEvent::FreeMove`], [`ArmadaEvent::TopIsland`] and its [`ArmadaEvent::IslandMove`]s,
//!   [`ArmadaEvent::IncursionToken`]), logged with the turn's action entries;
//! - step 4, each exploration's [`ArmadaEvent::Explored`] (only the island kept: the cards
//!   returned stay secret) or [`ArmadaEvent::ExploredNothing`], logged when the explorer chooses;
//! - step 5, a card built from the discard pile: its own Armada events after its entry;
//! - step 6, [`ArmadaEvent::Tax`] (each levier), [`ArmadaEvent::Piracy`] (each pirate), then each
//!   city's [`ArmadaEvent::Lost`] or [`ArmadaEvent::Immune`];
//! - at the Age end, after the land conflicts: [`ArmadaEvent::Incursion`] (each incursion's extra
//!   land conflict), [`ArmadaEvent::StayedOut`] (Forgotten Port, when its holder chooses) and
//!   [`ArmadaEvent::Naval`] (each city taking part in the naval conflict).
//!
//! Every variant holds at most two bytes, so that the event does not make [`crate::LogEntry`]
//! grow (14 bytes, its payment included). Coins a space or a step pays are not repeated here: a ship move's
//! coins are the data's ([`super::ArmadaData::track`]`(fleet, to).coins`), counted in the
//! `income` of the turn's action entry when the move is part of the turn (steps 2–3), paid at
//! once when it comes with an island.

use super::{Fleet, IslandId};

/// One Armada event of the public log (see the [module documentation](self)). `Copy`, 3 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArmadaEvent {
    /// A naval construction with the card or wonder stage of the same entry's turn: the ship of
    /// `fleet` moved from step `to − 1` to step `to` (armada.md §2.3).
    Construction {
        /// The fleet.
        fleet: Fleet,
        /// The step reached (1–6).
        to: u8,
    },
    /// A card discarded for a free move of the yellow ship, which reached step `to` (§2.4).
    DiscardMove {
        /// The step reached (1–6).
        to: u8,
    },
    /// The free move of a card built (the blue Armada cards; §2.3): the ship of `fleet` chosen
    /// by the player reached step `to`.
    FreeMove {
        /// The fleet.
        fleet: Fleet,
        /// The step reached (1–6).
        to: u8,
    },
    /// A free move given by an island coming into the city (Topaz, Amber, White-Surf Port,
    /// Tempest Archipelago; armada.md §6): the ship of `fleet` reached step `to`.
    IslandMove {
        /// The fleet.
        fleet: Fleet,
        /// The step reached (1–6).
        to: u8,
    },
    /// The island the city kept in an exploration (§2.6). The cards it returned are never
    /// logged: only the explorer saw them.
    Explored(IslandId),
    /// The city's exploration of this level found its deck empty: no island (§10.8,
    /// provisional).
    ExploredNothing {
        /// The level explored (1–3).
        level: u8,
    },
    /// A green Armada card put the top island of its level into the city, with no choice (§2.6).
    TopIsland(IslandId),
    /// An incursion card handed the city's incursion token to `target`, the 2nd player on that
    /// side: one more land conflict between them at the Age end (§2.8).
    IncursionToken {
        /// The seat targeted.
        target: u8,
    },
    /// Step 6: the city's yellow ship reached a tax space this turn and levied `amount`. Only the
    /// turn's highest tax applies (`applies`); its leviers pay nothing of it (§2.7).
    Tax {
        /// The tax levied.
        amount: u8,
        /// Whether it is the turn's highest (the one that applies).
        applies: bool,
    },
    /// Step 6: the city resolved `count` piracies this turn (pirate cards, Pirate Port): every
    /// other city loses 1 coin per trade level for each (§2.7).
    Piracy {
        /// The number of piracies.
        count: u8,
    },
    /// Step 6: what the city owes the bank to the turn's tax (`tax` − own trade level) and to the
    /// others' piracies (1 coin per trade level each); the entry's `pay.bank` is what it paid:
    /// less than `tax + piracy` when it could not pay in full (it pays what it has, §10.9).
    Lost {
        /// Coins owed to the tax.
        tax: u8,
        /// Coins owed to the piracies.
        piracy: u8,
    },
    /// Step 6, Misty Isle: the city would have owed `owed` coins to taxes and piracies and loses
    /// nothing (§2.7).
    Immune {
        /// What it would have owed.
        owed: u8,
    },
    /// Age end, Forgotten Port: the city stays out of this Age's naval conflict (armada.md §6).
    StayedOut,
    /// Age end: the city took part in the naval conflict with this strength and took this token
    /// (0: none; §2.5).
    Naval {
        /// Its naval strength.
        strength: u8,
        /// The token taken (−1/−2/−3, +1 … +7), 0 for none.
        token: i8,
    },
    /// Age end: the incursion conflict of the city (the token's holder) against `target`, with
    /// that Age's values: `token` is the holder's token (the Age's victory value, −1, or 0 on a
    /// tie); the target takes [`ArmadaEvent::incursion_target_token`] (§2.8).
    Incursion {
        /// The seat targeted.
        target: u8,
        /// The holder's token.
        token: i8,
    },
}

/// Why a ship moved, for faces that treat every move alike ([`ArmadaEvent::ship_move`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveCause {
    /// A naval construction (paid with a card or a stage).
    Construction,
    /// A discard for the yellow ship.
    Discard,
    /// A card's free move.
    Card,
    /// An island's free move.
    Island,
}

impl MoveCause {
    /// A short English name: `construction`, `discard`, `card`, `island`.
    pub const fn name(self) -> &'static str {
        match self {
            MoveCause::Construction => "construction",
            MoveCause::Discard => "discard",
            MoveCause::Card => "card",
            MoveCause::Island => "island",
        }
    }
}

impl ArmadaEvent {
    /// The ship move of this event, as (fleet, step reached, why), if it is one.
    ///
    /// ```
    /// use wonders_core::armada::{ArmadaEvent, Fleet, MoveCause};
    /// let e = ArmadaEvent::DiscardMove { to: 2 };
    /// assert_eq!(e.ship_move(), Some((Fleet::Yellow, 2, MoveCause::Discard)));
    /// assert_eq!(ArmadaEvent::StayedOut.ship_move(), None);
    /// ```
    pub const fn ship_move(self) -> Option<(Fleet, u8, MoveCause)> {
        match self {
            ArmadaEvent::Construction { fleet, to } => Some((fleet, to, MoveCause::Construction)),
            ArmadaEvent::DiscardMove { to } => Some((Fleet::Yellow, to, MoveCause::Discard)),
            ArmadaEvent::FreeMove { fleet, to } => Some((fleet, to, MoveCause::Card)),
            ArmadaEvent::IslandMove { fleet, to } => Some((fleet, to, MoveCause::Island)),
            _ => None,
        }
    }

    /// The island that came into the city, if the event is one (kept in an exploration, or a
    /// green card's top island).
    pub const fn island(self) -> Option<IslandId> {
        match self {
            ArmadaEvent::Explored(i) | ArmadaEvent::TopIsland(i) => Some(i),
            _ => None,
        }
    }

    /// An incursion conflict's token for its target, in Age `age`: −1 when the holder won, the
    /// Age's victory value (+1/+3/+5) when the holder lost, 0 on a tie (002 軍事衝突).
    ///
    /// ```
    /// use wonders_core::armada::ArmadaEvent;
    /// assert_eq!(ArmadaEvent::Incursion { target: 2, token: 3 }.incursion_target_token(2), Some(-1));
    /// assert_eq!(ArmadaEvent::Incursion { target: 2, token: -1 }.incursion_target_token(3), Some(5));
    /// assert_eq!(ArmadaEvent::Incursion { target: 2, token: 0 }.incursion_target_token(1), Some(0));
    /// ```
    pub fn incursion_target_token(self, age: u8) -> Option<i8> {
        match self {
            ArmadaEvent::Incursion { token, .. } => Some(match token.signum() {
                1 => -1,
                -1 => crate::city::MilitaryTokens::victory_value(age) as i8,
                _ => 0,
            }),
            _ => None,
        }
    }

    /// A short English name of the kind of event, as on the wire (`armada_` + this):
    /// `construction`, `discard_move`, `free_move`, `island_move`, `explored`,
    /// `explored_nothing`, `top_island`, `incursion_token`, `tax`, `piracy`, `lost`, `immune`,
    /// `stayed_out`, `naval`, `incursion`.
    pub const fn kind(self) -> &'static str {
        match self {
            ArmadaEvent::Construction { .. } => "construction",
            ArmadaEvent::DiscardMove { .. } => "discard_move",
            ArmadaEvent::FreeMove { .. } => "free_move",
            ArmadaEvent::IslandMove { .. } => "island_move",
            ArmadaEvent::Explored(_) => "explored",
            ArmadaEvent::ExploredNothing { .. } => "explored_nothing",
            ArmadaEvent::TopIsland(_) => "top_island",
            ArmadaEvent::IncursionToken { .. } => "incursion_token",
            ArmadaEvent::Tax { .. } => "tax",
            ArmadaEvent::Piracy { .. } => "piracy",
            ArmadaEvent::Lost { .. } => "lost",
            ArmadaEvent::Immune { .. } => "immune",
            ArmadaEvent::StayedOut => "stayed_out",
            ArmadaEvent::Naval { .. } => "naval",
            ArmadaEvent::Incursion { .. } => "incursion",
        }
    }
}

/// The Armada events of one step, as (city, event), before they become log entries.
pub(crate) type Events = arrayvec::ArrayVec<(u8, ArmadaEvent), EVENTS_MAX>;

/// The most Armada events of one step: per city, a naval construction, a card's free move or
/// top island with up to 4 island moves, an incursion token (one card per city and step), so 7;
/// with step 6's tax, piracy and loss, 10.
pub(crate) const EVENTS_MAX: usize = 10 * crate::limits::MAX_PLAYERS;
