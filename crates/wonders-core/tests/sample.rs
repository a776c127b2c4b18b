//! Resampling from a view: every sample is consistent with what the seat knows (its own view of
//! the sample is the view it came from), and every consistent deal can appear.

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;
use wonders_core::{Action, Edition, Expansions, Game, Phase, Setup, View, WonderDeal};

fn same_knowledge(a: &View, b: &View) -> bool {
    // Everything but who has chosen: the others' choices this turn are hidden, so in a sample they
    // have not chosen yet.
    let mut b = b.clone();
    b.chosen = a.chosen.clone();
    *a == b
}

fn accounted(g: &Game) -> usize {
    let n = g.cities().len();
    g.cities().iter().map(|c| c.built.len() + c.stages as usize).sum::<usize>()
        + (0..n).map(|s| g.hand(s).len()).sum::<usize>()
        + g.discard_pile().len()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn samples_are_consistent_with_the_view(
        players in 2u8..=7,
        second in any::<bool>(),
        choose_sides in any::<bool>(),
        edifice in any::<bool>(),
        teams in any::<bool>(),
        seed in any::<u64>(),
        stop in 0usize..200,
    ) {
        let edition = if second && players > 2 { Edition::Second } else { Edition::First };
        let wonders = if choose_sides { WonderDeal::RandomBoardsChooseSides } else { WonderDeal::Random };
        // Half the games with Edifice: its projects, pawns and debt are public and kept.
        let expansions = if edifice && players > 2 { Expansions::EDIFICE } else { Expansions::NONE };
        // Half the 4- and 6-player games in teams: the teammate's hand is known and kept.
        let teams = teams && matches!(players, 4 | 6);
        let mut g = Game::new(&Setup { edition, players, seed, wonders, expansions, teams }).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut legal = Vec::new();
        let mut steps = 0;
        // A game takes about 18 decisions per city: stop somewhere inside it.
        let stop = stop % (18 * g.cities().len());
        while !g.is_over() && steps < stop {
            let seat = g.to_act()[0];
            g.legal_actions_into(seat, &mut legal);
            let a = legal[rng.random_range(0..legal.len())];
            g.submit(seat, a).unwrap();
            steps += 1;
        }
        prop_assume!(!g.is_over());
        for seat in 0..g.players() {
            let view = g.view(seat);
            for _ in 0..3 {
                let s = Game::resample(&view, g.catalog(), &mut rng).unwrap();
                prop_assert!(same_knowledge(&view, &s.view(seat)), "seat {seat}");
                prop_assert_eq!(accounted(&s), 7 * g.cities().len() * g.age() as usize);
                // In a step only this seat decides, the same action leads to the same view.
                if g.to_act().as_slice() == [seat] && !matches!(g.phase(), Phase::Choose | Phase::ChooseSide) {
                    g.legal_actions_into(seat, &mut legal);
                    let a = legal[rng.random_range(0..legal.len())];
                    let (mut real, mut sampled) = (g.clone(), s.clone());
                    real.submit(seat, a).unwrap();
                    sampled.submit(seat, a).unwrap();
                    // (After it the hands may pass, revealing new cards: compare what is public.)
                    let (r, m) = (real.view(seat), sampled.view(seat));
                    prop_assert_eq!((r.phase, r.age, r.turn, r.discard_size), (m.phase, m.age, m.turn, m.discard_size));
                    prop_assert_eq!(r.cities, m.cities);
                    prop_assert_eq!(r.hand_sizes, m.hand_sizes);
                    prop_assert_eq!(r.history, m.history);
                }
                // The sample plays on to the end.
                let mut s = s;
                while !s.is_over() {
                    let t = s.to_act()[0];
                    s.legal_actions_into(t, &mut legal);
                    let a = legal[rng.random_range(0..legal.len())];
                    s.submit(t, a).unwrap();
                }
            }
        }
    }
}

