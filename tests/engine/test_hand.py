"""Every move of a hand, and every refusal, as docs/rules.md describes them."""

import json
from dataclasses import replace

import pytest

from games.engine import (
    DeclarePairs,
    Discard,
    Draw,
    Finish,
    IllegalMove,
    ShowIndicator,
    TableOptions,
    TakeDiscard,
    TakeIndicator,
    hand_apply,
    hand_from_dict,
    hand_to_dict,
    legal_moves,
    parse_tile,
)
from games.engine.tiles import full_set

from ._hands import all_tiles, make_hand

T = parse_tile
WIN14 = "R1 R2 R3 B5 B6 B7 K9 K10 K11 Y7 Y8 Y9 Y10 Y11"  # four melds
WIN13 = "R1 R2 R3 B5 B6 B7 K9 K10 K11 Y7 Y8 Y9 Y10"  # needs Y11 (or Y6, or an okey)
PAIRS14 = "R1 R1 B2 B2 K3 K3 R7 R7 B9 B9 K11 K11 Y12 Y12"
SIX_PAIRS = "R1 R1 B2 B2 K3 K3 R7 R7 B9 B9 K11 K11 Y4 R13"


def refuse(state, move, code):
    before = hand_to_dict(state)
    with pytest.raises(IllegalMove) as e:
        hand_apply(state, move)
    assert e.value.code == code
    assert e.value.message and str(e.value) == e.value.message
    assert hand_to_dict(state) == before  # nothing changed
    return e.value


def start(first_rack=WIN14 + " K2", indicator="Y4", n=4, **kw):
    """The first player's first turn, with ``first_rack``."""
    return make_hand([first_rack, *[None] * (n - 1)], indicator, **kw)


def second(rack14, indicator="Y4", n=4, **kw):
    """Seat 0 has made its first discard; seat 1, holding ``rack14``, is to draw."""
    s = make_hand([None, rack14, *[None] * (n - 2)], indicator, **kw)
    return hand_apply(s, Discard(0, s.racks[0][0]))


def test_first_player_discards_without_drawing():
    s = start()
    refuse(s, Draw(0), "first_turn_no_draw")
    refuse(s, TakeDiscard(0), "first_turn_no_draw")
    s1 = hand_apply(s, Discard(0, T("K2")))
    assert s1.discards[0] == (T("K2"),)
    assert len(s1.racks[0]) == 14 and T("K2") not in s1.racks[0]
    assert (s1.turn, s1.phase, s1.played[0], s1.seq) == (1, "draw", True, 1)
    assert s.racks[0][-1] == T("K2")  # the old state is untouched


def test_turns_go_to_the_next_seat_and_wrap():
    s = hand_apply(start(), Discard(0, T("K2")))
    for seat in (1, 2, 3, 0):
        assert s.turn == seat
        refuse(s, Draw((seat + 1) % 4), "not_your_turn")
        s = hand_apply(s, Draw(seat))
        s = hand_apply(s, Discard(seat, s.racks[seat][0]))
    assert s.turn == 1


def test_draw_takes_the_top_of_the_stock():
    s = hand_apply(start(stock_top="Y2 R9"), Discard(0, T("K2")))
    s2 = hand_apply(s, Draw(1))
    assert s2.racks[1][-1] == T("R9") and s2.drawn == T("R9")
    assert s2.stock == s.stock[:-1]
    assert s2.phase == "discard"
    refuse(s2, Draw(1), "already_drawn")
    refuse(s2, TakeDiscard(1), "already_drawn")


def test_discard_needs_a_draw_and_a_tile_in_the_rack():
    s = hand_apply(start(), Discard(0, T("K2")))
    refuse(s, Discard(1, s.racks[1][0]), "must_draw_first")
    refuse(s, Finish(1, s.racks[1][0]), "must_draw_first")
    s = hand_apply(s, Draw(1))
    missing = next(f for f in range(52) if f not in s.racks[1])
    refuse(s, Discard(1, missing), "tile_not_in_rack")
    refuse(s, Finish(1, missing), "tile_not_in_rack")


