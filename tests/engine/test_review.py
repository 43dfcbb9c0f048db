"""The review's marks and the hint, on hand-built positions; the hint never depends on what the
player cannot see."""

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    DeclarePairs,
    Discard,
    Draw,
    Finish,
    ShowIndicator,
    TableOptions,
    TakeDiscard,
    bot_moves,
    deal,
    finishes,
    hand_apply,
    hand_marks,
    hint,
    parse_tile,
    parse_tiles,
    seen_by,
)
from games.engine.review import (
    BOT_DISCARD,
    COULD_FINISH,
    FED_FINISH,
    MELDS,
    NEARER,
    SAFER,
    bot_choice,
    draws_to_finish,
)

from ._hands import all_tiles, make_hand, random_move

T = parse_tile
WIN14 = "R1 R2 R3 B5 B6 B7 K9 K10 K11 Y7 Y8 Y9 Y10 Y11"
WIN13 = "R1 R2 R3 B5 B6 B7 K9 K10 K11 Y7 Y8 Y9 Y10"
LOOSE15 = "Y11 R5 R9 B1 B11 K4 K6 Y13 R12 B3 B9 K7 K13 R7 Y2"


def test_a_discard_from_a_rack_that_could_finish_is_marked_with_the_finish():
    # indicator Y4: the okey is Y5, and putting it on the indicator doubles the finish
    s = make_hand([WIN14 + " Y5", None, None, None])
    (mark,) = hand_marks(s, [Discard(0, T("R1"))], judged=[1])
    assert (mark.kind, mark.seq, mark.seat) == (COULD_FINISH, 1, 0)
    assert (mark.tile, mark.finish) == (T("Y5"), "okey")


def test_a_rack_that_finishes_only_one_way_names_that_tile():
    s = make_hand([WIN14 + " K2", None, None, None])
    (mark,) = hand_marks(s, [Discard(0, T("R1"))], judged=[1])
    assert (mark.kind, mark.tile, mark.finish) == (COULD_FINISH, T("K2"), "normal")


def test_a_move_the_player_did_not_make_is_not_held_against_them():
    """A discard the timer played for a person, or a bot's, is not judged: only the moves in
    ``judged`` (the ones people made themselves) are."""
    s = make_hand([WIN14 + " K2", None, None, None])
    assert hand_marks(s, [Discard(0, T("R1"))]) == ()
    s = make_hand([WIN13 + " K2 R9", None, None, None])
    assert hand_marks(s, [Discard(0, T("R1"))], judged=[2]) == ()


def test_finishing_is_not_marked_and_neither_is_a_rack_that_cannot():
    s = make_hand([WIN14 + " K2", None, None, None])
    assert hand_marks(s, [Finish(0, T("K2"))]) == ()
    assert hand_marks(make_hand([LOOSE15, None, None, None]), [Discard(0, T("R5"))]) == ()


def test_a_discard_that_lets_the_next_player_finish_is_marked_taken_or_not():
    s = make_hand([LOOSE15, WIN13 + " K2", None, None])
    taken = [Discard(0, T("Y11")), TakeDiscard(1), Discard(1, T("R1"))]
    marks = hand_marks(s, taken)
    (mark,) = [m for m in marks if m.kind == FED_FINISH]
    assert (mark.seq, mark.seat, mark.tile, mark.finish, mark.taken) == (
        1,
        0,
        T("Y11"),
        "normal",
        True,
    )
    (mark,) = [m for m in hand_marks(s, [Discard(0, T("Y11")), Draw(1)]) if m.kind == FED_FINISH]
    assert mark.taken is False
    # they took it and finished: a whole turn of theirs is read, not only its first move
    won = [Discard(0, T("Y11")), TakeDiscard(1), Finish(1, T("K2"))]
    (mark,) = [m for m in hand_marks(s, won) if m.kind == FED_FINISH]
    assert (mark.taken, mark.finished) == (True, True)
    # another discard gives seat 2 nothing
    assert not [m for m in hand_marks(s, [Discard(0, T("R5"))]) if m.kind == FED_FINISH]


def test_a_next_player_who_declares_pairs_or_shows_first_and_then_takes_and_finishes_took_it():
    """The repro of issue 38: Y11 thrown, then DeclarePairs, TakeDiscard, Finish K2 read as
    "would have let" (taken False) when only the very next move was read."""
    for rack, first, last in (
        (WIN13 + " K2", DeclarePairs(1), "K2"),
        (WIN13 + " Y4", ShowIndicator(1), "Y4"),  # the indicator's twin, shown first
    ):
        s = make_hand([LOOSE15, rack, None, None])
        moves = [Discard(0, T("Y11")), first, TakeDiscard(1), Finish(1, T(last))]
        (mark,) = [m for m in hand_marks(s, moves) if m.kind == FED_FINISH]
        assert (mark.seq, mark.tile, mark.taken, mark.finished) == (1, T("Y11"), True, True)
    # their turn ends where another seat moves: a later take is not theirs of this tile
    s = make_hand([LOOSE15, WIN13 + " K2", None, None])
    (mark,) = [m for m in hand_marks(s, [Discard(0, T("Y11")), Draw(1)]) if m.kind == FED_FINISH]
    assert (mark.taken, mark.finished) == (False, False)


