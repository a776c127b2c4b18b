//! `wonders.VecEnv`: N games stepped together in Rust for learning agents, with the GIL released
//! and the games spread over a bounded rayon thread pool.
//!
//! Each game seats the agent at one seat and bots (by name) at the others. `step(actions)` takes
//! one action index per game (paid the default way, see [`wonders_core::tensor`]), lets the bots
//! play until the agent must decide again, and returns the stacked observations, masks, rewards
//! and dones. A finished game restarts at once with the next seed (its `done` is set and its
//! observation is the new game's first).
//!
//! Reward: 1 when the game ends with the agent ranked first (a shared first place counts), else
//! 0; every other step gives 0.

use crate::game::{check_expansions, edition_from};
use numpy::ndarray::{Array1, Array2};
use numpy::{PyArray1, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::sync::Mutex;
use std::time::Instant;
use wonders_bots::{Bot, bot_from_name};
use wonders_core::tensor::Encoder;
use wonders_core::{Action, Edition, Expansions, Game, Setup, View, WonderDeal};

/// Stacked observations `[N, D]` and masks `[N, A]`.
type Stacked<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<bool>>);

/// What every game of a vector shares.
#[derive(Clone)]
struct Config {
    edition: Edition,
    players: u8,
    seat: usize,
    /// One bot name per seat (the agent's entry is unused).
    opponents: Vec<String>,
    enc: Encoder,
    expansions: Expansions,
    teams: bool,
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

/// One game and its bots.
struct Slot {
    game: Game,
    bots: Vec<Option<Box<dyn Bot + Send>>>,
    legal: Vec<Action>,
    view: View,
}

/// A bot's seed, from the game's seed and the seat.
fn bot_seed(game_seed: u64, seat: usize) -> u64 {
    game_seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(seat as u64 + 1)
}

impl Slot {
    fn new(config: &Config, game_seed: u64) -> Result<Slot, String> {
        let game = Game::new(&config.setup(game_seed)).map_err(|e| e.to_string())?;
        let bots = (0..game.players())
            .map(|s| {
                if s == config.seat {
                    Ok(None)
                } else {
                    bot_from_name(&config.opponents[s], bot_seed(game_seed, s)).map(Some)
                }
            })
            .collect::<Result<_, String>>()?;
        let view = game.view(config.seat);
        let mut slot = Slot { game, bots, legal: Vec::new(), view };
        slot.play_bots();
        Ok(slot)
    }

    /// Lets the bots play (as `Game.play_bots` does): while a bot's seat must act, it acts; stops
    /// when only the agent's seat is awaited or the game is over.
    fn play_bots(&mut self) {
        loop {
            let mut acted = false;
            for s in self.game.to_act() {
                let Some(bot) = self.bots[s].as_mut() else { continue };
                if !self.game.must_act(s) {
                    continue;
                }
                self.game.legal_actions_into(s, &mut self.legal);
                self.game.view_into(s, &mut self.view);
                let action = bot.choose(&self.view, &self.legal);
                // A bot picks among the legal actions; a refusal would be an engine bug: fall
                // back to the first legal action rather than loop.
                if self.game.submit(s, action).is_err() {
                    let first = self.legal[0];
                    let _ = self.game.submit(s, first);
                }
                acted = true;
            }
            if !acted || self.game.is_over() {
                return;
            }
        }
    }

    /// The agent's action: submits it, lets the bots play; returns (reward, done) and leaves
    /// the slot at a game where the agent must act (a new one after the end).
    fn apply(&mut self, config: &Config, index: usize, next_seed: u64) -> (f32, bool) {
        self.game.legal_actions_into(config.seat, &mut self.legal);
        if let Some(action) = config.enc.choose(&self.legal, index) {
            // Checked legal by the caller.
            let _ = self.game.submit(config.seat, action);
        }
        self.play_bots();
        if self.game.is_over() {
            let reward = (self.game.ranks()[config.seat] == 1) as u8 as f32;
            if let Ok(fresh) = Slot::new(config, next_seed) {
                *self = fresh;
            }
            return (reward, true);
        }
        (0.0, false)
    }

