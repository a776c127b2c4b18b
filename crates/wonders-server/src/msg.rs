//! The JSON messages of the HTTP API and the WebSocket, and the API's errors.
//!
//! Everything a client receives about a game is built from [`wonders_core::Game::view`] of its own
//! seat, or, for a spectator, from a seat's view with the hand and the discard pile removed
//! ([`SeatView::public`]): no message is ever built from another seat's hand or from the decks.

use serde::{Deserialize, Serialize};
use wonders_core::score::Score;
use wonders_core::wire::{WireAction, WireLogEntry, WireView};

/// An API error: a code for programs, a message for people. Nothing changes when one is returned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// The request is malformed or names something unknown (HTTP 400).
    #[error("{0}")]
    BadRequest(String),
    /// The token does not give the right to do this (HTTP 403).
    #[error("{0}")]
    Forbidden(String),
    /// No such table or seat (HTTP 404).
    #[error("{0}")]
    NotFound(String),
    /// The request conflicts with the table's state: a seat already taken, a game not started
    /// or not over (HTTP 409).
    #[error("{0}")]
    Conflict(String),
    /// The action was meant for a step of the game that is over (HTTP 409).
    #[error("{0}")]
    Stale(String),
    /// The game refused the action (HTTP 422).
    #[error("{0}")]
    Illegal(String),
    /// The store failed; nothing was changed (HTTP 500).
    #[error("{0}")]
    Storage(String),
    /// The request body is larger than the server accepts (HTTP 413).
    #[error("{0}")]
    TooLarge(String),
    /// The request's `Host` is not one the server answers to: against DNS rebinding (HTTP 421,
    /// Misdirected Request; see [`crate::Limits::allowed_hosts`]).
    #[error("{0}")]
    HostNotAllowed(String),
    /// The request line and headers are larger than the server accepts (HTTP 431).
    #[error("{0}")]
    HeadersTooLarge(String),
    /// The request body is not `application/json` (HTTP 415).
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// Too many requests of this kind from this address; try again later (HTTP 429).
    #[error("{0}")]
    RateLimited(String),
    /// The server cannot take this now (too many open tables, a request that took too long,
    /// shutting down); try again later (HTTP 503).
    #[error("{0}")]
    Unavailable(String),
}

impl ApiError {
    /// The error's code on the wire.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) => "bad_request",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::NotFound(_) => "not_found",
            ApiError::Conflict(_) => "conflict",
            ApiError::Stale(_) => "stale",
            ApiError::Illegal(_) => "illegal",
            ApiError::Storage(_) => "storage",
            ApiError::TooLarge(_) => "too_large",
            ApiError::HostNotAllowed(_) => "host_not_allowed",
            ApiError::HeadersTooLarge(_) => "headers_too_large",
            ApiError::UnsupportedMediaType(_) => "unsupported_media_type",
            ApiError::RateLimited(_) => "rate_limited",
            ApiError::Unavailable(_) => "unavailable",
        }
    }

    /// The HTTP status code.
    pub fn status(&self) -> u16 {
        match self {
            ApiError::BadRequest(_) => 400,
            ApiError::Forbidden(_) => 403,
            ApiError::NotFound(_) => 404,
            ApiError::Conflict(_) | ApiError::Stale(_) => 409,
            ApiError::Illegal(_) => 422,
            ApiError::Storage(_) => 500,
            ApiError::TooLarge(_) => 413,
            ApiError::HostNotAllowed(_) => 421,
            ApiError::HeadersTooLarge(_) => 431,
            ApiError::UnsupportedMediaType(_) => 415,
            ApiError::RateLimited(_) => 429,
            ApiError::Unavailable(_) => 503,
        }
    }

    /// The JSON body of an HTTP error: `{"error": {"code": …, "message": …}}`.
    pub fn body(&self) -> serde_json::Value {
        serde_json::json!({"error": {"code": self.code(), "message": self.to_string()}})
    }
}

