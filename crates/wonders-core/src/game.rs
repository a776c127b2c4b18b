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
//!   that turn's discards, before military (§4.4);
//! - military at the end of each Age (+1/+3/+5, −1), then the next Age or the end.

use crate::action::{Action, FreeBy, Payment};
use crate::card::{CardId, Colour};
use crate::catalog::{Catalog, Edition, Side, WonderId};
use crate::city::{City, MilitaryTokens, Production};
use crate::effect::{Counted, Effect, Scope};
use crate::payment::{self, Market, Options};
use crate::score::{self, Score};
use arrayvec::ArrayVec;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The most players (cities) a game can hold.
pub const MAX_PLAYERS: usize = 8;
/// The most cards a hand can hold.
pub const HAND_MAX: usize = 9;
/// Cards dealt to each player per Age.
pub const HAND_SIZE: usize = 7;
/// Coins each city starts with (002 遊戲準備, 錢幣).
pub const START_COINS: u16 = 3;
/// Turns in an Age: the 7th card of each hand is not played (002 特殊情况：第六個回合).
pub const LAST_TURN: usize = HAND_SIZE - 1;
/// Coins for discarding a card (002 2.c).
pub const DISCARD_COINS: u16 = 3;

/// A hand of cards.
pub type Hand = ArrayVec<CardId, HAND_MAX>;

/// How wonder boards are given out.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum WonderDeal {
    /// Random boards, each on a random side (002 奇蹟: the drawn wonder card decides both).
    #[default]
    Random,
    /// Random boards, all on this side (side A is recommended for first games).
    RandomBoards(Side),
    /// Chosen by the players ("if all agree"), one per seat; `None` draws the side at random.
    Chosen(Vec<(WonderId, Option<Side>)>),
}

/// Everything needed to start a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The edition.
    pub edition: Edition,
    /// Number of players, 3 to 7.
    pub players: u8,
    /// The seed of the deal.
    pub seed: u64,
    /// How wonders are given out.
    pub wonders: WonderDeal,
}

impl Setup {
    /// A 1st-edition game with random wonders.
    ///
    /// ```
    /// use wonders_core::{Game, Setup};
    /// let game = Game::new(&Setup::new(4, 42)).unwrap();
    /// assert_eq!(game.players(), 4);
    /// assert_eq!(game.hand(0).len(), 7);
    /// ```
    pub fn new(players: u8, seed: u64) -> Setup {
        Setup { edition: Edition::First, players, seed, wonders: WonderDeal::Random }
    }
}

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The player count is not supported.
    #[error("{0} players: this edition plays with 3 to 7")]
    Players(u8),
    /// Chosen wonders are wrong.
    #[error("wonder choice: {0}")]
    Wonders(String),
    /// The edition is not playable yet.
    #[error("the {0} edition is not playable yet")]
    Edition(Edition),
}

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Every player chooses a card and an action, all at once.
    Choose,
    /// Babylon B: this seat plays the last card of the Age.
    PlayLastCard {
        /// The seat to act.
        seat: u8,
    },
    /// Halicarnassus: this seat may build a card from the discard pile.
    BuildFromDiscard {
        /// The seat to act.
        seat: u8,
    },
    /// The game is over.
    Over,
}

/// What a seat did, as everyone sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Played {
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
}

/// One entry of the public log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LogEntry {
    /// The Age.
    pub age: u8,
    /// The turn (1–6), or 7 for Babylon's last card.
    pub turn: u8,
    /// The seat that acted.
    pub seat: u8,
    /// What it did.
    pub played: Played,
    /// What it paid (zero for discards).
    pub pay: Payment,
    /// Coins it received at the end of the step (trade income included).
    pub income: u16,
}

/// Why an action was refused. Nothing changes when an action is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// No such seat.
    #[error("there is no seat {0} in this game")]
    NoSuchSeat(usize),
    /// This seat is not to act now.
    #[error("seat {seat} is not to act now: {waiting}")]
    NotYourTurn {
        /// The seat.
        seat: usize,
        /// Who the game waits for.
        waiting: String,
    },
    /// This seat already chose this turn.
    #[error("seat {0} has already chosen this turn")]
    AlreadyChosen(usize),
    /// The action does not fit the current step.
    #[error("{0}")]
    WrongKind(String),
    /// The card is not in the seat's hand (or the discard pile).
    #[error("{card} is not {place}")]
    CardNotAvailable {
        /// The card's name.
        card: String,
        /// Where it was looked for.
        place: &'static str,
    },
    /// A structure of that name is already in the city.
    #[error("the city already has a {0} (no two structures of the same name)")]
    Duplicate(String),
    /// The wonder is complete.
    #[error("every stage of the wonder is already built")]
    WonderComplete,
    /// The payment is not one of the legal ways to pay.
    #[error("{what} cannot be paid that way; legal payments: {options}")]
    BadPayment {
        /// What was being built.
        what: String,
        /// The legal payments.
        options: String,
    },
}

