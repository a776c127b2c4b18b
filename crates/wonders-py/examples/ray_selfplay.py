"""Self-play data generated on a Ray cluster: each Ray task steps its own batch of games
(`wonders.vector.SelfPlayVecEnv`, stepped in Rust) with a policy and returns its trajectories as
NumPy arrays; the driver gathers them. Ray schedules the tasks (on this machine, or on every
machine of a cluster with ``--address``); nothing here is a scheduler of its own.

    pip install ray
    python crates/wonders-py/examples/ray_selfplay.py --tasks 8 --games 64 --steps 100
    python crates/wonders-py/examples/ray_selfplay.py --address auto ...   # an existing cluster

Task ``k`` plays games dealt from seeds ``seed + k * games`` onwards and draws its random
policy's choices from ``seed + k``: the data is the same whatever the cluster, and a task's
arrays are exactly what ``collect`` gives on one machine. The policy here is uniform random among
the legal actions (a stand-in for a network's: pass any ``policy(obs, mask, rng) -> actions``).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from wonders.vector import SelfPlayVecEnv


def random_policy(obs: dict, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal index per game and learning seat (``mask`` is ``[N, L, A]``)."""
    return np.argmax(rng.random(mask.shape) * mask, axis=-1)


def collect(seed: int, games: int, steps: int, players: int = 4, seats=None, policy=random_policy,
            policy_seed: int = 0) -> dict:
    """``steps`` steps of ``games`` games dealt from ``seed`` on: the observations and masks seen,
    the actions taken, the rewards and the game ends, each with a leading ``[steps]`` axis, and
    the finished games' scores."""
    env = SelfPlayVecEnv(games, players=players, seats=seats, seed=seed)
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    out = {"observation": [], "action_mask": [], "action": [], "reward": [], "done": []}
    finished = []
    for _ in range(steps):
        actions = policy(obs, obs["action_mask"], rng)
        out["observation"].append(obs["observation"].copy())
        out["action_mask"].append(obs["action_mask"].copy())
        out["action"].append(actions)
        obs, rewards, dones, _, infos = env.step(actions)
        out["reward"].append(rewards)
        out["done"].append(dones)
        if dones.any():
            finished.extend(infos["scores"][infos["_scores"]].tolist())
    env.close()
    data = {k: np.stack(v) for k, v in out.items()}
    data["scores"] = np.asarray(finished, dtype=np.int32).reshape(len(finished), -1)
    return data


def run(tasks: int, games: int, steps: int, seed: int, players: int = 4, seats=None) -> list:
    """The ``tasks`` tasks' data, in task order, each collected by a Ray task."""
    import ray

    remote = ray.remote(collect)
    refs = [remote.remote(seed + k * games, games, steps, players, seats, random_policy, seed + k) for k in range(tasks)]
    return ray.get(refs)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tasks", type=int, default=4)
    p.add_argument("--games", type=int, default=64, help="games per task")
    p.add_argument("--steps", type=int, default=100, help="steps per task")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--address", default=None, help="a Ray cluster's address (default: a local Ray)")
    a = p.parse_args()
    import ray

    ray.init(address=a.address, include_dashboard=False, log_to_driver=False)
    began = time.perf_counter()
    data = run(a.tasks, a.games, a.steps, a.seed, a.players)
    seconds = time.perf_counter() - began
    decisions = sum(int(d["action_mask"].sum(axis=-1).clip(max=1).sum()) for d in data)
    ended = sum(len(d["scores"]) for d in data)
    print(f"{a.tasks} tasks × {a.games} games × {a.steps} steps: {decisions} agent steps, "
          f"{ended} games finished, {seconds:.1f} s ({decisions / seconds:,.0f} agent steps/s)")
    ray.shutdown()


if __name__ == "__main__":
    main()
