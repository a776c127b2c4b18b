//! Armada in the turn flow: the hooks the conductor (`game/`, one file per phase) calls at named
//! points of a game played with Armada (armada.md §2.2–§2.4, §2.7; rulebook 000 遊戲準備,
//! 海軍建設, 回合結算).
//!
//! - **setup** ([`check_setup`], [`setup`], [`deal_age_cards`]): the combinations refused, the
//!   boards and island decks, one Armada card per player in each Age deck;
//! - **legal actions** ([`extend_actions`]): every build of a card of a fleet's colour and every
//!   wonder stage also listed with its naval construction, paid with it as one purchase; each
//!   free move of a card listed with each ship it may move; each discard also as a free yellow
//!   move;
//! - **resolution steps 2–3** ([`after_placement`]): the ships move, the spaces reached pay their
//!   coins and note their taxes, free moves, Wondrous Port's coins, the green cards' top island,
//!   piracies noted;
//! - **resolution step 6** ([`coin_losses`]): the turn's highest tax and its piracies, once any
//!   build from the discard pile of the turn is done.

use super::coins::{CoinSeat, TurnLosses};
use super::log::{ArmadaEvent, Events};
use super::trade::{TradeMarket, TradeOptions, TradePay};
use super::{ArmadaEffect, ArmadaState, Direction, Fleet, FleetChoice, Losses, TOP_STEP};
use crate::action::{Action, FreeBy, Naval, Payment};
use crate::card::{CardId, CardSet};
use crate::catalog::Catalog;
use crate::conflict::LandConflict;
use crate::errors::{ActionError, SetupError};
use crate::limits::MAX_PLAYERS;
use crate::log::{LogEntry, Played};
use crate::payment::{self, Market, Options};
use crate::resources::Resources;
use crate::seating::left_of;
use crate::state::{Game, Phase, Setup};
use arrayvec::ArrayVec;
use rand_chacha::ChaCha8Rng;

/// The combinations Armada refuses (armada.md §2.2, 000 8人遊戲規則): the 2-player Free City (no
/// rulebook covers it), data without Armada.
pub(crate) fn check_setup(catalog: &Catalog, setup: &Setup) -> Result<(), SetupError> {
    if setup.players == 2 {
        return Err(SetupError::Expansion(
            "Armada is not played with the 2-player Free City variant (no rulebook covers the combination); \
             play with 3 to 8 players"
                .into(),
        ));
    }
    if catalog.armada.is_none() {
        return Err(SetupError::Expansion("these data have no Armada cards, boards or islands".into()));
    }
    Ok(())
}

/// The Armada state of a new game of `cities` players (boards, island decks; §2.2).
pub(crate) fn setup(catalog: &'static Catalog, cities: usize, seed: u64) -> ArmadaState {
    let data = catalog.armada.as_deref().unwrap_or_else(|| super::ArmadaData::builtin());
    ArmadaState::new(data, catalog.armada_first(), cities, seed)
}

/// Adds to the Age `age` deck `deck` its Armada cards: [`super::dealt_per_age`] drawn at random
/// from the Age's pool (with 3 players the 5 two-neighbour cards are out first; §2.2). The
/// pool ([`Catalog::armada_age_pool`], in id order) is shuffled at the deck's end and cut
/// there, without a list of its own.
pub(crate) fn deal_age_cards(
    catalog: &Catalog,
    age: u8,
    players: u8,
    rng: &mut ChaCha8Rng,
    deck: &mut Vec<CardId>,
) {
    let Some(data) = catalog.armada.as_deref() else {
        return;
    };
    let start = deck.len();
    deck.extend(data.age_pool_iter(age, players).filter_map(|a| catalog.card_of_armada(a)));
    crate::shuffle::shuffle(&mut deck[start..], rng);
    deck.truncate(start + super::dealt_per_age(players) as usize);
}

/// The Armada effects of a card: empty for a base card.
fn card_effects(catalog: &Catalog, card: CardId) -> &[ArmadaEffect] {
    match (catalog.armada.as_deref(), catalog.armada_card(card)) {
        (Some(data), Some(a)) => &data.card(a).effects,
        _ => &[],
    }
}

/// The free move a card gives, if any (blue Armada cards: any ship; §2.3).
fn card_free_move(catalog: &Catalog, card: CardId) -> Option<FleetChoice> {
    const FREE_MOVE: usize = ArmadaEffect::FreeMove(FleetChoice::Any).kind();
    let (Some(data), Some(a)) = (catalog.armada.as_deref(), catalog.armada_card(card)) else {
        return None;
    };
    if a.0 >= 32 || data.with_kind(FREE_MOVE).0 & (1 << a.0) == 0 {
        return None;
    }
    card_effects(catalog, card).iter().find_map(|e| match *e {
        ArmadaEffect::FreeMove(c) => Some(c),
        _ => None,
    })
}