impl From<crate::store::StoreError> for ApiError {
    /// The answer to a request whose storage failed. Every storage failure that becomes an
    /// answer passes here, and is logged with its reason ([`crate::failures::storage_failed`]).
    fn from(e: crate::store::StoreError) -> Self {
        crate::failures::storage_failed("a request's use of the store", None, &e.0);
        ApiError::Storage(e.to_string())
    }
}

/// A seat in a request to create a table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    /// A bot's name (`random`, …) for a bot seat; absent for a seat a person takes.
    #[serde(default)]
    pub bot: Option<String>,
}

/// `POST /api/tables`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateTable {
    /// Number of players.
    pub players: u8,
    /// `1e` (default) or `2e`.
    #[serde(default)]
    pub edition: Option<String>,
    /// `random` (default); a side for every board: `A`/`B` (`Day`/`Night` in the 2nd edition);
    /// or `choose` (2nd edition: random boards, each player chooses its side).
    #[serde(default)]
    pub wonders: Option<String>,
    /// Expansions to play: `["edifice"]`, or none.
    #[serde(default)]
    pub expansions: Vec<String>,
    /// The team variant (4 or 6 players): seats 2k and 2k+1 play together.
    #[serde(default)]
    pub teams: bool,
    /// One entry per seat (missing entries are seats for people); a seat is a bot when it
    /// names one.
    #[serde(default)]
    pub seats: Vec<SeatRequest>,
    /// Seconds each seat has to act (1 to 86400); when it runs out a bot (heuristic) plays the
    /// seat's moves until its player is back. Absent: no limit.
    #[serde(default)]
    pub turn_timer_secs: Option<u32>,
}

/// `POST /api/tables/{id}/seats/{seat}`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TakeSeat {
    /// The display name (1–32 characters).
    pub name: String,
}

/// The answer to taking a seat: the seat's token, given only this once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatToken {
    /// The table.
    pub table: String,
    /// The seat.
    pub seat: u8,
    /// The secret that lets its holder act for the seat (128 random bits, hex).
    pub token: String,
}

/// An action sent by a seat (`POST /api/tables/{id}/actions`, or the WebSocket's `act`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActRequest {
    /// The seat's action counter from the last state received (`turn_id`); when given, an action
    /// sent twice or for a step already over is refused as stale.
    #[serde(default)]
    pub turn_id: Option<u64>,
    /// The action, in wire form, as listed in the state's `legal`.
    pub action: WireAction,
}

/// What the client sends on the WebSocket.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Act for the seat of the token given with `auth`.
    Act {
        /// Echoed in the answer.
        #[serde(default)]
        id: Option<u64>,
        /// See [`ActRequest::turn_id`].
        #[serde(default)]
        turn_id: Option<u64>,
        /// The action.
        action: WireAction,
    },
    /// Prove the right to a seat; until then the connection is a spectator's.
    Auth {
        /// The seat's token.
        token: String,
    },
    /// Take back the seat's last choice of the current step, before it resolves
    /// ([`wonders_core::Game::retract`]); answered by `accepted` or `error`.
    Retract {
        /// Echoed in the answer.
        #[serde(default)]
        id: Option<u64>,
    },
    /// Ask for the current state again. (Empty structs rather than unit variants, here and
    /// below, so that unknown fields are refused.)
    Refresh {},
    /// Keep-alive; answered by `pong`.
    Ping {},
}

/// What the server sends on the WebSocket.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The state of the table, sent on connection and after every change.
    State(Box<StateMsg>),
    /// The token was accepted: this connection now acts for and sees the hand of `seat`.
    AuthOk {
        /// The seat.
        seat: u8,
    },
    /// The action was stored and applied.
    Accepted {
        /// The client's id of the action.
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
        /// The seat's action counter after it (the next `turn_id`).
        turn_id: u64,
    },
    /// A request was refused; nothing changed.
    Error {
        /// The client's id of the action, if the error answers one.
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
        /// See [`ApiError::code`].
        code: String,
        /// What is wrong.
        message: String,
    },
    /// The answer to `ping`.
    Pong,
}

