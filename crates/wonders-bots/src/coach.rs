//! Coaching a player with the search bot: a *hint* (the search's preferred moves for a decision,
//! each with its estimated chance of winning) and a *review* of a finished game for one seat
//! (each of its decisions beside the search's preferred move, what the choice cost, and the
//! seat's estimated chances through the game). The terminal (`wonders play --hints`,
//! `wonders review`) and the browser server both call these, so they give the same answers.
//!
//! Every figure is an estimate of the search bot: the share of games it samples from what the
//! seat could see (the other hands and the decks dealt at random) that the seat goes on to win,
//! each side played by the search's heuristic playouts.

use crate::search::Budget;
use crate::{Advice, SearchBot, SearchConfig};
use wonders_core::{Action, Game, Record, View};

/// The games a hint samples: a few tenths of a second on one core, the same answer for the same
/// position.
pub const HINT_SAMPLES: u32 = 2000;

/// The games a review samples per move judged in the browser: a seat's review of a 4-player game
/// takes about 1.5 s of one core (2 s at 7 players) in a release build (`wonders review` samples
/// [`HINT_SAMPLES`] unless told otherwise).
pub const REVIEW_SAMPLES: u32 = 500;

/// The search settings of a hint or a review: `samples` games per decision, one thread, every
/// other seat played by the heuristic (the fixed model, `search:…:fixed`: a hint or a review
/// judges one position on its own, without the record of the other seats' choices the adaptive
/// model learns from, so the same position gets the same answer).
pub fn config(samples: u32) -> SearchConfig {
    SearchConfig { budget: Budget::Iterations(samples), adaptive_opponents: false, ..SearchConfig::default() }
}

/// The seed of a hint for the seat of `view`: it depends on the seat, the Age and the turn only,
/// so the same position gives the same hint.
pub fn hint_seed(view: &View) -> u64 {
    0x4849_4E54 ^ (u64::from(view.age) << 8) ^ u64::from(view.turn) ^ (u64::from(view.seat) << 16)
}

/// A hint: the search bot's candidates for the seat of `view` after `samples` sampled games,
/// best first (the first is the move the search would play). A decision with one move worth
/// playing is not searched: its one [`Advice`] has no samples.
pub fn hint(view: &View, legal: &[Action], samples: u32) -> Vec<Advice> {
    SearchBot::new(config(samples), hint_seed(view)).analyse(view, legal)
}

/// One decision of the reviewed seat.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    /// The index of the move played in the record's actions.
    pub index: usize,
    /// The Age of the decision.
    pub age: u8,
    /// The turn (Babylon's last card and Halicarnassus' pick come after the Age's last turn).
    pub turn: u8,
    /// The wonder stage the acting city would build next (1 for the first), to name a wonder
    /// move.
    pub stage_no: u8,
    /// The move played.
    pub played: Action,
    /// The search bot's preferred move.
    pub best: Action,
    /// The estimated chance of winning after the move played.
    pub win_chance: f64,
    /// The estimated chance of winning after the preferred move.
    pub best_win_chance: f64,
    /// `best_win_chance - win_chance`, at least 0: what the choice cost.
    pub loss: f64,
}

/// Why a review cannot be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    /// The game has no such seat.
    #[error("seat {seat} is out of range: this game has seats 0 to {}", players - 1)]
    Seat {
        /// The seat asked for.
        seat: usize,
        /// The game's players.
        players: usize,
    },
    /// No samples to judge with.
    #[error("a review needs at least 1 sampled game per decision")]
    Samples,
    /// The record does not replay.
    #[error("the record does not replay: {0}")]
    Record(String),
}

