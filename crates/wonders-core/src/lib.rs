//! # wonders-core
//!
//! A pure, deterministic rules engine for *7 Wonders* (Antoine Bauza; Repos Production): no IO,
//! no async, no global mutable state. A game is built from a [`Setup`] (edition, players, seed)
//! and driven by [`Game::submit`]; every player's legal actions, with every Pareto-minimal way to
//! pay, come from [`Game::legal_actions_into`]; [`Game::view`] gives what one seat may know.
//!
//! ```
//! use wonders_core::{Game, Setup};
//! let mut game = Game::new(&Setup::new(3, 7)).unwrap();
//! let mut actions = Vec::new();
//! while !game.is_over() {
//!     for seat in game.to_act() {
//!         game.legal_actions_into(seat, &mut actions);
//!         game.submit(seat, actions[0]).unwrap();
//!     }
//! }
//! assert_eq!(game.scores().len(), 3);
//! ```
//!
//! Rules follow the rulebooks in `shared/seeds` and the reference tables in `shared/reference`;
//! each module names the passages it implements.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod action;
pub mod armada;
pub mod card;
pub mod catalog;
pub mod city;
pub mod conflict;
pub mod edifice;
pub mod effect;
pub mod errors;
pub mod game;
pub mod hand;
pub mod limits;
pub mod log;
pub mod payment;
pub mod resources;
pub mod sample;
pub mod score;
pub mod seating;
pub mod shuffle;
pub mod state;
pub mod table;
pub mod teams;
pub mod tensor;
pub mod view;
pub mod wire;

pub use action::{Action, FreeBy, Naval, Payment, SecondPay, StageExtra};
pub use card::{CardDef, CardId, CardSet, Colour, NameId};
pub use catalog::{Catalog, CatalogError, Edition, Side, StageDef, UnknownName, WonderDef, WonderId};
pub use city::{City, CityEdifice, MilitaryTokens, Production, Source};
pub use edifice::{EdificeEvent, EdificeState, Expansions, Outcome, ProjectId};
pub use effect::{Counted, Effect, Science, Scope, Sides};
pub use game::{ActionError, Game, LogEntry, Phase, Played, Setup, SetupError, WonderDeal};
pub use resources::{Resource, ResourceSet, Resources};
pub use score::Score;
pub use view::{DataRef, View};
pub use wire::{Record, RecordError, WireAction, WireView};
