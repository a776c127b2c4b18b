//! Armada and Edifice together, and the corners of each that an audit found wrong (each value
//! worked out by hand from rulebooks 000 and 001): a penalty discard in a city with islands and
//! Armada cards, the Agora under Armada's guild cap and with the Scientists Guild.

use wonders_core::armada::{BoardId, Shipyard};
use wonders_core::edifice::ProjectId;
use wonders_core::{Action, CardId, Expansions, Game, Phase, Setup, Side, WonderDeal};

/// A 3-player game with Armada and Edifice on Rhodes, Alexandria and Ephesos (side A), every
/// city on shipyard board 1, and `projects` as the three Ages' great projects.
fn game(projects: [&str; 3]) -> Game {
    let setup = Setup { expansions: Expansions(3), ..Setup::new(3, 7) };
    let cat = setup.catalog();
    let chosen = ["Rhodes", "Alexandria", "Ephesos"].map(|w| (cat.find_wonder(w).unwrap(), Some(Side::A)));
    let setup = Setup { wonders: WonderDeal::Chosen(chosen.to_vec()), ..setup };
    let mut g = Game::new(&setup).unwrap();
    let data = cat.edifice.as_ref().unwrap();
    let ids: [ProjectId; 3] = projects.map(|p| data.find(p).unwrap());
    g.edifice_mut().unwrap().projects = ids;
    for c in 0..3 {
        g.armada_mut().unwrap().cities[c].shipyard = Shipyard::new(BoardId(0));
    }
    g
}

fn card(g: &Game, name: &str) -> CardId {
    g.catalog().find_card(name).unwrap()
}

/// Builds `name` in `city` as on an earlier turn (an Armada card is noted in its Armada state).
fn place(g: &mut Game, city: usize, name: &str) {
    let id = card(g, name);
    let cat = g.catalog();
    g.city_mut(city).place(cat, id);
    if let Some(a) = cat.armada_card(id) {
        g.armada_mut().unwrap().cities[city].add_card(a);
    }
}

/// Puts the island `name` into play in `city` (its base-game effects into the city).
fn island(g: &mut Game, city: usize, name: &str) {
    let data = g.armada().unwrap().data;
    let id = data.find_island(name).unwrap();
    let mut c = *g.city(city);
    g.armada_mut().unwrap().cities[city].gain_island(data, id, &mut c);
    *g.city_mut(city) = c;
}

/// Every seat discards (for coins) until the game reaches `age`'s last turn; any other step
/// (a penalty discard) takes its first legal action.
fn discard_to_last_turn(g: &mut Game, age: u8) {
    while !(g.age() == age && g.turn() == g.turns() && g.phase() == Phase::Choose) {
        for s in g.to_act() {
            let legal = g.legal_actions(s);
            let a = legal.iter().find(|a| matches!(a, Action::Discard { .. })).unwrap_or(&legal[0]);
            g.submit(s, *a).unwrap();
        }
    }
}

/// Every seat discards its first card.
fn all_discard(g: &mut Game) {
    for s in g.to_act() {
        let c = g.hand(s)[0];
        g.submit(s, Action::Discard { card: c }).unwrap();
    }
}

/// 001's penalties with Armada (000 島嶼, 海軍標識): Military School fails and takes the only red
/// card of a city holding Coastal Fortifications (3 naval symbols), Bronze Isle (1 land shield),
/// Golden Archipelago (a wild science symbol) and Virgin Isle (stone or clay, not for sale).
/// Afterwards the city is the city that never held the Fortifications: the islands keep their
/// shield, symbol and production, and the card's naval symbols are gone. So in Age III's land
/// conflict the Bronze Isle shield beats both neighbours' none (+5 twice), and in the naval
/// conflict all three are equally strong (nobody takes a token, 000 FAQ).
#[test]
fn a_penalty_discard_keeps_the_islands_and_removes_the_armada_card() {
    let mut g = game(["Money Changer", "Auction House", "Military School"]);
    discard_to_last_turn(&mut g, 3);
    place(&mut g, 0, "Coastal Fortifications");
    for name in ["Bronze Isle", "Golden Archipelago", "Virgin Isle"] {
        island(&mut g, 0, name);
    }
    let data = g.armada().unwrap().data;
    let yard = g.armada().unwrap().cities[0].shipyard.naval(data);
    assert_eq!(g.armada().unwrap().cities[0].naval_strength(data), yard + 3);
    all_discard(&mut g);
    assert!(g.is_over());
    let fort = card(&g, "Coastal Fortifications");
    let (city, armada) = (g.city(0), &g.armada().unwrap().cities[0]);
    assert!(!city.built.contains(fort) && g.discard_pile().contains(&fort));
    assert!(!armada.has_card(g.catalog().armada_card(fort).unwrap()));
    assert_eq!(armada.naval_strength(data), yard, "the 3 naval symbols left with the card");
    assert_eq!(city.shields, 1, "Bronze Isle's shield stays");
    assert_eq!(city.science_wild, 1, "Golden Archipelago's wild symbol stays");
    // Rhodes makes ore; Virgin Isle one stone or one clay, which no neighbour may buy.
    let (stone, clay) = (wonders_core::Resource::Stone, wonders_core::Resource::Clay);
    assert_eq!((city.production.max_of(stone), city.production.max_of(clay)), (1, 1), "Virgin Isle");
    assert_eq!((city.for_sale.max_of(stone), city.for_sale.max_of(clay)), (0, 0));
    assert_eq!(city.tokens.plus5, 2, "1 shield against 0 on both sides");
    assert_eq!(g.armada().unwrap().cities.map(|c| c.naval[2])[..3], [0, 0, 0], "equal strengths");
    // The other two cities had no red card: each takes Age III's debt token (001 B.).
    assert_eq!((g.city(1).edifice.debt, g.city(2).edifice.debt), ([0, 0, 1], [0, 0, 1]));
}

