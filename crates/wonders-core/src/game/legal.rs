//! The legal actions of a seat now ([`Game::legal_actions_into`]), with every Pareto-minimal way
//! to pay: what a city faces when it buys ([`Game::market`]), the free ways to build (chains,
//! Olympia's powers, a free build per Age), the paid ways from the payment solver, the wonder
//! stage's, and the Free City's restrictions in the 2-player variant. The expansions add theirs
//! at named points: Edifice's ways to build a stage and take part in a project
//! ([`crate::edifice::stage_variants`], [`crate::edifice::discard_choices`]), Armada's naval
//! constructions, trading zones, islands and free moves ([`crate::armada::turn::extend_actions`],
//! [`crate::armada::trade`], [`crate::armada::turn::island_choices`],
//! [`crate::armada::turn::moves_choices`], [`crate::armada::turn::discard_build_moves`]).

use super::{Game, HAND_MAX, Phase, left_of, right_of};
use crate::action::{Action, FreeBy, Naval, Payment, StageExtra};
use crate::armada;
use crate::card::{CardId, CardSet};
use crate::catalog::{Edition, HotCard, Side};
use crate::city::City;
use crate::edifice;
use crate::payment::{self, Market, Options};
use crate::resources::Resources;
use arrayvec::ArrayVec;

