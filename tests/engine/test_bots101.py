"""101's timeout play and bots on set positions (docs/rules-101.md, "Timeouts")."""

from __future__ import annotations

import random
from dataclasses import replace

from games.engine import variant
from games.engine.okey101.autoplay import auto101_moves
from games.engine.okey101.bots import bot101_moves
from games.engine.okey101.hand import hand101_deal
from games.engine.okey101.moves import Discard, Draw, GiveBack, Lay, TakeDiscard
from games.engine.okey101.options import Options101
from games.engine.okey101.table import read_meld
from tests.engine.test_hand101 import RACK101, SEED, T, apply, hand


def test_the_timeout_gives_back_draws_and_throws_the_drawn_tile_if_safe():
    s = hand(["R1", RACK101], turn=1, phase="draw", discards=((T("Y3"),), (), (), ()))
    s = apply(replace(s, stock=(T("K12"), T("B2"))), TakeDiscard(1))
    assert auto101_moves(s, 1) == [GiveBack(1), Discard(1, T("B2"))]


def test_the_timeout_throws_neither_an_okey_nor_an_islek_tile_while_it_has_another():
    run = read_meld((T("R5"), T("R6"), T("R7")), T("Y5"), 1)
    s = hand(["Y5 R8 K13 B2"], table=(run,), phase="draw", stock=(T("Y5"),))
    moves = auto101_moves(s, 0)
    assert moves == [Draw(0), Discard(0, T("K13"))]  # the okey drawn and R8 (işlek) stay


def test_the_first_player_only_discards_the_highest_safe_tile():
    s = hand101_deal(SEED, Options101(), 0)
    moves = bot101_moves(s, 0, "easy")
    assert moves == auto101_moves(s, 0) and len(moves) == 1 and isinstance(moves[0], Discard)
    highest = max(n % 13 for n in s.racks[0] if n not in (s.okey, 52))
    assert moves[0].tile % 13 == highest


def test_both_bots_open_when_they_can_and_then_throw_safely():
    for strength in ("normal", "easy"):
        s = hand([RACK101 + " R9"], phase="draw", stock=(T("K12"), T("B5")))
        moves = bot101_moves(s, 0, strength)
        lays = [m for m in moves if isinstance(m, Lay)]
        after = apply(s, *moves)
        assert lays and after.opened[0] == "melds" and after.openings[0] >= 101
        assert after.penalties[0] == 0 and after.turn == 1


def test_a_bot_handed_a_turn_after_a_take_it_did_not_make_plays_on():
    """A player who took from the left and then left (or whose seat a bot took over): the bot
    finishes the turn, laying the tile or giving it back (issue 44: the case that raised)."""
    v = variant("101")
    s = v.deal(bytes([10]) * 32, v.make_options(), 0)
    for m in v.bot_moves(s, 0, "normal"):
        s = v.apply(s, m)
    s = v.apply(s, TakeDiscard(1))
    for m in v.bot_moves(s, 1, "normal"):
        s = v.apply(s, m)
    assert s.turn == 2 and s.taken is None
    # and in whole hands where a third of the takes are somebody else's
    for k in range(120):
        rng = random.Random(k)
        s = v.deal(rng.randbytes(32), v.make_options(), k % 4)
        while not s.over:
            seat = s.turn
            if s.phase == "draw" and s.discards[(seat - 1) % s.n] and rng.random() < 0.3:
                s = v.apply(s, TakeDiscard(seat))
            for m in v.bot_moves(s, seat, rng.choice(["normal", "easy"])):
                s = v.apply(s, m)
