"""101 hands of random play (Hypothesis picks the deal and every choice): after every move the
106 tiles are all somewhere, none twice; the dict form round-trips; no view shows a seat a tile
it may not know; a refused move leaves nothing changed; the end's scores follow the rules; a tile
is işlek exactly when it could be added to a meld on the table or take an okey there."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import event, given, settings
from hypothesis import strategies as st

from games.engine.moves import IllegalMove
from games.engine.okey101.hand import hand101_apply, hand101_deal
from games.engine.okey101.moves import (
    Add,
    DeclarePairs,
    Discard,
    Draw,
    GiveBack,
    Lay,
    TakeDiscard,
    TakeOkey,
)
from games.engine.okey101.opening import best_melds, best_pairs
from games.engine.okey101.options import Options101
from games.engine.okey101.state import hand101_from_dict, hand101_to_dict
from games.engine.okey101.table import add_tile, islek_meld, take_okey
from games.engine.okey101.views import hand101_own_view, hand101_view
from games.engine.tiles import FACES
from games.engine.variants import variant
from tests.engine.bot_hands import FULL, check_101_scores, check_101_views, placed_tiles


def _lay_options(s, seat, rnd):
    rack = s.racks[seat]
    _, melds = best_melds(rack, s.okey)
    groups = [(*(52 if f == s.okey else f for f in faces), *[s.okey] * k) for faces, k in melds]
    pairs = best_pairs(rack, s.okey)
    return [
        Lay(seat, tuple(rnd.sample(groups, rnd.randint(1, len(groups)))) if groups else ((),)),
        Lay(seat, tuple(pairs[: rnd.randint(1, max(1, len(pairs)))]) or ((),), pairs=True),
    ]


def _candidates(s, rnd) -> list:
    seat, rack = s.turn, s.racks[s.turn]
    tile = rnd.choice(rack)
    meld = rnd.randrange(len(s.table)) if s.table else 0
    moves = [Draw(seat), TakeDiscard(seat), GiveBack(seat), Discard(seat, tile)]
    moves += [Add(seat, meld, tile, rnd.random() < 0.5), TakeOkey(seat, meld, tile)]
    fitting = [
        (i, t)
        for i, m in enumerate(s.table)
        for t in set(rack)
        if add_tile(m, t, s.okey) is not None or take_okey(m, t, s.okey) is not None
    ]
    if fitting:
        i, t = rnd.choice(fitting)
        moves += [Add(seat, i, t, rnd.random() < 0.5), TakeOkey(seat, i, t)]
    moves += _lay_options(s, seat, rnd)
    if rnd.random() < 0.05:
        moves.append(DeclarePairs(seat))
    rnd.shuffle(moves)
    # a discard is tried last half of the time, so that turns also lay and add
    return sorted(moves, key=lambda m: isinstance(m, Discard) and rnd.random() < 0.5)


def check_islek(s) -> None:
    """islek_meld names, for every face, the first meld it fits (-1: the okey), as trying
    add_tile at both ends and take_okey on every meld finds it."""
    for f in range(FACES):
        fits = (
            i
            for i, m in enumerate(s.table)
            if any(add_tile(m, f, s.okey, high) for high in (True, False))
            or take_okey(m, f, s.okey) is not None
        )
        assert islek_meld(f, s.table, s.okey) == (-1 if f == s.okey else next(fits, None))


def check_own_views(s) -> None:
    """A seat's own view says what its whole view says of it."""
    for seat in range(s.n):
        whole, own = hand101_view(s, seat), hand101_own_view(s, seat)
        assert own == {**{k: whole[k] for k in own}, "opened": whole["opened"][seat]}


def _step(s, rnd):
    for move in _candidates(s, rnd):
        before = hand101_to_dict(s)
        try:
            after = hand101_apply(s, move)
            event(type(move).__name__)
            return after
        except IllegalMove:
            assert hand101_to_dict(s) == before
    raise AssertionError("no move applies: a discard always should")


@settings(max_examples=60, deadline=None)
@given(
    seed=st.binary(min_size=32, max_size=32),
    first=st.integers(0, 3),
    esli=st.booleans(),
    katlamali=st.booleans(),
    choices=st.integers(0, 2**32),
)
def test_random_101_play_keeps_every_invariant(seed, first, esli, katlamali, choices):
    rnd = random.Random(choices)
    options = Options101(esli=esli, katlamali=katlamali)
    v = variant(options.variant)
    s = hand101_deal(seed, options, first)
    while not s.over:
        s = _step(s, rnd)
        assert placed_tiles(s) == FULL
        assert hand101_from_dict(hand101_to_dict(s)) == s
        check_101_views(v, s)
        check_islek(s)
        check_own_views(s)
    check_101_scores(s)
    event(f"opened: {sorted(Counter(s.opened).items())}")