/// Adds to `out` (the base actions of `city` from its hand) the Armada variants (armada.md §2.3,
/// §2.4): each build of a red, yellow, blue or green card with the naval construction of that
/// fleet, its card and naval costs paid as one purchase (a card free through a chain or Olympia
/// still pays the naval cost); each wonder stage with the naval construction of the board's
/// wonder fleet (Lost Isle: any fleet, free), never together with an Edifice participation
/// (§2.10); each discard also as a free yellow move. A card with a free move is listed once per
/// ship it may move (none when every ship is on the top step).
pub(crate) fn extend_actions(game: &Game, city: usize, market: &Market, out: &mut Vec<Action>) {
    let Some(state) = game.armada.as_deref() else {
        return;
    };
    let catalog = game.catalog;
    let c = &game.cities[city];
    let yard = state.cities[city].shipyard;
    let data = state.data;
    // Ancient Port, Lost Isle (§6) and the trading zones (§5): each read from only the city's
    // cards and islands that have such an effect (none, most of the time).
    let a = &state.cities[city];
    let (discount, lost) = (a.naval_discount(data), a.wonder_naval_free(data));
    let west = a.second_neighbour_purchases(data, Direction::Left);
    let east = a.second_neighbour_purchases(data, Direction::Right);
    // East and West Trading Zones (super::trade): the city's paid builds and stages are listed
    // again with the 2nd players among the sellers; without one, nothing changes.
    let trade =
        if west | east != 0 { super::trade::market_with(game, city, *market, west, east) } else { None };
    if let Some(tm) = &trade {
        super::trade::rewrite_hand(game, city, tm, out);
    }
    let base = out.len();
    // The builds and stages already given their naval variants (one set per card and way of
    // being free, per card and stage choice): the base list has one entry per Pareto payment.
    let mut seen = Seen::default();
    // The stage payments with a naval construction, as (fleet, coins to the bank, payments),
    // solved once per list (at its first stage entry) for each fleet that may move with it.
    let mut stage_naval: ArrayVec<(Fleet, u8, TradeOptions), 4> = ArrayVec::new();
    let mut stage_ready = false;
    // With a trading zone, the card payments with a naval construction, solved once per
    // purchase and budget (cards of one fleet often make the same purchase: free ones, or the
    // same cost).
    let mut solved = NavalSolves::default();
    let mut opts = Options::new();
    // Whether one of the base list's builds is of a card that gives a free move: the pass below
    // that lists their ships runs only then. The test is a shift of the data's bitset of such
    // cards (as `card_free_move` reads it), with no branch.
    let free_moves = FreeMoves::of(catalog);
    let mut any_mover = false;
    // The last stage met: its other payments follow it in the base list (one entry per Pareto
    // payment, repeated with each card of the hand), and need nothing more.
    let mut last_stage: Option<(CardId, crate::StageExtra)> = None;
    let yellow_moves = yard.can_advance(Fleet::Yellow);
    for i in 0..base {
        match out[i] {
            Action::Build { card, pay, .. } => {
                any_mover |= free_moves.gives(card);
                let def = catalog.hot(card);
                let Some(fleet) = Fleet::from_colour(def.colour) else {
                    continue;
                };
                if seen.build(card, pay.free) || !yard.can_advance(fleet) {
                    continue;
                }
                let Some(cost) = data.next_step_cost(yard.board, fleet, yard.step(fleet)) else {
                    continue;
                };
                let (need, bank) = match pay.free {
                    Some(_) => (Resources::default(), cost.coins as u16),
                    None => (def.cost, def.coins as u16 + cost.coins as u16),
                };
                if c.coins < bank || bank > u8::MAX as u16 {
                    continue;
                }
                let naval = Naval::new(Some(fleet), None);
                let budget = c.coins - bank;
                // Teams: nothing bought from the teammate for a chain build (crate::teams).
                let n = game.cities_n as usize;
                let allowed = |p: &Payment| {
                    !(game.teams && pay.free == Some(FreeBy::Chain))
                        || crate::teams::chain_purchase_allowed(city, n, p)
                };
                match &trade {
                    Some(tm) => {
                        let options = solved.get(&need, &cost.resources, discount, budget, |o| {
                            super::trade::solve_with_naval(tm, &need, &cost.resources, discount, budget, o)
                        });
                        for t in options {
                            let p = t.payment(bank as u8, pay.free);
                            if allowed(&p) {
                                out.push(Action::Build { card, pay: p, naval });
                            }
                        }
                    }
                    None => {
                        // Without a trading zone the solve is cheap and the same question rarely
                        // comes twice in one list: asked directly, its answer pushed as it comes.
                        payment::solve_with_naval(
                            market,
                            &need,
                            &cost.resources,
                            discount,
                            budget,
                            &mut opts,
                        );
                        for &(left, right) in &opts {
                            let p =
                                TradePay { left, right, ..TradePay::default() }.payment(bank as u8, pay.free);
                            if allowed(&p) {
                                out.push(Action::Build { card, pay: p, naval });
                            }
                        }
                    }
                }
            }
            Action::Wonder { card, extra, .. } if !extra.take_part() && extra.naval().is_none() => {
                if last_stage == Some((card, extra)) || seen.stage(out, i, card, extra) {
                    continue;
                }
                last_stage = Some((card, extra));
                // The stage's naval variants, worked out at the first stage entry of the list:
                // what the next stage and a fleet's next step cost does not depend on the card
                // tucked under it, nor on the stage's choice (its `extra`).
                if !stage_ready {
                    stage_ready = true;
                    // Lost Isle: any fleet, free (§6); otherwise the board's wonder fleet (§2.3).
                    let wonder_fleet = data.board(yard.board).wonder;
                    for fleet in Fleet::ALL {
                        if !(lost || fleet == wonder_fleet) || !yard.can_advance(fleet) {
                            continue;
                        }
                        let bank = if lost {
                            0
                        } else {
                            data.next_step_cost(yard.board, fleet, yard.step(fleet)).map_or(0, |k| k.coins)
                        };
                        stage_naval.push((fleet, bank, TradeOptions::new()));
                        let last = stage_naval.len() - 1;
                        let options = &mut stage_naval[last].2;
                        stage_naval_options(
                            game,
                            city,
                            market,
                            trade.as_ref(),
                            fleet,
                            lost,
                            discount,
                            options,
                        );
                    }
                }
                for (fleet, bank, options) in &stage_naval {
                    for t in options {
                        out.push(Action::Wonder {
                            card,
                            pay: t.payment(*bank, None),
                            extra: extra.with_naval(Some(*fleet)),
                        });
                    }
                }
            }
            Action::Discard { card } if yellow_moves => {
                out.push(Action::DiscardYellow { card });
            }
            _ => {}
        }
    }
    // Free moves of the cards built (blue Armada cards): each build lists the ship it moves.
    if !any_mover {
        return;
    }
    let mut i = 0;
    while i < out.len() {
        if let Action::Build { card, pay, naval } = out[i]
            && free_moves.gives(card)
            && naval.free_move().is_none()
            && let Some(choice) = card_free_move(catalog, card)
        {
            let mut steps = yard.steps;
            if let Some(f) = naval.construction() {
                steps[f as usize] += 1;
            }
            let mut first = true;
            for f in Fleet::ALL {
                let allowed = match choice {
                    FleetChoice::Any => true,
                    FleetChoice::Only(g) => g == f,
                };
                if !allowed || steps[f as usize] >= TOP_STEP {
                    continue;
                }
                let a = Action::Build { card, pay, naval: Naval::new(naval.construction(), Some(f)) };
                if first {
                    out[i] = a;
                    first = false;
                } else {
                    out.insert(i + 1, a);
                    i += 1;
                }
            }
        }
        i += 1;
    }
}