/// A game in progress. Cloning it is cheap (no heap data), so searches can copy it freely.
#[derive(Clone)]
pub struct Game {
    catalog: &'static Catalog,
    seed: u64,
    players: u8,
    age: u8,
    turn: u8,
    phase: Phase,
    cities: [City; MAX_PLAYERS],
    hands: [Hand; MAX_PLAYERS],
    later_hands: [[Hand; MAX_PLAYERS]; 2],
    discard: ArrayVec<CardId, 160>,
    chosen: [Option<Action>; MAX_PLAYERS],
    picks: [u8; MAX_PLAYERS],
    age_ending: bool,
    age_end_due: bool,
    log: ArrayVec<LogEntry, MAX_PLAYERS>,
    /// What each city offered for sale at the start of the current turn (2nd edition: nothing
    /// can be bought from a card built in the same turn, which matters for Babylon's last card).
    sale_at_turn_start: [Production; MAX_PLAYERS],
}

impl PartialEq for Game {
    /// Two games are equal when they use the same data and every part of their state is equal.
    fn eq(&self, o: &Game) -> bool {
        std::ptr::eq(self.catalog, o.catalog)
            && self.seed == o.seed
            && self.players == o.players
            && self.age == o.age
            && self.turn == o.turn
            && self.phase == o.phase
            && self.cities == o.cities
            && self.hands == o.hands
            && self.later_hands == o.later_hands
            && self.discard == o.discard
            && self.chosen == o.chosen
            && self.picks == o.picks
            && self.age_ending == o.age_ending
            && self.age_end_due == o.age_end_due
            && self.log == o.log
            && self.sale_at_turn_start == o.sale_at_turn_start
    }
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game")
            .field("edition", &self.catalog.edition)
            .field("seed", &self.seed)
            .field("players", &self.players)
            .field("age", &self.age)
            .field("turn", &self.turn)
            .field("phase", &self.phase)
            .field("cities", &self.cities())
            .field("hands", &&self.hands[..self.players()])
            .field("discard", &self.discard)
            .finish_non_exhaustive()
    }
}

/// The left neighbour of `seat` among `n` (seat i+1; base-1e.md §4.9 "Passing").
#[inline]
pub const fn left_of(seat: usize, n: usize) -> usize {
    (seat + 1) % n
}

/// The right neighbour of `seat` among `n` (seat i−1).
#[inline]
pub const fn right_of(seat: usize, n: usize) -> usize {
    (seat + n - 1) % n
}

impl Game {
    /// Sets up a game: wonders, coins, and the three Ages' hands, all from the seed.
    pub fn new(setup: &Setup) -> Result<Game, SetupError> {
        Game::with_catalog(Catalog::get(setup.edition), setup)
    }

    /// Sets up a game on a given catalog (for data replaced from a file).
    pub fn with_catalog(catalog: &'static Catalog, setup: &Setup) -> Result<Game, SetupError> {
        let n = setup.players as usize;
        if !(3..=7).contains(&n) {
            return Err(SetupError::Players(setup.players));
        }
        // Two independent streams of the seed: the cards dealt do not depend on how the wonders
        // are given out.
        let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
        let mut wonder_rng = ChaCha8Rng::seed_from_u64(setup.seed);
        wonder_rng.set_stream(1);
        let boards = deal_wonders(catalog, n, &setup.wonders, &mut wonder_rng)?;
        let first = City::new(catalog, boards[0].0, boards[0].1);
        let mut cities = [first; MAX_PLAYERS];
        for (seat, &(w, side)) in boards.iter().enumerate() {
            cities[seat] = City::new(catalog, w, side);
            cities[seat].coins = START_COINS;
        }
        let mut ages: [[Hand; MAX_PLAYERS]; 3] = Default::default();
        for (age, hands) in (1u8..=3).zip(ages.iter_mut()) {
            let mut deck = catalog.age_cards(age, setup.players);
            if age == 3 {
                // 002 遊戲準備: players + 2 guilds drawn at random.
                let mut guilds = catalog.guilds();
                guilds.shuffle(&mut rng);
                deck.extend(guilds.into_iter().take(n + 2));
            }
            deck.shuffle(&mut rng);
            for (seat, chunk) in deck.chunks(HAND_SIZE).take(n).enumerate() {
                hands[seat] = chunk.iter().copied().collect();
            }
        }
        let [a1, a2, a3] = ages;
        Ok(Game {
            catalog,
            seed: setup.seed,
            players: setup.players,
            age: 1,
            turn: 1,
            phase: Phase::Choose,
            cities,
            hands: a1,
            later_hands: [a2, a3],
            discard: ArrayVec::new(),
            chosen: [None; MAX_PLAYERS],
            picks: [0; MAX_PLAYERS],
            age_ending: false,
            age_end_due: false,
            log: ArrayVec::new(),
            sale_at_turn_start: [Production::default(); MAX_PLAYERS],
        })
    }

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

