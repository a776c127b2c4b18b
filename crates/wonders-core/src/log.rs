//! The public log: what each city did in a step, as every player sees it ([`LogEntry`]), and the
//! cards a seat used in a turn ([`Used`], which only that seat knows). The conductor
//! (the `game` module) and the expansions ([`crate::edifice`], [`crate::armada`]) write entries;
//! the views, the records and the samplers read them.

use crate::action::Payment;
use crate::armada;
use crate::card::CardId;
use crate::catalog::Side;
use crate::edifice::EdificeEvent;
use arrayvec::ArrayVec;

/// The cards one seat used in one turn (its own, and the Free City's when it held its card).
pub type Used = ArrayVec<CardId, 2>;

/// What a seat did, as everyone sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Played {
    /// Chose this side of its wonder board.
    ChoseSide(Side),
    /// Built this card.
    Built(CardId),
    /// Built this wonder stage (1-based); the card used stays hidden.
    Stage(u8),
    /// Discarded a card (which one stays hidden).
    Discarded,
    /// Built this card from the discard pile.
    BuiltDiscarded(CardId),
    /// Declined to build from the discard pile.
    Passed,
    /// Edifice: what happened with the great project of the entry's Age.
    Edifice(EdificeEvent),
    /// Armada: a ship moved, an island came into the city, a tax, a piracy, a coin loss, a naval
    /// or incursion conflict ([`crate::armada::log`]).
    Armada(armada::ArmadaEvent),
}

/// One entry of the public log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LogEntry {
    /// The Age.
    pub age: u8,
    /// The turn (1–6), or 7 for Babylon's last card.
    pub turn: u8,
    /// The city that acted (in the 2-player variant, the Free City is city 2).
    pub seat: u8,
    /// What it did.
    pub played: Played,
    /// What it paid (zero for discards).
    pub pay: Payment,
    /// Coins it received at the end of the step (trade income included).
    pub income: u16,
}
