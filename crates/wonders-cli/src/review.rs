//! `wonders review FILE --seat N`: a game record reviewed for one seat. At each of the seat's
//! decisions the search bot searches the position the seat saw (its view, nothing hidden) and
//! gives its preferred move; when the seat played another, each of the two is played in as many
//! fresh sampled games to estimate what the choice cost in winning chances. Then the seat's
//! estimated chance of winning through the game, drawn as a bar per decision.

use crate::output::emit;
use crate::play::{Screen, SeatNames, roman, say, wrap};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;
use wonders_bots::search::Budget;
use wonders_bots::{SearchBot, SearchConfig};
use wonders_core::{Action, Catalog, Game, Record, View};

/// One decision of the reviewed seat.
#[derive(Debug, Serialize, PartialEq)]
pub struct Decision {
    /// The Age and turn of the decision.
    pub age: u8,
    /// The turn (Babylon's last card and Halicarnassus' pick come after the Age's last turn).
    pub turn: u8,
    /// The move played, in words.
    pub played: String,
    /// The search bot's preferred move, in words.
    pub best: String,
    /// The estimated chance of winning after the move played.
    pub win_chance: f64,
    /// The estimated chance of winning after the preferred move.
    pub best_win_chance: f64,
    /// `best_win_chance - win_chance`, at least 0: what the choice cost.
    pub loss: f64,
}

/// Runs `wonders review FILE --seat N [--samples S] [--json]`.
pub fn run(path: &Path, seat: usize, samples: u32, json: bool) -> Result<(), String> {
    let text = crate::read_input(path)?;
    let record: Record =
        serde_json::from_str(&text).map_err(|e| format!("{} is not a game record: {e}", path.display()))?;
    record.replay().map_err(|e| format!("{} does not replay: {e}", path.display()))?;
    let decisions = review(&record, seat, samples)?;
    let mut out = std::io::stdout().lock();
    if json {
        let text = serde_json::to_string_pretty(&decisions).map_err(|e| e.to_string())?;
        return emit(&mut out, &format!("{text}\n"));
    }
    let setup = record.setup().map_err(|e| e.to_string())?;
    let game = Game::new(&setup).map_err(|e| e.to_string())?;
    let names = SeatNames::new(&game, Some(seat));
    emit(&mut out, &review_text(&decisions, names.get(seat), samples, &Screen::stdout(false)))
}

/// The seat's decisions reviewed, in the order played. Refuses a seat the game has not.
pub fn review(record: &Record, seat: usize, samples: u32) -> Result<Vec<Decision>, String> {
    let setup = record.setup().map_err(|e| e.to_string())?;
    let mut game = Game::new(&setup).map_err(|e| e.to_string())?;
    if seat >= game.players() {
        return Err(format!(
            "--seat {seat} is out of range: this game has seats 0 to {}",
            game.players() - 1
        ));
    }
    if samples == 0 {
        return Err("--samples must be at least 1".into());
    }
    let catalog = game.catalog();
    let config = SearchConfig { budget: Budget::Iterations(samples), ..SearchConfig::default() };
    let mut legal = Vec::new();
    let mut decisions = Vec::new();
    for (index, ra) in record.actions.iter().enumerate() {
        let s = ra.seat as usize;
        let action = ra.action.to_action_in(&game, s).map_err(|e| format!("action {index}: {e}"))?;
        if s == seat {
            game.legal_actions_into(seat, &mut legal);
            if legal.len() > 1 {
                let view = game.view(seat);
                decisions.push(judge(catalog, &view, &legal, action, config, index as u64));
            }
        }
        game.submit(s, action).map_err(|e| format!("action {index} (seat {s}): {e}"))?;
    }
    Ok(decisions)
}

/// Whether two moves are the same choice: the same kind with the same card (the way to pay
/// aside: the search compares one payment per card and kind).
fn same_choice(a: &Action, b: &Action) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b) && a.card() == b.card()
}

