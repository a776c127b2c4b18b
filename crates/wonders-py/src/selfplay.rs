//! `wonders._wonders.SelfPlay`: the Rust core of `wonders.vector.SelfPlayVecEnv`, N games in
//! which every seat, or the seats chosen, are learning agents, stepped together in Rust with the
//! GIL released.
//!
//! One step takes one action index per game and learning seat (`[N, L]`), submits the index of
//! every learning seat that must decide (paid the default way, see [`wonders_core::tensor`]),
//! lets the bot seats play until a learning seat must decide again or the game is over, and
//! writes the learning seats' observations `[N, L, D]` and masks `[N, L, A]`. A game that ends
//! is restarted at once (the next seed) and its final observations, masks, rewards, scores and
//! ranks are returned beside the new game's first observation (Gymnasium's "same step"
//! autoreset).
//!
//! The legal actions behind each mask are kept from the step that wrote it, so checking the
//! actions and finding their default payment cost no second pass over the rules.

use crate::game::{check_expansions, edition_from};
use numpy::ndarray::{Array1, Array2, Array3};
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::sync::Mutex;
use wonders_bots::{Bot, bot_from_name};
use wonders_core::tensor::Encoder;
use wonders_core::{Action, Edition, Expansions, Game, Setup, View, WonderDeal};

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The largest value each observation float takes in ordinary play, by segment name (the part
/// after the city prefix): the divisor of the normalised observation. One-hot parts and flags
/// are 1.
fn segment_bound(name: &str) -> f32 {
    let last = name.rsplit('.').next().unwrap_or(name);
    match last {
        "turn" => 7.0,
        "draw_pile_size" | "discard_size" => 150.0,
        "hand" | "discard" | "passed" | "built" => 3.0,
        "stages" | "stages_total" => 4.0,
        "coins" => 60.0,
        "shields" | "naval_strength" => 20.0,
        "tokens" => 6.0,
        "hand_size" => 8.0,
        "score" => 60.0,
        "pawns" | "debt" => 6.0,
        "deck_sizes" => 27.0,
        "ships" => 6.0,
        "naval_tokens" => 1.0,
        "trade_level" => 6.0,
        "pending_tax" | "pending_piracies" => 10.0,
        "incursions_held" | "incursions_suffered" => 7.0,
        _ => 1.0,
    }
}

/// One multiplier per observation float: `1 / bound` of its segment ([`segment_bound`]).
pub(crate) fn observation_scale(enc: &Encoder) -> Vec<f32> {
    let mut scale = vec![1.0f32; enc.observation_len()];
    for (name, start, len) in enc.layout() {
        let inv = 1.0 / segment_bound(&name);
        scale[start..start + len].fill(inv);
    }
    scale
}

/// What every game of the batch shares.
struct Config {
    edition: Edition,
    players: u8,
    expansions: Expansions,
    teams: bool,
    enc: Encoder,
    /// One entry per seat: `None` for a learning seat, else the bot's name.
    seats: Vec<Option<String>>,
    /// The learning seats, in seat order.
    learners: Vec<usize>,
    /// Normalised observations: each float times its scale, clipped to [-1, 1].
    scale: Option<Vec<f32>>,
    /// Entries of a game's scores (its cities: the seats, and the 2-player game's Free City)
    /// and of its ranks.
    score_width: usize,
    rank_width: usize,
}

impl Config {
    fn setup(&self, seed: u64) -> Setup {
        Setup {
            edition: self.edition,
            players: self.players,
            seed,
            wonders: WonderDeal::Random,
            expansions: self.expansions,
            teams: self.teams,
        }
    }
}

/// A bot's seed, from the game's seed and the seat (as `VecEnv`'s bots).
fn bot_seed(game_seed: u64, seat: usize) -> u64 {
    game_seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(seat as u64 + 1)
}

/// One game, its bots, and for each learning seat the legal actions and the distinct legal
/// indices behind the mask last written.
struct Slot {
    game: Game,
    bots: Vec<Option<Box<dyn Bot + Send>>>,
    view: View,
    scratch: Vec<Action>,
    legal: Vec<Vec<Action>>,
    indices: Vec<Vec<u16>>,
    /// Decisions of the learning seats in the current game.
    length: u32,
}

/// A finished game's end, kept until the step's arrays are built.
struct End {
    scores: Vec<i32>,
    ranks: Vec<u8>,
    length: u32,
}

impl Slot {
    fn new(config: &Config, seed: u64) -> Result<Slot, String> {
        let game = Game::new(&config.setup(seed)).map_err(|e| e.to_string())?;
        let bots = config
            .seats
            .iter()
            .enumerate()
            .map(|(s, name)| name.as_ref().map(|n| bot_from_name(n, bot_seed(seed, s))).transpose())
            .collect::<Result<_, String>>()?;
        let view = game.empty_view();
        let l = config.learners.len();
        let mut slot = Slot {
            game,
            bots,
            view,
            scratch: Vec::new(),
            legal: vec![Vec::new(); l],
            indices: vec![Vec::new(); l],
            length: 0,
        };
        slot.play_bots();
        Ok(slot)
    }

    /// While a bot's seat must act, it acts; stops when only learning seats are awaited or the
    /// game is over.
    fn play_bots(&mut self) {
        loop {
            let mut acted = false;
            for s in self.game.to_act() {
                let Some(bot) = self.bots[s].as_mut() else { continue };
                if !self.game.must_act(s) {
                    continue;
                }
                self.game.legal_actions_into(s, &mut self.scratch);
                if bot.reads_view() {
                    self.game.view_into(s, &mut self.view);
                }
                match bot.choose_index(&self.view, &self.scratch) {
                    Ok(i) if i < self.scratch.len() => self.game.submit_trusted(s, self.scratch[i]),
                    // A bot picks among the legal actions; a refusal would be an engine bug:
                    // fall back to the first legal action rather than loop.
                    other => {
                        let action = other.err().unwrap_or(self.scratch[0]);
                        if self.game.submit(s, action).is_err() {
                            self.game.submit_trusted(s, self.scratch[0]);
                        }
                    }
                }
                acted = true;
            }
            if !acted || self.game.is_over() {
                return;
            }
        }
    }

    /// The action of learning seat number `k` for `index`, from the legal actions of the last
    /// mask: `Ok(None)` when the seat had nothing to decide (the index is then "wait").
    fn resolve(&self, config: &Config, k: usize, index: i64) -> Result<Option<Action>, String> {
        let legal = &self.legal[k];
        let wait = config.enc.wait_index() as i64;
        if legal.is_empty() {
            return if index == wait {
                Ok(None)
            } else {
                Err(format!(
                    "seat {} has nothing to decide: its only legal index is {wait} (wait)",
                    config.learners[k]
                ))
            };
        }
        usize::try_from(index)
            .ok()
            .filter(|&i| self.indices[k].contains(&(i as u16)))
            .and_then(|i| config.enc.choose(legal, i))
            .map(Some)
            .ok_or_else(|| {
                format!("seat {}: action index {index} is not legal (see its mask)", config.learners[k])
            })
    }

    /// Plays the learning seats' actions (already resolved), then the bots. Returns the number
    /// of decisions made, and the game's end when it ended.
    fn apply(&mut self, config: &Config, actions: &[Option<Action>]) -> (u32, Option<End>) {
        let mut decided = 0;
        for (&seat, action) in config.learners.iter().zip(actions) {
            if let Some(a) = *action {
                if self.game.submit(seat, a).is_err() {
                    // The mask's actions are this state's (simultaneous choices do not change one
                    // another's legality); an engine refusal falls back to a fresh legal list.
                    self.game.legal_actions_into(seat, &mut self.scratch);
                    if let Some(&first) = self.scratch.first() {
                        self.game.submit_trusted(seat, first);
                    }
                }
                decided += 1;
            }
        }
        self.length += decided;
        self.play_bots();
        if !self.game.is_over() {
            return (decided, None);
        }
        let end = End {
            scores: self.game.scores().iter().map(|s| s.total).collect(),
            ranks: self.game.ranks(),
            length: self.length,
        };
        (decided, Some(end))
    }

    /// Writes each learning seat's observation and mask (and keeps its legal actions).
    fn write(&mut self, config: &Config, obs: &mut [f32], mask: &mut [bool]) {
        let (d, a) = (config.enc.observation_len(), config.enc.action_count());
        for (k, &seat) in config.learners.iter().enumerate() {
            let o = &mut obs[k * d..(k + 1) * d];
            self.game.view_into(seat, &mut self.view);
            config.enc.observe(&self.view, o);
            if let Some(scale) = &config.scale {
                for (x, s) in o.iter_mut().zip(scale) {
                    *x = (*x * s).clamp(-1.0, 1.0);
                }
            }
            let m = &mut mask[k * a..(k + 1) * a];
            self.game.legal_actions_into(seat, &mut self.legal[k]);
            config.enc.mask(&self.legal[k], m);
            let idx = &mut self.indices[k];
            idx.clear();
            idx.extend(m.iter().enumerate().filter(|(_, b)| **b).map(|(i, _)| i as u16));
        }
    }
}

/// What a step returns: observations, masks, rewards, dones, then the finished games' indices,
/// final observations, final masks, scores, ranks and lengths.
type StepOut<'py> = (
    Bound<'py, PyArray3<f32>>,
    Bound<'py, PyArray3<bool>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray3<f32>>,
    Bound<'py, PyArray3<bool>>,
    Bound<'py, PyArray2<i32>>,
    Bound<'py, PyArray2<u8>>,
    Bound<'py, PyArray1<u32>>,
);

