"""The hard bot ("zor"): it reads only what its seat may see, and plays what the rules and a
good player want in positions built by hand."""

import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    Discard,
    Draw,
    Finish,
    TableOptions,
    TakeDiscard,
    TakeIndicator,
    bot_discard,
    bot_moves,
    deal,
    finishes,
    hand_apply,
    parse_tile,
    parse_tiles,
    seat_knowledge,
)
from games.engine import distance as distance_module
from games.engine import rack as rack_module
from games.engine.hard import hard_throw
from games.engine.memo import Memo

from ._hands import (
    apply_all,
    assert_finished_or_kept_the_okey,
    hand_with_winner,
    left_discarded,
    make_hand,
    played_with_random_moves,
    random_move,
)

T = parse_tile
PLAY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=40)


def hidden_shuffled(state, seat, rnd):
    """The same hand as ``seat`` sees it, with every tile it cannot see (the stock and the other
    racks) dealt out again at random, each rack keeping its size."""
    others = [s for s in range(state.n) if s != seat]
    hidden = list(state.stock) + [t for s in others for t in state.racks[s]]
    rnd.shuffle(hidden)
    stock, hidden = tuple(hidden[: len(state.stock)]), hidden[len(state.stock) :]
    racks = list(state.racks)
    for s in others:
        racks[s], hidden = tuple(hidden[: len(racks[s])]), hidden[len(racks[s]) :]
    return replace(state, stock=stock, racks=tuple(racks))


def mid_hand(seed, options, steps, rnd):
    s = deal(seed, options, rnd.randrange(options.seats))
    for _ in range(steps):
        if s.phase == "over":
            break
        if rnd.random() < 0.6:
            for m in bot_moves(s, s.turn, rnd.choice(["normal", "hard"])):
                s = hand_apply(s, m)
        else:
            s = hand_apply(s, random_move(s, rnd))
    return s


@settings(PLAY)
@given(
    seed=st.binary(min_size=32, max_size=32),
    seats=st.sampled_from([2, 3, 4]),
    esli=st.booleans(),
    steps=st.integers(0, 60),
    rnd_seed=st.integers(0, 2**32 - 1),
)
def test_the_hard_bot_never_reads_the_stock_or_another_rack(seed, seats, esli, steps, rnd_seed):
    rnd = random.Random(rnd_seed)
    options = TableOptions(mode="esli") if esli else TableOptions(seats=seats)
    s = mid_hand(seed, options, steps, rnd)
    if s.phase == "over":
        return
    seat = s.turn
    other = hidden_shuffled(s, seat, rnd)
    assert seat_knowledge(other, seat) == seat_knowledge(s, seat)
    if s.phase == "draw":
        # the choice between taking and drawing, made before anything is drawn
        assert bot_moves(other, seat, "hard")[0] == bot_moves(s, seat, "hard")[0]
        s = hand_apply(s, Draw(seat))
        other = hidden_shuffled(s, seat, rnd)
    assert bot_discard(other, seat, "hard") == bot_discard(s, seat, "hard")


def test_knowledge_counts_what_is_gone():
    s = make_hand([None, None, None, None], "Y4", stock_top="B12")
    s = hand_apply(s, Discard(0, s.racks[0][0]))
    thrown = s.discards[0][-1]
    s = hand_apply(s, TakeDiscard(1))
    k = seat_knowledge(s, 2)
    # the indicator and the tile seat 1 took are gone for seat 2, besides its own rack
    gone = [T("Y4"), thrown, *s.racks[2]]
    for f in set(gone):
        assert k.unseen[f] == 2 - gone.count(f)
    assert k.took[1] == (thrown,) and k.thrown[0] == (thrown,)
    assert sum(k.unseen) == 106 - len(gone)


def test_hard_bot_finishes_with_the_okey_when_it_can():
    s = make_hand(["R1 R2 R3 B7 B8 B9 K10 K11 K12 K13 Y1 B1 K1 R4 Y5", None, None, None], "Y4")
    assert bot_moves(s, 0, "hard") == [Finish(0, T("Y5"))]
    assert bot_discard(s, 0, "hard") == T("Y5")


