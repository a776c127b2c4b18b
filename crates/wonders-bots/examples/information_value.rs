//! What hidden information costs the search: one `search` seat against heuristics, played three
//! times on the same deals, the search seeing its view (as in play), every hand of the current
//! Age too, or the whole game (the decks to come included) ([`SearchBot::choose_seeing`]):
//! `cargo run --release -p wonders-bots --example information_value -- [PLAYERS] [GAMES] [ITERATIONS] [THREADS]`
//! (defaults 7, 140, 500, 2).
//!
//! Game g is dealt from seed 1000 + ⌊g / PLAYERS⌋ and the search sits at seat g mod PLAYERS,
//! so each group of PLAYERS games shares one deal with the search in every seat; the search's
//! random generator is seeded from g. The heuristics play their own views. Iteration budgets
//! make the games the same on any machine.

use std::time::Instant;
use wonders_bots::search::{Budget, Sight};
use wonders_bots::{Bot, HeuristicBot, SearchBot, SearchConfig};
use wonders_core::{Game, Setup};

/// The search's win share in game `g` (1 a sole first place, 1/k a first place shared by k).
fn play(players: u8, g: u64, iterations: u32, sight: Sight) -> f64 {
    let n = players as usize;
    let mut game = Game::new(&Setup::new(players, 1000 + g / n as u64)).expect("a valid setup");
    let me = (g % n as u64) as usize;
    let config = SearchConfig { budget: Budget::Iterations(iterations), ..SearchConfig::default() };
    let mut search = SearchBot::new(config, g);
    let mut bots: Vec<HeuristicBot> = (0..n).map(|_| HeuristicBot::new()).collect();
    let mut legal = Vec::new();
    while !game.is_over() {
        // The search decides first, so that the whole game it may see holds no choice of this
        // step yet (a sample never does).
        let mut seats = game.to_act();
        seats.sort_by_key(|&s| s != me);
        for seat in seats {
            game.legal_actions_into(seat, &mut legal);
            let action = if seat == me {
                search.choose_seeing(&game, seat, &legal, sight)
            } else {
                bots[seat].choose(&game.view(seat), &legal)
            };
            game.submit(seat, action).expect("bots play legal actions");
        }
    }
    let ranks = game.ranks_from(&game.scores());
    let firsts = ranks.iter().filter(|&&r| r == 1).count();
    if ranks[me] == 1 { 1.0 / firsts as f64 } else { 0.0 }
}

/// The 95% Wilson interval of a share `p` of `n` games, in percent.
fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z = 1.96f64;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (100.0 * (centre - half), 100.0 * (centre + half))
}

fn main() {
    let mut args = std::env::args().skip(1);
    let players: u8 = args.next().and_then(|s| s.parse().ok()).unwrap_or(7);
    let games: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(140);
    let iterations: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(500);
    let threads: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(2).max(1);
    println!(
        "search:{iterations}it against {} heuristics, {players} players, {games} games (parity {:.1}%)",
        players - 1,
        100.0 / players as f64
    );
    for sight in [Sight::View, Sight::Hands, Sight::Whole] {
        let start = Instant::now();
        let wins: f64 = std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    s.spawn(move || {
                        (t..games)
                            .step_by(threads as usize)
                            .map(|g| play(players, g, iterations, sight))
                            .sum::<f64>()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("a game thread")).sum()
        });
        let p = wins / games as f64;
        let (lo, hi) = wilson(p, games as f64);
        println!(
            "sees {:<5}: win share {:.1}% [{lo:.1}, {hi:.1}] ({:.0} s)",
            format!("{sight:?}").to_lowercase(),
            100.0 * p,
            start.elapsed().as_secs_f64()
        );
    }
}
