//! Resampling: from one seat's [`View`], a full game state consistent with everything that seat
//! knows (OpenSpiel calls this resampling from the information state). Searches use it to play
//! out determinized games without ever reading another seat's hidden cards.
//!
//! What the seat knows, and so what every sample keeps: its hand; every city; the sizes of the
//! hands, of the discard pile and of the Free City's pile; the public history; and the hands it
//! held earlier this Age with the cards it used from them. The rest is dealt at random:
//!
//! - **This Age's hands.** Hands travel as packets (left in Ages I and III, right in Age II; in
//!   the 2-player variant they swap between the players, and the holder of the Free City card
//!   draws from its pile). A packet the seat held is followed from the last time it saw it: cards
//!   built from it are public; a card another player used face down (a wonder stage or a discard)
//!   is drawn from what the packet can still hold — never a card seen in the packet later or
//!   built from it later, and always one that must be gone before the seat saw the packet again.
//!   A packet it never held holds unseen cards.
//! - **Unseen cards** are this Age's cards (for Age III, the guilds in play are drawn too, keeping
//!   every guild already seen) less every card whose place is known; they fill the unknown places
//!   at random.
//! - **The discard pile**: this Age's discards (own ones known, others' as sampled) and, for the
//!   rest of its size, cards of earlier Ages that are in no city.
//! - **Later Ages** are dealt afresh.
//!
//! - **Team variant**: the teammate's current hand is known too, and kept.
//! - **Armada** (armada.md §2.2, §2.6): hands of 8 cards (7 with 8 players) and one more turn;
//!   each Age deck holds [`crate::armada::dealt_per_age`] Armada cards drawn from the Age's pool
//!   (every one seen is kept, the rest drawn at random, with 3 players never a two-neighbour
//!   card); the three island decks hold every island not in play, each level's in a random order
//!   (the cards this seat saw and returned went back into a reshuffled deck); in an exploration
//!   under way this seat's dealt islands are kept and the other explorers' are drawn from the
//!   rest of the deck. Shipyards, islands in play, naval tokens, the losses and incursions noted,
//!   the explorations due and Forgotten Port's choices are public and copied.
//!
//! Every consistent deal has a positive probability. Choices the others have already made this
//! turn are hidden, so in a sample they have not chosen yet.

use crate::card::{CardId, CardSet};
use crate::catalog::{Catalog, Edition};
use crate::city::{City, Production};
use crate::hand::{HAND_MAX, Hand};
use crate::limits::{BASE_LOG_MAX, HAND_SIZE, HISTORY_MAX, LOG_MAX, MAX_PLAYERS, MAX_TURNS};
use crate::log::{LogEntry, Played, Used};
use crate::state::{Game, Phase};
use crate::view::View;
use arrayvec::ArrayVec;
use rand::{Rng, RngExt};
use std::cell::RefCell;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Known(CardId),
    Unknown,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dest {
    Discard,
    Stage,
}

/// A card that left a packet face down (a discard or a wonder stage).
#[derive(Clone, Copy, Debug)]
struct Hidden {
    slot: Slot,
    dest: Dest,
    turn: u8,
    /// Set when this place is taken by a card later built from the discard pile.
    taken: bool,
}

/// One removal from a packet in one step.
#[derive(Clone, Copy, Debug)]
enum Removal {
    /// A public build, or a card the viewing seat used itself.
    Known(CardId, Option<Dest>),
    /// Another player's face-down card.
    Hidden(Dest),
}

/// Why a view could not be resampled (a view that did not come from a real game).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the view cannot be resampled: {0}")]
pub struct SampleError(pub String);

fn err<T>(s: impl Into<String>) -> Result<T, SampleError> {
    Err(SampleError(s.into()))
}

/// The seat holding packet `p` at turn `t` of Age `age`.
fn seat_of(p: usize, t: u8, age: u8, n: usize, free_city: bool) -> usize {
    if free_city {
        return p ^ ((t as usize - 1) & 1);
    }
    let d = if age == 2 { n - 1 } else { 1 };
    (p + d * (t as usize - 1)) % n
}

/// The packet at `seat` at turn `t`.
fn packet_at(seat: usize, t: u8, age: u8, n: usize, free_city: bool) -> usize {
    if free_city {
        return seat ^ ((t as usize - 1) & 1);
    }
    let d = if age == 2 { 1 } else { n - 1 };
    (seat + d * (t as usize - 1)) % n
}

/// Edifice: the cards discarded from cities for failed projects' penalties that are still in the
/// discard pile (public, edifice.md §5.3), and the history entries that built one of them back
/// from the pile (Halicarnassus, Solomon). Counted copy by copy in the order of the history: a
/// city that holds another copy of a discarded card does not make the discarded one leave the
/// pile.
fn penalty_discards(history: &[LogEntry]) -> (Vec<CardId>, Vec<&LogEntry>) {
    let mut pile = Vec::new();
    let mut rebuilt = Vec::new();
    for e in history {
        match e.played {
            Played::Edifice(crate::edifice::EdificeEvent::Discarded(c)) => pile.push(c),
            Played::BuiltDiscarded(x) if remove_one(&mut pile, x) => rebuilt.push(e),
            _ => {}
        }
    }
    (pile, rebuilt)
}

fn remove_one(v: &mut Vec<CardId>, c: CardId) -> bool {
    match v.iter().position(|&x| x == c) {
        Some(i) => {
            v.swap_remove(i);
            true
        }
        None => false,
    }
}

impl Game {
    /// A full game consistent with everything `view`'s seat knows, with the unseen cards dealt
    /// at random (see the [module documentation](crate::sample)). `catalog` must be the data of
    /// the game the view came from. To draw many samples of one view, [`Resampler`] works out
    /// once what they share (the same samples, less work).
    ///
    /// ```
    /// use rand::SeedableRng;
    /// use wonders_core::{Game, Setup};
    /// let game = Game::new(&Setup::new(4, 3)).unwrap();
    /// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    /// let sample = Game::resample(&game.view(0), game.catalog(), &mut rng).unwrap();
    /// assert_eq!(sample.hand(0), game.hand(0));
    /// assert_eq!(sample.hand(1).len(), 7);
    /// ```
    pub fn resample<R: Rng + ?Sized>(
        view: &View,
        catalog: &'static Catalog,
        rng: &mut R,
    ) -> Result<Game, SampleError> {
        Resampler::new(view, catalog)?.sample(rng)
    }
}

