//! `wonders.Game`, `wonders.Action` and `wonders.Bot`.

use numpy::PyArray1;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Mutex;
use wonders_bots::{Bot, bot_from_name};
use wonders_core::tensor::{ActionKind, Encoder, default_choice_key};
use wonders_core::wire::{WireBoard, WireWonders};
use wonders_core::{
    Action, Catalog, Edition, Expansions, Game, Phase, Record, Score, Setup, WireAction, WireView,
};

/// The expansions this version plays, by name (`wonders.EXPANSIONS`): Edifice and Armada.
pub const EXPANSIONS: &[&str] = &["edifice", "armada"];

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Parses an edition code (`1e`, `2e`).
pub(crate) fn edition_from(code: &str) -> PyResult<Edition> {
    Edition::parse(code).ok_or_else(|| value_error(format!("unknown edition `{code}` (1e or 2e)")))
}

/// Reads the expansion names (case-insensitive): each must be known; an unknown one raises a
/// `ValueError` naming it and the known ones.
pub(crate) fn check_expansions(names: &[String]) -> PyResult<Expansions> {
    if let Some(name) = names.iter().find(|n| !EXPANSIONS.contains(&n.trim().to_ascii_lowercase().as_str())) {
        return Err(value_error(format!(
            "unknown expansion `{name}` (known expansions: {})",
            EXPANSIONS.join(", ")
        )));
    }
    Expansions::parse(names).map_err(value_error)
}

/// The encoder of games of `edition` with `expansions` (the catalog such a game is played on).
pub(crate) fn encoder_for(edition: &str, expansions: &[String]) -> PyResult<Encoder> {
    let edition = edition_from(edition)?;
    let expansions = check_expansions(expansions)?;
    let catalog = Setup { edition, expansions, ..Setup::new(4, 0) }.catalog();
    Ok(Encoder::with_expansions(catalog, expansions))
}

/// The wonder deal from its Python form: `None`/`"random"`, a side (`"A"`, `"B"`, `"Day"`,
/// `"Night"`), `"choose"`, or one board per seat (a name, or a `(name, side)` pair).
fn wonders_from(value: Option<&Bound<'_, PyAny>>) -> PyResult<WireWonders> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(WireWonders::Mode("random".into()));
    };
    if let Ok(mode) = value.extract::<String>() {
        return Ok(WireWonders::Mode(mode));
    }
    let mut boards = Vec::new();
    for item in value.try_iter().map_err(|_| {
        PyTypeError::new_err(
            "wonders: \"random\", a side, \"choose\", or a list of boards (name or (name, side))",
        )
    })? {
        let item = item?;
        if let Ok(name) = item.extract::<String>() {
            boards.push(WireBoard { wonder: name, side: None });
        } else if let Ok((name, side)) = item.extract::<(String, Option<String>)>() {
            boards.push(WireBoard { wonder: name, side });
        } else {
            return Err(PyTypeError::new_err("a wonder board is a name or a (name, side) pair"));
        }
    }
    Ok(WireWonders::Chosen(boards))
}

fn json_loads<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (text,))
}

fn json_dumps(value: &Bound<'_, PyAny>) -> PyResult<String> {
    value.py().import("json")?.call_method1("dumps", (value,))?.extract()
}

/// One action of one seat, immutable: `kind` (`build`, `wonder`, `discard`, `build_discarded`,
/// `pass`, `choose_side`, and with the expansions `discard_yellow`, `choose_island`,
/// `stay_out_of_naval`, `discard_built`), `card`, the payment (`left`, `right`, `bank`, `free`;
/// with Armada's trading zones `second_left`, `second_right`)
/// and `index`, its place in the fixed action space of its game (the payment left out).
#[pyclass(name = "Action", module = "wonders", frozen, eq, hash)]
#[derive(Clone)]
pub struct PyAction {
    pub(crate) action: Action,
    pub(crate) edition: Edition,
    /// The encoder of the game the action belongs to (its catalog and expansions).
    pub(crate) enc: Encoder,
}

