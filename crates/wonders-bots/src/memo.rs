//! Answers the rollout policy asks again and again during one search, kept across its decisions
//! and iterations. Every entry is a pure function of its key, so a search with the
//! memo plays exactly as one without it (`search::tests::root_statistics_are_pinned`); the memo
//! only saves the work.
//!
//! - **The cheapest purchase** of a cost in a market (own production, what the neighbours sell,
//!   the prices): what hate-drafting (rule 11 of the heuristic) asks for each card of a hand,
//!   about the next player. The markets change slowly (the cities are public, the same in every
//!   sampled deal, and only some cards change them), so most of these are asked before. Each
//!   market is packed once per decision and given a number; a purchase is keyed by that number
//!   and its cost. (Purchases plain to see are priced before the memo is asked:
//!   `heuristic::plain_cheapest`.)
//! - **The value of more shields** for a shield difference, an Age and the turns left in it (rule
//!   5): logistic functions that are the same for every city and every sample.
//! - **The value of a science symbol** for the symbols a city holds, an Age and the turns left
//!   in it (rule 4).
//! - **The next player's gains in the searched turn** (hate-drafting, rule 11): in every sample
//!   the other seats choose their first card in the very cities of the view (the choices of a
//!   turn are simultaneous: nothing changes in a city until all have chosen), so what a card
//!   is worth to a next player less its cost is the same in every iteration. Kept by next seat
//!   and card for the searched turn only (its Age and turn, the choose phase).

use crate::weights::Weights;
use std::cell::{Cell, RefCell};
use wonders_core::payment::{Market, Options, solve};
use wonders_core::{CardId, Production, Resources};

/// Entries of the purchase table (a power of two; direct-mapped).
const COST_SLOTS: usize = 1 << 14;
/// Entries of the market table (a power of two; direct-mapped).
const MARKET_SLOTS: usize = 1 << 10;
/// Shield differences memoized: -MIL_D..MIL_D.
const MIL_D: i32 = 32;
/// Turns left in the Age memoized: 0..MIL_TURNS.
const MIL_TURNS: usize = 8;
/// Shields added memoized: 0..MIL_S.
const MIL_S: usize = 8;
/// Entries of the science table: 2^SCIENCE_BITS (direct-mapped).
const SCIENCE_BITS: u32 = 10;
const SCIENCE_SLOTS: usize = 1 << SCIENCE_BITS;

/// A market packed in words: own production, left and right sales (three words each), prices.
type MarketKey = [u64; 11];

/// One entry of the market table: a packed market and the number it was given.
#[derive(Clone, Copy)]
struct MarketEntry {
    key: MarketKey,
    /// `u32::MAX`: empty.
    id: u32,
}

/// One entry of the purchase table: the market's number, the cost and the answer.
#[derive(Clone, Copy)]
struct CostEntry {
    /// `u32::MAX`: empty.
    market: u32,
    cost: u64,
    /// The fewest coins paid to the neighbours, `u16::MAX` when it cannot be bought at all.
    coins: u16,
}

/// The tables (see the [module documentation](self)). One per search thread.
pub(crate) struct Memo {
    /// Markets seen, each with its number: a number is never given twice, so a purchase is
    /// keyed by its market's number and its cost (two words instead of twelve), and a market
    /// evicted from this table and seen again only gets a new number (its purchases are solved
    /// again).
    markets: RefCell<Vec<MarketEntry>>,
    next_market: Cell<u32>,
    costs: RefCell<Vec<CostEntry>>,
    /// Gain of `s` shields, NaN when not computed yet; valid for `military_future`.
    military: RefCell<Vec<f32>>,
    military_future: f32,
    /// Science values by packed key (direct-mapped; key `u64::MAX` = empty); valid for
    /// `science_future`.
    science: RefCell<Vec<(u64, f32)>>,
    science_future: [f32; 3],
    /// The weights of the rollout policy: the root's gains are kept for these only.
    weights: Weights,
    /// The searched turn (Age, turn) when it is a choice of cards, for [`Memo::root_gain`].
    root: Option<(u8, u8)>,
    /// The next player's gains in the searched turn, by next seat and card (NaN: not computed).
    root_gains: RefCell<Vec<f32>>,
}

