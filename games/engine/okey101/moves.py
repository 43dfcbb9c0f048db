"""The moves of a 101 turn and their dict form (for the move log and the socket).

``{"kind": ..., "seat": int}`` plus, by kind: "discard", "add", "take_okey": ``"tile"``;
"lay": ``"groups"`` (lists of tiles) and ``"pairs"`` (true for pairs); "add" and "take_okey":
``"meld"`` (its index on the table); "add": ``"high"`` (where an okey goes on a run); "lay",
optionally: ``"below"`` (per group, the okeys a run gets under its lowest real tile). A refused
move raises the engine's ``IllegalMove(code, message)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Draw, take, declare pairs and discard are the moves of Düz Okey, the same dataclasses
from ..moves import DeclarePairs, Discard, Draw, IllegalMove, TakeDiscard
from ..tiles import TileError, format_tile, parse_tile


@dataclass(frozen=True)
class GiveBack:
    """Put the tile taken from the left back on the left pile and draw from the stock (geri bırakmak)."""

    seat: int


@dataclass(frozen=True)
class Lay:
    """Lay groups on the table: the opening if the seat has not opened, else further melds or
    pairs. ``pairs`` says which the groups are. ``below``, per group, how many of a run's okeys
    that fill no gap go under its lowest real tile (the rest above, the default)."""

    seat: int
    groups: tuple[tuple[int, ...], ...]
    pairs: bool = False
    below: tuple[int, ...] = ()


@dataclass(frozen=True)
class Add:
    """Add a tile to the meld at index ``meld`` on the table (işlemek)."""

    seat: int
    meld: int
    tile: int
    high: bool = True


@dataclass(frozen=True)
class TakeOkey:
    """Put ``tile`` in the place of an okey in meld ``meld`` and take the okey."""

    seat: int
    meld: int
    tile: int


Move101 = Draw | TakeDiscard | GiveBack | DeclarePairs | Lay | Add | TakeOkey | Discard

KINDS: dict[str, type] = {
    "draw": Draw,
    "take": TakeDiscard,
    "give_back": GiveBack,
    "pairs": DeclarePairs,
    "lay": Lay,
    "add": Add,
    "take_okey": TakeOkey,
    "discard": Discard,
}
_KIND_OF = {cls: kind for kind, cls in KINDS.items()}
_FIELDS = {
    Lay: {"groups", "pairs", "below"},
    Add: {"meld", "tile", "high"},
    TakeOkey: {"meld", "tile"},
    Discard: {"tile"},
}


def move_kind(m: Move101) -> str:
    return _KIND_OF[type(m)]


def move_to_dict(m: Move101) -> dict[str, Any]:
    d: dict[str, Any] = {"kind": move_kind(m), "seat": m.seat}
    if isinstance(m, Lay):
        d["groups"] = [[format_tile(t) for t in g] for g in m.groups]
        d["pairs"] = m.pairs
        if m.below:
            d["below"] = list(m.below)
    if isinstance(m, Add | TakeOkey):
        d["meld"] = m.meld
    if isinstance(m, Add | TakeOkey | Discard):
        d["tile"] = format_tile(m.tile)
    if isinstance(m, Add):
        d["high"] = m.high
    return d


def _whole(d: dict, name: str) -> int:
    value = d.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalMove("bad_move", f"a move's {name} must be a whole number")
    return value


def _tile(text: Any) -> int:
    if not isinstance(text, str):
        raise IllegalMove("bad_move", "a tile is written like R7 or F")
    try:
        return parse_tile(text)
    except TileError as e:
        raise IllegalMove("bad_tile", str(e)) from None


def _groups(raw: Any) -> tuple[tuple[int, ...], ...]:
    if not isinstance(raw, list) or not raw or not all(isinstance(g, list) for g in raw):
        raise IllegalMove("bad_move", "groups must be a list of lists of tiles")
    return tuple(tuple(_tile(t) for t in g) for g in raw)


def move_from_dict(d: Any) -> Move101:
    if not isinstance(d, dict):
        raise IllegalMove("bad_move", "a move must be an object with a kind and a seat")
    cls = KINDS.get(d.get("kind")) if isinstance(d.get("kind"), str) else None
    if cls is None:
        raise IllegalMove("bad_move", f"unknown 101 move kind: use one of {', '.join(KINDS)}")
    extra = sorted(set(d) - {"kind", "seat"} - _FIELDS.get(cls, set()))
    if extra:
        raise IllegalMove("bad_move", f"a {d['kind']} move has no {', '.join(extra)}")
    seat = _whole(d, "seat")
    if cls is Lay:
        pairs = d.get("pairs", False)
        if not isinstance(pairs, bool):
            raise IllegalMove("bad_move", "pairs must be true or false")
        below = d.get("below", [])
        if not isinstance(below, list) or not all(
            isinstance(b, int) and not isinstance(b, bool) and b >= 0 for b in below
        ):
            raise IllegalMove("bad_move", "below must be a list of whole numbers, one a group")
        return Lay(seat, _groups(d.get("groups")), pairs, tuple(below))
    if cls is Add:
        high = d.get("high", True)
        if not isinstance(high, bool):
            raise IllegalMove("bad_move", "high must be true or false")
        return Add(seat, _whole(d, "meld"), _tile(d.get("tile")), high)
    if cls is TakeOkey:
        return TakeOkey(seat, _whole(d, "meld"), _tile(d.get("tile")))
    if cls is Discard:
        return Discard(seat, _tile(d.get("tile")))
    return cls(seat)