def test_take_the_left_discard_but_not_throw_it_back():
    s = hand_apply(start(), Discard(0, T("K2")))
    s = hand_apply(s, TakeDiscard(1))
    assert s.racks[1][-1] == T("K2") and s.discards[0] == ()
    assert s.drawn_from_left == T("K2")
    e = refuse(s, Discard(1, T("K2")), "cannot_discard_taken_tile")
    assert "K2" in e.message
    other = s.racks[1][0]
    s = hand_apply(s, Discard(1, other))
    assert s.discards[1] == (other,) and s.drawn_from_left is None


def test_take_only_the_latest_discard_of_the_left_player():
    s = hand_apply(start(), Discard(0, T("K2")))
    s = hand_apply(s, Draw(1))
    thrown = s.racks[1][0]
    s = hand_apply(s, Discard(1, thrown))
    # seat 2 takes from seat 1, never from seat 0's older pile
    s2 = hand_apply(s, TakeDiscard(2))
    assert s2.racks[2][-1] == thrown and s2.discards[0] == (T("K2"),)
    # a pile top from an earlier round can no longer be taken
    stale = make_hand(
        [WIN14, None, None, None],
        turn=2,
        phase="draw",
        discards=["", "Y12", "", ""],
        last_discarder=0,
    )
    refuse(stale, TakeDiscard(2), "nothing_to_take")
    empty = make_hand([WIN14, None, None, None], turn=1, phase="draw", last_discarder=0)
    refuse(empty, TakeDiscard(1), "nothing_to_take")


def test_first_player_may_finish_at_once():
    s = hand_apply(start(), Finish(0, T("K2")))
    r = s.result
    assert s.phase == "over" and not r.void
    assert (r.finisher, r.kind, r.value, r.tile) == (0, "normal", 2, T("K2"))
    assert r.deltas == (-2, 2, 2, 2)
    assert sorted(t for g in r.groups for t in g) == sorted(s.racks[0])
    assert len(s.racks[0]) == 14
    refuse(s, Draw(1), "hand_over")
    assert legal_moves(s, 0) == [] and legal_moves(s, 1) == []


def test_finish_is_refused_when_the_14_do_not_qualify():
    e = refuse(start(), Finish(0, T("R1")), "no_finish")
    assert "R1" in e.message


def test_finish_after_drawing():
    s = second(WIN13 + " K1", stock_top="Y11")
    s = hand_apply(s, Draw(1))
    s = hand_apply(s, Finish(1, T("K1")))
    assert s.result.finisher == 1 and s.result.deltas == (2, -2, 2, 2)


def test_finish_with_the_tile_taken_from_the_left():
    # the rules forbid only discarding it; putting it on the indicator is a finish
    s = make_hand(
        [None, WIN14, None, None],
        turn=1,
        phase="draw",
        discards=["K2", "", "", ""],
        last_discarder=0,
        played=(True, False, False, False),
    )
    s = hand_apply(s, TakeDiscard(1))
    s = hand_apply(s, Finish(1, T("K2")))
    assert s.result.kind == "normal"


@pytest.mark.parametrize(
    "indicator, last, rack14, kind, value",
    [
        ("Y4", "K2", WIN14, "normal", 2),
        ("R4", "K2", WIN14, "normal", 4),
        ("K13", "K2", WIN14, "normal", 4),
        ("B13", "K2", WIN14, "normal", 2),
        ("Y4", "Y5", WIN14, "okey", 4),
        ("K4", "K5", WIN14, "okey", 8),
        ("Y4", "F", WIN14, "normal", 2),  # a fake joker on the indicator is a normal finish
        ("Y4", "K2", PAIRS14, "pairs", 4),
        ("R5", "K2", PAIRS14, "pairs", 8),
        ("Y4", "Y5", PAIRS14, "pairs+okey", 8),
        ("K4", "K5", PAIRS14, "pairs+okey", 16),
    ],
)
def test_finish_kinds_and_values(indicator, last, rack14, kind, value):
    s = hand_apply(start(rack14 + " " + last, indicator), Finish(0, T(last)))
    assert (s.result.kind, s.result.value) == (kind, value)
    assert s.result.deltas == (-value, value, value, value)
    if kind.startswith("pairs"):
        assert all(len(g) == 2 for g in s.result.groups) and len(s.result.groups) == 7


def test_colour_doubling_off():
    o = TableOptions(colour_doubling=False)
    s = hand_apply(start(WIN14 + " K5", "K4", options=o), Finish(0, T("K5")))
    assert s.result.value == 4


