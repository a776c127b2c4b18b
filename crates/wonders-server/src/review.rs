//! `GET /api/tables/{id}/review?seat=N`: a finished game reviewed for one seat by the search
//! bot ([`wonders_bots::coach::review`], the same review as `wonders review`): each of the seat's
//! decisions with the bot's preferred move and the estimated loss, the seat's estimated chances
//! through the game, and its biggest mistakes.
//!
//! Who may ask: a player of the game (the `Authorization: Bearer` token of any of its seats),
//! for any seat. Once the game is over nothing is hidden any more (its record, every hand
//! included, is public), so a player may study an opponent's game as well as their own; the
//! token is asked for because a review costs seconds of computing, which the server spends for
//! the game's players only.
//!
//! A review is computed once, on a blocking thread, one at a time on the server (a second
//! request waits for the first; at a table, it then finds its answer if it asked the same), and
//! kept: the same question gets the same answer at once.

use crate::msg::ApiError;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use wonders_bots::coach;
use wonders_core::wire::{Record, WireAction};
use wonders_core::{Catalog, Game};

/// The reviews a server keeps: the most tables, after which the oldest are dropped.
const KEPT_TABLES: usize = 256;

/// The reviewed decisions of one seat.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ReviewMsg {
    /// The seat reviewed.
    pub seat: u8,
    /// The games the search bot sampled per move judged.
    pub samples: u32,
    /// The seat's decisions (its moves with a choice), in the order played.
    pub decisions: Vec<ReviewedDecision>,
    /// The seat's estimated chance of winning through the game: at the start (the first
    /// decision's preferred move), then after each move played; `decisions.len() + 1` points.
    pub chart: Vec<f64>,
    /// The biggest mistakes, at most 3, as positions in `decisions`, biggest first: moves that
    /// lost at least 5 points of winning chance.
    pub mistakes: Vec<usize>,
    /// The sum of the losses.
    pub total_loss: f64,
}

/// One decision of a [`ReviewMsg`].
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ReviewedDecision {
    /// The index of the move in the game's record.
    pub index: usize,
    /// The Age.
    pub age: u8,
    /// The turn (Babylon's last card and Halicarnassus' pick come after the Age's last turn).
    pub turn: u8,
    /// The wonder stage the city would build next (1 for the first), to name a wonder move.
    pub stage: u8,
    /// The move played.
    pub played: WireAction,
    /// The search bot's preferred move.
    pub best: WireAction,
    /// Whether the move played is the preferred one (the same kind and card).
    pub same: bool,
    /// The estimated chance of winning after the move played.
    pub win_chance: f64,
    /// The estimated chance of winning after the preferred move.
    pub best_win_chance: f64,
    /// `best_win_chance - win_chance`, at least 0.
    pub loss: f64,
    /// Whether the loss makes it a mistake (at least 5 points: [`coach::is_mistake`]), so that
    /// the page need not repeat the threshold.
    pub mistake: bool,
}

/// One table's reviews, per seat; locked while one of them is computed.
type TableReviews = Arc<Mutex<HashMap<u8, Arc<ReviewMsg>>>>;

/// The reviews computed, per table and seat, and the lock of each table's computing.
#[derive(Default)]
pub struct Reviews {
    tables: Mutex<Vec<(String, TableReviews)>>,
    /// Held while a review is computed: one at a time on the whole server, so reviews never take
    /// more than one core from the bots.
    computing: Mutex<()>,
}

impl Reviews {
    /// The review of `seat` in `record`, computed on the calling thread unless kept; one at a
    /// time.
    pub fn get(&self, id: &str, record: &Record, seat: u8, samples: u32) -> Result<Arc<ReviewMsg>, ApiError> {
        self.get_or_compute(id, seat, || review(record, seat, samples))
    }