def test_hard_bot_keeps_live_partial_melds_and_breaks_a_dead_one():
    # three melds and three pairs that each want one tile; R5 R6 can only become a run with R4
    # or R7, and both copies of each lie on the piles: the hard bot breaks that pair
    rack = "R1 R2 R3 B5 B6 B7 Y9 Y10 Y11 R5 R6 K9 K10 B10 B11"
    s = make_hand(
        [rack, None, None, None],
        discards=["", "R4 R7", "R4", "R7"],
        played=(True, True, True, True),
    )
    assert bot_discard(s, 0, "hard") in parse_tiles("R5 R6")


def test_hard_bot_does_not_feed_the_next_player_what_it_collects():
    # seat 1 (next) took K6 and K7 earlier: it collects black around 6-7; seat 0 holds two
    # loose tiles of equal use to itself, K8 and B12, and throws B12
    rack = "R1 R2 R3 B5 B6 B7 Y9 Y10 Y11 R9 R10 R11 K8 B12 Y2"
    s = make_hand([rack, None, None, None], played=(True, True, True, True))
    s = replace(s, taken=((0, 0, T("K6")), (0, 1, T("K7"))))
    assert seat_knowledge(s, 0).took[1] == (T("K6"), T("K7"))
    assert bot_discard(s, 0, "hard") != T("K8")


def test_bot_discard_needs_a_rack_that_has_drawn():
    s = make_hand([None, None, None, None])
    s = hand_apply(s, Discard(0, s.racks[0][0]))
    for strength in ("easy", "normal", "hard"):
        try:
            bot_discard(s, 1, strength)
        except ValueError as e:
            assert "not its turn to discard" in str(e)
        else:
            raise AssertionError("a rack of 14 has nothing to put down")


WIN13 = "R1 R2 R3 B5 B6 B7 K9 K10 K11 Y7 Y8 Y9 Y10"


def test_hard_bot_takes_the_left_discard_that_finishes_and_finishes():
    s = left_discarded(WIN13 + " K1", "Y11")
    assert bot_moves(s, 1, "hard") == [TakeDiscard(1), Finish(1, T("K1"))]


def test_hard_bot_takes_a_left_tile_that_completes_a_meld():
    # Y9 makes Y7 Y8 Y9: three more tiles in melds, a sure step where a draw is a gamble
    s = left_discarded("R1 R2 R3 B5 B6 B7 K9 K10 K11 Y7 Y8 R10 K4 B12", "Y9")
    moves = bot_moves(s, 1, "hard")
    assert moves[0] == TakeDiscard(1)
    assert isinstance(moves[1], Discard) and moves[1].tile in parse_tiles("R10 K4 B12")


def test_hard_bot_takes_a_left_okey():
    s = left_discarded("R1 R2 R3 B5 B6 B7 K9 K10 K11 Y7 Y8 R10 K4 B12", "Y5")
    assert bot_moves(s, 1, "hard")[0] == TakeDiscard(1)


def test_hard_bot_draws_when_the_left_tile_joins_nothing():
    s = left_discarded("R1 R2 R3 B5 B6 B7 K9 K10 K11 Y7 Y8 R10 K4 B12", "Y2", stock_top="B1")
    assert bot_moves(s, 1, "hard")[0] == Draw(1)


def test_hard_bot_never_throws_the_okey_without_finishing():
    # the okey (Y5, indicator Y4) could stand anywhere: every other tile goes first
    rack = "R1 R2 R3 B5 B6 B7 K9 K11 Y7 Y9 R10 K4 B12 R6 Y5"
    s = make_hand([rack, None, None, None], "Y4")
    moves = bot_moves(s, 0, "hard")
    assert len(moves) == 1 and isinstance(moves[0], Discard) and moves[0].tile != T("Y5")