def test_esli_partner_shares_the_finish():
    s = second(WIN13 + " K1", stock_top="Y11", options=TableOptions(mode="esli"))
    s = hand_apply(hand_apply(s, Draw(1)), Finish(1, T("K1")))
    assert s.result.deltas == (2, -2, 2, -2)
    s = hand_apply(start(options=TableOptions(mode="esli")), Finish(0, T("K2")))
    assert s.result.deltas == (-2, 2, -2, 2)


@pytest.mark.parametrize("n", [2, 3])
def test_duz_with_fewer_seats(n):
    s = hand_apply(start(n=n), Finish(0, T("K2")))
    assert s.result.deltas == (-2,) + (2,) * (n - 1)


def test_void_when_the_stock_runs_out_after_a_discard():
    s = second(WIN13 + " K1")
    s = replace(s, stock=s.stock[-1:])
    s = hand_apply(s, Draw(1))
    assert s.stock == ()
    v = hand_apply(s, Discard(1, T("K1")))
    assert v.phase == "over" and v.result.void and v.result.deltas == (0, 0, 0, 0)
    assert v.result.finisher is None
    # finishing with the last tile of the stock is a real finish
    w = second(WIN13 + " K1")
    w = replace(w, stock=(T("Y11"),))
    w = hand_apply(hand_apply(w, Draw(1)), Finish(1, T("K1")))
    assert not w.result.void and w.result.deltas == (2, -2, 2, 2)


def test_show_indicator_by_the_twin_holder_on_the_first_turn():
    s = second(WIN13 + " Y4")
    s1 = hand_apply(s, ShowIndicator(1))
    assert s1.shown_by == 1 and s1.phase == "draw"
    refuse(s1, ShowIndicator(1), "already_shown")
    refuse(hand_apply(s, Draw(1)), ShowIndicator(1), "already_drawn")
    s2 = hand_apply(hand_apply(s, Draw(1)), Discard(1, T("R1")))
    refuse(s2, ShowIndicator(2), "no_twin")
    later = make_hand(
        [None, WIN13 + " Y4", None, None], turn=1, phase="draw", played=(True, True, False, False)
    )
    refuse(later, ShowIndicator(1), "not_first_turn")
    refuse(s, ShowIndicator(2), "not_your_turn")


def test_show_scores_with_the_finish():
    s = second(WIN13 + " K4", "K4", stock_top="Y11")
    s = hand_apply(s, ShowIndicator(1))
    s = hand_apply(hand_apply(s, Draw(1)), Finish(1, T("K4")))
    # black indicator: V = 4, and the show takes 2 more off the shower
    assert s.result.shower == 1 and s.result.deltas == (4, -4 - 2, 4, 4)


def test_show_scores_for_a_player_who_later_finishes():
    s = make_hand([WIN13 + " Y4 K2", None, None, None], "Y4", stock_top="Y11 R9 R10 R11")
    s = hand_apply(hand_apply(s, ShowIndicator(0)), Discard(0, T("K2")))
    for seat in (1, 2, 3):
        s = hand_apply(hand_apply(s, Draw(seat)), Discard(seat, s.stock[-1]))
    s = hand_apply(hand_apply(s, Draw(0)), Finish(0, T("Y4")))
    assert s.result.shower == 0 and s.result.deltas == (-2 - 1, 2, 2, 2)
    assert sorted(all_tiles(s).elements()) == list(full_set())


def test_first_player_shows_before_the_first_discard():
    s = start(WIN14 + " Y4", "Y4")
    s1 = hand_apply(hand_apply(s, ShowIndicator(0)), Finish(0, T("Y4")))
    assert s1.result.deltas == (-2 - 1, 2, 2, 2)
    s2 = make_hand([WIN14 + " Y4", None, None, None], turn=0, phase="draw", played=(True,) * 4)
    refuse(s2, ShowIndicator(0), "not_first_turn")


def test_show_is_off_without_indicator_bonus():
    s = start(WIN14 + " Y4", "Y4", options=TableOptions(indicator_bonus=False))
    refuse(s, ShowIndicator(0), "show_off")


