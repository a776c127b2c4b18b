//! Fixed-size tensors for machine learning: an observation vector built from one seat's
//! [`View`] (so it holds only what that seat may know), and a fixed discrete action space with a
//! legality mask. The Python package (`crates/wonders-py`) and its vectorised environment use
//! these; they are here, next to the rules, so every front end encodes the same way.
//!
//! # Action space
//!
//! With `C` the number of distinct cards of the edition's catalog (`Catalog::cards`), there are
//! `4C + 4` actions:
//!
//! | index | action |
//! |---|---|
//! | `c` | build card `c` from hand (also Babylon's last card) |
//! | `C + c` | build the next wonder stage with card `c` |
//! | `2C + c` | discard card `c` for 3 coins |
//! | `3C + c` | Halicarnassus: build card `c` from the discard pile |
//! | `4C` | Halicarnassus: build nothing from the discard pile |
//! | `4C + 1`, `4C + 2` | 2nd edition: choose side Day (A), Night (B) |
//! | `4C + 3` | wait: the only legal index while the seat has nothing to decide |
//!
//! The Free City (2 players, 1st edition) uses the same indices: its holder acts twice in a turn,
//! first for its own city, then for the Free City; the observation's `acting_for_free_city` says
//! which, and the mask then holds the Free City's legal actions.
//!
//! An index does not say how a construction is paid. [`Encoder::choose`] picks the **default
//! payment**: the fewest coins in all; among equal totals, one that keeps Olympia's free build
//! of the Age; then the smaller largest payment to one neighbour (spreading the coins); then
//! fewer coins to the left neighbour. A chain, or a 2nd-edition Olympia power, makes a card free
//! and is then the only way. Agents that want to choose get every legal way from
//! [`Encoder::payments`].
//!
//! # Observation
//!
//! `observation_len() = 23 + 3C + 7 (C + W + 21)` floats, `W` the number of wonders; counts
//! are raw (not scaled), flags are 0 or 1. [`Encoder::layout`] names every segment:
//!
//! - `age` (3, one-hot), `turn` (1: 1–6, 7 for Babylon's last card), `phase` (5, one-hot:
//!   choose side, choose, play last card, build from discard, over), `must_act`,
//!   `acting_for_free_city`, `holds_free_city_card`, `own_choice_made` (1 each), `draw_pile_size`,
//!   `discard_size` (1 each), 8 zeros reserved for expansions;
//! - `hand` (C: how many copies of each card the seat holds), `discard` (C: the pile's contents,
//!   only while this seat builds from it, else zeros), `passed` (C: the hand this seat passed on
//!   at the end of the previous turn of this Age, as it knows it);
//! - 7 city blocks, clockwise from the seat (its own city, its left neighbour, …; empty blocks are
//!   zeros), each: `present`, `free_city`, `wonder` (W, one-hot), `side_b`, `stages`,
//!   `stages_total`, `coins`, `shields`, `tokens` (4: counts of +1, +3, +5 and −1), `hand_size`,
//!   `chosen`, `built` (C), `score` (8: the points it would score now by category, as
//!   [`crate::Score::CATEGORIES`] without Edifice's `edifice`).
//!
//! Edifice (issue 8) is not encoded beyond this: its projects are not in the observation, its
//! penalty discard shows as phase "build from discard" and uses the discard indices, and a stage
//! index takes the default payment among every way (with or without taking part).
//!
//! ```
//! use wonders_core::tensor::Encoder;
//! use wonders_core::{Naval, Catalog, Edition, Game, Setup};
//!
//! let game = Game::new(&Setup::new(3, 1)).unwrap();
//! let enc = Encoder::new(Catalog::get(Edition::First));
//! let mut obs = vec![0.0; enc.observation_len()];
//! enc.observe(&game.view(0), &mut obs);
//! let legal = game.legal_actions(0);
//! let mut mask = vec![false; enc.action_count()];
//! enc.mask(&legal, &mut mask);
//! let index = mask.iter().position(|&m| m).unwrap();
//! assert!(legal.contains(&enc.choose(&legal, index).unwrap()));
//! ```