/// The catalog's cards that give a free move, as [`card_free_move`] finds them: the data's
/// bitset of Armada cards with a [`ArmadaEffect::FreeMove`] (ids under 32), offset by the
/// catalog's first Armada card.
#[derive(Clone, Copy)]
struct FreeMoves {
    bits: u64,
    first: u32,
}

impl FreeMoves {
    fn of(catalog: &Catalog) -> FreeMoves {
        const FREE_MOVE: usize = ArmadaEffect::FreeMove(FleetChoice::Any).kind();
        let bits = catalog.armada.as_deref().map_or(0, |d| d.with_kind(FREE_MOVE).0);
        FreeMoves { bits: bits as u64, first: catalog.armada_first() as u32 }
    }

    /// Whether `card` gives a free move (`card_free_move(catalog, card).is_some()`).
    #[inline]
    fn gives(self, card: CardId) -> bool {
        // A card before the first Armada card wraps to a shift of 64 or more: none.
        let a = (card.0 as u32).wrapping_sub(self.first);
        self.bits.checked_shr(a).unwrap_or(0) & 1 != 0
    }
}

/// The base actions [`extend_actions`] already gave their naval variants: whether an earlier
/// entry of the base list builds the same card the same way (or the same stage with the same
/// choices), answered from a card set per way of being free (builds) or a short list of what was
/// met (stages) instead of scanning the list again.
#[derive(Default)]
struct Seen {
    /// The cards met, one set per way of being paid: index 0 paid, then one per [`FreeBy`].
    builds: [CardSet; 6],
    /// The cards met with a plain stage ([`crate::StageExtra::NONE`]: the base game's boards
    /// without Edifice, nearly every list).
    plain_stages: CardSet,
    /// The other stages met, with their choices.
    stages: ArrayVec<(CardId, crate::StageExtra), 32>,
}

impl Seen {
    /// Whether an earlier base entry builds `card` with the same `free`; notes it.
    fn build(&mut self, card: CardId, free: Option<FreeBy>) -> bool {
        let set = &mut self.builds[match free {
            None => 0,
            Some(FreeBy::Chain) => 1,
            Some(FreeBy::FreeBuild) => 2,
            Some(FreeBy::FirstOfColour) => 3,
            Some(FreeBy::FirstOfAge) => 4,
            Some(FreeBy::LastOfAge) => 5,
        }];
        if set.contains(card) {
            return true;
        }
        set.insert(card);
        false
    }

    /// Whether an earlier base entry (before `i`) builds the stage with `card` and `extra`;
    /// notes it.
    fn stage(&mut self, out: &[Action], i: usize, card: CardId, extra: crate::StageExtra) -> bool {
        if extra == crate::StageExtra::NONE {
            if self.plain_stages.contains(card) {
                return true;
            }
            self.plain_stages.insert(card);
            return false;
        }
        if self.stages.contains(&(card, extra)) {
            return true;
        }
        if self.stages.try_push((card, extra)).is_err() {
            return out[..i]
                .iter()
                .any(|a| matches!(*a, Action::Wonder { card: k, extra: e, .. } if k == card && e == extra));
        }
        false
    }
}

/// The payments of the card purchases with a naval construction solved in one legal-action
/// list, keyed by what the solver is asked (card cost, naval resources, Ancient Port, budget):
/// the same question has the same answer, in the same order.
#[derive(Default)]
struct NavalSolves {
    entries: ArrayVec<(Resources, Resources, bool, u16, TradeOptions), 16>,
    spare: TradeOptions,
}

impl NavalSolves {
    /// The answer for this question, from the cache or computed by `solve` (which writes the
    /// options into the list it is given, cleared first or not).
    fn get(
        &mut self,
        need: &Resources,
        naval: &Resources,
        discount: bool,
        budget: u16,
        solve: impl FnOnce(&mut TradeOptions),
    ) -> &TradeOptions {
        let key = |e: &(Resources, Resources, bool, u16, TradeOptions)| {
            e.0 == *need && e.1 == *naval && e.2 == discount && e.3 == budget
        };
        if let Some(k) = self.entries.iter().position(key) {
            return &self.entries[k].4;
        }
        if self.entries.is_full() {
            solve(&mut self.spare);
            return &self.spare;
        }
        self.entries.push((*need, *naval, discount, budget, TradeOptions::new()));
        let last = self.entries.len() - 1;
        let o = &mut self.entries[last].4;
        solve(o);
        o
    }
}

/// The Pareto-minimal payments of `city`'s next stage plus the next step of `fleet`, as one
/// purchase (free naval step with Lost Isle), with the trading zones of `trade` if any.
#[allow(clippy::too_many_arguments)]
fn stage_naval_options(
    game: &Game,
    city: usize,
    market: &Market,
    trade: Option<&TradeMarket>,
    fleet: Fleet,
    lost: bool,
    discount: bool,
    out: &mut TradeOptions,
) {
    out.clear();
    let Some(state) = game.armada.as_deref() else {
        return;
    };
    let c = &game.cities[city];
    let yard = state.cities[city].shipyard;
    let Some(stage) = game.catalog.wonder(c.wonder).stages(c.side).get(c.stages as usize) else {
        return;
    };
    let cost = if lost {
        super::NavalCost::default()
    } else {
        match state.data.next_step_cost(yard.board, fleet, yard.step(fleet)) {
            Some(k) => k,
            None => return,
        }
    };
    if c.coins < cost.coins as u16 {
        return;
    }
    let budget = c.coins - cost.coins as u16;
    if let Some(tm) = trade {
        super::trade::solve_with_naval(tm, &stage.cost, &cost.resources, discount, budget, out);
        return;
    }
    let mut opts = Options::new();
    payment::solve_with_naval(market, &stage.cost, &cost.resources, discount, budget, &mut opts);
    out.extend(opts.iter().map(|&(left, right)| TradePay { left, right, ..TradePay::default() }));
}

