//! Armada in the turn flow (armada.md §2.2–§2.8; rulebook 000), with values worked out by hand:
//! setup, a naval construction paid as one purchase, the discard choice, a turn with two taxes
//! and a pirate, a joint exploration, a double incursion and a naval conflict at an Age end,
//! records replay, whole games with 3, 4, 7 and 8 players.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use wonders_core::armada::Fleet;
use wonders_core::{Action, CardId, Expansions, Game, Naval, Payment, Phase, Record, Setup};

mod common;
use common::{card, discard_until_last_turn, game, setup};

/// Plays random legal actions to the end, recording them.
fn play_random(s: &Setup) -> (Game, Record) {
    let mut g = Game::new(s).unwrap();
    let mut rec = Record::new(s, g.catalog());
    let mut rng = ChaCha8Rng::seed_from_u64(s.seed);
    let mut legal = Vec::new();
    let mut steps = 0;
    while !g.is_over() {
        // Cards and islands are conserved.
        let st = g.armada().unwrap();
        let islands: u32 = st.decks.iter().map(|d| d.len() as u32).sum::<u32>()
            + g.cities().iter().enumerate().map(|(c, _)| st.cities[c].islands.len()).sum::<u32>();
        assert_eq!(islands, 27, "islands are conserved");
        for seat in g.to_act() {
            g.legal_actions_into(seat, &mut legal);
            assert!(!legal.is_empty(), "seat {seat} has no legal action in {:?}", g.phase());
            let a = legal[rng.random_range(0..legal.len())];
            rec.push(g.catalog(), seat, &a);
            g.submit(seat, a).unwrap();
        }
        steps += 1;
        assert!(steps < 2000);
    }
    rec.scores = Some(g.scores());
    (g, rec)
}

#[test]
fn setup_hands_decks_and_refusals() {
    // §2.2: 8-card hands, 7 turns, one Armada card per player in each Age deck.
    let g = Game::new(&setup(4, 9)).unwrap();
    assert_eq!(g.turns(), 7);
    let armada_in = |g: &Game, hands: &[&[CardId]]| {
        hands.iter().flat_map(|h| h.iter()).filter(|&&c| g.catalog().armada_card(c).is_some()).count()
    };
    let hands: Vec<&[CardId]> = (0..4).map(|s| g.hand(s)).collect();
    assert!(hands.iter().all(|h| h.len() == 8));
    assert_eq!(armada_in(&g, &hands), 4);
    for age in [2, 3] {
        let later: Vec<&[CardId]> = (0..4).map(|s| g.later_hand(age, s)).collect();
        assert_eq!(armada_in(&g, &later), 4, "Age {age}");
    }
    // 3 players: the five two-neighbour cards are never dealt.
    for seed in 0..10 {
        let g = Game::new(&setup(3, seed)).unwrap();
        for age in 1..=3u8 {
            for s in 0..3 {
                let hand = if age == 1 { g.hand(s) } else { g.later_hand(age, s) };
                for &c in hand {
                    if let Some(a) = g.catalog().armada_card(c) {
                        assert!(
                            !g.armada().unwrap().data.card(a).removed_with_3,
                            "{}",
                            g.catalog().card(c).name
                        );
                    }
                }
            }
        }
    }
    // 8 players (000 8人遊戲規則): 7-card hands, 6 turns, Carthage among the boards, 9 guilds.
    let g = Game::new(&setup(8, 3)).unwrap();
    assert_eq!((g.turns(), g.hand(0).len()), (6, 7));
    assert!(g.cities().iter().any(|c| g.catalog().wonder(c.wonder).name == "Carthage"));
    let guilds =
        (0..8).flat_map(|s| g.later_hand(3, s).iter()).filter(|&&c| g.catalog().card(c).is_guild()).count();
    assert_eq!(guilds, 9);
    // Refusals: Armada with the 2-player Free City, 8 players without Armada, Edifice with 8.
    let err = Game::new(&setup(2, 1)).unwrap_err().to_string();
    assert!(err.contains("Free City"), "{err}");
    assert!(Game::new(&Setup::new(8, 1)).is_err());
    let both =
        Setup { expansions: Expansions(Expansions::ARMADA.0 | Expansions::EDIFICE.0), ..Setup::new(8, 1) };
    assert!(Game::new(&both).unwrap_err().to_string().contains("Edifice"));
    // Armada with Edifice plays with 3 to 7.
    let both4 = Setup { players: 4, ..both };
    assert!(Game::new(&both4).is_ok());
}

