"""The fast finishing checks against a brute force written here from docs/rules.md alone.

The brute force is slow and plain: the lowest real tile must lie in some meld, so try every run
and set that the rules allow through that tile, filling each other place with a real tile or an
okey in every way, and recurse on what is left (memoised). Pairs: pair the first tile with every
tile it may pair with. Runs are spelled out from the rules: numbers in the order 1..13 then 1
again, 3 to 13 long, and the 1 after 13 ends the run.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.engine import can_meld, can_pairs, finish_kind, finish_value, finishes, meld_groups
from games.engine.tiles import FAKE, colour_of, face, full_set, number_of, okey_of

# ---------------------------------------------------------------- brute force from the rules


def run_numbers(start: int, length: int) -> list[int] | None:
    """The numbers of a run from `start`, or None if the rules forbid it."""
    if not 3 <= length <= 13 or start + length - 1 > 14:  # nothing after a 1 that follows 13
        return None
    return [(start + i - 1) % 13 + 1 for i in range(length)]


def melds_through(f: int) -> list[list[int]]:
    """Every meld (as faces) that the face f can stand in."""
    colour, number = colour_of(f), number_of(f)
    melds = []
    for start in range(1, 14):
        for length in range(3, 14):
            nums = run_numbers(start, length)
            if nums and number in nums:
                melds.append([face(colour, n) for n in nums])
    others = [c for c in range(4) if c != colour]
    for k in (2, 3):
        for cs in combinations(others, k):
            melds.append([f] + [face(c, number) for c in cs])
    return melds


@cache
def brute_melds(counts: tuple[int, ...], okeys: int) -> bool:
    if not any(counts):
        return okeys == 0
    low = next(f for f, n in enumerate(counts) if n)
    rest = list(counts)
    rest[low] -= 1

    def fill(places: list[int], left: list[int], jokers: int) -> bool:
        if not places:
            return brute_melds(tuple(left), jokers)
        f, more = places[0], places[1:]
        if left[f]:
            left[f] -= 1
            ok = fill(more, left, jokers)
            left[f] += 1
            if ok:
                return True
        return jokers > 0 and fill(more, left, jokers - 1)

    for meld in melds_through(low):
        places = list(meld)
        places.remove(low)
        if fill(places, rest, okeys):
            return True
    return False


def brute_can_meld(tiles, okey) -> bool:
    counts = [0] * 52
    for t in tiles:
        if t != okey:
            counts[okey if t == FAKE else t] += 1
    return brute_melds(tuple(counts), tiles.count(okey))


def brute_can_pairs(tiles, okey) -> bool:
    tiles = list(tiles)
    if not tiles:
        return True
    first, rest = tiles[0], tiles[1:]
    for i, other in enumerate(rest):
        if first == other or okey in (first, other):
            if brute_can_pairs(rest[:i] + rest[i + 1 :], okey):
                return True
    return False


FACTOR = {"normal": 1, "okey": 2, "pairs": 2, "pairs+okey": 4}
# docs/rules.md, the counting table: indicator colour -> finish -> points.
POINTS = {
    "yellow or blue": {"normal": 2, "okey": 4, "pairs": 4, "pairs+okey": 8},
    "red or black": {"normal": 4, "okey": 8, "pairs": 8, "pairs+okey": 16},
}


def brute_kind(tiles, last, okey) -> str | None:
    melds, pairs, by_okey = brute_can_meld(tiles, okey), brute_can_pairs(tiles, okey), last == okey
    kinds = [
        k
        for k, ok in (
            ("normal", melds and not by_okey),
            ("okey", melds and by_okey),
            ("pairs", pairs and not by_okey),
            ("pairs+okey", pairs and by_okey),
        )
        if ok
    ]
    return max(kinds, key=FACTOR.get, default=None)


def is_meld_in_order(group: list[int], okey: int) -> bool:
    """A run in playing order (okeys where they stand) or a set; fakes are the okey's face."""
    real = [okey if t == FAKE else t for t in group if t != okey]
    if not real or not 3 <= len(group) <= 13:
        return False
    numbers = {number_of(t) for t in real}
    colours = [colour_of(t) for t in real]
    if len(group) <= 4 and len(numbers) == 1 and len(set(colours)) == len(colours):
        return True
    if len(set(colours)) != 1:
        return False
    for start in range(1, 14):
        nums = run_numbers(start, len(group))
        if nums and all(
            t == okey or number_of(okey if t == FAKE else t) == n
            for t, n in zip(group, nums, strict=True)
        ):
            return True
    return False