def test_no_fed_mark_when_the_next_rack_finishes_with_any_tile():
    s = make_hand([LOOSE15, WIN14, None, None])
    assert not [m for m in hand_marks(s, [Discard(0, T("Y11"))]) if m.kind == FED_FINISH]


def test_the_bot_discard_is_marked_when_it_leaves_the_rack_fewer_draws_from_a_finish():
    s = make_hand([WIN13 + " K2 R9", None, None, None])
    bot = bot_choice(s, 0)
    assert isinstance(bot, Discard) and bot.tile in (T("K2"), T("R9"))
    (mark,) = hand_marks(s, [Discard(0, T("R1"))], judged=[1])
    assert (mark.kind, mark.tile, mark.played, mark.reason) == (
        BOT_DISCARD,
        bot.tile,
        T("R1"),
        NEARER,
    )
    assert (mark.draws, mark.draws_played) == (1, 2)
    assert (mark.kept, mark.kept_played) == (13, 10)
    # the same choice as the bot: nothing to say; a move not judged: not asked
    assert hand_marks(s, [Discard(0, bot.tile)], judged=[1]) == ()
    assert hand_marks(s, [Discard(0, T("R1"))], judged=[]) == ()


# a rack where R1 and K5 both leave one draw to a finish: throwing R1 breaks R1-R5 to R2-R5
# (12 in melds), K5 is loose (13 kept)
MELDS15 = "R1 R2 R3 B5 B6 B7 K9 K10 K11 R5 K5 K8 R4 K12 B11"
# B10 and Y2 both leave two draws and nine tiles in melds
EVEN15 = "R1 R2 R3 B5 B6 B7 K9 K10 K11 R12 Y9 R8 B10 R11 Y2"


def test_the_bot_discard_is_marked_when_it_keeps_more_tiles_in_melds_as_near_a_finish():
    s = make_hand([MELDS15, None, None, None], played=(True,) * 4)
    bot = bot_choice(s, 0)
    (mark,) = hand_marks(s, [Discard(0, T("R1"))], judged=[1])
    assert (mark.tile, mark.reason) == (bot.tile, MELDS)
    assert mark.draws == mark.draws_played
    assert (mark.kept, mark.kept_played) == (13, 12)


def test_a_different_discard_no_better_by_any_measure_is_no_mark():
    """The noise of issue 38: "the bot would throw Y instead of X: 9 tiles in melds (X also 9)"."""
    s = make_hand([EVEN15, None, None, None], played=(True,) * 4)
    bot = bot_choice(s, 0)
    assert bot.tile != T("B10")
    rack = s.racks[0]
    mine, theirs = list(rack), list(rack)
    mine.remove(bot.tile)
    theirs.remove(T("B10"))
    assert draws_to_finish(mine, s.okey) == draws_to_finish(theirs, s.okey)
    assert hand_marks(s, [Discard(0, T("B10"))], judged=[1]) == ()


def test_the_bot_discard_is_marked_when_the_players_tile_was_one_the_next_player_wanted():
    # seat 1 took B11 from seat 0's pile: B10 stands beside it, Y2 beside nothing they took
    s = make_hand([EVEN15, None, None, None], played=(True,) * 4)
    s = replace(s, taken=((0, 0, T("B11")),))
    bot = bot_choice(s, 0)
    (mark,) = hand_marks(s, [Discard(0, T("B10"))], judged=[1])
    assert (mark.tile, mark.reason, mark.wanted) == (bot.tile, SAFER, T("B11"))
    assert (mark.draws, mark.kept) == (mark.draws_played, mark.kept_played)


