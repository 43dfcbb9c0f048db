"""Seven pairs (çift): identical tiles two by two; a real okey pairs with anything.

A fake joker is the okey's face, and the only other tiles of that face are the real okeys, which
are wild anyway: so fakes pair with each other (or with an okey) and are otherwise just a face.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .tiles import FAKE, TileError


def _faces_and_okeys(tiles: Sequence[int], okey: int) -> tuple[Counter, int]:
    if not 0 <= okey < FAKE:
        raise TileError(f"no okey with code {okey!r}")
    faces = Counter(tiles)
    okeys = faces.pop(okey, 0)
    if any(not 0 <= f <= FAKE for f in faces):
        raise TileError("a tile code is out of range")
    return faces, okeys


def can_pairs(tiles: Sequence[int], okey: int) -> bool:
    """The tiles are all in pairs (seven pairs for a 14-tile rack)."""
    faces, okeys = _faces_and_okeys(tiles, okey)
    singles = sum(n & 1 for n in faces.values())
    return singles <= okeys and (okeys - singles) % 2 == 0


def pair_split(tiles: Sequence[int], okey: int) -> list[list[int]] | None:
    """The pairs (an okey beside the tile it pairs), or None when the tiles are not all pairs."""
    if not can_pairs(tiles, okey):
        return None
    faces, okeys = _faces_and_okeys(tiles, okey)
    pairs = []
    for f in sorted(faces):
        pairs.extend([f, f] for _ in range(faces[f] // 2))
        if faces[f] & 1:
            pairs.append([f, okey])
            okeys -= 1
    pairs.extend([okey, okey] for _ in range(okeys // 2))
    return pairs
