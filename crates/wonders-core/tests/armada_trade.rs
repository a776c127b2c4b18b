//! Armada's East and West Trading Zones in the payment (armada.md §5, §10.6),
//! through the game: legal payments, submission checks, resolution, records. Values worked out
//! by hand from the rules: a neighbour's unit costs 2 coins (002 貿易), a 2nd player's unit 1
//! coin (East: 1 unit from seat i−2, West: 2 units from seat i+2), every recipient counts for
//! the Pareto rule.
//!
//! Starting resources (1st edition, side A): Giza S, Olympia W, Rhodes O, Babylon C, Alexandria G.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use wonders_core::armada::{BoardId, Fleet, Shipyard};
use wonders_core::{
    Action, CardId, Expansions, Game, Naval, Payment, Record, SecondPay, Setup, Side, StageExtra, WireAction,
    WonderDeal,
};

mod common;
use common::{card, game, place, setup};

/// A payment to the neighbours and the 2nd players.
fn pay(left: u8, right: u8, second_left: u8, second_right: u8) -> Payment {
    Payment { second: SecondPay::new(second_left, second_right), ..Payment::paid(left, right, 0) }
}

/// The payments listed for building `c` without a naval construction.
fn build_payments(g: &Game, seat: usize, c: CardId) -> Vec<Payment> {
    let mut v: Vec<Payment> = g
        .legal_actions(seat)
        .into_iter()
        .filter_map(|a| match a {
            Action::Build { card, pay, naval } if card == c && naval.is_none() => Some(pay),
            _ => None,
        })
        .collect();
    v.sort_by_key(|p| (p.left, p.right, p.second.0));
    v
}

/// The payments listed for the next stage without a naval construction.
fn stage_payments(g: &Game, seat: usize, c: CardId) -> Vec<Payment> {
    let mut v: Vec<Payment> = g
        .legal_actions(seat)
        .into_iter()
        .filter_map(|a| match a {
            Action::Wonder { card, pay, extra } if card == c && extra == StageExtra::NONE => Some(pay),
            _ => None,
        })
        .collect();
    v.sort_by_key(|p| (p.left, p.right, p.second.0));
    v
}

fn discard_others(g: &mut Game, except: usize) {
    for s in 0..g.players() {
        if s != except {
            let h = g.hand(s)[0];
            g.submit(s, Action::Discard { card: h }).unwrap();
        }
    }
}

#[test]
fn east_buys_the_missing_clay_from_the_2nd_right_for_1() {
    // 5 players: seat 0 Giza (S); left seat 1 Olympia (W) with a Clay Pool; right seat 4
    // Alexandria (G); 2nd left seat 2 Rhodes (O); 2nd right seat 3 Babylon (C). Guard Tower costs
    // 1 clay. Ways: 2 coins to the left (Clay Pool), or 1 coin to the 2nd right (East Trading
    // Zone). Neither is cheaper for every recipient: both are listed.
    let mut g = game(&["Giza", "Olympia", "Rhodes", "Babylon", "Alexandria"], 3);
    place(&mut g, 0, "East Trading Zone");
    place(&mut g, 1, "Clay Pool");
    let tower = card(&g, "Guard Tower");
    g.set_hand(0, &[tower, card(&g, "Altar")]);
    assert_eq!(build_payments(&g, 0, tower), vec![pay(0, 0, 0, 1), pay(2, 0, 0, 0)]);
    // Without the card the only way is the left neighbour's.
    let mut plain = g.clone();
    plain.armada_mut().unwrap().cities[0].cards = 0;
    assert_eq!(build_payments(&plain, 0, tower), vec![pay(2, 0, 0, 0)]);
    // Paid: 3 − 1 for seat 0; Babylon gets its coin like trade income (+3 for its discard).
    let build = Action::Build { card: tower, pay: pay(0, 0, 0, 1), naval: Naval::NONE };
    g.submit(0, build).unwrap();
    discard_others(&mut g, 0);
    assert_eq!((g.city(0).coins, g.city(3).coins, g.city(1).coins), (2, 3 + 1 + 3, 3 + 3));
    let log = g.history();
    let e0 = log.iter().rev().find(|e| e.seat == 0).unwrap();
    assert_eq!(e0.pay.second, SecondPay::new(0, 1));
    assert_eq!(log.iter().rev().find(|e| e.seat == 3).unwrap().income, 4, "1 trade + 3 discard");
}

