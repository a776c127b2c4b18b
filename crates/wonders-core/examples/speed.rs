//! Times complete random 4-player games on one core: `cargo run --release --example speed`.
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Instant;
use wonders_core::{Game, Setup};

fn main() {
    let games: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut legal = Vec::new();
    let start = Instant::now();
    let mut total = 0i64;
    for seed in 0..games {
        let mut g = Game::new(&Setup::new(4, seed)).unwrap();
        while !g.is_over() {
            for seat in g.to_act() {
                g.legal_actions_into(seat, &mut legal);
                let a = legal[rng.random_range(0..legal.len())];
                g.submit(seat, a).unwrap();
            }
        }
        total += g.scores()[0].total as i64;
    }
    let secs = start.elapsed().as_secs_f64();
    println!("{games} games in {secs:.3} s: {:.0} games/s (checksum {total})", games as f64 / secs);
}
