//! Playing actions: submitting ([`Game::submit`], [`Game::submit_trusted`]) and taking back
//! ([`Game::retract`]) a choice, and resolving a turn once every city has chosen. The order of a
//! resolution (base-1e.md §4): 1. payments leave the treasuries and cards leave the hands; 2.
//! every card is placed; 2½. Edifice's pawns and project ([`crate::edifice::after_placement`]);
//! 2¾. Armada's ships, spaces and islands ([`crate::armada::turn::after_placement`]); 3. the
//! immediate effects pay out, seeing every card placed this turn; 4. coins received reach the
//! treasuries; then the step's log. The one-city steps (Babylon's last card, Halicarnassus'
//! build from the discard pile, Edifice's penalty, Armada's explorations, island moves and
//! Forgotten Port) are played here too; what comes next is decided by `Game::advance` (`age_end.rs`).

use super::{
    ActionError, DISCARD_COINS, Game, LogEntry, MAX_PLAYERS, Phase, Played, count, left_of, right_of,
};
use crate::action::{Action, FreeBy, Payment};
use crate::armada;
use crate::card::CardId;
use crate::city::City;
use crate::edifice;
use crate::effect::{Effect, Scope};
use arrayvec::ArrayVec;

impl Game {
    /// Submits `seat`'s action. In the simultaneous steps the turn resolves once every seat has
    /// chosen. An illegal action is refused with the reason, and nothing changes.
    pub fn submit(&mut self, seat: usize, action: Action) -> Result<(), ActionError> {
        self.check(seat, &action)?;
        self.apply(seat, action);
        Ok(())
    }

    /// Submits an action taken from the list [`Game::legal_actions_into`] gave for `seat` in this
    /// very state, without checking it again (the check solves the payment a second time): the
    /// fast path of simulations and searches. The caller vouches for the action; one from
    /// anywhere else may leave the game inconsistent (never unsound: there is no `unsafe`).
    /// Debug builds still check it and panic on an illegal one.
    ///
    /// ```
    /// use wonders_core::{Game, Setup};
    /// let mut game = Game::new(&Setup::new(3, 4)).unwrap();
    /// let mut legal = Vec::new();
    /// for seat in game.to_act() {
    ///     game.legal_actions_into(seat, &mut legal);
    ///     game.submit_trusted(seat, legal[0]);
    /// }
    /// assert_eq!(game.turn(), 2);
    /// ```
    pub fn submit_trusted(&mut self, seat: usize, action: Action) {
        debug_assert_eq!(self.check(seat, &action), Ok(()), "submit_trusted: {action:?} by seat {seat}");
        self.apply(seat, action);
    }

    /// Takes back `seat`'s last choice of the current simultaneous step (a card and action, a
    /// wonder side, or, for the holder of the Free City card, the Free City's action first),
    /// and returns it. A chosen card lies face down until every player has chosen, then all are
    /// played at once (002 遊戲回合 1「打出一張手牌」; 004 2「每位玩家都選擇了一張卡牌之後，同時將其
    /// 打出」), so until then the choice is not yet played; once the step has resolved it can no
    /// longer be taken back. Nothing changes on an error.
    pub fn retract(&mut self, seat: usize) -> Result<Action, ActionError> {
        if self.phase == Phase::Over {
            return Err(ActionError::GameOver);
        }
        if seat >= self.players() {
            return Err(ActionError::NoSuchSeat(seat));
        }
        if !matches!(self.phase, Phase::Choose | Phase::ChooseSide) {
            return Err(ActionError::WrongKind(format!(
                "nothing to take back: {} (a one-city step resolves at once)",
                self.waiting_text()
            )));
        }
        // The holder's Free City choice is its latest one, so it goes first.
        let city = match self.free_city {
            Some(f)
                if self.phase == Phase::Choose
                    && seat == self.holder as usize
                    && self.chosen[f as usize].is_some() =>
            {
                f as usize
            }
            _ => seat,
        };
        self.chosen[city].take().ok_or_else(|| {
            ActionError::WrongKind(format!(
                "seat {seat} has nothing to take back: it has not chosen this turn"
            ))
        })
    }