/// Checks an action of a game with Armada in a hand step: it must be one of the legal actions;
/// otherwise the base check names what is wrong with the card or payment, or the error says the
/// naval part is not possible.
pub(crate) fn check(game: &Game, seat: usize, city: usize, action: &Action) -> Result<(), ActionError> {
    let mut legal = Vec::new();
    game.legal_actions_into(seat, &mut legal);
    // With 4 players the two 2nd players are one: its coins may be written either way.
    if legal.contains(&super::trade::canonical(game, city, *action)) {
        return Ok(());
    }
    if let Action::Build { pay, naval, .. } = *action
        && game.teams
        && pay.free == Some(FreeBy::Chain)
        && naval.construction().is_some()
        && !crate::teams::chain_purchase_allowed(city, game.cities_n as usize, &pay)
    {
        return Err(ActionError::WrongKind(
            "team play (000 團隊遊戲規則): teammates may not buy resources from each other for a building \
             built through a chain; buy the naval construction's resources from the other neighbour or \
             produce them"
                .into(),
        ));
    }
    let second = action.payment().is_some_and(|p| !p.second.is_none());
    let plain = match *action {
        Action::Build { card, pay, .. } => Action::Build { card, pay, naval: Naval::NONE },
        Action::Wonder { card, pay, extra } => Action::Wonder { card, pay, extra: extra.with_naval(None) },
        Action::DiscardYellow { card } => Action::Discard { card },
        other => other,
    };
    match game.check_for_city(seat, city, &plain) {
        // A payment to the 2nd players is judged against the legal list below, with its reason.
        Err(ActionError::BadPayment { .. }) if second => {}
        r => r?,
    }
    let card = action.card();
    let ways: Vec<String> = legal
        .iter()
        .filter(|a| a.card() == card && std::mem::discriminant(*a) == std::mem::discriminant(action))
        .map(describe)
        .collect();
    let ways = if ways.is_empty() { "none".to_string() } else { ways.join("; ") };
    if second {
        return Err(ActionError::WrongKind(format!(
            "that payment to the 2nd players is not possible: they sell only what they may sell to a \
             neighbour (their board's resource, brown and grey cards; never yellow cards, wonder stages or \
             islands), and a way to pay must be Pareto-minimal; legal ways: {ways}"
        )));
    }
    Err(ActionError::WrongKind(format!(
        "that naval construction, free move or payment is not possible (a naval construction moves the \
         card colour's fleet, or with a stage the board's wonder fleet, one step below the top, and is paid \
         with the card as one purchase); legal ways: {ways}"
    )))
}

fn describe(a: &Action) -> String {
    let (pay, naval, free_move) = match *a {
        Action::Build { pay, naval, .. } => (pay, naval.construction(), naval.free_move()),
        Action::Wonder { pay, extra, .. } => (pay, extra.naval(), None),
        Action::DiscardYellow { .. } => return "discard for a yellow move".into(),
        _ => return format!("{a:?}"),
    };
    let mut s = format!("left {} right {} bank {}", pay.left, pay.right, pay.bank);
    if !pay.second.is_none() {
        s += &format!(" 2nd left {} 2nd right {}", pay.second.left(), pay.second.right());
    }
    if let Some(f) = naval {
        s += &format!(", naval construction {f}");
    }
    if let Some(f) = free_move {
        s += &format!(", free move {f}");
    }
    s
}

/// Moves `city`'s ship of `fleet` one step (a ship on the top step stays; §2.3) and resolves the
/// space reached (§2.7, §10.2): its coins into `income`, its tax noted for step 6. Every move is
/// a naval construction, paid or free (a card's or an island's free move, the discard for a
/// yellow move): Wondrous Port pays its 1 coin for each (000 奇妙港「不論該建設是否免費」; the
/// blue cards' note counts a card's free move as a second construction of the turn). Returns
/// the step reached, or `None` when the ship could not move (no construction, no coin).
fn advance(
    state: &mut ArmadaState,
    city: usize,
    fleet: Fleet,
    income: &mut [u16; MAX_PLAYERS],
) -> Option<u8> {
    let yard = &mut state.cities[city].shipyard;
    if !yard.can_advance(fleet) {
        return None;
    }
    yard.steps[fleet as usize] += 1;
    let step = yard.steps[fleet as usize];
    let space = state.data.track(fleet, step).unwrap_or_default();
    income[city] += space.coins as u16;
    if state.cities[city].coin_per_naval(state.data) {
        income[city] += 1;
    }
    let tax = &mut state.pending.tax[city];
    *tax = (*tax).max(space.tax);
    if space.explore > 0 {
        let _ = state.explore_due.try_push((city as u8, space.explore));
    }
    Some(step)
}

/// Resolution steps 2 and 3 of 000 回合結算 for the turn's actions (armada.md §2.4): the naval
/// constructions (and discards for a yellow move) move their ships; the spaces reached pay their
/// coins and note their taxes; Wondrous Port pays 1 coin per move ([`advance`]); the cards'
/// free moves; the green cards put the top island of their level into play; pirate cards note
/// their piracy. Coins go into `income` (received at the end of the turn like all income).
/// Adds the events for the log ([`super::log`]) to `events` (filled in place: the list is
/// large, and returning it would copy it twice a turn), recorded after the turn's actions;
/// `turn` is the turn as logged.
pub(crate) fn after_placement(
    game: &mut Game,
    acts: &[(usize, usize, Action)],
    turn: u8,
    income: &mut [u16; MAX_PLAYERS],
    events: &mut Events,
) {
    let Some(state) = game.armada.as_deref_mut() else {
        return;
    };
    state.turn = turn;
    // 2. Move the ships of the naval constructions.
    for &(city, _, action) in acts {
        let fleet = match action {
            Action::Build { naval, .. } => naval.construction(),
            Action::Wonder { extra, .. } => extra.naval(),
            Action::DiscardYellow { .. } => Some(Fleet::Yellow),
            _ => None,
        };
        if let Some(f) = fleet
            && let Some(to) = advance(state, city, f, income)
        {
            let e = if matches!(action, Action::DiscardYellow { .. }) {
                ArmadaEvent::DiscardMove { to }
            } else {
                ArmadaEvent::Construction { fleet: f, to }
            };
            let _ = events.try_push((city as u8, e));
        }
    }
    // 3. Effects: free moves, the green cards' islands, piracies.
    for &(city, _, action) in acts {
        let Action::Build { card, naval, .. } = action else {
            continue;
        };
        if let Some(f) = naval.free_move()
            && let Some(to) = advance(state, city, f, income)
        {
            let _ = events.try_push((city as u8, ArmadaEvent::FreeMove { fleet: f, to }));
        }
        card_built(state, &mut game.cities[city], city, card, game.cities_n as usize, events);
    }
}

