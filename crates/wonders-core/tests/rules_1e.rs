//! The 1st-edition rules, case by case, each from its rulebook passage (002) or reference row.
#![allow(clippy::needless_range_loop)] // seats are indices

use wonders_core::{
    Action, ActionError, CardId, Catalog, Edition, FreeBy, Game, Naval, Payment, Phase, Played, Setup, Side,
    StageExtra, WonderDeal,
};

fn cat() -> &'static Catalog {
    Catalog::get(Edition::First)
}

fn card(name: &str, age: u8) -> CardId {
    cat().find_card_in_age(name, age).unwrap_or_else(|| panic!("no {name} in Age {age}"))
}

fn game_with(boards: &[(&str, Side)]) -> Game {
    let chosen = boards.iter().map(|(w, s)| (cat().find_wonder(w).unwrap(), Some(*s))).collect();
    let setup = Setup {
        edition: Edition::First,
        players: boards.len() as u8,
        seed: 1,
        wonders: WonderDeal::Chosen(chosen),
        expansions: Default::default(),
        teams: false,
    };
    Game::new(&setup).unwrap()
}

fn build_paid(game: &Game, seat: usize, c: CardId) -> Vec<Payment> {
    let mut v = Vec::new();
    game.build_payments(seat, c, &mut v);
    v
}

/// Everyone discards their first card, except the given seats' actions.
fn turn(game: &mut Game, actions: &[(usize, Action)]) {
    for seat in 0..game.players() {
        let a = actions
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|(_, a)| *a)
            .unwrap_or(Action::Discard { card: game.hand(seat)[0] });
        game.submit(seat, a).unwrap_or_else(|e| panic!("seat {seat}: {e}"));
    }
}

fn names(cards: &[CardId]) -> Vec<&'static str> {
    cards.iter().map(|&c| cat().card(c).name.as_str()).collect()
}

#[test]
fn a_seed_always_gives_the_same_deal() {
    // The generator is pinned (ChaCha8, rand_chacha 0.10): this deal must never change.
    let g = Game::new(&Setup::new(3, 42)).unwrap();
    let boards: Vec<(String, Side)> =
        g.cities().iter().map(|c| (cat().wonder(c.wonder).name.clone(), c.side)).collect();
    let hand0 = names(g.hand(0));
    let again = Game::new(&Setup::new(3, 42)).unwrap();
    assert_eq!(g, again);
    insta_like(&format!("{boards:?} {hand0:?}"), include_str!("pinned/deal_3p_seed42.txt").trim());
}

/// Compares with a pinned text, printing the new value on mismatch.
fn insta_like(got: &str, want: &str) {
    assert_eq!(got, want, "pinned value changed; new value:\n{got}");
}

#[test]
fn setup_gives_three_coins_and_seven_cards() {
    for n in 3..=7 {
        let g = Game::new(&Setup::new(n, 9)).unwrap();
        for s in 0..n as usize {
            assert_eq!(g.city(s).coins, 3);
            assert_eq!(g.hand(s).len(), 7);
        }
        let mut boards: Vec<_> = g.cities().iter().map(|c| c.wonder).collect();
        boards.sort();
        boards.dedup();
        assert_eq!(boards.len(), n as usize, "every player has a different board");
    }
    // 2 players play the Free City variant (tests/free_city.rs); 1 and 8 are refused.
    assert!(Game::new(&Setup::new(2, 0)).is_ok());
    assert!(Game::new(&Setup::new(1, 0)).is_err());
    assert!(Game::new(&Setup::new(8, 0)).is_err());
}