use crate::action::{Action, FreeBy, Payment};
use crate::catalog::{Catalog, Side};
use crate::game::Phase;
use crate::score::score_city;
use crate::view::View;

/// City blocks in an observation: the most cities a game holds (7 players).
pub const CITY_SLOTS: usize = 7;
/// Floats of the global block before the card vectors (with 8 reserved for expansions).
const GLOBAL: usize = 3 + 1 + 5 + 4 + 2 + 8;
/// Floats of a city block besides its `built` cards and wonder one-hot.
const CITY_FIXED: usize = 2 + 1 + 2 + 1 + 1 + 4 + 2 + 8;

/// The kind of an action index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActionKind {
    /// Build a card from hand.
    Build,
    /// Build a wonder stage with a card.
    Wonder,
    /// Discard a card.
    Discard,
    /// Build a card from the discard pile.
    BuildDiscarded,
    /// Build nothing from the discard pile.
    Pass,
    /// Choose a wonder side.
    ChooseSide(Side),
    /// Nothing to decide.
    Wait,
}

/// Encodes views and actions of one edition's catalog into fixed-size tensors.
#[derive(Clone, Copy, Debug)]
pub struct Encoder {
    catalog: &'static Catalog,
    cards: usize,
    wonders: usize,
}

impl Encoder {
    /// An encoder for games on `catalog`.
    pub fn new(catalog: &'static Catalog) -> Encoder {
        Encoder { catalog, cards: catalog.cards.len(), wonders: catalog.wonders.len() }
    }

