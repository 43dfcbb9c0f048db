"""The moves a player can make in a hand, and the typed error for one that is not allowed.

In dict form (for the move log and the socket) a move is
``{"kind": "draw"|"take"|"discard"|"finish"|"show"|"pairs"|"take_indicator", "seat": int}``
plus ``"tile": "R7"`` for "discard" and "finish". Tiles are always notation strings there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .tiles import TileError, format_tile, parse_tile


class IllegalMove(ValueError):
    """A move the rules do not allow now. ``code`` is a short slug for programs."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalMove({self.code!r}, {self.message!r})"


@dataclass(frozen=True)
class Draw:
    """Draw the top of the stock."""

    seat: int


@dataclass(frozen=True)
class TakeDiscard:
    """Take the tile the player on the left has just discarded."""

    seat: int


@dataclass(frozen=True)
class Discard:
    seat: int
    tile: int


@dataclass(frozen=True)
class Finish:
    """Put ``tile`` on the indicator; the other 14 must qualify."""

    seat: int
    tile: int


@dataclass(frozen=True)
class ShowIndicator:
    """Show the indicator's twin (gösterge yapmak)."""

    seat: int


@dataclass(frozen=True)
class DeclarePairs:
    """Declare going for pairs (çifte gitmek)."""

    seat: int


@dataclass(frozen=True)
class TakeIndicator:
    """With ``pairs_take_indicator``: take the indicator instead of drawing."""

    seat: int


Move = Draw | TakeDiscard | Discard | Finish | ShowIndicator | DeclarePairs | TakeIndicator

_KINDS: dict[str, type] = {
    "draw": Draw,
    "take": TakeDiscard,
    "discard": Discard,
    "finish": Finish,
    "show": ShowIndicator,
    "pairs": DeclarePairs,
    "take_indicator": TakeIndicator,
}
_KIND_OF = {cls: kind for kind, cls in _KINDS.items()}
_WITH_TILE = (Discard, Finish)


def move_kind(m: Move) -> str:
    return _KIND_OF[type(m)]


def move_to_dict(m: Move) -> dict[str, Any]:
    d: dict[str, Any] = {"kind": move_kind(m), "seat": m.seat}
    if isinstance(m, _WITH_TILE):
        d["tile"] = format_tile(m.tile)
    return d


def move_from_dict(d: Any) -> Move:
    if not isinstance(d, dict):
        raise IllegalMove("bad_move", "a move must be an object with a kind and a seat")
    kind = d.get("kind")
    cls = _KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise IllegalMove("bad_move", f"unknown move kind {kind!r}: use one of {', '.join(_KINDS)}")
    seat = d.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise IllegalMove("bad_move", "a move's seat must be a whole number")
    allowed = {"kind", "seat", "tile"} if cls in _WITH_TILE else {"kind", "seat"}
    extra = sorted(set(d) - allowed)
    if extra:
        raise IllegalMove("bad_move", f"a {kind} move has no {', '.join(extra)}")
    if cls in _WITH_TILE:
        text = d.get("tile")
        if not isinstance(text, str):
            raise IllegalMove("bad_move", f"a {kind} move needs the tile, written like R7 or F")
        try:
            tile = parse_tile(text)
        except TileError as e:
            raise IllegalMove("bad_tile", str(e)) from None
        return cls(seat, tile)
    return cls(seat)
