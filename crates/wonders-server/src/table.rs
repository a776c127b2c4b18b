//! One table: its setup, seats, bots and the game, rebuilt from its stored log.
//!
//! Changes are planned first on a copy of the game (validating the action and letting the bots
//! answer), then stored, then applied: if anything fails before the store commits, nothing
//! changes.

use crate::bots::make_bot;
use crate::msg::{ApiError, ScoreLine, SeatInfo, SeatView, StateMsg, TableInfo};
use crate::store::{StoredSeat, StoredTable};
use crate::summary::{AgeEnd, CitySummary, age_end, card_reason, stage_reason, summaries};
use crate::token::hash_token;
use wonders_bots::Bot;
use wonders_core::score::ranks;
use wonders_core::wire::{RecordedAction, WireAction, WireLogEntry, WireView};
use wonders_core::{Action, Edition, Expansions, Game, LogEntry, Phase, Record, Setup, Side, WonderDeal};

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
    history: Vec<WireLogEntry>,
    last_log: Vec<LogEntry>,
    actions: Vec<RecordedAction>,
    /// Actions made by each seat (a retraction counts as one).
    acted: Vec<u64>,
    /// Entries of the stored log: the actions, and the retractions.
    stored: usize,
    /// The military conflicts of each Age that has ended.
    age_ends: Vec<AgeEnd>,
    /// Every city's summary, computed once per resolved step (cities change only then).
    summaries: Vec<CitySummary>,
}

impl Live {
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
            summaries: summaries(game.catalog(), game.cities()),
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
        self.game.submit(seat as usize, action)?;
        self.stored += 1;
        if self.game.age() != before.0 || (self.game.is_over() && before.2 != Phase::Over) {
            self.age_ends.push(age_end(before.0, &cities_before, self.game.cities()));
        }
        let catalog = self.game.catalog();
        self.actions.push(RecordedAction { seat, action: WireAction::from_action(catalog, &action) });
        if let Some(n) = self.acted.get_mut(seat as usize) {
            *n += 1;
        }
        if step_key(&self.game) != before {
            self.step += 1;
            self.summaries = summaries(self.game.catalog(), self.game.cities());
        }
        let log = self.game.last_log();
        if log != self.last_log.as_slice() {
            self.history.extend(log.iter().map(|e| WireLogEntry::from_entry(catalog, e)));
            self.last_log = log.to_vec();
        }
        Ok(())
    }
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
}

/// A table.
pub struct Table {
    id: String,
    created: i64,
    setup: Setup,
    wonders_label: String,
    seats: Vec<StoredSeat>,
    live: Result<Live, String>,
    bots: Vec<Option<Box<dyn Bot + Send>>>,
    rematch: Option<String>,
    rematch_of: Option<String>,
}

/// How a retraction is stored in a table's log (the other entries are `WireAction`s).
pub const RETRACT_JSON: &str = r#"{"type":"retract"}"#;

/// Display names: 1–32 characters, trimmed, with no control or format characters
/// ([`crate::security::check_name_chars`]).
pub fn check_name(name: &str) -> Result<String, ApiError> {
    let name = name.trim();
    let len = name.chars().count();
    if len == 0 || len > 32 {
        return Err(ApiError::BadRequest(format!("a name has 1 to 32 characters, not {len}")));
    }
    crate::security::check_name_chars(name)?;
    Ok(name.to_string())
}