/// A seat as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    /// Its index.
    pub seat: u8,
    /// Display name, once taken.
    pub name: Option<String>,
    /// The bot's name, for a bot seat.
    pub bot: Option<String>,
    /// Whether the seat is taken (always true for bots).
    pub taken: bool,
    /// A free seat of a rematch still held for the previous game's player (who takes it with
    /// their token of that game), until `hold_until` of the table.
    #[serde(default)]
    pub held: bool,
    /// A person's seat whose moves a bot (heuristic) plays because its turn timer ran out; the
    /// player takes it back by acting or by authenticating on the WebSocket.
    #[serde(default)]
    pub away: bool,
}

/// A table as everyone sees it (the seed only once the game is over).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableInfo {
    /// The table's id.
    pub id: String,
    /// Creation time, seconds since the Unix epoch.
    pub created: i64,
    /// `1e` or `2e`.
    pub edition: String,
    /// Number of seats.
    pub players: u8,
    /// `random`, the side every board is on, or `choose` (2nd edition: each player chooses).
    pub wonders: String,
    /// `waiting` (for people to take seats), `playing`, `over`, `broken` (it could not be
    /// loaded, or a bot of it cannot move; see `error`: every change is refused), or `expired`
    /// (a waiting table nobody filled in time: it is deleted).
    pub status: String,
    /// The seats.
    pub seats: Vec<SeatInfo>,
    /// Age, for games in progress.
    pub age: u8,
    /// Turn, for games in progress.
    pub turn: u8,
    /// The rematch's id, once created.
    pub rematch: Option<String>,
    /// The table this is a rematch of.
    pub rematch_of: Option<String>,
    /// The seed, once the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Why the table is broken.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Seconds a seat has to act before a bot plays its move (absent: no limit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_timer_secs: Option<u32>,
    /// Until when (Unix seconds) the free seats of a rematch are held for the previous players.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hold_until: Option<i64>,
    /// The expansions played (`["edifice"]`); absent for the base game.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expansions: Vec<String>,
    /// The team variant (seats 2k and 2k+1 together); absent otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub teams: bool,
}

/// A view of the game: a seat's own (with its hand), or the public one (with no hand).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    /// The seat it belongs to; `None` for the public view.
    pub seat: Option<u8>,
    /// `1e` or `2e`.
    pub edition: String,
    /// Age.
    pub age: u8,
    /// Turn.
    pub turn: u8,
    /// `choose`, `play_last_card`, `build_from_discard`, `over`, …
    pub phase: String,
    /// The city a one-city phase concerns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase_city: Option<u8>,
    /// The city the seat's next action is for (its own, or the Free City); for the public view,
    /// the first seat's.
    pub acting_city: u8,
    /// 2-player variant: the Free City's index among the cities.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub free_city: Option<u8>,
    /// 2-player variant: the seat holding the Free City card.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub free_city_holder: Option<u8>,
    /// 2-player variant: cards left in the Free City's draw pile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_pile_size: Option<u8>,
    /// The seat's hand; absent from the public view.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<String>>,
    /// Every city, seated clockwise (a JSON array of [`wonders_core::wire::WireCity`]: the same in every seat's view,
    /// serialised once per change of the game).
    pub cities: SharedJson,
    /// Cards in each hand.
    pub hand_sizes: Vec<u8>,
    /// Who has chosen in the current step.
    pub chosen: Vec<bool>,
    /// Cards in the discard pile.
    pub discard_size: u8,
    /// The discard pile, only for the seat building from it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discard: Option<Vec<String>>,
    /// The last resolved step (a JSON array of [`WireLogEntry`]: the same in every seat's view,
    /// serialised once per step).
    pub log: SharedJson,
    /// Edifice: the three great projects (absent without the expansion; public).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub projects: Vec<wonders_core::wire::WireProject>,
    /// The team variant is played (absent otherwise).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub teams: bool,
    /// Team variant: the teammate's hand, in the seat's own view only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teammate_hand: Option<Vec<String>>,
    /// Armada: every shipyard, the islands in play and the island decks' sizes (public), and the
    /// islands dealt to the seat while it explores (its own view only). Absent without Armada.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub armada: Option<wonders_core::armada::wire::WireArmada>,
}

