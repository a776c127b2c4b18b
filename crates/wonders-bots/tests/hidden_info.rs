//! No bot can reach another seat's hidden cards: two games that differ only in what the seat cannot
//! see give it equal views, and every bot (same seed, same budget) then makes the same choice.

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use wonders_bots::{Bot, RandomBot, bot_from_name};
use wonders_core::{Action, CardId, Edition, Game, Phase, Setup, WonderDeal};

fn setups(seed: u64) -> Vec<Setup> {
    let first = [2u8, 3, 4, 7].map(|players| Setup::new(players, seed));
    let second = [3u8, 5].map(|players| Setup {
        edition: Edition::Second,
        players,
        seed,
        wonders: WonderDeal::RandomBoardsChooseSides,
        expansions: Default::default(),
        teams: false,
    });
    // With Edifice: the projects are public, nothing of them may leak what a seat cannot see.
    let edifice = [4u8]
        .map(|players| Setup { expansions: wonders_core::Expansions::EDIFICE, ..Setup::new(players, seed) });
    // The team variant: a seat sees its teammate's hand too, and nothing more.
    let teams = [Setup { teams: true, ..Setup::new(4, seed) }];
    // With Armada (the island decks are hidden too), and its 8-player team game.
    // (One seed: a search over 8 cities is slow in a debug build.)
    let armada = [
        Setup { expansions: wonders_core::Expansions::ARMADA, ..Setup::new(4, seed) },
        Setup { expansions: wonders_core::Expansions::ARMADA, teams: true, ..Setup::new(8, seed) },
    ]
    .into_iter()
    .filter(|_| seed == 0);
    first.into_iter().chain(second).chain(edifice).chain(teams).chain(armada).collect()
}

/// A copy of `game` where everything `seat` cannot see is dealt differently: the other hands
/// (and the Free City's pile) are shuffled among themselves, and so are the later Ages' hands and,
/// with Armada, each island deck.
fn scramble(game: &Game, seat: usize, rng: &mut ChaCha8Rng) -> Game {
    let mut other = game.clone();
    let n = game.cities().len();
    // This Age's hidden hands: every hand but the seat's and its teammate's (the Free City's
    // pile included).
    let mate = game.teams().then(|| wonders_core::teams::teammate(seat));
    let hidden: Vec<usize> = (0..n).filter(|&s| s != seat && Some(s) != mate).collect();
    let mut pool: Vec<CardId> = hidden.iter().flat_map(|&s| game.hand(s).iter().copied()).collect();
    pool.shuffle(rng);
    for &s in &hidden {
        let k = game.hand(s).len();
        let cards: Vec<CardId> = pool.drain(..k).collect();
        other.set_hand(s, &cards);
    }
    // Later Ages: nobody has seen them.
    for age in game.age() + 1..=3 {
        let mut pool: Vec<CardId> = (0..n).flat_map(|s| game.later_hand(age, s).iter().copied()).collect();
        pool.shuffle(rng);
        for s in 0..n {
            let k = game.later_hand(age, s).len();
            let cards: Vec<CardId> = pool.drain(..k).collect();
            other.set_later_hand(age, s, &cards);
        }
    }
    // Armada: nobody knows the order of an island deck.
    if let Some(a) = other.armada_mut() {
        for deck in &mut a.decks {
            deck.shuffle(rng);
        }
    }
    other
}

#[test]
fn bots_see_only_their_view() {
    let bots = ["random", "heuristic", "search:12it", "search:12it:2t"];
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let mut legal = Vec::new();
    let (mut checked, mut differing) = (0, 0);
    for seed in 0..3u64 {
        for setup in setups(seed) {
            let mut game = Game::new(&setup).unwrap();
            let mut driver: Vec<RandomBot> =
                (0..game.players() as u64).map(|s| RandomBot::new(seed * 10 + s)).collect();
            // Stop at a few points of the game: its start, and steps chosen at random.
            let stops: Vec<u32> = (0..3).map(|_| rng.random_range(0..60)).collect();
            let mut step = 0u32;
            while !game.is_over() {
                if step == 0 || stops.contains(&step) {
                    for seat in game.to_act() {
                        let other = scramble(&game, seat, &mut rng);
                        let view = game.view(seat);
                        assert_eq!(view, other.view(seat), "the scrambled game shows the seat the same view");
                        differing += (other != game) as usize;
                        let legal_a = game.legal_actions(seat);
                        let legal_b = other.legal_actions(seat);
                        assert_eq!(legal_a, legal_b);
                        for name in bots {
                            let a = bot_from_name(name, 7).unwrap().choose(&view, &legal_a);
                            let b = bot_from_name(name, 7).unwrap().choose(&other.view(seat), &legal_b);
                            assert_eq!(a, b, "{name} chose differently with hidden cards changed");
                            assert!(legal_a.contains(&a));
                            checked += 1;
                        }
                    }
                }
                for seat in game.to_act() {
                    if game.must_act(seat) {
                        game.legal_actions_into(seat, &mut legal);
                        let a = driver[seat].choose(&game.view(seat), &legal);
                        game.submit(seat, a).unwrap();
                    }
                }
                step += 1;
            }
        }
    }
    assert!(checked > 400, "only {checked} checks");
    // The scrambling really changed hidden cards in most positions.
    assert!(
        differing * 2 > checked / bots.len(),
        "{differing} of {} positions differed",
        checked / bots.len()
    );
}

#[test]
fn the_search_bot_never_reads_the_game_it_is_given_a_view_of() {
    // A view's hand and the legal list are all the search gets: a Halicarnassus pick, whose
    // discard pile is part of the view, is decided from that view alone too.
    let mut legal = Vec::new();
    let mut picks = 0;
    for seed in 0..60u64 {
        let mut game = Game::new(&Setup::new(3, seed)).unwrap();
        let mut driver: Vec<RandomBot> = (0..3).map(|s| RandomBot::new(seed + s)).collect();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while !game.is_over() && picks < 3 {
            for seat in game.to_act() {
                if !game.must_act(seat) {
                    continue;
                }
                game.legal_actions_into(seat, &mut legal);
                if matches!(game.phase(), Phase::BuildFromDiscard { .. }) {
                    let other = scramble(&game, seat, &mut rng);
                    let view = game.view(seat);
                    assert_eq!(view, other.view(seat));
                    let a = bot_from_name("search:10it", 3).unwrap().choose(&view, &legal);
                    let b = bot_from_name("search:10it", 3).unwrap().choose(&other.view(seat), &legal);
                    assert_eq!(a, b);
                    assert!(matches!(a, Action::BuildDiscarded { .. } | Action::Pass));
                    picks += 1;
                }
                let a = driver[seat].choose(&game.view(seat), &legal);
                game.submit(seat, a).unwrap();
            }
        }
    }
    assert!(picks >= 1, "no Halicarnassus pick was reached");
}
