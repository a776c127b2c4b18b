//! Which other seats play like the search's rollout policy: the opponent model of
//! [`SearchConfig::adaptive_opponents`], learnt from what the seat sees them do.
//!
//! Hands travel as packets, and a packet the seat held is known to it until a card leaves it
//! face down: the seat passed it on less the card it used, and every card the next holders built
//! from it is public. So at each choice of a card the seat knows the exact hand of some other
//! seats (always the next player's from the second turn of an Age on, which chooses from the
//! packet the seat just passed; further ones while their predecessors built from it; in the team
//! variant the teammate's, which is shown: [`Resampler::known_hand`]). For each of them the watch
//! works out, in a sample of the seat's view (where that hand is dealt as it is, the cities and
//! the turn being public), what the rollout policy would do: a build of a
//! card, a wonder stage or a discard (every action valued within [`TIE`] of the policy's best,
//! so a tie broken by the hand's order counts either way). When the turn is over, the public log
//! shows what the seat did: a built card is seen, a stage or a discard is seen as such. A seat
//! whose choice was not one of the policy's has *strayed* from it.
//!
//! The player who passes to the seat is checked a turn late: the hand the seat receives is the
//! one that player chose from, less the card it used. When that card was built (so seen), the
//! player's hand at the turn before is known, and its choice is worked out in a sample of the
//! turn before's view that deals it that hand.
//!
//! The rollout policy is the [`HeuristicBot`](crate::HeuristicBot)'s rules, so a heuristic
//! opponent never strays: its every choice is the policy's. A searching opponent, a person or a
//! random bot soon does, and the search then models that seat as a searcher, in a tree of its own
//! ([`SearchConfig::opponent_trees`]); a seat never seen to choose is modelled as the seats that
//! were seen: as a searcher once any seat strayed.

use crate::ctx::Ctx;
use crate::heuristic::evaluate;
use crate::search::SearchConfig;
use arrayvec::ArrayVec;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use wonders_core::limits::MAX_PLAYERS;
use wonders_core::log::Played;
use wonders_core::sample::Resampler;
use wonders_core::{Action, Game, Phase, View};

/// A seat seen to choose as the policy this many times, never otherwise, is modelled as the policy.
pub(crate) const CLEAN: u16 = 2;

/// With this many choices checked in all and none astray, every seat is modelled as the policy.
pub(crate) const TABLE_CLEAN: u16 = 3;

/// Actions the policy values within this many points of its best count as its choice.
pub(crate) const TIE: f32 = 1e-3;

/// What a choice of a card shows in the public log: a built card, a stage, a discard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seen {
    Built(u8),
    Stage,
    Discard,
}

impl Seen {
    /// The log's entry for a choice of a card, `None` for any other entry.
    fn of_entry(played: &Played) -> Option<Seen> {
        match *played {
            Played::Built(c) => Some(Seen::Built(c.0)),
            Played::Stage(_) => Some(Seen::Stage),
            Played::Discarded => Some(Seen::Discard),
            _ => None,
        }
    }

    /// What `seat`'s choice of a card at `turn` of `age` showed, once `view`'s log has it.
    fn in_log(view: &View, age: u8, turn: u8, seat: usize) -> Option<Seen> {
        view.history.iter().find_map(|e| {
            (e.age == age && e.turn == turn && e.seat as usize == seat)
                .then(|| Seen::of_entry(&e.played))
                .flatten()
        })
    }

    /// What playing `action` shows.
    fn of_action(action: &Action) -> Option<Seen> {
        match *action {
            Action::Build { card, .. } => Some(Seen::Built(card.0)),
            Action::Wonder { .. } => Some(Seen::Stage),
            Action::Discard { .. } | Action::DiscardYellow { .. } => Some(Seen::Discard),
            _ => None,
        }
    }
}

/// A choice the policy was asked to make for another seat, to check once the turn is over.
#[derive(Clone, Debug)]
struct Guess {
    age: u8,
    turn: u8,
    seat: u8,
    /// What the policy's choice (or any choice tied with it) shows.
    policy: ArrayVec<Seen, 16>,
}

