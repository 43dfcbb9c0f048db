"""Melds (per): can a rack be split into runs and sets with nothing left over?

The search works on counts, not on tiles. Real okeys (the okey's face) are taken out as wild
*jokers*; fake jokers become the okey's face, which is then an ordinary tile.

Every joker lies in a meld with at least one real tile (a meld has 3+ tiles, there are only two
okeys), so a solution is: some sets, chosen number by number, and then for each colour a split of
what is left of that colour into runs. A set with one real tile and two jokers is also a run, so
sets are only tried where two or more colours of one number are present, and only as *core* sets
(three or four real tiles, or two and an okey): an okey that neither they nor the runs take is
then put into a three-tile set, if one is free. For each colour the run search answers with the *exact* numbers of jokers it can
absorb (a bitmask over 0, 1, 2), so the colours combine without trying joker placements one by
one. Before any search, a few shifts and ands turn away racks with a tile that no meld can hold.

Runs live on 14 positions: the numbers 1..13 and a 14th, "1 after 13". Before the run search a
colour's 1s are shared out between position 1 and position 14 in every way; a run is then any
stretch of 3..13 positions, which keeps both "12-13-1" (positions 12..14) and "not 13-1-2" and
"not both ends" (a stretch 1..14 is 14 long).

Counts are packed in ints, four bits per face (a rack never holds 16 of anything, so no field
overflows): a rack is one int over the 52 faces, a colour is a 52-bit slice of it, and the cheap
tests ("could this tile be in any meld at all?") are a few shifts and ands.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .tiles import FAKE, TileError

MAX_JOKERS = 2
_ALL = (1 << (MAX_JOKERS + 1)) - 1  # joker-count bitmask: bit j set = exactly j jokers fit
_BITS = 4  # bits per face in a packed count
_COLOUR = 13 * _BITS
_COLOUR_MASK = (1 << _COLOUR) - 1
_ONES = sum(1 << (_BITS * n) for n in range(13))  # the lowest bit of each number's field
_COLOUR_STARTS = sum(1 << (13 * _BITS * c) for c in range(4))  # each colour's 1
_RUN_STARTS = _COLOUR_STARTS * ((1 << (11 * _BITS)) // 15)  # each colour's 1..11
FIELD_LOWS = (1 << (_BITS * FAKE)) // 15  # the lowest bit of every face's field
_FIELD_LOWS_53 = (1 << (_BITS * (FAKE + 1))) // 15
_ONE = {f: 1 << (_BITS * f) for f in range(FAKE)} | {FAKE: 0}  # fakes: added as the okey's face
_COPY = {f: 1 << (_BITS * f) for f in range(FAKE + 1)}  # every face its own field, fakes too
_CACHE_LIMIT = 1 << 17  # entries per memo before it starts afresh: bounded memory, long-lived


def rack_key(tiles: Sequence[int], okey: int) -> tuple[int, int]:
    """The rack's counts packed in an int (fake jokers counted as the okey's face) and the number
    of real okeys. Raises TileError for codes that are not tiles or a third copy of a face."""
    if not 0 <= okey < FAKE:
        raise TileError(f"no okey with code {okey!r}")
    try:
        key = sum(map(_ONE.__getitem__, tiles))
    except (KeyError, TypeError):
        raise TileError(f"not a list of tile codes: {list(tiles)!r}") from None
    jokers = tiles.count(okey)
    key += (tiles.count(FAKE) - jokers) << (_BITS * okey)
    if jokers > MAX_JOKERS or _too_many(key):
        raise TileError("more than two copies of a tile")
    return key, jokers


def key_without(key: int, jokers: int, tile: int, okey: int) -> tuple[int, int]:
    """The packed rack (see rack_key) with one tile taken out."""
    if tile == okey:
        return key, jokers - 1
    return key - _ONE[okey if tile == FAKE else tile], jokers


def _too_many(key: int) -> bool:
    """Some face counted three times or more (in a packing of up to 15 tiles)."""
    return bool((key & key >> 1 | key >> 2 | key >> 3) & _FIELD_LOWS_53)


def too_many_copies(faces: Sequence[int]) -> bool:
    """More than two of some face (fake jokers included) among at most 15 tile codes."""
    return _too_many(sum(map(_COPY.__getitem__, faces)))


# _SUM[a][b]: the joker counts two parts absorb together (sum-set of two bitmasks over 0..2)
_SUM = [[0] * 8 for _ in range(8)]
for _a in range(8):
    for _b in range(8):
        for _i in range(3):
            if _a >> _i & 1:
                _SUM[_a][_b] |= (_b << _i) & _ALL


# ---------------------------------------------------------------- runs, one colour at a time

_RUNS: dict[int, int] = {}
_COLOURS: dict[int, int] = {}


def _runs_mask(pos: int, top: int = 13) -> int:
    """Joker counts (bitmask) with which the counts on positions 0..top (4 bits each) split into
    runs."""
    if not pos:
        return 1  # nothing left: exactly zero jokers fit (jokers alone make no meld)
    k = pos | top << 56
    found = _RUNS.get(k)
    if found is not None:
        return found
    p = ((pos & -pos).bit_length() - 1) >> 2  # the lowest tile starts its run...
    result = 0
    for lead in range(min(p, MAX_JOKERS) + 1):  # ...possibly after jokers for lower numbers
        s = p - lead
        rest = pos - (1 << (_BITS * p))
        used = lead
        for e in range(p, min(top, s + 12) + 1):
            if e > p:
                if rest >> (_BITS * e) & 15:
                    rest -= 1 << (_BITS * e)  # a real tile is never worse than a joker here
                else:
                    used += 1
                    if used > MAX_JOKERS:
                        break
            if e - s >= 2:
                result |= _runs_mask(rest, top) << used
        if result & _ALL == _ALL:
            break
    result &= _ALL
    if len(_RUNS) > _CACHE_LIMIT:
        _RUNS.clear()
    _RUNS[k] = result
    return result


def _line_mask(pos: int) -> int:
    """_runs_mask of a colour's 14 positions, piece by piece: no run bridges three empty places
    with two okeys, so stretches of tiles that far apart are independent, and each is looked up
    by its shape and its room to the ends (up to two places), wherever it lies. Most colours then
    reuse pieces already solved."""
    places = [i for i in range(14) if pos >> (_BITS * i) & 15]
    total = 1
    a = 0
    for i in range(len(places)):
        if i + 1 < len(places) and places[i + 1] - places[i] < 4:
            continue
        lo, hi = places[a], places[i]
        left = min(lo, MAX_JOKERS)
        piece = (pos >> (_BITS * lo)) & ((1 << (_BITS * (hi - lo + 1))) - 1)
        top = left + hi - lo + min(13 - hi, MAX_JOKERS)
        total = _SUM[total][_runs_mask(piece << (_BITS * left), top)]
        if not total:
            return 0
        a = i + 1
    return total


def _ones_shared(colour: int):
    """The colour on 14 positions, for each way of putting its 1s after the 13."""
    ones = colour & 15
    for high in range(ones + 1):
        yield colour - high + (high << _COLOUR)


def colour_runs_mask(colour: int) -> int:
    """Joker counts (bitmask) with which one colour's packed counts for 1..13 split into runs."""
    found = _COLOURS.get(colour)
    if found is None:
        found = 0
        for pos in _ones_shared(colour):
            found |= _line_mask(pos)
        if len(_COLOURS) > _CACHE_LIMIT:
            _COLOURS.clear()
        _COLOURS[colour] = found
    return found


