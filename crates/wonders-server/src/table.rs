//! One table: its setup, seats, bots and the game, rebuilt from its stored log.
//!
//! Changes are planned first (an action checked against the game, which changes nothing), then
//! stored, then applied: if anything fails before the store commits, nothing changes.
//!
//! Actions and bots' moves are stored by the server's writer thread ([`crate::writer`]), which
//! commits several tables' actions in one transaction, with no table lock held. Meanwhile a table
//! keeps two states: the *durable* one (every change the store committed: what every reader and
//! message sees) and, while some of its changes wait for the writer, the state *ahead* of it
//! (durable plus those changes, in order: what the next actions are planned and checked
//! against). [`Table::apply_ahead`] queues a planned change; [`Table::commit`] makes the oldest
//! queued change durable once stored; [`Table::abandon`] drops the queued changes when storing
//! one failed (the later ones were planned on top of it), so nothing unstored is ever shown.
//! The state ahead is kept when every change is durable (it is then the durable state's twin):
//! the next action is checked on it and played on it in place, not on a copy of the game.
//!
//! Bots think outside the table's lock: [`Table::bot_jobs`] takes each bot whose seat must act
//! out of the table with a copy of its seat's view and legal actions; the bot thinks with the
//! table unlocked ([`BotJob::think`]); [`Table::plan_bot_moves`] then puts the bots back and keeps
//! only the moves still meant for the current step.
//!
//! A seat of a person can be played by a bot for a while: when the table's turn timer runs out
//! for it ([`Table::time_out`]), a heuristic bot plays its moves until its player is back
//! ([`Table::reclaim`]).

use crate::bots::make_bot;
use crate::msg::{ApiError, ScoreLine, SeatInfo, SeatView, SharedJson, StateMsg, TableInfo, WithJson};
use crate::store::{StoredSeat, StoredTable};
use crate::summary::{AgeEnd, ArmadaAgeEnd, CitySummary, age_end, card_reason, stage_reason, summaries};
use crate::token::hash_token;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};
use wonders_bots::Bot;
use wonders_core::score::ranks;
use wonders_core::wire::{RecordedAction, WireAction, WireCity, WireLogEntry, WireView};
use wonders_core::{
    Action, CardId, Edition, Expansions, Game, LogEntry, Phase, Record, Setup, Side, View, WonderDeal,
};

/// The bot that plays a person's seat when its turn timer runs out.
pub const STAND_IN_BOT: &str = "heuristic";

/// A hand card's or the stage's reason when no legal action builds it and its purchase is not
/// why (say, an Edifice or Armada restriction of the moment).
const NOT_THIS_TURN: &str = "not allowed this turn";

/// 2-player variant: the reason of the card the holder chose for its own city, while it chooses
/// for the Free City (the card is still in its hand).
const OWN_CHOICE: &str = "chosen for your own city this turn";

/// The longest turn timer a table may have, in seconds (a day).
pub const MAX_TURN_TIMER: u32 = 86_400;

/// What identifies a step of the game: it changes each time a turn or a one-seat step resolves.
type StepKey = (u8, u8, Phase);

fn step_key(game: &Game) -> StepKey {
    (game.age(), game.turn(), game.phase())
}

/// The game in progress and everything derived from its log.
#[derive(Clone)]
struct Live {
    game: Game,
    step: u64,
    /// The public log, each entry with its JSON (serialised once, written into every state that
    /// carries it).
    history: Vec<WithJson<WireLogEntry>>,
    last_log: Vec<LogEntry>,
    actions: Vec<RecordedAction>,
    /// Actions made by each seat (a retraction counts as one).
    acted: Vec<u64>,
    /// Entries of the stored log: the actions, and the retractions.
    stored: usize,
    /// The military conflicts of each Age that has ended.
    age_ends: Vec<AgeEnd>,
    /// Every city's summary as JSON, computed and serialised once per resolved step (cities
    /// change only then) by the first state built after it, not by the store writer (which
    /// holds the table's lock and every acknowledgment of its batch meanwhile); emptied with
    /// `cities_json`. Every seat's state carries the same bytes.
    summaries_json: OnceLock<SharedJson>,
    /// `age_ends` as JSON, serialised once when it changes.
    age_ends_json: SharedJson,
    /// The view's cities (every seat's view has the same) as JSON: serialised by the first
    /// state built after a step resolved, shared by the others; emptied with the summaries
    /// (cities change only when a step resolves: a choice, or taking it back, changes none).
    cities_json: OnceLock<SharedJson>,
    /// The last resolved step's log (the same in every seat's view) as the views' JSON array of
    /// [`WireLogEntry`]s: serialised by the first state built after it changed, shared by the
    /// others; emptied when `last_log` changes.
    log_json: OnceLock<SharedJson>,
}

impl Live {
    /// Every city of the game now as the views' JSON array of [`WireCity`]s (what
    /// `WireView::from_view` makes of the view's cities), serialised once per resolved step.
    fn cities_json(&self) -> SharedJson {
        self.cities_json
            .get_or_init(|| {
                let catalog = self.game.catalog();
                let cities: Vec<WireCity> =
                    self.game.cities().iter().map(|c| WireCity::from_city(catalog, c)).collect();
                SharedJson::from_json(crate::json::cities(&cities))
            })
            .clone()
    }

    /// The game's last resolved step's log as the views' JSON array of [`WireLogEntry`]s (what
    /// `WireView::from_view` makes of the view's log), serialised once per change of the log.
    /// Those entries are the history's last ones, whose JSON the states carrying the history
    /// share: it is joined, not serialised again.
    fn log_json(&self) -> SharedJson {
        self.log_json
            .get_or_init(|| {
                let n = self.last_log.len();
                if self.game.last_log() == self.last_log.as_slice() && n <= self.history.len() {
                    let mut json = String::from("[");
                    for (i, e) in self.history[self.history.len() - n..].iter().enumerate() {
                        if i > 0 {
                            json.push(',');
                        }
                        json.push_str(e.json());
                    }
                    json.push(']');
                    return SharedJson::from_json(json);
                }
                let catalog = self.game.catalog();
                let log: Vec<WireLogEntry> =
                    self.game.last_log().iter().map(|e| WireLogEntry::from_entry(catalog, e)).collect();
                SharedJson::of(&log)
            })
            .clone()
    }

    /// Every city's summary now, as the JSON array of [`CitySummary`]s every state carries:
    /// computed and serialised once per resolved step.
    fn summaries_json(&self) -> SharedJson {
        self.summaries_json
            .get_or_init(|| SharedJson::from_json(crate::json::summaries(&self.summaries())))
            .clone()
    }

    /// Every city's summary now.
    fn summaries(&self) -> Vec<CitySummary> {
        summaries(self.game.catalog(), self.game.cities())
    }

    fn new(game: Game) -> Live {
        let acted = vec![0; game.players()];
        Live {
            step: 0,
            history: Vec::new(),
            last_log: Vec::new(),
            actions: Vec::new(),
            acted,
            stored: 0,
            age_ends: Vec::new(),
            summaries_json: OnceLock::new(),
            age_ends_json: SharedJson::empty_array(),
            cities_json: OnceLock::new(),
            log_json: OnceLock::new(),
            game,
        }
    }

    /// Takes back the seat's last choice of the step: it leaves the record too (a retracted
    /// choice was never played).
    fn retract(&mut self, seat: u8) -> Result<(), wonders_core::ActionError> {
        self.game.retract(seat as usize)?;
        if let Some(i) = self.actions.iter().rposition(|a| a.seat == seat) {
            self.actions.remove(i);
        }
        if let Some(n) = self.acted.get_mut(seat as usize) {
            *n += 1;
        }
        self.stored += 1;
        Ok(())
    }

    /// Submits an action and keeps the step, the history and the record up to date.
    fn apply(&mut self, seat: u8, action: Action) -> Result<(), wonders_core::ActionError> {
        let before = step_key(&self.game);
        let cities_before = self.game.cities().to_vec();
        // Armada: the Age's incursion tokens, before the Age end clears them.
        let incursions_before = self.game.armada().map(|a| a.incursions.to_vec());
        self.game.submit(seat as usize, action)?;
        self.stored += 1;
        if self.game.age() != before.0 || (self.game.is_over() && before.2 != Phase::Over) {
            let armada = self.game.armada().zip(incursions_before).map(|(a, incursions)| ArmadaAgeEnd {
                incursions,
                naval: a.cities[..self.game.cities().len()]
                    .iter()
                    .map(|c| (c.naval_strength(a.data), c.naval[(before.0 as usize).clamp(1, 3) - 1]))
                    .collect(),
            });
            let teams = self.game.teams();
            self.age_ends.push(age_end(before.0, &cities_before, self.game.cities(), teams, armada.as_ref()));
            self.age_ends_json = SharedJson::of(&self.age_ends);
        }
        let catalog = self.game.catalog();
        self.actions.push(RecordedAction { seat, action: WireAction::from_action(catalog, &action) });
        if let Some(n) = self.acted.get_mut(seat as usize) {
            *n += 1;
        }
        if step_key(&self.game) != before {
            self.step += 1;
            self.summaries_json = OnceLock::new();
            self.cities_json = OnceLock::new();
        }
        let log = self.game.last_log();
        if log != self.last_log.as_slice() {
            self.history.extend(log.iter().map(|e| WithJson::new(WireLogEntry::from_entry(catalog, e))));
            self.last_log = log.to_vec();
            self.log_json = OnceLock::new();
        }
        Ok(())
    }
}

/// What changes are planned against: the durable game with the changes waiting for the writer
/// applied (none waiting: the durable game's twin, kept so as not to copy the game for the next
/// change), and what the plans read besides (each seat's action count, the stored log's length).
/// The durable state's history, record, summaries and Age ends are not copied: they are built
/// once, when a change becomes durable.
#[derive(Clone)]
struct Ahead {
    /// Boxed: the state ahead is moved several times per action (planned, queued), a pointer
    /// rather than the whole game each time.
    game: Box<Game>,
    acted: Vec<u64>,
    stored: usize,
}

impl Ahead {
    fn of(live: &Live) -> Ahead {
        Ahead { game: Box::new(live.game.clone()), acted: live.acted.clone(), stored: live.stored }
    }

    /// Applies a plan as [`apply_to`] does to a [`Live`], to the parts planning reads.
    fn apply(&mut self, plan: &Plan) -> Result<(), String> {
        let count = |acted: &mut Vec<u64>, seat: u8| {
            if let Some(n) = acted.get_mut(seat as usize) {
                *n += 1;
            }
        };
        if let Some(seat) = plan.retract {
            self.game
                .retract(seat as usize)
                .map_err(|e| format!("a planned retraction failed to apply: {e}"))?;
            count(&mut self.acted, seat);
            self.stored += 1;
        }
        for &(seat, action) in &plan.actions {
            self.game
                .submit(seat as usize, action)
                .map_err(|e| format!("a planned action failed to apply: {e}"))?;
            count(&mut self.acted, seat);
            self.stored += 1;
        }
        Ok(())
    }
}

