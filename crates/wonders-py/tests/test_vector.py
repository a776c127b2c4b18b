"""The self-play vector environment: every game of the batch is the game `wonders.Game` plays
with the same seed and actions, in every kind of game; autoreset, rewards, errors, threads."""

import numpy as np
import pytest

import wonders
from wonders.vector import SelfPlayVecEnv

KINDS = [
    # players, edition, expansions, teams
    (4, "1e", (), False),
    (2, "1e", (), False),  # the Free City: its holder decides twice a turn
    (3, "2e", (), False),
    (7, "1e", (), False),
    (5, "1e", ("edifice",), False),
    (8, "1e", ("armada",), False),
    (4, "1e", ("armada", "edifice"), True),
    (6, "2e", (), True),
]


def mirror_game(env, k, seed):
    """Game `k` of `env` after `reset(seed)`, as a `wonders.Game` with its bots played."""
    g = wonders.Game(env.players, seed + k, edition=env.edition, expansions=env.expansions, teams=env.teams)
    return g


@pytest.mark.parametrize("players, edition, expansions, teams", KINDS)
def test_each_game_is_the_single_game(players, edition, expansions, teams):
    """Game 1 of a batch of 3, all seats learning, followed with a `wonders.Game` dealt from the
    same seed and given the same indices: every observation, mask, reward, score and rank is the
    same, to the end and into the next game."""
    n, seed = 3, 40
    env = SelfPlayVecEnv(n, players=players, edition=edition, expansions=expansions, teams=teams, seed=seed)
    assert env.learners == list(range(players))
    obs, info = env.reset(seed=seed)
    assert info == {}
    assert env.observation_space.contains(obs)
    g = mirror_game(env, 1, seed)
    decisions, steps, ended_before = 0, 0, 0
    while True:
        for s in range(players):
            assert np.array_equal(obs["observation"][1, s], g.observation(s))
            assert np.array_equal(obs["action_mask"][1, s], g.action_mask(s).astype(np.int8))
        actions = env.random_actions()
        assert env.action_space.contains(actions)
        acting = [g.must_act(s) for s in range(players)]  # decided on this observation
        for s in range(players):
            if acting[s]:
                decisions += 1
                g.submit(s, int(actions[1, s]))
            else:
                assert actions[1, s] == env.wait_index
        obs, rewards, term, trunc, infos = env.step(actions)
        steps += 1
        assert not trunc.any() and rewards.shape == (n, players)
        assert not rewards[~term].any()
        if term[1]:
            ended_before += int(term[0])
            break
        ended_before += int(term.sum())
        assert not g.is_over()
    assert g.is_over()
    final = infos["final_obs"][1]
    assert infos["_final_obs"][1] and infos["_scores"][1]
    for s in range(players):
        assert np.array_equal(final["observation"][s], g.observation(s))
    assert list(infos["scores"][1]) == [c["total"] for c in g.scores()]
    assert list(infos["ranks"][1]) == g.ranks()
    assert list(rewards[1]) == [1.0 if r == 1 else 0.0 for r in g.ranks()]
    assert infos["length"][1] == decisions
    # A game is 3 Ages of at least 6 turns (7 with Armada below 8 players), more with extra
    # decisions.
    assert steps >= 3 * (7 if "armada" in expansions and players < 8 else 6)
    # The finished game's row is already a new game's first observation, dealt from the next
    # unused seed: restarts take seed + n, seed + n + 1, … in order (games in index order).
    h = wonders.Game(players, seed + n + ended_before, edition=edition, expansions=expansions, teams=teams)
    for s in range(players):
        assert np.array_equal(obs["observation"][1, s], h.observation(s))


def test_learning_seats_beside_bots():
    """Seats 1 and 3 are heuristic bots (deterministic): the learners' rows are seats 0 and 2 of
    the game in which those bots play."""
    env = SelfPlayVecEnv(2, players=4, seats=[None, "heuristic", None, "heuristic"], seed=7)
    assert env.learners == [0, 2]
    assert env.single_action_space.nvec.tolist() == [wonders.action_count()] * 2
    obs, _ = env.reset()
    assert obs["observation"].shape == (2, 2, wonders.observation_size())
    g = wonders.Game(4, 7)
    bots = {1: wonders.Bot("heuristic"), 3: wonders.Bot("heuristic")}
    g.play_bots(bots)
    done = False
    while not done:
        for j, s in enumerate((0, 2)):
            assert np.array_equal(obs["observation"][0, j], g.observation(s))
        actions = env.random_actions()
        acting = [g.must_act(s) for s in (0, 2)]
        for j, s in enumerate((0, 2)):
            if acting[j]:
                g.submit(s, int(actions[0, j]))
        g.play_bots(bots)
        obs, rewards, term, _, infos = env.step(actions)
        done = bool(term[0])
    assert g.is_over() and list(infos["ranks"][0]) == g.ranks()
    assert list(rewards[0]) == [1.0 if g.ranks()[s] == 1 else 0.0 for s in (0, 2)]


