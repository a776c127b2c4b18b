//! What one seat may know: its own hand, every city, the sizes of the other hands and of the
//! discard pile, and the public log. Never another hand, the decks of later Ages, the discard
//! pile's contents (except while this seat builds from it), or which cards lie under the wonders.
//! In the team variant, teammates may show their hands (000 團隊遊戲規則): a seat also sees its
//! teammate's current hand.

use crate::action::Action;
use crate::card::CardId;
use crate::catalog::Edition;
use crate::city::City;
use crate::edifice::EdificeState;
use crate::hand::Hand;
use crate::limits::{LOG_MAX, MAX_PLAYERS};
use crate::log::{LogEntry, Used};
use crate::state::{Game, Phase};
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
    pub log: ArrayVec<LogEntry, LOG_MAX>,
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
    /// Edifice: the great projects, their pawns left and outcomes (public; each city's pawns and
    /// debt are in its [`City::edifice`]).
    pub edifice: Option<EdificeState>,
    /// The team variant is played (seats 2k and 2k+1 together).
    pub teams: bool,
    /// Team variant: the teammate's current hand ("向隊友展示自己的手牌", 000 團隊遊戲規則).
    pub teammate_hand: Option<Hand>,
    /// Armada: shipyards and islands (public), island deck sizes and the islands this seat has
    /// seen ([`crate::armada::state::ArmadaView`]); the decks' contents stay hidden.
    pub armada: Option<crate::armada::state::ArmadaView>,
    /// The game's data (the edition's, or extended with an expansion's boards and projects):
    /// what a bot reads card, wonder and project definitions from.
    pub data: DataRef,
}

/// The data a game is played on, compared by identity.
#[derive(Clone, Copy)]
pub struct DataRef(pub &'static crate::catalog::Catalog);

impl PartialEq for DataRef {
    fn eq(&self, o: &DataRef) -> bool {
        std::ptr::eq(self.0, o.0)
    }
}

impl std::fmt::Debug for DataRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DataRef({} edition, {} wonders)", self.0.edition, self.0.wonders.len())
    }
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
        let mut view = self.empty_view();
        self.view_into(seat, &mut view);
        view
    }

    /// A view with nothing in it yet (no seat's information), to fill with [`Game::view_into`].
    /// Building it allocates nothing.
    ///
    /// ```
    /// use wonders_core::{Game, Setup};
    /// let game = Game::new(&Setup::new(3, 1)).unwrap();
    /// let mut view = game.empty_view();
    /// assert!(view.hand.is_empty() && view.cities.is_empty());
    /// game.view_into(2, &mut view);
    /// assert_eq!(view, game.view(2));
    /// ```
    pub fn empty_view(&self) -> View {
        View {
            seat: 0,
            edition: self.edition(),
            age: 0,
            turn: 0,
            phase: Phase::Over,
            hand: Hand::new(),
            cities: ArrayVec::new(),
            hand_sizes: ArrayVec::new(),
            acting_city: 0,
            free_city: None,
            free_city_holder: None,
            draw_pile_size: 0,
            chosen: ArrayVec::new(),
            discard_size: 0,
            discard: None,
            log: ArrayVec::new(),
            history: Vec::new(),
            seen_hands: Vec::new(),
            used_cards: Vec::new(),
            own_choice: None,
            free_city_controller: None,
            edifice: None,
            teams: false,
            teammate_hand: None,
            armada: None,
            data: DataRef(self.catalog()),
        }
    }

    /// [`Game::view`] without the game's whole history and the hands seen this Age (both left
    /// empty): for a reader that keeps the history itself (the server sends each log entry
    /// once), so they are not copied only to be dropped.
    ///
    /// ```
    /// use wonders_core::{Game, Setup};
    /// let mut game = Game::new(&Setup::new(3, 1)).unwrap();
    /// for _ in 0..2 {
    ///     for seat in 0..3 {
    ///         let action = game.legal_actions(seat)[0];
    ///         game.submit(seat, action).unwrap();
    ///     }
    /// }
    /// let mut full = game.view(1);
    /// assert!(!full.history.is_empty() && !full.seen_hands.is_empty());
    /// full.history.clear();
    /// full.seen_hands.clear();
    /// assert_eq!(game.view_without_history(1), full);
    /// ```
    pub fn view_without_history(&self, seat: usize) -> View {
        let mut view = self.empty_view();
        self.fill_view(seat, &mut view, false);
        view
    }

    /// Refills `view` with what `seat` may know now, reusing its buffers: a game loop that keeps
    /// one view per seat allocates nothing once they have grown.
    pub fn view_into(&self, seat: usize, view: &mut View) {
        self.fill_view(seat, view, true);
    }

    /// [`Game::view_into`]; `history`: also the whole history and the hands seen this Age.
    fn fill_view(&self, seat: usize, view: &mut View, history: bool) {
        let n = self.players();
        let picking = matches!(self.phase(), Phase::BuildFromDiscard { .. }) && self.must_act(seat);
        view.seat = seat as u8;
        view.edition = self.edition();
        view.age = self.age();
        view.turn = self.turn();
        view.phase = self.phase();
        view.hand.clear();
        view.hand.extend(self.hand(seat).iter().copied());
        view.cities.clear();
        view.cities.extend(self.cities().iter().copied());
        view.hand_sizes.clear();
        view.hand_sizes.extend((0..n).map(|s| self.hand(s).len() as u8));
        view.acting_city = self.acting_city(seat) as u8;
        view.free_city = self.free_city().map(|f| f as u8);
        view.free_city_holder = self.free_city_holder().map(|h| h as u8);
        view.draw_pile_size = self.draw_pile_size() as u8;
        view.chosen.clear();
        view.chosen.extend((0..n).map(|s| self.has_chosen(s)));
        view.discard_size = self.discard_pile().len() as u8;
        if picking {
            let d = view.discard.get_or_insert_with(Vec::new);
            d.clear();
            d.extend_from_slice(self.discard_pile());
        } else {
            view.discard = None;
        }
        view.log.clear();
        view.log.extend(self.last_log().iter().copied());
        view.history.clear();
        view.seen_hands.clear();
        if history {
            view.history.extend_from_slice(self.history());
            view.seen_hands.extend(self.seen_hands(seat).iter().cloned());
        }
        view.used_cards.clear();
        view.used_cards.extend(self.used_cards(seat).iter().cloned());
        view.own_choice = self.own_choice(seat);
        view.free_city_controller = self.free_city_controller().map(|c| c as u8);
        view.edifice = self.edifice().copied();
        view.teams = self.teams();
        if self.teams() && seat < n {
            let hand = view.teammate_hand.get_or_insert_with(Hand::new);
            hand.clear();
            hand.extend(self.hand(crate::teams::teammate(seat)).iter().copied());
        } else {
            view.teammate_hand = None;
        }
        view.armada = self.armada().map(|a| a.view(seat, self.cities().len()));
        view.data = DataRef(self.catalog());
    }
}