#[test]
fn naval_construction_is_one_purchase() {
    // Giza (stone) with a Lumber Yard; left Olympia sells wood, right Rhodes ore. Stockade costs
    // 1 wood, board 1's first red step 1 wood (armada.md §10.3, 000's Ann example): together 2
    // wood, one made at home and one bought on the left for 2 coins.
    let mut g = game(&["Giza", "Olympia", "Rhodes"], 3);
    let (stockade, lumber) = (card(&g, "Stockade"), card(&g, "Lumber Yard"));
    let cat = g.catalog();
    g.city_mut(0).place(cat, lumber);
    g.set_hand(0, &[stockade, card(&g, "Altar"), card(&g, "Baths")]);
    let legal = g.legal_actions(0);
    let plain = Action::Build { card: stockade, pay: Payment::default(), naval: Naval::NONE };
    let red = Naval::new(Some(Fleet::Red), None);
    let naval = Action::Build { card: stockade, pay: Payment { left: 2, ..Payment::default() }, naval: red };
    assert!(legal.contains(&plain) && legal.contains(&naval));
    let naval_builds: Vec<_> = legal
        .iter()
        .filter(|a| matches!(a, Action::Build { card, naval: n, .. } if *card == stockade && !n.is_none()))
        .collect();
    assert_eq!(naval_builds, vec![&naval], "one Pareto-minimal way to pay the sum");
    // The naval step cannot be had for the card's price alone.
    let cheap = Action::Build { card: stockade, pay: Payment::default(), naval: red };
    let err = g.submit(0, cheap).unwrap_err().to_string();
    assert!(err.contains("naval construction") && err.contains("left 2 right 0 bank 0"), "{err}");
    // Altar (blue, free) with a blue step: board 1's blue step 1 costs 1 glass, bought from no one
    // (Olympia and Rhodes make none): not offered.
    assert!(
        !legal
            .iter()
            .any(|a| matches!(a, Action::Build { naval: n, .. } if n.construction() == Some(Fleet::Blue)))
    );
    g.submit(0, naval).unwrap();
    for s in [1, 2] {
        let h = g.hand(s)[0];
        g.submit(s, Action::Discard { card: h }).unwrap();
    }
    assert_eq!(g.armada().unwrap().cities[0].shipyard.step(Fleet::Red), 1);
    assert_eq!(g.armada().unwrap().cities[0].naval_strength(g.armada().unwrap().data), 1);
    assert_eq!(g.city(0).coins, 1, "3 − 2 to Olympia");
    assert_eq!(g.city(1).coins, 3 + 2 + 3, "Olympia: the 2 coins and its discard");
}

#[test]
fn the_stage_with_its_naval_construction_is_listed_with_every_card_of_the_hand() {
    // Giza A (stone) with a Stone Pit: its first stage (2 stone) is paid at home. Board 1's
    // wonder fleet is red (armada.md §10.1) and its first red step costs 1 wood (§10.3), which
    // only Olympia (left) sells, for 2 coins: the stage with the naval construction is one
    // purchase of 2 stone and 1 wood, paid 2 coins to the left (§2.3). The same two ways to
    // build the stage are listed with each card of the hand, in the hand's order.
    let mut g = game(&["Giza", "Olympia", "Rhodes"], 3);
    let hand = [card(&g, "Stockade"), card(&g, "Altar"), card(&g, "Baths")];
    let pit = card(&g, "Stone Pit");
    let cat = g.catalog();
    g.city_mut(0).place(cat, pit);
    g.set_hand(0, &hand);
    let legal = g.legal_actions(0);
    let stages: Vec<(CardId, Payment, Option<Fleet>)> = legal
        .iter()
        .filter_map(|a| match *a {
            Action::Wonder { card, pay, extra } => Some((card, pay, extra.naval())),
            _ => None,
        })
        .collect();
    let naval = Payment { left: 2, ..Payment::default() };
    let want: Vec<(CardId, Payment, Option<Fleet>)> = hand
        .iter()
        .map(|&c| (c, Payment::default(), None))
        .chain(hand.iter().map(|&c| (c, naval, Some(Fleet::Red))))
        .collect();
    assert_eq!(stages, want);
}

