"""Rack helpers: arranging for the player, and the choices bots and timeouts make."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import can_meld, can_pairs
from games.engine.rack import (
    arrange_pairs,
    arrange_runs,
    best_discard,
    rack_strength,
    should_take,
)
from games.engine.tiles import format_tiles, full_set, okey_of, parse_tile, parse_tiles

from .test_finish_properties import (
    is_meld_in_order,
    melded_rack,
    paired_rack,
    perturbed,
    random_rack,
)

WON = "R12 R13 R1 B12 B13 B1 K1 K2 K3 Y7 Y8 Y9 Y10 Y11"  # melds with indicator Y4 (okey Y5)
Y5 = parse_tile("Y5")
K1 = parse_tile("K1")


def tiles(text: str) -> list[int]:
    return list(parse_tiles(text))


def shown(groups) -> list[str]:
    return [format_tiles(g) for g in groups]


# ---------------------------------------------------------------- arranging


def test_seri_diz_puts_runs_first_then_sets_and_leaves_the_rest():
    groups, left = arrange_runs(tiles("K9 R5 Y5 R7 B5 R6 K5 B2 Y11"), K1)
    # R5 R6 R7 as a run leaves Y5 B5 K5 as a set: both melds, runs first.
    assert shown(groups) == ["R5 R6 R7", "Y5 B5 K5"]
    assert format_tiles(left) == "Y11 B2 K9"


def test_sets_show_their_colours_in_order_and_the_okey_last():
    groups, left = arrange_runs(tiles("K8 Y5 B8 Y8"), Y5)
    assert shown(groups) == ["Y8 B8 K8 Y5"] and left == []


def test_seri_diz_shows_runs_in_playing_order_round_the_13():
    groups, left = arrange_runs(tiles(WON), Y5)
    assert sorted(shown(groups)) == ["B12 B13 B1", "K1 K2 K3", "R12 R13 R1", "Y7 Y8 Y9 Y10 Y11"]
    assert left == []


def test_seri_diz_lets_the_okey_stand_in_a_run():
    groups, left = arrange_runs(tiles("R3 Y5 R5 K7 B1"), Y5)
    assert shown(groups) == ["R3 Y5 R5"] and format_tiles(left) == "B1 K7"


def test_cift_diz_puts_pairs_first_with_the_okey_beside_a_single():
    rack = tiles("R1 R1 B2 B2 K3 K3 R7 R7 B9 B9 K11 K11 Y8 Y5 K13")
    groups, left = arrange_pairs(rack, Y5)
    assert shown(groups[:7]) == [
        "R1 R1",
        "R7 R7",
        "B2 B2",
        "B9 B9",
        "K3 K3",
        "K11 K11",
        "Y8 Y5",
    ]
    assert format_tiles(left) == "K13"


@settings(max_examples=300, deadline=None)
@given(st.one_of(random_rack(), melded_rack(), paired_rack(), perturbed(melded_rack())))
def test_arranging_keeps_every_tile_and_shows_real_melds(rack):
    rack_tiles, okey = rack
    for arrange in (arrange_runs, arrange_pairs):
        groups, left = arrange(rack_tiles, okey)
        assert Counter(t for g in groups for t in g) + Counter(left) == Counter(rack_tiles)
    groups, left = arrange_runs(rack_tiles, okey)
    assert all(is_meld_in_order(g, okey) for g in groups), shown(groups)
    # The arranging search and the finishing check agree on when all 14 tiles meld.
    assert (left == []) == can_meld(rack_tiles, okey)
    assert (rack_strength(rack_tiles, okey)[0] == 14) == can_meld(rack_tiles, okey)
    pairs, _ = arrange_pairs(rack_tiles, okey)
    if can_pairs(rack_tiles, okey):
        assert len([p for p in pairs if len(p) == 2]) == 7


# ---------------------------------------------------------------- choices


def test_a_finished_rack_and_one_junk_tile_throws_the_junk():
    for junk in ("K9", "B6", "R5"):
        rack = tiles(f"{WON} {junk}")
        assert best_discard(rack, Y5) == parse_tile(junk)
        assert best_discard(rack, Y5, "easy") == parse_tile(junk)


def test_a_finish_with_the_okey_on_the_indicator_is_preferred():
    # Every 14 of these make melds; throwing the okey doubles the finish (okey atmak).
    rack = tiles(f"{WON} Y5")
    assert best_discard(rack, Y5) == Y5


def test_the_okey_is_kept_even_in_a_rack_of_loose_tiles():
    rack = tiles("R1 R4 R7 R10 Y2 Y9 B3 B8 B12 K5 K11 K13 R13 B6 Y5")
    for strength in ("normal", "easy"):
        assert best_discard(rack, Y5, strength) != Y5


def test_a_loose_tile_goes_before_a_tile_in_a_meld_or_next_to_one():
    rack = tiles("R1 R2 R3 Y7 Y8 B4 B5 B6 B7 K10 K11 K12 K13 R9 Y1")
    # Neither R9 nor Y1 is in a meld, but Y1 shares its number with R1: R9 is the loosest.
    assert best_discard(rack, okey_of(parse_tile("B10"))) == parse_tile("R9")


def test_a_rack_going_for_pairs_keeps_its_pairs():
    rack = tiles("R1 R1 B2 B2 K3 K3 R7 R7 B9 B9 Y12 K11 R4 Y8 K6")
    thrown = best_discard(rack, Y5)
    assert Counter(rack)[thrown] == 1


def test_take_the_tile_that_completes_a_meld():
    rack = tiles("R5 R6 Y9 Y10 B1 B4 K7 K12 R11 B8 Y2 K3 R1 B13")
    assert should_take(rack, parse_tile("R7"), Y5)
    assert should_take(rack, parse_tile("R4"), Y5, "easy")
    assert not should_take(rack, parse_tile("K9"), Y5, "easy")  # K7 _ K9 is no meld yet
    assert not should_take(tiles(WON), parse_tile("K6"), Y5)


def test_take_the_okey_and_a_tile_that_finishes():
    almost = tiles("R12 R13 R1 B12 B13 B1 K1 K2 K3 Y7 Y8 Y9 Y10 R5")
    assert should_take(almost, parse_tile("Y11"), Y5)
    assert should_take(almost, Y5, Y5)


def test_a_loose_tile_is_left_on_the_pile():
    rack = tiles("R5 R6 R7 Y9 Y10 Y11 B1 B2 B3 K7 K8 K9 R12 B12")
    assert not should_take(rack, parse_tile("Y2"), Y5)
    assert not should_take(rack, parse_tile("Y2"), Y5, "easy")


def near_racks(n: int, seed: int) -> list[tuple[list[int], int]]:
    """15 tiles from runs of three to five, three of them then swapped for random tiles."""
    rng = random.Random(seed)
    racks = []
    while len(racks) < n:
        box = Counter(full_set())
        okey = rng.randrange(52)
        rack = []
        while len(rack) < 15:
            colour, start, length = rng.randrange(4), rng.randint(1, 9), rng.randint(3, 5)
            rack += [colour * 13 + start + i - 1 for i in range(length)]
        rack = rack[:15]
        for i in rng.sample(range(15), 3):
            rack[i] = rng.randrange(53)
        if all(box[t] >= c for t, c in Counter(rack).items()) and okey not in rack:
            racks.append((rack, okey))
    return racks


def test_easy_is_weaker_than_normal_and_both_are_deterministic():
    kept = {"normal": 0, "easy": 0}
    for rack, okey in near_racks(80, seed=11):
        for strength in kept:
            thrown = best_discard(rack, okey, strength)
            assert thrown == best_discard(list(rack), okey, strength)
            assert thrown in rack
            rest = list(rack)
            rest.remove(thrown)
            kept[strength] += rack_strength(rest, okey)[0]
    assert kept["normal"] > kept["easy"]


def test_unknown_strength_is_refused():
    with pytest.raises(ValueError):
        best_discard(tiles(f"{WON} K9"), Y5, "hard")
    with pytest.raises(ValueError):
        should_take(tiles(WON), Y5, Y5, "grandmaster")