/// Observations `[N, L, D]` and masks `[N, L, A]`.
type Batch<'py> = (Bound<'py, PyArray3<f32>>, Bound<'py, PyArray3<bool>>);

struct Inner {
    slots: Vec<Slot>,
    /// Games started since the last reset (the next game's seed is `seed + started`).
    started: u64,
    seed: u64,
    rng: ChaCha8Rng,
    agent_steps: u64,
    games_finished: u64,
    /// The observation and mask buffers, written in place by every step (returned themselves
    /// with `copy=False`, else copied).
    obs: Py<PyArray3<f32>>,
    mask: Py<PyArray3<bool>>,
}

/// N games of self-play stepped together (the core of `wonders.vector.SelfPlayVecEnv`, which
/// documents the arguments): `SelfPlay(num_envs, players, seed, edition, expansions, teams,
/// seats, threads, normalize)`.
#[pyclass(name = "SelfPlay", module = "wonders")]
pub struct SelfPlay {
    inner: Mutex<Inner>,
    pool: Option<rayon::ThreadPool>,
    config: Config,
    num_envs: usize,
    copy: bool,
}

impl SelfPlay {
    /// Runs `f` on every game with its chunk of each buffer: on the calling thread with one
    /// thread, else on the pool.
    fn for_each<F>(
        &self,
        slots: &mut [Slot],
        obs: &mut [f32],
        mask: &mut [bool],
        extra: &mut [(u32, Option<End>)],
        f: F,
    ) where
        F: Fn(usize, &mut Slot, &mut [f32], &mut [bool], &mut (u32, Option<End>)) + Sync,
    {
        let l = self.config.learners.len();
        let (d, a) = (l * self.config.enc.observation_len(), l * self.config.enc.action_count());
        match &self.pool {
            None => {
                for (i, (((slot, o), m), e)) in slots
                    .iter_mut()
                    .zip(obs.chunks_mut(d))
                    .zip(mask.chunks_mut(a))
                    .zip(extra.iter_mut())
                    .enumerate()
                {
                    f(i, slot, o, m, e);
                }
            }
            Some(pool) => pool.install(|| {
                slots
                    .par_iter_mut()
                    .zip(obs.par_chunks_mut(d))
                    .zip(mask.par_chunks_mut(a))
                    .zip(extra.par_iter_mut())
                    .enumerate()
                    .for_each(|(i, (((slot, o), m), e))| f(i, slot, o, m, e))
            }),
        }
    }

    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, Inner>> {
        self.inner.lock().map_err(|_| value_error("environment poisoned by an earlier panic"))
    }

