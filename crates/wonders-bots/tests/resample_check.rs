//! The search's determinizations: every decision of a game can be resampled, and the seat's
//! legal actions in every sample are those of the real game.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use wonders_bots::{Bot, HeuristicBot, RandomBot};
use wonders_core::{Edition, Game, Phase, Setup, WonderDeal};

#[test]
fn every_decision_resamples_with_the_same_legal_actions() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut legal = Vec::new();
    let (mut ok, mut failed) = (0usize, Vec::new());
    let seeds: u64 = std::env::var("RESAMPLE_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(4);
    for seed in 0..seeds {
        let kinds = (2..=7u8)
            .map(|p| Setup::new(p, seed))
            .chain((3..=7u8).map(|p| Setup {
                edition: Edition::Second,
                players: p,
                seed,
                wonders: WonderDeal::RandomBoardsChooseSides,
                expansions: Default::default(),
                teams: false,
            }))
            // Armada: 3 players (no two-neighbour cards) and the 8-player team game.
            .chain([
                Setup { expansions: wonders_core::Expansions::ARMADA, ..Setup::new(3, seed) },
                Setup { expansions: wonders_core::Expansions::ARMADA, teams: true, ..Setup::new(8, seed) },
            ]);
        for setup in kinds {
            let mut game = Game::new(&setup).unwrap();
            let mut heur = HeuristicBot::new();
            let mut rand_bot = RandomBot::new(seed);
            while !game.is_over() {
                for seat in game.to_act() {
                    if !game.must_act(seat) {
                        continue;
                    }
                    game.legal_actions_into(seat, &mut legal);
                    let view = game.view(seat);
                    for _ in 0..3 {
                        match Game::resample(&view, game.catalog(), &mut rng) {
                            Ok(sample) => {
                                assert_eq!(sample.view(seat).hand, view.hand);
                                assert_eq!(
                                    sample.legal_actions(seat),
                                    legal,
                                    "{:?} seat {seat}",
                                    game.phase()
                                );
                                ok += 1;
                            }
                            Err(e) => failed.push(format!(
                                "{setup:?} {:?} age {} turn {} seat {seat}: {e}",
                                game.phase(),
                                game.age(),
                                game.turn()
                            )),
                        }
                    }
                    let a = if seat % 2 == 0 {
                        heur.choose(&view, &legal)
                    } else {
                        rand_bot.choose(&view, &legal)
                    };
                    game.submit(seat, a).unwrap();
                }
            }
            let _ = Phase::Over;
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} failed: {:#?}",
        failed.len(),
        ok + failed.len(),
        &failed[..failed.len().min(10)]
    );
    assert!(ok > 1000);
}