def test_marks_of_a_whole_random_hand_point_at_discards_and_hold():
    rnd = random.Random(21)
    for _ in range(5):
        dealt = deal(rnd.randbytes(32), TableOptions(), rnd.randrange(4))
        state, moves, states = dealt, [], [dealt]
        while not state.over:
            m = random_move(state, rnd)
            moves.append(m)
            state = hand_apply(state, m)
            states.append(state)
        for mark in hand_marks(dealt, moves, judged=range(1, len(moves) + 1)):
            move, before = moves[mark.seq - 1], states[mark.seq - 1]
            assert isinstance(move, Discard) and move.seat == mark.seat
            if mark.kind == COULD_FINISH:
                assert finishes(before.racks[mark.seat], before.okey)[mark.tile] == mark.finish
            elif mark.kind == BOT_DISCARD:
                assert mark.tile != move.tile and mark.tile in before.racks[mark.seat]
                # better by the measure it states, and no worse by the ones before it
                assert mark.draws <= mark.draws_played
                if mark.reason == NEARER:
                    assert mark.draws < mark.draws_played
                elif mark.reason == MELDS:
                    assert mark.kept > mark.kept_played
                else:
                    assert mark.reason == SAFER and mark.kept == mark.kept_played


# ------------------------------------------------------------------------------------- hints


def test_a_hint_after_the_draw_names_the_finish_when_there_is_one():
    s = make_hand([WIN14 + " Y5", None, None, None])
    h = hint(s, 0)
    assert (h.finish, h.discard) == (T("Y5"), None)
    assert sum(len(g) for g in h.groups) == 15 - len(h.leftovers)


def test_a_hint_after_the_draw_names_a_discard_and_arranges_the_rack():
    s = make_hand([WIN13 + " K2 R9", None, None, None])
    h = hint(s, 0)
    assert h.finish is None and h.discard in (T("K2"), T("R9"))
    assert sorted(h.leftovers) == sorted(parse_tiles("K2 R9"))
    assert sorted(len(g) for g in h.groups) == [3, 3, 3, 4]


def test_a_hint_before_the_draw_says_to_take_the_left_discard_that_finishes():
    s = make_hand([LOOSE15, WIN13 + " K2", None, None], turn=0, phase="discard", first_seat=0)
    s = hand_apply(s, Discard(0, T("Y11")))
    h = hint(s, 1)
    assert h.draw == "take" and h.discard is None and h.finish is None
    s2 = hand_apply(make_hand([LOOSE15, WIN13 + " K2", None, None]), Discard(0, T("R5")))
    assert hint(s2, 1).draw == "stock"


def test_no_hint_off_turn():
    s = make_hand([WIN14 + " K2", None, None, None])
    with pytest.raises(ValueError):
        hint(s, 1)


def _reshuffled(state, seat, rnd):
    """The same hand as ``seat`` sees it, the unseen tiles moved about."""
    others = [i for i in range(state.n) if i != seat]
    hidden = [t for i in others for t in state.racks[i]] + list(state.stock)
    rnd.shuffle(hidden)
    racks, at = list(state.racks), 0
    for i in others:
        racks[i] = tuple(hidden[at : at + len(state.racks[i])])
        at += len(state.racks[i])
    return replace(state, racks=tuple(racks), stock=tuple(hidden[at:]))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=32, max_size=32), steps=st.integers(0, 40), mix=st.randoms())
def test_a_hint_depends_only_on_what_the_player_can_see(seed, steps, mix):
    rnd = random.Random(seed)
    state = deal(seed, TableOptions(), rnd.randrange(4))
    for _ in range(steps):
        if state.over:
            return
        state = hand_apply(state, random_move(state, rnd))
    if state.over:
        return
    seat = state.turn
    other = _reshuffled(state, seat, mix)
    assert seen_by(other, seat) == seen_by(state, seat)
    assert hint(other, seat) == hint(state, seat)
    masked = seen_by(state, seat)
    assert masked.racks[seat] == state.racks[seat] and masked.discards == state.discards
    assert all_tiles(masked) == all_tiles(state)
    assert [len(r) for r in masked.racks] == [len(r) for r in state.racks]


def test_the_judging_bot_is_asked_through_bot_moves():
    # the review and the hint play the bot's own turn: its discard is the one bot_moves makes
    s = make_hand([WIN13 + " K2 R9", None, None, None])
    assert bot_choice(s, 0) == bot_moves(s, 0)[-1]


def test_a_hint_on_the_first_turn_says_to_show_the_indicators_twin():
    s = make_hand([WIN13 + " Y4 R9", None, None, None])  # indicator Y4: its twin in the rack
    assert hint(s, 0).show is True
    assert hint(make_hand([WIN13 + " K2 R9", None, None, None]), 0).show is False


def test_a_hint_before_the_draw_may_say_to_take_the_indicator_for_the_seventh_pair():
    options = TableOptions(pairs_take_indicator=True)
    pairs = "R1 R1 R5 R5 B2 B2 B9 B9 K3 K3 K7 K7 Y4 R11"  # six pairs and the indicator's twin
    s = make_hand([None, pairs, None, None], options=options, pairs_declared=(1,))
    s = hand_apply(s, Discard(0, s.racks[0][0]))
    assert hint(s, 1).draw == "indicator"
