"""Trains the `neural` bot's policy/value network on self-play data (JAX + Optax, CPU).

    python training/train.py --data /tmp/neural-data --out crates/wonders-bots/weights

Reads the shards of `training/selfplay_data.py`, holds out every tenth game for validation and
trains a multilayer perceptron (observation → H → H, ReLU; a policy head over the action space
and a value head) to imitate the teacher's choices (cross-entropy of the legal-masked logits) and
to predict the seat's win share (binary cross-entropy of a sigmoid), with AdamW. The input is the
observation times `wonders.observation_scale`, clipped to [-1, 1]; that scale is stored in the
weight file, so the Rust bot needs nothing else.

With `--residual` the network also reads the heuristic's opinion of every action
(`hv`, recorded by `selfplay_data.py` from `Game.heuristic_values`: each index's best heuristic
value less the best legal one, in points) and adds `hv_w × hv` to its logits, `hv_w` a learned
scalar (format `wonders-neural-mlp-2`): the perceptron learns what the teacher does beyond the
heuristic, not the heuristic's arithmetic of payments and counts it cannot learn from examples.

It writes to `--out`:

- `neural.safetensors`: the weights of the epoch with the lowest validation policy loss, stored
  as float16 (metadata: `format`, `edition`, the data and training figures);
- `neural-curve.png` and `neural-curve.json`: the training curve (losses and the validation
  accuracy of the policy's choice against the teacher's, per epoch);
- `--fixture` (optional): golden outputs for the Rust tests — positions of a game of 4 heuristic
  bots (seed 7), each with its observation, the heuristic's values, its legal indices, the
  network's logits on them, its value and its choice, computed here from the float16 weights as
  stored.

Everything follows from `--seed` and the data: run it again on the same shards and the same
weights come out (JAX on the CPU is deterministic).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import time

import numpy as np


def load(folders: list[str], games: int | None):
    """The shards of every folder, their game numbers made distinct across folders; with `games`,
    only the first N games of each folder."""
    parts = {k: [] for k in ("obs", "mask", "action", "win", "game", "hv")}
    for i, folder in enumerate(folders):
        files = sorted(glob.glob(os.path.join(folder, "shard-*.npz")))
        if not files:
            raise SystemExit(f"no shards in {folder}")
        first = None
        for f in files:
            with np.load(f) as d:
                game = d["game"]
                first = game.min() if first is None else min(first, game.min())
                keep = slice(None) if games is None else game < first + games
                for k in parts:
                    if k not in d:
                        # Shards of an older run: no heuristic values.
                        parts[k].append(np.zeros(d["mask"][keep].shape, np.float16))
                        continue
                    v = d[k][keep]
                    parts[k].append(v + i * 10_000_000 if k == "game" else v)
    return {k: np.concatenate(v) for k, v in parts.items()}


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True, nargs="+", help="folders of the self-play shards")
    ap.add_argument("--games", type=int, default=None, help="use only the first N games of each folder")
    ap.add_argument("--out", required=True, help="folder of the weights and the curve")
    ap.add_argument("--fixture", default=None, help="JSON file of golden outputs for the Rust tests")
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--weight-decay", type=float, default=1e-4)
    ap.add_argument("--value-weight", type=float, default=0.5, help="weight of the value loss")
    ap.add_argument(
        "--imitate",
        choices=["all", "winners"],
        default="all",
        help="whose choices the policy imitates: every seat's, or only the winners' (each weighted by its win share)",
    )
    ap.add_argument(
        "--residual",
        action="store_true",
        help="add a learned multiple of the heuristic's values (`hv`) to the logits (format wonders-neural-mlp-2)",
    )
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    import jax
    import jax.numpy as jnp
    import optax
    from safetensors.numpy import save_file

    import wonders

    start = time.time()
    data = load(args.data, args.games)
    scale = wonders.observation_scale("1e").astype(np.float32)
    x_all = np.clip(data.pop("obs") * scale, -1.0, 1.0).astype(np.float32)
    m_all, a_all = data["mask"], data["action"].astype(np.int32)
    # The heuristic's values (only read with --residual; zeros otherwise).
    hv_all = data.pop("hv").astype(np.float32) if args.residual else np.zeros((len(a_all), 1), np.float32)
    w_all = data["win"].astype(np.float32)
    # The weight of each decision in the policy loss.
    iw_all = np.ones_like(w_all) if args.imitate == "all" else w_all
    val = data["game"] % 10 == 0
    tr = ~val
    d, a_count = x_all.shape[1], m_all.shape[1]
    n_games = len(np.unique(data["game"]))
    print(f"{len(a_all)} decisions of {n_games} games ({val.sum()} held out); D={d}, A={a_count}", flush=True)

    key = jax.random.PRNGKey(args.seed)
    k1, k2, k3, k4, key = jax.random.split(key, 5)
    h = args.hidden

    def dense(k, n_in, n_out, gain=1.0):
        return jax.random.normal(k, (n_in, n_out), jnp.float32) * gain * np.sqrt(2.0 / n_in)

    params = {
        "w1": dense(k1, d, h),
        "b1": jnp.zeros(h),
        "w2": dense(k2, h, h),
        "b2": jnp.zeros(h),
        "pi_w": dense(k3, h, a_count, 0.1),
        "pi_b": jnp.zeros(a_count),
        "v_w": dense(k4, h, 1, 0.1),
        "v_b": jnp.zeros(1),
    }
    if args.residual:
        # 1/4 logit per point: the weight of `neural:heuristic`'s blend, as a start.
        params["hv_w"] = jnp.full(1, 0.25)

    def forward(p, x, hv):
        z = jax.nn.relu(x @ p["w1"] + p["b1"])
        z = jax.nn.relu(z @ p["w2"] + p["b2"])
        logits = z @ p["pi_w"] + p["pi_b"]
        if "hv_w" in p:
            logits = logits + p["hv_w"][0] * hv
        return logits, (z @ p["v_w"] + p["v_b"])[:, 0]

    def losses(p, x, hv, m, a, w, iw):
        logits, v = forward(p, x, hv)
        logits = jnp.where(m, logits, -1e9)
        logp = jax.nn.log_softmax(logits)
        pol = -(jnp.take_along_axis(logp, a[:, None], axis=1)[:, 0] * iw).sum() / jnp.maximum(iw.sum(), 1e-6)
        val_loss = optax.sigmoid_binary_cross_entropy(v, w).mean()
        acc = (jnp.argmax(logits, axis=1) == a).mean()
        return pol, val_loss, acc

    def loss_fn(p, x, hv, m, a, w, iw):
        pol, vl, _ = losses(p, x, hv, m, a, w, iw)
        return pol + args.value_weight * vl

    steps_per_epoch = int(tr.sum()) // args.batch
    schedule = optax.cosine_decay_schedule(args.lr, args.epochs * steps_per_epoch)
    # The heuristic's weight is not decayed: it is one number, and zero is no natural value for it.
    opt = optax.adamw(schedule, weight_decay=args.weight_decay, mask={k: k != "hv_w" for k in params})
    state = opt.init(params)

    @jax.jit
    def step(p, s, x, hv, m, a, w, iw):
        loss, g = jax.value_and_grad(loss_fn)(p, x, hv, m, a, w, iw)
        upd, s = opt.update(g, s, p)
        return optax.apply_updates(p, upd), s, loss

    @jax.jit
    def evaluate(p, x, hv, m, a, w, iw):
        return losses(p, x, hv, m, a, w, iw)

    def hv_of(j):
        return hv_all[j] if args.residual else hv_all[: len(j)]

    def eval_set(p, sel):
        idx = np.flatnonzero(sel)
        tot = np.zeros(3)
        for i in range(0, len(idx), 4096):
            j = idx[i : i + 4096]
            r = evaluate(p, x_all[j], hv_of(j), m_all[j], a_all[j], w_all[j], iw_all[j])
            # Policy loss and accuracy weighted as in training; the value loss over every decision.
            tot += np.array([float(r[0]) * iw_all[j].sum(), float(r[1]) * len(j), float(r[2]) * len(j)])
        return tot / np.array([iw_all[idx].sum(), len(idx), len(idx)])

    rng = np.random.default_rng(args.seed)
    tr_idx = np.flatnonzero(tr)
    curve, best, best_params = [], None, params
    for epoch in range(1, args.epochs + 1):
        perm = rng.permutation(tr_idx)
        for i in range(steps_per_epoch):
            j = np.sort(perm[i * args.batch : (i + 1) * args.batch])
            params, state, _ = step(params, state, x_all[j], hv_of(j), m_all[j], a_all[j], w_all[j], iw_all[j])
        t = eval_set(params, tr)
        v = eval_set(params, val)
        row = {
            "epoch": epoch,
            "train_policy_loss": t[0],
            "train_value_loss": t[1],
            "train_accuracy": t[2],
            "val_policy_loss": v[0],
            "val_value_loss": v[1],
            "val_accuracy": v[2],
            "seconds": time.time() - start,
        }
        curve.append(row)
        print(
            f"epoch {epoch:3d}: policy loss {t[0]:.3f} / {v[0]:.3f} (train / held out), accuracy "
            f"{t[2]:.3f} / {v[2]:.3f}, value loss {t[1]:.3f} / {v[1]:.3f} [{row['seconds']:.0f} s]",
            flush=True,
        )
        if best is None or v[0] < best["val_policy_loss"]:
            best, best_params = row, params

    os.makedirs(args.out, exist_ok=True)
    # The heuristic's weight stays float32 (one number).
    weights = {k: np.asarray(v, dtype=np.float32 if k == "hv_w" else np.float16) for k, v in best_params.items()}
    weights["obs_scale"] = scale
    n_params = sum(int(np.prod(v.shape)) for k, v in best_params.items())
    meta = {
        "format": "wonders-neural-mlp-2" if args.residual else "wonders-neural-mlp-1",
        "edition": "1e",
        "hidden": str(h),
        "parameters": str(n_params),
        "games": str(n_games),
        "decisions": str(len(a_all)),
        "epoch": str(best["epoch"]),
        "val_policy_loss": f"{best['val_policy_loss']:.4f}",
        "val_accuracy": f"{best['val_accuracy']:.4f}",
        "seed": str(args.seed),
        "imitate": args.imitate,
    }
    if args.residual:
        meta["hv_w"] = f"{float(best_params['hv_w'][0]):.4f}"
    path = os.path.join(args.out, "neural.safetensors")
    save_file(weights, path, metadata=meta)
    with open(os.path.join(args.out, "neural-curve.json"), "w") as f:
        json.dump({"meta": meta, "curve": curve}, f, indent=1)
    plot(curve, os.path.join(args.out, "neural-curve.png"), args.residual)
    print(f"wrote {path} ({os.path.getsize(path)} bytes, {n_params} parameters), best epoch {best['epoch']}")
    if args.residual:
        print(f"heuristic weight hv_w = {float(best_params['hv_w'][0]):.4f} logits per point")
    if args.fixture:
        write_fixture(path, args.fixture)
    return {"meta": meta, "curve": curve}


def numpy_forward(w: dict, obs: np.ndarray, hv: np.ndarray | None = None):
    """The network in NumPy from the stored weights: logits and value (0 to 1). A residual network
    (`hv_w` among the weights) adds `hv_w × hv`, the heuristic's values, to the logits."""
    f = {k: v.astype(np.float32) for k, v in w.items()}
    x = np.clip(obs * f["obs_scale"], -1.0, 1.0)
    z = np.maximum(x @ f["w1"] + f["b1"], 0.0)
    z = np.maximum(z @ f["w2"] + f["b2"], 0.0)
    v = (z @ f["v_w"] + f["v_b"])[..., 0]
    logits = z @ f["pi_w"] + f["pi_b"]
    if "hv_w" in f:
        logits = logits + f["hv_w"][0] * hv
    return logits, 1.0 / (1.0 + np.exp(-v))