/// Packs a production into three words: fixed units and the number of either/or producers, then
/// the producers (at most 12, zero-padded).
fn pack(p: &Production, out: &mut [u64]) {
    let mut w0 = 0u64;
    for (i, &b) in p.fixed.counts().iter().enumerate() {
        w0 |= (b as u64) << (8 * i);
    }
    let choices = p.choices();
    w0 |= (choices.len() as u64) << 56;
    let (mut w1, mut w2) = (0u64, 0u64);
    for (i, c) in choices.iter().enumerate() {
        if i < 8 {
            w1 |= (c.0 as u64) << (8 * i);
        } else {
            w2 |= (c.0 as u64) << (8 * (i - 8));
        }
    }
    out[0] = w0;
    out[1] = w1;
    out[2] = w2;
}

fn bytes7(b: &[u8; 7]) -> u64 {
    b.iter().enumerate().fold(0u64, |w, (i, &x)| w | (x as u64) << (8 * i))
}

impl Memo {
    /// Empty tables for a rollout policy with these weights, for a search whose turn is
    /// `root`: (Age, turn) when the searched decision is a choice of cards (`Phase::Choose`),
    /// `None` otherwise.
    pub(crate) fn new(weights: &Weights, root: Option<(u8, u8)>) -> Memo {
        Memo {
            markets: RefCell::new(vec![MarketEntry { key: [0; 11], id: u32::MAX }; MARKET_SLOTS]),
            next_market: Cell::new(0),
            costs: RefCell::new(vec![CostEntry { market: u32::MAX, cost: 0, coins: 0 }; COST_SLOTS]),
            military: RefCell::new(vec![f32::NAN; 3 * MIL_TURNS * (2 * MIL_D as usize) * MIL_S]),
            military_future: weights.military_future,
            science: RefCell::new(vec![(u64::MAX, 0.0); SCIENCE_SLOTS]),
            science_future: weights.science_future,
            weights: *weights,
            root,
            root_gains: RefCell::new(Vec::new()),
        }
    }

