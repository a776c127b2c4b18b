"""The `neural` bot's training pipeline (training/selfplay_data.py, training/train.py) in a quick
mode: a few games of a cheap teacher, one epoch; the data, the weight file, the curve and the
golden fixture are checked against what they must hold."""

import importlib.util
import json
import pathlib

import numpy as np
import pytest

import wonders

ROOT = pathlib.Path(__file__).resolve().parents[3]


def load(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "training" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_selfplay_data_and_training(tmp_path):
    pytest.importorskip("jax")
    pytest.importorskip("optax")
    safetensors_numpy = pytest.importorskip("safetensors.numpy")

    data = load("selfplay_data")
    data.main(["--games", "4", "--shard", "2", "--teacher", "search:20it", "--seed", "5", "--out", str(tmp_path / "d")])
    shards = sorted((tmp_path / "d").glob("shard-*.npz"))
    assert [s.name for s in shards] == ["shard-00000.npz", "shard-00001.npz"]
    d = np.load(shards[0])
    n = len(d["action"])
    # Two 4-player games: 18 turns of 4 seats each at least (Babylon and Halicarnassus add some).
    assert 144 <= n <= 160
    assert d["obs"].shape == (n, wonders.observation_size("1e"))
    # The teacher's choice is always legal; every game has its win shares summing to 1 per turn.
    assert d["mask"][np.arange(n), d["action"]].all()
    assert set(d["game"]) == {0, 1}
    for g in (0, 1):
        sel = d["game"] == g
        # Each decision holds its seat's share: the four seats' shares sum to 1 in each game.
        first_turn = np.flatnonzero(sel)[:4]
        assert d["win"][first_turn].sum() == pytest.approx(1.0)
    # The same seed gives the same data.
    data.main(["--games", "2", "--shard", "2", "--teacher", "search:20it", "--seed", "5", "--out", str(tmp_path / "e")])
    again = np.load(tmp_path / "e" / "shard-00000.npz")
    assert (again["action"] == d["action"]).all() and (again["obs"] == d["obs"]).all()

    train = load("train")
    fixture = tmp_path / "golden.json"
    run = train.main(
        ["--data", str(tmp_path / "d"), "--out", str(tmp_path / "w"), "--epochs", "2", "--hidden", "16",
         "--batch", "64", "--fixture", str(fixture)]
    )
    assert [r["epoch"] for r in run["curve"]] == [1, 2]
    w = safetensors_numpy.load_file(str(tmp_path / "w" / "neural.safetensors"))
    d_obs, a = wonders.observation_size("1e"), wonders.action_count("1e")
    assert w["w1"].shape == (d_obs, 16) and w["pi_w"].shape == (16, a) and w["v_w"].shape == (16, 1)
    assert w["w1"].dtype == np.float16
    assert np.allclose(w["obs_scale"], wonders.observation_scale("1e"))
    assert run["meta"]["format"] == "wonders-neural-mlp-1" and run["meta"]["games"] == "4"
    assert (tmp_path / "w" / "neural-curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    golden = json.loads(fixture.read_text())
    assert golden["positions"]
    for p in golden["positions"]:
        # The golden choice is the legal index of the largest logit.
        assert p["best"] == p["legal"][int(np.argmax(p["logits"]))]
        assert 0.0 < p["value"] < 1.0
