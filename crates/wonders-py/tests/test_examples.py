"""The examples run, on small budgets."""

import importlib.util
import pathlib

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def load(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_heuristic_scores_plots(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "scores.png"
    result = load("heuristic_scores").main(["--games", "12", "--out", str(out)])
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    means = result["means"]
    # The total is the sum of the categories (002 總分數計算細則), so are the means.
    assert means["total"] == pytest.approx(sum(v for c, v in means.items() if c != "total"))
    assert result["winner_mean"] >= means["total"]


def test_training_beats_parity():
    """A few hundred games of REINFORCE against random bots already win more than the quarter a
    random agent wins (the run is deterministic: seeded games, bots and sampling)."""
    shares = load("train_policy").main(["--games", "512", "--envs", "32", "--block", "256", "--seed", "3"])
    assert len(shares) == 2
    assert shares[-1] > 0.3, shares


def test_vector_speed_table():
    """The speed table's rows, on a small budget: the vector env, which steps the games in Rust,
    makes several times the agent steps of the AEC env per second of CPU."""
    figures = load("vector_speed").main(["--seconds", "0.4"])
    assert len(figures) == 7
    aec_cpu = figures["PettingZoo AEC (pettingzoo_env.raw_env)"][1]
    assert figures["SelfPlayVecEnv N=256, 1 thread"][1] > 3 * aec_cpu


def test_ppo_smoke(tmp_path):
    """A few updates of the masked PPO example: the loss moves, the checkpoint loads and gives
    the trained network's outputs, the curve is saved."""
    pytest.importorskip("jax")
    pytest.importorskip("optax")
    import jax.numpy as jnp
    import numpy as np

    ppo = load("ppo")
    run = ppo.main(["--num-envs", "8", "--num-steps", "16", "--updates", "3", "--out", str(tmp_path)])
    losses = run["losses"]
    assert len(losses) == 3 and len(set(losses)) == 3
    params = ppo.load_checkpoint(tmp_path / "checkpoint.npz")
    from wonders.vector import SelfPlayVecEnv

    obs, _ = SelfPlayVecEnv(4, players=4, normalize=True).reset(seed=5)
    o = jnp.asarray(obs["observation"].reshape(16, -1))
    m = jnp.asarray(obs["action_mask"].reshape(16, -1).astype(bool))
    logits, value = ppo.forward(params, o, m)
    logits2, value2 = ppo.forward(run["params"], o, m)
    assert np.allclose(logits, logits2) and np.allclose(value, value2)
    # Illegal indices are masked out of the policy.
    assert (np.asarray(logits)[~np.asarray(m)] <= -1e8).all()
    curve = __import__("json").loads((tmp_path / "curve.json").read_text())
    assert [c["update"] for c in curve] == [1, 2, 3]
    assert (tmp_path / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    share = ppo.evaluate(params, 16, num_envs=8)
    assert 0.0 <= share <= 1.0