def test_show_does_not_score_in_a_void_hand():
    s = second(WIN13 + " Y4", n=3)
    s = replace(s, stock=s.stock[-1:])
    s = hand_apply(s, ShowIndicator(1))
    s = hand_apply(hand_apply(s, Draw(1)), Discard(1, T("Y4")))
    assert s.result.void and s.result.shower == 1 and s.result.deltas == (0, 0, 0)


def test_declare_pairs_once_on_your_turn():
    s = start()
    refuse(s, DeclarePairs(1), "not_your_turn")
    s1 = hand_apply(s, DeclarePairs(0))
    assert s1.pairs_declared == (0,) and s1.phase == "discard"
    refuse(s1, DeclarePairs(0), "already_declared")
    s2 = hand_apply(hand_apply(s1, Discard(0, T("K2"))), DeclarePairs(1))
    assert s2.pairs_declared == (0, 1)


def test_take_indicator_with_six_pairs_when_the_table_allows_it():
    s = second(SIX_PAIRS, options=TableOptions(pairs_take_indicator=True))
    refuse(s, TakeIndicator(1), "not_declared")
    s = hand_apply(s, DeclarePairs(1))
    s1 = hand_apply(s, TakeIndicator(1))
    assert s1.indicator_taken_by == 1 and s1.racks[1][-1] == T("Y4") and s1.phase == "discard"
    assert s1.stock == s.stock
    assert all_tiles(s1) == all_tiles(s)
    refuse(s1, TakeIndicator(1), "already_drawn")
    f = hand_apply(s1, Finish(1, T("R13")))
    assert f.result.kind == "pairs" and f.result.deltas == (4, -4, 4, 4)
    assert sorted(all_tiles(f).elements()) == list(full_set())


def test_take_indicator_refusals():
    off = hand_apply(second(SIX_PAIRS), DeclarePairs(1))
    refuse(off, TakeIndicator(1), "take_indicator_off")
    o = TableOptions(pairs_take_indicator=True)
    five = hand_apply(second(SIX_PAIRS.replace("K11 K11", "K11 K12"), options=o), DeclarePairs(1))
    refuse(five, TakeIndicator(1), "not_six_pairs")
    # an okey makes a pair with any tile
    wild = hand_apply(second(SIX_PAIRS.replace("K11 K11", "K11 Y5"), options=o), DeclarePairs(1))
    assert hand_apply(wild, TakeIndicator(1)).indicator_taken_by == 1


def test_malformed_moves():
    s = start()
    refuse(s, Draw(7), "bad_seat")
    refuse(s, Draw(True), "bad_seat")
    refuse(s, Discard(0, 99), "bad_tile")
    with pytest.raises(IllegalMove) as e:
        hand_apply(s, "draw")
    assert e.value.code == "bad_move"


def test_legal_moves():
    s = start(WIN14 + " Y4", "Y4")
    kinds = {type(m).__name__ for m in legal_moves(s, 0)}
    assert kinds == {"ShowIndicator", "DeclarePairs", "Discard", "Finish"}
    assert Finish(0, T("Y4")) in legal_moves(s, 0)
    assert Finish(0, T("R1")) not in legal_moves(s, 0)
    discards = [m for m in legal_moves(s, 0) if isinstance(m, Discard)]
    assert sorted(m.tile for m in discards) == sorted(set(s.racks[0]))
    assert legal_moves(s, 1) == []
    s = hand_apply(hand_apply(s, Discard(0, T("R1"))), DeclarePairs(1))
    assert {type(m).__name__ for m in legal_moves(s, 1)} == {"Draw", "TakeDiscard"}
    s = hand_apply(s, TakeDiscard(1))
    assert Discard(1, T("R1")) not in legal_moves(s, 1)


def test_state_dict_round_trip_is_exact_and_json_safe():
    o = TableOptions(pairs_take_indicator=True, mode="esli")
    s = hand_apply(second(SIX_PAIRS, options=o), DeclarePairs(1))
    s = hand_apply(s, TakeIndicator(1))
    f = hand_apply(s, Finish(1, T("R13")))
    for state in (s, f):
        d = json.loads(json.dumps(hand_to_dict(state)))
        assert hand_from_dict(d) == state
    assert hand_to_dict(f)["result"]["tile"] == "R13"
    assert hand_to_dict(f)["indicator"] == "Y4"