/// The state a change is planned against: the durable one, or the one ahead of it.
struct PlanBase<'a> {
    game: &'a Game,
    acted: &'a [u64],
    stored: usize,
}

/// Actions planned by [`Table::plan_action`] or [`Table::plan_seat`], to store then apply.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// The actions, in order: the seat and the action.
    pub actions: Vec<(u8, Action)>,
    /// A seat taking back its last choice, before the actions.
    pub retract: Option<u8>,
    /// The same, as stored: the seat and the action's JSON.
    pub stored: Vec<(u8, String)>,
    /// Index in the log of the first action.
    pub first_index: usize,
    /// Whether the actions end the game: known once the plan is queued ([`Table::apply_ahead`]
    /// sets it).
    pub ends_game: bool,
}

/// A bot taken out of its table to think, with what it may know: its seat's view and legal
/// actions at one step of the game.
pub struct BotJob {
    seat: usize,
    key: StepKey,
    stand_in: bool,
    view: View,
    legal: Vec<Action>,
    bot: Box<dyn Bot + Send>,
}

/// A bot's move, to be checked against the table's current step.
pub struct BotMove {
    seat: usize,
    key: StepKey,
    stand_in: bool,
    action: Action,
    bot: Box<dyn Bot + Send>,
}

impl BotJob {
    /// Lets the bot choose (this may take its whole budget: call it with the table unlocked).
    /// A choice outside the legal actions becomes the first legal one.
    pub fn think(mut self) -> BotMove {
        let chosen = self.bot.choose(&self.view, &self.legal);
        let action = if self.legal.contains(&chosen) { chosen } else { self.legal[0] };
        BotMove { seat: self.seat, key: self.key, stand_in: self.stand_in, action, bot: self.bot }
    }
}

/// A table.
pub struct Table {
    id: String,
    created: i64,
    setup: Setup,
    wonders_label: String,
    seats: Vec<StoredSeat>,
    /// The address (an IPv6 client's /64) of whoever created the table through the API, while
    /// it is in memory: the per-address cap on open tables counts it ([`crate::limits`]).
    creator: Option<std::net::IpAddr>,
    live: Result<Live, String>,
    bots: Vec<Option<Box<dyn Bot + Send>>>,
    rematch: Option<String>,
    rematch_of: Option<String>,
    turn_timer: Option<u32>,
    hold_until: Option<i64>,
    /// Seats of people played by a stand-in bot (their turn timer ran out).
    away: Vec<bool>,
    /// The stand-in bots of away seats, made when first needed.
    stand_ins: Vec<Option<Box<dyn Bot + Send>>>,
    /// When each seat's clock for the current step started.
    since: Vec<Instant>,
    /// Whether a task is moving this table's bots (at most one at a time).
    driving: bool,
    /// When the game was seen over (in this process).
    over_since: Option<Instant>,
    /// A waiting table nobody filled in time: deleted.
    expired: bool,
    /// The durable game with the changes waiting for the writer applied; when none waits, equal
    /// to the durable state (none: not made yet, or dropped with the queued changes, or the
    /// game is over).
    ahead: Option<Ahead>,
    /// How many planned changes wait for the writer.
    pending: usize,
    /// Changes queued with another epoch are stale: it increases when queued changes are dropped.
    epoch: u64,
    /// The action [`Table::plan_action`] checked, and on which state: [`Table::apply_ahead`]
    /// plays it without checking it again when it queues that plan on that state.
    planned: Option<Planned>,
    /// The table part of the last state built, with its JSON: the next state reuses that JSON
    /// when the table is the same (every seat's state carries it).
    info_json: Mutex<Option<WithJson<TableInfo>>>,
}

/// One action checked by [`Table::plan_action`], and the state it was checked on: the epoch and
/// the stored log's length of the state planned against (they identify that state: each queued
/// or dropped change moves one of them; a commit changes the durable state, not that one).
struct Planned {
    epoch: u64,
    first_index: usize,
    seat: u8,
    action: Action,
}

/// How a retraction is stored in a table's log (the other entries are `WireAction`s).
pub const RETRACT_JSON: &str = r#"{"type":"retract"}"#;

/// Display names: 1–32 characters, trimmed, every character visible or a space between words
/// ([`crate::security::check_name_chars`]), and nothing that passes for a bot: no bot seat's
/// label (`Bot 2 (heuristic)`, as [`Table::create`] names bot seats) and no bot's name
/// ([`crate::security::check_name_not_a_bot`]).
pub fn check_name(name: &str) -> Result<String, ApiError> {
    let name = name.trim();
    let len = name.chars().count();
    if len == 0 || len > 32 {
        return Err(ApiError::BadRequest(format!("a name has 1 to 32 characters, not {len}")));
    }
    crate::security::check_name_chars(name)?;
    crate::security::check_name_not_a_bot(name, &crate::bots::bot_names())?;
    Ok(name.to_string())
}

/// Edifice: a table's expansions are stored with its wonder mode, as `random+edifice`,
/// so the store's schema does not change. Splits a stored label into the mode and the expansions.
/// The team variant is stored the same way, as a last `+teams`.
fn split_label(label: &str) -> Result<(&str, Expansions, bool), ApiError> {
    let mut parts = label.split('+');
    let mode = parts.next().unwrap_or("random");
    let rest: Vec<&str> = parts.collect();
    let teams = rest.contains(&TEAMS_LABEL);
    let names: Vec<&str> = rest.into_iter().filter(|&p| p != TEAMS_LABEL).collect();
    let expansions = Expansions::parse(&names).map_err(ApiError::BadRequest)?;
    Ok((mode, expansions, teams))
}

/// The mark of a team table in its stored wonder label.
const TEAMS_LABEL: &str = "teams";

/// Parses a wonder mode: `random`, or a side for every board.
fn parse_wonders(mode: &str, edition: Edition) -> Result<(WonderDeal, String), ApiError> {
    if mode.trim().eq_ignore_ascii_case("random") {
        return Ok((WonderDeal::Random, "random".into()));
    }
    if mode.trim().eq_ignore_ascii_case("choose") {
        return Ok((WonderDeal::RandomBoardsChooseSides, "choose".into()));
    }
    match Side::parse(mode) {
        Some(side) => Ok((WonderDeal::RandomBoards(side), side.label(edition).to_string())),
        None => Err(ApiError::BadRequest(format!(
            "unknown wonder mode `{mode}` (random, {}, {}, or choose)",
            Side::A.label(edition),
            Side::B.label(edition)
        ))),
    }
}

impl Table {
    /// Validates a request for a new table and builds it with its stored form.
    pub fn create(
        id: String,
        created: i64,
        seed: u64,
        req: &crate::msg::CreateTable,
    ) -> Result<(Table, StoredTable), ApiError> {
        let code = req.edition.as_deref().unwrap_or("1e");
        let edition = Edition::parse(code)
            .ok_or_else(|| ApiError::BadRequest(format!("unknown edition `{code}` (1e or 2e)")))?;
        let (deal, mut label) = parse_wonders(req.wonders.as_deref().unwrap_or("random"), edition)?;
        let expansions = Expansions::parse(&req.expansions).map_err(ApiError::BadRequest)?;
        for name in expansions.names() {
            label = format!("{label}+{name}");
        }
        if req.teams {
            label = format!("{label}+{TEAMS_LABEL}");
        }
        // 8 players only with Armada (000 8人遊戲規則); the core refuses it otherwise, naming it.
        if req.players as usize > wonders_core::game::MAX_PLAYERS {
            return Err(ApiError::BadRequest(format!("{} players: at most 8 (8 with Armada)", req.players)));
        }
        if req.seats.len() > req.players as usize {
            return Err(ApiError::BadRequest(format!(
                "{} seats described for {} players",
                req.seats.len(),
                req.players
            )));
        }
        if let Some(t) = req.turn_timer_secs
            && !(1..=MAX_TURN_TIMER).contains(&t)
        {
            return Err(ApiError::BadRequest(format!(
                "a turn timer of {t} s: it is 1 to {MAX_TURN_TIMER} seconds (or absent for none)"
            )));
        }
        let setup =
            Setup { edition, players: req.players, seed, wonders: deal, expansions, teams: req.teams };
        Game::new(&setup).map_err(|e| ApiError::BadRequest(e.to_string()))?;
        let mut seats = Vec::new();
        for i in 0..req.players as usize {
            let bot = req.seats.get(i).and_then(|s| s.bot.as_deref());
            seats.push(match bot {
                Some(b) => {
                    let name = make_bot(b, 0).map_err(ApiError::BadRequest)?.name();
                    StoredSeat {
                        name: Some(format!("Bot {} ({name})", i + 1)),
                        bot: Some(name),
                        ..StoredSeat::default()
                    }
                }
                None => StoredSeat::default(),
            });
        }
        let stored = StoredTable {
            id,
            created,
            edition: edition.code().to_string(),
            players: req.players,
            seed,
            wonders: label,
            turn_timer: req.turn_timer_secs,
            seats,
            ..StoredTable::default()
        };
        Ok((Table::load(stored.clone()), stored))
    }

    /// Rebuilds a table from the store by replaying its log. A log that does not replay leaves
    /// the table broken (it says why), never panics.
    ///
    /// A table whose rows are damaged (see [`StoredTable::damage`]) or that names a bot this
    /// server does not know is broken too, with the reason.
    pub fn load(st: StoredTable) -> Table {
        let replayed = match &st.damage {
            Some(d) => Err(format!("table {}: its stored rows are damaged: {d}", st.id)),
            None => Table::replay(&st)
                .map_err(|e| format!("table {}: its stored log does not replay: {e}", st.id)),
        };
        let (setup, mut live) = match replayed {
            Ok((setup, live)) => (setup, Ok(live)),
            Err(e) => (Setup::new(st.players.max(1), st.seed), Err(e)),
        };
        let actions = live.as_ref().map_or(0, |l| l.stored) as u64;
        let mut bots = Vec::new();
        for (i, s) in st.seats.iter().enumerate() {
            let seed = st.seed ^ ((i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)) ^ (actions << 32);
            bots.push(match s.bot.as_deref().map(|b| make_bot(b, seed)) {
                None => None,
                Some(Ok(bot)) => Some(bot),
                Some(Err(e)) => {
                    if live.is_ok() {
                        live = Err(format!("table {}: the stored bot of seat {i} cannot play: {e}", st.id));
                    }
                    None
                }
            });
        }
        let n = st.seats.len();
        let over_since = live.as_ref().ok().filter(|l| l.game.is_over()).map(|_| Instant::now());
        Table {
            id: st.id,
            created: st.created,
            setup,
            wonders_label: st.wonders,
            seats: st.seats,
            creator: None,
            live,
            bots,
            rematch: st.rematch,
            rematch_of: st.rematch_of,
            turn_timer: st.turn_timer,
            hold_until: st.hold_until,
            away: vec![false; n],
            stand_ins: (0..n).map(|_| None).collect(),
            since: vec![Instant::now(); n],
            driving: false,
            over_since,
            expired: false,
            ahead: None,
            pending: 0,
            epoch: 0,
            planned: None,
            info_json: Mutex::new(None),
        }
    }

