"""Random-action steps per second: through the single Python env, through the vectorised env,
and the same games in pure Rust, measured in one run.

    python crates/wonders-py/examples/speed.py

A step is one decision of the agent (seat 0 of a 4-player game, 1st edition) against 3 `random`
bots; the agent picks uniformly among its legal action indices. The Gymnasium env picks in
Python (NumPy) and crosses into Rust for each step; the VecEnv steps 64 games per call on 2
threads; `wonders.rust_random_games` plays the same kind of games without Python, with and
without building the observation and mask after each step. The rows marked "Armada" play the
same games with the Armada expansion (7 turns per Age, a larger observation and action space),
in the same run, for comparison.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import wonders
from wonders.gym_env import WondersEnv


def single_env(steps: int) -> float:
    env = WondersEnv(players=4, opponents="random")
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    start = time.perf_counter()
    for _ in range(steps):
        legal = np.flatnonzero(obs["action_mask"])
        obs, _, done, _, _ = env.step(int(legal[rng.integers(len(legal))]))
        if done:
            obs, _ = env.reset()
    return steps / (time.perf_counter() - start)


def vec_env(steps: int, n: int, threads: int, expansions=()) -> float:
    env = wonders.VecEnv(n, players=4, opponents="random", threads=threads, expansions=expansions)
    rng = np.random.default_rng(0)
    _, mask = env.reset()
    start = time.perf_counter()
    for _ in range(steps // n):
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        _, mask, _, _ = env.step(actions)
    return (steps // n) * n / (time.perf_counter() - start)


def rust(games: int, threads: int, observe: bool, expansions=()) -> float:
    r = wonders.rust_random_games(games, players=4, threads=threads, observe=observe, expansions=expansions)
    return r["agent_steps"] / r["seconds"]


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=40_000)
    args = ap.parse_args(argv)
    games = args.steps // 18
    figures = {
        "single Python env (Gymnasium)": single_env(args.steps // 4),
        "VecEnv N=64, 2 threads": vec_env(args.steps, 64, 2),
        "VecEnv N=64, 1 thread": vec_env(args.steps, 64, 1),
        "VecEnv N=64, 2 threads, Armada": vec_env(args.steps, 64, 2, ("armada",)),
        "VecEnv N=64, 1 thread, Armada": vec_env(args.steps, 64, 1, ("armada",)),
        "pure Rust, 1 thread": rust(games, 1, False),
        "pure Rust + observation and mask, 1 thread": rust(games, 1, True),
        "pure Rust + observation and mask, 2 threads": rust(games, 2, True),
        "pure Rust + observation and mask, 1 thread, Armada": rust(games * 18 // 21, 1, True, ("armada",)),
    }
    for name, v in figures.items():
        print(f"{name:52s} {v:12,.0f} steps/s")
    return figures


if __name__ == "__main__":
    main()
