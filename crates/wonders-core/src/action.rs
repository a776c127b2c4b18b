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

/// The choices made with a wonder stage, packed in one byte: whether the builder also takes part
/// in the current Age's great project (Edifice, 001 A. 參與計劃), which of a Carthage stage's two
/// effects it takes (edifice.md §5.4), and the Age of the pawn an Ur stage takes from the box when
/// the builder chooses it ("PAWN:any").
///
/// ```
/// use wonders_core::StageExtra;
/// let e = StageExtra::new(true, false, 2);
/// assert!(e.take_part() && !e.alternative());
/// assert_eq!(e.pawn_age(), 2);
/// assert_eq!(StageExtra::NONE, StageExtra::default());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct StageExtra(pub u8);

impl StageExtra {
    /// A plain stage: no participation, the stage's first (or only) effect.
    pub const NONE: StageExtra = StageExtra(0);
    const TAKE_PART: u8 = 1;
    const ALT: u8 = 2;

    /// Packs the three choices; `pawn_age` is 0 (none) or 1 to 3.
    pub const fn new(take_part: bool, alternative: bool, pawn_age: u8) -> StageExtra {
        StageExtra(
            if take_part { Self::TAKE_PART } else { 0 }
                | if alternative { Self::ALT } else { 0 }
                | (pawn_age & 3) << 2,
        )
    }

    /// Whether the builder takes part in the current Age's great project.
    pub const fn take_part(self) -> bool {
        self.0 & Self::TAKE_PART != 0
    }

    /// Whether the builder takes the stage's second effect (Carthage).
    pub const fn alternative(self) -> bool {
        self.0 & Self::ALT != 0
    }

    /// The Age of the pawn chosen for an Ur "PAWN:any" stage, 0 when none.
    pub const fn pawn_age(self) -> u8 {
        (self.0 >> 2) & 3
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
        /// How the stage is paid (with Edifice, `bank` holds the participation cost in coins).
        pay: Payment,
        /// Participation in the great project, and the choice of a Carthage or Ur stage.
        extra: StageExtra,
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
    /// Edifice: discard this structure from the city, to meet a failed project's penalty
    /// (edifice.md §5.3; the owner chooses which card of the colour).
    DiscardBuilt {
        /// The card, built in the city.
        card: CardId,
    },
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
            Action::Pass | Action::ChooseSide { .. } | Action::DiscardBuilt { .. } => None,
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
