"""Melds by example: the rules' own cases, named."""

from __future__ import annotations

import pytest

from games.engine import can_meld, meld_groups
from games.engine.tiles import TileError, format_tiles, okey_of, parse_tile, parse_tiles

FILLER = "K5 K6 K7 B9 B10 B11 Y2 Y3 Y4 Y5 Y6"  # 11 tiles in melds whatever the okey below


def melds(tiles: str, indicator: str = "R2") -> bool:
    return can_meld(parse_tiles(tiles), okey_of(parse_tile(indicator)))


def shown(tiles: str, indicator: str = "R2") -> list[str] | None:
    groups = meld_groups(parse_tiles(tiles), okey_of(parse_tile(indicator)))
    return groups and sorted(format_tiles(g) for g in groups)


@pytest.mark.parametrize(
    ("run", "ok"),
    [
        ("R12 R13 R1", True),
        ("R1 R2 R3", True),
        ("R13 R1 R2", False),
        ("K11 K12 K13", True),
        ("K13 K1 K2", False),
        ("B2 B3 B4", True),
    ],
)
def test_a_1_goes_after_13_or_before_2_but_nothing_follows_it(run, ok):
    assert melds(f"{run} {FILLER}", indicator="R5") is ok


def test_a_run_may_not_use_the_1_at_both_ends():
    # 1..13 and another 1 in one colour: two runs (1-2-3 and 4..13-1), never one run of 14.
    assert melds("K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13 K1", indicator="R5")
    assert melds("K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13 K1 K2", indicator="R5") is False


def test_thirteen_long_runs_each_way_round_the_1():
    assert melds("B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13", indicator="R5")
    assert melds("B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13 B1", indicator="R5")


def test_sets_need_different_colours():
    assert melds("R7 Y7 B7 K7 " + "K1 K2 K3 B9 B10 B11", indicator="R5")
    assert not melds("R7 R7 B7 " + FILLER, indicator="R5")


def test_two_okeys_may_share_a_meld():
    # The rules' example: Y5 Y5 R1 with okey Y5 (indicator Y4).
    assert melds("Y5 Y5 R1 " + FILLER.replace("Y5", "R10"), indicator="Y4") is False
    assert melds("Y5 Y5 R1 K5 K6 K7 B9 B10 B11 R9 R10 R11 R12 R13", indicator="Y4")


def test_a_fake_joker_is_exactly_the_okeys_face():
    # Okey Y5: F is Y5 in the run Y4-F-Y6 but cannot stand for R8.
    assert melds("Y4 F Y6 K5 K6 K7 B9 B10 B11 R9 R10 R11 R12 R13", indicator="Y4")
    assert not melds("R7 F R9 K5 K6 K7 B9 B10 B11 R9 R10 R11 R12 R13", indicator="Y4")


def test_the_split_shows_runs_in_order_with_okeys_where_they_stand():
    assert shown("R12 Y5 R1 R8 R9 R10 B1 B2 B3 B4 K10 K11 K12 K13", indicator="Y4") == [
        "B1 B2 B3 B4",
        "K10 K11 K12 K13",
        "R12 Y5 R1",
        "R8 R9 R10",
    ]


def test_a_rack_that_is_only_pairs_is_shown_as_pairs():
    assert shown("Y5 R2 R1 R1 B2 B2 K3 K3 R7 R7 B9 B9 K11 K11", indicator="Y4") == [
        "B2 B2",
        "B9 B9",
        "K11 K11",
        "K3 K3",
        "R1 R1",
        "R2 Y5",
        "R7 R7",
    ]


def test_a_third_copy_of_a_tile_is_refused():
    with pytest.raises(TileError):
        melds("R7 R7 R7 " + FILLER)
