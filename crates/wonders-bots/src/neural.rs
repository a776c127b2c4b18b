//! The `neural` bot: a policy/value network that plays with no search.
//!
//! The network is a small multilayer perceptron over the observation vector of
//! [`wonders_core::tensor`] (the seat's [`View`] only):
//!
//! ```text
//! x = clamp(observation × scale, −1, 1)          (the scale is stored with the weights)
//! h1 = relu(x W1 + b1), h2 = relu(h1 W2 + b2)     (hidden layers of the same width)
//! logits = h2 Wπ + bπ (+ hv_w × hv)               (one per index of the action space)
//! value = sigmoid(h2 Wv + bv)                     (the seat's expected win share, 0 to 1)
//! ```
//!
//! Two networks ship, both trained by imitating the search bot, 4 players, 1st edition, base game
//! (`training/` in the repository; the guide's *Neural bot* page gives the commands that rebuild
//! the weights and the measured strength):
//!
//! - **the residual network** ([`Network::embedded_residual`], format [`FORMAT_RESIDUAL`]), which
//!   the `neural` bot plays: its logits add `hv_w × hv`, where `hv` is the heuristic's opinion of
//!   every index ([`crate::heuristic::index_values`]: the best value of its legal actions less the
//!   best legal action's, in points, from the same view) and `hv_w` one learned weight. The
//!   perceptron learns what the search does beyond the heuristic; the heuristic supplies the
//!   arithmetic of payments and counts that a perceptron does not learn from examples.
//! - **the plain network** ([`Network::embedded`], format [`FORMAT`]): the perceptron alone, the
//!   search's prior (`search:…:neural`) and the network of `neural:heuristic`.
//!
//! The weights are embedded in the binary, so the bots need no file and no Python.
//!
//! [`NeuralBot`] encodes its view, runs the network once and plays the legal index with the
//! highest logit (deterministic: no sampling), paid the default way ([`Encoder::choose`]).
//!
//! **Games the network was not trained for.** The observation's length and the action space
//! depend on the edition's catalog and on the expansions played. The network plays games of its
//! edition without expansion at any player count (the observation always has 7 city blocks; it
//! was trained at 4 players only, so it is weaker elsewhere). In any other game (another
//! edition, Edifice, Armada) its input would not fit, and [`NeuralBot`] plays as the
//! [`HeuristicBot`] does.
//!
//! ```
//! use wonders_bots::{Bot, NeuralBot};
//! use wonders_core::{Game, Setup};
//!
//! let game = Game::new(&Setup::new(4, 7)).unwrap();
//! let legal = game.legal_actions(0);
//! let mut bot = NeuralBot::new();
//! assert!(legal.contains(&bot.choose(&game.view(0), &legal)));
//! ```

use crate::{Bot, HeuristicBot};
use candle_core::{DType, Device, Tensor};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use wonders_core::tensor::Encoder;
use wonders_core::{Action, Catalog, Edition, View};

/// The plain network's weights (safetensors), made by `training/train.py`: the search's prior
/// (`search:…:neural`) and `neural:heuristic`'s network ([`Network::embedded`]).
pub const EMBEDDED_WEIGHTS: &[u8] = include_bytes!("../weights/neural.safetensors");

/// The residual network's weights (safetensors), made by `training/train.py --residual`: the
/// network the `neural` bot plays ([`Network::embedded_residual`]).
pub const EMBEDDED_RESIDUAL_WEIGHTS: &[u8] = include_bytes!("../weights/neural-residual.safetensors");

/// The `format` entry of a plain network's weight file.
pub const FORMAT: &str = "wonders-neural-mlp-1";

/// The `format` entry of a residual network's weight file: the perceptron of [`FORMAT`] plus
/// `hv_w` `[1]`, the weight of the heuristic's values in the logits (see the module docs).
pub const FORMAT_RESIDUAL: &str = "wonders-neural-mlp-2";

/// Why a weight file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum NetworkError {
    /// The bytes are not a safetensors file.
    #[error("not a safetensors weight file: {0}")]
    Format(String),
    /// The file's metadata lacks an entry, or holds a wrong one.
    #[error("weight file metadata: {0}")]
    Metadata(String),
    /// A tensor is missing or has the wrong shape.
    #[error("weight file tensor `{name}`: {problem}")]
    Tensor {
        /// The tensor's name.
        name: String,
        /// What is wrong with it.
        problem: String,
    },
    /// The network's input or output does not fit the edition's encoder.
    #[error(
        "the network takes {observation} observation floats and {actions} actions, but {edition} games have {expected_observation} and {expected_actions}"
    )]
    Encoder {
        /// The edition named in the metadata.
        edition: Edition,
        /// The network's input length.
        observation: usize,
        /// The network's output length.
        actions: usize,
        /// The encoder's observation length.
        expected_observation: usize,
        /// The encoder's action count.
        expected_actions: usize,
    },
    /// An observation of the wrong length was given to [`Network::forward`].
    #[error("an observation of {got} floats, expected {expected}")]
    Input {
        /// Its length.
        got: usize,
        /// The network's input length.
        expected: usize,
    },
    /// A tensor operation failed.
    #[error("tensor operation: {0}")]
    Candle(#[from] candle_core::Error),
}

