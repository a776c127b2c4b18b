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
//! An encoder made for a game's expansions ([`Encoder::with_expansions`], [`Encoder::for_game`])
//! appends their indices after these, only when the expansion is played (a base game's space is
//! exactly the one above). With `E = C` when Edifice is played (else 0) and `I` the number of
//! islands of the Armada data:
//!
//! | index | action |
//! |---|---|
//! | `4C + 4 + c` | Edifice: build the next wonder stage with card `c` **and take part** in the Age's project (001 A. 參與計劃) |
//! | `4C + 4 + E + c` | Armada: build card `c` with its colour's naval construction (armada.md §2.3) |
//! | `5C + 4 + E + c` | Armada: build the stage with card `c` and the wonder fleet's naval construction (any fleet with Lost Isle: the cheapest, see below) |
//! | `6C + 4 + E + c` | Armada: discard card `c` for a free step of the yellow ship (§2.4) |
//! | `7C + 4 + E + i` | Armada: keep island `i` of the ones dealt in an exploration (§2.6) |
//! | `7C + 4 + E + I` | Armada, Forgotten Port: stay out of the Age's naval conflict (§6) |
//! | `7C + 5 + E + I` | Armada, Forgotten Port: take part in it |
//!
//! Edifice's penalty discard (`DiscardBuilt`) uses the discard indices `2C + c` (the phase tells
//! them apart). Without an expansion's part (plain [`Encoder::new`] on an expansion's game), its
//! choices share the base indices: a stage with or without taking part is `C + c`, a naval build
//! `c`, a yellow discard `2C + c`, an island or Forgotten Port's choice `4C`.
//!
//! An index does not say how a construction is paid. [`Encoder::choose`] picks the **default
//! payment**: the fewest coins in all; among equal totals, one that keeps Olympia's free build
//! of the Age; then the smaller largest payment to one neighbour (spreading the coins); then
//! fewer coins to the left neighbour (every coin paid counts, to any player or the bank). A chain,
//! or a 2nd-edition Olympia power, makes a card free and is then the only way. Choices an index
//! leaves open are then made by [`default_choice_key`]: Armada's free moves (a blue Armada
//! card's, White-Surf Port's and Tempest Archipelago's) advance the earliest ships in the order
//! red, yellow, blue, green that the rules allow; Lost Isle's stage construction takes the
//! earliest fleet; a Carthage stage takes its first effect; an Ur stage's pawn is of the earliest
//! Age offered. Agents that want to choose get every
//! legal way from [`Encoder::payments`].
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
//! The scores are those of the game's rules (with Armada: guilds capped at 10, extra science
//! symbols). With [`Encoder::with_expansions`], the expansions' parts follow, each only when the
//! expansion is played (the base part keeps its layout; its length grows only with the catalog's
//! cards and wonders, which an expansion's catalog extends). Edifice adds `P + 65` floats, Armada
//! `C + W + 26 + 2I + 8 (B + I + 16)`:
//!
//! - **Edifice** (`P` projects in the data): `edifice.project` (P, one-hot: the current Age's
//!   project), `edifice.pawns_left` (3: pawns still on each Age's card), `edifice.completed`,
//!   `edifice.failed` (3 flags each), then 7 blocks `edifice.city{k}.*` (clockwise from the seat):
//!   `pawns` (3: pawns held by Age), `debt` (3: debt tokens by Age), `took_part` (in the current
//!   Age's project), `score` (the `edifice` category now);
//! - **Armada** (`B` boards, `I` islands in the data): `city7.*`, an 8th base city block (the
//!   seat's right neighbour in an 8-player game, else zeros), `armada.deck_sizes` (3: cards left
//!   in the island decks of levels 1–3), `armada.phase` (2 flags: exploring, Forgotten Port's
//!   choice), `armada.dealt` (I: the islands dealt to this seat in the exploration under way),
//!   `armada.seen` (I: the islands this seat has seen), then 8 blocks `armada.city{k}.*`:
//!   `board` (B, one-hot), `ships` (4: the red, yellow, blue and green ships' steps, 0–6),
//!   `islands` (I: the islands in play in the city), `naval_tokens` (3: the token of each Age),
//!   `naval_strength`, `trade_level`, `pending_tax` and `pending_piracies` (the coin losses this
//!   city causes at this turn's step 6), `incursions_held` and `incursions_suffered` (this Age's
//!   incursion tokens), `score` (3: the `naval`, `fleet` and `islands` categories now).
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
use crate::edifice::{Expansions, Outcome};
use crate::log::Used;
use crate::score::{Score, score_city_with};
use crate::state::Phase;
use crate::view::View;

