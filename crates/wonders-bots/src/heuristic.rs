//! A fast rule-based player, in the spirit of the rule-based 7 Wonders player of Robilliard,
//! Fonlupt and Teytaud ("Monte-Carlo Tree Search for the Game of 7 Wonders", 2014): every legal
//! action gets a value in *points-equivalent*, and the bot plays the best one. No search, no
//! look-ahead, no allocation once its small tables are built (once per edition, for the whole
//! process).
//!
//! # The rules
//!
//! Values are in victory points; `cv` is the value of one coin. The *acting city* is the seat's own
//! city, or the Free City when the seat chooses for it (2-player variant). The numbers are the
//! default [`Weights`], tuned by self-play (a variant playing against three copies of the current
//! best, 4 000 games per comparison).
//!
//! 1. **Coins.** A coin is worth `cv = 1/3` (its treasury value) plus a liquidity bonus by Age,
//!    halved above 12 coins and raised by half below 3 (the tuned bonus is 0 in every Age).
//! 2. **Cost of an action.** Coins paid to the bank cost `cv` each; coins paid to a neighbour cost
//!    `cv × 1.25` each (the 0.25 is the gift to a rival). Olympia A's free build of the Age, when
//!    used, costs 1.2 × the share of the Age left (it could have saved coins later).
//! 3. **Immediate points.** Points on a card or a stage count at face value; points per counted
//!    item (guilds, Haven, Lighthouse, Chamber of Commerce, Arena, Ludus, Decorators Guild) count
//!    what the cities hold now (the card itself included), plus, for guilds counting the
//!    neighbours' cards, 0.15 per Age III turn left; Arena-like cards add 0.6 × their
//!    points for each stage the turns left allow.
//! 4. **Science.** With `Δ(now)` the science points the symbol gains now (wild symbols placed at
//!    best) and `Δ(future)` its gain if `F` more symbols were to come (placed at best, like wilds;
//!    `F` = 2 + 0.6·symbols in Age I, 1 + 0.5·symbols in Age II, a quarter of the turns left in
//!    Age III), the value is `(1 − λ)·Δ(now) + λ·Δ(future)` with λ = 0.20 / 0.15 / 0 by Age.
//! 5. **Military.** Against each neighbour and for each conflict still to come, the final shield
//!    difference is the current one plus noise (σ = 0.35 + 0.8·√(turns left before that
//!    conflict)); shields are worth the gain in expected tokens (+1/+3/+5 for a win, −1 for a
//!    defeat, 0 for a tie), later Ages' conflicts at weight 1.0.
//! 6. **Resources.** The k-th unit of a resource is worth `factor × need(k)`, where `need(k)`
//!    counts what needs at least k units: each distinct card of Age II weighs 0.65 and of Age III
//!    0.45 while those Ages are to come (guilds half), each card of the current Age 0.10 × the
//!    share of the Age left, each remaining wonder stage 1.5, each other card of the hand 0.15.
//!    `factor` is 1.0 when no neighbour sells it (unique), 0.8 when one does, 0.6 when it costs
//!    1 coin there. So cheap and unique resources count most in Age I, and little in Age III. A
//!    unit neighbours may buy adds 0.1 per neighbour lacking it (trade income), in Ages I and II.
//!    An either/or producer is worth its best resource plus a quarter of the others.
//! 7. **Trading discounts** are worth, per resource and side, 0.45 per unit the neighbour sells
//!    that the city lacks (0.1 otherwise), times the share of the game left.
//! 8. **Chains.** A card that makes later cards free adds, for each such card the city does not
//!    hold and cannot chain yet, 0.25 (next Age) or 0.15 (two Ages later) × (1 + 0.3 × that card's
//!    resource count, at most 4).
//! 9. **Wonder stages** are valued by their effects (rules 3–7; building from the discard pile
//!    4.5, Babylon's last card 2 per Age left, Olympia's free build 3.5 per Age left, copying a
//!    guild 6, 2nd-edition Olympia powers 2 per Age or 0.8 per colour not built), times 0.9 (a
//!    stage can wait, a card cannot), plus 1.5 when the turns left are barely enough for the
//!    stages left. Any card pays for a stage, so the card given is the one whose loss matters
//!    least — the one the next player wants most (rule 11).
//! 10. **Discarding** gives `3 × cv`: it wins when nothing else is worth 1 point.
//! 11. **Hate-drafting.** The card taken out of the hand is not passed on: each action adds
//!     0.15 × the next player's gain from that card (its value to them by rules 3–8 less what it
//!     would cost them; zero if they cannot build it now or already have it). Not in the last
//!     turn of an Age, whose last card is discarded.
//! 12. **Halicarnassus** builds the discarded card of highest value (rules 3–8), or passes when
//!     none is worth anything. **Babylon's last card** is played like any turn.
//! 13. **Side choice** (2nd edition): the side whose stages are worth more on a fixed scale
//!     (points 1, shield 1.5, coin 0.3, production 3, discount 2.5, science 6, Olympia's and
//!     Halicarnassus' powers 4–6) less 0.3 per unit of stage cost beyond one unit of the board's
//!     own resource per stage; Day on a tie.
//! 14. **The Free City** (2-player variant) is no player: the holder values its action by the
//!     military balance it shifts (its shields hurt whichever player they beat), the coins it
//!     pays to the holder (+cv) or to the rival (−0.25 cv), hate-drafting against the rival (who
//!     receives the hand), and 0.1 for building rather than staging; it discards (−0.5) only when
//!     it must.
//!
//! 15. **Edifice: taking part** (a stage with the participation, or an Ur pawn) adds
//!     `P(completed) × reward + P(failed) × penalty avoided`, the participation coins being paid
//!     like any cost (rule 2). `P(completed)` is 1 when this pawn empties the card (or the project
//!     is already completed, for an Ur pawn); otherwise the expected rival joins — 0.12 per rival
//!     who can still join (no pawn of the Age, a stage left) per turn left in the Age, at most 0.8
//!     each — over the pawns still needed, capped at 0.9. Rewards: coins `× cv`, shields by rule
//!     5, victory tokens at face value, clearing defeats 1 per token held, production by rule 6,
//!     end-game points counted on the city now plus what the turns left can add (a stage per
//!     stage left × 0.7, 1.5 cards of a colour, 1 set or colour, 4 for the Agora). A penalty costs
//!     its coins `× cv`, the lowest victory tokens, 2.5 for a card of the colour (when the city has
//!     one), else the Age's debt.
//! 16. **Edifice: the card to discard** for a failed project is the one of least value to the
//!     city (rules 3–8 as if built now).
//!
//! Ties go to the first action in the legal list (the engine's deterministic order).

use crate::Bot;
use crate::ctx::Ctx;
pub use crate::weights::Weights;
use wonders_core::armada::Fleet;
use wonders_core::edifice::{Outcome, Penalty, Reward};
use wonders_core::effect::{Counted, Effect, Scope};
use wonders_core::game::{count, left_of, right_of};
use wonders_core::payment::{Market, Options, solve};
use wonders_core::score::science_points;
use wonders_core::{
    Action, CardId, Catalog, City, Colour, FreeBy, Game, Naval, Payment, Phase, Resource, Resources, Side,
    StageExtra, View,
};

/// The rule-based player. Deterministic: the same view and legal list give the same action.
///
/// ```
/// use wonders_bots::{Bot, HeuristicBot};
/// use wonders_core::{Game, Setup};
///
/// let game = Game::new(&Setup::new(4, 7)).unwrap();
/// let legal = game.legal_actions(0);
/// let mut bot = HeuristicBot::new();
/// let choice = bot.choose(&game.view(0), &legal);
/// assert!(legal.contains(&choice));
/// assert_eq!(bot.name(), "heuristic");
/// ```
#[derive(Clone, Debug, Default)]
pub struct HeuristicBot {
    weights: Weights,
    /// Armada: value naval moves with the first, flat rules (for comparison; `heuristic:flat-naval`).
    flat_naval: bool,
}

impl HeuristicBot {
    /// A bot with the default weights.
    pub fn new() -> HeuristicBot {
        HeuristicBot { weights: Weights::default(), flat_naval: false }
    }

    /// The bot with the first Armada rules (`heuristic:flat-naval`): flat values per track step,
    /// 3 points an exploration, a fixed Forgotten Port rule. Kept to measure the fleet-by-fleet
    /// rules against; without Armada it plays exactly as [`HeuristicBot::new`].
    pub fn flat_naval() -> HeuristicBot {
        HeuristicBot { weights: Weights::default(), flat_naval: true }
    }