impl SeatView {
    /// A seat's own view.
    pub fn own(w: WireView) -> SeatView {
        let (cities, log) = (SharedJson::of(&w.cities), SharedJson::of(&w.log));
        SeatView::own_with_shared(w, cities, log)
    }

    /// [`SeatView::own`] with its cities and log already serialised (`cities`, every city of
    /// the game now as [`wonders_core::wire::WireCity`]s: what `w.cities` holds when it was
    /// built from the whole view; `log`, the last resolved step's [`WireLogEntry`]s: what
    /// `w.log` holds then).
    pub fn own_with_shared(w: WireView, cities: SharedJson, log: SharedJson) -> SeatView {
        SeatView {
            seat: Some(w.seat),
            edition: w.edition,
            age: w.age,
            turn: w.turn,
            phase: w.phase,
            phase_city: w.phase_city,
            acting_city: w.acting_city,
            free_city: w.free_city,
            free_city_holder: w.free_city_holder,
            draw_pile_size: w.draw_pile_size,
            hand: Some(w.hand),
            cities,
            hand_sizes: w.hand_sizes,
            chosen: w.chosen,
            discard_size: w.discard_size,
            discard: w.discard,
            log,
            projects: w.projects,
            teams: w.teams,
            teammate_hand: w.teammate_hand,
            armada: w.armada,
        }
    }

    /// The public view: a seat's view with its hand and the discard pile dropped.
    pub fn public(w: WireView) -> SeatView {
        let (cities, log) = (SharedJson::of(&w.cities), SharedJson::of(&w.log));
        SeatView::public_with_shared(w, cities, log)
    }

    /// [`SeatView::public`] with its cities and log already serialised, as
    /// [`SeatView::own_with_shared`].
    pub fn public_with_shared(w: WireView, cities: SharedJson, log: SharedJson) -> SeatView {
        let own = SeatView::own_with_shared(w, cities, log);
        let mut v = SeatView { seat: None, hand: None, discard: None, teammate_hand: None, ..own };
        // The islands dealt to the view's seat in an exploration are its own secret.
        if let Some(a) = v.armada.as_mut() {
            a.dealt.clear();
        }
        v
    }
}

/// One line of the final score sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreLine {
    /// Points by category and the total.
    #[serde(flatten)]
    pub score: Score,
    /// Coins left (the tie-break).
    pub coins: u16,
    /// Rank (1 = winner; shared places skip the next); `None` for the Free City of the 2-player
    /// variant, which is no player.
    pub rank: Option<u8>,
}

/// A part of a state that every seat's state shares, serialised to JSON once when it changes and
/// written as those bytes into each seat's message (the same JSON as serialising the value each
/// time). The WebSocket's states copy the text as it is ([`crate::json::write_state_msg`]);
/// serialised through serde (an HTTP answer), it is checked to be JSON and written raw.
#[derive(Clone, Debug)]
pub struct SharedJson(std::sync::Arc<str>);

impl SharedJson {
    /// `value` serialised once.
    pub fn of<T: Serialize + ?Sized>(value: &T) -> SharedJson {
        SharedJson::from_json(serde_json::to_string(value).unwrap_or_else(|_| "null".into()))
    }