/// City blocks in the base observation: the most cities a base game holds (7 players). An
/// Armada game of 8 players has its 8th city (the seat's right neighbour) in the Armada part.
pub const CITY_SLOTS: usize = 7;
/// City slots of the Armada part (8 players with Armada).
const ARMADA_SLOTS: usize = 8;
/// Floats of the global block before the card vectors (with 8 reserved for expansions).
const GLOBAL: usize = 3 + 1 + 5 + 4 + 2 + 8;
/// Floats of a city block besides its `built` cards and wonder one-hot.
const CITY_FIXED: usize = 2 + 1 + 2 + 1 + 1 + 4 + 2 + 8;
/// Floats of Edifice's global part besides the project one-hot: pawns left, completed, failed
/// (3 each).
const EDIFICE_GLOBAL: usize = 9;
/// Floats of an Edifice city block: pawns (3), debt (3), took part this Age, `edifice` score.
const EDIFICE_CITY: usize = 8;
/// Floats of an Armada city block besides its board one-hot and islands: ships (4), naval tokens
/// (3), naval strength, trade level, pending tax, pending piracies, incursion tokens held and
/// suffered, score (3).
const ARMADA_CITY_FIXED: usize = 4 + 3 + 1 + 1 + 2 + 2 + 3;

/// The kind of an action index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActionKind {
    /// Build a card from hand.
    Build,
    /// Build a wonder stage with a card.
    Wonder,
    /// Discard a card (or, in Edifice's penalty phase, a built card).
    Discard,
    /// Build a card from the discard pile.
    BuildDiscarded,
    /// Build nothing from the discard pile.
    Pass,
    /// Choose a wonder side.
    ChooseSide(Side),
    /// Nothing to decide.
    Wait,
    /// Edifice: build a wonder stage with a card and take part in the Age's project.
    WonderTakePart,
    /// Armada: build a card with its colour's naval construction.
    BuildNaval,
    /// Armada: build a wonder stage with the naval construction of the wonder fleet.
    WonderNaval,
    /// Armada: discard a card for a free step of the yellow ship.
    DiscardYellow,
    /// Armada: keep this island (index into the Armada data's islands) in an exploration.
    KeepIsland(u8),
    /// Armada, Forgotten Port: stay out of this Age's naval conflict.
    StayOutOfNaval,
    /// Armada, Forgotten Port: take part in this Age's naval conflict.
    TakePartInNaval,
}

/// Encodes views and actions of one edition's catalog (and the expansions played) into
/// fixed-size tensors.
#[derive(Clone, Copy, Debug)]
pub struct Encoder {
    catalog: &'static Catalog,
    cards: usize,
    wonders: usize,
    expansions: Expansions,
    /// Edifice's projects in the data (0 without Edifice).
    projects: usize,
    /// Armada's islands in the data (0 without Armada).
    islands: usize,
    /// Armada's shipyard boards in the data (0 without Armada).
    boards: usize,
}

impl Encoder {
    /// An encoder for base games on `catalog` (no expansion part; an expansion's choices share
    /// the base indices, as described in the module docs).
    pub fn new(catalog: &'static Catalog) -> Encoder {
        Encoder::with_expansions(catalog, Expansions::NONE)
    }

    /// An encoder for games on `catalog` with `expansions`: the observation and the action space
    /// gain each expansion's part (only the expansions the catalog has data for).
    pub fn with_expansions(catalog: &'static Catalog, expansions: Expansions) -> Encoder {
        let projects = match (&catalog.edifice, expansions.edifice()) {
            (Some(e), true) => e.projects.len(),
            _ => 0,
        };
        let (islands, boards) = match (&catalog.armada, expansions.armada()) {
            (Some(a), true) => (a.islands().len(), a.boards().len()),
            _ => (0, 0),
        };
        let expansions = Expansions(
            if projects > 0 { Expansions::EDIFICE.0 } else { 0 }
                | if islands > 0 { Expansions::ARMADA.0 } else { 0 },
        );
        Encoder {
            catalog,
            cards: catalog.cards.len(),
            wonders: catalog.wonders.len(),
            expansions,
            projects,
            islands,
            boards,
        }
    }

    /// The encoder of `game`: its catalog and the expansions it plays.
    pub fn for_game(game: &crate::Game) -> Encoder {
        let e = Expansions(
            if game.edifice().is_some() { Expansions::EDIFICE.0 } else { 0 }
                | if game.armada().is_some() { Expansions::ARMADA.0 } else { 0 },
        );
        Encoder::with_expansions(game.catalog(), e)
    }