impl PartialEq for PyAction {
    fn eq(&self, o: &PyAction) -> bool {
        self.action == o.action
            && self.edition == o.edition
            && std::ptr::eq(self.enc.catalog(), o.enc.catalog())
    }
}

impl Eq for PyAction {}

impl std::hash::Hash for PyAction {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.action.hash(h);
        self.edition.hash(h);
    }
}

impl PyAction {
    fn catalog(&self) -> &'static Catalog {
        self.enc.catalog()
    }

    fn wire(&self) -> WireAction {
        WireAction::from_action(self.catalog(), &self.action)
    }
}

#[pymethods]
impl PyAction {
    /// `build`, `wonder`, `discard`, `discard_yellow` (Armada), `build_discarded`, `pass` or
    /// `choose_side`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.action {
            Action::Build { .. } => "build",
            Action::Wonder { .. } => "wonder",
            Action::Discard { .. } => "discard",
            Action::DiscardYellow { .. } => "discard_yellow",
            Action::ChooseIsland { .. } => "choose_island",
            Action::StayOutOfNaval { .. } => "stay_out_of_naval",
            Action::BuildDiscarded { .. } => "build_discarded",
            Action::Pass => "pass",
            Action::ChooseSide { .. } => "choose_side",
            Action::DiscardBuilt { .. } => "discard_built",
        }
    }

    /// The card's English name, if the action uses a card.
    #[getter]
    fn card(&self) -> Option<String> {
        self.action.card().map(|c| self.catalog().card(c).name.clone())
    }

    /// The card's Age, if the action uses a card.
    #[getter]
    fn age(&self) -> Option<u8> {
        self.action.card().map(|c| self.catalog().card(c).age)
    }

    /// Armada: the fleet whose ship the action's naval construction moves (`red`, `yellow`,
    /// `blue`, `green`), or `None`.
    #[getter]
    fn naval(&self) -> Option<&'static str> {
        match self.action {
            Action::Build { naval, .. } => naval.construction().map(|f| f.name()),
            Action::Wonder { extra, .. } => extra.naval().map(|f| f.name()),
            _ => None,
        }
    }

    /// Armada: the ship a blue card's free move advances (`red`, `yellow`, `blue`, `green`),
    /// built from the hand or from the discard pile, or `None`.
    #[getter]
    fn free_move(&self) -> Option<&'static str> {
        match self.action {
            Action::Build { naval, .. } => naval.free_move().map(|f| f.name()),
            Action::BuildDiscarded { free_move, .. } => free_move.map(|f| f.name()),
            _ => None,
        }
    }

    /// Edifice: whether a wonder stage also takes part in the Age's project.
    #[getter]
    fn take_part(&self) -> bool {
        matches!(self.action, Action::Wonder { extra, .. } if extra.take_part())
    }

    /// Armada: the island kept (`choose_island`), by its working English name.
    #[getter]
    fn island(&self) -> Option<String> {
        match self.action {
            Action::ChooseIsland { island, .. } => self
                .catalog()
                .armada
                .as_ref()
                .and_then(|a| a.islands().get(island.0 as usize))
                .map(|d| d.name.clone()),
            _ => None,
        }
    }

    /// The side chosen (`A`/`B`, or `Day`/`Night`), for `choose_side`.
    #[getter]
    fn side(&self) -> Option<&'static str> {
        match self.action {
            Action::ChooseSide { side } => Some(side.label(self.edition)),
            _ => None,
        }
    }

    /// Coins to the left neighbour.
    #[getter]
    fn left(&self) -> u8 {
        self.action.payment().map_or(0, |p| p.left)
    }

    /// Coins to the right neighbour.
    #[getter]
    fn right(&self) -> u8 {
        self.action.payment().map_or(0, |p| p.right)
    }

    /// Armada: coins to the 2nd player on the left (West Trading Zone; 0 otherwise).
    #[getter]
    fn second_left(&self) -> u8 {
        self.action.payment().map_or(0, |p| p.second.left())
    }

    /// Armada: coins to the 2nd player on the right (East Trading Zone; 0 otherwise).
    #[getter]
    fn second_right(&self) -> u8 {
        self.action.payment().map_or(0, |p| p.second.right())
    }

    /// Coins to the bank.
    #[getter]
    fn bank(&self) -> u8 {
        self.action.payment().map_or(0, |p| p.bank)
    }

    /// Why the construction is free (`chain`, `free_build`, …), or `None`.
    #[getter]
    fn free(&self) -> Option<String> {
        match self.wire() {
            WireAction::Build { free: Some(f), .. } => {
                serde_json::to_value(f).ok().and_then(|v| v.as_str().map(str::to_string))
            }
            _ => None,
        }
    }

    /// The payment as `(left, right, bank)`, or `None` for actions that pay nothing (Armada's
    /// coins to the 2nd players are `second_left` and `second_right`).
    #[getter]
    fn payment(&self) -> Option<(u8, u8, u8)> {
        self.action.payment().map(|p| (p.left, p.right, p.bank))
    }

    /// The index in the fixed action space (see `wonders.describe_action`).
    #[getter]
    fn index(&self) -> usize {
        self.enc.action_index(&self.action)
    }

    /// The JSON form (as in game records), as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_loads(py, &serde_json::to_string(&self.wire()).map_err(value_error)?)
    }

    fn __repr__(&self) -> String {
        let mut s = format!("Action({}", self.kind());
        if let Some(card) = self.card() {
            s += &format!(" {card:?}");
        }
        if let Some(side) = self.side() {
            s += &format!(" {side}");
        }
        if let Some(p) = self.action.payment() {
            match self.free() {
                Some(f) => s += &format!(", free={f}"),
                None => {
                    s += &format!(", left={}, right={}, bank={}", p.left, p.right, p.bank);
                    if !p.second.is_none() {
                        s += &format!(", second_left={}, second_right={}", p.second.left(), p.second.right());
                    }
                }
            }
        }
        s + &format!(", index={})", self.index())
    }
}

