"""Property tests: random legal hands, from real deals and from deals with a winner in them.

Invariants checked after every move: all 106 tiles are somewhere; rack sizes are as the turn
says; the state survives its dict form; at the end the move log replays to the same state and
the seed rebuilds the deal; a finished hand scores exactly as docs/rules.md's table says.
"""

import random
from collections import Counter

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

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
    can_pairs,
    commitment,
    deal,
    game_apply_hand,
    game_new,
    hand_apply,
    hand_from_dict,
    hand_replay,
    hand_to_dict,
    legal_moves,
    verify_deal,
)
from games.engine.tiles import colour_of, full_set

from ._hands import all_tiles, hand_with_winner, random_move

FULL = Counter(full_set())
FACTOR = {"normal": 1, "okey": 2, "pairs": 2, "pairs+okey": 4}

options_st = st.builds(
    TableOptions,
    seats=st.sampled_from([2, 3, 4]),
    colour_doubling=st.booleans(),
    indicator_bonus=st.booleans(),
    pairs_take_indicator=st.booleans(),
)
esli_st = st.builds(
    TableOptions,
    mode=st.just("esli"),
    colour_doubling=st.booleans(),
    indicator_bonus=st.booleans(),
    pairs_take_indicator=st.booleans(),
)
any_options = st.one_of(options_st, esli_st)
PROPS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_invariants(before, s, move):
    assert all_tiles(s) == FULL
    assert s.seq == before.seq + 1
    assert hand_from_dict(hand_to_dict(s)) == s
    for seat, rack in enumerate(s.racks):
        holding = s.phase == "discard" and seat == s.turn
        finished = s.result is not None and s.result.finisher == seat
        assert len(rack) == (15 if holding and not finished else 14)
    if s.phase == "draw":
        assert s.stock, "a player draws only while there is a stock"


def check_scoring(s):
    r = s.result
    n, o = s.n, s.options
    event(f"hand: {'void' if r.void else r.kind}{', shown' if s.shown_by is not None else ''}")
    if s.indicator_taken_by is not None:
        event("indicator taken")
    if r.void:
        assert r.deltas == (0,) * n and r.finisher is None
        return
    colour = 2 if o.colour_doubling and colour_of(s.indicator) in (0, 3) else 1
    assert ("okey" in r.kind) == (r.tile == s.okey)
    assert r.kind.startswith("pairs") == can_pairs(s.racks[r.finisher], s.okey)
    assert r.value == 2 * colour * FACTOR[r.kind]
    expected = []
    for seat in range(n):
        won = seat == r.finisher or (o.mode == "esli" and seat == (r.finisher + 2) % 4)
        d = -r.value if won else r.value
        if seat == s.shown_by:
            d -= colour
        expected.append(d)
    assert r.deltas == tuple(expected)
    assert r.shower == s.shown_by
    assert sorted(t for g in r.groups for t in g) == sorted(s.racks[r.finisher])
    game = game_new(o, s.first_seat)
    after = game_apply_hand(game, r)
    assert after.counts == tuple(c + d for c, d in zip(game.counts, r.deltas, strict=True))


def play_out(s, rnd):
    log = []
    while s.phase != "over":
        move = random_move(s, rnd)
        nxt = hand_apply(s, move)
        check_invariants(s, nxt, move)
        log.append(move)
        s = nxt
    event(f"moves: {len(log) // 50 * 50}+")
    return s, log


@settings(PROPS, max_examples=60)
@given(
    seed=st.binary(min_size=32, max_size=32),
    options=any_options,
    first=st.integers(0, 3),
    rnd_seed=st.integers(0, 2**32 - 1),
)
def test_random_hands_from_real_deals(seed, options, first, rnd_seed):
    rnd = random.Random(rnd_seed)
    first %= options.seats
    start = deal(seed, options, first)
    assert all_tiles(start) == FULL
    assert deal(seed, options, first) == start
    end, log = play_out(start, rnd)
    check_scoring(end)
    assert hand_replay(seed, options, first, log) == end
    assert verify_deal(seed, commitment(seed), end, log)
    assert verify_deal(seed, commitment(seed), end)


@settings(PROPS, max_examples=300)
@given(
    options=any_options,
    first=st.integers(0, 3),
    winner=st.integers(0, 3),
    rnd_seed=st.integers(0, 2**32 - 1),
)
def test_random_hands_with_a_winner_score_by_the_table(options, first, winner, rnd_seed):
    rnd = random.Random(rnd_seed)
    s = hand_with_winner(rnd, options, first % options.seats, winner % options.seats)
    end, _ = play_out(s, rnd)
    check_scoring(end)


def brute_legal(s):
    """legal_moves by trying every move there could be, with every face."""
    out = set()
    for seat in range(s.n):
        tries = [Draw, TakeDiscard, ShowIndicator, DeclarePairs, TakeIndicator]
        moves = [cls(seat) for cls in tries]
        moves += [cls(seat, f) for cls in (Discard, Finish) for f in range(53)]
        for m in moves:
            try:
                hand_apply(s, m)
            except IllegalMove:
                continue
            out.add(m)
    return out


@settings(PROPS, max_examples=40)
@given(
    options=any_options,
    first=st.integers(0, 3),
    winner=st.integers(0, 3),
    rnd_seed=st.integers(0, 2**32 - 1),
)
def test_legal_moves_are_exactly_the_moves_that_apply(options, first, winner, rnd_seed):
    rnd = random.Random(rnd_seed)
    s = hand_with_winner(rnd, options, first % options.seats, winner % options.seats)
    for step in range(60):
        if step % 3 == 0:
            listed = {m for seat in range(s.n) for m in legal_moves(s, seat)}
            assert listed == brute_legal(s)
        if s.phase == "over":
            break
        s = hand_apply(s, random_move(s, rnd))
