"""Package hygiene: PettingZoo's module-level constructors and checkers on every kind of game,
the Gymnasium id registered on import, stubs, signatures, no seed in infos, normalised
observations, the resample that keeps the seat's own choices."""

import inspect
import pathlib

import numpy as np
import pytest

import wonders

KINDS = [
    dict(players=4),
    dict(players=2),
    dict(players=3, edition="2e"),
    dict(players=7),
    dict(players=5, expansions=("edifice",)),
    dict(players=8, expansions=("armada",)),
    dict(players=4, expansions=("armada", "edifice"), teams=True),
    dict(players=6, edition="2e", teams=True),
]


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: "-".join(f"{v}" for v in k.values()))
def test_pettingzoo_checkers_on_every_kind_of_game(kind):
    from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

    from wonders import pettingzoo_env

    api_test(pettingzoo_env.env(**kind), num_cycles=60)
    parallel_api_test(pettingzoo_env.parallel_env(**kind), num_cycles=60)
    seed_test(lambda: pettingzoo_env.env(**kind), num_cycles=30)
    parallel_seed_test(lambda: pettingzoo_env.parallel_env(**kind), num_cycles=30)


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: "-".join(f"{v}" for v in k.values()))
def test_gymnasium_checker_on_kinds_and_normalised(kind):
    from gymnasium.utils.env_checker import check_env

    from wonders.gym_env import WondersEnv

    check_env(WondersEnv(**kind), skip_render_check=True)
    check_env(WondersEnv(normalize=True, **kind), skip_render_check=True)


def test_aec_env_plays_a_game_in_turns():
    """In the AEC env the seats that must decide take turns, seat order; at the end every agent
    holds its reward (1 for first place) and the scores."""
    from wonders import pettingzoo_env

    env = pettingzoo_env.raw_env(players=3)
    env.reset(seed=4)
    order = []
    rng = np.random.default_rng(4)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term:
            env.step(None)
            continue
        order.append(agent)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    # 3 Ages × 6 turns, 3 seats each, at least (Babylon B and Halicarnassus add decisions).
    assert len(order) >= 54
    assert order[:6] == ["player_0", "player_1", "player_2"] * 2
    ranks = env.game.ranks()
    assert env.agents == []
    assert sum(1 for r in ranks if r == 1) >= 1


def test_no_seed_in_infos_and_normalised_box():
    from wonders import pettingzoo_env
    from wonders.gym_env import WondersEnv

    _, info = WondersEnv(players=3).reset(seed=1)
    assert "game_seed" not in info
    _, infos = pettingzoo_env.parallel_env(players=3).reset(seed=1)
    assert all("game_seed" not in i for i in infos.values())
    env = WondersEnv(players=4, normalize=True, expansions=("armada",))
    obs, _ = env.reset(seed=2)
    box = env.observation_space["observation"]
    assert (box.low == -1).all() and (box.high == 1).all()
    raw = env.game.observation(0)
    assert np.allclose(obs["observation"], np.clip(raw * wonders.observation_scale("1e", ["armada"]), -1, 1))
    coins = dict((n, s) for n, s, _ in wonders.observation_layout("1e", ["armada"]))["city0.coins"]
    assert obs["observation"][coins] == pytest.approx(raw[coins] / 60)


def test_gymnasium_id_registered_on_import():
    import gymnasium

    assert "wonders/Wonders-v0" in gymnasium.registry
    env = gymnasium.make("wonders/Wonders-v0", players=3)
    assert env.unwrapped.players == 3


def test_stubs_and_signatures():
    pkg = pathlib.Path(wonders.__file__).parent
    assert (pkg / "py.typed").exists()
    stub = (pkg / "_wonders.pyi").read_text()
    from wonders import _wonders

    for name in dir(_wonders):
        if not name.startswith("_"):
            assert name in stub, name
    assert "expansions=()" in str(inspect.signature(wonders.Game))
    assert "expansions=()" in str(inspect.signature(wonders.observation_size))
    assert "wonders.envs" not in wonders.__doc__


def test_resample_keeps_the_seats_own_choices():
    g = wonders.Game(4, 21)
    first = g.legal_actions(0)[3]
    g.submit(0, first)
    r = g.resample(0, 7)
    assert r.own_choice(0) == first and not r.must_act(0)
    assert r.view(0)["hand"] == g.view(0)["hand"]
    assert g.resample(0, 7, keep_own_choice=False).own_choice(0) is None
    # The Free City's holder chose for both cities: the sample keeps both.
    g = wonders.Game(2, 3)
    holder = [s for s in g.to_act() if g.must_act(s)][0]
    g.submit(holder, g.legal_actions(holder)[0])
    if g.must_act(holder):
        g.submit(holder, g.legal_actions(holder)[0])
        r = g.resample(holder, 5)
        assert not r.must_act(holder)


def test_help_names_every_observation_slice():
    """``describe_observation`` gives a meaning to every segment of every layout, and the envs'
    help shows the slices."""
    import re

    from wonders.vector import SelfPlayVecEnv

    for edition, expansions in (("1e", ()), ("2e", ()), ("1e", ("armada", "edifice"))):
        text = wonders.describe_observation(edition, expansions)
        generic = {re.sub(r"city\d", "city{k}", n) for n, _, _ in wonders.observation_layout(edition, list(expansions))}
        lines = text.splitlines()
        assert len(lines) == len(generic)
        for line in lines:
            start, name, meaning = line.split(None, 2)
            assert name in generic and meaning.strip(), line
    coins = dict((n, s) for n, s, _ in wonders.observation_layout())["city0.coins"]
    assert f"{coins}:{coins + 1}" in wonders.describe_observation()
    assert "city{k}.coins" in SelfPlayVecEnv.__doc__
    from wonders import pettingzoo_env
    from wonders.gym_env import WondersEnv

    assert "city{k}.coins" in WondersEnv.__doc__ and "city{k}.coins" in pettingzoo_env.WondersAECEnv.__doc__