    fn write(&mut self, config: &Config, obs: &mut [f32], mask: &mut [bool]) {
        self.game.view_into(config.seat, &mut self.view);
        config.enc.observe(&self.view, obs);
        self.game.legal_actions_into(config.seat, &mut self.legal);
        config.enc.mask(&self.legal, mask);
    }
}

struct Inner {
    slots: Vec<Slot>,
    /// Games started so far (the next game's seed is `seed + started`).
    started: u64,
    seed: u64,
}

/// N games stepped together: `VecEnv(num_envs, players=4, seed=0, edition="1e",
/// opponents="random", seat=0, threads=2, expansions=(), teams=False)`.
///
/// `opponents` is one bot name for every other seat, or a list with one name per other seat in
/// seat order. `threads` bounds the thread pool (1 steps the games on the calling thread's pool
/// of one). Game `k` (counting from the last `reset`) is dealt from seed `seed + k`.
#[pyclass(name = "VecEnv", module = "wonders")]
pub struct VecEnv {
    inner: Mutex<Inner>,
    pool: rayon::ThreadPool,
    config: Config,
    num_envs: usize,
}

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

impl VecEnv {
    fn arrays<'py>(&self, py: Python<'py>, inner: &mut Inner) -> PyResult<Stacked<'py>> {
        let (d, a) = (self.config.enc.observation_len(), self.config.enc.action_count());
        let mut obs = vec![0.0f32; self.num_envs * d];
        let mut mask = vec![false; self.num_envs * a];
        let config = &self.config;
        let slots = &mut inner.slots;
        py.detach(|| {
            self.pool.install(|| {
                slots
                    .par_iter_mut()
                    .zip(obs.par_chunks_mut(d))
                    .zip(mask.par_chunks_mut(a))
                    .for_each(|((slot, o), m)| slot.write(config, o, m))
            })
        });
        let obs = Array2::from_shape_vec((self.num_envs, d), obs).map_err(value_error)?;
        let mask = Array2::from_shape_vec((self.num_envs, a), mask).map_err(value_error)?;
        Ok((PyArray2::from_owned_array(py, obs), PyArray2::from_owned_array(py, mask)))
    }
}

fn opponents_from(value: Option<&Bound<'_, PyAny>>, players: usize, seat: usize) -> PyResult<Vec<String>> {
    let names: Vec<String> = match value {
        None => vec!["random".into(); players.saturating_sub(1)],
        Some(v) => match v.extract::<String>() {
            Ok(one) => vec![one; players.saturating_sub(1)],
            Err(_) => v.extract::<Vec<String>>()?,
        },
    };
    if names.len() != players.saturating_sub(1) {
        return Err(value_error(format!(
            "{} opponent names for {} other seats (give one name, or one per other seat)",
            names.len(),
            players.saturating_sub(1)
        )));
    }
    for n in &names {
        bot_from_name(n, 0).map_err(value_error)?;
    }
    let mut it = names.into_iter();
    Ok((0..players).map(|s| if s == seat { String::new() } else { it.next().unwrap_or_default() }).collect())
}

