"""The Ray arena example on a local Ray instance started by the test: the same results as
`wonders arena` for the same seed."""

import json
import os
import subprocess

import numpy as np
import pytest

from conftest import ROOT
from test_examples import load

ray = pytest.importorskip("ray")


def wonders_binary():
    """The `wonders` command built by `cargo test`/`cargo build` (debug or release)."""
    for profile in ("debug", "release"):
        path = ROOT / "target" / profile / "wonders"
        if path.exists():
            return path
    pytest.fail("build the wonders command first (cargo build -p wonders-cli)")


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    yield
    ray.shutdown()


@pytest.mark.parametrize("bots, games, seed", [("heuristic,random,card-first,random", 12, 5), ("heuristic,random,random", 7, 11)])
def test_ray_arena_equals_wonders_arena(local_ray, bots, games, seed):
    arena = load("ray_arena")
    names = bots.split(",")
    ours = arena.run(names, games, seed, block=3)  # 4 or 3 tasks
    out = subprocess.run(
        [str(wonders_binary()), "arena", "--players", str(len(names)), "--bots", bots, "--games", str(games),
         "--seed", str(seed), "--json"],
        capture_output=True, text=True, check=True, env={**os.environ, "NO_COLOR": "1"},
    )
    theirs = json.loads(out.stdout)
    assert ours["games"] == theirs["games"] == games
    assert [b["name"] for b in ours["bots"]] == [b["name"] for b in theirs["bots"]]
    for a, b in zip(ours["bots"], theirs["bots"]):
        assert (a["seat_games"], a["wins"]) == (b["seat_games"], b["wins"])
        assert a["mean_rank"] == pytest.approx(b["mean_rank"])
        assert a["mean_total"] == pytest.approx(b["mean"]["total"])
    assert sum(b["seat_games"] for b in ours["bots"]) == games * len(names)


def test_ray_selfplay_data_equals_the_same_tasks_run_here(local_ray):
    """Each Ray task's trajectories are exactly what `collect` gives on this machine for the same
    seeds; the arrays have the vector env's shapes, every action taken was legal, and the
    finished games' scores came with rewards for their winners."""
    selfplay = load("ray_selfplay")
    data = selfplay.run(tasks=3, games=8, steps=60, seed=4, players=3)
    assert len(data) == 3
    for k, d in enumerate(data):
        here = selfplay.collect(4 + k * 8, 8, 60, 3, None, selfplay.random_policy, 4 + k)
        for key in ("observation", "action_mask", "action", "reward", "done", "scores"):
            assert np.array_equal(d[key], here[key]), (k, key)
        assert d["observation"].shape[:3] == (60, 8, 3) and d["action_mask"].shape[:3] == (60, 8, 3)
        taken = np.take_along_axis(d["action_mask"], d["action"][..., None], axis=-1)
        assert taken.all(), "every action legal in its mask"
        # 3 players, 18 decisions a game (one "wait" step each): 60 steps finish every game once.
        assert d["done"].sum() == len(d["scores"]) >= 8
        assert d["reward"].sum() >= d["done"].sum()  # at least one winner per finished game
    # Different tasks, different games.
    assert not np.array_equal(data[0]["observation"], data[1]["observation"])
