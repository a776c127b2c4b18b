"""Plays the heuristic bot against itself and plots the score distributions with matplotlib.

    python crates/wonders-py/examples/heuristic_scores.py --games 300 --out heuristic_scores.png

Every seat is the `heuristic` bot (4 players, 1st edition, random wonders). The figure shows, per
scoring category and for the total, the distribution of one city's points over all cities and
games; it prints the mean per category and the winners' mean total.
"""

from __future__ import annotations

import argparse

import numpy as np

import wonders

CATEGORIES = ["military", "treasury", "wonder", "civilian", "science", "commercial", "guilds", "total"]


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="heuristic_scores.png")
    args = ap.parse_args(argv)

    scores = {c: [] for c in CATEGORIES}
    winners = []
    for g in range(args.games):
        game = wonders.Game(args.players, args.seed + g)
        game.play_bots({s: wonders.Bot("heuristic") for s in range(args.players)})
        sheet = game.scores()[: args.players]
        for city in sheet:
            for c in CATEGORIES:
                scores[c].append(city[c])
        winners.append(max(city["total"] for city in sheet))

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 4, figsize=(14, 6.5))
    for ax, c in zip(axes.flat, CATEGORIES):
        values = np.array(scores[c])
        bins = np.arange(values.min(), values.max() + 2) - 0.5
        if len(bins) > 40:
            bins = 30
        ax.hist(values, bins=bins, color="tab:purple" if c == "total" else "tab:blue")
        ax.set_title(f"{c} (mean {values.mean():.1f})")
        ax.set_xlabel("points")
    fig.suptitle(f"heuristic vs heuristic: {args.games} games of {args.players} players, points per city")
    fig.tight_layout()
    fig.savefig(args.out, dpi=80)
    means = {c: float(np.mean(scores[c])) for c in CATEGORIES}
    print("mean points per city:", ", ".join(f"{c} {v:.1f}" for c, v in means.items()))
    print(f"winners' mean total: {np.mean(winners):.1f}; figure: {args.out}")
    return {"means": means, "winner_mean": float(np.mean(winners)), "out": args.out}


if __name__ == "__main__":
    main()
