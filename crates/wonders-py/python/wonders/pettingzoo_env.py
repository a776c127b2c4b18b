"""PettingZoo environments: every seat is an agent. ``WondersParallelEnv`` (a ``ParallelEnv``:
the seats choose at once, as in the game) and ``WondersAECEnv`` (an ``AECEnv``: the seats that
must decide take turns, each seeing only its own view, so the order reveals nothing).

>>> from wonders import pettingzoo_env
>>> env = pettingzoo_env.env(players=4)              # AEC, with PettingZoo's order-enforcing wrappers
>>> raw = pettingzoo_env.raw_env(players=4)          # AEC, unwrapped
>>> par = pettingzoo_env.parallel_env(players=4)     # ParallelEnv

Agents ``player_0`` … ``player_{n-1}`` (seat order). Each observation is
``{"observation": float32[D], "action_mask": int8[A]}``. An agent with nothing to decide in a
step (another seat plays Babylon's last card, builds from the discard pile with Halicarnassus,
keeps an island in an Armada exploration or makes Forgotten Port's choice, or it already chose
and only the Free City's holder still acts) has only the "wait" index legal,
and its action is ignored. An index that is not legal is replaced by the lowest legal one and the
agent's ``info["illegal_action"]`` is set. Rewards: 1 to each winner (first place, shared or not)
at the end, else 0; then every agent is terminated and ``agents`` is empty.
"""

from __future__ import annotations

import functools

from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from . import _spaces
from ._wonders import Game


class WondersParallelEnv(ParallelEnv):
    """``WondersParallelEnv(players=4, edition="1e", expansions=(), teams=False)``.

    ``expansions``: names among ``wonders.EXPANSIONS`` (8 players need ``"armada"``); ``teams``:
    the team variant (each agent's reward is its team's first place); ``normalize``: observations
    scaled into [-1, 1] (``wonders.observation_scale``), with a Box of [-1, 1]."""

    metadata = {"name": "wonders_v0", "render_modes": []}

    def __init__(
        self, players: int = 4, edition: str = "1e", expansions=(), render_mode=None, teams=False, normalize=False
    ):
        Game(players, 0, edition=edition, expansions=tuple(expansions), teams=teams)  # validates the options
        self.players, self.edition, self.expansions = players, edition, tuple(expansions)
        self.normalize = normalize
        self.teams = teams
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agents = []
        self.render_mode = render_mode
        self._observation_space = _spaces.observation_space(edition, self.expansions, normalize)
        self._action_space = _spaces.action_space(edition, self.expansions)
        self._scale = _spaces.scale(edition, self.expansions) if normalize else None
        self.game: Game | None = None
        self._seed_rng = None

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent):
        return self._observation_space

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent):
        return self._action_space

    def _observations(self):
        return {
            a: _spaces.observe(self.game, s, self._scale)
            for s, a in enumerate(self.possible_agents)
            if a in self.agents
        }

    def reset(self, seed=None, options=None):
        import numpy as np

        if seed is not None or self._seed_rng is None:
            self._seed_rng = np.random.default_rng(seed)
        game_seed = int(self._seed_rng.integers(0, 2**63 - 1))
        self.game = Game(
            self.players, game_seed, edition=self.edition, expansions=self.expansions, teams=self.teams
        )
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions):
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        infos = {a: {"illegal_action": False} for a in self.agents}
        for seat in self.game.to_act():
            agent = self.possible_agents[seat]
            if agent in actions and self.game.must_act(seat):
                infos[agent]["illegal_action"] = _spaces.play_index(self.game, seat, actions[agent])
        over = self.game.is_over()
        observations = self._observations()
        rewards = {a: 0.0 for a in self.agents}
        if over:
            ranks = self.game.ranks()
            scores = self.game.scores()
            for s, a in enumerate(self.possible_agents):
                rewards[a] = 1.0 if ranks[s] == 1 else 0.0
                infos[a].update({"scores": scores, "ranks": ranks, "rank": ranks[s]})
        terminations = {a: over for a in self.agents}
        truncations = {a: False for a in self.agents}
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self):
        return None

    def close(self):
        pass


