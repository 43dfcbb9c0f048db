"""Putting tiles on the table: the opening (el açmak), further melds and pairs, adding to melds
(işlemek) and taking an okey (docs/rules-101.md, "Opening the hand" to "Taking an okey").

Each rule takes the state and the move and returns the new state or raises IllegalMove.
"""

from __future__ import annotations

from dataclasses import replace

from ..moves import IllegalMove
from .moves import Add, Lay, TakeOkey
from .options import MELDS_THRESHOLD, PAIRS_NEEDED
from .state import Hand101, Result101, set_seat, without
from .table import TableMeld, add_tile, read_meld, read_pair
from .table import take_okey as okey_taken

PAIRS_ADDS = 2  # a pairs opener adds at most two tiles a turn (a taking counts as one)


def threshold(s: Hand101, pairs: bool) -> int:
    """What an opening of that kind needs now: 101 or 5 pairs, or with katlamalı one more than
    the best earlier opening of its kind."""
    base = PAIRS_NEEDED if pairs else MELDS_THRESHOLD
    if not s.options.katlamali:
        return base
    kind = "pairs" if pairs else "melds"
    earlier = [v for o, v in zip(s.opened, s.openings, strict=True) if o == kind]
    return max([base, *(v + 1 for v in earlier)])


def _may_play(s: Hand101) -> None:
    if s.phase != "play":
        raise IllegalMove("must_draw_first", "draw or take a tile first")
    if s.first_turn:
        raise IllegalMove("first_turn_discard", "the first turn is a discard only")
    if s.one_go:
        raise IllegalMove(
            "must_finish", "after an opening under the threshold, discard your last tile"
        )


def _read(s: Hand101, m: Lay) -> list[TableMeld]:
    if len(m.below) > len(m.groups):
        raise IllegalMove("bad_move", "below has more entries than there are groups")
    if m.pairs:
        melds = [read_pair(g, s.okey, m.seat) for g in m.groups]
    else:
        below = (*m.below, *[0] * (len(m.groups) - len(m.below)))
        melds = [read_meld(g, s.okey, m.seat, b) for g, b in zip(m.groups, below, strict=True)]
    if not melds or None in melds:
        what = (
            "a pair (two identical tiles, or an okey and a tile)" if m.pairs else "a run or a set"
        )
        raise IllegalMove("bad_group", f"every group must be {what}")
    return melds


def _check_kind(s: Hand101, m: Lay) -> None:
    mine = s.opened[m.seat]
    if mine == "none" and s.declared[m.seat] and not m.pairs:
        raise IllegalMove("declared_pairs", "you declared pairs: you may open only with pairs")
    if mine == "pairs" and not m.pairs:
        raise IllegalMove("pairs_opener", "a pairs opener lays only pairs")
    if mine == "melds" and m.pairs and "pairs" not in s.opened:
        raise IllegalMove("no_pairs_yet", "you may lay pairs only once someone opened with pairs")


def lay(s: Hand101, m: Lay) -> Hand101:
    _may_play(s)
    _check_kind(s, m)
    melds = _read(s, m)
    rack = without(s.racks[m.seat], (t for g in m.groups for t in g))
    if not rack:
        raise IllegalMove("keep_one", "keep at least one tile to discard")
    laid = [t for g in m.groups for t in g]
    taken = None if s.taken is None or s.taken in laid else s.taken
    worth = len(melds) if m.pairs else sum(x.value for x in melds)
    after = replace(
        s,
        racks=set_seat(s.racks, m.seat, rack),
        table=(*s.table, *melds),
        taken=taken,
    )
    if s.opened[m.seat] == "none":
        return _open(after, m, worth, len(rack))
    # an opening is all of its kind laid in its turn (a melds opener's pairs are not melds)
    if s.opened_now and (s.opened[m.seat] == "pairs") == m.pairs:
        after = replace(after, openings=set_seat(s.openings, m.seat, s.openings[m.seat] + worth))
    return after


def _open(s: Hand101, m: Lay, worth: int, left: int) -> Hand101:
    if s.taken is not None:
        raise IllegalMove(
            "taken_not_laid", "an opening after taking from the left must use that tile"
        )
    one_go = False
    if worth < threshold(s, m.pairs):
        # finishing in one go: all but one tile in melds of one's own, under the threshold
        if m.pairs or left != 1 or s.adds_now:
            need = threshold(s, m.pairs)
            raise IllegalMove(
                "under_threshold",
                f"an opening needs {need}{' pairs' if m.pairs else ''}; this one is {worth}",
            )
        one_go = True
    kind = "pairs" if m.pairs else "melds"
    s = replace(
        s,
        opened=set_seat(s.opened, m.seat, kind),
        openings=set_seat(s.openings, m.seat, worth),
        opened_now=True,
        one_go=one_go,
    )
    if all(o == "pairs" for o in s.opened):
        # el bozulur: nobody scores, the hand is dealt again
        return replace(
            s, phase="over", drawn=None, taken=None, result=Result101(True, scores=(0,) * s.n)
        )
    return s


def _may_add(s: Hand101, seat: int, index: int) -> TableMeld:
    _may_play(s)
    if s.opened[seat] == "none":
        raise IllegalMove("not_opened", "open first: only an opened player adds to the table")
    if s.opened[seat] == "pairs" and s.adds_now >= PAIRS_ADDS:
        raise IllegalMove("pairs_add_limit", "a pairs opener adds at most two tiles a turn")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(s.table):
        raise IllegalMove("no_meld", "there is no such meld on the table")
    return s.table[index]


def _put(
    s: Hand101, seat: int, index: int, meld: TableMeld, rack: tuple[int, ...], tile: int
) -> Hand101:
    return replace(
        s,
        racks=set_seat(s.racks, seat, rack),
        table=set_seat(s.table, index, meld),
        taken=None if s.taken == tile else s.taken,
        adds_now=s.adds_now + 1,
    )


def add(s: Hand101, m: Add) -> Hand101:
    meld = _may_add(s, m.seat, m.meld)
    rack = without(s.racks[m.seat], (m.tile,))
    if not rack:
        raise IllegalMove("keep_one", "keep at least one tile to discard")
    grown = add_tile(meld, m.tile, s.okey, m.high)
    if grown is None:
        raise IllegalMove("does_not_fit", "that tile does not fit that meld")
    return _put(s, m.seat, m.meld, grown, rack, m.tile)


def take_okey(s: Hand101, m: TakeOkey) -> Hand101:
    meld = _may_add(s, m.seat, m.meld)
    rack = without(s.racks[m.seat], (m.tile,))
    swapped = okey_taken(meld, m.tile, s.okey)
    if swapped is None:
        raise IllegalMove("no_okey_for_tile", "no okey in that meld stands for that tile")
    return _put(s, m.seat, m.meld, swapped, (*rack, s.okey), m.tile)