#[test]
fn discard_gives_three_coins_or_a_yellow_move() {
    let mut g = game(&["Giza", "Olympia", "Rhodes"], 3);
    let (a, b) = (g.hand(0)[0], g.hand(1)[0]);
    assert!(g.legal_actions(0).contains(&Action::DiscardYellow { card: a }));
    g.submit(0, Action::DiscardYellow { card: a }).unwrap();
    g.submit(1, Action::Discard { card: b }).unwrap();
    let c = g.hand(2)[0];
    g.submit(2, Action::Discard { card: c }).unwrap();
    let st = g.armada().unwrap();
    assert_eq!(st.cities[0].shipyard.step(Fleet::Yellow), 1);
    assert_eq!(st.trade_level(0), 1, "yellow step 1: trade level 1 (§10.2, confirmed)");
    assert_eq!((g.city(0).coins, g.city(1).coins), (3, 6), "no coins with the yellow move");
    // A yellow ship on the top step cannot take the free move.
    g.armada_mut().unwrap().cities[0].shipyard.steps[Fleet::Yellow as usize] = 6;
    let h = g.hand(0)[0];
    assert!(!g.legal_actions(0).contains(&Action::DiscardYellow { card: h }));
    assert!(g.submit(0, Action::DiscardYellow { card: h }).is_err());
}

#[test]
fn a_turn_with_two_taxes_and_a_pirate() {
    // Seat 0's yellow ship goes from step 3 to 4 (+4 coins, tax 2, trade level 2), seat 1's from
    // 1 to 2 (+2 coins, tax 1, trade level 1), both by discarding; seat 2 builds Pirate Hoard
    // (1 coin; +3 coins, piracy); seat 3 discards for 3 coins. Step 6 (§2.7): only the tax of 2
    // applies, seat 0 levied it and pays none; piracy costs every other player their trade
    // level. Losses: seat 0: 2 (piracy); seat 1: 2 − 1 + 1 = 2; seat 2: 2 − 0 = 2 (its own
    // piracy spares it); seat 3: 2.
    let mut g = game(&["Giza", "Olympia", "Rhodes", "Babylon"], 5);
    let hoard = card(&g, "Pirate Hoard");
    {
        let st = g.armada_mut().unwrap();
        st.cities[0].shipyard.steps[Fleet::Yellow as usize] = 3;
        st.cities[1].shipyard.steps[Fleet::Yellow as usize] = 1;
    }
    let h2: Vec<CardId> =
        std::iter::once(hoard).chain(g.hand(2).iter().copied().filter(|&c| c != hoard)).take(8).collect();
    g.set_hand(2, &h2);
    let (a, b, d) = (g.hand(0)[0], g.hand(1)[0], g.hand(3)[0]);
    g.submit(0, Action::DiscardYellow { card: a }).unwrap();
    g.submit(1, Action::DiscardYellow { card: b }).unwrap();
    g.submit(
        2,
        Action::Build { card: hoard, pay: Payment { bank: 1, ..Payment::default() }, naval: Naval::NONE },
    )
    .unwrap();
    g.submit(3, Action::Discard { card: d }).unwrap();
    let coins: Vec<u16> = (0..4).map(|c| g.city(c).coins).collect();
    assert_eq!(coins, vec![5 + 4 - 2, 5 + 2 - 2, 5 - 1 + 3 - 2, 5 + 3 - 2]);
}

#[test]
fn a_joint_exploration_through_the_game() {
    // Seats 0 and 1 each build an Age I blue card (1 coin) whose free move takes the green ship
    // from step 1 to step 2: both explore level 1 in the same turn and share the deck (§2.6):
    // 9 cards, 4 each, one left over.
    let mut g = game(&["Giza", "Olympia", "Rhodes"], 3);
    let (yard, works) = (card(&g, "Shipyard"), card(&g, "Construction Yard"));
    for c in [0, 1] {
        g.armada_mut().unwrap().cities[c].shipyard.steps[Fleet::Green as usize] = 1;
    }
    let keep = |g: &Game, s: usize, first: CardId| -> Vec<CardId> {
        std::iter::once(first)
            .chain(g.hand(s).iter().copied().filter(|&c| c != yard && c != works))
            .take(8)
            .collect()
    };
    let (h0, h1) = (keep(&g, 0, yard), keep(&g, 1, works));
    g.set_hand(0, &h0);
    g.set_hand(1, &h1);
    let top_first: Vec<_> = g.armada().unwrap().decks[0].iter().rev().copied().collect();
    let move_green = Naval::new(None, Some(Fleet::Green));
    let pay = Payment { bank: 1, ..Payment::default() };
    g.submit(0, Action::Build { card: yard, pay, naval: move_green }).unwrap();
    g.submit(1, Action::Build { card: works, pay, naval: move_green }).unwrap();
    let c = g.hand(2)[0];
    g.submit(2, Action::Discard { card: c }).unwrap();
    assert_eq!(g.phase(), Phase::Explore { city: 0 });
    // Dealt one at a time from the top, seat 0 first: seat 0 gets cards 1, 3, 5, 7 from the top.
    let v0 = g.view(0);
    let dealt0 = v0.armada.as_ref().unwrap().dealt.clone();
    assert_eq!(dealt0, vec![top_first[0], top_first[2], top_first[4], top_first[6]]);
    let v1 = g.view(1);
    assert_eq!(
        v1.armada.as_ref().unwrap().dealt,
        vec![top_first[1], top_first[3], top_first[5], top_first[7]]
    );
    assert!(g.view(2).armada.unwrap().dealt.is_empty(), "seat 2 sees no dealt island");
    let kept0 = dealt0[2];
    let choice0 = g
        .legal_actions(0)
        .into_iter()
        .find(|a| matches!(a, Action::ChooseIsland { island, .. } if *island == kept0))
        .unwrap();
    g.submit(0, choice0).unwrap();
    assert_eq!(g.phase(), Phase::Explore { city: 1 });
    let choice1 = g.legal_actions(1)[0];
    g.submit(1, choice1).unwrap();
    assert_eq!(g.phase(), Phase::Choose);
    let st = g.armada().unwrap();
    assert!(st.cities[0].islands.contains(kept0));
    assert_eq!(st.decks[0].len(), 7, "the 7 islands not kept are back in the deck");
    // Seat 0 remembers the four islands it was dealt, and sees seat 1's island in play.
    let seen = g.view(0).armada.unwrap().seen;
    assert!(dealt0.iter().all(|&i| seen.contains(i)));
    let Action::ChooseIsland { island: kept1, .. } = choice1 else { unreachable!() };
    assert!(seen.contains(kept1));
}