impl Game {
    /// Research only: gives this sample the current hands and discard pile of `real`, the game
    /// it was sampled from, keeping the sample's later Ages. The result is what a seat would
    /// sample if it could see every hand of the Age but not the decks of the Ages to come, so a
    /// search that plays on it measures what hidden hands cost (`examples/information_value.rs`
    /// in `wonders-bots`). No bot does this in play.
    ///
    /// Refused, with nothing changed, unless both games have the same players and expansions and
    /// are at the same step (Age, turn, phase): the cards of an Age are the same in every deal
    /// of it, so the hands of one fit the other's later Ages.
    ///
    /// ```
    /// use rand::SeedableRng;
    /// use wonders_core::{Game, Setup};
    /// let game = Game::new(&Setup::new(5, 3)).unwrap();
    /// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    /// let mut sample = Game::resample(&game.view(0), game.catalog(), &mut rng).unwrap();
    /// assert_ne!(sample.hand(1), game.hand(1));
    /// sample.take_hands_from(&game).unwrap();
    /// assert_eq!(sample.hand(1), game.hand(1));
    /// ```
    pub fn take_hands_from(&mut self, real: &Game) -> Result<(), SampleError> {
        let same = std::ptr::eq(self.catalog, real.catalog)
            && self.cities_n == real.cities_n
            && self.free_city == real.free_city
            && self.edifice.is_some() == real.edifice.is_some()
            && self.armada.is_some() == real.armada.is_some()
            && (self.age, self.turn, self.phase) == (real.age, real.turn, real.phase);
        if !same {
            return err(format!(
                "the hands of a game at Age {} turn {} ({:?}) do not fit a sample at Age {} turn {} ({:?}) \
                 or of other players or expansions",
                real.age, real.turn, real.phase, self.age, self.turn, self.phase
            ));
        }
        self.hands = real.hands;
        self.discard = real.discard.clone();
        Ok(())
    }
}

/// [`Game::resample`] for many samples of one view (a search's determinizations):
/// what every sample shares — the packets' known removals and snapshots, the decks, the earlier
/// Ages' cards in no city, the copied history — is worked out once by [`Resampler::new`], and
/// each [`Resampler::sample`] deals only the random parts. With the same random generator it
/// gives exactly the samples [`Game::resample`] gives, one after the other.
///
/// ```
/// use rand::SeedableRng;
/// use wonders_core::{Game, Setup, sample::Resampler};
/// let game = Game::new(&Setup::new(4, 3)).unwrap();
/// let view = game.view(0);
/// let resampler = Resampler::new(&view, game.catalog()).unwrap();
/// let (mut a, mut b) = (rand_chacha::ChaCha8Rng::seed_from_u64(1), rand_chacha::ChaCha8Rng::seed_from_u64(1));
/// for _ in 0..3 {
///     let one = resampler.sample(&mut a).unwrap();
///     let other = Game::resample(&view, game.catalog(), &mut b).unwrap();
///     assert_eq!((0..4).map(|s| one.hand(s).to_vec()).collect::<Vec<_>>(),
///                (0..4).map(|s| other.hand(s).to_vec()).collect::<Vec<_>>());
/// }
/// ```
pub struct Resampler<'v> {
    view: &'v View,
    catalog: &'static Catalog,
    prep: Prep<'v>,
    /// The buffers a sample fills, kept from one sample to the next (no allocation per sample
    /// once they have grown).
    scratch: RefCell<Scratch>,
}

/// Buffers [`sample_once`] reuses (their contents never outlive one call).
#[derive(Default)]
struct Scratch {
    /// Spare packet contents.
    slots: Vec<Vec<Slot>>,
    contents: Vec<Vec<Slot>>,
    hidden: Vec<Hidden>,
    reserved: Vec<CardId>,
    res: Vec<CardId>,
    doomed: Vec<usize>,
    free: Vec<usize>,
    all: Vec<usize>,
    rest: Vec<CardId>,
    deck: Vec<CardId>,
    known: Vec<CardId>,
    cards: Vec<CardId>,
    age_discards: Vec<CardId>,
    past: Vec<CardId>,
    later: Vec<CardId>,
    guilds: Vec<CardId>,
}

