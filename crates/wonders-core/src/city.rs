//! A player's city: wonder board, built cards, coins, military tokens, and what they produce.

use crate::card::{CardId, CardSet, Colour, NameSet};
use crate::catalog::{Catalog, Side, WonderId};
use crate::effect::{Effect, Science};
use crate::resources::{Resource, ResourceSet, Resources};

/// The most "one of" producers a city can hold (six either/or brown cards, Caravansery, Forum,
/// two Alexandria stages, with room to spare for expansions).
pub const MAX_CHOICES: usize = 12;

/// What a city produces each turn: fixed units plus producers of one resource among several.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Production {
    /// Units produced every turn.
    pub fixed: Resources,
    choices: [ResourceSet; MAX_CHOICES],
    n_choices: u8,
    /// How many of the choices offer each resource (kept by `add_choice`): `max_of` without a
    /// scan of the choices, which the payment solver and the bots ask for every purchase. A
    /// word, so that [`Production::most`] is one addition.
    offering: Resources,
}

impl Production {
    /// A production of fixed units only.
    pub fn fixed(fixed: Resources) -> Production {
        Production { fixed, ..Production::default() }
    }

    /// The "one of" producers.
    #[inline]
    pub fn choices(&self) -> &[ResourceSet] {
        &self.choices[..self.n_choices as usize]
    }

    /// Adds a producer of one resource among `set` each turn. Beyond [`MAX_CHOICES`] producers
    /// (impossible with the printed cards) further ones are ignored.
    pub fn add_choice(&mut self, set: ResourceSet) {
        if (self.n_choices as usize) < MAX_CHOICES {
            self.choices[self.n_choices as usize] = set;
            self.n_choices += 1;
            for r in set.iter() {
                self.offering.add(r, 1);
            }
        }
    }

    /// The most units of `r` this production can give in one turn.
    #[inline]
    pub fn max_of(&self, r: Resource) -> u8 {
        self.fixed.get(r) + self.offering.get(r)
    }

    /// How many of its either/or producers offer each resource.
    #[inline]
    pub fn offering(&self) -> Resources {
        self.offering
    }

    /// The most units of each resource this production can give in one turn ([`Production::max_of`]
    /// of every resource at once; counts saturate at 255).
    ///
    /// ```
    /// use wonders_core::{Production, Resources, ResourceSet};
    /// let mut p = Production::fixed(Resources::from_letters("WWS").unwrap());
    /// p.add_choice(ResourceSet::from_letters("WC").unwrap());
    /// assert_eq!(p.most(), Resources::from_letters("WWWSC").unwrap());
    /// ```
    #[inline]
    pub fn most(&self) -> Resources {
        crate::payment::plus(&self.fixed, &self.offering)
    }
}

/// Military tokens won and lost at the ends of the Ages (rulebook 002, 時代結束).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MilitaryTokens {
    /// +1 tokens (Age I victories).
    pub plus1: u8,
    /// +3 tokens (Age II victories).
    pub plus3: u8,
    /// +5 tokens (Age III victories).
    pub plus5: u8,
    /// −1 tokens (defeats).
    pub minus1: u8,
}

impl MilitaryTokens {
    /// The points they are worth (002 計分 1: "+1, +3, +5, −1, −1, −1 = 6").
    ///
    /// ```
    /// use wonders_core::MilitaryTokens;
    /// let t = MilitaryTokens { plus1: 1, plus3: 1, plus5: 1, minus1: 3 };
    /// assert_eq!(t.points(), 6);
    /// ```
    pub fn points(&self) -> i32 {
        self.plus1 as i32 + 3 * self.plus3 as i32 + 5 * self.plus5 as i32 - self.minus1 as i32
    }

    /// Adds one token of value `v` (+1, +3, +5 or −1). Returns false for any other value.
    pub fn add(&mut self, v: i32) -> bool {
        match v {
            1 => self.plus1 += 1,
            3 => self.plus3 += 1,
            5 => self.plus5 += 1,
            -1 => self.minus1 += 1,
            _ => return false,
        }
        true
    }