/// Appends one Armada event to the step's log and to the game's history (which a game with
/// Armada keeps in its Armada state, both); `paid` is what the city paid the bank (a step-6 loss).
fn push(state: &mut ArmadaState, age: u8, (city, event): (u8, ArmadaEvent), paid: u8) {
    let entry = LogEntry {
        age,
        turn: state.turn,
        seat: city,
        played: Played::Armada(event),
        pay: Payment { bank: paid, ..Payment::default() },
        income: 0,
    };
    let _ = state.log.try_push(entry);
    let _ = state.history.try_push(entry);
}

/// Records `events` in the log, at the turn under way ([`ArmadaState::turn`]).
pub(crate) fn record(game: &mut Game, events: &Events) {
    let age = game.age;
    if let Some(state) = game.armada.as_deref_mut() {
        for &e in events {
            push(state, age, e, 0);
        }
    }
}

/// The Armada effects of `card` as `city` builds it, from hand or from the discard pile (000
/// 回合結算 3 and 5): the card is noted in the city's Armada cards (its lasting effects are read
/// from there), a pirate card notes its piracy for step 6, a green card puts the top island of
/// its level into play (no choice of island; an empty deck gives nothing, §10.8), an incursion
/// card hands its token to the 2nd player on its side (§2.8). An island with free moves of 2 or
/// 3 different ships (White-Surf Port, Tempest Archipelago) lets its owner choose the ships (000
/// 符號說明「任意2艘或者3艘不同的船隻」): when there is more than one way, the choice waits in
/// [`super::ArmadaState::moves_due`] ([`Phase::IslandMoves`]); otherwise the moves are made.
pub(crate) fn card_built(
    state: &mut ArmadaState,
    c: &mut crate::City,
    city: usize,
    card: CardId,
    n: usize,
    events: &mut Events,
) {
    let Some(a) = state.card_of(card) else {
        return;
    };
    state.cities[city].add_card(a);
    let data = state.data;
    for e in &data.card(a).effects {
        match *e {
            ArmadaEffect::Piracy => state.pending.piracies[city] += 1,
            ArmadaEffect::TopIsland(level) => {
                if let Some(island) =
                    state.decks.get_mut(usize::from(level).wrapping_sub(1)).and_then(|d| d.pop())
                {
                    let choices = move_choices(state, city, island);
                    let _ = events.try_push((city as u8, ArmadaEvent::TopIsland(island)));
                    if choices.len() > 1 {
                        island_arrived(state, c, city, island, 0, events);
                        let _ = state.moves_due.try_push((city as u8, island));
                    } else {
                        island_arrived(state, c, city, island, choices.first().copied().unwrap_or(0), events);
                    }
                }
            }
            ArmadaEffect::Incursion(dir) => {
                let target = dir.target(city, n) as u8;
                let _ = state.incursions.try_push((city as u8, target));
                let _ = events.try_push((city as u8, ArmadaEvent::IncursionToken { target }));
            }
            _ => {}
        }
    }
}

/// Step 6 of 000 回合結算 (armada.md §2.7, §10.9): only the turn's highest tax applies, its
/// leviers pay nothing of it and every other player loses `tax − own trade level`; each piracy
/// costs every *other* player 1 coin per trade level; Misty Isle's owner loses nothing; a player
/// pays what it has (down to 0; provisional §10.9). Returns each city's loss. The log gets
/// each levier's [`ArmadaEvent::Tax`], each pirate's [`ArmadaEvent::Piracy`], then each city's
/// [`ArmadaEvent::Lost`] (what it paid in the entry's `pay.bank`) or [`ArmadaEvent::Immune`].
pub(crate) fn coin_losses(game: &mut Game) -> [u16; MAX_PLAYERS] {
    let n = game.cities_n as usize;
    let age = game.age;
    let mut lost = [0u16; MAX_PLAYERS];
    let Some(state) = game.armada.as_deref_mut() else {
        return lost;
    };
    let Losses { tax, piracies } = std::mem::take(&mut state.pending);
    // The turn's highest tax and its piracies, read once; then, in one pass over the cities,
    // what each owes and what it pays (`coins::coin_losses`: nothing with Misty Isle, at most
    // its coins), taken from its treasury.
    let turn = TurnLosses::of_turn(&tax[..n], &piracies[..n]);
    let mut owed = [(0u32, 0u32); MAX_PLAYERS];
    let mut immune = 0u8;
    for city in 0..n {
        let seat = CoinSeat {
            tax: tax[city],
            piracy: piracies[city],
            trade: state.trade_level(city),
            immune: state.cities[city].immune_to_coin_loss(state.data),
            coins: game.cities[city].coins,
        };
        let (t, p) = turn.owed(&seat);
        owed[city] = (t, p);
        if seat.immune {
            immune |= 1 << city;
        } else {
            lost[city] = (t + p).min(u32::from(seat.coins)) as u16;
            game.cities[city].coins -= lost[city];
        }
    }
    let highest = turn.tax;
    for (city, &t) in tax[..n].iter().enumerate() {
        if t > 0 {
            let e = ArmadaEvent::Tax { amount: t, applies: t == highest };
            push(state, age, (city as u8, e), 0);
        }
    }
    for (city, &count) in piracies[..n].iter().enumerate() {
        if count > 0 {
            push(state, age, (city as u8, ArmadaEvent::Piracy { count }), 0);
        }
    }
    for (city, &(tax, piracy)) in owed[..n].iter().enumerate() {
        let sat = |x: u32| x.min(u32::from(u8::MAX)) as u8;
        if tax + piracy == 0 {
            continue;
        }
        let (e, paid) = if immune & (1 << city) != 0 {
            (ArmadaEvent::Immune { owed: sat(tax + piracy) }, 0)
        } else {
            (ArmadaEvent::Lost { tax: sat(tax), piracy: sat(piracy) }, lost[city].min(255) as u8)
        };
        push(state, age, (city as u8, e), paid);
    }
    lost
}