#[test]
fn hands_pass_left_in_age_one_and_right_in_age_two() {
    // 002 3、傳接卡牌: Age I to the left (seat i+1), Age II to the right (seat i−1).
    let mut g = Game::new(&Setup::new(4, 3)).unwrap();
    let before: Vec<Vec<CardId>> = (0..4).map(|s| g.hand(s).to_vec()).collect();
    turn(&mut g, &[]);
    for s in 0..4 {
        assert_eq!(
            g.hand((s + 1) % 4),
            &before[s][1..],
            "Age I: seat {s}'s hand goes to seat {}",
            (s + 1) % 4
        );
    }
    while g.age() == 1 {
        turn(&mut g, &[]);
    }
    let before: Vec<Vec<CardId>> = (0..4).map(|s| g.hand(s).to_vec()).collect();
    turn(&mut g, &[]);
    for s in 0..4 {
        assert_eq!(g.hand((s + 3) % 4), &before[s][1..], "Age II passes right");
    }
}

#[test]
fn discarding_gives_three_coins_and_the_seventh_card_gives_none() {
    let mut g = Game::new(&Setup::new(3, 5)).unwrap();
    for t in 1..=6 {
        turn(&mut g, &[]);
        if t < 6 {
            assert_eq!(g.city(0).coins, 3 + 3 * t);
        }
    }
    // Six discards for 3 coins each; the 7th cards go to the pile for nothing (002 第六個回合).
    assert_eq!(g.age(), 2);
    assert_eq!(g.discard_pile().len(), 21);
    for s in 0..3 {
        assert_eq!(g.city(s).coins, 3 + 18);
        assert_eq!(g.hand(s).len(), 7);
    }
}

#[test]
fn coins_earned_during_a_turn_cannot_be_spent_in_it() {
    // 002 示例C (the card is the Forum, base-1e.md §3 item 11): she makes 1 clay, her neighbour
    // sells clay, she starts the turn with 1 coin; even if the neighbour buys from her this turn
    // she cannot build it.
    let mut g = game_with(&[("Babylon", Side::A), ("Giza", Side::A), ("Rhodes", Side::A)]);
    let forum = card("Forum", 2);
    let clay_pool = card("Clay Pool", 1);
    g.city_mut(1).place(cat(), clay_pool);
    g.city_mut(0).coins = 1;
    g.set_hand(0, &[forum, card("Altar", 1)]);
    g.set_hand(1, &[card("Baths", 1), card("Theater", 1)]);
    g.set_hand(2, &[card("Guard Tower", 1), card("Loom", 1)]);
    assert!(build_paid(&g, 0, forum).is_empty(), "1 coin cannot buy a clay");
    // Rhodes (seat 2, left of... seat 2 is the right neighbour of seat 0) buys Babylon's clay.
    let guard = card("Guard Tower", 1);
    let pays = build_paid(&g, 2, guard);
    assert!(pays.contains(&Payment::paid(2, 0, 0)), "{pays:?}");
    let refused = g.submit(0, Action::Build { card: forum, pay: Payment::paid(0, 2, 0), naval: Naval::NONE });
    assert!(matches!(refused, Err(ActionError::BadPayment { .. })), "{refused:?}");
    g.submit(0, Action::Discard { card: card("Altar", 1) }).unwrap();
    g.submit(1, Action::Discard { card: card("Baths", 1) }).unwrap();
    g.submit(2, Action::Build { card: guard, pay: Payment::paid(2, 0, 0), naval: Naval::NONE }).unwrap();
    // Babylon received 2 coins for the clay plus 3 for the discard: usable from the next turn.
    assert_eq!(g.city(0).coins, 1 + 2 + 3);
    assert_eq!(g.city(2).coins, 3 - 2);
}

#[test]
fn neighbours_are_paid_and_the_bank_takes_coin_costs() {
    let mut g = game_with(&[("Giza", Side::A), ("Rhodes", Side::A), ("Olympia", Side::A)]);
    // Giza wants Baths? No: Stockade costs 1 wood; Olympia (seat 2 = right neighbour) sells wood.
    let stockade = card("Stockade", 1);
    let tree = card("Mine", 1); // costs 1 coin, to the bank
    g.set_hand(0, &[stockade, card("Altar", 1)]);
    g.set_hand(1, &[tree, card("Theater", 1)]);
    g.set_hand(2, &[card("Loom", 1), card("Press", 1)]);
    assert_eq!(build_paid(&g, 0, stockade), vec![Payment::paid(0, 2, 0)]);
    assert_eq!(build_paid(&g, 1, tree), vec![Payment::paid(0, 0, 1)]);
    turn(
        &mut g,
        &[
            (0, Action::Build { card: stockade, pay: Payment::paid(0, 2, 0), naval: Naval::NONE }),
            (1, Action::Build { card: tree, pay: Payment::paid(0, 0, 1), naval: Naval::NONE }),
        ],
    );
    assert_eq!(g.city(0).coins, 1);
    assert_eq!(g.city(1).coins, 2);
    assert_eq!(g.city(2).coins, 3 + 2 + 3, "Olympia: 2 from Giza's purchase, 3 for its discard");
    assert_eq!(g.city(0).shields, 1);
}