#[test]
fn west_buys_two_and_a_third_unit_is_refused() {
    // 5 players: seat 0 Alexandria (G), stage 1 costs SS; neighbours Olympia (W) and Rhodes
    // (O) sell no stone; the 2nd left, seat 2 Giza, makes S and has a Stone Pit: it sells SS.
    // West Trading Zone: 2 units at 1 coin: (2nd left 2) is the only way.
    let mut g = game(&["Alexandria", "Olympia", "Giza", "Babylon", "Rhodes"], 3);
    place(&mut g, 0, "West Trading Zone");
    place(&mut g, 2, "Stone Pit");
    let altar = card(&g, "Altar");
    g.set_hand(0, &[altar, card(&g, "Baths")]);
    assert_eq!(stage_payments(&g, 0, altar), vec![pay(0, 0, 2, 0)]);
    // Baths costs 1 stone: 1 coin to the 2nd left.
    assert_eq!(build_payments(&g, 0, card(&g, "Baths")), vec![pay(0, 0, 1, 0)]);
    // A 3rd unit from the 2nd left is refused, naming the limit; nothing changes.
    let three = Action::Wonder { card: altar, pay: pay(0, 0, 3, 0), extra: StageExtra::NONE };
    let err = g.submit(0, three).unwrap_err().to_string();
    assert!(err.contains("buys 3 unit(s) from the 2nd player on the left (seat 2)"), "{err}");
    assert!(err.contains("may buy 2"), "{err}");
    // East is absent: nothing may be bought from the 2nd right.
    let east = Action::Wonder { card: altar, pay: pay(0, 0, 1, 1), extra: StageExtra::NONE };
    let err = g.submit(0, east).unwrap_err().to_string();
    assert!(
        err.contains("2nd player on the right (seat 3)") && err.contains("no East Trading Zone"),
        "{err}"
    );
    assert_eq!(g.city(0).coins, 3);
    let stage = Action::Wonder { card: altar, pay: pay(0, 0, 2, 0), extra: StageExtra::NONE };
    g.submit(0, stage).unwrap();
    discard_others(&mut g, 0);
    assert_eq!((g.city(0).stages, g.city(0).coins, g.city(2).coins), (1, 1, 3 + 2 + 3));
}

#[test]
fn islands_are_never_sold_to_the_2nd_players_buyer() {
    // Seat 0 Alexandria with West; the 2nd left Giza holds Wild Isle (wood or ore, never sold;
    // 000 荒島). Stockade costs 1 wood: only the left neighbour Olympia sells it (2 coins).
    let mut g = game(&["Alexandria", "Olympia", "Giza", "Babylon", "Rhodes"], 3);
    place(&mut g, 0, "West Trading Zone");
    let wild = g.armada().unwrap().data.find_island("Wild Isle").unwrap();
    let data = g.armada().unwrap().data;
    let mut city = *g.city(2);
    g.armada_mut().unwrap().cities[2].gain_island(data, wild, &mut city);
    *g.city_mut(2) = city;
    let stockade = card(&g, "Stockade");
    g.set_hand(0, &[stockade, card(&g, "Altar")]);
    assert_eq!(build_payments(&g, 0, stockade), vec![pay(2, 0, 0, 0)]);
    // A payment buying the island's wood is refused with its reason.
    let bad = Action::Build { card: stockade, pay: pay(0, 0, 1, 0), naval: Naval::NONE };
    let err = g.submit(0, bad).unwrap_err().to_string();
    assert!(err.contains("never yellow cards, wonder stages or islands") && err.contains("left 2"), "{err}");
}

#[test]
fn four_players_the_2nd_left_and_right_are_one_player() {
    // 4 players: seat 0 Alexandria (G); seat 2 Giza (S + Stone Pit) is both its 2nd left and 2nd
    // right. With East and West it may take 3 units there: stage 1 (SS) takes 2, written as
    // 2 to the 2nd left (the canonical way); a payment written 1 + 1 is the same payment and is
    // accepted. Seat 2 gets the 2 coins either way.
    let mut g = game(&["Alexandria", "Olympia", "Giza", "Rhodes"], 3);
    place(&mut g, 0, "West Trading Zone");
    place(&mut g, 0, "East Trading Zone");
    place(&mut g, 2, "Stone Pit");
    let altar = card(&g, "Altar");
    g.set_hand(0, &[altar, card(&g, "Baths")]);
    assert_eq!(stage_payments(&g, 0, altar), vec![pay(0, 0, 2, 0)]);
    // 4 units in all are over the 3 allowed.
    let four = Action::Wonder { card: altar, pay: pay(0, 0, 2, 2), extra: StageExtra::NONE };
    let err = g.submit(0, four).unwrap_err().to_string();
    assert!(err.contains("buys 4 unit(s) from seat 2") && err.contains("allow 3"), "{err}");
    let split = Action::Wonder { card: altar, pay: pay(0, 0, 1, 1), extra: StageExtra::NONE };
    g.submit(0, split).unwrap();
    discard_others(&mut g, 0);
    assert_eq!((g.city(0).coins, g.city(2).coins), (1, 3 + 2 + 3));
    // With East alone, 1 unit, written to the 2nd right.
    let mut g = game(&["Alexandria", "Olympia", "Giza", "Rhodes"], 3);
    place(&mut g, 0, "East Trading Zone");
    let baths = card(&g, "Baths");
    g.set_hand(0, &[baths, altar]);
    assert_eq!(build_payments(&g, 0, baths), vec![pay(0, 0, 0, 1)]);
    assert!(stage_payments(&g, 0, altar).is_empty(), "SS: one unit only, and no neighbour sells stone");
}

