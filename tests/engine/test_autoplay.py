"""The timeout play and the bots: what they choose, and that it is always legal."""

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games.engine import (
    DeclarePairs,
    Discard,
    Draw,
    Finish,
    ShowIndicator,
    TableOptions,
    TakeDiscard,
    TakeIndicator,
    auto_moves,
    best_discard,
    bot_moves,
    deal,
    finishes,
    hand_apply,
    parse_tile,
    parse_tiles,
)

from ._hands import (
    all_tiles,
    apply_all,
    assert_finished_or_kept_the_okey,
    hand_with_winner,
    left_discarded,
    make_hand,
    played_with_random_moves,
    random_move,
)

T = parse_tile
WIN14 = "R1 R2 R3 B5 B6 B7 K9 K10 K11 Y7 Y8 Y9 Y10 Y11"
WIN13 = "R1 R2 R3 B5 B6 B7 K9 K10 K11 Y7 Y8 Y9 Y10"


def test_nothing_to_do_off_turn_or_after_the_hand():
    s = make_hand([WIN14 + " K2", None, None, None])
    assert auto_moves(s, 1) == [] and bot_moves(s, 2) == []
    over = hand_apply(s, Finish(0, T("K2")))
    assert auto_moves(over, 0) == [] and bot_moves(over, 0) == []


def test_timeout_of_the_first_player_discards_the_least_useful_tile():
    s = make_hand([WIN14[:-4] + " K2 K7", None, None, None])
    assert finishes(s.racks[0], s.okey) == {}
    assert auto_moves(s, 0) == [Discard(0, best_discard(s.racks[0], s.okey))]


def test_timeout_that_can_finish_finishes_with_the_okey():
    """The issue's repro: the rack finishes by putting the okey Y5 on the indicator, which the
    timeout used to throw away."""
    s = make_hand(["R1 R2 R3 B7 B8 B9 K10 K11 K12 K13 Y1 B1 K1 R4 Y5", None, None, None], "Y4")
    moves = auto_moves(s, 0)
    assert moves == [Finish(0, T("Y5"))]
    assert apply_all(s, moves).result.kind == "okey"


def test_timeout_of_the_first_player_finishes():
    s = make_hand([WIN14 + " K2", None, None, None])
    assert auto_moves(s, 0) == [Finish(0, T("K2"))]


def test_timeout_draws_and_discards_the_drawn_tile():
    s = hand_apply(make_hand([WIN14 + " K2", None, None], stock_top="B12"), Discard(0, T("K2")))
    assert auto_moves(s, 1) == [Draw(1), Discard(1, T("B12"))]
    after = apply_all(s, auto_moves(s, 1))
    assert after.racks[1] == s.racks[1] and after.turn == 2
    drawn = hand_apply(s, Draw(1))
    assert auto_moves(drawn, 1) == [Discard(1, T("B12"))]


def test_timeout_draws_the_tile_that_finishes_and_finishes():
    s = make_hand([None, WIN13 + " K1", None, None], stock_top="Y11")
    s = hand_apply(s, Discard(0, s.racks[0][0]))
    moves = auto_moves(s, 1)
    assert moves == [Draw(1), Finish(1, T("K1"))]
    assert apply_all(s, moves).result.finisher == 1


def test_timeout_that_draws_an_okey_keeps_it():
    rack = "R1 R2 R3 B5 B6 B7 K9 K10 K11 Y7 Y8 B12 K4 R10"
    s = make_hand([None, rack, None, None], stock_top="Y5")
    s = hand_apply(s, Discard(0, s.racks[0][0]))
    moves = auto_moves(s, 1)
    assert moves[0] == Draw(1) and isinstance(moves[1], Discard)
    assert moves[1].tile in parse_tiles("B12 K4 R10")
    assert T("Y5") in apply_all(s, moves).racks[1]