    /// `compute()` memoized by `key` (the science symbols of the city, its wild symbols, the
    /// symbol added, the Age, the turns left in the Age), for the weights `science_future`.
    pub(crate) fn science(
        &self,
        science_future: [f32; 3],
        key: [u8; 7],
        compute: impl FnOnce() -> f32,
    ) -> f32 {
        if science_future.map(f32::to_bits) != self.science_future.map(f32::to_bits) {
            return compute();
        }
        let packed = bytes7(&key);
        let slot = (packed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SCIENCE_BITS)) as usize;
        let mut table = self.science.borrow_mut();
        let e = &mut table[slot];
        if e.0 != packed {
            *e = (packed, compute());
        }
        e.1
    }

    /// The number of `market` in this memo (the same market, the same number, while it stays in
    /// the table): asked once per decision and city, then [`Memo::cheapest`] is keyed by it.
    pub(crate) fn market_id(&self, market: &Market) -> u32 {
        let mut key: MarketKey = [0; 11];
        pack(market.own, &mut key[0..3]);
        pack(market.left, &mut key[3..6]);
        pack(market.right, &mut key[6..9]);
        key[9] = bytes7(&market.prices[0]);
        key[10] = bytes7(&market.prices[1]);
        let mut h = 0x243F_6A88_85A3_08D3u64;
        for &w in &key {
            h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
        }
        let slot = (h >> 32) as usize & (MARKET_SLOTS - 1);
        let mut markets = self.markets.borrow_mut();
        let e = &mut markets[slot];
        if e.id != u32::MAX && e.key == key {
            return e.id;
        }
        let id = self.next_market.get();
        // After 2^32 - 1 markets (never, in one search) numbers would repeat: start afresh.
        if id == u32::MAX - 1 {
            self.next_market.set(0);
            markets.iter_mut().for_each(|m| m.id = u32::MAX);
            self.costs.borrow_mut().iter_mut().for_each(|c| c.market = u32::MAX);
        } else {
            self.next_market.set(id + 1);
        }
        markets[slot] = MarketEntry { key, id };
        id
    }

    /// The fewest coins paid to the neighbours to buy `cost` in `market` whatever the budget
    /// (`None`: it cannot be bought); `id` is [`Memo::market_id`] of `market`. Under a budget,
    /// the cheapest purchase is this one when it fits, and none otherwise: the payments within a
    /// budget are those of the unbounded front that fit it, and the cheapest of the front is the
    /// cheapest of all.
    pub(crate) fn cheapest(&self, id: u32, market: &Market, cost: &Resources) -> Option<u16> {
        let c = bytes7(&cost.counts());
        let h = (c ^ ((id as u64) << 7)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let slot = (h >> 40) as usize & (COST_SLOTS - 1);
        let mut costs = self.costs.borrow_mut();
        let e = &mut costs[slot];
        if e.market == id && e.cost == c {
            return (e.coins != u16::MAX).then_some(e.coins);
        }
        let mut opts = Options::new();
        solve(market, cost, u16::MAX, &mut opts);
        let coins = opts.iter().map(|&(l, r)| l as u16 + r as u16).min().unwrap_or(u16::MAX);
        *e = CostEntry { market: id, cost: c, coins };
        (coins != u16::MAX).then_some(coins)
    }

    /// The next player's gain from `card` (rule 11) in a choice of cards of `age` and `turn`,
    /// `next` being the next player: `compute()` the first time in the searched turn, remembered
    /// after (the cities are the view's there, the same in every sample); `compute()` itself in
    /// any other turn or with other weights.
    pub(crate) fn root_gain(
        &self,
        weights: &Weights,
        age: u8,
        turn: u8,
        next: usize,
        card: CardId,
        compute: impl FnOnce() -> f32,
    ) -> f32 {
        if self.root != Some((age, turn)) || *weights != self.weights {
            return compute();
        }
        let i = next * 256 + card.0 as usize;
        if let Some(&g) = self.root_gains.borrow().get(i)
            && !g.is_nan()
        {
            return g;
        }
        // Not borrowed while computing: the gain asks the memo's other tables.
        let g = compute();
        let mut gains = self.root_gains.borrow_mut();
        if gains.len() <= i {
            gains.resize((next + 1) * 256, f32::NAN);
        }
        gains[i] = g;
        g
    }

    /// `compute()` memoized by (Age, turns left in the Age, shield difference, shields added),
    /// when all are in the table's range; `compute()` itself otherwise.
    pub(crate) fn military(
        &self,
        military_future: f32,
        age: u8,
        turns_left: u32,
        d: i32,
        s: usize,
        compute: impl FnOnce() -> f32,
    ) -> f32 {
        if military_future.to_bits() != self.military_future.to_bits()
            || !(1..=3).contains(&age)
            || turns_left as usize >= MIL_TURNS
            || !(-MIL_D..MIL_D).contains(&d)
            || s >= MIL_S
        {
            return compute();
        }
        let i = (((age as usize - 1) * MIL_TURNS + turns_left as usize) * (2 * MIL_D as usize)
            + (d + MIL_D) as usize)
            * MIL_S
            + s;
        let mut table = self.military.borrow_mut();
        if table[i].is_nan() {
            table[i] = compute();
        }
        table[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wonders_core::ResourceSet;

    #[test]
    fn the_cheapest_purchase_is_the_solvers_and_is_remembered() {
        // Own: 1 wood and a clay-or-ore card; left sells 2 stone at 1 coin, right sells glass
        // and a stone-or-wood card at 2 coins. A cost of 2 wood + 2 stone + glass: the second
        // wood bought from the right's either/or card (2), the stones from the left (1 + 1), the
        // glass from the right (2): 6 coins. Its budget-bound front's cheapest is the same.
        let mut own = Production::fixed(Resources::from_letters("W").unwrap());
        own.add_choice(ResourceSet::from_letters("CO").unwrap());
        let left = Production::fixed(Resources::from_letters("SS").unwrap());
        let mut right = Production::fixed(Resources::from_letters("G").unwrap());
        right.add_choice(ResourceSet::from_letters("SW").unwrap());
        let mut prices = [[2u8; 7]; 2];
        prices[0] = [1; 7];
        let market = Market { own: &own, left: &left, right: &right, prices };
        let cost = Resources::from_letters("WWSSG").unwrap();
        let memo = Memo::new(&Weights::default(), None);
        let id = memo.market_id(&market);
        assert_eq!(memo.cheapest(id, &market, &cost), Some(6));
        let mut opts = Options::new();
        solve(&market, &cost, 20, &mut opts);
        assert_eq!(opts.iter().map(|&(l, r)| l as u16 + r as u16).min(), Some(6));
        // Remembered: the same answer from the table.
        assert_eq!(memo.market_id(&market), id);
        assert_eq!(memo.cheapest(id, &market, &cost), Some(6));
        // Three glass: nobody sells more than one.
        assert_eq!(memo.cheapest(id, &market, &Resources::from_letters("GGG").unwrap()), None);
        // Another market is another number: every unit at 1 coin, the wood from the right's
        // either/or card, the stones from the left, the glass from the right: 4 coins.
        let cheaper = Market { prices: [[1; 7]; 2], ..market };
        let other = memo.market_id(&cheaper);
        assert_ne!(other, id);
        assert_eq!(memo.cheapest(other, &cheaper, &cost), Some(4));
    }

    #[test]
    fn the_searched_turns_gains_are_computed_once_per_seat_and_card() {
        let w = Weights::default();
        let memo = Memo::new(&w, Some((2, 3)));
        let mut calls = 0;
        for _ in 0..3 {
            let g = memo.root_gain(&w, 2, 3, 1, CardId(40), || {
                calls += 1;
                1.5
            });
            assert_eq!(g, 1.5);
        }
        assert_eq!(calls, 1);
        // Another next player, another card: their own entries.
        assert_eq!(memo.root_gain(&w, 2, 3, 3, CardId(40), || 0.25), 0.25);
        assert_eq!(memo.root_gain(&w, 2, 3, 1, CardId(41), || 0.5), 0.5);
        assert_eq!(memo.root_gain(&w, 2, 3, 1, CardId(40), || 9.0), 1.5);
        // Another turn (the cities have changed), or other weights: computed every time.
        assert_eq!(memo.root_gain(&w, 2, 4, 1, CardId(40), || 2.0), 2.0);
        assert_eq!(memo.root_gain(&w, 3, 3, 1, CardId(40), || 3.0), 3.0);
        let other = Weights { deny: 0.3, ..w };
        assert_eq!(memo.root_gain(&other, 2, 3, 1, CardId(40), || 4.0), 4.0);
        // A search whose decision is no choice of cards keeps nothing.
        let none = Memo::new(&w, None);
        assert_eq!(none.root_gain(&w, 2, 3, 1, CardId(40), || 5.0), 5.0);
        assert_eq!(none.root_gain(&w, 2, 3, 1, CardId(40), || 6.0), 6.0);
    }

    #[test]
    fn military_entries_are_computed_once() {
        let memo = Memo::new(&Weights { military_future: 1.0, ..Weights::default() }, None);
        let mut calls = 0;
        for _ in 0..3 {
            let v = memo.military(1.0, 2, 4, -3, 2, || {
                calls += 1;
                0.75
            });
            assert_eq!(v, 0.75);
        }
        assert_eq!(calls, 1);
        // Other weights, or out of the table: computed every time.
        assert_eq!(memo.military(0.5, 2, 4, -3, 2, || 0.25), 0.25);
        assert_eq!(memo.military(1.0, 2, 4, 40, 2, || 0.5), 0.5);
    }

    #[test]
    fn science_entries_are_computed_once_per_key() {
        let w = Weights::default();
        let memo = Memo::new(&w, None);
        let mut calls = 0;
        for _ in 0..3 {
            assert_eq!(
                memo.science(w.science_future, [1, 2, 0, 0, 1, 2, 3], || {
                    calls += 1;
                    2.5
                }),
                2.5
            );
        }
        assert_eq!(calls, 1);
        // Another key is another entry; other weights are computed every time.
        assert_eq!(memo.science(w.science_future, [1, 2, 0, 0, 2, 2, 3], || 4.0), 4.0);
        assert_eq!(memo.science([0.0; 3], [1, 2, 0, 0, 1, 2, 3], || 1.0), 1.0);
    }
}