/// The network's reading of a position: a probability for each legal action and the seat's
/// expected win share.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// One probability per action of the `legal` list given, summing to 1. Several actions may
    /// share an index of the action space (ways to pay the same construction): the index's
    /// probability goes to the one the bot would play (the default payment,
    /// [`Encoder::choose`]) and the others get 0.
    pub policy: Vec<f32>,
    /// The seat's expected win share at the end of the game (1 for a sole win, `1/k` for a win
    /// shared by `k` cities, else 0), from 0 to 1.
    pub value: f32,
}

/// The policy/value network (see the module docs): weights on the CPU, immutable, cheap to
/// share between threads.
#[derive(Debug)]
pub struct Network {
    edition: Edition,
    encoder: Encoder,
    scale: Vec<f32>,
    w1: Tensor,
    b1: Tensor,
    w2: Tensor,
    b2: Tensor,
    pi_w: Tensor,
    pi_b: Tensor,
    v_w: Tensor,
    v_b: Tensor,
    /// A residual network's weight of the heuristic's values, logits per point.
    hv_w: Option<f32>,
}

fn tensor(tensors: &HashMap<String, Tensor>, name: &str, dims: &[usize]) -> Result<Tensor, NetworkError> {
    let t = tensors
        .get(name)
        .ok_or_else(|| NetworkError::Tensor { name: name.into(), problem: "missing".into() })?;
    if t.dims() != dims {
        return Err(NetworkError::Tensor {
            name: name.into(),
            problem: format!("shape {:?}, expected {dims:?}", t.dims()),
        });
    }
    Ok(t.to_dtype(DType::F32)?)
}

impl Network {
    /// The residual network shipped with the `neural` bot, loaded once per process.
    pub fn embedded_residual() -> Arc<Network> {
        static NET: OnceLock<Arc<Network>> = OnceLock::new();
        NET.get_or_init(|| {
            // The embedded file is tested (`neural` tests): it always loads.
            Arc::new(
                Network::from_safetensors(EMBEDDED_RESIDUAL_WEIGHTS)
                    .expect("the embedded residual network loads"),
            )
        })
        .clone()
    }

    /// The plain network shipped with the search's prior and `neural:heuristic`, loaded once
    /// per process.
    pub fn embedded() -> Arc<Network> {
        static NET: OnceLock<Arc<Network>> = OnceLock::new();
        NET.get_or_init(|| {
            // The embedded file is tested (`neural` tests): it always loads.
            Arc::new(Network::from_safetensors(EMBEDDED_WEIGHTS).expect("the embedded network loads"))
        })
        .clone()
    }

