//! # wonders-bots
//!
//! Computer players for the [`wonders_core`] engine. A [`Bot`] sees exactly what a person at its
//! seat would see — the seat's [`View`] — plus the seat's legal actions, and picks one of them. It
//! never sees the [`Game`] itself, so it cannot peek at other hands or at the decks.
//!
//! [`play_out`] drives a whole game with one bot per seat; it allocates nothing per move once its
//! action buffer has grown, so it is fit for large simulations.
//!
//! ```
//! use wonders_bots::{play_out, RandomBot};
//! use wonders_core::{Game, Setup};
//!
//! let mut game = Game::new(&Setup::new(4, 2024)).unwrap();
//! let mut bots: Vec<RandomBot> = (0..4).map(RandomBot::new).collect();
//! let mut legal = Vec::new();
//! play_out(&mut game, &mut bots, &mut legal).unwrap();
//! assert!(game.is_over());
//! assert_eq!(game.scores().len(), 4);
//! ```
//!
//! To add a player, implement [`Bot`] in a module of its own and re-export it here.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod random;

pub use random::RandomBot;

use wonders_core::{Action, ActionError, Game, View};

/// A computer player.
///
/// The game calls [`Bot::choose`] each time the bot's seat must act: in every turn of an Age, for
/// Babylon's last card ([`wonders_core::Phase::PlayLastCard`]), for Halicarnassus' build from
/// the discard pile ([`wonders_core::Phase::BuildFromDiscard`]; `view.discard` then holds the
/// pile), for the 2nd edition's choice of a wonder side ([`wonders_core::Phase::ChooseSide`]) and,
/// in the 2-player variant, for the Free City (`view.acting_city` says which city the action is
/// for). `legal` is never empty and lists every legal action of the seat, each way to pay a
/// construction being a separate action; the bot must return one of them.
///
/// ```
/// use wonders_bots::Bot;
/// use wonders_core::{Action, View};
///
/// /// Always takes the first legal action.
/// struct First;
///
/// impl Bot for First {
///     fn choose(&mut self, _view: &View, legal: &[Action]) -> Action {
///         legal.first().copied().unwrap_or(Action::Pass)
///     }
///     fn name(&self) -> String {
///         "first".into()
///     }
/// }
///
/// let mut game = wonders_core::Game::new(&wonders_core::Setup::new(3, 1)).unwrap();
/// let mut bots = [First, First, First];
/// wonders_bots::play_out(&mut game, &mut bots, &mut Vec::new()).unwrap();
/// assert!(game.is_over());
/// ```
pub trait Bot {
    /// Picks one of `legal` for the seat `view` belongs to.
    fn choose(&mut self, view: &View, legal: &[Action]) -> Action;

    /// A short name for logs and reports, e.g. `random`.
    fn name(&self) -> String;
}

impl<B: Bot + ?Sized> Bot for Box<B> {
    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        (**self).choose(view, legal)
    }

    fn name(&self) -> String {
        (**self).name()
    }
}

impl<B: Bot + ?Sized> Bot for &mut B {
    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        (**self).choose(view, legal)
    }

    fn name(&self) -> String {
        (**self).name()
    }
}

/// Why [`play_out`] stopped before the end of the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// There is not exactly one bot per seat.
    #[error("{bots} bots for a game of {players} players")]
    Seats {
        /// Bots given.
        bots: usize,
        /// Players in the game.
        players: usize,
    },
    /// A bot chose an action the game refused.
    #[error("bot `{bot}` at seat {seat} chose an illegal action: {error}")]
    Illegal {
        /// The seat.
        seat: usize,
        /// The bot's name.
        bot: String,
        /// Why the game refused it.
        error: ActionError,
    },
}

/// Plays `game` to its end, asking `bots[seat]` each time `seat` must act.
///
/// `legal` is a scratch buffer for the legal actions, reused for every move: pass the same one to
/// successive calls and nothing is allocated per move (beyond what the bots and the engine do).
/// A game already over is left as it is.
///
/// ```
/// use wonders_bots::{play_out, Bot, RandomBot};
/// use wonders_core::{Game, Setup};
///
/// // Bots of different kinds, behind `Box<dyn Bot>`.
/// let mut bots: Vec<Box<dyn Bot>> = (0..3).map(|s| Box::new(RandomBot::new(s)) as Box<dyn Bot>).collect();
/// let mut game = Game::new(&Setup::new(3, 9)).unwrap();
/// play_out(&mut game, &mut bots, &mut Vec::new()).unwrap();
/// assert!(game.is_over());
/// ```
pub fn play_out<B: Bot>(game: &mut Game, bots: &mut [B], legal: &mut Vec<Action>) -> Result<(), PlayError> {
    if bots.len() != game.players() {
        return Err(PlayError::Seats { bots: bots.len(), players: game.players() });
    }
    // One view, refilled for each decision: nothing is allocated once its buffers have grown.
    let mut view = game.view(0);
    while !game.is_over() {
        for seat in game.to_act() {
            if !game.must_act(seat) {
                continue;
            }
            game.legal_actions_into(seat, legal);
            game.view_into(seat, &mut view);
            let action = bots[seat].choose(&view, legal);
            game.submit(seat, action).map_err(|error| PlayError::Illegal {
                seat,
                bot: bots[seat].name(),
                error,
            })?;
        }
    }
    Ok(())
}