/// A game of 7 Wonders: `Game(players, seed, edition="1e", expansions=(), wonders="random",
/// teams=False)`.
///
/// `expansions`: names among `wonders.EXPANSIONS` (`"edifice"`, `"armada"`; 8 players need
/// Armada). `teams`: the team variant (4, 6 or 8 players; seats 2k and 2k+1 play together).
///
/// `wonders`: `"random"` (boards and sides at random), a side for every board (`"A"`, `"B"`,
/// `"Day"`, `"Night"`), `"choose"` (random boards, each player chooses the side: the 2nd edition
/// rule), or one board per seat: a name or a `(name, side)` pair (side `None` = random).
#[pyclass(name = "Game", module = "wonders")]
#[derive(Clone)]
pub struct PyGame {
    pub(crate) game: Game,
    /// The record of every action, or `None` for a resampled game (its hidden cards do not
    /// follow from a seed).
    pub(crate) record: Option<Record>,
    pub(crate) enc: Encoder,
}

impl PyGame {
    pub(crate) fn from_game(game: Game, record: Option<Record>) -> PyGame {
        let enc = Encoder::for_game(&game);
        PyGame { game, record, enc }
    }

    pub(crate) fn check_seat(&self, seat: usize) -> PyResult<()> {
        if seat >= self.game.players() {
            return Err(value_error(format!(
                "there is no seat {seat} in a game of {} players (seats 0 to {})",
                self.game.players(),
                self.game.players() - 1
            )));
        }
        Ok(())
    }

    fn py_action(&self, action: Action) -> PyAction {
        PyAction { action, edition: self.game.edition(), enc: self.enc }
    }