    fn replay(st: &StoredTable) -> Result<(Setup, Live), String> {
        let edition = Edition::parse(&st.edition).ok_or_else(|| format!("unknown edition {}", st.edition))?;
        let (mode, expansions, teams) = split_label(&st.wonders).map_err(|e| e.to_string())?;
        let (deal, _) = parse_wonders(mode, edition).map_err(|e| e.to_string())?;
        let setup = Setup { edition, players: st.players, seed: st.seed, wonders: deal, expansions, teams };
        if st.seats.len() != st.players as usize {
            return Err(format!("{} seats stored for {} players", st.seats.len(), st.players));
        }
        let mut live = Live::new(Game::new(&setup).map_err(|e| e.to_string())?);
        for (i, (seat, json)) in st.actions.iter().enumerate() {
            if json == RETRACT_JSON {
                live.retract(*seat).map_err(|e| format!("action {i} (seat {seat} takes back): {e}"))?;
                continue;
            }
            let wire: WireAction =
                serde_json::from_str(json).map_err(|e| format!("action {i}: not an action: {e}"))?;
            let action =
                wire.to_action_in(&live.game, *seat as usize).map_err(|e| format!("action {i}: {e}"))?;
            live.apply(*seat, action).map_err(|e| format!("action {i} (seat {seat}): {e}"))?;
        }
        Ok((setup, live))
    }

    /// The table's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The game, unless the table is broken.
    pub fn game(&self) -> Option<&Game> {
        self.live.as_ref().ok().map(|l| &l.game)
    }

    /// The current step.
    pub fn step(&self) -> u64 {
        self.live.as_ref().map_or(0, |l| l.step)
    }

    /// How many actions a seat made (0 for spectators).
    pub fn turn_id(&self, seat: Option<u8>) -> u64 {
        match (seat, &self.live) {
            (Some(s), Ok(l)) => l.acted.get(s as usize).copied().unwrap_or(0),
            _ => 0,
        }
    }

    /// Whether every seat is taken (the game runs).
    pub fn started(&self) -> bool {
        self.seats.iter().all(|s| s.bot.is_some() || s.token_hash.is_some())
    }

