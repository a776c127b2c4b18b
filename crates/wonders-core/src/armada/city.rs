//! What one city holds of the Armada expansion, and what the rules read from it: its shipyard,
//! its islands, the Armada cards it built and its naval conflict tokens (armada.md §2; 000).
//!
//! [`ArmadaCity`] is small and `Copy` (16 bytes) and holds only public information: shipyards,
//! islands in play, built cards and tokens are all face up (000 遊戲準備, 探索).
//!
//! Where the effects of cards and islands take place:
//! - an Armada card's base-game effects (shields, coins, points) are the catalog card's own
//!   effects ([`crate::Catalog::with_armada`]) and take place as for any card; the card is noted
//!   here with [`ArmadaCity::add_card`] so that its Armada effects ([`ArmadaEffect`]) are read
//!   from it;
//! - an island's base-game effects (land shields, production no neighbour may buy, Golden
//!   Archipelago's wild science symbol) go into the [`City`] when it comes into play, through
//!   [`ArmadaCity::gain_island`], the one place that does it; its printed VP are scored by
//!   [`crate::armada::score`].

use super::{ArmadaCardId, ArmadaData, ArmadaEffect, BoardId, Direction, IslandId, IslandSet, Shipyard};
use crate::city::{City, Source};
use crate::effect::Effect;

/// The kind of the trading zones' effect ([`ArmadaEffect::BuySecondNeighbour`]).
const ZONE: usize = ArmadaEffect::BuySecondNeighbour { side: Direction::Left, per_turn: 0 }.kind();

/// One city's Armada state (public).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ArmadaCity {
    /// The shipyard board and its four ships.
    pub shipyard: Shipyard,
    /// The islands in play in this city.
    pub islands: IslandSet,
    /// The Armada cards built, as a bitset of [`ArmadaCardId`] (24 in the box).
    pub cards: u32,
    /// The naval conflict token taken at the end of each Age (index 0 = Age I; 0 = none;
    /// armada.md §2.5).
    pub naval: [i8; 3],
}

impl ArmadaCity {
    /// A city with board `board`, its ships on their start spaces, no island, no Armada card and
    /// no naval token (§2.2 item 6).
    pub const fn new(board: BoardId) -> ArmadaCity {
        ArmadaCity { shipyard: Shipyard::new(board), islands: IslandSet::EMPTY, cards: 0, naval: [0; 3] }
    }

    /// Notes an Armada card built (ids of 32 and above are ignored: no data file has them).
    #[inline]
    pub fn add_card(&mut self, card: ArmadaCardId) {
        if card.0 < 32 {
            self.cards |= 1 << card.0;
        }
    }

    /// Takes an Armada card out of the city (an Edifice penalty discards it: 001's penalties):
    /// its Armada effects (naval symbols, trading zone, "most" science symbol, end-game VP) are
    /// no longer read from it. Ship moves it made stay made.
    #[inline]
    pub fn remove_card(&mut self, card: ArmadaCardId) {
        if card.0 < 32 {
            self.cards &= !(1 << card.0);
        }
    }

    /// Gains again into `city` the base-game effects of every island in play (land shields,
    /// production no neighbour may buy, Golden Archipelago's wild science symbol): for a [`City`]
    /// rebuilt from its cards and stages ([`City::without`]), which knows nothing of islands.
    pub fn regain_islands(&self, data: &ArmadaData, city: &mut City) {
        for island in self.islands.iter().filter(|i| usize::from(i.0) < data.islands().len()) {
            Self::gain_island_effects(data, island, city);
        }
    }

    /// Whether the city built that Armada card.
    #[inline]
    pub const fn has_card(&self, card: ArmadaCardId) -> bool {
        card.0 < 32 && self.cards & (1 << card.0) != 0
    }

    /// The Armada cards built, in id order.
    pub fn card_ids(&self) -> impl Iterator<Item = ArmadaCardId> + use<> {
        super::set_bits(self.cards).map(ArmadaCardId)
    }

    /// Puts an island into play in this city (§2.6: face up to the right of the shipyard; its
    /// effect applies from then on) and gains its base-game effects into `city`: land shields,
    /// production (never for sale: 000 荒島 "不能出售給鄰居"), a wild science symbol (Golden
    /// Archipelago). Printed VP are scored at game end ([`crate::armada::score`]); the other
    /// Armada effects are read from the island set. An island already there changes nothing.
    pub fn gain_island(&mut self, data: &ArmadaData, island: IslandId, city: &mut City) {
        if self.islands.contains(island) || usize::from(island.0) >= data.islands().len() {
            return;
        }
        self.islands.insert(island);
        Self::gain_island_effects(data, island, city);
    }

