"""Melds on the table (per) and pairs (çift): reading a laid group, adding a tile to a meld
(işlemek), taking an okey off the table, and whether a tile is işlek.

A laid group keeps its tiles in their places (a run low to high) and, beside them, the face each
tile stands for: its own face, a fake joker the okey's face, a real okey the tile it replaces. In
a set an okey stands for a colour the set lacks (the lowest one, for display); any lacking colour
takes it off the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..tiles import colour_of, face, number_of
from .values import plain

KINDS = ("run", "set", "pair")


@dataclass(frozen=True)
class TableMeld:
    owner: int  # the seat that laid it
    kind: str  # "run" | "set" | "pair"
    tiles: tuple[int, ...]  # the tiles in their places (a run low to high)
    stands: tuple[int, ...]  # the face each tile stands for

    @property
    def value(self) -> int:
        return sum(number_of(f) for f in self.stands)


def _run(laid: dict[int, int], jokers: int, owner: int, okey: int, below: int) -> TableMeld | None:
    """``laid`` maps each real tile's plain face to the tile laid (a fake joker stays one)."""
    colour = colour_of(next(iter(laid)))
    if any(colour_of(f) != colour for f in laid):
        return None
    by_number = {number_of(f): t for f, t in laid.items()}
    low, high = min(by_number), max(by_number)
    spare = jokers - (high - low + 1 - len(by_number))
    if spare < 0 or high - low + 1 + spare > 13:
        return None
    # an okey beyond the real tiles takes the highest free place (docs/rules-101.md), unless
    # the player asked for ``below`` of them under the lowest real tile
    down = min(below, spare, low - 1)
    up = min(spare - down, 13 - high)
    low, high = low - (spare - up), high + up
    tiles = tuple(by_number.get(n, okey) for n in range(low, high + 1))
    return TableMeld(owner, "run", tiles, tuple(face(colour, n) for n in range(low, high + 1)))


def _set(laid: dict[int, int], jokers: int, owner: int, okey: int) -> TableMeld | None:
    number = number_of(next(iter(laid)))
    if any(number_of(f) != number for f in laid) or len(laid) + jokers > 4:
        return None
    colours = {colour_of(f) for f in laid}
    missing = [c for c in range(4) if c not in colours][:jokers]
    stands = (*laid, *(face(c, number) for c in missing))
    return TableMeld(owner, "set", (*laid.values(), *[okey] * jokers), stands)


def read_meld(tiles: Sequence[int], okey: int, owner: int, below: int = 0) -> TableMeld | None:
    """The group as a run or a set, the more valuable reading; None if it is neither. In a run,
    ``below`` of the okeys that no gap needs go under the lowest real tile (where there is
    room), the others above it."""
    if not 3 <= len(tiles) <= 13:
        return None
    jokers = sum(1 for t in tiles if t == okey)
    laid = {plain(t, okey): t for t in tiles if t != okey}
    # a face twice fits neither a run nor a set
    if not laid or len(laid) + jokers != len(tiles):
        return None
    found = [
        m for m in (_run(laid, jokers, owner, okey, below), _set(laid, jokers, owner, okey)) if m
    ]
    return max(found, key=lambda m: m.value) if found else None


def read_pair(tiles: Sequence[int], okey: int, owner: int) -> TableMeld | None:
    """Two identical tiles (two fake jokers too), or an okey with any tile; None otherwise."""
    if len(tiles) != 2:
        return None
    a, b = tiles
    if a == okey and b != okey:
        a, b = b, a
    if a != b and b != okey:
        return None
    stand = plain(a, okey)
    return TableMeld(owner, "pair", (a, b), (stand, stand))


def add_tile(meld: TableMeld, tile: int, okey: int, high: bool = True) -> TableMeld | None:
    """The meld with ``tile`` added (işlemek), or None if it does not fit. An okey goes to the
    high end of a run when ``high`` and there is room, else to the low end."""
    if meld.kind == "pair":
        return None
    if meld.kind == "set":
        return _add_to_set(meld, tile, okey)
    colour, low, top = (
        colour_of(meld.stands[0]),
        number_of(meld.stands[0]),
        number_of(meld.stands[-1]),
    )
    if tile == okey:
        at_top = (high and top < 13) or low == 1
        number = top + 1 if at_top else low - 1
    else:
        f = plain(tile, okey)
        number = number_of(f) if colour_of(f) == colour else 0
        at_top = number == top + 1
    if not (at_top or number == low - 1) or not 1 <= number <= 13:
        return None
    stand = face(colour, number)
    if at_top:
        return replace(meld, tiles=(*meld.tiles, tile), stands=(*meld.stands, stand))
    return replace(meld, tiles=(tile, *meld.tiles), stands=(stand, *meld.stands))


