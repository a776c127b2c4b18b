//! External bots (`exec:`) through the bot protocol: a whole game with the example bot, and bots
//! that crash, answer illegal or malformed lines, run out of time or fail their handshake — each
//! loses exactly its faulty moves to the heuristic fallback and the game finishes.
//!
//! The bots are Python scripts (`examples/bots/random_bot.py`, `tests/fixtures/fixture_bot.py`);
//! python3 is on the development machine and in CI.

use std::time::{Duration, Instant};
use wonders_bots::exec::{ExecBot, ExecSpec, probe};
use wonders_bots::{Bot, Faults, GameEnd, HeuristicBot, RandomBot, bot_from_name, play_out};
use wonders_core::{Action, Edition, Game, Setup, View};

fn example_bot() -> String {
    format!("python3 {}/../../examples/bots/random_bot.py", env!("CARGO_MANIFEST_DIR"))
}

fn fixture(mode: &str) -> String {
    format!("python3 {}/tests/fixtures/fixture_bot.py {mode}", env!("CARGO_MANIFEST_DIR"))
}

/// Wraps a bot and keeps every decision it was asked, with its answer.
struct Recorder<B> {
    bot: B,
    decisions: Vec<(View, Vec<Action>, Action)>,
    told_over: bool,
}

impl<B: Bot> Bot for Recorder<B> {
    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        let a = self.bot.choose(view, legal);
        self.decisions.push((view.clone(), legal.to_vec(), a));
        a
    }
    fn name(&self) -> String {
        self.bot.name()
    }
    fn faults(&self) -> Faults {
        self.bot.faults()
    }
    fn game_over(&mut self, end: &GameEnd<'_>) {
        self.told_over = true;
        self.bot.game_over(end)
    }
}

/// Plays a 3-player 1st-edition game with the external bot `command` at seat 0 and random bots
/// elsewhere; returns the recorder of seat 0.
fn play_with(command: &str, seed: u64) -> Recorder<ExecBot> {
    let spec = ExecSpec::parse(command).unwrap();
    let mut rec = Recorder { bot: ExecBot::new(spec, seed), decisions: Vec::new(), told_over: false };
    let mut game = Game::new(&Setup::new(3, seed)).unwrap();
    {
        let mut bots: Vec<Box<dyn Bot + '_>> =
            vec![Box::new(&mut rec), Box::new(RandomBot::new(1)), Box::new(RandomBot::new(2))];
        play_out(&mut game, &mut bots, &mut Vec::new()).unwrap();
    }
    assert!(game.is_over(), "the game finishes");
    assert!(rec.told_over, "the bot is told the game is over");
    // A 3-player 1st-edition game: 6 turns in each of 3 Ages, plus Babylon's or Halicarnassus'
    // extra decisions.
    assert!(rec.decisions.len() >= 18, "{} decisions", rec.decisions.len());
    for (_, legal, a) in &rec.decisions {
        assert!(legal.contains(a), "every move played is legal");
    }
    rec
}

/// The decisions (1-based ids) that the fallback played: exactly its heuristic's choice.
fn assert_fallback(rec: &Recorder<ExecBot>, ids: impl IntoIterator<Item = usize>) {
    for id in ids {
        let (view, legal, chosen) = &rec.decisions[id - 1];
        assert_eq!(*chosen, HeuristicBot::new().choose(view, legal), "decision {id}: the heuristic plays");
    }
}

/// Decisions the bot itself answered with index 0.
fn assert_first(rec: &Recorder<ExecBot>, ids: impl IntoIterator<Item = usize>) {
    for id in ids {
        let (_, legal, chosen) = &rec.decisions[id - 1];
        assert_eq!(*chosen, legal[0], "decision {id}: the bot's answer (index 0) is played");
    }
}

#[test]
fn the_example_bot_plays_a_whole_game() {
    let rec = play_with(&example_bot(), 11);
    assert_eq!(rec.bot.faults(), Faults::default());
    assert_eq!(rec.bot.hello(), Some(("random_bot.py", "1.0")));
    // Its rule: build when it can, else a wonder stage, else anything — so its answers, not the
    // fallback's, were played.
    let kind = |a: &Action| match a {
        Action::Build { .. } => 0,
        Action::Wonder { .. } => 1,
        _ => 2,
    };
    for (id, (_, legal, chosen)) in rec.decisions.iter().enumerate() {
        let best = legal.iter().map(kind).min().unwrap();
        assert_eq!(kind(chosen), best, "decision {}: {chosen:?} among {legal:?}", id + 1);
    }
}

