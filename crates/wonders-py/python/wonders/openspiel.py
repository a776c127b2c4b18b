"""7 Wonders for OpenSpiel: ``import wonders.openspiel`` registers the Python game
``python_wonders`` with ``pyspiel``.

>>> import pyspiel, wonders.openspiel
>>> game = pyspiel.load_game("python_wonders", {"players": 3})

The game is OpenSpiel's sequential form of the simultaneous choices: the seats that must decide
take turns in seat order, and a choice stays hidden from the others until the turn resolves, as
in the game (their observations show only that it was made). The deal is one explicit chance
node at the start, choosing the game's seed among ``seeds`` equally likely ones (default 1,024);
every later card follows from it. Actions are the indices of the fixed action space
(``wonders.action_count``), paid the default way.

- ``observation_tensor``/``observation_string``: the seat's observation vector
  (``wonders.observation_layout``) and its view;
- ``information_state_tensor`` (perfect recall): the observation vector now, then for each of the
  seat's past decisions (up to ``MAX_DECISIONS``, in order) the observation vector it had then,
  then one one-hot row of the action space per decision: everything the seat saw when it chose and
  what it chose; ``information_state_string``: the seat's view at each of its decisions and what
  it chose there;
- ``returns``: 1 to each winner (first place, shared or not; with ``teams`` the team's), else 0;
- ``resample_from_infostate(player, sampler)``: the cards the seat cannot see dealt anew, the
  choices it made this turn kept;
- ``serialize``/``deserialize_state``: the actions from the start, replayed exactly.

Parameters: ``players`` (default 4), ``edition`` (``"1e"``/``"2e"``), ``expansions`` (joined
by ``+``, e.g. ``"armada+edifice"``: a comma would end the parameter in OpenSpiel's game strings), ``teams`` (bool), ``seeds`` (the chance node's outcomes).
"""

from __future__ import annotations

import json

import numpy as np
import pyspiel

from ._wonders import Game, action_count, observation_size

#: Rows of own past decisions in the information-state tensor (a seat decides at most 3 Ages × 7
#: turns, plus explorations and wonder powers: fewer than 48).
MAX_DECISIONS = 48

_DEFAULTS = {"players": 4, "edition": "1e", "expansions": "", "teams": False, "seeds": 1024}

_GAME_TYPE = pyspiel.GameType(
    short_name="python_wonders",
    long_name="Python 7 Wonders",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(_DEFAULTS),
)


def _expansions(text: str) -> tuple:
    return tuple(x.strip() for x in text.replace(",", "+").split("+") if x.strip())


class WondersGame(pyspiel.Game):
    """The pyspiel game (see the module docs for its parameters)."""

    def __init__(self, params=None):
        p = {**_DEFAULTS, **(params or {})}
        self.players = int(p["players"])
        self.edition = str(p["edition"])
        self.expansions = _expansions(str(p["expansions"]))
        self.teams = bool(p["teams"])
        self.seeds = int(p["seeds"])
        if self.seeds < 1:
            raise ValueError(f"seeds {self.seeds}: at least 1")
        probe = Game(self.players, 0, edition=self.edition, expansions=self.expansions, teams=self.teams)
        self.num_actions = action_count(self.edition, list(self.expansions))
        self.obs_size = observation_size(self.edition, list(self.expansions))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.num_actions,
            max_chance_outcomes=self.seeds,
            num_players=probe.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=1 + probe.players * MAX_DECISIONS,
        )
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self):
        return WondersState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return WondersObserver(self, perfect_recall)

    def deserialize_state(self, text: str):
        """The state ``serialize`` wrote: its actions replayed from the start (the game is
        deterministic once dealt, so this is the same state)."""
        state = WondersState(self)
        for action in json.loads(text)["history"]:
            state.apply_action(int(action))
        return state


