"""How far a rack is from a finish in melds: the fewest draws that could complete it.

A finished rack is 14 tiles in two to four melds. A rack's tiles can be kept in *groups*, each a
part of some meld: a stretch of one colour with holes (R5 R7, R1 R2 R3 R5) or tiles of one number
in different colours (B9 K9), or a lone tile. A group needs at least as many places as the meld
it would become: three, or its stretch's length. The okeys fill holes or lengthen a meld, and
every other kept tile needs its place too, so with 14 places in all the rack is

    distance = 14 - okeys - (the most real tiles kept in groups whose places add up to 14 or less)

draws from a finish: each draw fills a place and lets a tile that has none go. This is the
"shanten" of Mahjong players for Okey's melds; it ignores whether the holes' tiles are still to
be had (the caller weighs that in its outs).

The search takes the rack's lowest tile and either lets it go or starts a group with it, as
melds.py does, memoised on the packed counts. Its answer for every number of places at once is
a *profile*: 15 fields of five bits, field s the most real tiles kept in groups using at most s
places, so that adding a group is a shift and an add, and the better of two choices a few word
operations (a field-wise maximum).
"""

from __future__ import annotations

from .memo import Memo

_BITS = 4  # bits per face in a packed rack (melds.rack_key)
_W = 5  # bits per field of a profile: four for the value, one to compare with
_PLACES = 14
_FIELDS = _PLACES + 1
_FULL = (1 << (_W * _FIELDS)) - 1
_HIGH = sum(1 << (_W * s + 4) for s in range(_FIELDS))
# _FROM[places]: one in every field from `places` on (a group of that size fits there)
_FROM = [sum(1 << (_W * s) for s in range(n, _FIELDS)) for n in range(_FIELDS + 1)]
_SHIFT3 = _W * 3
_MAX_HOLES = 4  # more holes than this: two groups are as good
_CACHE_LIMIT = 1 << 17  # entries per generation of each memo (memo.py)

_LINE = (1 << (_BITS * 13)) - 1  # a colour's 13 fields
_COLUMN = sum(15 << (_BITS * 13 * c) for c in range(4))  # one number
_PROFILES: Memo[int, int] = Memo(_CACHE_LIMIT)


def _profile(key: int) -> int:
    """The profile of the packed rack: field s holds the most real tiles kept in groups that
    use at most s places. Adding a group of p places holding r real tiles to a profile is a
    shift by p fields and an add of r to the fields from p on; the better of two profiles is
    a field-wise maximum, the fifth bit of each field telling which is larger."""
    if not key:
        return 0
    found = _PROFILES.new.get(key)
    if found is None:
        found = _PROFILES.revive(key)
    if found is not None:
        return found
    f = ((key & -key).bit_length() - 1) >> 2
    rest = key - (1 << (_BITS * f))
    profiles = _PROFILES.new
    sub = profiles.get(rest)
    if sub is None:
        sub = _profile(rest)
    # let it go, or keep it alone (two holes); then each group it can start. The field-wise
    # maximum is written out here: this is the engine's hottest loop.
    o = ((sub << _SHIFT3) & _FULL) + _FROM[3]
    mask = ((((sub | _HIGH) - o) & _HIGH) >> 4) * 15
    best = (sub & mask) | (o & ~mask)
    for taken, shift, add in _groups(key, f):
        k = rest - taken
        p = profiles.get(k)
        if p is None:
            p = _profile(k)
        o = ((p << shift) & _FULL) + add
        mask = ((((best | _HIGH) - o) & _HIGH) >> 4) * 15
        best = (best & mask) | (o & ~mask)
    _PROFILES.put(key, best)
    return best


# the groups that can start at a face, by what the rack holds of its colour and its number
_GROUPS: Memo[int, tuple[tuple[int, int, int], ...]] = Memo(_CACHE_LIMIT)


def _groups(key: int, f: int) -> tuple[tuple[int, int, int], ...]:
    """The groups with f as their lowest tile, besides f alone: (the other tiles as a packed
    count, the shift and the add that put the group on a profile, as in _profile). f is the lowest
    tile held, so the lower colours are empty."""
    k = (key >> (_BITS * (f - f % 13)) & _LINE) << 256 | (key >> (_BITS * f) & _COLUMN) << 8 | f
    found = _GROUPS.get(k)
    if found is None:
        found = tuple(
            (taken, _W * places, real * _FROM[places])
            for taken, places, real in _find_groups(key, f)
        )
        _GROUPS.put(k, found)
    return found


def _find_groups(key: int, f: int) -> tuple[tuple[int, int, int], ...]:
    colour, index = divmod(f, 13)
    base = colour * 13
    rest = key - (1 << (_BITS * f))
    out = []
    # a stretch of its colour from f upwards, every tile held on the way kept
    taken, real = 0, 1
    for i in range(index + 1, 13):
        g = base + i
        if not rest >> (_BITS * g) & 15:
            if i - index + 1 - real > _MAX_HOLES:
                break
            continue
        taken += 1 << (_BITS * g)
        real += 1
        length = i - index + 1
        if length - real > _MAX_HOLES:
            break
        out.append((taken, max(3, length), real))
    if index == 0:  # the 1 after the 13: a stretch down from the 13
        taken, real = 0, 1
        for i in range(12, 0, -1):
            g = base + i
            if not rest >> (_BITS * g) & 15:
                if 14 - i - real > _MAX_HOLES:
                    break
                continue
            taken += 1 << (_BITS * g)
            real += 1
            length = 14 - i
            if length - real > _MAX_HOLES:
                break
            out.append((taken, max(3, length), real))
    # its number in other colours (the lower colours' tiles are gone: f is the lowest)
    others = [g for g in range(f + 13, 52, 13) if rest >> (_BITS * g) & 15]
    for mask in range(1, 1 << len(others)):
        taken = sum(1 << (_BITS * g) for j, g in enumerate(others) if mask >> j & 1)
        real = 1 + mask.bit_count()
        out.append((taken, max(3, real), real))
    return tuple(out)


def key_kept(key: int, jokers: int) -> int:
    """The most real tiles of the packed rack (melds.rack_key) that can stay towards a finish in
    melds: those in groups fitting 14 places, less room for the okeys."""
    return min(_profile(key) >> (_W * _PLACES) & 15, _PLACES - jokers)


def key_distance(key: int, jokers: int) -> int:
    """Draws the packed rack of 14 (or 15, one to throw) is from a finish in melds, at best."""
    return _PLACES - jokers - key_kept(key, jokers)
