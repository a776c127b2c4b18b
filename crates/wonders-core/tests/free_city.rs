//! The 1st edition's 2-player variant with the Free City (002 2人變體規則; base-1e.md §5).

use wonders_core::{
    Action, ActionError, CardId, Catalog, Edition, FreeBy, Game, Naval, Payment, Phase, Played, Record,
    Setup, Side, WonderDeal,
};

fn cat() -> &'static Catalog {
    Catalog::get(Edition::First)
}

fn card(name: &str, age: u8) -> CardId {
    cat().find_card_in_age(name, age).unwrap()
}

fn game_with(boards: [(&str, Side); 3]) -> Game {
    let chosen = boards.iter().map(|(w, s)| (cat().find_wonder(w).unwrap(), Some(*s))).collect();
    Game::new(&Setup {
        edition: Edition::First,
        players: 2,
        seed: 4,
        wonders: WonderDeal::Chosen(chosen),
        expansions: Default::default(),
        teams: false,
    })
    .unwrap()
}

/// Plays one turn (and any one-city step after it): every decision takes the first legal action.
fn first_legal_turn(g: &mut Game) {
    let start = (g.age(), g.turn());
    while !g.is_over() && (g.age(), g.turn()) == start {
        let seat = g.to_act()[0];
        let a = g.legal_actions(seat)[0];
        g.submit(seat, a).unwrap();
    }
}

#[test]
fn setup_three_cities_three_coins_seven_cards_and_a_draw_pile() {
    let g = Game::new(&Setup::new(2, 9)).unwrap();
    assert_eq!(g.players(), 2);
    assert_eq!(g.cities().len(), 3);
    assert_eq!(g.free_city(), Some(2));
    assert!(g.cities().iter().all(|c| c.coins == 3), "players and the Free City take 3 coins");
    // Age I: the player on the Free City's left (seat 0, as the left of city 2 is city 0)
    // holds the Free City card and has drawn one card: 7 + 1.
    assert_eq!(g.free_city_holder(), Some(0));
    assert_eq!(g.hand(0).len(), 8);
    assert_eq!(g.hand(1).len(), 7);
    assert_eq!(g.draw_pile_size(), 6);
    // The 3-player decks: only 3+ cards (21 per Age) and 5 guilds.
    let dealt: Vec<CardId> = (0..3).flat_map(|s| g.later_hand(3, s).to_vec()).collect();
    assert_eq!(dealt.len(), 21);
    assert_eq!(dealt.iter().filter(|&&c| cat().card(c).is_guild()).count(), 5);
    assert!(dealt.iter().all(|&c| cat().card(c).is_guild() || cat().card(c).copies.contains(&3)));
    assert!(
        Game::new(&Setup {
            edition: Edition::Second,
            players: 2,
            seed: 0,
            wonders: WonderDeal::Random,
            expansions: Default::default(),
            teams: false,
        })
        .is_err()
    );
}

#[test]
fn the_holder_chooses_for_itself_then_for_the_free_city_and_the_hands_swap() {
    let mut g = Game::new(&Setup::new(2, 9)).unwrap();
    assert_eq!(g.to_act().as_slice(), &[0, 1]);
    assert_eq!(g.acting_city(0), 0);
    let own = g.hand(0)[0];
    g.submit(0, Action::Discard { card: own }).unwrap();
    // Now seat 0 chooses for the Free City from the 7 cards left.
    assert!(g.must_act(0));
    assert_eq!(g.acting_city(0), 2);
    let fc_actions = g.legal_actions(0);
    assert!(
        fc_actions
            .iter()
            .all(|a| a.card() != Some(own) || g.hand(0).iter().filter(|&&c| c == own).count() > 1)
    );
    g.submit(0, fc_actions[0]).unwrap();
    assert!(!g.must_act(0));
    let before: Vec<CardId> = g.hand(1).to_vec();
    let theirs = g.hand(1)[0];
    g.submit(1, Action::Discard { card: theirs }).unwrap();
    // The three actions resolved; the Free City acted.
    assert_eq!(g.last_log().len(), 3);
    assert!(g.last_log().iter().any(|e| e.seat == 2));
    // The hands swap and the Free City card goes with the holder's hand: seat 1 now holds it and
    // has drawn: 6 + 1 cards; seat 0 has seat 1's 6 cards.
    assert_eq!(g.free_city_holder(), Some(1));
    assert_eq!(g.hand(1).len(), 7);
    assert_eq!(g.hand(0), &before[1..]);
    assert_eq!(g.draw_pile_size(), 5);
}

#[test]
fn the_free_city_discards_only_when_it_can_do_nothing_else() {
    let mut g = game_with([("Giza", Side::A), ("Rhodes", Side::A), ("Olympia", Side::A)]);
    g.city_mut(2).coins = 0;
    // Olympia (the Free City, wood) can build Stockade (1 wood) but not Baths (stone: it has no
    // coins to buy it).
    let (stockade, baths, altar) = (card("Stockade", 1), card("Baths", 1), card("Altar", 1));
    g.set_hand(0, &[altar, stockade, baths]);
    g.submit(0, Action::Build { card: altar, pay: Payment::default(), naval: Naval::NONE }).unwrap();
    let legal = g.legal_actions(0);
    assert!(legal.contains(&Action::Build { card: stockade, pay: Payment::default(), naval: Naval::NONE }));
    assert!(!legal.iter().any(|a| matches!(a, Action::Discard { .. })), "{legal:?}");
    let err = g.submit(0, Action::Discard { card: baths }).unwrap_err();
    assert!(matches!(err, ActionError::FreeCity(_)), "{err}");
    // With nothing it can build or use for its wonder, it discards.
    let mut g = game_with([("Giza", Side::A), ("Rhodes", Side::A), ("Olympia", Side::A)]);
    g.city_mut(2).coins = 0;
    let (barracks, tower) = (card("Barracks", 1), card("Guard Tower", 1));
    g.set_hand(0, &[altar, barracks, tower]);
    g.submit(0, Action::Build { card: altar, pay: Payment::default(), naval: Naval::NONE }).unwrap();
    let legal = g.legal_actions(0);
    assert_eq!(legal, vec![Action::Discard { card: barracks }, Action::Discard { card: tower }]);
}

