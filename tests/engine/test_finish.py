"""Finish kinds and their points, as the counting table of docs/rules.md gives them."""

from __future__ import annotations

import pytest

from games.engine import can_meld, can_pairs, finish_kind, finish_value, indicator_value
from games.engine.tiles import FAKE, okey_of, parse_tile, parse_tiles

MELDS = parse_tiles("R12 R13 R1 B12 B13 B1 K1 K2 K3 Y7 Y8 Y9 Y10 Y11")
PAIRS = parse_tiles("Y6 Y6 R1 R1 B2 B2 K3 K3 R7 R7 B9 B9 K11 K11")
TABLE = {  # indicator -> normal, okey, pairs, pairs+okey, showing the indicator
    "Y4": (2, 4, 4, 8, 1),
    "B4": (2, 4, 4, 8, 1),
    "R4": (4, 8, 8, 16, 2),
    "K4": (4, 8, 8, 16, 2),
}


@pytest.mark.parametrize("indicator", sorted(TABLE))
def test_points_follow_the_table(indicator):
    ind = parse_tile(indicator)
    kinds = ("normal", "okey", "pairs", "pairs+okey")
    assert tuple(finish_value(k, ind, True) for k in kinds) == TABLE[indicator][:4]
    assert indicator_value(ind, True) == TABLE[indicator][4]
    assert tuple(finish_value(k, ind, False) for k in kinds) == TABLE["Y4"][:4]
    assert indicator_value(ind, False) == 1
    assert finish_value(None, ind, True) == 0


def test_the_okey_on_the_indicator_doubles_and_a_fake_does_not():
    okey = okey_of(parse_tile("Y4"))
    assert finish_kind(MELDS, parse_tile("R9"), okey) == "normal"
    assert finish_kind(MELDS, okey, okey) == "okey"
    assert finish_kind(MELDS, FAKE, okey) == "normal"
    assert finish_kind(PAIRS, parse_tile("R9"), okey) == "pairs"
    assert finish_kind(PAIRS, okey, okey) == "pairs+okey"
    assert finish_kind(PAIRS[:-1] + (parse_tile("K12"),), okey, okey) is None


def test_a_rack_both_in_melds_and_in_pairs_scores_as_pairs():
    okey = okey_of(parse_tile("R10"))
    # Doubled runs and two okeys: six pairs and a pair of okeys, or four runs the okeys extend.
    tiles = parse_tiles("R1 R1 R2 R2 R3 R3 B7 B7 B8 B8 B9 B9") + (okey, okey)
    assert can_meld(tiles, okey) and can_pairs(tiles, okey)
    assert finish_kind(tiles, parse_tile("Y3"), okey) == "pairs"
    assert finish_kind(tiles, FAKE, okey) == "pairs"
