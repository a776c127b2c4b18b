//! Whole games pinned to the results the engine gave before its speed work: the same
//! seeds must give the same games. Each game is summed up by every seat's final score sheet, its
//! coins and a fingerprint of the whole public history, so any change in a legal list, its order,
//! a payment or a resolution shows.
//!
//! The expected values were printed by this file before any optimization (the build of 2026-11-23).

use wonders_bots::{HeuristicBot, RandomBot, play_out};
use wonders_core::{Edition, Game, LogEntry, Setup, WonderDeal};

/// FNV-1a over the Debug text of each history entry: stable, and sensitive to every field.
fn fingerprint(history: &[LogEntry]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for e in history {
        for b in format!("{e:?}").bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// (score sheets by seat, coins by seat, history fingerprint).
fn summary(game: &Game) -> (Vec<[i32; 8]>, Vec<u16>, u64) {
    assert!(game.is_over());
    // The pinned sheets predate the `edifice` category (index 7) and Armada's `naval`, `fleet`
    // and `islands` (8–10), always 0 in these games.
    let scores = game
        .scores()
        .iter()
        .take(game.players())
        .map(|s| {
            let v = s.values();
            assert_eq!(v[7..11], [0; 4]);
            [v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[11]]
        })
        .collect();
    let coins = game.cities().iter().take(game.players()).map(|c| c.coins).collect();
    (scores, coins, fingerprint(game.history()))
}

fn second(players: u8, seed: u64) -> Setup {
    Setup {
        edition: Edition::Second,
        players,
        seed,
        wonders: WonderDeal::RandomBoardsChooseSides,
        expansions: Default::default(),
        teams: false,
    }
}

/// The setups pinned: every player count of the 1st edition (2 is the Free City variant) and the
/// 2nd edition with sides chosen.
fn pinned_setups() -> Vec<Setup> {
    let mut v: Vec<Setup> = (2..=7u8).map(|p| Setup::new(p, 100 + p as u64)).collect();
    v.extend([Setup::new(4, 1), Setup::new(4, 2), second(3, 7), second(4, 8), second(7, 9)]);
    v
}

fn random_game(setup: &Setup) -> Game {
    let mut game = Game::new(setup).unwrap();
    let mut bots: Vec<RandomBot> =
        (0..game.players() as u64).map(|s| RandomBot::new(setup.seed.wrapping_mul(17) ^ s)).collect();
    play_out(&mut game, &mut bots, &mut Vec::new()).unwrap();
    game
}

fn heuristic_game(setup: &Setup) -> Game {
    let mut game = Game::new(setup).unwrap();
    let mut bots: Vec<HeuristicBot> = (0..game.players()).map(|_| HeuristicBot::new()).collect();
    play_out(&mut game, &mut bots, &mut Vec::new()).unwrap();
    game
}

type Pinned = (&'static [[i32; 8]], &'static [u16], u64);

/// Compares each game with its pinned summary; prints the summaries when none are pinned yet.
fn check(label: &str, games: Vec<(Vec<[i32; 8]>, Vec<u16>, u64)>, want: &[Pinned]) {
    if want.is_empty() {
        for got in &games {
            println!("    (&{:?}, &{:?}, {:#x}),", got.0, got.1, got.2);
        }
        panic!("{label}: not pinned");
    }
    assert_eq!(games.len(), want.len(), "{label}: games pinned");
    for (i, (got, want)) in games.iter().zip(want).enumerate() {
        assert_eq!(got.0.as_slice(), want.0, "{label} game {i}: score sheets");
        assert_eq!(got.1.as_slice(), want.1, "{label} game {i}: coins");
        assert_eq!(got.2, want.2, "{label} game {i}: history fingerprint");
    }
}

const RANDOM: &[Pinned] = &[
    (&[[10, 0, 10, 9, 4, 0, 0, 33], [-1, 8, 3, 15, 2, 0, 0, 27]], &[2, 25], 0x480a42cb99a4c475),
    (
        &[[18, 13, 3, 4, 1, 0, 0, 39], [-3, 6, 8, 3, 5, 0, 0, 19], [-3, 15, 3, 8, 0, 3, 0, 26]],
        &[41, 18, 45],
        0x466ed4380207e62b,
    ),
    (
        &[
            [-2, 5, 3, 12, 5, 3, 0, 26],
            [15, 9, 10, 5, 13, 0, 0, 52],
            [-4, 13, 15, 6, 0, 0, 0, 30],
            [15, 11, 3, 0, 0, 0, 0, 29],
        ],
        &[17, 28, 39, 35],
        0xa3911a086ece5a73,
    ),
    (
        &[
            [17, 11, 0, 3, 4, 1, 0, 36],
            [-3, 9, 3, 7, 0, 1, 2, 19],
            [-2, 16, 0, 12, 0, 0, 0, 26],
            [15, 6, 0, 6, 2, 0, 0, 29],
            [-3, 16, 0, 0, 1, 0, 0, 14],
        ],
        &[34, 29, 49, 20, 49],
        0x15d2cbbe896a782,
    ),
    (
        &[
            [-5, 10, 3, 7, 1, 2, 4, 22],
            [10, 6, 10, 9, 0, 0, 7, 42],
            [9, 8, 8, 0, 4, 2, 3, 34],
            [-1, 15, 2, 2, 1, 0, 0, 19],
            [-3, 14, 3, 0, 9, 0, 0, 23],
            [18, 14, 0, 2, 1, 2, 0, 37],
        ],
        &[30, 19, 24, 47, 44, 42],
        0x7ff1db7dd5785e46,
    ),
    (
        &[
            [4, 5, 7, 6, 1, 2, 0, 25],
            [12, 15, 0, 0, 2, 0, 0, 29],
            [11, 9, 3, 8, 0, 0, 2, 33],
            [-3, 11, 3, 7, 0, 3, 0, 21],
            [2, 14, 3, 0, 0, 0, 4, 23],
            [17, 6, 3, 19, 0, 0, 0, 45],
            [-3, 15, 0, 0, 1, 1, 4, 18],
        ],
        &[17, 45, 29, 35, 44, 18, 46],
        0xd0dce0fa600aae00,
    ),
    (
        &[
            [-5, 17, 3, 8, 0, 0, 0, 23],
            [16, 4, 0, 5, 2, 2, 2, 31],
            [-5, 16, 3, 0, 0, 0, 0, 14],
            [18, 12, 3, 8, 0, 3, 0, 44],
        ],
        &[53, 13, 50, 37],
        0xcded6fb00e4dcba2,
    ),
    (
        &[
            [18, 9, 7, 11, 0, 0, 0, 45],
            [5, 7, 3, 2, 1, 0, 2, 20],
            [-2, 9, 5, 2, 0, 0, 6, 20],
            [-3, 15, 3, 5, 0, 0, 0, 20],
        ],
        &[28, 23, 27, 47],
        0xad38918edc129e42,
    ),
    (
        &[[10, 4, 10, 13, 0, 0, 0, 37], [-1, 24, 3, 0, 2, 0, 2, 30], [-1, 3, 2, 21, 0, 1, 5, 31]],
        &[12, 74, 11],
        0xe36140a2adfaf3a6,
    ),
    (
        &[
            [-3, 18, 0, 0, 0, 0, 0, 15],
            [10, 4, 3, 15, 1, 0, 1, 34],
            [4, 14, 10, 0, 1, 2, 5, 36],
            [5, 10, 0, 7, 0, 0, 0, 22],
        ],
        &[56, 14, 43, 31],
        0x4a1df81267999f8f,
    ),
    (
        &[
            [18, 5, 10, 3, 0, 2, 0, 38],
            [-3, 19, 0, 0, 1, 2, 0, 19],
            [-1, 2, 3, 15, 5, 0, 0, 24],
            [5, 12, 0, 9, 0, 0, 0, 26],
            [-2, 12, 3, 7, 5, 0, 1, 26],
            [16, 4, 8, 13, 1, 4, 3, 49],
            [-5, 10, 10, 0, 2, 2, 0, 19],
        ],
        &[17, 59, 8, 36, 38, 13, 31],
        0xa2b2d1099351f13e,
    ),
];
const HEURISTIC: &[Pinned] = &[
    (&[[12, 7, 10, 7, 9, 3, 8, 56], [6, 2, 3, 18, 25, 0, 6, 60]], &[23, 6], 0x8c22bf1e92dddb55),
    (
        &[[12, 7, 10, 6, 1, 8, 13, 57], [-6, 0, 8, 20, 9, 0, 0, 31], [12, 2, 10, 24, 1, 0, 0, 49]],
        &[21, 1, 8],
        0x6a1cb34eb6e6bfe2,
    ),
    (
        &[
            [9, 5, 10, 22, 1, 4, 0, 51],
            [8, 4, 0, 6, 16, 4, 14, 52],
            [1, 4, 15, 13, 1, 7, 0, 41],
            [2, 2, 10, 17, 9, 0, 6, 46],
        ],
        &[17, 12, 14, 8],
        0x5245af4e39e58ca3,
    ),
    (
        &[
            [2, 2, 10, 0, 18, 0, 16, 48],
            [14, 2, 10, 7, 4, 9, 0, 46],
            [-4, 1, 0, 28, 4, 0, 12, 41],
            [18, 5, 7, 23, 0, 3, 0, 56],
            [0, 7, 3, 19, 4, 0, 0, 33],
        ],
        &[7, 6, 5, 17, 23],
        0x640f0df1157bd780,
    ),
    (
        &[
            [9, 1, 3, 19, 0, 2, 5, 39],
            [10, 3, 10, 14, 10, 5, 0, 52],
            [-4, 3, 0, 13, 48, 0, 6, 66],
            [11, 4, 3, 20, 0, 3, 16, 57],
            [1, 6, 10, 8, 1, 0, 5, 31],
            [3, 3, 10, 12, 0, 0, 0, 28],
        ],
        &[5, 10, 9, 14, 18, 10],
        0x276c37f527352f06,
    ),
    (
        &[
            [8, 0, 7, 21, 13, 0, 0, 49],
            [5, 4, 5, 9, 1, 3, 4, 31],
            [4, 1, 10, 11, 25, 0, 0, 51],
            [3, 2, 10, 15, 1, 0, 29, 60],
            [1, 5, 3, 26, 4, 6, 7, 52],
            [17, 2, 3, 23, 0, 7, 0, 52],
            [-4, 10, 10, 7, 4, 5, 0, 32],
        ],
        &[1, 13, 3, 8, 16, 7, 30],
        0xcb119af3a847c3ef,
    ),
    (
        &[
            [-5, 0, 15, 14, 25, 0, 7, 56],
            [18, 11, 3, 5, 0, 15, 0, 52],
            [0, 0, 3, 24, 9, 4, 11, 51],
            [11, 3, 3, 16, 0, 4, 25, 62],
        ],
        &[0, 33, 2, 10],
        0x57bc1ceb7d5fc042,
    ),
    (
        &[
            [13, 9, 7, 11, 0, 6, 0, 46],
            [7, 0, 10, 23, 1, 0, 5, 46],
            [-4, 9, 5, 9, 13, 6, 7, 45],
            [6, 3, 15, 11, 4, 6, 0, 45],
        ],
        &[28, 2, 29, 10],
        0x20c0bf5a68bd6563,
    ),
    (
        &[[12, 4, 3, 23, 0, 2, 15, 59], [10, 2, 10, 8, 10, 3, 5, 48], [-4, 9, 10, 23, 0, 3, 6, 47]],
        &[14, 6, 28],
        0x5458eee9043a7feb,
    ),
    (
        &[
            [-2, 2, 10, 15, 4, 6, 0, 35],
            [16, 3, 3, 15, 10, 3, 0, 50],
            [-6, 5, 10, 15, 9, 0, 8, 41],
            [16, 2, 10, 17, 1, 0, 6, 52],
        ],
        &[7, 9, 16, 8],
        0xa17aa8844614fda9,
    ),
    (
        &[
            [7, 0, 3, 20, 1, 2, 5, 38],
            [7, 5, 3, 15, 1, 2, 15, 48],
            [15, 10, 3, 19, 1, 3, 6, 57],
            [-5, 3, 3, 24, 4, 4, 8, 41],
            [17, 13, 10, 17, 0, 5, 0, 62],
            [7, 4, 13, 0, 0, 3, 0, 27],
            [-6, 6, 10, 11, 16, 4, 4, 45],
        ],
        &[0, 15, 30, 10, 41, 14, 19],
        0x10e19d5f775a93d2,
    ),
];

#[test]
fn random_games_are_unchanged() {
    let games = pinned_setups().iter().map(|s| summary(&random_game(s))).collect();
    check("random", games, RANDOM);
}

#[test]
fn heuristic_games_are_unchanged() {
    let games = pinned_setups().iter().map(|s| summary(&heuristic_game(s))).collect();
    check("heuristic", games, HEURISTIC);
}