    /// `waiting`, `playing`, `over` or `broken`.
    pub fn status(&self) -> &'static str {
        match &self.live {
            _ if self.expired => "expired",
            Err(_) => "broken",
            Ok(l) if l.game.is_over() => "over",
            Ok(_) if self.started() => "playing",
            Ok(_) => "waiting",
        }
    }

    /// Whether a WebSocket sends the state for `you` at once: unless the game is being played
    /// and `you` is a seat that has nothing to do now (it has chosen and waits for the others);
    /// such a state may be held a little to go with the table's next changes
    /// ([`crate::ws::STATE_HOLD`]). A spectator's states are sent at once.
    pub fn prompts(&self, you: Option<u8>) -> bool {
        match (&self.live, you) {
            (Ok(live), Some(seat)) if self.status() == "playing" => live.game.must_act(seat as usize),
            _ => true,
        }
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.game().is_some_and(Game::is_over)
    }

    /// The rematch's id, once created.
    pub fn rematch(&self) -> Option<&str> {
        self.rematch.as_deref()
    }

    /// The table as everyone sees it.
    pub fn info(&self) -> TableInfo {
        let (age, turn) = self.game().map_or((0, 0), |g| (g.age(), g.turn()));
        TableInfo {
            id: self.id.clone(),
            created: self.created,
            edition: self.setup.edition.code().to_string(),
            players: self.setup.players,
            wonders: self.wonders_label.clone(),
            status: self.status().to_string(),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| SeatInfo {
                    seat: i as u8,
                    name: s.name.clone(),
                    bot: s.bot.clone(),
                    taken: s.bot.is_some() || s.token_hash.is_some(),
                    held: s.token_hash.is_none() && s.held_for.is_some() && self.holding(),
                    away: self.away.get(i).copied().unwrap_or(false),
                })
                .collect(),
            age,
            turn,
            rematch: self.rematch.clone(),
            rematch_of: self.rematch_of.clone(),
            seed: self.is_over().then_some(self.setup.seed),
            error: self.live.as_ref().err().cloned(),
            turn_timer_secs: self.turn_timer,
            hold_until: self.hold_until.filter(|_| self.holding()),
            expansions: self.setup.expansions.names().into_iter().map(String::from).collect(),
            teams: self.setup.teams,
        }
    }

    /// Whether `info` equals [`Table::info`] now, compared field by field without building it
    /// (no string is copied: every state checks its table part this way). Every field is named
    /// (no `..`): a field added to [`TableInfo`] does not compile until it is compared here.
    fn info_is(&self, info: &TableInfo) -> bool {
        let TableInfo {
            id,
            created,
            edition,
            players,
            wonders,
            status,
            seats,
            age,
            turn,
            rematch,
            rematch_of,
            seed,
            error,
            turn_timer_secs,
            hold_until,
            expansions,
            teams,
        } = info;
        let (now_age, now_turn) = self.game().map_or((0, 0), |g| (g.age(), g.turn()));
        let holding = self.holding();
        let seats_same = seats.len() == self.seats.len()
            && seats.iter().zip(&self.seats).enumerate().all(|(i, (info, s))| {
                let SeatInfo { seat, name, bot, taken, held, away } = info;
                usize::from(*seat) == i
                    && *name == s.name
                    && *bot == s.bot
                    && *taken == (s.bot.is_some() || s.token_hash.is_some())
                    && *held == (s.token_hash.is_none() && s.held_for.is_some() && holding)
                    && *away == self.away.get(i).copied().unwrap_or(false)
            });
        let known = self.setup.expansions.names();
        *id == self.id
            && *created == self.created
            && edition == self.setup.edition.code()
            && *players == self.setup.players
            && *wonders == self.wonders_label
            && status == self.status()
            && seats_same
            && (*age, *turn) == (now_age, now_turn)
            && *rematch == self.rematch
            && *rematch_of == self.rematch_of
            && *seed == self.is_over().then_some(self.setup.seed)
            && error.as_ref() == self.live.as_ref().err()
            && *turn_timer_secs == self.turn_timer
            && *hold_until == self.hold_until.filter(|_| holding)
            && expansions.len() == known.len()
            && expansions.iter().zip(&known).all(|(a, b)| a == b)
            && *teams == self.setup.teams
    }

    /// Whether the free seats of this rematch are still held for the previous players.
    fn holding(&self) -> bool {
        self.hold_until.is_some_and(|until| crate::server::now() < until)
    }

    /// The seat a token belongs to.
    pub fn seat_of_token(&self, token: &str) -> Option<u8> {
        self.seat_of_token_hash(&hash_token(token))
    }

    /// The seat a token belongs to, from the token's hash ([`hash_token`]): a connection that
    /// acts many times hashes its token once.
    pub fn seat_of_token_hash(&self, hash: &str) -> Option<u8> {
        self.seats.iter().position(|s| s.token_hash.as_deref() == Some(hash)).map(|i| i as u8)
    }

    /// The state for a seat, or for a spectator (`None`). Built only from `Game::view` of that
    /// seat, or from a view with the hand and the discard pile removed.
    pub fn state(&self, you: Option<u8>) -> StateMsg {
        self.state_from(you, 0)
    }

    /// [`Table::state`] with the log entries from `from` on only (`history_from` says where
    /// they start; the whole log when `from` is past its end): a WebSocket sends each entry once.
    pub fn state_from(&self, you: Option<u8>, from: usize) -> StateMsg {
        let mut msg = StateMsg {
            table: self.info_with_json(),
            step: self.step(),
            you,
            turn_id: self.turn_id(you),
            view: None,
            legal: Vec::new(),
            waiting: Vec::new(),
            history: Vec::new(),
            history_from: 0,
            scores: None,
            summaries: SharedJson::empty_array(),
            age_ends: SharedJson::empty_array(),
            pending: Vec::new(),
            reasons: Vec::new(),
            stage_reason: None,
            timer_left_secs: None,
            remaining_ms: None,
        };
        let Ok(live) = &self.live else {
            return msg;
        };
        if !self.started() {
            return msg;
        }
        let game = &live.game;
        let catalog = game.catalog();
        // A state's view leaves out the view's whole history and the hands seen this Age
        // (`SeatView` has neither: the state carries the history once, in `history`), so they
        // are not copied nor converted to their wire form only to be dropped. Its cities, the
        // same in every seat's view, are converted and serialised once per resolved step
        // (`Live::cities_json`): the view's own copy is converted only when Edifice's projects
        // are worked out from it.
        // The last resolved step's log, also the same in every view, is converted and
        // serialised once per step too (`Live::log_json`).
        let view = |seat: usize| {
            let mut v = game.view_without_history(seat);
            if v.edifice.is_none() {
                v.cities.clear();
            }
            v.log.clear();
            WireView::from_view(catalog, &v)
        };
        let (cities, log) = (live.cities_json(), live.log_json());
        msg.view = Some(match you {
            Some(seat) => SeatView::own_with_shared(view(seat as usize), cities, log),
            None => SeatView::public_with_shared(view(0), cities, log),
        });
        let legal = match you {
            Some(seat) if game.must_act(seat as usize) => game.legal_actions(seat as usize),
            _ => Vec::new(),
        };
        msg.legal = legal.iter().map(|a| WireAction::from_action(catalog, a)).collect();
        msg.waiting = game.to_act().iter().map(|&s| s as u8).collect();
        let from = if from <= live.history.len() { from } else { 0 };
        msg.history = live.history[from..].to_vec();
        msg.history_from = from;
        msg.summaries = live.summaries_json();
        msg.age_ends = live.age_ends_json.clone();
        if let Some(seat) = you {
            let s = seat as usize;
            msg.pending = [
                game.own_choice(s),
                if game.free_city_holder() == Some(s) { game.free_city_choice() } else { None },
            ]
            .into_iter()
            .flatten()
            .map(|a| WireAction::from_action(catalog, &a))
            .collect();
            if game.must_act(s) && matches!(game.phase(), Phase::Choose | Phase::PlayLastCard { .. }) {
                // A reason is given exactly where no legal action builds: a free build (Olympia)
                // or a chain needs no purchase, and where the purchase alone does not explain it
                // the reason says so.
                let city = game.acting_city(s);
                let builds = |card: CardId| {
                    legal.iter().any(|a| matches!(a, Action::Build { card: c, .. } if *c == card))
                };
                // 2-player variant: while the holder chooses for the Free City, the card it chose
                // for its own city is still in its hand.
                let own_card = if city == s { None } else { game.own_choice(s).and_then(|a| a.card()) };
                msg.reasons = game
                    .hand(s)
                    .iter()
                    .map(|&c| {
                        (!builds(c)).then(|| {
                            if own_card == Some(c) {
                                return OWN_CHOICE.into();
                            }
                            card_reason(catalog, game.cities(), city, c)
                                .unwrap_or_else(|| NOT_THIS_TURN.into())
                        })
                    })
                    .collect();
                let stage_legal = legal.iter().any(|a| matches!(a, Action::Wonder { .. }));
                msg.stage_reason = (!stage_legal).then(|| {
                    stage_reason(catalog, game.cities(), city).unwrap_or_else(|| NOT_THIS_TURN.into())
                });
            }
            msg.timer_left_secs = self.timer_left(s);
        }
        msg.remaining_ms = self.remaining_ms(you.map(usize::from));
        if game.is_over() {
            msg.scores = Some(score_lines(game));
        }
        msg
    }

    /// [`Table::info`] with its JSON: the last state's when the table did not change since (the
    /// same value serialises to the same bytes), else serialised now and kept for the next.
    fn info_with_json(&self) -> WithJson<TableInfo> {
        let mut cached = self.info_json.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = cached.as_ref()
            && self.info_is(c)
        {
            return c.clone();
        }
        let fresh = WithJson::new(self.info());
        *cached = Some(fresh.clone());
        fresh
    }

    /// The record of a finished game, with its scores (it replays with `wonders replay`).
    pub fn record(&self) -> Result<Record, ApiError> {
        let live = self.live.as_ref().map_err(|e| ApiError::Conflict(e.clone()))?;
        if !live.game.is_over() {
            return Err(ApiError::Conflict(
                "the record is available once the game is over (it reveals every hand)".into(),
            ));
        }
        let catalog = live.game.catalog();
        let mut record = Record::new(&self.setup, catalog);
        record.actions = live.actions.clone();
        record.scores = Some(live.game.scores());
        Ok(record)
    }

    /// The stored form of a rematch: same options, turn timer and seats (bots stay, seats for
    /// people are free again but held for their players of this game until `hold_until`), a new
    /// seed.
    pub fn rematch_setup(&self, id: String, created: i64, seed: u64, hold_until: i64) -> StoredTable {
        StoredTable {
            id,
            created,
            edition: self.setup.edition.code().to_string(),
            players: self.setup.players,
            seed,
            wonders: self.wonders_label.clone(),
            rematch_of: Some(self.id.clone()),
            turn_timer: self.turn_timer,
            hold_until: Some(hold_until),
            seats: self
                .seats
                .iter()
                .map(|s| StoredSeat {
                    bot: s.bot.clone(),
                    name: s.bot.as_ref().and(s.name.clone()),
                    token_hash: None,
                    held_for: s.bot.is_none().then(|| s.token_hash.clone()).flatten(),
                })
                .collect(),
            ..StoredTable::default()
        }
    }

    /// Notes the rematch's id.
    pub fn set_rematch(&mut self, id: String) {
        self.rematch = Some(id);
    }

    fn live(&self) -> Result<&Live, ApiError> {
        self.live.as_ref().map_err(|e| ApiError::Conflict(e.clone()))
    }

    /// The state changes are planned against: ahead of the durable one while changes wait for
    /// the writer.
    fn planning(&self) -> Result<PlanBase<'_>, ApiError> {
        let live = self.live()?;
        Ok(match &self.ahead {
            Some(a) => PlanBase { game: &a.game, acted: &a.acted, stored: a.stored },
            None => PlanBase { game: &live.game, acted: &live.acted, stored: live.stored },
        })
    }

    /// Queues planned changes for the writer: they apply to the state ahead (later plans build
    /// on them) but not to the durable one, which readers see. Returns the epoch to hand the
    /// writer with them, and sets `plan.ends_game` (whether they end the game). A change that
    /// fails to apply marks the table broken.
    pub fn apply_ahead(&mut self, plan: &mut Plan) -> Result<u64, ApiError> {
        let planned = self.planned.take();
        let mut ahead = match self.ahead.take() {
            Some(a) => a,
            None => Ahead::of(self.live()?),
        };
        if let Some(p) = planned
            && p.epoch == self.epoch
            && p.first_index == plan.first_index
            && p.first_index == ahead.stored
            && plan.retract.is_none()
            && plan.actions == [(p.seat, p.action)]
        {
            // `plan_action` checked this very action on this very state (nothing was queued,
            // dropped or broken since): it is played without checking it again.
            ahead.game.submit_trusted(p.seat as usize, p.action);
            if let Some(n) = ahead.acted.get_mut(p.seat as usize) {
                *n += 1;
            }
            ahead.stored += 1;
        } else if let Err(e) = ahead.apply(plan) {
            self.break_with(e.clone());
            return Err(ApiError::Conflict(e));
        }
        plan.ends_game = ahead.game.is_over();
        self.ahead = Some(ahead);
        self.pending += 1;
        Ok(self.epoch)
    }

    /// How many actions a seat made, counting those waiting for the writer.
    pub fn turn_id_ahead(&self, seat: u8) -> u64 {
        self.planning().map_or(0, |l| l.acted.get(seat as usize).copied().unwrap_or(0))
    }

    /// The writer stored the oldest queued change (`plan`, queued at `epoch`): it becomes
    /// durable, and so visible.
    pub fn commit(&mut self, plan: &Plan, epoch: u64) {
        if epoch != self.epoch || self.pending == 0 {
            self.break_with(format!(
                "table {}: a stored change was no longer queued in memory (epoch {epoch}, now {})",
                self.id, self.epoch
            ));
            return;
        }
        self.pending -= 1;
        self.apply_durable(plan);
        if self.pending == 0 {
            // Nothing waits any more: the state ahead is the durable one's twin, kept for the
            // next change to be planned and played on (dropped once the game is over).
            match (&self.live, &self.ahead) {
                (Ok(live), Some(a)) if !live.game.is_over() => debug_assert!(
                    *a.game == live.game && a.acted == live.acted && a.stored == live.stored,
                    "table {}: the state ahead is not the durable one once every change is durable",
                    self.id
                ),
                _ => self.ahead = None,
            }
        }
    }

    /// Storing a change queued at `epoch` failed: every queued change is dropped (those after it
    /// were planned on top of it), the durable state stays as it is. Nothing to do when an
    /// earlier failure already dropped them.
    pub fn abandon(&mut self, epoch: u64) {
        if epoch == self.epoch {
            self.ahead = None;
            self.pending = 0;
            self.epoch += 1;
        }
    }

    /// Plans an action of `seat`: checks the step, the names and the legality against the state
    /// planned against (the game is not copied). Nothing changes. The plan's `ends_game` is set
    /// when it is queued ([`Table::apply_ahead`]). (The bots answer afterwards, outside the lock.)
    pub fn plan_action(
        &mut self,
        seat: u8,
        turn_id: Option<u64>,
        action: &WireAction,
    ) -> Result<Plan, ApiError> {
        self.planned = None;
        let live = self.planning()?;
        if !self.started() {
            return Err(ApiError::Conflict("the game has not started: some seats are still free".into()));
        }
        let acted = live.acted.get(seat as usize).copied().unwrap_or(0);
        if let Some(turn_id) = turn_id
            && turn_id != acted
        {
            return Err(ApiError::Stale(format!(
                "stale action: it was sent with turn_id {turn_id}, but seat {seat} has made {acted} \
                 actions (the game is at Age {}, turn {}): it was sent twice or too late",
                live.game.age(),
                live.game.turn()
            )));
        }
        let first_index = live.stored;
        let action =
            action.to_action_in(live.game, seat as usize).map_err(|e| ApiError::BadRequest(e.to_string()))?;
        // What `Game::submit` checks first (and its error), without playing it.
        live.game.check(seat as usize, &action).map_err(|e| ApiError::Illegal(e.to_string()))?;
        self.planned = Some(Planned { epoch: self.epoch, first_index, seat, action });
        Ok(self.finish_plan(vec![(seat, action)], first_index, false))
    }

    /// Whether `seat` is played by a bot now: a bot's seat, or an away person's.
    fn bot_plays(&self, seat: usize) -> bool {
        self.is_bot_seat(seat) || self.away.get(seat).copied().unwrap_or(false)
    }

    /// Whether every seat but `seat` is a bot's: a game against bots only, where the player may
    /// ask for hints.
    pub fn only_person(&self, seat: usize) -> bool {
        (0..self.seats.len()).all(|s| s == seat || self.is_bot_seat(s))
    }

    /// Whether `seat` is a bot's (whether or not its bot is out thinking).
    fn is_bot_seat(&self, seat: usize) -> bool {
        self.seats.get(seat).is_some_and(|s| s.bot.is_some())
    }

    /// Takes out the bots whose seat must act now, each with its seat's view and legal actions,
    /// to think with the table unlocked. Empty when no bot must act (or the table is broken,
    /// waiting, over or expired). Put them back with [`Table::plan_bot_moves`].
    pub fn bot_jobs(&mut self) -> Vec<BotJob> {
        if self.expired || !self.started() {
            return Vec::new();
        }
        let game = match (&self.ahead, &self.live) {
            (Some(a), Ok(_)) => &a.game,
            (None, Ok(live)) => &live.game,
            (_, Err(_)) => return Vec::new(),
        };
        let key = step_key(game);
        let mut jobs = Vec::new();
        for seat in game.to_act() {
            if !self.bot_plays(seat) {
                continue;
            }
            let legal = game.legal_actions(seat);
            if legal.is_empty() {
                continue;
            }
            let stand_in = !self.is_bot_seat(seat);
            let slot = if stand_in { &mut self.stand_ins[seat] } else { &mut self.bots[seat] };
            if slot.is_none() && stand_in {
                *slot = make_bot(STAND_IN_BOT, self.setup.seed ^ seat as u64).ok();
            }
            let Some(bot) = slot.take() else {
                continue;
            };
            jobs.push(BotJob { seat, key, stand_in, view: game.view(seat), legal, bot });
        }
        jobs
    }

    /// Puts the bots of `moves` back and plans the moves still meant for the current step (same
    /// step, the seat still to act and still played by a bot). Nothing else changes. A move
    /// the game refuses is an error (the table should then be marked broken).
    pub fn plan_bot_moves(&mut self, moves: Vec<BotMove>) -> Result<Plan, ApiError> {
        let mut actions = Vec::new();
        let mut game = match self.planning() {
            Ok(live) if !self.expired => Some(live.game.clone()),
            _ => None,
        };
        let first_index = self.planning().map_or(0, |l| l.stored);
        let mut refused = None;
        for m in moves {
            // A stand-in's move counts only while its seat is still away.
            let still = !m.stand_in || self.away.get(m.seat).copied().unwrap_or(false);
            if let Some(game) = &mut game
                && still
                && step_key(game) == m.key
                && game.must_act(m.seat)
            {
                match game.submit(m.seat, m.action) {
                    Ok(()) => actions.push((m.seat as u8, m.action)),
                    Err(e) => {
                        refused = Some(format!("the bot at seat {} could not move: {e}", m.seat));
                    }
                }
            }
            let slot = if m.stand_in { &mut self.stand_ins[m.seat] } else { &mut self.bots[m.seat] };
            *slot = Some(m.bot);
        }
        if let Some(e) = refused
            && actions.is_empty()
        {
            return Err(ApiError::Illegal(e));
        }
        let ends = !actions.is_empty() && game.as_ref().is_some_and(Game::is_over);
        Ok(self.finish_plan(actions, first_index, ends))
    }

    /// Whether a bot must act now.
    pub fn bots_to_move(&self) -> bool {
        !self.expired
            && self.started()
            && self.planning().is_ok_and(|l| l.game.to_act().iter().any(|&s| self.bot_plays(s)))
    }

    /// Marks that a task moves this table's bots; false if one already does.
    pub fn start_driving(&mut self) -> bool {
        !std::mem::replace(&mut self.driving, true)
    }

    /// Marks that no task moves this table's bots any more.
    pub fn stop_driving(&mut self) {
        self.driving = false;
    }

    /// Marks the table broken: every change is refused with `reason`.
    pub fn break_with(&mut self, reason: String) {
        self.live = Err(reason);
        self.ahead = None;
        self.pending = 0;
        self.epoch += 1;
    }

    /// With a turn timer, the whole seconds `seat` has left now, while the game waits for it and
    /// no bot plays it; `None` otherwise.
    pub fn timer_left(&self, seat: usize) -> Option<u32> {
        let (secs, game) = (self.turn_timer?, self.game()?);
        if self.expired || !self.started() || game.is_over() || !game.must_act(seat) || self.bot_plays(seat) {
            return None;
        }
        let spent = self.since.get(seat)?.elapsed().as_secs();
        Some(u64::from(secs).saturating_sub(spent) as u32)
    }

    /// With a turn timer, the milliseconds left now on the current step's clock as `you` sees
    /// it: `you`'s own while the game waits for `you`, else the longest clock of the people it
    /// waits for (the step resolves by then at the latest). `None` without a timer, before the
    /// start, once the game is over, or when the game waits for no person's clock.
    pub fn remaining_ms(&self, you: Option<usize>) -> Option<u64> {
        let (secs, game) = (self.turn_timer?, self.game()?);
        if self.expired || !self.started() || game.is_over() {
            return None;
        }
        let limit = Duration::from_secs(u64::from(secs));
        let left = |s: usize| {
            let spent = self.since.get(s)?.elapsed();
            Some(limit.saturating_sub(spent).as_millis() as u64)
        };
        if let Some(s) = you
            && game.must_act(s)
        {
            return if self.bot_plays(s) { None } else { left(s) };
        }
        game.to_act().iter().copied().filter(|&s| !self.bot_plays(s)).filter_map(left).max()
    }

    /// The seats of people whose turn timer ran out at `now`: they become away (a stand-in bot
    /// plays their moves). Returns them.
    pub fn time_out(&mut self, now: Instant) -> Vec<usize> {
        let (Some(secs), Some(game)) = (self.turn_timer, self.game()) else {
            return Vec::new();
        };
        if self.expired || !self.started() {
            return Vec::new();
        }
        let limit = Duration::from_secs(u64::from(secs));
        let due: Vec<usize> = game
            .to_act()
            .iter()
            .copied()
            .filter(|&s| {
                !self.bot_plays(s) && self.since.get(s).is_some_and(|t| now.duration_since(*t) >= limit)
            })
            .collect();
        for &s in &due {
            self.away[s] = true;
        }
        due
    }

    /// The player of `seat` is back: a seat played by a stand-in bot is theirs again, its clock
    /// restarted. Returns whether it was away. A seat that was not away keeps its clock: a
    /// reloaded page (a new WebSocket's `auth`) or a refused action does not give it more time.
    pub fn reclaim(&mut self, seat: u8) -> bool {
        let seat = seat as usize;
        let was_away = self.away.get_mut(seat).is_some_and(|a| std::mem::replace(a, false));
        if was_away && let Some(t) = self.since.get_mut(seat) {
            *t = Instant::now();
        }
        was_away
    }

    /// Since when the game is over (in this process), if it is.
    pub fn over_since(&self) -> Option<Instant> {
        self.over_since
    }

    /// The creation time, Unix seconds.
    pub fn created(&self) -> i64 {
        self.created
    }

    /// The address (its [`crate::limits::address_key`]) the table was created from through the
    /// API, if known (a table loaded from the store has none).
    pub fn creator(&self) -> Option<std::net::IpAddr> {
        self.creator
    }

    /// Notes the address the table was created from.
    pub fn set_creator(&mut self, key: std::net::IpAddr) {
        self.creator = Some(key);
    }

    /// Whether the table waits for players with no person in it: no seat taken by a person and
    /// none held for a rematch's player (bots do not count). Such a table expires soon
    /// ([`crate::server::ServerConfig::empty_expiry`]) and is the first to make room when the
    /// server has its most open tables.
    pub fn is_empty_waiting(&self) -> bool {
        self.status() == "waiting"
            && self.seats.iter().all(|s| s.token_hash.is_none() && !(s.held_for.is_some() && self.holding()))
    }

    /// Marks a waiting table expired (after the store deleted it).
    pub fn expire(&mut self) {
        self.expired = true;
    }

    /// The table this is a rematch of.
    pub fn rematch_of(&self) -> Option<&str> {
        self.rematch_of.as_deref()
    }

    /// Forgets the rematch `id` (it expired unfilled).
    pub fn clear_rematch(&mut self, id: &str) {
        if self.rematch.as_deref() == Some(id) {
            self.rematch = None;
        }
    }

    /// Checks that the holder of `token_hash` can leave `seat`: a person's seat of a table not
    /// yet started.
    pub fn check_leave(&self, seat: u8, token_hash: &str) -> Result<(), ApiError> {
        self.live()?;
        if self.expired {
            return Err(ApiError::Conflict("this table expired".into()));
        }
        let mine = self.seats.get(seat as usize).is_some_and(|s| s.token_hash.as_deref() == Some(token_hash));
        if !mine {
            return Err(ApiError::Forbidden(format!("this token does not hold seat {seat}")));
        }
        if self.started() {
            return Err(ApiError::Conflict(
                "the game has started: a seat can be left only while the table waits for players".into(),
            ));
        }
        Ok(())
    }

    /// Frees a seat (after the store freed it).
    pub fn seat_left(&mut self, seat: u8) {
        if let Some(s) = self.seats.get_mut(seat as usize) {
            s.name = None;
            s.token_hash = None;
        }
    }

    fn finish_plan(&self, actions: Vec<(u8, Action)>, first_index: usize, ends_game: bool) -> Plan {
        let catalog = self.setup.catalog();
        let stored = actions
            .iter()
            .map(|(s, a)| {
                let json = serde_json::to_string(&WireAction::from_action(catalog, a))
                    .unwrap_or_else(|_| String::from("{}"));
                (*s, json)
            })
            .collect();
        Plan { actions, retract: None, stored, first_index, ends_game }
    }

    /// Plans taking back `seat`'s last choice of the current step: refused once the step
    /// resolved. Nothing changes.
    pub fn plan_retract(&mut self, seat: u8) -> Result<Plan, ApiError> {
        let live = self.planning()?;
        let mut game = live.game.clone();
        game.retract(seat as usize)
            .map_err(|e| ApiError::Illegal(format!("cannot take the choice back: {e}")))?;
        Ok(Plan {
            actions: Vec::new(),
            retract: Some(seat),
            stored: vec![(seat, RETRACT_JSON.to_string())],
            first_index: live.stored,
            ends_game: false,
        })
    }

    /// Checks that a person can take `seat`; a seat of a rematch held for a previous player
    /// needs that player's token of the previous game (its hash: `token_hash`) while held.
    pub fn check_free(&self, seat: usize, token_hash: Option<&str>) -> Result<(), ApiError> {
        self.live()?;
        if self.expired {
            return Err(ApiError::Conflict("this table expired: nobody filled it in time".into()));
        }
        let Some(s) = self.seats.get(seat) else {
            return Err(ApiError::NotFound(format!(
                "there is no seat {seat} at this {}-player table",
                self.seats.len()
            )));
        };
        if s.bot.is_some() {
            return Err(ApiError::Conflict(format!("seat {seat} is a bot's")));
        }
        if s.token_hash.is_some() {
            return Err(ApiError::Conflict(format!("seat {seat} is already taken")));
        }
        if let Some(held) = &s.held_for
            && self.holding()
            && token_hash != Some(held.as_str())
        {
            return Err(ApiError::Conflict(format!(
                "seat {seat} is held for its player of the previous game until {} (Unix time): \
                 they take it with their token of that game (Authorization: Bearer …)",
                self.hold_until.unwrap_or(0)
            )));
        }
        Ok(())
    }

    /// Plans taking `seat` (see [`Table::check_free`]). Nothing changes; when it is the last
    /// free seat the game starts, and the bots move afterwards.
    pub fn plan_seat(&mut self, seat: usize, token_hash: Option<&str>) -> Result<Plan, ApiError> {
        self.check_free(seat, token_hash)?;
        Ok(Plan { first_index: self.planning()?.stored, ..Plan::default() })
    }

    /// Gives a seat to a person (after the store took it); when the table is full, every seat's
    /// clock starts.
    pub fn seat_taken(&mut self, seat: usize, name: String, token_hash: String) {
        if let Some(s) = self.seats.get_mut(seat) {
            s.name = Some(name);
            s.token_hash = Some(token_hash);
            s.held_for = None;
        }
        if self.started() {
            self.since.fill(Instant::now());
        }
    }

    /// Applies planned actions (after the store appended them) to the durable state, not through
    /// the writer's queue: the state ahead, if kept, is dropped when the plan changes the game.
    pub fn apply(&mut self, plan: &Plan) {
        if plan.retract.is_some() || !plan.actions.is_empty() {
            self.ahead = None;
        }
        self.apply_durable(plan);
    }

    /// Applies a stored plan to the durable state. It was checked on the same game, so it
    /// applies; should it not, the table is marked broken.
    fn apply_durable(&mut self, plan: &Plan) {
        let step = self.step();
        if let Ok(live) = &mut self.live {
            if let Err(e) = apply_to(live, plan) {
                self.break_with(e);
                return;
            }
            self.after_apply(step);
        }
    }

    /// After the durable state changed from `step`: the seats' clocks restart on a new step,
    /// and the end of the game is noted.
    fn after_apply(&mut self, step: u64) {
        if let Ok(live) = &self.live {
            if live.step != step {
                self.since.fill(Instant::now());
            }
            if live.game.is_over() && self.over_since.is_none() {
                self.over_since = Some(Instant::now());
            }
        }
    }
}

