//! The `neural` bot's cost per decision: a timed loop over the decisions of whole games.
//!
//! ```sh
//! cargo run --release -p wonders-bots --example neural_speed
//! ```
//!
//! Plays 20 games of 4 players (1st edition, seeds 1 to 20) with the neural bot at every seat,
//! timing each call of `Bot::choose` (encoding the view, the heuristic's values of the actions, one
//! forward pass of the residual network on the CPU, one thread, and the choice of the payment), and
//! prints the mean, the median and the 99th percentile per decision, then the network's size.

use std::time::Instant;
use wonders_bots::{Bot, Network, NeuralBot};
use wonders_core::{Game, Setup};

fn main() {
    let mut times = Vec::new();
    let mut bot = NeuralBot::new();
    for seed in 1..=20 {
        let mut game = Game::new(&Setup::new(4, seed)).expect("a 4-player game");
        while !game.is_over() {
            for seat in game.to_act() {
                if !game.must_act(seat) {
                    continue;
                }
                let view = game.view(seat);
                let legal = game.legal_actions(seat);
                let start = Instant::now();
                let action = bot.choose(&view, &legal);
                times.push(start.elapsed().as_secs_f64() * 1e6);
                game.submit(seat, action).expect("the bot's action is legal");
            }
        }
    }
    times.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let pct = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
    println!(
        "neural: {} decisions, {mean:.0} µs mean, {:.0} µs median, {:.0} µs 99th percentile per decision",
        times.len(),
        pct(0.5),
        pct(0.99)
    );
    let net = Network::embedded_residual();
    println!(
        "network: {} parameters, weight file {} bytes, heuristic weight {:.4} logits per point",
        net.parameters(),
        wonders_bots::neural::EMBEDDED_RESIDUAL_WEIGHTS.len(),
        net.heuristic_weight().unwrap_or(0.0)
    );
}
