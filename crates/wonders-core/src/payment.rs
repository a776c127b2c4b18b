//! The payment solver: every Pareto-minimal way to pay for a card or a wonder stage.
//!
//! Rules (rulebook 002 貿易 and base-1e.md §4.1):
//! - a city uses what it produces for free; an either/or card gives one of its resources per turn;
//! - what it lacks it may buy from its two neighbours, from what they *may sell*: their board's
//!   starting resource, brown and grey cards (never yellow cards or wonder stages). A neighbour's
//!   either/or card sells either resource, whatever its owner uses; selling uses nothing up;
//! - each unit costs 2 coins paid to the neighbour, or 1 with a discount for that side and kind;
//! - the coins must be in the treasury at the start of the turn.
//!
//! A payment is a pair (coins to the left, coins to the right); the bank's share is the card's coin
//! cost and does not vary. The solver returns the pairs no other pair beats on both sides.

use crate::city::Production;
use crate::resources::{Resource, ResourceSet, Resources};
use arrayvec::ArrayVec;

/// At most this many Pareto-minimal payments exist for one purchase (coins to the left range over
/// at most 0..=2·units; a larger front would need a cost of more than 15 units).
pub const MAX_OPTIONS: usize = 32;

/// The Pareto-minimal (left, right) payments for one construction.
pub type Options = ArrayVec<(u8, u8), MAX_OPTIONS>;

/// What one buyer faces: its own production, what each neighbour sells, and its prices.
#[derive(Clone, Copy, Debug)]
pub struct Market<'a> {
    /// The buyer's own production.
    pub own: &'a Production,
    /// What the left neighbour sells.
    pub left: &'a Production,
    /// What the right neighbour sells.
    pub right: &'a Production,
    /// Price per unit by side (0 left, 1 right) and resource.
    pub prices: [[u8; 7]; 2],
}

/// Inserts `p` into a Pareto front of minimal pairs.
fn insert_pareto(front: &mut Options, p: (u8, u8)) {
    if front.iter().any(|q| q.0 <= p.0 && q.1 <= p.1) {
        return;
    }
    front.retain(|q| !(p.0 <= q.0 && p.1 <= q.1));
    // The bound makes overflow impossible for real costs; drop rather than panic otherwise.
    let _ = front.try_push(p);
}

/// Whether `prod` can supply `demand` this turn (fixed units first, then one unit per choice).
fn can_supply(prod: &Production, demand: &Resources) -> bool {
    let excess = demand.saturating_sub(&prod.fixed);
    if excess.is_empty() {
        return true;
    }
    // Each either/or producer gives one unit: more units of a resource than producers offering
    // it cannot be given; as many units of one resource as producers offering it always can.
    if !excess.le(&prod.offering()) {
        return false;
    }
    if excess.support().0.count_ones() == 1 {
        return true;
    }
    let mut units: ArrayVec<Resource, 16> = ArrayVec::new();
    for r in Resource::ALL {
        for _ in 0..excess.get(r) {
            if units.try_push(r).is_err() {
                return false;
            }
        }
    }
    let choices = prod.choices();
    if units.len() > choices.len() {
        return false;
    }
    fn assign(units: &[Resource], choices: &[crate::resources::ResourceSet], used: u32) -> bool {
        let Some((&u, rest)) = units.split_first() else {
            return true;
        };
        for (i, c) in choices.iter().enumerate() {
            if used & (1 << i) == 0 && c.contains(u) && assign(rest, choices, used | (1 << i)) {
                return true;
            }
        }
        false
    }
    assign(&units, choices, 0)
}

/// The minimal residual needs after the buyer's own either/or producers cover what they can.
fn own_residuals(need: Resources, choices: &[ResourceSet], out: &mut ArrayVec<Resources, 64>) {
    fn go(need: Resources, choices: &[crate::resources::ResourceSet], out: &mut ArrayVec<Resources, 64>) {
        if need.is_empty() || choices.is_empty() {
            // Keep only componentwise-minimal residuals.
            if out.iter().any(|o| o.le(&need)) {
                return;
            }
            out.retain(|o| !need.le(o));
            let _ = out.try_push(need);
            return;
        }
        let (c, rest) = (choices[0], &choices[1..]);
        let mut used = false;
        for r in c.iter() {
            if need.get(r) > 0 {
                let mut n = need;
                n.0[r as usize] -= 1;
                go(n, rest, out);
                used = true;
            }
        }
        if !used {
            go(need, rest, out);
        }
    }
    go(need, choices, out);
}