    /// A bot with other weights (for tuning).
    pub fn with_weights(weights: Weights) -> HeuristicBot {
        HeuristicBot { weights, flat_naval: false }
    }

    /// The weights in use.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }
}

impl Bot for HeuristicBot {
    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        let mut ctx = Ctx::from_view(view);
        ctx.flat_naval = self.flat_naval;
        match best(&ctx, &self.weights, legal, true) {
            Some(i) => legal[i],
            None => Action::Pass,
        }
    }

    fn name(&self) -> String {
        if self.flat_naval { "heuristic:flat-naval".into() } else { "heuristic".into() }
    }
}

/// Per-edition tables built once.
struct Tables {
    /// For each card, the cards of later Ages it makes free.
    children: Vec<Vec<CardId>>,
    /// `need[age-1][r][k]`: distinct cards of that Age (guilds counted half) needing at least
    /// k+1 units of resource r.
    need: [[[f32; 5]; 7]; 3],
}

/// The tables of `catalog`, built once per catalog: a process may play games on several (an
/// edition's own, or one extended with an expansion's cards, as the Python package does), and
/// each has its own card ids.
fn tables(catalog: &'static Catalog) -> &'static Tables {
    type Cache = Vec<(&'static Catalog, &'static Tables)>;
    static CACHE: std::sync::Mutex<Cache> = std::sync::Mutex::new(Vec::new());
    thread_local! {
        // The last catalog this thread asked for: no lock on the hot path (every decision).
        static LAST: std::cell::Cell<Option<(&'static Catalog, &'static Tables)>> =
            const { std::cell::Cell::new(None) };
    }
    if let Some((c, t)) = LAST.with(|l| l.get())
        && std::ptr::eq(c, catalog)
    {
        return t;
    }
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let t = match cache.iter().find(|(c, _)| std::ptr::eq(*c, catalog)) {
        Some(&(_, t)) => t,
        None => {
            let t: &'static Tables = Box::leak(Box::new(build_tables(catalog)));
            cache.push((catalog, t));
            t
        }
    };
    LAST.with(|l| l.set(Some((catalog, t))));
    t
}

fn build_tables(catalog: &Catalog) -> Tables {
    let mut children = vec![Vec::new(); catalog.cards.len()];
    for child in &catalog.cards {
        for parent in &catalog.cards {
            if parent.age < child.age && child.chain_parents.contains(parent.name_id) {
                children[parent.id.0 as usize].push(child.id);
            }
        }
    }
    let mut need = [[[0f32; 5]; 7]; 3];
    for c in &catalog.cards {
        let w = if c.is_guild() { 0.5 } else { 1.0 };
        for r in Resource::ALL {
            for (k, slot) in need[c.age as usize - 1][r as usize].iter_mut().enumerate() {
                if c.cost.get(r) as usize > k {
                    *slot += w;
                }
            }
        }
    }
    Tables { children, need }
}

/// Science points with `wild` symbols placed at best (fast: every split of the wilds).
fn science_best(counts: [u8; 3], wild: u8) -> i32 {
    if wild == 0 {
        return science_points(counts, 0);
    }
    let mut best = 0;
    for i in 0..=wild {
        for j in 0..=(wild - i) {
            let k = wild - i - j;
            let c = [counts[0] + i, counts[1] + j, counts[2] + k];
            best = best.max(science_points(c, 0));
        }
    }
    best
}

/// Standard normal distribution function, logistic approximation.
fn phi(x: f32) -> f32 {
    1.0 / (1.0 + (-1.702 * x).exp())
}

/// Expected military tokens of one conflict for a shield difference `d`, with noise `sigma`.
fn conflict(d: f32, sigma: f32, win: f32) -> f32 {
    win * phi((d - 0.5) / sigma) - phi((-d - 0.5) / sigma)
}

/// Everything the rules need about one city, computed once per decision (the parts that cost
/// something, lazily).
struct Persp {
    t: &'static Tables,
    city: usize,
    cv: f32,
    with_hand: bool,
    /// Value of the next units of each resource: `unit[r][j]` for the (supply + j + 1)-th unit,
    /// computed on first use.
    unit: [Option<[f32; 4]>; 7],
    /// Lazily computed shield values, index = shields added.
    mil: [Option<f32>; 8],
    /// The city's market's number in the memo ([`crate::memo::Memo::market_id`]), asked once per decision.
    market_id: Option<u32>,
}

impl Persp {
    fn new(ctx: &Ctx, w: &Weights, t: &'static Tables, city: usize, with_hand: bool) -> Persp {
        let c = &ctx.cities[city];
        let age = ctx.age.clamp(1, 3) as usize;
        let mut cv = 1.0 / 3.0 + w.coin_liquidity[age - 1];
        if c.coins > 12 {
            cv = 1.0 / 3.0 + w.coin_liquidity[age - 1] * 0.5;
        } else if c.coins < 3 {
            cv = 1.0 / 3.0 + w.coin_liquidity[age - 1] * 1.5;
        }
        Persp { t, city, cv, with_hand, unit: [None; 7], mil: [None; 8], market_id: None }
    }

    /// The value of the (supply + j + 1)-th unit of `res`, j < 4 (rule 6).
    fn unit(&mut self, ctx: &Ctx, w: &Weights, res: Resource, j: usize) -> f32 {
        let t = self.t;
        let ri = res as usize;
        if let Some(u) = self.unit[ri] {
            return u[j.min(3)];
        }
        let city = self.city;
        let c = &ctx.cities[city];
        let age = ctx.age.clamp(1, 3) as usize;
        let n = ctx.n();
        let (l, r) = (&ctx.cities[left_of(city, n)], &ctx.cities[right_of(city, n)]);
        let stages = ctx.catalog.wonder(c.wonder).stages(c.side);
        let remaining = stages.get(c.stages as usize..).unwrap_or(&[]);
        let age_share = ctx.turns_left_in_age() as f32 / 6.0;
        // What needs at least k+1 units: the stages left, the other cards of the hand.
        let mut stage_need = [0u8; 5];
        for stage in remaining {
            for slot in stage_need.iter_mut().take(stage.cost.get(res) as usize) {
                *slot += 1;
            }
        }
        let mut hand_need = [0u8; 5];
        if self.with_hand {
            for &h in ctx.hand {
                for slot in hand_need.iter_mut().take(ctx.catalog.card(h).cost.get(res) as usize) {
                    *slot += 1;
                }
            }
        }
        let supply = c.production.max_of(res) as usize;
        let (sells_left, sells_right) = (l.for_sale.max_of(res), r.for_sale.max_of(res));
        let factor = if sells_left + sells_right == 0 {
            w.scarcity[0]
        } else if c.prices[0][ri] == 1 && sells_left > 0 || c.prices[1][ri] == 1 && sells_right > 0 {
            w.scarcity[2]
        } else {
            w.scarcity[1]
        };
        // Trade income: neighbours lacking it may buy it.
        let lacking = (l.production.max_of(res) == 0) as u32 + (r.production.max_of(res) == 0) as u32;
        let sell_bonus = if age < 3 { 0.1 * lacking as f32 } else { 0.0 };
        let mut unit = [0f32; 4];
        for (j, slot) in unit.iter_mut().enumerate() {
            let k = supply + j; // index into the needs: at least k+1 units
            if k >= 5 {
                break;
            }
            let mut need = 0.0;
            for later in age + 1..=3 {
                need += w.need_later[later - 2] * t.need[later - 1][ri][k];
            }
            need += w.need_current * age_share * t.need[age - 1][ri][k];
            need += w.need_stage * stage_need[k] as f32;
            need += w.need_hand * hand_need[k] as f32;
            *slot = factor * need + if j == 0 { sell_bonus } else { 0.0 };
        }
        self.unit[ri] = Some(unit);
        unit[j.min(3)]
    }

    /// Value of `s` more shields (rule 5).
    fn military(&mut self, ctx: &Ctx, w: &Weights, s: u8) -> f32 {
        let s = (s as usize).min(7);
        if let Some(v) = self.mil[s] {
            return v;
        }
        let n = ctx.n();
        let me = ctx.cities[self.city].shields as f32;
        let mut v = 0.0;
        for other in [left_of(self.city, n), right_of(self.city, n)] {
            // Team variant: no conflict with the teammate, two tokens against the opponent.
            if ctx.teams && wonders_core::teams::same_team(other, self.city) {
                continue;
            }
            let d = me - ctx.cities[other].shields as f32;
            let swing = match ctx.memo {
                Some(memo) => {
                    let d_int = ctx.cities[self.city].shields as i32 - ctx.cities[other].shields as i32;
                    memo.military(w.military_future, ctx.age, ctx.turns_left_in_age(), d_int, s, || {
                        military_swing(ctx, w, d, s as f32)
                    })
                }
                None => military_swing(ctx, w, d, s as f32),
            };
            v += if ctx.teams { 2.0 } else { 1.0 } * swing;
        }
        self.mil[s] = Some(v);
        v
    }
}

/// Gain in expected tokens over every conflict still to come when a shield difference `d` grows
/// by `s`.
fn military_swing(ctx: &Ctx, w: &Weights, d: f32, s: f32) -> f32 {
    let left = ctx.turns_left_in_age() as f32;
    // Conflicts still ahead: this Age's unless it is already resolved (not possible while a
    // decision is pending), and later ones.
    let mut v = 0.0;
    for a in ctx.age.max(1)..=3 {
        let turns = left + 6.0 * (a - ctx.age.max(1)) as f32;
        let sigma = 0.35 + 0.8 * turns.sqrt();
        let win = match a {
            1 => 1.0,
            2 => 3.0,
            _ => 5.0,
        };
        let weight = if a == ctx.age { 1.0 } else { w.military_future };
        v += weight * (conflict(d + s, sigma, win) - conflict(d, sigma, win));
    }
    v
}

/// Value of one science symbol (`which` = 0, 1, 2) or of a wild one (`which` = 3) (rule 4).
fn science_value(ctx: &Ctx, w: &Weights, city: &City, which: usize) -> f32 {
    match ctx.memo {
        Some(memo) => {
            // What it reads: the symbols, the symbol added, the Age and the turns left in it.
            let key = [
                city.science[0],
                city.science[1],
                city.science[2],
                city.science_wild,
                which as u8,
                ctx.age,
                ctx.turns_left_in_age().min(255) as u8,
            ];
            memo.science(w.science_future, key, || science_value_of(ctx, w, city, which))
        }
        None => science_value_of(ctx, w, city, which),
    }
}

fn science_value_of(ctx: &Ctx, w: &Weights, city: &City, which: usize) -> f32 {
    let cur = city.science;
    let wild = city.science_wild;
    let (with, with_wild) = if which < 3 {
        let mut c = cur;
        c[which] += 1;
        (c, wild)
    } else {
        (cur, wild + 1)
    };
    let now = (science_best(with, with_wild) - science_best(cur, wild)) as f32;
    let symbols = (cur.iter().sum::<u8>() + wild) as f32;
    let future = match ctx.age {
        1 => 2.0 + 0.6 * symbols,
        2 => 1.0 + 0.5 * symbols,
        _ => ctx.turns_left_in_age() as f32 * 0.25,
    }
    .min(6.0) as u8;
    let lambda = w.science_future[ctx.age.clamp(1, 3) as usize - 1];
    if future == 0 || lambda == 0.0 {
        return now;
    }
    let fut = (science_best(with, with_wild + future) - science_best(cur, wild + future)) as f32;
    (1.0 - lambda) * now + lambda * fut
}

/// Value of one effect for the city of `p` (rules 3–9). `card` is the card bearing it, if any.
fn effect_value(ctx: &Ctx, w: &Weights, p: &mut Persp, e: &Effect, card: Option<CardId>) -> f32 {
    let city = &ctx.cities[p.city];
    // Read only by the effects counting cards (the card's colour, the Age III turns left).
    let colour_bit = || card.map_or(0, |c| ctx.catalog.card(c).colour.bit());
    let own_only = Scope { own: true, neighbours: false };
    let age3_left = || if ctx.age == 3 { ctx.turns_left_in_age() as f32 } else { 6.0 };
    match *e {
        Effect::Points(v) => v as f32,
        Effect::Shields(s) => p.military(ctx, w, s),
        Effect::Coins(c) => c as f32 * p.cv,
        Effect::Science(s) => science_value(ctx, w, city, s as usize),
        Effect::ScienceWild => science_value(ctx, w, city, 3),
        Effect::Produce(r) => {
            let mut v = 0.0;
            for res in Resource::ALL {
                for j in 0..r.get(res).min(4) as usize {
                    v += p.unit(ctx, w, res, j);
                }
            }
            v
        }
        Effect::ProduceOneOf { choices, .. } => {
            let (mut best, mut sum) = (0f32, 0f32);
            for res in choices.iter() {
                let u = p.unit(ctx, w, res, 0);
                best = best.max(u);
                sum += u;
            }
            best + 0.25 * (sum - best)
        }
        Effect::TradeDiscount { resources, sides } => {
            let n = ctx.n();
            let share = ctx.turns_left() as f32 / 18.0;
            let mut v = 0.0;
            for (side, applies, neighbour) in
                [(0, sides.left, left_of(p.city, n)), (1, sides.right, right_of(p.city, n))]
            {
                if !applies {
                    continue;
                }
                for res in resources.iter() {
                    if city.prices[side][res as usize] == 1 {
                        continue;
                    }
                    let sold = ctx.cities[neighbour].for_sale.max_of(res);
                    let lack = sold.min(2u8.saturating_sub(city.production.max_of(res)));
                    v += if lack > 0 { 0.45 * lack as f32 } else { 0.1 };
                }
            }
            v * share
        }
        Effect::CoinsPer { what, scope, coins } => {
            let mut k = count(ctx.cities, p.city, what, scope);
            if scope.own && matches!(what, Counted::Colours(m) if m & colour_bit() != 0) {
                k += 1;
            }
            k as f32 * coins as f32 * p.cv
        }
        Effect::CoinsAndPointsPer { what, coins, points } => {
            let mut k = count(ctx.cities, p.city, what, own_only) as f32;
            if matches!(what, Counted::Colours(m) if m & colour_bit() != 0) {
                k += 1.0;
            }
            let mut v = k * (coins as f32 * p.cv + points as f32);
            if what == Counted::WonderStages {
                let left = city.stage_count(ctx.catalog).saturating_sub(city.stages) as f32;
                v += points as f32 * left.min(ctx.turns_left() as f32 / 3.0) * 0.6;
            }
            v
        }
        Effect::PointsPer { what, scope, points } => {
            let mut k = count(ctx.cities, p.city, what, scope) as f32;
            if scope.own && matches!(what, Counted::Colours(m) if m & colour_bit() != 0) {
                k += 1.0;
            }
            if scope.neighbours && !matches!(what, Counted::Defeats) {
                k += 0.15 * age3_left().min(6.0);
            }
            k * points as f32
        }
        Effect::PointsIfWonderComplete(v) => {
            let left = city.stage_count(ctx.catalog).saturating_sub(city.stages) as u32;
            if left == 0 {
                v as f32
            } else if left * 2 <= ctx.turns_left() {
                v as f32 * 0.6
            } else {
                0.0
            }
        }
        Effect::FreeBuildPerAge => {
            let ages = (3 - ctx.age.min(3)) as f32 + (ctx.turns_left_in_age() >= 2) as u8 as f32;
            3.5 * ages
        }
        Effect::BuildFromDiscard => 4.5,
        Effect::PlayLastCard => 2.0 * (4 - ctx.age.min(3)) as f32,
        Effect::CopyGuild => 6.0,
        Effect::FreeFirstOfColour => {
            0.8 * Colour::ALL.iter().filter(|c| city.colour_counts[**c as usize] == 0).count() as f32
        }
        Effect::FreeFirstOfAge => 2.0 * (3 - ctx.age.min(3)) as f32,
        Effect::FreeLastOfAge => {
            2.0 * ((3 - ctx.age.min(3)) as f32 + (ctx.turns_left_in_age() >= 1) as u8 as f32)
        }
        // Ur: a pawn of a fixed Age (rule 15); "any Age" is valued with the Age the action names.
        Effect::TakePawn(0) => 0.0,
        Effect::TakePawn(a) => pawn_value(ctx, w, p, a, false),
    }
}

/// Value of building `card` in the city of `p`, chains included (rules 3–8).
fn card_value(ctx: &Ctx, w: &Weights, t: &Tables, p: &mut Persp, card: CardId) -> f32 {
    let def = ctx.catalog.card(card);
    let mut v = 0.0;
    for e in &def.effects {
        v += effect_value(ctx, w, p, e, Some(card));
    }
    // Chains (rule 8).
    let city = &ctx.cities[p.city];
    for &child in &t.children[card.0 as usize] {
        let cd = ctx.catalog.card(child);
        if cd.age <= ctx.age || city.has_name(ctx.catalog, child) || city.has_chain_for(ctx.catalog, child) {
            continue;
        }
        let weight = if cd.age == ctx.age + 1 { w.chain[0] } else { w.chain[1] };
        v += weight * (1.0 + 0.3 * (cd.cost.total().min(4) as f32));
    }
    v
}

/// Value of the city's next wonder stage (rule 9), or `None` if the wonder is complete.
fn stage_value(ctx: &Ctx, w: &Weights, p: &mut Persp, extra: StageExtra) -> Option<f32> {
    let city = &ctx.cities[p.city];
    let stages = ctx.catalog.wonder(city.wonder).stages(city.side);
    let stage = stages.get(city.stages as usize)?;
    let mut v = 0.0;
    for e in stage.effects_for(extra.alternative()) {
        v += effect_value(ctx, w, p, e, None);
    }
    let left = (stages.len() - city.stages as usize) as u32;
    let urgent = left * 2 + 1 >= ctx.turns_left();
    Some(v * w.stage_factor + if urgent { w.stage_urgency } else { 0.0 })
}

/// Coins-equivalent cost of a payment (rule 2).
fn pay_cost(ctx: &Ctx, w: &Weights, p: &Persp, pay: &Payment) -> f32 {
    if pay.free == Some(FreeBy::FreeBuild) {
        return 1.2 * (ctx.turns_left_in_age() as f32 / 6.0);
    }
    // Coins to other players (the neighbours, and with Armada's trading zones the 2nd players)
    // feed rivals.
    let neighbours = (pay.left + pay.right + pay.second.left() + pay.second.right()) as f32;
    p.cv * (neighbours * (1.0 + w.feed) + pay.bank as f32)
}

/// Gain of `city` from building `card` now, less its cost; 0 if it cannot (rule 11).
fn gain_for(ctx: &Ctx, w: &Weights, t: &Tables, p: &mut Persp, card: CardId) -> f32 {
    let city = &ctx.cities[p.city];
    let def = ctx.catalog.card(card);
    if city.has_name(ctx.catalog, card) {
        return 0.0;
    }
    let cost = if city.has_chain_for(ctx.catalog, card) {
        0.0
    } else {
        if city.coins < def.coins as u16 {
            return 0.0;
        }
        let n = ctx.n();
        let market = Market {
            own: &city.production,
            left: &ctx.cities[left_of(p.city, n)].for_sale,
            right: &ctx.cities[right_of(p.city, n)].for_sale,
            prices: city.prices,
        };
        let budget = city.coins - def.coins as u16;
        let cheapest = match (plain_cheapest(&market, &def.cost), ctx.memo) {
            (Some(cheapest), _) => cheapest.filter(|&c| c <= budget),
            (None, Some(memo)) => {
                let id = *p.market_id.get_or_insert_with(|| memo.market_id(&market));
                memo.cheapest(id, &market, &def.cost).filter(|&c| c <= budget)
            }
            (None, None) => {
                let mut opts = Options::new();
                solve(&market, &def.cost, budget, &mut opts);
                opts.iter().map(|&(l, r)| l as u16 + r as u16).min()
            }
        };
        match cheapest {
            Some(c) => (c as f32 * (1.0 + w.feed) + def.coins as f32) * p.cv,
            None => return 0.0,
        }
    };
    (card_value(ctx, w, t, p, card) - cost).max(0.0)
}

/// Small per-card cache for one decision.
struct CardCache {
    keys: [CardId; 12],
    values: [f32; 12],
    len: usize,
}

impl CardCache {
    fn new() -> CardCache {
        CardCache { keys: [CardId(0); 12], values: [0.0; 12], len: 0 }
    }

    fn get_or(&mut self, card: CardId, f: impl FnOnce() -> f32) -> f32 {
        if let Some(i) = self.keys[..self.len].iter().position(|&k| k == card) {
            return self.values[i];
        }
        let v = f();
        if self.len < self.keys.len() {
            self.keys[self.len] = card;
            self.values[self.len] = v;
            self.len += 1;
        }
        v
    }
}

/// Side choice (rule 13): the side worth more on a fixed scale.
fn side_value(catalog: &Catalog, city: &City, side: Side) -> f32 {
    let wonder = catalog.wonder(city.wonder);
    let mut v = 0.0;
    for stage in wonder.stages(side) {
        for e in &stage.effects {
            v += match *e {
                Effect::Points(p) => p as f32,
                Effect::Shields(s) => 1.5 * s as f32,
                Effect::Coins(c) => 0.3 * c as f32,
                Effect::Produce(_) | Effect::ProduceOneOf { .. } => 3.0,
                Effect::TradeDiscount { .. } => 2.5,
                Effect::ScienceWild | Effect::Science(_) => 6.0,
                Effect::FreeBuildPerAge | Effect::CopyGuild | Effect::FreeFirstOfColour => 6.0,
                Effect::BuildFromDiscard => 5.0,
                Effect::PlayLastCard | Effect::FreeFirstOfAge | Effect::FreeLastOfAge => 4.0,
                Effect::PointsIfWonderComplete(p) => 0.5 * p as f32,
                _ => 2.0,
            };
        }
        let own = stage.cost.get(wonder.start) as u32;
        v -= 0.3 * (stage.cost.total() - own.min(1)) as f32;
    }
    v
}

/// The index of the best legal action by the rules, `None` when `legal` is empty. With `deny`
/// false, rule 11 is skipped (faster, for rollouts).
pub(crate) fn best(ctx: &Ctx, w: &Weights, legal: &[Action], deny: bool) -> Option<usize> {
    let mut best: Option<(usize, f32)> = None;
    evaluate(ctx, w, legal, deny, |i, v| {
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((i, v));
        }
    });
    best.map(|(i, _)| i)
}