    /// The catalog it encodes.
    pub fn catalog(&self) -> &'static Catalog {
        self.catalog
    }

    /// The expansions whose parts it encodes.
    pub fn expansions(&self) -> Expansions {
        self.expansions
    }

    fn city_len(&self) -> usize {
        CITY_FIXED + self.wonders + self.cards
    }

    fn base_len(&self) -> usize {
        GLOBAL + 3 * self.cards + CITY_SLOTS * self.city_len()
    }

    fn edifice_len(&self) -> usize {
        if self.expansions.edifice() { self.projects + EDIFICE_GLOBAL + CITY_SLOTS * EDIFICE_CITY } else { 0 }
    }

    fn armada_city_len(&self) -> usize {
        self.boards + self.islands + ARMADA_CITY_FIXED
    }

    fn armada_len(&self) -> usize {
        if self.expansions.armada() {
            self.city_len() + 3 + 2 + 2 * self.islands + ARMADA_SLOTS * self.armada_city_len()
        } else {
            0
        }
    }

    /// Floats in an observation.
    pub fn observation_len(&self) -> usize {
        self.base_len() + self.edifice_len() + self.armada_len()
    }

    fn base_actions(&self) -> usize {
        4 * self.cards + 4
    }

    /// The first index of Armada's actions.
    fn armada_start(&self) -> usize {
        self.base_actions() + if self.expansions.edifice() { self.cards } else { 0 }
    }

    /// Indices in the action space.
    pub fn action_count(&self) -> usize {
        self.armada_start() + if self.expansions.armada() { 3 * self.cards + self.islands + 2 } else { 0 }
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
        let city = [
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
        ];
        for k in 0..CITY_SLOTS {
            for (name, len) in city {
                push(format!("city{k}.{name}"), len);
            }
        }
        if self.expansions.edifice() {
            for (name, len) in [
                ("edifice.project", self.projects),
                ("edifice.pawns_left", 3),
                ("edifice.completed", 3),
                ("edifice.failed", 3),
            ] {
                push(name.to_string(), len);
            }
            for k in 0..CITY_SLOTS {
                for (name, len) in [("pawns", 3), ("debt", 3), ("took_part", 1), ("score", 1)] {
                    push(format!("edifice.city{k}.{name}"), len);
                }
            }
        }
        if self.expansions.armada() {
            for (name, len) in city {
                push(format!("city{CITY_SLOTS}.{name}"), len);
            }
            for (name, len) in [
                ("armada.deck_sizes", 3),
                ("armada.phase", 2),
                ("armada.dealt", self.islands),
                ("armada.seen", self.islands),
            ] {
                push(name.to_string(), len);
            }
            for k in 0..ARMADA_SLOTS {
                for (name, len) in [
                    ("board", self.boards),
                    ("ships", 4),
                    ("islands", self.islands),
                    ("naval_tokens", 3),
                    ("naval_strength", 1),
                    ("trade_level", 1),
                    ("pending_tax", 1),
                    ("pending_piracies", 1),
                    ("incursions_held", 1),
                    ("incursions_suffered", 1),
                    ("score", 3),
                ] {
                    push(format!("armada.city{k}.{name}"), len);
                }
            }
        }
        out
    }

    /// Writes the base block of the city at `city_index` into `block`.
    fn city_block(&self, view: &View, city_index: usize, score: &Score, block: &mut [f32]) {
        let city = &view.cities[city_index];
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
        i += self.cards;
        let v = score.values();
        // The base game's 8 categories (`edifice`, `naval`, `fleet` and `islands` are in the
        // expansions' parts).
        for (j, v) in v[..7].iter().chain(&v[v.len() - 1..]).enumerate() {
            block[i + j] = *v as f32;
        }
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
            // are Armada's exploration and Forgotten Port's choice (the Armada part tells them
            // apart).
            Phase::BuildFromDiscard { .. }
            | Phase::EdificeDiscard { .. }
            | Phase::Explore { .. }
            | Phase::IslandMoves { .. }
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
            Phase::EdificeDiscard { city }
            | Phase::Explore { city }
            | Phase::IslandMoves { city }
            | Phase::NavalOptOut { city } => city as usize == seat,
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
            let mut used: Used = view.used_cards.get(prev).cloned().unwrap_or_default();
            for card in &view.seen_hands[prev] {
                if let Some(i) = used.iter().position(|u| u == card) {
                    used.remove(i);
                } else {
                    out[passed + card.0 as usize] += 1.0;
                }
            }
        }
        let n = view.cities.len();
        // Scores with every rule of the game played (Armada's guild cap and extra symbols too).
        let armada_cities = view.armada.as_ref().map(|a| a.cities.as_slice());
        let scores: Vec<Score> =
            (0..n).map(|i| score_city_with(self.catalog, &view.cities, armada_cities, i)).collect();
        let mut at = passed + c;
        for k in 0..CITY_SLOTS.min(n) {
            let city_index = (seat + k) % n;
            self.city_block(view, city_index, &scores[city_index], &mut out[at..at + self.city_len()]);
            at += self.city_len();
        }
        let mut at = self.base_len();
        if self.expansions.edifice() {
            self.observe_edifice(view, &scores, &mut out[at..at + self.edifice_len()]);
            at += self.edifice_len();
        }
        if self.expansions.armada() {
            self.observe_armada(view, &scores, &mut out[at..at + self.armada_len()]);
        }
    }

    /// Edifice's part (edifice.md §5): the current Age's project, each project's pawns
    /// left and outcome, and for each city its pawns, debt tokens, whether it took part this Age
    /// and its `edifice` points.
    fn observe_edifice(&self, view: &View, scores: &[Score], out: &mut [f32]) {
        let Some(e) = &view.edifice else { return };
        let p = self.projects;
        if (1..=3).contains(&view.age) {
            let project = e.projects[view.age as usize - 1].0 as usize;
            if project < p {
                out[project] = 1.0;
            }
        }
        for age in 0..3 {
            out[p + age] = e.left[age] as f32;
            out[p + 3 + age] = (e.outcome[age] == Outcome::Completed) as u8 as f32;
            out[p + 6 + age] = (e.outcome[age] == Outcome::Failed) as u8 as f32;
        }
        let n = view.cities.len();
        let seat = view.seat as usize;
        for k in 0..CITY_SLOTS.min(n) {
            let city_index = (seat + k) % n;
            let ed = &view.cities[city_index].edifice;
            let b = &mut out[p + EDIFICE_GLOBAL + k * EDIFICE_CITY..][..EDIFICE_CITY];
            for age in 0..3 {
                b[age] = ed.pawns[age] as f32;
                b[3 + age] = ed.debt[age] as f32;
            }
            if (1..=3).contains(&view.age) {
                b[6] = (e.joined[view.age as usize - 1] >> city_index & 1) as f32;
            }
            b[7] = scores[city_index].values()[7] as f32;
        }
    }

    /// Armada's part (armada.md §2): the 8th city's base block, the island decks'
    /// sizes, the exploration and Forgotten Port phases, the islands dealt to this seat while it
    /// explores and those it has seen, and for each city its board, ship steps, islands, naval
    /// tokens, naval strength, trade level, the coin losses noted for this turn, the incursion
    /// tokens of this Age and its `naval`, `fleet` and `islands` points.
    fn observe_armada(&self, view: &View, scores: &[Score], out: &mut [f32]) {
        let n = view.cities.len();
        let seat = view.seat as usize;
        let city_len = self.city_len();
        if n > CITY_SLOTS {
            let city_index = (seat + CITY_SLOTS) % n;
            self.city_block(view, city_index, &scores[city_index], &mut out[..city_len]);
        }
        let Some(a) = &view.armada else { return };
        let (i_len, b_len) = (self.islands, self.boards);
        let mut at = city_len;
        for level in 0..3 {
            out[at + level] = a.deck_sizes[level] as f32;
        }
        at += 3;
        // An island's choice of ships for its free moves is kept as an island too (the same
        // action index): it shares the exploration's flag.
        out[at] = matches!(view.phase, Phase::Explore { .. } | Phase::IslandMoves { .. }) as u8 as f32;
        out[at + 1] = matches!(view.phase, Phase::NavalOptOut { .. }) as u8 as f32;
        at += 2;
        for island in &a.dealt {
            if (island.0 as usize) < i_len {
                out[at + island.0 as usize] = 1.0;
            }
        }
        at += i_len;
        for i in 0..i_len.min(32) {
            out[at + i] = a.seen.contains(crate::armada::IslandId(i as u8)) as u8 as f32;
        }
        at += i_len;
        for k in 0..ARMADA_SLOTS.min(n) {
            let city_index = (seat + k) % n;
            let Some(ac) = a.cities.get(city_index) else { continue };
            let b = &mut out[at + k * self.armada_city_len()..][..self.armada_city_len()];
            if (ac.shipyard.board.0 as usize) < b_len {
                b[ac.shipyard.board.0 as usize] = 1.0;
            }
            let mut i = b_len;
            for (f, step) in ac.shipyard.steps.iter().enumerate() {
                b[i + f] = *step as f32;
            }
            i += 4;
            for isl in 0..i_len.min(32) {
                b[i + isl] = ac.islands.contains(crate::armada::IslandId(isl as u8)) as u8 as f32;
            }
            i += i_len;
            for age in 0..3 {
                b[i + age] = ac.naval[age] as f32;
            }
            i += 3;
            b[i] = ac.naval_strength(a.data) as f32;
            b[i + 1] = ac.trade_level(a.data) as f32;
            b[i + 2] = a.pending.tax.get(city_index).copied().unwrap_or(0) as f32;
            b[i + 3] = a.pending.piracies.get(city_index).copied().unwrap_or(0) as f32;
            b[i + 4] = a.incursions.iter().filter(|(h, _)| *h as usize == city_index).count() as f32;
            b[i + 5] = a.incursions.iter().filter(|(_, t)| *t as usize == city_index).count() as f32;
            i += 6;
            let v = scores[city_index].values();
            b[i..i + 3].copy_from_slice(&[v[8] as f32, v[9] as f32, v[10] as f32]);
        }
    }

    /// The index of an action (its payment, and the choices the default rule makes, left out).
    pub fn action_index(&self, action: &Action) -> usize {
        let c = self.cards;
        let armada = self.expansions.armada();
        let arm = self.armada_start();
        match *action {
            Action::Build { card, naval, .. } if armada && naval.construction().is_some() => {
                arm + card.0 as usize
            }
            Action::Build { card, .. } => card.0 as usize,
            Action::Wonder { card, extra, .. } if armada && extra.naval().is_some() => {
                arm + c + card.0 as usize
            }
            Action::Wonder { card, extra, .. } if self.expansions.edifice() && extra.take_part() => {
                self.base_actions() + card.0 as usize
            }
            Action::Wonder { card, .. } => c + card.0 as usize,
            Action::DiscardYellow { card } if armada => arm + 2 * c + card.0 as usize,
            // Edifice: discarding a built card for a penalty shares the discard index (the
            // phase tells them apart); so does Armada's yellow discard when Armada is not encoded.
            Action::Discard { card } | Action::DiscardBuilt { card } | Action::DiscardYellow { card } => {
                2 * c + card.0 as usize
            }
            Action::BuildDiscarded { card, .. } => 3 * c + card.0 as usize,
            Action::ChooseIsland { island, .. } if armada && (island.0 as usize) < self.islands => {
                arm + 3 * c + island.0 as usize
            }
            Action::StayOutOfNaval { stay_out } if armada => {
                arm + 3 * c + self.islands + if stay_out { 0 } else { 1 }
            }
            // Without the Armada part, its island and naval choices share the pass index.
            Action::Pass | Action::ChooseIsland { .. } | Action::StayOutOfNaval { .. } => 4 * c,
            Action::ChooseSide { side: Side::A } => 4 * c + 1,
            Action::ChooseSide { side: Side::B } => 4 * c + 2,
        }
    }

    /// What an index means: its kind and card. `None` when out of range.
    pub fn describe(&self, index: usize) -> Option<(ActionKind, Option<crate::CardId>)> {
        let c = self.cards;
        let card = |i: usize| Some(crate::CardId(i as u8));
        let base = self.base_actions();
        let arm = self.armada_start();
        Some(match index {
            i if i < c => (ActionKind::Build, card(i)),
            i if i < 2 * c => (ActionKind::Wonder, card(i - c)),
            i if i < 3 * c => (ActionKind::Discard, card(i - 2 * c)),
            i if i < 4 * c => (ActionKind::BuildDiscarded, card(i - 3 * c)),
            i if i == 4 * c => (ActionKind::Pass, None),
            i if i == 4 * c + 1 => (ActionKind::ChooseSide(Side::A), None),
            i if i == 4 * c + 2 => (ActionKind::ChooseSide(Side::B), None),
            i if i == 4 * c + 3 => (ActionKind::Wait, None),
            i if i >= self.action_count() => return None,
            i if i < arm => (ActionKind::WonderTakePart, card(i - base)),
            i if i < arm + c => (ActionKind::BuildNaval, card(i - arm)),
            i if i < arm + 2 * c => (ActionKind::WonderNaval, card(i - arm - c)),
            i if i < arm + 3 * c => (ActionKind::DiscardYellow, card(i - arm - 2 * c)),
            i if i < arm + 3 * c + self.islands => (ActionKind::KeepIsland((i - arm - 3 * c) as u8), None),
            i if i == arm + 3 * c + self.islands => (ActionKind::StayOutOfNaval, None),
            _ => (ActionKind::TakePartInNaval, None),
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

    /// The legal action for `index` with the default payment and choices (see the module docs);
    /// `None` when no legal action has that index (for "wait" too).
    pub fn choose(&self, legal: &[Action], index: usize) -> Option<Action> {
        self.payments(legal, index).min_by_key(default_choice_key)
    }

    /// Every legal action with index `index`: one per way to pay (and per free move, Carthage
    /// effect or Ur pawn).
    pub fn payments<'a>(&self, legal: &'a [Action], index: usize) -> impl Iterator<Item = Action> + 'a {
        let enc = *self;
        legal.iter().copied().filter(move |a| enc.action_index(a) == index)
    }
}

