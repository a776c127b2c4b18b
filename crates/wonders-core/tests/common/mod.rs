//! Helpers shared by the Armada integration tests (`armada.rs`, `armada_log.rs`,
//! `armada_trade.rs`): a game on chosen boards, card lookup, placing a card as built on an
//! earlier turn, and skipping to an Age's last turn.

#![allow(dead_code)]

use wonders_core::armada::{BoardId, Shipyard};
use wonders_core::{Action, CardId, Expansions, Game, Setup, Side, WonderDeal};

/// An Armada setup of `players` players.
pub fn setup(players: u8, seed: u64) -> Setup {
    Setup { expansions: Expansions::ARMADA, ..Setup::new(players, seed) }
}

/// An Armada game with these boards on side A, every city on shipyard board 1 (wonder symbol on
/// red; armada.md §10.1, §10.3) and `coins` coins.
pub fn game(wonders: &[&str], coins: u16) -> Game {
    let cat = setup(wonders.len() as u8, 1).catalog();
    let chosen = wonders.iter().map(|w| (cat.find_wonder(w).unwrap(), Some(Side::A))).collect();
    let s = Setup { wonders: WonderDeal::Chosen(chosen), ..setup(wonders.len() as u8, 1) };
    let mut g = Game::new(&s).unwrap();
    for c in 0..wonders.len() {
        g.city_mut(c).coins = coins;
        g.armada_mut().unwrap().cities[c].shipyard = Shipyard::new(BoardId(0));
    }
    g
}

/// The card of this name in the game's catalog.
pub fn card(g: &Game, name: &str) -> CardId {
    g.catalog().find_card(name).unwrap()
}

/// Builds `name` in `city` as on an earlier turn (an Armada card is noted in its Armada state).
pub fn place(g: &mut Game, city: usize, name: &str) {
    let id = card(g, name);
    let cat = g.catalog();
    g.city_mut(city).place(cat, id);
    if let Some(a) = cat.armada_card(id) {
        g.armada_mut().unwrap().cities[city].add_card(a);
    }
}

/// Discards the first card of every hand until the Age's last turn.
pub fn discard_until_last_turn(g: &mut Game) {
    while g.turn() < g.turns() {
        for s in g.to_act() {
            let c = g.hand(s)[0];
            g.submit(s, Action::Discard { card: c }).unwrap();
        }
    }
}
