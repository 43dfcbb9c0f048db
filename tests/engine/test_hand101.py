"""101 hands move by move (docs/rules-101.md): openings, the left tile's obligation, adding,
taking an okey, discard penalties, finishing, the stock running out, the void hand."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine.moves import IllegalMove
from games.engine.okey101.hand import hand101_apply, hand101_deal, legal_kinds101
from games.engine.okey101.moves import (
    Add,
    DeclarePairs,
    Discard,
    Draw,
    GiveBack,
    Lay,
    TakeDiscard,
    TakeOkey,
    move_from_dict,
    move_to_dict,
)
from games.engine.okey101.options import Options101
from games.engine.okey101.table import is_islek, read_meld, read_pair, take_okey
from games.engine.tiles import parse_tile, parse_tiles

SEED = bytes(range(32))
T = parse_tile
# indicator Y4: the okey is Y5
OPENING = (("R13", "Y13", "B13", "K13"), ("B10", "B11", "B12"), ("R1", "R2", "R3", "R4"))
OPENING += (("Y1", "Y2", "Y3"),)  # 52 + 33 + 10 + 6 = 101


def groups(*gs) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(T(t) for t in g) for g in gs)


def hand(racks, **kw):
    """Seat 0 to move after drawing, indicator Y4, four seats unless the options say."""
    options = kw.pop("options", Options101())
    base = hand101_deal(SEED, options, 0)
    n = options.seats
    racks = tuple(parse_tiles(r) for r in racks) + ((),) * (n - len(racks))
    fields = dict(indicator=T("Y4"), okey=T("Y5"), racks=racks, first_turn=False)
    return replace(base, **{**fields, **kw})


def apply(s, *moves):
    for m in moves:
        s = hand101_apply(s, m)
    return s


def refused(s, move, code):
    with pytest.raises(IllegalMove) as e:
        hand101_apply(s, move)
    assert e.value.code == code


RACK101 = " ".join(t for g in OPENING for t in g) + " K6 R8 Y9 K11 B7"


def test_the_deal_gives_22_to_the_first_and_21_to_the_others():
    s = hand101_deal(SEED, Options101(), 2)
    assert [len(r) for r in s.racks] == [21, 21, 22, 21] and len(s.stock) == 20
    assert s.turn == 2 and s.phase == "play" and s.first_turn
    refused(s, Lay(2, groups(("R1", "R2", "R3"))), "first_turn_discard")
    s = apply(s, Discard(2, s.racks[2][0]))
    assert len(s.racks[2]) == 21 and s.turn == 3 and s.phase == "draw"


def test_an_opening_needs_101_and_the_server_counts_it():
    s = hand([RACK101])
    refused(s, Lay(0, groups(*OPENING[:3])), "under_threshold")
    s = apply(s, Lay(0, groups(*OPENING)))
    assert s.opened[0] == "melds" and s.openings[0] == 101 and len(s.table) == 4
    assert len(s.racks[0]) == 5


def test_pairs_open_with_five_and_a_declared_player_opens_only_with_pairs():
    rack = "R1 R1 Y2 Y2 B3 B3 K4 K4 R6 R6 K13 " + RACK101
    s = apply(hand([rack]), DeclarePairs(0))
    refused(s, Lay(0, groups(*OPENING)), "declared_pairs")
    pairs = groups(("R1", "R1"), ("Y2", "Y2"), ("B3", "B3"), ("K4", "K4"))
    refused(s, Lay(0, pairs, pairs=True), "under_threshold")
    s = apply(s, Lay(0, (*pairs, (T("R6"), T("R6"))), pairs=True))
    assert s.opened[0] == "pairs" and s.openings[0] == 5
    refused(s, Lay(0, groups(("R13", "Y13", "B13"))), "pairs_opener")


def test_the_left_tile_must_reach_the_table_or_go_back():
    s = hand(
        ["R1", RACK101.replace("Y3", "K1")], turn=1, phase="draw", discards=((T("Y3"),), (), (), ())
    )
    s = apply(s, TakeDiscard(1))
    refused(s, Discard(1, T("K1")), "taken_not_laid")
    refused(s, Lay(1, groups(*OPENING[:3])), "taken_not_laid")  # an opening without it
    back = apply(s, GiveBack(1))
    assert back.discards[0] == (T("Y3"),) and back.taken is None and back.drawn == s.stock[-1]
    opened = apply(s, Lay(1, groups(*OPENING)))
    assert opened.taken is None and opened.opened[1] == "melds"


def test_adding_to_a_run_and_a_set_and_taking_an_okey():
    run = read_meld(parse_tiles("R9 R10 Y5"), T("Y5"), 1)  # the okey is R11
    group = read_meld(parse_tiles("B13 K13 Y13"), T("Y5"), 2)
    s = hand(
        ["R8 R11 R13 R13 B1", "K1"], table=(run, group), opened=("melds", "melds", "melds", "none")
    )
    s = apply(s, Add(0, 0, T("R8")))
    refused(s, Add(0, 0, T("R13")), "does_not_fit")
    s = apply(s, TakeOkey(0, 0, T("R11")), Add(0, 1, T("R13")))
    assert s.table[0].tiles == parse_tiles("R8 R9 R10 R11")
    assert T("Y5") in s.racks[0] and len(s.table[1].tiles) == 4
    refused(s, Add(0, 1, T("R13")), "does_not_fit")


def test_a_pairs_opener_adds_at_most_two_tiles_a_turn():
    run = read_meld(parse_tiles("R5 R6 R7"), T("Y5"), 1)
    s = hand(["R3 R4 R8 R9 B1"], table=(run,), opened=("pairs", "melds", "none", "none"))
    s = apply(s, Add(0, 0, T("R8")), Add(0, 0, T("R9")))
    refused(s, Add(0, 0, T("R4")), "pairs_add_limit")


def test_islek_and_okey_discards_cost_101_but_the_finishing_one_does_not():
    run = read_meld(parse_tiles("R5 R6 R7"), T("Y5"), 1)
    s = hand(["R8 Y5 B1 K2"], table=(run,), opened=("melds", "melds", "none", "none"))
    after = apply(s, Discard(0, T("R8")))
    assert after.penalties[0] == 1
    after = apply(s, Discard(0, T("Y5")))
    assert after.penalties[0] == 1
    after = apply(s, Discard(0, T("B1")))
    assert after.penalties[0] == 0
    last = hand(["R8"], table=(run,), opened=("melds", "melds", "none", "none"))
    done = apply(last, Discard(0, T("R8")))
    assert done.result.finisher == 0 and done.penalties[0] == 0 and done.result.scores[0] == -101


def test_finishing_with_the_okey_doubles_and_the_stock_out_scores_what_is_held():
    s = hand(["Y5", "R3 K10 B1", "K11", "B6 Y7"], opened=("melds", "melds", "none", "pairs"))
    done = apply(s, Discard(0, T("Y5")))
    assert done.result.multiplier == 2 and done.result.scores == (-202, 28, 404, 52)
    out = apply(replace(s, stock=()), Discard(0, T("Y5")))
    assert out.result.finisher == 0  # a finishing discard on the last stock tile is a finish
    s = hand(["K2 R9", "R3 K10 B1", "K11", "B6 Y7"], opened=("melds", "melds", "none", "pairs"))
    out = apply(replace(s, stock=()), Discard(0, T("R9")))
    assert out.over and out.result.finisher is None and out.result.scores == (2, 14, 202, 26)


def test_elden_and_finishing_in_one_go_under_the_threshold():
    rack = "R1 R2 R3 B7 B8 B9 K4"
    s = apply(hand([rack]), Lay(0, groups(("R1", "R2", "R3"), ("B7", "B8", "B9"))))
    assert s.one_go and s.openings[0] == 30
    refused(s, Draw(0), "already_drawn")
    done = apply(s, Discard(0, T("K4")))
    assert done.result.multiplier == 2 and done.result.scores == (-202, 404, 404, 404)
    refused(
        hand([rack + " K6"]),
        Lay(0, groups(("R1", "R2", "R3"), ("B7", "B8", "B9"))),
        "under_threshold",
    )


def test_katlamali_raises_the_threshold_and_all_pairs_voids_the_hand():
    opts = Options101(katlamali=True, seats=2)
    s = hand([RACK101], options=opts, opened=("none", "melds"), openings=(0, 101))
    refused(s, Lay(0, groups(*OPENING)), "under_threshold")
    pairs = groups(("R1", "R1"), ("Y2", "Y2"), ("B3", "B3"), ("K4", "K4"), ("R6", "R6"))
    s = hand(
        ["R1 R1 Y2 Y2 B3 B3 K4 K4 R6 R6 K13"],
        options=opts,
        opened=("none", "pairs"),
        openings=(0, 5),
    )
    refused(s, Lay(0, pairs, pairs=True), "under_threshold")
    s = replace(s, options=Options101(seats=2))
    void = apply(s, Lay(0, pairs, pairs=True))
    assert void.over and void.result.void and void.result.scores == (0, 0)


def test_moves_round_trip_through_dicts_and_the_kinds_follow_the_turn():
    for m in (
        Lay(1, groups(("F", "Y6", "Y7")), False),
        Add(2, 3, T("Y5"), False),
        TakeOkey(0, 1, T("R2")),
    ):
        assert move_from_dict(move_to_dict(m)) == m
    for bad in (
        {"kind": "lay", "seat": 0, "groups": []},
        {"kind": "add", "seat": 0},
        {"kind": "x"},
    ):
        with pytest.raises(IllegalMove):
            move_from_dict(bad)
    s = hand([RACK101], phase="draw", discards=((), (), (), (T("R5"),)))
    assert legal_kinds101(s, 0) == {"draw", "take", "pairs"} and legal_kinds101(s, 1) == set()


def test_an_okey_in_a_pair_is_taken_by_its_partner_and_two_okeys_by_nobody():
    okey = T("Y5")
    pair = read_pair((T("R7"), okey), okey, 1)
    assert take_okey(pair, T("R7"), okey).tiles == (T("R7"), T("R7"))
    assert take_okey(pair, T("B7"), okey) is None
    both = read_pair((okey, okey), okey, 1)
    assert take_okey(both, T("F"), okey) is None and not is_islek(T("F"), [both], okey)
    assert is_islek(T("R7"), [pair], okey) and is_islek(okey, [], okey)


def test_a_runs_spare_okey_goes_above_unless_asked_below():
    okey = T("Y5")
    rack = "R9 R10 Y5 B1 K2"
    s = apply(hand([rack + " " + RACK101]), Lay(0, (*groups(*OPENING), (T("R9"), T("R10"), okey))))
    assert s.table[-1].stands == parse_tiles("R9 R10 R11")
    s = apply(
        hand([rack + " " + RACK101]),
        Lay(0, (*groups(*OPENING), (T("R9"), T("R10"), okey)), below=(0, 0, 0, 0, 1)),
    )
    assert s.table[-1].stands == parse_tiles("R8 R9 R10") and s.openings[0] == 101 + 27
    assert read_meld(parse_tiles("R12 R13 Y5"), okey, 0, below=0).stands == parse_tiles(
        "R11 R12 R13"
    )
    lay = Lay(0, groups(("R9", "R10", "Y5")), below=(1,))
    assert move_from_dict(move_to_dict(lay)) == lay
    with pytest.raises(IllegalMove):
        move_from_dict({"kind": "lay", "seat": 0, "groups": [["R1", "R2", "R3"]], "below": [-1]})


def test_an_opening_counts_what_its_turn_laid_of_its_kind():
    rack = RACK101 + " R13 K13 Y5 B9 B9 R4"
    s = hand([rack], opened=("none", "pairs", "none", "none"), openings=(0, 5, 0, 0))
    s = apply(s, Lay(0, groups(*OPENING)), Lay(0, groups(("R13", "K13", "Y5"))))
    assert s.openings[0] == 101 + 39
    s = apply(s, Lay(0, groups(("B9", "B9")), pairs=True))
    assert s.openings[0] == 101 + 39 and s.table[-1].kind == "pair"
