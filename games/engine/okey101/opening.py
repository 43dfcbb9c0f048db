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
other colours.

Runs are tried up to 5 long (a longer one is two shorter ones of the same worth), and a branch is
skipped when even every tile it leaves, each okey as a 13, could not beat what an earlier branch
of the same position found: the answer stays exact.

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
Meld = tuple[tuple[int, ...], int]
# a run of 6 or more is two runs of 3 or more, worth the same: longer ones need not be tried
# (a part may be two okeys and a real tile, which is a run; three okeys do not exist)
_LONGEST_RUN = 5  # (its real faces, how many okeys it takes)


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


def _moves(x: int, jokers: int) -> list[tuple[int, int, int, int]]:
    """(value, numbers of its real tiles, what is left, okeys left) for each way to place the
    lowest tile t: runs with t the lowest real tile, sets of t's number with higher colours
    (lower places are decided), and t in no meld (value 0) last. One function, no helpers: it is
    most of the search's time."""
    p = ((x & -x).bit_length() - 1) >> 1
    low = p >> 2  # t's number - 1
    x -= _ONE[p]
    out = []
    for below in range(min(jokers, low), -1, -1):
        left, rest, used, length = jokers - below, x, low + 1, below + 1
        value = sum(range(low + 1 - below, low + 2))
        for q in range(p + 4, FAKE, 4):
            if (rest >> (2 * q)) & 3:
                rest -= _ONE[q]
                used += (q >> 2) + 1
            elif left:
                left -= 1
            else:
                break
            value += (q >> 2) + 1
            length += 1
            if length >= 3:
                out.append((value, used, rest, left))
                if length == _LONGEST_RUN:
                    break
    number = low + 1
    others = [q for q in range(p + 1, (low << 2) + 4) if (x >> (2 * q)) & 3]
    for size in range(len(others), -1, -1):
        real = 1 + size
        # okeys only where no real tile of a missing colour is left (see the module's note)
        extra = range(min(jokers, 4 - real), -1, -1) if size == len(others) else (0,)
        for chosen in combinations(others, size):
            rest = x
            for q in chosen:
                rest -= _ONE[q]
            for k in extra:
                if real + k >= 3:
                    out.append((number * (real + k), number * real, rest, jokers - k))
    out.append((0, number, x, jokers))
    return out


def _best(x: int, jokers: int, numbers: int, memo: dict[int, int]) -> int:
    """The best value of x and its okeys; ``numbers`` is the sum of the numbers in x."""
    if not x:
        return 0
    key = (x << 2) | jokers
    found = memo.get(key)
    if found is not None:
        return found
    best = 0
    for value, used, rest, left in _moves(x, jokers):
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


def _faces(x: int) -> tuple[int, ...]:
    """The faces of the packed tiles, lowest place first."""
    return tuple(_FACE[p] for p in range(FAKE) for _ in range((x >> (2 * p)) & 3))


def best_melds(tiles: Sequence[int], okey: int) -> tuple[int, list[Meld]]:
    """V and one collection of melds worth it, each as (its real faces, okeys it takes)."""
    x, jokers = pack(tiles, okey)
    numbers = _numbers(tiles, okey)
    memo: dict[int, int] = {}
    total = _best(x, jokers, numbers, memo)
    melds: list[Meld] = []
    while x:
        target = _best(x, jokers, numbers, memo)
        for value, used, rest, left in _moves(x, jokers):
            if value + _best(rest, left, numbers - used, memo) == target:
                if value:
                    melds.append((_faces(x - rest), jokers - left))
                x, jokers, numbers = rest, left, numbers - used
                break
    return total, melds


def best_groups(tiles: Sequence[int], okey: int) -> list[tuple[int, ...]]:
    """The melds of ``best_melds`` as the tiles to lay (a fake joker for the okey's face)."""
    left = list(tiles)
    groups = []
    for faces, jokers in best_melds(tiles, okey)[1]:
        group = tuple(FAKE if f == okey else f for f in faces) + (okey,) * jokers
        for t in group:
            left.remove(t)
        groups.append(group)
    return groups


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
