//! What a player does with a card.

use crate::card::CardId;
use crate::catalog::Side;

/// Why a construction costs nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FreeBy {
    /// A chain parent is in the city (002 免費建築（連鎖）).
    Chain,
    /// Olympia A stage 2: the one free build of this Age (base-1e.md §4.3).
    FreeBuild,
    /// 2nd edition, Olympia Day: the first card of its colour.
    FirstOfColour,
    /// 2nd edition, Olympia Night: the first card of the Age.
    FirstOfAge,
    /// 2nd edition, Olympia Night: the last card of the Age.
    LastOfAge,
}

/// How a construction is paid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Payment {
    /// Coins to the left neighbour (seat i+1).
    pub left: u8,
    /// Coins to the right neighbour (seat i−1).
    pub right: u8,
    /// Coins to the bank (a card's coin cost).
    pub bank: u8,
    /// Set when the construction is free.
    pub free: Option<FreeBy>,
}

impl Payment {
    /// A free construction.
    pub const fn free(by: FreeBy) -> Payment {
        Payment { left: 0, right: 0, bank: 0, free: Some(by) }
    }

    /// Total coins leaving the treasury.
    pub const fn total(&self) -> u16 {
        self.left as u16 + self.right as u16 + self.bank as u16
    }
}

/// One decision of one player.
///
/// ```
/// use wonders_core::{Action, CardId, Payment};
/// let a = Action::Build { card: CardId(3), pay: Payment { left: 2, ..Payment::default() } };
/// assert_eq!(a.card(), Some(CardId(3)));
/// assert_eq!(std::mem::size_of::<Action>(), 6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Build the card as a structure in the city (002 2.a).
    Build {
        /// The card from hand.
        card: CardId,
        /// How it is paid.
        pay: Payment,
    },
    /// Use the card to build the next wonder stage (002 2.b).
    Wonder {
        /// The card from hand, tucked face down under the board.
        card: CardId,
        /// How the stage is paid.
        pay: Payment,
    },
    /// Discard the card for 3 coins (002 2.c).
    Discard {
        /// The card from hand.
        card: CardId,
    },
    /// Halicarnassus: build this card from the discard pile for free.
    BuildDiscarded {
        /// The card from the discard pile.
        card: CardId,
    },
    /// Halicarnassus: decline the optional build from the discard pile.
    Pass,
    /// 2nd edition: choose the side of the wonder board drawn at random.
    ChooseSide {
        /// Day (A) or Night (B).
        side: Side,
    },
}

impl Action {
    /// The card the action uses, if any.
    pub const fn card(&self) -> Option<CardId> {
        match *self {
            Action::Build { card, .. }
            | Action::Wonder { card, .. }
            | Action::Discard { card }
            | Action::BuildDiscarded { card } => Some(card),
            Action::Pass | Action::ChooseSide { .. } => None,
        }
    }

    /// The payment, for constructions from hand.
    pub const fn payment(&self) -> Option<Payment> {
        match *self {
            Action::Build { pay, .. } | Action::Wonder { pay, .. } => Some(pay),
            _ => None,
        }
    }
}
