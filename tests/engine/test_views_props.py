"""No view, for any seat or a spectator, at any step of random hands, holds a tile the viewer
could not know: only their own rack, the public discard piles, the indicator, and at the hand's
end all racks. The stock is only ever a size."""

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    TableOptions,
    TileError,
    deal,
    hand_apply,
    hand_view,
    legal_moves,
    move_kind,
    parse_tile,
)
from games.engine.tiles import format_tile

from ._hands import hand_with_winner, random_move

KEYS = {
    "viewer", "mode", "n", "first_seat", "seq", "turn", "phase", "indicator", "okey",
    "indicator_taken_by", "rack", "rack_sizes", "drawn", "taken_from_left", "stock_size",
    "discards", "discard_sizes", "histories_public", "discard_histories", "takeable", "pairs_declared", "shown_by",
    "can", "result", "racks",
}  # fmt: skip


def tiles_in(value) -> list[int]:
    """Every tile written anywhere inside a JSON value."""
    if isinstance(value, str):
        try:
            f = parse_tile(value)
        except TileError:
            return []
        return [f] if format_tile(f) == value else []
    if isinstance(value, list):
        return [t for item in value for t in tiles_in(item)]
    if isinstance(value, dict):
        return [t for item in value.values() for t in tiles_in(item)]
    return []


def known_to(state, viewer) -> Counter:
    known = Counter([state.indicator])
    for pile in state.discards:
        known.update(pile)
    # a tile taken from a pile was thrown face up first: everyone saw it
    known.update(t for _, _, t in state.taken)
    if viewer is not None:
        known.update(state.racks[viewer])
    if state.phase == "over":
        for rack in state.racks:
            known.update(rack)
        if state.result.tile is not None:
            known[state.result.tile] += 1
    return known


def check_view(state, viewer):
    v = json.loads(json.dumps(hand_view(state, viewer)))
    assert set(v) == KEYS
    known = known_to(state, viewer)
    for key, value in v.items():
        if key == "okey":  # a face named by the rules, not a tile anywhere
            continue
        shown = Counter(tiles_in(value))
        assert not shown - known, f"{key} shows {shown - known} to seat {viewer}"
    own = None if viewer is None else [format_tile(t) for t in state.racks[viewer]]
    assert v["rack"] == own
    assert v["stock_size"] == len(state.stock)
    assert v["rack_sizes"] == [len(r) for r in state.racks]
    public = bool(state.pairs_declared)
    for shown, pile in zip(v["discards"], state.discards, strict=True):
        assert shown == [format_tile(t) for t in (pile if public else pile[-1:])]
    histories = v["discard_histories"]
    assert (histories is not None) == public
    for seat, history in enumerate(histories or []):
        # the pile is the history without what was taken; each take was of the newest tile
        assert [t for t, taken in history if not taken] == v["discards"][seat]
        taken = [t for t, taken in history if taken]
        assert sorted(taken) == sorted(format_tile(t) for s, _, t in state.taken if s == seat)
    over = state.phase == "over"
    assert (v["racks"] is not None) == over and (v["result"] is not None) == over
    if viewer != state.turn:
        assert v["drawn"] is None and v["taken_from_left"] is None and v["can"] == []
    # "can" tries one allowed discard, not each tile: the same kinds as every legal move's
    kinds = {move_kind(m) for m in legal_moves(state, viewer)} if viewer is not None else set()
    assert set(v["can"]) == kinds


def play_and_watch(s, rnd):
    seats = [None, *range(s.n)]
    for viewer in seats:
        check_view(s, viewer)
    while s.phase != "over":
        s = hand_apply(s, random_move(s, rnd))
        for viewer in seats:
            check_view(s, viewer)


WATCH = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@settings(WATCH, max_examples=25)
@given(
    seed=st.binary(min_size=32, max_size=32),
    seats=st.sampled_from([2, 3, 4]),
    first=st.integers(0, 3),
    rnd_seed=st.integers(0, 2**32 - 1),
)
def test_no_view_leaks_in_random_hands(seed, seats, first, rnd_seed):
    o = TableOptions(seats=seats)
    play_and_watch(deal(seed, o, first % seats), random.Random(rnd_seed))


@settings(WATCH, max_examples=100)
@given(
    esli=st.booleans(),
    take=st.booleans(),
    first=st.integers(0, 3),
    winner=st.integers(0, 3),
    rnd_seed=st.integers(0, 2**32 - 1),
)
def test_no_view_leaks_in_hands_that_finish(esli, take, first, winner, rnd_seed):
    o = TableOptions(mode="esli" if esli else "duz", pairs_take_indicator=take)
    rnd = random.Random(rnd_seed)
    play_and_watch(hand_with_winner(rnd, o, first, winner), rnd)