    /// Number of players.
    pub fn players(&self) -> usize {
        self.players as usize
    }

    /// The current Age, 1 to 3.
    pub fn age(&self) -> u8 {
        self.age
    }

    /// The current turn of the Age, 1 to 6.
    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// What the game waits for.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// The cities, one per seat.
    pub fn cities(&self) -> &[City] {
        &self.cities[..self.players()]
    }

    /// One city.
    pub fn city(&self, seat: usize) -> &City {
        &self.cities[seat]
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
        &self.log
    }

    /// Whether `seat` has chosen in the current Choose step.
    pub fn has_chosen(&self, seat: usize) -> bool {
        self.chosen.get(seat).is_some_and(|c| c.is_some())
    }

    /// The seats the game waits for.
    pub fn to_act(&self) -> ArrayVec<usize, MAX_PLAYERS> {
        match self.phase {
            Phase::Choose => (0..self.players()).filter(|&s| self.chosen[s].is_none()).collect(),
            Phase::PlayLastCard { seat } | Phase::BuildFromDiscard { seat } => {
                std::iter::once(seat as usize).collect()
            }
            Phase::Over => ArrayVec::new(),
        }
    }

    /// Whether `seat` must act now.
    pub fn must_act(&self, seat: usize) -> bool {
        match self.phase {
            Phase::Choose => seat < self.players() && self.chosen[seat].is_none(),
            Phase::PlayLastCard { seat: s } | Phase::BuildFromDiscard { seat: s } => s as usize == seat,
            Phase::Over => false,
        }
    }