#[test]
fn a_crashing_bot_loses_the_rest_of_the_game_to_the_fallback() {
    let rec = play_with(&fixture("crash"), 12);
    let n = rec.decisions.len();
    let expected = Faults { crash: 1, fallback_moves: n as u32 - 2, ..Faults::default() };
    assert_eq!(rec.bot.faults(), expected);
    assert_first(&rec, 1..=2);
    assert_fallback(&rec, 3..=n);
}

#[test]
fn illegal_and_malformed_answers_lose_only_their_moves() {
    let rec = play_with(&fixture("faulty"), 13);
    let n = rec.decisions.len();
    let expected = Faults { illegal: 3, malformed: 2, fallback_moves: 5, ..Faults::default() };
    assert_eq!(rec.bot.faults(), expected);
    assert_first(&rec, [1]);
    assert_fallback(&rec, 2..=6);
    // Decision 7 was answered by the last legal action's wire form alone.
    let (_, legal, chosen) = &rec.decisions[6];
    assert_eq!(chosen, legal.last().unwrap());
    assert_first(&rec, 8..=n);
}

#[test]
fn a_late_answer_loses_its_move_and_is_skipped_afterwards() {
    let start = Instant::now();
    let rec = play_with(&format!("{}:timeout=2s", fixture("slow")), 14);
    let n = rec.decisions.len();
    // The late answer to decision 2 arrives while decision 3 is asked: it is skipped (by its id),
    // not taken for decision 3 nor counted as a fault.
    assert_eq!(rec.bot.faults(), Faults { timeout: 1, fallback_moves: 1, ..Faults::default() });
    assert_first(&rec, [1]);
    assert_fallback(&rec, [2]);
    assert_first(&rec, 3..=n);
    assert!(start.elapsed() >= Duration::from_secs(2), "decision 2 waited for the time-out");
}

#[test]
fn a_malformed_handshake_leaves_the_whole_game_to_the_fallback() {
    let rec = play_with(&fixture("bad_hello"), 15);
    let n = rec.decisions.len();
    assert_eq!(rec.bot.faults(), Faults { handshake: 1, fallback_moves: n as u32, ..Faults::default() });
    assert_eq!(rec.bot.hello(), None);
    assert_fallback(&rec, 1..=n);

    let err = probe(&format!("exec:{}", fixture("bad_hello")), 3, Edition::First).unwrap_err();
    assert!(err.contains("failed its handshake") && err.contains("`hello there` is not a hello"), "{err}");
    let err = probe(&format!("exec:{}", fixture("wrong_protocol")), 3, Edition::First).unwrap_err();
    assert!(err.contains("it speaks protocol 2; the engine speaks protocol 1"), "{err}");
    let err = probe("exec:./no-such-bot --fast", 3, Edition::First).unwrap_err();
    assert!(err.contains("cannot start `./no-such-bot --fast`"), "{err}");
    let hello = probe(&format!("exec:{}", fixture("first")), 3, Edition::First).unwrap();
    assert_eq!(hello, ("fixture-first".to_string(), "0.1".to_string()));
}

#[test]
fn exec_names_are_checked_without_starting_anything() {
    let bot = bot_from_name("EXEC:./My Bot --x 'a b':timeout=250ms", 1).unwrap();
    assert_eq!(bot.name(), "exec:./My Bot --x 'a b':timeout=250ms");
    let spec = ExecSpec::parse("./My Bot --x 'a b'").unwrap();
    assert_eq!(spec.argv, ["./My", "Bot", "--x", "a b"]);
    assert_eq!(spec.timeout, wonders_bots::exec::DEFAULT_TIMEOUT);
    for (name, needle) in [
        ("exec:", "needs a command"),
        ("exec:bot.py:timeout=0s", "from 1 ms to an hour"),
        ("exec:bot.py:timeout=2h", "<T>ms or <T>s"),
        ("exec:python3 'bot.py", "unbalanced quotes"),
    ] {
        let err = bot_from_name(name, 1).err().unwrap();
        assert!(err.contains(needle), "{name}: {err}");
    }
}