/// The seat's record of the other seats' choices in one game (see the [module
/// documentation](self)).
#[derive(Clone, Debug, Default)]
pub(crate) struct Watch {
    /// The (age, turn) of the last view read and its history's length: a view of an earlier
    /// moment is a new game.
    last: (u8, u8, usize),
    /// The turn whose guesses are made.
    guessed: Option<(u8, u8)>,
    guesses: Vec<Guess>,
    /// Per seat: its choices checked, and those the policy would not have made.
    checked: [u16; MAX_PLAYERS],
    strayed: [u16; MAX_PLAYERS],
    /// The view of the last turn guessed, and the seats whose choices were guessed in it (a bit
    /// per seat): the player who passes to this seat is checked on it a turn late.
    previous: Option<Box<View>>,
    previous_guessed: u8,
}

impl Watch {
    /// Reads `view`: checks the guesses its log answers, and guesses the choices of the other
    /// seats whose hands it shows. `seed` seeds the sample the guesses are worked out in.
    pub(crate) fn read(&mut self, view: &View, config: &SearchConfig, seed: u64) {
        let now = (view.age, view.turn, view.history.len());
        if (now.0, now.1) < (self.last.0, self.last.1) || now.2 < self.last.2 {
            *self = Watch::default();
        }
        self.last = now;
        self.check(view);
        if view.phase == Phase::Choose
            && view.free_city.is_none()
            && self.guessed != Some((view.age, view.turn))
        {
            self.guessed = Some((view.age, view.turn));
            self.check_upstream(view, config, seed);
            self.guess(view, config, seed);
            self.previous = Some(Box::new(view.clone()));
        }
    }

    /// The seats to search in trees of their own, a bit per seat: those seen to stray, and,
    /// once any seat strayed, those seen to choose as the policy fewer than [`CLEAN`] times.
    /// Before any seat strayed, with `prior` (a search long enough for the trees to model a
    /// searcher well: [`SearchConfig::adaptive_opponents`]) the seats seen fewer than [`CLEAN`]
    /// times are searched too until the table looks like policy players ([`TABLE_CLEAN`] checks
    /// in all, none astray); without it, none is.
    pub(crate) fn searchers(&self, view: &View, prior: bool) -> u8 {
        let strays = self.strayed.iter().any(|&s| s > 0);
        let unproven = strays || (prior && self.checked.iter().sum::<u16>() < TABLE_CLEAN);
        (0..view.cities.len().min(MAX_PLAYERS))
            .filter(|&s| s != view.seat as usize)
            .filter(|&s| self.strayed[s] > 0 || (unproven && self.checked[s] < CLEAN))
            .fold(0, |m, s| m | 1 << s)
    }

    /// Per seat: the choices checked and those that strayed from the policy.
    #[cfg(test)]
    pub(crate) fn tally(&self) -> ([u16; MAX_PLAYERS], [u16; MAX_PLAYERS]) {
        (self.checked, self.strayed)
    }

    fn check(&mut self, view: &View) {
        let (checked, strayed) = (&mut self.checked, &mut self.strayed);
        self.guesses.retain(|g| {
            match Seen::in_log(view, g.age, g.turn, g.seat as usize) {
                Some(seen) => {
                    checked[g.seat as usize] += 1;
                    strayed[g.seat as usize] += u16::from(!g.policy.contains(&seen));
                    false
                }
                // Not played yet; a guess of a turn gone by without an entry is dropped.
                None => (view.age, view.turn) <= (g.age, g.turn),
            }
        });
    }