/// Edifice (issue 8): a table's expansions are stored with its wonder mode, as `random+edifice`,
/// so the store's schema does not change. Splits a stored label into the mode and the expansions.
fn split_label(label: &str) -> Result<(&str, Expansions), ApiError> {
    let mut parts = label.split('+');
    let mode = parts.next().unwrap_or("random");
    let expansions = Expansions::parse(&parts.collect::<Vec<_>>()).map_err(ApiError::BadRequest)?;
    Ok((mode, expansions))
}

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
        if req.players as usize > wonders_core::game::MAX_PLAYERS - 1 {
            return Err(ApiError::BadRequest(format!("{} players: at most 7", req.players)));
        }
        if req.seats.len() > req.players as usize {
            return Err(ApiError::BadRequest(format!(
                "{} seats described for {} players",
                req.seats.len(),
                req.players
            )));
        }
        let setup = Setup { edition, players: req.players, seed, wonders: deal, expansions };
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
                        token_hash: None,
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
            rematch_of: None,
            rematch: None,
            seats,
            actions: Vec::new(),
        };
        Ok((Table::load(stored.clone()), stored))
    }

    /// Rebuilds a table from the store by replaying its log. A log that does not replay leaves
    /// the table broken (it says why), never panics.
    pub fn load(st: StoredTable) -> Table {
        let (setup, live) = match Table::replay(&st) {
            Ok((setup, live)) => (setup, Ok(live)),
            Err(e) => (
                Setup::new(st.players, st.seed),
                Err(format!("table {}: its stored log does not replay: {e}", st.id)),
            ),
        };
        let actions = live.as_ref().map_or(0, |l| l.stored) as u64;
        let bots = st
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let seed = st.seed ^ ((i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)) ^ (actions << 32);
                s.bot.as_deref().and_then(|b| make_bot(b, seed).ok())
            })
            .collect();
        Table {
            id: st.id,
            created: st.created,
            setup,
            wonders_label: st.wonders,
            seats: st.seats,
            live,
            bots,
            rematch: st.rematch,
            rematch_of: st.rematch_of,
        }
    }

    fn replay(st: &StoredTable) -> Result<(Setup, Live), String> {
        let edition = Edition::parse(&st.edition).ok_or_else(|| format!("unknown edition {}", st.edition))?;
        let (mode, expansions) = split_label(&st.wonders).map_err(|e| e.to_string())?;
        let (deal, _) = parse_wonders(mode, edition).map_err(|e| e.to_string())?;
        let setup = Setup { edition, players: st.players, seed: st.seed, wonders: deal, expansions };
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
            Err(_) => "broken",
            Ok(l) if l.game.is_over() => "over",
            Ok(_) if self.started() => "playing",
            Ok(_) => "waiting",
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
                })
                .collect(),
            age,
            turn,
            rematch: self.rematch.clone(),
            rematch_of: self.rematch_of.clone(),
            seed: self.is_over().then_some(self.setup.seed),
            error: self.live.as_ref().err().cloned(),
            expansions: self.setup.expansions.names().into_iter().map(String::from).collect(),
        }
    }

    /// The seat a token belongs to.
    pub fn seat_of_token(&self, token: &str) -> Option<u8> {
        let hash = hash_token(token);
        self.seats.iter().position(|s| s.token_hash.as_deref() == Some(hash.as_str())).map(|i| i as u8)
    }

    /// The state for a seat, or for a spectator (`None`). Built only from `Game::view` of that
    /// seat, or from a view with the hand and the discard pile removed.
    pub fn state(&self, you: Option<u8>) -> StateMsg {
        let mut msg = StateMsg {
            table: self.info(),
            step: self.step(),
            you,
            turn_id: self.turn_id(you),
            view: None,
            legal: Vec::new(),
            waiting: Vec::new(),
            history: Vec::new(),
            history_from: 0,
            scores: None,
            summaries: Vec::new(),
            age_ends: Vec::new(),
            pending: Vec::new(),
            reasons: Vec::new(),
            stage_reason: None,
        };
        let Ok(live) = &self.live else {
            return msg;
        };
        if !self.started() {
            return msg;
        }
        let game = &live.game;
        let catalog = game.catalog();
        msg.view = Some(match you {
            Some(seat) => SeatView::own(WireView::from_view(catalog, &game.view(seat as usize))),
            None => SeatView::public(WireView::from_view(catalog, &game.view(0))),
        });
        if let Some(seat) = you
            && game.must_act(seat as usize)
        {
            msg.legal = game
                .legal_actions(seat as usize)
                .iter()
                .map(|a| WireAction::from_action(catalog, a))
                .collect();
        }
        msg.waiting = game.to_act().iter().map(|&s| s as u8).collect();
        msg.history = live.history.clone();
        msg.summaries = live.summaries.clone();
        msg.age_ends = live.age_ends.clone();
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
                let city = game.acting_city(s);
                let hand = game.hand(s);
                msg.reasons = hand.iter().map(|&c| card_reason(catalog, game.cities(), city, c)).collect();
                msg.stage_reason = stage_reason(catalog, game.cities(), city);
            }
        }
        if game.is_over() {
            msg.scores = Some(score_lines(game));
        }
        msg
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

    /// The stored form of a rematch: same options and seats (bots stay, seats for people are
    /// free again), a new seed.
    pub fn rematch_setup(&self, id: String, created: i64, seed: u64) -> StoredTable {
        StoredTable {
            id,
            created,
            edition: self.setup.edition.code().to_string(),
            players: self.setup.players,
            seed,
            wonders: self.wonders_label.clone(),
            rematch_of: Some(self.id.clone()),
            rematch: None,
            seats: self
                .seats
                .iter()
                .map(|s| StoredSeat {
                    bot: s.bot.clone(),
                    name: s.bot.as_ref().and(s.name.clone()),
                    token_hash: None,
                })
                .collect(),
            actions: Vec::new(),
        }
    }

    /// Notes the rematch's id.
    pub fn set_rematch(&mut self, id: String) {
        self.rematch = Some(id);
    }

    fn live(&self) -> Result<&Live, ApiError> {
        self.live.as_ref().map_err(|e| ApiError::Conflict(e.clone()))
    }

    /// Plans an action of `seat`: checks the step, the names and the legality on a copy of the
    /// game, then lets the bots answer. Nothing changes.
    pub fn plan_action(
        &mut self,
        seat: u8,
        turn_id: Option<u64>,
        action: &WireAction,
    ) -> Result<Plan, ApiError> {
        let live = self.live()?;
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
        let mut game = live.game.clone();
        let first_index = live.stored;
        let action =
            action.to_action_in(&game, seat as usize).map_err(|e| ApiError::BadRequest(e.to_string()))?;
        game.submit(seat as usize, action).map_err(|e| ApiError::Illegal(e.to_string()))?;
        let mut actions = vec![(seat, action)];
        run_bots(&mut game, &mut self.bots, &mut actions)?;
        Ok(self.finish_plan(actions, first_index))
    }

    /// Plans the bots' moves, if any seat of a bot must act (after a restart, or when the last
    /// seat was just taken). Nothing changes.
    pub fn plan_bots(&mut self) -> Result<Plan, ApiError> {
        let live = self.live()?;
        if !self.started() {
            return Ok(Plan::default());
        }
        let mut game = live.game.clone();
        let first_index = live.stored;
        let mut actions = Vec::new();
        run_bots(&mut game, &mut self.bots, &mut actions)?;
        Ok(self.finish_plan(actions, first_index))
    }

    fn finish_plan(&self, actions: Vec<(u8, Action)>, first_index: usize) -> Plan {
        let catalog = self.setup.catalog();
        let stored = actions
            .iter()
            .map(|(s, a)| {
                let json = serde_json::to_string(&WireAction::from_action(catalog, a))
                    .unwrap_or_else(|_| String::from("{}"));
                (*s, json)
            })
            .collect();
        Plan { actions, retract: None, stored, first_index }
    }

    /// Plans taking back `seat`'s last choice of the current step: refused once the step
    /// resolved. Nothing changes.
    pub fn plan_retract(&mut self, seat: u8) -> Result<Plan, ApiError> {
        let live = self.live()?;
        let mut copy = live.clone();
        copy.retract(seat).map_err(|e| ApiError::Illegal(format!("cannot take the choice back: {e}")))?;
        Ok(Plan {
            actions: Vec::new(),
            retract: Some(seat),
            stored: vec![(seat, RETRACT_JSON.to_string())],
            first_index: live.stored,
        })
    }

    /// Checks that a person can take `seat`.
    pub fn check_free(&self, seat: usize) -> Result<(), ApiError> {
        self.live()?;
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
        Ok(())
    }

    /// Plans taking `seat`: when it is the last free seat the game starts and the bots move.
    /// Nothing changes.
    pub fn plan_seat(&mut self, seat: usize) -> Result<Plan, ApiError> {
        self.check_free(seat)?;
        let others_taken = self
            .seats
            .iter()
            .enumerate()
            .all(|(i, s)| i == seat || s.bot.is_some() || s.token_hash.is_some());
        if !others_taken {
            return Ok(Plan { first_index: self.live()?.stored, ..Plan::default() });
        }
        let live = self.live()?;
        let mut game = live.game.clone();
        let first_index = live.stored;
        let mut actions = Vec::new();
        run_bots(&mut game, &mut self.bots, &mut actions)?;
        Ok(self.finish_plan(actions, first_index))
    }

    /// Gives a seat to a person (after the store took it).
    pub fn seat_taken(&mut self, seat: usize, name: String, token_hash: String) {
        if let Some(s) = self.seats.get_mut(seat) {
            s.name = Some(name);
            s.token_hash = Some(token_hash);
        }
    }

    /// Applies planned actions (after the store appended them). They were checked on a copy of
    /// the same game, so they apply; should one not, the table is marked broken.
    pub fn apply(&mut self, plan: &Plan) {
        if let Ok(live) = &mut self.live {
            if let Some(seat) = plan.retract
                && let Err(e) = live.retract(seat)
            {
                self.live = Err(format!("a planned retraction failed to apply: {e}"));
                return;
            }
            for &(seat, action) in &plan.actions {
                if let Err(e) = live.apply(seat, action) {
                    self.live = Err(format!("a planned action failed to apply: {e}"));
                    return;
                }
            }
        }
    }
}