/// One decision: the search's preferred move, and the move played searched beside it.
fn judge(
    catalog: &Catalog,
    view: &View,
    legal: &[Action],
    played: Action,
    config: SearchConfig,
    salt: u64,
) -> Decision {
    let seed = 0x5245_5649_4557 ^ salt;
    let advice = SearchBot::new(config, seed).analyse(view, legal);
    let best = advice[0];
    let stage_no = view.cities.get(view.acting_city as usize).map_or(1, |c| c.stages + 1);
    let (win_chance, best_win_chance) = if same_choice(&best.action, &played) {
        (best.win_chance, best.win_chance)
    } else {
        // Each judged on its own, on the same number of fresh samples (the bandit of the search
        // gives the moves it does not prefer too few for a fair estimate).
        let mut judge = SearchBot::new(config, seed ^ 1);
        (judge.evaluate(view, played).win_chance, judge.evaluate(view, best.action).win_chance)
    };
    Decision {
        age: view.age,
        turn: view.turn,
        played: crate::play::advice_label(catalog, &played, stage_no),
        best: crate::play::advice_label(catalog, &best.action, stage_no),
        win_chance,
        best_win_chance,
        loss: (best_win_chance - win_chance).max(0.0),
    }
}

/// The review as text: a line per decision (where the search preferred another move, what it
/// preferred and the estimated loss), then the chance of winning as a bar per decision.
fn review_text(decisions: &[Decision], who: &str, samples: u32, screen: &Screen) -> String {
    let mut text = String::new();
    say!(text, "Review of {who}: {} decisions, {samples} sampled games each", decisions.len());
    let pct = |x: f64| format!("{:.0}%", 100.0 * x);
    let mut total = 0.0;
    for d in decisions {
        let when = format!("Age {} t{}", roman(d.age), d.turn);
        let line = if d.loss <= 0.0 || d.played == d.best {
            format!("  {when:<11} {} — wins {}", d.played, pct(d.win_chance))
        } else {
            format!(
                "  {when:<11} {} — wins {}; better: {} — wins {} (−{})",
                d.played,
                pct(d.win_chance),
                d.best,
                pct(d.best_win_chance),
                pct(d.loss)
            )
        };
        say!(text, "{}", wrap(&line, screen.width));
        total += d.loss;
    }
    say!(text, "Estimated chances lost in all: {}", pct(total));
    say!(text, "Your chance of winning after each decision (each █ is 5%):");
    for d in decisions {
        let cells = (d.win_chance * 20.0).round() as usize;
        let _ = writeln!(
            text,
            "  {:<11} {:>4} {}",
            format!("Age {} t{}", roman(d.age), d.turn),
            pct(d.win_chance),
            "█".repeat(cells)
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use wonders_bots::{Bot, HeuristicBot};
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
    fn every_decision_is_judged_against_the_search_bots_preferred_move() {
        let record = recorded(5);
        let decisions = review(&record, 1, 300).unwrap();
        // Seat 1's decisions with a choice: its 18 turns at 3 players (6 an Age; a hand of two
        // cards is still a choice), and its wonder's extra picks (Babylon's last card, a
        // Halicarnassus pick) when it has one; never more than its actions.
        let actions = record.actions.iter().filter(|a| a.seat == 1).count();
        assert!((18..=actions).contains(&decisions.len()), "{} of {actions}", decisions.len());
        for d in &decisions {
            assert!((0.0..=1.0).contains(&d.win_chance) && (0.0..=1.0).contains(&d.best_win_chance), "{d:?}");
            assert!(d.loss >= 0.0);
            assert!((d.loss - (d.best_win_chance - d.win_chance).max(0.0)).abs() < 1e-12);
            if d.played == d.best {
                assert_eq!(d.loss, 0.0, "{d:?}");
            }
        }
        // The same record, the same review.
        assert_eq!(review(&record, 1, 300).unwrap(), decisions);
        let text = review_text(&decisions, "seat 1", 300, &Screen::PLAIN);
        let head = format!("Review of seat 1: {} decisions, 300 sampled games each", decisions.len());
        assert!(text.starts_with(&head), "{text}");
        assert!(text.lines().all(|l| crate::output::display_width(l) <= 80), "{text}");
        assert_eq!(
            text.matches('█').count() - 1, // (the key's own █)
            decisions.iter().map(|d| (d.win_chance * 20.0).round() as usize).sum::<usize>()
        );
    }

    #[test]
    fn a_seat_the_game_has_not_is_refused() {
        let record = recorded(6);
        let e = review(&record, 3, 100).unwrap_err();
        assert!(e.contains("--seat 3 is out of range: this game has seats 0 to 2"), "{e}");
        assert!(review(&record, 0, 0).unwrap_err().contains("--samples"));
    }
}