def _runs_witness(pos: int, jokers: int) -> list[list[int | None]]:
    """Runs (lists of positions, None for a joker) using exactly `jokers`; the mask says it fits."""
    if not pos:
        return []
    p = ((pos & -pos).bit_length() - 1) >> 2
    for lead in range(min(p, jokers) + 1):
        s = p - lead
        rest = pos - (1 << (_BITS * p))
        run: list[int | None] = [None] * lead + [p]
        used = lead
        end = min(13, s + 12)
        for e in range(p + 1, end + 2):
            if e - s >= 3 and _runs_mask(rest) >> (jokers - used) & 1:
                return [run, *_runs_witness(rest, jokers - used)]
            if e > end:
                break
            if rest >> (_BITS * e) & 15:
                rest -= 1 << (_BITS * e)
                run.append(e)
            else:
                used += 1
                if used > jokers:
                    break
                run.append(None)
    raise AssertionError("run witness not found although the mask allowed it")


# ---------------------------------------------------------------- sets, one number at a time


def _set_splits(need: tuple[int, ...], jokers: int) -> list[list[int | None]] | None:
    """Split colours (count per colour) plus jokers into *core* sets, three or four real tiles of
    different colours or two and an okey, keeping as many three-tile sets as possible (each can
    take one more okey later); a list of sets (colour, or None for an okey), or None."""
    present = [c for c in range(4) if need[c]]
    if not present:
        return [] if jokers == 0 else None
    first, others = present[0], present[1:]
    best = None
    for k in (1, 2, 3):
        for more in combinations(others, k):
            real = (first, *more)
            j = 1 if k == 1 else 0
            if j > jokers:
                continue
            rest = list(need)
            for c in real:
                rest[c] -= 1
            sub = _set_splits(tuple(rest), jokers - j)
            if sub is not None:
                split = [[*real, *[None] * j], *sub]
                if best is None or _room(split) > _room(best):
                    best = split
    return best


