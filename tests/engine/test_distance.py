"""The distance of a rack from a finish in melds (engine.distance) against the meld search and a
brute force from the rules: a rack is d draws away when d of its tiles, swapped for the right
ones, make it all melds."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import can_meld
from games.engine.distance import key_distance
from games.engine.melds import rack_key
from games.engine.tiles import FAKE, parse_tile, parse_tiles

from .test_finish_properties import brute_melds, melded_rack, perturbed, random_rack

SOME = settings(max_examples=150, deadline=None)


def distance(tiles, okey) -> int:
    return key_distance(*rack_key(tiles, okey))


def swaps_to_melds(tiles, okey, most: int) -> int | None:
    """The fewest tiles (up to ``most``) that, each swapped for a tile of one's choosing, make
    the 14 all melds: the swapped-in tiles are as good as okeys standing where needed."""
    okeys = list(tiles).count(okey)
    real = [okey if t == FAKE else t for t in tiles if t != okey]
    for m in range(most + 1):
        for out in set(combinations(sorted(real), m)):
            counts = [0] * 52
            for f, n in (Counter(real) - Counter(out)).items():
                counts[f] = n
            if brute_melds(tuple(counts), okeys + m):
                return m
    return None


@SOME
@given(st.one_of(random_rack(), melded_rack(), perturbed(melded_rack())))
def test_a_rack_is_as_far_from_melds_as_the_fewest_swaps(rack):
    tiles, okey = rack
    d = distance(tiles, okey)
    assert (d == 0) == can_meld(tiles, okey)
    assert swaps_to_melds(tiles, okey, min(d, 2)) == (d if d <= 2 else None)


def test_distance_reads_the_shape_not_the_tiles_in_melds():
    okey = parse_tile("Y5")  # indicator Y4
    # 9 in melds and five tiles that each want a sixth: the 14 places hold three melds and
    # one more group, so two of the five must be swapped, whatever the draws
    assert distance(parse_tiles("R1 R2 R3 B5 B6 B7 Y9 Y10 Y11 R5 R6 K9 K10 B10"), okey) == 2
    # the okey fills the hole of R5 _ R7
    assert distance(parse_tiles("R1 R2 R3 B5 B6 B7 Y9 Y10 Y11 K2 K3 K4 R5 Y5"), okey) == 0
    assert distance(parse_tiles("R1 R2 R3 B5 B6 B7 Y9 Y10 Y11 K2 K3 K4 R5 R7"), okey) == 1


def test_full_memos_start_a_new_generation_and_keep_their_answers(monkeypatch):
    import random

    from games.engine import distance as distance_module
    from games.engine import rack as rack_module
    from games.engine.memo import Memo
    from games.engine.rack import key_melded
    from games.engine.tiles import full_set, okey_of

    rnd = random.Random(21)
    racks = []
    while len(racks) < 60:
        okey = okey_of(rnd.randrange(52))
        tiles = rnd.sample(full_set(), rnd.choice((14, 15)))
        if tiles.count(okey) <= 2:
            racks.append(rack_key(tiles, okey))
    expected = [(key_distance(k, j), key_melded(k, j)) for k, j in racks]
    # small memos, empty at first: each fills and turns over many times on these racks
    for module, names in ((distance_module, ("_PROFILES", "_GROUPS")), (rack_module, ("_COVER",))):
        for name in names:
            monkeypatch.setattr(module, name, Memo(50))
    for _ in range(2):
        assert [(key_distance(k, j), key_melded(k, j)) for k, j in racks] == expected
    for memo in (distance_module._PROFILES, distance_module._GROUPS, rack_module._COVER):
        assert len(memo.new) <= 50 and len(memo.old) <= 50