#[test]
fn every_consistent_hand_can_appear() {
    // 3 players, Age I, turn 2, seen by seat 0. Seat 0 knows its turn-1 hand and what it passed
    // to seat 1 (so seat 1's hand is known exactly), and its turn-2 hand. Seat 1 and seat 2 both
    // discarded face down on turn 1: the 8 cards seat 0 never saw are seat 2's 6 cards plus those
    // two discards, so each of the C(8, 6) = 28 six-card subsets is a possible hand for seat 2.
    let mut g = Game::new(&Setup::new(3, 5)).unwrap();
    let mine = g.hand(0).to_vec();
    for seat in 0..3 {
        let c = g.hand(seat)[0];
        g.submit(seat, Action::Discard { card: c }).unwrap();
    }
    assert_eq!(g.phase(), Phase::Choose);
    let view = g.view(0);
    let unseen: BTreeSet<_> = g
        .catalog()
        .age_cards(1, 3)
        .into_iter()
        .filter(|c| !mine.contains(c) && !g.hand(0).contains(c))
        .collect();
    assert_eq!(unseen.len(), 8);
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut seen = BTreeSet::new();
    for _ in 0..3000 {
        let s = Game::resample(&view, g.catalog(), &mut rng).unwrap();
        let mut one = s.hand(1).to_vec();
        let mut passed = mine[1..].to_vec();
        one.sort();
        passed.sort();
        assert_eq!(one, passed, "seat 1 holds what seat 0 passed");
        let mut h = s.hand(2).to_vec();
        h.sort();
        assert!(h.iter().all(|c| unseen.contains(c)));
        seen.insert(h);
    }
    assert_eq!(seen.len(), 28);
}

#[test]
fn hands_seen_earlier_are_followed() {
    // 3 players, turn 4: seat 1 held seat 0's original packet on turn 2 and used one card from
    // it; seat 2 then used one face down. So seat 0's hand is 4 of the 5 cards seat 1 passed on.
    let mut g = Game::new(&Setup::new(3, 8)).unwrap();
    for _ in 0..3 {
        for seat in 0..3 {
            let c = g.hand(seat)[0];
            g.submit(seat, Action::Discard { card: c }).unwrap();
        }
    }
    let view = g.view(1);
    let mut passed: Vec<_> = view.seen_hands[1].to_vec();
    passed.retain(|c| *c != view.used_cards[1][0]);
    assert_eq!(passed.len(), 5);
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut hands0 = BTreeSet::new();
    for _ in 0..500 {
        let s = Game::resample(&view, g.catalog(), &mut rng).unwrap();
        assert!(same_knowledge(&view, &s.view(1)));
        let mut h = s.hand(0).to_vec();
        h.sort();
        assert!(h.iter().all(|c| passed.contains(c)), "{h:?} within {passed:?}");
        hands0.insert(h);
    }
    assert_eq!(hands0.len(), 5, "any one of the 5 can be the face-down card");
}

/// Found by the property test above: 7 players, 2nd edition, Edifice; Age I's project failed and
/// three cities discarded a card for its penalty, one of them a card another city also holds (a
/// second copy, the 7-player deck has two). The discarded copy is in the discard pile all the
/// same: every seat's view resamples into a game it cannot tell from the real one.
#[test]
fn a_penalty_discard_of_a_card_another_city_also_holds_stays_in_the_pile() {
    let (players, seed, stop) = (7u8, 2255222723647879771u64, 168usize);
    let setup = Setup {
        edition: Edition::Second,
        players,
        seed,
        wonders: WonderDeal::Random,
        expansions: Expansions::EDIFICE,
        teams: false,
    };
    let mut g = Game::new(&setup).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut legal = Vec::new();
    for _ in 0..stop % (18 * g.cities().len()) {
        let seat = g.to_act()[0];
        g.legal_actions_into(seat, &mut legal);
        g.submit(seat, legal[rng.random_range(0..legal.len())]).unwrap();
    }
    assert_eq!((g.age(), g.phase()), (1, Phase::EdificeDiscard { city: 0 }));
    let discarded: Vec<_> = g
        .view(0)
        .history
        .iter()
        .filter_map(|e| match e.played {
            wonders_core::game::Played::Edifice(wonders_core::EdificeEvent::Discarded(c)) => Some(c),
            _ => None,
        })
        .collect();
    assert_eq!(discarded.len(), 3);
    assert!(
        discarded.iter().any(|&c| g.cities().iter().any(|city| city.built.contains(c))),
        "one discarded card is also built in a city"
    );
    for seat in 0..g.players() {
        let view = g.view(seat);
        for _ in 0..3 {
            let s = Game::resample(&view, g.catalog(), &mut rng).unwrap();
            assert!(same_knowledge(&view, &s.view(seat)), "seat {seat}");
            assert_eq!(s.discard_pile().len(), g.discard_pile().len());
        }
    }
}