    /// The token for a victory in `age`.
    pub fn victory_value(age: u8) -> i32 {
        match age {
            1 => 1,
            2 => 3,
            _ => 5,
        }
    }

    /// Token values in the order +1s, +3s, +5s, −1s.
    pub fn values(&self) -> Vec<i32> {
        let mut v = Vec::new();
        v.extend(std::iter::repeat_n(1, self.plus1 as usize));
        v.extend(std::iter::repeat_n(3, self.plus3 as usize));
        v.extend(std::iter::repeat_n(5, self.plus5 as usize));
        v.extend(std::iter::repeat_n(-1, self.minus1 as usize));
        v
    }
}

/// Where an effect comes from, which decides whether neighbours may buy what it produces
/// (002 貿易: only the board's starting resource, brown and grey cards).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The wonder board's starting resource.
    Board,
    /// An Age card of this colour.
    Card(Colour),
    /// A wonder stage.
    Stage,
}

/// A city. Everything in it is public, except that it does not record which cards were used for
/// wonder stages (they are face down under the board).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct City {
    /// The wonder board.
    pub wonder: WonderId,
    /// Its side.
    pub side: Side,
    /// Stages built, in order.
    pub stages: u8,
    /// Coins in the treasury.
    pub coins: u16,
    /// Military tokens.
    pub tokens: MilitaryTokens,
    /// Cards built.
    pub built: CardSet,
    /// Names built (the no-duplicate rule).
    pub names: NameSet,
    /// Built cards per colour.
    pub colour_counts: [u8; 7],
    /// Shields: red cards plus wonder stages.
    pub shields: u8,
    /// Science symbols (compass, gear, tablet) from cards.
    pub science: [u8; 3],
    /// Wild science symbols (Babylon, Scientists Guild).
    pub science_wild: u8,
    /// Everything the city can use.
    pub production: Production,
    /// What neighbours may buy from it.
    pub for_sale: Production,
    /// Resources bought for 1 coin from the left (index 0) and right (index 1) neighbours.
    pub discounts: [ResourceSet; 2],
    /// The price of each resource from the left (index 0) and right (index 1) neighbours: 2
    /// coins, or 1 with a discount (002 貿易; base-1e.md §4.1 item 4). Kept in step with
    /// `discounts`.
    pub prices: [[u8; 7]; 2],
    /// Olympia A: may build one card free per Age.
    pub free_build_per_age: bool,
    /// Whether this Age's free build is used.
    pub free_build_used: bool,
    /// Babylon B: plays the last card of each Age.
    pub plays_last_card: bool,
    /// Olympia B: copies a neighbour's guild at the end.
    pub copies_guild: bool,
    /// 2nd-edition Olympia Day: the first card of each colour is free.
    pub free_first_of_colour: bool,
    /// 2nd-edition Olympia Night: the first card of each Age is free.
    pub free_first_of_age: bool,
    /// 2nd-edition Olympia Night: the last card of each Age is free.
    pub free_last_of_age: bool,
    /// Bit `i` set: stage `i + 1` was built with its second effect (Carthage, edifice.md §5.4).
    pub stage_choices: u8,
    /// Edifice: the pawns, debt tokens and end-game rewards the city holds (all zero without
    /// the expansion).
    pub edifice: CityEdifice,
}

/// What a city holds of the Edifice expansion (public).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CityEdifice {
    /// Participation pawns held, by Age (index 0 = Age I).
    pub pawns: [u8; 3],
    /// Debt tokens held, by Age (edifice.md §5.2: −2/−3/−5 VP each).
    pub debt: [u8; 3],
    /// By Age: the project's id + 1 when the city holds a pawn of that Age's *completed*
    /// project (its end-game reward is scored), 0 otherwise.
    pub held: [u8; 3],
}