    fn market(&self, seat: usize) -> Market<'_> {
        let n = self.players();
        let city = &self.cities[seat];
        let prices = city.prices;
        let (left, right) = (left_of(seat, n), right_of(seat, n));
        if self.edition() == Edition::Second && matches!(self.phase, Phase::PlayLastCard { .. }) {
            // 2nd edition (004 貿易; edition-2e.md §2): nothing can be bought from a card a
            // neighbour built this same turn. Babylon's last card is played at the end of the
            // Age's last turn, so the neighbours offer what they offered when that turn began.
            return Market {
                own: &city.production,
                left: &self.sale_at_turn_start[left],
                right: &self.sale_at_turn_start[right],
                prices,
            };
        }
        Market {
            own: &city.production,
            left: &self.cities[left].for_sale,
            right: &self.cities[right].for_sale,
            prices,
        }
    }

    /// Every Pareto-minimal payment `seat` can make for building `card` now, free ways included.
    /// Empty when it cannot be built (already in the city, or unaffordable).
    pub fn build_payments(&self, seat: usize, card: CardId, out: &mut Vec<Payment>) {
        out.clear();
        let city = &self.cities[seat];
        let def = self.catalog.card(card);
        if city.has_name(self.catalog, card) {
            return;
        }
        if let Some(by) = self.automatic_free(seat, card) {
            out.push(Payment::free(by));
            return;
        }
        let mut opts = Options::new();
        self.paid_options(seat, card, &mut opts);
        out.extend(opts.iter().map(|&(left, right)| Payment { left, right, bank: def.coins, free: None }));
        if self.free_build_available(seat) && (def.coins > 0 || !def.cost.is_empty()) {
            out.push(Payment::free(FreeBy::FreeBuild));
        }
    }

    fn paid_options(&self, seat: usize, card: CardId, out: &mut Options) {
        out.clear();
        let def = self.catalog.card(card);
        let coins = self.cities[seat].coins;
        if coins < def.coins as u16 {
            return;
        }
        payment::solve(&self.market(seat), &def.cost, coins - def.coins as u16, out);
    }

    /// The way `card` is free for `seat` now, when it is free whatever the player does: a chain,
    /// or a 2nd-edition Olympia power. (Olympia A's free build is a choice: see
    /// [`Game::build_payments`].)
    pub fn automatic_free(&self, seat: usize, card: CardId) -> Option<FreeBy> {
        let city = &self.cities[seat];
        if city.has_chain_for(self.catalog, card) {
            return Some(FreeBy::Chain);
        }
        // 2nd edition, Olympia Day stage 2 (edition-2e.md §5 Olympia): the first card of each
        // colour; read as a colour not yet in the city.
        if city.free_first_of_colour && city.colour_counts[self.catalog.card(card).colour as usize] == 0 {
            return Some(FreeBy::FirstOfColour);
        }
        if self.phase == Phase::Choose {
            // Olympia Night (FAQ): the card of the Age's first turn, and of its last turn.
            if city.free_first_of_age && self.turn == 1 {
                return Some(FreeBy::FirstOfAge);
            }
            if city.free_last_of_age && self.turn as usize == LAST_TURN {
                return Some(FreeBy::LastOfAge);
            }
        }
        None
    }

    fn free_build_available(&self, seat: usize) -> bool {
        let c = &self.cities[seat];
        c.free_build_per_age && !c.free_build_used
    }

    /// Every Pareto-minimal payment for `seat`'s next wonder stage; empty when the wonder is
    /// complete or the stage unaffordable.
    pub fn stage_payments(&self, seat: usize, out: &mut Vec<Payment>) {
        out.clear();
        let mut opts = Options::new();
        self.stage_options(seat, &mut opts);
        out.extend(opts.iter().map(|&(left, right)| Payment { left, right, bank: 0, free: None }));
    }

    fn stage_options(&self, seat: usize, out: &mut Options) {
        out.clear();
        let city = &self.cities[seat];
        let stages = self.catalog.wonder(city.wonder).stages(city.side);
        if let Some(stage) = stages.get(city.stages as usize) {
            payment::solve(&self.market(seat), &stage.cost, city.coins, out);
        }
    }

    /// Every legal action of `seat` now, written into `out` (cleared first). Empty when the seat
    /// is not to act. Allocation-free once `out` has grown.
    pub fn legal_actions_into(&self, seat: usize, out: &mut Vec<Action>) {
        out.clear();
        if !self.must_act(seat) {
            return;
        }
        match self.phase {
            Phase::Choose | Phase::PlayLastCard { .. } => self.hand_actions(seat, out),
            Phase::BuildFromDiscard { .. } => {
                let city = &self.cities[seat];
                let mut seen = crate::card::CardSet::EMPTY;
                for &c in &self.discard {
                    if !seen.contains(c) && !city.has_name(self.catalog, c) {
                        seen.insert(c);
                        out.push(Action::BuildDiscarded { card: c });
                    }
                }
                out.push(Action::Pass);
            }
            Phase::Over => {}
        }
    }

    /// Every legal action of `seat` now.
    pub fn legal_actions(&self, seat: usize) -> Vec<Action> {
        let mut v = Vec::new();
        self.legal_actions_into(seat, &mut v);
        v
    }

    fn hand_actions(&self, seat: usize, out: &mut Vec<Action>) {
        let city = &self.cities[seat];
        let market = self.market(seat);
        let mut stage = Options::new();
        let stages = self.catalog.wonder(city.wonder).stages(city.side);
        if let Some(next) = stages.get(city.stages as usize) {
            payment::solve(&market, &next.cost, city.coins, &mut stage);
        }
        let free_build = self.free_build_available(seat);
        let mut opts = Options::new();
        let hand = &self.hands[seat];
        for (i, &card) in hand.iter().enumerate() {
            if hand[..i].contains(&card) {
                continue;
            }
            let def = self.catalog.card(card);
            if !city.has_name(self.catalog, card) {
                if let Some(by) = self.automatic_free(seat, card) {
                    out.push(Action::Build { card, pay: Payment::free(by) });
                } else {
                    opts.clear();
                    if city.coins >= def.coins as u16 {
                        payment::solve(&market, &def.cost, city.coins - def.coins as u16, &mut opts);
                    }
                    for &(left, right) in &opts {
                        out.push(Action::Build {
                            card,
                            pay: Payment { left, right, bank: def.coins, free: None },
                        });
                    }
                    if free_build && (def.coins > 0 || !def.cost.is_empty()) {
                        out.push(Action::Build { card, pay: Payment::free(FreeBy::FreeBuild) });
                    }
                }
            }
            for &(left, right) in &stage {
                out.push(Action::Wonder { card, pay: Payment { left, right, bank: 0, free: None } });
            }
            out.push(Action::Discard { card });
        }
    }

    /// Checks an action without changing anything.
    pub fn check(&self, seat: usize, action: &Action) -> Result<(), ActionError> {
        if self.phase == Phase::Over {
            return Err(ActionError::GameOver);
        }
        if seat >= self.players() {
            return Err(ActionError::NoSuchSeat(seat));
        }
        if !self.must_act(seat) {
            if self.phase == Phase::Choose {
                return Err(ActionError::AlreadyChosen(seat));
            }
            return Err(ActionError::NotYourTurn { seat, waiting: self.waiting_text() });
        }
        let name = |c: CardId| self.catalog.card(c).name.clone();
        let city = &self.cities[seat];
        let in_hand = |c: CardId| -> Result<(), ActionError> {
            if (c.0 as usize) < self.catalog.cards.len() && self.hands[seat].contains(&c) {
                Ok(())
            } else {
                Err(ActionError::CardNotAvailable {
                    card: self.card_name_or_id(c),
                    place: "in this seat's hand",
                })
            }
        };
        let from_discard = matches!(self.phase, Phase::BuildFromDiscard { .. });
        match *action {
            Action::BuildDiscarded { .. } | Action::Pass if !from_discard => Err(ActionError::WrongKind(
                "building from the discard pile is only possible right after a Halicarnassus stage".into(),
            )),
            Action::Build { .. } | Action::Wonder { .. } | Action::Discard { .. } if from_discard => {
                Err(ActionError::WrongKind(
                    "this step is Halicarnassus' build from the discard pile: pick a discarded card or pass"
                        .into(),
                ))
            }
            Action::Pass => Ok(()),
            Action::BuildDiscarded { card } => {
                if (card.0 as usize) >= self.catalog.cards.len() || !self.discard.contains(&card) {
                    return Err(ActionError::CardNotAvailable {
                        card: self.card_name_or_id(card),
                        place: "in the discard pile",
                    });
                }
                if city.has_name(self.catalog, card) {
                    return Err(ActionError::Duplicate(name(card)));
                }
                Ok(())
            }
            Action::Discard { card } => in_hand(card),
            Action::Build { card, pay } => {
                in_hand(card)?;
                if city.has_name(self.catalog, card) {
                    return Err(ActionError::Duplicate(name(card)));
                }
                let def = self.catalog.card(card);
                let ok = match (self.automatic_free(seat, card), pay.free) {
                    (Some(by), _) => pay == Payment::free(by),
                    (None, Some(FreeBy::FreeBuild)) => {
                        pay == Payment::free(FreeBy::FreeBuild)
                            && self.free_build_available(seat)
                            && (def.coins > 0 || !def.cost.is_empty())
                    }
                    (None, Some(_)) => false,
                    (None, None) => {
                        let mut opts = Options::new();
                        self.paid_options(seat, card, &mut opts);
                        pay.bank == def.coins && opts.contains(&(pay.left, pay.right))
                    }
                };
                if ok {
                    Ok(())
                } else {
                    let mut legal = Vec::new();
                    self.build_payments(seat, card, &mut legal);
                    Err(ActionError::BadPayment { what: name(card), options: payments_text(&legal) })
                }
            }
            Action::Wonder { card, pay } => {
                in_hand(card)?;
                if city.stages >= city.stage_count(self.catalog) {
                    return Err(ActionError::WonderComplete);
                }
                let mut opts = Options::new();
                self.stage_options(seat, &mut opts);
                if pay.bank == 0 && pay.free.is_none() && opts.contains(&(pay.left, pay.right)) {
                    Ok(())
                } else {
                    let mut legal = Vec::new();
                    self.stage_payments(seat, &mut legal);
                    Err(ActionError::BadPayment {
                        what: format!("wonder stage {}", city.stages + 1),
                        options: payments_text(&legal),
                    })
                }
            }
        }
    }

    fn card_name_or_id(&self, c: CardId) -> String {
        self.catalog.cards.get(c.0 as usize).map(|d| d.name.clone()).unwrap_or(format!("card #{}", c.0))
    }

    fn waiting_text(&self) -> String {
        match self.phase {
            Phase::Choose => "every player is choosing".into(),
            Phase::PlayLastCard { seat } => format!("seat {seat} is playing the last card of the Age"),
            Phase::BuildFromDiscard { seat } => format!("seat {seat} is building from the discard pile"),
            Phase::Over => "the game is over".into(),
        }
    }

    /// Submits `seat`'s action. In the Choose step the turn resolves once every seat has chosen.
    /// An illegal action is refused with the reason, and nothing changes.
    pub fn submit(&mut self, seat: usize, action: Action) -> Result<(), ActionError> {
        self.check(seat, &action)?;
        match self.phase {
            Phase::Choose => {
                self.chosen[seat] = Some(action);
                if self.chosen[..self.players()].iter().all(|c| c.is_some()) {
                    for s in 0..self.players() {
                        self.sale_at_turn_start[s] = self.cities[s].for_sale;
                    }
                    let mut acts: ArrayVec<(usize, Action), MAX_PLAYERS> = ArrayVec::new();
                    for s in 0..self.players() {
                        if let Some(a) = self.chosen[s].take() {
                            acts.push((s, a));
                        }
                    }
                    self.resolve(&acts);
                    if self.hands[0].len() <= 1 {
                        self.age_ending = true;
                    } else {
                        self.pass_hands();
                        self.turn += 1;
                    }
                    self.advance();
                }
            }
            Phase::PlayLastCard { .. } => {
                self.resolve(&[(seat, action)]);
                self.advance();
            }
            Phase::BuildFromDiscard { .. } => {
                self.picks[seat] -= 1;
                self.log.clear();
                let (played, income) = match action {
                    Action::BuildDiscarded { card } => {
                        if let Some(i) = self.discard.iter().position(|&c| c == card) {
                            self.discard.remove(i);
                        }
                        self.cities[seat].place(self.catalog, card);
                        let coins = self.build_coins(seat, card);
                        self.cities[seat].coins += coins;
                        (Played::BuiltDiscarded(card), coins)
                    }
                    _ => (Played::Passed, 0),
                };
                self.log.push(LogEntry {
                    age: self.age,
                    turn: self.turn,
                    seat: seat as u8,
                    played,
                    pay: Payment::default(),
                    income,
                });
                self.advance();
            }
            Phase::Over => unreachable!("check refuses actions once the game is over"),
        }
        Ok(())
    }

    /// Resolves a set of simultaneous actions (already checked).
    fn resolve(&mut self, acts: &[(usize, Action)]) {
        let n = self.players();
        let mut income = [0u16; MAX_PLAYERS];
        self.log.clear();
        let turn = if matches!(self.phase, Phase::PlayLastCard { .. }) { 7 } else { self.turn };
        // 1. Payments leave the treasuries; cards leave the hands.
        for &(seat, action) in acts {
            if let Some(card) = action.card()
                && let Some(i) = self.hands[seat].iter().position(|&c| c == card)
            {
                self.hands[seat].remove(i);
            }
            if let Some(pay) = action.payment() {
                self.cities[seat].coins -= pay.total();
                income[left_of(seat, n)] += pay.left as u16;
                income[right_of(seat, n)] += pay.right as u16;
                if pay.free == Some(FreeBy::FreeBuild) {
                    self.cities[seat].free_build_used = true;
                }
            }
        }
        // 2. Every card is placed.
        for &(seat, action) in acts {
            match action {
                Action::Build { card, .. } => self.cities[seat].place(self.catalog, card),
                Action::Wonder { .. } => {
                    self.cities[seat].build_stage(self.catalog);
                    if self.stage_effects(seat).iter().any(|e| matches!(e, Effect::BuildFromDiscard)) {
                        self.picks[seat] += 1;
                    }
                }
                Action::Discard { card } => {
                    self.discard.push(card);
                    income[seat] += DISCARD_COINS;
                }
                Action::BuildDiscarded { .. } | Action::Pass => {}
            }
        }
        // 3. Immediate effects, seeing every card placed this turn.
        for &(seat, action) in acts {
            match action {
                Action::Build { card, .. } => income[seat] += self.build_coins(seat, card),
                Action::Wonder { .. } => {
                    for e in self.stage_effects(seat) {
                        if let Effect::Coins(c) = e {
                            income[seat] += *c as u16;
                        }
                    }
                }
                _ => {}
            }
        }
        // 4. Coins received reach the treasuries.
        for seat in 0..n {
            self.cities[seat].coins += income[seat];
        }
        for &(seat, action) in acts {
            let played = match action {
                Action::Build { card, .. } => Played::Built(card),
                Action::Wonder { .. } => Played::Stage(self.cities[seat].stages),
                _ => Played::Discarded,
            };
            self.log.push(LogEntry {
                age: self.age,
                turn,
                seat: seat as u8,
                played,
                pay: action.payment().unwrap_or_default(),
                income: income[seat],
            });
        }
    }

    /// The effects of the stage `seat` built last.
    fn stage_effects(&self, seat: usize) -> &[Effect] {
        let city = &self.cities[seat];
        let stages = self.catalog.wonder(city.wonder).stages(city.side);
        match city.stages.checked_sub(1) {
            Some(i) => &stages[i as usize].effects,
            None => &[],
        }
    }

    /// Coins a card gives once, when built (Tavern, Vineyard, Bazar, Haven, …).
    fn build_coins(&self, seat: usize, card: CardId) -> u16 {
        let mut coins = 0u32;
        for e in &self.catalog.card(card).effects {
            coins += match *e {
                Effect::Coins(c) => c as u32,
                Effect::CoinsPer { what, scope, coins } => {
                    count(self.cities(), seat, what, scope) * coins as u32
                }
                Effect::CoinsAndPointsPer { what, coins, .. } => {
                    count(self.cities(), seat, what, Scope { own: true, neighbours: false }) * coins as u32
                }
                _ => 0,
            };
        }
        coins as u16
    }

    fn pass_hands(&mut self) {
        let n = self.players();
        let old = self.hands.clone();
        for seat in 0..n {
            // Ages I and III pass left (to seat i+1), Age II right (002 3、傳接卡牌).
            let to = if self.age == 2 { right_of(seat, n) } else { left_of(seat, n) };
            self.hands[to] = old[seat].clone();
        }
    }

    /// Moves on to the next step that needs a decision.
    fn advance(&mut self) {
        let n = self.players();
        loop {
            if self.age_ending {
                if let Some(seat) =
                    (0..n).find(|&s| self.cities[s].plays_last_card && !self.hands[s].is_empty())
                {
                    self.phase = Phase::PlayLastCard { seat: seat as u8 };
                    return;
                }
                // The last cards are discarded, without coins (002 特殊情况：第六個回合).
                for seat in 0..n {
                    let hand = std::mem::take(&mut self.hands[seat]);
                    self.discard.extend(hand);
                }
                self.age_ending = false;
                self.age_end_due = true;
            }
            if let Some(seat) = (0..n).find(|&s| self.picks[s] > 0) {
                let city = &self.cities[seat];
                if self.discard.iter().any(|&c| !city.has_name(self.catalog, c)) {
                    self.phase = Phase::BuildFromDiscard { seat: seat as u8 };
                    return;
                }
                // Nothing to build: the effect is lost (base-1e.md §4.4).
                self.picks[seat] = 0;
                continue;
            }
            if self.age_end_due {
                self.age_end_due = false;
                self.end_age();
                if self.phase == Phase::Over {
                    return;
                }
            }
            self.phase = Phase::Choose;
            return;
        }
    }

    fn end_age(&mut self) {
        let n = self.players();
        let shields: ArrayVec<u8, MAX_PLAYERS> = (0..n).map(|s| self.cities[s].shields).collect();
        for seat in 0..n {
            for other in [left_of(seat, n), right_of(seat, n)] {
                let token = match shields[seat].cmp(&shields[other]) {
                    std::cmp::Ordering::Greater => MilitaryTokens::victory_value(self.age),
                    std::cmp::Ordering::Less => -1,
                    std::cmp::Ordering::Equal => 0,
                };
                if token != 0 {
                    self.cities[seat].tokens.add(token);
                }
            }
        }
        if self.age == 3 {
            self.phase = Phase::Over;
            return;
        }
        self.age += 1;
        self.turn = 1;
        self.hands = self.later_hands[self.age as usize - 2].clone();
        for city in &mut self.cities[..n] {
            city.free_build_used = false;
        }
    }

    /// Replaces a seat's hand. Meant for building positions (tests, puzzles, states resampled by
    /// a search); the caller keeps the game consistent (at most [`HAND_MAX`] cards are kept).
    pub fn set_hand(&mut self, seat: usize, cards: &[CardId]) {
        self.hands[seat] = cards.iter().copied().take(HAND_MAX).collect();
    }

    /// Replaces the hands of a later Age (2 or 3) dealt at setup. Same caveat as
    /// [`Game::set_hand`].
    pub fn set_later_hand(&mut self, age: u8, seat: usize, cards: &[CardId]) {
        if let Some(hands) = age.checked_sub(2).and_then(|i| self.later_hands.get_mut(i as usize)) {
            hands[seat] = cards.iter().copied().take(HAND_MAX).collect();
        }
    }

    /// The hands dealt at setup for a later Age (2 or 3): hidden from every player.
    pub fn later_hand(&self, age: u8, seat: usize) -> &[CardId] {
        match age.checked_sub(2).and_then(|i| self.later_hands.get(i as usize)) {
            Some(h) => &h[seat],
            None => &[],
        }
    }

    /// Mutable access to a city, for building positions. Same caveat as [`Game::set_hand`].
    pub fn city_mut(&mut self, seat: usize) -> &mut City {
        &mut self.cities[seat]
    }

    /// Adds cards to the discard pile, for building positions.
    pub fn push_discard(&mut self, cards: &[CardId]) {
        for &c in cards {
            let _ = self.discard.try_push(c);
        }
    }

    /// The score sheet of every seat (final once the game is over).
    pub fn scores(&self) -> Vec<Score> {
        score::score_all(self.catalog, self.cities())
    }
}