#[test]
fn a_double_incursion_and_the_naval_conflict_at_age_end() {
    // 6 players. Seat 2 builds Dock (1 shield; incursion on the 2nd player on its right: seat 0);
    // a second incursion on seat 0, from seat 4 (1 shield), is set by hand. Seat 0 (no shield)
    // fights 4 land conflicts: ties with seats 1 and 5, defeats against seats 2 and 4 (§2.8).
    // Naval (§2.5, Age I): seat 1 (red step 3: 3) is strongest, +3; seat 3 (red step 1) 2nd, +1;
    // the four others (0) are weakest, −1 each.
    let mut g = game(&["Giza", "Olympia", "Rhodes", "Ephesos", "Babylon", "Alexandria"], 3);
    discard_until_last_turn(&mut g);
    let dock = card(&g, "Dock");
    let h: Vec<CardId> =
        std::iter::once(dock).chain(g.hand(2).iter().copied().filter(|&c| c != dock)).take(2).collect();
    g.set_hand(2, &h);
    g.city_mut(2).coins = 3;
    g.city_mut(4).shields = 1;
    {
        let st = g.armada_mut().unwrap();
        st.cities[1].shipyard.steps[Fleet::Red as usize] = 3;
        st.cities[3].shipyard.steps[Fleet::Red as usize] = 1;
        st.incursions.push((4, 0));
    }
    for s in g.to_act() {
        let a = if s == 2 {
            // Dock costs 1 papyrus: Ephesos (seat 3, on the left) sells it for 2.
            Action::Build { card: dock, pay: Payment { left: 2, ..Payment::default() }, naval: Naval::NONE }
        } else {
            Action::Discard { card: g.hand(s)[0] }
        };
        g.submit(s, a).unwrap();
    }
    assert_eq!(g.age(), 2);
    assert_eq!(g.city(0).tokens.values(), vec![-1, -1], "4 conflicts: 2 ties, 2 defeats");
    assert_eq!(g.city(2).tokens.values(), vec![1, 1, 1], "Dock: beats seats 1, 3 and 0");
    let naval: Vec<i8> = (0..6).map(|c| g.armada().unwrap().cities[c].naval[0]).collect();
    assert_eq!(naval, vec![-1, 3, -1, 1, -1, -1]);
    assert!(g.armada().unwrap().incursions.is_empty(), "the tokens go back at Age end");
}

#[test]
fn records_replay_and_games_end_with_3_4_7_and_8_players() {
    for players in [3u8, 4, 7, 8] {
        let (g, rec) = play_random(&setup(players, u64::from(players)));
        assert_eq!(g.scores().len(), players as usize);
        let json = serde_json::to_string(&rec).unwrap();
        let back: Record = serde_json::from_str(&json).unwrap();
        let replayed = back.replay().unwrap();
        assert_eq!(replayed.scores(), g.scores(), "{players} players");
        assert!(json.contains("\"armada\""));
    }
}
