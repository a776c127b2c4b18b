//! The score pad (`POST /api/score`): the score sheet of a physical game written down in the
//! table format that `wonders score` reads ([`wonders_core::table`]), scored by the core.

use crate::msg::ApiError;
use serde::{Deserialize, Serialize};
use wonders_core::score::Score;
use wonders_core::table::Table;

/// One line of the score pad's sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PadLine {
    /// The player's name as written in the table.
    pub name: String,
    /// Points by category and the total.
    #[serde(flatten)]
    pub score: Score,
    /// Coins (the tie-break).
    pub coins: u16,
    /// Place (1 = winner; shared places skip the next); `None` for the Free City.
    pub rank: Option<u8>,
}

/// The score pad's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PadSheet {
    /// `1e` or `2e`.
    pub edition: String,
    /// One line per entry of the table, in its order.
    pub players: Vec<PadLine>,
}

/// Scores a table JSON; a malformed or impossible table is a `BadRequest` naming the problem.
///
/// ```
/// let sheet = wonders_server::scorepad::score(r#"{"players": [
///   {"name": "Ann", "wonder": "Giza", "side": "A", "stages": 1, "coins": 6},
///   {"name": "Bob", "wonder": "Rhodes", "side": "A", "coins": 9},
///   {"name": "Cy", "wonder": "Babylon", "side": "A", "military": [1, -1]}]}"#).unwrap();
/// // Giza A stage 1: 3 points; 6 coins: 2 points.
/// assert_eq!((sheet.players[0].score.wonder, sheet.players[0].score.treasury), (3, 2));
/// assert_eq!(sheet.players[0].score.total, 5);
/// assert_eq!(sheet.players[0].rank, Some(1));
/// assert!(wonders_server::scorepad::score(r#"{"players": []}"#).is_err());
/// ```
pub fn score(text: &str) -> Result<PadSheet, ApiError> {
    let table = Table::from_json(text).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let ranks = table.ranks();
    let players = table
        .scores()
        .into_iter()
        .enumerate()
        .map(|(i, score)| PadLine {
            name: table.names().get(i).cloned().unwrap_or_default(),
            score,
            coins: table.cities()[i].coins,
            rank: ranks.get(i).copied().flatten(),
        })
        .collect();
    Ok(PadSheet { edition: table.edition().code().to_string(), players })
}