/// Whether the turn has coin losses waiting for its step 6.
pub(crate) fn losses_due(game: &Game) -> bool {
    game.armada.as_deref().is_some_and(|s| !s.pending.is_empty())
}

/// The free moves `city` may choose from when it builds `card` from the discard pile: one per
/// ship the card's free move may advance (a blue Armada card: any ship below the top step), or
/// only `None` (no free move: another card, or every ship on its top step; or no Armada).
pub(crate) fn discard_build_moves(game: &Game, city: usize, card: CardId) -> ArrayVec<Option<Fleet>, 4> {
    let mut out = ArrayVec::new();
    if let Some(state) = game.armada.as_deref()
        && let Some(choice) = card_free_move(game.catalog, card)
    {
        for f in Fleet::ALL {
            let allowed = match choice {
                FleetChoice::Any => true,
                FleetChoice::Only(only) => only == f,
            };
            if allowed && state.can_advance(city, f) {
                out.push(Some(f));
            }
        }
    }
    if out.is_empty() {
        out.push(None);
    }
    out
}

/// Step 5 of 000 回合結算: a card built from the discard pile has its Armada effects. It is paid
/// nothing, so no naval construction is paid with it (§2.3); but a blue card's free move is the
/// card's own effect, made when the card is built wherever it comes from (000 船廠…: "the player
/// may freely choose one of its ships and move it one step"; the cards' note counts that free
/// move as a naval construction, so Wondrous Port pays for it too): `free_move` is the ship it
/// advances (checked legal). The coins of the space reached go straight to the treasury.
pub(crate) fn built_from_discard(game: &mut Game, city: usize, card: CardId, free_move: Option<Fleet>) {
    let n = game.cities_n as usize;
    let mut events = Events::new();
    if let Some(state) = game.armada.as_deref_mut() {
        let mut income = [0u16; MAX_PLAYERS];
        if let Some(f) = free_move
            && let Some(to) = advance(state, city, f, &mut income)
        {
            let _ = events.try_push((city as u8, ArmadaEvent::FreeMove { fleet: f, to }));
        }
        game.cities[city].coins += income[city];
        card_built(state, &mut game.cities[city], city, card, n, &mut events);
    }
    record(game, &events);
}

/// The incursion tokens handed out this Age, as (holder, target), given back at its end (§2.8);
/// empty without Armada.
pub(crate) fn take_incursions(game: &mut Game) -> ArrayVec<(u8, u8), MAX_PLAYERS> {
    match game.armada.as_deref_mut() {
        Some(state) => std::mem::take(&mut state.incursions),
        None => ArrayVec::new(),
    }
}

/// The effects of an island coming into `city` (armada.md §2.6, §6): it goes face up into the
/// city with its base-game effects ([`super::ArmadaCity::gain_island`]), everyone sees it, a
/// free move of one given ship (Topaz, Amber) is made, the ships of `moves` (one bit per fleet:
/// White-Surf Port's 2, Tempest Archipelago's 3) move, Pirate Port's piracy is noted. Coins of
/// the spaces reached go straight to the treasury (this is after step 3: they are spendable
/// from the next turn, like all income).
fn island_arrived(
    state: &mut ArmadaState,
    c: &mut crate::City,
    city: usize,
    island: super::IslandId,
    moves: u8,
    events: &mut Events,
) {
    let data = state.data;
    if state.cities[city].islands.contains(island) {
        return;
    }
    state.cities[city].gain_island(data, island, c);
    for s in state.seen.iter_mut() {
        s.insert(island);
    }
    // Topaz and Amber Isle move one given ship (one bit of `given`), then the chosen ones move.
    let mut given = 0u8;
    for e in &data.island(island).effects {
        match *e {
            ArmadaEffect::FreeMove(FleetChoice::Only(f)) => given |= 1 << f as u8,
            ArmadaEffect::Piracy => state.pending.piracies[city] += 1,
            _ => {}
        }
    }
    island_moves(state, c, city, given, events);
    island_moves(state, c, city, moves, events);
}

/// The free moves of an island's "k different ships" on the ships of `moves` (one bit per
/// fleet), each logged ([`ArmadaEvent::IslandMove`]); the coins of the spaces reached go straight
/// to the treasury.
fn island_moves(state: &mut ArmadaState, c: &mut crate::City, city: usize, moves: u8, events: &mut Events) {
    let mut income = [0u16; MAX_PLAYERS];
    for f in Fleet::ALL {
        if moves & (1 << f as u8) != 0
            && let Some(to) = advance(state, city, f, &mut income)
        {
            let _ = events.try_push((city as u8, ArmadaEvent::IslandMove { fleet: f, to }));
        }
    }
    c.coins += income[city];
}

/// The ships an island's "free moves of k different ships" may move: every choice of
/// `min(k, ships below the top)` different ships, as bitsets; `[0]` for an island without such
/// moves.
fn move_choices(state: &ArmadaState, city: usize, island: super::IslandId) -> ArrayVec<u8, 16> {
    let mut out = ArrayVec::new();
    let k = state
        .data
        .island(island)
        .effects
        .iter()
        .find_map(|e| match *e {
            ArmadaEffect::FreeMovesDistinct(k) => Some(k),
            _ => None,
        })
        .unwrap_or(0);
    let yard = state.cities[city].shipyard;
    let open = Fleet::ALL.iter().filter(|&&f| yard.can_advance(f)).fold(0u8, |m, &f| m | 1 << f as u8);
    let want = (k as u32).min(open.count_ones());
    for mask in 0u8..16 {
        if mask & !open == 0 && mask.count_ones() == want {
            out.push(mask);
        }
    }
    out
}

/// Whether an island's free moves wait for their owner's choice of ships; if so the game now
/// waits for the first of them ([`Phase::IslandMoves`]). Asked after step 3 of the turn (and
/// after a build from the discard pile), before the explorations of step 4: the moves may
/// reach an exploration space.
pub(crate) fn moves_choice(game: &mut Game) -> bool {
    match game.armada.as_deref().and_then(|s| s.moves_due.first()) {
        Some(&(city, _)) => {
            game.phase = Phase::IslandMoves { city };
            true
        }
        None => false,
    }
}

