//! The heuristic and search bots over many seeded games of every kind: only legal actions, every
//! special step handled, reproducible, and stronger than random play.

use wonders_bots::{Bot, HeuristicBot, RandomBot, bot_from_name, play_out};
use wonders_core::{Action, Game, Phase, Setup, View};

mod common;
use common::{edifice_setups, setups};

/// Counts of the special steps a bot decided.
#[derive(Default, Debug, Clone, Copy)]
struct Seen {
    moves: usize,
    sides: usize,
    last_card: usize,
    discard_pick: usize,
    free_city: usize,
    /// Edifice: stages built taking part, and penalty discards chosen.
    took_part: usize,
    penalty_discard: usize,
}

/// Checks every choice of the wrapped bot against the legal list.
struct Checked {
    inner: Box<dyn Bot + Send>,
    seen: Seen,
}

impl Bot for Checked {
    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        let a = self.inner.choose(view, legal);
        assert!(legal.contains(&a), "{} chose {a:?}, not among {legal:?}", self.inner.name());
        self.seen.moves += 1;
        match view.phase {
            Phase::ChooseSide => self.seen.sides += 1,
            Phase::PlayLastCard { .. } => self.seen.last_card += 1,
            Phase::BuildFromDiscard { .. } => self.seen.discard_pick += 1,
            Phase::EdificeDiscard { .. } => self.seen.penalty_discard += 1,
            _ => {}
        }
        if matches!(a, Action::Wonder { extra, .. } if extra.take_part()) {
            self.seen.took_part += 1;
        }
        if view.acting_city != view.seat {
            self.seen.free_city += 1;
        }
        a
    }

    fn name(&self) -> String {
        self.inner.name()
    }
}

fn play(setup: &Setup, names: &[&str]) -> (Game, Vec<Seen>) {
    let mut game = Game::new(setup).unwrap();
    let mut bots: Vec<Checked> = (0..game.players())
        .map(|s| Checked {
            inner: bot_from_name(names[s % names.len()], setup.seed * 16 + s as u64).unwrap(),
            seen: Seen::default(),
        })
        .collect();
    play_out(&mut game, &mut bots, &mut Vec::new()).unwrap();
    assert!(game.is_over());
    let seen = bots.iter().map(|b| b.seen).collect();
    (game, seen)
}

fn add(total: &mut Seen, s: &Seen) {
    total.moves += s.moves;
    total.sides += s.sides;
    total.last_card += s.last_card;
    total.discard_pick += s.discard_pick;
    total.free_city += s.free_city;
    total.took_part += s.took_part;
    total.penalty_discard += s.penalty_discard;
}

#[test]
fn every_bot_plays_edifice_games() {
    // Random and heuristic over every kind of Edifice game; the search bot (unchanged) on some.
    let mut total = Seen::default();
    let mut completed = 0;
    for seed in 0..6u64 {
        for setup in edifice_setups(seed) {
            for names in [&["heuristic"][..], &["random"][..]] {
                let (game, seen) = play(&setup, names);
                for s in &seen {
                    add(&mut total, s);
                }
                let e = game.edifice().unwrap();
                completed += e.outcome.iter().filter(|o| **o == wonders_core::Outcome::Completed).count();
                // The score sheet's edifice category is part of the total.
                for s in game.scores() {
                    let parts =
                        s.military + s.treasury + s.wonder + s.civilian + s.science + s.commercial + s.guilds;
                    assert_eq!(s.total, parts + s.edifice);
                }
            }
        }
    }
    for setup in edifice_setups(9).into_iter().step_by(3) {
        let (_, seen) = play(&setup, &["search:4it", "heuristic"]);
        for s in &seen {
            add(&mut total, s);
        }
    }
    // The bots took part, chose penalty discards, and projects were completed.
    assert!(
        total.took_part > 0 && total.penalty_discard > 0 && completed > 0,
        "{total:?}, {completed} completed"
    );
}

#[test]
fn heuristic_plays_only_legal_actions_in_every_kind_of_game() {
    let mut total = Seen::default();
    for seed in 0..25u64 {
        for setup in setups(seed) {
            let (game, seen) = play(&setup, &["heuristic"]);
            for s in &seen {
                assert!(s.moves >= 18, "a seat played {} moves", s.moves);
                add(&mut total, s);
            }
            assert_eq!(game.ranks().len(), setup.players as usize);
        }
    }
    // Every special step was met and decided by the heuristic.
    assert!(
        total.sides > 0 && total.last_card > 0 && total.discard_pick > 0 && total.free_city > 0,
        "{total:?}"
    );
    // 2nd edition: each seat chooses its side once; 25 seeds × (3+4+5+6+7) seats.
    assert_eq!(total.sides, 25 * 25);
}