/// The decisions of `seat` in `record`, in the order played, each judged on `samples` sampled
/// games: a decision is a move with a choice (more than one legal action). At each, the search
/// bot searches the position the seat saw (its view, nothing hidden) for its preferred move;
/// when the seat played another, each of the two is then played in as many fresh sampled games
/// (the search's bandit gives a move it does not prefer too few samples for a fair estimate).
/// The same record gives the same review.
pub fn review(record: &Record, seat: usize, samples: u32) -> Result<Vec<Decision>, ReviewError> {
    let setup = record.setup().map_err(|e| ReviewError::Record(e.to_string()))?;
    let mut game = Game::new(&setup).map_err(|e| ReviewError::Record(e.to_string()))?;
    if seat >= game.players() {
        return Err(ReviewError::Seat { seat, players: game.players() });
    }
    if samples == 0 {
        return Err(ReviewError::Samples);
    }
    let config = config(samples);
    let mut legal = Vec::new();
    let mut decisions = Vec::new();
    for (index, ra) in record.actions.iter().enumerate() {
        let s = ra.seat as usize;
        let action = ra
            .action
            .to_action_in(&game, s)
            .map_err(|e| ReviewError::Record(format!("action {index}: {e}")))?;
        if s == seat {
            game.legal_actions_into(seat, &mut legal);
            if legal.len() > 1 {
                decisions.push(judge(&game.view(seat), &legal, action, config, index));
            }
        }
        game.submit(s, action).map_err(|e| ReviewError::Record(format!("action {index} (seat {s}): {e}")))?;
    }
    Ok(decisions)
}

/// Whether two moves are the same choice: the same kind with the same card (the way to pay
/// aside: the search compares one payment per card and kind).
pub fn same_choice(a: &Action, b: &Action) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b) && a.card() == b.card()
}

/// One decision: the search's preferred move, and the move played searched beside it.
fn judge(view: &View, legal: &[Action], played: Action, config: SearchConfig, index: usize) -> Decision {
    let seed = 0x5245_5649_4557 ^ index as u64;
    let advice = SearchBot::new(config, seed).analyse(view, legal);
    let best = advice[0];
    let stage_no = view.cities.get(view.acting_city as usize).map_or(1, |c| c.stages + 1);
    // A move judged on its own samples. When the two moves differ, both are judged on the same
    // sampled deals (a bot of the same seed for each, so each one's k-th sample is the same
    // deal): the loss is the moves' difference, not the luck of their deals.
    let judge = |a: Action| SearchBot::new(config, seed ^ 1).evaluate(view, a).win_chance;
    let (win_chance, best_win_chance) = if same_choice(&best.action, &played) && best.visits > 0 {
        (best.win_chance, best.win_chance)
    } else if same_choice(&best.action, &played) {
        // One move worth playing (not searched): its chances judged on their own.
        let w = judge(played);
        (w, w)
    } else {
        (judge(played), judge(best.action))
    };
    Decision {
        index,
        age: view.age,
        turn: view.turn,
        stage_no,
        played,
        best: best.action,
        win_chance,
        best_win_chance,
        loss: (best_win_chance - win_chance).max(0.0),
    }
}

/// The least loss that counts as a mistake: 5 points of winning chance.
pub const MISTAKE: f64 = 0.05;

/// Whether a decision that lost `loss` of winning chance is a mistake: at least [`MISTAKE`], a
/// difference that comes out within 1e-9 under it in floating point included (see
/// [`biggest_mistakes`]).
///
/// ```
/// use wonders_bots::coach::is_mistake;
/// assert!(is_mistake(0.30 - 0.25) && !is_mistake(0.049));
/// ```
pub fn is_mistake(loss: f64) -> bool {
    loss >= MISTAKE - 1e-9
}

/// The biggest mistakes of a review, at most `n`, from each decision's loss: the positions of
/// those that lost at least [`MISTAKE`], the biggest loss first (the earlier of equal ones first).
///
/// A loss is a difference of two chances, and a difference of exactly 5 points may come out a
/// hair under it in floating point (0.30 − 0.25 is 0.04999999999999999): losses within 1e-9 of
/// [`MISTAKE`] count.
pub fn biggest_mistakes(losses: &[f64], n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..losses.len()).filter(|&i| is_mistake(losses[i])).collect();
    order.sort_by(|&a, &b| losses[b].total_cmp(&losses[a]).then(a.cmp(&b)));
    order.truncate(n);
    order
}