/// The legal choices of `city` for the island whose free moves wait for it: each choice of
/// `min(k, ships below the top)` different ships, as [`Action::ChooseIsland`] of that island.
pub(crate) fn moves_choices(game: &Game, city: usize, out: &mut Vec<Action>) {
    let Some(state) = game.armada.as_deref() else {
        return;
    };
    if let Some(&(c, island)) = state.moves_due.first()
        && c as usize == city
    {
        for moves in move_choices(state, city, island) {
            out.push(Action::ChooseIsland { island, moves });
        }
    }
}

/// `city` makes the free moves of the island waiting for it (checked legal) on the ships of
/// `moves`.
pub(crate) fn make_island_moves(game: &mut Game, city: usize, moves: u8) {
    let Some(state) = game.armada.as_deref_mut() else {
        return;
    };
    if state.moves_due.first().is_some_and(|&(c, _)| c as usize == city) {
        state.moves_due.remove(0);
    }
    let mut events = Events::new();
    island_moves(state, &mut game.cities[city], city, moves, &mut events);
    record(game, &events);
}

/// Step 4 of 000 回合結算 (armada.md §2.6): starts the next exploration due, or waits for the
/// next explorer of the one under way. Explorers of the same level this turn share its deck
/// ([`super::explore::deal`]; seat order from seat 0, this engine's choice: 7 Wonders has no
/// first player). Returns whether the game now waits for an explorer ([`Phase::Explore`]).
pub(crate) fn explorations(game: &mut Game) -> bool {
    let n = game.cities_n as usize;
    let age = game.age;
    let Some(state) = game.armada.as_deref_mut() else {
        return false;
    };
    loop {
        if let Some(e) = &state.exploring {
            if let Some(&(city, _)) = e.waiting.first() {
                game.phase = Phase::Explore { city };
                return true;
            }
            // Everyone chose: the kept islands leave the deck, the rest is reshuffled.
            let (level, kept) = (e.level, e.kept.clone());
            let deck = &mut state.decks[level as usize - 1];
            let mut v = deck.to_vec();
            super::explore::return_and_shuffle(&mut v, &kept, &mut state.rng);
            *deck = v.into_iter().collect();
            state.exploring = None;
        }
        let Some(&(_, level)) = state.explore_due.first() else {
            return false;
        };
        let explorers: ArrayVec<usize, MAX_PLAYERS> = {
            let mut v = ArrayVec::new();
            for &(c, l) in &state.explore_due {
                if l == level && !v.contains(&(c as usize)) {
                    let _ = v.try_push(c as usize);
                }
            }
            v
        };
        state.explore_due.retain(|(_, l)| *l != level);
        let deck = &state.decks[(level as usize).clamp(1, 3) - 1];
        let top_first: ArrayVec<super::IslandId, 32> = deck.iter().rev().copied().collect();
        let mut dealt = [const { super::explore::Dealt::new_const() }; MAX_PLAYERS];
        super::explore::deal(&top_first, &explorers, 0, n, &mut dealt[..explorers.len()]);
        let mut waiting = ArrayVec::new();
        for (i, &c) in explorers.iter().enumerate() {
            for &card in &dealt[i] {
                state.seen[c].insert(card);
            }
            if dealt[i].is_empty() {
                // An empty deck: nothing to explore (§10.8).
                push(state, age, (c as u8, ArmadaEvent::ExploredNothing { level }), 0);
            } else {
                waiting.push((c as u8, dealt[i].clone()));
            }
        }
        state.exploring = Some(super::state::Exploration { level, waiting, kept: ArrayVec::new() });
    }
}

/// The legal choices of `city` in an exploration: each island dealt to it, with each choice of
/// ships for its free moves.
pub(crate) fn island_choices(game: &Game, city: usize, out: &mut Vec<Action>) {
    let Some(state) = game.armada.as_deref() else {
        return;
    };
    let Some((_, dealt)) =
        state.exploring.as_ref().and_then(|e| e.waiting.iter().find(|(c, _)| *c as usize == city))
    else {
        return;
    };
    for (i, &island) in dealt.iter().enumerate() {
        if dealt[..i].contains(&island) {
            continue;
        }
        for moves in move_choices(state, city, island) {
            out.push(Action::ChooseIsland { island, moves });
        }
    }
}

/// `city` keeps `island` (checked legal) and its free moves are made.
pub(crate) fn keep_island(game: &mut Game, city: usize, island: super::IslandId, moves: u8) {
    let Some(state) = game.armada.as_deref_mut() else {
        return;
    };
    if let Some(e) = state.exploring.as_mut() {
        e.waiting.retain(|(c, _)| *c as usize != city);
        let _ = e.kept.try_push(island);
    }
    // Only the island kept is public (§2.6).
    let mut events = Events::new();
    let _ = events.try_push((city as u8, ArmadaEvent::Explored(island)));
    island_arrived(state, &mut game.cities[city], city, island, moves, &mut events);
    record(game, &events);
}

/// At an Age end: the next holder of Forgotten Port who has not chosen yet whether to take part
/// in the naval conflict; returns whether the game now waits for it ([`Phase::NavalOptOut`]).
pub(crate) fn naval_choice(game: &mut Game) -> bool {
    let n = game.cities_n as usize;
    let Some(state) = game.armada.as_deref() else {
        return false;
    };
    for city in 0..n {
        if state.naval_decided & (1 << city) == 0 && state.cities[city].may_opt_out(state.data) {
            game.phase = Phase::NavalOptOut { city: city as u8 };
            return true;
        }
    }
    false
}

/// Notes `city`'s Forgotten Port choice.
pub(crate) fn decide_naval(game: &mut Game, city: usize, stay_out: bool) {
    let age = game.age;
    if let Some(state) = game.armada.as_deref_mut() {
        state.naval_decided |= 1 << city;
        if stay_out {
            state.stay_out |= 1 << city;
            state.turn = game.turn;
            push(state, age, (city as u8, ArmadaEvent::StayedOut), 0);
        }
    }
}

