//! Setting up a game: the checks of a [`Setup`], the wonders dealt, the three Ages' hands from
//! the seed, and the expansions' own setup ([`crate::armada::turn::setup`],
//! [`crate::edifice::setup`]). Then the position builders, which change a game by hand for tests,
//! puzzles and the samplers.

use super::{
    Game, HAND_MAX, HAND_SIZE, Hand, MAX_PLAYERS, Phase, START_COINS, Setup, SetupError, WonderDeal,
};
use crate::armada::{self, ArmadaState};
use crate::card::CardId;
use crate::catalog::{Catalog, Edition, Side, WonderId};
use crate::city::{City, Production};
use crate::edifice;
use crate::teams;
use arrayvec::ArrayVec;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

impl Game {
    /// Sets up a game: wonders, coins, and the three Ages' hands, all from the seed. Two players
    /// play the 1st edition's Free City variant (002 2人變體規則; base-1e.md §5).
    ///
    /// ```
    /// use wonders_core::{Game, Setup};
    /// let game = Game::new(&Setup::new(2, 1)).unwrap();
    /// assert_eq!(game.players(), 2);
    /// assert_eq!(game.cities().len(), 3);
    /// assert_eq!(game.free_city(), Some(2));
    /// ```
    pub fn new(setup: &Setup) -> Result<Game, SetupError> {
        Game::with_catalog(setup.catalog(), setup)
    }

    /// Sets up a game on a given catalog (for data replaced from a file).
    pub fn with_catalog(catalog: &'static Catalog, setup: &Setup) -> Result<Game, SetupError> {
        let free_city = setup.players == 2;
        if setup.teams {
            teams::check_players(setup.players, setup.expansions).map_err(SetupError::Teams)?;
        }
        if free_city && catalog.edition != Edition::First {
            return Err(SetupError::TwoPlayers(catalog.edition));
        }
        let armada = setup.expansions.armada();
        if !((2..=7).contains(&setup.players) || armada && setup.players == 8) {
            return Err(SetupError::Players(setup.players));
        }
        if armada {
            armada::turn::check_setup(catalog, setup)?;
        }
        if setup.expansions.edifice() {
            if catalog.edifice.is_none() {
                return Err(SetupError::Expansion("these data have no Edifice projects".into()));
            }
            if free_city || setup.players > 7 {
                return Err(SetupError::Expansion(
                    "Edifice plays with 3 to 7 players (its pawn table covers 3 to 7, edifice.md §5.1)"
                        .into(),
                ));
            }
        }
        // The Free City variant uses the 3-player decks and a third board (base-1e.md §5).
        let n = if free_city { 3 } else { setup.players as usize };
        // Two independent streams of the seed: the cards dealt do not depend on how the wonders
        // are given out.
        let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
        let mut wonder_rng = ChaCha8Rng::seed_from_u64(setup.seed);
        wonder_rng.set_stream(1);
        let boards = deal_wonders(catalog, n, setup, &mut wonder_rng)?;
        let first = City::new(catalog, boards[0].0, boards[0].1);
        let mut cities = [first; MAX_PLAYERS];
        for (seat, &(w, side)) in boards.iter().enumerate() {
            cities[seat] = City::new(catalog, w, side);
            cities[seat].coins = START_COINS;
        }
        let mut ages: [[Hand; MAX_PLAYERS]; 3] = Default::default();
        // Armada: 8-card hands (7 with 8 players), one Armada card per player in each Age
        // (armada.md §2.2), drawn from a random stream of their own (seeded only then).
        let hand_size = if armada { armada::hand_size(n as u8) as usize } else { HAND_SIZE };
        let mut armada_rng = armada.then(|| {
            let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
            rng.set_stream(4);
            rng
        });
        for (age, hands) in (1u8..=3).zip(ages.iter_mut()) {
            // 8 players use the 7-player decks (000 8人遊戲規則).
            let mut deck = catalog.age_cards(age, (n as u8).min(7));
            if age == 3 {
                // 002 遊戲準備: players + 2 guilds drawn at random (5 in the 2-player variant;
                // with 8 players all 9, 000 8人遊戲規則).
                let mut guilds = catalog.guilds();
                crate::shuffle::shuffle(&mut guilds, &mut rng);
                deck.extend(guilds.into_iter().take(n.min(7) + 2));
            }
            if let Some(armada_rng) = &mut armada_rng {
                armada::turn::deal_age_cards(catalog, age, n as u8, armada_rng, &mut deck);
            }
            crate::shuffle::shuffle(&mut deck, &mut rng);
            for (seat, chunk) in deck.chunks(hand_size).take(n).enumerate() {
                hands[seat] = chunk.iter().copied().collect();
            }
        }
        let [a1, a2, a3] = ages;
        let phase = if setup.wonders == WonderDeal::RandomBoardsChooseSides {
            Phase::ChooseSide
        } else {
            Phase::Choose
        };
        let mut game = Game {
            catalog,
            seed: setup.seed,
            cities_n: n as u8,
            free_city: free_city.then_some(2),
            holder: 0,
            controller: 0,
            age: 1,
            turn: 1,
            phase,
            cities,
            hands: a1,
            later_hands: [a2, a3],
            discard: ArrayVec::new(),
            chosen: [None; MAX_PLAYERS],
            picks: [0; MAX_PLAYERS],
            age_ending: false,
            age_end_due: false,
            pass_due: false,
            log: ArrayVec::new(),
            history: ArrayVec::new(),
            memory: Default::default(),
            used: Default::default(),
            sale_at_turn_start: [Production::default(); MAX_PLAYERS],
            edifice: None,
            last_turn: (hand_size - 1) as u8,
            armada: None,
            teams: setup.teams,
        };
        if armada {
            game.armada = Some(Box::new(armada::turn::setup(catalog, n, setup.seed)));
        }
        if setup.expansions.edifice()
            && let Some(data) = catalog.edifice.as_deref()
        {
            game.edifice = Some(edifice::setup(data, n, setup.seed));
        }
        game.begin_age();
        if game.phase == Phase::Choose {
            game.begin_turn();
        }
        Ok(game)
    }

