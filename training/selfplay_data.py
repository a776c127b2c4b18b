"""Self-play data for the `neural` bot: games of the search bot against itself, through the
Python package (`wonders.Game`, `wonders.Bot`), recorded for imitation.

    python training/selfplay_data.py --games 400 --out /tmp/neural-data

Every seat of each 4-player game (1st edition, base game, seed `--seed + game`) is the search
bot with a fixed iteration budget (`--teacher`, deterministic for its seed). At each decision
the seat's observation (`Game.observation`, raw), legality mask (`Game.action_mask`) and the
teacher's action index (`Action.index`) are recorded; when the game ends, each of its decisions
gets the seat's outcome: its win share (1 for a sole win, 1/k when k cities share the first
rank, else 0) and its score margin (its total minus the best other city's total).

Games are written in shards of `--shard` games (`shard-00000.npz`, …: arrays `obs` float32
[N, D], `mask` bool [N, A], `hv` float16 [N, A] (the heuristic's values, `Game.heuristic_values`),
`action` int16 [N], `win` float32 [N], `margin` float32 [N],
`game` int32 [N]), so a run that is stopped keeps the shards it finished and a rerun resumes
after them. The same `--games`, `--seed` and `--teacher` give the same shards.

With `--opponents BOT` the teacher plays one seat (game number mod players) and BOT the others,
as in `wonders arena --bots TEACHER,BOT,BOT,BOT`; every seat's decisions are recorded, labelled
with the teacher's choice in that position, while each seat plays its own bot's (so the network
also learns what the teacher would do in the positions its opponents reach). With `--student BOT`
too, BOT plays the teacher's seat, labelled with the teacher's choices: the positions a trained
network reaches itself, with its teacher's answers (DAgger, Ross et al. 2011).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import wonders


def play(
    seed: int,
    players: int,
    teacher: str,
    opponents: str | None = None,
    teacher_seat: int = 0,
    student: str | None = None,
):
    """One game. Without `opponents` every seat is the teacher; with them the teacher plays
    `teacher_seat`, `opponents` the other seats, and every seat's decision is recorded with the
    teacher's choice in that position (the move played is the seat's own bot's). With `student`,
    the student plays `teacher_seat` instead of the teacher, still labelled with the teacher's
    choices (DAgger: the positions the student reaches, with the teacher's answers)."""
    game = wonders.Game(players=players, seed=seed)
    teachers = [wonders.Bot(teacher, seed=seed * 16 + s) for s in range(players)]
    if opponents is None:
        players_bots = list(teachers)
    else:
        players_bots = [
            teachers[s] if s == teacher_seat else wonders.Bot(opponents, seed=seed * 16 + 8 + s)
            for s in range(players)
        ]
    if student is not None:
        players_bots[teacher_seat] = wonders.Bot(student, seed=seed * 16 + 12)
    obs, mask, hv, action, seats = [], [], [], [], []
    while not game.is_over():
        # Seat by seat, each choice submitted before the next seat looks (as `wonders arena`
        # plays: a later seat sees that the earlier ones have chosen).
        for s in game.to_act():
            if not game.must_act(s):
                continue
            label = teachers[s].act(game, s)
            a = label if players_bots[s] is teachers[s] else players_bots[s].act(game, s)
            obs.append(game.observation(s))
            mask.append(game.action_mask(s))
            hv.append(game.heuristic_values(s))
            action.append(label.index)
            seats.append(s)
            game.submit(s, a)
    totals = np.array([sc["total"] for sc in game.scores()[:players]], dtype=np.float32)
    ranks = np.array(game.ranks()[:players])
    firsts = ranks == ranks.min()
    win = np.where(firsts, 1.0 / firsts.sum(), 0.0).astype(np.float32)
    margin = np.array([totals[s] - np.delete(totals, s).max() for s in range(players)], dtype=np.float32)
    seats = np.array(seats)
    return (
        np.stack(obs).astype(np.float32),
        np.stack(mask),
        np.stack(hv).astype(np.float16),
        np.array(action, dtype=np.int16),
        win[seats],
        margin[seats],
    )


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1_000_000, help="seed of the first game")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--teacher", default="search:100it", help="the bot whose choices are imitated")
    ap.add_argument(
        "--opponents",
        default=None,
        help="a bot for every seat but one (the teacher plays seat game mod players); every seat's "
        "decisions are still labelled with the teacher's choice",
    )
    ap.add_argument(
        "--student",
        default=None,
        help="a bot that plays the teacher's seat in its place, its positions labelled with the teacher's choices",
    )
    ap.add_argument("--shard", type=int, default=20, help="games per shard file")
    ap.add_argument("--out", required=True, help="folder of the shards")
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    start = time.time()
    for first in range(0, args.games, args.shard):
        path = os.path.join(args.out, f"shard-{first // args.shard:05d}.npz")
        if os.path.exists(path):
            continue
        parts = []
        for g in range(first, min(first + args.shard, args.games)):
            o, m, h, a, w, mg = play(args.seed + g, args.players, args.teacher, args.opponents, g % args.players, args.student)
            parts.append((o, m, h, a, w, mg, np.full(len(a), g, dtype=np.int32)))
        arrays = [np.concatenate(x) for x in zip(*parts)]
        tmp = os.path.join(args.out, f"unfinished-{first // args.shard:05d}.npz")
        np.savez_compressed(
            tmp,
            obs=arrays[0],
            mask=arrays[1],
            hv=arrays[2],
            action=arrays[3],
            win=arrays[4],
            margin=arrays[5],
            game=arrays[6],
        )
        os.replace(tmp, path)
        print(f"games {min(first + args.shard, args.games):5d}/{args.games} [{time.time() - start:.0f} s]", flush=True)


if __name__ == "__main__":
    main()
