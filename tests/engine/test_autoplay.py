"""The timeout play and the bots: what they choose, and that it is always legal."""

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games.engine import (
    Discard,
    Draw,
    Finish,
    ShowIndicator,
    TableOptions,
    TakeDiscard,
    auto_moves,
    best_discard,
    bot_moves,
    deal,
    hand_apply,
    parse_tile,
)

from ._hands import all_tiles, hand_with_winner, make_hand, random_move

T = parse_tile
WIN14 = "R1 R2 R3 B5 B6 B7 K9 K10 K11 Y7 Y8 Y9 Y10 Y11"
WIN13 = "R1 R2 R3 B5 B6 B7 K9 K10 K11 Y7 Y8 Y9 Y10"


def apply_all(state, moves):
    for m in moves:
        state = hand_apply(state, m)
    return state


def test_nothing_to_do_off_turn_or_after_the_hand():
    s = make_hand([WIN14 + " K2", None, None, None])
    assert auto_moves(s, 1) == [] and bot_moves(s, 2) == []
    over = hand_apply(s, Finish(0, T("K2")))
    assert auto_moves(over, 0) == [] and bot_moves(over, 0) == []


def test_timeout_of_the_first_player_discards_the_least_useful_tile():
    s = make_hand([WIN14 + " K2", None, None, None])
    assert auto_moves(s, 0) == [Discard(0, best_discard(s.racks[0], s.okey))]
    assert auto_moves(s, 0) == [Discard(0, T("K2"))]  # never a finish: a timeout only discards


def test_timeout_draws_and_discards_the_drawn_tile():
    s = hand_apply(make_hand([WIN14 + " K2", None, None], stock_top="B12"), Discard(0, T("K2")))
    assert auto_moves(s, 1) == [Draw(1), Discard(1, T("B12"))]
    after = apply_all(s, auto_moves(s, 1))
    assert after.racks[1] == s.racks[1] and after.turn == 2
    drawn = hand_apply(s, Draw(1))
    assert auto_moves(drawn, 1) == [Discard(1, T("B12"))]


def test_timeout_after_taking_from_the_left_keeps_the_taken_tile():
    s = make_hand(
        [None, WIN14, None, None],
        turn=1,
        phase="draw",
        discards=["K2", "", "", ""],
        last_discarder=0,
        played=(True, False, False, False),
    )
    taken = hand_apply(s, TakeDiscard(1))
    assert best_discard(taken.racks[1], taken.okey) == T("K2")  # it would finish with it
    moves = auto_moves(taken, 1)
    assert len(moves) == 1 and moves[0].tile != T("K2")
    assert apply_all(taken, moves).turn == 2
    # a bot in the same place finishes with it
    assert bot_moves(taken, 1) == [Finish(1, T("K2"))]


def test_timeout_on_the_last_stock_tile_voids_the_hand():
    s = hand_apply(make_hand([WIN14 + " K2", None, None]), Discard(0, T("K2")))
    s = replace(s, stock=s.stock[-1:])
    assert apply_all(s, auto_moves(s, 1)).result.void


def test_bot_finishes_with_the_okey_when_it_can():
    s = make_hand([WIN14 + " Y5", None, None, None], "Y4")
    assert bot_moves(s, 0) == [Finish(0, T("Y5"))]
    assert apply_all(s, bot_moves(s, 0)).result.kind == "okey"


def test_bot_shows_the_indicator_then_plays():
    s = make_hand([None, WIN13 + " Y4", None, None], "Y4", stock_top="Y11")
    s = hand_apply(s, Discard(0, s.racks[0][0]))
    moves = bot_moves(s, 1)
    assert moves[0] == ShowIndicator(1)
    end = apply_all(s, moves)
    assert end.shown_by == 1
    assert moves[1:] == [Draw(1), Finish(1, T("Y4"))]
    assert end.result.deltas == (2, -2 - 1, 2, 2)


def test_bot_takes_the_left_discard_that_finishes():
    s = make_hand(
        [None, WIN13 + " K1", None, None],
        turn=1,
        phase="draw",
        discards=["Y11", "", "", ""],
        last_discarder=0,
        played=(True, False, False, False),
    )
    assert bot_moves(s, 1) == [TakeDiscard(1), Finish(1, T("K1"))]


@pytest.mark.parametrize("strength", ["easy", "normal"])
def test_bot_strengths(strength):
    s = deal(bytes(range(32)), TableOptions(), 0)
    for _ in range(12):
        s = apply_all(s, bot_moves(s, s.turn, strength))
    assert s.seq >= 12


def test_unknown_strength():
    s = make_hand([WIN14 + " K2", None])
    with pytest.raises(ValueError):
        bot_moves(s, 0, "hard")


PLAY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
options_st = st.builds(
    TableOptions,
    seats=st.sampled_from([2, 3, 4]),
    pairs_take_indicator=st.booleans(),
    indicator_bonus=st.booleans(),
)


@settings(PLAY, max_examples=30)
@given(
    seed=st.binary(min_size=32, max_size=32),
    options=options_st,
    players=st.lists(st.sampled_from(["easy", "normal", "timeout", "random"]), min_size=4),
    rnd_seed=st.integers(0, 2**32 - 1),
)
def test_whole_hands_of_bots_timeouts_and_random_players(seed, options, players, rnd_seed):
    rnd = random.Random(rnd_seed)
    s = deal(seed, options, rnd_seed % options.seats)
    if rnd.random() < 0.5:
        s = hand_with_winner(rnd, options, s.first_seat, rnd.randrange(options.seats))
    full = all_tiles(s)
    while s.phase != "over":
        seat, who = s.turn, players[s.turn]
        if who == "random":
            moves = [random_move(s, rnd)]
        elif who == "timeout":
            moves = auto_moves(s, seat)
        else:
            moves = bot_moves(s, seat, who)
        assert moves and all(m.seat == seat for m in moves)
        s = apply_all(s, moves)
        assert all_tiles(s) == full
        if who != "random":
            assert s.phase == "over" or s.turn != seat  # a whole turn
    r = s.result
    event("void" if r.void else f"finished by {players[r.finisher]}")
