//! Corners of Armada that an audit found wrong, each value worked out by hand from rulebook 000:
//! Wondrous Port paying for free naval constructions, the choice of ships of White-Surf Port and
//! Tempest Archipelago brought by a green card, a blue card's free move when it is built from
//! the discard pile, and the team rule against buying from a teammate for a chain build.

use wonders_core::armada::log::ArmadaEvent;
use wonders_core::armada::{BoardId, Fleet, IslandId, Shipyard};
use wonders_core::{
    Action, ActionError, Expansions, Game, Naval, Payment, Phase, Played, Setup, Side, StageExtra,
};
use wonders_core::{FreeBy, WonderDeal};

mod common;
use common::{card, game, place};

/// Gives `city` the island `name` (its Armada effects are read from the set).
fn give_island(g: &mut Game, city: usize, name: &str) -> IslandId {
    let id = g.armada().unwrap().data.find_island(name).unwrap();
    g.armada_mut().unwrap().cities[city].islands.insert(id);
    id
}

/// Every seat but `except` discards its first card for coins.
fn others_discard(g: &mut Game, except: usize) {
    for s in g.to_act() {
        if s != except {
            let c = g.hand(s)[0];
            g.submit(s, Action::Discard { card: c }).unwrap();
        }
    }
}

/// The Armada events of the last step, as (city, event).
fn armada_events(g: &Game) -> Vec<(u8, ArmadaEvent)> {
    g.last_log()
        .iter()
        .filter_map(|e| match e.played {
            Played::Armada(a) => Some((e.seat, a)),
            _ => None,
        })
        .collect()
}

fn step(g: &Game, city: usize, f: Fleet) -> u8 {
    g.armada().unwrap().cities[city].shipyard.step(f)
}

/// 000 奇妙港: "1 coin for every naval construction, free or not". Discarding for a yellow move
/// is one: 3 coins, the yellow space of step 1 gives none, Wondrous Port 1: 4 coins (and not the
/// discard's 3).
#[test]
fn wondrous_port_pays_for_the_discard_for_a_yellow_move() {
    let mut g = game(&["Giza", "Olympia", "Rhodes"], 3);
    give_island(&mut g, 0, "Wondrous Port");
    let a = g.hand(0)[0];
    g.submit(0, Action::DiscardYellow { card: a }).unwrap();
    others_discard(&mut g, 0);
    assert_eq!(step(&g, 0, Fleet::Yellow), 1);
    assert_eq!(g.city(0).coins, 3 + 1);
}

/// The blue cards' note (000: building one "can make a blue naval construction, then take the
/// card's free move: two naval constructions in one turn"): Shipyard (1 coin) built with the
/// blue step (board 1: 1 glass, Alexandria's own) and its free move on the red ship: two naval
/// constructions, 2 coins from Wondrous Port: 3 − 1 + 2 = 4.
#[test]
fn wondrous_port_pays_for_a_cards_free_move_too() {
    let mut g = game(&["Alexandria", "Olympia", "Rhodes"], 3);
    give_island(&mut g, 0, "Wondrous Port");
    let shipyard = card(&g, "Shipyard");
    g.set_hand(0, &[shipyard, card(&g, "Altar")]);
    let build = Action::Build {
        card: shipyard,
        pay: Payment { bank: 1, ..Payment::default() },
        naval: Naval::new(Some(Fleet::Blue), Some(Fleet::Red)),
    };
    g.submit(0, build).unwrap();
    others_discard(&mut g, 0);
    assert_eq!((step(&g, 0, Fleet::Blue), step(&g, 0, Fleet::Red)), (1, 1));
    assert_eq!(g.city(0).coins, 3 - 1 + 2);
}

/// Puts `island` on top of its level's deck (the last card is the top).
fn on_top(g: &mut Game, level: usize, island: IslandId) {
    let deck = &mut g.armada_mut().unwrap().decks[level - 1];
    let at = deck.iter().position(|&i| i == island).unwrap();
    deck.remove(at);
    deck.push(island);
}

/// Seat 0 builds Map Room (a green Armada card: the top level-2 island comes into its city),
/// paid from its own wood and clay.
fn build_map_room(g: &mut Game) {
    let map_room = card(g, "Map Room");
    place(g, 0, "Lumber Yard");
    place(g, 0, "Clay Pool");
    g.set_hand(0, &[map_room, card(g, "Altar")]);
    g.submit(0, Action::Build { card: map_room, pay: Payment::default(), naval: Naval::NONE }).unwrap();
    others_discard(g, 0);
}