    /// The core action an index means for `seat` now, with the default payment.
    pub(crate) fn action_for_index(&self, seat: usize, index: usize) -> PyResult<Action> {
        let legal = self.game.legal_actions(seat);
        self.enc.choose(&legal, index).ok_or_else(|| {
            let what = match self.enc.describe(index) {
                None => {
                    format!("action index {index} is out of range (0 to {})", self.enc.action_count() - 1)
                }
                Some((kind, card)) => format!(
                    "action index {index} ({kind:?}{}) is not legal for seat {seat} now",
                    card.map(|c| format!(" {}", self.game.catalog().card(c).name)).unwrap_or_default()
                ),
            };
            value_error(what)
        })
    }

    /// Submits, and records, an action. Nothing changes when it is refused.
    pub(crate) fn submit_action(&mut self, seat: usize, action: Action) -> PyResult<()> {
        self.check_seat(seat)?;
        self.game.submit(seat, action).map_err(value_error)?;
        if let Some(r) = &mut self.record {
            r.push(self.game.catalog(), seat, &action);
            if self.game.is_over() {
                r.scores = Some(self.game.scores());
            }
        }
        Ok(())
    }

    fn score_dict<'py>(py: Python<'py>, s: &Score, armada: bool) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        // Armada's categories (naval, fleet, islands) only in games with Armada.
        let values = s.values();
        for i in Score::shown(armada) {
            d.set_item(Score::CATEGORIES[i], values[i])?;
        }
        Ok(d)
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (players, seed, edition = "1e", expansions = Vec::new(), wonders = None, teams = false), text_signature = "(players, seed, edition='1e', expansions=(), wonders=None, teams=False)")]
    fn new(
        players: u8,
        seed: u64,
        edition: &str,
        expansions: Vec<String>,
        wonders: Option<&Bound<'_, PyAny>>,
        teams: bool,
    ) -> PyResult<PyGame> {
        let edition = edition_from(edition)?;
        let expansions = check_expansions(&expansions)?;
        let record = Record {
            edition: edition.code().into(),
            players,
            seed,
            wonders: wonders_from(wonders)?,
            expansions: expansions.names().into_iter().map(String::from).collect(),
            teams,
            actions: Vec::new(),
            scores: None,
        };
        let setup = record.setup().map_err(value_error)?;
        let game = Game::new(&setup).map_err(value_error)?;
        // The record states the deal as the game understood it.
        let record = Record::new(&setup, game.catalog());
        Ok(PyGame::from_game(game, Some(record)))
    }

    /// Players (seats); the 2-player variant has a third city, the Free City.
    #[getter]
    fn players(&self) -> usize {
        self.game.players()
    }

    /// `1e` or `2e`.
    #[getter]
    fn edition(&self) -> &'static str {
        self.game.edition().code()
    }

    /// The seed of the deal.
    #[getter]
    fn seed(&self) -> u64 {
        self.game.seed()
    }

    /// The Age (1–3).
    #[getter]
    fn age(&self) -> u8 {
        self.game.age()
    }

    /// The turn (1–6).
    #[getter]
    fn turn(&self) -> u8 {
        self.game.turn()
    }

    /// `choose_side`, `choose`, `play_last_card`, `build_from_discard`, `edifice_discard`,
    /// `explore`, `island_moves` (White-Surf Port's or Tempest Archipelago's ships to choose),
    /// `naval_opt_out` or `over`.
    #[getter]
    fn phase(&self) -> &'static str {
        match self.game.phase() {
            Phase::ChooseSide => "choose_side",
            Phase::Choose => "choose",
            Phase::PlayLastCard { .. } => "play_last_card",
            Phase::BuildFromDiscard { .. } => "build_from_discard",
            Phase::EdificeDiscard { .. } => "edifice_discard",
            Phase::Explore { .. } => "explore",
            Phase::IslandMoves { .. } => "island_moves",
            Phase::NavalOptOut { .. } => "naval_opt_out",
            Phase::Over => "over",
        }
    }

    /// The seats the game waits for (they choose at once).
    fn to_act(&self) -> Vec<usize> {
        self.game.to_act().to_vec()
    }

    /// Whether `seat` must act now.
    fn must_act(&self, seat: usize) -> PyResult<bool> {
        self.check_seat(seat)?;
        Ok(self.game.must_act(seat))
    }

    /// Every legal action of `seat` now (each way to pay is a separate action); empty when the
    /// seat has nothing to decide.
    fn legal_actions(&self, seat: usize) -> PyResult<Vec<PyAction>> {
        self.check_seat(seat)?;
        Ok(self.game.legal_actions(seat).into_iter().map(|a| self.py_action(a)).collect())
    }

    /// Submits an action of `seat`: an `Action`, an index of the action space (paid the default
    /// way), or the JSON form (a dict or a string). Raises `ValueError` (and changes nothing) for
    /// an illegal or out-of-turn action.
    fn submit(&mut self, seat: usize, action: &Bound<'_, PyAny>) -> PyResult<()> {
        self.check_seat(seat)?;
        let action = if let Ok(a) = action.extract::<PyRef<'_, PyAction>>() {
            if a.edition != self.game.edition() || !std::ptr::eq(a.catalog(), self.game.catalog()) {
                return Err(value_error("the action belongs to a game of another edition or expansions"));
            }
            a.action
        } else if let Ok(index) = action.extract::<i64>() {
            let index = usize::try_from(index)
                .map_err(|_| value_error(format!("action index {index} is negative")))?;
            self.action_for_index(seat, index)?
        } else {
            let text = match action.extract::<String>() {
                Ok(s) => s,
                Err(_) => json_dumps(action).map_err(|_| {
                    PyTypeError::new_err("an action is an Action, an index, a dict or a JSON string")
                })?,
            };
            let wire: WireAction =
                serde_json::from_str(&text).map_err(|e| value_error(format!("malformed action: {e}")))?;
            wire.to_action_in(&self.game, seat).map_err(value_error)?
        };
        self.submit_action(seat, action)
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// Each city's score sheet by category (`military`, `treasury`, `wonder`, `civilian`,
    /// `science`, `commercial`, `guilds`, `edifice`, with Armada `naval`, `fleet` and `islands`,
    /// `total`); final once the game is over. In the 2-player
    /// variant the Free City's is last.
    fn scores<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let armada = self.game.armada().is_some();
        self.game.scores().iter().map(|s| PyGame::score_dict(py, s, armada)).collect()
    }

    /// Each seat's rank, a list of ints (1 = winner; seats level on points and coins share the
    /// place; with teams, the team's rank).
    fn ranks(&self) -> Vec<u32> {
        self.game.ranks().into_iter().map(u32::from).collect()
    }

    /// What `seat` may know, as a dict: the same content as the JSON view (`wonders_core::wire`).
    fn view<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyAny>> {
        self.check_seat(seat)?;
        let wire = WireView::from_view(self.game.catalog(), &self.game.view(seat));
        json_loads(py, &serde_json::to_string(&wire).map_err(value_error)?)
    }

    /// The observation vector of `seat` (NumPy float32, `wonders.observation_size(edition,
    /// expansions)`), built from its view only.
    fn observation<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyArray1<f32>>> {
        self.check_seat(seat)?;
        let mut obs = vec![0.0f32; self.enc.observation_len()];
        self.enc.observe(&self.game.view(seat), &mut obs);
        Ok(PyArray1::from_vec(py, obs))
    }

    /// The legality mask of `seat` over the action space (NumPy bool); only "wait" is legal while
    /// the seat has nothing to decide.
    fn action_mask<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyArray1<bool>>> {
        self.check_seat(seat)?;
        let mut mask = vec![false; self.enc.action_count()];
        self.enc.mask(&self.game.legal_actions(seat), &mut mask);
        Ok(PyArray1::from_vec(py, mask))
    }

    /// The rule-based player's opinion of every index of the action space for `seat` (NumPy
    /// float32, one per index, read from its view only): the best heuristic value among the
    /// index's legal actions less that of the best legal action, in points (0 for the heuristic's
    /// move, negative below it, cut at -30); 0 for illegal indices. The residual network of the
    /// `neural` bot reads it beside the observation.
    fn heuristic_values<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyArray1<f32>>> {
        self.check_seat(seat)?;
        let mut out = vec![0.0f32; self.enc.action_count()];
        let legal = self.game.legal_actions(seat);
        if !legal.is_empty() {
            wonders_bots::heuristic::index_values(&self.enc, &self.game.view(seat), &legal, &mut out);
        }
        Ok(PyArray1::from_vec(py, out))
    }

    /// The legal action of `seat` for an index of the action space, paid the default way
    /// (fewest coins; then keeping Olympia's free build; then spreading the coins; then fewer to
    /// the left). Raises `ValueError` when the index is not legal.
    fn action(&self, seat: usize, index: usize) -> PyResult<PyAction> {
        self.check_seat(seat)?;
        Ok(self.py_action(self.action_for_index(seat, index)?))
    }

    /// Every legal action of `seat` with this index (one per way to pay), the default first.
    fn payments(&self, seat: usize, index: usize) -> PyResult<Vec<PyAction>> {
        self.check_seat(seat)?;
        let legal = self.game.legal_actions(seat);
        let mut all: Vec<Action> = self.enc.payments(&legal, index).collect();
        all.sort_by_key(default_choice_key);
        Ok(all.into_iter().map(|a| self.py_action(a)).collect())
    }

    /// A game consistent with everything `seat` knows, the cards it cannot see dealt anew from
    /// `rng_seed` (determinization, for searches). It has no record. With `keep_own_choice`
    /// (the default) the choices `seat` has already made this turn (its own city's, and the
    /// Free City's when it holds it) are made again in the sample; the other seats' choices are
    /// hidden from it, so in the sample they have not chosen yet.
    #[pyo3(signature = (seat, rng_seed, keep_own_choice = true))]
    fn resample(&self, seat: usize, rng_seed: u64, keep_own_choice: bool) -> PyResult<PyGame> {
        self.check_seat(seat)?;
        let mut rng = ChaCha8Rng::seed_from_u64(rng_seed);
        let mut game = Game::resample(&self.game.view(seat), self.game.catalog(), &mut rng)
            .map_err(|e| value_error(format!("resample: {}", e.0)))?;
        let holds_free_city = self.game.free_city_controller() == Some(seat);
        if keep_own_choice {
            // The sample keeps the seat's own choice; the Free City's, made by its holder, is made
            // again when the sample lacks it.
            if let Some(action) = self.game.free_city_choice().filter(|_| holds_free_city)
                && game.free_city_choice().is_none()
                && game.own_choice(seat).is_some()
            {
                game.submit(seat, action).map_err(|e| {
                    value_error(format!("resample: the Free City's choice does not replay: {e}"))
                })?;
            }
        } else {
            while game.retract(seat).is_ok() {}
        }
        Ok(PyGame::from_game(game, None))
    }

    /// The action `seat` has chosen this turn for its own city (hidden from the others until
    /// the turn resolves), or `None`.
    fn own_choice(&self, seat: usize) -> PyResult<Option<PyAction>> {
        self.check_seat(seat)?;
        Ok(self.game.own_choice(seat).map(|a| self.py_action(a)))
    }

    /// An independent copy.
    fn clone(&self) -> PyGame {
        Clone::clone(self)
    }

    fn __copy__(&self) -> PyGame {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        Clone::clone(self)
    }

    /// The game record as a dict (options, seed, every action, and the scores once over); it
    /// replays exactly with `Game.replay` and `wonders replay`.
    fn record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let record = self.record.as_ref().ok_or_else(|| {
            value_error("a resampled game has no record (its hidden cards do not follow from a seed)")
        })?;
        json_loads(py, &serde_json::to_string(record).map_err(value_error)?)
    }

    /// Replays a record (a dict or a JSON string), checking every action and the recorded
    /// scores; the game is where the record ends.
    #[staticmethod]
    fn replay(record: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        let text = match record.extract::<String>() {
            Ok(s) => s,
            Err(_) => json_dumps(record)?,
        };
        let record: Record =
            serde_json::from_str(&text).map_err(|e| value_error(format!("malformed record: {e}")))?;
        let game = record.replay().map_err(value_error)?;
        let mut kept = Record::new(&record.setup().map_err(value_error)?, game.catalog());
        kept.actions = record.actions;
        if game.is_over() {
            kept.scores = Some(game.scores());
        }
        Ok(PyGame::from_game(game, Some(kept)))
    }

    /// Pickling: a game is rebuilt by replaying its record (a resampled game, which has none,
    /// cannot be pickled).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let record = self.record.as_ref().ok_or_else(|| {
            value_error("a resampled game cannot be pickled (its hidden cards do not follow from a seed)")
        })?;
        let replay = py.get_type::<PyGame>().getattr("replay")?;
        Ok((replay, (serde_json::to_string(record).map_err(value_error)?,)))
    }

    /// Lets bots play: while a seat in `bots` (a dict seat → `Bot`) must act, it acts; stops
    /// when the game is over or waits only for seats without a bot. Returns the moves played.
    fn play_bots(&mut self, bots: &Bound<'_, PyDict>) -> PyResult<usize> {
        let mut table: Vec<Option<PyRefMut<'_, PyBot>>> = (0..self.game.players()).map(|_| None).collect();
        for (seat, bot) in bots.iter() {
            let seat: usize = seat.extract()?;
            self.check_seat(seat)?;
            table[seat] = Some(bot.extract::<PyRefMut<'_, PyBot>>()?);
        }
        let mut moves = 0;
        let mut legal = Vec::new();
        let mut view = self.game.view(0);
        loop {
            let mut acted = false;
            for seat in self.game.to_act() {
                let Some(bot) = table[seat].as_mut() else { continue };
                if !self.game.must_act(seat) {
                    continue;
                }
                self.game.legal_actions_into(seat, &mut legal);
                self.game.view_into(seat, &mut view);
                let action = bot.bot.lock().map_err(|_| value_error("bot poisoned"))?.choose(&view, &legal);
                self.submit_action(seat, action)?;
                moves += 1;
                acted = true;
            }
            if !acted || self.game.is_over() {
                return Ok(moves);
            }
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "Game(players={}, seed={}, edition={:?}, age={}, turn={}, phase={:?})",
            self.game.players(),
            self.game.seed(),
            self.edition(),
            self.game.age(),
            self.game.turn(),
            self.phase()
        )
    }
}