#[pymethods]
impl VecEnv {
    #[new]
    #[pyo3(signature = (num_envs, players = 4, seed = 0, edition = "1e", opponents = None, seat = 0, threads = 2, expansions = Vec::new(), teams = false), text_signature = "(num_envs, players=4, seed=0, edition='1e', opponents=None, seat=0, threads=2, expansions=(), teams=False)")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        num_envs: usize,
        players: u8,
        seed: u64,
        edition: &str,
        opponents: Option<&Bound<'_, PyAny>>,
        seat: usize,
        threads: usize,
        expansions: Vec<String>,
        teams: bool,
    ) -> PyResult<VecEnv> {
        let edition = edition_from(edition)?;
        let expansions = check_expansions(&expansions)?;
        if !(1..=4096).contains(&num_envs) {
            return Err(value_error(format!("num_envs {num_envs}: 1 to 4096 games")));
        }
        if !(1..=64).contains(&threads) {
            return Err(value_error(format!("threads {threads}: 1 to 64")));
        }
        let probe =
            Game::new(&Setup { edition, players, seed, wonders: WonderDeal::Random, expansions, teams })
                .map_err(value_error)?;
        if seat >= probe.players() {
            return Err(value_error(format!("there is no seat {seat} in a game of {players} players")));
        }
        let config = Config {
            edition,
            players,
            seat,
            opponents: opponents_from(opponents, probe.players(), seat)?,
            enc: Encoder::for_game(&probe),
            expansions,
            teams,
        };
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(value_error)?;
        let slots = (0..num_envs as u64)
            .map(|k| Slot::new(&config, seed.wrapping_add(k)))
            .collect::<Result<_, String>>()
            .map_err(value_error)?;
        Ok(VecEnv {
            inner: Mutex::new(Inner { slots, started: num_envs as u64, seed }),
            pool,
            config,
            num_envs,
        })
    }

    /// Games stepped together.
    #[getter]
    fn num_envs(&self) -> usize {
        self.num_envs
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

    /// Restarts every game (from `seed`, or from the seed given at construction) and returns the
    /// stacked observations `[N, D]` (float32) and masks `[N, A]` (bool).
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(&self, py: Python<'py>, seed: Option<u64>) -> PyResult<Stacked<'py>> {
        let mut inner = self.inner.lock().map_err(|_| value_error("environment poisoned"))?;
        if let Some(s) = seed {
            inner.seed = s;
        }
        let base = inner.seed;
        inner.slots = (0..self.num_envs as u64)
            .map(|k| Slot::new(&self.config, base.wrapping_add(k)))
            .collect::<Result<_, String>>()
            .map_err(value_error)?;
        inner.started = self.num_envs as u64;
        self.arrays(py, &mut inner)
    }

    /// Plays one action index per game (a sequence or array of N ints, each legal in its game's
    /// mask) and returns `(observations [N, D], masks [N, A], rewards [N], dones [N])`. Raises
    /// `ValueError`, changing nothing, when an index is not legal.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: Vec<i64>,
    ) -> PyResult<(
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray2<bool>>,
        Bound<'py, PyArray1<f32>>,
        Bound<'py, PyArray1<bool>>,
    )> {
        let mut inner = self.inner.lock().map_err(|_| value_error("environment poisoned"))?;
        if actions.len() != self.num_envs {
            return Err(value_error(format!("{} actions for {} games", actions.len(), self.num_envs)));
        }
        let seat = self.config.seat;
        let mut legal = Vec::new();
        for (i, (&a, slot)) in actions.iter().zip(&inner.slots).enumerate() {
            slot.game.legal_actions_into(seat, &mut legal);
            let ok = usize::try_from(a).ok().and_then(|a| self.config.enc.choose(&legal, a)).is_some();
            if !ok {
                return Err(value_error(format!("game {i}: action index {a} is not legal (see its mask)")));
            }
        }
        let mut rewards = vec![0.0f32; self.num_envs];
        let mut dones = vec![false; self.num_envs];
        let (d, a) = (self.config.enc.observation_len(), self.config.enc.action_count());
        let mut obs = vec![0.0f32; self.num_envs * d];
        let mut mask = vec![false; self.num_envs * a];
        let config = &self.config;
        let (base, started) = (inner.seed, inner.started);
        let slots = &mut inner.slots;
        // One pass per game, on the pool: its action, the bots' moves, its new observation.
        py.detach(|| {
            self.pool.install(|| {
                slots
                    .par_iter_mut()
                    .zip(&actions)
                    .zip(rewards.par_iter_mut().zip(dones.par_iter_mut()))
                    .zip(obs.par_chunks_mut(d).zip(mask.par_chunks_mut(a)))
                    .enumerate()
                    .for_each(|(i, (((slot, &action), (r, done)), (o, m)))| {
                        // Seeds of restarted games: one per game, whatever the thread order.
                        let next = base.wrapping_add(started + i as u64);
                        (*r, *done) = slot.apply(config, action as usize, next);
                        slot.write(config, o, m);
                    })
            })
        });
        // Restarted games took the seeds `started + i`; keep them unique by moving past all N.
        if dones.iter().any(|&d| d) {
            inner.started += self.num_envs as u64;
        }
        let obs = Array2::from_shape_vec((self.num_envs, d), obs).map_err(value_error)?;
        let mask = Array2::from_shape_vec((self.num_envs, a), mask).map_err(value_error)?;
        let (obs, mask) = (PyArray2::from_owned_array(py, obs), PyArray2::from_owned_array(py, mask));
        Ok((
            obs,
            mask,
            PyArray1::from_owned_array(py, Array1::from(rewards)),
            PyArray1::from_owned_array(py, Array1::from(dones)),
        ))
    }
}

