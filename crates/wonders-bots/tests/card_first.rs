//! The card-first random player ([`CardFirstBot`], [`play_out_card_first`]) against its
//! definition, worked out here from the whole legal list: in a step where a seat plays from its
//! own hand, a card of the hand drawn uniformly, then one of the whole list's actions with that
//! card; in any other step, one of the whole list drawn uniformly.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use wonders_bots::{Bot, CardFirstBot, PlayError, bot_from_name, play_out, play_out_card_first};
use wonders_core::{Action, Edition, Expansions, Game, Phase, Played, Setup, WonderDeal};

mod common;
use common::{edifice_setups, setups};

/// The policy from its definition: plays `setup` with one generator per seat seeded like the
/// bots, choosing among the whole legal list; returns the game and how many draws were of a
/// card first.
fn by_definition(setup: &Setup, seeds: &[u64]) -> (Game, usize) {
    let mut game = Game::new(setup).unwrap();
    let mut rngs: Vec<ChaCha8Rng> = seeds.iter().map(|&s| ChaCha8Rng::seed_from_u64(s)).collect();
    let mut legal = Vec::new();
    let mut card_first = 0;
    while !game.is_over() {
        for seat in game.to_act() {
            game.legal_actions_into(seat, &mut legal);
            let hand = game.hand(seat).to_vec();
            let own_hand = matches!(game.phase(), Phase::Choose | Phase::PlayLastCard { .. })
                && game.acting_city(seat) == seat
                && !hand.is_empty();
            let rng = &mut rngs[seat];
            let choices: Vec<Action> = if own_hand {
                card_first += 1;
                let card = hand[rng.random_range(0..hand.len())];
                legal.iter().copied().filter(|a| a.card() == Some(card)).collect()
            } else {
                legal.clone()
            };
            assert!(!choices.is_empty(), "every card of the hand has an action (its discard)");
            let action = choices[rng.random_range(0..choices.len())];
            game.submit(seat, action).unwrap();
        }
    }
    (game, card_first)
}

fn armada_setups(seed: u64) -> Vec<Setup> {
    let both = Expansions::parse(&["armada", "edifice"]).unwrap();
    vec![
        Setup { expansions: Expansions::ARMADA, ..Setup::new(3, seed) },
        Setup { expansions: Expansions::ARMADA, ..Setup::new(8, seed) },
        Setup { expansions: Expansions::ARMADA, teams: true, ..Setup::new(6, seed) },
        Setup {
            edition: Edition::Second,
            wonders: WonderDeal::RandomBoardsChooseSides,
            expansions: both,
            ..Setup::new(5, seed)
        },
    ]
}

#[test]
fn card_first_games_are_the_policy_played_from_the_whole_list() {
    let mut legal = Vec::new();
    let mut card_first = 0;
    for seed in 0..6u64 {
        let kinds = setups(seed).into_iter().chain(edifice_setups(seed)).chain(armada_setups(seed));
        for setup in kinds {
            let seeds: Vec<u64> = (0..setup.players as u64).map(|s| seed * 100 + s).collect();
            let mut bots: Vec<CardFirstBot> = seeds.iter().map(|&s| CardFirstBot::new(s)).collect();
            let mut game = Game::new(&setup).unwrap();
            play_out_card_first(&mut game, &mut bots, &mut legal).unwrap();
            assert!(game.is_over());
            let (expected, drawn) = by_definition(&setup, &seeds);
            assert!(game == expected, "{setup:?}: another game than the policy's");
            card_first += drawn;
        }
    }
    // Most decisions draw a card first (all but sides, discard-pile builds, islands, opt-outs
    // and the Free City's turns).
    assert!(card_first > 6 * 25 * 18 * 3, "{card_first}");
}

#[test]
fn the_bot_from_views_plays_the_games_of_the_fast_driver() {
    // `CardFirstBot` as a `Bot` (a seat's view and the whole list, as `play_out`, `arena` and the
    // Python package drive it) makes the same draws as `play_out_card_first`.
    let mut legal = Vec::new();
    for seed in 0..3u64 {
        let kinds = setups(seed).into_iter().chain(edifice_setups(seed)).chain(armada_setups(seed));
        for setup in kinds {
            let n = setup.players as u64;
            let mut fast = Game::new(&setup).unwrap();
            let mut bots: Vec<CardFirstBot> = (0..n).map(|s| CardFirstBot::new(seed + s)).collect();
            play_out_card_first(&mut fast, &mut bots, &mut legal).unwrap();
            let mut viewed = Game::new(&setup).unwrap();
            let mut bots: Vec<Box<dyn Bot + Send>> =
                (0..n).map(|s| bot_from_name("Card-First", seed + s).unwrap()).collect();
            play_out(&mut viewed, &mut bots, &mut legal).unwrap();
            assert!(fast == viewed, "{setup:?}");
            assert_eq!(bots[0].name(), "card-first");
        }
    }
    assert!(bot_from_name("card-first:fast", 1).err().unwrap().contains("takes no options"));
}

#[test]
fn card_first_discards_more_and_builds_less_than_uniform_play() {
    // The two policies differ by design: a card with several payments or stage payments weighs
    // as much as one with a single action, so discards (one per card) are drawn more often.
    let mut legal = Vec::new();
    // Cards built, stages built, cards discarded, over the games' logs.
    let tally = |game: &Game, into: &mut [usize; 3]| {
        for e in game.history() {
            match e.played {
                Played::Built(_) => into[0] += 1,
                Played::Stage(_) => into[1] += 1,
                Played::Discarded => into[2] += 1,
                _ => {}
            }
        }
    };
    let (mut uniform, mut card_first) = ([0usize; 3], [0usize; 3]);
    for seed in 0..60u64 {
        let setup = Setup::new(4, seed);
        let mut game = Game::new(&setup).unwrap();
        let mut bots: Vec<CardFirstBot> = (0..4).map(|s| CardFirstBot::new(seed * 10 + s)).collect();
        play_out_card_first(&mut game, &mut bots, &mut legal).unwrap();
        tally(&game, &mut card_first);
        let mut game = Game::new(&setup).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while !game.is_over() {
            for seat in game.to_act() {
                game.legal_actions_into(seat, &mut legal);
                let a = legal[rng.random_range(0..legal.len())];
                game.submit(seat, a).unwrap();
            }
        }
        tally(&game, &mut uniform);
    }
    // 60 games of 4 players, 18 turns each: every turn's card is built, staged or discarded
    // (and Babylon B plays an Age's 7th card too).
    for played in [uniform, card_first] {
        let n = played.iter().sum::<usize>();
        assert!((60 * 4 * 18..=60 * 4 * 18 + 60 * 3).contains(&n), "{played:?}");
    }
    assert!(card_first[2] > uniform[2], "discards: card-first {card_first:?}, uniform {uniform:?}");
    assert!(card_first[0] < uniform[0], "builds: card-first {card_first:?}, uniform {uniform:?}");
}

#[test]
fn a_bot_per_seat_is_required() {
    let mut game = Game::new(&Setup::new(4, 1)).unwrap();
    let mut bots: Vec<CardFirstBot> = (0..3).map(CardFirstBot::new).collect();
    let err = play_out_card_first(&mut game, &mut bots, &mut Vec::new()).unwrap_err();
    assert_eq!(err, PlayError::Seats { bots: 3, players: 4 });
    assert_eq!(err.to_string(), "3 bots for a game of 4 players");
    // Nothing was played.
    assert!(game == Game::new(&Setup::new(4, 1)).unwrap());
}