impl<'v> Resampler<'v> {
    /// Works out what every sample of `view` shares; an error when the view cannot be
    /// resampled at all (the error [`Game::resample`] gives). `catalog` must be the data of the
    /// game the view came from.
    pub fn new(view: &'v View, catalog: &'static Catalog) -> Result<Resampler<'v>, SampleError> {
        Ok(Resampler { view, catalog, prep: Prep::new(view, catalog)?, scratch: RefCell::default() })
    }

    /// Samples of `view` in which `seat` holds `hand` as well: what the viewing seat would
    /// sample if it were shown that hand, as it is shown its teammate's (a seat's reasoning can
    /// tell it a hand the view does not: the hand it was passed, plus the card the previous
    /// holder built from it). Every sample deals `hand` to `seat` and is otherwise as
    /// [`Resampler::sample`] draws them.
    ///
    /// Refused outside a turn's choice of cards (before the turn resolves), in the 2-player
    /// variant, for the viewing seat itself, and for a hand of another size than the seat's. A
    /// hand that contradicts what the view shows (a card seen elsewhere) makes
    /// [`Resampler::sample`] fail.
    ///
    /// ```
    /// use rand::SeedableRng;
    /// use wonders_core::{Game, Setup, sample::Resampler};
    /// let game = Game::new(&Setup::new(4, 3)).unwrap();
    /// let view = game.view(0);
    /// let hand = game.hand(2).iter().copied().collect();
    /// let resampler = Resampler::knowing_hand(&view, game.catalog(), 2, &hand).unwrap();
    /// let sample = resampler.sample(&mut rand_chacha::ChaCha8Rng::seed_from_u64(1)).unwrap();
    /// assert_eq!(sample.hand(2), game.hand(2));
    /// assert_eq!(sample.hand(0), game.hand(0));
    /// ```
    pub fn knowing_hand(
        view: &'v View,
        catalog: &'static Catalog,
        seat: usize,
        hand: &Hand,
    ) -> Result<Resampler<'v>, SampleError> {
        let mut resampler = Resampler::new(view, catalog)?;
        let p = &mut resampler.prep;
        if p.fc || view.phase != Phase::Choose || p.resolved >= p.cur_turn {
            return err("a hand can be given only at a choice of cards, before the turn resolves");
        }
        if seat >= p.players || seat == p.me {
            return err(format!("seat {seat} is not another player's"));
        }
        if view.hand_sizes.get(seat).map(|&h| h as usize) != Some(hand.len()) {
            return err(format!("seat {seat} holds {} cards, not {}", view.hand_sizes[seat], hand.len()));
        }
        let packet = packet_at(seat, p.cur_turn, p.age, p.n, false);
        p.snapshots[packet][p.cur_turn as usize] = Some(hand.to_vec());
        Ok(resampler)
    }

    /// One sample (as [`Game::resample`]).
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Result<Game, SampleError> {
        let mut last = SampleError("no attempt".into());
        let scratch = &mut *self.scratch.borrow_mut();
        // A random choice can rarely paint itself into a corner (a card later built from the
        // discard pile that no sampled discard can have been); try again then.
        for _ in 0..32 {
            match sample_once(&self.prep, self.view, self.catalog, rng, scratch) {
                Ok(g) => return Ok(g),
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    /// `seat`'s hand as the turn being chosen started, when the view's seat knows it card for
    /// card, as every sample deals it; `None` when part of it is unseen, outside a turn's choice
    /// of cards (before the turn resolves), and in the 2-player variant.
    ///
    /// Hands travel as packets (see the [module documentation](self)): the seat knows the packet
    /// it held at an earlier turn of this Age, less the card it used itself, for as long as every
    /// card taken out of it since was built in the open (a wonder stage or a discard hides which
    /// card left). So from turn 2 of an Age it knows the hand of the player it passed to, and
    /// those further on while their predecessors built. In the team variant the teammate's
    /// hand is shown, and known from the first turn.
    ///
    /// ```
    /// use rand::SeedableRng;
    /// use wonders_core::{Game, Setup, sample::Resampler};
    /// let mut game = Game::new(&Setup::new(4, 3)).unwrap();
    /// let view = game.view(0);
    /// assert!(Resampler::new(&view, game.catalog()).unwrap().known_hand(1).is_none());
    /// // Every seat plays its first legal action, and the packets move on.
    /// for s in 0..4 {
    ///     let a = game.legal_actions(s)[0];
    ///     game.submit(s, a).unwrap();
    /// }
    /// let view = game.view(0);
    /// let resampler = Resampler::new(&view, game.catalog()).unwrap();
    /// // Seat 1 now holds the packet seat 0 held, less the card seat 0 used.
    /// assert_eq!(&resampler.known_hand(1).unwrap()[..], game.hand(1));
    /// // Seat 2 holds seat 1's first packet, which seat 0 never saw.
    /// assert!(resampler.known_hand(2).is_none());
    /// ```
    pub fn known_hand(&self, seat: usize) -> Option<Hand> {
        let p = &self.prep;
        if p.fc || seat >= p.players || self.view.phase != Phase::Choose || p.resolved >= p.cur_turn {
            return None;
        }
        let size = *self.view.hand_sizes.get(seat)? as usize;
        let packet = packet_at(seat, p.cur_turn, p.age, p.n, false);
        // The last turn the packet was seen, and its content then.
        let (from, seen) =
            (1..=p.cur_turn as usize).rev().find_map(|t| Some((t, p.snapshots[packet].get(t)?.as_ref()?)))?;
        let mut hand: Hand = seen.iter().copied().collect();
        for t in from..p.cur_turn as usize {
            for removal in &p.removals[packet][t] {
                match *removal {
                    Removal::Known(c, _) if hand.take(c) => {}
                    _ => return None,
                }
            }
        }
        (hand.len() == size).then_some(hand)
    }
}

/// What every sample of one view shares (see [`Resampler`]): everything [`sample_once`] reads
/// from the view before its first random draw (errors included), and the parts of its later
/// steps that only read the view.
struct Prep<'v> {
    n: usize,
    fc: bool,
    players: usize,
    me: usize,
    age: u8,
    hs: usize,
    lt: usize,
    deck_players: u8,
    cur_turn: u8,
    resolved: u8,
    hands_discarded: bool,
    age_history: Vec<&'v LogEntry>,
    /// Removals per (packet, turn), in resolution order.
    removals: Vec<Vec<Vec<Removal>>>,
    /// Snapshots: packet → turn → known content.
    snapshots: Vec<Vec<Option<Vec<CardId>>>>,
    mate_packet: Option<(usize, &'v Hand)>,
    /// This Age's cards in cities, and this Age's penalty discards (Edifice).
    city_cards_of_age: Vec<CardId>,
    penalty_pile: Vec<CardId>,
    rebuilt_penalty: Vec<&'v LogEntry>,
    /// This Age's deck.
    deck: Vec<CardId>,
    /// Without Armada, and when the view does not show the discard pile: earlier Ages' cards in
    /// no city, the penalty discards taken out (before their shuffle).
    past: Option<Vec<CardId>>,
    /// The later Ages' decks before their guilds (Age III) and shuffle.
    later_decks: [Vec<CardId>; 2],
    guilds: Vec<CardId>,
    sale_at_turn_start: [Production; MAX_PLAYERS],
}

impl<'v> Prep<'v> {
    fn new(view: &'v View, catalog: &'static Catalog) -> Result<Prep<'v>, SampleError> {
        if catalog.edition != view.edition {
            return err("the catalog is not the view's edition");
        }
        let n = view.cities.len();
        let fc = view.free_city.is_some();
        let players = n - fc as usize;
        let me = view.seat as usize;
        let age = view.age;
        if !(3..=MAX_PLAYERS).contains(&n) || me >= players || !(1..=3).contains(&age) {
            return err("impossible seat, player count or Age");
        }
        // Armada: 8-card hands (7 with 8 players), so one more turn per Age (armada.md §2.2).
        let hs = match view.armada {
            Some(_) => crate::armada::hand_size(players as u8) as usize,
            None => HAND_SIZE,
        };
        let lt = hs - 1;
        // 8 players (Armada) use the 7-player decks with all 9 guilds (000 8人遊戲規則).
        let deck_players = (n as u8).min(7);
        let cur_turn = view.turn.clamp(1, lt as u8);
        let age_history: Vec<_> = view.history.iter().filter(|e| e.age == age).collect();
        // Turns of this Age already resolved.
        let resolved: u8 = age_history
            .iter()
            .filter(|e| {
                e.turn <= lt as u8
                    && matches!(e.played, Played::Built(_) | Played::Stage(_) | Played::Discarded)
            })
            .map(|e| e.turn)
            .max()
            .unwrap_or(0);
        let hands_discarded = view.phase != Phase::ChooseSide
            && view.hand_sizes.iter().all(|&h| h == 0)
            && (view.free_city.is_none() || view.draw_pile_size == 0);
        let holder0: usize = if age == 2 { 1 } else { 0 };
        let holder_at = |t: u8| holder0 ^ ((t as usize - 1) & 1);

        // Removals per (packet, turn), in resolution order (own city first, then the Free City).
        let packets = if fc { 2 } else { n };
        let mut removals: Vec<Vec<Vec<Removal>>> = vec![vec![Vec::new(); lt + 2]; packets];
        for e in &age_history {
            let (is_last_card, t) =
                if e.turn as usize == lt + 1 { (true, lt as u8) } else { (false, e.turn) };
            if t == 0 {
                continue;
            }
            let city = e.seat as usize;
            let hand_owner = if Some(e.seat) == view.free_city { holder_at(t) } else { city };
            let p = packet_at(hand_owner, t, age, n, fc);
            let slot = if is_last_card { lt + 1 } else { t as usize };
            let dest = match e.played {
                Played::Built(_) => None,
                Played::Stage(_) => Some(Dest::Stage),
                Played::Discarded => Some(Dest::Discard),
                _ => continue,
            };
            let removal = if hand_owner == me {
                // The seat knows the card it used.
                let idx = if is_last_card { lt } else { t as usize - 1 };
                let k = if Some(e.seat) == view.free_city { 1 } else { 0 };
                match view.used_cards.get(idx).and_then(|u| u.get(k)) {
                    Some(&c) => Removal::Known(c, dest),
                    None => return err("a card used by the viewing seat is missing from its memory"),
                }
            } else {
                match (e.played, dest) {
                    (Played::Built(c), _) => Removal::Known(c, None),
                    (_, Some(d)) => Removal::Hidden(d),
                    _ => continue,
                }
            };
            removals[p][slot].push(removal);
        }

        // Snapshots: packet → turn → known content.
        let mut snapshots: Vec<Vec<Option<Vec<CardId>>>> = vec![vec![None; lt + 1]; packets];
        for (i, h) in view.seen_hands.iter().enumerate() {
            let t = i as u8 + 1;
            if t > cur_turn {
                break;
            }
            let p = packet_at(me, t, age, n, fc);
            snapshots[p][t as usize] = Some(h.to_vec());
        }
        if view.phase == Phase::ChooseSide {
            // Before the first turn the seat has seen only its hand.
            snapshots[packet_at(me, 1, age, n, fc)][1] = Some(view.hand.to_vec());
        }

        // Team variant: the teammate's current hand is known (000 團隊遊戲規則). Before its turn
        // resolves it is the packet as the turn started; after, the packet as the next turn will
        // start (known to the reasoning about face-down cards, and checked below).
        let mate_packet = match &view.teammate_hand {
            Some(h) if view.teams && !hands_discarded => {
                let p = packet_at(crate::teams::teammate(me), cur_turn, age, n, fc);
                if resolved < cur_turn {
                    snapshots[p][cur_turn as usize] = Some(h.to_vec());
                } else if (cur_turn as usize) < lt {
                    snapshots[p][cur_turn as usize + 1] = Some(h.to_vec());
                }
                Some((p, h))
            }
            _ => None,
        };

        // Cards later built from the discard pile take the place of a discard of this Age.
        let mut city_cards_of_age: Vec<CardId> = Vec::new();
        for c in &view.cities {
            city_cards_of_age.extend(c.built.iter().filter(|&id| catalog.card(id).age == age));
        }
        // Edifice: this Age's cards discarded from a city for a failed project's penalty are public
        // (they are added to the discard pile below).
        let (penalty_pile, rebuilt_penalty) = penalty_discards(&view.history);
        city_cards_of_age.extend(penalty_pile.iter().copied().filter(|&c| catalog.card(c).age == age));

        // Earlier Ages' cards in no city (without Armada, whose cards of those Ages are drawn).
        let past = (view.discard.is_none() && view.armada.is_none()).then(|| {
            let mut past: Vec<CardId> = Vec::new();
            for a in 1..age {
                let mut cards = catalog.age_cards(a, deck_players);
                for c in &view.cities {
                    for id in c.built.iter().filter(|&id| catalog.card(id).age == a) {
                        if catalog.armada_card(id).is_none() {
                            remove_one(&mut cards, id);
                        }
                    }
                }
                past.extend(cards);
            }
            // Edifice: cards discarded from a city for a failed project's penalty are public.
            for &c in &penalty_pile {
                if catalog.card(c).age < age {
                    remove_one(&mut past, c);
                }
            }
            past
        });
        let mut later_decks: [Vec<CardId>; 2] = Default::default();
        for a in age + 1..=3 {
            later_decks[a as usize - 2] = catalog.age_cards(a, deck_players);
        }

        // What neighbours offered at the start of the turn (2nd edition, Babylon's last card).
        let mut sale_at_turn_start = [Production::default(); MAX_PLAYERS];
        for (i, c) in view.cities.iter().enumerate() {
            sale_at_turn_start[i] = c.for_sale;
        }
        if catalog.edition == Edition::Second && matches!(view.phase, Phase::PlayLastCard { .. }) {
            for (i, c) in view.cities.iter().enumerate() {
                let fresh: CardSet = age_history
                    .iter()
                    .filter(|e| e.seat as usize == i && e.turn as usize == lt)
                    .filter_map(|e| if let Played::Built(x) = e.played { Some(x) } else { None })
                    .fold(CardSet::EMPTY, |mut s, x| {
                        s.insert(x);
                        s
                    });
                let mut rebuilt = City::new(catalog, c.wonder, c.side);
                for id in c.built.iter().filter(|id| !fresh.contains(*id)) {
                    rebuilt.place(catalog, id);
                }
                sale_at_turn_start[i] = rebuilt.for_sale;
            }
        }

        Ok(Prep {
            n,
            fc,
            players,
            me,
            age,
            hs,
            lt,
            deck_players,
            cur_turn,
            resolved,
            hands_discarded,
            age_history,
            removals,
            snapshots,
            mate_packet,
            city_cards_of_age,
            penalty_pile,
            rebuilt_penalty,
            deck: catalog.age_cards(age, deck_players),
            past,
            later_decks,
            guilds: catalog.guilds(),
            sale_at_turn_start,
        })
    }
}

/// One sample of the view `prep` was made from (see the [module documentation](self)).
fn sample_once<R: Rng + ?Sized>(
    prep: &Prep,
    view: &View,
    catalog: &'static Catalog,
    rng: &mut R,
    scratch: &mut Scratch,
) -> Result<Game, SampleError> {
    let Prep {
        n,
        fc,
        players,
        me,
        age,
        hs,
        lt,
        deck_players,
        cur_turn,
        resolved,
        hands_discarded,
        ref age_history,
        ref removals,
        ref snapshots,
        mate_packet,
        ref city_cards_of_age,
        ref penalty_pile,
        ref rebuilt_penalty,
        ..
    } = *prep;
    let holder0: usize = if age == 2 { 1 } else { 0 };
    let holder_at = |t: u8| holder0 ^ ((t as usize - 1) & 1);
    let packets = if fc { 2 } else { n };

    // Follow every packet through the Age.
    let Scratch {
        slots,
        contents,
        hidden,
        reserved,
        res,
        doomed,
        free,
        all,
        rest,
        deck,
        known,
        cards,
        age_discards,
        past: past_buf,
        later: later_buf,
        guilds: guilds_buf,
    } = scratch;
    slots.append(contents);
    hidden.clear();
    for p in 0..packets {
        let mut content = slots.pop().unwrap_or_default();
        content.clear();
        content.resize(hs, Slot::Unknown);
        let mut step = |t: u8,
                        slot_index: usize,
                        content: &mut Vec<Slot>,
                        hidden: &mut Vec<Hidden>|
         -> Result<(), SampleError> {
            let list = &removals[p][slot_index];
            for (k, r) in list.iter().enumerate() {
                match *r {
                    Removal::Known(c, dest) => {
                        match content.iter().position(|s| *s == Slot::Known(c)) {
                            Some(i) => {
                                content.swap_remove(i);
                            }
                            None => match content.iter().position(|s| *s == Slot::Unknown) {
                                Some(i) => {
                                    content.swap_remove(i);
                                }
                                None => return err("a public card could not have been in its hand"),
                            },
                        }
                        if let Some(d) = dest {
                            hidden.push(Hidden { slot: Slot::Known(c), dest: d, turn: t, taken: false });
                        }
                    }
                    Removal::Hidden(dest) => {
                        // What must stay: cards seen in the packet at the next snapshot, and cards
                        // publicly taken from it before then (or at any later time if the seat
                        // never sees it again).
                        let next = (t as usize + 1..=lt).find(|&u| snapshots[p][u].is_some());
                        reserved.clear();
                        // Removals later this step, then up to the next snapshot (or to the
                        // Age's end, Babylon's last card included).
                        let until = next.unwrap_or(lt + 2);
                        let later = removals[p][t as usize + 1..until].iter().flatten();
                        for r2 in list.iter().skip(k + 1).chain(later) {
                            if let Removal::Known(c, _) = r2 {
                                reserved.push(*c);
                            }
                        }
                        if let Some(u) = next {
                            reserved.extend(snapshots[p][u].iter().flatten().copied());
                        }
                        let is_reserved = |c: CardId, reserved: &mut Vec<CardId>| remove_one(reserved, c);
                        doomed.clear();
                        free.clear();
                        res.clear();
                        res.extend_from_slice(reserved);
                        for (i, s) in content.iter().enumerate() {
                            match s {
                                Slot::Known(c) => {
                                    if !is_reserved(*c, res) {
                                        if next.is_some() { doomed.push(i) } else { free.push(i) }
                                    }
                                }
                                Slot::Unknown => free.push(i),
                            }
                        }
                        // Hidden removals left before the next snapshot, this one included.
                        let left: usize = match next {
                            Some(u) => {
                                list.iter().skip(k).filter(|r| matches!(r, Removal::Hidden(_))).count()
                                    + (t as usize + 1..u)
                                        .flat_map(|v| removals[p][v].iter())
                                        .filter(|r| matches!(r, Removal::Hidden(_)))
                                        .count()
                            }
                            None => usize::MAX,
                        };
                        let pick = if !doomed.is_empty() && doomed.len() >= left {
                            doomed[rng.random_range(0..doomed.len())]
                        } else {
                            all.clear();
                            all.extend(doomed.iter().chain(free.iter()).copied());
                            if all.is_empty() {
                                return err("a face-down card could not have been in its hand");
                            }
                            all[rng.random_range(0..all.len())]
                        };
                        let slot = content.swap_remove(pick);
                        hidden.push(Hidden { slot, dest, turn: t, taken: false });
                    }
                }
            }
            Ok(())
        };
        for t in 1..=cur_turn {
            if fc && view.phase != Phase::ChooseSide && seat_of(p, t, age, n, true) == holder_at(t) {
                content.push(Slot::Unknown); // the holder draws from the Free City's pile
            }
            if let Some(s) = &snapshots[p][t as usize] {
                if s.len() != content.len() {
                    return err("a remembered hand has the wrong size");
                }
                rest.clear();
                rest.extend_from_slice(s);
                for slot in &content {
                    if let Slot::Known(c) = slot
                        && !remove_one(rest, *c)
                    {
                        return err("a remembered hand does not hold a card it must hold");
                    }
                }
                content.clear();
                content.extend(s.iter().map(|&c| Slot::Known(c)));
            }
            if t <= resolved {
                step(t, t as usize, &mut content, hidden)?;
            }
        }
        if resolved as usize >= lt {
            step(lt as u8, lt + 1, &mut content, hidden)?;
        }
        contents.push(content);
    }

    if let Some((p, hand)) = mate_packet {
        // The teammate's packet ends as its shown hand.
        let mut rest = hand.to_vec();
        for slot in &contents[p] {
            if let Slot::Known(c) = slot
                && !remove_one(&mut rest, *c)
            {
                return err("the teammate's hand does not hold a card its packet must hold");
            }
        }
        if contents[p].len() != hand.len() {
            return err("the teammate's hand has the wrong size");
        }
        contents[p].clear();
        contents[p].extend(hand.iter().map(|&c| Slot::Known(c)));
    }

    // Cards later built from the discard pile take the place of a discard of this Age.
    for e in age_history {
        if let Played::BuiltDiscarded(x) = e.played
            && catalog.card(x).age == age
            && !rebuilt_penalty.iter().any(|r| std::ptr::eq(*r, *e))
        {
            let known =
                hidden.iter().position(|h| !h.taken && h.dest == Dest::Discard && h.slot == Slot::Known(x));
            let unknown: Vec<usize> = (0..hidden.len())
                .filter(|&i| {
                    !hidden[i].taken
                        && hidden[i].dest == Dest::Discard
                        && hidden[i].slot == Slot::Unknown
                        && hidden[i].turn <= e.turn
                })
                .collect();
            match (known, unknown.is_empty()) {
                (Some(i), _) => hidden[i].taken = true,
                (None, false) => hidden[unknown[rng.random_range(0..unknown.len())]].taken = true,
                (None, true) => return err("a card built from the discard pile was never discarded"),
            }
        }
    }

    // This Age's unseen cards.
    deck.clear();
    deck.extend_from_slice(&prep.deck);
    known.clear();
    known.extend_from_slice(city_cards_of_age);
    for content in contents.iter() {
        known.extend(content.iter().filter_map(|s| if let Slot::Known(c) = s { Some(*c) } else { None }));
    }
    known.extend(
        hidden
            .iter()
            .filter(|h| !h.taken)
            .filter_map(|h| if let Slot::Known(c) = h.slot { Some(c) } else { None }),
    );
    if age == 3 {
        let mut in_play: Vec<CardId> =
            known.iter().copied().filter(|&c| catalog.card(c).is_guild()).collect();
        in_play.sort();
        in_play.dedup();
        let mut others: Vec<CardId> = prep.guilds.iter().copied().filter(|g| !in_play.contains(g)).collect();
        crate::shuffle::shuffle(&mut others, rng);
        let need = (deck_players as usize + 2).saturating_sub(in_play.len());
        if need > others.len() {
            return err("more guilds seen than are in play");
        }
        deck.extend(in_play);
        deck.extend(others.into_iter().take(need));
    }
    if view.armada.is_some() {
        // Armada: this Age's Armada cards seen, and the rest of the Age's draw from its pool
        // (one per player, 7 with 8 players; with 3 players the two-neighbour cards are out;
        // armada.md §2.2).
        let mut in_play: Vec<CardId> =
            known.iter().copied().filter(|&c| catalog.armada_card(c).is_some()).collect();
        in_play.sort();
        in_play.dedup();
        let mut others: Vec<CardId> = catalog
            .armada_age_pool(age, players as u8)
            .into_iter()
            .filter(|c| !in_play.contains(c))
            .collect();
        crate::shuffle::shuffle(&mut others, rng);
        let need = (crate::armada::dealt_per_age(players as u8) as usize).saturating_sub(in_play.len());
        if need > others.len() {
            return err("more Armada cards seen than are in play");
        }
        deck.extend(in_play);
        deck.extend(others.into_iter().take(need));
    }
    let pool = deck;
    for &c in known.iter() {
        if !remove_one(pool, c) {
            return err(format!("{} is seen more often than the deck holds it", catalog.card(c).name));
        }
    }
    crate::shuffle::shuffle(&mut pool[..], rng);
    let draw = |pool: &mut Vec<CardId>| pool.pop().ok_or_else(|| SampleError("too few unseen cards".into()));

    // Hands now.
    let mut hands: [Hand; MAX_PLAYERS] = Default::default();
    age_discards.clear();
    for (p, content) in contents.iter().enumerate() {
        cards.clear();
        for s in content {
            cards.push(match s {
                Slot::Known(c) => *c,
                Slot::Unknown => draw(pool)?,
            });
        }
        if hands_discarded {
            age_discards.extend_from_slice(cards);
        } else {
            let seat = seat_of(p, cur_turn, age, n, fc);
            if seat == me && cards.len() == view.hand.len() {
                hands[seat] = view.hand;
            } else {
                hands[seat] = cards.iter().copied().take(HAND_MAX).collect();
            }
        }
    }
    for h in hidden.iter() {
        let card = match h.slot {
            Slot::Known(c) => Some(c),
            Slot::Unknown if !h.taken => Some(draw(pool)?),
            Slot::Unknown => None,
        };
        if let (Some(c), Dest::Discard, false) = (card, h.dest, h.taken) {
            age_discards.push(c);
        }
    }
    if let Some(f) = view.free_city {
        // The Free City's pile: one card drawn each turn; at the end of the Age the last one was
        // discarded with the players' last cards.
        let left =
            if hands_discarded { hs.saturating_sub(cur_turn as usize) } else { view.draw_pile_size as usize };
        let mut pile = Hand::new();
        for _ in 0..left {
            let _ = pile.try_push(draw(pool)?);
        }
        if hands_discarded {
            age_discards.extend(pile);
        } else {
            hands[f as usize] = pile;
        }
    }
    if !pool.is_empty() {
        return err("unseen cards are left over");
    }
    for (s, &size) in view.hand_sizes.iter().enumerate() {
        if hands[s].len() != size as usize {
            return err("a sampled hand has the wrong size");
        }
    }

    // The discard pile.
    let discard: &[CardId] = match &view.discard {
        Some(d) => d,
        None => {
            let pile = age_discards;
            let past = match &prep.past {
                Some(past) => {
                    past_buf.clear();
                    past_buf.extend_from_slice(past);
                    past_buf
                }
                None => {
                    let mut past: Vec<CardId> = Vec::new();
                    for a in 1..age {
                        let mut cards = catalog.age_cards(a, deck_players);
                        let mut armada_built = 0;
                        for c in &view.cities {
                            for id in c.built.iter().filter(|&id| catalog.card(id).age == a) {
                                if catalog.armada_card(id).is_some() {
                                    armada_built += 1;
                                } else {
                                    remove_one(&mut cards, id);
                                }
                            }
                        }
                        if view.armada.is_some() {
                            // The Armada cards of that Age in no city, drawn from its pool (§2.2).
                            let mut pool: Vec<CardId> = catalog
                                .armada_age_pool(a, players as u8)
                                .into_iter()
                                .filter(|&id| !view.cities.iter().any(|c| c.built.contains(id)))
                                .collect();
                            crate::shuffle::shuffle(&mut pool, rng);
                            let need = (crate::armada::dealt_per_age(players as u8) as usize)
                                .saturating_sub(armada_built);
                            cards.extend(pool.into_iter().take(need));
                        }
                        past.extend(cards);
                    }
                    // Edifice: cards discarded from a city for a failed project's penalty are
                    // public.
                    for &c in penalty_pile {
                        if catalog.card(c).age < age {
                            remove_one(&mut past, c);
                        }
                    }
                    *past_buf = past;
                    past_buf
                }
            };
            pile.extend(penalty_pile.iter().copied());
            crate::shuffle::shuffle(&mut past[..], rng);
            let want = view.discard_size as usize;
            if pile.len() > want || want - pile.len() > past.len() {
                return err("the discard pile cannot have its size");
            }
            let extra = want - pile.len();
            pile.extend(past.iter().copied().take(extra));
            pile
        }
    };

    // Later Ages, dealt afresh.
    let mut later: [[Hand; MAX_PLAYERS]; 2] = Default::default();
    for a in age + 1..=3 {
        let deck = &mut *later_buf;
        deck.clear();
        deck.extend_from_slice(&prep.later_decks[a as usize - 2]);
        if a == 3 {
            let guilds = &mut *guilds_buf;
            guilds.clear();
            guilds.extend_from_slice(&prep.guilds);
            crate::shuffle::shuffle(&mut guilds[..], rng);
            deck.extend(guilds.iter().copied().take(deck_players as usize + 2));
        }
        if view.armada.is_some() {
            let mut pool = catalog.armada_age_pool(a, players as u8);
            crate::shuffle::shuffle(&mut pool, rng);
            pool.truncate(crate::armada::dealt_per_age(players as u8) as usize);
            deck.extend(pool);
        }
        crate::shuffle::shuffle(&mut deck[..], rng);
        for (seat, chunk) in deck.chunks(hs).take(n).enumerate() {
            later[a as usize - 2][seat] = chunk.iter().copied().collect();
        }
    }

    let sale_at_turn_start = prep.sale_at_turn_start;

    let mut cities = [view.cities[0]; MAX_PLAYERS];
    for (i, c) in view.cities.iter().enumerate() {
        cities[i] = *c;
    }
    let mut chosen = [None; MAX_PLAYERS];
    if matches!(view.phase, Phase::Choose | Phase::ChooseSide) {
        chosen[me] = view.own_choice;
    }
    let mut picks = [0u8; MAX_PLAYERS];
    if let Phase::BuildFromDiscard { city } = view.phase {
        picks[city as usize] = 1;
    }
    if matches!(view.phase, Phase::PlayLastCard { .. }) {
        // A Halicarnassus stage built on the last turn still owes its build from the discard
        // pile, after Babylon's last card.
        for e in age_history.iter().filter(|e| e.turn as usize == lt) {
            if let Played::Stage(k) = e.played {
                let c = &view.cities[e.seat as usize];
                let stage = &catalog.wonder(c.wonder).stages(c.side)[k as usize - 1];
                if stage.effects.contains(&crate::effect::Effect::BuildFromDiscard) {
                    picks[e.seat as usize] += 1;
                }
            }
        }
    }
    // Armada: an exploration (step 4 of the turn, armada.md §2.6) comes before the builds from the
    // discard pile of the same turn: a Halicarnassus stage built in the turn just resolved still
    // owes its build.
    // A choice of ships for an island's free moves (step 3, or a green card built from the
    // discard pile) sits at the same point of the turn as an exploration.
    let exploring = matches!(view.phase, Phase::Explore { .. } | Phase::IslandMoves { .. });
    if exploring {
        let t = view.turn;
        for e in age_history.iter().filter(|e| e.turn == t || e.turn as usize == lt + 1) {
            let c = &view.cities[e.seat as usize];
            match e.played {
                Played::Stage(k) => {
                    let stage = &catalog.wonder(c.wonder).stages(c.side)[k as usize - 1];
                    if stage.effects.contains(&crate::effect::Effect::BuildFromDiscard) {
                        picks[e.seat as usize] += 1;
                    }
                }
                Played::BuiltDiscarded(_) | Played::Passed => {
                    picks[e.seat as usize] = picks[e.seat as usize].saturating_sub(1)
                }
                _ => {}
            }
        }
    }
    let armada = match &view.armada {
        Some(av) => Some(Box::new(sample_armada(av, &view.history, &view.log, catalog, n, me, rng)?)),
        None => None,
    };
    let mut memory: [[Hand; MAX_TURNS]; MAX_PLAYERS] = Default::default();
    for (i, h) in view.seen_hands.iter().enumerate().take(lt) {
        memory[me][i] = *h;
    }
    let mut used: [[Used; MAX_TURNS + 1]; MAX_PLAYERS] = Default::default();
    for (i, u) in view.used_cards.iter().enumerate().take(lt + 1) {
        used[me][i] = u.clone();
    }
    Ok(Game {
        catalog,
        seed: 0,
        cities_n: n as u8,
        free_city: view.free_city,
        holder: view.free_city_holder.unwrap_or(0),
        controller: view.free_city_controller.unwrap_or(0),
        age,
        turn: view.turn,
        phase: view.phase,
        cities,
        hands,
        later_hands: later,
        discard: discard.iter().copied().take(160).collect::<ArrayVec<CardId, 160>>(),
        chosen,
        picks,
        age_ending: matches!(view.phase, Phase::PlayLastCard { .. })
            || (exploring && !hands_discarded && resolved as usize >= lt),
        age_end_due: ((matches!(view.phase, Phase::BuildFromDiscard { .. }) || exploring) && hands_discarded)
            || matches!(view.phase, Phase::EdificeDiscard { .. } | Phase::NavalOptOut { .. }),
        pass_due: (matches!(view.phase, Phase::BuildFromDiscard { .. }) || exploring)
            && !hands_discarded
            && (resolved as usize) < lt,
        // With Armada the step log lives in the Armada state (above).
        log: if armada.is_some() {
            ArrayVec::new()
        } else {
            view.log.iter().copied().take(BASE_LOG_MAX).collect()
        },
        // With Armada the history lives in the Armada state (above).
        history: if armada.is_some() {
            ArrayVec::new()
        } else {
            view.history.iter().copied().take(HISTORY_MAX).collect()
        },
        memory,
        used,
        sale_at_turn_start,
        edifice: view.edifice,
        last_turn: lt as u8,
        armada,
        teams: view.teams,
    })
}

/// Armada (armada.md §2.2, §2.6): the island decks dealt at random, everything else copied from
/// the view (shipyards, islands in play, naval tokens, the losses and incursions noted, the
/// explorations due and Forgotten Port's choices are public).
///
/// Every island not in play is in its level's deck: an exploration's unchosen cards go back and
/// the deck is reshuffled (`armada::explore::return_and_shuffle`), so the islands this seat saw
/// and returned are in it too, in an unknown place. During an exploration the islands kept so far
/// are still in the deck until every explorer has chosen; this seat's dealt cards are known, the
/// other explorers' are drawn from the rest of the deck.
fn sample_armada<R: Rng + ?Sized>(
    av: &crate::armada::state::ArmadaView,
    history: &[LogEntry],
    log: &[LogEntry],
    catalog: &'static Catalog,
    n: usize,
    me: usize,
    rng: &mut R,
) -> Result<crate::armada::ArmadaState, SampleError> {
    use crate::armada::state::{ArmadaState, Exploration, IslandDeck};
    use crate::armada::{ArmadaCity, BoardId, IslandId, IslandSet};
    use rand::SeedableRng;
    let data = av.data;
    if av.cities.len() != n {
        return err("the Armada view has the wrong number of cities");
    }
    let mut cities = [ArmadaCity::new(BoardId(0)); MAX_PLAYERS];
    let mut in_play = IslandSet::EMPTY;
    for (slot, c) in cities.iter_mut().zip(&av.cities) {
        *slot = *c;
        in_play.0 |= c.islands.0;
    }
    let mut kept = IslandSet::EMPTY;
    if let Some(e) = &av.exploring {
        for &k in &e.kept {
            kept.insert(k);
        }
    }
    if av.seen.0 & in_play.0 != in_play.0 {
        return err("the seat has not seen an island in play");
    }
    // Every seat has seen the islands in play; this seat also the ones it was dealt.
    let mut seen = [in_play; MAX_PLAYERS];
    seen[me] = av.seen;
    let mut decks: [IslandDeck; 3] = Default::default();
    let mut exploring = None;
    for level in 1u8..=3 {
        let mut deck: Vec<IslandId> = data
            .islands_of_level(level)
            .into_iter()
            .filter(|&i| !in_play.contains(i) || kept.contains(i))
            .collect();
        if deck.len() != av.deck_sizes[level as usize - 1] as usize {
            return err(format!("the level {level} island deck cannot have its size"));
        }
        crate::shuffle::shuffle(&mut deck, rng);
        if let Some(e) = av.exploring.as_ref().filter(|e| e.level == level) {
            // The cards still held by the other explorers: none of this seat's, none kept.
            let mut rest: Vec<IslandId> =
                deck.iter().copied().filter(|i| !av.dealt.contains(i) && !kept.contains(*i)).collect();
            let mut waiting = ArrayVec::new();
            for &(city, count) in &e.waiting {
                let dealt: crate::armada::explore::Dealt = if city as usize == me {
                    if av.dealt.len() != count as usize {
                        return err("the islands dealt to the seat do not match their count");
                    }
                    av.dealt.iter().copied().collect()
                } else {
                    if rest.len() < count as usize {
                        return err("too few islands for the explorers still choosing");
                    }
                    rest.split_off(rest.len() - count as usize).into_iter().collect()
                };
                for &i in &dealt {
                    seen[city as usize].insert(i);
                }
                waiting.push((city, dealt));
            }
            exploring = Some(Exploration { level, waiting, kept: e.kept.clone() });
        }
        decks[level as usize - 1] = deck.into_iter().collect();
    }
    if av.exploring.is_some() && exploring.is_none() {
        return err("the exploration under way has no level");
    }
    Ok(ArmadaState {
        data,
        first_card: catalog.armada_first(),
        cities,
        decks,
        seen,
        pending: av.pending,
        incursions: av.incursions.clone(),
        explore_due: av.explore_due.clone(),
        exploring,
        moves_due: av.moves_due.clone(),
        naval_decided: av.naval_decided,
        stay_out: av.stay_out,
        rng: rand_chacha::ChaCha8Rng::seed_from_u64(rng.random()),
        // The turn whose steps 4–6 may still log (an exploration under way): the last logged.
        turn: history.last().map_or(1, |e| e.turn),
        // A game with Armada keeps its whole log here ([`crate::Game::history`]).
        history: history.iter().copied().take(crate::armada::state::ARMADA_HISTORY_MAX).collect(),
        // … and its step log.
        log: log.iter().copied().take(LOG_MAX).collect(),
    })
}
