//! Armada's trading zones inside the payment: 東部商區 **East Trading Zone** and 西部商區 **West
//! Trading Zone** (armada.md §5 and §10.6; rulebook 000, the cards' texts and 3人遊戲).
//!
//! Rules:
//! - East Trading Zone (Age I, yellow): **once per turn**, buy 1 resource of your choice from the
//!   **2nd player on your right** (seat i−2 mod n) for 1 coin (§5);
//! - West Trading Zone (Age II, yellow): **twice per turn**, buy 1 resource of your choice from
//!   the **2nd player on your left** (seat i+2 mod n) for 1 coin each (§5);
//! - both are removed with 3 players (§2.2 item 3): the 2nd players always exist and are not
//!   the neighbours; with 4 players the 2nd left and the 2nd right are the same player (seat
//!   i+2): the coins go to that player and both limits hold, and together the units bought there
//!   must be what that one city may sell;
//! - a 2nd player sells what a neighbour sells (the payment solver's rule, 002 貿易): its board's
//!   starting resource, brown and grey cards (an either/or card sells either resource, one unit
//!   per purchase); never yellow cards, wonder stages or islands (000 荒島 "不能出售給鄰居");
//! - the price is always 1 coin: the base game's trading posts and Marketplace lower the
//!   neighbours' prices only;
//! - these purchases belong to the same purchase as the card or stage and its naval construction
//!   (§2.3: one purchase; Ancient Port's waiver included), and every coin paid comes from the
//!   treasury as it was at the start of the turn (002 貿易).
//!
//! "Once per turn" is read as **per payment** (this engine's choice): Babylon B's last card is
//! its own extra turn (000 FAQ), so it may buy again; Halikarnassos builds from the discard pile
//! for free and buys nothing.
//!
//! How: [`solve_with_naval`] enumerates the few choices of units bought from the 2nd players (at
//! most 2 units from the left and 1 from the right, among the resources still missing after the
//! buyer's own fixed production), calls the base solver ([`payment::solve`]) on what is left for
//! the neighbours, and keeps the payments no other beats for every recipient (left, right, 2nd
//! left, 2nd right: a player may prefer paying one player over another). With 4 players the two
//! 2nd players are one recipient, and the coins are written to the 2nd left first (up to West's
//! limit), the rest to the 2nd right ([`canonical`]). A game without Armada, or a city without a
//! trading zone, never comes here: [`market`] is the one cheap check, then the base path runs.

use super::{ArmadaEffect, Direction};
use crate::action::{Action, FreeBy, Payment, SecondPay};
use crate::card::CardId;
use crate::catalog::Edition;
use crate::city::Production;
use crate::errors::ActionError;
use crate::hand::HAND_MAX;
use crate::payment::{self, Market, Options};
use crate::resources::{Resource, Resources};
use crate::state::{Game, Phase};
use arrayvec::ArrayVec;

/// At most this many Pareto-minimal payments are kept for one purchase with the trading zones.
pub const MAX_TRADE_OPTIONS: usize = 64;

/// One way to pay with the trading zones: coins to each neighbour and to each 2nd player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TradePay {
    /// Coins to the left neighbour (seat i+1).
    pub left: u8,
    /// Coins to the right neighbour (seat i−1).
    pub right: u8,
    /// Coins (= units) to the 2nd player on the left (seat i+2; West Trading Zone).
    pub second_left: u8,
    /// Coins (= units) to the 2nd player on the right (seat i−2; East Trading Zone).
    pub second_right: u8,
}

impl TradePay {
    /// The [`Payment`] of an action, with `bank` coins to the bank.
    pub const fn payment(self, bank: u8, free: Option<FreeBy>) -> Payment {
        Payment {
            left: self.left,
            right: self.right,
            bank,
            free,
            second: SecondPay::new(self.second_left, self.second_right),
        }
    }

    /// Coins paid to players.
    pub const fn total(self) -> u16 {
        self.left as u16 + self.right as u16 + self.second_left as u16 + self.second_right as u16
    }
}

/// The Pareto-minimal payments of one purchase with the trading zones.
pub type TradeOptions = ArrayVec<TradePay, MAX_TRADE_OPTIONS>;

/// What a buyer with a trading zone faces: the base market (itself and its neighbours) and what
/// each 2nd player sells, with the units the cards allow per payment.
#[derive(Clone, Copy, Debug)]
pub struct TradeMarket<'a> {
    /// The buyer and its neighbours, as for the base solver.
    pub market: Market<'a>,
    /// What the 2nd player on the left sells.
    pub second_left: &'a Production,
    /// Units the buyer may take there per payment (West Trading Zone: 2).
    pub left_units: u8,
    /// What the 2nd player on the right sells.
    pub second_right: &'a Production,
    /// Units the buyer may take there per payment (East Trading Zone: 1).
    pub right_units: u8,
    /// Whether the two 2nd players are one player (4 players).
    pub same: bool,
}

/// Whether `prod` can supply the units `x` in one purchase (fixed units, one unit per either/or
/// card), asked of the base solver: a buyer with that production and no one to buy from.
fn supplies(prod: &Production, x: &Resources) -> bool {
    if x.total() <= 1 {
        // Nothing, or one unit: the solver's answer is whether a fixed unit or an either/or
        // card gives it, i.e. whether the unit is within what the production can give.
        return x.le(&prod.most());
    }
    supplies_by_solver(prod, x)
}

