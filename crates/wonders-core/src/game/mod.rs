//! A whole game: setup from a seed, simultaneous choices, turn resolution, the ends of the Ages.
//!
//! The flow follows rulebook 002 (遊戲概覽, 時代流程概覽, 時代結束) and base-1e.md §4:
//! - each Age, every player gets 7 cards; 6 turns; in each, everyone chooses a card and an
//!   action at once ([`Game::submit`]), then all actions resolve together;
//! - resolution: payments leave the treasuries, every card is placed in every city, then the
//!   immediate effects pay out (so Vineyard and Bazar see the neighbours' cards of the same turn,
//!   base-1e.md §4.7), then coins received (trade income, discards, effects) reach the treasuries:
//!   coins received in a turn are never spendable in it (§4.1 item 6);
//! - hands pass left in Ages I and III, right in Age II; the 7th card is discarded without coins;
//! - Babylon B plays the Age's last card in an extra step after the 6th turn, before the other
//!   last cards are discarded (§4.5; the convention of the JB engine, the rulebook is silent);
//! - Halicarnassus builds from the discard pile at the end of the turn its stage is built, after
//!   that turn's discards, before the hands pass and before military (§4.4);
//! - military at the end of each Age (+1/+3/+5, −1), then the next Age or the end;
//! - with 2 players (1st edition), a third city, the Free City, is played in turn by the holder
//!   of the Free City card (002 2人變體規則; base-1e.md §5): it draws a card from the Free City's
//!   pile, chooses for its own city and then for the Free City; the two hands swap each turn.
//!   All three actions resolve together, like any turn (base-1e.md §5, notes for the engine).
//! - with the Edifice expansion, [`crate::edifice`] is called at named points: setup, the stage
//!   actions ("stage" and "stage and take part"), resolution step 2½ (pawns, completion and
//!   rewards, after every card is placed and before the immediate effects), and the end of the
//!   Age before military conflicts (failure, penalties, debt, [`Phase::EdificeDiscard`]).
//! - with the Armada expansion, [`crate::armada::turn`] is called at named points too: setup
//!   (the checks, the Armada cards dealt, the shipyards), the hand step's naval constructions
//!   and trading zones, resolution step 2¾ (ships, spaces, islands), the explorations and island
//!   moves after it, the coin losses once the turn's builds from the discard pile are done, and
//!   the end of the Age (Forgotten Port's choice, incursions, the naval conflict).
//!
//! The conductor is split by phase, one file each, every one a part of `impl Game`:
//! - `setup.rs`: a game from a [`Setup`] and its seed, and the position builders;
//! - `legal.rs`: the legal actions and every way to pay for them;
//! - `check.rs`: checking an action, and why one is refused ([`ActionError`]);
//! - `resolve.rs`: submitting and taking back choices, and resolving a turn;
//! - `age_end.rs`: the steps after a resolution, the end of an Age, the scores and ranks;
//! - this file: what a game answers (who is to act, the hands, the logs).
//!
//! What the expansions and the readers of a game share with it lies below the conductor: the
//! state ([`crate::state`]), the limits ([`crate::limits`]), the seating helpers
//! ([`crate::seating`]), the log types ([`crate::log`]) and the errors ([`crate::errors`]),
//! re-exported here so that `game::MAX_PLAYERS`, `game::left_of` and the rest stay where they were.

use crate::action::Action;
use crate::armada::ArmadaState;
use crate::card::CardId;
use crate::catalog::{Catalog, Edition};
use crate::city::City;
use arrayvec::ArrayVec;

pub use crate::errors::{ActionError, SetupError};
pub use crate::hand::{HAND_MAX, Hand};
pub use crate::limits::{
    BASE_LOG_MAX, DISCARD_COINS, HAND_SIZE, HISTORY_MAX, LAST_TURN, LOG_MAX, MAX_PLAYERS, MAX_TURNS,
    START_COINS,
};
pub use crate::log::{LogEntry, Played, Used};
pub use crate::seating::{count, left_of, right_of};
pub use crate::state::{Game, Phase, Setup, WonderDeal};

