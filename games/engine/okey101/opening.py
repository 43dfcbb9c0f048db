"""The best opening of a rack: the largest total of disjoint runs and sets (op ``open_value``),
and the most disjoint pairs (op ``pairs``).

Counts are packed two bits per place in one int (a face is held at most twice), places in
*number-major* order (place = (number - 1) * 4 + colour), so the lowest tile left is the lowest
set bit and a memo key is one int. The search takes the lowest real tile t left and tries: t as
the lowest real tile of a run (with 0..2 okeys below it), t in a set of its number (with higher
colours only: lower places are already decided), t in no meld.

Number-major order keeps the memo small: when every tile below number n is decided, what is left
above is each colour minus the stretches that runs begun below n took, a few shapes per colour.
In colour-major order every choice of sets made for the reds would multiply the states of the
other colours (a 22-tile rack of four colours' 5..9 and two okeys took 67 ms that way, 1 ms so).

Okeys are placed only where no real tile is left for that place. That loses no opening: if an
okey stands for a face whose real copy is free, put the real tile there and the okey where that
copy was (or nowhere); the value is the same because an okey counts as the tile it stands for.
Every meld has a real tile (3+ tiles, 2 okeys), so each is built when its lowest real tile is the
lowest left.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from ..tiles import FAKE
from .values import plain

_PLACE = tuple((f % 13) * 4 + f // 13 for f in range(FAKE))  # face -> place
_FACE = tuple((p % 4) * 13 + p // 4 for p in range(FAKE))  # place -> face
_ONE = tuple(1 << (2 * p) for p in range(FAKE))  # by place
Meld = tuple[tuple[int, ...], int]  # (its real faces, how many okeys it takes)


def pack(tiles: Sequence[int], okey: int) -> tuple[int, int]:
    """The rack as (packed counts of the plain faces by place, number of real okeys)."""
    x = 0
    jokers = 0
    for t in tiles:
        if t == okey:
            jokers += 1
        else:
            x += _ONE[_PLACE[plain(t, okey)]]
    return x, jokers


def _count(x: int, p: int) -> int:
    return (x >> (2 * p)) & 3


def _sets(x: int, p: int, jokers: int):
    """(value, rest, okeys left, meld) for each set holding place p, x already without it."""
    number = p // 4 + 1
    others = [q for q in range(p + 1, (p // 4) * 4 + 4) if _count(x, q)]
    for size in range(len(others), -1, -1):
        for chosen in combinations(others, size):
            real = 1 + size
            # okeys only where no real tile of a missing colour is left (see the module's note)
            extra = range(min(jokers, 4 - real), -1, -1) if size == len(others) else (0,)
            rest = x
            for q in chosen:
                rest -= _ONE[q]
            faces = (_FACE[p], *(_FACE[q] for q in chosen))
            for k in extra:
                if real + k >= 3:
                    yield number * (real + k), number * real, rest, jokers - k, (faces, k)


def _runs(x: int, p: int, jokers: int):
    """(value, rest, okeys left, meld) for each run whose lowest real tile is at place p."""
    low = p // 4  # the number - 1
    for below in range(min(jokers, low), -1, -1):
        left = jokers - below
        rest = x
        real = [_FACE[p]]
        value = sum(range(low + 1 - below, low + 2))
        used = low + 1
        length = below + 1
        for q in range(p + 4, FAKE, 4):
            if _count(rest, q):
                rest -= _ONE[q]
                real.append(_FACE[q])
                used += q // 4 + 1
            elif left:
                left -= 1
            else:
                break
            value += q // 4 + 1
            length += 1
            if length >= 3:
                yield value, used, rest, left, (tuple(real), jokers - left)


def _moves(x: int, jokers: int):
    p = ((x & -x).bit_length() - 1) >> 1
    rest = x - _ONE[p]
    yield from _runs(rest, p, jokers)
    yield from _sets(rest, p, jokers)
    yield 0, p // 4 + 1, rest, jokers, None


def _best(x: int, jokers: int, numbers: int, memo: dict[int, int]) -> int:
    """The best value of x and its okeys; ``numbers`` is the sum of the numbers in x."""
    if not x:
        return 0
    key = (x << 2) | jokers
    found = memo.get(key)
    if found is not None:
        return found
    best = 0
    for value, used, rest, left, _meld in _moves(x, jokers):
        # a branch can win at most the numbers it leaves and 13 an okey: skip it if that cannot
        # beat what an earlier branch found (the answer stays exact)
        if value + numbers - used + 13 * left <= best:
            continue
        total = value + _best(rest, left, numbers - used, memo)
        if total > best:
            best = total
    memo[key] = best
    return best


def _numbers(tiles: Sequence[int], okey: int) -> int:
    return sum(plain(t, okey) % 13 + 1 for t in tiles if t != okey)


def open_value(tiles: Sequence[int], okey: int) -> int:
    """V: the largest total value of disjoint melds among the tiles (0 if none)."""
    x, jokers = pack(tiles, okey)
    return _best(x, jokers, _numbers(tiles, okey), {})


def best_melds(tiles: Sequence[int], okey: int) -> tuple[int, list[Meld]]:
    """V and one collection of melds worth it, each as (its real faces, okeys it takes)."""
    x, jokers = pack(tiles, okey)
    numbers = _numbers(tiles, okey)
    memo: dict[int, int] = {}
    total = _best(x, jokers, numbers, memo)
    melds: list[Meld] = []
    while x:
        target = _best(x, jokers, numbers, memo)
        for value, used, rest, left, meld in _moves(x, jokers):
            if value + _best(rest, left, numbers - used, memo) == target:
                if meld is not None:
                    melds.append(meld)
                x, jokers, numbers = rest, left, numbers - used
                break
    return total, melds


def best_pairs(tiles: Sequence[int], okey: int) -> list[tuple[int, int]]:
    """The most disjoint pairs, as tiles: identical tiles (the two fake jokers too) first, then
    each okey with the highest single left (it would cost the most kept), then the two okeys."""
    okeys = [t for t in tiles if t == okey]
    single: set[int] = set()
    pairs: list[tuple[int, int]] = []
    for t in tiles:
        if t == okey:
            continue
        if t in single:
            single.remove(t)
            pairs.append((t, t))
        else:
            single.add(t)
    highest = sorted(single, key=lambda t: (plain(t, okey) % 13, t), reverse=True)
    pairs.extend((t, okey) for t in highest[: len(okeys)])
    if len(okeys) - len(highest) >= 2:
        pairs.append((okey, okey))
    return pairs


def pair_count(tiles: Sequence[int], okey: int) -> int:
    """P: the most disjoint pairs among the tiles."""
    return len(best_pairs(tiles, okey))
