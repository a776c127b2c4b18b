"""An arena of bots over many games, the games spread over a Ray cluster as tasks: the same games,
seats and seeds as `wonders arena`, so the same results for the same seed.

    pip install ray
    python crates/wonders-py/examples/ray_arena.py --bots heuristic,random,random,random --games 400
    python crates/wonders-py/examples/ray_arena.py --address auto ...     # an existing cluster

Ray schedules the tasks (one per block of games); each plays its games with `wonders.Game` and
`wonders.Bot`. As `wonders arena` does: games come in groups of N (N players) sharing a deal, game
g seats entry (s + g) mod N of the list at seat s, the deal of group k comes from
``game_seed(seed, k)`` and the bot at seat s of game g from ``bot_seed(game_seed(seed, g), s)``.
The report gives each distinct bot's seat-games, wins, win share, mean rank and mean points.
"""

from __future__ import annotations

import argparse
import json

import wonders

MASK = (1 << 64) - 1


def splitmix64(x: int) -> int:
    """SplitMix64's output function (as the `wonders` command's seeds)."""
    z = (x + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def game_seed(base: int, index: int) -> int:
    """The deal seed of game ``index`` of a run with base seed ``base``."""
    return splitmix64((base + index) & MASK)


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` of the game whose seed is ``seed``."""
    return splitmix64(seed ^ ((0xD1B54A32D192ED03 * (seat + 1)) & MASK))


def play_games(bots: list, first: int, count: int, seed: int, edition: str = "1e") -> list:
    """Plays games ``first`` … ``first + count - 1`` of the arena; for each, per seat: (entry of
    the list, total points, rank)."""
    n = len(bots)
    results = []
    for g in range(first, first + count):
        deal = game_seed(seed, g // n)
        game = wonders.Game(n, deal, edition=edition, wonders="choose" if edition == "2e" else None)
        rotation = g % n
        gs = game_seed(seed, g)
        seated = {s: wonders.Bot(bots[(s + rotation) % n], seed=bot_seed(gs, s)) for s in range(n)}
        game.play_bots(seated)
        scores, ranks = game.scores(), game.ranks()
        results.append([((s + rotation) % n, scores[s]["total"], ranks[s]) for s in range(n)])
    return results


def report(bots: list, games: list) -> dict:
    """Each distinct bot's totals over its seats, as `wonders arena --json` reports them."""
    distinct = list(dict.fromkeys(bots))
    tally = {b: {"name": b, "seat_games": 0, "wins": 0, "rank_sum": 0, "points": 0} for b in distinct}
    for game in games:
        for entry, total, rank in game:
            t = tally[bots[entry]]
            t["seat_games"] += 1
            t["wins"] += rank == 1
            t["rank_sum"] += rank
            t["points"] += total
    out = []
    for t in tally.values():
        n = max(t["seat_games"], 1)
        out.append(
            {
                "name": t["name"],
                "seat_games": t["seat_games"],
                "wins": t["wins"],
                "win_share": t["wins"] / n,
                "mean_rank": t["rank_sum"] / n,
                "mean_total": t["points"] / n,
            }
        )
    return {"games": len(games), "bots": out}


def run(bots: list, games: int, seed: int, edition: str = "1e", block: int = 16) -> dict:
    """Plays the arena as Ray tasks (``ray.init`` first) and returns the report."""
    import ray

    task = ray.remote(play_games)
    futures = [task.remote(bots, first, min(block, games - first), seed, edition) for first in range(0, games, block)]
    results = [game for chunk in ray.get(futures) for game in chunk]
    return report(bots, results)


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", required=True, help="one bot name per seat, comma-separated")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--edition", default="1e")
    ap.add_argument("--block", type=int, default=16, help="games per Ray task")
    ap.add_argument("--address", default=None, help="a Ray cluster's address (default: start a local one)")
    args = ap.parse_args(argv)
    import ray

    ray.init(address=args.address, include_dashboard=False, ignore_reinit_error=True, log_to_driver=False)
    result = run(args.bots.split(","), args.games, args.seed, args.edition, args.block)
    print(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    main()