@settings(PLAY)
@given(
    seed=st.binary(min_size=32, max_size=32),
    seats=st.sampled_from([2, 3, 4]),
    esli=st.booleans(),
    pairs_take_indicator=st.booleans(),
    rnd_seed=st.integers(0, 2**32 - 1),
)
def test_the_hard_bot_finishes_when_it_can_and_keeps_the_okey_otherwise(
    seed, seats, esli, pairs_take_indicator, rnd_seed
):
    """Every hard turn of a random hand: a rack that can finish once its tile is in finishes,
    with the highest factor there is; otherwise the tile thrown is never a real okey while
    another tile may go. Asked twice, the bot plays the same turn (replays rely on it)."""
    rnd = random.Random(rnd_seed)
    mode = {"mode": "esli"} if esli else {"seats": seats}
    options = TableOptions(pairs_take_indicator=pairs_take_indicator, **mode)
    s = deal(seed, options, rnd_seed % options.seats)
    if rnd.random() < 0.5:
        s = hand_with_winner(rnd, options, s.first_seat, rnd.randrange(options.seats))

    def hard(s, seat):
        moves = bot_moves(s, seat, "hard")
        assert bot_moves(s, seat, "hard") == moves
        ready = apply_all(s, moves[:-1])
        taken = ready.drawn_from_left
        if any(isinstance(m, TakeIndicator) for m in moves):
            taken = ready.indicator
        assert_finished_or_kept_the_okey(ready, seat, moves[-1], taken)
        return moves

    played_with_random_moves(s, rnd, 0.4, hard)


def test_the_estimate_counts_a_draw_as_finishing_only_when_fourteen_can_finish():
    # four melds of three and R11 R12: R13 puts all 15 in melds, yet no 14 of them finish (five
    # melds of three); B8 to B5 B6 B7 ... B9 does finish
    from games.engine.hard import _FINISHING_OUT, _OUT, _Choice
    from games.engine.melds import rack_key

    s = make_hand(["R1 R2 R3 B5 B6 B7 K9 K10 K11 Y7 Y8 Y9 R11 R12 B9", None, None, None])
    c = _Choice(seat_knowledge(s, 0))
    five_threes = parse_tiles("R1 R2 R3 B5 B6 B7 K9 K10 K11 Y7 Y8 Y9 R11 R12 R13")
    assert not finishes(five_threes, s.okey)
    assert c._out(*rack_key(five_threes, s.okey), 12, 3) == 3 * _OUT
    finishing = parse_tiles("R1 R2 R3 B5 B6 B7 K9 K10 K11 Y7 Y8 Y9 R4 B8 B9")
    assert finishes(finishing, s.okey)
    assert c._out(*rack_key(finishing, s.okey), 13, 2) == _FINISHING_OUT


def _discard_positions(seed, rnd, count):
    """Positions where some seat holds 15 and must throw, from bot-played hands."""
    out = []
    s = deal(seed, TableOptions(), rnd.randrange(4))
    while s.phase != "over" and len(out) < count:
        moves = bot_moves(s, s.turn, rnd.choice(["normal", "hard"]))
        for m in moves:
            if isinstance(m, Discard):
                out.append(s)
            s = hand_apply(s, m)
    return out


@settings(
    PLAY,
    max_examples=15,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.binary(min_size=32, max_size=32), rnd_seed=st.integers(0, 2**32 - 1))
def test_the_hard_throw_is_legal_and_the_same_whatever_the_memos_hold(seed, rnd_seed, monkeypatch):
    """A position gets the same throw with empty memos, with memos full of other racks and
    asked twice: nothing but the position decides, so a review, a hint and a replay agree with
    the turn the bot played."""
    rnd = random.Random(rnd_seed)
    for s in _discard_positions(seed, rnd, 6):
        k = seat_knowledge(s, s.turn)
        warm = hard_throw(k)
        assert warm in k.rack and warm != k.taken_now
        assert warm != k.okey or all(t == k.okey for t in k.rack) or finishes(k.rack, k.okey)
        with monkeypatch.context() as m:
            for module, names in (
                (distance_module, ("_PROFILES", "_GROUPS")),
                (rack_module, ("_COVER",)),
            ):
                for name in names:
                    m.setattr(module, name, Memo(1 << 17))
            assert hard_throw(k) == warm
            assert hard_throw(k) == warm
