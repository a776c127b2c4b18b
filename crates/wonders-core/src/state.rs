//! What a game is: its setup ([`Setup`], [`WonderDeal`]), the step it waits for ([`Phase`]) and
//! its whole state ([`Game`]). The conductor (the `game` module) plays the game through its
//! steps; the expansions ([`crate::edifice`], [`crate::armada`]) read and change this state at
//! the points the conductor calls them, and the views, records and samplers read it.

use crate::action::Action;
use crate::armada::ArmadaState;
use crate::card::CardId;
use crate::catalog::{Catalog, Edition, Side, WonderId};
use crate::city::{City, Production};
use crate::edifice::{EdificeState, Expansions};
use crate::hand::Hand;
use crate::limits::{BASE_LOG_MAX, HISTORY_MAX, MAX_PLAYERS, MAX_TURNS};
use crate::log::{LogEntry, Used};
use arrayvec::ArrayVec;

/// How wonder boards are given out.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum WonderDeal {
    /// Random boards, each on a random side (002 奇蹟: the drawn wonder card decides both).
    #[default]
    Random,
    /// Random boards, all on this side (side A is recommended for first games).
    RandomBoards(Side),
    /// Chosen by the players ("if all agree"), one per city; `None` draws the side at random.
    Chosen(Vec<(WonderId, Option<Side>)>),
    /// Random boards; each player then chooses the side (the 2nd edition's rule, 004 遊戲準備:
    /// "每位玩家隨機拿取一塊奇蹟面板，選擇自己喜歡的一面").
    RandomBoardsChooseSides,
}

/// Everything needed to start a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The edition.
    pub edition: Edition,
    /// Number of players, 3 to 7 (8 with Armada); 2 plays the 1st edition's Free City variant.
    pub players: u8,
    /// The seed of the deal.
    pub seed: u64,
    /// How wonders are given out.
    pub wonders: WonderDeal,
    /// The expansions played (none: the base game, exactly as without this field).
    pub expansions: Expansions,
    /// The team variant (4, 6 or 8 players; seats 2k and 2k+1 play together, [`crate::teams`]).
    pub teams: bool,
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
        Setup {
            edition: Edition::First,
            players,
            seed,
            wonders: WonderDeal::Random,
            expansions: Expansions::NONE,
            teams: false,
        }
    }

    /// The catalog a game of this setup is played on: the edition's own, or the edition
    /// extended with Edifice's data and boards ([`Catalog::extended`]) when Edifice is played or
    /// a chosen board is not among the edition's own (Carthage without Edifice).
    pub fn catalog(&self) -> &'static Catalog {
        let base = Catalog::get(self.edition);
        let beyond = matches!(&self.wonders, WonderDeal::Chosen(list)
            if list.iter().any(|(w, _)| w.0 as usize >= base.wonders.len()));
        let edifice = self.expansions.edifice() || beyond;
        if self.expansions.armada() {
            // Always with the Edifice boards, so that every Armada game of an edition has one
            // catalog (they are dealt only with Edifice or 8 players).
            Catalog::with_builtin_armada(self.edition, true)
        } else if edifice {
            Catalog::extended(self.edition)
        } else {
            base
        }
    }
}

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// 2nd edition: every player drew a board at random and chooses its side, all at once
    /// (004 遊戲準備).
    ChooseSide,
    /// Every player chooses a card and an action, all at once (in the 2-player variant, the
    /// holder of the Free City card then chooses one for the Free City).
    Choose,
    /// Babylon B: this city plays the last card of the Age.
    PlayLastCard {
        /// The city (and seat) to act.
        city: u8,
    },
    /// Halicarnassus: this city may build a card from the discard pile. For the Free City, the
    /// player who chose its action this turn decides.
    BuildFromDiscard {
        /// The city that built the stage.
        city: u8,
    },
    /// Edifice: this city chooses which card of the colour to discard for the penalty of the
    /// Age's failed project (end of the Age, before military; [`crate::edifice`]).
    EdificeDiscard {
        /// The city (and seat) to act.
        city: u8,
    },
    /// Armada: this city keeps one of the islands dealt to it in an exploration (armada.md
    /// §2.6; step 4 of the turn, before any build from the discard pile).
    Explore {
        /// The city (and seat) to act.
        city: u8,
    },
    /// Armada: this city chooses the ships of the free moves of White-Surf Port (2 different
    /// ships) or Tempest Archipelago (3) when a green card put that island into its city (000
    /// 符號說明「任意2艘或者3艘不同的船隻」; after step 3 of the turn, before the explorations).
    /// The choice is an [`Action::ChooseIsland`] of that island.
    IslandMoves {
        /// The city (and seat) to act.
        city: u8,
    },
    /// Armada, Forgotten Port: this city chooses whether to take part in the Age's naval
    /// conflict (armada.md §6; at the Age end, before the conflicts).
    NavalOptOut {
        /// The city (and seat) to act.
        city: u8,
    },
    /// The game is over.
    Over,
}