def test_timeout_after_taking_from_the_left_finishes_with_the_taken_tile():
    s = left_discarded(WIN14, "K2")
    taken = hand_apply(s, TakeDiscard(1))
    assert auto_moves(taken, 1) == [Finish(1, T("K2"))]
    assert bot_moves(taken, 1) == [Finish(1, T("K2"))]


def test_timeout_after_taking_from_the_left_keeps_the_taken_tile():
    s = left_discarded(WIN13 + " K2", "B12")
    taken = hand_apply(s, TakeDiscard(1))
    moves = auto_moves(taken, 1)
    assert len(moves) == 1 and moves[0].tile != T("B12") and isinstance(moves[0], Discard)
    assert apply_all(taken, moves).turn == 2


def test_timeout_after_taking_the_indicator_finishes_with_pairs():
    six_pairs = "R1 R1 B2 B2 K3 K3 R7 R7 B9 B9 K11 K11 Y4 R13"
    s = make_hand([None, six_pairs, None, None], options=TableOptions(pairs_take_indicator=True))
    s = hand_apply(s, Discard(0, s.racks[0][0]))
    s = hand_apply(hand_apply(s, DeclarePairs(1)), TakeIndicator(1))
    moves = auto_moves(s, 1)
    assert moves == [Finish(1, T("R13"))]
    assert apply_all(s, moves).result.kind == "pairs"


def test_timeout_after_taking_the_indicator_without_a_finish_throws_a_single():
    six_pairs = "R1 R1 B2 B2 K3 K3 R7 R7 B9 B9 K11 K11 R12 R13"
    s = make_hand([None, six_pairs, None, None], options=TableOptions(pairs_take_indicator=True))
    s = hand_apply(s, Discard(0, s.racks[0][0]))
    s = hand_apply(hand_apply(s, DeclarePairs(1)), TakeIndicator(1))
    (move,) = auto_moves(s, 1)
    assert isinstance(move, Discard) and move.tile in parse_tiles("R12 R13 Y4")


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
    s = left_discarded(WIN13 + " K1", "Y11")
    assert bot_moves(s, 1) == [TakeDiscard(1), Finish(1, T("K1"))]


@pytest.mark.parametrize("strength", ["easy", "normal", "hard"])
def test_bot_strengths(strength):
    s = deal(bytes(range(32)), TableOptions(), 0)
    for _ in range(12):
        s = apply_all(s, bot_moves(s, s.turn, strength))
    assert s.seq >= 12


def test_unknown_strength():
    s = make_hand([WIN14 + " K2", None])
    with pytest.raises(ValueError):
        bot_moves(s, 0, "grandmaster")


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
    players=st.lists(st.sampled_from(["easy", "normal", "hard", "timeout", "random"]), min_size=4),
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


@settings(PLAY, max_examples=40)
@given(
    seed=st.binary(min_size=32, max_size=32),
    options=options_st,
    rnd_seed=st.integers(0, 2**32 - 1),
)
def test_a_timeout_finishes_when_it_can_and_never_throws_the_okey(seed, options, rnd_seed):
    """Every timeout of a random hand: a rack that can finish after the draw finishes with the
    highest factor there is; otherwise the tile thrown is never a real okey while the rack holds
    another tile that may go, and a plain tile drawn from the stock is the one thrown."""
    rnd = random.Random(rnd_seed)
    s = deal(seed, options, rnd_seed % options.seats)
    if rnd.random() < 0.5:
        s = hand_with_winner(rnd, options, s.first_seat, rnd.randrange(options.seats))

    def timeout(s, seat):
        moves = auto_moves(s, seat)
        ready = s if s.phase == "discard" else apply_all(s, moves[:1])
        if not assert_finished_or_kept_the_okey(ready, seat, moves[-1], ready.drawn_from_left):
            plain_draw = ready.drawn not in (None, ready.okey) and ready.drawn_from_left is None
            if plain_draw and ready.indicator_taken_by != seat and s.phase == "draw":
                assert moves[-1].tile == ready.drawn
        return moves

    played_with_random_moves(s, rnd, 0.5, timeout)