fn payments_text(p: &[Payment]) -> String {
    if p.is_empty() {
        return "none (it cannot be built now)".into();
    }
    p.iter()
        .map(|p| match p.free {
            Some(by) => format!("free ({by:?})"),
            None => format!("left {} right {} bank {}", p.left, p.right, p.bank),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Counts `what` in the cities `scope` names, seen from `seat`.
pub fn count(cities: &[City], seat: usize, what: Counted, scope: Scope) -> u32 {
    let n = cities.len();
    let one = |c: &City| -> u32 {
        match what {
            Counted::Colours(mask) => c.count_colours(mask),
            Counted::WonderStages => c.stages as u32,
            Counted::Defeats => c.tokens.minus1 as u32,
        }
    };
    let mut total = 0;
    if scope.own {
        total += one(&cities[seat]);
    }
    if scope.neighbours {
        total += one(&cities[left_of(seat, n)]) + one(&cities[right_of(seat, n)]);
    }
    total
}

fn deal_wonders(
    catalog: &Catalog,
    n: usize,
    deal: &WonderDeal,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<(WonderId, Side)>, SetupError> {
    let side = |rng: &mut ChaCha8Rng| if rng.random_bool(0.5) { Side::B } else { Side::A };
    match deal {
        WonderDeal::Random | WonderDeal::RandomBoards(_) => {
            let mut ids: Vec<WonderId> = catalog.wonders.iter().map(|w| w.id).collect();
            if ids.len() < n {
                return Err(SetupError::Wonders(format!("only {} wonders for {n} players", ids.len())));
            }
            ids.shuffle(rng);
            Ok(ids
                .into_iter()
                .take(n)
                .map(|w| match deal {
                    WonderDeal::RandomBoards(s) => (w, *s),
                    _ => (w, side(rng)),
                })
                .collect())
        }
        WonderDeal::Chosen(list) => {
            if list.len() != n {
                return Err(SetupError::Wonders(format!("{} wonders chosen for {n} players", list.len())));
            }
            let mut out = Vec::new();
            for (i, &(w, s)) in list.iter().enumerate() {
                if w.0 as usize >= catalog.wonders.len() {
                    return Err(SetupError::Wonders(format!("no wonder #{}", w.0)));
                }
                if list[..i].iter().any(|(o, _)| *o == w) {
                    return Err(SetupError::Wonders(format!("{} is chosen twice", catalog.wonder(w).name)));
                }
                out.push((w, s.unwrap_or_else(|| side(rng))));
            }
            Ok(out)
        }
    }
}

impl Colour {
    /// The bit of this colour in a colour mask.
    pub const fn bit(self) -> u8 {
        1 << self as u8
    }
}