/// 000 符號說明: White-Surf Port moves "any 2 different ships" of the player's choice. When Map
/// Room brings it (a green card: the island is not chosen, 000 島嶼), its owner still chooses the
/// ships: the game waits for seat 0 alone, with the six pairs of its four ships; the chosen pair
/// moves (yellow to step 1: no coins; green to step 1), each move a naval construction for
/// Wondrous Port (+2).
#[test]
fn a_green_cards_white_surf_port_lets_its_owner_choose_the_ships() {
    let mut g = game(&["Giza", "Olympia", "Rhodes"], 3);
    give_island(&mut g, 0, "Wondrous Port");
    let surf = g.armada().unwrap().data.find_island("White-Surf Port").unwrap();
    on_top(&mut g, 2, surf);
    build_map_room(&mut g);
    assert_eq!(g.phase(), Phase::IslandMoves { city: 0 });
    assert_eq!(g.to_act().to_vec(), vec![0]);
    assert!(g.armada().unwrap().cities[0].islands.contains(surf), "the island is in play already");
    assert_eq!(g.view(1).armada.unwrap().moves_due.to_vec(), vec![(0, surf)], "public");
    let pairs: Vec<u8> = g
        .legal_actions(0)
        .into_iter()
        .map(|a| match a {
            Action::ChooseIsland { island, moves } if island == surf => moves,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(pairs, vec![0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100]);
    let coins = g.city(0).coins;
    let three = Action::ChooseIsland { island: surf, moves: 0b0111 };
    assert!(matches!(g.submit(0, three), Err(ActionError::WrongKind(_))), "2 ships, not 3");
    assert!(g.submit(1, Action::ChooseIsland { island: surf, moves: 0b0011 }).is_err(), "not seat 1's");
    let yellow_green = (1 << Fleet::Yellow as u8) | (1 << Fleet::Green as u8);
    g.submit(0, Action::ChooseIsland { island: surf, moves: yellow_green }).unwrap();
    assert_eq!(g.phase(), Phase::Choose);
    assert_eq!(g.turn(), 2);
    let steps: Vec<u8> = Fleet::ALL.iter().map(|&f| step(&g, 0, f)).collect();
    assert_eq!(steps, vec![0, 1, 0, 1]);
    assert_eq!(g.city(0).coins, coins + 2);
    let moves: Vec<(u8, ArmadaEvent)> = armada_events(&g);
    assert!(moves.contains(&(0, ArmadaEvent::IslandMove { fleet: Fleet::Yellow, to: 1 })), "{moves:?}");
    assert!(moves.contains(&(0, ArmadaEvent::IslandMove { fleet: Fleet::Green, to: 1 })), "{moves:?}");
}

/// With one way only there is nothing to choose: three ships on their top step leave White-Surf
/// Port's two moves to the fourth ship alone (moves of *different* ships), made at once.
#[test]
fn white_surf_port_with_one_ship_left_moves_it_without_asking() {
    let mut g = game(&["Giza", "Olympia", "Rhodes"], 3);
    let surf = g.armada().unwrap().data.find_island("White-Surf Port").unwrap();
    on_top(&mut g, 2, surf);
    for f in [Fleet::Red, Fleet::Yellow, Fleet::Green] {
        g.armada_mut().unwrap().cities[0].shipyard.steps[f as usize] = 6;
    }
    build_map_room(&mut g);
    assert_eq!(g.phase(), Phase::Choose);
    assert_eq!(step(&g, 0, Fleet::Blue), 1);
}

/// 000 船廠…: a blue Armada card lets its builder move any one of its ships. Built from the
/// discard pile with Halicarnassus' stage (002), it is the same card with the same effect (it
/// is paid nothing, so no naval construction is paid with it, §2.3): the legal builds name each
/// ship, one without a ship is refused, and the move counts for Wondrous Port (+1).
#[test]
fn a_blue_card_built_from_the_discard_pile_takes_its_free_move() {
    let mut g = game(&["Halicarnassus", "Olympia", "Rhodes"], 3);
    g.city_mut(0).stages = 1;
    for name in ["Ore Vein", "Clay Pit", "Mine"] {
        place(&mut g, 0, name);
    }
    give_island(&mut g, 0, "Wondrous Port");
    let (altar, shipyard) = (card(&g, "Altar"), card(&g, "Shipyard"));
    g.set_hand(0, &[altar, card(&g, "Theater")]);
    g.push_discard(&[shipyard]);
    g.submit(0, Action::Wonder { card: altar, pay: Payment::default(), extra: StageExtra::NONE }).unwrap();
    others_discard(&mut g, 0);
    assert_eq!(g.phase(), Phase::BuildFromDiscard { city: 0 });
    let ways: Vec<Option<Fleet>> = g
        .legal_actions(0)
        .into_iter()
        .filter_map(|a| match a {
            Action::BuildDiscarded { card, free_move } if card == shipyard => Some(free_move),
            _ => None,
        })
        .collect();
    assert_eq!(ways, Fleet::ALL.iter().map(|&f| Some(f)).collect::<Vec<_>>());
    let err = g.submit(0, Action::BuildDiscarded { card: shipyard, free_move: None }).unwrap_err();
    assert!(err.to_string().contains("name the ship"), "{err}");
    let coins = g.city(0).coins;
    g.submit(0, Action::BuildDiscarded { card: shipyard, free_move: Some(Fleet::Yellow) }).unwrap();
    assert_eq!(step(&g, 0, Fleet::Yellow), 1);
    assert_eq!(g.city(0).coins, coins + 1, "yellow step 1 gives no coins; Wondrous Port 1");
    assert!(armada_events(&g).contains(&(0, ArmadaEvent::FreeMove { fleet: Fleet::Yellow, to: 1 })));
    // A card without a free move names none.
    let tavern = card(&g, "Tavern");
    let mut g2 = game(&["Halicarnassus", "Olympia", "Rhodes"], 3);
    g2.push_discard(&[tavern]);
    let err = g2.check(0, &Action::BuildDiscarded { card: tavern, free_move: Some(Fleet::Red) });
    assert!(err.is_err());
}

/// A 4-player team game with Armada (seats 0+1 and 2+3): Rhodes (ore), Olympia, Giza, Babylon,
/// every city on shipyard board 1 with 5 coins.
fn team_game(teams: bool) -> Game {
    let s = Setup { expansions: Expansions::ARMADA, teams, ..Setup::new(4, 1) };
    let cat = s.catalog();
    let chosen = ["Rhodes", "Olympia", "Giza", "Babylon"]
        .map(|w| (cat.find_wonder(w).unwrap(), Some(Side::A)))
        .to_vec();
    let mut g = Game::new(&Setup { wonders: WonderDeal::Chosen(chosen), ..s }).unwrap();
    for c in 0..4 {
        g.city_mut(c).coins = 5;
        g.armada_mut().unwrap().cities[c].shipyard = Shipyard::new(BoardId(0));
    }
    g
}

/// 000 團隊遊戲規則: teammates may not "buy resources while building through a chain". Seat 0
/// builds Stables free through its Apothecary (002's chain) with the red naval step (board 1: 1
/// wood). Both neighbours sell wood (a Lumber Yard each, 2 coins): in a team game only the
/// opponent on the right (seat 3) may sell it, and a forged payment to the teammate (seat 1, on
/// the left) is refused naming the rule; without teams both are legal.
#[test]
fn teams_with_armada_buy_nothing_from_a_teammate_for_a_chain_build() {
    let stables_ways = |g: &Game| -> Vec<(u8, u8)> {
        let stables = card(g, "Stables");
        let mut v: Vec<(u8, u8)> = g
            .legal_actions(0)
            .into_iter()
            .filter_map(|a| match a {
                Action::Build { card, pay, naval }
                    if card == stables && naval.construction() == Some(Fleet::Red) =>
                {
                    assert_eq!(pay.free, Some(FreeBy::Chain));
                    Some((pay.left, pay.right))
                }
                _ => None,
            })
            .collect();
        v.sort();
        v
    };
    for teams in [false, true] {
        let mut g = team_game(teams);
        place(&mut g, 0, "Apothecary");
        place(&mut g, 1, "Lumber Yard");
        place(&mut g, 3, "Lumber Yard");
        let stables = card(&g, "Stables");
        g.set_hand(0, &[stables, card(&g, "Altar")]);
        let red = Naval::new(Some(Fleet::Red), None);
        let to_mate = Action::Build {
            card: stables,
            pay: Payment { left: 2, free: Some(FreeBy::Chain), ..Payment::default() },
            naval: red,
        };
        if teams {
            assert_eq!(stables_ways(&g), vec![(0, 2)]);
            let err = g.check(0, &to_mate).unwrap_err();
            assert!(err.to_string().contains("teammates may not buy"), "{err}");
            let to_opponent = Action::Build {
                card: stables,
                pay: Payment { right: 2, free: Some(FreeBy::Chain), ..Payment::default() },
                naval: red,
            };
            g.submit(0, to_opponent).unwrap();
            others_discard(&mut g, 0);
            assert_eq!((g.city(0).coins, g.city(3).coins), (3, 5 + 3 + 2));
            assert_eq!(step(&g, 0, Fleet::Red), 1);
        } else {
            assert_eq!(stables_ways(&g), vec![(0, 2), (2, 0)]);
            assert!(g.check(0, &to_mate).is_ok());
        }
    }
}