/// The same games as `VecEnv` with a uniformly random agent, played entirely in Rust (the GIL
/// released): `rust_random_games(games, players=4, seed=0, edition="1e", opponents="random",
/// threads=1, observe=False, expansions=())`; with `observe` it also builds the agent's observation and mask
/// after each step, as the environments do. Returns `{"games", "agent_steps", "seconds"}`: the baseline for the Python
/// environments' steps per second.
#[pyfunction]
#[pyo3(signature = (games, players = 4, seed = 0, edition = "1e", opponents = "random", threads = 1, observe = false, expansions = Vec::new()), text_signature = "(games, players=4, seed=0, edition='1e', opponents='random', threads=1, observe=False, expansions=())")]
#[allow(clippy::too_many_arguments)]
pub fn rust_random_games<'py>(
    py: Python<'py>,
    games: u64,
    players: u8,
    seed: u64,
    edition: &str,
    opponents: &str,
    threads: usize,
    observe: bool,
    expansions: Vec<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let edition = edition_from(edition)?;
    let expansions = check_expansions(&expansions)?;
    let probe =
        Game::new(&Setup { edition, players, seed, wonders: WonderDeal::Random, expansions, teams: false })
            .map_err(value_error)?;
    bot_from_name(opponents, 0).map_err(value_error)?;
    let config = Config {
        edition,
        players,
        seat: 0,
        opponents: (0..probe.players()).map(|_| opponents.to_string()).collect(),
        enc: Encoder::for_game(&probe),
        expansions,
        teams: false,
    };
    let pool =
        rayon::ThreadPoolBuilder::new().num_threads(threads.clamp(1, 64)).build().map_err(value_error)?;
    let start = Instant::now();
    let steps: Result<u64, String> = py.detach(|| {
        pool.install(|| {
            (0..games)
                .into_par_iter()
                .map(|g| {
                    let mut slot = Slot::new(&config, seed.wrapping_add(g))?;
                    let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_add(g));
                    let mut mask = vec![false; config.enc.action_count()];
                    let mut obs = vec![0.0f32; config.enc.observation_len()];
                    let mut legal_indices = Vec::new();
                    let mut steps = 0;
                    while !slot.game.is_over() {
                        slot.game.legal_actions_into(0, &mut slot.legal);
                        config.enc.mask(&slot.legal, &mut mask);
                        legal_indices.clear();
                        legal_indices.extend((0..mask.len()).filter(|&i| mask[i]));
                        let index = legal_indices[rng.random_range(0..legal_indices.len())];
                        if let Some(action) = config.enc.choose(&slot.legal, index) {
                            let _ = slot.game.submit(0, action);
                        }
                        slot.play_bots();
                        if observe {
                            slot.write(&config, &mut obs, &mut mask);
                        }
                        steps += 1;
                    }
                    Ok(steps)
                })
                .try_reduce(|| 0, |a, b| Ok(a + b))
        })
    });
    let seconds = start.elapsed().as_secs_f64();
    let d = PyDict::new(py);
    d.set_item("games", games)?;
    d.set_item("agent_steps", steps.map_err(value_error)?)?;
    d.set_item("seconds", seconds)?;
    Ok(d)
}
