"""The state of one hand and its result, and their JSON-safe form for the database.

Tiles inside the state are faces (ints, see tiles.py). In the dict form every tile is written in
notation (``"R7"``, ``"F"``), and so is every tile in moves and views: one convention at every
edge, readable in the admin and in logs. ``hand_from_dict(hand_to_dict(s)) == s`` always.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .options import RuleOptions
from .tiles import format_tile, parse_tile

PHASES = ("draw", "discard", "over")


@dataclass(frozen=True)
class HandResult:
    """How a hand ended. ``deltas`` is the count change per seat (negative is good)."""

    void: bool
    finisher: int | None = None
    kind: str | None = None  # "normal" | "okey" | "pairs" | "pairs+okey"
    value: int = 0  # V of the finish
    shower: int | None = None  # who showed the indicator this hand, if anyone
    deltas: tuple[int, ...] = ()
    groups: tuple[tuple[int, ...], ...] = ()  # the finisher's 14 tiles split for display
    tile: int | None = None  # the tile put on the indicator


@dataclass(frozen=True)
class HandState:
    options: RuleOptions
    n: int
    first_seat: int
    indicator: int
    okey: int
    stock: tuple[int, ...]  # the top, drawn next, is the last element
    racks: tuple[tuple[int, ...], ...]
    discards: tuple[tuple[int, ...], ...]  # per seat, newest last
    turn: int
    phase: str  # "draw" | "discard" | "over"
    drawn: int | None = None  # the tile drawn or taken this turn
    drawn_from_left: int | None = None  # set when it came from the left pile
    last_discarder: int | None = None  # whose pile top was discarded on the previous turn
    played: tuple[bool, ...] = ()  # seats that have ended at least one turn
    shown_by: int | None = None
    pairs_declared: tuple[int, ...] = ()  # seats, in the order they declared
    indicator_taken_by: int | None = None
    # tiles taken from a pile, each (the pile's seat, its place among all that seat threw, tile):
    # the discard history that "çifte git" makes public shows them too, as taken
    taken: tuple[tuple[int, int, int], ...] = ()
    seq: int = 0  # moves applied since the deal
    result: HandResult | None = None

    @property
    def over(self) -> bool:
        return self.phase == "over"


def discard_history(state: HandState, seat: int) -> tuple[tuple[int, bool], ...]:
    """Every tile ``seat`` has thrown this hand, oldest first, each with whether the next player
    took it."""
    taken = {place: t for s, place, t in state.taken if s == seat}
    pile = iter(state.discards[seat])
    size = len(state.discards[seat]) + len(taken)
    return tuple((taken[i], True) if i in taken else (next(pile), False) for i in range(size))


def tiles_out(faces: tuple[int, ...]) -> list[str]:
    return [format_tile(f) for f in faces]


def tiles_in(texts: list[str]) -> tuple[int, ...]:
    return tuple(parse_tile(t) for t in texts)


def opt_tile_out(f: int | None) -> str | None:
    return None if f is None else format_tile(f)


def opt_tile_in(t: str | None) -> int | None:
    return None if t is None else parse_tile(t)


def result_to_dict(r: HandResult) -> dict[str, Any]:
    return {
        "void": r.void,
        "finisher": r.finisher,
        "kind": r.kind,
        "value": r.value,
        "shower": r.shower,
        "deltas": list(r.deltas),
        "groups": [tiles_out(g) for g in r.groups],
        "tile": opt_tile_out(r.tile),
    }


def result_from_dict(d: dict[str, Any]) -> HandResult:
    return HandResult(
        void=d["void"],
        finisher=d["finisher"],
        kind=d["kind"],
        value=d["value"],
        shower=d["shower"],
        deltas=tuple(d["deltas"]),
        groups=tuple(tiles_in(g) for g in d["groups"]),
        tile=opt_tile_in(d["tile"]),
    )


def hand_to_dict(s: HandState) -> dict[str, Any]:
    return {
        "options": s.options.to_dict(),
        "n": s.n,
        "first_seat": s.first_seat,
        "indicator": format_tile(s.indicator),
        "okey": format_tile(s.okey),
        "stock": tiles_out(s.stock),
        "racks": [tiles_out(r) for r in s.racks],
        "discards": [tiles_out(p) for p in s.discards],
        "turn": s.turn,
        "phase": s.phase,
        "drawn": opt_tile_out(s.drawn),
        "drawn_from_left": opt_tile_out(s.drawn_from_left),
        "last_discarder": s.last_discarder,
        "played": list(s.played),
        "shown_by": s.shown_by,
        "pairs_declared": list(s.pairs_declared),
        "indicator_taken_by": s.indicator_taken_by,
        "taken": [[seat, place, format_tile(t)] for seat, place, t in s.taken],
        "seq": s.seq,
        "result": None if s.result is None else result_to_dict(s.result),
    }


def hand_from_dict(d: dict[str, Any]) -> HandState:
    return HandState(
        options=RuleOptions.from_dict(d["options"]),
        n=d["n"],
        first_seat=d["first_seat"],
        indicator=parse_tile(d["indicator"]),
        okey=parse_tile(d["okey"]),
        stock=tiles_in(d["stock"]),
        racks=tuple(tiles_in(r) for r in d["racks"]),
        discards=tuple(tiles_in(p) for p in d["discards"]),
        turn=d["turn"],
        phase=d["phase"],
        drawn=opt_tile_in(d["drawn"]),
        drawn_from_left=opt_tile_in(d["drawn_from_left"]),
        last_discarder=d["last_discarder"],
        played=tuple(d["played"]),
        shown_by=d["shown_by"],
        pairs_declared=tuple(d["pairs_declared"]),
        indicator_taken_by=d["indicator_taken_by"],
        # states stored before takes were kept have none
        taken=tuple((seat, place, parse_tile(t)) for seat, place, t in d.get("taken", ())),
        seq=d["seq"],
        result=None if d["result"] is None else result_from_dict(d["result"]),
    )
