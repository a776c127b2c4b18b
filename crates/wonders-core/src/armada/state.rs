//! The state an Armada game adds to [`crate::Game`]: each city's shipyard and islands, the three
//! hidden island decks and what each seat has seen of them (armada.md §2.2, §2.6).
//!
//! A game without Armada holds none of it (`Game::armada` is `None`), so the base game pays
//! nothing for it.

use super::{ArmadaCity, ArmadaData, BoardId, Fleet, IslandId, IslandSet};
use crate::limits::{LOG_MAX, MAX_PLAYERS, MAX_TURNS};
use crate::log::LogEntry;
use arrayvec::ArrayVec;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The most cards of one island level (the box has 9; a data file may have up to 32 islands).
pub const DECK_MAX: usize = 32;

/// The longest public log of a game with Armada, which the Armada state holds in place of
/// [`crate::limits::HISTORY_MAX`]'s (so that the base game's [`crate::Game`] does not grow). The
/// bound, per city: one action per turn and Babylon's last card (3 × ([`MAX_TURNS`] + 1) = 24),
/// builds from the discard pile (≤ 4, one per wonder stage), ship moves (4 ships × 6 steps = 24),
/// explorations finding nothing and taxes levied (≤ 6 each: one per green or yellow space), one
/// step-6 loss or immunity per turn (24), naval results and Forgotten Port choices (6), the side
/// choice (1) and Edifice events (≤ 11: a pawn per stage taken part or Ur, an outcome per Age):
/// 106 per city, 848 for 8 cities; and over the whole game, the islands (≤ 32, one entry each),
/// piracies and incursion tokens (≤ the 24 Armada cards dealt and the islands, 24 + 32) and
/// incursion conflicts (≤ 24): 960 in all, within 1024.
pub const ARMADA_HISTORY_MAX: usize = 1024;

/// [`ARMADA_HISTORY_MAX`]'s bound, computed from its terms (a test checks it fits).
pub const ARMADA_HISTORY_BOUND: usize = {
    let turns = 3 * (MAX_TURNS + 1);
    let steps = super::TOP_STEP as usize;
    let per_city = turns + 4 + 4 * steps + 2 * steps + turns + 6 + 1 + 11;
    let (islands, armada_cards) = (32, 3 * MAX_PLAYERS);
    MAX_PLAYERS * per_city + islands + (armada_cards + islands) + armada_cards
};
const _: () = assert!(ARMADA_HISTORY_BOUND <= ARMADA_HISTORY_MAX);

/// The whole public log of a game with Armada, up to [`ARMADA_HISTORY_MAX`] entries, on the heap:
/// a bounded list like the `ArrayVec` it replaces, so that [`ArmadaState`] stays small and a new
/// game does not copy 14 KB of empty log into its box (that copy was a twentieth of a
/// random Armada game's instructions).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArmadaHistory(Vec<LogEntry>);

impl ArmadaHistory {
    /// An empty log.
    pub const fn new() -> ArmadaHistory {
        ArmadaHistory(Vec::new())
    }

    /// Appends `entry`, or gives it back when the log already holds [`ARMADA_HISTORY_MAX`].
    pub fn try_push(&mut self, entry: LogEntry) -> Result<(), LogEntry> {
        if self.0.len() >= ARMADA_HISTORY_MAX {
            return Err(entry);
        }
        self.0.push(entry);
        Ok(())
    }
}

impl std::ops::Deref for ArmadaHistory {
    type Target = [LogEntry];
    fn deref(&self) -> &[LogEntry] {
        &self.0
    }
}

impl FromIterator<LogEntry> for ArmadaHistory {
    /// The first [`ARMADA_HISTORY_MAX`] entries.
    fn from_iter<I: IntoIterator<Item = LogEntry>>(iter: I) -> ArmadaHistory {
        ArmadaHistory(iter.into_iter().take(ARMADA_HISTORY_MAX).collect())
    }
}

/// The most islands whose free moves can wait for their owner's choice at once: one per green
/// card built in a turn (one per city, and one per build from the discard pile).
pub const MOVES_DUE_MAX: usize = 2 * MAX_PLAYERS;

/// One level's island deck, face down; the top card is the last.
pub type IslandDeck = ArrayVec<IslandId, DECK_MAX>;

