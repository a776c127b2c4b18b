//! Armada in the turn flow (armada.md §2.2–§2.8; rulebook 000): setup, naval constructions paid
//! as one purchase, the discard choice, taxes and piracy, incursions, whole games.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use wonders_core::armada::Fleet;
use wonders_core::{Action, Expansions, Game, Naval, Payment, Setup};

fn setup(players: u8, seed: u64) -> Setup {
    Setup { expansions: Expansions::ARMADA, ..Setup::new(players, seed) }
}

/// Plays random legal actions to the end; returns the game.
fn play_random(players: u8, seed: u64) -> Game {
    let mut g = Game::new(&setup(players, seed)).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut legal = Vec::new();
    let mut steps = 0;
    while !g.is_over() {
        for seat in g.to_act() {
            g.legal_actions_into(seat, &mut legal);
            assert!(!legal.is_empty(), "seat {seat} has no legal action in {:?}", g.phase());
            let a = legal[rng.random_range(0..legal.len())];
            g.submit(seat, a).unwrap();
        }
        steps += 1;
        assert!(steps < 1000);
    }
    g
}

#[test]
fn games_play_to_the_end_with_3_4_7_and_8_players() {
    for players in [3u8, 4, 7, 8] {
        for seed in 0..3 {
            let g = play_random(players, seed);
            assert_eq!(g.scores().len(), players as usize);
        }
    }
}
