"""What a tile is worth in 101 (docs/rules-101.md, "Tiles, notation, values").

A fake joker is a plain tile with the okey's face, so the searches replace it by that face; the
two real okeys (the okey's face itself) are the only wild tiles. In a rack at the end of a hand a
real okey counts 101, everything else its number (a fake joker the okey's number).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..tiles import FAKE, number_of

OKEY_IN_RACK = 101


def plain(tile: int, okey: int) -> int:
    """The face a tile shows in a meld when it is not wild: a fake joker is the okey's face."""
    return okey if tile == FAKE else tile


def rack_value(tiles: Iterable[int], okey: int) -> int:
    """S of the Scoring section: each tile its number, a fake joker the okey's number, a real
    okey 101."""
    return sum(OKEY_IN_RACK if t == okey else number_of(plain(t, okey)) for t in tiles)