#[test]
fn chains_build_for_free_even_without_coins() {
    // 002 免費建築（連鎖）: Scriptorium in Age I makes Library and Courthouse free in Age II.
    let mut g = game_with(&[("Giza", Side::A), ("Rhodes", Side::A), ("Olympia", Side::A)]);
    g.city_mut(0).place(cat(), card("Scriptorium", 1));
    g.city_mut(0).coins = 0;
    for c in [card("Library", 2), card("Courthouse", 2)] {
        assert_eq!(build_paid(&g, 0, c), vec![Payment::free(FreeBy::Chain)]);
    }
    // Without the parent, Library needs 2 stone + loom: Giza has 1 stone and 0 coins.
    assert!(build_paid(&g, 1, card("Library", 2)).is_empty());
}

#[test]
fn no_two_structures_of_the_same_name() {
    // 002 2.a: never two identical buildings; the Age I and Age II Loom share a name
    // (base-1e.md §4.9).
    let mut g = game_with(&[("Giza", Side::A), ("Rhodes", Side::A), ("Olympia", Side::A)]);
    g.city_mut(0).place(cat(), card("Loom", 1));
    let loom2 = card("Loom", 2);
    assert_ne!(loom2, card("Loom", 1));
    g.set_hand(0, &[loom2, card("Altar", 1)]);
    assert!(build_paid(&g, 0, loom2).is_empty());
    let err =
        g.submit(0, Action::Build { card: loom2, pay: Payment::default(), naval: Naval::NONE }).unwrap_err();
    assert!(err.to_string().contains("already has a Loom"), "{err}");
    assert!(g.legal_actions(0).iter().all(|a| !matches!(a, Action::Build { card, .. } if *card == loom2)));
}

#[test]
fn vineyard_and_bazar_count_neighbours_cards_built_the_same_turn() {
    // 002 symbol page (Age II): cards built in the same turn as Vineyard / Bazar count
    // (base-1e.md §4.7). Board resources never count.
    let mut g =
        game_with(&[("Giza", Side::A), ("Rhodes", Side::A), ("Olympia", Side::A), ("Ephesos", Side::A)]);
    let vineyard = card("Vineyard", 2);
    let sawmill = card("Sawmill", 2);
    g.city_mut(0).place(cat(), card("Lumber Yard", 1));
    g.city_mut(3).place(cat(), card("Ore Vein", 1));
    g.city_mut(2).place(cat(), card("Stone Pit", 1)); // not a neighbour of seat 0
    g.set_hand(0, &[vineyard, card("Altar", 1)]);
    g.set_hand(1, &[sawmill, card("Theater", 1)]);
    g.set_hand(2, &[card("Quarry", 2), card("Baths", 1)]);
    g.set_hand(3, &[card("Foundry", 2), card("Pawnshop", 1)]);
    let paid = |c: CardId| Action::Build { card: c, pay: Payment::paid(0, 0, 1), naval: Naval::NONE };
    turn(
        &mut g,
        &[
            (0, Action::Build { card: vineyard, pay: Payment::default(), naval: Naval::NONE }),
            (1, paid(sawmill)),
            (2, paid(card("Quarry", 2))),
            (3, paid(card("Foundry", 2))),
        ],
    );
    // Own Lumber Yard + left (seat 1): Sawmill built this turn + right (seat 3): Ore Vein and
    // Foundry built this turn = 4 brown cards.
    assert_eq!(g.city(0).coins, 3 + 4);
}