    /// Checks the choice of the player who passed this seat its hand, made at the turn before
    /// (unless it was guessed then): if that player built a card, its hand was the one this seat
    /// holds now plus that card, and the policy's choice is worked out in a sample of the
    /// previous turn's view that deals it that hand ([`Resampler::knowing_hand`]). A stage or a
    /// discard hides which card left, so it is not checked.
    fn check_upstream(&mut self, view: &View, config: &SearchConfig, seed: u64) {
        let Some(previous) = self.previous.take() else { return };
        if (previous.age, previous.turn + 1) != (view.age, view.turn) {
            return;
        }
        let n = view.cities.len();
        let me = view.seat as usize;
        let up = if view.age == 2 { (me + 1) % n } else { (me + n - 1) % n };
        if up == me || self.previous_guessed >> up & 1 == 1 {
            return;
        }
        let Some(Seen::Built(card)) = Seen::in_log(view, previous.age, previous.turn, up) else { return };
        let mut hand = view.hand;
        if hand.try_push(wonders_core::CardId(card)).is_err() {
            return;
        }
        let Ok(resampler) = Resampler::knowing_hand(&previous, previous.data.0, up, &hand) else { return };
        let Ok(game) = resampler.sample(&mut ChaCha8Rng::seed_from_u64(seed ^ 0x0075_7057)) else { return };
        if let Some(policy) = policy_choices(&game, up, config, &mut Vec::with_capacity(64)) {
            self.checked[up] += 1;
            self.strayed[up] += u16::from(!policy.contains(&Seen::Built(card)));
        }
    }

    fn guess(&mut self, view: &View, config: &SearchConfig, seed: u64) {
        self.previous_guessed = 0;
        let Ok(resampler) = Resampler::new(view, view.data.0) else { return };
        // The seats whose hands the seat knows: every sample deals them as they are.
        let known: ArrayVec<usize, MAX_PLAYERS> = (0..view.cities.len())
            .filter(|&s| s != view.seat as usize && resampler.known_hand(s).is_some())
            .collect();
        if known.is_empty() {
            return;
        }
        let Ok(game) = resampler.sample(&mut ChaCha8Rng::seed_from_u64(seed)) else { return };
        let mut legal = Vec::with_capacity(64);
        for s in known {
            if let Some(policy) = policy_choices(&game, s, config, &mut legal) {
                self.previous_guessed |= 1 << s;
                self.guesses.push(Guess { age: view.age, turn: view.turn, seat: s as u8, policy });
            }
        }
    }
}

