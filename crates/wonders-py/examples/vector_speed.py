"""Self-play agent steps per second, every seat of a 4-player game (1st edition) an agent choosing
uniformly among its legal indices, with its observation and mask built at each decision: through
the Game API, the PettingZoo AEC and parallel envs, and the self-play vector env at N = 64 and
256 games on one and two threads, measured in one run.

    python crates/wonders-py/examples/vector_speed.py [--seconds 5]

An agent step is one decision of one seat (a seat with nothing to decide makes none). "wall" is
steps per second of elapsed time; "CPU" per second of this process's CPU time (all its threads),
which other programs running on the machine do not lower.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import wonders
from wonders import pettingzoo_env
from wonders.vector import SelfPlayVecEnv

PLAYERS = 4


def timed(run, seconds: float) -> tuple[float, float]:
    """Runs ``run(deadline)`` (which returns the agent steps it made) and returns the steps per
    wall second and per CPU second."""
    wall, cpu = time.perf_counter(), time.process_time()
    steps = run(wall + seconds)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return steps / wall, steps / max(cpu, 1e-9)


def game_api(deadline: float) -> int:
    rng = np.random.default_rng(0)
    steps, seed = 0, 0
    while time.perf_counter() < deadline:
        g = wonders.Game(PLAYERS, seed)
        seed += 1
        while not g.is_over():
            for seat in [s for s in g.to_act() if g.must_act(s)]:
                g.observation(seat)
                legal = np.flatnonzero(g.action_mask(seat))
                g.submit(seat, int(legal[rng.integers(len(legal))]))
                steps += 1
    return steps


def aec(deadline: float) -> int:
    env = pettingzoo_env.raw_env(players=PLAYERS)
    rng = np.random.default_rng(0)
    steps, seed = 0, 0
    while time.perf_counter() < deadline:
        env.reset(seed=seed)
        seed += 1
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    return steps


def parallel(deadline: float) -> int:
    env = pettingzoo_env.parallel_env(players=PLAYERS)
    rng = np.random.default_rng(0)
    steps, seed = 0, 0
    wait = wonders.action_count() - 1
    while time.perf_counter() < deadline:
        obs, _ = env.reset(seed=seed)
        seed += 1
        while env.agents:
            actions = {}
            for agent, o in obs.items():
                legal = np.flatnonzero(o["action_mask"])
                actions[agent] = int(legal[rng.integers(len(legal))])
                steps += int(legal[0] != wait)
            obs, *_ = env.step(actions)
    return steps


def vector(n: int, threads: int):
    def run(deadline: float) -> int:
        env = SelfPlayVecEnv(n, players=PLAYERS, threads=threads)
        env.reset(seed=0)
        start = env.agent_steps
        while time.perf_counter() < deadline:
            env.step(env.random_actions())
        return env.agent_steps - start

    return run


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0, help="time per row (default 5)")
    args = ap.parse_args(argv)
    rows = {
        "Game API (wonders.Game, Python loop)": game_api,
        "PettingZoo AEC (pettingzoo_env.raw_env)": aec,
        "PettingZoo parallel (pettingzoo_env.parallel_env)": parallel,
        "SelfPlayVecEnv N=64, 1 thread": vector(64, 1),
        "SelfPlayVecEnv N=64, 2 threads": vector(64, 2),
        "SelfPlayVecEnv N=256, 1 thread": vector(256, 1),
        "SelfPlayVecEnv N=256, 2 threads": vector(256, 2),
    }
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{os.cpu_count()} cores, load average {load:.1f} at the start")
    print(f"| {'path':52s} | {'wall steps/s':>12s} | {'CPU steps/s':>12s} |")
    print(f"|{'-' * 54}|{'-' * 14}|{'-' * 14}|")
    figures = {}
    for name, run in rows.items():
        figures[name] = timed(run, args.seconds)
        wall, cpu = figures[name]
        print(f"| {name:52s} | {wall:12,.0f} | {cpu:12,.0f} |", flush=True)
    return figures


if __name__ == "__main__":
    main()