def _room(sets: list[list[int | None]]) -> int:
    """How many more okeys the sets could take: one for each three-tile set."""
    return sum(len(g) == 3 for g in sets)


# For each number, the ways to take sets from its tiles: (counts taken per colour, okeys used,
# room for more okeys). Only core sets are listed; an okey beyond them is placed afterwards in
# any three-tile set (see _search), which spares the search many near-identical branches.
_SET_OPTIONS: dict[tuple[int, ...], tuple[tuple[tuple[int, ...], int, int], ...]] = {}


def _set_options(avail: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int, int], ...]:
    found = _SET_OPTIONS.get(avail)
    if found is None:
        takes = [
            (a, b, c, d)
            for a in range(avail[0] + 1)
            for b in range(avail[1] + 1)
            for c in range(avail[2] + 1)
            for d in range(avail[3] + 1)
        ]
        good = []
        for v in takes:
            for j in range(MAX_JOKERS + 1):
                split = _set_splits(v, j) if sum(v) >= 2 else None
                if split is not None:
                    good.append((v, j, _room(split)))
        found = _SET_OPTIONS[avail] = tuple(sorted(good, key=lambda g: (-sum(g[0]), g[1])))
    return found


# ---------------------------------------------------------------- the whole rack


def _presence(key: int) -> list[int]:
    """Per colour, the low bit of each number's field set where the colour has that number."""
    return [((key >> (_COLOUR * c)) | (key >> (_COLOUR * c + 1))) & _ONES for c in range(4)]


def _at_least(p: list[int], k: int) -> int:
    """Numbers (as field bits) held in at least k colours."""
    a, b, c, d = p
    if k == 2:
        return a & (b | c | d) | b & (c | d) | c & d
    return a & b & (c | d) | c & d & (a | b)


def _windows(q: int, jokers: int) -> int:
    """Numbers (field bits) of a colour's presence q that lie in a run window of three places
    holding three tiles (jokers=0) or two (jokers=1); a 1 may also stand after the 13."""
    f = _BITS
    q14 = q | (q & 1) << _COLOUR
    x, y, z = q14, q14 >> f, q14 >> 2 * f
    w = x & y & z if jokers == 0 else x & y | x & z | y & z
    w &= (1 << (12 * f)) - 1  # a window starts at 1..12
    cover = w | w << f | w << 2 * f
    return (cover | cover >> _COLOUR) & _ONES