/// What the rollout policy's choice for `seat` in `game` shows (every choice tied with it), if
/// it has a choice of a card.
fn policy_choices(
    game: &Game,
    seat: usize,
    config: &SearchConfig,
    legal: &mut Vec<Action>,
) -> Option<ArrayVec<Seen, 16>> {
    if !game.must_act(seat) {
        return None;
    }
    game.legal_actions_into(seat, legal);
    let mut values = Vec::with_capacity(legal.len());
    evaluate(&Ctx::from_game(game, seat), &config.weights, legal, config.rollout_deny, |i, v| {
        values.push((i, v))
    });
    let best = values.iter().map(|&(_, v)| v).fold(f32::NEG_INFINITY, f32::max);
    let mut out = ArrayVec::new();
    for &(i, v) in &values {
        if v >= best - TIE
            && let Some(seen) = Seen::of_action(&legal[i])
            && !out.contains(&seen)
        {
            out.try_push(seen).ok()?;
        }
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bot, HeuristicBot, RandomBot};
    use wonders_core::{Edition, Expansions, Game, Setup};

    /// Plays `game` with `bots` until `stop` holds, each seat watched by a watch of its own;
    /// returns the watches.
    fn watch_game(game: &mut Game, bots: &mut [Box<dyn Bot>], stop: impl Fn(&Game) -> bool) -> Vec<Watch> {
        let n = game.players();
        let mut watches = vec![Watch::default(); n];
        let config = SearchConfig::default();
        let mut legal = Vec::new();
        while !game.is_over() && !stop(game) {
            for s in game.to_act() {
                if !game.must_act(s) {
                    continue;
                }
                let view = game.view(s);
                watches[s].read(&view, &config, 7);
                game.legal_actions_into(s, &mut legal);
                let a = bots[s].choose(&view, &legal);
                game.submit(s, a).unwrap();
            }
        }
        watches
    }

    #[test]
    fn the_player_who_passes_is_checked_a_turn_late_on_its_builds() {
        // 4 players, Age I: seat 0 receives seat 3's packet. Until turn 4 no packet of seat 3
        // has come round to seat 0 any other way, so every check of seat 3 is an upstream one:
        // one per card seat 3 built at turns 1 and 2 (seen at turns 2 and 3), none for its
        // stages and discards.
        let (mut checks, mut strays) = (0, 0);
        for seed in 1..6 {
            let mut game = Game::new(&Setup::new(4, seed)).unwrap();
            let mut bots: Vec<Box<dyn Bot>> =
                (0..4).map(|_| Box::new(HeuristicBot::new()) as Box<dyn Bot>).collect();
            bots[3] = Box::new(RandomBot::new(seed));
            let watches = watch_game(&mut game, &mut bots, |g| (g.age(), g.turn()) == (1, 4));
            let built = game
                .history()
                .iter()
                .filter(|e| e.seat == 3 && e.turn <= 2 && matches!(e.played, Played::Built(_)))
                .count();
            let (checked, strayed) = watches[0].tally();
            assert_eq!(checked[3] as usize, built, "seed {seed}");
            assert!(strayed[3] <= checked[3]);
            assert_eq!(strayed[1] + strayed[2], 0, "seed {seed}: heuristic players never stray");
            (checks, strays) = (checks + checked[3], strays + strayed[3]);
        }
        // The random player builds often, and is soon seen to build what the policy would not.
        assert!(checks >= 5 && strays > 0, "{checks} checks, {strays} strays");
    }

    #[test]
    fn heuristic_players_never_stray_and_random_ones_do() {
        let second = |p: u8, seed| Setup { edition: Edition::Second, ..Setup::new(p, seed) };
        let with = |p: u8, seed, expansions| Setup { expansions, ..Setup::new(p, seed) };
        let setups = [
            Setup::new(3, 11),
            Setup::new(4, 12),
            Setup::new(7, 13),
            second(5, 14),
            with(4, 15, Expansions::ARMADA),
            with(8, 16, Expansions::ARMADA),
            with(4, 17, Expansions::EDIFICE),
            with(6, 18, Expansions(Expansions::ARMADA.0 | Expansions::EDIFICE.0)),
            Setup { teams: true, ..Setup::new(6, 19) },
        ];
        for setup in setups {
            let players = setup.players as usize;
            let mut game = Game::new(&setup).unwrap();
            let mut bots: Vec<Box<dyn Bot>> =
                (0..players).map(|_| Box::new(HeuristicBot::new()) as Box<dyn Bot>).collect();
            let watches = watch_game(&mut game, &mut bots, |_| false);
            for (me, w) in watches.iter().enumerate() {
                let (checked, strayed) = w.tally();
                assert_eq!(strayed, [0; MAX_PLAYERS], "seat {me} of {setup:?}");
                // Each Age: turns 2–6 of the next player at least (its last one is checked in
                // the next Age's first view, but the game's last turn is never checked).
                assert!(checked.iter().sum::<u16>() >= 14, "seat {me}: {checked:?}");
                assert_eq!(w.searchers(&game.view(me), true), 0);
                assert_eq!(w.searchers(&game.view(me), false), 0);
            }
        }
        // Random players stray, and seat 0 searches every seat seen to stray.
        let mut game = Game::new(&Setup::new(4, 5)).unwrap();
        let mut bots: Vec<Box<dyn Bot>> = vec![Box::new(HeuristicBot::new())];
        bots.extend((1..4).map(|s| Box::new(RandomBot::new(s)) as Box<dyn Bot>));
        let watches = watch_game(&mut game, &mut bots, |g| g.age() == 2);
        let (checked, strayed) = watches[0].tally();
        assert!(strayed[1] > 0, "{strayed:?}");
        let searchers = watches[0].searchers(&game.view(0), false);
        assert_eq!(searchers & 1, 0, "never itself");
        for s in 1..4 {
            // A seat seen to stray is searched; so is one seen too little, once any strayed.
            let searched = searchers >> s & 1 == 1;
            assert_eq!(searched, strayed[s] > 0 || checked[s] < CLEAN, "seat {s}: {checked:?} {strayed:?}");
        }
    }
}