def _add_to_set(meld: TableMeld, tile: int, okey: int) -> TableMeld | None:
    if len(meld.tiles) >= 4:
        return None
    number = number_of(meld.stands[0])
    real_colours = {colour_of(meld.stands[i]) for i, t in enumerate(meld.tiles) if t != okey}
    if tile == okey:
        free = [c for c in range(4) if c not in {colour_of(f) for f in meld.stands}]
        stand = face(free[0], number)
    else:
        stand = plain(tile, okey)
        if number_of(stand) != number or colour_of(stand) in real_colours:
            return None
    return _set_again(meld, tile, stand, okey)


def _set_again(meld: TableMeld, tile: int, stand: int, okey: int) -> TableMeld:
    """The set with ``tile`` standing for ``stand``; an okey that stood for that colour moves
    to another lacking one."""
    stands = list(meld.stands)
    if stand in stands:
        i = stands.index(stand)
        taken = {colour_of(f) for f in stands} | {colour_of(stand)}
        stands[i] = face(next(c for c in range(4) if c not in taken), number_of(stand))
    return replace(meld, tiles=(*meld.tiles, tile), stands=(*stands, stand))


def take_okey(meld: TableMeld, tile: int, okey: int) -> TableMeld | None:
    """The meld with ``tile`` in an okey's place (the okey goes to the taker's rack), or None
    when no okey there stands for that tile."""
    if tile == okey or (meld.kind == "pair" and meld.tiles == (okey, okey)):
        return None  # two okeys pair with each other: no tile takes either
    f = plain(tile, okey)
    for i, (t, stand) in enumerate(zip(meld.tiles, meld.stands, strict=True)):
        if t != okey:
            continue
        fits = stand == f or (meld.kind == "set" and _lacks(meld, f, okey))
        if fits:
            tiles = (*meld.tiles[:i], tile, *meld.tiles[i + 1 :])
            stands = (*meld.stands[:i], f, *meld.stands[i + 1 :])
            return replace(meld, tiles=tiles, stands=stands)
    return None


def _lacks(meld: TableMeld, f: int, okey: int) -> bool:
    """A set lacks the real colour of f, in f's number."""
    number = number_of(meld.stands[0])
    reals = {colour_of(s) for t, s in zip(meld.tiles, meld.stands, strict=True) if t != okey}
    return number_of(f) == number and colour_of(f) not in reals


def _may_fit(meld: TableMeld, f: int) -> bool:
    """Whether the face ``f`` could go on ``meld`` at all, added or in an okey's place: a run
    takes only its colour, a set only its number, a pair only its own face (in an okey's
    place). Asked before ``add_tile`` and ``take_okey``, which decide: a rack is checked against
    every meld on the table at each view of a turn."""
    stand = meld.stands[0]
    if meld.kind == "run":
        return colour_of(f) == colour_of(stand)
    if meld.kind == "set":
        return number_of(f) == number_of(stand)
    return f in meld.stands


def islek_meld(tile: int, table: Sequence[TableMeld], okey: int) -> int | None:
    """Why ``tile`` is işlek: -1 for a real okey (always), else the index of the first meld on
    the table it could be added to or take an okey from; None when it is not işlek."""
    if tile == okey:
        return -1
    f = plain(tile, okey)
    for i, m in enumerate(table):
        if _may_fit(m, f) and (
            add_tile(m, tile, okey) is not None or take_okey(m, tile, okey) is not None
        ):
            return i
    return None


def is_islek(tile: int, table: Sequence[TableMeld], okey: int) -> bool:
    """A real okey always; another tile when it could be added to a meld on the table or take
    an okey there."""
    return islek_meld(tile, table, okey) is not None