/// Applies a plan to a state: its retraction, then its actions.
fn apply_to(live: &mut Live, plan: &Plan) -> Result<(), String> {
    if let Some(seat) = plan.retract {
        live.retract(seat).map_err(|e| format!("a planned retraction failed to apply: {e}"))?;
    }
    for &(seat, action) in &plan.actions {
        live.apply(seat, action).map_err(|e| format!("a planned action failed to apply: {e}"))?;
    }
    Ok(())
}

/// The final score sheet with ranks (by total, then coins; in teams, the team's rank), one line
/// per city; the Free City of the 2-player variant is not ranked.
pub fn score_lines(game: &Game) -> Vec<ScoreLine> {
    let scores = game.scores();
    let players = game.players().min(scores.len());
    let coins: Vec<u16> = game.cities().iter().take(scores.len()).map(|c| c.coins).collect();
    let keys: Vec<(i32, u16)> = scores.iter().zip(&coins).take(players).map(|(s, &c)| (s.total, c)).collect();
    // The team variant: each seat has its team's rank (wonders_core::teams).
    let ranks = if game.teams() { wonders_core::teams::ranks(&keys) } else { ranks(&keys) };
    scores
        .into_iter()
        .zip(coins)
        .enumerate()
        .map(|(i, (score, coins))| ScoreLine { score, coins, rank: ranks.get(i).copied() })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Changes queued ahead of the durable state stay invisible until the writer commits them,
    /// then become durable in order: the table ends exactly where the same actions played
    /// straight on a game end, and each seat's state shows that game's view of the seat (its view
    /// is built without the whole history, which a state's view never carries).
    #[test]
    fn queued_changes_become_durable_in_order_and_states_show_the_seats_views() {
        let req: crate::msg::CreateTable = serde_json::from_value(serde_json::json!({"players": 3})).unwrap();
        let (mut table, _) = Table::create("t".into(), 0, 7, &req).unwrap();
        for s in 0..3 {
            table.seat_taken(s, format!("P{s}"), format!("hash{s}"));
        }
        let catalog = table.setup.catalog();
        let mut reference = Game::new(&table.setup).unwrap();
        // Two whole turns (each seat's first legal action, in seat order), all queued at once.
        let mut queued = Vec::new();
        for _ in 0..2 {
            for seat in 0..3u8 {
                let action = table.planning().unwrap().game.legal_actions(seat as usize)[0];
                let mut plan =
                    table.plan_action(seat, None, &WireAction::from_action(catalog, &action)).unwrap();
                let epoch = table.apply_ahead(&mut plan).unwrap();
                reference.submit(seat as usize, action).unwrap();
                queued.push((plan, epoch));
            }
        }
        // Planned against the state ahead, shown from the durable one: nothing stored yet.
        assert_eq!((table.turn_id_ahead(0), table.turn_id(Some(0))), (2, 0));
        assert_eq!(table.step(), 0);
        assert_eq!(table.state(Some(1)).turn_id, 0);
        for (plan, epoch) in &queued {
            table.commit(plan, *epoch);
        }
        // Nothing waits: the state ahead is kept, the durable game's twin.
        assert!(*table.ahead.as_ref().unwrap().game == reference);
        // Two turns resolved: two steps; Age 1, turn 3.
        assert_eq!(table.step(), 2);
        let game = table.game().unwrap();
        assert_eq!((game.age(), game.turn()), (1, 3));
        assert_eq!((reference.age(), reference.turn()), (1, 3));
        for seat in 0..3u8 {
            let state = table.state(Some(seat));
            assert_eq!(state.turn_id, 2);
            let view = reference.view(seat as usize);
            assert_eq!(state.view, Some(SeatView::own(WireView::from_view(catalog, &view))));
            let history: Vec<WithJson<WireLogEntry>> =
                view.history.iter().map(|e| WithJson::new(WireLogEntry::from_entry(catalog, e))).collect();
            assert_eq!(state.history, history);
        }
    }

    /// A state's reasons agree with its legal actions at every step of whole games: while a seat
    /// plays a hand, a card's reason is `null` exactly when a legal action builds it (Olympia's
    /// free build and chains included), and the stage's exactly when a legal action builds it;
    /// in the base games every other card and stage has a purchase reason (never the fallback),
    /// and in the 2-player variant the card the holder chose for its own city says so while it
    /// chooses for the Free City.
    /// Seats build a stage whenever they can, so Olympia's free build comes up.
    #[test]
    fn reasons_agree_with_the_legal_actions_through_whole_games() {
        let setups = [
            serde_json::json!({"players": 2, "wonders": "A"}),
            serde_json::json!({"players": 3, "wonders": "A"}),
            serde_json::json!({"players": 5, "wonders": "B"}),
            serde_json::json!({"players": 7, "wonders": "A"}),
            serde_json::json!({"players": 4, "edition": "2e", "wonders": "Day"}),
            serde_json::json!({"players": 4, "edition": "2e", "wonders": "Night"}),
            serde_json::json!({"players": 4, "expansions": ["edifice"]}),
            serde_json::json!({"players": 4, "expansions": ["armada"]}),
        ];
        let (mut free_builds, mut explained, mut own_chosen) = (0, 0, 0);
        for (i, req) in setups.iter().enumerate() {
            let base = req.get("expansions").is_none();
            for seed in 0..6u64 {
                let req: crate::msg::CreateTable = serde_json::from_value(req.clone()).unwrap();
                let (mut table, _) = Table::create("t".into(), 0, seed * 31 + i as u64, &req).unwrap();
                let n = req.players as usize;
                for s in 0..n {
                    table.seat_taken(s, format!("P{s}"), format!("hash{s}"));
                }
                let mut pick = seed;
                while !table.is_over() {
                    let game = table.game().unwrap();
                    let seat = (0..n).find(|&s| game.must_act(s)).unwrap();
                    let legal = game.legal_actions(seat);
                    let state = table.state(Some(seat as u8));
                    // A hand is played (the server's condition): a turn's choice, the Free City's
                    // included (which discards only when nothing else is legal), or Babylon's
                    // last card.
                    let hand_play = matches!(game.phase(), Phase::Choose | Phase::PlayLastCard { .. });
                    if hand_play {
                        let hand = game.hand(seat);
                        assert_eq!(state.reasons.len(), hand.len());
                        for (&card, reason) in hand.iter().zip(&state.reasons) {
                            let builds = legal
                                .iter()
                                .any(|a| matches!(a, Action::Build { card: c, .. } if *c == card));
                            assert_eq!(reason.is_none(), builds, "{reason:?}");
                            let free = legal.iter().any(|a| {
                                matches!(a, Action::Build { card: c, pay, .. } if *c == card && pay.free.is_some())
                            });
                            free_builds += usize::from(free);
                            if let Some(r) = reason {
                                assert!(!base || r != NOT_THIS_TURN, "card {card:?} has no purchase reason");
                                own_chosen += usize::from(r == OWN_CHOICE);
                                explained += 1;
                            }
                        }
                        let stage = legal.iter().any(|a| matches!(a, Action::Wonder { .. }));
                        assert_eq!(state.stage_reason.is_none(), stage, "{:?}", state.stage_reason);
                        assert!(!base || state.stage_reason.as_deref() != Some(NOT_THIS_TURN));
                    } else {
                        assert!(state.reasons.is_empty() && state.stage_reason.is_none());
                    }
                    // A stage when the seat can, else a build, else anything (by a small LCG).
                    pick = pick.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let action = legal
                        .iter()
                        .find(|a| matches!(a, Action::Wonder { .. }))
                        .or_else(|| legal.iter().find(|a| matches!(a, Action::Build { .. })))
                        .copied()
                        .unwrap_or(legal[(pick >> 33) as usize % legal.len()]);
                    let wire = WireAction::from_action(table.setup.catalog(), &action);
                    let plan = table.plan_action(seat as u8, None, &wire).unwrap();
                    table.apply(&plan);
                }
            }
        }
        // Free builds and purchase reasons both came up many times.
        assert!(free_builds >= 10 && explained >= 500, "{free_builds} free, {explained} explained");
        // In the 2-player variant, the holder's own card of the turn while it chooses for the
        // Free City.
        assert!(own_chosen >= 6, "{own_chosen}");
    }

    /// `Table::prompts` (which WebSocket states go at once): every seat's while the table waits
    /// for players and once the game is over, a spectator's always, a seat's while it must act
    /// (the state of a step it must act at), not a seat's that has chosen and waits for the
    /// others, nor one's that does not act at a one-seat step; its `legal` is empty exactly then.
    #[test]
    fn a_state_is_held_only_for_a_seat_that_has_chosen_during_the_game() {
        let req: crate::msg::CreateTable = serde_json::from_value(serde_json::json!({"players": 3})).unwrap();
        let (mut table, _) = Table::create("t".into(), 0, 7, &req).unwrap();
        let everyone = [None, Some(0), Some(1), Some(2)];
        for s in 0..3 {
            assert!(everyone.iter().all(|&you| table.prompts(you)), "waiting for players");
            table.seat_taken(s, format!("P{s}"), format!("hash{s}"));
        }
        let catalog = table.setup.catalog();
        let mut steps = 0;
        while !table.is_over() {
            // A new step: the seats that act at it (every seat, or one at a one-seat step).
            assert!(table.prompts(None));
            let acting = (0..3u8).filter(|&s| table.prompts(Some(s))).count();
            assert!(acting > 0, "step {steps}: a seat acts");
            for s in 0..3u8 {
                assert_eq!(table.prompts(Some(s)), table.game().unwrap().must_act(s as usize));
            }
            for seat in 0..3u8 {
                if !table.game().unwrap().must_act(seat as usize) {
                    continue;
                }
                let action = table.game().unwrap().legal_actions(seat as usize)[0];
                let mut plan =
                    table.plan_action(seat, None, &WireAction::from_action(catalog, &action)).unwrap();
                let epoch = table.apply_ahead(&mut plan).unwrap();
                table.commit(&plan, epoch);
                if table.step() > steps {
                    break;
                }
                assert!(table.prompts(None), "a spectator's state goes at once");
                for s in 0..3u8 {
                    let must = table.game().unwrap().must_act(s as usize);
                    assert_eq!(table.prompts(Some(s)), must, "seat {s} after seat {seat}'s choice");
                    assert_eq!(table.state(Some(s)).legal.is_empty(), !must);
                }
                assert!(!table.prompts(Some(seat)), "seat {seat} has chosen");
            }
            steps = table.step();
        }
        assert!(everyone.iter().all(|&you| table.prompts(you)), "the game is over");
    }

    /// `Table::info_is` (how a state decides to reuse its table part's JSON) agrees with
    /// comparing `Table::info` built afresh: it holds for the table's own info at every stage
    /// (waiting, seated, each step of a whole game, over, a rematch noted, a seat away, broken)
    /// and fails when any one field of it differs.
    #[test]
    fn info_is_compares_every_field_of_the_table_info() {
        fn check(table: &Table, what: &str) {
            let info = table.info();
            assert!(table.info_is(&info), "{what}: its own info");
            let mut changed: Vec<TableInfo> = Vec::new();
            let mut one = |f: &dyn Fn(&mut TableInfo)| {
                let mut i = info.clone();
                f(&mut i);
                changed.push(i);
            };
            one(&|i| i.id.push('x'));
            one(&|i| i.created += 1);
            one(&|i| i.edition = "2e".into());
            one(&|i| i.players += 1);
            one(&|i| i.wonders.push('x'));
            one(&|i| i.status = "expired".into());
            one(&|i| i.age += 1);
            one(&|i| i.turn += 1);
            one(&|i| i.rematch = Some(i.rematch.clone().unwrap_or_default() + "x"));
            one(&|i| i.rematch_of = Some("x".into()));
            one(&|i| i.seed = Some(i.seed.map_or(0, |s| s ^ 1)));
            one(&|i| i.error = Some(i.error.clone().unwrap_or_default() + "x"));
            one(&|i| i.turn_timer_secs = Some(i.turn_timer_secs.map_or(0, |t| t + 1)));
            one(&|i| i.hold_until = Some(i.hold_until.map_or(0, |t| t + 1)));
            one(&|i| i.expansions.push("edifice".into()));
            one(&|i| i.teams = !i.teams);
            one(&|i| {
                i.seats.pop();
            });
            one(&|i| i.seats[1].seat = 0);
            one(&|i| i.seats[1].name = Some(i.seats[1].name.clone().unwrap_or_default() + "x"));
            one(&|i| i.seats[1].bot = Some("random".into()));
            one(&|i| i.seats[1].taken = !i.seats[1].taken);
            one(&|i| i.seats[1].held = !i.seats[1].held);
            one(&|i| i.seats[1].away = !i.seats[1].away);
            for (k, other) in changed.iter().enumerate() {
                assert_ne!(*other, info, "{what}: change {k} changes nothing");
                assert!(!table.info_is(other), "{what}: change {k} not noticed: {other:?}");
            }
        }
        let req: crate::msg::CreateTable =
            serde_json::from_value(serde_json::json!({"players": 3, "turn_timer_secs": 60})).unwrap();
        let (mut table, _) = Table::create("t".into(), 5, 7, &req).unwrap();
        check(&table, "waiting");
        table.seat_taken(1, "Bob".into(), "hash1".into());
        check(&table, "one seat taken");
        table.seat_taken(0, "Ann".into(), "hash0".into());
        table.seat_taken(2, "Cid".into(), "hash2".into());
        let catalog = table.setup.catalog();
        let mut steps = 0;
        while !table.is_over() {
            check(&table, &format!("step {steps}"));
            let to_act: Vec<usize> = table.game().unwrap().to_act().to_vec();
            for seat in to_act {
                let action = table.planning().unwrap().game.legal_actions(seat)[0];
                let mut plan =
                    table.plan_action(seat as u8, None, &WireAction::from_action(catalog, &action)).unwrap();
                let epoch = table.apply_ahead(&mut plan).unwrap();
                table.commit(&plan, epoch);
            }
            steps += 1;
        }
        check(&table, "over");
        table.set_rematch("r".into());
        check(&table, "a rematch noted");
        table.away[1] = true;
        check(&table, "a seat away");
        table.break_with("broken on purpose".into());
        check(&table, "broken");
    }
}

