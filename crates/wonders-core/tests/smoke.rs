use wonders_core::{Game, Setup};
#[test]
fn smoke() {
    for seed in 0..50 {
        for n in 3..=7 {
            let mut game = Game::new(&Setup::new(n, seed)).unwrap();
            let mut actions = Vec::new();
            let mut i = 0usize;
            while !game.is_over() {
                for seat in game.to_act() {
                    game.legal_actions_into(seat, &mut actions);
                    let a = actions[(i * 7919 + seat) % actions.len()];
                    game.submit(seat, a).unwrap();
                    i += 1;
                }
            }
            let s = game.scores();
            if seed == 0 {
                println!("{n}: {:?}", s.iter().map(|s| s.total).collect::<Vec<_>>());
            }
        }
    }
}
