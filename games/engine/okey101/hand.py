"""A 101 hand: the deal and the moves (docs/rules-101.md, "A turn" to "The stock runs out").

``hand101_apply(state, move)`` returns a new state or raises ``IllegalMove(code, message)``;
the state passed in is never changed. The laying rules (openings, further melds and pairs) are
in laying.py; this module keeps the turn's order: draw or take, play, discard.
"""

from __future__ import annotations

from dataclasses import replace

from ..dealing import deal_racks, turn_indicator
from ..moves import IllegalMove
from ..tiles import okey_of
from .laying import add, lay, take_okey
from .moves import Add, DeclarePairs, Discard, Draw, GiveBack, Lay, Move101, TakeDiscard, TakeOkey
from .options import Options101
from .scoring import SeatEnd, hand_scores
from .state import Hand101, Result101, set_seat, without
from .table import is_islek

FIRST_RACK = 22
RACK = 21


def hand101_deal(seed: bytes, options: Options101, first_seat: int) -> Hand101:
    """22 tiles to ``first_seat``, 21 to each next seat, in consecutive blocks of the wall
    after the indicator is taken out (as Düz Okey deals 15 and 14); the rest is the stock."""
    n = options.seats
    indicator, wall = turn_indicator(seed)
    racks, pos = deal_racks(wall, n, first_seat, FIRST_RACK, RACK)
    return Hand101(
        options=options,
        n=n,
        first_seat=first_seat,
        indicator=indicator,
        okey=okey_of(indicator),
        stock=tuple(wall[pos:]),
        racks=racks,
        discards=((),) * n,
        turn=first_seat,
        phase="play",  # the first player discards without drawing
        opened=("none",) * n,
        openings=(0,) * n,
        declared=(False,) * n,
        penalties=(0,) * n,
    )


def _check_turn(s: Hand101, seat: int) -> None:
    if s.over:
        raise IllegalMove("hand_over", "the hand is over")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < s.n:
        raise IllegalMove("bad_seat", "no such seat")
    if seat != s.turn:
        raise IllegalMove("not_your_turn", "it is not your turn")


def _draw(s: Hand101, m: Draw) -> Hand101:
    if s.phase != "draw":
        raise IllegalMove("already_drawn", "you have drawn this turn")
    tile = s.stock[-1]
    rack = (*s.racks[m.seat], tile)
    return replace(
        s, stock=s.stock[:-1], racks=set_seat(s.racks, m.seat, rack), phase="play", drawn=tile
    )


def _take(s: Hand101, m: TakeDiscard) -> Hand101:
    if s.phase != "draw":
        raise IllegalMove("already_drawn", "you have drawn this turn")
    left = (m.seat - 1) % s.n
    if not s.discards[left]:
        raise IllegalMove("nothing_to_take", "there is no tile on the left to take")
    tile = s.discards[left][-1]
    return replace(
        s,
        discards=set_seat(s.discards, left, s.discards[left][:-1]),
        racks=set_seat(s.racks, m.seat, (*s.racks[m.seat], tile)),
        phase="play",
        drawn=tile,
        taken=tile,
    )


def _give_back(s: Hand101, m: GiveBack) -> Hand101:
    if s.taken is None:
        raise IllegalMove(
            "nothing_to_give_back", "you have no tile taken from the left to give back"
        )
    left = (m.seat - 1) % s.n
    rack = without(s.racks[m.seat], (s.taken,))
    back = replace(
        s,
        discards=set_seat(s.discards, left, (*s.discards[left], s.taken)),
        racks=set_seat(s.racks, m.seat, rack),
        phase="draw",
        drawn=None,
        taken=None,
    )
    return _draw(back, Draw(m.seat))


def _declare(s: Hand101, m: DeclarePairs) -> Hand101:
    if s.opened[m.seat] != "none":
        raise IllegalMove("already_opened", "you have opened: declaring pairs is before opening")
    if s.declared[m.seat]:
        raise IllegalMove("already_declared", "you have declared pairs")
    return replace(s, declared=set_seat(s.declared, m.seat, True))