/// Everything Armada adds to a game.
#[derive(Clone, Debug)]
pub struct ArmadaState {
    /// The Armada data of the game.
    pub data: &'static ArmadaData,
    /// The catalog id of the first Armada card ([`crate::Catalog::armada_first`]).
    pub first_card: u8,
    /// Each city's shipyard, islands in play, Armada cards and naval tokens (all public).
    pub cities: [ArmadaCity; MAX_PLAYERS],
    /// The three hidden island decks, by level 1–3 (index 0–2; §2.2 item 4).
    pub decks: [IslandDeck; 3],
    /// The island cards each seat has seen (the ones it was dealt in an exploration and returned
    /// as well as every island in play): what its view remembers (§2.6).
    pub seen: [IslandSet; MAX_PLAYERS],
    /// The coin losses of the current turn, applied at its step 6 (§2.4, §2.7).
    pub pending: Losses,
    /// The incursion tokens handed out this Age, as (holder, target) (§2.8).
    pub incursions: ArrayVec<(u8, u8), MAX_PLAYERS>,
    /// The explorations due this turn, as (city, level), in the order the ships arrived (§2.6).
    pub explore_due: ArrayVec<(u8, u8), 32>,
    /// The exploration under way: its level, and each explorer still to choose with the cards
    /// dealt to it.
    pub exploring: Option<Exploration>,
    /// Islands that came into play from a green card with free moves of 2 or 3 different ships
    /// of the owner's choice (White-Surf Port, Tempest Archipelago; 000 符號說明「任意2艘或者3艘
    /// 不同的船隻」) while the owner has more than one way to make them, as (city, island), in
    /// the order they came: each owner chooses its ships before the turn goes on (public).
    pub moves_due: ArrayVec<(u8, IslandId), MOVES_DUE_MAX>,
    /// Forgotten Port, this Age end: the cities that chose (bitset) and those staying out.
    pub naval_decided: u8,
    /// Forgotten Port: the cities staying out of this Age's naval conflict (bitset).
    pub stay_out: u8,
    /// The random source that reshuffles the island decks after an exploration (its own stream
    /// of the seed).
    pub rng: ChaCha8Rng,
    /// The turn being resolved, as its log entries show it (Babylon's last card: the Age's
    /// turns + 1): the turn of the step 4 and step 6 entries ([`super::log`]).
    pub turn: u8,
    /// The whole public log of the game ([`crate::Game::history`]), which a game with Armada
    /// keeps here, up to [`ARMADA_HISTORY_MAX`] entries.
    pub history: ArmadaHistory,
    /// The last resolved step's log ([`crate::Game::last_log`]), which a game with Armada keeps
    /// here, up to [`LOG_MAX`] entries.
    pub log: ArrayVec<LogEntry, LOG_MAX>,
}

/// An exploration under way (armada.md §2.6): the level explored, the explorers still to choose
/// with the cards dealt to each, and the islands kept so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exploration {
    /// The level explored (1–3).
    pub level: u8,
    /// Each explorer still to choose, with the cards dealt to it.
    pub waiting: ArrayVec<(u8, super::explore::Dealt), MAX_PLAYERS>,
    /// The islands kept so far.
    pub kept: ArrayVec<IslandId, MAX_PLAYERS>,
}

/// The coin losses a turn has collected by its step 6 (armada.md §2.7): the tax each city levied
/// (its yellow ship reached a tax space) and the piracies each resolved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Losses {
    /// The highest tax each city levied this turn (0: none).
    pub tax: [u8; MAX_PLAYERS],
    /// The number of piracies each city resolved this turn (each costs every *other* player 1
    /// coin per trade level).
    pub piracies: [u8; MAX_PLAYERS],
}

impl Losses {
    /// Whether nothing is owed.
    ///
    /// Asked at every step of the game: the two arrays are read as whole words.
    #[inline]
    pub fn is_empty(&self) -> bool {
        u64::from_ne_bytes(self.tax) | u64::from_ne_bytes(self.piracies) == 0
    }
}

impl PartialEq for ArmadaState {
    /// Equal when on the same data and every part of the state is equal.
    fn eq(&self, o: &ArmadaState) -> bool {
        std::ptr::eq(self.data, o.data)
            && self.cities == o.cities
            && self.decks == o.decks
            && self.seen == o.seen
            && self.pending == o.pending
            && self.incursions == o.incursions
            && self.explore_due == o.explore_due
            && self.exploring == o.exploring
            && self.moves_due == o.moves_due
            && self.naval_decided == o.naval_decided
            && self.stay_out == o.stay_out
            && self.rng == o.rng
            && self.turn == o.turn
            && self.history == o.history
            && self.log == o.log
    }
}