impl City {
    /// A new city with 0 coins and nothing built.
    pub fn new(catalog: &Catalog, wonder: WonderId, side: Side) -> City {
        let start = catalog.wonder(wonder).start;
        let mut city = City {
            wonder,
            side,
            stages: 0,
            coins: 0,
            tokens: MilitaryTokens::default(),
            built: CardSet::EMPTY,
            names: NameSet::default(),
            colour_counts: [0; 7],
            shields: 0,
            science: [0; 3],
            science_wild: 0,
            production: Production::default(),
            for_sale: Production::default(),
            discounts: [ResourceSet::EMPTY; 2],
            prices: [[2; 7]; 2],
            free_build_per_age: false,
            free_build_used: false,
            plays_last_card: false,
            copies_guild: false,
            free_first_of_colour: false,
            free_first_of_age: false,
            free_last_of_age: false,
            stage_choices: 0,
            edifice: CityEdifice::default(),
        };
        let mut r = Resources::NONE;
        r.add(start, 1);
        city.gain(&Effect::Produce(r), Source::Board);
        city
    }

    /// Whether a card of this name is already in the city.
    #[inline]
    pub fn has_name(&self, catalog: &Catalog, card: CardId) -> bool {
        self.names.contains(catalog.card(card).name_id)
    }

    /// Whether the city holds a chain parent of `card`.
    #[inline]
    pub fn has_chain_for(&self, catalog: &Catalog, card: CardId) -> bool {
        self.names.intersects(catalog.card(card).chain_parents)
    }

    /// Puts a card into the city and gains its lasting effects (production, shields, science,
    /// discounts). Coins are the game's business. The caller checks the no-duplicate rule.
    pub fn place(&mut self, catalog: &Catalog, card: CardId) {
        let def = catalog.card(card);
        self.built.insert(card);
        self.names.insert(def.name_id);
        self.colour_counts[def.colour as usize] += 1;
        for e in &def.effects {
            self.gain(e, Source::Card(def.colour));
        }
    }

    /// Builds the next wonder stage and gains its lasting effects. Returns false if every stage
    /// is already built.
    pub fn build_stage(&mut self, catalog: &Catalog) -> bool {
        self.build_stage_choosing(catalog, false)
    }

    /// Builds the next wonder stage with its second effect when `alternative` is set and the
    /// stage has one (Carthage, edifice.md §5.4), and gains its lasting effects.
    pub fn build_stage_choosing(&mut self, catalog: &Catalog, alternative: bool) -> bool {
        let stages = catalog.wonder(self.wonder).stages(self.side);
        let Some(stage) = stages.get(self.stages as usize) else {
            return false;
        };
        let alternative = alternative && !stage.alt.is_empty();
        if alternative {
            self.stage_choices |= 1 << self.stages;
        }
        self.stages += 1;
        for e in stage.effects_for(alternative) {
            self.gain(e, Source::Stage);
        }
        true
    }