    /// JSON text written by other means than serialising a value ([`crate::json::cities`],
    /// [`crate::json::summaries`], whose tests compare them with `serde_json`'s). It is not
    /// parsed here (that cost more than writing it): text that is not JSON would fail when
    /// serialised through serde, and make an invalid WebSocket message.
    pub fn from_json(json: String) -> SharedJson {
        SharedJson(json.into())
    }

    /// An empty JSON array.
    pub fn empty_array() -> SharedJson {
        SharedJson::from_json("[]".into())
    }

    /// The JSON text.
    pub fn json(&self) -> &str {
        &self.0
    }
}

impl PartialEq for SharedJson {
    fn eq(&self, other: &SharedJson) -> bool {
        self.json() == other.json()
    }
}

impl Eq for SharedJson {}

impl<'de> Deserialize<'de> for SharedJson {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<SharedJson, D::Error> {
        Box::<serde_json::value::RawValue>::deserialize(d).map(|raw| SharedJson(raw.get().into()))
    }
}

impl Serialize for SharedJson {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let raw = serde_json::value::RawValue::from_string(self.0.to_string())
            .map_err(serde::ser::Error::custom)?;
        raw.serialize(s)
    }
}

/// A value that many messages carry unchanged, with its JSON ([`WithJson::json`]) serialised once,
/// when first asked for, and shared by every clone (the WebSocket's states copy it). It reads as
/// the value (`Deref`). Two are equal when their values are.
#[derive(Clone, Debug)]
pub struct WithJson<T> {
    value: std::sync::Arc<T>,
    json: std::sync::Arc<std::sync::OnceLock<SharedJson>>,
}

impl<T: Serialize> WithJson<T> {
    /// `value`, its JSON serialised when first asked for.
    pub fn new(value: T) -> WithJson<T> {
        WithJson { value: std::sync::Arc::new(value), json: Default::default() }
    }

    /// The JSON text.
    pub fn json(&self) -> &str {
        self.json.get_or_init(|| SharedJson::of(&*self.value)).json()
    }
}

impl<T> std::ops::Deref for WithJson<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T: PartialEq> PartialEq for WithJson<T> {
    fn eq(&self, other: &WithJson<T>) -> bool {
        self.value == other.value
    }
}

/// Serialised through serde (an HTTP answer), the value itself is serialised: the same bytes as
/// its JSON, which the WebSocket's states copy.
impl<T: Serialize> Serialize for WithJson<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(s)
    }
}

/// The state of a table for one client.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StateMsg {
    /// The table (the same for every seat: its JSON is reused while it does not change).
    pub table: WithJson<TableInfo>,
    /// The step of the game: it grows each time a turn or a one-seat step resolves. Send it
    /// back with an action.
    pub step: u64,
    /// The seat this state is for; `None` for a spectator.
    pub you: Option<u8>,
    /// How many actions `you` made so far: send it back as an action's `turn_id`, so that an
    /// action sent twice or too late is refused.
    pub turn_id: u64,
    /// The view, once the game started.
    pub view: Option<SeatView>,
    /// Every legal action of `you` now (empty when it has nothing to do).
    pub legal: Vec<WireAction>,
    /// The seats the game waits for.
    pub waiting: Vec<u8>,
    /// The public log of the whole game, oldest first: from entry `history_from` on (on the
    /// WebSocket, each state carries only the entries that connection has not received yet).
    /// Each entry carries its JSON, serialised once when it was logged.
    pub history: Vec<WithJson<WireLogEntry>>,
    /// The index of `history`'s first entry in the whole log (0: the whole log).
    pub history_from: usize,
    /// The final score sheet, once the game is over.
    pub scores: Option<Vec<ScoreLine>>,
    /// Every city at a glance (production, what it sells, science, a running score), from
    /// public information; empty before the game starts.
    /// (A JSON array of [`crate::summary::CitySummary`], serialised once per change.)
    pub summaries: SharedJson,
    /// The military conflicts of every Age that has ended, oldest first.
    /// (A JSON array of [`crate::summary::AgeEnd`], serialised once per change.)
    pub age_ends: SharedJson,
    /// `you`'s choices of the current step not yet resolved (its own, then the Free City's): it
    /// may take the last one back (`retract`) until the step resolves.
    pub pending: Vec<WireAction>,
    /// While `you` plays a hand: for each card of it (same order), `null` when a legal action
    /// builds it (a chain or Olympia's free build included), else why not. Empty otherwise.
    pub reasons: Vec<Option<String>>,
    /// While `you` plays a hand: why no legal action builds the next wonder stage, if none does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stage_reason: Option<String>,
    /// With a turn timer, the seconds `you` has left by the server's clock when this state was
    /// written, while the game waits for `you` (at 0 a stand-in bot plays the move): a page
    /// counts down from it, so a reload does not restart the clock.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timer_left_secs: Option<u32>,
    /// With a turn timer, the milliseconds left on the current step's clock when this state was
    /// written: `you`'s own while the game waits for `you`, else (a seat that has chosen, a
    /// spectator) the longest clock of the people the game waits for, by when the step resolves
    /// at the latest. Absent without a timer, once the game is over, or when the game waits for
    /// no person's clock (only bots, or stand-in bots, to move). A page counts down from it, so a
    /// reload shows the same time left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remaining_ms: Option<u64>,
}

