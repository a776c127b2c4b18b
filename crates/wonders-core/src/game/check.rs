//! Checking an action without changing anything ([`Game::check`]): whether the seat is to act,
//! whether the card is in its hand (or the discard pile), whether the payment is one of the legal
//! ways to pay, and the Free City's restrictions; each refusal says why ([`ActionError`]). Armada
//! checks its own parts first at a named point ([`crate::armada::trade::check`],
//! [`crate::armada::turn::check`]); Edifice checks the card a failed project's penalty takes
//! ([`crate::edifice::check_discard`]).

use super::{ActionError, Game, Phase};
use crate::action::{Action, FreeBy, Payment, StageExtra};
use crate::armada;
use crate::card::CardId;
use crate::edifice;
use crate::payment::Options;
use arrayvec::ArrayVec;

impl Game {
    /// Checks an action without changing anything.
    pub fn check(&self, seat: usize, action: &Action) -> Result<(), ActionError> {
        if self.phase == Phase::Over {
            return Err(ActionError::GameOver);
        }
        if seat >= self.players() {
            return Err(ActionError::NoSuchSeat(seat));
        }
        if !self.must_act(seat) {
            if matches!(self.phase, Phase::Choose | Phase::ChooseSide) {
                return Err(ActionError::AlreadyChosen(seat));
            }
            return Err(ActionError::NotYourTurn { seat, waiting: self.waiting_text() });
        }
        let city_index = self.acting_city(seat);
        // Armada: coins to the 2nd players need a trading zone, within its limits.
        if let Some(pay) = action.payment().filter(|p| !p.second.is_none()) {
            armada::trade::check(self, city_index, &pay)?;
        }
        // Armada: a hand action may carry a naval construction (crate::armada::turn).
        if self.armada.is_some() && matches!(self.phase, Phase::Choose | Phase::PlayLastCard { .. }) {
            return armada::turn::check(self, seat, city_index, action);
        }
        let result = self.check_for_city(seat, city_index, action);
        if result.is_ok() && Some(city_index as u8) == self.free_city && self.phase == Phase::Choose {
            let mut legal = Vec::new();
            self.legal_actions_into(seat, &mut legal);
            if !legal.contains(action) {
                return Err(ActionError::FreeCity(
                    "a card it can chain must be built free, and it discards only when no card can be built or \
                     used for its wonder"
                        .into(),
                ));
            }
        }
        result
    }