/// The deals of `samples` samples of every seat's view at a few points of a game (a game of
/// each edition, Armada and Edifice included), each sample written as its hands, its discard
/// pile and the later Ages' hands, card ids in order.
fn deals(setup: &Setup, samples: usize) -> String {
    let mut game = Game::new(setup).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut out = String::new();
    let mut step = 0;
    while !game.is_over() {
        for seat in game.to_act() {
            if step % 5 == 0 {
                let view = game.view(seat);
                for _ in 0..samples {
                    let Ok(s) = Game::resample(&view, game.catalog(), &mut rng) else {
                        out.push_str("error;");
                        continue;
                    };
                    let n = s.cities().len();
                    for h in (0..n).map(|p| s.hand(p)).chain([s.discard_pile()]) {
                        out.extend(h.iter().map(|c| format!("{},", c.0)));
                        out.push('|');
                    }
                    for age in 2..=3 {
                        for p in 0..n {
                            out.extend(s.later_hand(age, p).iter().map(|c| format!("{},", c.0)));
                        }
                    }
                    out.push(';');
                }
            }
            step += 1;
            let legal = game.legal_actions(seat);
            let a = legal[rng.random_range(0..legal.len())];
            game.submit(seat, a).unwrap();
        }
    }
    out
}

/// FNV-1a, 64 bits.
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

#[test]
fn samples_are_pinned() {
    // The same seed gives the same samples as before the resampler worked out once what the
    // samples of a view share (values computed before the speed work): the search's
    // iterations play the same deals.
    let setups = [
        Setup::new(4, 33),
        Setup { edition: Edition::Second, ..Setup::new(5, 2) },
        Setup { expansions: Expansions::ARMADA, ..Setup::new(4, 3) },
        Setup { expansions: Expansions::EDIFICE, ..Setup::new(3, 4) },
        Setup { teams: true, ..Setup::new(4, 5) },
        Setup::new(2, 6),
    ];
    let deals: Vec<String> = setups.iter().map(|s| deals(s, 3)).collect();
    for d in &deals {
        assert!(!d.contains("error") && d.matches(';').count() >= 30, "{d}");
    }
    let got: Vec<u64> = deals.iter().map(|d| fnv(d)).collect();
    let want: [u64; 6] = [
        1901171749613539055,
        14907011476153278144,
        16613673472059588700,
        5543586202436034701,
        4351977226241532710,
        6764146027042220879,
    ];
    assert_eq!(got, want);
}

