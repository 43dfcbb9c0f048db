"""Whole hands played by bots through the variant interface, with the invariants checked after
every move: the 106 tiles are all somewhere and none is in two places, the dict form round-trips,
every view shows a seat only what it may know, and the hand's scores are what the rules say.

Shared by tests/engine/test_bot_hands.py (a few hundred hands a variant) and
bench/bot_hands_bench.py (1,000 a variant).
"""

from __future__ import annotations

import json
from collections import Counter

from games.engine.okey101.values import rack_value
from games.engine.tiles import colour_of, full_set
from games.engine.variants import Variant
from tests.engine.test_views_props import tiles_in

FULL = Counter(full_set())
STRENGTHS = ("normal", "easy")


def placed_tiles(s) -> Counter:
    """Every tile the state holds: racks, stock, piles, the indicator, and for 101 the table;
    for Düz the tile put on the indicator to finish."""
    c = Counter(s.stock)
    for part in (*s.racks, *s.discards):
        c.update(part)
    for meld in getattr(s, "table", ()):
        c.update(meld.tiles)
    if getattr(s, "indicator_taken_by", None) is None:
        c[s.indicator] += 1
    if getattr(s.result, "tile", None) is not None:
        c[s.result.tile] += 1
    return c


def known_to(s, viewer) -> Counter:
    """What a seat may know of a 101 hand: the indicator, the piles, the table, its own rack,
    the taken tiles (thrown face up first); everything once the hand is over."""
    known = Counter([s.indicator])
    for part in s.discards:
        known.update(part)
    for meld in s.table:
        known.update(meld.tiles)
    if viewer is not None:
        known.update(s.racks[viewer])
    if s.over:
        for rack in s.racks:
            known.update(rack)
    return known


def check_101_views(v: Variant, s) -> None:
    for viewer in (None, *range(s.n)):
        view = json.loads(json.dumps(v.view(s, viewer)))
        for meld in view["table"]:
            del meld["stands"]  # the faces okeys stand for: named, not tiles anywhere
        known = known_to(s, viewer)
        for key, value in view.items():
            if key == "okey":  # a face named by the rules
                continue
            shown = Counter(tiles_in(value))
            assert not shown - known, f"{key} shows {shown - known} to seat {viewer}"


def check_101_scores(s) -> None:
    """The Scoring section, worked out again: m, −101 × m, 202/404 × m, S × m or 2S × m, the
    partner's 0 in eşli, +101 an event."""
    r = s.result
    if r.void:
        assert all(o == "pairs" for o in s.opened) and r.scores == (0,) * s.n
        return
    m = 1
    if r.finisher is not None:
        others_opened = any(o != "none" for i, o in enumerate(s.opened) if i != r.finisher)
        m = (2 if r.last == s.okey else 1) * (2 if s.opened[r.finisher] == "pairs" else 1)
        m *= 2 if s.opened_now and not others_opened else 1
    assert r.multiplier == m
    for seat in range(s.n):
        if seat == r.finisher:
            base = -101 * m
        elif s.options.esli and r.finisher is not None and seat == (r.finisher + 2) % 4:
            base = 0
        elif s.opened[seat] == "none":
            base = (404 if s.declared[seat] else 202) * m
        else:
            factor = 2 if s.opened[seat] == "pairs" else 1
            base = factor * rack_value(s.racks[seat], s.okey) * m
        assert r.scores[seat] == base + 101 * s.penalties[seat]


def check_duz_result(s) -> None:
    """docs/rules.md: the finisher (and the partner in eşli) −V, the others +V, and the seat
    that showed the indicator its colour factor less."""
    r = s.result
    if r.void:
        assert r.deltas == (0,) * s.n and r.finisher is None
        return
    o = s.options
    colour = 2 if o.colour_doubling and colour_of(s.indicator) in (0, 3) else 1
    expected = []
    for seat in range(s.n):
        won = seat == r.finisher or (o.mode == "esli" and seat == (r.finisher + 2) % 4)
        expected.append((-r.value if won else r.value) - (colour if seat == s.shown_by else 0))
    assert r.deltas == tuple(expected)


def play_hand(v: Variant, seed: bytes, first: int, strengths=STRENGTHS, views: bool = True):
    """One hand of bots (seat i plays strengths[i % 2]), checked after every move."""
    s = v.deal(seed, v.make_options(), first)
    moves = 0
    while not s.over:
        for move in v.bot_moves(s, s.turn, strengths[s.turn % 2]):
            s = v.apply(s, move)
            moves += 1
            assert placed_tiles(s) == FULL
            assert v.hand_from_dict(v.hand_to_dict(s)) == s
            if views and v.name in ("101", "esli101"):
                check_101_views(v, s)
    if v.name in ("101", "esli101"):
        check_101_scores(s)
    else:
        check_duz_result(s)
    return s, moves
