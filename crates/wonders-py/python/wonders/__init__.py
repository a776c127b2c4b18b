"""7 Wonders for AI research, on the exact rules and speed of the Rust engine.

- :class:`Game`: a game with legal actions, views, observation vectors, masks, resampling,
  records and replays; :class:`Action`: an immutable action with its action-space ``index``;
- :class:`Bot`: the engine's bots by name (``random``, ``heuristic``, ``search:…``);
- :class:`VecEnv`: N games stepped together in Rust (GIL released, a bounded thread pool);
- :mod:`wonders.envs`: a PettingZoo ``ParallelEnv`` and a Gymnasium env (imported lazily, so
  ``import wonders`` needs only NumPy).

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

__all__ = [
    "EXPANSIONS",
    "Action",
    "Bot",
    "Game",
    "VecEnv",
    "__version__",
    "action_count",
    "describe_action",
    "observation_layout",
    "observation_scale",
    "observation_size",
    "rust_random_games",
]