/// The queue of changes ahead of the durable state against the way it was kept before `Ahead`
/// (a whole `Live` copied when the first change is queued, with every queued change applied to
/// it, and made the durable state when the last one is stored).
#[cfg(test)]
mod ahead_tests {
    use super::*;
    use std::collections::VecDeque;

    /// Every seat's view of a game (history included), its seats to act and their legal actions:
    /// what the server shows or checks of it.
    fn fingerprint(game: &Game) -> (Vec<WireView>, Vec<usize>, Vec<Vec<Action>>) {
        let catalog = game.catalog();
        let seats = 0..game.players();
        (
            seats.clone().map(|s| WireView::from_view(catalog, &game.view(s))).collect(),
            game.to_act().to_vec(),
            seats.map(|s| game.legal_actions(s)).collect(),
        )
    }

    /// The durable state matches `reference` in everything a reader sees, and the state planned
    /// against matches `ahead` (or `reference` when nothing is queued).
    fn check(table: &Table, reference: &Live, ahead: Option<&Live>, what: &str) {
        let live = table.live.as_ref().unwrap_or_else(|e| panic!("{what}: the table broke: {e}"));
        assert_eq!(fingerprint(&live.game), fingerprint(&reference.game), "{what}: durable game");
        assert_eq!(live.step, reference.step, "{what}: step");
        assert_eq!(live.history, reference.history, "{what}: history");
        assert_eq!(live.actions, reference.actions, "{what}: record");
        assert_eq!(live.acted, reference.acted, "{what}: turn ids");
        assert_eq!(live.stored, reference.stored, "{what}: stored log length");
        assert_eq!(live.age_ends, reference.age_ends, "{what}: Age ends");
        assert_eq!(live.summaries(), reference.summaries(), "{what}: summaries");
        // The shared JSON every seat's state carries is byte for byte the values' own (the
        // summaries' worked out afresh from the cities: never a stale one).
        let (summaries, age_ends) = (live.summaries_json(), &live.age_ends_json);
        assert_eq!(summaries.json(), serde_json::to_string(&live.summaries()).unwrap(), "{what}");
        assert_eq!(summaries.json(), reference.summaries_json().json(), "{what}: summaries' JSON");
        assert_eq!(age_ends.json(), serde_json::to_string(&live.age_ends).unwrap(), "{what}");
        let expected = ahead.unwrap_or(reference);
        let plan = table.planning().unwrap();
        assert_eq!(fingerprint(plan.game), fingerprint(&expected.game), "{what}: game ahead");
        assert_eq!(plan.acted, expected.acted.as_slice(), "{what}: turn ids ahead");
        assert_eq!(plan.stored, expected.stored, "{what}: stored log length ahead");
        // The state ahead is kept when nothing waits (the durable game's twin, until the game is
        // over): the very game the changes make, compared whole.
        assert!(table.pending == 0 || table.ahead.is_some(), "{what}: a state ahead while changes wait");
        if table.pending == 0 && live.game.is_over() {
            assert!(table.ahead.is_none(), "{what}: the state ahead is dropped once the game is over");
        }
        if let Some(a) = &table.ahead {
            assert!(*a.game == expected.game, "{what}: the game ahead, whole");
            assert_eq!((&a.acted, a.stored), (&expected.acted, expected.stored), "{what}: ahead");
        }
    }