    /// Plays an action already checked.
    fn apply(&mut self, seat: usize, action: Action) {
        let n = self.n();
        match self.phase {
            Phase::ChooseSide => {
                self.chosen[seat] = Some(action);
                if self.chosen[..self.players()].iter().all(|c| c.is_some()) {
                    self.clear_log();
                    for s in 0..self.players() {
                        if let Some(Action::ChooseSide { side }) = self.chosen[s].take() {
                            let coins = self.cities[s].coins;
                            self.cities[s] = City::new(self.catalog, self.cities[s].wonder, side);
                            self.cities[s].coins = coins;
                            self.record(LogEntry {
                                age: 1,
                                turn: 0,
                                seat: s as u8,
                                played: Played::ChoseSide(side),
                                pay: Payment::default(),
                                income: 0,
                            });
                        }
                    }
                    self.phase = Phase::Choose;
                    self.begin_turn();
                }
            }
            Phase::Choose => {
                let city = self.acting_city(seat);
                self.chosen[city] = Some(action);
                if self.chosen[..n].iter().all(|c| c.is_some()) {
                    for c in 0..n {
                        self.sale_at_turn_start[c] = self.cities[c].for_sale;
                    }
                    let mut acts: ArrayVec<(usize, usize, Action), MAX_PLAYERS> = ArrayVec::new();
                    for c in 0..n {
                        if let Some(a) = self.chosen[c].take() {
                            let hand_owner =
                                if Some(c as u8) == self.free_city { self.holder as usize } else { c };
                            acts.push((c, hand_owner, a));
                        }
                    }
                    self.controller = self.holder;
                    self.resolve(&acts);
                    if self.turn >= self.last_turn {
                        self.age_ending = true;
                    } else {
                        self.pass_due = true;
                    }
                    self.advance();
                }
            }
            Phase::PlayLastCard { city } => {
                self.resolve(&[(city as usize, seat, action)]);
                self.advance();
            }
            Phase::BuildFromDiscard { city } => {
                let city = city as usize;
                self.picks[city] -= 1;
                self.clear_log();
                let (played, income, free_move) = match action {
                    Action::BuildDiscarded { card, free_move } => {
                        if let Some(i) = self.discard.iter().position(|&c| c == card) {
                            self.discard.remove(i);
                        }
                        self.cities[city].place(self.catalog, card);
                        let coins = self.build_coins(city, card);
                        self.cities[city].coins += coins;
                        (Played::BuiltDiscarded(card), coins, free_move)
                    }
                    _ => (Played::Passed, 0, None),
                };
                self.record(LogEntry {
                    age: self.age,
                    turn: self.turn,
                    seat: city as u8,
                    played,
                    pay: Payment::default(),
                    income,
                });
                if let Played::BuiltDiscarded(card) = played {
                    armada::turn::built_from_discard(self, city, card, free_move);
                }
                self.advance();
            }
            Phase::EdificeDiscard { city } => {
                if let Action::DiscardBuilt { card } = action {
                    self.clear_log();
                    edifice::discard_built(self, city as usize, card);
                }
                self.advance();
            }
            Phase::Explore { city } => {
                self.clear_log();
                if let Action::ChooseIsland { island, moves } = action {
                    armada::turn::keep_island(self, city as usize, island, moves);
                }
                self.advance();
            }
            Phase::IslandMoves { city } => {
                self.clear_log();
                if let Action::ChooseIsland { moves, .. } = action {
                    armada::turn::make_island_moves(self, city as usize, moves);
                }
                self.advance();
            }
            Phase::NavalOptOut { city } => {
                self.clear_log();
                if let Action::StayOutOfNaval { stay_out } = action {
                    armada::turn::decide_naval(self, city as usize, stay_out);
                }
                self.advance();
            }
            Phase::Over => {}
        }
    }

