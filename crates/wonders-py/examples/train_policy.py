"""Trains a small policy against random bots with the vectorised environment, NumPy only.

    python crates/wonders-py/examples/train_policy.py --games 3000

The agent sits at seat 0 of 4-player games against 3 `random` bots. Its policy is a linear
softmax over the legal action indices (the mask), on the observation vector scaled by 1/10;
it learns by REINFORCE (reward 1 for a won game, else 0; baseline: the running win share), with
the 64 games of a `wonders.VecEnv` stepped together in Rust. It prints its win share per block
of games: a random agent wins about a quarter of them (parity), and the share rises as the
policy learns which cards to build.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import wonders


def softmax_masked(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    logits = np.where(mask, logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


def main(argv=None) -> list[float]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000, help="games to train on")
    ap.add_argument("--envs", type=int, default=64, help="games stepped together")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--block", type=int, default=500, help="games per printed win share")
    ap.add_argument("--lr", type=float, default=0.02)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    env = wonders.VecEnv(args.envs, players=4, seed=args.seed, opponents="random", threads=args.threads)
    d, a = env.observation_size, env.action_count
    rng = np.random.default_rng(args.seed)
    weights = np.zeros((d, a), dtype=np.float32)
    bias = np.zeros(a, dtype=np.float32)
    baseline = 0.25
    # Per game: the steps of the running episode (scaled observation, probabilities, action).
    episodes: list[list] = [[] for _ in range(args.envs)]
    obs, mask = env.reset()
    finished, block_wins, block_games, shares = 0, 0.0, 0, []
    start = time.time()
    while finished < args.games:
        x = obs / 10.0
        p = softmax_masked(x @ weights + bias, mask)
        actions = (p.cumsum(axis=1) > rng.random((args.envs, 1))).argmax(axis=1)
        for i in range(args.envs):
            episodes[i].append((x[i], p[i], actions[i]))
        obs, mask, rewards, dones = env.step(actions)
        xs, gs = [], []
        for i in np.flatnonzero(dones):
            advantage = rewards[i] - baseline
            ep_x = np.stack([step[0] for step in episodes[i]])
            ep_g = -np.stack([step[1] for step in episodes[i]])
            ep_g[np.arange(len(episodes[i])), [step[2] for step in episodes[i]]] += 1.0
            xs.append(ep_x)
            gs.append(ep_g * (args.lr * advantage))
            episodes[i] = []
            baseline += 0.01 * (rewards[i] - baseline)
            finished += 1
            block_wins += rewards[i]
            block_games += 1
            if block_games == args.block:
                shares.append(block_wins / block_games)
                print(
                    f"games {finished:6d}: win share {shares[-1]:.3f} (parity 0.25) "
                    f"[{time.time() - start:.0f} s]",
                    flush=True,
                )
                block_wins, block_games = 0.0, 0
        if xs:
            # One update for every game that ended in this step: the REINFORCE gradient of the
            # log-probabilities of the actions taken, scaled by the advantage.
            x_all, g_all = np.concatenate(xs), np.concatenate(gs)
            weights += x_all.T @ g_all
            bias += g_all.sum(axis=0)
    return shares


if __name__ == "__main__":
    main()