    /// Every seat's state, and a spectator's, is byte for byte the JSON of the state whose view
    /// is built from the whole `Game::view` (history and seen hands cleared, every city
    /// converted in it): the view built without the history, with the cities serialised once
    /// per change and shared by the seats, is the same (and never a stale one). So is the table
    /// part, whose JSON a state reuses from the one before while the table is unchanged: it is
    /// byte for byte `Table::info` serialised afresh.
    fn states_show_the_views(table: &Table, what: &str, seats: &[Option<u8>]) {
        let Ok(live) = &table.live else { return };
        let (game, catalog) = (&live.game, live.game.catalog());
        for &you in seats {
            let state = table.state(you);
            let mut v = game.view(you.unwrap_or(0) as usize);
            v.history.clear();
            v.seen_hands.clear();
            let w = WireView::from_view(catalog, &v);
            let cities = serde_json::to_value(&w.cities).unwrap();
            let view = if you.is_some() { SeatView::own(w) } else { SeatView::public(w) };
            let legal: Vec<WireAction> = match you {
                Some(seat) if game.must_act(seat as usize) => game
                    .legal_actions(seat as usize)
                    .iter()
                    .map(|a| WireAction::from_action(catalog, a))
                    .collect(),
                _ => Vec::new(),
            };
            assert_eq!(state.table.json(), serde_json::to_string(&table.info()).unwrap(), "{what}: table");
            assert_eq!(state.legal, legal, "{what}: legal of {you:?}");
            let expected = StateMsg { view: Some(view), table: WithJson::new(table.info()), ..state.clone() };
            let json = serde_json::to_string(&state).unwrap();
            assert_eq!(json, serde_json::to_string(&expected).unwrap(), "{what}: the state of {you:?}");
            let parsed: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(parsed["view"]["cities"], cities, "{what}: the cities of {you:?}");
            crate::json::tests::check_state(&state);
        }
    }

    /// The WebSocket's state message, written by hand (`json::write_state_msg`), is byte for
    /// byte what `serde_json` writes, for every seat's and a spectator's state after every change
    /// of whole games of every kind (both editions, 2 to 7 players, the teams variant, boards
    /// chosen, Edifice, Armada, both together), with the whole log and with part of it; so are the
    /// cities, the summaries and the last step's log every state shares (`json::cities`,
    /// `json::summaries`, the log joined from the history's entries).
    #[test]
    fn states_are_written_by_hand_as_serde_writes_them_in_games_of_every_kind() {
        let kinds = [
            serde_json::json!({"players": 2}),
            serde_json::json!({"players": 4}),
            serde_json::json!({"players": 7, "edition": "2e"}),
            serde_json::json!({"players": 4, "teams": true}),
            serde_json::json!({"players": 3, "edition": "2e", "wonders": "choose"}),
            serde_json::json!({"players": 4, "expansions": ["edifice"]}),
            serde_json::json!({"players": 5, "expansions": ["armada"]}),
            serde_json::json!({"players": 4, "expansions": ["armada", "edifice"]}),
        ];
        for (k, req) in kinds.into_iter().enumerate() {
            let what = req.to_string();
            let req: crate::msg::CreateTable = serde_json::from_value(req).unwrap();
            let players = req.players;
            let (mut table, _) = Table::create("t".into(), 0, 40 + k as u64, &req).unwrap();
            for s in 0..players as usize {
                table.seat_taken(s, format!("P\"{s}\"\\"), format!("hash{s}"));
            }
            let catalog = table.setup.catalog();
            for round in 0..5_000 {
                if let Ok(live) = &table.live {
                    let catalog = live.game.catalog();
                    let cities: Vec<WireCity> =
                        live.game.cities().iter().map(|c| WireCity::from_city(catalog, c)).collect();
                    assert_eq!(live.cities_json().json(), serde_json::to_string(&cities).unwrap(), "{what}");
                    let summaries = serde_json::to_string(&live.summaries()).unwrap();
                    assert_eq!(live.summaries_json().json(), summaries, "{what}");
                    let log: Vec<WireLogEntry> =
                        live.game.last_log().iter().map(|e| WireLogEntry::from_entry(catalog, e)).collect();
                    assert_eq!(live.log_json().json(), serde_json::to_string(&log).unwrap(), "{what}");
                }
                for you in (0..players).map(Some).chain([None]) {
                    crate::json::tests::check_state(&table.state(you));
                    crate::json::tests::check_state(&table.state_from(you, round / 2));
                }
                let game = table.planning().unwrap().game;
                if game.is_over() {
                    break;
                }
                let seat = game.to_act()[round % game.to_act().len()];
                let action = game.legal_actions(seat)[(round * 7) % game.legal_actions(seat).len()];
                let wire = WireAction::from_action(catalog, &action);
                let mut plan = table.plan_action(seat as u8, None, &wire).unwrap();
                let epoch = table.apply_ahead(&mut plan).unwrap();
                table.commit(&plan, epoch);
            }
            assert!(table.game().unwrap().is_over(), "{what}: the game reached its end");
        }
    }

