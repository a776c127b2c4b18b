//! # wonders-py
//!
//! The Python extension module `wonders._wonders` (PyO3, stable ABI from Python 3.9), built by
//! maturin into the `wonders` package (`python/wonders/` holds its pure-Python parts: the
//! PettingZoo and Gymnasium environments). It exposes:
//!
//! - [`game::PyGame`] (`wonders.Game`): a game with legal actions, views, observation tensors,
//!   masks, resampling, records and replays;
//! - [`game::PyAction`] (`wonders.Action`): an immutable action with its index in the fixed
//!   action space ([`wonders_core::tensor`]);
//! - [`game::PyBot`] (`wonders.Bot`): the bots of `wonders-bots` by name;
//! - [`vecenv::VecEnv`] (`wonders.VecEnv`): N games stepped together in Rust, the GIL released,
//!   over a bounded thread pool;
//! - [`selfplay::SelfPlay`] (`wonders._wonders.SelfPlay`): the core of the self-play vector
//!   environment `wonders.vector.SelfPlayVecEnv` (every seat, or the seats chosen, learning).
//!
//! Its tests are in Python (`crates/wonders-py/tests`, run by pytest from `.ci/python-tests`).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod game;
pub mod selfplay;
pub mod vecenv;

use pyo3::prelude::*;

/// The module `wonders._wonders`.
#[pymodule]
fn _wonders(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<game::PyGame>()?;
    m.add_class::<game::PyAction>()?;
    m.add_class::<game::PyBot>()?;
    m.add_class::<vecenv::VecEnv>()?;
    m.add_class::<selfplay::SelfPlay>()?;
    m.add_function(wrap_pyfunction!(selfplay::observation_scale_py, m)?)?;
    m.add_function(wrap_pyfunction!(game::observation_size, m)?)?;
    m.add_function(wrap_pyfunction!(game::action_count, m)?)?;
    m.add_function(wrap_pyfunction!(game::observation_layout, m)?)?;
    m.add_function(wrap_pyfunction!(game::describe_action, m)?)?;
    m.add_function(wrap_pyfunction!(vecenv::rust_random_games, m)?)?;
    m.add("EXPANSIONS", game::EXPANSIONS.to_vec())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