    /// The effects of built stage `index` (0-based), with the choice made when it was built.
    pub fn stage_effects<'a>(&self, catalog: &'a Catalog, index: usize) -> &'a [Effect] {
        match catalog.wonder(self.wonder).stages(self.side).get(index) {
            Some(stage) => stage.effects_for(self.stage_choices & (1 << index) != 0),
            None => &[],
        }
    }

    /// The same city without the structure `card` (an Edifice penalty discards it): rebuilt from
    /// its board, stages and remaining cards, keeping its coins, tokens, the state of its
    /// once-per-Age power and its Edifice holdings (with their lasting rewards).
    pub fn without(&self, catalog: &Catalog, card: CardId) -> City {
        let mut c = City::new(catalog, self.wonder, self.side);
        for i in 0..self.stages as usize {
            c.build_stage_choosing(catalog, self.stage_choices & (1 << i) != 0);
        }
        for id in self.built.iter().filter(|&id| id != card) {
            c.place(catalog, id);
        }
        c.coins = self.coins;
        c.tokens = self.tokens;
        c.free_build_used = self.free_build_used;
        c.edifice = self.edifice;
        crate::edifice::regain_lasting(catalog, &mut c);
        c
    }

    /// The number of stages of this city's wonder side.
    pub fn stage_count(&self, catalog: &Catalog) -> u8 {
        catalog.wonder(self.wonder).stages(self.side).len() as u8
    }

    /// Gains the lasting part of an effect.
    pub fn gain(&mut self, effect: &Effect, source: Source) {
        let sellable_source = matches!(source, Source::Board | Source::Card(Colour::Brown | Colour::Grey));
        match *effect {
            Effect::Produce(r) => {
                // Every count at once (saturating, as `Resources::add`).
                self.production.fixed = crate::payment::plus(&self.production.fixed, &r);
                if sellable_source {
                    self.for_sale.fixed = crate::payment::plus(&self.for_sale.fixed, &r);
                }
            }
            Effect::ProduceOneOf { choices, sellable } => {
                self.production.add_choice(choices);
                if sellable && sellable_source {
                    self.for_sale.add_choice(choices);
                }
            }
            Effect::Shields(n) => self.shields += n,
            Effect::Science(s) => self.science[s as usize] += 1,
            Effect::ScienceWild => self.science_wild += 1,
            Effect::TradeDiscount { resources, sides } => {
                for (side, applies) in [(0, sides.left), (1, sides.right)] {
                    if applies {
                        // Discounts never stack: the price is 1 at least (base-1e.md §4.1 item 4).
                        self.discounts[side] = self.discounts[side].union(resources);
                        for r in resources.iter() {
                            self.prices[side][r as usize] = 1;
                        }
                    }
                }
            }
            Effect::FreeBuildPerAge => self.free_build_per_age = true,
            Effect::PlayLastCard => self.plays_last_card = true,
            Effect::CopyGuild => self.copies_guild = true,
            Effect::FreeFirstOfColour => self.free_first_of_colour = true,
            Effect::FreeFirstOfAge => self.free_first_of_age = true,
            Effect::FreeLastOfAge => self.free_last_of_age = true,
            Effect::Points(_)
            | Effect::Coins(_)
            | Effect::CoinsPer { .. }
            | Effect::CoinsAndPointsPer { .. }
            | Effect::PointsPer { .. }
            | Effect::BuildFromDiscard
            | Effect::PointsIfWonderComplete(_)
            | Effect::TakePawn(_) => {}
        }
    }

    /// The price of one unit of `r` bought from the left (`side` 0) or right (1) neighbour:
    /// 2 coins, or 1 with a discount (002 貿易; base-1e.md §4.1 item 4).
    #[inline]
    pub fn price(&self, side: usize, r: Resource) -> u8 {
        self.prices[side][r as usize]
    }

    /// Cards of the colours in `mask` (a bit per [`Colour`]).
    pub fn count_colours(&self, mask: u8) -> u32 {
        Colour::ALL
            .iter()
            .filter(|c| mask & (1 << **c as u8) != 0)
            .map(|c| self.colour_counts[*c as usize] as u32)
            .sum()
    }

    /// Science symbol counts from cards, by symbol.
    pub fn science_of(&self, s: Science) -> u8 {
        self.science[s as usize]
    }
}

#[cfg(test)]
mod production_tests {
    use super::*;

    #[test]
    fn max_of_counts_fixed_units_and_every_choice_offering_the_resource() {
        // 2 wood fixed, a Tree Farm-like W/C card, a Caravansery (W/S/C/O) and a Forum (G/L/P).
        let mut p = Production::fixed(Resources::from_letters("WW").unwrap());
        for c in ["WC", "WSCO", "GLP"] {
            p.add_choice(ResourceSet::from_letters(c).unwrap());
        }
        let want = [(Resource::Wood, 4), (Resource::Stone, 1), (Resource::Clay, 2), (Resource::Ore, 1)];
        for (r, n) in want {
            assert_eq!(p.max_of(r), n, "{r:?}");
        }
        for r in [Resource::Glass, Resource::Loom, Resource::Papyrus] {
            assert_eq!(p.max_of(r), 1, "{r:?}");
        }
        // Beyond MAX_CHOICES producers, further ones are ignored, counts included.
        let mut full = Production::default();
        for _ in 0..MAX_CHOICES + 3 {
            full.add_choice(ResourceSet::from_letters("S").unwrap());
        }
        assert_eq!(full.max_of(Resource::Stone), MAX_CHOICES as u8);
        assert_eq!(full.choices().len(), MAX_CHOICES);
    }
}
