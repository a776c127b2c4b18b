//! What a player does with a card.

use crate::armada::Fleet;
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
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Payment {
    /// Coins to the left neighbour (seat i+1).
    pub left: u8,
    /// Coins to the right neighbour (seat i−1).
    pub right: u8,
    /// Coins to the bank (a card's coin cost).
    pub bank: u8,
    /// Set when the construction is free.
    pub free: Option<FreeBy>,
    /// Armada: coins to the 2nd player on each side (East and West Trading Zones,
    /// [`crate::armada::trade`]); [`SecondPay::NONE`] in every other game.
    pub second: SecondPay,
}

/// The derived form, with `second` only when it is not [`SecondPay::NONE`]: the Debug text of
/// every game without a trading-zone purchase stays what it was (the pinned games' fingerprints
/// hash it).
impl std::fmt::Debug for Payment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("Payment");
        d.field("left", &self.left).field("right", &self.right).field("bank", &self.bank);
        d.field("free", &self.free);
        if !self.second.is_none() {
            d.field("second", &self.second);
        }
        d.finish()
    }
}

impl Payment {
    /// A free construction.
    pub const fn free(by: FreeBy) -> Payment {
        Payment { left: 0, right: 0, bank: 0, free: Some(by), second: SecondPay::NONE }
    }

    /// A paid construction: coins to the left and right neighbours and to the bank, nothing to
    /// the 2nd players.
    ///
    /// ```
    /// use wonders_core::Payment;
    /// let p = Payment::paid(2, 1, 3);
    /// assert_eq!((p.left, p.right, p.bank, p.free, p.total()), (2, 1, 3, None, 6));
    /// ```
    pub const fn paid(left: u8, right: u8, bank: u8) -> Payment {
        Payment { left, right, bank, free: None, second: SecondPay::NONE }
    }

    /// Total coins leaving the treasury (the 2nd players' coins included).
    pub const fn total(&self) -> u16 {
        self.left as u16
            + self.right as u16
            + self.bank as u16
            + self.second.left() as u16
            + self.second.right() as u16
    }
}

/// Armada: the coins a payment gives the 2nd player on the left (seat i+2, West Trading Zone)
/// and on the right (seat i−2, East Trading Zone), 1 coin per unit bought (armada.md §5), packed
/// in one byte so that [`Action`] stays 8 bytes: the low nibble to the 2nd left, the high nibble
/// to the 2nd right (each at most 15; the cards allow 2 and 1).
///
/// ```
/// use wonders_core::SecondPay;
/// let s = SecondPay::new(2, 1);
/// assert_eq!((s.left(), s.right(), s.is_none()), (2, 1, false));
/// assert!(SecondPay::NONE.is_none());
/// assert_eq!(SecondPay::new(20, 0).left(), 15, "clamped");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SecondPay(pub u8);

impl SecondPay {
    /// Nothing to the 2nd players.
    pub const NONE: SecondPay = SecondPay(0);

    /// Packs the coins to the 2nd left and 2nd right (each clamped to 15).
    pub const fn new(left: u8, right: u8) -> SecondPay {
        let l = if left > 15 { 15 } else { left };
        let r = if right > 15 { 15 } else { right };
        SecondPay(l | r << 4)
    }

    /// Coins to the 2nd player on the left (seat i+2).
    pub const fn left(self) -> u8 {
        self.0 & 0x0f
    }

    /// Coins to the 2nd player on the right (seat i−2).
    pub const fn right(self) -> u8 {
        self.0 >> 4
    }

    /// Whether nothing goes to the 2nd players.
    pub const fn is_none(self) -> bool {
        self.0 == 0
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

    /// Armada: the same choices with a naval construction of `fleet` paid with the stage
    /// (armada.md §2.3: the board's wonder fleet, or any fleet with Lost Isle).
    ///
    /// ```
    /// use wonders_core::StageExtra;
    /// use wonders_core::armada::Fleet;
    /// let e = StageExtra::NONE.with_naval(Some(Fleet::Blue));
    /// assert_eq!(e.naval(), Some(Fleet::Blue));
    /// assert_eq!(StageExtra::NONE.naval(), None);
    /// ```
    pub const fn with_naval(self, fleet: Option<Fleet>) -> StageExtra {
        StageExtra((self.0 & 0x0f) | (Naval::fleet_code(fleet) << 4))
    }

    /// Armada: the fleet whose ship the stage moves (a naval construction), if any.
    pub const fn naval(self) -> Option<Fleet> {
        Naval::code_fleet(self.0 >> 4)
    }
}

/// Armada: what a card built from hand does on the shipyard (armada.md §2.3), in one byte: the
/// naval construction paid with the card (its colour's fleet) and the ship that a free move of
/// the card (blue Armada cards) advances, the player choosing it with the action.
///
/// ```
/// use wonders_core::Naval;
/// use wonders_core::armada::Fleet;
/// let n = Naval::new(Some(Fleet::Blue), Some(Fleet::Green));
/// assert_eq!((n.construction(), n.free_move()), (Some(Fleet::Blue), Some(Fleet::Green)));
/// assert_eq!(Naval::NONE, Naval::default());
/// assert_eq!(std::mem::size_of::<Naval>(), 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Naval(pub u8);

impl Naval {
    /// No naval construction and no free move: every build of a game without Armada.
    pub const NONE: Naval = Naval(0);