#[test]
fn naval_construction_and_ancient_port_in_the_same_purchase() {
    // 5 players: seat 0 Alexandria (G) with East; left Olympia (W + Lumber Yard: sells WW);
    // 2nd right seat 3 Babylon with a Lumber Yard (sells W). Stockade (W) with board 1's red step
    // 1 (W; armada.md §10.3) is one purchase of WW: 2 + 2 to the left, or 2 to the left and 1 to
    // the 2nd right (East: one unit). (4,0,0,0) and (2,0,0,1): neither beats the other.
    let mut g = game(&["Alexandria", "Olympia", "Giza", "Babylon", "Rhodes"], 5);
    place(&mut g, 0, "East Trading Zone");
    place(&mut g, 1, "Lumber Yard");
    place(&mut g, 3, "Lumber Yard");
    let stockade = card(&g, "Stockade");
    g.set_hand(0, &[stockade, card(&g, "Altar")]);
    let red = Naval::new(Some(Fleet::Red), None);
    let naval = |g: &Game| {
        let mut v: Vec<Payment> = g
            .legal_actions(0)
            .into_iter()
            .filter_map(|a| match a {
                Action::Build { card, pay, naval } if card == stockade && naval == red => Some(pay),
                _ => None,
            })
            .collect();
        v.sort_by_key(|p| (p.left, p.right, p.second.0));
        v
    };
    assert_eq!(naval(&g), vec![pay(2, 0, 0, 1), pay(4, 0, 0, 0)]);
    // The card alone: (0,0,0,1) or (2,0,0,0).
    assert_eq!(build_payments(&g, 0, stockade), vec![pay(0, 0, 0, 1), pay(2, 0, 0, 0)]);
    // Ancient Port waives the step's wood: the purchase is W again (§6).
    let port = g.armada().unwrap().data.find_island("Ancient Port").unwrap();
    g.armada_mut().unwrap().cities[0].islands.insert(port);
    assert_eq!(naval(&g), vec![pay(0, 0, 0, 1), pay(2, 0, 0, 0)]);
    let a = Action::Build { card: stockade, pay: pay(0, 0, 0, 1), naval: red };
    g.submit(0, a).unwrap();
    discard_others(&mut g, 0);
    assert_eq!(g.armada().unwrap().cities[0].shipyard.step(Fleet::Red), 1);
    assert_eq!((g.city(0).coins, g.city(3).coins), (4, 5 + 1 + 3));
}

#[test]
fn a_payment_to_the_2nd_players_without_a_trading_zone_is_refused() {
    let mut g = game(&["Giza", "Olympia", "Rhodes", "Babylon", "Alexandria"], 3);
    let tower = card(&g, "Guard Tower");
    g.set_hand(1, &[tower, card(&g, "Altar")]);
    let a = Action::Build { card: tower, pay: pay(0, 0, 0, 1), naval: Naval::NONE };
    let err = g.submit(1, a).unwrap_err().to_string();
    assert!(err.contains("city 1 has no trading zone"), "{err}");
    // A game without Armada says so.
    let mut base = Game::new(&Setup::new(4, 1)).unwrap();
    let h = base.hand(0)[0];
    let a = Action::Build { card: h, pay: pay(0, 0, 1, 0), naval: Naval::NONE };
    let err = base.submit(0, a).unwrap_err().to_string();
    assert!(err.contains("this game has no Armada"), "{err}");
    assert!(!base.has_chosen(0), "nothing changed");
}