/// Calls `f(index, value)` for every legal action, in order.
pub(crate) fn evaluate(ctx: &Ctx, w: &Weights, legal: &[Action], deny: bool, mut f: impl FnMut(usize, f32)) {
    if legal.is_empty() {
        return;
    }
    if ctx.phase == Phase::ChooseSide {
        let city = &ctx.cities[ctx.seat];
        for (i, a) in legal.iter().enumerate() {
            let v = match a {
                Action::ChooseSide { side } => side_value(ctx.catalog, city, *side),
                _ => f32::MIN,
            };
            f(i, v);
        }
        return;
    }
    let t = tables(ctx.catalog);
    let for_free_city = ctx.free_city == Some(ctx.city) && ctx.city != ctx.seat;
    let mut me = Persp::new(ctx, w, t, if for_free_city { ctx.seat } else { ctx.city }, true);
    let next = if deny { ctx.next_player() } else { None };
    let mut next_p = next.map(|s| Persp::new(ctx, w, t, s, false));
    let mut denial = CardCache::new();
    let mut values = CardCache::new();
    let mut deny_of = |card: CardId| -> f32 {
        match next_p.as_mut() {
            Some(np) => denial.get_or(card, || w.deny * gain_for(ctx, w, t, np, card)),
            None => 0.0,
        }
    };
    if for_free_city {
        free_city_values(ctx, w, &mut me, legal, &mut deny_of, &mut f);
        return;
    }
    let mut stage: [Option<Option<f32>>; 2] = [None; 2];
    let mut part: [Option<f32>; 4] = [None; 4];
    let discard = 3.0 * me.cv;
    for (i, a) in legal.iter().enumerate() {
        let v = match *a {
            Action::Build { card, pay, naval } => {
                let cv = values.get_or(card, || card_value(ctx, w, t, &mut me, card));
                cv - pay_cost(ctx, w, &me, &pay)
                    + deny_of(card)
                    + naval_value(ctx, naval.construction(), naval.free_move())
            }
            Action::Wonder { card, pay, extra } => {
                let alt = extra.alternative() as usize;
                let s = *stage[alt].get_or_insert_with(|| stage_value(ctx, w, &mut me, extra));
                let mut v = s.unwrap_or(0.0) - pay_cost(ctx, w, &me, &pay)
                    + deny_of(card)
                    + naval_value(ctx, extra.naval(), None);
                if extra.pawn_age() > 0 {
                    let a = extra.pawn_age() as usize;
                    v += *part[a].get_or_insert_with(|| pawn_value(ctx, w, &mut me, a as u8, false));
                }
                if extra.take_part() {
                    v += *part[0].get_or_insert_with(|| pawn_value(ctx, w, &mut me, ctx.age, true));
                }
                v
            }
            Action::Discard { card } => discard + deny_of(card),
            Action::DiscardYellow { card } => deny_of(card) + naval_value(ctx, Some(Fleet::Yellow), None),
            Action::BuildDiscarded { card, free_move } => {
                card_value(ctx, w, t, &mut me, card) + naval_value(ctx, None, free_move)
            }
            // Rule 16: keep what is worth most.
            Action::DiscardBuilt { card } => -card_value(ctx, w, t, &mut me, card),
            Action::Pass => 0.0,
            Action::ChooseSide { .. } => f32::MIN,
            Action::ChooseIsland { island, moves } => island_value(ctx, island, moves),
            Action::StayOutOfNaval { stay_out } => stay_out_value(ctx, stay_out),
        };
        f(i, v);
    }
}