def _lines_cover(points: list[tuple[int, int]], lines: int) -> bool:
    """The (colour, number) points lie on at most `lines` lines, each a colour or a number."""
    if not points:
        return True
    if not lines:
        return False
    c, n = points[0]
    return _lines_cover([q for q in points if q[0] != c], lines - 1) or _lines_cover(
        [q for q in points if q[1] != n], lines - 1
    )


def _hopeless(key: int, p: list[int], jokers: int) -> bool:
    """Necessary conditions, cheap, so that most racks that are far from melds stop here.

    A tile outside every joker-free window and set needs an okey in its meld, and each okey is in
    one meld, a run (one colour) or a set (one number): so those tiles lie on at most `jokers`
    colour-or-number lines. A tile with no partner even with one okey needs both okeys to itself
    (x-okey-okey or x-okey-okey-y): at most two such tiles, of one colour."""
    # the joker-free test on the whole packed rack at once, all four colours side by side
    present = (key | key >> 1) & FIELD_LOWS
    w = present & present >> _BITS & present >> 2 * _BITS & _RUN_STARTS
    t = present & present >> 11 * _BITS & present >> 12 * _BITS & _COLOUR_STARTS  # 12-13-1
    covered = w | w << _BITS | w << 2 * _BITS | t | t << 11 * _BITS | t << 12 * _BITS
    lacking = present & ~(covered | _at_least(p, 3) * _COLOUR_STARTS)
    if not lacking:
        return False
    if jokers == 0:
        return True
    need = [lacking >> (_COLOUR * c) & _ONES for c in range(4)]
    points = []
    for c, q in enumerate(need):
        while q:  # only the set bits: most racks need a line for few tiles
            bit = q & -q
            q ^= bit
            points.append((c, (bit.bit_length() - 1) >> 2))
    if not _lines_cover(points, jokers):
        return True
    pairs = _at_least(p, 2)
    lonely = 0
    lonely_colours = 0
    for c in range(4):
        lone = need[c] & ~(pairs | _windows(p[c], 1))
        if lone:
            copies = (key >> (_COLOUR * c + 1)) & lone  # faces held twice
            lonely += lone.bit_count() + copies.bit_count()
            lonely_colours += 1
    return lonely > 0 and (jokers < 2 or lonely > 2 or lonely_colours > 1)


def _search(key: int, jokers: int, witness: bool):
    """Try set choices number by number; each colour's runs are asked as soon as the last number
    that could take sets from it is decided, so hopeless branches die early. Okeys not used by
    the core sets and the runs go into three-tile sets, one each."""
    p = _presence(key)
    if _hopeless(key, p, jokers):
        return None
    colours = [(key >> (_COLOUR * c)) & _COLOUR_MASK for c in range(4)]
    candidates = []
    shifts = []
    numbers = _at_least(p, 2 if jokers else 3)
    while numbers:
        bit = numbers & -numbers
        numbers ^= bit
        shift = bit.bit_length() - 1
        avail = tuple((col >> shift) & 15 for col in colours)
        opts = [
            (take[0] << shift, take[1] << shift, take[2] << shift, take[3] << shift, j, room)
            for take, j, room in _set_options(avail)
            if j <= jokers
        ]
        if opts:
            candidates.append([*opts, (0, 0, 0, 0, 0, 0)])
            shifts.append(shift)
    # settled[i]: the colours that no candidate after i touches, so their runs can be asked then.
    settled: list[tuple[int, ...]] = []
    acc = 1  # the okey counts (bitmask) that the settled colours' runs can absorb
    last = [-1] * 4
    for i, opts in enumerate(candidates):
        for c in range(4):
            if any(o[c] for o in opts):
                last[c] = i
    for i in range(len(candidates)):
        settled.append(tuple(c for c in range(4) if last[c] == i))
    for c in range(4):
        if last[c] < 0:
            acc = _SUM[acc][colour_runs_mask(colours[c])]
    chosen: list[tuple[int, ...]] = []
    end = len(candidates)
    masks = _COLOURS

    def walk(i: int, left: int, room: int, acc: int, c0: int, c1: int, c2: int, c3: int):
        if not acc & ((2 << left) - 1):
            return None
        if i == end:
            spare = max(0, left - room)  # okeys the runs must take
            if not acc >> spare & ((2 << (left - spare)) - 1):
                return None
            return _witness([c0, c1, c2, c3], left, room, chosen) if witness else True
        for d0, d1, d2, d3, j, r in candidates[i]:
            if j > left:
                continue
            n0, n1, n2, n3 = c0 - d0, c1 - d1, c2 - d2, c3 - d3
            more = acc
            for c in settled[i]:
                col = (n0, n1, n2, n3)[c]
                m = masks.get(col)
                more = _SUM[more][colour_runs_mask(col) if m is None else m]
            if witness:
                shift = shifts[i]
                chosen.append((shift >> 2, (d0 >> shift, d1 >> shift, d2 >> shift, d3 >> shift), j))
            found = walk(i + 1, left - j, room + r, more, n0, n1, n2, n3)
            if found:
                return found
            if witness:
                chosen.pop()
        return None

    return walk(0, jokers, 0, acc, *colours)


