"""Melds (per): can a rack be split into runs and sets with nothing left over?

The search works on counts, not on tiles. Real okeys (the okey's face) are taken out as wild
*jokers*; fake jokers become the okey's face, which is then an ordinary tile.

Every joker lies in a meld with at least one real tile (a meld has 3+ tiles, there are only two
okeys), so a solution is: some sets, chosen number by number, and then for each colour a split of
what is left of that colour into runs. A set with one real tile and two jokers is also a run, so
sets are only tried where two or more colours of one number are present. For each colour the run
search answers with the *exact* numbers of jokers it can absorb (a bitmask over 0, 1, 2), so the
colours combine without trying joker placements one by one.

Runs live on 14 positions: the numbers 1..13 and a 14th, "1 after 13". Before the run search a
colour's 1s are shared out between position 1 and position 14 in every way; a run is then any
stretch of 3..13 positions, which keeps both "12-13-1" (positions 12..14) and "not 13-1-2" and
"not both ends" (a stretch 1..14 is 14 long).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from .tiles import FAKE, TileError

MAX_JOKERS = 2
_ALL = (1 << (MAX_JOKERS + 1)) - 1  # joker-count bitmask: bit j set = exactly j jokers fit


def rack_counts(tiles: Sequence[int], okey: int) -> tuple[list[int], int]:
    """Counts per face 0..51 (fake jokers counted as the okey's face) and the number of real okeys."""
    if not 0 <= okey < FAKE:
        raise TileError(f"no okey with code {okey!r}")
    counts = [0] * FAKE
    jokers = 0
    for t in tiles:
        if t == okey:
            jokers += 1
        elif t == FAKE:
            counts[okey] += 1
        elif 0 <= t < FAKE:
            counts[t] += 1
        else:
            raise TileError(f"no tile with code {t!r}")
    if jokers > MAX_JOKERS or max(counts) > 2:
        raise TileError("more than two copies of a tile")
    return counts, jokers


# ---------------------------------------------------------------- runs, one colour at a time


@lru_cache(maxsize=1 << 16)
def _runs_mask(pos: tuple[int, ...]) -> int:
    """Joker counts j (bitmask) with which the tiles on these 14 positions split into runs."""
    p = next((i for i, c in enumerate(pos) if c), -1)
    if p < 0:
        return 1  # nothing left: exactly zero jokers fit (jokers alone make no meld)
    result = 0
    # The lowest tile starts its run, possibly after jokers standing for lower numbers.
    for lead in range(min(p, MAX_JOKERS) + 1):
        s = p - lead
        rest = list(pos)
        rest[p] -= 1
        used = lead
        for e in range(p, min(13, s + 12) + 1):
            if e > p:
                if rest[e]:
                    rest[e] -= 1  # a real tile is never worse than a joker in the same place
                else:
                    used += 1
                    if used > MAX_JOKERS:
                        break
            if e - s >= 2:
                result |= _runs_mask(tuple(rest)) << used
        if result & _ALL == _ALL:
            break
    return result & _ALL


@lru_cache(maxsize=1 << 16)
def colour_runs_mask(colour: tuple[int, ...]) -> int:
    """Joker counts (bitmask) with which one colour's counts for 1..13 split into runs."""
    ones = colour[0]
    mask = 0
    for high in range(ones + 1):
        mask |= _runs_mask((ones - high, *colour[1:], high))
    return mask


def _runs_witness(pos: list[int], jokers: int) -> list[list[int | None]]:
    """Runs (lists of positions, None for a joker) using exactly `jokers`; the mask says it fits."""
    p = next((i for i, c in enumerate(pos) if c), -1)
    if p < 0:
        return []
    for lead in range(min(p, jokers) + 1):
        s = p - lead
        rest = list(pos)
        rest[p] -= 1
        run: list[int | None] = [None] * lead + [p]
        used = lead
        for e in range(p + 1, min(13, s + 12) + 2):
            if e - s >= 3 and used <= jokers and _runs_mask(tuple(rest)) >> (jokers - used) & 1:
                return [run, *_runs_witness(rest, jokers - used)]
            if e > min(13, s + 12):
                break
            if rest[e]:
                rest[e] -= 1
                run.append(e)
            else:
                used += 1
                if used > jokers:
                    break
                run.append(None)
    raise AssertionError("run witness not found although the mask allowed it")


# ---------------------------------------------------------------- sets, one number at a time


def _set_splits(need: tuple[int, ...], jokers: int) -> list[list[int | None]] | None:
    """Split colours (count per colour) plus jokers into sets of 3-4 distinct colours, each with
    at least two real tiles; a list of sets (colour or None for a joker), or None."""
    present = [c for c in range(4) if need[c]]
    if not present:
        return [] if jokers == 0 else None
    first = present[0]
    others = present[1:]
    for k in range(1, 4):
        for more in combinations(others, k):
            real = (first, *more)
            for j in range(jokers + 1):
                if not 3 <= len(real) + j <= 4:
                    continue
                rest = list(need)
                for c in real:
                    rest[c] -= 1
                sub = _set_splits(tuple(rest), jokers - j)
                if sub is not None:
                    return [[*real, *[None] * j], *sub]
    return None


def _build_set_options() -> dict[tuple[int, ...], tuple[tuple[tuple[int, ...], int], ...]]:
    """For each colour count vector at one number: the (taken counts, jokers) that make sets."""
    vectors = [(a, b, c, d) for a in range(3) for b in range(3) for c in range(3) for d in range(3)]
    good = {(v, j) for v in vectors for j in range(MAX_JOKERS + 1) if any(v) and _set_splits(v, j)}
    table = {}
    for avail in vectors:
        table[avail] = tuple(
            (v, j)
            for v, j in sorted(good, key=lambda g: (-sum(g[0]), g[1]))
            if all(x <= y for x, y in zip(v, avail, strict=True))
        )
    return table


_SET_OPTIONS = _build_set_options()


# ---------------------------------------------------------------- the whole rack


def _combine(masks: Sequence[int]) -> int:
    """Joker counts that the colours can absorb together (sum-set of their bitmasks)."""
    total = 1
    for m in masks:
        acc = 0
        for j in range(MAX_JOKERS + 1):
            if total >> j & 1:
                acc |= m << j
        total = acc & _ALL
        if not total:
            return 0
    return total


def _search(counts: list[int], jokers: int, want_witness: bool):
    """Try set choices number by number; for each, ask the per-colour run masks."""
    candidates = []
    for n in range(13):
        avail = (counts[n], counts[13 + n], counts[26 + n], counts[39 + n])
        opts = [o for o in _SET_OPTIONS[avail] if o[1] <= jokers]
        if opts:
            candidates.append((n, opts))
    colours = [counts[c * 13 : c * 13 + 13] for c in range(4)]
    chosen: list[tuple[int, tuple[int, ...], int]] = []

    def leaf(left: int):
        masks = [colour_runs_mask(tuple(col)) for col in colours]
        if not _combine(masks) >> left & 1:
            return None
        if not want_witness:
            return True
        return _witness(colours, masks, left, chosen)

    def walk(i: int, left: int):
        if i == len(candidates):
            return leaf(left)
        n, opts = candidates[i]
        for take, j in opts:
            if j > left:
                continue
            for c in range(4):
                colours[c][n] -= take[c]
            chosen.append((n, take, j))
            found = walk(i + 1, left - j)
            chosen.pop()
            for c in range(4):
                colours[c][n] += take[c]
            if found:
                return found
        return walk(i + 1, left)

    return walk(0, jokers)


def _witness(colours, masks, left, chosen) -> list[list[tuple[int, int | None]]]:
    """Melds as lists of (colour, number index or None for a joker)."""
    melds: list[list[tuple[int, int | None]]] = []
    for n, take, j in chosen:
        for group in _set_splits(take, j) or []:
            melds.append([(c, n) if c is not None else (-1, None) for c in group])
    for c in range(4):
        rest_mask = _combine(masks[c + 1 :])
        j = next(j for j in range(left + 1) if masks[c] >> j & 1 and rest_mask >> (left - j) & 1)
        left -= j
        ones = colours[c][0]
        for high in range(ones + 1):
            pos = [ones - high, *colours[c][1:], high]
            if _runs_mask(tuple(pos)) >> j & 1:
                for run in _runs_witness(pos, j):
                    melds.append([(c, None if q is None else q % 13) for q in run])
                break
    return melds


@lru_cache(maxsize=1 << 15)
def _can_meld_key(key: tuple[int, ...], jokers: int) -> bool:
    return bool(_search(list(key), jokers, want_witness=False))


def can_meld(tiles: Sequence[int], okey: int) -> bool:
    """The tiles split into runs and sets with nothing left over."""
    counts, jokers = rack_counts(tiles, okey)
    if not any(counts):
        return jokers == 0
    return _can_meld_key(tuple(counts), jokers)


def meld_split(tiles: Sequence[int], okey: int) -> list[list[int]] | None:
    """One split into melds as lists of the rack's own tiles (real okeys where they stand in,
    fake jokers as FAKE), runs in order, or None."""
    counts, jokers = rack_counts(tiles, okey)
    if not any(counts):
        return [] if jokers == 0 else None
    found = _search(counts, jokers, want_witness=True)
    if not found:
        return None
    out = []
    for meld in found:
        faces = []
        for c, n in meld:
            if n is None:
                faces.append(okey)
            else:
                f = c * 13 + n
                faces.append(FAKE if f == okey else f)
        out.append(faces)
    return out
