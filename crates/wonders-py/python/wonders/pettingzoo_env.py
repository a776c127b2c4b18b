"""A PettingZoo ``ParallelEnv``: every seat is an agent and they choose at once, as in the game.

>>> from wonders.pettingzoo_env import WondersParallelEnv
>>> env = WondersParallelEnv(players=4)

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

from pettingzoo import ParallelEnv

from . import _spaces
from ._wonders import Game


class WondersParallelEnv(ParallelEnv):
    """``WondersParallelEnv(players=4, edition="1e", expansions=(), teams=False)``.

    ``expansions``: names among ``wonders.EXPANSIONS`` (8 players need ``"armada"``); ``teams``:
    the team variant (each agent's reward is its team's first place)."""

    metadata = {"name": "wonders_v0", "render_modes": []}

    def __init__(self, players: int = 4, edition: str = "1e", expansions=(), render_mode=None, teams=False):
        Game(players, 0, edition=edition, expansions=tuple(expansions), teams=teams)  # validates the options
        self.players, self.edition, self.expansions = players, edition, tuple(expansions)
        self.teams = teams
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agents = []
        self.render_mode = render_mode
        self._observation_space = _spaces.observation_space(edition, self.expansions)
        self._action_space = _spaces.action_space(edition, self.expansions)
        self.game: Game | None = None
        self._seed_rng = None

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent):
        return self._observation_space

    @functools.lru_cache(maxsize=None)
    def action_space(self, agent):
        return self._action_space

    def _observations(self):
        return {a: _spaces.observe(self.game, s) for s, a in enumerate(self.possible_agents) if a in self.agents}

    def reset(self, seed=None, options=None):
        import numpy as np

        if seed is not None or self._seed_rng is None:
            self._seed_rng = np.random.default_rng(seed)
        game_seed = int(self._seed_rng.integers(0, 2**63 - 1))
        self.game = Game(
            self.players, game_seed, edition=self.edition, expansions=self.expansions, teams=self.teams
        )
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {"game_seed": game_seed} for a in self.agents}

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
