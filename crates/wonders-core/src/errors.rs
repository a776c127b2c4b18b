//! Why the engine refused something: a setup it cannot play ([`SetupError`]) or an action that
//! is not legal now ([`ActionError`]). Nothing changes when either is returned.

use crate::catalog::Edition;

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The player count is not supported.
    #[error("{0} players: the game plays with 3 to 7 (2 with the 1st edition's Free City, 8 with Armada)")]
    Players(u8),
    /// Chosen wonders are wrong.
    #[error("wonder choice: {0}")]
    Wonders(String),
    /// The expansions asked for cannot be played with this setup or data.
    #[error("expansions: {0}")]
    Expansion(String),
    /// The team variant needs 4, 6 or 8 players ([`crate::teams::check_players`]).
    #[error("teams: {0}")]
    Teams(String),
    /// The 2-player variant exists only in the 1st edition (edition-2e.md §1).
    #[error("the {0} edition has no 2-player rules: the Free City variant is 1st edition only")]
    TwoPlayers(Edition),
}

/// Why an action was refused. Nothing changes when an action is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// No such seat.
    #[error("there is no seat {0} in this game")]
    NoSuchSeat(usize),
    /// This seat is not to act now.
    #[error("seat {seat} is not to act now: {waiting}")]
    NotYourTurn {
        /// The seat.
        seat: usize,
        /// Who the game waits for.
        waiting: String,
    },
    /// This seat already chose this turn.
    #[error("seat {0} has already chosen this turn")]
    AlreadyChosen(usize),
    /// The action does not fit the current step.
    #[error("{0}")]
    WrongKind(String),
    /// The card is not in the seat's hand (or the discard pile).
    #[error("{card} is not {place}")]
    CardNotAvailable {
        /// The card's name.
        card: String,
        /// Where it was looked for.
        place: &'static str,
    },
    /// A structure of that name is already in the city.
    #[error("the city already has a {0} (no two structures of the same name)")]
    Duplicate(String),
    /// The wonder is complete.
    #[error("every stage of the wonder is already built")]
    WonderComplete,
    /// The payment is not one of the legal ways to pay.
    #[error("{what} cannot be paid that way; legal payments: {options}")]
    BadPayment {
        /// What was being built.
        what: String,
        /// The legal payments.
        options: String,
    },
    /// A rule of the 2-player variant forbids this action for the Free City.
    #[error("the Free City cannot do that: {0}")]
    FreeCity(String),
}