/// Values below the best legal action further than this many points are cut to it in
/// [`index_values`] (a hopeless move is hopeless, however far below).
pub const INDEX_VALUE_FLOOR: f32 = -30.0;

/// The heuristic's opinion of every index of `encoder`'s action space for `view`'s seat, into
/// `out` (one float per index): for a legal index, the best value (rules 1–16, hate-drafting
/// included, the [`HeuristicBot`]'s default weights) among its legal actions (its ways to pay)
/// less the best value of all legal actions, in points, cut at [`INDEX_VALUE_FLOOR`]: 0 for the
/// move the heuristic plays, negative below it. Illegal indices get 0 (a legality mask tells them
/// apart). The residual network of [`crate::neural`] reads it as its second input.
///
/// ```
/// use wonders_bots::heuristic::index_values;
/// use wonders_bots::{Bot, HeuristicBot};
/// use wonders_core::{Game, Setup, tensor::Encoder};
///
/// let game = Game::new(&Setup::new(4, 7)).unwrap();
/// let enc = Encoder::for_game(&game);
/// let legal = game.legal_actions(0);
/// let mut out = vec![1.0; enc.action_count()];
/// index_values(&enc, &game.view(0), &legal, &mut out);
/// assert!(out.iter().all(|v| (-30.0..=0.0).contains(v)));
/// // The heuristic's own move is valued the best; discarding is worth less here.
/// let played = HeuristicBot::new().choose(&game.view(0), &legal);
/// assert_eq!(out[enc.action_index(&played)], 0.0);
/// let discard = legal.iter().find(|a| matches!(a, wonders_core::Action::Discard { .. })).unwrap();
/// assert!(out[enc.action_index(discard)] < 0.0);
/// ```
pub fn index_values(encoder: &wonders_core::tensor::Encoder, view: &View, legal: &[Action], out: &mut [f32]) {
    out.fill(f32::NEG_INFINITY);
    let mut top = f32::NEG_INFINITY;
    evaluate(&Ctx::from_view(view), &Weights::default(), legal, true, |i, v| {
        let k = encoder.action_index(&legal[i]);
        if let Some(slot) = out.get_mut(k) {
            *slot = slot.max(v);
        }
        top = top.max(v);
    });
    for v in out.iter_mut() {
        *v = if v.is_finite() { (*v - top).max(INDEX_VALUE_FLOOR) } else { 0.0 };
    }
}

