//! The bot protocol's cost per move: plays games with an external bot at seat 0 and the random
//! bot elsewhere, and times each decision of the external bot (the engine's serialising of the
//! view and legal actions, the pipes, the bot's parsing, choosing and answering) against the
//! built-in random bot's decisions in the same games. A game's first decision, which starts the
//! program and shakes hands, is timed apart.
//!
//! ```sh
//! cargo run --release -p wonders-bots --example exec_overhead -- "python3 examples/bots/random_bot.py" 100
//! ```

use std::time::{Duration, Instant};
use wonders_bots::exec::{ExecBot, ExecSpec};
use wonders_bots::{Bot, RandomBot, play_out};
use wonders_core::{Action, Game, Setup, View};

/// Times every decision of the bot it wraps.
struct Timed<B> {
    bot: B,
    times: Vec<Duration>,
}

impl<B: Bot> Bot for Timed<B> {
    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        let start = Instant::now();
        let a = self.bot.choose(view, legal);
        self.times.push(start.elapsed());
        a
    }
    fn name(&self) -> String {
        self.bot.name()
    }
    fn game_over(&mut self, end: &wonders_bots::GameEnd<'_>) {
        self.bot.game_over(end)
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let mut args = std::env::args().skip(1);
    let command = args.next().unwrap_or_else(|| "python3 examples/bots/random_bot.py".into());
    let games: u64 = args.next().and_then(|g| g.parse().ok()).unwrap_or(50);
    let spec = match ExecSpec::parse(&command) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("exec_overhead: {e}");
            std::process::exit(2);
        }
    };
    let (mut first, mut moves, mut random) = (Vec::new(), Vec::new(), Vec::new());
    let mut faults = 0;
    let start = Instant::now();
    for g in 0..games {
        let mut game = Game::new(&Setup::new(4, g)).expect("a 4-player game");
        let mut ext = Timed { bot: ExecBot::new(spec.clone(), g), times: Vec::new() };
        let mut rnd = Timed { bot: RandomBot::new(g), times: Vec::new() };
        {
            let mut bots: Vec<Box<dyn Bot + '_>> = vec![
                Box::new(&mut ext),
                Box::new(&mut rnd),
                Box::new(RandomBot::new(g + 1)),
                Box::new(RandomBot::new(g + 2)),
            ];
            play_out(&mut game, &mut bots, &mut Vec::new()).expect("the game plays out");
        }
        faults += ext.bot.faults().total();
        first.push(ext.times[0]);
        moves.extend_from_slice(&ext.times[1..]);
        random.extend_from_slice(&rnd.times);
    }
    let mean = |v: &[Duration]| ms(v.iter().sum::<Duration>()) / v.len().max(1) as f64;
    let mut sorted = moves.clone();
    sorted.sort();
    let median = sorted.get(sorted.len() / 2).copied().map_or(0.0, ms);
    println!("{games} games of 4 players, `{command}` at seat 0, {:.1} s", start.elapsed().as_secs_f64());
    println!("  start + handshake + first move: {:.2} ms per game (mean)", mean(&first));
    println!(
        "  other moves: {} moves, {:.3} ms mean, {:.3} ms median per move",
        moves.len(),
        mean(&moves),
        median
    );
    println!("  built-in random bot, same games: {} moves, {:.4} ms per move", random.len(), mean(&random));
    println!("  faults: {faults}");
}