def _witness(colours, left, room, chosen) -> list[list[tuple[int, int | None]]]:
    """Melds as lists of (colour, number index 0..12, or None for a joker): the okeys left after
    the core sets go to the runs, as many as they must take, the rest to three-tile sets."""
    masks = [colour_runs_mask(col) for col in colours]
    total = 1
    for m in masks:
        total = _SUM[total][m]
    in_runs = next(k for k in range(max(0, left - room), left + 1) if total >> k & 1)
    spare = left - in_runs
    run_jokers = []
    for c in range(4):
        rest = 1
        for m in masks[c + 1 :]:
            rest = _SUM[rest][m]
        j = next(j for j in range(in_runs + 1) if masks[c] >> j & 1 and rest >> (in_runs - j) & 1)
        run_jokers.append(j)
        in_runs -= j
    melds: list[list[tuple[int, int | None]]] = []
    for n, take, j in chosen:
        for group in _set_splits(take, j) or []:
            meld = [(c, n) if c is not None else (-1, None) for c in group]
            if len(meld) == 3 and spare:
                meld.append((-1, None))
                spare -= 1
            melds.append(meld)
    assert not spare, "spare okeys without a three-tile set"
    for c in range(4):
        j = run_jokers[c]
        pos = next(q for q in _ones_shared(colours[c]) if _runs_mask(q) >> j & 1)
        for run in _runs_witness(pos, j):
            melds.append([(c, None if q is None else q % 13) for q in run])
    return melds


_MELDS: dict[int, bool] = {}


def key_can_meld(key: int, jokers: int) -> bool:
    """can_meld on a packed rack (see rack_key)."""
    if not key:
        return jokers == 0
    k = key | jokers << (_BITS * FAKE)
    found = _MELDS.get(k)
    if found is None:
        found = bool(_search(key, jokers, witness=False))
        if len(_MELDS) > _CACHE_LIMIT:
            _MELDS.clear()
        _MELDS[k] = found
    return found


def can_meld(tiles: Sequence[int], okey: int) -> bool:
    """The tiles split into runs and sets with nothing left over."""
    return key_can_meld(*rack_key(tiles, okey))


def meld_split(tiles: Sequence[int], okey: int) -> list[list[int]] | None:
    """One split into melds as lists of the rack's own tiles (real okeys where they stand in,
    fake jokers as FAKE), runs in playing order, or None."""
    key, jokers = rack_key(tiles, okey)
    if not key:
        return [] if jokers == 0 else None
    found = _search(key, jokers, witness=True)
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


def clear_caches() -> None:
    """Forget every memo (for benchmarks that want a cold start)."""
    _RUNS.clear()
    _COLOURS.clear()
    _MELDS.clear()