/// The fewest coins any purchase of `cost` in `market` can pay the neighbours, or `None` when no
/// purchase exists: every unit beyond the most the city can make of its resource is bought at
/// the cheaper side's price at best (the solver's payments are never cheaper; a unit nobody
/// makes cannot be bought at all).
fn purchase_floor(market: &Market, cost: &Resources) -> Option<u16> {
    let mut coins = 0u16;
    for r in cost.saturating_sub(&market.own.fixed).support().iter() {
        let (need, own) = (cost.get(r), market.own.max_of(r));
        if need <= own {
            continue;
        }
        let missing = need - own;
        let (left, right) = (market.left.max_of(r), market.right.max_of(r));
        if missing as u16 > left as u16 + right as u16 {
            return None;
        }
        let ri = r as usize;
        let price = match (left > 0, right > 0) {
            (true, true) => market.prices[0][ri].min(market.prices[1][ri]),
            (true, false) => market.prices[0][ri],
            _ => market.prices[1][ri],
        };
        coins += missing as u16 * price as u16;
    }
    Some(coins)
}

/// The fewest coins paid to the neighbours for `cost` in `market` whatever the budget, when it
/// is plain to see: `Some(None)` when it cannot be bought, `Some(Some(coins))` when every unit
/// the city lacks (none of its either/or producers offering it) can be bought from what a
/// neighbour sells for sure (not on an either/or card) at the cheapest price any neighbour asks
/// for it; `None` otherwise (the solver's work). The payment solver's cheapest answer in those
/// cases (a unit never costs less than the cheapest price, and these units are all there).
fn plain_cheapest(market: &Market, cost: &Resources) -> Option<Option<u16>> {
    let mut coins = 0u16;
    let lacking = cost.saturating_sub(&market.own.fixed);
    for r in lacking.support().iter() {
        if market.own.max_of(r) > market.own.fixed.get(r) {
            return None; // an either/or producer of the city's own could give it
        }
        let missing = lacking.get(r) as u16;
        let (left, right) = (market.left, market.right);
        if missing > left.max_of(r) as u16 + right.max_of(r) as u16 {
            return Some(None);
        }
        let ri = r as usize;
        let (pl, pr) = (market.prices[0][ri], market.prices[1][ri]);
        let price = match (left.max_of(r) > 0, right.max_of(r) > 0) {
            (true, true) => pl.min(pr),
            (true, false) => pl,
            _ => pr,
        };
        let sure = if pl == price { left.fixed.get(r) as u16 } else { 0 }
            + if pr == price { right.fixed.get(r) as u16 } else { 0 };
        if sure < missing {
            return None;
        }
        coins += missing * price as u16;
    }
    Some(Some(coins))
}

/// One action and where it stands: its value and its place in the legal list's order (the
/// hand's position of its card, then builds, Olympia's free build, stages, the discard, then the
/// payment's place in the solver's list).
#[derive(Clone, Copy)]
struct Pick {
    value: f32,
    order: (u8, u8, u8),
    action: Action,
}

impl Pick {
    /// Keeps the better of `self` and the action `value`, `order`, `action`: the higher value,
    /// on a tie the earlier in the legal list (as [`best`] scanning the list keeps the first).
    fn keep(slot: &mut Option<Pick>, value: f32, order: (u8, u8, u8), action: Action) {
        if slot.is_none_or(|b| value > b.value || (value == b.value && order < b.order)) {
            *slot = Some(Pick { value, order, action });
        }
    }
}

/// A card whose paid build is not solved yet: what [`choose_in_game`] needs to solve it later.
#[derive(Clone, Copy)]
struct Unsolved {
    pos: u8,
    card: CardId,
    /// The value of the build at the fewest coins a purchase could cost (no payment's is higher).
    bound: f32,
    value: f32,
    deny: f32,
    coins: u8,
}