def test_one_learner_takes_flat_actions():
    """With one learning seat, actions may be [N] (read as [N, 1]): the same run either way."""
    a = SelfPlayVecEnv(4, players=3, seats=[None, "random", "random"], seed=8)
    b = SelfPlayVecEnv(4, players=3, seats=[None, "random", "random"], seed=8)
    a.reset()
    b.reset()
    for _ in range(25):
        actions = a.random_actions()
        assert actions.shape == (4, 1) and np.array_equal(actions, b.random_actions())
        oa, ra, ta, _, _ = a.step(actions)
        ob, rb, tb, _, _ = b.step(actions[:, 0])
        assert np.array_equal(oa["observation"], ob["observation"]) and np.array_equal(ra, rb)
        assert np.array_equal(ta, tb)
    assert a.games_finished == b.games_finished >= 4


def test_illegal_actions_raise_and_change_nothing():
    env = SelfPlayVecEnv(4, players=3, seed=2)
    obs, _ = env.reset()
    legal = env.random_actions()
    bad = legal.copy()
    bad[2, 1] = env.wait_index  # seat 1 of game 2 must choose: wait is not legal
    with pytest.raises(ValueError, match="game 2, seat 1: action index .* is not legal"):
        env.step(bad)
    with pytest.raises(ValueError, match=r"expected \[4, 3\]"):
        env.step(legal[:3])
    with pytest.raises(TypeError, match="integer"):
        env.step(legal.astype(np.float32))
    obs2, *_ = env.step(legal)
    fresh = SelfPlayVecEnv(4, players=3, seed=2)
    fresh.reset()
    obs3, *_ = fresh.step(legal)
    assert np.array_equal(obs2["observation"], obs3["observation"])
    with pytest.raises(ValueError, match="seats has 2 entries for 3 seats"):
        SelfPlayVecEnv(1, players=3, seats=[None, None])
    with pytest.raises(ValueError, match="no learning seat"):
        SelfPlayVecEnv(1, players=3, seats=["random"] * 3)
    with pytest.raises(ValueError, match="unknown bot"):
        SelfPlayVecEnv(1, players=3, seats=[None, "oracle", None])
    with pytest.raises(ValueError, match="unknown expansion"):
        SelfPlayVecEnv(1, expansions=("cities",))


def test_threads_and_copies_give_the_same_run():
    """One thread or two, copies or in-place buffers: the same seeds and actions give the same
    observations, rewards and restarts."""
    runs = []
    for threads, copy in ((1, True), (2, True), (2, False)):
        env = SelfPlayVecEnv(16, players=4, threads=threads, copy=copy, seed=9)
        obs, _ = env.reset()
        trace = []
        for _ in range(40):
            obs, rewards, term, _, infos = env.step(env.random_actions())
            trace.append((obs["observation"].copy(), rewards.copy(), term.copy(), infos.get("scores")))
        runs.append((trace, env.agent_steps, env.games_finished))
    for trace, agent_steps, games in runs[1:]:
        assert agent_steps == runs[0][1] and games == runs[0][2]
        for a, b in zip(trace, runs[0][0]):
            assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) and np.array_equal(a[2], b[2])
            assert (a[3] is None) == (b[3] is None) and (a[3] is None or np.array_equal(a[3], b[3]))
    # 16 games of 4 players, 40 steps: each ended twice (18 decisions per seat, a few more with
    # Babylon B's or Halicarnassus' extra decisions), every seat deciding in almost every step.
    assert runs[0][2] >= 16 * 2
    assert 16 * 4 * 36 <= runs[0][1] <= 16 * 4 * 40


def test_agent_steps_count_decisions():
    env = SelfPlayVecEnv(8, players=2, seed=1)
    obs, _ = env.reset()
    decisions = 0
    for _ in range(30):
        mask = obs["action_mask"]
        decisions += int((mask[:, :, env.wait_index] == 0).sum())
        obs, *_ = env.step(env.random_actions())
    assert env.agent_steps == decisions


def test_normalized_observations_fit_their_box():
    env = SelfPlayVecEnv(8, players=4, normalize=True, expansions=("armada",), seed=3)
    raw = SelfPlayVecEnv(8, players=4, expansions=("armada",), seed=3)
    assert env.single_observation_space["observation"].low.min() == -1.0
    obs, _ = env.reset()
    robs, _ = raw.reset()
    scale = wonders.observation_scale("1e", ["armada"])
    for _ in range(60):
        assert env.observation_space.contains(obs)
        assert np.allclose(obs["observation"], np.clip(robs["observation"] * scale, -1, 1))
        actions = env.random_actions()
        assert np.array_equal(actions, raw.random_actions())
        obs, *_ = env.step(actions)
        robs, *_ = raw.step(actions)
    layout = dict((n, (s, l)) for n, s, l in wonders.observation_layout("1e", ["armada"]))
    start, _ = layout["city0.coins"]
    assert scale[start] == pytest.approx(1 / 60)


def test_vector_env_is_a_gymnasium_vector_env():
    import gymnasium

    env = SelfPlayVecEnv(4, players=3)
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    assert env.observation_space["observation"].shape == (4, 3, wonders.observation_size())
    assert env.action_space.shape == (4, 3)
    g = env.game(0)
    assert isinstance(g, wonders.Game) and g.players == 3