    /// The catalog it encodes.
    pub fn catalog(&self) -> &'static Catalog {
        self.catalog
    }

    fn city_len(&self) -> usize {
        CITY_FIXED + self.wonders + self.cards
    }

    /// Floats in an observation.
    pub fn observation_len(&self) -> usize {
        GLOBAL + 3 * self.cards + CITY_SLOTS * self.city_len()
    }

    /// Indices in the action space.
    pub fn action_count(&self) -> usize {
        4 * self.cards + 4
    }

    /// The index of the "wait" action (legal only while the seat has nothing to decide).
    pub fn wait_index(&self) -> usize {
        4 * self.cards + 3
    }

    /// The named segments of an observation, in order: `(name, start, length)`.
    pub fn layout(&self) -> Vec<(String, usize, usize)> {
        let (c, w) = (self.cards, self.wonders);
        let mut out = Vec::new();
        let mut at = 0;
        let mut push = |name: String, len: usize| {
            out.push((name, at, len));
            at += len;
        };
        for (name, len) in [
            ("age", 3),
            ("turn", 1),
            ("phase", 5),
            ("must_act", 1),
            ("acting_for_free_city", 1),
            ("holds_free_city_card", 1),
            ("own_choice_made", 1),
            ("draw_pile_size", 1),
            ("discard_size", 1),
            ("reserved", 8),
            ("hand", c),
            ("discard", c),
            ("passed", c),
        ] {
            push(name.to_string(), len);
        }
        for k in 0..CITY_SLOTS {
            for (name, len) in [
                ("present", 1),
                ("free_city", 1),
                ("wonder", w),
                ("side_b", 1),
                ("stages", 1),
                ("stages_total", 1),
                ("coins", 1),
                ("shields", 1),
                ("tokens", 4),
                ("hand_size", 1),
                ("chosen", 1),
                ("built", c),
                ("score", 8),
            ] {
                push(format!("city{k}.{name}"), len);
            }
        }
        out
    }

    /// Writes the observation of `view` into `out` (of length [`Encoder::observation_len`];
    /// every float is written). Only the view is read, so it holds only what its seat may know.
    ///
    /// # Panics
    /// If `out` has the wrong length or the view is of another edition's catalog size.
    pub fn observe(&self, view: &View, out: &mut [f32]) {
        assert_eq!(out.len(), self.observation_len(), "observation buffer length");
        out.fill(0.0);
        let c = self.cards;
        let seat = view.seat as usize;
        if (1..=3).contains(&view.age) {
            out[view.age as usize - 1] = 1.0;
        }
        out[3] = view.turn as f32;
        let phase = match view.phase {
            Phase::ChooseSide => 0,
            Phase::Choose => 1,
            Phase::PlayLastCard { .. } => 2,
            // Edifice's penalty discard is a one-seat pick of a card, like Halicarnassus'; so
            // are Armada's exploration and Forgotten Port's choice (Armada is not encoded).
            Phase::BuildFromDiscard { .. }
            | Phase::EdificeDiscard { .. }
            | Phase::Explore { .. }
            | Phase::NavalOptOut { .. } => 3,
            Phase::Over => 4,
        };
        out[4 + phase] = 1.0;
        // In the choosing phases `chosen` is false exactly for the seats still to choose (the
        // holder of the Free City card chooses twice); in a one-city step the seat acts for its
        // own city, or for the Free City when it chose the Free City's action last turn.
        let must_act = match view.phase {
            Phase::ChooseSide | Phase::Choose => !view.chosen.get(seat).copied().unwrap_or(true),
            Phase::PlayLastCard { city } | Phase::BuildFromDiscard { city } => {
                city as usize == seat
                    || (Some(city) == view.free_city && view.free_city_controller == Some(view.seat))
            }
            Phase::EdificeDiscard { city } | Phase::Explore { city } | Phase::NavalOptOut { city } => {
                city as usize == seat
            }
            Phase::Over => false,
        };
        out[9] = must_act as u8 as f32;
        out[10] = (Some(view.acting_city) == view.free_city) as u8 as f32;
        out[11] = (view.free_city_holder == Some(view.seat)) as u8 as f32;
        out[12] = view.own_choice.is_some() as u8 as f32;
        out[13] = if view.free_city.is_some() { view.draw_pile_size as f32 } else { 0.0 };
        out[14] = view.discard_size as f32;
        let hand = GLOBAL;
        for card in &view.hand {
            out[hand + card.0 as usize] += 1.0;
        }
        let discard = hand + c;
        if let Some(pile) = &view.discard {
            for card in pile {
                out[discard + card.0 as usize] += 1.0;
            }
        }
        let passed = discard + c;
        // seen_hands[i] is the hand held at turn i + 1, used_cards[i] what was taken from it.
        if matches!(view.phase, Phase::Choose) && view.seen_hands.len() >= 2 {
            let prev = view.seen_hands.len() - 2;
            let mut used: crate::game::Used = view.used_cards.get(prev).cloned().unwrap_or_default();
            for card in &view.seen_hands[prev] {
                if let Some(i) = used.iter().position(|u| u == card) {
                    used.remove(i);
                } else {
                    out[passed + card.0 as usize] += 1.0;
                }
            }
        }
        let n = view.cities.len();
        let mut at = passed + c;
        for k in 0..CITY_SLOTS.min(n) {
            let city_index = (seat + k) % n;
            let city = &view.cities[city_index];
            let block = &mut out[at..at + self.city_len()];
            block[0] = 1.0;
            block[1] = (view.free_city == Some(city_index as u8)) as u8 as f32;
            block[2 + city.wonder.0 as usize] = 1.0;
            let mut i = 2 + self.wonders;
            block[i] = (city.side == Side::B) as u8 as f32;
            block[i + 1] = city.stages as f32;
            block[i + 2] = city.stage_count(self.catalog) as f32;
            block[i + 3] = city.coins as f32;
            block[i + 4] = city.shields as f32;
            block[i + 5] = city.tokens.plus1 as f32;
            block[i + 6] = city.tokens.plus3 as f32;
            block[i + 7] = city.tokens.plus5 as f32;
            block[i + 8] = city.tokens.minus1 as f32;
            block[i + 9] = view.hand_sizes.get(city_index).copied().unwrap_or(0) as f32;
            block[i + 10] = view.chosen.get(city_index).copied().unwrap_or(false) as u8 as f32;
            i += 11;
            for card in city.built.iter() {
                block[i + card.0 as usize] = 1.0;
            }
            i += c;
            let v = score_city(self.catalog, &view.cities, city_index).values();
            // The base game's 8 categories (Edifice's and Armada's categories are not encoded).
            for (j, v) in v[..7].iter().chain(&v[v.len() - 1..]).enumerate() {
                block[i + j] = *v as f32;
            }
            at += self.city_len();
        }
    }

    /// The index of an action (its payment left out).
    pub fn action_index(&self, action: &Action) -> usize {
        let c = self.cards;
        match *action {
            Action::Build { card, .. } => card.0 as usize,
            Action::Wonder { card, .. } => c + card.0 as usize,
            // Edifice: discarding a built card for a penalty shares the discard index (the
            // phase tells them apart); so does Armada's discard for a yellow move (not encoded).
            Action::Discard { card } | Action::DiscardBuilt { card } | Action::DiscardYellow { card } => {
                2 * c + card.0 as usize
            }
            Action::BuildDiscarded { card } => 3 * c + card.0 as usize,
            // Armada's island and naval choices are not encoded: they share the pass index.
            Action::Pass | Action::ChooseIsland { .. } | Action::StayOutOfNaval { .. } => 4 * c,
            Action::ChooseSide { side: Side::A } => 4 * c + 1,
            Action::ChooseSide { side: Side::B } => 4 * c + 2,
        }
    }

    /// What an index means: its kind and card. `None` when out of range.
    pub fn describe(&self, index: usize) -> Option<(ActionKind, Option<crate::CardId>)> {
        let c = self.cards;
        let card = |i: usize| Some(crate::CardId(i as u8));
        Some(match index {
            i if i < c => (ActionKind::Build, card(i)),
            i if i < 2 * c => (ActionKind::Wonder, card(i - c)),
            i if i < 3 * c => (ActionKind::Discard, card(i - 2 * c)),
            i if i < 4 * c => (ActionKind::BuildDiscarded, card(i - 3 * c)),
            i if i == 4 * c => (ActionKind::Pass, None),
            i if i == 4 * c + 1 => (ActionKind::ChooseSide(Side::A), None),
            i if i == 4 * c + 2 => (ActionKind::ChooseSide(Side::B), None),
            i if i == 4 * c + 3 => (ActionKind::Wait, None),
            _ => return None,
        })
    }

    /// Writes the legality mask of `legal` (a seat's legal actions) into `out` (of length
    /// [`Encoder::action_count`]): an index is legal when some legal action has it; "wait" is
    /// legal exactly when `legal` is empty.
    pub fn mask(&self, legal: &[Action], out: &mut [bool]) {
        assert_eq!(out.len(), self.action_count(), "mask buffer length");
        out.fill(false);
        for a in legal {
            out[self.action_index(a)] = true;
        }
        out[self.wait_index()] = legal.is_empty();
    }

    /// The legal action for `index` with the default payment (see the module docs); `None` when
    /// no legal action has that index (for "wait" too).
    pub fn choose(&self, legal: &[Action], index: usize) -> Option<Action> {
        self.payments(legal, index).min_by_key(|a| a.payment().map(default_payment_key))
    }

    /// Every legal action with index `index`: one per way to pay.
    pub fn payments<'a>(&self, legal: &'a [Action], index: usize) -> impl Iterator<Item = Action> + 'a {
        let enc = *self;
        legal.iter().copied().filter(move |a| enc.action_index(a) == index)
    }
}

