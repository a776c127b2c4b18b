//! What one seat may know: its own hand, every city, the sizes of the other hands and of the
//! discard pile, and the public log. Never another hand, the decks of later Ages, the discard
//! pile's contents (except while this seat builds from it), or which cards lie under the wonders.

use crate::action::Action;
use crate::card::CardId;
use crate::catalog::Edition;
use crate::city::City;
use crate::game::{Game, Hand, LogEntry, MAX_PLAYERS, Phase, Used};
use arrayvec::ArrayVec;

/// A seat's view of the game.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    /// The seat this view belongs to.
    pub seat: u8,
    /// The edition.
    pub edition: Edition,
    /// The Age (1–3).
    pub age: u8,
    /// The turn (1–6).
    pub turn: u8,
    /// What the game waits for.
    pub phase: Phase,
    /// This seat's hand.
    pub hand: Hand,
    /// Every city, seated clockwise (they hold no hidden information).
    pub cities: ArrayVec<City, MAX_PLAYERS>,
    /// Cards in each seat's hand.
    pub hand_sizes: ArrayVec<u8, MAX_PLAYERS>,
    /// The city this seat's next action is for (its own, or the Free City).
    pub acting_city: u8,
    /// 2-player variant: the Free City's index among the cities.
    pub free_city: Option<u8>,
    /// 2-player variant: the seat holding the Free City card.
    pub free_city_holder: Option<u8>,
    /// 2-player variant: cards left in the Free City's face-down draw pile.
    pub draw_pile_size: u8,
    /// Whether each seat has chosen in the current step.
    pub chosen: ArrayVec<bool, MAX_PLAYERS>,
    /// Cards in the discard pile.
    pub discard_size: u8,
    /// The discard pile's contents, only while this seat builds from it (Halicarnassus).
    pub discard: Option<Vec<CardId>>,
    /// What happened in the last resolved step.
    pub log: ArrayVec<LogEntry, MAX_PLAYERS>,
    /// The whole public log since the start of the game.
    pub history: Vec<LogEntry>,
    /// The hands this seat has held this Age, by turn (the last is its current hand, as it was
    /// at the start of the turn).
    pub seen_hands: Vec<Hand>,
    /// The cards this seat used this Age, by turn (index 6: Babylon's last card): for its own
    /// city, then for the Free City.
    pub used_cards: Vec<Used>,
    /// The action this seat already chose for its own city in the current step.
    pub own_choice: Option<Action>,
    /// 2-player variant: the seat that chose the Free City's action in the last resolved turn.
    pub free_city_controller: Option<u8>,
}

impl Game {
    /// What `seat` may know now.
    ///
    /// ```
    /// use wonders_core::{Game, Setup};
    /// let game = Game::new(&Setup::new(3, 1)).unwrap();
    /// let view = game.view(1);
    /// assert_eq!(view.hand.as_slice(), game.hand(1));
    /// assert_eq!(view.hand_sizes.as_slice(), &[7, 7, 7]);
    /// ```
    pub fn view(&self, seat: usize) -> View {
        let n = self.players();
        let picking = matches!(self.phase(), Phase::BuildFromDiscard { .. }) && self.must_act(seat);
        View {
            seat: seat as u8,
            edition: self.edition(),
            age: self.age(),
            turn: self.turn(),
            phase: self.phase(),
            hand: self.hand(seat).iter().copied().collect(),
            cities: self.cities().iter().copied().collect(),
            hand_sizes: (0..n).map(|s| self.hand(s).len() as u8).collect(),
            acting_city: self.acting_city(seat) as u8,
            free_city: self.free_city().map(|f| f as u8),
            free_city_holder: self.free_city_holder().map(|h| h as u8),
            draw_pile_size: self.draw_pile_size() as u8,
            chosen: (0..n).map(|s| self.has_chosen(s)).collect(),
            discard_size: self.discard_pile().len() as u8,
            discard: picking.then(|| self.discard_pile().to_vec()),
            log: self.last_log().iter().copied().collect(),
            history: self.history().to_vec(),
            seen_hands: self.seen_hands(seat).to_vec(),
            used_cards: self.used_cards(seat).to_vec(),
            own_choice: self.own_choice(seat),
            free_city_controller: self.free_city_controller().map(|c| c as u8),
        }
    }
}