/// [`supplies`] asked of the solver, whatever the units.
fn supplies_by_solver(prod: &Production, x: &Resources) -> bool {
    if prod.choices().is_empty() {
        // Fixed units only: what the solver answers (nothing to buy from, so only what the
        // seller makes itself).
        return x.le(&prod.fixed);
    }
    if x.is_empty() {
        return true;
    }
    let none = Production::default();
    let m = Market { own: prod, left: &none, right: &none, prices: [[0; 7]; 2] };
    let mut o = Options::new();
    payment::solve(&m, x, 0, &mut o);
    !o.is_empty()
}

/// Every multiset of at most `k` units (k ≤ 3) taken from `want` among the resources `seller`
/// may sell: no unit first, then in the order of [`picks_by_recursion`] (each resource in
/// order, and after each pick the picks that add units of that resource or later ones).
fn picks(want: &Resources, seller: &Production, k: u8, out: &mut ArrayVec<Resources, 128>) {
    if k > 1 {
        picks_by_recursion(want, seller, k, out);
        return;
    }
    // At most one unit (East Trading Zone alone, or what West leaves to it): no pick, then each
    // single unit in resource order, the order the recursion gives, without it.
    out.clear();
    out.push(Resources::NONE);
    if k == 1 {
        for r in Resource::ALL {
            if want.get(r) > 0 && seller.max_of(r) > 0 {
                let mut one = Resources::NONE;
                one.add(r, 1);
                out.push(one);
            }
        }
    }
}

/// [`picks`] for any `k`, by recursion over the resources.
fn picks_by_recursion(want: &Resources, seller: &Production, k: u8, out: &mut ArrayVec<Resources, 128>) {
    fn go(
        want: &Resources,
        seller: &Production,
        from: usize,
        k: u8,
        cur: Resources,
        out: &mut ArrayVec<Resources, 128>,
    ) {
        let _ = out.try_push(cur);
        if k == 0 {
            return;
        }
        for r in Resource::ALL.into_iter().skip(from) {
            if cur.get(r) < want.get(r) && cur.get(r) < seller.max_of(r) {
                let mut next = cur;
                next.add(r, 1);
                go(want, seller, r as usize, k - 1, next, out);
            }
        }
    }
    out.clear();
    go(want, seller, 0, k.min(3), Resources::NONE, out);
}

fn minus(a: &Resources, b: &Resources) -> Resources {
    a.saturating_sub(b)
}

fn plus(a: &Resources, b: &Resources) -> Resources {
    payment::plus(a, b)
}

/// With 4 players: the coins to the one 2nd player written to the 2nd left first, up to
/// `left_units`, the rest to the 2nd right.
const fn split(total: u8, left_units: u8) -> (u8, u8) {
    let l = if total < left_units { total } else { left_units };
    (l, total - l)
}

/// What a payment costs each recipient, the order the Pareto front compares (with `same`, the
/// two 2nd players are one recipient).
const fn key(q: &TradePay, same: bool) -> [u8; 4] {
    if same {
        [q.left, q.right, q.second_left + q.second_right, 0]
    } else {
        [q.left, q.right, q.second_left, q.second_right]
    }
}

/// Whether `a` costs every recipient at most what `b` does.
fn le(a: [u8; 4], b: [u8; 4]) -> bool {
    a.iter().zip(&b).all(|(x, y)| x <= y)
}

/// Whether a payment of `front` costs every recipient at most what `p` does (so `p` cannot
/// join the front).
fn dominated(front: &TradeOptions, p: TradePay, same: bool) -> bool {
    let kp = key(&p, same);
    front.iter().any(|q| le(key(q, same), kp))
}

/// Inserts `p` into a Pareto front over the recipients (with `same`, the two 2nd players are one).
/// Returns `false` when `p` belonged in the front but the front was full (it is left out).
fn insert(front: &mut TradeOptions, p: TradePay, same: bool) -> bool {
    if dominated(front, p, same) {
        return true;
    }
    let kp = key(&p, same);
    front.retain(|q| !le(kp, key(q, same)));
    front.try_push(p).is_ok()
}

/// Adds to `out` every way to pay `demand` (already the whole purchase).
fn add_front(tm: &TradeMarket, demand: &Resources, budget: u16, out: &mut TradeOptions) {
    // Units the buyer's fixed production covers are never worth buying (the same payment
    // without them is cheaper), so only the rest is offered to the 2nd players.
    let missing = minus(demand, &tm.market.own.fixed);
    if missing.is_empty() {
        // The buyer makes it all: free, and nothing beats free.
        insert(out, TradePay::default(), tm.same);
        return;
    }
    if tm.same && tm.left_units + tm.right_units <= 3 {
        let before = out.clone();
        if add_front_one_seller(tm, demand, &missing, budget, out) {
            return;
        }
        // A payment was left out of a full front, where the order of the picks matters: they
        // are tried again in the order below.
        *out = before;
    }
    add_front_by_side(tm, demand, &missing, budget, out);
}

