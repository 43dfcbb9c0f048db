"""The 101 normal bot over many seeded hands (issue 44: bots worth playing): every move it
returns is legal, it opens once its best opening reaches the threshold, it adds what it can to
the table, it throws neither an işlek tile nor the okey while it has another tile to throw, and
it plays on from a turn handed to it part-way. Kept cheap: a few seconds."""

from __future__ import annotations

import random

from games.engine.okey101.bots import bot101_moves
from games.engine.okey101.hand import hand101_apply, hand101_deal
from games.engine.okey101.laying import threshold
from games.engine.okey101.moves import Add, Discard, Draw, TakeDiscard
from games.engine.okey101.opening import open_value
from games.engine.okey101.options import Options101
from games.engine.okey101.table import add_tile, is_islek, read_meld, take_okey
from tests.engine.test_hand101 import T, apply, hand

HANDS = 25


def _discard_checked(s, seat: int, tile: int) -> None:
    """A discard that is not the finish: no işlek tile or okey while another tile is safe, and
    for a melds opener, nothing left that fits the table."""
    rack = s.racks[seat]
    if len(rack) == 1:
        return
    costly = {t for t in rack if is_islek(t, s.table, s.okey)}  # the okey is always işlek
    assert tile not in costly or costly == set(rack), (rack, tile)
    if s.opened[seat] == "melds":
        for t in set(rack):
            fits = any(add_tile(x, t, s.okey) or take_okey(x, t, s.okey) for x in s.table)
            assert not fits, (rack, t)


def _checked_turn(s):
    """The bot's turn at ``s``, each move applied (a refused move raises) and checked; returns
    the state after it."""
    seat = s.turn
    moves = bot101_moves(s, seat, "normal")
    assert moves == bot101_moves(s, seat, "normal")  # the same state, the same turn
    was = s.opened[seat]
    could_open = False
    for m in moves:
        if isinstance(m, Discard):
            _discard_checked(s, seat, m.tile)
        s = hand101_apply(s, m)
        if isinstance(m, Draw | TakeDiscard) and s.opened[seat] == "none" and not s.first_turn:
            could_open = open_value(s.racks[seat], s.okey) >= threshold(s, False)
            could_open = could_open and not s.declared[seat] and s.taken is None
    assert isinstance(moves[-1], Discard) or s.over
    if was == "none" and could_open:
        assert s.opened[seat] != "none" or (s.over and s.result.void), moves
    return s


def hand101_after(s, moves):
    for m in moves:
        s = hand101_apply(s, m)
    return s


def _seeded_hands(seed: int) -> tuple[int, int]:
    """HANDS hands of four normal bots, every turn checked: (hands finished, openings)."""
    rng = random.Random(seed)
    finished = openings = 0
    for h in range(HANDS):
        s = hand101_deal(rng.randbytes(32), Options101(), h % 4)
        while not s.over:
            seat, before = s.turn, s.opened[s.turn]
            s = _checked_turn(s)
            openings += before == "none" and s.opened[seat] != "none"
        finished += s.result.finisher is not None
    return finished, openings


def test_the_normal_bot_plays_legal_moves_and_keeps_its_rules_over_seeded_hands():
    finished, openings = _seeded_hands(44)
    assert finished and openings  # bots that never open would pass everything above


def test_a_bot_handed_a_turn_part_way_plays_on():
    """Seat 1 took from the left and left (or a bot took its seat): its bot finishes the turn
    (issue 44's case: deal bytes([10]) * 32, seat 0's bot plays, seat 1 takes)."""
    s = hand101_deal(bytes([10]) * 32, Options101(), 0)
    s = hand101_after(s, bot101_moves(s, 0, "normal"))
    s = hand101_apply(s, TakeDiscard(1))
    moves = bot101_moves(s, 1, "normal")
    s = hand101_after(s, moves)
    assert s.turn == 2 and s.taken is None and isinstance(moves[-1], Discard)
    # and part-way after other moves of the turn: each prefix of a bot's turn, played on
    rng = random.Random(7)
    for h in range(12):
        s = hand101_deal(rng.randbytes(32), Options101(), h % 4)
        while not s.over:
            moves = bot101_moves(s, s.turn, "normal")
            cut = rng.randrange(len(moves))
            s = hand101_after(s, moves[:cut])
            seat = s.turn
            s = hand101_after(s, bot101_moves(s, seat, "normal"))
            assert s.over or s.turn != seat


def test_the_bot_opens_once_its_best_opening_reaches_the_threshold():
    # _checked_turn asserts it; most seats of most hands open
    finished, openings = _seeded_hands(101)
    assert openings >= 2 * HANDS


def test_the_bot_adds_its_tiles_to_the_table_and_finishes_with_the_okey_if_it_can():
    okey = T("Y5")
    run = read_meld((T("R5"), T("R6"), T("R7")), okey, 1)
    group = read_meld((T("K9"), T("B9"), T("R9")), okey, 2)
    table = dict(table=(run, group), opened=("melds", "melds", "melds", "none"))
    # R4 drawn: R4 and R8 on the run, Y9 on the set, the okey anywhere, K12 the last tile
    s = hand(["R8 Y9 Y5 K12", "R1", "R2", "R3"], phase="draw", stock=(T("B2"), T("R4")), **table)
    moves = bot101_moves(s, 0, "normal")
    assert moves[0] == Draw(0) and moves[-1] == Discard(0, T("K12"))
    assert sum(isinstance(m, Add) for m in moves) == 4
    after = apply(s, *moves)
    assert after.result.finisher == 0 and after.result.multiplier == 1
    # with R4 instead of K12 everything real goes on the table and the okey finishes: ×2
    s = hand(["R8 Y9 Y5 R4", "R1", "R2", "R3"], **table)
    moves = bot101_moves(s, 0, "normal")
    after = apply(s, *moves)
    assert moves[-1] == Discard(0, okey) and after.result.finisher == 0
    assert after.result.multiplier == 2 and after.penalties[0] == 0


def test_the_bot_keeps_a_tile_of_a_long_meld_to_finish_with():
    # every tile makes a meld: a whole group kept back would leave no finish this turn
    s = hand(["R1 R2 R3 R4 K9 B9 Y9 Y11 Y12 Y13", "R1", "R2", "R3"], opened=("melds",) * 4)
    moves = bot101_moves(s, 0, "normal")
    after = apply(s, *moves)
    assert after.result.finisher == 0, moves


def test_the_bot_throws_the_loose_tile_not_one_of_its_melds():
    # unopened: R1 R2 R3 and the blacks are melds, K1 has no partner: K1 goes
    s = hand(["R1 R2 R3 K11 K12 K13 B7 Y7 R7 K1 Y12 Y13"])
    assert bot101_moves(s, 0, "normal")[-1] == Discard(0, T("K1"))
