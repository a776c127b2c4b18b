//! External bots (`exec:`) through the bot protocol: a whole game with the example bot, and bots
//! that crash, answer illegal or malformed lines, run out of time or fail their handshake — each
//! loses exactly its faulty moves to the heuristic fallback and the game finishes — in the base
//! game, with the expansions (Edifice, Armada, both) and in the team variant.
//!
//! The bots are Python scripts (`examples/bots/random_bot.py`, `tests/fixtures/fixture_bot.py`);
//! python3 is on the development machine and in CI.

use std::time::{Duration, Instant};
use wonders_bots::exec::{ExecBot, ExecSpec, probe};
use wonders_bots::{Bot, Faults, GameEnd, HeuristicBot, RandomBot, bot_from_name, play_out};
use wonders_core::{Action, Expansions, Game, Setup, View};

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
    play_setup(command, &Setup::new(3, seed))
}

/// A game of `players` with `expansions`, in teams or not.
fn setup(players: u8, seed: u64, expansions: Expansions, teams: bool) -> Setup {
    Setup { expansions, teams, ..Setup::new(players, seed) }
}

/// The kinds of game an external bot must play: each expansion, both, and the team variant (8
/// players need Armada).
fn expansion_setups(seed: u64) -> [Setup; 5] {
    let both = Expansions(Expansions::EDIFICE.0 | Expansions::ARMADA.0);
    [
        setup(4, seed, Expansions::EDIFICE, false),
        setup(4, seed, Expansions::ARMADA, false),
        setup(5, seed, both, false),
        setup(8, seed, Expansions::ARMADA, true),
        setup(6, seed, both, true),
    ]
}

/// Plays a game of `setup` with the external bot `command` at seat 0 and random bots elsewhere;
/// returns the recorder of seat 0.
fn play_setup(command: &str, setup: &Setup) -> Recorder<ExecBot> {
    let spec = ExecSpec::parse(command).unwrap();
    let mut rec = Recorder { bot: ExecBot::new(spec, setup.seed), decisions: Vec::new(), told_over: false };
    let mut game = Game::new(setup).unwrap();
    {
        let mut bots: Vec<Box<dyn Bot + '_>> = vec![Box::new(&mut rec)];
        for s in 1..setup.players {
            bots.push(Box::new(RandomBot::new(u64::from(s))));
        }
        play_out(&mut game, &mut bots, &mut Vec::new()).unwrap();
    }
    assert!(game.is_over(), "{setup:?}: the game finishes");
    assert!(rec.told_over, "{setup:?}: the bot is told the game is over");
    let scores = game.scores();
    assert!(scores.iter().map(|s| i64::from(s.total)).sum::<i64>() > 0, "{setup:?}: real scores {scores:?}");
    // 6 turns in each of 3 Ages, plus Babylon's or Halicarnassus' extra decisions (and the
    // expansions' own).
    assert!(rec.decisions.len() >= 18, "{setup:?}: {} decisions", rec.decisions.len());
    for (_, legal, a) in &rec.decisions {
        assert!(legal.contains(a), "{setup:?}: every move played is legal");
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

/// The example bot plays whole games of every expansion and of the team variant without a fault
/// (the engine used to panic, converting a view with the edition's base data instead of the
/// game's), and its answers, not the fallback's, are played.
#[test]
fn the_example_bot_plays_whole_expansion_and_team_games() {
    for setup in expansion_setups(21) {
        let rec = play_setup(&example_bot(), &setup);
        assert_eq!(rec.bot.faults(), Faults::default(), "{setup:?}");
        assert_eq!(rec.bot.hello(), Some(("random_bot.py", "1.0")));
        // It was offered the expansions' own actions (sent in their wire form).
        let expansion_action = |a: &Action| match a {
            Action::ChooseIsland { .. } | Action::StayOutOfNaval { .. } | Action::DiscardBuilt { .. } => true,
            Action::Build { naval, .. } => naval.construction().is_some() || naval.free_move().is_some(),
            Action::Wonder { extra, .. } => extra.take_part() || extra.naval().is_some(),
            _ => false,
        };
        assert!(
            rec.decisions.iter().any(|(_, legal, _)| legal.iter().any(expansion_action)),
            "{setup:?}: the bot was offered some of the expansions' actions"
        );
    }
}

/// A bot that answers with wire actions (no index) has each of them recognised in every kind of
/// game: every legal action's wire form names it back.
#[test]
fn answers_by_wire_action_are_recognised_in_expansion_games() {
    for setup in expansion_setups(22) {
        let rec = play_setup(&fixture("by_action"), &setup);
        assert_eq!(rec.bot.faults(), Faults::default(), "{setup:?}");
        for (id, (_, legal, chosen)) in rec.decisions.iter().enumerate() {
            let id = id + 1;
            assert_eq!(*chosen, legal[id % legal.len()], "{setup:?}: decision {id}");
        }
    }
}

/// Faults never stop a game, whatever its kind: a bot answering garbage loses exactly its faulty
/// moves, and a crashing one the rest of the game, to the fallback.
#[test]
fn faults_lose_only_their_moves_in_expansion_and_team_games() {
    for setup in expansion_setups(23) {
        let rec = play_setup(&fixture("faulty"), &setup);
        let expected = Faults { illegal: 3, malformed: 2, fallback_moves: 5, ..Faults::default() };
        assert_eq!(rec.bot.faults(), expected, "{setup:?}");
        assert_first(&rec, [1]);
        assert_fallback(&rec, 2..=6);
        let (_, legal, chosen) = &rec.decisions[6];
        assert_eq!(chosen, legal.last().unwrap(), "{setup:?}: decision 7, by its wire form");
        assert_first(&rec, 8..=rec.decisions.len());

        let rec = play_setup(&fixture("crash"), &setup);
        let n = rec.decisions.len();
        let expected = Faults { crash: 1, fallback_moves: n as u32 - 2, ..Faults::default() };
        assert_eq!(rec.bot.faults(), expected, "{setup:?}");
        assert_first(&rec, 1..=2);
        assert_fallback(&rec, 3..=n);
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

    let err = probe(&format!("exec:{}", fixture("bad_hello")), &Setup::new(3, 0)).unwrap_err();
    assert!(err.contains("failed its handshake") && err.contains("`hello there` is not a hello"), "{err}");
    let err = probe(&format!("exec:{}", fixture("wrong_protocol")), &Setup::new(3, 0)).unwrap_err();
    assert!(err.contains("it speaks protocol 2; the engine speaks protocol 1"), "{err}");
    let err = probe("exec:./no-such-bot --fast", &Setup::new(3, 0)).unwrap_err();
    assert!(err.contains("cannot start `./no-such-bot --fast`"), "{err}");
    let hello = probe(&format!("exec:{}", fixture("first")), &Setup::new(3, 0)).unwrap();
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