/// Gives `city` the Agora's reward (a pawn of the completed Age III project).
fn holds_agora(g: &mut Game) {
    let agora = g.catalog().edifice.as_ref().unwrap().find("Agora").unwrap();
    g.city_mut(0).edifice.held[2] = agora.0 + 1;
}

/// 000 行會計分 (every guild gives at most 10 VP with Armada) and the Agora (edifice.md §5.3:
/// one purple card applied a second time): Philosophers Guild counts the neighbours' 12 green
/// cards, 12 VP, capped at 10; the Agora's second application obeys the same cap: 10, not 12.
#[test]
fn the_agora_obeys_the_guild_cap() {
    let mut g = game(["Money Changer", "Auction House", "Agora"]);
    for name in ["Apothecary", "Workshop", "Scriptorium", "Dispensary", "Laboratory", "Library"] {
        place(&mut g, 1, name);
    }
    for name in ["School", "Lodge", "Observatory", "University", "Academy", "Study"] {
        place(&mut g, 2, name);
    }
    place(&mut g, 0, "Philosophers Guild");
    holds_agora(&mut g);
    let s = g.scores()[0];
    assert_eq!((s.guilds, s.edifice), (10, 10));
}

/// The Agora applying the Scientists Guild again: a second wild science symbol. With a compass,
/// a gear and the guild's wild symbol the city has 1/1/1 = 3 + 7 = 10; a second wild makes
/// 2/1/1 = 4 + 1 + 1 + 7 = 13: 3 VP, more than the Traders Guild's 2 (two yellow cards next
/// door), so the Agora takes the Scientists Guild.
#[test]
fn the_agora_repeats_the_scientists_guild_as_a_second_wild_symbol() {
    let mut g = game(["Money Changer", "Auction House", "Agora"]);
    for name in ["Apothecary", "Workshop", "Scientists Guild", "Traders Guild"] {
        place(&mut g, 0, name);
    }
    place(&mut g, 1, "East Trading Post");
    place(&mut g, 2, "Marketplace");
    holds_agora(&mut g);
    let s = g.scores()[0];
    assert_eq!((s.science, s.guilds, s.edifice), (10, 2, 3));
    // With only the Traders Guild, the Agora repeats it: 2.
    let mut only_traders = game(["Money Changer", "Auction House", "Agora"]);
    for name in ["Apothecary", "Workshop", "Traders Guild"] {
        place(&mut only_traders, 0, name);
    }
    place(&mut only_traders, 1, "East Trading Post");
    place(&mut only_traders, 2, "Marketplace");
    holds_agora(&mut only_traders);
    assert_eq!(only_traders.scores()[0].edifice, 2);
}

/// 001 (Edifice with Armada): a stage may carry a naval construction "or take part" in the
/// project, never both. Ur Night's first stage takes an Age I pawn from the box (PAWN:1): not a
/// participation, so the stage may also pay the naval step of the board's wonder fleet (board 1:
/// red, step 1 one wood, Ur's own; the stage SG from a Stone Pit and a Glassworks). A stage
/// that takes part is never listed with a naval construction.
#[test]
fn urs_box_pawn_and_a_naval_construction_go_together() {
    let setup = Setup { expansions: Expansions(3), ..Setup::new(3, 7) };
    let cat = setup.catalog();
    let chosen = ["Ur", "Alexandria", "Ephesos"].map(|w| (cat.find_wonder(w).unwrap(), Some(Side::B)));
    let mut g = Game::new(&Setup { wonders: WonderDeal::Chosen(chosen.to_vec()), ..setup }).unwrap();
    for c in 0..3 {
        g.armada_mut().unwrap().cities[c].shipyard = Shipyard::new(BoardId(0));
    }
    place(&mut g, 0, "Stone Pit");
    place(&mut g, 0, "Glassworks");
    let legal = g.legal_actions(0);
    assert!(
        !legal.iter().any(
            |a| matches!(a, Action::Wonder { extra, .. } if extra.take_part() && extra.naval().is_some())
        )
    );
    let with_naval = *legal
        .iter()
        .find(|a| matches!(a, Action::Wonder { pay, extra, .. } if !extra.take_part() && extra.naval().is_some() && pay.total() == 0))
        .expect("Ur's stage with the red step, paid from its own production");
    g.submit(0, with_naval).unwrap();
    all_discard(&mut g);
    assert_eq!(g.city(0).edifice.pawns, [1, 0, 0], "the pawn from the box");
    assert_eq!(g.armada().unwrap().cities[0].shipyard.step(wonders_core::armada::Fleet::Red), 1);
    assert!(g.joinable_project(0).is_some(), "the participation of Age I is still open");
}
