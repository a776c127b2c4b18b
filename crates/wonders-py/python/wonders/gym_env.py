"""A Gymnasium single-agent environment: one seat is the agent, the others are bots by name.

>>> import gymnasium, wonders.gym_env
>>> env = gymnasium.make("wonders/Wonders-v0", players=3, opponents="heuristic")

Observation: ``{"observation": float32[D], "action_mask": int8[A]}`` (the vector of
``wonders_core::tensor``, built in Rust from the seat's view only). Action: an index of the fixed
action space, paid the default way; an index that is not legal is replaced by the lowest legal
one and ``info["illegal_action"]`` is set. Reward: 1 at the end of a game won (first place,
shared or not), else 0. ``info`` holds ``scores`` and ``ranks`` at the end.
"""

from __future__ import annotations

import gymnasium
import numpy as np

from . import _spaces
from ._wonders import Bot, Game


class WondersEnv(gymnasium.Env):
    """``WondersEnv(players=4, seat=0, opponents="random", edition="1e", expansions=(), teams=False,
    normalize=False)``.

    ``expansions``: names among ``wonders.EXPANSIONS`` (8 players need ``"armada"``); ``teams``:
    the team variant (the reward is then the team's first place); ``normalize``: observations
    scaled into [-1, 1] (``wonders.observation_scale``), with a Box of [-1, 1].

    ``opponents``: one bot name for every other seat, or one per other seat in seat order.
    Each episode is one game, dealt from a seed drawn from the env's generator (``reset(seed=…)``
    seeds it); the bots' seeds follow from the game's.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        players: int = 4,
        seat: int = 0,
        opponents="random",
        edition: str = "1e",
        expansions=(),
        render_mode=None,
        teams: bool = False,
        normalize: bool = False,
    ):
        Game(players, 0, edition=edition, expansions=tuple(expansions), teams=teams)  # validates the options
        if not 0 <= seat < players:
            raise ValueError(f"there is no seat {seat} in a game of {players} players")
        others = players - 1
        names = [opponents] * others if isinstance(opponents, str) else list(opponents)
        if len(names) != others:
            raise ValueError(f"{len(names)} opponent names for {others} other seats")
        for name in names:
            Bot(name)  # validates the name
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: None or 'ansi'")
        self.players, self.seat, self.edition = players, seat, edition
        self.expansions = tuple(expansions)
        self.teams = teams
        self.opponent_names = names
        self.render_mode = render_mode
        self.normalize = normalize
        self._scale = _spaces.scale(edition, self.expansions) if normalize else None
        self.observation_space = _spaces.observation_space(edition, self.expansions, normalize)
        self.action_space = _spaces.action_space(edition, self.expansions)
        self.game: Game | None = None
        self._bots: dict = {}

    def _obs(self):
        return _spaces.observe(self.game, self.seat, self._scale)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self.game = Game(
            self.players, game_seed, edition=self.edition, expansions=self.expansions, teams=self.teams
        )
        others = [s for s in range(self.players) if s != self.seat]
        self._bots = {
            s: Bot(name, seed=(game_seed * 8 + s) % 2**64) for s, name in zip(others, self.opponent_names)
        }
        self.game.play_bots(self._bots)
        return self._obs(), {}

    def step(self, action):
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        if self.game.is_over():
            raise RuntimeError("the game is over: call reset()")
        illegal = _spaces.play_index(self.game, self.seat, action)
        self.game.play_bots(self._bots)
        info = {"illegal_action": illegal}
        terminated = self.game.is_over()
        reward = 0.0
        if terminated:
            info.update(_spaces.final_info(self.game, self.seat))
            reward = 1.0 if info["rank"] == 1 else 0.0
        return self._obs(), reward, terminated, False, info

    def render(self):
        if self.render_mode == "ansi" and self.game is not None:
            v = self.game.view(self.seat)
            return f"Age {v['age']} turn {v['turn']} ({v['phase']}); hand: {', '.join(v['hand'])}"
        return None

    def action_masks(self) -> np.ndarray:
        """The legality mask (bool), for libraries that ask the env for it."""
        return self.game.action_mask(self.seat)


WondersEnv.__doc__ += (
    "\n\n    Observation slices (1st edition, no expansion; ``wonders.describe_observation`` for "
    "others):\n\n" + "\n".join("    " + line for line in _spaces.describe_observation().splitlines())
)

if "wonders/Wonders-v0" not in gymnasium.registry:
    gymnasium.register(id="wonders/Wonders-v0", entry_point="wonders.gym_env:WondersEnv")
