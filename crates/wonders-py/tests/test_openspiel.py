"""The game registered with OpenSpiel: its random-simulation test with serialization, OpenSpiel's
MCTS and IS-MCTS with random rollouts, a Python RL agent, and resampling."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import wonders  # noqa: E402
import wonders.openspiel  # noqa: E402,F401


@pytest.mark.parametrize(
    "params",
    [{"players": 3}, {"players": 2}, {"players": 4, "expansions": "armada+edifice", "teams": True}],
    ids=["3p", "2p-free-city", "4p-armada-edifice-teams"],
)
def test_random_sim_test_with_serialization(params):
    game = pyspiel.load_game("python_wonders", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def play_to_decision(game, seed):
    state = game.new_initial_state()
    state.apply_action(seed)
    return state


def test_sizes_returns_and_serialization():
    game = pyspiel.load_game("python_wonders", {"players": 3, "seeds": 16})
    assert game.num_distinct_actions() == wonders.action_count()
    assert game.observation_tensor_size() == wonders.observation_size()
    d, n = wonders.observation_size(), wonders.action_count()
    assert game.information_state_tensor_size() == d + 48 * (d + n)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 16
    state.apply_action(5)
    # The state is Game(3, 5): seat 0 decides first, its legal indices are the mask's.
    g = wonders.Game(3, 5)
    assert state.current_player() == 0
    assert state.legal_actions() == [int(i) for i in np.flatnonzero(g.action_mask(0))]
    assert np.array_equal(np.asarray(state.observation_tensor(1)), g.observation(1))
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        seat = state.current_player()
        a = int(rng.choice(state.legal_actions()))
        state.apply_action(a)
        g.submit(seat, a)
    assert state.returns() == [1.0 if r == 1 else 0.0 for r in g.ranks()[:3]]
    again = game.deserialize_state(state.serialize())
    assert again.history() == state.history() and again.returns() == state.returns()
    # The information state has perfect recall: the observation the seat had at each of its
    # decisions, then what it chose there (one one-hot row each), replayed here on a second game.
    info = np.asarray(state.information_state_tensor(0))
    past = info[d : d + 48 * d].reshape(48, d)
    rows = info[d + 48 * d :].reshape(48, n)
    replay = wonders.Game(3, 5)
    k = 0
    for step, action in enumerate(state.history()[1:]):
        seat = next(s for s in range(3) if replay.must_act(s))
        if seat == 0:
            assert np.array_equal(past[k], replay.observation(0)), f"decision {k}"
            assert rows[k].sum() == 1 and rows[k][action] == 1
            k += 1
        replay.submit(seat, action)
    assert k >= 18 and not past[k:].any() and not rows[k:].any()
    assert np.array_equal(info[:d], g.observation(0))


def test_resample_from_infostate_keeps_this_turns_choice():
    game = pyspiel.load_game("python_wonders", {"players": 4})
    state = play_to_decision(game, 3)
    chosen = state.legal_actions()[2]
    state.apply_action(chosen)  # seat 0 chose; seats 1–3 still to choose
    sampler = pyspiel.UniformProbabilitySampler(11, 0.0, 1.0)
    r = state.resample_from_infostate(0, sampler)
    assert r.current_player() == 1  # seat 0's choice is kept: it does not choose again
    assert r.information_state_string(0) == state.information_state_string(0)
    assert r.game_state.own_choice(0).index == chosen
    hands = [r.game_state.view(s)["hand"] for s in (1, 2, 3)]
    assert hands != [state.game_state.view(s)["hand"] for s in (1, 2, 3)]


def test_openspiel_mcts_and_ismcts_with_random_rollouts():
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_wonders", {"players": 3})
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=1.4, max_simulations=12, evaluator=evaluator, random_state=rng)
    state = play_to_decision(game, 7)
    action = bot.step(state)
    assert action in state.legal_actions()
    is_bot = ismcts.ISMCTSBot(game, evaluator, uct_c=1.4, max_simulations=12, random_state=rng)
    action = is_bot.step(state)
    assert action in state.legal_actions()


def test_openspiel_rl_agent_learns_from_episodes():
    """OpenSpiel's tabular Q-learner (a Python RL agent) over its rl_environment: plays whole
    games for every seat and fills its Q-table."""
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import tabular_qlearner

    env = rl_environment.Environment("python_wonders", players=2, seeds=4)
    num_actions = env.action_spec()["num_actions"]
    agents = [tabular_qlearner.QLearner(player_id=p, num_actions=num_actions) for p in range(2)]
    for _ in range(2):
        time_step = env.reset()
        while not time_step.last():
            p = time_step.observations["current_player"]
            out = agents[p].step(time_step)
            assert time_step.observations["legal_actions"][p].count(out.action) == 1
            time_step = env.step([out.action])
        for agent in agents:
            agent.step(time_step)
        assert sorted(time_step.rewards) in ([0.0, 1.0], [1.0, 1.0])
    assert sum(len(q) for q in agents[0]._q_values.values()) > 0


def test_openspiel_policy_gradient_agent_trains():
    """OpenSpiel's JAX policy-gradient agent (advantage actor-critic) plays whole games for both
    seats over rl_environment, on the observation tensor, and takes gradient steps."""
    pytest.importorskip("haiku")
    pytest.importorskip("rlax")
    from open_spiel.python import rl_environment
    from open_spiel.python.jax import policy_gradient

    env = rl_environment.Environment(
        "python_wonders", players=2, seeds=8, observation_type=rl_environment.ObservationType.OBSERVATION
    )
    size = env.observation_spec()["info_state"][0]
    assert size == wonders.observation_size()
    num_actions = env.action_spec()["num_actions"]
    agents = [
        policy_gradient.PolicyGradient(
            p, size, num_actions, loss_str="a2c", hidden_layers_sizes=(32,), num_critic_before_pi=1
        )
        for p in range(2)
    ]
    for _ in range(2):
        time_step = env.reset()
        while not time_step.last():
            p = time_step.observations["current_player"]
            out = agents[p].step(time_step)
            assert out.action in time_step.observations["legal_actions"][p]
            time_step = env.step([out.action])
        for agent in agents:
            agent.step(time_step)
    for agent in agents:
        critic, pi = agent.loss
        assert np.isfinite(float(critic)) and np.isfinite(float(pi))