impl Eq for ArmadaState {}

impl ArmadaState {
    /// The Armada card a catalog card is, if it is one.
    pub fn card_of(&self, card: crate::CardId) -> Option<super::ArmadaCardId> {
        let i = card.0.checked_sub(self.first_card)?;
        (usize::from(i) < self.data.cards().len()).then_some(super::ArmadaCardId(i))
    }

    /// The setup of §2.2 for `cities` players: the boards dealt at random (items 6; 000 says
    /// "each player takes a board"), and each level's islands shuffled into a face-down deck
    /// (item 4). It uses a random stream of its own (3), so the base game's deal from the same
    /// seed does not change.
    pub fn new(data: &'static ArmadaData, first_card: u8, cities: usize, seed: u64) -> ArmadaState {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(3);
        let mut boards: Vec<BoardId> = data.boards().iter().map(|b| b.id).collect();
        crate::shuffle::shuffle(&mut boards, &mut rng);
        let mut armada_cities = [ArmadaCity::new(BoardId(0)); MAX_PLAYERS];
        for (slot, &b) in armada_cities.iter_mut().zip(boards.iter()).take(cities) {
            *slot = ArmadaCity::new(b);
        }
        let mut decks: [IslandDeck; 3] = Default::default();
        for (level, deck) in (1u8..=3).zip(decks.iter_mut()) {
            // The level's islands in id order (as `ArmadaData::islands_of_level`, without a
            // list on the heap: a data file has 9 per level), shuffled into the deck.
            for island in data.islands().iter().filter(|d| d.level == level) {
                let _ = deck.try_push(island.id);
            }
            crate::shuffle::shuffle(&mut deck[..], &mut rng);
        }
        ArmadaState {
            data,
            first_card,
            cities: armada_cities,
            decks,
            seen: [IslandSet::EMPTY; MAX_PLAYERS],
            pending: Losses::default(),
            incursions: ArrayVec::new(),
            explore_due: ArrayVec::new(),
            exploring: None,
            moves_due: ArrayVec::new(),
            naval_decided: 0,
            stay_out: 0,
            rng: {
                let mut r = ChaCha8Rng::seed_from_u64(seed);
                r.set_stream(5);
                r
            },
            turn: 1,
            // Room for a whole 4-player game's log in one allocation (about 200 entries).
            history: ArmadaHistory(Vec::with_capacity(256)),
            log: ArrayVec::new(),
        }
    }

    /// The trade level of `city` (the number on its yellow ship's space; §2.7).
    pub fn trade_level(&self, city: usize) -> u8 {
        self.cities[city].trade_level(self.data)
    }

    /// Whether `city`'s ship of `fleet` can still move (below step 6; §2.3).
    pub fn can_advance(&self, city: usize, fleet: Fleet) -> bool {
        self.cities[city].shipyard.can_advance(fleet)
    }

    /// Whether one of `city`'s Armada cards or islands has that effect.
    #[inline]
    pub fn has(&self, city: usize, effect: super::ArmadaEffect) -> bool {
        self.cities[city].has(self.data, effect)
    }
}

/// What one seat may know of the Armada state (armada.md §2.6; the quality bar's hidden
/// information): every shipyard and every island in play (public), the number of cards left in
/// each island deck (never their order or contents), and the island cards this seat has seen.
#[derive(Clone, Debug)]
pub struct ArmadaView {
    /// The game's Armada data.
    pub data: &'static ArmadaData,
    /// Each city's shipyard, islands, Armada cards and naval tokens.
    pub cities: ArrayVec<ArmadaCity, MAX_PLAYERS>,
    /// Cards left in the island decks of levels 1, 2 and 3.
    pub deck_sizes: [u8; 3],
    /// The island cards this seat has seen (in play, or dealt to it in an exploration).
    pub seen: IslandSet,
    /// The coin losses noted for the current turn's step 6 (public: they come from the ships
    /// and cards everyone saw move and be built).
    pub pending: Losses,
    /// The incursion tokens handed out this Age (public).
    pub incursions: ArrayVec<(u8, u8), MAX_PLAYERS>,
    /// The islands dealt to this seat in the exploration under way, while it chooses.
    pub dealt: Vec<IslandId>,
    /// The explorations still due this turn, as (city, level) (public: everyone saw the ships
    /// reach their exploration spaces; §2.6).
    pub explore_due: ArrayVec<(u8, u8), 32>,
    /// The exploration under way, as the table sees it: its level, the explorers still to choose
    /// with the number of cards each was dealt, and the islands kept so far (face up; §2.6).
    pub exploring: Option<ExplorationView>,
    /// The islands whose free moves wait for their owner's choice of ships, as (city, island)
    /// ([`ArmadaState::moves_due`]; public).
    pub moves_due: ArrayVec<(u8, IslandId), MOVES_DUE_MAX>,
    /// Forgotten Port, this Age end: the cities that chose (bitset) and those staying out (§6).
    pub naval_decided: u8,
    /// Forgotten Port: the cities staying out of this Age's naval conflict (bitset).
    pub stay_out: u8,
}