/// [`add_front`] with 4 players, whose one 2nd player sells on both sides: every multiset of at
/// most `left_units + right_units` (≤ 3) of the `missing` units it may sell, each tried once.
/// The picks by side ([`add_front_by_side`]) give the same multisets, several of them more than
/// once (one unit on the left and one on the right, or the other way round), each paid the same
/// (its coins written by [`split`]): the front, the Pareto-minimal payments of them all, comes
/// out the same whatever the order, as long as it never had to leave a payment out. Returns
/// `false` if it had to (the front is then incomplete, and the caller starts again).
fn add_front_one_seller(
    tm: &TradeMarket,
    demand: &Resources,
    missing: &Resources,
    budget: u16,
    out: &mut TradeOptions,
) -> bool {
    let mut bought = ArrayVec::new();
    let mut opts = Options::new();
    picks(missing, tm.second_left, tm.left_units + tm.right_units, &mut bought);
    for units_bought in &bought {
        let units = units_bought.total() as u16;
        if units > budget {
            continue;
        }
        let (second_left, second_right) = split(units as u8, tm.left_units);
        // As below: a pick whose least payment the front already beats is not solved.
        let floor = TradePay { left: 0, right: 0, second_left, second_right };
        if dominated(out, floor, true) || !supplies(tm.second_left, units_bought) {
            continue;
        }
        payment::solve(&tm.market, &minus(demand, units_bought), budget - units, &mut opts);
        for &(left, right) in &opts {
            if !insert(out, TradePay { left, right, second_left, second_right }, true) {
                return false;
            }
        }
        if units == 0 && opts.contains(&(0, 0)) {
            // Free without the 2nd player: nothing else can join the front.
            return true;
        }
    }
    true
}

/// [`add_front`] by side: each pick of units from the 2nd left, then each pick from the 2nd
/// right of what is still missing.
fn add_front_by_side(
    tm: &TradeMarket,
    demand: &Resources,
    missing: &Resources,
    budget: u16,
    out: &mut TradeOptions,
) {
    let missing = *missing;
    let mut lefts = ArrayVec::new();
    let mut rights = ArrayVec::new();
    let mut opts = Options::new();
    picks(&missing, tm.second_left, tm.left_units, &mut lefts);
    for a in &lefts {
        if !tm.same && !supplies(tm.second_left, a) {
            continue;
        }
        picks(&minus(&missing, a), tm.second_right, tm.right_units, &mut rights);
        for b in &rights {
            let units = (a.total() + b.total()) as u16;
            if units > budget {
                continue;
            }
            let (second_left, second_right) =
                if tm.same { split(units as u8, tm.left_units) } else { (a.total() as u8, b.total() as u8) };
            // Every payment of this pick pays the 2nd players this much and the neighbours at
            // least nothing: when the front already holds one at most that on every side, none
            // of them can join it, so the solver is not asked (the front comes out the same).
            let floor = TradePay { left: 0, right: 0, second_left, second_right };
            if dominated(out, floor, tm.same) {
                continue;
            }
            let sold =
                if tm.same { supplies(tm.second_left, &plus(a, b)) } else { supplies(tm.second_right, b) };
            if !sold {
                continue;
            }
            payment::solve(&tm.market, &minus(&minus(demand, a), b), budget - units, &mut opts);
            for &(left, right) in &opts {
                let _ = insert(out, TradePay { left, right, second_left, second_right }, tm.same);
            }
            if units == 0 && opts.contains(&(0, 0)) {
                // Free without the 2nd players: every way through them pays them at least a
                // coin, so (0, 0, 0, 0) beats it; nothing else can join the front.
                return;
            }
        }
    }
}

/// Every Pareto-minimal payment of `need` with the trading zones, spending at most `budget`
/// coins on players; written into `out` (cleared first), sorted. Empty: it cannot be paid.
///
/// ```
/// use wonders_core::armada::trade::{solve, TradeMarket, TradeOptions, TradePay};
/// use wonders_core::payment::Market;
/// use wonders_core::{Production, Resources};
/// // The buyer needs 1 ore. Both neighbours sell ore at 2; with East Trading Zone the 2nd
/// // player on the right sells it for 1 (armada.md §5).
/// let none = Production::default();
/// let ore = Production::fixed(Resources::from_letters("O").unwrap());
/// let tm = TradeMarket {
///     market: Market { own: &none, left: &ore, right: &ore, prices: [[2; 7]; 2] },
///     second_left: &none, left_units: 0, second_right: &ore, right_units: 1, same: false,
/// };
/// let mut out = TradeOptions::new();
/// solve(&tm, &Resources::from_letters("O").unwrap(), 10, &mut out);
/// let p = |left, right, second_right| TradePay { left, right, second_left: 0, second_right };
/// assert_eq!(out.as_slice(), &[p(0, 0, 1), p(0, 2, 0), p(2, 0, 0)]);
/// ```
pub fn solve(tm: &TradeMarket, need: &Resources, budget: u16, out: &mut TradeOptions) {
    solve_with_naval(tm, need, &Resources::NONE, false, budget, out);
}

