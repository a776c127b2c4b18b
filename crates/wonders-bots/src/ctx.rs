//! What the heuristic's rules read ([`Ctx`]): a seat's view, or a sampled game seen from one seat
//! (a search's rollouts). Shared by the base rules ([`crate::heuristic`]) and the Armada terms
//! ([`crate::heuristic_armada`]), which both read it and neither owns it.

use crate::memo::Memo;
use wonders_core::armada::{ArmadaCity, ArmadaData, Shipyard};
use wonders_core::game::{left_of, right_of};
use wonders_core::{CardId, Catalog, City, EdificeState, Game, Phase, View};

/// What the rules read: a seat's view, or a sampled game seen from one seat (for rollouts).
pub(crate) struct Ctx<'a> {
    pub(crate) catalog: &'static Catalog,
    pub(crate) cities: &'a [City],
    pub(crate) seat: usize,
    /// The city the action is for.
    pub(crate) city: usize,
    pub(crate) free_city: Option<usize>,
    pub(crate) age: u8,
    pub(crate) turn: u8,
    pub(crate) phase: Phase,
    pub(crate) hand: &'a [CardId],
    /// Edifice: the projects' state, when played.
    pub(crate) edifice: Option<EdificeState>,
    /// The team variant (seats 2k and 2k+1 together).
    pub(crate) teams: bool,
    /// Armada: the data and the acting city's shipyard, when played.
    pub(crate) armada: Option<(&'static ArmadaData, Shipyard)>,
    /// Armada: every city's shipyard, islands and naval tokens (public; empty without Armada).
    pub(crate) armada_cities: &'a [ArmadaCity],
    /// Armada: use the first, flat valuation ([`crate::HeuristicBot::flat_naval`]).
    pub(crate) flat_naval: bool,
    /// Answers kept across decisions (a search's rollouts); `None` computes everything.
    pub(crate) memo: Option<&'a Memo>,
}

impl<'a> Ctx<'a> {
    /// From a seat's view.
    pub(crate) fn from_view(view: &'a View) -> Ctx<'a> {
        Ctx {
            catalog: view.data.0,
            cities: &view.cities,
            seat: view.seat as usize,
            city: view.acting_city as usize,
            free_city: view.free_city.map(|f| f as usize),
            age: view.age,
            turn: view.turn,
            phase: view.phase,
            hand: &view.hand,
            edifice: view.edifice,
            teams: view.teams,
            armada: view
                .armada
                .as_ref()
                .and_then(|a| Some((a.data, a.cities.get(view.acting_city as usize)?.shipyard))),
            armada_cities: view.armada.as_ref().map_or(&[], |a| &a.cities[..]),
            flat_naval: false,
            memo: None,
        }
    }

    /// From a game, for `seat` (only what that seat could know is read: its hand and the cities).
    pub(crate) fn from_game(game: &'a Game, seat: usize) -> Ctx<'a> {
        Ctx {
            catalog: game.catalog(),
            cities: game.cities(),
            seat,
            city: game.acting_city(seat),
            free_city: game.free_city(),
            age: game.age(),
            turn: game.turn(),
            phase: game.phase(),
            hand: game.hand(seat),
            edifice: game.edifice().copied(),
            teams: game.teams(),
            armada: game.armada().map(|a| (a.data, a.cities[game.acting_city(seat)].shipyard)),
            armada_cities: game.armada().map_or(&[], |a| &a.cities[..game.cities().len()]),
            flat_naval: false,
            memo: None,
        }
    }

    pub(crate) fn n(&self) -> usize {
        self.cities.len()
    }

    /// Choose turns of the current Age after this one.
    pub(crate) fn turns_left_in_age(&self) -> u32 {
        match self.phase {
            Phase::Choose | Phase::BuildFromDiscard { .. } => 6u32.saturating_sub(self.turn as u32),
            _ => 0,
        }
    }

    /// Turns of the whole game after this one.
    pub(crate) fn turns_left(&self) -> u32 {
        self.turns_left_in_age() + 6 * (3u32.saturating_sub(self.age as u32))
    }

    /// The seat that receives this hand after the turn, when the card taken out matters to it.
    /// In the team variant a teammate is no rival: nobody hate-drafts against it.
    pub(crate) fn next_player(&self) -> Option<usize> {
        if self.phase != Phase::Choose || self.turn >= 6 {
            return None;
        }
        let n = self.n();
        let next = match self.free_city {
            Some(_) => 1 - self.seat.min(1),
            None if self.age == 2 => right_of(self.seat, n),
            None => left_of(self.seat, n),
        };
        (!(self.teams && wonders_core::teams::same_team(next, self.seat))).then_some(next)
    }
}