/// The naval conflict of the Age end, after the land conflicts (armada.md §2.5;
/// [`super::naval::naval_conflict`]): each city's token of the Age is noted in its
/// [`super::ArmadaCity::naval`]. Forgotten Port's choices are then forgotten.
pub(crate) fn naval_conflict(game: &mut Game) {
    let n = game.cities_n as usize;
    let age = game.age;
    let Some(state) = game.armada.as_deref_mut() else {
        return;
    };
    state.turn = game.turn;
    let strength: ArrayVec<u8, MAX_PLAYERS> =
        (0..n).map(|c| state.cities[c].naval_strength(state.data)).collect();
    let part: ArrayVec<bool, MAX_PLAYERS> = (0..n).map(|c| state.stay_out & (1 << c) == 0).collect();
    let mut out = [0i8; MAX_PLAYERS];
    super::naval::naval_conflict(age, &strength, &part, &mut out[..n]);
    for (city, &token) in state.cities[..n].iter_mut().zip(&out) {
        if let Some(slot) = city.naval.get_mut(age as usize - 1) {
            *slot = token;
        }
    }
    for city in (0..n).filter(|&c| part[c]) {
        let e = ArmadaEvent::Naval { strength: strength[city], token: out[city] };
        push(state, age, (city as u8, e), 0);
    }
    state.naval_decided = 0;
    state.stay_out = 0;
}

/// At an Age end, after the land conflicts were resolved: logs each incursion's extra land
/// conflict of `schedule` (the conflicts between players who are not neighbours; §2.8) with the
/// holder's token ([`ArmadaEvent::Incursion`]). Nothing without Armada.
pub(crate) fn log_incursions(game: &mut Game, schedule: &[LandConflict]) {
    let n = game.cities_n as usize;
    let age = game.age;
    let shields: ArrayVec<u8, MAX_PLAYERS> = game.cities[..n].iter().map(|c| c.shields).collect();
    let Some(state) = game.armada.as_deref_mut() else {
        return;
    };
    state.turn = game.turn;
    let neighbours = |a: usize, b: usize| left_of(a, n) == b || left_of(b, n) == a;
    for c in schedule.iter().filter(|c| !neighbours(c.a as usize, c.b as usize)) {
        let token = c.token_for(c.a as usize, &shields, age) as i8;
        push(state, age, (c.a, ArmadaEvent::Incursion { target: c.b, token }), 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::StageExtra;

    fn res(s: &str) -> Resources {
        Resources::from_letters(s).unwrap()
    }

    #[test]
    fn a_naval_purchase_is_solved_once_per_question() {
        let mut cache = NavalSolves::default();
        let mut calls = 0;
        let two_left = TradePay { left: 2, ..TradePay::default() };
        let mut ask = |cache: &mut NavalSolves, need: &str, naval: &str, discount: bool, budget: u16| {
            cache
                .get(&res(need), &res(naval), discount, budget, |o| {
                    calls += 1;
                    o.clear();
                    o.push(TradePay { left: 2, ..TradePay::default() });
                })
                .to_vec()
        };
        // A stone card and a wood step: solved; the same question again (another card of the
        // fleet with the same cost and budget) is answered from the cache.
        assert_eq!(ask(&mut cache, "S", "W", false, 5), vec![two_left]);
        assert_eq!(ask(&mut cache, "S", "W", false, 5), vec![two_left]);
        // Another budget, another card cost, Ancient Port: three new questions.
        ask(&mut cache, "S", "W", false, 4);
        ask(&mut cache, "", "W", false, 5);
        ask(&mut cache, "S", "W", true, 5);
        assert_eq!(calls, 4);
    }

    #[test]
    fn each_base_build_and_stage_gets_its_naval_variants_once() {
        let (card, other) = (CardId(5), CardId(9));
        let build = |card, left, free| Action::Build {
            card,
            pay: Payment { left, free, ..Payment::default() },
            naval: Naval::NONE,
        };
        let stage = |card, extra| Action::Wonder { card, pay: Payment::default(), extra };
        // Two payments of card 5, its free build, a payment of card 9, then the stage twice with
        // card 5 (two payments) and once with another choice.
        let list = [
            build(card, 0, None),
            build(card, 2, None),
            build(card, 0, Some(FreeBy::FreeBuild)),
            build(other, 0, None),
            stage(card, StageExtra::NONE),
            stage(card, StageExtra::NONE),
            stage(card, StageExtra::new(false, true, 0)),
        ];
        let mut seen = Seen::default();
        let firsts: Vec<bool> = list
            .iter()
            .enumerate()
            .map(|(i, a)| match *a {
                Action::Build { card, pay, .. } => !seen.build(card, pay.free),
                Action::Wonder { card, extra, .. } => !seen.stage(&list, i, card, extra),
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(firsts, vec![true, false, true, true, true, false, true]);
    }

    #[test]
    fn the_free_move_bitset_finds_the_cards_card_free_move_finds() {
        use crate::catalog::Edition;
        for catalog in [
            Catalog::with_builtin_armada(Edition::First, false),
            Catalog::with_builtin_armada(Edition::Second, true),
            Catalog::get(Edition::First),
        ] {
            let free = FreeMoves::of(catalog);
            let mut movers = 0;
            for id in 0..=u8::MAX {
                let card = CardId(id);
                let general = (id as usize) < catalog.cards.len() && card_free_move(catalog, card).is_some();
                assert_eq!(free.gives(card), general, "card {id}");
                movers += general as u32;
            }
            assert_eq!(movers > 0, catalog.armada.is_some());
        }
    }

    #[test]
    fn plain_stages_in_a_card_set_answer_as_the_list_scan() {
        use rand::{RngExt, SeedableRng};
        let mut rng = ChaCha8Rng::seed_from_u64(13);
        let extras = [StageExtra::NONE, StageExtra::new(false, true, 0), StageExtra::new(true, false, 0)];
        for _ in 0..2_000 {
            let n = rng.random_range(0..40);
            let list: Vec<Action> = (0..n)
                .map(|_| Action::Wonder {
                    card: CardId(rng.random_range(0..12)),
                    pay: Payment::default(),
                    extra: extras[rng.random_range(0..extras.len())],
                })
                .collect();
            let mut seen = Seen::default();
            for (i, a) in list.iter().enumerate() {
                let Action::Wonder { card, extra, .. } = *a else { unreachable!() };
                let scan = list[..i].iter().any(
                    |b| matches!(*b, Action::Wonder { card: k, extra: e, .. } if k == card && e == extra),
                );
                assert_eq!(seen.stage(&list, i, card, extra), scan);
            }
        }
    }
}