#[test]
fn the_free_city_must_build_a_chained_card_free() {
    let mut g = game_with([("Giza", Side::A), ("Rhodes", Side::A), ("Olympia", Side::A)]);
    while g.age() == 1 {
        first_legal_turn(&mut g);
    }
    assert_eq!(g.phase(), Phase::Choose);
    let holder = g.free_city_holder().unwrap();
    g.city_mut(2).place(cat(), card("Scriptorium", 1));
    g.city_mut(2).coins = 20;
    let library = card("Library", 2);
    let mut hand = vec![g.hand(holder)[0], library];
    hand.extend_from_slice(&g.hand(holder)[1..]);
    hand.truncate(g.hand(holder).len());
    let own = hand[0];
    g.set_hand(holder, &hand);
    g.submit(holder, Action::Discard { card: own }).unwrap();
    let with_library: Vec<Action> =
        g.legal_actions(holder).into_iter().filter(|a| a.card() == Some(library)).collect();
    assert_eq!(
        with_library,
        vec![Action::Build { card: library, pay: Payment::free(FreeBy::Chain), naval: Naval::NONE }]
    );
}

#[test]
fn who_holds_the_free_city_card_at_each_age() {
    // 002: Age I the player on the Free City's left, Age II on its right, Age III on its left.
    let mut g = Game::new(&Setup::new(2, 21)).unwrap();
    let mut holders = vec![g.free_city_holder().unwrap()];
    let mut fc_turns = std::collections::BTreeSet::new();
    while !g.is_over() {
        let age = g.age();
        let seat = g.to_act()[0];
        let a = g.legal_actions(seat)[0];
        g.submit(seat, a).unwrap();
        for e in g.last_log() {
            if e.seat == 2 && e.turn <= 6 && !matches!(e.played, Played::BuiltDiscarded(_) | Played::Passed) {
                fc_turns.insert((e.age, e.turn));
            }
        }
        if g.age() != age && !g.is_over() {
            let h = g.free_city_holder().unwrap();
            holders.push(h);
            assert_eq!(g.hand(h).len(), 8, "the new holder has drawn");
        }
    }
    assert_eq!(holders, vec![0, 1, 0]);
    assert_eq!(fc_turns.len(), 18, "the Free City acts every turn of every Age");
    assert_eq!(g.ranks().len(), 2, "the Free City is not ranked");
    assert_eq!(g.scores().len(), 3);
}

#[test]
fn every_age_uses_its_21_cards_and_the_record_replays() {
    for seed in 0..25 {
        let setup = Setup::new(2, seed);
        let mut g = Game::new(&setup).unwrap();
        let mut rec = Record::new(&setup, g.catalog());
        let mut i = seed as usize;
        while !g.is_over() {
            let age = g.age() as usize;
            let in_play: usize = g.cities().iter().map(|c| c.built.len() + c.stages as usize).sum::<usize>()
                + (0..3).map(|s| g.hand(s).len()).sum::<usize>()
                + g.discard_pile().len();
            assert_eq!(in_play, 21 * age);
            let seat = g.to_act()[0];
            let legal = g.legal_actions(seat);
            i = i.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let a = legal[(i >> 33) % legal.len()];
            rec.push(g.catalog(), seat, &a);
            g.submit(seat, a).unwrap();
        }
        rec.scores = Some(g.scores());
        let json = serde_json::to_string(&rec).unwrap();
        let back: Record = serde_json::from_str(&json).unwrap();
        assert!(back.replay().unwrap() == g, "seed {seed}");
    }
}

#[test]
fn the_free_city_pays_for_its_purchases_from_its_own_coins() {
    let mut g = game_with([("Giza", Side::A), ("Rhodes", Side::A), ("Olympia", Side::A)]);
    // The Free City (Olympia, city 2) buys Rhodes' ore (its right neighbour, city 1) for
    // Barracks; Giza (city 0) is its left neighbour.
    let (barracks, altar, theater) = (card("Barracks", 1), card("Altar", 1), card("Theater", 1));
    g.set_hand(0, &[altar, barracks, card("Press", 1)]);
    g.set_hand(1, &[theater, card("Loom", 1)]);
    g.submit(0, Action::Build { card: altar, pay: Payment::default(), naval: Naval::NONE }).unwrap();
    let buy = Action::Build { card: barracks, pay: Payment::paid(0, 2, 0), naval: Naval::NONE };
    assert!(g.legal_actions(0).contains(&buy));
    g.submit(0, buy).unwrap();
    g.submit(1, Action::Build { card: theater, pay: Payment::default(), naval: Naval::NONE }).unwrap();
    assert_eq!(g.city(2).coins, 1);
    assert_eq!(g.city(1).coins, 5);
    assert_eq!(g.city(2).shields, 1);
}