def check_rack(tiles, okey) -> bool:
    """Fast and brute agree on melds and pairs; the groups shown are a real split of the rack."""
    melds = can_meld(tiles, okey)
    assert melds == brute_can_meld(tiles, okey), tiles
    pairs = can_pairs(tiles, okey)
    assert pairs == brute_can_pairs(tiles, okey), tiles
    groups = meld_groups(tiles, okey)
    if melds:
        assert all(is_meld_in_order(g, okey) for g in groups), groups
    elif pairs:
        assert len(groups) == len(tiles) // 2
        assert all(a == b or okey in (a, b) for a, b in groups), groups
    else:
        assert groups is None
    if groups is not None:
        assert Counter(t for g in groups for t in g) == Counter(tiles)
    return melds


# ---------------------------------------------------------------- racks


ALL = full_set()
UP_TO_TWO = st.integers(0, 2)


def sizes_summing(total: int) -> list[tuple[int, ...]]:
    """Every way to write `total` as a sum of meld sizes 3..13, largest first."""
    out = []

    def go(left, high, acc):
        if left == 0:
            out.append(tuple(acc))
        for s in range(min(high, left), 2, -1):
            go(left - s, s, [*acc, s])

    go(total, 13, [])
    return out


SIZES = sizes_summing(14)


def indicator_for(okey: int) -> int:
    return face(colour_of(okey), (number_of(okey) - 2) % 13 + 1)


@st.composite
def random_rack(draw, okeys=UP_TO_TWO, fakes=UP_TO_TWO):
    """Any 14 tiles that the 106 can hold beside the indicator, with some okeys and fakes."""
    indicator = draw(st.integers(0, 51))
    okey = okey_of(indicator)
    tiles = [okey] * draw(okeys) + [FAKE] * draw(fakes)
    left = Counter(ALL)
    left[indicator] -= 1
    left[okey] = left[FAKE] = 0
    pool = sorted(left.elements())
    need = 14 - len(tiles)
    picks = draw(
        st.lists(st.sampled_from(range(len(pool))), min_size=need, max_size=need, unique=True)
    )
    tiles += [pool[i] for i in picks]
    return draw(st.permutations(tiles)), okey


@st.composite
def meld_of(draw, size: int, as_set: bool | None = None, wrap: bool = False):
    """One meld as the rules allow it; `wrap` makes a run that ends with the 1 after 13."""
    if as_set is None:
        as_set = size <= 4 and not wrap and draw(st.booleans())
    if as_set:
        number = draw(st.integers(1, 13))
        colours = draw(st.lists(st.integers(0, 3), min_size=size, max_size=size, unique=True))
        return [face(c, number) for c in colours]
    colour = draw(st.integers(0, 3))
    start = 15 - size if wrap else draw(st.integers(1, 15 - size))
    return [face(colour, n) for n in run_numbers(start, size)]


@st.composite
def melded_rack(draw, first=None, okeys_in_first=None, fakes=False):
    """A rack built from melds that the rules allow, with okeys standing in for tiles and, with
    `fakes`, fake jokers for every tile of the okey's face: a meld rack by construction.
    `first` draws the first meld's size and shape; `okeys_in_first` puts that many okeys in it."""
    melds = [] if first is None else [draw(first)]
    rest = sizes_summing(14 - sum(map(len, melds)))
    assume(rest)
    melds += [draw(meld_of(size)) for size in draw(st.sampled_from(rest))]
    tiles = [t for m in melds for t in m]
    assume(max(Counter(tiles).values()) <= 2)
    if fakes:
        okey = draw(st.sampled_from(tiles))  # its face in the melds, played by fake jokers
        tiles = [FAKE if t == okey else t for t in tiles]
    else:
        okey = draw(st.integers(0, 51))
    indicator = indicator_for(okey)
    assume(tiles.count(indicator) <= 1)
    room = 2 - tiles.count(okey)
    if okeys_in_first is not None:
        assume(room >= okeys_in_first)
        where = st.sampled_from(range(len(melds[0])))
        places = draw(
            st.lists(where, min_size=okeys_in_first, max_size=okeys_in_first, unique=True)
        )
    else:
        n = draw(st.integers(0, room))
        places = draw(st.lists(st.sampled_from(range(14)), min_size=n, max_size=n, unique=True))
    for i in places:
        tiles[i] = okey
    assume(tiles.count(okey) <= 2)
    return draw(st.permutations(tiles)), okey


@st.composite
def perturbed(draw, racks):
    """A rack with one to three tiles swapped for others still in the box."""
    tiles, okey = draw(racks)
    tiles = list(tiles)
    left = Counter(ALL) - Counter(tiles)
    left[indicator_for(okey)] -= 1
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, 13))
        new = draw(st.sampled_from(sorted(left.elements())))
        left[new] -= 1
        left[tiles[i]] += 1
        left = +left
        tiles[i] = new
    return tiles, okey


