"""Observation vectors and masks."""

import numpy as np

import wonders


def decisions(game, seed):
    """Plays a random game, yielding before every step."""
    rng = np.random.default_rng(seed)
    while not game.is_over():
        yield
        seat = game.to_act()[0]
        legal = np.flatnonzero(game.action_mask(seat))
        game.submit(seat, int(rng.choice(legal)))


def test_shapes_and_layout():
    for edition in ("1e", "2e"):
        g = wonders.Game(3, 1, edition=edition)
        obs = g.observation(0)
        assert obs.dtype == np.float32 and obs.shape == (wonders.observation_size(edition),)
        layout = wonders.observation_layout(edition)
        name, start, length = layout[-1]
        assert start + length == obs.shape[0]
        seg = {n: obs[s : s + l] for n, s, l in layout}
        assert seg["hand"].sum() == 7
        assert seg["city0.coins"][0] == 3  # 3 coins at the start (002 遊戲準備)
        assert g.action_mask(0).dtype == np.bool_


def test_mask_equals_legal_actions():
    for players, edition, wonders_mode in [(4, "1e", None), (2, "1e", None), (3, "2e", "choose")]:
        g = wonders.Game(players, 17, edition=edition, wonders=wonders_mode)
        for _ in decisions(g, players):
            for seat in range(players):
                mask = g.action_mask(seat)
                legal = g.legal_actions(seat)
                expected = {a.index for a in legal}
                if not legal:
                    expected = {wonders.action_count(edition) - 1}  # wait
                assert set(np.flatnonzero(mask)) == expected


def test_observation_ignores_other_seats_hidden_cards():
    """At each turn's start, deal the cards seat 0 cannot see anew (resample): its observation
    stays the same, to the last float, while the other hands change."""
    g = wonders.Game(4, 33)
    changed = 0
    for _ in decisions(g, 5):
        if g.phase == "choose" and len(g.to_act()) == 4:
            r = g.resample(0, g.turn * 10 + g.age)
            changed += sum(r.view(s)["hand"] != g.view(s)["hand"] for s in (1, 2, 3))
            assert np.array_equal(r.observation(0), g.observation(0))
            assert np.array_equal(r.action_mask(0), g.action_mask(0))
    assert changed > 20