#[test]
fn military_at_the_end_of_each_age() {
    // 002 時代結束 example: at the end of Age II, 3 shields against 5 on the left and 2 on the
    // right: a −1 token and a +3 token.
    let mut g = game_with(&[("Alexandria", Side::A), ("Rhodes", Side::A), ("Ephesos", Side::A)]);
    while g.age() == 1 {
        turn(&mut g, &[]);
    }
    let before: Vec<_> = g.cities().iter().map(|c| c.tokens).collect();
    assert!(before.iter().all(|t| t.points() == 0), "nobody has shields in Age I: ties give nothing");
    g.city_mut(0).shields = 3;
    g.city_mut(1).shields = 5;
    g.city_mut(2).shields = 2;
    while g.age() == 2 {
        turn(&mut g, &[]);
    }
    assert_eq!(g.city(0).tokens.values(), vec![3, -1]);
    assert_eq!(g.city(1).tokens.values(), vec![3, 3], "Rhodes beats both");
    assert_eq!(g.city(2).tokens.values(), vec![-1, -1]);
}

#[test]
fn olympia_a_builds_one_card_free_per_age_from_the_next_turn() {
    // 002 [A]面 奧林匹亞; base-1e.md §4.3.
    let mut g = game_with(&[("Olympia", Side::A), ("Rhodes", Side::A), ("Giza", Side::A)]);
    g.city_mut(0).stages = 1;
    g.city_mut(0).coins = 0;
    let palace = card("Palace", 3);
    let altar = card("Altar", 1);
    g.city_mut(0).place(cat(), card("Stone Pit", 1));
    g.city_mut(0).place(cat(), card("Quarry", 2));
    g.set_hand(
        0,
        &[
            card("Barracks", 1),
            palace,
            altar,
            card("Stockade", 1),
            card("Theater", 1),
            card("Baths", 1),
            card("Press", 1),
        ],
    );
    // Stage 2 (2 stone) this turn: no free build yet.
    assert!(!build_paid(&g, 0, palace).iter().any(|p| p.free == Some(FreeBy::FreeBuild)));
    turn(
        &mut g,
        &[(
            0,
            Action::Wonder { card: card("Barracks", 1), pay: Payment::default(), extra: StageExtra::NONE },
        )],
    );
    assert_eq!(g.city(0).stages, 2);
    // Next turn (hands have passed; give seat 0 these six): Palace (7 resources) may be built
    // free; a card without cost (Altar) is not offered it.
    g.set_hand(
        0,
        &[palace, altar, card("Stockade", 1), card("Theater", 1), card("Baths", 1), card("Press", 1)],
    );
    assert_eq!(build_paid(&g, 0, palace), vec![Payment::free(FreeBy::FreeBuild)]);
    assert!(!build_paid(&g, 0, altar).iter().any(|p| p.free.is_some()));
    turn(
        &mut g,
        &[(0, Action::Build { card: palace, pay: Payment::free(FreeBy::FreeBuild), naval: Naval::NONE })],
    );
    assert!(g.city(0).built.contains(palace));
    // Used for this Age: the next turn offers no free build.
    for &c in g.hand(0) {
        assert!(!build_paid(&g, 0, c).iter().any(|p| p.free == Some(FreeBy::FreeBuild)));
    }
    while g.age() == 1 {
        turn(&mut g, &[]);
    }
    // A new Age: available again.
    let c = g.hand(0).iter().copied().find(|&c| !cat().card(c).cost.is_empty()).unwrap();
    assert!(build_paid(&g, 0, c).contains(&Payment::free(FreeBy::FreeBuild)));
}