/// The order of payments for the default choice (smallest first): total coins, then whether it
/// spends Olympia's free build, then the larger payment to one neighbour, then the left payment.
pub fn default_payment_key(p: Payment) -> (u16, bool, u8, u8) {
    (p.total(), p.free == Some(FreeBy::FreeBuild), p.left.max(p.right), p.left)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Edition;
    use crate::{CardId, Game, Setup};

    #[test]
    fn default_payment_prefers_cheapest_then_keeps_the_free_build() {
        let p = |left, right, bank, free| Payment { left, right, bank, free, ..Payment::default() };
        let mut options =
            [p(2, 1, 0, None), p(0, 2, 0, None), p(1, 1, 0, None), p(0, 0, 0, Some(FreeBy::FreeBuild))];
        options.sort_by_key(|x| default_payment_key(*x));
        assert_eq!(options[0], p(0, 0, 0, Some(FreeBy::FreeBuild)));
        assert_eq!(options[1], p(1, 1, 0, None), "2 coins spread before 2 coins to one side");
        assert_eq!(options[2], p(0, 2, 0, None));
        let mut tie = [p(0, 0, 0, Some(FreeBy::FreeBuild)), p(0, 0, 0, None)];
        tie.sort_by_key(|x| default_payment_key(*x));
        assert_eq!(tie[0].free, None, "a card paid by own resources keeps Olympia's free build");
    }

    #[test]
    fn layout_covers_the_observation() {
        for edition in [Edition::First, Edition::Second] {
            let enc = Encoder::new(Catalog::get(edition));
            let layout = enc.layout();
            let last = layout.last().unwrap();
            assert_eq!(last.1 + last.2, enc.observation_len());
            let c = enc.catalog().cards.len();
            let w = enc.catalog().wonders.len();
            assert_eq!(enc.observation_len(), 23 + 3 * c + 7 * (c + w + 21));
            assert_eq!(enc.action_count(), 4 * c + 4);
        }
    }

    #[test]
    fn indices_round_trip() {
        let enc = Encoder::new(Catalog::get(Edition::First));
        let card = CardId(5);
        for a in [
            Action::Build { card, pay: Payment::default(), naval: crate::Naval::NONE },
            Action::Wonder { card, pay: Payment::default(), extra: crate::action::StageExtra::NONE },
            Action::Discard { card },
            Action::BuildDiscarded { card },
        ] {
            let (_, c) = enc.describe(enc.action_index(&a)).unwrap();
            assert_eq!(c, Some(card));
        }
        assert_eq!(enc.describe(enc.action_index(&Action::Pass)).unwrap().0, ActionKind::Pass);
        assert_eq!(enc.describe(enc.wait_index()).unwrap().0, ActionKind::Wait);
        assert_eq!(enc.describe(enc.action_count()), None);
    }

    #[test]
    fn first_observation_by_hand() {
        let game = Game::new(&Setup::new(3, 42)).unwrap();
        let enc = Encoder::new(game.catalog());
        let mut obs = vec![0.0; enc.observation_len()];
        enc.observe(&game.view(1), &mut obs);
        let seg = |name: &str| {
            let (_, at, len) = enc.layout().into_iter().find(|s| s.0 == name).unwrap();
            obs[at..at + len].to_vec()
        };
        assert_eq!(seg("age"), [1.0, 0.0, 0.0]);
        assert_eq!(seg("turn"), [1.0]);
        assert_eq!(seg("phase"), [0.0, 1.0, 0.0, 0.0, 0.0]);
        assert_eq!(seg("must_act"), [1.0]);
        assert_eq!(seg("hand").iter().sum::<f32>(), 7.0);
        for card in game.hand(1) {
            assert!(seg("hand")[card.0 as usize] >= 1.0);
        }
        // 3 coins at the start (002 遊戲準備); city0 is the seat's own, city1 its left (seat 2).
        assert_eq!(seg("city0.coins"), [3.0]);
        assert_eq!(seg("city0.wonder")[game.city(1).wonder.0 as usize], 1.0);
        assert_eq!(seg("city1.wonder")[game.city(2).wonder.0 as usize], 1.0);
        assert_eq!(seg("city2.wonder")[game.city(0).wonder.0 as usize], 1.0);
        assert_eq!(seg("city3.present"), [0.0]);
        // 3 coins are worth 1 treasury point (002 計分 2).
        assert_eq!(seg("city0.score")[1], 1.0);
        assert_eq!(seg("city0.hand_size"), [7.0]);
    }
}
