"""Which tile a 101 bot lets go (the normal bot's discard): the loosest of its safe tiles.

A tile of the rack's best opening stays while a tile outside it may go. Among the others, a
tile is worth keeping by its *live* tiles: for each partner it has in the rack (a neighbour or
a one-gap neighbour of its colour, the same number in another colour), the copies still unseen
of a tile that would make the two a meld, and the okeys unseen. Seen is what the seat may know:
its rack, every pile, the table, the indicator. Unopened, a high tile brings the 101 nearer;
opened, every tile kept counts against the seat, so the high ones go first, and when the stock
leaves the seat no more than one draw, only what a tile costs counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..tiles import FAKE, colour_of, face, number_of
from .opening import best_groups
from .state import Hand101
from .values import plain


def _seen(s: Hand101, seat: int) -> Counter:
    seen = Counter(s.racks[seat])
    seen[s.indicator] += 1
    for pile in s.discards:
        seen.update(pile)
    for meld in s.table:
        seen.update(meld.tiles)
    return seen


def _live(seen: Counter, okey: int):
    """How many copies of a plain face are still unseen (a fake joker shows the okey's face)."""

    def live(colour: int, number: int) -> int:
        if not 1 <= number <= 13:
            return 0
        f = face(colour, number)
        return 2 - seen[FAKE if f == okey else f]

    return live


def _promise(tile: int, others: Sequence[int], okey: int, live, wild: int, weigh) -> float:
    """The live tiles that would make ``tile`` a meld with one of ``others``, each weighed
    by ``weigh(the meld's value)``."""
    f = plain(tile, okey)
    c, n = colour_of(f), number_of(f)
    score = 0
    for other in others:
        if other == okey:
            continue
        g = plain(other, okey)
        gap = number_of(g) - n
        if colour_of(g) == c and abs(gap) == 1:
            low = min(n, number_of(g))
            score += (live(c, low - 1) + wild / 2) * weigh(3 * low)
            score += (live(c, low + 2) + wild / 2) * weigh(3 * low + 3)
        elif colour_of(g) == c and abs(gap) == 2:
            score += (live(c, n + gap // 2) + wild) * weigh(3 * (n + gap // 2))
        elif colour_of(g) != c and gap == 0:
            rest = set(range(4)) - {c, colour_of(g)}
            score += (sum(live(k, n) for k in rest) + wild) * weigh(3 * n)
    return score


def _table_promise(tile: int, s: Hand101, live, wild: int) -> int:
    """The live tiles that, added to a run on the table, would let ``tile`` be added after
    them (a tile two past a run's end)."""
    f = plain(tile, s.okey)
    c, n = colour_of(f), number_of(f)
    score = 0
    for meld in s.table:
        if meld.kind != "run" or colour_of(meld.stands[0]) != c:
            continue
        low, high = number_of(meld.stands[0]), number_of(meld.stands[-1])
        if n in (low - 2, high + 2):
            score += live(c, (n + low) // 2 if n < low else (n + high) // 2) + wild
    return score


def _run_promise(tile: int, groups, okey: int, live, wild: int, weigh) -> float:
    """The live tiles that would join ``tile`` to a run of the rack's best opening (a tile two
    past its end), weighed by what they would add."""
    f = plain(tile, okey)
    c, n = colour_of(f), number_of(f)
    score = 0.0
    for g in groups:
        faces = sorted(number_of(plain(t, okey)) for t in g if t != okey)
        colours = {colour_of(plain(t, okey)) for t in g if t != okey}
        if colours != {c} or len(set(faces)) != len(faces):
            continue  # a set, or a run of another colour
        low, high = faces[0], faces[-1]
        if n in (low - 2, high + 2):
            mid = n + 1 if n < low else n - 1
            score += (live(c, mid) + wild) * weigh(n + mid)
    return score


def _pairs_keep(s: Hand101, seat: int, pool: list[int]) -> int:
    """A pairs opener lays only pairs: the tile whose twin is least likely to come goes, the
    highest first."""
    seen = _seen(s, seat)
    okey = s.okey
    return min(pool, key=lambda t: (2 - seen[t], -number_of(plain(t, okey)), t))


def loosest(s: Hand101, seat: int, candidates: Sequence[int]) -> int:
    """The candidate to discard."""
    rack, okey = s.racks[seat], s.okey
    opened = s.opened[seat] != "none"
    if s.opened[seat] == "pairs":
        singles = [t for t in candidates if rack.count(t) == 1]
        return _pairs_keep(s, seat, sorted(set(singles or candidates)))
    groups = best_groups(rack, okey)
    free = Counter(rack)
    free.subtract(t for g in groups for t in g)
    pool = sorted({t for t in candidates if free[t] > 0} or set(candidates))
    if opened and len(s.stock) <= s.n:
        return max(pool, key=lambda t: (number_of(plain(t, okey)), -t))
    seen = _seen(s, seat)
    live = _live(seen, okey)
    wild = 2 - seen[okey]
    loose = list(free.elements())
    # unopened, a meld brings the 101 nearer by its value; opened, any meld is three tiles gone
    weigh = (lambda v: 1.0) if opened else (lambda v: v / 20)

    def keep(t: int) -> float:
        others = list(loose)
        if t in others:
            others.remove(t)
        number = number_of(plain(t, okey))
        promise = _promise(t, others, okey, live, wild, weigh)
        promise += _run_promise(t, groups, okey, live, wild, weigh)
        if opened:
            promise += _table_promise(t, s, live, wild)
        return promise + (-number if opened else number) / 4

    return min(pool, key=lambda t: (keep(t), t))