/// One page of the list of tables (`GET /api/tables?offset=…&limit=…`): the same slice of the
/// open and of the finished tables.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TablePage {
    /// Open tables on this page, newest first.
    pub open: Vec<TableInfo>,
    /// Finished (and broken) tables on this page, newest first.
    pub finished: Vec<TableInfo>,
    /// Open tables in all.
    pub open_total: usize,
    /// Finished tables in all.
    pub finished_total: usize,
    /// Index of this page's first table in each list.
    pub offset: usize,
    /// Tables per list on a page.
    pub limit: usize,
}

/// A table in the list of tables.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableList {
    /// Tables waiting for people or playing, newest first.
    pub open: Vec<TableInfo>,
    /// Finished (and broken) tables, newest first.
    pub finished: Vec<TableInfo>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use wonders_core::armada::wire::WireIsland;
    use wonders_core::{Expansions, Game, Setup};

    #[test]
    fn a_spectator_never_sees_the_islands_dealt_to_an_explorer() {
        // armada.md §2.6: the cards dealt in an exploration are the explorer's to see.
        let mut setup = Setup::new(3, 1);
        setup.expansions = Expansions::ARMADA;
        let game = Game::new(&setup).unwrap();
        let mut w = WireView::from_view(game.catalog(), &game.view(0));
        let island = WireIsland {
            name: "Misty Isle".into(),
            zh: "迷霧島".into(),
            level: 1,
            effect: String::new(),
            effect_zh: String::new(),
            free_moves: 0,
            provisional: false,
        };
        w.armada.as_mut().unwrap().dealt.push(island);
        let own = SeatView::own(w.clone());
        assert_eq!(own.armada.as_ref().unwrap().dealt.len(), 1);
        let public = SeatView::public(w);
        let a = public.armada.unwrap();
        assert!(a.dealt.is_empty());
        assert_eq!(a.cities.len(), 3, "the shipyards stay public");
    }
}

/// `GET /api/tables/{id}/hint`: the search bot's preferred moves for the seat, best first.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct HintMsg {
    /// The games sampled, from what the seat can see.
    pub samples: u32,
    /// At most three moves, best first (the first is the one the search bot plays).
    pub moves: Vec<HintMove>,
}

/// One move of a [`HintMsg`].
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct HintMove {
    /// The move, as an action to send.
    pub action: WireAction,
    /// The share of its sampled games the seat won (a shared first place counts half).
    pub win_chance: f64,
    /// The games sampled for it.
    pub samples: u32,
}