    pub(crate) fn check_for_city(
        &self,
        seat: usize,
        city_index: usize,
        action: &Action,
    ) -> Result<(), ActionError> {
        let name = |c: CardId| self.catalog.card(c).name.clone();
        let city = &self.cities[city_index];
        let hand = self.acting_hand(seat);
        let in_hand = |c: CardId| -> Result<(), ActionError> {
            if (c.0 as usize) < self.catalog.cards.len() && hand.contains(&c) {
                Ok(())
            } else {
                Err(ActionError::CardNotAvailable {
                    card: self.card_name_or_id(c),
                    place: "in this seat's hand",
                })
            }
        };
        match (self.phase, *action) {
            (Phase::ChooseSide, Action::ChooseSide { .. }) => Ok(()),
            (Phase::ChooseSide, _) => Err(ActionError::WrongKind(
                "the game starts with each player choosing a side of their wonder".into(),
            )),
            (_, Action::ChooseSide { .. }) => {
                Err(ActionError::WrongKind("wonder sides are chosen only at the start of the game".into()))
            }
            (Phase::BuildFromDiscard { .. }, Action::Pass) => Ok(()),
            (Phase::BuildFromDiscard { .. }, Action::BuildDiscarded { card, free_move }) => {
                if (card.0 as usize) >= self.catalog.cards.len() || !self.discard.contains(&card) {
                    return Err(ActionError::CardNotAvailable {
                        card: self.card_name_or_id(card),
                        place: "in the discard pile",
                    });
                }
                if city.has_name(self.catalog, card) {
                    return Err(ActionError::Duplicate(name(card)));
                }
                if !armada::turn::discard_build_moves(self, city_index, card).contains(&free_move) {
                    return Err(ActionError::WrongKind(match free_move {
                        Some(f) => format!(
                            "{} gives no free move of the {} ship here (only a blue Armada card moves a ship, \
                             and only one below its top step)",
                            name(card),
                            f.name()
                        ),
                        None => format!(
                            "{} gives a free move (000: a blue Armada card): name the ship it advances",
                            name(card)
                        ),
                    }));
                }
                Ok(())
            }
            (Phase::EdificeDiscard { .. }, Action::DiscardBuilt { card }) => {
                edifice::check_discard(self, city_index, card).map_err(|e| ActionError::CardNotAvailable {
                    card: format!("{} ({e})", self.card_name_or_id(card)),
                    place: "a card this penalty can take",
                })
            }
            (Phase::Explore { .. } | Phase::IslandMoves { .. } | Phase::NavalOptOut { .. }, _)
            | (_, Action::ChooseIsland { .. } | Action::StayOutOfNaval { .. }) => {
                let mut legal = Vec::new();
                self.legal_actions_into(seat, &mut legal);
                if legal.contains(action) {
                    Ok(())
                } else {
                    Err(ActionError::WrongKind(match self.phase {
                        Phase::Explore { .. } => {
                            "an exploration is under way: keep one of the islands dealt to you (with its free \
                             moves on different ships below the top step)"
                                .to_string()
                        }
                        Phase::IslandMoves { .. } => "choose the different ships (below the top step) that \
                                                      the free moves of the island a green card brought \
                                                      advance"
                            .to_string(),
                        Phase::NavalOptOut { .. } => {
                            "Forgotten Port: choose whether to stay out of this Age's naval conflict".to_string()
                        }
                        _ => "islands are kept only in an exploration, and the naval conflict is left only \
                              with Forgotten Port at an Age end"
                            .to_string(),
                    }))
                }
            }
            (Phase::EdificeDiscard { .. }, _) => Err(ActionError::WrongKind(
                "the Age's great project failed: choose the card of your city to discard".into(),
            )),
            (_, Action::DiscardBuilt { .. }) => Err(ActionError::WrongKind(
                "a built card is discarded only for a failed great project's penalty".into(),
            )),
            (Phase::BuildFromDiscard { .. }, _) => Err(ActionError::WrongKind(
                "this step is Halicarnassus' build from the discard pile: pick a discarded card or pass"
                    .into(),
            )),
            (_, Action::BuildDiscarded { .. } | Action::Pass) => Err(ActionError::WrongKind(
                "building from the discard pile is only possible right after a Halicarnassus stage".into(),
            )),
            (_, Action::Discard { card }) => in_hand(card),
            (_, Action::DiscardYellow { card }) => {
                in_hand(card)?;
                Err(ActionError::WrongKind(
                    "discarding for a free yellow move is an Armada rule (armada.md §2.4): this game has no \
                     shipyards, or the yellow ship is on its top step"
                        .into(),
                ))
            }
            (_, Action::Build { card, pay, .. }) => {
                in_hand(card)?;
                if city.has_name(self.catalog, card) {
                    return Err(ActionError::Duplicate(name(card)));
                }
                let def = self.catalog.card(card);
                let ok = match (self.automatic_free(city_index, card), pay.free) {
                    (Some(by), _) => pay == Payment::free(by),
                    (None, Some(FreeBy::FreeBuild)) => {
                        pay == Payment::free(FreeBy::FreeBuild)
                            && self.free_build_available(city_index)
                            && (def.coins > 0 || !def.cost.is_empty())
                    }
                    (None, Some(_)) => false,
                    (None, None) => {
                        let mut opts = Options::new();
                        self.paid_options(city_index, card, &mut opts);
                        pay.bank == def.coins && opts.contains(&(pay.left, pay.right))
                    }
                };
                if ok {
                    Ok(())
                } else {
                    let mut legal = Vec::new();
                    self.build_payments(city_index, card, &mut legal);
                    Err(ActionError::BadPayment { what: name(card), options: payments_text(&legal) })
                }
            }
            (_, Action::Wonder { card, pay, extra }) => {
                in_hand(card)?;
                if city.stages >= city.stage_count(self.catalog) {
                    return Err(ActionError::WonderComplete);
                }
                let mut opts = Options::new();
                self.stage_options(city_index, &mut opts);
                let next = &self.catalog.wonder(city.wonder).stages(city.side)[city.stages as usize];
                let ok = if self.edifice.is_none() && !next.has_choice() {
                    extra == StageExtra::NONE
                        && pay.bank == 0
                        && pay.free.is_none()
                        && opts.contains(&(pay.left, pay.right))
                } else {
                    let mut variants = ArrayVec::new();
                    edifice::stage_variants(self, city_index, &opts, &mut variants);
                    variants.contains(&(pay, extra))
                };
                if ok {
                    Ok(())
                } else {
                    let mut legal = Vec::new();
                    self.stage_payments(city_index, &mut legal);
                    Err(ActionError::BadPayment {
                        what: format!("wonder stage {}", city.stages + 1),
                        options: payments_text(&legal),
                    })
                }
            }
        }
    }

    fn card_name_or_id(&self, c: CardId) -> String {
        self.catalog.cards.get(c.0 as usize).map(|d| d.name.clone()).unwrap_or(format!("card #{}", c.0))
    }

    pub(super) fn waiting_text(&self) -> String {
        match self.phase {
            Phase::ChooseSide => "every player is choosing a wonder side".into(),
            Phase::Choose => "every player is choosing".into(),
            Phase::PlayLastCard { city } => {
                format!("seat {} is playing the last card of the Age", self.controller_of(city as usize))
            }
            Phase::BuildFromDiscard { city } => {
                format!("seat {} is building from the discard pile", self.controller_of(city as usize))
            }
            Phase::EdificeDiscard { city } => {
                format!("seat {city} is choosing the card to discard for the failed great project")
            }
            Phase::Explore { city } => format!("seat {city} is choosing an island of its exploration"),
            Phase::IslandMoves { city } => {
                format!("seat {city} is choosing the ships of its island's free moves")
            }
            Phase::NavalOptOut { city } => {
                format!("seat {city} is choosing whether to stay out of the naval conflict (Forgotten Port)")
            }
            Phase::Over => "the game is over".into(),
        }
    }
}

fn payments_text(p: &[Payment]) -> String {
    if p.is_empty() {
        return "none (it cannot be built now)".into();
    }
    p.iter()
        .map(|p| match p.free {
            Some(by) => format!("free ({by:?})"),
            None => format!("left {} right {} bank {}", p.left, p.right, p.bank),
        })
        .collect::<Vec<_>>()
        .join("; ")
}