/// Lets the bots move while the game waits for one of them.
fn run_bots(
    game: &mut Game,
    bots: &mut [Option<Box<dyn Bot + Send>>],
    out: &mut Vec<(u8, Action)>,
) -> Result<(), ApiError> {
    let mut legal = Vec::new();
    loop {
        let mut acted = false;
        for seat in game.to_act() {
            let Some(bot) = bots.get_mut(seat).and_then(Option::as_mut) else {
                continue;
            };
            game.legal_actions_into(seat, &mut legal);
            let Some(&first) = legal.first() else {
                continue;
            };
            let chosen = bot.choose(&game.view(seat), &legal);
            let action = if legal.contains(&chosen) { chosen } else { first };
            game.submit(seat, action)
                .map_err(|e| ApiError::Illegal(format!("the bot at seat {seat} could not move: {e}")))?;
            out.push((seat as u8, action));
            acted = true;
        }
        if !acted {
            return Ok(());
        }
    }
}

/// The final score sheet with ranks (by total, then coins), one line per city; the Free City of
/// the 2-player variant is not ranked.
pub fn score_lines(game: &Game) -> Vec<ScoreLine> {
    let scores = game.scores();
    let players = game.players().min(scores.len());
    let coins: Vec<u16> = game.cities().iter().take(scores.len()).map(|c| c.coins).collect();
    let keys: Vec<(i32, u16)> = scores.iter().zip(&coins).take(players).map(|(s, &c)| (s.total, c)).collect();
    let ranks = ranks(&keys);
    scores
        .into_iter()
        .zip(coins)
        .enumerate()
        .map(|(i, (score, coins))| ScoreLine { score, coins, rank: ranks.get(i).copied() })
        .collect()
}
