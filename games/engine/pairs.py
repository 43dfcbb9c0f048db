"""Seven pairs (çift): identical tiles two by two; a real okey pairs with anything.

A fake joker is the okey's face, and the only other tiles of that face are the real okeys, which
are wild anyway: so fakes pair with each other (or with an okey) and are otherwise just a face.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from .melds import FIELD_LOWS, rack_key


def can_pairs(tiles: Sequence[int], okey: int) -> bool:
    """The tiles are all in pairs (seven pairs for a 14-tile rack)."""
    return key_can_pairs(*rack_key(tiles, okey))


def key_can_pairs(key: int, okeys: int) -> bool:
    """can_pairs on a packed rack (see melds.rack_key): faces held once need an okey each."""
    singles = (key & FIELD_LOWS).bit_count()
    return singles <= okeys and (okeys - singles) % 2 == 0


def pair_split(tiles: Sequence[int], okey: int) -> list[list[int]] | None:
    """The pairs (an okey beside the tile it pairs), or None when the tiles are not all pairs."""
    if not can_pairs(tiles, okey):
        return None
    faces = Counter(tiles)
    okeys = faces.pop(okey, 0)
    pairs = []
    for f in sorted(faces):
        pairs.extend([f, f] for _ in range(faces[f] // 2))
        if faces[f] & 1:
            pairs.append([f, okey])
            okeys -= 1
    pairs.extend([okey, okey] for _ in range(okeys // 2))
    return pairs