def _discard(s: Hand101, m: Discard) -> Hand101:
    if s.phase != "play":
        raise IllegalMove("must_draw_first", "draw or take a tile first")
    if s.taken is not None:
        raise IllegalMove(
            "taken_not_laid",
            "the tile taken from the left must go to the table first (or give it back)",
        )
    rack = without(s.racks[m.seat], (m.tile,))
    if not rack:
        return _finish(s, m.seat, m.tile)
    if s.one_go:
        raise IllegalMove("must_finish", "an opening under the threshold must finish this turn")
    penalties = s.penalties
    if is_islek(m.tile, s.table, s.okey):
        penalties = set_seat(penalties, m.seat, penalties[m.seat] + 1)
    after = replace(
        s,
        racks=set_seat(s.racks, m.seat, rack),
        discards=set_seat(s.discards, m.seat, (*s.discards[m.seat], m.tile)),
        penalties=penalties,
    )
    if not s.stock:
        return _end(after, None, None)
    return replace(
        after,
        turn=(m.seat + 1) % s.n,
        phase="draw",
        first_turn=False,
        drawn=None,
        opened_now=False,
        adds_now=0,
    )


def _finish(s: Hand101, seat: int, tile: int) -> Hand101:
    if s.first_turn:
        raise IllegalMove("first_turn_discard", "the first turn is a discard only")
    done = replace(
        s,
        racks=set_seat(s.racks, seat, ()),
        discards=set_seat(s.discards, seat, (*s.discards[seat], tile)),
    )
    return _end(done, seat, tile)


def seat_ends(s: Hand101) -> list[SeatEnd]:
    return [SeatEnd(s.opened[i], s.racks[i], s.declared[i], s.penalties[i]) for i in range(s.n)]


def _end(s: Hand101, finisher: int | None, last: int | None) -> Hand101:
    m, scores = hand_scores(seat_ends(s), s.okey, finisher, last, s.opened_now, s.options.esli)
    result = Result101(False, finisher, last, m, scores)
    return replace(s, phase="over", drawn=None, taken=None, result=result)


_APPLY = {
    Draw: _draw,
    TakeDiscard: _take,
    GiveBack: _give_back,
    DeclarePairs: _declare,
    Lay: lay,
    Add: add,
    TakeOkey: take_okey,
    Discard: _discard,
}


def hand101_apply(state: Hand101, move: Move101) -> Hand101:
    rule = _APPLY.get(type(move))
    if rule is None:
        raise IllegalMove("bad_move", "not a 101 move")
    _check_turn(state, move.seat)
    if isinstance(move, Draw) and not state.stock:
        raise IllegalMove("stock_empty", "the stock is empty")
    return replace(rule(state, move), seq=state.seq + 1)


def hand101_void(state: Hand101) -> Hand101:
    """The hand over as void, as if every player had opened with pairs: nobody scores (staff
    stop a hand this way, or the last person leaving the game). Racks, table, piles and stock
    stay as they are; not a move: ``seq`` does not change."""
    if state.over:
        raise IllegalMove("hand_over", "the hand is over")
    result = Result101(True, scores=(0,) * state.n)
    return replace(state, phase="over", drawn=None, taken=None, result=result)


def legal_kinds101(s: Hand101, seat: int) -> set[str]:
    """The kinds of move ``seat`` may make now (a kind listed may still be refused for the
    tiles chosen)."""
    if s.over or seat != s.turn:
        return set()
    kinds = set()
    if s.opened[seat] == "none" and not s.declared[seat]:
        kinds.add("pairs")
    if s.phase == "draw":
        kinds.add("draw")
        if s.discards[(seat - 1) % s.n]:
            kinds.add("take")
        return kinds
    kinds.add("discard" if s.taken is None else "give_back")
    if not s.first_turn and not s.one_go:
        kinds.add("lay")
        if s.opened[seat] != "none" and s.table:
            kinds.update(("add", "take_okey"))
    return kinds
