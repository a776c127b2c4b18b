#!/usr/bin/env python3
"""A 7 Wonders bot for `wonders` (bot protocol 1; `wonders bot-protocol` documents it).

It builds when it can, else takes a wonder stage, else discards, choosing at random among the
actions of that kind. Standard library only; debug output goes to standard error. Try it:
    wonders arena --players 3 --bots "exec:python3 examples/bots/random_bot.py,random,random"
"""
import json
import random
import sys

rng = random.Random()
for line in sys.stdin:  # one JSON object per line, from the engine
    msg = json.loads(line)
    if msg["type"] == "hello":
        rng.seed(msg["seed"])
        reply = {"type": "hello", "name": "random_bot.py", "version": "1.0", "protocol": 1}
    elif msg["type"] == "act":
        legal = msg["legal"]
        for kind in ("build", "wonder"):  # prefer building, then a wonder stage
            options = [entry for entry in legal if entry["action"]["type"] == kind]
            if options:
                break
        else:
            options = legal  # discard, pass, choose a side...
        reply = {"type": "action", "id": msg["id"], "index": rng.choice(options)["index"]}
    elif msg["type"] == "game_over":  # msg["scores"], msg["ranks"]: the result
        break
    else:
        continue  # "fault" and any future message: nothing to answer
    print(json.dumps(reply), flush=True)
