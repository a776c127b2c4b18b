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
use wonders_bots::coach;
use wonders_core::{Catalog, Game, Record};

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

/// The seat's decisions reviewed, in the order played ([`wonders_bots::coach::review`], each
/// move named in words). Refuses a seat the game has not.
pub fn review(record: &Record, seat: usize, samples: u32) -> Result<Vec<Decision>, String> {
    let decisions = coach::review(record, seat, samples).map_err(|e| match e {
        coach::ReviewError::Seat { seat, players } => {
            format!("--seat {seat} is out of range: this game has seats 0 to {}", players - 1)
        }
        coach::ReviewError::Samples => "--samples must be at least 1".into(),
        other => other.to_string(),
    })?;
    let setup = record.setup().map_err(|e| e.to_string())?;
    let game = Game::new(&setup).map_err(|e| e.to_string())?;
    let catalog = game.catalog();
    Ok(decisions.iter().map(|d| words(catalog, d)).collect())
}

/// A reviewed decision with its moves named.
fn words(catalog: &Catalog, d: &coach::Decision) -> Decision {
    Decision {
        age: d.age,
        turn: d.turn,
        played: crate::play::advice_label(catalog, &d.played, d.stage_no),
        best: crate::play::advice_label(catalog, &d.best, d.stage_no),
        win_chance: d.win_chance,
        best_win_chance: d.best_win_chance,
        loss: d.loss,
    }
}

/// The review as text: a line per decision (where the search preferred another move, what it
/// preferred and the estimated loss), then the chance of winning as a bar per decision.
fn review_text(decisions: &[Decision], who: &str, samples: u32, screen: &Screen) -> String {
    let mut text = String::new();
    say!(text, "Review of {who}: {} decisions, {samples} sampled games each", decisions.len());
    let pct = |x: f64| format!("{:.0}%", 100.0 * x);
    let (mut total, mut unhurt) = (0.0, 0);
    for d in decisions {
        let when = format!("Age {} t{}", roman(d.age), d.turn);
        let no_loss = d.loss <= 0.0 || d.played == d.best;
        unhurt += usize::from(no_loss);
        let line = if no_loss {
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
    // The losses' mean, not their sum: each is an estimate of its own decision, and a sum of
    // them can pass 100%.
    say!(
        text,
        "No loss at {unhurt} of {} decisions; mean loss a decision: {}",
        decisions.len(),
        pct(if decisions.is_empty() { 0.0 } else { total / decisions.len() as f64 })
    );
    // The biggest mistakes (at least 5 points each), marked on both charts.
    let losses: Vec<f64> = decisions.iter().map(|d| d.loss).collect();
    let mistakes = coach::biggest_mistakes(&losses, 3);
    let chances: Vec<f64> = decisions.iter().map(|d| d.win_chance).collect();
    let spark: Vec<char> = coach::sparkline(&chances).chars().collect();
    let marks: Vec<char> =
        (0..decisions.len()).map(|i| if mistakes.contains(&i) { '^' } else { ' ' }).collect();
    const LEAD: &str = "Chances through the game: ";
    let room = screen.width.saturating_sub(LEAD.len()).max(10);
    for (k, (line, under)) in spark.chunks(room).zip(marks.chunks(room)).enumerate() {
        let lead = if k == 0 { LEAD } else { "" };
        say!(text, "{lead:>26}{}", line.iter().collect::<String>());
        let under: String = under.iter().collect();
        if !under.trim().is_empty() {
            say!(text, "{:26}{}", "", under.trim_end());
        }
    }
    if !mistakes.is_empty() {
        say!(text, "{:26}^ the biggest mistakes (at least 5% lost)", "");
    }
    say!(text, "Your chance of winning after each decision (each █ is 5%):");
    for (i, d) in decisions.iter().enumerate() {
        let cells = (d.win_chance * 20.0).round() as usize;
        let mark = if mistakes.contains(&i) { format!(" ◀ −{}", pct(d.loss)) } else { String::new() };
        let _ = writeln!(
            text,
            "  {:<11} {:>4} {}{mark}",
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
    fn the_chances_are_drawn_as_a_sparkline_with_the_biggest_mistakes_marked() {
        let d = |age, turn, win_chance: f64, loss: f64| Decision {
            age,
            turn,
            played: "discard Baths".into(),
            best: if loss > 0.0 { "build Baths (free)".into() } else { "discard Baths".into() },
            win_chance,
            best_win_chance: win_chance + loss,
            loss,
        };
        let decisions = [
            d(1, 1, 0.30, 0.0),
            d(1, 2, 0.20, 0.10),
            d(1, 3, 0.45, 0.02),
            d(2, 1, 0.60, 0.0),
            d(2, 2, 0.10, 0.40),
            d(3, 1, 0.95, 0.06),
            d(3, 2, 1.00, 0.07),
        ];
        let text = review_text(&decisions, "Ada", 300, &Screen::PLAIN);
        let lines: Vec<&str> = text.lines().collect();
        let at = lines.iter().position(|l| l.starts_with("Chances through the game: ")).expect(&text);
        // Above it: the decisions that lost nothing (2 of 7) and the losses' mean, 65% / 7 = 9%
        // (their sum is no chance: it can pass 100%).
        assert_eq!(lines[at - 1], "No loss at 2 of 7 decisions; mean loss a decision: 9%");
        // A bar an eighth: 30% ▃, 20% ▂, 45% ▄, 60% ▅, 10% ▁, 95% █, 100% █.
        assert_eq!(lines[at], "Chances through the game: ▃▂▄▅▁██");
        // The three biggest losses of 5% or more: 40% (t5), 10% (t2), 7% (t7); 6% is the fourth.
        assert_eq!(lines[at + 1], format!("{:26} ^  ^ ^", ""));
        assert_eq!(lines[at + 2], format!("{:26}^ the biggest mistakes (at least 5% lost)", ""));
        let bars: Vec<&str> = lines[at + 4..].to_vec();
        assert_eq!(bars.len(), 7, "{text}");
        assert_eq!(bars[1], "  Age I t2     20% ████ ◀ −10%");
        assert_eq!(bars[4], "  Age II t2    10% ██ ◀ −40%");
        assert_eq!(bars[5], "  Age III t1   95% ███████████████████");
        assert_eq!(bars[6], "  Age III t2  100% ████████████████████ ◀ −7%");
        assert!(lines.iter().all(|l| crate::output::display_width(l) <= 80), "{text}");
        // No mistakes: no marks.
        let text = review_text(&decisions[..1], "Ada", 300, &Screen::PLAIN);
        assert!(text.contains("Chances through the game: ▃\n") && !text.contains('^'), "{text}");
    }

    #[test]
    fn a_seat_the_game_has_not_is_refused() {
        let record = recorded(6);
        let e = review(&record, 3, 100).unwrap_err();
        assert!(e.contains("--seat 3 is out of range: this game has seats 0 to 2"), "{e}");
        assert!(review(&record, 0, 0).unwrap_err().contains("--samples"));
    }
}