def write_fixture(weights_path: str, fixture_path: str, seed: int = 7, every: int = 9) -> None:
    """Golden outputs: every `every`-th decision of a game of 4 heuristic bots (seed `seed`)."""
    from safetensors.numpy import load_file

    import wonders

    w = load_file(weights_path)
    game = wonders.Game(players=4, seed=seed)
    bots = [wonders.Bot("heuristic", seed=s) for s in range(4)]
    positions, n = [], 0
    while not game.is_over():
        for s in game.to_act():
            if not game.must_act(s):
                continue
            if n % every == 0:
                obs = game.observation(s)
                mask = game.action_mask(s)
                hv = game.heuristic_values(s)
                logits, value = numpy_forward(w, obs[None, :], hv[None, :])
                legal = np.flatnonzero(mask)
                best = int(legal[np.argmax(logits[0, legal])])
                positions.append(
                    {
                        "decision": n,
                        "seat": s,
                        "observation": obs.tolist(),
                        "heuristic_values": hv.tolist(),
                        "legal": legal.tolist(),
                        "logits": logits[0, legal].tolist(),
                        "value": float(value[0]),
                        "best": best,
                    }
                )
            n += 1
            game.submit(s, bots[s].act(game, s))
    with open(fixture_path, "w") as f:
        json.dump({"seed": seed, "every": every, "positions": positions}, f)
    print(f"wrote {fixture_path} ({len(positions)} positions)")


def plot(curve: list, path: str, residual: bool = False) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    e = [r["epoch"] for r in curve]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    ax1.plot(e, [r["train_policy_loss"] for r in curve], label="policy loss, training games")
    ax1.plot(e, [r["val_policy_loss"] for r in curve], label="policy loss, held-out games")
    ax1.plot(e, [r["train_value_loss"] for r in curve], "--", label="value loss, training games")
    ax1.plot(e, [r["val_value_loss"] for r in curve], "--", label="value loss, held-out games")
    ax1.set_xlabel("epoch")
    ax1.set_ylabel("cross-entropy")
    ax1.legend(fontsize=8)
    ax2.plot(e, [r["train_accuracy"] for r in curve], label="training games")
    ax2.plot(e, [r["val_accuracy"] for r in curve], label="held-out games")
    ax2.set_xlabel("epoch")
    ax2.set_ylabel("same choice as the search")
    ax2.legend(fontsize=8)
    network = "residual network (observation + the heuristic's values)" if residual else "plain network"
    fig.suptitle(f"neural bot, {network}: imitating the search (4 players, 1st edition)")
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


if __name__ == "__main__":
    main()