@st.composite
def paired_rack(draw):
    """Seven pairs of drawn faces, some of whose tiles are okeys or fakes."""
    okey = draw(st.integers(0, 51))
    faces = draw(
        st.lists(st.sampled_from([f for f in range(53) if f != okey]), min_size=7, max_size=7)
    )
    assume(all(n <= 1 for n in Counter(faces).values()))
    tiles = [f for f in faces for _ in (0, 1)]
    n = draw(st.integers(0, 2))
    for i in draw(st.lists(st.sampled_from(range(14)), min_size=n, max_size=n, unique=True)):
        tiles[i] = okey
    assume(tiles.count(indicator_for(okey)) <= 1)
    return draw(st.permutations(tiles)), okey


def wrap_run():
    return st.integers(3, 11).flatmap(lambda n: meld_of(n, wrap=True))


def near_wrap_run():
    """Runs through 13 and 1 that the rules forbid: 13-1-2, 12-13-1-2, 11-12-13-1-2-3."""

    @st.composite
    def bad(draw):
        colour = draw(st.integers(0, 3))
        before = draw(st.integers(1, 4))
        after = draw(st.integers(2, 3))
        nums = list(range(14 - before, 14)) + list(range(1, after + 1))
        return [face(colour, n) for n in nums]

    return bad()


LONG = settings(max_examples=400, deadline=None)
SHORT = settings(max_examples=150, deadline=None)


# ---------------------------------------------------------------- the properties


@LONG
@given(random_rack())
def test_random_racks_agree_with_brute_force(rack):
    check_rack(*rack)


@LONG
@given(melded_rack())
def test_racks_built_from_melds_are_melds(rack):
    assert check_rack(*rack)


@LONG
@given(perturbed(melded_rack()))
def test_racks_a_few_tiles_from_melds_agree_with_brute_force(rack):
    check_rack(*rack)


@SHORT
@given(st.one_of(melded_rack(first=wrap_run()), perturbed(melded_rack(first=wrap_run()))))
def test_runs_through_13_and_1_agree_with_brute_force(rack):
    check_rack(*rack)


@SHORT
@given(st.one_of(melded_rack(first=near_wrap_run()), perturbed(melded_rack(first=near_wrap_run()))))
def test_runs_past_a_1_after_13_agree_with_brute_force(rack):
    check_rack(*rack)


@SHORT
@given(
    st.integers(1, 2).flatmap(
        lambda k: melded_rack(first=meld_of(4, as_set=True), okeys_in_first=k)
    )
)
def test_sets_of_four_with_okeys_are_melds(rack):
    assert check_rack(*rack)


@SHORT
@given(st.integers(3, 11).flatmap(lambda n: melded_rack(first=meld_of(n), okeys_in_first=2)))
def test_two_okeys_in_one_meld_are_melds(rack):
    assert check_rack(*rack)


@SHORT
@given(st.one_of(melded_rack(fakes=True), perturbed(melded_rack(fakes=True))))
def test_fake_jokers_play_the_okeys_face_and_nothing_else(rack):
    check_rack(*rack)


@SHORT
@given(random_rack(okeys=st.just(0), fakes=st.integers(1, 2)))
def test_fake_jokers_in_random_racks_agree(rack):
    check_rack(*rack)


@LONG
@given(st.one_of(paired_rack(), perturbed(paired_rack())))
def test_pairs_with_okeys_and_fakes_agree_with_brute_force(rack):
    check_rack(*rack)


ANY_RACK = st.one_of(random_rack(), melded_rack(), paired_rack(), perturbed(melded_rack()))


@LONG
@given(ANY_RACK, st.data(), st.booleans())
def test_finishes_of_every_kind_under_each_indicator_colour(rack, data, doubling):
    tiles, okey = rack
    left = Counter(ALL) - Counter(tiles)
    left[indicator_for(okey)] -= 1
    last = data.draw(st.sampled_from(sorted((+left).elements())))
    kind = finish_kind(tiles, last, okey)
    assert kind == brute_kind(tiles, last, okey)
    indicator = indicator_for(okey)
    red_or_black = colour_of(indicator) in (0, 3) and doubling
    expected = POINTS["red or black" if red_or_black else "yellow or blue"].get(kind, 0)
    assert finish_value(kind, indicator, doubling) == expected


@SHORT
@given(st.one_of(melded_rack(), paired_rack(), random_rack()), st.data())
def test_every_finishing_tile_of_a_15_tile_rack_is_found(rack, data):
    tiles, okey = rack
    left = Counter(ALL) - Counter(tiles)
    left[indicator_for(okey)] -= 1
    rack15 = [*tiles, data.draw(st.sampled_from(sorted((+left).elements())))]
    expected = {}
    for last in set(rack15):
        rest = list(rack15)
        rest.remove(last)
        kind = brute_kind(rest, last, okey)
        if kind:
            expected[last] = kind
    assert finishes(rack15, okey) == expected
