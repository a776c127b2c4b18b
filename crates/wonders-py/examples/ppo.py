"""Masked PPO on the self-play vector env, in the single-file style of CleanRL, with JAX and Optax.

    pip install "./crates/wonders-py[train]"        # jax, optax, matplotlib
    python crates/wonders-py/examples/ppo.py --minutes 30 --out runs/ppo

The agent plays seat 0 of 4-player games (1st edition) against 3 `random` bots
(``SelfPlayVecEnv(seats=[None, "random", "random", "random"])``; give ``--opponents`` other bot
names, or ``--self-play`` to make every seat the agent). Its network is an MLP on the normalised
observation with a policy head over the fixed action space, the illegal indices masked out of the
softmax, and a value head. Reward: 1 for a game won, else 0 (the win share is the mean return).

Every update writes ``OUT/checkpoint.npz`` (the parameters) and ``OUT/curve.json``; at the end
``OUT/curve.png`` plots the win share of the finished games against the agent's decisions.
``--evaluate OUT/checkpoint.npz`` plays ``--eval-games`` fresh games with a checkpoint.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import time

import jax
import jax.numpy as jnp
import numpy as np
import optax

from wonders.vector import SelfPlayVecEnv


def parse(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--num-envs", type=int, default=64, help="games stepped together")
    ap.add_argument("--num-steps", type=int, default=64, help="steps per game per rollout")
    ap.add_argument("--updates", type=int, default=0, help="stop after this many updates (0: by time)")
    ap.add_argument("--minutes", type=float, default=30.0, help="stop after this long")
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--gamma", type=float, default=1.0)
    ap.add_argument("--gae-lambda", type=float, default=0.95)
    ap.add_argument("--update-epochs", type=int, default=4)
    ap.add_argument("--num-minibatches", type=int, default=4)
    ap.add_argument("--clip-coef", type=float, default=0.2)
    ap.add_argument("--ent-coef", type=float, default=0.01)
    ap.add_argument("--vf-coef", type=float, default=0.5)
    ap.add_argument("--max-grad-norm", type=float, default=0.5)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--opponents", default="random", help="bot name of the other seats")
    ap.add_argument("--self-play", action="store_true", help="every seat is the agent")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", default="runs/ppo")
    ap.add_argument("--evaluate", metavar="CHECKPOINT", help="only play --eval-games with this checkpoint")
    ap.add_argument("--eval-games", type=int, default=2000)
    return ap.parse_args(argv)


def init_params(key, d: int, a: int, hidden: int) -> dict:
    """An MLP torso of two layers, a policy head and a value head (scaled normal weights)."""

    def dense(k, n_in, n_out, scale):
        return {"w": jax.random.normal(k, (n_in, n_out)) * scale / np.sqrt(n_in), "b": jnp.zeros(n_out)}

    k = jax.random.split(key, 4)
    return {
        "h1": dense(k[0], d, hidden, np.sqrt(2)),
        "h2": dense(k[1], hidden, hidden, np.sqrt(2)),
        "pi": dense(k[2], hidden, a, 0.01),
        "v": dense(k[3], hidden, 1, 1.0),
    }


def forward(params, obs, mask):
    """Masked logits ``[B, A]`` and values ``[B]``."""
    x = jnp.tanh(obs @ params["h1"]["w"] + params["h1"]["b"])
    x = jnp.tanh(x @ params["h2"]["w"] + params["h2"]["b"])
    logits = x @ params["pi"]["w"] + params["pi"]["b"]
    logits = jnp.where(mask, logits, -1e9)
    value = (x @ params["v"]["w"] + params["v"]["b"])[:, 0]
    return logits, value


@jax.jit
def act(params, obs, mask, key):
    logits, value = forward(params, obs, mask)
    action = jax.random.categorical(key, logits)
    logp = jax.nn.log_softmax(logits)[jnp.arange(action.shape[0]), action]
    return action, logp, value


def save_checkpoint(path: pathlib.Path, params: dict) -> None:
    flat = {f"{layer}/{name}": np.asarray(v) for layer, p in params.items() for name, v in p.items()}
    np.savez(path, **flat)


def load_checkpoint(path) -> dict:
    """The parameters ``save_checkpoint`` wrote."""
    params: dict = {}
    with np.load(path) as data:
        for key in data.files:
            layer, name = key.split("/")
            params.setdefault(layer, {})[name] = jnp.asarray(data[key])
    return params


def evaluate(params, games: int, seed: int = 10**6, opponents: str = "random", num_envs: int = 200) -> float:
    """The win share of the policy (sampling its masked softmax) at seat 0 against 3 bots, over
    ``games`` finished games dealt from seeds the training did not use."""
    envs = SelfPlayVecEnv(num_envs, players=4, seats=[None] + [opponents] * 3, seed=seed, normalize=True)
    obs, _ = envs.reset()
    key = jax.random.PRNGKey(seed)
    wins = done = 0
    while done < games:
        o = obs["observation"].reshape(num_envs, -1)
        m = obs["action_mask"].reshape(num_envs, -1).astype(bool)
        key, sub = jax.random.split(key)
        action, _, _ = act(params, o, m, sub)
        obs, reward, term, _, _ = envs.step(np.asarray(action).reshape(num_envs, 1))
        wins += float(reward[term].sum())
        done += int(term.sum())
    return wins / done


def main(argv=None) -> dict:
    args = parse(argv)
    if args.evaluate:
        share = evaluate(load_checkpoint(args.evaluate), args.eval_games, opponents=args.opponents)
        print(f"win share {share:.4f} over {args.eval_games} or more games against 3 {args.opponents}")
        return {"win_share": share}
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    seats = None if args.self_play else [None] + [args.opponents] * 3
    envs = SelfPlayVecEnv(args.num_envs, players=4, seats=seats, seed=args.seed, threads=args.threads, normalize=True)
    n, l = envs.num_envs, len(envs.learners)
    b = n * l  # one row per game and learning seat
    d = envs.single_observation_space["observation"].shape[1]
    a = envs.single_action_space.nvec[0]
    key = jax.random.PRNGKey(args.seed)
    key, sub = jax.random.split(key)
    params = init_params(sub, d, int(a), args.hidden)
    tx = optax.chain(optax.clip_by_global_norm(args.max_grad_norm), optax.adam(args.lr, eps=1e-5))
    opt_state = tx.init(params)

    def loss_fn(params, obs, mask, actions, old_logp, adv, returns):
        logits, value = forward(params, obs, mask)
        logp_all = jax.nn.log_softmax(logits)
        logp = logp_all[jnp.arange(actions.shape[0]), actions]
        ratio = jnp.exp(logp - old_logp)
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        pg = jnp.maximum(-adv * ratio, -adv * jnp.clip(ratio, 1 - args.clip_coef, 1 + args.clip_coef)).mean()
        v_loss = 0.5 * ((value - returns) ** 2).mean()
        probs = jnp.exp(logp_all)
        entropy = -(jnp.where(mask, probs * logp_all, 0.0)).sum(-1).mean()
        return pg - args.ent_coef * entropy + args.vf_coef * v_loss, (pg, v_loss, entropy)

    @jax.jit
    def update(params, opt_state, batch):
        (loss, aux), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, *batch)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss, aux

    obs, _ = envs.reset(seed=args.seed)
    t = args.num_steps
    buf_obs = np.zeros((t, b, d), np.float32)
    buf_mask = np.zeros((t, b, a), bool)
    buf_act = np.zeros((t, b), np.int32)
    buf_logp = np.zeros((t, b), np.float32)
    buf_val = np.zeros((t, b), np.float32)
    buf_rew = np.zeros((t, b), np.float32)
    buf_done = np.zeros((t, b), np.float32)
    curve, losses = [], []
    start, update_no = time.time(), 0
    rng = np.random.default_rng(args.seed)
    while True:
        update_no += 1
        wins, games = 0.0, 0
        for step in range(t):
            o = obs["observation"].reshape(b, d)
            m = obs["action_mask"].reshape(b, a).astype(bool)
            key, sub = jax.random.split(key)
            action, logp, value = act(params, o, m, sub)
            action = np.asarray(action)
            buf_obs[step], buf_mask[step], buf_act[step] = o, m, action
            buf_logp[step], buf_val[step] = np.asarray(logp), np.asarray(value)
            obs, reward, term, _, infos = envs.step(action.reshape(n, l))
            buf_rew[step] = reward.reshape(b)
            buf_done[step] = np.repeat(term, l).astype(np.float32)
            if term.any():
                wins += float(reward[term].sum())
                games += int(term.sum()) * l
        _, next_value = forward(
            params, obs["observation"].reshape(b, d), obs["action_mask"].reshape(b, a).astype(bool)
        )
        next_value = np.asarray(next_value)
        # GAE; a finished game's last step does not bootstrap (its next row is a new game).
        adv = np.zeros((t, b), np.float32)
        last = np.zeros(b, np.float32)
        for step in reversed(range(t)):
            nv = next_value if step == t - 1 else buf_val[step + 1]
            nonterminal = 1.0 - buf_done[step]
            delta = buf_rew[step] + args.gamma * nv * nonterminal - buf_val[step]
            last = delta + args.gamma * args.gae_lambda * nonterminal * last
            adv[step] = last
        returns = adv + buf_val
        flat = [x.reshape(t * b, *x.shape[2:]) for x in (buf_obs, buf_mask, buf_act, buf_logp, adv, returns)]
        size = t * b // args.num_minibatches
        for _ in range(args.update_epochs):
            order = rng.permutation(t * b)
            for k in range(args.num_minibatches):
                idx = order[k * size : (k + 1) * size]
                params, opt_state, loss, aux = update(params, opt_state, tuple(jnp.asarray(x[idx]) for x in flat))
        losses.append(float(loss))
        share = wins / games if games else float("nan")
        curve.append(
            {"update": update_no, "decisions": envs.agent_steps, "games": games, "win_share": share,
             "loss": float(loss), "seconds": round(time.time() - start, 1)}
        )
        save_checkpoint(out / "checkpoint.npz", params)
        (out / "curve.json").write_text(json.dumps(curve, indent=1))
        print(
            f"update {update_no:4d}  decisions {envs.agent_steps:9,d}  games {games:4d}  "
            f"win share {share:6.3f}  loss {float(loss):8.4f}  {time.time() - start:6.0f}s",
            flush=True,
        )
        if args.updates and update_no >= args.updates:
            break
        if not args.updates and time.time() - start > args.minutes * 60:
            break
    plot(curve, out / "curve.png")
    return {"curve": curve, "losses": losses, "params": params, "out": out}


def plot(curve, path) -> None:
    """The win share of the finished games against the agent's decisions."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    xs = [c["decisions"] for c in curve]
    ys = [c["win_share"] for c in curve]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(xs, ys, label="win share (finished games of the update)")
    ax.axhline(0.25, color="grey", linestyle=":", label="a random agent (1 in 4)")
    ax.set_xlabel("agent decisions")
    ax.set_ylabel("win share against 3 random bots")
    ax.set_ylim(0, 1)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


if __name__ == "__main__":
    main()
