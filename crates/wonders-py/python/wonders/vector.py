"""Self-play at scale: N games stepped together in Rust, every seat (or the seats you choose) a
learning agent, observations and masks as NumPy batches.

>>> from wonders.vector import SelfPlayVecEnv
>>> envs = SelfPlayVecEnv(256, players=4)                  # 256 games, all 4 seats learn
>>> obs, infos = envs.reset(seed=0)
>>> obs["observation"].shape, obs["action_mask"].shape    # [N, L, D], [N, L, A]
((256, 4, 999), (256, 4, 316))
>>> obs, rewards, terminations, truncations, infos = envs.step(envs.random_actions())

It follows ``gymnasium.vector.VectorEnv`` with one sub-environment per **game**; a game holds
``L`` learning seats (``envs.learners``), so where a single-agent vector env has one row per
environment, this one has ``L``:

- observations: ``{"observation": float32[N, L, D], "action_mask": int8[N, L, A]}``
  (``single_observation_space`` is the ``[L, D]``/``[L, A]`` Dict of one game);
- actions: int ``[N, L]``, one index of the fixed action space per game and learning seat
  (``single_action_space`` is ``MultiDiscrete([A] * L)``), paid the default way. Every index must
  be legal in its mask (a seat with nothing to decide has only "wait" legal); an illegal one
  raises ``ValueError`` and changes nothing;
- rewards: float32 ``[N, L]``: 1 to a learning seat whose game ends with it first (a shared first
  place counts; with ``teams=True`` its team's), else 0;
- terminations, truncations: bool ``[N]`` (a game ends for all its seats at once; nothing
  truncates).

**Autoreset** is Gymnasium's *same-step* mode (``metadata["autoreset_mode"]``): a game that ends
restarts at once, its row of the returned observation is the new game's first, and ``infos``
holds the end of the finished games, each key beside a boolean ``_key`` mask (Gymnasium's
vector-info form): ``final_obs`` (an object array: the finished game's last observation dict),
``scores`` (int32 ``[N, C]``, every city's total: the seats', then the 2-player game's Free
city's), ``ranks`` (uint8 ``[N, P]``) and ``length``
(the learning seats' decisions in that game). Game ``k`` of a ``reset(seed=s)`` is dealt from
seed ``s + k``; the games that end are restarted from the next unused seeds, ``s + N``,
``s + N + 1``, … in order (by step, then game index), so a run is reproducible whatever the
number of threads.

``seats`` says who learns: ``None`` for a learning seat, a bot's name (``"random"``,
``"heuristic"``, ``"search:50it"``, …) for a seat the engine plays; the default is every seat
learning. Bots play inside the step, in Rust.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import batch_space

from . import _spaces
from ._wonders import SelfPlay

__all__ = ["SelfPlayVecEnv"]


class SelfPlayVecEnv(gymnasium.vector.VectorEnv):
    """``SelfPlayVecEnv(num_envs, players=4, seats=None, edition="1e", expansions=(), teams=False,
    seed=0, threads=1, normalize=False)``.

    - ``num_envs``: games stepped together (1 to 65,536);
    - ``players``: 2–7, 8 with ``expansions=("armada",)``; ``teams=True`` plays the team variant
      (4, 6 or 8 players, seats 2k and 2k+1 together);
    - ``seats``: one entry per seat, ``None`` for a learning seat or a bot's name;
    - ``edition``: ``"1e"`` or ``"2e"``; ``expansions``: names among ``wonders.EXPANSIONS``;
    - ``threads``: 1 steps the games on the calling thread; more spreads them over a thread pool
      of that size (the GIL is released while the games step);
    - ``normalize``: each observation float divided by a fixed bound of its segment
      (``wonders.observation_scale``) and clipped to [-1, 1]; the declared Box is then [-1, 1]
      (else the raw counts, within ±1000);
    - ``copy``: as Gymnasium's vector envs, ``True`` returns new observation and mask arrays at
      every step; ``False`` returns the env's own two buffers, overwritten by the next ``reset``
      or ``step`` (faster: no allocation; copy what you keep).
    """

    metadata = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int,
        players: int = 4,
        seats: Optional[Sequence[Optional[str]]] = None,
        edition: str = "1e",
        expansions: Sequence[str] = (),
        teams: bool = False,
        seed: int = 0,
        threads: int = 1,
        normalize: bool = False,
        copy: bool = True,
    ):
        self._core = SelfPlay(
            num_envs,
            players=players,
            seed=seed,
            edition=edition,
            expansions=list(expansions),
            teams=teams,
            seats=None if seats is None else list(seats),
            threads=threads,
            normalize=normalize,
            copy=copy,
        )
        self.num_envs = num_envs
        self.players = self._core.players
        self.learners: list[int] = self._core.learners
        self.seats: list[Optional[str]] = self._core.seats
        self.edition, self.expansions, self.teams = edition, tuple(expansions), teams
        self.normalize = normalize
        self.render_mode = None
        l, d, a = len(self.learners), self._core.observation_size, self._core.action_count
        low, high = (-1.0, 1.0) if normalize else (-1000.0, 1000.0)
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low=low, high=high, shape=(l, d), dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(l, a), dtype=np.int8),
            }
        )
        self.single_action_space = spaces.MultiDiscrete(np.full(l, a, dtype=np.int64))
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.wait_index: int = self._core.wait_index
        self._seed = seed

    @property
    def agent_steps(self) -> int:
        """Decisions the learning seats made since construction (a "wait" is none)."""
        return self._core.agent_steps

    @property
    def games_finished(self) -> int:
        """Games finished since construction."""
        return self._core.games_finished

    @staticmethod
    def _obs(obs: np.ndarray, mask: np.ndarray) -> dict:
        return {"observation": obs, "action_mask": mask.view(np.int8)}

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None) -> tuple[dict, dict]:
        """Restarts every game: game ``k`` from ``seed + k`` (``seed`` defaults to the last one
        given, at construction or here). Returns ``(observations, {})``."""
        if seed is not None and not isinstance(seed, (int, np.integer)):
            raise TypeError("seed: an int (game k is dealt from seed + k) or None")
        if seed is not None and seed < 0:
            raise ValueError(f"seed {seed}: a seed is a non-negative int")
        obs, mask = self._core.reset(None if seed is None else int(seed))
        return self._obs(obs, mask), {}

    def step(self, actions) -> tuple[dict, np.ndarray, np.ndarray, np.ndarray, dict]:
        """Plays ``actions`` (int ``[N, L]``; ``[N]`` with one learning seat). Returns ``(observations, rewards [N, L],
        terminations [N], truncations [N], infos)``; see the module docs for autoreset."""
        actions = np.asarray(actions)
        if actions.dtype.kind not in "iu":
            raise TypeError(f"actions of dtype {actions.dtype}: integer indices expected")
        if actions.ndim == 1 and len(self.learners) == 1:
            actions = actions[:, None]  # one learning seat: [N] is read as [N, 1]
        obs, mask, rewards, dones, ended, fobs, fmask, scores, ranks, lengths = self._core.step(
            actions.astype(np.int64, copy=False).reshape(actions.shape)
        )
        infos: dict[str, Any] = {}
        if len(ended):
            n = self.num_envs
            present = np.zeros(n, dtype=bool)
            present[ended] = True
            final = np.full(n, None, dtype=object)
            for j, i in enumerate(ended):
                final[i] = self._obs(fobs[j], fmask[j])
            full_scores = np.zeros((n, self._core.score_width), dtype=np.int32)
            full_scores[ended] = scores
            full_ranks = np.zeros((n, ranks.shape[1]), dtype=np.uint8)
            full_ranks[ended] = ranks
            full_lengths = np.zeros(n, dtype=np.int64)
            full_lengths[ended] = lengths
            infos = {
                "final_obs": final,
                "_final_obs": present,
                "scores": full_scores,
                "_scores": present,
                "ranks": full_ranks,
                "_ranks": present,
                "length": full_lengths,
                "_length": present,
            }
        return self._obs(obs, mask), rewards, dones, np.zeros(self.num_envs, dtype=bool), infos

    def random_actions(self) -> np.ndarray:
        """Uniformly random legal indices ``[N, L]`` for the current masks (the env's own
        generator, seeded by ``reset(seed=…)``)."""
        return self._core.random_actions()

    def game(self, index: int):
        """A copy of game ``index`` as a :class:`wonders.Game` (no record), to look at or search
        from."""
        return self._core.game(index)

    def close(self, **kwargs) -> None:
        """Nothing to release (the games live in Rust and go with the object)."""

    def __repr__(self) -> str:
        return (
            f"SelfPlayVecEnv(num_envs={self.num_envs}, players={self.players}, seats={self.seats}, "
            f"edition={self.edition!r}, expansions={self.expansions}, teams={self.teams})"
        )



SelfPlayVecEnv.__doc__ += (
    "\n\n    Observation slices (1st edition, no expansion; ``wonders.describe_observation`` for "
    "others):\n\n" + "\n".join("    " + line for line in _spaces.describe_observation().splitlines())
)