impl Game {
    /// What `city_index` faces when it buys: its production, what its neighbours sell, its
    /// prices. Inlined: the hand step reads it once per decision, and a call to build the
    /// struct cost more than reading the fields.
    #[inline(always)]
    pub(crate) fn market(&self, city_index: usize) -> Market<'_> {
        let n = self.n();
        let city = &self.cities[city_index];
        let prices = city.prices;
        let (left, right) = (left_of(city_index, n), right_of(city_index, n));
        if self.edition() == Edition::Second && matches!(self.phase, Phase::PlayLastCard { .. }) {
            // 2nd edition (004 貿易; edition-2e.md §2): nothing can be bought from a card a
            // neighbour built this same turn. Babylon's last card is played at the end of the
            // Age's last turn, so the neighbours offer what they offered when that turn began.
            return Market {
                own: &city.production,
                left: &self.sale_at_turn_start[left],
                right: &self.sale_at_turn_start[right],
                prices,
            };
        }
        Market {
            own: &city.production,
            left: &self.cities[left].for_sale,
            right: &self.cities[right].for_sale,
            prices,
        }
    }

    /// Every Pareto-minimal payment `city` can make for building `card` now, free ways included.
    /// Empty when it cannot be built (already in the city, or unaffordable).
    pub fn build_payments(&self, city: usize, card: CardId, out: &mut Vec<Payment>) {
        out.clear();
        let c = &self.cities[city];
        let def = self.catalog.card(card);
        if c.has_name(self.catalog, card) {
            return;
        }
        if let Some(by) = self.automatic_free(city, card) {
            out.push(Payment::free(by));
            return;
        }
        let mut opts = Options::new();
        self.paid_options(city, card, &mut opts);
        out.extend(opts.iter().map(|&(left, right)| Payment::paid(left, right, def.coins)));
        if self.free_build_available(city) && (def.coins > 0 || !def.cost.is_empty()) {
            out.push(Payment::free(FreeBy::FreeBuild));
        }
    }

    pub(super) fn paid_options(&self, city: usize, card: CardId, out: &mut Options) {
        out.clear();
        let def = self.catalog.card(card);
        let coins = self.cities[city].coins;
        if coins < def.coins as u16 {
            return;
        }
        payment::solve(&self.market(city), &def.cost, coins - def.coins as u16, out);
    }

    /// The way `card` is free for `city` now, when it is free whatever the player does: a chain,
    /// or a 2nd-edition Olympia power. (Olympia A's free build is a choice: see
    /// [`Game::build_payments`].)
    pub fn automatic_free(&self, city: usize, card: CardId) -> Option<FreeBy> {
        self.automatic_free_for(&self.cities[city], self.catalog.hot(card))
    }

    #[inline]
    fn automatic_free_for(&self, c: &City, card: &HotCard) -> Option<FreeBy> {
        Self::free_by_card(c, card).or_else(|| self.free_by_turn(c))
    }

    /// The ways a card is free by what it is: a chain, or the first card of its colour.
    #[inline]
    fn free_by_card(c: &City, card: &HotCard) -> Option<FreeBy> {
        if c.names.intersects(card.chain_parents) {
            return Some(FreeBy::Chain);
        }
        // 2nd edition, Olympia Day stage 2 (edition-2e.md §5 Olympia): the first card of each
        // colour; read as a colour not yet in the city.
        if c.free_first_of_colour && c.colour_counts[card.colour as usize] == 0 {
            return Some(FreeBy::FirstOfColour);
        }
        None
    }

    /// The ways any card is free by the turn it is played: the same for the whole hand.
    #[inline]
    fn free_by_turn(&self, c: &City) -> Option<FreeBy> {
        if self.phase == Phase::Choose {
            // Olympia Night (FAQ): the card of the Age's first turn, and of its last turn.
            if c.free_first_of_age && self.turn == 1 {
                return Some(FreeBy::FirstOfAge);
            }
            if c.free_last_of_age && self.turn == self.last_turn {
                return Some(FreeBy::LastOfAge);
            }
        }
        None
    }

    pub(super) fn free_build_available(&self, city: usize) -> bool {
        let c = &self.cities[city];
        c.free_build_per_age && !c.free_build_used
    }

    /// Every Pareto-minimal payment for `city`'s next wonder stage; empty when the wonder is
    /// complete or the stage unaffordable.
    pub fn stage_payments(&self, city: usize, out: &mut Vec<Payment>) {
        out.clear();
        let mut opts = Options::new();
        self.stage_options(city, &mut opts);
        out.extend(opts.iter().map(|&(left, right)| Payment::paid(left, right, 0)));
    }

    pub(super) fn stage_options(&self, city: usize, out: &mut Options) {
        out.clear();
        let c = &self.cities[city];
        let stages = self.catalog.wonder(c.wonder).stages(c.side);
        if let Some(stage) = stages.get(c.stages as usize) {
            payment::solve(&self.market(city), &stage.cost, c.coins, out);
        }
    }

    /// Every legal action of `seat` now, written into `out` (cleared first). Empty when the seat
    /// is not to act. Allocation-free once `out` has grown.
    pub fn legal_actions_into(&self, seat: usize, out: &mut Vec<Action>) {
        out.clear();
        if !self.must_act(seat) {
            return;
        }
        match self.phase {
            Phase::ChooseSide => {
                out.push(Action::ChooseSide { side: Side::A });
                out.push(Action::ChooseSide { side: Side::B });
            }
            Phase::Choose | Phase::PlayLastCard { .. } => {
                let city = self.acting_city(seat);
                if Some(city as u8) == self.free_city {
                    let hand = self.acting_hand(seat);
                    self.hand_actions::<true>(city, &hand, out);
                    self.free_city_rules(out);
                } else {
                    self.own_hand_actions(city, &self.hands[seat], out);
                }
            }
            Phase::BuildFromDiscard { city } => {
                let c = &self.cities[city as usize];
                let mut seen = crate::card::CardSet::EMPTY;
                for &card in &self.discard {
                    if !seen.contains(card) && !c.has_name(self.catalog, card) {
                        seen.insert(card);
                        for free_move in armada::turn::discard_build_moves(self, city as usize, card) {
                            out.push(Action::BuildDiscarded { card, free_move });
                        }
                    }
                }
                out.push(Action::Pass);
            }
            Phase::EdificeDiscard { city } => edifice::discard_choices(self, city as usize, out),
            Phase::Explore { city } => armada::turn::island_choices(self, city as usize, out),
            Phase::IslandMoves { city } => armada::turn::moves_choices(self, city as usize, out),
            Phase::NavalOptOut { .. } => {
                out.push(Action::StayOutOfNaval { stay_out: false });
                out.push(Action::StayOutOfNaval { stay_out: true });
            }
            Phase::Over => {}
        }
    }

    /// The actions of a city playing from its own hand (`cards`: the whole hand, or some of its
    /// cards), in the order [`Game::legal_actions_into`] lists them.
    fn own_hand_actions(&self, city: usize, cards: &[CardId], out: &mut Vec<Action>) {
        // Armada: a city with a trading zone has its paid builds and stages listed by
        // armada::trade::rewrite_hand, which drops the base ones: they are not solved.
        if self.armada.is_some() {
            // The city's market, read once for both lists (the naval solves ask it too).
            let market = self.market(city);
            if armada::trade::has_zone(self, city) {
                self.hand_actions_with::<false>(city, cards, &market, out);
            } else {
                self.hand_actions_with::<true>(city, cards, &market, out);
            }
            armada::turn::extend_actions(self, city, &market, out);
        } else {
            self.hand_actions::<true>(city, cards, out);
        }
    }

    /// The legal actions of `seat` that use `card`: the entries of
    /// [`Game::legal_actions_into`]'s list whose [`Action::card`] is `card`, in the same order,
    /// written into `out` (cleared first). When the seat plays from its own hand (a turn, or
    /// Babylon's last card) only that card's actions are worked out, which is what makes a
    /// policy that draws a card first (`wonders simulate --policy card-first`) fast; in any
    /// other step the whole list is made and filtered. Empty when `card` is in none of the
    /// seat's actions.
    ///
    /// ```
    /// use wonders_core::{Game, Setup};
    ///
    /// let game = Game::new(&Setup::new(4, 1)).unwrap();
    /// let card = game.hand(0)[0];
    /// let mut mine = Vec::new();
    /// game.card_actions_into(0, card, &mut mine);
    /// let all = game.legal_actions(0);
    /// let filtered: Vec<_> = all.into_iter().filter(|a| a.card() == Some(card)).collect();
    /// assert_eq!(mine, filtered);
    /// ```
    pub fn card_actions_into(&self, seat: usize, card: CardId, out: &mut Vec<Action>) {
        out.clear();
        if !self.must_act(seat) {
            return;
        }
        let own_hand = matches!(self.phase, Phase::Choose | Phase::PlayLastCard { .. })
            && self.acting_city(seat) == seat;
        if own_hand {
            if self.hands[seat].contains(&card) {
                self.own_hand_actions(seat, &[card], out);
            }
            return;
        }
        self.legal_actions_into(seat, out);
        out.retain(|a| a.card() == Some(card));
    }

    /// Every legal action of `seat` now.
    pub fn legal_actions(&self, seat: usize) -> Vec<Action> {
        let mut v = Vec::new();
        self.legal_actions_into(seat, &mut v);
        v
    }

    /// The Free City's restrictions (002 2人變體規則 說明; base-1e.md §5): a card it can build
    /// free through a chain must be built free, and it discards only when no card of the hand
    /// can be built or used for a wonder stage.
    fn free_city_rules(&self, out: &mut Vec<Action>) {
        let chained: ArrayVec<CardId, HAND_MAX> = out
            .iter()
            .filter_map(|a| match a {
                Action::Build { card, pay, .. } if pay.free == Some(FreeBy::Chain) => Some(*card),
                _ => None,
            })
            .collect();
        out.retain(|a| match a {
            Action::Build { card, pay, .. } => pay.free == Some(FreeBy::Chain) || !chained.contains(card),
            Action::Wonder { card, .. } | Action::Discard { card } => !chained.contains(card),
            _ => true,
        });
        if out.iter().any(|a| !matches!(a, Action::Discard { .. })) {
            out.retain(|a| !matches!(a, Action::Discard { .. }));
        }
    }

    /// The hand step's actions of `city_index` with `hand`; without `PAID`, only the free builds
    /// and the discards (the paid builds and stages are listed by the caller's own solver). A
    /// constant, so the base game's loop is compiled as before.
    fn hand_actions<const PAID: bool>(&self, city_index: usize, hand: &[CardId], out: &mut Vec<Action>) {
        self.hand_actions_body::<PAID>(city_index, hand, &self.market(city_index), out);
    }

    /// [`Game::hand_actions`] with the city's market already read (Armada reads it once for the
    /// base list and its naval variants).
    fn hand_actions_with<const PAID: bool>(
        &self,
        city_index: usize,
        hand: &[CardId],
        market: &Market,
        out: &mut Vec<Action>,
    ) {
        self.hand_actions_body::<PAID>(city_index, hand, market, out);
    }

    /// The body of both, inlined into each.
    #[inline(always)]
    fn hand_actions_body<const PAID: bool>(
        &self,
        city_index: usize,
        hand: &[CardId],
        market: &Market,
        out: &mut Vec<Action>,
    ) {
        let city = &self.cities[city_index];
        let mut stage = Options::new();
        let stages = self.catalog.wonder(city.wonder).stages(city.side);
        // What the solver's quick refusal compares a need with, read once for the whole hand:
        // most of a random game's purchases end there, and are refused here without a call.
        let reach = if PAID { market.reach() } else { Resources::NONE };
        if PAID && let Some(next) = stages.get(city.stages as usize) {
            payment::solve_within(market, &reach, &next.cost, city.coins, &mut stage);
        }
        let free_build = self.free_build_available(city_index);
        // Olympia Night's free card of the turn, if any: read once for the hand.
        let free_this_turn = self.free_by_turn(city);
        // Edifice and the boards whose stages ask a choice (Carthage, Ur) list each way to build
        // the stage; the base game keeps its plain loop.
        let mut variants = ArrayVec::new();
        let plain =
            self.edifice.is_none() && stages.get(city.stages as usize).is_none_or(|s| !s.has_choice());
        if !plain && PAID {
            edifice::stage_variants(self, city_index, &stage, &mut variants);
        }
        let mut opts = Options::new();
        let mut seen = CardSet::EMPTY;
        for &card in hand {
            // Copies of a card in one hand give the same actions once.
            if seen.contains(card) {
                continue;
            }
            seen.insert(card);
            let def = self.catalog.hot(card);
            if !city.names.contains(def.name_id) {
                if let Some(by) = Self::free_by_card(city, def).or(free_this_turn) {
                    out.push(Action::Build { card, pay: Payment::free(by), naval: Naval::NONE });
                } else {
                    if !PAID || city.coins < def.coins as u16 {
                        // Unaffordable (or listed by the caller): only a free build can take it.
                    } else {
                        // The solver's quick answers, without the call: what the city lacks of
                        // its own fixed units, none (free) or beyond reach (nothing can pay).
                        let need = def.cost.saturating_sub(&city.production.fixed);
                        if need.is_empty() {
                            out.push(Action::Build {
                                card,
                                pay: Payment::paid(0, 0, def.coins),
                                naval: Naval::NONE,
                            });
                        } else if need.le(&reach) {
                            payment::solve_net(market, &need, city.coins - def.coins as u16, &mut opts);
                            for &(left, right) in &opts {
                                out.push(Action::Build {
                                    card,
                                    pay: Payment::paid(left, right, def.coins),
                                    naval: Naval::NONE,
                                });
                            }
                        }
                    }
                    if free_build && (def.coins > 0 || !def.cost.is_empty()) {
                        out.push(Action::Build {
                            card,
                            pay: Payment::free(FreeBy::FreeBuild),
                            naval: Naval::NONE,
                        });
                    }
                }
            }
            if plain {
                for &(left, right) in &stage {
                    let pay = Payment::paid(left, right, 0);
                    out.push(Action::Wonder { card, pay, extra: StageExtra::NONE });
                }
            } else {
                for &(pay, extra) in &variants {
                    out.push(Action::Wonder { card, pay, extra });
                }
            }
            out.push(Action::Discard { card });
        }
    }
}