/// Whether every count of `need` is at most what the buyer's either/or producers and both
/// neighbours' whole productions could give together ([`Market::reach`]): when not, nothing can
/// pay for it.
#[inline]
fn within_reach(need: &Resources, market: &Market) -> bool {
    need.le(&market.reach())
}

impl Market<'_> {
    /// The most units of each resource the buyer could have beyond its own fixed production:
    /// its either/or producers and both neighbours' whole productions (fixed units plus
    /// either/or producers) together. A need (after the buyer's fixed units) with a count above
    /// this cannot be paid; [`solve`] refuses it at once, and a caller solving many purchases on
    /// one market may compute it once and refuse them itself.
    #[inline(always)]
    pub fn reach(&self) -> Resources {
        let words = [
            self.own.offering(),
            self.left.fixed,
            self.left.offering(),
            self.right.fixed,
            self.right.offering(),
        ]
        .map(|r| u64::from_le_bytes(r.0));
        let all = words.iter().fold(0, |a, w| a | w);
        if all & 0xF0F0_F0F0_F0F0_F0F0 == 0 {
            // Every count under 16, as all real ones are: the five words add without a byte
            // reaching 128, in one word addition.
            return Resources(words.iter().sum::<u64>().to_le_bytes());
        }
        plus(&plus(&self.own.offering(), &self.left.most()), &self.right.most())
    }
}

/// Every Pareto-minimal (left, right) payment for `need`, spending at most `budget` coins on
/// purchases. Writes into `out` (cleared first). An empty result means it cannot be paid.
///
/// ```
/// use wonders_core::payment::{solve, Market, Options};
/// use wonders_core::{Production, Resources};
/// // Example A of the rulebook (002 貿易): University costs 2 wood + glass + papyrus; the city
/// // makes 1 wood and 1 glass; one neighbour sells wood, the other papyrus.
/// let own = Production::fixed(Resources::from_letters("WG").unwrap());
/// let left = Production::fixed(Resources::from_letters("W").unwrap());
/// let right = Production::fixed(Resources::from_letters("P").unwrap());
/// let market = Market { own: &own, left: &left, right: &right, prices: [[2; 7]; 2] };
/// let mut out = Options::new();
/// solve(&market, &Resources::from_letters("WWGP").unwrap(), 10, &mut out);
/// assert_eq!(out.as_slice(), &[(2, 2)]);
/// ```
pub fn solve(market: &Market, need: &Resources, budget: u16, out: &mut Options) {
    out.clear();
    let need = need.saturating_sub(&market.own.fixed);
    if need.is_empty() {
        out.push((0, 0));
        return;
    }
    // Quick refusal: a resource needed beyond what the buyer's either/or producers and both
    // neighbours could ever give together. More than half of a random game's purchases end here
    // (a card needing what nobody at the table makes), in a few word operations.
    if !within_reach(&need, market) {
        return;
    }
    solve_within_reach(market, &need, budget, out);
}

/// [`solve`] with the market's [`Market::reach`] already computed (a caller solving several
/// purchases on one market reads it once).
#[inline(always)]
pub(crate) fn solve_within(
    market: &Market,
    reach: &Resources,
    need: &Resources,
    budget: u16,
    out: &mut Options,
) {
    out.clear();
    let need = need.saturating_sub(&market.own.fixed);
    if need.is_empty() {
        out.push((0, 0));
    } else if need.le(reach) {
        solve_within_reach(market, &need, budget, out);
    }
}

/// [`solve`] of a need already net of the buyer's fixed units, not empty and within the
/// market's [`Market::reach`], as a caller that checked both itself hands it over; `out` is
/// cleared first.
pub(crate) fn solve_net(market: &Market, need: &Resources, budget: u16, out: &mut Options) {
    out.clear();
    solve_within_reach(market, need, budget, out);
}