/// A game in progress. Cloning it is cheap (no heap data), so searches can copy it freely.
///
/// Seats and cities: seat `i` plays city `i`. In the 2-player variant (1st edition, 002 2人變體規則)
/// there are 2 seats and 3 cities; city 2 is the Free City, played each turn by the holder of the
/// Free City card.
#[derive(Clone)]
pub struct Game {
    pub(crate) catalog: &'static Catalog,
    pub(crate) seed: u64,
    /// Cities in the ring (3 in the 2-player variant).
    pub(crate) cities_n: u8,
    /// The Free City's index, in the 2-player variant.
    pub(crate) free_city: Option<u8>,
    /// The seat holding the Free City card this turn.
    pub(crate) holder: u8,
    /// The seat that chose the Free City's action in the last resolved turn.
    pub(crate) controller: u8,
    pub(crate) age: u8,
    pub(crate) turn: u8,
    pub(crate) phase: Phase,
    pub(crate) cities: [City; MAX_PLAYERS],
    /// Hands by city; in the 2-player variant, the Free City's slot is the face-down draw pile.
    pub(crate) hands: [Hand; MAX_PLAYERS],
    pub(crate) later_hands: [[Hand; MAX_PLAYERS]; 2],
    pub(crate) discard: ArrayVec<CardId, 160>,
    /// The action chosen for each city this step.
    pub(crate) chosen: [Option<Action>; MAX_PLAYERS],
    pub(crate) picks: [u8; MAX_PLAYERS],
    pub(crate) age_ending: bool,
    pub(crate) age_end_due: bool,
    /// Set when a turn before the Age's last has resolved: the hands pass once any build from the
    /// discard pile of that turn is done.
    pub(crate) pass_due: bool,
    pub(crate) log: ArrayVec<LogEntry, BASE_LOG_MAX>,
    /// The whole public log of the game.
    pub(crate) history: ArrayVec<LogEntry, HISTORY_MAX>,
    /// The hands each seat has held this Age, by turn (what it has legitimately seen).
    pub(crate) memory: [[Hand; MAX_TURNS]; MAX_PLAYERS],
    /// The cards each seat used this Age, by turn (index `last_turn`: Babylon's last card): for
    /// its own city, then for the Free City when it held the Free City card.
    pub(crate) used: [[Used; MAX_TURNS + 1]; MAX_PLAYERS],
    /// Turns in each Age: 6, or with Armada 7 (6 with 8 players; armada.md §2.2).
    pub(crate) last_turn: u8,
    /// What each city offered for sale at the start of the current turn (2nd edition: nothing
    /// can be bought from a card built in the same turn, which matters for Babylon's last card).
    pub(crate) sale_at_turn_start: [Production; MAX_PLAYERS],
    /// The great projects, when the game is played with Edifice.
    pub(crate) edifice: Option<EdificeState>,
    /// Shipyards, islands and island decks, when the game is played with Armada.
    pub(crate) armada: Option<Box<ArmadaState>>,
    /// The team variant: seats 2k and 2k+1 play together ([`crate::teams`]).
    pub(crate) teams: bool,
}

impl PartialEq for Game {
    /// Two games are equal when they use the same data and every part of their state is equal.
    fn eq(&self, o: &Game) -> bool {
        std::ptr::eq(self.catalog, o.catalog)
            && self.seed == o.seed
            && self.cities_n == o.cities_n
            && self.free_city == o.free_city
            && self.holder == o.holder
            && self.controller == o.controller
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
            && self.pass_due == o.pass_due
            && self.log == o.log
            && self.history == o.history
            && self.memory == o.memory
            && self.used == o.used
            && self.sale_at_turn_start == o.sale_at_turn_start
            && self.edifice == o.edifice
            && self.last_turn == o.last_turn
            && self.armada == o.armada
            && self.teams == o.teams
    }
}

impl std::fmt::Debug for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Game")
            .field("edition", &self.catalog.edition)
            .field("seed", &self.seed)
            .field("cities_n", &self.cities_n)
            .field("free_city", &self.free_city)
            .field("age", &self.age)
            .field("turn", &self.turn)
            .field("phase", &self.phase)
            .field("cities", &self.cities())
            .field("hands", &&self.hands[..self.n()])
            .field("discard", &self.discard)
            .finish_non_exhaustive()
    }
}

impl Game {
    /// The number of cities in the ring (3 in the 2-player variant).
    #[inline]
    pub(crate) fn n(&self) -> usize {
        self.cities_n as usize
    }
}