#[test]
fn wire_fields_and_records_round_trip() {
    let g = game(&["Giza", "Olympia", "Rhodes", "Babylon", "Alexandria"], 3);
    let cat = g.catalog();
    let tower = card(&g, "Guard Tower");
    let a = Action::Build { card: tower, pay: pay(0, 0, 2, 1), naval: Naval::NONE };
    let w = WireAction::from_action(cat, &a);
    let json = serde_json::to_string(&w).unwrap();
    assert!(json.contains(r#""second_left":2"#) && json.contains(r#""second_right":1"#), "{json}");
    let back: WireAction = serde_json::from_str(&json).unwrap();
    assert_eq!(back.to_action(cat).unwrap(), a);
    // Absent when 0: every other game's JSON is unchanged.
    let plain = WireAction::from_action(
        cat,
        &Action::Build { card: tower, pay: pay(2, 0, 0, 0), naval: Naval::NONE },
    );
    assert!(!serde_json::to_string(&plain).unwrap().contains("second"));
    // A whole 5-player game whose seats prefer payments to the 2nd players when they have one:
    // its record replays to the same scores.
    let mut found = false;
    for seed in 0..12u64 {
        let s = setup(5, seed);
        let mut g = Game::new(&s).unwrap();
        let mut rec = Record::new(&s, g.catalog());
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut legal = Vec::new();
        let mut traded = false;
        while !g.is_over() {
            for seat in g.to_act() {
                g.legal_actions_into(seat, &mut legal);
                let second = legal.iter().copied().find(|a| a.payment().is_some_and(|p| !p.second.is_none()));
                let a = second.unwrap_or_else(|| legal[rng.random_range(0..legal.len())]);
                traded |= second.is_some();
                rec.push(g.catalog(), seat, &a);
                g.submit(seat, a).unwrap();
            }
        }
        if !traded {
            continue;
        }
        rec.scores = Some(g.scores());
        let json = serde_json::to_string(&rec).unwrap();
        assert!(json.contains("\"second_"), "the record holds the 2nd players' coins");
        let back: Record = serde_json::from_str(&json).unwrap();
        assert_eq!(back.replay().unwrap().scores(), g.scores(), "seed {seed}");
        found = true;
        break;
    }
    assert!(found, "some game bought from a 2nd player");
}

#[test]
fn a_stage_with_an_edifice_participation_buys_from_the_2nd_players_too() {
    // Armada with Edifice, 5 players: seat 0 Alexandria (G) holds West Trading Zone; its 2nd
    // left, seat 2 Giza (S), has a Stone Pit and sells SS at 1 coin each; the neighbours Olympia
    // (W) and Rhodes (O) sell no stone. Stage 1 (SS) plus the participation in the Age's
    // project is one purchase (edifice.md; 001 A. 參與計劃): the stone comes from the 2nd left.
    let both = Expansions(Expansions::ARMADA.0 | Expansions::EDIFICE.0);
    let wonders = ["Alexandria", "Olympia", "Giza", "Babylon", "Rhodes"];
    let base = Setup { expansions: both, ..Setup::new(5, 1) };
    let cat = base.catalog();
    let chosen = wonders.iter().map(|w| (cat.find_wonder(w).unwrap(), Some(Side::A))).collect();
    let mut g = Game::new(&Setup { wonders: WonderDeal::Chosen(chosen), ..base }).unwrap();
    for c in 0..5 {
        g.city_mut(c).coins = 9;
        g.armada_mut().unwrap().cities[c].shipyard = Shipyard::new(BoardId(0));
    }
    place(&mut g, 0, "West Trading Zone");
    place(&mut g, 2, "Stone Pit");
    let altar = card(&g, "Altar");
    g.set_hand(0, &[altar, card(&g, "Baths")]);
    // The Age I project dealt with seed 1 is Outpost: 1 coin, no resource.
    let project = g.joinable_project(0).expect("Age I's project is open");
    assert_eq!((project.name.as_str(), project.coins, project.resources.total()), ("Outpost", 1, 0));
    let parts = |g: &Game| -> Vec<Payment> {
        g.legal_actions(0)
            .into_iter()
            .filter_map(|a| match a {
                Action::Wonder { card, pay, extra } if card == altar && extra.take_part() => Some(pay),
                _ => None,
            })
            .collect()
    };
    // The stone from the 2nd left (2 coins), the project's coin to the bank.
    let expected = Payment { bank: 1, ..pay(0, 0, 2, 0) };
    assert_eq!(parts(&g), vec![expected]);
    // Without the trading zone nobody can sell the stone: no participation with this stage.
    let mut plain = g.clone();
    plain.armada_mut().unwrap().cities[0].cards = 0;
    assert!(parts(&plain).is_empty());
    let join = Action::Wonder { card: altar, pay: expected, extra: StageExtra::new(true, false, 0) };
    g.submit(0, join).unwrap();
    discard_others(&mut g, 0);
    assert_eq!((g.city(0).stages, g.city(0).edifice.pawns[0]), (1, 1));
    assert_eq!((g.city(0).coins, g.city(2).coins), (9 - 2 - 1, 9 + 2 + 3));
}