/// The rest of [`solve`], after its quick answers; `out` is empty.
#[inline(always)]
fn solve_within_reach(market: &Market, need: &Resources, budget: u16, out: &mut Options) {
    let need = *need;
    // Only the buyer's either/or producers of something still needed matter: one that gives
    // none of it now gives none of it after others have covered part of the need either.
    let wanted = need.support();
    let mut useful: ArrayVec<ResourceSet, { crate::city::MAX_CHOICES }> = ArrayVec::new();
    for &c in market.own.choices() {
        if c.0 & wanted.0 != 0 {
            useful.push(c);
        }
    }
    if useful.is_empty() {
        buy(market, &need, budget, out);
        return;
    }
    if need.total() == 1 {
        // One unit, and an either/or producer of the buyer's own offers it: free, as the
        // enumeration below would find (its first useful producer covers the unit).
        out.push((0, 0));
        return;
    }
    let mut residuals: ArrayVec<Resources, 64> = ArrayVec::new();
    own_residuals(need, &useful, &mut residuals);
    for residual in &residuals {
        if residual.is_empty() {
            out.clear();
            out.push((0, 0));
            return;
        }
        buy(market, residual, budget, out);
    }
}

/// Adds to `front` every way of buying `residual` from the two neighbours.
fn buy(market: &Market, residual: &Resources, budget: u16, front: &mut Options) {
    if residual.total() == 1 {
        // The common case: one unit, from whichever neighbour can sell it.
        let Some(&r) = Resource::ALL.get(residual.support().0.trailing_zeros() as usize) else {
            return;
        };
        for (side, prod) in [(0, market.left), (1, market.right)] {
            let price = market.prices[side][r as usize];
            let sells = prod.max_of(r) > 0;
            if sells && price as u16 <= budget {
                insert_pareto(front, if side == 0 { (price, 0) } else { (0, price) });
            }
        }
        return;
    }
    // Quick refusal: a unit neither neighbour can supply.
    let mut wanted: ArrayVec<(Resource, u8, u8, u8), 7> = ArrayVec::new();
    // The resources wanted, in canonical order, without a (mispredicted) test of each of seven.
    for r in residual.support().iter() {
        let n = residual.get(r);
        let (ml, mr) = (market.left.max_of(r), market.right.max_of(r));
        if ml + mr < n {
            return;
        }
        wanted.push((r, n, ml, mr));
    }
    // Every split of each wanted resource between the two sides (k units from the left, the
    // rest from the right), in lexicographic order of the splits, the last resource varying
    // fastest: an odometer over `k`. Costs only grow with more units, so checking the budget at
    // each complete split finds the same payments as pruning early. A side that sells no
    // either/or card can always supply a split within its counts, so only a side with such
    // cards needs the matching check.
    let m = wanted.len();
    let (left_simple, right_simple) = (market.left.choices().is_empty(), market.right.choices().is_empty());
    let mut k = [0u8; 7];
    for (ki, &(_, n, _, mr)) in k.iter_mut().zip(&wanted) {
        *ki = n.saturating_sub(mr);
    }
    loop {
        let (mut cl, mut cr) = (0u16, 0u16);
        for (&ki, &(r, n, _, _)) in k.iter().zip(&wanted) {
            cl += ki as u16 * market.prices[0][r as usize] as u16;
            cr += (n - ki) as u16 * market.prices[1][r as usize] as u16;
        }
        if cl + cr <= budget {
            let supplied = |side: usize, prod: &Production| {
                let mut d = Resources::NONE;
                for (&ki, &(r, n, _, _)) in k.iter().zip(&wanted) {
                    d.0[r as usize] = if side == 0 { ki } else { n - ki };
                }
                can_supply(prod, &d)
            };
            if (left_simple || supplied(0, market.left)) && (right_simple || supplied(1, market.right)) {
                insert_pareto(front, (cl as u8, cr as u8));
            }
        }
        // Next split: the last resource that can take one more unit from the left does, and
        // every later one starts again from its fewest.
        let mut i = m;
        loop {
            if i == 0 {
                return;
            }
            i -= 1;
            let (_, n, ml, _) = wanted[i];
            if k[i] < n.min(ml) {
                k[i] += 1;
                break;
            }
        }
        for j in i + 1..m {
            let (_, n, _, mr) = wanted[j];
            k[j] = n.saturating_sub(mr);
        }
    }
}

/// The units of `a` and `b` together, each count saturating at 255 (Armada: a card's cost and
/// its naval construction's, one purchase). One word addition when every count is under 128
/// (always, with real costs: no byte can then carry into the next).
pub(crate) fn plus(a: &Resources, b: &Resources) -> Resources {
    const H: u64 = 0x8080_8080_8080_8080;
    let (x, y) = (u64::from_le_bytes(a.0), u64::from_le_bytes(b.0));
    if (x | y) & H == 0 {
        return Resources((x + y).to_le_bytes());
    }
    let mut total = *a;
    for (t, &n) in total.0.iter_mut().zip(&b.0) {
        *t = t.saturating_add(n);
    }
    total
}