/// `Game::take_hands_from` (research: the value of hidden information): a sample of a mid-Age
/// view takes the real hands and discard pile and keeps its own later Ages, so every card is
/// still accounted for once; the hands of a game at another step are refused and change nothing.
#[test]
fn a_sample_takes_the_real_hands_of_its_step_only() {
    let mut game = Game::new(&Setup::new(5, 21)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    // Two turns of discards (a discard pile to take) for everyone.
    for _ in 0..2 {
        for seat in game.to_act() {
            let card = game.hand(seat)[0];
            game.submit(seat, Action::Discard { card }).unwrap();
        }
    }
    let mut sample = Game::resample(&game.view(2), game.catalog(), &mut rng).unwrap();
    assert!((0..5).any(|s| sample.hand(s) != game.hand(s)), "the seed deals other hands");
    let later = sample.clone();
    sample.take_hands_from(&game).unwrap();
    for s in 0..5 {
        assert_eq!(sample.hand(s), game.hand(s));
    }
    assert_eq!(sample.discard_pile(), game.discard_pile());
    assert_eq!(accounted(&sample), accounted(&game));
    // The Ages to come are the sample's: played to the end, it differs from the real game's
    // Age II deal as the untouched sample does.
    let mut real_next = game.clone();
    let mut taken_next = sample.clone();
    let mut later_next = later.clone();
    for g in [&mut real_next, &mut taken_next, &mut later_next] {
        while g.age() == 1 {
            for seat in g.to_act() {
                let card = g.hand(seat)[0];
                g.submit(seat, Action::Discard { card }).unwrap();
            }
        }
    }
    assert_eq!(
        (0..5).map(|s| taken_next.hand(s).to_vec()).collect::<Vec<_>>(),
        (0..5).map(|s| later_next.hand(s).to_vec()).collect::<Vec<_>>()
    );
    assert_ne!(taken_next.hand(0), real_next.hand(0));
    // Another step: refused, nothing changed.
    let mut behind =
        Game::resample(&Game::new(&Setup::new(5, 21)).unwrap().view(2), game.catalog(), &mut rng).unwrap();
    let before = behind.clone();
    let e = behind.take_hands_from(&game).unwrap_err();
    assert!(e.to_string().contains("Age 1 turn 3"), "{e}");
    assert!(behind == before);
    let mut other =
        Game::resample(&Game::new(&Setup::new(4, 21)).unwrap().view(0), game.catalog(), &mut rng).unwrap();
    assert!(other.take_hands_from(&Game::new(&Setup::new(5, 21)).unwrap()).is_err());
}

/// `Resampler::known_hand`: a hand a seat knows card for card is the one the other seat holds,
/// every sample deals it, and the seat knows at least what the packets make certain: the next
/// player's hand from turn 2 of each Age on (it holds the packet this seat just passed), the
/// teammate's from the first turn in the team variant; never a hand in a packet it has not held.
#[test]
fn a_known_hand_is_the_real_one_and_every_sample_deals_it() {
    use wonders_core::sample::Resampler;
    let with = |players: u8, seed, expansions| Setup { expansions, ..Setup::new(players, seed) };
    let setups = [
        Setup::new(3, 1),
        Setup::new(4, 2),
        Setup::new(5, 3),
        Setup::new(7, 4),
        Setup { edition: Edition::Second, ..Setup::new(6, 5) },
        with(4, 6, Expansions::ARMADA),
        with(8, 7, Expansions::ARMADA),
        with(5, 8, Expansions::EDIFICE),
        Setup { teams: true, ..Setup::new(4, 9) },
        Setup { teams: true, ..Setup::new(6, 10) },
    ];
    for setup in setups {
        let players = setup.players as usize;
        let mut game = Game::new(&setup).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
        let mut legal = Vec::new();
        let (mut known, mut beyond_next) = (0, 0);
        while !game.is_over() {
            if game.phase() == Phase::Choose {
                let turn = game.turn() as usize;
                for me in 0..players {
                    let view = game.view(me);
                    let resampler = Resampler::new(&view, game.catalog()).unwrap();
                    let samples: Vec<Game> = (0..3).map(|_| resampler.sample(&mut rng).unwrap()).collect();
                    let next =
                        if game.age() == 2 { (me + players - 1) % players } else { (me + 1) % players };
                    for s in 0..players {
                        let hand = resampler.known_hand(s);
                        if let Some(hand) = &hand {
                            assert_eq!(&hand[..], game.hand(s), "{setup:?}: seat {me} on seat {s}");
                            for sample in &samples {
                                let (mut a, mut b) = (sample.hand(s).to_vec(), hand.to_vec());
                                a.sort();
                                b.sort();
                                assert_eq!(a, b, "{setup:?}: a sample of seat {me}'s view, seat {s}");
                            }
                            known += 1;
                            beyond_next += usize::from(s != me && s != next);
                        }
                        // Seats downstream beyond `turn - 1` steps hold packets `me` never held.
                        let steps = if game.age() == 2 {
                            (me + players - s) % players
                        } else {
                            (s + players - me) % players
                        };
                        let mate = setup.teams && s == wonders_core::teams::teammate(me);
                        if steps >= turn && !mate {
                            assert!(
                                hand.is_none(),
                                "{setup:?}: seat {me} cannot know seat {s}'s hand at turn {turn}"
                            );
                        }
                    }
                    assert!(resampler.known_hand(me).is_some());
                    if turn >= 2 {
                        assert!(
                            resampler.known_hand(next).is_some(),
                            "{setup:?}: seat {me}, Age {}",
                            game.age()
                        );
                    }
                    if setup.teams {
                        let mate = wonders_core::teams::teammate(me);
                        assert!(resampler.known_hand(mate).is_some(), "{setup:?}: seat {me}'s teammate");
                    }
                }
            }
            for s in game.to_act() {
                if game.must_act(s) {
                    game.legal_actions_into(s, &mut legal);
                    let a = legal[rng.random_range(0..legal.len())];
                    game.submit(s, a).unwrap();
                }
            }
        }
        // Every seat's own hand and the next player's from turn 2: 3 Ages × (1 + 2 × 5) per seat
        // at least (6 turns; Armada's 7 add more); some hands further on are known as well.
        assert!(known >= 3 * 11 * players, "{setup:?}: {known}");
        assert!(beyond_next > 0, "{setup:?}");
    }
}

/// `Resampler::knowing_hand`: samples of a view that also deal a given hand to another seat.
/// Given the seat's real hand, every sample deals it and keeps everything the view shows; a hand
/// the view contradicts (a card of another Age) cannot be sampled; a call outside a choice of
/// cards, for the viewing seat or with a hand of the wrong size is refused.
#[test]
fn samples_knowing_a_hand_deal_it() {
    use wonders_core::hand::Hand;
    use wonders_core::sample::Resampler;
    let with = |players: u8, seed, expansions| Setup { expansions, ..Setup::new(players, seed) };
    for setup in [
        Setup::new(3, 31),
        Setup::new(5, 32),
        with(4, 33, Expansions::ARMADA),
        with(6, 34, Expansions::EDIFICE),
    ] {
        let players = setup.players as usize;
        let mut game = Game::new(&setup).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(setup.seed);
        let mut legal = Vec::new();
        let mut checked = 0;
        while !game.is_over() {
            if game.phase() == Phase::Choose {
                let me = checked % players;
                let seat = (me + 1 + checked % (players - 1)) % players;
                let view = game.view(me);
                let real: Hand = game.hand(seat).iter().copied().collect();
                let r = Resampler::knowing_hand(&view, game.catalog(), seat, &real).unwrap();
                for _ in 0..3 {
                    let s = r.sample(&mut rng).unwrap();
                    assert_eq!(
                        s.hand(seat),
                        game.hand(seat),
                        "{setup:?}: seat {me} given seat {seat}'s hand"
                    );
                    assert!(same_knowledge(&view, &s.view(me)));
                    assert_eq!(accounted(&s), accounted(&game));
                }
                // A card of another Age cannot be in a hand of this one.
                let other_age = if game.age() == 1 { 2 } else { 1 };
                let mut wrong = real;
                wrong.pop();
                wrong.try_push(game.catalog().age_cards(other_age, setup.players)[0]).unwrap();
                let r = Resampler::knowing_hand(&view, game.catalog(), seat, &wrong).unwrap();
                assert!(r.sample(&mut rng).is_err(), "{setup:?}");
                assert!(Resampler::knowing_hand(&view, game.catalog(), me, &real).is_err());
                let mut short = real;
                short.pop();
                let e = Resampler::knowing_hand(&view, game.catalog(), seat, &short).err().unwrap();
                assert!(e.to_string().contains("cards, not"), "{e}");
                checked += 1;
            } else {
                // Babylon's last card, a build from the discard pile: no choice of cards.
                let view = game.view(0);
                let hand: Hand = game.hand(1).iter().copied().collect();
                let e = Resampler::knowing_hand(&view, game.catalog(), 1, &hand).err().unwrap();
                assert!(e.to_string().contains("choice of cards"), "{e}");
            }
            for s in game.to_act() {
                if game.must_act(s) {
                    game.legal_actions_into(s, &mut legal);
                    let a = legal[rng.random_range(0..legal.len())];
                    game.submit(s, a).unwrap();
                }
            }
        }
        assert!(checked >= 18, "{setup:?}: {checked}");
    }
}
