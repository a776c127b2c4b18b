//! The 2nd-edition rules (004 and edition-2e.md), case by case.

use wonders_core::score::score_city;
use wonders_core::{
    Action, CardId, Catalog, Edition, FreeBy, Game, Naval, Payment, Phase, Setup, Side, StageExtra,
    WonderDeal,
};

fn cat() -> &'static Catalog {
    Catalog::get(Edition::Second)
}

fn card(name: &str) -> CardId {
    cat().find_card(name).unwrap_or_else(|e| panic!("{e}"))
}

fn game_with(boards: &[(&str, Side)]) -> Game {
    let chosen = boards.iter().map(|(w, s)| (cat().find_wonder(w).unwrap(), Some(*s))).collect();
    let setup = Setup {
        edition: Edition::Second,
        players: boards.len() as u8,
        seed: 3,
        wonders: WonderDeal::Chosen(chosen),
        expansions: Default::default(),
        teams: false,
    };
    Game::new(&setup).unwrap()
}

fn payments(g: &Game, seat: usize, c: CardId) -> Vec<Payment> {
    let mut v = Vec::new();
    g.build_payments(seat, c, &mut v);
    v
}

/// Everyone discards their first card, except the given seats' actions.
fn turn(g: &mut Game, actions: &[(usize, Action)]) {
    for seat in 0..g.players() {
        let a = actions
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|(_, a)| *a)
            .unwrap_or(Action::Discard { card: g.hand(seat)[0] });
        g.submit(seat, a).unwrap_or_else(|e| panic!("seat {seat}: {e}"));
    }
}

#[test]
fn a_second_edition_game_deals_only_second_edition_cards() {
    let first = Catalog::get(Edition::First);
    for seed in 0..30 {
        for n in 3..=7u8 {
            let setup = Setup {
                edition: Edition::Second,
                players: n,
                seed,
                wonders: WonderDeal::Random,
                expansions: Default::default(),
                teams: false,
            };
            let mut g = Game::new(&setup).unwrap();
            assert!(std::ptr::eq(g.catalog(), cat()));
            let mut seen = Vec::new();
            for age in 1..=3u8 {
                for s in 0..n as usize {
                    let hand = if age == 1 { g.hand(s).to_vec() } else { g.later_hand(age, s).to_vec() };
                    assert_eq!(hand.len(), 7);
                    seen.extend(hand.into_iter().map(|c| cat().card(c).name.clone()));
                }
            }
            assert!(!seen.iter().any(|n| n == "Pawnshop" || n == "Strategists Guild"));
            if n >= 4 {
                assert!(seen.iter().any(|n| n == "Well"), "Well is 4+");
            }
            // And a 1st-edition game never deals a 2nd-edition card.
            let g1 = Game::new(&Setup::new(n, seed)).unwrap();
            for s in 0..n as usize {
                for &c in g1.hand(s) {
                    assert!(!["Well"].contains(&first.card(c).name.as_str()));
                }
            }
            // Play it out: the 2nd edition runs to the end.
            let mut legal = Vec::new();
            let mut i = seed as usize;
            while !g.is_over() {
                for seat in g.to_act() {
                    g.legal_actions_into(seat, &mut legal);
                    i = i.wrapping_mul(31).wrapping_add(7);
                    g.submit(seat, legal[i % legal.len()]).unwrap();
                }
            }
            assert_eq!(g.scores().len(), n as usize);
        }
    }
}

#[test]
fn new_chains_well_statue_altar_pantheon_theater_gardens() {
    // edition-2e.md §3; 004's example: Theater in Age I makes Gardens free in Age III.
    let mut g = game_with(&[("Giza", Side::A), ("Rhodes", Side::A), ("Ephesos", Side::A)]);
    g.city_mut(0).coins = 0;
    for (parent, child) in [("Well", "Statue"), ("Altar", "Pantheon"), ("Theater", "Gardens")] {
        assert!(payments(&g, 0, card(child)).is_empty(), "{child} costs resources");
        g.city_mut(0).place(cat(), card(parent));
        assert_eq!(payments(&g, 0, card(child)), vec![Payment::free(FreeBy::Chain)], "{parent} → {child}");
    }
    // Temple no longer chains from Altar.
    assert!(payments(&g, 0, card("Temple")).is_empty());
}

#[test]
fn decorators_guild_scores_seven_only_with_a_complete_wonder() {
    let mut g = game_with(&[("Giza", Side::B), ("Rhodes", Side::B), ("Ephesos", Side::A)]);
    g.city_mut(0).place(cat(), card("Decorators Guild"));
    g.city_mut(0).coins = 0;
    for stages in 0..=4u8 {
        g.city_mut(0).stages = stages;
        let s = score_city(cat(), g.cities(), 0);
        assert_eq!(s.guilds, if stages == 4 { 7 } else { 0 }, "Giza Night: {stages} of 4 stages");
    }
    g.city_mut(1).place(cat(), card("Decorators Guild"));
    g.city_mut(1).stages = 2;
    assert_eq!(score_city(cat(), g.cities(), 1).guilds, 7, "Rhodes Night has 2 stages");
}

