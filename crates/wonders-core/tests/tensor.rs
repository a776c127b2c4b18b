//! The tensor encoding: a pinned game played through the action space (the Python package plays
//! the same policy and must produce the identical record, `crates/wonders-py/tests`), the mask
//! equals the legal actions, and a seat's observation ignores the cards it cannot see.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use wonders_core::tensor::Encoder;
use wonders_core::{Edition, Game, Phase, Record, Setup, WonderDeal};

/// Plays the pinned policy: the k-th decision of the game (k counted over all seats), for `seat`,
/// takes the legal index number `(31 k + seat) mod L` among the L legal indices in increasing
/// order, paid the default way.
fn policy_record(setup: &Setup) -> Record {
    let mut game = Game::new(setup).unwrap();
    let enc = Encoder::new(game.catalog());
    let mut record = Record::new(setup, game.catalog());
    let mut mask = vec![false; enc.action_count()];
    let mut k = 0usize;
    while !game.is_over() {
        for seat in game.to_act() {
            if !game.must_act(seat) {
                continue;
            }
            let legal = game.legal_actions(seat);
            enc.mask(&legal, &mut mask);
            let indices: Vec<usize> = (0..mask.len()).filter(|&i| mask[i]).collect();
            let index = indices[(31 * k + seat) % indices.len()];
            let action = enc.choose(&legal, index).unwrap();
            game.submit(seat, action).unwrap();
            record.push(game.catalog(), seat, &action);
            k += 1;
        }
    }
    record.scores = Some(game.scores());
    record
}

fn pinned(setup: &Setup, file: &str, text: &str) {
    let got = serde_json::to_string_pretty(&policy_record(setup)).unwrap();
    assert_eq!(got.trim(), text.trim(), "pinned record {file} changed; new value:\n{got}");
}

#[test]
fn policy_game_4p_is_pinned() {
    pinned(
        &Setup::new(4, 7),
        "record_policy_4p_seed7.json",
        include_str!("pinned/record_policy_4p_seed7.json"),
    );
}

#[test]
fn policy_game_2p_free_city_is_pinned() {
    pinned(
        &Setup::new(2, 3),
        "record_policy_2p_seed3.json",
        include_str!("pinned/record_policy_2p_seed3.json"),
    );
}

#[test]
fn policy_game_2e_sides_is_pinned() {
    let setup = Setup {
        edition: Edition::Second,
        players: 3,
        seed: 11,
        wonders: WonderDeal::RandomBoardsChooseSides,
        expansions: Default::default(),
        teams: false,
    };
    pinned(&setup, "record_policy_2e_3p_seed11.json", include_str!("pinned/record_policy_2e_3p_seed11.json"));
}

/// Every decision of random games: the mask is exactly the set of legal indices, the default
/// choice is legal and has the index, and every payment listed is legal.
#[test]
fn mask_equals_legal_actions() {
    for (players, edition, seed) in [(3, Edition::First, 1), (2, Edition::First, 2), (5, Edition::Second, 3)]
    {
        let setup = Setup {
            edition,
            players,
            seed,
            wonders: WonderDeal::RandomBoardsChooseSides,
            expansions: Default::default(),
            teams: false,
        };
        let setup = if edition == Edition::First { Setup::new(players, seed) } else { setup };
        let mut game = Game::new(&setup).unwrap();
        let enc = Encoder::new(game.catalog());
        let mut mask = vec![false; enc.action_count()];
        let mut k = 0;
        while !game.is_over() {
            for seat in 0..game.players() {
                let legal = game.legal_actions(seat);
                enc.mask(&legal, &mut mask);
                assert_eq!(mask[enc.wait_index()], legal.is_empty());
                for (i, &m) in mask.iter().enumerate() {
                    let with_index: Vec<_> = enc.payments(&legal, i).collect();
                    assert_eq!(m && i != enc.wait_index(), !with_index.is_empty(), "index {i}");
                    if let Some(a) = enc.choose(&legal, i) {
                        assert!(legal.contains(&a));
                        assert_eq!(enc.action_index(&a), i);
                    }
                }
            }
            let seat = game.to_act()[0];
            let legal = game.legal_actions(seat);
            game.submit(seat, legal[(k * 7) % legal.len()]).unwrap();
            k += 1;
        }
    }
}

/// At the start of each turn, a game resampled from seat 0's view (the other hands and the later
/// decks dealt anew) gives seat 0 the very same observation, though other hands differ.
#[test]
fn observation_ignores_hidden_cards() {
    let mut game = Game::new(&Setup::new(4, 21)).unwrap();
    let enc = Encoder::new(game.catalog());
    let (mut a, mut b) = (vec![0.0; enc.observation_len()], vec![0.0; enc.observation_len()]);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut changed = 0;
    let mut k = 0;
    while !game.is_over() {
        if game.phase() == Phase::Choose && game.to_act().len() == 4 {
            let view = game.view(0);
            let sample = Game::resample(&view, game.catalog(), &mut rng).unwrap();
            changed += (1..4).filter(|&s| sample.hand(s) != game.hand(s)).count();
            enc.observe(&view, &mut a);
            enc.observe(&sample.view(0), &mut b);
            assert_eq!(a, b, "age {} turn {}", game.age(), game.turn());
        }
        let seat = game.to_act()[0];
        let legal = game.legal_actions(seat);
        game.submit(seat, legal[(k * 5) % legal.len()]).unwrap();
        k += 1;
    }
    assert!(changed > 20, "the samples changed the other hands ({changed})");
}
