"""The state of one 101 hand and its result, and their JSON-safe form (tiles in notation).

``hand101_from_dict(hand101_to_dict(s)) == s`` always. Per-seat tuples are indexed by seat;
the ``*_now`` fields describe the turn of the player to move and are reset when it ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..moves import IllegalMove
from ..state import opt_tile_in, opt_tile_out, tiles_in, tiles_out
from ..tiles import format_tile, parse_tile
from .options import Options101
from .table import TableMeld

PHASES = ("draw", "play", "over")


@dataclass(frozen=True)
class Result101:
    """How a hand ended: void (every player opened with pairs), a finish, or the stock out."""

    void: bool
    finisher: int | None = None
    last: int | None = None  # the finishing discard
    multiplier: int = 1
    scores: tuple[int, ...] = ()  # hand score per seat, lower is better


@dataclass(frozen=True)
class Hand101:
    options: Options101
    n: int
    first_seat: int
    indicator: int
    okey: int
    stock: tuple[int, ...]  # the top, drawn next, is the last element
    racks: tuple[tuple[int, ...], ...]
    discards: tuple[tuple[int, ...], ...]  # per seat, newest last
    turn: int
    phase: str  # "draw" | "play" | "over"
    table: tuple[TableMeld, ...] = ()
    opened: tuple[str, ...] = ()  # per seat: "none" | "melds" | "pairs"
    openings: tuple[int, ...] = ()  # per seat: the opening's value, or its pairs
    declared: tuple[bool, ...] = ()  # per seat: declared pairs
    penalties: tuple[int, ...] = ()  # per seat: +101 events
    first_turn: bool = True  # the first player's first turn: discard only
    drawn: int | None = None  # the tile drawn or taken this turn
    taken: int | None = None  # the tile taken from the left, until it is on the table
    opened_now: bool = False
    adds_now: int = 0  # additions and okey takings this turn
    one_go: bool = False  # opened below the threshold: finishing in one go
    seq: int = 0
    result: Result101 | None = None

    @property
    def over(self) -> bool:
        return self.phase == "over"


def set_seat(values: tuple, seat: int, value) -> tuple:
    """A per-seat tuple with one seat's value replaced."""
    return (*values[:seat], value, *values[seat + 1 :])


def without(rack: tuple[int, ...], tiles) -> tuple[int, ...]:
    """The rack without the tiles (one copy each); IllegalMove if one is not there."""
    left = list(rack)
    for t in tiles:
        if t not in left:
            raise IllegalMove("tile_not_in_rack", "that tile is not in your rack")
        left.remove(t)
    return tuple(left)


def _meld_out(m: TableMeld) -> dict[str, Any]:
    return {
        "owner": m.owner,
        "kind": m.kind,
        "tiles": tiles_out(m.tiles),
        "stands": tiles_out(m.stands),
    }


def _meld_in(d: dict[str, Any]) -> TableMeld:
    return TableMeld(d["owner"], d["kind"], tiles_in(d["tiles"]), tiles_in(d["stands"]))


def result101_to_dict(r: Result101) -> dict[str, Any]:
    return {
        "void": r.void,
        "finisher": r.finisher,
        "last": opt_tile_out(r.last),
        "multiplier": r.multiplier,
        "scores": list(r.scores),
    }


def result101_from_dict(d: dict[str, Any]) -> Result101:
    return Result101(
        d["void"], d["finisher"], opt_tile_in(d["last"]), d["multiplier"], tuple(d["scores"])
    )


_PLAIN = ("n", "first_seat", "turn", "phase", "first_turn", "opened_now")
_MORE = ("adds_now", "one_go", "seq")


def hand101_to_dict(s: Hand101) -> dict[str, Any]:
    return {
        "options": s.options.to_dict(),
        **{name: getattr(s, name) for name in (*_PLAIN, *_MORE)},
        "indicator": format_tile(s.indicator),
        "okey": format_tile(s.okey),
        "stock": tiles_out(s.stock),
        "racks": [tiles_out(r) for r in s.racks],
        "discards": [tiles_out(p) for p in s.discards],
        "table": [_meld_out(m) for m in s.table],
        "opened": list(s.opened),
        "openings": list(s.openings),
        "declared": list(s.declared),
        "penalties": list(s.penalties),
        "drawn": opt_tile_out(s.drawn),
        "taken": opt_tile_out(s.taken),
        "result": None if s.result is None else result101_to_dict(s.result),
    }


def hand101_from_dict(d: dict[str, Any]) -> Hand101:
    return Hand101(
        options=Options101.from_dict(d["options"]),
        **{name: d[name] for name in (*_PLAIN, *_MORE)},
        indicator=parse_tile(d["indicator"]),
        okey=parse_tile(d["okey"]),
        stock=tiles_in(d["stock"]),
        racks=tuple(tiles_in(r) for r in d["racks"]),
        discards=tuple(tiles_in(p) for p in d["discards"]),
        table=tuple(_meld_in(m) for m in d["table"]),
        opened=tuple(d["opened"]),
        openings=tuple(d["openings"]),
        declared=tuple(d["declared"]),
        penalties=tuple(d["penalties"]),
        drawn=opt_tile_in(d["drawn"]),
        taken=opt_tile_in(d["taken"]),
        result=None if d["result"] is None else result101_from_dict(d["result"]),
    )