    /// Mutable access to the Armada state, for building positions (tests, puzzles); the caller
    /// keeps the game consistent, as with [`Game::set_hand`].
    pub fn armada_mut(&mut self) -> Option<&mut ArmadaState> {
        self.armada.as_deref_mut()
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

    /// Mutable access to a city, for building positions. Same caveat as [`Game::set_hand`].
    pub fn city_mut(&mut self, city: usize) -> &mut City {
        &mut self.cities[city]
    }

    /// Adds cards to the discard pile, for building positions.
    pub fn push_discard(&mut self, cards: &[CardId]) {
        for &c in cards {
            let _ = self.discard.try_push(c);
        }
    }
}

fn deal_wonders(
    catalog: &Catalog,
    n: usize,
    setup: &Setup,
    rng: &mut ChaCha8Rng,
) -> Result<Vec<(WonderId, Side)>, SetupError> {
    let deal = &setup.wonders;
    let edifice = setup.expansions.edifice();
    let side = |rng: &mut ChaCha8Rng| if rng.random_bool(0.5) { Side::B } else { Side::A };
    match deal {
        WonderDeal::Random | WonderDeal::RandomBoards(_) | WonderDeal::RandomBoardsChooseSides => {
            // An expansion's boards are dealt at random only when it is played (crate::edifice).
            // With 8 players (Armada), the 8th board is Carthage, usable without Edifice (000
            // 8人遊戲規則): the expansion boards not reserved to Edifice join the deal.
            let eighth = n == 8;
            let mut ids: Vec<WonderId> = catalog
                .wonders
                .iter()
                .filter(|w| edifice || !w.expansion || (eighth && !w.only_with_edifice))
                .map(|w| w.id)
                .collect();
            if ids.len() < n {
                return Err(SetupError::Wonders(format!("only {} wonders for {n} players", ids.len())));
            }
            crate::shuffle::shuffle(&mut ids, rng);
            Ok(ids
                .into_iter()
                .take(n)
                .map(|w| match deal {
                    WonderDeal::RandomBoards(s) => (w, *s),
                    // Side A until the players choose.
                    WonderDeal::RandomBoardsChooseSides => (w, Side::A),
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
                if catalog.wonder(w).only_with_edifice && !edifice {
                    return Err(SetupError::Wonders(format!(
                        "{} is usable only with the Edifice expansion (001)",
                        catalog.wonder(w).name
                    )));
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
