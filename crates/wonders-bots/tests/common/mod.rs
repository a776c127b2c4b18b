//! Helpers shared by the bots' integration tests.

use wonders_core::{Edition, Setup, WonderDeal};

/// Every kind of game: 1st edition with 2 (the Free City variant) to 7 players, 2nd edition with
/// 3 to 7 players choosing their sides.
pub fn setups(seed: u64) -> Vec<Setup> {
    let first = (2..=7u8).map(|players| Setup::new(players, seed));
    let second = (3..=7u8).map(|players| Setup {
        edition: Edition::Second,
        players,
        seed,
        wonders: WonderDeal::RandomBoardsChooseSides,
        expansions: Default::default(),
        teams: false,
    });
    first.chain(second).collect()
}

/// Games with the Edifice expansion: both editions, 3 to 7 players (used by `bots_play` only).
#[allow(dead_code)]
pub fn edifice_setups(seed: u64) -> Vec<Setup> {
    use wonders_core::Expansions;
    (3..=7u8)
        .flat_map(|players| {
            [
                Setup { expansions: Expansions::EDIFICE, ..Setup::new(players, seed) },
                Setup {
                    edition: Edition::Second,
                    wonders: WonderDeal::RandomBoardsChooseSides,
                    expansions: Expansions::EDIFICE,
                    ..Setup::new(players, seed)
                },
            ]
        })
        .collect()
}