/// As [`payment::solve_with_naval`], with the trading zones: `need` plus a naval construction's
/// resources `naval` as one purchase (armada.md §2.3); with `discount` (Ancient Port) one unit of
/// the naval part is waived, each choice tried (§11.4).
pub fn solve_with_naval(
    tm: &TradeMarket,
    need: &Resources,
    naval: &Resources,
    discount: bool,
    budget: u16,
    out: &mut TradeOptions,
) {
    out.clear();
    let total = plus(need, naval);
    if !discount || naval.is_empty() {
        add_front(tm, &total, budget, out);
    } else {
        for r in Resource::ALL {
            if naval.get(r) > 0 {
                let mut less = total;
                less.0[r as usize] -= 1;
                add_front(tm, &less, budget, out);
            }
        }
    }
    out.sort();
}

/// The 2nd players' market of `city`, or `None` when the game has no Armada or the city holds no
/// trading zone (the one cheap check before the base path). In the 2nd edition, Babylon's last
/// card buys from what the 2nd players offered when the turn began, as for the neighbours.
pub(crate) fn market(game: &Game, city: usize) -> Option<TradeMarket<'_>> {
    let state = game.armada.as_deref()?;
    let a = &state.cities[city];
    let left_units = a.second_neighbour_purchases(state.data, Direction::Left);
    let right_units = a.second_neighbour_purchases(state.data, Direction::Right);
    market_with(game, city, game.market(city), left_units, right_units)
}

/// Whether `city` buys from its 2nd players (a trading zone, 4 or more players): its hand's
/// paid builds and stages are then listed by [`rewrite_hand`] alone. Same test as [`market`].
pub(crate) fn has_zone(game: &Game, city: usize) -> bool {
    let Some(state) = game.armada.as_deref() else {
        return false;
    };
    const ZONE: usize = ArmadaEffect::BuySecondNeighbour { side: Direction::Left, per_turn: 0 }.kind();
    let a = &state.cities[city];
    game.cities_n >= 4
        && a.holds_kind(state.data, ZONE)
        && a.effects_of_kind(state.data, ZONE)
            .any(|e| matches!(e, ArmadaEffect::BuySecondNeighbour { per_turn, .. } if *per_turn > 0))
}

/// [`market`], with the units the city's trading zones allow per payment already read (West
/// Trading Zone on the left, East on the right; [`super::ArmadaCity::second_neighbour_purchases`]).
pub(crate) fn market_with<'a>(
    game: &'a Game,
    city: usize,
    market: Market<'a>,
    left_units: u8,
    right_units: u8,
) -> Option<TradeMarket<'a>> {
    game.armada.as_deref()?;
    let n = game.cities_n as usize;
    if (left_units == 0 && right_units == 0) || n < 4 {
        return None;
    }
    let (sl, sr) = (Direction::Left.target(city, n), Direction::Right.target(city, n));
    let at_start = game.edition() == Edition::Second && matches!(game.phase, Phase::PlayLastCard { .. });
    let sale = |s: usize| if at_start { &game.sale_at_turn_start[s] } else { &game.cities[s].for_sale };
    Some(TradeMarket {
        market,
        second_left: sale(sl),
        left_units,
        second_right: sale(sr),
        right_units,
        same: sl == sr,
    })
}