class WondersState(pyspiel.State):
    """A state: before the deal (a chance node), then a game of ``wonders.Game``."""

    def __init__(self, game: WondersGame):
        super().__init__(game)
        self._g = game
        self.game_state: Game | None = None
        # Per seat: its past decisions as (view JSON, observation vector, index).
        self.decisions: list[list[tuple[str, np.ndarray, int]]] = [[] for _ in range(game.num_players())]

    # -- the pyspiel API --

    def current_player(self):
        if self.game_state is None:
            return pyspiel.PlayerId.CHANCE
        if self.game_state.is_over():
            return pyspiel.PlayerId.TERMINAL
        return next(s for s in range(self._g.num_players()) if self.game_state.must_act(s))

    def _legal_actions(self, player):
        return [int(i) for i in np.flatnonzero(self.game_state.action_mask(player))]

    def chance_outcomes(self):
        p = 1.0 / self._g.seeds
        return [(k, p) for k in range(self._g.seeds)]

    def _apply_action(self, action):
        if self.game_state is None:
            g = self._g
            self.game_state = Game(g.players, int(action), edition=g.edition, expansions=g.expansions, teams=g.teams)
            return
        seat = self.current_player()
        view = json.dumps(self.game_state.view(seat), sort_keys=True)
        self.decisions[seat].append((view, np.asarray(self.game_state.observation(seat), np.float32), int(action)))
        self.game_state.submit(seat, int(action))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal:{action}"
        from ._wonders import describe_action

        kind, name = describe_action(int(action), self._g.edition, list(self._g.expansions))
        # The index keeps the strings distinct (cards of different Ages may share a name).
        return f"{kind} {name} #{action}" if name else f"{kind} #{action}"

    def is_terminal(self):
        return self.game_state is not None and self.game_state.is_over()

    def returns(self):
        if not self.is_terminal():
            return [0.0] * self._g.num_players()
        return [1.0 if r == 1 else 0.0 for r in self.game_state.ranks()[: self._g.num_players()]]

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state the seat cannot tell from this one: the cards it cannot see dealt anew (from a
        seed drawn with ``probability_sampler``), the choices it made this turn kept; the other
        seats' hidden choices of this turn are not in it (they choose again)."""
        if self.game_state is None:
            return self.clone()
        rng_seed = int(probability_sampler() * 2**53)
        state = self.clone()
        state.game_state = self.game_state.resample(player_id, rng_seed, keep_own_choice=True)
        return state

    def serialize(self):
        """The actions from the start, as JSON (``deserialize_state`` replays them)."""
        return json.dumps({"history": [int(a) for a in self.history()]})

    def __deepcopy__(self, memo):
        state = WondersState(self._g)
        state.game_state = None if self.game_state is None else self.game_state.clone()
        state.decisions = [list(d) for d in self.decisions]
        return state

    def __str__(self):
        if self.game_state is None:
            return "before the deal"
        return repr(self.game_state)


class WondersObserver:
    """The observer: the observation (``perfect_recall=False``) or the information state."""

    def __init__(self, game: WondersGame, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        self.game = game
        d, a = game.obs_size, game.num_actions
        size = d + (MAX_DECISIONS * (d + a) if perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[:d]}
        if perfect_recall:
            past = d + MAX_DECISIONS * d
            self.dict["past_observations"] = self.tensor[d:past].reshape(MAX_DECISIONS, d)
            self.dict["decisions"] = self.tensor[past:].reshape(MAX_DECISIONS, a)

    def set_from(self, state: WondersState, player: int):
        self.tensor.fill(0.0)
        if state.game_state is None:
            return
        d = self.game.obs_size
        self.tensor[:d] = state.game_state.observation(player)
        if self.perfect_recall:
            seen, rows = self.dict["past_observations"], self.dict["decisions"]
            for k, (_, observation, index) in enumerate(state.decisions[player][:MAX_DECISIONS]):
                seen[k] = observation
                rows[k, index] = 1.0

    def string_from(self, state: WondersState, player: int) -> str:
        if state.game_state is None:
            return f"p{player} before the deal"
        now = json.dumps(state.game_state.view(player), sort_keys=True)
        if not self.perfect_recall:
            return now
        past = "".join(f"{view}->{index}\n" for view, _, index in state.decisions[player])
        return past + now


pyspiel.register_game(_GAME_TYPE, WondersGame)