/// A payment's place in the default order ([`default_payment_key`]).
pub type PaymentKey = (u16, bool, u8, u8);

/// The order of payments for the default choice (smallest first): total coins, then whether it
/// spends Olympia's free build, then the larger payment to one neighbour, then the left payment.
pub fn default_payment_key(p: Payment) -> PaymentKey {
    (p.total(), p.free == Some(FreeBy::FreeBuild), p.left.max(p.right), p.left)
}

/// The order of the actions of one index for the default choice (smallest first): the payment
/// ([`default_payment_key`]), then the choices an index leaves open: Armada's free moves on the
/// earliest ships in the order red, yellow, blue, green (a blue card's free move, from hand or
/// from the discard pile, an island's free
/// moves: the set holding red if one does, then yellow, …; a move before none), a Carthage
/// stage's first effect before its second and an Ur pawn of the earliest Age, and Lost Isle's
/// naval construction of a stage on the earliest fleet.
pub fn default_choice_key(a: &Action) -> (Option<PaymentKey>, u8, u8) {
    let (first, second) = match *a {
        Action::Build { naval, .. } => (naval.free_move().map_or(4, |f| f as u8), 0),
        Action::BuildDiscarded { free_move, .. } => (free_move.map_or(4, |f| f as u8), 0),
        Action::Wonder { extra, .. } => (extra.0 & 0x0f, extra.naval().map_or(0, |f| f as u8)),
        // Red as the highest bit: among sets of the same size, the one with the earliest ships.
        Action::ChooseIsland { moves, .. } => {
            (15 - (0..4).map(|f| (moves >> f & 1) << (3 - f)).sum::<u8>(), 0)
        }
        _ => (0, 0),
    };
    (a.payment().map(default_payment_key), first, second)
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
            Action::BuildDiscarded { card, free_move: None },
        ] {
            let (_, c) = enc.describe(enc.action_index(&a)).unwrap();
            assert_eq!(c, Some(card));
        }
        assert_eq!(enc.describe(enc.action_index(&Action::Pass)).unwrap().0, ActionKind::Pass);
        assert_eq!(enc.describe(enc.wait_index()).unwrap().0, ActionKind::Wait);
        assert_eq!(enc.describe(enc.action_count()), None);
    }

    /// An Armada (and/or Edifice) game's setup, 1st edition, random boards.
    fn setup(players: u8, seed: u64, expansions: Expansions) -> Setup {
        Setup { expansions, ..Setup::new(players, seed) }
    }

    fn segment(enc: &Encoder, obs: &[f32], name: &str) -> Vec<f32> {
        let (_, at, len) = enc.layout().into_iter().find(|s| s.0 == name).unwrap_or_else(|| panic!("{name}"));
        obs[at..at + len].to_vec()
    }

    #[test]
    fn layouts_with_expansions_cover_the_observation() {
        let both = Expansions(Expansions::EDIFICE.0 | Expansions::ARMADA.0);
        for (catalog, exp) in [
            (Catalog::get(Edition::First), Expansions::NONE),
            (Catalog::extended(Edition::First), Expansions::EDIFICE),
            (Catalog::extended(Edition::Second), Expansions::EDIFICE),
            (Catalog::with_builtin_armada(Edition::First, true), Expansions::ARMADA),
            (Catalog::with_builtin_armada(Edition::First, true), both),
        ] {
            let enc = Encoder::with_expansions(catalog, exp);
            let layout = enc.layout();
            let mut at = 0;
            for (name, start, len) in &layout {
                assert_eq!(*start, at, "{name} follows the previous segment");
                at += len;
            }
            assert_eq!(at, enc.observation_len(), "{exp:?}");
            let names: std::collections::HashSet<_> = layout.iter().map(|s| &s.0).collect();
            assert_eq!(names.len(), layout.len(), "segment names are unique");
            let (c, w) = (catalog.cards.len(), catalog.wonders.len());
            let base = 23 + 3 * c + 7 * (c + w + 21);
            let p = if exp.edifice() { catalog.edifice.as_ref().unwrap().projects.len() + 65 } else { 0 };
            let (b, i) = catalog.armada.as_ref().map_or((0, 0), |a| (a.boards().len(), a.islands().len()));
            let a = if exp.armada() { c + w + 26 + 2 * i + 8 * (b + i + 16) } else { 0 };
            assert_eq!(enc.observation_len(), base + p + a);
            let actions =
                4 * c + 4 + if exp.edifice() { c } else { 0 } + if exp.armada() { 3 * c + i + 2 } else { 0 };
            assert_eq!(enc.action_count(), actions);
        }
        // The base game's sizes do not move (999 floats and 316 indices).
        let enc = Encoder::with_expansions(Catalog::get(Edition::First), Expansions::NONE);
        assert_eq!((enc.observation_len(), enc.action_count()), (999, 316));
        // The Armada catalog: 78 + 24 cards, 7 + 2 boards (Ur and Carthage), 15 projects, 8
        // shipyards, 27 islands.
        let enc =
            Encoder::with_expansions(Catalog::with_builtin_armada(Edition::First, true), Expansions::ARMADA);
        assert_eq!(enc.action_count(), 4 * 102 + 4 + 3 * 102 + 27 + 2);
    }

    #[test]
    fn expansion_indices_round_trip() {
        use crate::armada::{Fleet, IslandId};
        let catalog = Catalog::with_builtin_armada(Edition::First, true);
        let both = Expansions(Expansions::EDIFICE.0 | Expansions::ARMADA.0);
        let enc = Encoder::with_expansions(catalog, both);
        let card = CardId(90);
        let pay = Payment::default();
        let cases = [
            (Action::Build { card, pay, naval: crate::Naval::NONE }, ActionKind::Build),
            (
                Action::Build { card, pay, naval: crate::Naval::new(Some(Fleet::Blue), None) },
                ActionKind::BuildNaval,
            ),
            (
                Action::Wonder { card, pay, extra: crate::StageExtra::new(true, false, 0) },
                ActionKind::WonderTakePart,
            ),
            (
                Action::Wonder { card, pay, extra: crate::StageExtra::NONE.with_naval(Some(Fleet::Red)) },
                ActionKind::WonderNaval,
            ),
            (Action::Wonder { card, pay, extra: crate::StageExtra::NONE }, ActionKind::Wonder),
            (Action::DiscardYellow { card }, ActionKind::DiscardYellow),
            (Action::Discard { card }, ActionKind::Discard),
            (Action::DiscardBuilt { card }, ActionKind::Discard),
        ];
        let mut seen = std::collections::HashSet::new();
        for (a, kind) in cases {
            let i = enc.action_index(&a);
            assert!(i < enc.action_count());
            assert_eq!(enc.describe(i), Some((kind, Some(card))), "{a:?}");
            seen.insert(i);
        }
        assert_eq!(seen.len(), 7, "only the two discards share an index");
        let island = Action::ChooseIsland { island: IslandId(4), moves: 0b11 };
        assert_eq!(enc.describe(enc.action_index(&island)), Some((ActionKind::KeepIsland(4), None)));
        let out = enc.action_index(&Action::StayOutOfNaval { stay_out: true });
        let part = enc.action_index(&Action::StayOutOfNaval { stay_out: false });
        assert_eq!(enc.describe(out), Some((ActionKind::StayOutOfNaval, None)));
        assert_eq!(enc.describe(part), Some((ActionKind::TakePartInNaval, None)));
        assert_eq!(part, enc.action_count() - 1);
        assert_eq!(enc.describe(enc.action_count()), None);
        // Without the Armada part, the expansion's choices fold into the base indices.
        let plain = Encoder::new(catalog);
        assert_eq!(plain.action_index(&island), 4 * 102);
        assert_eq!(plain.action_index(&Action::DiscardYellow { card }), 2 * 102 + 90);
    }

    #[test]
    fn default_choice_takes_the_earliest_free_moves() {
        use crate::armada::IslandId;
        let island = |moves| Action::ChooseIsland { island: IslandId(2), moves };
        let enc =
            Encoder::with_expansions(Catalog::with_builtin_armada(Edition::First, true), Expansions::ARMADA);
        // Bits by fleet: red 1, yellow 2, blue 4, green 8.
        let legal = [island(0b1100), island(0b0110), island(0b1001), island(0b0101)];
        let index = enc.action_index(&legal[0]);
        assert_eq!(enc.choose(&legal, index), Some(island(0b0101)), "red and blue before red and green");
        assert_eq!(enc.payments(&legal, index).count(), 4);
        let legal = [island(0b1100), island(0b0110)];
        assert_eq!(enc.choose(&legal, index), Some(island(0b0110)), "yellow and blue before blue and green");
        // A blue card's free move: red before green, a move before none.
        let build = |m| Action::Build {
            card: CardId(90),
            pay: Payment::default(),
            naval: crate::Naval::new(None, m),
        };
        let legal =
            [build(None), build(Some(crate::armada::Fleet::Green)), build(Some(crate::armada::Fleet::Red))];
        assert_eq!(enc.choose(&legal, 90), Some(build(Some(crate::armada::Fleet::Red))));
        // A cheaper payment comes first, whatever the moves.
        let mut dear = build(Some(crate::armada::Fleet::Red));
        if let Action::Build { pay, .. } = &mut dear {
            pay.left = 2;
        }
        let cheap = build(Some(crate::armada::Fleet::Green));
        assert_eq!(enc.choose(&[dear, cheap], 90), Some(cheap));
    }

    #[test]
    fn first_armada_observation_by_hand() {
        let game = Game::new(&setup(4, 7, Expansions::ARMADA)).unwrap();
        let enc = Encoder::for_game(&game);
        assert!(enc.expansions().armada() && !enc.expansions().edifice());
        let mut obs = vec![0.0; enc.observation_len()];
        enc.observe(&game.view(2), &mut obs);
        let seg = |name: &str| segment(&enc, &obs, name);
        // 8-card hands with Armada (000 遊戲準備; armada.md §2.2), 3 coins, every ship on its
        // start space (§2.2 item 6), 9 islands in each level's deck, nothing dealt yet.
        assert_eq!(seg("hand").iter().sum::<f32>(), 8.0);
        assert_eq!(seg("city0.hand_size"), [8.0]);
        assert_eq!(seg("phase"), [0.0, 1.0, 0.0, 0.0, 0.0]);
        assert_eq!(seg("armada.deck_sizes"), [9.0, 9.0, 9.0]);
        assert_eq!(seg("armada.phase"), [0.0, 0.0]);
        assert_eq!(seg("armada.dealt").iter().sum::<f32>(), 0.0);
        assert_eq!(seg("armada.seen").iter().sum::<f32>(), 0.0);
        let armada = game.armada().unwrap();
        for k in 0..4 {
            let city = (2 + k) % 4;
            assert_eq!(seg(&format!("city{k}.coins")), [3.0]);
            assert_eq!(seg(&format!("armada.city{k}.ships")), [0.0; 4]);
            assert_eq!(seg(&format!("armada.city{k}.islands")).iter().sum::<f32>(), 0.0);
            assert_eq!(seg(&format!("armada.city{k}.naval_tokens")), [0.0; 3]);
            let board = seg(&format!("armada.city{k}.board"));
            assert_eq!(board.iter().sum::<f32>(), 1.0);
            assert_eq!(board[armada.cities[city].shipyard.board.0 as usize], 1.0);
            // Trade level 0 on the start space (§2.7); no fleet VP; 3 coins = 1 treasury point.
            assert_eq!(seg(&format!("armada.city{k}.trade_level")), [0.0]);
            assert_eq!(seg(&format!("armada.city{k}.score")), [0.0; 3]);
            assert_eq!(seg(&format!("city{k}.score"))[1], 1.0);
        }
        assert_eq!(seg("armada.city4.board"), vec![0.0; 8], "only 4 cities");
        assert_eq!(seg("city7.present"), [0.0]);
        // The same game without the Armada part: the base layout, the same leading floats.
        let plain = Encoder::new(game.catalog());
        let mut base = vec![0.0; plain.observation_len()];
        plain.observe(&game.view(2), &mut base);
        assert_eq!(base[..], obs[..plain.observation_len()]);
    }

    #[test]
    fn eight_players_fill_the_eighth_city_block() {
        let game = Game::new(&setup(8, 3, Expansions::ARMADA)).unwrap();
        let enc = Encoder::for_game(&game);
        let mut obs = vec![0.0; enc.observation_len()];
        enc.observe(&game.view(0), &mut obs);
        // Seat 0's right neighbour is seat 7: the 8th block, clockwise from the seat.
        assert_eq!(segment(&enc, &obs, "city7.present"), [1.0]);
        assert_eq!(segment(&enc, &obs, "city7.wonder")[game.city(7).wonder.0 as usize], 1.0);
        // 7-card hands with 8 players (000 8人遊戲規則).
        assert_eq!(segment(&enc, &obs, "city7.hand_size"), [7.0]);
        assert_eq!(segment(&enc, &obs, "armada.city7.board").iter().sum::<f32>(), 1.0);
    }

    #[test]
    fn hidden_information_is_not_encoded() {
        let game = Game::new(&setup(4, 11, Expansions::ARMADA)).unwrap();
        let mut other = game.clone();
        // Other seats' hands and the island decks' order: everything seat 0 cannot see.
        other.hands.swap(1, 3);
        for deck in &mut other.armada_mut().unwrap().decks {
            deck.reverse();
        }
        assert_ne!(game.hand(1), other.hand(1));
        assert_ne!(game.armada().unwrap().decks, other.armada().unwrap().decks);
        let enc = Encoder::for_game(&game);
        let (mut a, mut b) = (vec![0.0; enc.observation_len()], vec![0.0; enc.observation_len()]);
        enc.observe(&game.view(0), &mut a);
        enc.observe(&other.view(0), &mut b);
        assert_eq!(a, b);
        // Seat 1 sees its own hand: its observation differs.
        enc.observe(&game.view(1), &mut a);
        enc.observe(&other.view(1), &mut b);
        assert_ne!(a, b);
    }

    /// Plays games to the end choosing uniformly among the masked indices (as an agent of the
    /// Python environments does), checking at every decision of every seat that the mask is
    /// exactly the set of the legal actions' indices, that every legal action's index describes
    /// it and leads back (through `choose`) to a legal action of that index. Returns how often
    /// each kind was legal.
    fn play_through_indices(setup: &Setup) -> std::collections::HashMap<ActionKind, usize> {
        use rand::{RngExt, SeedableRng};
        let mut game = Game::new(setup).unwrap();
        let enc = Encoder::for_game(&game);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(setup.seed);
        let mut mask = vec![false; enc.action_count()];
        let mut obs = vec![0.0; enc.observation_len()];
        let mut kinds = std::collections::HashMap::new();
        let mut steps = 0;
        while !game.is_over() {
            steps += 1;
            assert!(steps < 2000, "the game ends");
            for seat in game.to_act() {
                if !game.must_act(seat) {
                    continue;
                }
                let legal = game.legal_actions(seat);
                enc.mask(&legal, &mut mask);
                enc.observe(&game.view(seat), &mut obs);
                assert_eq!(segment(&enc, &obs, "must_act"), [1.0]);
                let indices: std::collections::BTreeSet<usize> =
                    legal.iter().map(|a| enc.action_index(a)).collect();
                let masked: std::collections::BTreeSet<usize> =
                    (0..mask.len()).filter(|&i| mask[i]).collect();
                assert_eq!(indices, masked);
                for a in &legal {
                    let i = enc.action_index(a);
                    let (kind, card) = enc.describe(i).unwrap();
                    let used = match *a {
                        Action::DiscardBuilt { card } => Some(card),
                        _ => a.card(),
                    };
                    assert_eq!(card, used, "{a:?}");
                    *kinds.entry(kind).or_insert(0) += 1;
                    let chosen = enc.choose(&legal, i).unwrap();
                    assert!(legal.contains(&chosen));
                    assert_eq!(enc.action_index(&chosen), i);
                }
                let pick: Vec<usize> = masked.into_iter().collect();
                let index = pick[rng.random_range(0..pick.len())];
                game.submit(seat, enc.choose(&legal, index).unwrap()).unwrap();
            }
        }
        kinds
    }

    #[test]
    fn every_legal_expansion_action_has_an_index_and_back() {
        let both = Expansions(Expansions::EDIFICE.0 | Expansions::ARMADA.0);
        let mut kinds = std::collections::HashMap::new();
        for s in [
            setup(4, 1, Expansions::ARMADA),
            setup(8, 2, Expansions::ARMADA),
            setup(3, 3, Expansions::ARMADA),
            setup(5, 4, Expansions::EDIFICE),
            setup(4, 5, both),
            setup(3, 6, Expansions::NONE),
        ] {
            for (k, n) in play_through_indices(&s) {
                *kinds.entry(k).or_insert(0) += n;
            }
        }
        for kind in [
            ActionKind::Build,
            ActionKind::Wonder,
            ActionKind::Discard,
            ActionKind::BuildNaval,
            ActionKind::WonderNaval,
            ActionKind::DiscardYellow,
            ActionKind::WonderTakePart,
        ] {
            assert!(kinds.get(&kind).copied().unwrap_or(0) > 0, "{kind:?} was legal at some point");
        }
        assert!(kinds.keys().any(|k| matches!(k, ActionKind::KeepIsland(_))), "an exploration happened");
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