    /// A network from the bytes of a safetensors weight file: metadata `format` =
    /// [`FORMAT`] and `edition` (`1e` or `2e`), tensors `obs_scale` `[D]`, `w1` `[D, H]`, `b1`
    /// `[H]`, `w2` `[H, H]`, `b2` `[H]`, `pi_w` `[H, A]`, `pi_b` `[A]`, `v_w` `[H, 1]`, `v_b`
    /// `[1]` (any float type), `D` and `A` those of the edition's base-game encoder.
    pub fn from_safetensors(bytes: &[u8]) -> Result<Network, NetworkError> {
        let (_, meta) = safetensors::SafeTensors::read_metadata(bytes)
            .map_err(|e| NetworkError::Format(e.to_string()))?;
        let meta = meta.metadata().clone().unwrap_or_default();
        let format = meta.get("format").map(String::as_str).unwrap_or("");
        if format != FORMAT && format != FORMAT_RESIDUAL {
            return Err(NetworkError::Metadata(format!(
                "format `{format}`, expected `{FORMAT}` or `{FORMAT_RESIDUAL}`"
            )));
        }
        let edition = match meta.get("edition").map(String::as_str) {
            Some("1e") => Edition::First,
            Some("2e") => Edition::Second,
            other => {
                return Err(NetworkError::Metadata(format!("edition {other:?}, expected `1e` or `2e`")));
            }
        };
        let tensors = candle_core::safetensors::load_buffer(bytes, &Device::Cpu)
            .map_err(|e| NetworkError::Format(e.to_string()))?;
        let first = |name: &str, axis: usize| -> Result<usize, NetworkError> {
            tensors
                .get(name)
                .and_then(|t| t.dims().get(axis).copied())
                .ok_or_else(|| NetworkError::Tensor { name: name.into(), problem: "missing".into() })
        };
        let (d, h, a) = (first("w1", 0)?, first("w1", 1)?, first("pi_w", 1)?);
        let encoder = Encoder::new(Catalog::get(edition));
        if d != encoder.observation_len() || a != encoder.action_count() {
            return Err(NetworkError::Encoder {
                edition,
                observation: d,
                actions: a,
                expected_observation: encoder.observation_len(),
                expected_actions: encoder.action_count(),
            });
        }
        let scale = tensor(&tensors, "obs_scale", &[d])?.to_vec1::<f32>()?;
        let hv_w = if format == FORMAT_RESIDUAL {
            Some(tensor(&tensors, "hv_w", &[1])?.to_vec1::<f32>()?[0])
        } else {
            None
        };
        Ok(Network {
            edition,
            encoder,
            scale,
            w1: tensor(&tensors, "w1", &[d, h])?,
            b1: tensor(&tensors, "b1", &[h])?,
            w2: tensor(&tensors, "w2", &[h, h])?,
            b2: tensor(&tensors, "b2", &[h])?,
            pi_w: tensor(&tensors, "pi_w", &[h, a])?,
            pi_b: tensor(&tensors, "pi_b", &[a])?,
            v_w: tensor(&tensors, "v_w", &[h, 1])?,
            v_b: tensor(&tensors, "v_b", &[1])?,
            hv_w,
        })
    }

    /// The edition the network plays.
    pub fn edition(&self) -> Edition {
        self.edition
    }

    /// The encoder of its input and output (the edition's base game).
    pub fn encoder(&self) -> &Encoder {
        &self.encoder
    }

    /// Its number of parameters (weights and biases; the observation scale not counted).
    pub fn parameters(&self) -> usize {
        [&self.w1, &self.b1, &self.w2, &self.b2, &self.pi_w, &self.pi_b, &self.v_w, &self.v_b]
            .iter()
            .map(|t| t.elem_count())
            .sum::<usize>()
            + self.hv_w.map_or(0, |_| 1)
    }

    /// A residual network's weight of the heuristic's values in its logits (logits per point of
    /// [`crate::heuristic::index_values`]); `None` for a plain network.
    pub fn heuristic_weight(&self) -> Option<f32> {
        self.hv_w
    }

    /// Whether the network plays this view's game: its edition, no expansion.
    pub fn fits(&self, view: &View) -> bool {
        view.edition == self.edition && view.edifice.is_none() && view.armada.is_none()
    }

    /// The perceptron's raw outputs for an observation vector (as [`Encoder::observe`] writes it,
    /// not scaled): the logits over the whole action space (unmasked) and the value (0 to 1). A
    /// residual network's logits add [`Network::heuristic_weight`] × the heuristic's values to
    /// these ([`Network::evaluate`] and [`Network::best_action`] do).
    pub fn forward(&self, observation: &[f32]) -> Result<(Vec<f32>, f32), NetworkError> {
        let d = self.scale.len();
        if observation.len() != d {
            return Err(NetworkError::Input { got: observation.len(), expected: d });
        }
        let x: Vec<f32> =
            observation.iter().zip(&self.scale).map(|(o, s)| (o * s).clamp(-1.0, 1.0)).collect();
        let x = Tensor::from_vec(x, (1, d), &Device::Cpu)?;
        let h = x.matmul(&self.w1)?.broadcast_add(&self.b1)?.relu()?;
        let h = h.matmul(&self.w2)?.broadcast_add(&self.b2)?.relu()?;
        let logits = h.matmul(&self.pi_w)?.broadcast_add(&self.pi_b)?.squeeze(0)?.to_vec1::<f32>()?;
        let v = h.matmul(&self.v_w)?.broadcast_add(&self.v_b)?.flatten_all()?.to_vec1::<f32>()?;
        let value = 1.0 / (1.0 + (-v[0]).exp());
        Ok((logits, value))
    }

    /// The legal index with the highest logit (the first on ties), or `None` when no index is
    /// legal.
    fn best_index(&self, logits: &[f32], mask: &[bool]) -> Option<usize> {
        let mut best: Option<(usize, f32)> = None;
        for (i, (&l, &m)) in logits.iter().zip(mask).enumerate() {
            if m && best.is_none_or(|(_, b)| l > b) {
                best = Some((i, l));
            }
        }
        best.map(|(i, _)| i)
    }