#[test]
fn halicarnassus_builds_from_the_discards_of_its_turn_before_military() {
    // 002 [A]面 哈利卡納蘇斯: at the end of the turn the stage is built, including that turn's
    // discards (on turn 6, the 7th cards); base-1e.md §4.4.
    let mut g = game_with(&[("Halicarnassus", Side::A), ("Rhodes", Side::A), ("Giza", Side::A)]);
    while g.turn() < 6 {
        turn(&mut g, &[]);
    }
    g.city_mut(0).stages = 1;
    g.city_mut(0).place(cat(), card("Ore Vein", 1));
    g.city_mut(0).place(cat(), card("Clay Pit", 1));
    g.city_mut(0).place(cat(), card("Mine", 1));
    let barracks = card("Barracks", 1);
    g.set_hand(0, &[card("Altar", 1), card("Theater", 1)]);
    g.set_hand(1, &[card("Press", 1), barracks]);
    g.set_hand(2, &[card("Loom", 1), card("Tavern", 1)]);
    let pile_before = g.discard_pile().len();
    turn(
        &mut g,
        &[
            (0, Action::Wonder { card: card("Altar", 1), pay: Payment::default(), extra: StageExtra::NONE }),
            (1, Action::Discard { card: card("Press", 1) }),
            (2, Action::Discard { card: card("Loom", 1) }),
        ],
    );
    // The turn-6 discards and the three 7th cards are in the pile; Halicarnassus picks now,
    // still in Age I, before military.
    assert_eq!(g.phase(), Phase::BuildFromDiscard { city: 0 });
    assert_eq!(g.age(), 1);
    assert_eq!(g.discard_pile().len(), pile_before + 2 + 3);
    let legal = g.legal_actions(0);
    assert!(
        legal.contains(&Action::BuildDiscarded { card: barracks, free_move: None }),
        "a 7th card of this turn"
    );
    assert!(legal.contains(&Action::BuildDiscarded { card: card("Tavern", 1), free_move: None }));
    assert!(legal.contains(&Action::Pass));
    assert!(g.submit(1, Action::Pass).is_err(), "only Halicarnassus acts now");
    g.submit(0, Action::BuildDiscarded { card: barracks, free_move: None }).unwrap();
    // The shield counts in Age I's military: Halicarnassus wins both conflicts.
    assert_eq!(g.age(), 2);
    assert_eq!(g.city(0).tokens.values(), vec![1, 1]);
    assert!(g.city(0).built.contains(barracks));
}

#[test]
fn babylon_b_plays_the_seventh_card_the_same_age() {
    // 002 [B]面 巴比倫 說明: stage 2 built on turn 6 lets the 7th card be played at once;
    // base-1e.md §4.5.
    let mut g = game_with(&[("Babylon", Side::B), ("Rhodes", Side::A), ("Giza", Side::A)]);
    while g.turn() < 6 {
        turn(&mut g, &[]);
    }
    g.city_mut(0).stages = 1;
    g.city_mut(0).place(cat(), card("Sawmill", 2));
    g.city_mut(0).place(cat(), card("Glassworks", 1));
    let tavern = card("Tavern", 1);
    g.set_hand(0, &[card("Altar", 1), tavern]);
    g.set_hand(1, &[card("Press", 1), card("Barracks", 1)]);
    g.set_hand(2, &[card("Loom", 1), card("Theater", 1)]);
    turn(
        &mut g,
        &[(0, Action::Wonder { card: card("Altar", 1), pay: Payment::default(), extra: StageExtra::NONE })],
    );
    assert_eq!(g.phase(), Phase::PlayLastCard { city: 0 });
    assert_eq!(g.hand(0), &[tavern]);
    let coins = g.city(0).coins;
    g.submit(0, Action::Build { card: tavern, pay: Payment::default(), naval: Naval::NONE }).unwrap();
    assert_eq!(g.city(0).coins, coins + 5);
    assert_eq!(g.last_log()[0].played, Played::Built(tavern));
    assert_eq!(g.last_log()[0].turn, 7);
    assert_eq!(g.age(), 2, "then the other 7th cards are discarded and the Age ends");
    assert!(g.discard_pile().contains(&card("Barracks", 1)));
}

