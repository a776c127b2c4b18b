"""Edifice and Armada through Python: games, sizes, masks, the environments and VecEnv."""

import numpy as np
import pytest

import wonders

ARMADA = ("armada",)


def test_expansion_names_and_sizes():
    assert wonders.EXPANSIONS == ["edifice", "armada"]
    base = (wonders.observation_size("1e"), wonders.action_count("1e"))
    assert base == (999, 316)  # the base game's sizes do not move
    # The Armada catalog: 78 + 24 cards, 9 boards, 8 shipyards, 27 islands (tensor.rs docs).
    c, w, b, i = 102, 9, 8, 27
    assert wonders.action_count("1e", ["armada"]) == 4 * c + 4 + 3 * c + i + 2
    assert wonders.observation_size("1e", ["armada"]) == (
        23 + 3 * c + 7 * (c + w + 21) + (c + w + 26 + 2 * i + 8 * (b + i + 16))
    )
    both = ["armada", "edifice"]
    assert wonders.action_count("1e", both) == wonders.action_count("1e", ["armada"]) + c
    layout = wonders.observation_layout("1e", both)
    assert layout[-1][1] + layout[-1][2] == wonders.observation_size("1e", both)
    names = [n for n, _, _ in layout]
    assert "edifice.project" in names and "armada.city7.ships" in names and "city7.present" in names
    assert wonders.describe_action(4 * c + 4, "1e", ["armada"]) == ("build_naval", "Lumber Yard")
    assert wonders.describe_action(7 * c + 4, "1e", ["armada"])[0] == "keep_island"
    assert wonders.describe_action(7 * c + 4 + i + 1, "1e", ["armada"]) == ("take_part_in_naval", None)
    with pytest.raises(ValueError, match="unknown expansion `leaders` \\(known expansions: edifice, armada\\)"):
        wonders.observation_size("1e", ["leaders"])
    with pytest.raises(ValueError, match="players"):
        wonders.Game(8, 1)  # 8 players need Armada


def test_first_armada_observation():
    g = wonders.Game(4, 7, expansions=ARMADA)
    obs = g.observation(1)
    assert obs.shape == (wonders.observation_size("1e", ARMADA),)
    seg = {n: obs[s : s + l] for n, s, l in wonders.observation_layout("1e", ARMADA)}
    assert seg["hand"].sum() == 8  # 8-card hands with Armada (armada.md §2.2)
    assert seg["city0.coins"][0] == 3
    for k in range(4):
        assert list(seg[f"armada.city{k}.ships"]) == [0, 0, 0, 0]
        assert seg[f"armada.city{k}.board"].sum() == 1
    assert list(seg["armada.deck_sizes"]) == [9, 9, 9]
    assert g.action_mask(1).shape == (wonders.action_count("1e", ARMADA),)
    assert set(g.scores()[0]) >= {"naval", "fleet", "islands", "edifice", "total"}


def play_random(game, seed):
    """Plays `game` to the end by random legal indices, checking each mask against the legal
    actions; returns the kinds of the actions played."""
    rng = np.random.default_rng(seed)
    kinds = set()
    while not game.is_over():
        for seat in game.to_act():
            if not game.must_act(seat):
                continue
            mask = game.action_mask(seat)
            legal = game.legal_actions(seat)
            assert set(np.flatnonzero(mask)) == {a.index for a in legal}
            for a in legal:
                # Armada's trading zones: the 2nd players' coins read as in the JSON form.
                d = a.to_dict()
                assert (a.second_left, a.second_right) == (d.get("second_left", 0), d.get("second_right", 0))
                # A blue card's free move, built from the hand or the discard pile.
                assert a.free_move == d.get("free_move")
                assert a.free_move in (None, "red", "yellow", "blue", "green")
            index = int(rng.choice(np.flatnonzero(mask)))
            action = game.action(seat, index)
            assert action.index == index and action in legal
            kinds.add(action.kind)
            game.submit(seat, index)
    return kinds


@pytest.mark.parametrize(
    "players, expansions, teams",
    [(4, ("armada",), False), (8, ("armada",), False), (5, ("edifice",), False), (4, ("armada", "edifice"), True)],
)
def test_random_games_to_the_end(players, expansions, teams):
    g = wonders.Game(players, 3, expansions=expansions, teams=teams)
    kinds = play_random(g, players)
    assert "build" in kinds
    scores = g.scores()
    assert len(scores) == players
    for s in scores:
        parts = sum(v for k, v in s.items() if k != "total")
        assert parts == s["total"]
    record = g.record()
    assert sorted(record["expansions"]) == sorted(expansions) and record.get("teams", False) == teams
    replayed = wonders.Game.replay(record)
    assert replayed.is_over() and replayed.scores() == scores


def test_gym_env_with_armada():
    from gymnasium.utils.env_checker import check_env

    from wonders.gym_env import WondersEnv

    env = WondersEnv(players=4, opponents="heuristic", expansions=ARMADA)
    assert env.action_space.n == wonders.action_count("1e", ARMADA)
    assert env.observation_space["observation"].shape == (wonders.observation_size("1e", ARMADA),)
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    done, steps = False, 0
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, done, _, info = env.step(int(rng.choice(legal)))
        assert not info["illegal_action"]
        steps += 1
    assert steps >= 21  # 3 Ages × 7 turns, more with explorations
    assert set(info["scores"][0]) >= {"naval", "fleet", "islands"}
    check_env(WondersEnv(players=3, expansions=("edifice",)), skip_render_check=True)
    with pytest.raises(ValueError, match="unknown expansion"):
        WondersEnv(expansions=("cities",))


def test_pettingzoo_with_armada_eight_players():
    from pettingzoo.test import parallel_api_test

    from wonders.pettingzoo_env import WondersParallelEnv

    env = WondersParallelEnv(players=8, expansions=ARMADA)
    assert len(env.possible_agents) == 8
    assert env.action_space("player_0").n == wonders.action_count("1e", ARMADA)
    parallel_api_test(env, num_cycles=100)


def test_vecenv_with_armada():
    env = wonders.VecEnv(4, players=4, seed=5, opponents="random", expansions=ARMADA, threads=1)
    assert env.observation_size == wonders.observation_size("1e", ARMADA)
    assert env.action_count == wonders.action_count("1e", ARMADA)
    obs, mask = env.reset()
    assert obs.shape == (4, env.observation_size) and mask.shape == (4, env.action_count)
    rng = np.random.default_rng(0)
    finished, naval = 0, False
    for _ in range(200):
        naval |= bool(mask[:, 4 * 102 + 4 :].any())  # an Armada index (naval build, island, …)
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        obs, mask, rewards, dones = env.step(actions)
        finished += int(dones.sum())
    assert finished >= 4  # every game of at least 21 steps ended once in 200 steps
    assert naval
    with pytest.raises(ValueError, match="unknown expansion"):
        wonders.VecEnv(2, expansions=("cities",))