/// The action [`best`] picks among every legal action of `seat` in `game`, found without
/// listing them (the search's rollouts): a base-game turn (no Armada, no Edifice, no
/// Free City, a wonder stage without a choice), `None` otherwise (the caller lists the actions
/// and asks [`best`]). `ctx` is [`Ctx::from_game`] of `game` and `seat`.
///
/// The same values, the same choice, less work: the legal list of such a turn is, per distinct
/// card of the hand in order, its builds (a free way, the city's own production, or each
/// payment the solver finds), Olympia's free build, a stage with each payment of the stage, its
/// discard ([`Game::legal_actions_into`]). Each action is valued as [`evaluate`] does, with the
/// same arithmetic; a card's payments are solved only when the build could still be the best
/// (its value with the fewest coins any purchase could cost, [`purchase_floor`], is not below the
/// best found), which gives the same first maximum as valuing every action, since no payment
/// costs less than that; a purchase the floor shows impossible or over the budget has no
/// payment at all.
pub(crate) fn choose_in_game(game: &Game, seat: usize, ctx: &Ctx, w: &Weights, deny: bool) -> Option<Action> {
    let catalog = ctx.catalog;
    if ctx.phase != Phase::Choose
        || ctx.armada.is_some()
        || ctx.edifice.is_some()
        || ctx.free_city.is_some()
        || ctx.city != seat
        || ctx.hand.is_empty()
        || ctx.hand.len() > 8
    {
        return None;
    }
    let t = tables(catalog);
    let mut me = Persp::new(ctx, w, t, seat, true);
    // The bound below needs a payment never to cost less than its coins to the bank.
    if !(me.cv >= 0.0 && w.feed >= -1.0) {
        return None;
    }
    let city = &ctx.cities[seat];
    let stages = catalog.wonder(city.wonder).stages(city.side);
    let next_stage = stages.get(city.stages as usize);
    if next_stage.is_some_and(|s| s.has_choice()) {
        return None;
    }
    let next = if deny { ctx.next_player() } else { None };
    let mut next_p = next.map(|s| Persp::new(ctx, w, t, s, false));
    let n = ctx.n();
    let market = Market {
        own: &city.production,
        left: &ctx.cities[left_of(seat, n)].for_sale,
        right: &ctx.cities[right_of(seat, n)].for_sale,
        prices: city.prices,
    };
    let free_build = city.free_build_per_age && !city.free_build_used;
    let discard = 3.0 * me.cv;
    let mut pick: Option<Pick> = None;
    let mut unsolved = [Unsolved { pos: 0, card: CardId(0), bound: 0.0, value: 0.0, deny: 0.0, coins: 0 }; 8];
    let mut n_unsolved = 0;
    // Each distinct card's hate-drafting value, by its position in the hand (rule 11).
    let mut denies = [(0u8, CardId(0), 0f32); 8];
    let mut n_denies = 0;
    for (pos, &card) in ctx.hand.iter().enumerate() {
        if ctx.hand[..pos].contains(&card) {
            continue; // copies give the same actions once
        }
        let pos = pos as u8;
        let d = match (next_p.as_mut(), next, ctx.memo) {
            // The searched turn's gains are the same in every sample (`Memo::root_gain`).
            (Some(np), Some(s), Some(memo)) => {
                w.deny * memo.root_gain(w, ctx.age, ctx.turn, s, card, || gain_for(ctx, w, t, np, card))
            }
            (Some(np), _, _) => w.deny * gain_for(ctx, w, t, np, card),
            (None, _, _) => 0.0,
        };
        denies[n_denies] = (pos, card, d);
        n_denies += 1;
        Pick::keep(&mut pick, discard + d, (pos, 3, 0), Action::Discard { card });
        if city.has_name(catalog, card) {
            continue;
        }
        let def = catalog.card(card);
        let build = |pay: Payment| Action::Build { card, pay, naval: Naval::NONE };
        let naval = naval_value(ctx, None, None);
        if let Some(by) = game.automatic_free(seat, card) {
            let pay = Payment::free(by);
            let cv = card_value(ctx, w, t, &mut me, card);
            Pick::keep(&mut pick, cv - pay_cost(ctx, w, &me, &pay) + d + naval, (pos, 0, 0), build(pay));
            continue;
        }
        let mut cv = None;
        if city.coins >= def.coins as u16 {
            let budget = city.coins - def.coins as u16;
            if def.cost.le(&city.production.fixed) {
                let v = *cv.get_or_insert_with(|| card_value(ctx, w, t, &mut me, card));
                let bank = Payment::paid(0, 0, def.coins);
                Pick::keep(&mut pick, v - pay_cost(ctx, w, &me, &bank) + d + naval, (pos, 0, 0), build(bank));
            } else if let Some(floor) = purchase_floor(&market, &def.cost).filter(|&f| f <= budget) {
                let v = *cv.get_or_insert_with(|| card_value(ctx, w, t, &mut me, card));
                let least = Payment::paid(floor.min(255) as u8, 0, def.coins);
                let bound = v - pay_cost(ctx, w, &me, &least) + d + naval;
                unsolved[n_unsolved] = Unsolved { pos, card, bound, value: v, deny: d, coins: def.coins };
                n_unsolved += 1;
            }
        }
        if free_build && (def.coins > 0 || !def.cost.is_empty()) {
            let v = *cv.get_or_insert_with(|| card_value(ctx, w, t, &mut me, card));
            let pay = Payment::free(FreeBy::FreeBuild);
            Pick::keep(&mut pick, v - pay_cost(ctx, w, &me, &pay) + d + naval, (pos, 1, 0), build(pay));
        }
    }
    let mut opts = Options::new();
    // The most promising builds first, so that the others are more often left unsolved.
    let unsolved = &mut unsolved[..n_unsolved];
    unsolved.sort_unstable_by(|a, b| b.bound.total_cmp(&a.bound));
    for u in unsolved.iter() {
        if pick.is_some_and(|b| u.bound < b.value) {
            continue;
        }
        solve(&market, &catalog.card(u.card).cost, city.coins - u.coins as u16, &mut opts);
        for (j, &(left, right)) in opts.iter().enumerate() {
            let pay = Payment::paid(left, right, u.coins);
            let v = u.value - pay_cost(ctx, w, &me, &pay) + u.deny + naval_value(ctx, None, None);
            Pick::keep(
                &mut pick,
                v,
                (u.pos, 0, j as u8),
                Action::Build { card: u.card, pay, naval: Naval::NONE },
            );
        }
    }
    // A stage with no payment at all (the floor says so) is not valued.
    if let Some(stage) = next_stage
        && let Some(floor) = purchase_floor(&market, &stage.cost).filter(|&f| f <= city.coins)
        && let Some(s) = stage_value(ctx, w, &mut me, StageExtra::NONE)
    {
        let least = Payment::paid(floor.min(255) as u8, 0, 0);
        let top = s - pay_cost(ctx, w, &me, &least);
        let could = denies[..n_denies].iter().any(|&(_, _, d)| {
            // Not below the best (an incomparable value is solved: never skip wrongly).
            let v = top + d + naval_value(ctx, None, None);
            pick.is_none_or(|b| v.partial_cmp(&b.value) != Some(std::cmp::Ordering::Less))
        });
        if could {
            solve(&market, &stage.cost, city.coins, &mut opts);
            for &(pos, card, d) in &denies[..n_denies] {
                for (j, &(left, right)) in opts.iter().enumerate() {
                    let pay = Payment::paid(left, right, 0);
                    let v = s - pay_cost(ctx, w, &me, &pay) + d + naval_value(ctx, None, None);
                    Pick::keep(
                        &mut pick,
                        v,
                        (pos, 2, j as u8),
                        Action::Wonder { card, pay, extra: StageExtra::NONE },
                    );
                }
            }
        }
    }
    pick.map(|p| p.action)
}

/// Rule 14: the holder's values of the Free City's possible actions.
fn free_city_values(
    ctx: &Ctx,
    w: &Weights,
    me: &mut Persp,
    legal: &[Action],
    deny_of: &mut impl FnMut(CardId) -> f32,
    f: &mut impl FnMut(usize, f32),
) {
    let n = ctx.n();
    let fc = ctx.city;
    let rival = 1 - ctx.seat.min(1);
    let fc_shields = ctx.cities[fc].shields as f32;
    let balance = |s: f32| -> f32 {
        // Shields added to the Free City: my loss against it minus the rival's.
        let mine = ctx.cities[ctx.seat].shields as f32 - fc_shields;
        let theirs = ctx.cities[rival].shields as f32 - fc_shields;
        military_swing(ctx, w, mine, -s) - military_swing(ctx, w, theirs, -s)
    };
    let coins = |pay: &Payment| -> f32 {
        let (to_left, to_right) = (pay.left as f32, pay.right as f32);
        let (mine, theirs) =
            if left_of(fc, n) == ctx.seat { (to_left, to_right) } else { (to_right, to_left) };
        me.cv * (mine - w.feed * theirs)
    };
    let stage_shields = {
        let c = &ctx.cities[fc];
        let stages = ctx.catalog.wonder(c.wonder).stages(c.side);
        stages.get(c.stages as usize).map_or(0, |s| {
            s.effects.iter().map(|e| if let Effect::Shields(k) = e { *k } else { 0 }).sum::<u8>()
        })
    };
    for (i, a) in legal.iter().enumerate() {
        let v = match *a {
            Action::Build { card, pay, .. } => {
                let shields: u8 = ctx
                    .catalog
                    .card(card)
                    .effects
                    .iter()
                    .map(|e| if let Effect::Shields(k) = e { *k } else { 0 })
                    .sum();
                balance(shields as f32) + coins(&pay) + deny_of(card) + 0.1
            }
            Action::Wonder { card, pay, .. } => balance(stage_shields as f32) + coins(&pay) + deny_of(card),
            Action::Discard { card } | Action::DiscardYellow { card } => deny_of(card) - 0.5,
            Action::BuildDiscarded { card, .. } => {
                let shields: u8 = ctx
                    .catalog
                    .card(card)
                    .effects
                    .iter()
                    .map(|e| if let Effect::Shields(k) = e { *k } else { 0 })
                    .sum();
                balance(shields as f32) + 0.1
            }
            Action::Pass => 0.0,
            Action::ChooseSide { .. }
            | Action::DiscardBuilt { .. }
            | Action::ChooseIsland { .. }
            | Action::StayOutOfNaval { .. } => f32::MIN,
        };
        f(i, v);
    }
}

