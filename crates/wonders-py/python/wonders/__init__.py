"""7 Wonders for AI research, on the exact rules and speed of the Rust engine.

- :class:`Game`: a game with legal actions, views, observation vectors, masks, resampling,
  records and replays; :class:`Action`: an immutable action with its action-space ``index``;
- :class:`Bot`: the engine's bots by name (``random``, ``heuristic``, ``search:…``);
- :class:`VecEnv`: N games stepped together in Rust, one agent seat against bots;
- :mod:`wonders.vector`: ``SelfPlayVecEnv``, N games stepped together in Rust with every seat
  (or the seats chosen) learning, as a ``gymnasium.vector.VectorEnv``;
- :mod:`wonders.gym_env`: a Gymnasium env (one seat against bots), registered as
  ``wonders/Wonders-v0`` on ``import wonders`` when Gymnasium is installed;
- :mod:`wonders.pettingzoo_env`: PettingZoo's ``env()``, ``raw_env()`` (AEC) and
  ``parallel_env()``;

The environment modules are imported on demand, so ``import wonders`` needs only NumPy.

The observation vector and the action space are documented in the Rust module
``wonders_core::tensor``; :func:`observation_layout` names every segment.
"""

from ._wonders import (
    EXPANSIONS,
    Action,
    Bot,
    Game,
    VecEnv,
    __version__,
    action_count,
    describe_action,
    observation_layout,
    observation_scale,
    observation_size,
    rust_random_games,
)
from ._spaces import describe_observation

__all__ = [
    "EXPANSIONS",
    "Action",
    "Bot",
    "Game",
    "VecEnv",
    "__version__",
    "action_count",
    "describe_action",
    "describe_observation",
    "observation_layout",
    "observation_scale",
    "observation_size",
    "rust_random_games",
]


def _register_gymnasium() -> None:
    """Registers ``wonders/Wonders-v0`` with Gymnasium, if installed, without importing the env."""
    try:
        import gymnasium
    except ImportError:
        return
    if "wonders/Wonders-v0" not in gymnasium.registry:
        gymnasium.register(id="wonders/Wonders-v0", entry_point="wonders.gym_env:WondersEnv")


_register_gymnasium()
