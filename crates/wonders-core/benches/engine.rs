//! Engine benchmarks: a whole random game on the bare engine, each hot function of a game, and a
//! trivial baseline (cloning a game) to read the figures against on a noisy machine.
//!
//! Run with `cargo bench -p wonders-core --bench engine`; compare each figure with
//! `baseline_clone_game` of the same run.

use criterion::{Criterion, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::time::Duration;
use wonders_core::payment::{Market, Options, solve};
use wonders_core::resources::ResourceSet;
use wonders_core::{Action, Game, Phase, Production, Resource, Resources, Setup};

/// Plays one seat's action from the legal list: the engine's fast path (no second check).
fn play(game: &mut Game, seat: usize, action: Action) {
    game.submit_trusted(seat, action);
}

/// Plays uniformly random legal actions until the game ends or `until` holds (what
/// `wonders-bots`' `RandomBot` does, without views; the core cannot depend on that crate).
fn play_random(
    game: &mut Game,
    rng: &mut ChaCha8Rng,
    legal: &mut Vec<Action>,
    until: impl Fn(&Game) -> bool,
) {
    while !game.is_over() && !until(game) {
        for seat in game.to_act() {
            game.legal_actions_into(seat, legal);
            let a = legal[rng.random_range(0..legal.len())];
            play(game, seat, a);
        }
    }
}

/// Plays a game to its end with the card-first policy of `wonders-bots`' `CardFirstBot`: in a
/// step played from the seat's own hand, a card of the hand, then one of its actions; otherwise
/// one of all the legal actions.
fn play_card_first(game: &mut Game, rng: &mut ChaCha8Rng, legal: &mut Vec<Action>) {
    while !game.is_over() {
        for seat in game.to_act() {
            let hand = game.hand(seat);
            let own_hand = matches!(game.phase(), Phase::Choose | Phase::PlayLastCard { .. })
                && game.acting_city(seat) == seat
                && !hand.is_empty();
            if own_hand {
                let card = hand[rng.random_range(0..hand.len())];
                game.card_actions_into(seat, card, legal);
            } else {
                game.legal_actions_into(seat, legal);
            }
            let a = legal[rng.random_range(0..legal.len())];
            play(game, seat, a);
        }
    }
}

/// A 4-player game at the start of Age II, turn 3, every seat to choose.
fn mid_game() -> Game {
    let mut game = Game::new(&Setup::new(4, 42)).expect("4 players is a valid setup");
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    play_random(&mut game, &mut rng, &mut Vec::new(), |g| {
        g.age() == 2 && g.turn() == 3 && g.phase() == Phase::Choose
    });
    assert_eq!((game.age(), game.turn()), (2, 3), "the position is mid-game");
    game
}

fn production(fixed: &str, choices: &[&str]) -> Production {
    let mut p = Production::fixed(Resources::from_letters(fixed).expect("resource letters"));
    for c in choices {
        p.add_choice(ResourceSet::from_letters(c).expect("resource letters"));
    }
    p
}

fn engine(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine");
    group.sample_size(30).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));

    // Baseline: copying the whole game state (no heap data).
    let game = mid_game();
    group.bench_function("baseline_clone_game", |b| b.iter(|| black_box(black_box(&game).clone())));

    // One complete 4-player game from the deal on the bare engine (no views): setup, random legal
    // play, final scores; a new deal each iteration.
    let mut seed = 0u64;
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut legal = Vec::with_capacity(128);
    group.bench_function("full_game_4p_random", |b| {
        b.iter(|| {
            seed += 1;
            let mut game = Game::new(&Setup::new(4, seed)).expect("valid setup");
            play_random(&mut game, &mut rng, &mut legal, |_| false);
            black_box(game.scores())
        })
    });

    // The same with the card-first policy (`wonders simulate --policy card-first`): only the
    // drawn card's actions are worked out.
    group.bench_function("full_game_4p_card_first", |b| {
        b.iter(|| {
            seed += 1;
            let mut game = Game::new(&Setup::new(4, seed)).expect("valid setup");
            play_card_first(&mut game, &mut rng, &mut legal);
            black_box(game.scores())
        })
    });

    // The setup of a 4-player game: wonders, coins, the three Ages' hands.
    group.bench_function("new_game_4p", |b| {
        b.iter(|| {
            seed += 1;
            black_box(Game::new(&Setup::new(4, black_box(seed))).expect("valid setup"))
        })
    });

    // Every legal action of one seat in a mid-game position.
    game.legal_actions_into(0, &mut legal);
    assert!(legal.len() > 3, "a position with choices: {legal:?}");
    group.bench_function("legal_actions_mid_game", |b| {
        b.iter(|| {
            black_box(&game).legal_actions_into(black_box(0), &mut legal);
            black_box(legal.len())
        })
    });

    // The actions of one card of that seat's hand (what the card-first policy asks).
    let card = game.hand(0)[0];
    group.bench_function("card_actions_mid_game", |b| {
        b.iter(|| {
            black_box(&game).card_actions_into(black_box(0), black_box(card), &mut legal);
            black_box(legal.len())
        })
    });

    // The payment solver on a typical mid-game purchase: 4 units, one covered by the buyer's
    // own either/or card, the rest bought from neighbours selling either/or cards, with a discount.
    let own = production("C", &["WS"]);
    let left = production("G", &["SO", "WC"]);
    let right = production("L", &["WO", "CO"]);
    let mut prices = [[2u8; 7]; 2];
    for r in [Resource::Wood, Resource::Stone, Resource::Clay, Resource::Ore] {
        prices[0][r as usize] = 1; // a West Trading Post: raw materials from the left for 1
    }
    let market = Market { own: &own, left: &left, right: &right, prices };
    let need = Resources::from_letters("WSOG").expect("resource letters");
    let mut out = Options::new();
    solve(&market, &need, 12, &mut out);
    assert!(out.len() >= 2, "a purchase with a real choice of payments: {out:?}");
    group.bench_function("payment_solve_mid_game", |b| {
        b.iter(|| {
            solve(black_box(&market), black_box(&need), black_box(12), &mut out);
            black_box(out.len())
        })
    });

    // Checking one action (what `submit` does before playing it): the costliest legal build.
    game.legal_actions_into(0, &mut legal);
    let paid = legal
        .iter()
        .copied()
        .max_by_key(|a| a.payment().map_or(0, |p| p.left + p.right))
        .expect("legal actions");
    group.bench_function("check_action_mid_game", |b| {
        b.iter(|| black_box(black_box(&game).check(black_box(0), black_box(&paid))))
    });

    // One whole turn: every seat's first legal action, then the resolution.
    let mut firsts = Vec::new();
    for seat in game.to_act() {
        game.legal_actions_into(seat, &mut legal);
        firsts.push((seat, legal[0]));
    }
    group.bench_function("resolve_turn_mid_game", |b| {
        b.iter(|| {
            let mut g = black_box(&game).clone();
            for &(seat, a) in &firsts {
                play(&mut g, seat, a);
            }
            black_box(g.turn())
        })
    });

    // What a bot that reads the view is given each move.
    group.bench_function("view_one_seat", |b| b.iter(|| black_box(black_box(&game).view(black_box(1)))));

    // The final score sheets of every city.
    group.bench_function("scores_4p", |b| b.iter(|| black_box(black_box(&game).scores())));

    group.finish();
}

criterion_group!(benches, engine);
criterion_main!(benches);
