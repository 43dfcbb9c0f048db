import json

import pytest

from games.engine import (
    DeclarePairs,
    Discard,
    Draw,
    Finish,
    ShowIndicator,
    TableOptions,
    TakeDiscard,
    deal,
    format_tile,
    format_tiles,
    hand_apply,
    hand_from_dict,
    hand_to_dict,
    hand_view,
    parse_tile,
)

from ._hands import make_hand

T = parse_tile
WIN14 = "R1 R2 R3 B5 B6 B7 K9 K10 K11 Y7 Y8 Y9 Y10 Y11"


def test_seat_sees_own_rack_and_only_sizes_of_the_others():
    s = deal(bytes(range(32)), TableOptions(), 0)
    v = hand_view(s, 2)
    assert v["rack"] == format_tiles(s.racks[2]).split()
    assert v["rack_sizes"] == [15, 14, 14, 14]
    assert v["stock_size"] == 48 and "stock" not in v
    assert v["racks"] is None and v["result"] is None
    assert (v["turn"], v["phase"], v["indicator"], v["okey"]) == (0, "discard", "B2", "B3")
    assert v["can"] == []
    assert json.loads(json.dumps(v)) == v


def test_spectator_sees_no_rack():
    s = make_hand([WIN14 + " K2", None, None, None])
    v = hand_view(s, None)
    assert v["rack"] is None and v["can"] == [] and v["viewer"] is None


def test_bad_viewer():
    s = make_hand([WIN14 + " K2", None])
    for bad in (2, -1, "0", True):
        with pytest.raises(ValueError):
            hand_view(s, bad)


def test_what_the_player_to_move_may_do():
    s = make_hand([WIN14 + " Y4", None, None, None], "Y4")
    assert hand_view(s, 0)["can"] == ["show", "pairs", "discard", "finish"]
    s = hand_apply(s, Discard(0, T("R1")))
    v = hand_view(s, 1)
    assert v["can"] == ["pairs", "draw", "take"] and v["takeable"] == "R1"
    assert hand_view(s, None)["takeable"] == "R1"
    s = hand_apply(s, TakeDiscard(1))
    v = hand_view(s, 1)
    assert v["can"] == ["pairs", "discard"]
    assert v["drawn"] == "R1" and v["taken_from_left"] == "R1"
    assert hand_view(s, 2)["drawn"] is None and hand_view(s, 2)["takeable"] is None


def test_drawn_tile_is_shown_only_to_the_drawer():
    s = hand_apply(make_hand([WIN14 + " K2", None, None], stock_top="B12"), Discard(0, T("K2")))
    s = hand_apply(s, Draw(1))
    assert hand_view(s, 1)["drawn"] == "B12"
    for viewer in (0, 2, None):
        assert "B12" not in json.dumps(hand_view(s, viewer))


def test_discard_tops_then_whole_histories_once_pairs_are_declared():
    s = make_hand([WIN14 + " K2", None, None, None], stock_top="Y12 B12 R12")
    s = hand_apply(s, Discard(0, T("K2")))
    for seat in (1, 2, 3):
        s = hand_apply(hand_apply(s, Draw(seat)), Discard(seat, s.stock[-1]))
    s = hand_apply(hand_apply(s, Draw(0)), Discard(0, T("R1")))
    v = hand_view(s, 2)
    assert v["discards"] == [["R1"], ["R12"], ["B12"], ["Y12"]]
    assert v["discard_sizes"] == [2, 1, 1, 1] and not v["histories_public"]
    s = hand_apply(s, DeclarePairs(1))
    v = hand_view(s, 2)
    assert v["discards"][0] == ["K2", "R1"] and v["histories_public"]
    assert v["pairs_declared"] == [1]


def test_the_public_history_after_pairs_shows_the_tiles_the_next_player_took():
    s = make_hand([WIN14 + " K2", None, None, None], stock_top="Y12 B12")
    s = hand_apply(s, Discard(0, T("K2")))
    s = hand_apply(s, TakeDiscard(1))  # seat 1 takes K2 from seat 0's pile
    s = hand_apply(s, Discard(1, s.racks[1][0]))
    thrown_by_1 = format_tile(s.discards[1][-1])
    s = hand_apply(hand_apply(s, Draw(2)), Discard(2, T("B12")))
    s = hand_apply(hand_apply(s, Draw(3)), Discard(3, T("Y12")))
    s = hand_apply(hand_apply(s, Draw(0)), Discard(0, T("R1")))
    assert hand_view(s, 2)["discard_histories"] is None  # nobody has declared pairs yet
    s = hand_apply(s, DeclarePairs(1))
    for viewer in (0, 1, 2, 3, None):
        v = hand_view(s, viewer)
        assert v["discards"][0] == ["R1"]
        assert v["discard_histories"] == [
            [["K2", True], ["R1", False]],
            [[thrown_by_1, False]],
            [["B12", False]],
            [["Y12", False]],
        ]
    again = hand_from_dict(json.loads(json.dumps(hand_to_dict(s))))
    assert again == s and hand_view(again, 2)["discard_histories"][0][0] == ["K2", True]


def test_hand_end_shows_all_racks_and_the_result():
    s = make_hand([WIN14 + " Y4", None, None, None], "Y4")
    s = hand_apply(hand_apply(s, ShowIndicator(0)), Finish(0, T("Y4")))
    for viewer in (0, 3, None):
        v = hand_view(s, viewer)
        assert v["phase"] == "over" and v["can"] == []
        assert v["racks"] == [format_tiles(r).split() for r in s.racks]
        r = v["result"]
        assert r["finisher"] == 0 and r["kind"] == "normal" and r["tile"] == "Y4"
        assert r["deltas"] == [-3, 2, 2, 2] and r["shower"] == 0
        assert sorted(t for g in r["groups"] for t in g) == sorted(WIN14.split())
        assert v["shown_by"] == 0


def test_views_of_two_states_in_turn_each_show_their_own_state():
    # the public part of the last state's view is reused (views.py): it must follow the state
    s1 = deal(bytes(range(32)), TableOptions(), 0)
    s2 = hand_apply(s1, Discard(0, s1.racks[0][0]))
    first = hand_view(s1, 1)
    assert hand_view(s2, 1)["discards"][0] == [format_tiles(s1.racks[0][:1])]
    again = hand_view(s1, 2)
    assert again["discards"] == first["discards"] == [[], [], [], []]
    assert (again["turn"], again["rack_sizes"]) == (0, [15, 14, 14, 14])
    assert again["rack"] == format_tiles(s1.racks[2]).split() != first["rack"]
    assert hand_view(s2, 1)["turn"] == 1 and "take" in hand_view(s2, 1)["can"]