    fn shape(&self) -> (usize, usize, usize, usize) {
        (
            self.num_envs,
            self.config.learners.len(),
            self.config.enc.observation_len(),
            self.config.enc.action_count(),
        )
    }

    /// The buffers as returned: themselves with `copy=False`, else fresh copies.
    fn outputs<'py>(&self, py: Python<'py>, inner: &Inner) -> PyResult<Batch<'py>> {
        let (obs, mask) = (inner.obs.bind(py).clone(), inner.mask.bind(py).clone());
        if !self.copy {
            return Ok((obs, mask));
        }
        Ok((obs.call_method0("copy")?.cast_into()?, mask.call_method0("copy")?.cast_into()?))
    }
}

#[pymethods]
impl SelfPlay {
    #[new]
    #[pyo3(signature = (num_envs, players = 4, seed = 0, edition = "1e", expansions = Vec::new(), teams = false, seats = None, threads = 1, normalize = false, copy = true), text_signature = "(num_envs, players=4, seed=0, edition='1e', expansions=(), teams=False, seats=None, threads=1, normalize=False, copy=True)")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        num_envs: usize,
        players: u8,
        seed: u64,
        edition: &str,
        expansions: Vec<String>,
        teams: bool,
        seats: Option<Vec<Option<String>>>,
        threads: usize,
        normalize: bool,
        copy: bool,
        py: Python<'_>,
    ) -> PyResult<SelfPlay> {
        let edition = edition_from(edition)?;
        let expansions = check_expansions(&expansions)?;
        if !(1..=65_536).contains(&num_envs) {
            return Err(value_error(format!("num_envs {num_envs}: 1 to 65536 games")));
        }
        if !(1..=256).contains(&threads) {
            return Err(value_error(format!("threads {threads}: 1 to 256")));
        }
        let probe =
            Game::new(&Setup { edition, players, seed, wonders: WonderDeal::Random, expansions, teams })
                .map_err(value_error)?;
        let n = probe.players();
        let seats = seats.unwrap_or_else(|| vec![None; n]);
        if seats.len() != n {
            return Err(value_error(format!(
                "seats has {} entries for {n} seats (None for a learning seat, else a bot's name)",
                seats.len()
            )));
        }
        for name in seats.iter().flatten() {
            bot_from_name(name, 0).map_err(value_error)?;
        }
        let learners: Vec<usize> = (0..n).filter(|&s| seats[s].is_none()).collect();
        if learners.is_empty() {
            return Err(value_error("no learning seat: mark at least one seat None in seats"));
        }
        let enc = Encoder::for_game(&probe);
        let scale = normalize.then(|| observation_scale(&enc));
        let (l, d, a) = (learners.len(), enc.observation_len(), enc.action_count());
        let (score_width, rank_width) = (probe.scores().len(), probe.ranks().len());
        let config = Config {
            edition,
            players,
            expansions,
            teams,
            enc,
            seats,
            learners,
            scale,
            score_width,
            rank_width,
        };
        let pool = if threads > 1 {
            Some(rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(value_error)?)
        } else {
            None
        };
        let slots = (0..num_envs as u64)
            .map(|k| Slot::new(&config, seed.wrapping_add(k)))
            .collect::<Result<_, String>>()
            .map_err(value_error)?;
        let inner = Inner {
            slots,
            started: num_envs as u64,
            seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
            agent_steps: 0,
            games_finished: 0,
            obs: PyArray3::zeros(py, [num_envs, l, d], false).unbind(),
            mask: PyArray3::zeros(py, [num_envs, l, a], false).unbind(),
        };
        Ok(SelfPlay { inner: Mutex::new(inner), pool, config, num_envs, copy })
    }

    /// Games stepped together.
    #[getter]
    fn num_envs(&self) -> usize {
        self.num_envs
    }

    /// Seats of each game (the 2-player game's Free City is not a seat).
    #[getter]
    fn players(&self) -> usize {
        self.config.seats.len()
    }

    /// Entries of the `scores` of a finished game: every city (the 2-player game's Free City
    /// last).
    #[getter]
    fn score_width(&self) -> usize {
        self.config.score_width
    }

    /// The learning seats, in seat order (the second axis of observations, masks, actions and
    /// rewards).
    #[getter]
    fn learners(&self) -> Vec<usize> {
        self.config.learners.clone()
    }

    /// Each seat's bot name, `None` for a learning seat.
    #[getter]
    fn seats(&self) -> Vec<Option<String>> {
        self.config.seats.clone()
    }

    /// Floats in one observation.
    #[getter]
    fn observation_size(&self) -> usize {
        self.config.enc.observation_len()
    }

    /// Indices in the action space.
    #[getter]
    fn action_count(&self) -> usize {
        self.config.enc.action_count()
    }

    /// The "wait" index: the only legal one of a seat with nothing to decide.
    #[getter]
    fn wait_index(&self) -> usize {
        self.config.enc.wait_index()
    }

    /// Decisions the learning seats made since construction (a seat with nothing to decide,
    /// playing "wait", makes none).
    #[getter]
    fn agent_steps(&self) -> PyResult<u64> {
        Ok(self.lock()?.agent_steps)
    }

    /// Games finished since construction.
    #[getter]
    fn games_finished(&self) -> PyResult<u64> {
        Ok(self.lock()?.games_finished)
    }

    /// Restarts every game (game `k` from `seed + k`; `seed` defaults to the last one given) and
    /// returns observations `[N, L, D]` (float32) and masks `[N, L, A]` (bool).
    #[pyo3(signature = (seed = None))]
    #[allow(clippy::type_complexity)]
    fn reset<'py>(&self, py: Python<'py>, seed: Option<u64>) -> PyResult<Batch<'py>> {
        let mut inner = self.lock()?;
        if let Some(s) = seed {
            inner.seed = s;
            inner.rng = ChaCha8Rng::seed_from_u64(s);
        }
        let base = inner.seed;
        let n = self.num_envs;
        let config = &self.config;
        let slots: Result<Vec<Slot>, String> =
            py.detach(|| (0..n as u64).map(|k| Slot::new(config, base.wrapping_add(k))).collect());
        inner.slots = slots.map_err(value_error)?;
        inner.started = n as u64;
        let mut extra: Vec<(u32, Option<End>)> = (0..n).map(|_| (0, None)).collect();
        let (obs_arr, mask_arr) = (inner.obs.bind(py).clone(), inner.mask.bind(py).clone());
        let (mut obs_rw, mut mask_rw) = (obs_arr.try_readwrite()?, mask_arr.try_readwrite()?);
        let obs = obs_rw.as_slice_mut().map_err(value_error)?;
        let mask = mask_rw.as_slice_mut().map_err(value_error)?;
        let slots = &mut inner.slots;
        py.detach(|| self.for_each(slots, obs, mask, &mut extra, |_, s, o, m, _| s.write(config, o, m)));
        drop((obs_rw, mask_rw));
        self.outputs(py, &inner)
    }

    /// Plays one step: `actions` is an int64 array `[N, L]`, each index legal in its mask (a
    /// seat with nothing to decide plays the wait index). Raises `ValueError`, changing nothing,
    /// for a wrong shape or an index that is not legal. Returns `(obs, masks, rewards [N, L],
    /// dones [N], ended [k], final_obs [k, L, D], final_masks [k, L, A], scores [k, P] (totals),
    /// ranks [k, P], lengths [k])`, the last six for the `k` games that ended in this step
    /// (their rows of `obs` and `masks` are already the new games').
    fn step<'py>(&self, py: Python<'py>, actions: PyReadonlyArray2<'py, i64>) -> PyResult<StepOut<'py>> {
        let mut inner = self.lock()?;
        let (n, l, d, a) = self.shape();
        let view = actions.as_array();
        if view.shape() != [n, l] {
            return Err(value_error(format!(
                "actions of shape {:?}: expected [{n}, {l}] (games, learning seats)",
                view.shape()
            )));
        }
        let config = &self.config;
        let mut resolved: Vec<Option<Action>> = Vec::with_capacity(n * l);
        for (i, slot) in inner.slots.iter().enumerate() {
            for k in 0..l {
                let action = slot
                    .resolve(config, k, view[[i, k]])
                    .map_err(|e| value_error(format!("game {i}, {e}")))?;
                resolved.push(action);
            }
        }
        let base = inner.seed;
        let mut fin_obs = Vec::new();
        let mut fin_mask = Vec::new();
        let mut extra: Vec<(u32, Option<End>)> = (0..n).map(|_| (0, None)).collect();
        let (obs_arr, mask_arr) = (inner.obs.bind(py).clone(), inner.mask.bind(py).clone());
        let (mut obs_rw, mut mask_rw) = (obs_arr.try_readwrite()?, mask_arr.try_readwrite()?);
        let obs = obs_rw.as_slice_mut().map_err(value_error)?;
        let mask = mask_rw.as_slice_mut().map_err(value_error)?;
        let slots = &mut inner.slots;
        py.detach(|| {
            self.for_each(slots, obs, mask, &mut extra, |i, slot, o, m, e| {
                *e = slot.apply(config, &resolved[i * l..(i + 1) * l]);
                slot.write(config, o, m);
            })
        });
        let ended: Vec<usize> = (0..n).filter(|&i| extra[i].1.is_some()).collect();
        // Finished games: keep their final rows, restart them in order (each takes the next
        // unused seed, whatever the threads) and write the new games' first rows.
        for &i in &ended {
            fin_obs.extend_from_slice(&obs[i * l * d..(i + 1) * l * d]);
            fin_mask.extend_from_slice(&mask[i * l * a..(i + 1) * l * a]);
            let seed = base.wrapping_add(inner.started);
            inner.started += 1;
            let slot = &mut inner.slots[i];
            if let Ok(fresh) = Slot::new(config, seed) {
                *slot = fresh;
            }
            slot.write(config, &mut obs[i * l * d..(i + 1) * l * d], &mut mask[i * l * a..(i + 1) * l * a]);
        }
        drop((obs_rw, mask_rw));
        let (p, q) = (config.score_width, config.rank_width);
        let mut rewards = vec![0.0f32; n * l];
        let mut scores = Vec::with_capacity(ended.len() * p);
        let mut ranks = Vec::with_capacity(ended.len() * q);
        let mut lengths = Vec::with_capacity(ended.len());
        let mut dones = vec![false; n];
        let mut decided = 0u64;
        for (i, (dec, end)) in extra.iter().enumerate() {
            decided += u64::from(*dec);
            if let Some(end) = end {
                dones[i] = true;
                for (k, &seat) in config.learners.iter().enumerate() {
                    rewards[i * l + k] = (end.ranks[seat] == 1) as u8 as f32;
                }
                scores.extend_from_slice(&end.scores);
                ranks.extend_from_slice(&end.ranks);
                lengths.push(end.length);
            }
        }
        inner.agent_steps += decided;
        inner.games_finished += ended.len() as u64;
        let k = ended.len();
        let (obs, mask) = self.outputs(py, &inner)?;
        Ok((
            obs,
            mask,
            PyArray2::from_owned_array(py, Array2::from_shape_vec((n, l), rewards).map_err(value_error)?),
            PyArray1::from_owned_array(py, Array1::from(dones)),
            PyArray1::from_owned_array(py, Array1::from(ended.iter().map(|&i| i as i64).collect::<Vec<_>>())),
            PyArray3::from_owned_array(py, Array3::from_shape_vec((k, l, d), fin_obs).map_err(value_error)?),
            PyArray3::from_owned_array(py, Array3::from_shape_vec((k, l, a), fin_mask).map_err(value_error)?),
            PyArray2::from_owned_array(py, Array2::from_shape_vec((k, p), scores).map_err(value_error)?),
            PyArray2::from_owned_array(py, Array2::from_shape_vec((k, q), ranks).map_err(value_error)?),
            PyArray1::from_owned_array(py, Array1::from(lengths)),
        ))
    }

    /// Uniformly random legal indices `[N, L]` for the current masks (from the env's own
    /// generator, seeded by `reset(seed)`): a baseline agent, and the speed benchmark's.
    fn random_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let mut inner = self.lock()?;
        let (n, l, _, _) = self.shape();
        let wait = self.config.enc.wait_index() as i64;
        let mut out = Vec::with_capacity(n * l);
        let Inner { slots, rng, .. } = &mut *inner;
        for slot in slots.iter() {
            for idx in &slot.indices {
                out.push(if idx.is_empty() { wait } else { i64::from(idx[rng.random_range(0..idx.len())]) });
            }
        }
        Ok(PyArray2::from_owned_array(py, Array2::from_shape_vec((n, l), out).map_err(value_error)?))
    }

    /// The game `index` of the batch as a `wonders.Game` (a copy, without record), e.g. to look
    /// at it or to search from it.
    fn game(&self, index: usize) -> PyResult<crate::game::PyGame> {
        let inner = self.lock()?;
        let slot = inner
            .slots
            .get(index)
            .ok_or_else(|| value_error(format!("no game {index} in {}", self.num_envs)))?;
        Ok(crate::game::PyGame::from_game(slot.game.clone(), None))
    }
}

/// One multiplier per observation float for normalised observations (each float times its
/// multiplier, then clipped to [-1, 1]), for games of `edition` with `expansions`.
#[pyfunction]
#[pyo3(name = "observation_scale", signature = (edition = "1e", expansions = Vec::new()), text_signature = "(edition='1e', expansions=())")]
pub fn observation_scale_py<'py>(
    py: Python<'py>,
    edition: &str,
    expansions: Vec<String>,
) -> PyResult<Bound<'py, PyArray1<f32>>> {
    let enc = crate::game::encoder_for(edition, &expansions)?;
    Ok(PyArray1::from_vec(py, observation_scale(&enc)))
}