    /// Edifice and Armada games (Edifice's projects are worked out from the view's cities) to
    /// their end, each seat acting in turn and the writer committing every change at once: after
    /// each change every state shows its seat's view ([`states_show_the_views`]).
    #[test]
    fn expansion_games_states_show_the_views_after_every_change() {
        for (players, expansion, seed) in [(3u8, "edifice", 21u64), (3, "armada", 22)] {
            let req: crate::msg::CreateTable =
                serde_json::from_value(serde_json::json!({"players": players, "expansions": [expansion]}))
                    .unwrap();
            let (mut table, _) = Table::create("t".into(), 0, seed, &req).unwrap();
            for s in 0..players as usize {
                table.seat_taken(s, format!("P{s}"), format!("hash{s}"));
            }
            let catalog = table.setup.catalog();
            let mut changes = 0;
            for round in 0..5_000 {
                let game = table.planning().unwrap().game;
                if game.is_over() {
                    break;
                }
                let seat = game.to_act()[round % game.to_act().len()];
                let action = game.legal_actions(seat)[round % game.legal_actions(seat).len()];
                let wire = WireAction::from_action(catalog, &action);
                let mut plan = table.plan_action(seat as u8, None, &wire).unwrap();
                let epoch = table.apply_ahead(&mut plan).unwrap();
                table.commit(&plan, epoch);
                let what = format!("{expansion}, {players} players, round {round}");
                let seats: Vec<Option<u8>> = (0..players).map(Some).chain([None]).collect();
                states_show_the_views(&table, &what, &seats);
                changes += 1;
            }
            assert!(table.game().unwrap().is_over(), "{expansion}: the game reached its end");
            // Every seat's 18 turns at least (Armada's steps add more).
            assert!(changes >= players as usize * 18, "{expansion}: {changes} changes");
        }
    }

    fn table(players: u8, seed: u64) -> Table {
        let req: crate::msg::CreateTable =
            serde_json::from_value(serde_json::json!({"players": players})).unwrap();
        let (mut table, _) = Table::create("t".into(), 0, seed, &req).unwrap();
        for s in 0..players as usize {
            table.seat_taken(s, format!("P{s}"), format!("hash{s}"));
        }
        table
    }

    /// An action is checked on the state ahead without copying it and played on it in place
    /// only when queued: a refused action, or a plan never queued, leaves the durable game and
    /// the one ahead exactly as they were (compared whole); a queued one changes the one ahead
    /// only, not what any state shows, until its commit; once every change is durable the state
    /// ahead is kept as the durable game's twin, and the game is copied once per table.
    #[test]
    fn an_action_is_played_ahead_in_place_only_when_queued_and_shown_only_once_committed() {
        let mut table = table(4, 31);
        let catalog = table.setup.catalog();
        let wire = |table: &Table, seat: usize, i: usize| {
            let legal = table.planning().unwrap().game.legal_actions(seat);
            WireAction::from_action(catalog, &legal[i % legal.len()])
        };
        let snapshot = |table: &Table| {
            let live = table.live.as_ref().unwrap();
            let ahead = table.ahead.as_ref().map(|a| ((*a.game).clone(), a.acted.clone(), a.stored));
            (live.game.clone(), live.acted.clone(), live.stored, ahead, table.pending, table.epoch)
        };
        let json = |table: &Table, seat: u8| serde_json::to_string(&table.state(Some(seat))).unwrap();
        for round in 0..3 {
            // Refused: a stale turn id, a card nobody holds, a seat that already chose, no seat.
            let before = snapshot(&table);
            let shown = json(&table, 1);
            let w = wire(&table, 0, round);
            assert!(matches!(table.plan_action(0, Some(99), &w), Err(ApiError::Stale(_))));
            let bogus: WireAction =
                serde_json::from_value(serde_json::json!({"type": "build", "card": "No Such Card"})).unwrap();
            assert!(matches!(table.plan_action(0, None, &bogus), Err(ApiError::BadRequest(_))));
            assert!(matches!(table.plan_action(9, None, &w), Err(ApiError::Illegal(_))));
            // A legal plan that is never queued.
            table.plan_action(0, None, &w).unwrap();
            assert!(snapshot(&table) == before, "round {round}: nothing changed");
            assert_eq!(json(&table, 1), shown);
            // Queued: played ahead, shown only once committed.
            let mut plan = table.plan_action(0, None, &w).unwrap();
            let epoch = table.apply_ahead(&mut plan).unwrap();
            assert!(!plan.ends_game);
            assert_eq!(json(&table, 1), shown, "round {round}: not shown before its commit");
            assert!(!table.ahead.as_ref().unwrap().game.must_act(0), "round {round}: played ahead");
            assert!(matches!(table.plan_action(0, None, &w), Err(ApiError::Illegal(_))));
            table.commit(&plan, epoch);
            assert_ne!(json(&table, 1), shown, "round {round}: shown once committed");
            // The other seats act and are committed: the turn resolves.
            for seat in 1..4u8 {
                let mut plan = table.plan_action(seat, None, &wire(&table, seat as usize, round)).unwrap();
                let epoch = table.apply_ahead(&mut plan).unwrap();
                table.commit(&plan, epoch);
            }
            let (live, ahead) = (table.live.as_ref().unwrap(), table.ahead.as_ref().unwrap());
            assert_eq!(live.game.turn(), round as u8 + 2);
            assert!(*ahead.game == live.game && ahead.acted == live.acted && ahead.stored == live.stored);
        }
    }

    /// Whole games where every seat's actions, refused actions (stale turn ids, seats that must
    /// not act), retractions and the writer's commits and failures interleave as they may under
    /// load: after each step the durable state is exactly the old full-copy reference with the
    /// committed changes applied, the state ahead is exactly the reference with every queued
    /// change applied, a refused action changes nothing, and every game reaches its end.
    #[test]
    fn interleaved_actions_refusals_retractions_and_commits_match_the_full_copy() {
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: usize| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng % n as u64) as usize
        };
        let (mut refused, mut retracted, mut abandoned, mut deepest) = (0, 0, 0, 0);
        for (players, seed) in [(3u8, 11u64), (4, 12), (7, 13)] {
            let mut table = table(players, seed);
            let catalog = table.setup.catalog();
            let mut reference = table.live.as_ref().unwrap().clone();
            let mut ahead: Option<Live> = None;
            let mut queue: VecDeque<(Plan, u64)> = VecDeque::new();
            for round in 0..20_000 {
                let over = table.planning().unwrap().game.is_over();
                if over && queue.is_empty() {
                    break;
                }
                let what = format!("{players} players, round {round}");
                let roll = if over { 99 } else { next(100) };
                match roll {
                    // A seat to act (ahead) acts: queued.
                    0..=44 => {
                        let game = table.planning().unwrap().game;
                        let to_act = game.to_act();
                        let seat = to_act[next(to_act.len())];
                        let legal = game.legal_actions(seat);
                        let action = legal[next(legal.len())];
                        let turn_id = table.turn_id_ahead(seat as u8);
                        let wire = WireAction::from_action(catalog, &action);
                        let mut plan = table.plan_action(seat as u8, Some(turn_id), &wire).unwrap();
                        let epoch = table.apply_ahead(&mut plan).unwrap();
                        let a = ahead.get_or_insert_with(|| reference.clone());
                        apply_to(a, &plan).unwrap();
                        assert_eq!(plan.ends_game, a.game.is_over(), "{what}: ends_game");
                        queue.push_back((plan, epoch));
                    }
                    // A refused action: sent twice (a stale turn id), or from a seat that has
                    // nothing to do now. Nothing changes.
                    45..=54 => {
                        let before = table.planning().unwrap().game.clone();
                        let game = table.planning().unwrap().game;
                        let seat = next(players as usize);
                        let pending = table.pending;
                        let result = if game.must_act(seat) {
                            let action = game.legal_actions(seat)[0];
                            let stale = table.turn_id_ahead(seat as u8) + 1;
                            let wire = WireAction::from_action(catalog, &action);
                            let r = table.plan_action(seat as u8, Some(stale), &wire);
                            assert!(
                                matches!(r, Err(ApiError::Stale(_))),
                                "{what}: a stale turn id is refused"
                            );
                            r
                        } else {
                            // An action legal for a seat that must act.
                            let action = game.legal_actions(game.to_act()[0])[0];
                            let wire = WireAction::from_action(catalog, &action);
                            table.plan_action(seat as u8, None, &wire)
                        };
                        assert!(result.is_err(), "{what}: seat {seat} may not act now");
                        assert_eq!(table.pending, pending, "{what}: a refusal queues nothing");
                        assert!(
                            *table.planning().unwrap().game == before,
                            "{what}: a refusal changes no game"
                        );
                        refused += 1;
                    }
                    // A legal action planned but not queued (nothing changes), then, now and
                    // then, another seat's action planned and queued on the same state.
                    95..=96 => {
                        let before = table.planning().unwrap().game.clone();
                        let to_act = before.to_act();
                        let seat = to_act[next(to_act.len())];
                        let legal = before.legal_actions(seat);
                        let wire = WireAction::from_action(catalog, &legal[next(legal.len())]);
                        let pending = table.pending;
                        table.plan_action(seat as u8, None, &wire).unwrap();
                        assert_eq!(table.pending, pending, "{what}: a plan alone queues nothing");
                        assert!(*table.planning().unwrap().game == before, "{what}: a plan changes no game");
                        if let Some(&other) = to_act.iter().find(|&&s| s != seat) {
                            let action = before.legal_actions(other)[0];
                            let wire = WireAction::from_action(catalog, &action);
                            let mut plan = table.plan_action(other as u8, None, &wire).unwrap();
                            let epoch = table.apply_ahead(&mut plan).unwrap();
                            let a = ahead.get_or_insert_with(|| reference.clone());
                            apply_to(a, &plan).unwrap();
                            assert_eq!(plan.ends_game, a.game.is_over(), "{what}: ends_game");
                            queue.push_back((plan, epoch));
                        }
                    }
                    // A seat takes its choice back (while other changes wait, often).
                    55..=64 => {
                        let seat = next(players as usize) as u8;
                        if let Ok(mut plan) = table.plan_retract(seat) {
                            let epoch = table.apply_ahead(&mut plan).unwrap();
                            let a = ahead.get_or_insert_with(|| reference.clone());
                            apply_to(a, &plan).unwrap();
                            queue.push_back((plan, epoch));
                            retracted += 1;
                        }
                    }
                    // Storing the oldest queued change failed: every queued change is dropped.
                    65..=66 => {
                        if let Some((_, epoch)) = queue.front() {
                            table.abandon(*epoch);
                            queue.clear();
                            ahead = None;
                            abandoned += 1;
                        }
                    }
                    // The writer stored the oldest queued change: it becomes durable.
                    _ => {
                        if let Some((plan, epoch)) = queue.pop_front() {
                            table.commit(&plan, epoch);
                            // One seat's state (in turn) and a spectator's: the cities they
                            // share are never those of an earlier change.
                            let seat = (round % players as usize) as u8;
                            states_show_the_views(&table, &what, &[Some(seat), None]);
                            apply_to(&mut reference, &plan).unwrap();
                            if queue.is_empty() {
                                ahead = None;
                            }
                        }
                    }
                }
                deepest = deepest.max(queue.len());
                check(&table, &reference, ahead.as_ref(), &what);
            }
            let game = table.game().unwrap();
            assert!(game.is_over(), "{players} players: the game reached its end");
            assert_eq!(table.state(Some(0)).table.status, "over");
        }
        // The scenarios did happen, several times each.
        assert!(
            refused > 20 && retracted > 5 && abandoned > 2 && deepest >= 4,
            "{refused} {retracted} {abandoned} {deepest}"
        );
    }
}