/// The legal hand actions of a city with a trading zone: in the base list `out` (from
/// `Game::hand_actions`), every paid build and every wonder stage (with or without an Edifice
/// participation) is listed again with the trading zones' Pareto-minimal payments (a card the
/// neighbours alone cannot supply may now be built). Free builds and discards stay as they were,
/// in the hand's order.
pub(crate) fn rewrite_hand(game: &Game, city: usize, tm: &TradeMarket, out: &mut Vec<Action>) {
    // The new list is written after the base one, which is then dropped from the front (no
    // allocation: the list keeps its capacity from one decision to the next).
    let n = out.len();
    let catalog = game.catalog;
    let c = &game.cities[city];
    // The hand's cards in the base list's order, each with its run of entries there
    // (`Game::hand_actions` lists a card's actions together); if a card's entries were ever
    // apart, every card reads the whole base list instead of its run.
    let mut cards: ArrayVec<(CardId, usize, usize), HAND_MAX> = ArrayVec::new();
    let mut runs = true;
    for (j, a) in out[..n].iter().enumerate() {
        let Some(card) = a.card() else {
            continue;
        };
        if let Some(last) = cards.last_mut()
            && last.0 == card
            && last.2 == j
        {
            last.2 = j + 1;
        } else if cards.iter().any(|x| x.0 == card) {
            runs = false;
        } else {
            let _ = cards.try_push((card, j, j + 1));
        }
    }
    // The stage: its payments once, and the stage's choices (Carthage, Ur) without a
    // participation, read from the Edifice helper with a single free plain payment.
    let mut stage_front = TradeOptions::new();
    let mut extras: ArrayVec<crate::StageExtra, 8> = ArrayVec::new();
    // With Edifice, the stage with a participation: the stage's and the project's resources are
    // one purchase, the project's coins go to the bank (edifice.md; 001 A. 參與計劃).
    let mut part_front = TradeOptions::new();
    let mut part_extras: ArrayVec<crate::StageExtra, 8> = ArrayVec::new();
    let mut part_coins = 0;
    if let Some(stage) = catalog.wonder(c.wonder).stages(c.side).get(c.stages as usize) {
        solve(tm, &stage.cost, c.coins, &mut stage_front);
        let mut plain = Options::new();
        plain.push((0, 0));
        let mut variants = ArrayVec::new();
        crate::edifice::stage_variants(game, city, &plain, &mut variants);
        for (_, extra) in variants {
            if !extra.take_part() && !extras.contains(&extra) {
                let _ = extras.try_push(extra);
            }
        }
        if let Some(project) = game.joinable_project(city)
            && c.coins >= project.coins as u16
        {
            // The same choices (Carthage's effect, Ur's pawn), each with the participation.
            for e in &extras {
                let _ = part_extras.try_push(crate::StageExtra::new(true, e.alternative(), e.pawn_age()));
            }
            let mut cost = stage.cost;
            for r in crate::resources::Resource::ALL {
                cost.add(r, project.resources.get(r));
            }
            part_coins = project.coins;
            solve(tm, &cost, c.coins - project.coins as u16, &mut part_front);
        }
    }
    let mut front = TradeOptions::new();
    for (card, start, end) in cards {
        let run = if runs { start..end } else { 0..n };
        let def = catalog.card(card);
        let automatic = game.automatic_free(city, card).is_some();
        if !automatic && !c.has_name(catalog, card) && c.coins >= def.coins as u16 {
            solve(tm, &def.cost, c.coins - def.coins as u16, &mut front);
            for t in &front {
                out.push(Action::Build { card, pay: t.payment(def.coins, None), naval: crate::Naval::NONE });
            }
        }
        for j in run.clone() {
            let a = out[j];
            if matches!(a, Action::Build { card: k, pay, .. } if k == card && pay.free.is_some()) {
                out.push(a);
            }
        }
        for &extra in &extras {
            for t in &stage_front {
                out.push(Action::Wonder { card, pay: t.payment(0, None), extra });
            }
        }
        for &extra in &part_extras {
            for t in &part_front {
                out.push(Action::Wonder { card, pay: t.payment(part_coins, None), extra });
            }
        }
        for j in run {
            match out[j] {
                Action::Build { .. } | Action::Wonder { .. } => {}
                other if other.card() == Some(card) => out.push(other),
                _ => {}
            }
        }
    }
    // Actions without a card (none in a hand step today) keep their place at the end.
    for j in 0..n {
        if out[j].card().is_none() {
            out.push(out[j]);
        }
    }
    out.drain(..n);
}

/// The same action with a 4-player payment's coins to the one 2nd player written the canonical
/// way ([`split`]); any other action unchanged.
pub(crate) fn canonical(game: &Game, city: usize, action: Action) -> Action {
    let Some(tm) = market(game, city) else {
        return action;
    };
    if !tm.same {
        return action;
    }
    let fix = |pay: Payment| {
        let (l, r) = split(pay.second.left() + pay.second.right(), tm.left_units);
        Payment { second: SecondPay::new(l, r), ..pay }
    };
    match action {
        Action::Build { card, pay, naval } => Action::Build { card, pay: fix(pay), naval },
        Action::Wonder { card, pay, extra } => Action::Wonder { card, pay: fix(pay), extra },
        other => other,
    }
}

/// Checks the coins a payment gives the 2nd players (called only when it gives some): the game
/// must have Armada, the city a trading zone, and the units stay within the cards' limits (1 from
/// the 2nd right with East Trading Zone, 2 from the 2nd left with West; with 4 players 3 in all
/// from the one 2nd player). Whether those players sell what is bought is the legal list's
/// check.
pub(crate) fn check(game: &Game, city: usize, pay: &Payment) -> Result<(), ActionError> {
    let (l, r) = (pay.second.left(), pay.second.right());
    let Some(state) = game.armada.as_deref() else {
        return Err(ActionError::WrongKind(format!(
            "this payment gives {} coin(s) to the 2nd players: buying from them needs East or West Trading \
             Zone, cards of the Armada expansion, and this game has no Armada",
            l + r
        )));
    };
    let a = &state.cities[city];
    let west = a.second_neighbour_purchases(state.data, Direction::Left);
    let east = a.second_neighbour_purchases(state.data, Direction::Right);
    let n = game.cities_n as usize;
    if west == 0 && east == 0 {
        return Err(ActionError::WrongKind(format!(
            "this payment gives {} coin(s) to the 2nd players, but city {city} has no trading zone (East \
             Trading Zone buys 1 unit per turn from the 2nd player on the right, West Trading Zone 2 from \
             the 2nd player on the left; armada.md §5)",
            l + r
        )));
    }
    let (sl, sr) = (Direction::Left.target(city, n), Direction::Right.target(city, n));
    if sl == sr {
        if l + r > west + east {
            return Err(ActionError::WrongKind(format!(
                "this payment buys {} unit(s) from seat {sl} (the 2nd player on both sides with 4 players), \
                 but the city's trading zones allow {} per turn ({} with West Trading Zone, {} with East)",
                l + r,
                west + east,
                west,
                east
            )));
        }
        return Ok(());
    }
    if l > west {
        return Err(ActionError::WrongKind(format!(
            "this payment buys {l} unit(s) from the 2nd player on the left (seat {sl}), but the city may buy \
             {west} there per turn{}",
            if west == 0 { " (it has no West Trading Zone)" } else { " (West Trading Zone: twice per turn)" }
        )));
    }
    if r > east {
        return Err(ActionError::WrongKind(format!(
            "this payment buys {r} unit(s) from the 2nd player on the right (seat {sr}), but the city may buy \
             {east} there per turn{}",
            if east == 0 { " (it has no East Trading Zone)" } else { " (East Trading Zone: once per turn)" }
        )));
    }
    Ok(())
}