class WondersAECEnv(AECEnv):
    """``WondersAECEnv(players=4, edition="1e", expansions=(), teams=False, normalize=False)``: the
    game as PettingZoo's agent-environment cycle.

    The seats that must decide take turns in seat order (``agent_selection``); a seat that has
    nothing to decide is not selected. Each choice is submitted at once but stays hidden from the
    others until the turn resolves, as in the game (the others' observations show only that it
    chose). Observations, the action space, the illegal-index fallback, rewards and ``infos`` at
    the end are those of :class:`WondersParallelEnv`; when the game ends every agent is
    terminated and then removed by a ``step(None)``.
    """

    metadata = {"name": "wonders_v0", "render_modes": [], "is_parallelizable": True}

    def __init__(
        self, players: int = 4, edition: str = "1e", expansions=(), render_mode=None, teams=False, normalize=False
    ):
        super().__init__()
        Game(players, 0, edition=edition, expansions=tuple(expansions), teams=teams)  # validates the options
        self.players, self.edition, self.expansions = players, edition, tuple(expansions)
        self.teams, self.normalize = teams, normalize
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agents = []
        self.render_mode = render_mode
        self._observation_space = _spaces.observation_space(edition, self.expansions, normalize)
        self._action_space = _spaces.action_space(edition, self.expansions)
        self._scale = _spaces.scale(edition, self.expansions) if normalize else None
        self.game: Game | None = None
        self._seed_rng = None

    def observation_space(self, agent):
        return self._observation_space

    def action_space(self, agent):
        return self._action_space

    def observe(self, agent):
        return _spaces.observe(self.game, self.possible_agents.index(agent), self._scale)

    def _next_seat(self, after: int) -> int:
        """The first seat after ``after`` (cyclically) that must decide."""
        n = self.players
        for k in range(1, n + 1):
            seat = (after + k) % n
            if self.game.must_act(seat):
                return seat
        raise RuntimeError("no seat must decide in a game that is not over")

    def reset(self, seed=None, options=None):
        import numpy as np

        if seed is not None or self._seed_rng is None:
            self._seed_rng = np.random.default_rng(seed)
        game_seed = int(self._seed_rng.integers(0, 2**63 - 1))
        self.game = Game(
            self.players, game_seed, edition=self.edition, expansions=self.expansions, teams=self.teams
        )
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._next_seat(self.players - 1)]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        illegal = _spaces.play_index(self.game, seat, action)
        self.infos = {a: {} for a in self.agents}
        self.infos[agent]["illegal_action"] = illegal
        if self.game.is_over():
            ranks, scores = self.game.ranks(), self.game.scores()
            for s, a in enumerate(self.possible_agents):
                self.rewards[a] = 1.0 if ranks[s] == 1 else 0.0
                self.terminations[a] = True
                self.infos[a].update({"scores": scores, "ranks": ranks, "rank": ranks[s]})
        else:
            self.agent_selection = self.possible_agents[self._next_seat(seat)]
        self._accumulate_rewards()

    def render(self):
        return None

    def close(self):
        pass


def raw_env(**kwargs) -> WondersAECEnv:
    """The AEC environment, unwrapped: ``raw_env(players=4, edition="1e", expansions=(),
    teams=False, normalize=False)``."""
    return WondersAECEnv(**kwargs)


def env(**kwargs) -> AECEnv:
    """The AEC environment inside PettingZoo's usual wrappers (action bounds asserted, call
    order enforced), as PettingZoo's own environments' ``env()``."""
    e = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def parallel_env(**kwargs) -> WondersParallelEnv:
    """The parallel environment: ``parallel_env(players=4, edition="1e", expansions=(),
    teams=False, normalize=False)``."""
    return WondersParallelEnv(**kwargs)


_SLICES = (
    "\n\n    Observation slices (1st edition, no expansion; ``wonders.describe_observation`` for "
    "others):\n\n" + "\n".join("    " + line for line in _spaces.describe_observation().splitlines())
)
WondersParallelEnv.__doc__ += _SLICES
WondersAECEnv.__doc__ += _SLICES
