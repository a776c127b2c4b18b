//! Search iterations per second in mid-game, with the tree below the root, without it
//! (`search:…:flat`) and with a tree for every seat (`search:…:mo`):
//! `cargo run --release -p wonders-bots --example search_speed -- [ITERATIONS] [REPEATS] [PLAYERS]`
//! (4 players unless given).
//!
//! The position: a 1st-edition game (seed 33) played by heuristic bots to Age II, turn 2;
//! seat 1 searches its decision with a fixed iteration budget, `REPEATS` times (each a fresh bot
//! with the same seed, so the same work), and the rate of each repeat is printed with the range.
//! A fixed budget makes the work identical from one build to the next: compare two builds on the
//! same machine in the same run.

use std::time::Instant;
use wonders_bots::search::Budget;
use wonders_bots::{Bot, HeuristicBot, SearchBot, SearchConfig};
use wonders_core::{Game, Setup};

fn main() {
    let mut args = std::env::args().skip(1);
    let iterations: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(2000);
    let repeats: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(5);
    let players: u8 = args.next().and_then(|s| s.parse().ok()).unwrap_or(4);
    let mut game = Game::new(&Setup::new(players, 33)).expect("a valid setup");
    let mut bots: Vec<HeuristicBot> = (0..players).map(|_| HeuristicBot::new()).collect();
    let mut legal = Vec::new();
    while !(game.age() == 2 && game.turn() == 2) {
        for seat in game.to_act() {
            game.legal_actions_into(seat, &mut legal);
            let a = bots[seat].choose(&game.view(seat), &legal);
            game.submit(seat, a).expect("the heuristic plays legal actions");
        }
    }
    let view = game.view(1);
    game.legal_actions_into(1, &mut legal);
    // The search with its tree and the root-only search (`search:…:flat`), alternately, so the
    // two rates come from the same run.
    let tree = SearchConfig { budget: Budget::Iterations(iterations), ..SearchConfig::default() };
    let flat = SearchConfig { tree: false, ..tree };
    let mo = SearchConfig { opponent_trees: true, ..tree };
    let mut rates = [Vec::new(), Vec::new(), Vec::new()];
    let mut choice = [None, None, None];
    for _ in 0..repeats.max(1) {
        for (k, config) in [tree, flat, mo].into_iter().enumerate() {
            let mut bot = SearchBot::new(config, 7);
            let start = Instant::now();
            let a = bot.choose(&view, &legal);
            let rate = iterations as f64 / start.elapsed().as_secs_f64();
            assert!(choice[k].is_none() || choice[k] == Some(a), "a fixed budget and seed give one choice");
            choice[k] = Some(a);
            println!("{}: {iterations} iterations: {rate:.0} iterations/s", bot.name());
            rates[k].push(rate);
        }
    }
    for (k, name) in ["search (tree)", "search:flat (root only)", "search:mo (a tree for every seat)"]
        .into_iter()
        .enumerate()
    {
        let r = &mut rates[k];
        r.sort_by(f64::total_cmp);
        println!(
            "{name}, {players} players, Age II turn 2: {:.0} iterations/s (median of {}; range {:.0}–{:.0}); choice {:?}",
            r[r.len() / 2],
            r.len(),
            r[0],
            r[r.len() - 1],
            choice[k]
        );
    }
}
