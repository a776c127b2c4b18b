"""Spaces shared by the Gymnasium and PettingZoo environments."""

from __future__ import annotations

import numpy as np

from ._wonders import Game, action_count, observation_scale, observation_size


def scale(edition: str, expansions=()) -> np.ndarray:
    """The multipliers of normalised observations (``wonders.observation_scale``)."""
    return observation_scale(edition, list(expansions))


def observation_space(edition: str, expansions=(), normalize: bool = False):
    """``Dict(observation=Box(float32, D), action_mask=Box(int8, A))`` for games of ``edition``
    with ``expansions``.

    The observation holds raw counts and flags; scores may be negative; every value lies well
    within ±1000. Normalised (``normalize=True``), each value is scaled by a fixed bound of its
    segment and clipped: the Box is then [-1, 1].
    """
    from gymnasium import spaces

    names = list(expansions)
    low, high = (-1.0, 1.0) if normalize else (-1000.0, 1000.0)
    return spaces.Dict(
        {
            "observation": spaces.Box(
                low=low, high=high, shape=(observation_size(edition, names),), dtype=np.float32
            ),
            "action_mask": spaces.Box(low=0, high=1, shape=(action_count(edition, names),), dtype=np.int8),
        }
    )


def action_space(edition: str, expansions=()):
    """``Discrete(A)``: the fixed action space (see ``wonders.describe_action``)."""
    from gymnasium import spaces

    return spaces.Discrete(action_count(edition, list(expansions)))


def observe(game: Game, seat: int, multipliers=None) -> dict:
    """The observation dict of ``seat``: its vector (normalised with ``multipliers``, from
    :func:`scale`) and its legality mask (int8)."""
    obs = game.observation(seat)
    if multipliers is not None:
        obs = np.clip(obs * multipliers, -1.0, 1.0)
    return {
        "observation": obs,
        "action_mask": game.action_mask(seat).astype(np.int8),
    }


def play_index(game: Game, seat: int, index) -> bool:
    """Plays ``index`` for ``seat`` (default payment). An index that is not legal is replaced by
    the seat's lowest legal index (the documented fallback, so that agents sampling from the whole
    space, like the API checkers, can play on). Returns whether the fallback was used."""
    mask = game.action_mask(seat)
    index = int(index)
    if 0 <= index < mask.shape[0] and mask[index]:
        game.submit(seat, index)
        return False
    game.submit(seat, int(np.flatnonzero(mask)[0]))
    return True


def final_info(game: Game, seat: int) -> dict:
    """Scores and ranks at the end of a game, for ``info``."""
    return {"scores": game.scores(), "ranks": game.ranks(), "rank": game.ranks()[seat]}