    /// The network's policy over `legal` and its value for `view`'s seat (see [`Evaluation`]),
    /// or `None` when the network does not play this game ([`Network::fits`]) or `legal` is
    /// empty.
    pub fn evaluate(&self, view: &View, legal: &[Action]) -> Option<Evaluation> {
        if !self.fits(view) || legal.is_empty() {
            return None;
        }
        let (logits, value) = self.run(view, legal).ok()?;
        let mut policy = vec![0.0f32; legal.len()];
        let mut seen = vec![false; logits.len()];
        let mut total = 0.0f32;
        let top =
            legal.iter().map(|a| logits[self.encoder.action_index(a)]).fold(f32::NEG_INFINITY, f32::max);
        for a in legal {
            let i = self.encoder.action_index(a);
            if std::mem::replace(&mut seen[i], true) {
                continue;
            }
            let p = (logits[i] - top).exp();
            if let Some(chosen) = self.encoder.choose(legal, i)
                && let Some(k) = legal.iter().position(|x| *x == chosen)
            {
                policy[k] = p;
                total += p;
            }
        }
        policy.iter_mut().for_each(|p| *p /= total);
        Some(Evaluation { policy, value })
    }

    /// The logits (the heuristic's term included for a residual network) and the value.
    fn run(&self, view: &View, legal: &[Action]) -> Result<(Vec<f32>, f32), NetworkError> {
        let mut obs = vec![0.0f32; self.encoder.observation_len()];
        self.encoder.observe(view, &mut obs);
        let (mut logits, value) = self.forward(&obs)?;
        if let Some(w) = self.hv_w {
            let mut hv = vec![0.0f32; logits.len()];
            crate::heuristic::index_values(&self.encoder, view, legal, &mut hv);
            logits.iter_mut().zip(&hv).for_each(|(l, h)| *l += w * h);
        }
        Ok((logits, value))
    }

    /// The action the network plays for `view` among `legal`, or `None` when it does not play
    /// this game.
    pub fn best_action(&self, view: &View, legal: &[Action]) -> Option<Action> {
        if !self.fits(view) || legal.is_empty() {
            return None;
        }
        let (logits, _) = self.run(view, legal).ok()?;
        let mut mask = vec![false; self.encoder.action_count()];
        self.encoder.mask(legal, &mut mask);
        let index = self.best_index(&logits, &mask)?;
        self.encoder.choose(legal, index)
    }
}

/// The `neural` bot: the network's most likely legal action, no search (see the module docs).
/// In a game the network does not play, it plays as the [`HeuristicBot`].
#[derive(Clone, Debug)]
pub struct NeuralBot {
    net: Arc<Network>,
    fallback: HeuristicBot,
    name: String,
    blend: bool,
}

impl Default for NeuralBot {
    fn default() -> Self {
        NeuralBot::new()
    }
}

impl NeuralBot {
    /// The bot with the embedded residual network ([`Network::embedded_residual`]).
    pub fn new() -> NeuralBot {
        NeuralBot::with_network(Network::embedded_residual())
    }

    /// The bot with another network.
    pub fn with_network(net: Arc<Network>) -> NeuralBot {
        NeuralBot { net, fallback: HeuristicBot::new(), name: "neural".into(), blend: false }
    }

    /// The bot under another name (for reports; `neural` by default).
    pub fn named(self, name: impl Into<String>) -> NeuralBot {
        NeuralBot { name: name.into(), ..self }
    }

    /// Its network.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }
}

impl NeuralBot {
    /// The `neural:heuristic` bot: still no search, but each move is the one with the highest
    /// heuristic value plus [`crate::search::BLEND_POINTS`] per unit of `ln(p / p_best)` of the
    /// network's probabilities (the search's root prior with `search:…:neural`), so the network
    /// and the rules each correct the other's blind spots.
    pub fn blended() -> NeuralBot {
        NeuralBot {
            blend: true,
            name: "neural:heuristic".into(),
            ..NeuralBot::with_network(Network::embedded())
        }
    }
}

impl Bot for NeuralBot {
    fn choose(&mut self, view: &View, legal: &[Action]) -> Action {
        let pick = if self.blend {
            crate::search::blended_choice(&self.net, view, legal)
        } else {
            self.net.best_action(view, legal)
        };
        match pick {
            Some(a) => a,
            None => self.fallback.choose(view, legal),
        }
    }

    fn name(&self) -> String {
        self.name.clone()
    }
}