/// A bot by name (`random`, `heuristic`, `search`, `search:200ms`, `search:5000it`, …), its random
/// choices following from `seed`: `Bot(name, seed=0)`. `bot.act(game, seat)` returns its choice
/// for `seat` (seeing only that seat's view and legal actions); it does not submit it.
#[pyclass(name = "Bot", module = "wonders")]
pub struct PyBot {
    pub(crate) bot: Mutex<Box<dyn Bot + Send>>,
    name: String,
}

#[pymethods]
impl PyBot {
    #[new]
    #[pyo3(signature = (name, seed = 0))]
    fn new(name: &str, seed: u64) -> PyResult<PyBot> {
        let bot = bot_from_name(name, seed).map_err(value_error)?;
        let name = bot.name();
        Ok(PyBot { bot: Mutex::new(bot), name })
    }

    /// The bot's name.
    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }

    /// The bot's choice for `seat` of `game`. Raises `ValueError` when the seat has nothing to
    /// decide. The GIL is released while it thinks.
    fn act(&self, py: Python<'_>, game: &PyGame, seat: usize) -> PyResult<PyAction> {
        game.check_seat(seat)?;
        if !game.game.must_act(seat) {
            return Err(value_error(format!("seat {seat} has nothing to decide now")));
        }
        let legal = game.game.legal_actions(seat);
        let view = game.game.view(seat);
        let action = py.detach(|| self.bot.lock().map(|mut b| b.choose(&view, &legal)).ok());
        let action = action.ok_or_else(|| value_error("bot poisoned"))?;
        Ok(game.py_action(action))
    }

    fn __repr__(&self) -> String {
        format!("Bot({:?})", self.name)
    }
}

