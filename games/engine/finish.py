"""Finishing (bitmek): which kind of finish 14 tiles and the tile put on the indicator make, and
what it is worth (docs/rules.md, "Finishing" and "Counting")."""

from __future__ import annotations

from collections.abc import Sequence

from .melds import key_can_meld, key_without, meld_split, rack_key
from .pairs import key_can_pairs, pair_split
from .tiles import FAKE, TileError, colour_of

NORMAL = "normal"
OKEY = "okey"
PAIRS = "pairs"
PAIRS_OKEY = "pairs+okey"
KINDS = (NORMAL, OKEY, PAIRS, PAIRS_OKEY)
FINISH_FACTOR = {NORMAL: 1, OKEY: 2, PAIRS: 2, PAIRS_OKEY: 4}
_RED, _BLACK = 0, 3


def finish_kind(tiles14: Sequence[int], last: int, okey: int) -> str | None:
    """The best kind of finish, or None. Only a real okey as `last` makes the okey kinds; a fake
    joker on the indicator is a normal finish."""
    if not 0 <= last <= FAKE:
        raise TileError(f"no tile with code {last!r}")
    key, okeys = rack_key(tiles14, okey)
    return _kind(key, okeys, last == okey)


def _kind(key: int, okeys: int, by_okey: bool) -> str | None:
    # Pairs score at least as much as melds whatever the last tile, so ask about pairs first.
    pairs = key_can_pairs(key, okeys)
    return best_kind(not pairs and key_can_meld(key, okeys), pairs, by_okey)


def finishes(rack: Sequence[int], okey: int) -> dict[int, str]:
    """For a rack of 15: each tile that can go on the indicator to finish, with the best kind."""
    key, okeys = rack_key(rack, okey)
    out = {}
    for last in set(rack):
        kind = _kind(*key_without(key, okeys, last, okey), last == okey)
        if kind:
            out[last] = kind
    return out


def best_kind(melds: bool, pairs: bool, by_okey: bool) -> str | None:
    """The best finish that 14 tiles in melds and/or pairs make, with or without the okey last."""
    if pairs:
        return PAIRS_OKEY if by_okey else PAIRS
    if melds:
        return OKEY if by_okey else NORMAL
    return None


def meld_groups(tiles14: Sequence[int], okey: int) -> list[list[int]] | None:
    """One split into melds; else the seven pairs if only pairs qualify; else None."""
    return meld_split(tiles14, okey) or pair_split(tiles14, okey)


def colour_factor(indicator: int, colour_doubling: bool) -> int:
    """2 for a red or black indicator (renkli gösterge) when colour doubling is on, else 1."""
    if not 0 <= indicator < FAKE:
        raise TileError("the indicator must be a coloured tile, not a fake joker")
    return 2 if colour_doubling and colour_of(indicator) in (_RED, _BLACK) else 1


def finish_value(kind: str | None, indicator: int, colour_doubling: bool) -> int:
    """V = 2 × colour factor × finish factor; 0 when there is no finish."""
    if kind is None:
        return 0
    if kind not in FINISH_FACTOR:
        raise ValueError(f"unknown finish kind {kind!r}")
    return 2 * colour_factor(indicator, colour_doubling) * FINISH_FACTOR[kind]


def indicator_value(indicator: int, colour_doubling: bool) -> int:
    """What showing the indicator takes off the shower's count: 1 × colour factor."""
    return colour_factor(indicator, colour_doubling)