#[test]
fn ludus_pays_three_coins_and_scores_a_point_per_red_card() {
    let mut g = game_with(&[
        ("Giza", Side::A),
        ("Rhodes", Side::A),
        ("Ephesos", Side::A),
        ("Olympia", Side::A),
        ("Babylon", Side::A),
    ]);
    for red in ["Barracks", "Stockade", "Walls"] {
        g.city_mut(0).place(cat(), card(red));
    }
    g.city_mut(0).place(cat(), card("Stone Pit"));
    g.city_mut(0).place(cat(), card("Ore Vein"));
    let ludus = card("Ludus");
    let hand: Vec<CardId> = std::iter::once(ludus).chain(g.hand(0)[1..].iter().copied()).collect();
    g.set_hand(0, &hand);
    assert_eq!(payments(&g, 0, ludus), vec![Payment::default()]);
    let coins = g.city(0).coins;
    turn(&mut g, &[(0, Action::Build { card: ludus, pay: Payment::default(), naval: Naval::NONE })]);
    assert_eq!(g.city(0).coins, coins + 9, "3 coins per red card");
    g.city_mut(0).coins = 0;
    assert_eq!(score_city(cat(), g.cities(), 0).commercial, 3);
}

#[test]
fn olympia_day_builds_the_first_card_of_each_colour_free() {
    let mut g = game_with(&[("Olympia", Side::A), ("Rhodes", Side::A), ("Giza", Side::A)]);
    g.city_mut(0).build_stage(cat());
    g.city_mut(0).build_stage(cat());
    g.city_mut(0).coins = 0;
    g.city_mut(0).place(cat(), card("Baths"));
    // Red: none yet, so Barracks is free; blue: Baths is there, so Altar (free anyway) and
    // Aqueduct are not.
    assert_eq!(payments(&g, 0, card("Barracks")), vec![Payment::free(FreeBy::FirstOfColour)]);
    assert!(payments(&g, 0, card("Temple")).is_empty());
    assert_eq!(payments(&g, 0, card("Aqueduct")), vec![Payment::free(FreeBy::Chain)], "chains still work");
    assert_eq!(payments(&g, 0, card("Palace")).len(), 0, "blue is taken: Palace must be paid");
    assert_eq!(payments(&g, 0, card("Builders Guild")), vec![Payment::free(FreeBy::FirstOfColour)]);
}

#[test]
fn olympia_night_builds_the_first_and_last_card_of_each_age_free() {
    // FAQ (edition-2e.md §5 Olympia): stage 1 makes the first card of each later Age free;
    // stage 2 the last card of each Age, from the Age it is built in.
    let mut g = game_with(&[("Olympia", Side::B), ("Rhodes", Side::A), ("Giza", Side::A)]);
    g.city_mut(0).build_stage(cat());
    g.city_mut(0).build_stage(cat());
    g.city_mut(0).coins = 0;
    let palace = card("Palace");
    let hand: Vec<CardId> = std::iter::once(palace).chain(g.hand(0)[1..].iter().copied()).collect();
    g.set_hand(0, &hand);
    assert_eq!(g.turn(), 1);
    assert_eq!(payments(&g, 0, palace), vec![Payment::free(FreeBy::FirstOfAge)]);
    turn(&mut g, &[]);
    let c = g.hand(0).iter().copied().find(|&c| !cat().card(c).cost.is_empty());
    if let Some(c) = c {
        assert!(!payments(&g, 0, c).iter().any(|p| p.free.is_some()), "turn 2 is not free");
    }
    while g.turn() < 6 {
        turn(&mut g, &[]);
    }
    g.set_hand(0, &[palace, card("Altar")]);
    assert_eq!(payments(&g, 0, palace), vec![Payment::free(FreeBy::LastOfAge)]);
}