    const fn fleet_code(f: Option<Fleet>) -> u8 {
        match f {
            Some(f) => f as u8 + 1,
            None => 0,
        }
    }

    const fn code_fleet(code: u8) -> Option<Fleet> {
        match code & 7 {
            1 => Some(Fleet::Red),
            2 => Some(Fleet::Yellow),
            3 => Some(Fleet::Blue),
            4 => Some(Fleet::Green),
            _ => None,
        }
    }

    /// Packs a naval construction and a free move.
    pub const fn new(construction: Option<Fleet>, free_move: Option<Fleet>) -> Naval {
        Naval(Self::fleet_code(construction) | Self::fleet_code(free_move) << 3)
    }

    /// The fleet whose next step is paid with the card, if any.
    pub const fn construction(self) -> Option<Fleet> {
        Self::code_fleet(self.0)
    }

    /// The ship a free move of the card advances, if any.
    pub const fn free_move(self) -> Option<Fleet> {
        Self::code_fleet(self.0 >> 3)
    }

    /// Whether nothing is chosen.
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }
}

/// One decision of one player.
///
/// ```
/// use wonders_core::{Action, CardId, Payment};
/// use wonders_core::Naval;
/// let a = Action::Build { card: CardId(3), pay: Payment { left: 2, ..Payment::default() }, naval: Naval::NONE };
/// assert_eq!(a.card(), Some(CardId(3)));
/// assert_eq!(std::mem::size_of::<Action>(), 8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Build the card as a structure in the city (002 2.a).
    Build {
        /// The card from hand.
        card: CardId,
        /// How it is paid (with Armada, the naval construction's cost included: one purchase).
        pay: Payment,
        /// Armada: the naval construction and free move chosen with it ([`Naval::NONE`] without).
        naval: Naval,
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
    /// Armada: discard the card for a free 1-step move of the yellow ship instead of 3 coins
    /// (armada.md §2.4).
    DiscardYellow {
        /// The card from hand.
        card: CardId,
    },
    /// Halicarnassus: build this card from the discard pile for free.
    BuildDiscarded {
        /// The card from the discard pile.
        card: CardId,
        /// Armada: the ship the card's free move advances (a blue Armada card: any ship below
        /// the top step, 000 船廠…「自由選擇自己的一隻船隻」); `None` for every other card, and
        /// when every ship is on its top step.
        free_move: Option<Fleet>,
    },
    /// Halicarnassus: decline the optional build from the discard pile.
    Pass,
    /// Edifice: discard this structure from the city, to meet a failed project's penalty
    /// (edifice.md §5.3; the owner chooses which card of the colour).
    DiscardBuilt {
        /// The card, built in the city.
        card: CardId,
    },
    /// Armada: keep this island of the ones dealt in an exploration (armada.md §2.6); `moves`
    /// names the ships its free moves advance, one bit per [`Fleet`] (White-Surf Port: 2
    /// different ships, Tempest Archipelago: 3; 0 for the other islands).
    ChooseIsland {
        /// The island kept.
        island: crate::armada::IslandId,
        /// The ships its free moves advance (bit `fleet as u8`).
        moves: u8,
    },
    /// Armada, Forgotten Port: at this Age end, stay out of the naval conflict (`true`: the
    /// city's strength is ignored and it takes no token) or take part (armada.md §6).
    StayOutOfNaval {
        /// Whether the city stays out.
        stay_out: bool,
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
            | Action::DiscardYellow { card }
            | Action::BuildDiscarded { card, .. } => Some(card),
            Action::Pass
            | Action::ChooseSide { .. }
            | Action::DiscardBuilt { .. }
            | Action::ChooseIsland { .. }
            | Action::StayOutOfNaval { .. } => None,
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