mod age_end;
mod check;
mod legal;
mod resolve;
mod setup;

impl Game {
    /// The game's data.
    pub fn catalog(&self) -> &'static Catalog {
        self.catalog
    }

    /// The edition.
    pub fn edition(&self) -> Edition {
        self.catalog.edition
    }

    /// The seed of the deal.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Number of players (seats): 2 to 7, or 8 with Armada.
    pub fn players(&self) -> usize {
        self.n() - self.free_city.is_some() as usize
    }

    /// The Free City's index among the cities, in the 2-player variant.
    pub fn free_city(&self) -> Option<usize> {
        self.free_city.map(|f| f as usize)
    }

    /// The seat holding the Free City card (2-player variant).
    pub fn free_city_holder(&self) -> Option<usize> {
        self.free_city.map(|_| self.holder as usize)
    }

    /// Cards left in the Free City's face-down draw pile (2-player variant).
    pub fn draw_pile_size(&self) -> usize {
        self.free_city.map_or(0, |f| self.hands[f as usize].len())
    }

    /// The current Age, 1 to 3.
    pub fn age(&self) -> u8 {
        self.age
    }

    /// The current turn of the Age, 1 to 6 (to 7 with Armada's 8-card hands).
    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// The Armada state (shipyards, islands, island decks), when the game is played with Armada.
    /// The island decks are hidden information: a seat reads its [`crate::View`] instead.
    pub fn armada(&self) -> Option<&ArmadaState> {
        self.armada.as_deref()
    }

    /// Turns in each Age: 6, or 7 with Armada's 8-card hands (6 with 8 players; armada.md §2.2).
    /// Babylon's last card is logged as turn `turns() + 1`.
    pub fn turns(&self) -> u8 {
        self.last_turn
    }

    /// What the game waits for.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether the team variant is played (seats 2k and 2k+1 together, [`crate::teams`]).
    pub fn teams(&self) -> bool {
        self.teams
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Every city, seated clockwise (the Free City last, in the 2-player variant).
    pub fn cities(&self) -> &[City] {
        &self.cities[..self.n()]
    }

    /// One city.
    pub fn city(&self, city: usize) -> &City {
        &self.cities[city]
    }

    /// A seat's hand (hidden from the others).
    pub fn hand(&self, seat: usize) -> &[CardId] {
        &self.hands[seat]
    }

    /// The discard pile (face down: only its size is public).
    pub fn discard_pile(&self) -> &[CardId] {
        &self.discard
    }

    /// What happened in the last resolved step.
    pub fn last_log(&self) -> &[LogEntry] {
        match self.armada.as_deref() {
            // Armada's longer step log is kept with the Armada state.
            Some(a) => &a.log,
            None => &self.log,
        }
    }

    /// Starts a new step's log.
    fn clear_log(&mut self) {
        self.log.clear();
        if let Some(a) = self.armada.as_deref_mut() {
            a.log.clear();
        }
    }

    /// Whether `seat` has chosen everything it must in the current simultaneous step.
    pub fn has_chosen(&self, seat: usize) -> bool {
        seat < self.players()
            && !self.must_act(seat)
            && matches!(self.phase, Phase::Choose | Phase::ChooseSide)
    }

    /// The seats the game waits for.
    pub fn to_act(&self) -> ArrayVec<usize, MAX_PLAYERS> {
        let mut seats = ArrayVec::new();
        for seat in 0..self.players() {
            if self.must_act(seat) {
                seats.push(seat);
            }
        }
        seats
    }

    /// Whether `seat` must act now.
    #[inline]
    pub fn must_act(&self, seat: usize) -> bool {
        if seat >= self.players() {
            return false;
        }
        match self.phase {
            Phase::ChooseSide => self.chosen[seat].is_none(),
            Phase::Choose => {
                self.chosen[seat].is_none()
                    || self
                        .free_city
                        .is_some_and(|f| seat == self.holder as usize && self.chosen[f as usize].is_none())
            }
            Phase::PlayLastCard { city } | Phase::BuildFromDiscard { city } => {
                self.controller_of(city as usize) == seat
            }
            Phase::EdificeDiscard { city }
            | Phase::Explore { city }
            | Phase::IslandMoves { city }
            | Phase::NavalOptOut { city } => city as usize == seat,
            Phase::Over => false,
        }
    }

    /// The seat that decides for `city` in a one-city step.
    fn controller_of(&self, city: usize) -> usize {
        if Some(city as u8) == self.free_city { self.controller as usize } else { city }
    }

    /// The city `seat`'s next action is for: its own, or the Free City once the holder of the
    /// Free City card has chosen for its own city (002: own card first, then the Free City's).
    pub fn acting_city(&self, seat: usize) -> usize {
        match (self.phase, self.free_city) {
            (Phase::Choose, Some(f)) if seat == self.holder as usize && self.chosen[seat].is_some() => {
                f as usize
            }
            (
                Phase::PlayLastCard { city }
                | Phase::BuildFromDiscard { city }
                | Phase::EdificeDiscard { city }
                | Phase::Explore { city }
                | Phase::IslandMoves { city }
                | Phase::NavalOptOut { city },
                _,
            ) => city as usize,
            _ => seat,
        }
    }

    /// The cards `seat` may choose from now: its hand, less the card it already chose for its
    /// own city when it now chooses for the Free City.
    fn acting_hand(&self, seat: usize) -> Hand {
        let mut hand = self.hands[seat];
        if self.acting_city(seat) != seat
            && let Some(card) = self.chosen[seat].and_then(|a| a.card())
        {
            hand.take(card);
        }
        hand
    }

    pub(crate) fn record(&mut self, entry: LogEntry) {
        match self.armada.as_deref_mut() {
            // Armada's longer logs are kept with the Armada state (the base game's do not grow).
            Some(a) => {
                let _ = a.log.try_push(entry);
                let _ = a.history.try_push(entry);
            }
            None => {
                let _ = self.log.try_push(entry);
                let _ = self.history.try_push(entry);
            }
        }
    }

    /// The whole public log: every step's [`LogEntry`] since the start.
    pub fn history(&self) -> &[LogEntry] {
        match self.armada.as_deref() {
            Some(a) => &a.history,
            None => &self.history,
        }
    }

    /// The cards `seat` used this Age, turn by turn (index 6: Babylon's last card).
    pub fn used_cards(&self, seat: usize) -> &[Used] {
        if seat >= self.players() {
            return &[];
        }
        &self.used[seat]
    }

    /// The seat that chose the Free City's action in the last resolved turn (2-player variant).
    pub fn free_city_controller(&self) -> Option<usize> {
        self.free_city.map(|_| self.controller as usize)
    }

    /// The action `seat` chose for its own city in the current step, if it has chosen.
    pub fn own_choice(&self, seat: usize) -> Option<Action> {
        if seat >= self.players() { None } else { self.chosen[seat] }
    }

    /// The action chosen for the Free City in the current step, not yet resolved (2-player
    /// variant): known only to the holder of the Free City card, who chose it.
    pub fn free_city_choice(&self) -> Option<Action> {
        self.free_city.and_then(|f| self.chosen[f as usize])
    }

    /// The hands `seat` has held this Age, turn by turn up to the current turn: what it has
    /// legitimately seen (so it knows which cards went to which neighbour).
    pub fn seen_hands(&self, seat: usize) -> &[Hand] {
        let t = (self.turn as usize).clamp(1, self.last_turn as usize);
        if seat >= self.players() || matches!(self.phase, Phase::ChooseSide) {
            return &[];
        }
        &self.memory[seat][..t]
    }

    /// The hands dealt at setup for a later Age (2 or 3): hidden from every player.
    pub fn later_hand(&self, age: u8, seat: usize) -> &[CardId] {
        match age.checked_sub(2).and_then(|i| self.later_hands.get(i as usize)) {
            Some(h) => &h[seat],
            None => &[],
        }
    }
}