    /// Resolves simultaneous actions (already checked), each as (city, seat whose hand holds
    /// the card, action).
    fn resolve(&mut self, acts: &[(usize, usize, Action)]) {
        let n = self.n();
        let mut income = [0u16; MAX_PLAYERS];
        self.clear_log();
        let turn =
            if matches!(self.phase, Phase::PlayLastCard { .. }) { self.last_turn + 1 } else { self.turn };
        // 1. Payments leave the treasuries; cards leave the hands (and each seat remembers the
        // cards it used).
        for &(city, hand_owner, action) in acts {
            if let Some(card) = action.card()
                && self.hands[hand_owner].take(card)
            {
                let _ = self.used[hand_owner][turn as usize - 1].try_push(card);
            }
            if let Some(pay) = action.payment() {
                self.cities[city].coins -= pay.total();
                income[left_of(city, n)] += pay.left as u16;
                income[right_of(city, n)] += pay.right as u16;
                // Armada: coins to the 2nd players (trading zones; crate::armada::trade).
                armada::trade::pay_second(city, n, &pay, &mut income);
                if pay.free == Some(FreeBy::FreeBuild) {
                    self.cities[city].free_build_used = true;
                }
            }
        }
        // 2. Every card is placed.
        for &(city, _, action) in acts {
            match action {
                Action::Build { card, .. } => self.cities[city].place(self.catalog, card),
                Action::Wonder { extra, .. } => {
                    self.cities[city].build_stage_choosing(self.catalog, extra.alternative());
                    if self.stage_effects(city).iter().any(|e| matches!(e, Effect::BuildFromDiscard)) {
                        self.picks[city] += 1;
                    }
                }
                Action::Discard { card } => {
                    self.discard.push(card);
                    income[city] += DISCARD_COINS;
                }
                // Armada: a free yellow move instead of the coins (armada.md §2.4).
                Action::DiscardYellow { card } => self.discard.push(card),
                Action::BuildDiscarded { .. }
                | Action::Pass
                | Action::ChooseSide { .. }
                | Action::DiscardBuilt { .. }
                | Action::ChooseIsland { .. }
                | Action::StayOutOfNaval { .. } => {}
            }
        }
        // 2½. Edifice: pawns and the completion of the Age's project (crate::edifice).
        let edifice_log = if self.edifice.is_some() {
            edifice::after_placement(self, acts, turn, &mut income)
        } else {
            ArrayVec::new()
        };
        // 2¾. Armada: the ships move, the spaces reached pay out, free moves, islands from the
        // green cards; taxes and piracies are noted for step 6 (crate::armada::turn).
        let mut armada_log = armada::log::Events::new();
        if self.armada.is_some() {
            armada::turn::after_placement(self, acts, turn, &mut income, &mut armada_log);
        }
        // 3. Immediate effects, seeing every card placed this turn.
        for &(city, _, action) in acts {
            match action {
                Action::Build { card, .. } if self.catalog.hot(card).gives_coins => {
                    income[city] += self.build_coins(city, card)
                }
                Action::Wonder { .. } => {
                    for e in self.stage_effects(city) {
                        if let Effect::Coins(c) = e {
                            income[city] += *c as u16;
                        }
                    }
                }
                _ => {}
            }
        }
        // 4. Coins received reach the treasuries.
        for (city, coins) in self.cities[..n].iter_mut().zip(income) {
            city.coins += coins;
        }
        for &(city, _, action) in acts {
            let played = match action {
                Action::Build { card, .. } => Played::Built(card),
                Action::Wonder { .. } => Played::Stage(self.cities[city].stages),
                _ => Played::Discarded,
            };
            self.record(LogEntry {
                age: self.age,
                turn,
                seat: city as u8,
                played,
                pay: action.payment().unwrap_or_default(),
                income: income[city],
            });
        }
        for entry in &edifice_log {
            self.record(*entry);
        }
        armada::turn::record(self, &armada_log);
    }

    /// The effects of the stage `city` built last.
    fn stage_effects(&self, city: usize) -> &'static [Effect] {
        let c = &self.cities[city];
        match c.stages.checked_sub(1) {
            Some(i) => c.stage_effects(self.catalog, i as usize),
            None => &[],
        }
    }

    /// Coins a card gives once, when built (Tavern, Vineyard, Bazar, Haven, …): the effects of
    /// [`Effect::gives_coins_when_built`].
    fn build_coins(&self, city: usize, card: CardId) -> u16 {
        let mut coins = 0u32;
        for e in &self.catalog.card(card).effects {
            coins += match *e {
                Effect::Coins(c) => c as u32,
                Effect::CoinsPer { what, scope, coins } => {
                    count(self.cities(), city, what, scope) * coins as u32
                }
                Effect::CoinsAndPointsPer { what, coins, .. } => {
                    count(self.cities(), city, what, Scope { own: true, neighbours: false }) * coins as u32
                }
                _ => 0,
            };
        }
        coins as u16
    }
}