/// Rule 15: the value of holding a pawn of `age`'s project, `joining` (a participation: it takes
/// a pawn off the card) or not (an Ur pawn from the box).
fn pawn_value(ctx: &Ctx, w: &Weights, p: &mut Persp, age: u8, joining: bool) -> f32 {
    let (Some(state), Some(data)) = (ctx.edifice.as_ref(), ctx.catalog.edifice.as_deref()) else {
        return 0.0;
    };
    let a = (age.clamp(1, 3) - 1) as usize;
    let city = &ctx.cities[p.city];
    if city.edifice.pawns[a] > 0
        || state.outcome[a] == Outcome::Failed
        || (age < ctx.age && state.outcome[a] == Outcome::Open)
    {
        return 0.0;
    }
    let project = data.project(state.projects[a]);
    let complete = match state.outcome[a] {
        Outcome::Completed => 1.0,
        _ if joining && state.left[a] <= 1 => 1.0,
        _ => {
            let needed = state.left[a].saturating_sub(joining as u8).max(1) as f32;
            let n = ctx.n();
            let turns = if age == ctx.age { ctx.turns_left_in_age() as f32 } else { 6.0 };
            let rivals = (0..n)
                .filter(|&c| c != p.city && ctx.cities[c].edifice.pawns[a] == 0)
                .filter(|&c| ctx.cities[c].stages < ctx.cities[c].stage_count(ctx.catalog))
                .count() as f32;
            (rivals * (0.12 * turns).min(0.8) / needed).min(0.9)
        }
    };
    let mut reward = 0.0;
    for r in &project.reward {
        reward += reward_value(ctx, w, p, r);
    }
    let avoided = if state.outcome[a] == Outcome::Open {
        penalty_cost(ctx, p, project.penalty, data.debt_points(age))
    } else {
        0.0
    };
    complete * reward + (1.0 - complete) * avoided
}

fn reward_value(ctx: &Ctx, w: &Weights, p: &mut Persp, r: &Reward) -> f32 {
    let city = &ctx.cities[p.city];
    let stages_left = city.stage_count(ctx.catalog).saturating_sub(city.stages) as f32;
    match *r {
        Reward::Coins(n) => n as f32 * p.cv,
        Reward::Shields(n) => p.military(ctx, w, n),
        Reward::VictoryToken(v) => v as f32,
        Reward::ClearDefeats => city.tokens.minus1 as f32,
        Reward::Produce(choices) => {
            effect_value(ctx, w, p, &Effect::ProduceOneOf { choices, sellable: false }, None)
        }
        Reward::PointsPer { what: Counted::WonderStages, points } => {
            points as f32 * (city.stages as f32 + 1.0 + 0.7 * stages_left)
        }
        Reward::PointsPer { what, points } => {
            points as f32
                * (count(ctx.cities, p.city, what, Scope { own: true, neighbours: false }) as f32 + 1.5)
        }
        Reward::PointsPerSet { colours, points } => {
            points as f32 * (wonders_core::edifice::complete_sets(city, colours) as f32 + 1.0)
        }
        Reward::PointsPerKind(points) => {
            points as f32 * (city.colour_counts.iter().filter(|&&k| k > 0).count() as f32 + 1.0)
        }
        Reward::RepeatGuild => 4.0,
    }
}

fn penalty_cost(ctx: &Ctx, p: &Persp, penalty: Penalty, debt: u8) -> f32 {
    let city = &ctx.cities[p.city];
    let debt = debt as f32;
    match penalty {
        Penalty::LoseCoins(n) if city.coins >= n as u16 => (n as f32 * p.cv).min(debt),
        Penalty::Discard(c) if city.colour_counts[c as usize] > 0 => 2.5f32.min(debt),
        Penalty::LoseTokens(n) => {
            let mut values = city.tokens.values();
            values.retain(|&v| v > 0);
            values.sort_unstable();
            if values.len() >= n as usize { values[..n as usize].iter().sum::<i32>() as f32 } else { debt }
        }
        _ => debt,
    }
}

/// Armada: the value, in points, of moving the acting city's ships one step each (a naval
/// construction, then a free move): the blue track's points, the red and other spaces' naval
/// strength toward the naval majority (worth more in later Ages, armada.md §2.5), the yellow
/// track's trade level, coins and tax, and an exploration (about an island's worth, 3 points).
#[inline(always)]
fn naval_value(ctx: &Ctx, construction: Option<Fleet>, free_move: Option<Fleet>) -> f32 {
    // Checked here, inlined: a game without Armada asks this of every action.
    if ctx.armada.is_none() {
        return 0.0;
    }
    armada_naval_value(ctx, construction, free_move)
}

fn armada_naval_value(ctx: &Ctx, construction: Option<Fleet>, free_move: Option<Fleet>) -> f32 {
    let Some((data, mut yard)) = ctx.armada else {
        return 0.0;
    };
    if !ctx.flat_naval {
        return crate::heuristic_armada::fleet_moves_value(ctx, data, yard, [construction, free_move]);
    }
    let mut v = 0.0;
    for f in [construction, free_move].into_iter().flatten() {
        if !yard.can_advance(f) {
            continue;
        }
        let (from, to) = (yard.space(data, f), data.track(f, yard.step(f) + 1).unwrap_or_default());
        yard.steps[f as usize] += 1;
        v += to.points as f32 - from.points as f32;
        v += (to.naval as f32 - from.naval as f32) * (1.0 + ctx.age as f32);
        v += (to.trade as f32 - from.trade as f32) * 1.5;
        v += to.coins as f32 / 3.0 + to.tax as f32 * 0.4 * (ctx.n() as f32 - 1.0) / 3.0;
        if to.explore > 0 {
            v += 3.0;
        }
    }
    v
}

/// Armada: the value of keeping an island (armada.md §6): its printed points, its naval symbols
/// and shields (worth more in later Ages), its free moves, and a flat value for the lasting
/// powers (production, discounts, immunity, end-game points per colour or island).
fn island_value(ctx: &Ctx, island: wonders_core::armada::IslandId, moves: u8) -> f32 {
    use wonders_core::armada::ArmadaEffect;
    let Some((data, yard)) = ctx.armada else {
        return 0.0;
    };
    if !ctx.flat_naval {
        return crate::heuristic_armada::island_worth(ctx, data, island)
            + crate::heuristic_armada::free_moves_value(ctx, data, yard, moves);
    }
    let Some(def) = data.islands().get(island.0 as usize) else {
        return 0.0;
    };
    let mut v = 0.0;
    for e in &def.effects {
        v += match *e {
            ArmadaEffect::Base(Effect::Points(p)) => p as f32,
            ArmadaEffect::Base(Effect::Shields(k)) => k as f32 * (0.5 + ctx.age as f32 * 0.5),
            ArmadaEffect::Naval(k) => k as f32 * (1.0 + ctx.age as f32 * 0.5),
            ArmadaEffect::FreeMove(_) => 1.5,
            _ => 2.0,
        };
    }
    v + moves.count_ones() as f32 * 1.5
}