#[test]
fn illegal_actions_are_refused_and_change_nothing() {
    let mut g = Game::new(&Setup::new(3, 11)).unwrap();
    let before = g.clone();
    let not_in_hand = cat().cards.iter().map(|c| c.id).find(|c| !g.hand(0).contains(c)).unwrap();
    let errs = [
        g.clone().submit(0, Action::Discard { card: not_in_hand }).unwrap_err(),
        g.clone().submit(5, Action::Discard { card: g.hand(0)[0] }).unwrap_err(),
        g.clone().submit(0, Action::Pass).unwrap_err(),
        g.clone().submit(0, Action::Discard { card: CardId(250) }).unwrap_err(),
        g.clone()
            .submit(0, Action::Build { card: g.hand(0)[0], pay: Payment::paid(9, 9, 0), naval: Naval::NONE })
            .unwrap_err(),
    ];
    for e in &errs {
        assert!(!e.to_string().is_empty());
    }
    assert!(errs[0].to_string().contains(&cat().card(not_in_hand).name));
    assert_eq!(errs[1], ActionError::NoSuchSeat(5));
    assert!(g.submit(0, Action::Discard { card: not_in_hand }).is_err());
    assert_eq!(g, before);
    g.submit(0, Action::Discard { card: g.hand(0)[0] }).unwrap();
    let after_one = g.clone();
    assert_eq!(g.submit(0, Action::Discard { card: g.hand(0)[1] }), Err(ActionError::AlreadyChosen(0)));
    assert_eq!(g, after_one);
}

#[test]
fn wire_actions_tell_the_age_i_and_age_ii_loom_apart() {
    use wonders_core::WireAction;
    let loom1 = card("Loom", 1);
    let loom2 = card("Loom", 2);
    let w = WireAction::from_action(cat(), &Action::BuildDiscarded { card: loom2, free_move: None });
    assert_eq!(serde_json::to_string(&w).unwrap(), r#"{"type":"build_discarded","card":"Loom","age":2}"#);
    assert_eq!(w.to_action(cat()).unwrap(), Action::BuildDiscarded { card: loom2, free_move: None });
    // Without an age, the name means the copy the seat can use: here the one in its hand.
    let mut g = game_with(&[("Giza", Side::A), ("Rhodes", Side::A), ("Olympia", Side::A)]);
    g.set_hand(0, &[loom2, card("Altar", 1)]);
    let bare: WireAction = serde_json::from_str(r#"{"type":"discard","card":"loom"}"#).unwrap();
    assert_eq!(bare.to_action_in(&g, 0).unwrap(), Action::Discard { card: loom2 });
    assert_eq!(bare.to_action(cat()).unwrap(), Action::Discard { card: loom1 });
    // Unique names carry no age.
    let altar = WireAction::from_action(cat(), &Action::Discard { card: card("Altar", 1) });
    assert_eq!(serde_json::to_string(&altar).unwrap(), r#"{"type":"discard","card":"Altar"}"#);
}

#[test]
fn a_view_remembers_the_hands_held_this_age_and_the_public_history() {
    // Issue 4: a seat knows every hand it has held this Age, so it knows which cards went to
    // which neighbour.
    let mut g = Game::new(&Setup::new(4, 12)).unwrap();
    let mut held = vec![g.hand(2).to_vec()];
    for _ in 0..3 {
        turn(&mut g, &[]);
        held.push(g.hand(2).to_vec());
    }
    let v = g.view(2);
    let seen: Vec<Vec<CardId>> = v.seen_hands.iter().map(|h| h.to_vec()).collect();
    assert_eq!(seen, held);
    // Everyone discarded 3 times: 12 public entries, in order.
    assert_eq!(v.history.len(), 12);
    assert!(v.history.iter().all(|e| e.played == Played::Discarded && e.age == 1));
    assert_eq!(
        v.history.iter().map(|e| e.turn).collect::<Vec<_>>(),
        vec![1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]
    );
    // A new Age starts a new memory.
    while g.age() == 1 {
        turn(&mut g, &[]);
    }
    assert_eq!(g.view(2).seen_hands.len(), 1);
    assert_eq!(g.view(2).seen_hands[0].as_slice(), g.hand(2));
}