/// The public part of an exploration under way (armada.md §2.6): which cards each explorer holds
/// stays hidden, how many it holds does not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplorationView {
    /// The level explored (1–3).
    pub level: u8,
    /// Each explorer still to choose, in order, with the number of cards dealt to it.
    pub waiting: ArrayVec<(u8, u8), MAX_PLAYERS>,
    /// The islands kept so far.
    pub kept: ArrayVec<IslandId, MAX_PLAYERS>,
}

impl PartialEq for ArmadaView {
    /// Equal when on the same data with equal contents.
    fn eq(&self, o: &ArmadaView) -> bool {
        std::ptr::eq(self.data, o.data)
            && self.cities == o.cities
            && self.deck_sizes == o.deck_sizes
            && self.seen == o.seen
            && self.pending == o.pending
            && self.incursions == o.incursions
            && self.dealt == o.dealt
            && self.explore_due == o.explore_due
            && self.exploring == o.exploring
            && self.moves_due == o.moves_due
            && self.naval_decided == o.naval_decided
            && self.stay_out == o.stay_out
    }
}

impl ArmadaState {
    /// What `seat` may know of this state (`cities` cities).
    pub fn view(&self, seat: usize, cities: usize) -> ArmadaView {
        ArmadaView {
            data: self.data,
            cities: self.cities[..cities].iter().copied().collect(),
            deck_sizes: [0, 1, 2].map(|i| self.decks[i].len() as u8),
            seen: self.seen.get(seat).copied().unwrap_or_default(),
            pending: self.pending,
            incursions: self.incursions.clone(),
            dealt: self
                .exploring
                .as_ref()
                .and_then(|e| e.waiting.iter().find(|(c, _)| *c as usize == seat))
                .map(|(_, d)| d.to_vec())
                .unwrap_or_default(),
            explore_due: self.explore_due.clone(),
            exploring: self.exploring.as_ref().map(|e| ExplorationView {
                level: e.level,
                waiting: e.waiting.iter().map(|(c, d)| (*c, d.len() as u8)).collect(),
                kept: e.kept.clone(),
            }),
            moves_due: self.moves_due.clone(),
            naval_decided: self.naval_decided,
            stay_out: self.stay_out,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Payment;
    use crate::log::Played;

    fn entry(turn: u8) -> LogEntry {
        LogEntry { age: 1, turn, seat: 0, played: Played::Discarded, pay: Payment::default(), income: 3 }
    }

    #[test]
    fn the_history_keeps_at_most_its_bound_and_reads_as_a_slice() {
        let mut h = ArmadaHistory::new();
        for i in 0..ARMADA_HISTORY_MAX {
            assert_eq!(h.try_push(entry((i % 7) as u8 + 1)), Ok(()));
        }
        // The 1025th entry is given back, as `ArrayVec::try_push` did.
        assert_eq!(h.try_push(entry(7)), Err(entry(7)));
        assert_eq!(h.len(), 1024);
        assert_eq!((h[0].turn, h[6].turn, h[7].turn), (1, 7, 1));
        // Collected from more entries, it keeps the first 1024.
        let c: ArmadaHistory = (0..2000).map(|i| entry((i % 7) as u8 + 1)).collect();
        assert_eq!(c.len(), 1024);
        assert_eq!(c, h);
    }

    #[test]
    fn the_state_stays_small() {
        // The log lives on the heap: the state a new game boxes is about 2 KB (the step log of
        // 104 entries of 14 bytes is most of it), not the 16 KB it was with the history inline.
        assert!(std::mem::size_of::<ArmadaState>() < 2600, "{}", std::mem::size_of::<ArmadaState>());
    }
}