    /// An island's base-game effects gained into `city` (`Source::Stage`: never sold to
    /// neighbours).
    fn gain_island_effects(data: &ArmadaData, island: IslandId, city: &mut City) {
        for e in &data.island(island).effects {
            if let ArmadaEffect::Base(b) = e {
                city.gain(b, Source::Stage);
            }
        }
    }

    /// Every Armada effect of the city's Armada cards and islands (not its shipyard's spaces).
    pub fn effects<'a>(&self, data: &'a ArmadaData) -> impl Iterator<Item = &'a ArmadaEffect> + use<'a> {
        let (bits, set) = (self.cards, self.islands);
        let cards =
            super::set_bits(bits).filter(move |&b| usize::from(b) < data.cards().len()).map(ArmadaCardId);
        let islands = set.iter().filter(move |i| usize::from(i.0) < data.islands().len());
        cards
            .flat_map(move |c| data.card(c).effects.iter())
            .chain(islands.flat_map(move |i| data.island(i).effects.iter()))
    }

    /// The city's Armada effects of one kind ([`ArmadaEffect::kind`]), in the order of
    /// [`ArmadaCity::effects`]: only its cards and islands that have an effect of that kind
    /// (the data's index, [`ArmadaData::with_kind`]) are read, and none when it holds none.
    pub(crate) fn effects_of_kind<'a>(
        &self,
        data: &'a ArmadaData,
        kind: usize,
    ) -> impl Iterator<Item = &'a ArmadaEffect> + use<'a> {
        let (cards, islands) = data.with_kind(kind);
        let some =
            ArmadaCity { cards: self.cards & cards, islands: IslandSet(self.islands.0 & islands.0), ..*self };
        some.effects(data).filter(move |e| e.kind() == kind)
    }

    /// Whether the city holds a card or an island with an effect of that kind: one test of
    /// two bitsets ([`ArmadaData::with_kind`]).
    #[inline]
    pub(crate) fn holds_kind(&self, data: &ArmadaData, kind: usize) -> bool {
        let (cards, islands) = data.with_kind(kind);
        self.cards & cards != 0 || self.islands.0 & islands.0 != 0
    }

    /// Whether one of the city's cards or islands has that effect.
    ///
    /// Inlined: most cities hold no card or island of the kind asked (the rules ask several
    /// times per legal-action list), and that answer is one test of two bitsets; the effects
    /// are read out of line only when they hold one.
    #[inline]
    pub fn has(&self, data: &ArmadaData, effect: ArmadaEffect) -> bool {
        self.holds_kind(data, effect.kind()) && self.holds_effect(data, effect)
    }

    /// Whether one of the city's cards or islands of `effect`'s kind has exactly that effect.
    #[inline(never)]
    fn holds_effect(&self, data: &ArmadaData, effect: ArmadaEffect) -> bool {
        self.effects_of_kind(data, effect.kind()).any(|e| *e == effect)
    }

    /// Naval strength (armada.md §2.5, §10.2): the red ship's space, +2 with the yellow ship on
    /// step 6, +1 with the blue ship on step 6, plus the naval symbols of the city's Armada cards
    /// and islands. (000's example: red on step 3 and a 2-naval island make 5.)
    pub fn naval_strength(&self, data: &ArmadaData) -> u8 {
        let symbols: u32 = self
            .effects_of_kind(data, ArmadaEffect::Naval(0).kind())
            .map(|e| match e {
                ArmadaEffect::Naval(n) => u32::from(*n),
                _ => 0,
            })
            .sum();
        (u32::from(self.shipyard.naval(data)) + symbols).min(u32::from(u8::MAX)) as u8
    }

    /// The trade level: the number on the yellow ship's space (§2.7; 0 on the start space).
    pub fn trade_level(&self, data: &ArmadaData) -> u8 {
        self.shipyard.trade_level(data)
    }

    /// Victory points of the blue fleet: the value of the blue ship's space (§10.2; 10 on step 6).
    pub fn fleet_points(&self, data: &ArmadaData) -> u8 {
        self.shipyard.points(data)
    }

    /// The sum of the naval conflict tokens taken (the `naval` score category).
    pub fn naval_points(&self) -> i32 {
        self.naval.iter().map(|&t| i32::from(t)).sum()
    }

    /// Misty Isle (迷霧島): the city loses no coins to taxes or pirates (§2.7).
    #[inline]
    pub fn immune_to_coin_loss(&self, data: &ArmadaData) -> bool {
        self.has(data, ArmadaEffect::NoCoinLoss)
    }

    /// Forgotten Port (遺忘港): at each Age end the city may stay out of the naval conflict (§6).
    #[inline]
    pub fn may_opt_out(&self, data: &ArmadaData) -> bool {
        self.has(data, ArmadaEffect::NavalOptOut)
    }

    /// Ancient Port (久遠港): every naval construction costs 1 resource less, coins in full (§6).
    #[inline]
    pub fn naval_discount(&self, data: &ArmadaData) -> bool {
        self.has(data, ArmadaEffect::NavalDiscount)
    }

    /// Wondrous Port (奇妙港): 1 coin for every naval construction, even a free one (§6).
    #[inline]
    pub fn coin_per_naval(&self, data: &ArmadaData) -> bool {
        self.has(data, ArmadaEffect::CoinPerNaval)
    }

    /// Lost Isle (失落之島): naval constructions made with a wonder stage cost nothing and may
    /// move any fleet (§6).
    #[inline]
    pub fn wonder_naval_free(&self, data: &ArmadaData) -> bool {
        self.has(data, ArmadaEffect::WonderNavalFree)
    }

    /// How many resources per turn the city may buy for 1 coin each from the 2nd player on
    /// `side` (East Trading Zone: right, once; West Trading Zone: left, twice; §5).
    #[inline]
    pub fn second_neighbour_purchases(&self, data: &ArmadaData, side: Direction) -> u8 {
        if !self.holds_kind(data, ZONE) {
            return 0;
        }
        self.zone_purchases(data, side)
    }

    /// [`Self::second_neighbour_purchases`] of a city holding a trading zone (out of line).
    #[inline(never)]
    fn zone_purchases(&self, data: &ArmadaData, side: Direction) -> u8 {
        self.effects_of_kind(data, ZONE)
            .map(|e| match *e {
                ArmadaEffect::BuySecondNeighbour { side: s, per_turn } if s == side => per_turn,
                _ => 0,
            })
            .fold(0u8, u8::saturating_add)
    }

    /// The number of extra science symbols "the one you have most of" (Explorers' Office,
    /// Navigators' Guild, Captains' Club, Emerald Archipelago; §5, §6), placed at game end.
    pub fn science_most(&self, data: &ArmadaData) -> u8 {
        self.effects_of_kind(data, ArmadaEffect::ScienceMost.kind())
            .filter(|e| **e == ArmadaEffect::ScienceMost)
            .count() as u8
    }

    /// The printed VP of the city's islands (Inhabited Isle 3, Colossus Port 5, Sovereign
    /// Archipelago 7, Pirate Port 3; §6).
    pub fn island_printed_points(&self, data: &ArmadaData) -> i32 {
        self.islands
            .iter()
            .filter(|i| usize::from(i.0) < data.islands().len())
            .flat_map(|i| data.island(i).effects.iter())
            .map(|e| match e {
                ArmadaEffect::Base(Effect::Points(p)) => i32::from(*p),
                _ => 0,
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::armada::{Fleet, TOP_STEP};
    use crate::catalog::{Catalog, Edition, Side, WonderId};

    fn data() -> &'static ArmadaData {
        ArmadaData::builtin()
    }

    fn island(name: &str) -> IslandId {
        data().find_island(name).unwrap()
    }

    fn card(name: &str) -> ArmadaCardId {
        data().find_card(name).unwrap()
    }

    #[test]
    fn small_and_copy() {
        assert_eq!(std::mem::size_of::<ArmadaCity>(), 16);
    }

    #[test]
    fn naval_strength_counts_the_shipyard_cards_and_islands() {
        // 000's example (armada.md §4): red on step 3 plus a 2-naval island (Port of Winds) = 5.
        let mut a = ArmadaCity::new(BoardId(0));
        assert_eq!(a.naval_strength(data()), 0);
        a.shipyard.steps[Fleet::Red as usize] = 3;
        a.islands.insert(island("Port of Winds"));
        assert_eq!(a.naval_strength(data()), 5);
        // + yellow on step 6 (+2) + blue on step 6 (+1) (§10.2) + Coastal Defence Line (1) +
        // Coastal Fortifications (3) = 5 + 2 + 1 + 1 + 3 = 12.
        a.shipyard.steps[Fleet::Yellow as usize] = TOP_STEP;
        a.shipyard.steps[Fleet::Blue as usize] = TOP_STEP;
        a.add_card(card("Coastal Defence Line"));
        a.add_card(card("Coastal Fortifications"));
        assert_eq!(a.naval_strength(data()), 12);
        // Yellow on step 6: trade level 3 (§10.2, provisional); blue on 6: 10 VP (confirmed).
        assert_eq!(a.trade_level(data()), 3);
        assert_eq!(a.fleet_points(data()), 10);
    }

    #[test]
    fn trade_level_follows_the_yellow_ship() {
        // §4: start 0, step 1 → 1, step 2 → 1, step 3 → 2, step 4 → 2.
        let mut a = ArmadaCity::new(BoardId(4));
        let mut levels = Vec::new();
        for step in 0..=4 {
            a.shipyard.steps[Fleet::Yellow as usize] = step;
            levels.push(a.trade_level(data()));
        }
        assert_eq!(levels, vec![0, 1, 1, 2, 2]);
    }

    #[test]
    fn island_and_card_powers() {
        let mut a = ArmadaCity::new(BoardId(2));
        let d = data();
        assert!(!a.immune_to_coin_loss(d) && !a.may_opt_out(d) && !a.naval_discount(d));
        for name in ["Misty Isle", "Forgotten Port", "Ancient Port", "Wondrous Port", "Lost Isle"] {
            a.islands.insert(island(name));
        }
        assert!(a.immune_to_coin_loss(d) && a.may_opt_out(d) && a.naval_discount(d));
        assert!(a.coin_per_naval(d) && a.wonder_naval_free(d));
        assert_eq!(a.second_neighbour_purchases(d, Direction::Right), 0);
        a.add_card(card("East Trading Zone"));
        a.add_card(card("West Trading Zone"));
        assert_eq!(a.second_neighbour_purchases(d, Direction::Right), 1);
        assert_eq!(a.second_neighbour_purchases(d, Direction::Left), 2);
        a.add_card(card("Explorers' Office"));
        a.islands.insert(island("Emerald Archipelago"));
        assert_eq!(a.science_most(d), 2);
        assert!(a.has_card(card("Explorers' Office")) && !a.has_card(card("Dock")));
    }

    #[test]
    fn gaining_an_island_applies_its_base_effects_once() {
        let cat = Catalog::get(Edition::First);
        let mut city = City::new(cat, WonderId(0), Side::A);
        let mut a = ArmadaCity::new(BoardId(0));
        let d = data();
        a.gain_island(d, island("Bronze Isle"), &mut city);
        a.gain_island(d, island("Bronze Isle"), &mut city);
        assert_eq!(city.shields, 1, "1 land shield, once");
        a.gain_island(d, island("Golden Archipelago"), &mut city);
        assert_eq!(city.science_wild, 1);
        let for_sale = city.for_sale;
        a.gain_island(d, island("Wild Isle"), &mut city);
        assert_eq!(city.for_sale, for_sale, "an island's resource is never sold");
        assert_ne!(city.production, City::new(cat, WonderId(0), Side::A).production);
        a.gain_island(d, island("Inhabited Isle"), &mut city);
        a.gain_island(d, island("Sovereign Archipelago"), &mut city);
        // Printed VP: Inhabited Isle 3 + Sovereign Archipelago 7.
        assert_eq!(a.island_printed_points(d), 10);
        assert_eq!(a.islands.len(), 5);
    }

    #[test]
    fn naval_tokens_sum() {
        let mut a = ArmadaCity::new(BoardId(0));
        a.naval = [3, -2, 5];
        assert_eq!(a.naval_points(), 6);
    }

    #[test]
    fn effects_are_read_by_kind_from_the_cards_and_islands_that_have_them() {
        // The index names the cards and islands of the texts: the trading zones are the two
        // yellow cards of §5 (East, Age I; West, Age II), Ancient Port and Lost Isle are islands
        // (§6), and no card or island has a track-only effect (tax).
        let zone = ArmadaEffect::BuySecondNeighbour { side: Direction::Left, per_turn: 0 }.kind();
        let bits = |ids: &[ArmadaCardId]| ids.iter().fold(0u32, |m, c| m | 1 << c.0);
        let zones = bits(&[card("East Trading Zone"), card("West Trading Zone")]);
        assert_eq!(data().with_kind(zone), (zones, IslandSet::EMPTY));
        let port = IslandSet(1 << island("Ancient Port").0);
        assert_eq!(data().with_kind(ArmadaEffect::NavalDiscount.kind()), (0, port));
        let lost = IslandSet(1 << island("Lost Isle").0);
        assert_eq!(data().with_kind(ArmadaEffect::WonderNavalFree.kind()), (0, lost));
        assert_eq!(data().with_kind(ArmadaEffect::Tax(1).kind()), (0, IslandSet::EMPTY));
        // A city with West Trading Zone and Ancient Port: 2 purchases on the left, none on the
        // right, the discount, not Lost Isle; read by kind, the same as from all its effects.
        let mut a = ArmadaCity::new(BoardId(0));
        a.add_card(card("West Trading Zone"));
        a.islands.insert(island("Ancient Port"));
        assert_eq!(a.second_neighbour_purchases(data(), Direction::Left), 2);
        assert_eq!(a.second_neighbour_purchases(data(), Direction::Right), 0);
        assert!(a.naval_discount(data()) && !a.wonder_naval_free(data()));
        for kind in 0..ArmadaEffect::KINDS {
            let all: Vec<_> = a.effects(data()).filter(|e| e.kind() == kind).collect();
            assert_eq!(a.effects_of_kind(data(), kind).collect::<Vec<_>>(), all);
        }
    }
}