#[test]
fn babylon_night_cannot_buy_from_a_card_built_the_same_turn() {
    // 004 貿易: nothing can be bought from a building the neighbour builds this turn. Babylon
    // Night's last card is played at the end of the Age's last turn: the neighbour's turn-6
    // Clay Pool is not for sale then (Babylon starts with wood in the 2nd edition).
    let mut g = game_with(&[("Babylon", Side::B), ("Rhodes", Side::A), ("Giza", Side::A)]);
    while g.turn() < 6 {
        turn(&mut g, &[]);
    }
    g.city_mut(0).place(cat(), card("Stone Pit"));
    g.city_mut(0).place(cat(), card("Quarry"));
    let tower = card("Guard Tower"); // costs 1 clay
    let pool = card("Clay Pool");
    g.set_hand(0, &[card("Altar"), tower]);
    g.set_hand(1, &[pool, card("Theater")]);
    g.set_hand(2, &[card("Loom"), card("Press")]);
    turn(
        &mut g,
        &[
            (0, Action::Wonder { card: card("Altar"), pay: Payment::default(), extra: StageExtra::NONE }),
            (1, Action::Build { card: pool, pay: Payment::default(), naval: Naval::NONE }),
        ],
    );
    assert_eq!(g.phase(), Phase::PlayLastCard { city: 0 });
    assert!(g.city(1).built.contains(pool));
    assert!(payments(&g, 0, tower).is_empty(), "the Clay Pool was built this turn");
    let err = g.submit(0, Action::Build { card: tower, pay: Payment::paid(2, 0, 0), naval: Naval::NONE });
    assert!(err.is_err());
    // The same purchase in the 1st edition is allowed (the rule is new in the 2nd edition).
    let first = Catalog::get(Edition::First);
    let chosen = ["Babylon", "Alexandria", "Ephesos"]
        .iter()
        .zip([Side::B, Side::A, Side::A])
        .map(|(w, s)| (first.find_wonder(w).unwrap(), Some(s)))
        .collect();
    let mut g1 = Game::new(&Setup {
        edition: Edition::First,
        players: 3,
        seed: 3,
        wonders: WonderDeal::Chosen(chosen),
        expansions: Default::default(),
        teams: false,
    })
    .unwrap();
    while g1.turn() < 6 {
        turn(&mut g1, &[]);
    }
    let c1 = |n: &str, a: u8| first.find_card_in_age(n, a).unwrap();
    // 1st-edition Babylon B: the last-card power is stage 2 (2 wood + glass).
    g1.city_mut(0).build_stage(first);
    g1.city_mut(0).place(first, c1("Sawmill", 2));
    g1.city_mut(0).place(first, c1("Glassworks", 1));
    let barracks = c1("Barracks", 1); // costs 1 ore
    let vein = c1("Ore Vein", 1);
    g1.set_hand(0, &[c1("Altar", 1), barracks]);
    g1.set_hand(1, &[vein, c1("Theater", 1)]);
    g1.set_hand(2, &[c1("Loom", 1), c1("Press", 1)]);
    turn(
        &mut g1,
        &[
            (0, Action::Wonder { card: c1("Altar", 1), pay: Payment::default(), extra: StageExtra::NONE }),
            (1, Action::Build { card: vein, pay: Payment::default(), naval: Naval::NONE }),
        ],
    );
    assert_eq!(g1.phase(), Phase::PlayLastCard { city: 0 });
    assert_eq!(payments(&g1, 0, barracks), vec![Payment::paid(2, 0, 0)]);
}

#[test]
fn players_draw_a_board_and_choose_its_side() {
    // 004 遊戲準備: each player takes a random board and chooses the side they like.
    let setup = Setup {
        edition: Edition::Second,
        players: 3,
        seed: 8,
        wonders: WonderDeal::RandomBoardsChooseSides,
        expansions: Default::default(),
        teams: false,
    };
    let mut g = Game::new(&setup).unwrap();
    assert_eq!(g.phase(), Phase::ChooseSide);
    assert_eq!(g.to_act().as_slice(), &[0, 1, 2]);
    assert_eq!(
        g.legal_actions(1),
        vec![Action::ChooseSide { side: Side::A }, Action::ChooseSide { side: Side::B }]
    );
    let boards: Vec<_> = g.cities().iter().map(|c| c.wonder).collect();
    assert!(g.submit(0, Action::Discard { card: g.hand(0)[0] }).is_err(), "sides first");
    g.submit(0, Action::ChooseSide { side: Side::B }).unwrap();
    assert_eq!(
        g.submit(0, Action::ChooseSide { side: Side::A }),
        Err(wonders_core::ActionError::AlreadyChosen(0))
    );
    g.submit(1, Action::ChooseSide { side: Side::A }).unwrap();
    g.submit(2, Action::ChooseSide { side: Side::B }).unwrap();
    assert_eq!(g.phase(), Phase::Choose);
    let sides: Vec<Side> = g.cities().iter().map(|c| c.side).collect();
    assert_eq!(sides, vec![Side::B, Side::A, Side::B]);
    assert_eq!(g.cities().iter().map(|c| c.wonder).collect::<Vec<_>>(), boards, "the boards stay");
    assert!(g.cities().iter().all(|c| c.coins == 3 && c.stages == 0));
    // The deal does not depend on how the wonders were given out.
    let random = Game::new(&Setup { wonders: WonderDeal::Random, ..setup }).unwrap();
    assert_eq!(g.hand(0), random.hand(0));
}
