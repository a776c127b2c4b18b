//! After a resolution, the steps that follow, up to the end of an Age: Armada's island moves,
//! explorations and coin losses ([`crate::armada::turn`]), Babylon's last card, the Age's last
//! cards discarded, Halicarnassus' build from the discard pile, the hands passed; then the end
//! of the Age: Edifice's failed project ([`crate::edifice::age_end`]), Forgotten Port's choice,
//! the land conflicts ([`crate::conflict`]), Armada's incursions and naval conflict, and the next
//! Age or the end of the game, with its scores and ranks ([`crate::score`], [`crate::teams`]).

use super::{Game, Phase, left_of, right_of};
use crate::armada;
use crate::conflict;
use crate::edifice;
use crate::score::{self, Score};
use crate::teams;

impl Game {
    /// Moves on to the next step that needs a decision.
    pub(super) fn advance(&mut self) {
        let n = self.n();
        let seats = self.players();
        loop {
            // Armada, the end of step 3: White-Surf's and Tempest's moves from a green card wait
            // for their owner's choice of ships (000 符號說明).
            if self.armada.is_some() && armada::turn::moves_choice(self) {
                return;
            }
            // Armada, step 4 of the turn: explorations (armada.md §2.6).
            if self.armada.is_some() && armada::turn::explorations(self) {
                return;
            }
            // Armada, step 6 of the turn: coin losses, once the builds from the discard pile
            // of the turn are done (armada.md §2.4).
            if self.picks[..n].iter().all(|&p| p == 0) && armada::turn::losses_due(self) {
                armada::turn::coin_losses(self);
            }
            if self.age_ending {
                // Babylon B's last card; the Free City has no hand of its own and never plays it.
                if let Some(seat) =
                    (0..seats).find(|&s| self.cities[s].plays_last_card && !self.hands[s].is_empty())
                {
                    self.phase = Phase::PlayLastCard { city: seat as u8 };
                    return;
                }
                // The last cards are discarded, without coins (002 特殊情况：第六個回合), with
                // the Free City's last drawable card (002 2人變體規則 注意).
                for c in 0..n {
                    let hand = std::mem::take(&mut self.hands[c]);
                    self.discard.extend(hand);
                }
                self.age_ending = false;
                self.age_end_due = true;
            }
            if let Some(city) = (0..n).find(|&c| self.picks[c] > 0) {
                let c = &self.cities[city];
                if self.discard.iter().any(|&card| !c.has_name(self.catalog, card)) {
                    self.phase = Phase::BuildFromDiscard { city: city as u8 };
                    return;
                }
                // Nothing to build: the effect is lost (base-1e.md §4.4).
                self.picks[city] = 0;
                continue;
            }
            if self.pass_due {
                self.pass_due = false;
                self.pass_hands();
                self.turn += 1;
                self.begin_turn();
            }
            if self.age_end_due {
                // Edifice: the Age's project fails before military conflicts (001 B.); a player
                // may first have to choose a card to discard.
                if self.edifice.is_some() && edifice::age_end(self) {
                    return;
                }
                // Armada: Forgotten Port's holders choose whether to take part in the naval
                // conflict (armada.md §6).
                if self.armada.is_some() && armada::turn::naval_choice(self) {
                    return;
                }
                self.age_end_due = false;
                self.end_age();
                if self.phase == Phase::Over {
                    return;
                }
                self.begin_age();
                self.begin_turn();
            }
            self.phase = Phase::Choose;
            return;
        }
    }

    fn pass_hands(&mut self) {
        if self.free_city.is_some() {
            // 2-player variant: each player takes the pile on the other side of the border
            // card, and the Free City card travels with it (002 2人變體規則 3、傳接卡牌).
            self.hands.swap(0, 1);
            self.holder = 1 - self.holder;
            return;
        }
        // Ages I and III pass left (seat i's hand goes to seat i+1), Age II right (to seat i−1)
        // (002 3、傳接卡牌): a rotation of the ring, without copying the hands aside.
        let n = self.n();
        if self.age == 2 {
            self.hands[..n].rotate_left(1);
        } else {
            self.hands[..n].rotate_right(1);
        }
    }

    /// At the start of an Age: who holds the Free City card (002 2人變體規則 時代結束: the player
    /// on the Free City's left in Ages I and III, on its right in Age II).
    pub(super) fn begin_age(&mut self) {
        if let Some(f) = self.free_city {
            let n = self.n();
            let f = f as usize;
            self.holder = if self.age == 2 { right_of(f, n) } else { left_of(f, n) } as u8;
        }
    }

    /// At the start of a turn: the holder of the Free City card draws from its pile, and every
    /// seat remembers the hand it now holds.
    pub(super) fn begin_turn(&mut self) {
        if let Some(f) = self.free_city
            && let Some(card) = self.hands[f as usize].pop()
        {
            let _ = self.hands[self.holder as usize].try_push(card);
        }
        let t = (self.turn as usize).clamp(1, self.last_turn as usize) - 1;
        for seat in 0..self.players() {
            if t == 0 {
                self.memory[seat] = Default::default();
                self.used[seat] = Default::default();
            }
            self.memory[seat][t] = self.hands[seat];
        }
    }

    fn end_age(&mut self) {
        let n = self.n();
        // Land conflicts (002 軍事衝突; teams and incursions: [`crate::conflict`]), then
        // Armada's naval conflict (armada.md §2.5).
        let incursions = armada::turn::take_incursions(self);
        let schedule = conflict::land_conflicts(n, self.teams, &incursions);
        conflict::resolve(&schedule, &mut self.cities[..n], self.age);
        armada::turn::log_incursions(self, &schedule);
        armada::turn::naval_conflict(self);
        if self.age == 3 {
            self.phase = Phase::Over;
            return;
        }
        self.age += 1;
        self.turn = 1;
        self.hands = self.later_hands[self.age as usize - 2];
        for city in &mut self.cities[..n] {
            city.free_build_used = false;
        }
    }

    /// The score sheet of every city (final once the game is over); the Free City's is last.
    pub fn scores(&self) -> Vec<Score> {
        // Armada: guild cap, naval tokens, fleet VP, islands, extra science (crate::armada::score).
        let armada = self.armada.as_deref().map(|a| &a.cities[..self.n()]);
        score::score_all_with(self.catalog, self.cities(), armada)
    }

    /// Each seat's rank (1 = winner): by points, then coins; players still level share the place
    /// (002 遊戲結束). The Free City is not a player and is not ranked. In the team variant, each
    /// seat has its team's rank ([`crate::teams::ranks`]).
    pub fn ranks(&self) -> Vec<u8> {
        self.ranks_from(&self.scores())
    }

    /// The ranks of [`Game::ranks`] from score sheets already computed by [`Game::scores`]
    /// (scoring once instead of twice).
    pub fn ranks_from(&self, scores: &[Score]) -> Vec<u8> {
        let keyed: Vec<(i32, u16)> = (0..self.players())
            .map(|s| (scores.get(s).map_or(0, |x| x.total), self.cities[s].coins))
            .collect();
        if self.teams { teams::ranks(&keyed) } else { score::ranks(&keyed) }
    }
}