    /// The review of `seat` at table `id`: the one kept, else `compute`'s, kept (an error is not
    /// kept). A second caller for the same table waits for the first and finds its answer.
    fn get_or_compute(
        &self,
        id: &str,
        seat: u8,
        compute: impl FnOnce() -> Result<ReviewMsg, ApiError>,
    ) -> Result<Arc<ReviewMsg>, ApiError> {
        let table = {
            let mut tables = self.tables.lock().unwrap_or_else(|p| p.into_inner());
            match tables.iter().find(|(t, _)| t == id) {
                Some((_, cell)) => cell.clone(),
                None => {
                    if tables.len() >= KEPT_TABLES {
                        tables.remove(0);
                    }
                    let cell = Arc::new(Mutex::new(HashMap::new()));
                    tables.push((id.to_string(), cell.clone()));
                    cell
                }
            }
        };
        let mut seats = table.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(kept) = seats.get(&seat) {
            return Ok(kept.clone());
        }
        let review = {
            let _one = self.computing.lock().unwrap_or_else(|p| p.into_inner());
            Arc::new(compute()?)
        };
        seats.insert(seat, review.clone());
        Ok(review)
    }
}

/// The review of `seat` in a finished game's `record`, each move judged on `samples` games.
pub fn review(record: &Record, seat: u8, samples: u32) -> Result<ReviewMsg, ApiError> {
    let decisions = coach::review(record, seat as usize, samples).map_err(|e| match e {
        coach::ReviewError::Seat { .. } => ApiError::BadRequest(e.to_string()),
        other => ApiError::Storage(format!("the game's record: {other}")),
    })?;
    let setup = record.setup().map_err(|e| ApiError::Storage(e.to_string()))?;
    let game = Game::new(&setup).map_err(|e| ApiError::Storage(e.to_string()))?;
    let catalog: &Catalog = game.catalog();
    let losses: Vec<f64> = decisions.iter().map(|d| d.loss).collect();
    let mut chart = Vec::with_capacity(decisions.len() + 1);
    chart.extend(decisions.first().map(|d| d.best_win_chance));
    chart.extend(decisions.iter().map(|d| d.win_chance));
    Ok(ReviewMsg {
        seat,
        samples,
        chart,
        mistakes: coach::biggest_mistakes(&losses, 3),
        total_loss: losses.iter().sum(),
        decisions: decisions
            .iter()
            .map(|d| ReviewedDecision {
                index: d.index,
                age: d.age,
                turn: d.turn,
                stage: d.stage_no,
                played: WireAction::from_action(catalog, &d.played),
                best: WireAction::from_action(catalog, &d.best),
                same: coach::same_choice(&d.played, &d.best),
                win_chance: d.win_chance,
                best_win_chance: d.best_win_chance,
                loss: d.loss,
                mistake: coach::is_mistake(d.loss),
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    fn msg(seat: u8) -> ReviewMsg {
        ReviewMsg { seat, samples: 1, decisions: vec![], chart: vec![0.5], mistakes: vec![], total_loss: 0.0 }
    }

    /// Eight requests at once for one seat's review: one computation, the same answer for all;
    /// another seat of the same table is computed once more; a failure is not kept.
    #[test]
    fn simultaneous_requests_compute_a_review_once() {
        let reviews = Reviews::default();
        let computed = AtomicUsize::new(0);
        let compute = |seat: u8| {
            computed.fetch_add(1, Ordering::SeqCst);
            // Long enough for every other request to arrive while this one computes.
            std::thread::sleep(Duration::from_millis(200));
            Ok(msg(seat))
        };
        let answers: Vec<Arc<ReviewMsg>> = std::thread::scope(|s| {
            let handles: Vec<_> =
                (0..8).map(|_| s.spawn(|| reviews.get_or_compute("t1", 2, || compute(2)).unwrap())).collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(computed.load(Ordering::SeqCst), 1, "one computation for eight requests");
        assert!(answers.iter().all(|a| Arc::ptr_eq(a, &answers[0])), "the same kept answer");
        assert_eq!(answers[0].seat, 2);

        let other = reviews.get_or_compute("t1", 3, || compute(3)).unwrap();
        assert_eq!((other.seat, computed.load(Ordering::SeqCst)), (3, 2), "another seat is its own review");

        let failed = reviews.get_or_compute("t2", 0, || Err(ApiError::Storage("lost".into())));
        assert!(failed.is_err());
        let again = reviews.get_or_compute("t2", 0, || compute(0)).unwrap();
        assert_eq!((again.seat, computed.load(Ordering::SeqCst)), (0, 3), "a failure is computed again");
    }
}