#[test]
fn search_plays_only_legal_actions_in_every_kind_of_game() {
    let mut total = Seen::default();
    for setup in setups(3) {
        // One search seat (with a tiny budget), the others heuristic.
        let (_, seen) = play(&setup, &["search:6it", "heuristic"]);
        for s in &seen {
            add(&mut total, s);
        }
        let (_, seen) = play(&setup, &["search:4it:2t", "random"]);
        for s in &seen {
            add(&mut total, s);
        }
    }
    assert!(total.sides > 0 && total.free_city > 0, "{total:?}");
}

#[test]
fn search_is_deterministic_for_a_seed_and_an_iteration_budget() {
    let log = |name: &str, seed: u64| -> Vec<Vec<wonders_core::LogEntry>> {
        let mut game = Game::new(&Setup::new(3, seed)).unwrap();
        let mut bots: Vec<Box<dyn Bot + Send>> =
            (0..3).map(|s| bot_from_name(name, 40 + s).unwrap()).collect();
        let mut legal = Vec::new();
        let mut logs = Vec::new();
        while !game.is_over() {
            for seat in game.to_act() {
                if game.must_act(seat) {
                    game.legal_actions_into(seat, &mut legal);
                    let a = bots[seat].choose(&game.view(seat), &legal);
                    game.submit(seat, a).unwrap();
                }
            }
            logs.push(game.last_log().to_vec());
        }
        logs
    };
    assert_eq!(log("search:8it", 5), log("search:8it", 5));
    assert_eq!(log("search:9it:2t", 6), log("search:9it:2t", 6));
}

#[test]
fn heuristic_is_deterministic_and_beats_random_play() {
    // Seat 0 heuristic, the others random, 4 players: the heuristic wins nearly every game and
    // scores far more.
    let (mut wins, mut heur, mut rand) = (0, 0i64, 0i64);
    let games = 30u64;
    for seed in 0..games {
        let mut game = Game::new(&Setup::new(4, seed)).unwrap();
        let mut bots: Vec<Box<dyn Bot>> = vec![Box::new(HeuristicBot::new())];
        bots.extend((1..4).map(|s| Box::new(RandomBot::new(seed * 4 + s)) as Box<dyn Bot>));
        play_out(&mut game, &mut bots, &mut Vec::new()).unwrap();
        let scores = game.scores();
        wins += (game.ranks()[0] == 1) as u64;
        heur += scores[0].total as i64;
        rand += scores[1..4].iter().map(|s| s.total as i64).sum::<i64>();
    }
    assert!(wins >= games - 3, "the heuristic won {wins} of {games}");
    let (heur, rand) = (heur as f64 / games as f64, rand as f64 / (3 * games) as f64);
    assert!(heur > rand + 15.0, "heuristic {heur:.1} vs random {rand:.1}");
    // Same position, same choice.
    let game = Game::new(&Setup::new(5, 1)).unwrap();
    let legal = game.legal_actions(2);
    let a = HeuristicBot::new().choose(&game.view(2), &legal);
    assert_eq!(a, HeuristicBot::new().choose(&game.view(2), &legal));
}

#[test]
fn factory_names_and_errors() {
    for (name, canonical) in [
        ("random", "random"),
        ("heuristic", "heuristic"),
        (" HEURISTIC ", "heuristic"),
        ("search", "search:100ms"),
        ("search:200ms", "search:200ms"),
        ("search:2s", "search:2000ms"),
        ("search:5000it", "search:5000it"),
        ("search:200ms:2t", "search:200ms:2t"),
        ("search:2t:50it", "search:50it:2t"),
        ("search:1t", "search:100ms"),
    ] {
        assert_eq!(bot_from_name(name, 1).unwrap().name(), canonical, "{name}");
    }
    for (bad, why) in [
        ("", "unknown bot"),
        ("oracle", "unknown bot `oracle`"),
        ("random:3", "takes no options"),
        ("search:fast", "is not a budget"),
        ("search:0ms", "must be positive"),
        ("search:0it", "must be positive"),
        ("search:10it:20ms", "two budgets"),
        ("search:0t", "1 to 64 threads"),
        ("search:65t", "1 to 64 threads"),
        ("search:-5ms", "is not a budget"),
        ("search:99999999999it", "too many iterations"),
    ] {
        let err = bot_from_name(bad, 1).err().unwrap_or_else(|| panic!("`{bad}` accepted"));
        assert!(err.contains(why), "`{bad}`: {err}");
    }
}