/// Resolution step 1 (000 回合結算 1, "pay every cost"): the coins of `pay` to the 2nd players of
/// `city` become their income of the turn, like trade income.
pub(crate) fn pay_second(city: usize, n: usize, pay: &Payment, income: &mut [u16]) {
    if pay.second.is_none() || n < 3 {
        return;
    }
    income[Direction::Left.target(city, n)] += pay.second.left() as u16;
    income[Direction::Right.target(city, n)] += pay.second.right() as u16;
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

    fn tp(left: u8, right: u8, second_left: u8, second_right: u8) -> TradePay {
        TradePay { left, right, second_left, second_right }
    }

    /// Solves with the given parties; `units` = (West's units, East's units).
    #[allow(clippy::too_many_arguments)]
    fn front(
        own: &Production,
        left: &Production,
        right: &Production,
        second_left: &Production,
        second_right: &Production,
        units: (u8, u8),
        same: bool,
        need: &str,
        budget: u16,
    ) -> Vec<TradePay> {
        let tm = TradeMarket {
            market: Market { own, left, right, prices: [[2; 7]; 2] },
            second_left,
            left_units: units.0,
            second_right,
            right_units: units.1,
            same,
        };
        let mut out = TradeOptions::new();
        solve(&tm, &res(need), budget, &mut out);
        out.to_vec()
    }

    #[test]
    fn east_buys_the_missing_unit_for_1() {
        // The buyer makes W and needs W + O. Both neighbours sell O at 2 coins; the 2nd right
        // sells O at 1 (East Trading Zone, once). Ways: 1 to the 2nd right; 2 to the right; 2
        // to the left. None beats another for every recipient, so all three are listed (a
        // player may prefer to pay a rival less): (0,0,0,1), (0,2,0,0), (2,0,0,0).
        let (own, ore, none) = (prod("W", &[]), prod("O", &[]), prod("", &[]));
        let got = front(&own, &ore, &ore, &none, &ore, (0, 1), false, "WO", 10);
        assert_eq!(got, vec![tp(0, 0, 0, 1), tp(0, 2, 0, 0), tp(2, 0, 0, 0)]);
        // With 1 coin only the 2nd right is affordable.
        let got = front(&own, &ore, &ore, &none, &ore, (0, 1), false, "WO", 1);
        assert_eq!(got, vec![tp(0, 0, 0, 1)]);
    }

    #[test]
    fn east_alone_is_listed_when_the_neighbours_cannot_sell() {
        // The neighbours sell nothing; the card needs O and the 2nd right sells O: 1 coin there.
        let (none, ore) = (prod("", &[]), prod("O", &[]));
        assert_eq!(front(&none, &none, &none, &none, &ore, (0, 1), false, "O", 5), vec![tp(0, 0, 0, 1)]);
        // Two ore: East allows only one unit, the second has no seller: no way.
        assert_eq!(front(&none, &none, &none, &none, &prod("OO", &[]), (0, 1), false, "OO", 5), vec![]);
    }

    #[test]
    fn west_buys_two_and_refuses_a_third() {
        // Need 3 clay; the 2nd left makes CCC, the right neighbour makes C. West: 2 units at 1
        // coin, the 3rd from the right at 2: (0,2,2,0), 4 coins. Without West's 3rd unit there
        // is no other way (the 2nd left may not sell a 3rd; the left neighbour sells nothing).
        let (none, c3, c1) = (prod("", &[]), prod("CCC", &[]), prod("C", &[]));
        assert_eq!(front(&none, &none, &c1, &c3, &none, (2, 0), false, "CCC", 10), vec![tp(0, 2, 2, 0)]);
        // Without the right neighbour, 3 units cannot be bought.
        assert_eq!(front(&none, &none, &none, &c3, &none, (2, 0), false, "CCC", 10), vec![]);
    }

    #[test]
    fn a_second_players_either_or_card_sells_one_unit() {
        // The 2nd left has one W/S card: it sells wood or stone, not both in one purchase.
        let (none, ws) = (prod("", &[]), prod("", &["WS"]));
        assert_eq!(front(&none, &none, &none, &ws, &none, (2, 0), false, "W", 5), vec![tp(0, 0, 1, 0)]);
        assert_eq!(front(&none, &none, &none, &ws, &none, (2, 0), false, "WS", 5), vec![]);
    }

    #[test]
    fn four_players_one_second_player_both_limits() {
        // 4 players: the 2nd left and right are seat i+2, which makes OO + G. With East and West
        // the buyer may take 3 units there in all (2 + 1): O, O and G for 3 coins, written 2 to
        // the 2nd left and 1 to the 2nd right. Its production limits the units: a 3rd O is not
        // sold even with 3 allowed.
        let (none, across) = (prod("", &[]), prod("OOG", &[]));
        assert_eq!(
            front(&none, &none, &none, &across, &across, (2, 1), true, "OOG", 10),
            vec![tp(0, 0, 2, 1)]
        );
        assert_eq!(front(&none, &none, &none, &across, &across, (2, 1), true, "OOO", 10), vec![]);
        // East only: 1 unit, written to the 2nd right.
        assert_eq!(front(&none, &none, &none, &across, &across, (0, 1), true, "O", 10), vec![tp(0, 0, 0, 1)]);
    }

    #[test]
    fn four_players_each_multiset_of_the_one_2nd_player_is_tried_once() {
        // 4 players: the one 2nd player makes W and S; West (2) and East (1). The buyer needs
        // W + S and the left neighbour sells W at 2. By side, {W} comes as (W, –) and (–, W),
        // {W, S} as (WS, –), (W, S) and (S, W); tried once each, the front is the same: both
        // units from the 2nd player, 2 coins written to the 2nd left, (0, 0, 2, 0); or W from
        // the left for 2 and S from the 2nd player for 1, (2, 0, 1, 0).
        let (none, w, ws) = (prod("", &[]), prod("W", &[]), prod("WS", &[]));
        let got = front(&none, &w, &none, &ws, &ws, (2, 1), true, "WS", 10);
        assert_eq!(got, vec![tp(0, 0, 2, 0), tp(2, 0, 1, 0)]);
        // With 2 coins the 2nd player's two units are still affordable, not W from the left.
        assert_eq!(front(&none, &w, &none, &ws, &ws, (2, 1), true, "WS", 2), vec![tp(0, 0, 2, 0)]);
    }

    #[test]
    fn the_short_ways_to_pick_one_unit_and_to_check_it_agree_with_the_general_ones() {
        // By hand: the buyer wants W, S and OO; the seller makes W and offers S/G. One unit: none,
        // then W, then S (in resource order; no O: the seller has none).
        let (want, seller) = (res("WSOO"), prod("W", &["SG"]));
        let mut out = ArrayVec::new();
        picks(&want, &seller, 1, &mut out);
        assert_eq!(out.as_slice(), &[Resources::NONE, res("W"), res("S")]);
        picks(&want, &seller, 0, &mut out);
        assert_eq!(out.as_slice(), &[Resources::NONE]);
        assert!(supplies(&seller, &res("G")) && supplies(&seller, &res("")) && !supplies(&seller, &res("O")));
        // Random sellers and wants: the same picks in the same order, and the same answer as
        // the solver for every pick of up to three units.
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(21);
        let letters = ["W", "S", "C", "O", "G", "L", "P"];
        let (mut fast, mut slow) = (ArrayVec::new(), ArrayVec::new());
        let mut single = 0;
        for _ in 0..2000 {
            let mut fixed = String::new();
            for _ in 0..rng.random_range(0..4) {
                fixed += letters[rng.random_range(0..7)];
            }
            let choices: Vec<String> = (0..rng.random_range(0..3))
                .map(|_| format!("{}{}", letters[rng.random_range(0..7)], letters[rng.random_range(0..7)]))
                .collect();
            let refs: Vec<&str> = choices.iter().map(String::as_str).collect();
            let seller = prod(&fixed, &refs);
            let mut want = Resources::NONE;
            for _ in 0..rng.random_range(0..5) {
                want.add(Resource::ALL[rng.random_range(0..7)], 1);
            }
            for k in 0..=1 {
                picks(&want, &seller, k, &mut fast);
                picks_by_recursion(&want, &seller, k, &mut slow);
                assert_eq!(fast, slow, "{want:?} from {seller:?}, k = {k}");
            }
            picks_by_recursion(&want, &seller, 3, &mut slow);
            for x in &slow {
                assert_eq!(supplies(&seller, x), supplies_by_solver(&seller, x), "{x:?} from {seller:?}");
            }
            let mut unit = Resources::NONE;
            unit.add(Resource::ALL[rng.random_range(0..7)], 1);
            single += supplies(&seller, &unit) as u32;
            assert_eq!(
                supplies(&seller, &unit),
                supplies_by_solver(&seller, &unit),
                "{unit:?} from {seller:?}"
            );
        }
        // Both answers were met for single units.
        assert!(single > 200 && single < 1800, "{single}");
    }

    #[test]
    fn one_seller_and_by_side_give_the_same_front() {
        // Random 4-player markets and purchases: the multisets tried once give the front the
        // picks by side give.
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(13);
        let letters = ["W", "S", "C", "O", "G", "L", "P"];
        let random_prod = |rng: &mut rand_chacha::ChaCha8Rng| {
            let mut fixed = String::new();
            for _ in 0..rng.random_range(0..4) {
                fixed += letters[rng.random_range(0..4)];
            }
            let choices: Vec<String> = (0..rng.random_range(0..3))
                .map(|_| format!("{}{}", letters[rng.random_range(0..4)], letters[rng.random_range(4..7)]))
                .collect();
            let refs: Vec<&str> = choices.iter().map(String::as_str).collect();
            prod(&fixed, &refs)
        };
        let mut compared = 0;
        for _ in 0..3000 {
            let (own, left, right, across) =
                (random_prod(&mut rng), random_prod(&mut rng), random_prod(&mut rng), random_prod(&mut rng));
            let units = [(2, 1), (2, 0), (0, 1)][rng.random_range(0..3)];
            let mut need = Resources::NONE;
            for _ in 0..rng.random_range(1..6) {
                need.add(Resource::ALL[rng.random_range(0..7)], 1);
            }
            let budget = rng.random_range(0..12);
            let tm = TradeMarket {
                market: Market { own: &own, left: &left, right: &right, prices: [[2; 7]; 2] },
                second_left: &across,
                left_units: units.0,
                second_right: &across,
                right_units: units.1,
                same: true,
            };
            let missing = minus(&need, &own.fixed);
            if missing.is_empty() {
                continue;
            }
            let (mut fast, mut slow) = (TradeOptions::new(), TradeOptions::new());
            assert!(add_front_one_seller(&tm, &need, &missing, budget, &mut fast));
            add_front_by_side(&tm, &need, &missing, budget, &mut slow);
            fast.sort();
            slow.sort();
            assert_eq!(fast, slow, "{need:?} budget {budget} units {units:?}");
            compared += !slow.is_empty() as u32;
        }
        assert!(compared > 300, "{compared}");
    }

    #[test]
    fn budget_counts_every_coin() {
        // Need O + G: the 2nd right sells O (1 coin), the left neighbour sells G (2 coins): 3
        // coins. With 2 coins it cannot be paid.
        let (none, o, g) = (prod("", &[]), prod("O", &[]), prod("G", &[]));
        assert_eq!(front(&none, &g, &none, &none, &o, (0, 1), false, "OG", 3), vec![tp(2, 0, 0, 1)]);
        assert_eq!(front(&none, &g, &none, &none, &o, (0, 1), false, "OG", 2), vec![]);
    }

    #[test]
    fn naval_part_and_ancient_port() {
        // A card costing W (made at home) and a naval step costing O + G (two different
        // resources): the 2nd right sells O for 1, the left neighbour sells G for 2: (2,0,0,1).
        // With Ancient Port the player waives O or G: waive G → O from the 2nd right (0,0,0,1);
        // waive O → G from the left (2,0,0,0). Neither beats the other: both are listed.
        let (own, o, g, none) = (prod("W", &[]), prod("O", &[]), prod("G", &[]), prod("", &[]));
        let tm = TradeMarket {
            market: Market { own: &own, left: &g, right: &none, prices: [[2; 7]; 2] },
            second_left: &none,
            left_units: 0,
            second_right: &o,
            right_units: 1,
            same: false,
        };
        let mut out = TradeOptions::new();
        solve_with_naval(&tm, &res("W"), &res("OG"), false, 10, &mut out);
        assert_eq!(out.as_slice(), &[tp(2, 0, 0, 1)]);
        solve_with_naval(&tm, &res("W"), &res("OG"), true, 10, &mut out);
        assert_eq!(out.as_slice(), &[tp(0, 0, 0, 1), tp(2, 0, 0, 0)]);
    }

    #[test]
    fn own_units_are_not_bought() {
        // The buyer makes O: nothing is bought, the only way is free (a purchase of its own O
        // from the 2nd right would cost 1 more for nothing).
        let (own, o, none) = (prod("O", &[]), prod("O", &[]), prod("", &[]));
        assert_eq!(front(&own, &none, &none, &none, &o, (0, 1), false, "O", 5), vec![tp(0, 0, 0, 0)]);
    }

    #[test]
    fn what_a_second_player_may_sell_in_one_purchase() {
        // Fixed production only (answered without the solver): what it makes, no more.
        let oo = prod("OO", &[]);
        assert!(supplies(&oo, &res("")));
        assert!(supplies(&oo, &res("O")));
        assert!(supplies(&oo, &res("OO")));
        assert!(!supplies(&oo, &res("OOO")));
        assert!(!supplies(&oo, &res("W")));
        assert!(!supplies(&prod("", &[]), &res("W")));
        // With an either/or card (the solver's rule, 002 貿易): one unit of either resource.
        let ws = prod("O", &["WS"]);
        assert!(supplies(&ws, &res("OW")));
        assert!(supplies(&ws, &res("OS")));
        assert!(!supplies(&ws, &res("WS")));
    }

    #[test]
    fn a_buyer_making_everything_pays_nobody() {
        // The buyer makes 2 wood and a stone; the card costs 2 wood: free, though every seller
        // offers wood (armada.md §5: buying is never forced).
        let (own, w) = (prod("WWS", &[]), prod("W", &[]));
        assert_eq!(front(&own, &w, &w, &w, &w, (2, 1), false, "WW", 5), vec![tp(0, 0, 0, 0)]);
        assert_eq!(front(&own, &w, &w, &w, &w, (2, 1), true, "", 0), vec![tp(0, 0, 0, 0)]);
    }

    #[test]
    fn packing_and_split() {
        assert_eq!(split(3, 2), (2, 1));
        assert_eq!(split(1, 2), (1, 0));
        assert_eq!(split(1, 0), (0, 1));
        let p = tp(1, 2, 2, 1).payment(3, None);
        assert_eq!((p.second.left(), p.second.right(), p.total()), (2, 1, 9));
    }
}