/// Floats in an observation vector of games of this edition and expansions.
#[pyfunction]
#[pyo3(signature = (edition = "1e", expansions = Vec::new()), text_signature = "(edition='1e', expansions=())")]
pub fn observation_size(edition: &str, expansions: Vec<String>) -> PyResult<usize> {
    Ok(encoder_for(edition, &expansions)?.observation_len())
}

/// Indices in the action space of games of this edition and expansions.
#[pyfunction]
#[pyo3(signature = (edition = "1e", expansions = Vec::new()), text_signature = "(edition='1e', expansions=())")]
pub fn action_count(edition: &str, expansions: Vec<String>) -> PyResult<usize> {
    Ok(encoder_for(edition, &expansions)?.action_count())
}

/// The named segments of the observation vector: a list of `(name, start, length)`.
#[pyfunction]
#[pyo3(signature = (edition = "1e", expansions = Vec::new()), text_signature = "(edition='1e', expansions=())")]
pub fn observation_layout(edition: &str, expansions: Vec<String>) -> PyResult<Vec<(String, usize, usize)>> {
    Ok(encoder_for(edition, &expansions)?.layout())
}

/// What an index of the action space means: `(kind, name)`, `name` the card's (or, for
/// `keep_island`, the island's) or `None`.
#[pyfunction]
#[pyo3(signature = (index, edition = "1e", expansions = Vec::new()), text_signature = "(index, edition='1e', expansions=())")]
pub fn describe_action(
    index: usize,
    edition: &str,
    expansions: Vec<String>,
) -> PyResult<(String, Option<String>)> {
    let enc = encoder_for(edition, &expansions)?;
    let catalog = enc.catalog();
    let (kind, card) = enc.describe(index).ok_or_else(|| {
        value_error(format!("action index {index} is out of range (0 to {})", enc.action_count() - 1))
    })?;
    let name = card.map(|c| catalog.card(c).name.clone());
    Ok(match kind {
        ActionKind::Build => ("build".to_string(), name),
        ActionKind::Wonder => ("wonder".into(), name),
        ActionKind::Discard => ("discard".into(), name),
        ActionKind::BuildDiscarded => ("build_discarded".into(), name),
        ActionKind::Pass => ("pass".into(), name),
        ActionKind::ChooseSide(s) => (format!("choose_side {}", s.label(catalog.edition)), name),
        ActionKind::Wait => ("wait".into(), name),
        ActionKind::WonderTakePart => ("wonder_take_part".into(), name),
        ActionKind::BuildNaval => ("build_naval".into(), name),
        ActionKind::WonderNaval => ("wonder_naval".into(), name),
        ActionKind::DiscardYellow => ("discard_yellow".into(), name),
        ActionKind::KeepIsland(i) => (
            "keep_island".into(),
            catalog.armada.as_ref().and_then(|a| a.islands().get(i as usize)).map(|d| d.name.clone()),
        ),
        ActionKind::StayOutOfNaval => ("stay_out_of_naval".into(), name),
        ActionKind::TakePartInNaval => ("take_part_in_naval".into(), name),
    })
}
