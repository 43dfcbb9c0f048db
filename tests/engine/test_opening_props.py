"""The best-opening search (okey101/opening.py) against a plain memoised search written here:
every run and set that holds the lowest tile left, okeys tried in every place, no shortcut.
Random racks and adversarial ones (few colours, close numbers, both okeys)."""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations, product

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.okey101.opening import best_melds, open_value, pair_count
from games.engine.okey101.table import read_meld
from games.engine.tiles import FAKE, face, full_set, okey_of

INDICATOR = face(1, 4)  # Y4: the okey is Y5
OKEY = okey_of(INDICATOR)


def _plain_best(tiles: list[int], okey: int) -> int:
    """Largest total of disjoint runs and sets, by trying every meld holding the lowest tile."""
    faces = Counter(okey if t == FAKE else t for t in tiles if t != okey)
    jokers = sum(1 for t in tiles if t == okey)

    @cache
    def best(left: tuple[tuple[int, int], ...], jokers: int) -> int:
        if not left:
            return 0
        have = dict(left)
        low = left[0][0]
        rest = _take(have, [low])
        answer = best(rest, jokers)
        for real, used, value in _melds_with(low, have, jokers):
            answer = max(answer, value + best(_take(have, real), jokers - used))
        return answer

    return best(tuple(sorted(faces.items())), jokers)


def _take(have: dict[int, int], faces: list[int]) -> tuple[tuple[int, int], ...]:
    left = Counter(have)
    left.subtract(faces)
    return tuple(sorted((f, n) for f, n in left.items() if n > 0))


def _melds_with(low: int, have: dict[int, int], jokers: int):
    """(real faces, okeys, value) of every run and set holding face ``low`` as a real tile."""
    colour, number = divmod(low, 13)
    number += 1
    shapes = [
        [face(colour, k) for k in range(a, b + 1)]
        for a in range(1, number + 1)
        for b in range(max(number, a + 2), 14)
    ]
    for size in (3, 4):
        for colours in product(range(4), repeat=size):
            if (
                colours[0] == colour
                and len(set(colours)) == size
                and list(colours[1:]) == sorted(colours[1:])
            ):
                shapes.append([face(c, number) for c in colours])
    for places in shapes:
        others = [p for p in places if p != low]
        missing = [p for p in others if not have.get(p, 0) - (p == low)]
        present = [p for p in others if p not in missing]
        if len(missing) > jokers:
            continue
        # an okey may stand for a missing tile or for one held (kept for another meld)
        for extra in range(jokers - len(missing) + 1):
            for wild in combinations(range(len(present)), extra):
                real = [low] + [p for i, p in enumerate(present) if i not in wild]
                if all(Counter(real)[f] <= have.get(f, 0) for f in real):
                    yield real, len(missing) + extra, sum(f % 13 + 1 for f in places)


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
    assert value == _plain_best(rack, OKEY)
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