/// Armada: every Pareto-minimal (left, right) payment of `need` plus a naval construction's
/// resources `naval`, as **one purchase** (armada.md §2.3). With `discount` (Ancient Port, §6:
/// "every naval construction costs 1 fewer resource"), one unit of the naval part is waived; on
/// a step costing two different resources the player chooses which (armada.md §11.4, this
/// engine's choice), so every choice is tried and the Pareto-minimal payments of all are kept.
///
/// ```
/// use wonders_core::payment::{solve_with_naval, Market, Options};
/// use wonders_core::{Production, Resources};
/// let own = Production::fixed(Resources::from_letters("W").unwrap());
/// let left = Production::fixed(Resources::from_letters("S").unwrap());
/// let right = Production::fixed(Resources::from_letters("C").unwrap());
/// let market = Market { own: &own, left: &left, right: &right, prices: [[2; 7]; 2] };
/// let mut out = Options::new();
/// // A card costing 1 wood (made at home) and a naval step costing 1 clay: bought on the right.
/// let (w, c) = (Resources::from_letters("W").unwrap(), Resources::from_letters("C").unwrap());
/// solve_with_naval(&market, &w, &c, false, 10, &mut out);
/// assert_eq!(out.as_slice(), &[(0, 2)]);
/// // Ancient Port waives the clay.
/// solve_with_naval(&market, &w, &c, true, 10, &mut out);
/// assert_eq!(out.as_slice(), &[(0, 0)]);
/// ```
pub fn solve_with_naval(
    market: &Market,
    need: &Resources,
    naval: &Resources,
    discount: bool,
    budget: u16,
    out: &mut Options,
) {
    let sum = |naval: &Resources| plus(need, naval);
    if !discount || naval.is_empty() {
        solve(market, &sum(naval), budget, out);
        return;
    }
    out.clear();
    let mut one = Options::new();
    for r in Resource::ALL {
        if naval.get(r) == 0 {
            continue;
        }
        let mut less = *naval;
        less.0[r as usize] -= 1;
        solve(market, &sum(&less), budget, &mut one);
        for &p in &one {
            insert_pareto(out, p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::ResourceSet;

    fn res(s: &str) -> Resources {
        Resources::from_letters(s).unwrap()
    }

    fn prod(fixed: &str, choices: &[&str]) -> Production {
        let mut p = Production::fixed(res(fixed));
        for c in choices {
            p.add_choice(ResourceSet::from_letters(c).unwrap());
        }
        p
    }

    fn options(
        own: &Production,
        l: &Production,
        r: &Production,
        prices: [[u8; 7]; 2],
        need: &str,
        budget: u16,
    ) -> Vec<(u8, u8)> {
        let m = Market { own, left: l, right: r, prices };
        let mut out = Options::new();
        solve(&m, &res(need), budget, &mut out);
        let mut v = out.to_vec();
        v.sort();
        v
    }

    #[test]
    fn example_b_own_resources_suffice() {
        // 002 示例B: she sold 2 stone to each neighbour and still builds Library (2S + L) herself.
        let own = prod("SSL", &[]);
        let none = prod("", &[]);
        assert_eq!(options(&own, &none, &none, [[2; 7]; 2], "SSL", 0), vec![(0, 0)]);
    }

    #[test]
    fn example_c_not_enough_coins() {
        // 002 示例C (the card is the Forum, 2 clay; base-1e.md §3 item 11): she makes 1 clay, a
        // neighbour sells clay, but she has under 2 coins at the start of the turn.
        let own = prod("C", &[]);
        let left = prod("C", &[]);
        let none = prod("", &[]);
        assert_eq!(options(&own, &left, &none, [[2; 7]; 2], "CC", 1), vec![]);
        assert_eq!(options(&own, &left, &none, [[2; 7]; 2], "CC", 2), vec![(2, 0)]);
    }

    #[test]
    fn either_or_cards_and_discounts() {
        // Own Timber Yard (W/S) can give the stone; wood must then be bought.
        let own = prod("", &["WS"]);
        let left = prod("W", &[]);
        let right = prod("", &["WO"]);
        let mut prices = [[2; 7]; 2];
        prices[1][Resource::Wood as usize] = 1; // East Trading Post: right raw for 1
        assert_eq!(options(&own, &left, &right, prices, "WS", 10), vec![(0, 1), (2, 0)]);
        // Two wood and a stone: one wood from each side, or... the right sells only one unit.
        assert_eq!(options(&own, &left, &right, prices, "WWS", 10), vec![(2, 1)]);
    }

    #[test]
    fn one_unit_from_an_own_either_or_card_is_free() {
        // 002 貿易: an either/or card gives one of its resources per turn. A Timber Yard (W/S)
        // pays the stone of a 1-stone card (e.g. Baths) without coins, even with none in the
        // treasury, though both neighbours sell stone; a second stone must be bought.
        let own = prod("", &["WS"]);
        let stone = prod("S", &[]);
        assert_eq!(options(&own, &stone, &stone, [[2; 7]; 2], "S", 0), vec![(0, 0)]);
        assert_eq!(options(&own, &stone, &stone, [[2; 7]; 2], "SS", 0), vec![]);
        assert_eq!(options(&own, &stone, &stone, [[2; 7]; 2], "SS", 5), vec![(0, 2), (2, 0)]);
    }

    #[test]
    fn plus_adds_a_card_and_a_naval_construction() {
        // Armada (armada.md §2.3): a card costing 2 wood + stone and a naval step costing wood
        // + ore are one purchase of 3 wood, stone and ore.
        assert_eq!(plus(&res("WWS"), &res("WO")), res("WWWSO"));
        assert_eq!(plus(&Resources::NONE, &res("C")), res("C"));
        // Counts of 128 or more take the byte-by-byte path and saturate at 255.
        let mut many = Resources::NONE;
        many.add(Resource::Wood, 200);
        let mut sum = plus(&many, &many);
        assert_eq!((sum.get(Resource::Wood), sum.total()), (255, 255));
        sum = plus(&many, &res("WS"));
        assert_eq!((sum.get(Resource::Wood), sum.get(Resource::Stone)), (201, 1));
    }

    #[test]
    fn a_need_beyond_what_the_whole_market_makes_is_refused_and_one_at_the_limit_is_solved() {
        // Wood: one from the buyer's own W/S card, one fixed on the left, one from the right's
        // W/C card. Three wood is the most this market gives: own card, then one from each side.
        let own = prod("", &["WS"]);
        let left = prod("W", &[]);
        let right = prod("", &["WC"]);
        assert_eq!(options(&own, &left, &right, [[2; 7]; 2], "WWW", 10), vec![(2, 2)]);
        assert_eq!(options(&own, &left, &right, [[2; 7]; 2], "WWWW", 10), vec![]);
        // The stone the own card would otherwise give: wood must then all be bought, one unit
        // short (the quick refusal does not see it; the enumeration does).
        assert_eq!(options(&own, &left, &right, [[2; 7]; 2], "WWWS", 10), vec![]);
        assert_eq!(options(&own, &left, &right, [[2; 7]; 2], "WWS", 10), vec![(2, 2)]);
    }

    #[test]
    fn what_a_neighbours_either_or_cards_can_supply_together() {
        // Two W/S cards and a W/C card: three wood (one from each), but only two stone, and wood,
        // stone and clay together (W/S→S, W/S→W, W/C→C) while two stone and a clay cannot
        // both come from them with a wood (four units, three cards).
        let p = prod("", &["WS", "WS", "WC"]);
        assert!(can_supply(&p, &res("WWW")));
        assert!(!can_supply(&p, &res("SSS")));
        assert!(can_supply(&p, &res("SS")));
        assert!(can_supply(&p, &res("WSC")));
        assert!(!can_supply(&p, &res("WSSC")));
        // Two clay and a stone: only one card offers clay.
        assert!(!can_supply(&p, &res("CCS")));
        // Fixed units first: a fixed clay covers one of them.
        let q = prod("C", &["WS", "WS", "WC"]);
        assert!(can_supply(&q, &res("CCS")));
        assert!(!can_supply(&prod("", &[]), &res("W")));
        assert!(can_supply(&prod("", &[]), &Resources::NONE));
    }

    #[test]
    fn neighbour_either_or_sells_either_resource() {
        let own = prod("", &[]);
        let left = prod("", &["CO"]);
        let none = prod("", &[]);
        assert_eq!(options(&own, &left, &none, [[2; 7]; 2], "O", 5), vec![(2, 0)]);
        assert_eq!(options(&own, &left, &none, [[2; 7]; 2], "C", 5), vec![(2, 0)]);
        assert_eq!(options(&own, &left, &none, [[2; 7]; 2], "CO", 5), vec![]);
    }
}
