"""hand_void: the hand over as void, whoever stops it (the stock running out, or the staff)."""

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    Discard,
    Draw,
    IllegalMove,
    ShowIndicator,
    TableOptions,
    TakeDiscard,
    deal,
    game_apply_hand,
    game_new,
    hand_apply,
    hand_from_dict,
    hand_to_dict,
    hand_void,
    legal_moves,
    parse_tile,
)

from ._hands import all_tiles, make_hand

T = parse_tile
WIN13 = "R1 R2 R3 B5 B6 B7 K9 K10 K11 Y7 Y8 Y9 Y10"


def second(rack14, indicator="Y4", n=4):
    """Seat 0 has made its first discard; seat 1, holding ``rack14``, is to draw."""
    s = make_hand([None, rack14, *[None] * (n - 2)], indicator)
    return hand_apply(s, Discard(0, s.racks[0][0]))


def test_a_hand_stopped_after_a_draw_is_over_scores_nothing_and_keeps_every_tile():
    state = hand_apply(second(WIN13 + " K1"), Draw(1))
    assert state.drawn is not None and state.phase == "discard"
    void = hand_void(state)
    assert void.phase == "over" and void.over
    assert void.result.void and void.result.deltas == (0, 0, 0, 0)
    assert void.result.finisher is None and void.result.kind is None
    assert void.drawn is None and void.drawn_from_left is None
    assert (void.racks, void.discards, void.stock) == (state.racks, state.discards, state.stock)
    assert void.seq == state.seq and void.turn == state.turn
    assert all_tiles(void) == all_tiles(state)


def test_a_tile_taken_from_the_left_is_no_longer_marked_taken():
    state = hand_apply(second(WIN13 + " K1"), TakeDiscard(1))
    assert state.drawn_from_left is not None
    void = hand_void(state)
    assert void.drawn is None and void.drawn_from_left is None


def test_a_show_scores_nothing_in_a_void_hand_but_is_kept_for_display():
    state = hand_apply(second(WIN13 + " Y4", n=3), ShowIndicator(1))
    void = hand_void(state)
    assert void.result.shower == 1 and void.result.deltas == (0, 0, 0)


def test_a_hand_that_is_over_cannot_be_voided_again():
    state = hand_void(make_hand([None, None, None]))
    with pytest.raises(IllegalMove) as e:
        hand_void(state)
    assert e.value.code == "hand_over"
    assert legal_moves(state, state.turn) == []


def test_the_stock_running_out_ends_the_hand_exactly_as_hand_void_does():
    state = hand_apply(replace(second(WIN13 + " K1"), stock=(T("R9"),)), Draw(1))
    ended = hand_apply(state, Discard(1, T("K1")))
    # the discard itself, then the void: one definition of a void hand
    discarded = replace(
        state,
        racks=ended.racks,
        discards=ended.discards,
        played=ended.played,
        last_discarder=1,
        seq=ended.seq,
    )
    assert ended == hand_void(discarded)


def test_a_void_hand_changes_no_count_and_the_same_player_deals_again():
    options = TableOptions(seats=4)
    game = game_new(options, 2)
    void = hand_void(deal(bytes(range(32)), options, 2))
    after = game_apply_hand(game, void.result)
    assert after.counts == game.counts and after.hands_played == 0
    assert after.next_first_seat == 2 and after.history == (void.result,)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.binary(min_size=32, max_size=32),
    seats=st.sampled_from([2, 3, 4]),
    moves=st.integers(min_value=0, max_value=40),
    pick=st.randoms(use_true_random=False),
)
def test_any_running_hand_voids_to_a_state_that_round_trips_and_holds_every_tile(
    seed, seats, moves, pick
):
    state = deal(seed, TableOptions(seats=seats), 0)
    for _ in range(moves):
        if state.over:
            break
        state = hand_apply(state, pick.choice(legal_moves(state, state.turn)))
    if state.over:
        return
    void = hand_void(state)
    assert void.over and void.result.void and set(void.result.deltas) == {0}
    assert sum(all_tiles(void).values()) == 106 and all_tiles(void) == all_tiles(state)
    assert hand_from_dict(hand_to_dict(void)) == void
    assert legal_moves(void, void.turn) == []
    assert void.result.shower == state.shown_by and void.seq == state.seq