/// The seat's estimated chances through the game as a sparkline, one character a decision from
/// each decision's chance after the move played: `▁` under 12.5%, then a step each eighth, up to
/// `█` from 87.5%.
pub fn sparkline(win_chances: &[f64]) -> String {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    win_chances.iter().map(|w| BARS[((w * 8.0).floor().max(0.0) as usize).min(7)]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bot, HeuristicBot};
    use wonders_core::Setup;

    /// A whole 3-player game recorded with the heuristic bot at every seat.
    fn recorded(seed: u64) -> Record {
        let setup = Setup::new(3, seed);
        let mut game = Game::new(&setup).unwrap();
        let mut record = Record::new(&setup, game.catalog());
        let mut bots: Vec<HeuristicBot> = (0..3).map(|_| HeuristicBot::new()).collect();
        let mut legal = Vec::new();
        while !game.is_over() {
            for s in game.to_act() {
                if !game.must_act(s) {
                    continue;
                }
                game.legal_actions_into(s, &mut legal);
                let a = bots[s].choose(&game.view(s), &legal);
                record.push(game.catalog(), s, &a);
                game.submit(s, a).unwrap();
            }
        }
        record.scores = Some(game.scores());
        record
    }

    #[test]
    fn a_review_judges_each_decision_of_the_seat_where_it_had_a_choice() {
        let record = recorded(5);
        let decisions = review(&record, 2, 100).unwrap();
        // Replaying the record: the seat's moves with more than one legal action.
        let setup = record.setup().unwrap();
        let mut game = Game::new(&setup).unwrap();
        let mut expected = Vec::new();
        for (i, ra) in record.actions.iter().enumerate() {
            let a = ra.action.to_action_in(&game, ra.seat as usize).unwrap();
            if ra.seat == 2 && game.legal_actions(2).len() > 1 {
                expected.push((i, a));
            }
            game.submit(ra.seat as usize, a).unwrap();
        }
        assert_eq!(decisions.iter().map(|d| (d.index, d.played)).collect::<Vec<_>>(), expected);
        for d in &decisions {
            assert_eq!(d.loss, (d.best_win_chance - d.win_chance).max(0.0), "{d:?}");
            if same_choice(&d.played, &d.best) {
                assert_eq!(d.loss, 0.0, "{d:?}");
            }
        }
        assert_eq!(review(&record, 2, 100).unwrap(), decisions);
        assert_eq!(review(&record, 3, 100), Err(ReviewError::Seat { seat: 3, players: 3 }));
        assert_eq!(
            ReviewError::Seat { seat: 3, players: 3 }.to_string(),
            "seat 3 is out of range: this game has seats 0 to 2"
        );
        assert_eq!(review(&record, 0, 0), Err(ReviewError::Samples));
    }

    #[test]
    fn the_same_position_gives_the_same_hint_and_its_first_move_is_the_bots_choice() {
        let game = Game::new(&Setup::new(4, 3)).unwrap();
        let legal = game.legal_actions(1);
        let view = game.view(1);
        let a = hint(&view, &legal, 200);
        assert_eq!(a, hint(&view, &legal, 200));
        assert_eq!(a.iter().map(|x| x.visits).sum::<u32>(), 200);
        let chosen = SearchBot::new(config(200), hint_seed(&view)).choose(&view, &legal);
        assert_eq!(a[0].action, chosen);
        assert_eq!(hint_seed(&view), 0x4849_4E54 ^ (1 << 8) ^ 1 ^ (1 << 16));
    }

    #[test]
    fn the_biggest_mistakes_are_the_largest_losses_of_five_points_or_more() {
        let losses = [0.0, 0.10, 0.04, 0.25, 0.10];
        assert_eq!(biggest_mistakes(&losses, 3), vec![3, 1, 4]);
        assert_eq!(biggest_mistakes(&losses, 1), vec![3]);
        assert_eq!(biggest_mistakes(&losses[..3], 3), vec![1]);
        // Exactly 5 points, as a subtraction of two chances gives it.
        let five = 0.30 - 0.25;
        assert!(five < MISTAKE);
        assert_eq!(biggest_mistakes(&[0.0, five, 0.049], 3), vec![1]);
    }

    #[test]
    fn the_sparkline_has_a_bar_a_decision_by_eighths() {
        assert_eq!(sparkline(&[0.0, 0.124, 0.125, 0.5, 0.9, 1.0]), "▁▁▂▅██");
    }
}