/// Armada, Forgotten Port: stay out of the naval conflict when the city's fleet is weak (its
/// war ship below step 2: it would likely take the defeat token), take part otherwise.
fn stay_out_value(ctx: &Ctx, stay_out: bool) -> f32 {
    if !ctx.flat_naval
        && let Some((data, _)) = ctx.armada
    {
        return crate::heuristic_armada::stay_out_value(ctx, data, stay_out);
    }
    let weak = ctx.armada.is_some_and(|(_, yard)| yard.step(Fleet::Red) < 2);
    if stay_out == weak { 1.0 } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memo::Memo;
    use wonders_core::{Edition, Setup, WonderDeal};

    #[test]
    fn tables_follow_the_catalog_of_each_game() {
        // A base game (78 cards), an Armada game (102: the Armada cards' ids are beyond the
        // base catalog's) and a base game again, in one process: each reads its own catalog's
        // chain tables (the Python package plays such games side by side).
        let mut bot = HeuristicBot::new();
        for expansions in
            [wonders_core::Expansions::NONE, wonders_core::Expansions::ARMADA, wonders_core::Expansions::NONE]
        {
            let mut game = Game::new(&Setup { expansions, ..Setup::new(4, 9) }).unwrap();
            let cards = game.catalog().cards.len();
            assert!(std::ptr::eq(tables(game.catalog()), tables(game.catalog())), "built once");
            assert_eq!(tables(game.catalog()).children.len(), cards);
            while !game.is_over() {
                for seat in game.to_act() {
                    if game.must_act(seat) {
                        let legal = game.legal_actions(seat);
                        let action = bot.choose(&game.view(seat), &legal);
                        assert!(legal.contains(&action));
                        game.submit(seat, action).unwrap();
                    }
                }
            }
        }
        assert_eq!(tables(Catalog::get(Edition::First)).children.len(), 78);
    }

    #[test]
    fn no_hate_drafting_against_the_teammate() {
        // Age I passes left (seat i to seat i+1). In teams {0,1} {2,3}, seat 0 passes to its
        // teammate (no denial), seat 1 to its opponent 2; in Age II seat 1 passes right to 0.
        let teams = Game::new(&Setup { teams: true, ..Setup::new(4, 2) }).unwrap();
        let base = Game::new(&Setup::new(4, 2)).unwrap();
        assert_eq!(Ctx::from_game(&teams, 0).next_player(), None);
        assert_eq!(Ctx::from_game(&teams, 1).next_player(), Some(2));
        assert_eq!(Ctx::from_game(&base, 0).next_player(), Some(1));
        let mut age2 = Ctx::from_game(&teams, 1);
        age2.age = 2;
        assert_eq!(age2.next_player(), None);
        // Denial then adds nothing: the values with and without it are equal for seat 0.
        let legal = teams.legal_actions(0);
        let (mut with, mut without) = (Vec::new(), Vec::new());
        let ctx = Ctx::from_game(&teams, 0);
        evaluate(&ctx, &Weights::default(), &legal, true, |_, v| with.push(v));
        evaluate(&ctx, &Weights::default(), &legal, false, |_, v| without.push(v));
        assert_eq!(with, without);
    }

    #[test]
    fn choosing_in_the_game_picks_what_best_picks_in_the_legal_list() {
        // Every decision of whole games (3 to 7 players, both editions, teams; random and
        // heuristic moves mixed so that every kind of turn comes up): where the shortcut
        // applies, its action is the one `best` picks among the listed legal actions, with and
        // without hate-drafting, with and without the memo.
        use rand::{RngExt, SeedableRng};
        let w = Weights::default();
        let memo = Memo::new(&w, None);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut compared = 0;
        for (players, seed, edition, teams) in [
            (3, 1, Edition::First, false),
            (3, 21, Edition::First, false),
            (4, 2, Edition::First, false),
            (4, 22, Edition::First, false),
            (4, 23, Edition::Second, false),
            (5, 3, Edition::First, false),
            (7, 4, Edition::First, false),
            (4, 5, Edition::Second, false),
            (6, 6, Edition::Second, false),
            (4, 7, Edition::First, true),
            (3, 8, Edition::Second, false),
        ] {
            let setup = Setup { edition, teams, ..Setup::new(players, seed) };
            let mut game = Game::new(&setup).unwrap();
            let mut legal = Vec::new();
            while !game.is_over() {
                for seat in game.to_act() {
                    if !game.must_act(seat) {
                        continue;
                    }
                    game.legal_actions_into(seat, &mut legal);
                    for (deny, with_memo) in [(true, true), (false, true), (true, false)] {
                        let ctx = Ctx { memo: with_memo.then_some(&memo), ..Ctx::from_game(&game, seat) };
                        if let Some(a) = choose_in_game(&game, seat, &ctx, &w, deny) {
                            let i = best(&ctx, &w, &legal, deny).unwrap();
                            assert_eq!(a, legal[i], "seat {seat}, {players} players, seed {seed}");
                            compared += 1;
                        }
                    }
                    let a = if rng.random_range(0..4) == 0 {
                        legal[rng.random_range(0..legal.len())]
                    } else {
                        legal[best(&Ctx::from_game(&game, seat), &w, &legal, true).unwrap()]
                    };
                    game.submit(seat, a).unwrap();
                }
            }
        }
        assert!(compared > 1000, "{compared}");
    }

    #[test]
    fn purchase_shortcuts_agree_with_the_solver() {
        // Every city and every card of the catalog, at every turn of heuristic games (3 to 7
        // players, both editions): when `plain_cheapest` answers, it is the solver's cheapest
        // payment (or none); `purchase_floor` is never above it, and says "none" only when the
        // solver finds no payment.
        let (mut plain, mut solved) = (0, 0);
        for (players, seed, edition) in [
            (3, 11, Edition::First),
            (4, 12, Edition::Second),
            (5, 13, Edition::First),
            (7, 14, Edition::First),
        ] {
            let mut game = Game::new(&Setup { edition, ..Setup::new(players, seed) }).unwrap();
            let mut bot = HeuristicBot::new();
            let mut legal = Vec::new();
            while !game.is_over() {
                let n = game.cities().len();
                for c in 0..n {
                    let city = game.city(c);
                    let market = Market {
                        own: &city.production,
                        left: &game.city(left_of(c, n)).for_sale,
                        right: &game.city(right_of(c, n)).for_sale,
                        prices: city.prices,
                    };
                    for def in &game.catalog().cards {
                        let mut opts = Options::new();
                        solve(&market, &def.cost, u16::MAX, &mut opts);
                        let cheapest = opts.iter().map(|&(l, r)| l as u16 + r as u16).min();
                        if let Some(answer) = plain_cheapest(&market, &def.cost) {
                            assert_eq!(answer, cheapest, "{} for city {c}", def.name);
                            plain += 1;
                        }
                        match purchase_floor(&market, &def.cost) {
                            Some(floor) => assert!(cheapest.is_none_or(|m| floor <= m), "{}", def.name),
                            None => assert_eq!(cheapest, None, "{}", def.name),
                        }
                        solved += 1;
                    }
                }
                for seat in game.to_act() {
                    if game.must_act(seat) {
                        game.legal_actions_into(seat, &mut legal);
                        let a = bot.choose(&game.view(seat), &legal);
                        game.submit(seat, a).unwrap();
                    }
                }
            }
        }
        assert!(plain > 1000 && solved > plain, "{plain} of {solved}");
    }

    #[test]
    fn science_with_wilds_matches_the_core() {
        for counts in [[0, 0, 0], [1, 2, 0], [3, 3, 2], [2, 0, 1]] {
            for wild in 0..3 {
                assert_eq!(science_best(counts, wild), science_points(counts, wild), "{counts:?} {wild}");
            }
        }
    }

    #[test]
    fn military_value_rises_with_shields_and_is_zero_for_none() {
        let game = Game::new(&Setup::new(4, 3)).unwrap();
        let ctx = Ctx::from_game(&game, 0);
        let w = Weights::default();
        let t = tables(ctx.catalog);
        let mut p = Persp::new(&ctx, &w, t, 0, true);
        assert!(p.military(&ctx, &w, 0).abs() < 1e-6);
        let one = p.military(&ctx, &w, 1);
        let two = p.military(&ctx, &w, 2);
        assert!(one > 0.5 && two > one, "{one} {two}");
    }

    #[test]
    fn chains_are_known() {
        let cat = Catalog::get(Edition::First);
        let t = tables(cat);
        let baths = cat.find_card("Baths").unwrap();
        let aqueduct = cat.find_card("Aqueduct").unwrap();
        assert_eq!(t.children[baths.0 as usize], vec![aqueduct]);
        let wood = Resource::Wood as usize;
        // Age II cards needing wood: Temple, Statue, Caravansery, Training Ground, Stables,
        // Archery Range, School.
        assert_eq!(t.need[1][wood][0], 7.0);
        assert_eq!(t.need[1][wood][1], 2.0);
    }

    #[test]
    fn side_choice_is_a_legal_side() {
        let setup = Setup {
            edition: Edition::Second,
            players: 3,
            seed: 4,
            wonders: WonderDeal::RandomBoardsChooseSides,
            expansions: Default::default(),
            teams: false,
        };
        let game = Game::new(&setup).unwrap();
        let legal = game.legal_actions(1);
        let a = HeuristicBot::new().choose(&game.view(1), &legal);
        assert!(matches!(a, Action::ChooseSide { .. }));
    }

    #[test]
    fn prefers_a_free_blue_card_to_discarding_and_takes_the_best_payment() {
        let cat = Catalog::get(Edition::First);
        let mut game = Game::new(&Setup::new(3, 11)).unwrap();
        let pawnshop = cat.find_card("Pawnshop").unwrap(); // 3 VP, free
        let altar = cat.find_card("Altar").unwrap(); // 2 VP, free
        game.set_hand(0, &[altar, pawnshop]);
        let legal = game.legal_actions(0);
        let a = HeuristicBot::new().choose(&game.view(0), &legal);
        assert_eq!(
            a,
            Action::Build { card: pawnshop, pay: Payment::default(), naval: wonders_core::Naval::NONE }
        );
    }
}
