"""The Python API against the Rust engine: identical records, replays, errors, bots."""

import copy
import json

import numpy as np
import pytest

import wonders
from conftest import PINNED


def policy_record(game):
    """The pinned policy of crates/wonders-core/tests/tensor.rs: the k-th decision (over all
    seats) of `seat` takes legal index number (31 k + seat) mod L, paid the default way."""
    k = 0
    while not game.is_over():
        for seat in game.to_act():
            if not game.must_act(seat):
                continue
            legal = np.flatnonzero(game.action_mask(seat))
            game.submit(seat, int(legal[(31 * k + seat) % len(legal)]))
            k += 1
    return game.record()


@pytest.mark.parametrize(
    "file, game",
    [
        ("record_policy_4p_seed7.json", lambda: wonders.Game(4, 7)),
        ("record_policy_2p_seed3.json", lambda: wonders.Game(2, 3)),
        ("record_policy_2e_3p_seed11.json", lambda: wonders.Game(3, 11, edition="2e", wonders="choose")),
    ],
)
def test_python_game_equals_rust_record(file, game):
    """The same seed and policy through Python give the record the Rust test pins, action for
    action, and the same final scores."""
    rust = json.loads((PINNED / file).read_text())
    py = policy_record(game())
    assert py == rust
    replayed = wonders.Game.replay(rust)
    assert replayed.is_over()
    assert [s["total"] for s in replayed.scores()] == [s["total"] for s in rust["scores"]]


def test_replay_refuses_a_tampered_record():
    rust = json.loads((PINNED / "record_policy_4p_seed7.json").read_text())
    rust["scores"][0]["total"] += 1
    with pytest.raises(ValueError, match="recorded scores differ"):
        wonders.Game.replay(rust)
    with pytest.raises(ValueError, match="malformed record"):
        wonders.Game.replay("{not json")


def test_actions_are_small_immutable_values():
    g = wonders.Game(3, 42)
    a = g.legal_actions(0)[0]
    assert isinstance(a.index, int) and 0 <= a.index < wonders.action_count()
    assert a.kind in ("build", "wonder", "discard")
    assert repr(a).startswith(f"Action({a.kind} \"{a.card}\"")
    with pytest.raises(AttributeError):
        a.card = "Altar"
    assert a == g.legal_actions(0)[0] and hash(a) == hash(g.legal_actions(0)[0])
    assert wonders.describe_action(a.index)[1] == a.card
    assert g.action(0, a.index).index == a.index
    # The JSON form submits the same action.
    h = g.clone()
    h.submit(0, a.to_dict())
    g.submit(0, a)
    assert h.view(0) == g.view(0)


def test_default_payment_and_payment_list():
    """Every index with several ways to pay lists them all, the default (fewest coins) first."""
    seen = 0
    for seed in range(30):
        g = wonders.Game(4, seed)
        bot = wonders.Bot("heuristic")
        while not g.is_over() and seen < 5:
            for seat in g.to_act():
                mask = g.action_mask(seat)
                for index in np.flatnonzero(mask):
                    pays = g.payments(seat, int(index))
                    legal = [x for x in g.legal_actions(seat) if x.index == index]
                    assert set(pays) == set(legal)
                    assert g.action(seat, int(index)) == pays[0]
                    totals = [p.left + p.right + p.bank for p in pays]
                    assert totals[0] == min(totals)
                    seen += len(pays) > 1
                g.submit(seat, bot.act(g, seat))
        if seen >= 5:
            break
    assert seen >= 5


def test_errors_name_the_problem_and_change_nothing():
    g = wonders.Game(4, 1)
    before = g.view(0)
    with pytest.raises(ValueError, match="no seat 7"):
        g.submit(7, 0)
    with pytest.raises(ValueError, match="not legal"):
        g.submit(0, wonders.action_count() - 1)  # wait, while seat 0 must choose
    with pytest.raises(ValueError, match="out of range"):
        g.submit(0, 10_000)
    with pytest.raises(ValueError, match="unknown card"):
        g.submit(0, {"type": "build", "card": "Death Star"})
    with pytest.raises(ValueError, match="unknown expansion `cities` \\(known expansions: edifice, armada\\)"):
        wonders.Game(4, 1, expansions=("cities",))
    with pytest.raises(ValueError, match="unknown edition"):
        wonders.Game(4, 1, edition="3e")
    with pytest.raises(ValueError, match="players"):
        wonders.Game(9, 1)
    with pytest.raises(ValueError, match="unknown bot"):
        wonders.Bot("oracle")
    assert g.view(0) == before
    first = g.legal_actions(0)[0]
    g.submit(0, first)
    with pytest.raises(ValueError, match="already chosen"):
        g.submit(0, first)


def test_chosen_wonders_and_scores_by_category():
    g = wonders.Game(3, 5, wonders=[("Giza", "A"), "Rhodes", ("Babylon", "B")])
    v = g.view(0)
    assert [c["wonder"] for c in v["cities"]] == ["Giza", "Rhodes", "Babylon"]
    assert v["cities"][0]["side"] == "A" and v["cities"][2]["side"] == "B"
    s = g.scores()[0]
    assert list(s) == ["military", "treasury", "wonder", "civilian", "science", "commercial", "guilds", "edifice", "total"]
    assert s["treasury"] == 1 and s["total"] == 1  # 3 coins = 1 point (002 計分 2)
    assert g.record()["wonders"] == [
        {"wonder": "Giza", "side": "A"},
        {"wonder": "Rhodes"},
        {"wonder": "Babylon", "side": "B"},
    ]


def test_clone_is_independent_and_bots_play_whole_games():
    g = wonders.Game(4, 9)
    h = g.clone()
    c = copy.deepcopy(g)
    bots = {s: wonders.Bot("heuristic") for s in range(4)}
    g.play_bots(bots)
    assert g.is_over() and not h.is_over() and not c.is_over()
    assert sorted(g.ranks())[0] == 1
    assert len(g.record()["actions"]) >= 4 * 18
    # The heuristic bot is deterministic: the same game again gives the same record.
    h.play_bots({s: wonders.Bot("heuristic") for s in range(4)})
    assert h.record() == g.record()
    search = wonders.Bot("search:50it", seed=3)
    assert search.act(c, 0) in c.legal_actions(0)
    with pytest.raises(ValueError, match="nothing to decide"):
        search.act(g, 0)


def test_resample_keeps_what_the_seat_knows():
    g = wonders.Game(4, 21)
    g.play_bots({s: wonders.Bot("random", seed=s) for s in (1, 2, 3)})  # seat 0 must act now
    r = g.resample(0, 99)
    # Everything but who has chosen: the others' choices are hidden, so in the sample they have
    # not chosen yet.
    assert {**r.view(0), "chosen": None} == {**g.view(0), "chosen": None}
    assert any(r.view(s)["hand"] != g.view(s)["hand"] for s in (1, 2, 3))
    with pytest.raises(ValueError, match="no record"):
        r.record()
