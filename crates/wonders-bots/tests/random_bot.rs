//! RandomBot over many seeded games.

use wonders_bots::{Bot, PlayError, RandomBot, play_out};
use wonders_core::{Action, Game, LogEntry, Phase, Setup, View};

mod common;
use common::setups;

/// Wraps a bot and checks every choice against the legal list and the view.
struct Checked {
    inner: RandomBot,
    moves: usize,
    special: usize,
}

impl Bot for Checked {
    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        assert!(!legal.is_empty(), "asked to choose with no legal action");
        let a = self.inner.choose(view, legal);
        assert!(legal.contains(&a), "{a:?} is not among {legal:?}");
        if matches!(view.phase, Phase::PlayLastCard { .. } | Phase::BuildFromDiscard { .. }) {
            self.special += 1;
        }
        if let Phase::BuildFromDiscard { .. } = view.phase {
            assert!(view.discard.is_some(), "the builder sees the discard pile");
        }
        self.moves += 1;
        a
    }

    fn name(&self) -> String {
        self.inner.name()
    }
}

/// Plays one game, returning every step's log and the final totals.
fn game_log(setup: &Setup) -> (Vec<Vec<LogEntry>>, Vec<i32>) {
    let (players, seed) = (setup.players, setup.seed);
    let mut game = Game::new(setup).unwrap();
    let mut bots: Vec<RandomBot> =
        (0..players as u64).map(|s| RandomBot::new(seed.wrapping_mul(31).wrapping_add(s))).collect();
    let mut legal = Vec::new();
    let mut logs = Vec::new();
    while !game.is_over() {
        for seat in game.to_act() {
            game.legal_actions_into(seat, &mut legal);
            let a = bots[seat].choose(&game.view(seat), &legal);
            game.submit(seat, a).unwrap();
        }
        logs.push(game.last_log().to_vec());
    }
    (logs, game.scores().iter().map(|s| s.total).collect())
}

#[test]
fn random_bot_plays_only_legal_actions_to_the_end() {
    let mut legal = Vec::new();
    let mut special = 0;
    for seed in 0..40u64 {
        for setup in setups(seed) {
            let players = setup.players;
            let mut game = Game::new(&setup).unwrap();
            let mut bots: Vec<Checked> = (0..players as u64)
                .map(|s| Checked { inner: RandomBot::new(seed ^ (s << 32)), moves: 0, special: 0 })
                .collect();
            play_out(&mut game, &mut bots, &mut legal).unwrap();
            assert!(game.is_over());
            assert_eq!((game.age(), game.phase()), (3, Phase::Over));
            // 18 turns each, plus Babylon's and Halicarnassus' extra steps.
            for b in &bots {
                assert!(b.moves >= 18, "a seat played {} moves", b.moves);
            }
            special += bots.iter().map(|b| b.special).sum::<usize>();
            assert_eq!(game.ranks().len(), players as usize);
        }
    }
    assert!(special > 0, "no game exercised Babylon's or Halicarnassus' extra steps");
}

#[test]
fn same_seed_same_game() {
    for seed in [0u64, 1, 7, 12345, u64::MAX] {
        for setup in setups(seed) {
            assert_eq!(game_log(&setup), game_log(&setup));
        }
    }
    // Different seeds give different games (overwhelmingly likely; these are fixed).
    assert_ne!(game_log(&Setup::new(4, 1)), game_log(&Setup::new(4, 2)));
}

#[test]
fn same_seed_same_choices() {
    let game = Game::new(&Setup::new(5, 3)).unwrap();
    let legal = game.legal_actions(2);
    let view = game.view(2);
    let mut a = RandomBot::new(77);
    let mut b = RandomBot::new(77);
    let first: Vec<Action> = (0..50).map(|_| a.choose(&view, &legal)).collect();
    let second: Vec<Action> = (0..50).map(|_| b.choose(&view, &legal)).collect();
    assert_eq!(first, second);
    // Uniform enough to reach more than one action.
    assert!(first.iter().any(|x| *x != first[0]));
}

#[test]
fn wrong_number_of_bots_is_an_error() {
    let mut game = Game::new(&Setup::new(4, 1)).unwrap();
    let mut bots = vec![RandomBot::new(0); 3];
    assert_eq!(
        play_out(&mut game, &mut bots, &mut Vec::new()),
        Err(PlayError::Seats { bots: 3, players: 4 })
    );
}

#[test]
fn empty_legal_list_gives_pass_not_a_panic() {
    let game = Game::new(&Setup::new(3, 1)).unwrap();
    assert_eq!(RandomBot::new(1).choose(&game.view(0), &[]), Action::Pass);
}

/// Names a fixed place in the legal list, whatever the list.
struct FixedIndex(usize);

impl Bot for FixedIndex {
    fn choose(&mut self, _view: &View, legal: &[Action]) -> Action {
        legal[self.0]
    }

    fn choose_index(&mut self, _view: &View, _legal: &[Action]) -> Result<usize, Action> {
        Ok(self.0)
    }

    fn name(&self) -> String {
        "fixed".into()
    }
}

/// Always answers one action, listed or not.
struct Always(Action);

impl Bot for Always {
    fn choose(&mut self, _view: &View, _legal: &[Action]) -> Action {
        self.0
    }

    fn name(&self) -> String {
        "always".into()
    }
}

#[test]
fn choose_index_names_the_place_of_the_choice_in_the_legal_list() {
    let game = Game::new(&Setup::new(4, 11)).unwrap();
    let legal = game.legal_actions(2);
    let view = game.view(2);
    // The random bot's index is the very draw `choose` makes from the same generator.
    let (mut a, mut b) = (RandomBot::new(5), RandomBot::new(5));
    for _ in 0..50 {
        let i = a.choose_index(&view, &legal).unwrap();
        assert_eq!(legal[i], b.choose(&view, &legal));
    }
    // The default looks the chosen action up: the discard of the hand's first card is listed
    // after that card's builds and stages, at the place `position` finds.
    let first = legal[0].card().unwrap();
    let discard = Action::Discard { card: first };
    let at = legal.iter().position(|x| *x == discard).unwrap();
    assert!(at > 0);
    assert_eq!(Always(discard).choose_index(&view, &legal), Ok(at));
    // An action that is not listed comes back as itself, for the game to check.
    assert_eq!(Always(Action::Pass).choose_index(&view, &legal), Err(Action::Pass));
    assert_eq!(RandomBot::new(1).choose_index(&view, &[]), Err(Action::Pass));
}

#[test]
fn a_choice_past_the_end_of_the_legal_list_or_off_it_stops_the_game_unchanged() {
    let setup = Setup::new(3, 2);
    let mut game = Game::new(&setup).unwrap();
    let before = game.clone();
    let n = game.legal_actions(0).len();
    let mut bots = [FixedIndex(1000), FixedIndex(0), FixedIndex(0)];
    assert_eq!(
        play_out(&mut game, &mut bots, &mut Vec::new()),
        Err(PlayError::NoSuchChoice { seat: 0, bot: "fixed".into(), index: 1000, legal: n })
    );
    assert!(game == before, "nothing was played");
    // Pass is never legal in a hand step: the game refuses it and says why.
    let mut bots = [Always(Action::Pass), Always(Action::Pass), Always(Action::Pass)];
    let err = play_out(&mut game, &mut bots, &mut Vec::new()).unwrap_err();
    assert!(matches!(err, PlayError::Illegal { seat: 0, .. }), "{err}");
    assert!(game == before);
}
