"""The best-opening search (okey101/opening.py) against the plain memoised search of
bench/open_value_bench.py: every run and set that holds the lowest tile left, okeys tried in
every place, no shortcut.
Random racks and adversarial ones (few colours, close numbers, both okeys)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.open_value_bench import plain_open_value
from games.engine.okey101.opening import best_melds, open_value, pair_count
from games.engine.okey101.table import read_meld
from games.engine.tiles import FAKE, face, full_set, okey_of

INDICATOR = face(1, 4)  # Y4: the okey is Y5
OKEY = okey_of(INDICATOR)


# what a rack may hold besides the okeys: every tile but the indicator (its twin stays in play)
REST = [t for t in full_set() if t != OKEY]
REST.remove(INDICATOR)


@st.composite
def racks(draw, dense: bool):
    pool = REST
    if dense:
        colours = draw(st.sets(st.integers(0, 3), min_size=1, max_size=4))
        low = draw(st.integers(1, 9))
        pool = [t for t in REST if t // 13 in colours and low <= t % 13 + 1 <= low + 5 or t == FAKE]
    size = draw(st.integers(1, min(20, len(pool))))
    chosen = draw(st.permutations(range(len(pool))))[:size]
    return [pool[i] for i in chosen] + [OKEY] * draw(st.integers(0, 2))


def _check(rack: list[int]) -> None:
    value = open_value(rack, OKEY)
    assert value == plain_open_value(rack, OKEY)
    total, melds = best_melds(rack, OKEY)
    assert total == value
    # the melds found are real melds of the rack, worth the value
    laid = [(*(FAKE if f == OKEY else f for f in faces), *[OKEY] * k) for faces, k in melds]
    assert not Counter(t for g in laid for t in g) - Counter(rack)
    assert sum(read_meld(g, OKEY, 0).value for g in laid) == value


@settings(max_examples=300, deadline=None)
@given(racks(dense=False))
def test_random_racks_agree_with_the_plain_search(rack):
    _check(rack)


@settings(max_examples=300, deadline=None)
@given(racks(dense=True))
def test_adversarial_racks_agree_with_the_plain_search(rack):
    _check(rack)


@settings(max_examples=200, deadline=None)
@given(racks(dense=False))
def test_pairs_agree_with_a_plain_count(rack):
    okeys = rack.count(OKEY)
    counts = Counter(t for t in rack if t != OKEY)
    pairs = sum(n // 2 for n in counts.values())
    singles = sum(n % 2 for n in counts.values())
    with_okeys = min(okeys, singles)
    assert pair_count(rack, OKEY) == pairs + with_okeys + (okeys - with_okeys) // 2
