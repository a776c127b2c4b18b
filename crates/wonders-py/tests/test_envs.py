"""The environments pass the libraries' own API checkers; the vectorised env steps right."""

import numpy as np
import pytest

import wonders


def test_gymnasium_check_env():
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    from wonders.gym_env import WondersEnv

    check_env(WondersEnv(players=3, opponents="random"), skip_render_check=True)
    env = gymnasium.make("wonders/Wonders-v0", players=4, opponents=["heuristic", "random", "random"])
    check_env(env.unwrapped, skip_render_check=True)


def test_gymnasium_episode_and_reward():
    from wonders.gym_env import WondersEnv

    env = WondersEnv(players=4, seat=2, opponents="heuristic")
    obs, info = env.reset(seed=3)
    steps, done = 0, False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, done, truncated, info = env.step(int(legal[0]))
        assert not info["illegal_action"] and not truncated
        steps += 1
    assert steps == 18  # 3 Ages × 6 turns; seat 2's city decides once per turn
    assert reward == (1.0 if info["rank"] == 1 else 0.0)
    assert info["ranks"][2] == info["rank"]
    # An illegal index falls back to the lowest legal one.
    obs, _ = env.reset(seed=3)
    _, _, _, _, info = env.step(env.action_space.n - 1)
    assert info["illegal_action"]
    with pytest.raises(ValueError, match="no seat 4"):
        WondersEnv(players=4, seat=4)
    with pytest.raises(ValueError, match="unknown bot"):
        WondersEnv(opponents="oracle")


@pytest.mark.parametrize("players, edition", [(4, "1e"), (2, "1e"), (3, "2e")])
def test_pettingzoo_parallel_api(players, edition):
    from pettingzoo.test import parallel_api_test

    from wonders.pettingzoo_env import WondersParallelEnv

    parallel_api_test(WondersParallelEnv(players=players, edition=edition), num_cycles=200)


def test_pettingzoo_game_ends_with_rewards():
    from wonders.pettingzoo_env import WondersParallelEnv

    env = WondersParallelEnv(players=3)
    obs, _ = env.reset(seed=1)
    while env.agents:
        actions = {a: int(np.flatnonzero(o["action_mask"])[-1]) for a, o in obs.items()}
        obs, rewards, term, trunc, infos = env.step(actions)
    assert sum(rewards.values()) >= 1
    assert all(term.values())
    winners = [a for a, r in rewards.items() if r == 1.0]
    assert all(infos[a]["rank"] == 1 for a in winners)


def test_vecenv_steps_games_and_checks_actions():
    env = wonders.VecEnv(8, players=3, seed=5, opponents="random", threads=2)
    obs, mask = env.reset()
    assert obs.shape == (8, wonders.observation_size()) and mask.shape == (8, wonders.action_count())
    # The first observation of game k is seat 0's in Game(3, 5 + k) once the bots have chosen.
    for k in range(8):
        g = wonders.Game(3, 5 + k)
        g.play_bots({1: wonders.Bot("random"), 2: wonders.Bot("random")})
        assert np.array_equal(obs[k], g.observation(0))
    with pytest.raises(ValueError, match="game 0: action index"):
        env.step([wonders.action_count() - 1] * 8)
    with pytest.raises(ValueError, match="7 actions for 8 games"):
        env.step([0] * 7)
    rng = np.random.default_rng(0)
    total_done, wins = 0, 0.0
    for step in range(18 * 3):
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        obs, mask, rewards, dones = env.step(actions)
        assert mask.any(axis=1).all()
        assert set(np.unique(rewards)) <= {0.0, 1.0}
        assert not rewards[~dones].any()
        total_done += dones.sum()
        wins += rewards.sum()
        if step == 17:
            assert dones.all()  # a 3-player game is 18 decisions for seat 0
    assert total_done == 8 * 3
    assert 0 < wins < total_done


def test_vecenv_with_heuristic_opponents_matches_single_game():
    """One VecEnv game, replayed in a Game with the same bots, gives the same observations."""
    env = wonders.VecEnv(1, players=4, seed=11, opponents="heuristic", threads=1)
    obs, mask = env.reset()
    g = wonders.Game(4, 11)
    bots = {s: wonders.Bot("heuristic") for s in (1, 2, 3)}
    g.play_bots(bots)
    for _ in range(17):
        assert np.array_equal(obs[0], g.observation(0))
        index = int(np.flatnonzero(mask[0])[0])
        obs, mask, _, dones = env.step([index])
        g.submit(0, index)
        g.play_bots(bots)
        assert not dones[0]
