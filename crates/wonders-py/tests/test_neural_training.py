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


def test_a_teacher_against_opponents_labels_every_seat_and_a_student_plays_its_seat(tmp_path):
    data = load("selfplay_data")
    # The heuristic teaches at seat 0 of game 0 (game number mod 4); random bots play the
    # other seats, and with a student the random bot plays the teacher's seat too.
    data.main(["--games", "1", "--teacher", "heuristic", "--opponents", "random", "--out", str(tmp_path / "a")])
    data.main(
        ["--games", "1", "--teacher", "heuristic", "--opponents", "random", "--student", "random",
         "--out", str(tmp_path / "b")]
    )
    for folder, student in (("a", False), ("b", True)):
        d = np.load(tmp_path / folder / "shard-00000.npz")
        # Replay the game: the labels are the heuristic's choices in each recorded position,
        # every seat included, while the moves played are each seat's own bot's.
        game = wonders.Game(players=4, seed=1_000_000)
        teacher = wonders.Bot("heuristic")
        i, differs = 0, {0: 0, 1: 0}
        opponents = [wonders.Bot("random", seed=1_000_000 * 16 + 8 + s) for s in range(4)]
        student_bot = wonders.Bot("random", seed=1_000_000 * 16 + 12)
        while not game.is_over():
            for s in game.to_act():
                if not game.must_act(s):
                    continue
                label = teacher.act(game, s)
                assert d["action"][i] == label.index
                assert (d["obs"][i] == np.asarray(game.observation(s), dtype=np.float32)).all()
                if s == 0:
                    played = student_bot.act(game, s) if student else label
                else:
                    played = opponents[s].act(game, s)
                differs[int(s == 0)] += played.index != label.index
                game.submit(s, played)
                i += 1
        assert i == len(d["action"])
        # The random opponents often play other moves than the teacher's; the teacher's seat
        # plays the teacher's unless a student takes it.
        assert differs[0] > 10
        assert (differs[1] > 0) == student


def test_training_reads_several_folders_with_distinct_games(tmp_path):
    pytest.importorskip("jax")
    pytest.importorskip("optax")
    data = load("selfplay_data")
    for folder, seed in (("a", "5"), ("b", "9")):
        data.main(["--games", "2", "--teacher", "heuristic", "--seed", seed, "--out", str(tmp_path / folder)])
    train = load("train")
    both = train.load([str(tmp_path / "a"), str(tmp_path / "b")], None)
    assert len(np.unique(both["game"])) == 4
    assert len(both["action"]) == sum(len(np.load(tmp_path / f / "shard-00000.npz")["action"]) for f in "ab")
    first = train.load([str(tmp_path / "a"), str(tmp_path / "b")], 1)
    assert len(np.unique(first["game"])) == 2


def test_heuristic_values_rank_the_heuristics_choice_first():
    # Every position of a game of heuristic bots: illegal indices 0, legal ones in [-30, 0], and
    # the heuristic's own move valued 0 (the best); they are recorded with the self-play data.
    game = wonders.Game(players=4, seed=3)
    bot = wonders.Bot("heuristic")
    positions = 0
    while not game.is_over():
        for s in game.to_act():
            if not game.must_act(s):
                continue
            hv, mask = game.heuristic_values(s), game.action_mask(s)
            assert hv.shape == mask.shape and hv.dtype == np.float32
            assert (hv[~mask] == 0).all() and (hv[mask] >= -30).all() and hv[mask].max() == 0
            a = bot.act(game, s)
            assert hv[a.index] == 0
            game.submit(s, a)
            positions += 1
    assert positions >= 72
    with pytest.raises(ValueError, match="seat"):
        game.heuristic_values(9)


def test_a_residual_network_adds_the_heuristics_values(tmp_path):
    pytest.importorskip("jax")
    pytest.importorskip("optax")
    safetensors_numpy = pytest.importorskip("safetensors.numpy")
    data = load("selfplay_data")
    data.main(["--games", "2", "--teacher", "heuristic", "--seed", "5", "--out", str(tmp_path / "d")])
    d = np.load(tmp_path / "d" / "shard-00000.npz")
    # The heuristic teaches: its choice is an index it values the best.
    assert (d["hv"][np.arange(len(d["action"])), d["action"]] == 0).all()
    train = load("train")
    fixture = tmp_path / "golden.json"
    run = train.main(
        ["--data", str(tmp_path / "d"), "--out", str(tmp_path / "w"), "--epochs", "2", "--hidden", "16",
         "--batch", "64", "--residual", "--fixture", str(fixture)]
    )
    assert run["meta"]["format"] == "wonders-neural-mlp-2"
    w = safetensors_numpy.load_file(str(tmp_path / "w" / "neural.safetensors"))
    assert w["hv_w"].shape == (1,) and w["hv_w"].dtype == np.float32
    assert float(run["meta"]["hv_w"]) == pytest.approx(float(w["hv_w"][0]), abs=1e-4)
    # Taught by the heuristic, the network learns to trust it more than it started (0.25).
    assert w["hv_w"][0] > 0.25
    golden = json.loads(fixture.read_text())
    for p in golden["positions"]:
        hv = np.array(p["heuristic_values"], dtype=np.float32)
        logits, _ = train.numpy_forward(w, np.array(p["observation"], dtype=np.float32)[None, :], hv[None, :])
        assert np.allclose(logits[0, p["legal"]], p["logits"], atol=1e-4)
        assert p["best"] == p["legal"][int(np.argmax(p["logits"]))]
