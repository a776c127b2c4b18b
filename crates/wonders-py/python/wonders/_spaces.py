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


#: What each segment of the observation vector holds, by its name without the city prefix.
SEGMENTS = {
    "age": "the Age, one-hot (3)",
    "turn": "the turn, 1–6 (7 for Babylon's last card)",
    "phase": "the phase, one-hot: choose side, choose, play last card, build from discard, over",
    "must_act": "1 while this seat has a decision to make",
    "acting_for_free_city": "1 while the seat decides for the Free City (2 players)",
    "holds_free_city_card": "1 while the seat holds the Free City's hand",
    "own_choice_made": "1 once the seat has chosen this turn",
    "draw_pile_size": "cards left to deal",
    "discard_size": "cards in the discard pile",
    "reserved": "zeros",
    "hand": "copies of each card in the seat's hand",
    "discard": "the discard pile's cards, only while this seat builds from it",
    "passed": "the hand the seat passed at the end of the previous turn",
    "present": "1 when the city exists",
    "free_city": "1 for the Free City",
    "wonder": "the city's wonder, one-hot",
    "side_b": "1 for side B (Night)",
    "stages": "wonder stages built",
    "stages_total": "wonder stages on the board",
    "coins": "coins",
    "shields": "shields",
    "tokens": "military tokens: +1, +3, +5, −1 (counts)",
    "hand_size": "cards in the city's hand",
    "chosen": "1 once the city has chosen this turn (not what)",
    "built": "copies of each card built",
    "score": "the points it would score now, by category",
    "project": "Edifice: the current Age's project, one-hot",
    "pawns_left": "Edifice: pawns left on each Age's project",
    "completed": "Edifice: each Age's project completed",
    "failed": "Edifice: each Age's project failed",
    "pawns": "Edifice: pawns held, by Age",
    "debt": "Edifice: debt tokens, by Age",
    "took_part": "Edifice: took part in the current project",
    "deck_sizes": "Armada: islands left in the level 1–3 decks",
    "dealt": "Armada: the islands dealt to this seat in the exploration under way",
    "seen": "Armada: the islands this seat has seen",
    "board": "Armada: the shipyard board, one-hot",
    "ships": "Armada: the red, yellow, blue and green ships' steps (0–6)",
    "islands": "Armada: the islands in the city",
    "naval_tokens": "Armada: the naval token of each Age",
    "naval_strength": "Armada: naval strength",
    "trade_level": "Armada: trade level",
    "pending_tax": "Armada: coins this city's tax takes at this turn's step 6",
    "pending_piracies": "Armada: coins its piracy takes at this turn's step 6",
    "incursions_held": "Armada: this Age's incursion tokens it holds",
    "incursions_suffered": "Armada: this Age's incursion tokens it suffered",
}


def describe_observation(edition: str = "1e", expansions=()) -> str:
    """What each slice of the observation vector of ``edition`` with ``expansions`` holds, one
    line per segment: ``start:end  name  meaning`` (city blocks ``city{k}`` are clockwise from the
    seat, ``city0`` its own; only the first block of each kind is spelled out)."""
    import re

    from ._wonders import observation_layout

    lines, seen = [], set()
    for name, start, length in observation_layout(edition, list(expansions)):
        generic = re.sub(r"city\d", "city{k}", name)
        key = generic.rsplit(".", 1)[-1]
        if "{k}" in generic and generic in seen:
            continue
        seen.add(generic)
        if name == "armada.phase":
            meaning = "Armada: exploring, Forgotten Port's choice (flags)"
        else:
            meaning = SEGMENTS.get(key, "")
        lines.append(f"{start:5d}:{start + length:<5d} {generic:30s} {meaning}")
    return "\n".join(lines)
