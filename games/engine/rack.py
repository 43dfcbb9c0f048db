"""Rack helpers: arranging a rack for the player ("seri diz", "çift diz") and the choices a bot or
a timed-out player makes (which tile to throw, whether to take the left discard).

Arranging looks for the most tiles in melds (runs and sets, okeys standing in), on the packed
counts of melds.py, memoised. The choices weigh, for each tile the rack could lose: how many tiles
the rest can still put in melds (or in pairs, for a rack that is going for pairs), then how well
the tile connects to the others (neighbours in its colour, its number in other colours, its twin).
"Easy" skips the meld search and adds a little deterministic noise derived from the rack, so it
plays worse and never the same way on every rack, without any global random.
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from .finish import FINISH_FACTOR, finishes
from .melds import FIELD_LOWS, key_without, rack_key
from .memo import Memo
from .tiles import FAKE, colour_of, number_of

BOT_STRENGTHS = ("normal", "easy", "hard")
# the strengths that choose from the rack alone; "hard" also reads the table (hard.py)
RACK_STRENGTHS = ("normal", "easy")
_BITS = 4
_CACHE_LIMIT = 1 << 15  # entries per generation of the memo below (memo.py)

# ---------------------------------------------------------------- the most tiles in melds

_COVER: Memo[int, tuple[tuple[int, int], tuple | None]] = Memo(_CACHE_LIMIT)


def _count(key: int, f: int) -> int:
    return key >> (_BITS * f) & 15


def _runs_from(key: int, jokers: int, f: int):
    """Runs through the face f, the lowest tile left: (faces or None for an okey, new key,
    okeys left). Lower places can only be okeys; a 1 may also close a run after the 13."""
    colour, index = divmod(f, 13)
    number = index + 1
    base = colour * 13
    rest0 = key - (1 << (_BITS * f))
    # f first, after `lead` okeys, then higher numbers up to 13 (and, from a start of 2 or more,
    # the 1 after the 13). Real tiles before okeys: an okey where a real tile could stand can
    # always trade places with it.
    for lead in range(min(jokers, number - 1) + 1):
        start = number - lead
        run: list[int | None] = [None] * lead + [f]
        rest, left = rest0, jokers - lead
        n = number
        while True:
            # With okeys in front, only runs that reach the 13: any shorter one is as good with
            # those okeys at its other end.
            if len(run) >= 3 and (not lead or n >= 13):
                yield run, rest, left
            n += 1
            if n > 14 or (n == 14 and start == 1) or len(run) == 13:
                break
            g = base + (n - 1) % 13  # at 14, the 1: never left, f being the lowest tile
            if _count(rest, g):
                rest -= 1 << (_BITS * g)
                run = [*run, g]
            elif left:
                left -= 1
                run = [*run, None]
            else:
                break
    if number == 1:  # the 1 closing a run: ..., 12, 13, 1
        for length in range(3, 14):
            rest, left = rest0, jokers
            run = []
            for n in range(15 - length, 14):
                g = base + n - 1
                if _count(rest, g):
                    rest -= 1 << (_BITS * g)
                    run.append(g)
                elif left:
                    left -= 1
                    run.append(None)
                else:
                    break
            else:
                if any(x is not None for x in run):  # else the same as a run from 1
                    yield [*run, f], rest, left


_OTHER_COLOURS = [
    [others for k in (2, 3) for others in combinations([c for c in range(4) if c != colour], k)]
    for colour in range(4)
]


def _sets_with(key: int, jokers: int, f: int):
    """Sets through the face f: other colours of its number, real tiles or okeys, at least two
    real tiles (one tile and two okeys is a run)."""
    colour, index = divmod(f, 13)
    rest0 = key - (1 << (_BITS * f))
    present = [c for c in range(4) if c != colour and _count(rest0, c * 13 + index)]
    if not present:
        return
    for others in _OTHER_COLOURS[colour]:
        missing = sum(1 for c in others if c not in present)
        if missing > jokers or missing == len(others):
            continue
        rest = rest0
        group: list[int | None] = [f]
        for c in others:
            g = c * 13 + index
            if c in present:
                rest -= 1 << (_BITS * g)
                group.append(g)
            else:
                group.append(None)
        yield group, rest, jokers - missing


def _cover(key: int, jokers: int) -> tuple[tuple[int, int], tuple | None]:
    """The best (tiles in melds, tiles in runs) for the packed rack, and the first choice of it:
    (meld or None when the lowest tile is left out, key after, okeys after)."""
    if not key:
        return (0, 0), None
    k = key | jokers << 240
    found = _COVER.new.get(k)
    if found is None:
        found = _COVER.revive(k)
    if found is not None:
        return found
    f = ((key & -key).bit_length() - 1) // _BITS
    rest = key - (1 << (_BITS * f))
    sub = _cover(rest, jokers)[0]
    best = (sub, (None, rest, jokers))
    for meld, after, left in _runs_from(key, jokers, f):
        s = _cover(after, left)[0]
        score = (s[0] + len(meld), s[1] + len(meld))
        if score > best[0]:
            best = (score, (meld, after, left))
    for meld, after, left in _sets_with(key, jokers, f):
        s = _cover(after, left)[0]
        score = (s[0] + len(meld), s[1])
        if score > best[0]:
            best = (score, (meld, after, left))
    _COVER.put(k, best)
    return best


def _arrangement(key: int, jokers: int) -> tuple[list[list[int | None]], list[int], int]:
    """Melds (None for an okey), faces left out, okeys left unused."""
    melds, loose = [], []
    while key:
        _, (meld, after, left) = _cover(key, jokers)
        if meld is None:
            loose.append(((key & -key).bit_length() - 1) // _BITS)
        else:
            melds.append(meld)
        key, jokers = after, left
    return melds, loose, jokers


def _as_tiles(faces: Sequence[int | None], okey: int) -> list[int]:
    """Packed faces back to the rack's tiles: None is a real okey, the okey's face a fake."""
    return [okey if f is None else FAKE if f == okey else f for f in faces]


def _sort_key(t: int, okey: int) -> tuple[int, int]:
    if t == okey:
        return (5, 0)
    if t == FAKE:
        return (4, 0)
    return (colour_of(t), number_of(t))


def _is_set(meld: Sequence[int | None]) -> bool:
    real = [f for f in meld if f is not None]
    return len({number_of(f) for f in real}) == 1 and len({colour_of(f) for f in real}) > 1


def arrange_runs(rack: Sequence[int], okey: int) -> tuple[list[list[int]], list[int]]:
    """ "Seri diz": the most tiles in melds, runs first (by colour, then number), then sets;
    okeys stand where they are needed. Leftovers sorted by colour and number, okeys last."""
    key, jokers = rack_key(rack, okey)
    melds, loose, spare = _arrangement(key, jokers)
    runs = sorted((m for m in melds if not _is_set(m)), key=lambda m: _first_real(m))
    sets = sorted(
        (
            sorted(f for f in m if f is not None) + [None] * m.count(None)
            for m in melds
            if _is_set(m)
        ),
        key=lambda m: number_of(m[0]),
    )
    groups = [_as_tiles(m, okey) for m in runs + sets]
    leftovers = _as_tiles(loose, okey) + [okey] * spare
    return groups, sorted(leftovers, key=lambda t: _sort_key(t, okey))


def _first_real(meld: Sequence[int | None]) -> int:
    return next(f for f in meld if f is not None)


def arrange_pairs(rack: Sequence[int], okey: int) -> tuple[list[list[int]], list[int]]:
    """ "Çift diz": pairs first (twins, then a single beside an okey), then melds of the rest."""
    counts = Counter(rack)
    okeys = counts.pop(okey, 0)
    order = sorted(counts, key=lambda t: _sort_key(t, okey))
    pairs = [[t, t] for t in order for _ in range(counts[t] // 2)]
    singles = [t for t in order if counts[t] % 2]
    while okeys and singles:
        pairs.append([singles.pop(0), okey])
        okeys -= 1
    if okeys == 2:
        pairs.append([okey, okey])
        okeys = 0
    rest = singles + [okey] * okeys
    groups, leftovers = arrange_runs(rest, okey) if rest else ([], [])
    return pairs + groups, leftovers


# ---------------------------------------------------------------- choices for bots and timeouts


def neighbours(number: int, d: int) -> list[int]:
    """Numbers d apart from `number` in some run (12-13-1 counts, 13-1-2 does not)."""
    out = [n for n in (number - d, number + d) if 1 <= n <= 13]
    if number == 1:
        out.append(14 - d)  # the 1 after the 13
    elif number == 14 - d:
        out.append(1)
    return out


def _links(rack: Sequence[int], okey: int) -> dict[int, int]:
    """How well each face connects to the rest: neighbours in its colour (one apart 3, two apart
    2), its number in other colours (2 each), its twin (1)."""
    faces = Counter(okey if t == FAKE else t for t in rack if t != okey)
    out = {}
    for f in faces:
        colour, index = divmod(f, 13)
        score = faces[f] - 1
        for d, weight in ((1, 3), (2, 2)):
            score += sum(weight for n in neighbours(index + 1, d) if faces.get(colour * 13 + n - 1))
        score += sum(2 for c in range(4) if c != colour and faces.get(c * 13 + index))
        out[f] = score
    return out


def key_melded(key: int, jokers: int) -> int:
    """The most tiles of the packed rack (see melds.rack_key) that lie in melds."""
    return _cover(key, jokers)[0][0]


def key_arrangement(key: int, jokers: int) -> tuple[list[list[int | None]], list[int], int]:
    """The best arrangement of the packed rack: melds (faces in order, None for an okey), the
    faces left out, the okeys left unused."""
    return _arrangement(key, jokers)


def key_pairs(key: int, jokers: int) -> int:
    """Pairs the rack holds or can make with its okeys."""
    # a face is held at most twice: the field's high bit is a twin, its low bit a single
    twins = (key >> 1 & FIELD_LOWS).bit_count()
    singles = (key & FIELD_LOWS).bit_count()
    return twins + min(jokers, singles) + max(0, jokers - singles) // 2


def _check_strength(strength: str) -> None:
    if strength not in RACK_STRENGTHS:
        raise ValueError(
            f"unknown rack strength {strength!r}: choose one of {', '.join(RACK_STRENGTHS)}"
            " (the hard bot reads the whole table: autoplay.bot_discard)"
        )


def _noise(rack: Sequence[int], t: int, scale: int) -> int:
    """Deterministic small noise from the rack and the tile (the easy bot's mistakes)."""
    return zlib.crc32(bytes(sorted(rack)) + bytes([t])) % scale if scale else 0


def _discard_scores(rack: Sequence[int], okey: int, strength: str) -> dict[int, tuple]:
    """For each tile the rack could throw: a score, higher is a better throw."""
    key, jokers = rack_key(rack, okey)
    links = _links(rack, okey)
    easy = strength == "easy"
    held_pairs = key_pairs(key, jokers)
    scores = {}
    for t in set(rack):
        if t == okey:
            scores[t] = (-1000,)  # never throw a real okey when anything else will do
            continue
        k, j = key_without(key, jokers, t, okey)
        face = okey if t == FAKE else t
        loose = -links.get(face, 0) * 10 + _noise(rack, t, 40 if easy else 0)
        if easy:
            scores[t] = (0, loose)
            continue
        pairs_after = key_pairs(k, j)
        kept = pairs_after * 2 if held_pairs >= 5 else _cover(k, j)[0][0]
        scores[t] = (kept, loose)
    return scores


def best_discard(rack15: Sequence[int], okey: int, strength: str = "normal") -> int:
    """The tile to throw (or to finish with) from a rack of 15: a tile that finishes if there is
    one (the real okey first, okey atmak doubles the finish), else the tile whose loss keeps the
    most tiles in melds (in pairs once the rack holds five pairs), the least connected on ties."""
    _check_strength(strength)
    done = finishes(rack15, okey)
    if done:
        return max(done, key=lambda t: (FINISH_FACTOR[done[t]], t == okey, -t))
    scores = _discard_scores(rack15, okey, strength)
    return max(scores, key=lambda t: (scores[t], -t))


def rack_strength(rack14: Sequence[int], okey: int) -> tuple[int, int]:
    """How close 14 tiles are to a finish: (tiles in melds, pairs held × 2), each out of 14."""
    key, jokers = rack_key(rack14, okey)
    return _cover(key, jokers)[0][0], 2 * key_pairs(key, jokers)


def should_take(rack14: Sequence[int], tile: int, okey: int, strength: str = "normal") -> bool:
    """Take the left player's discard instead of drawing? Yes for an okey, for a tile that lets
    the rack finish, and (normal strength) for a tile that puts more tiles in melds or pairs,
    since the tile thrown for it must be another one."""
    _check_strength(strength)
    if tile == okey:
        return True
    rack15 = [*rack14, tile]
    done = finishes(rack15, okey)
    if any(t != tile for t in done):
        return True
    before_melds, before_pairs = rack_strength(rack14, okey)
    key, jokers = rack_key(rack15, okey)
    if strength == "easy":
        # A tile that makes a meld on the spot: three or more in melds where there were fewer.
        return _cover(key, jokers)[0][0] >= before_melds + 3
    best = 0
    for t in set(rack15):
        if t in (tile, okey):
            continue
        k, j = key_without(key, jokers, t, okey)
        melds = _cover(k, j)[0][0]
        pairs = 2 * key_pairs(k, j)
        gain = max(melds - before_melds, pairs - before_pairs if before_pairs >= 8 else 0)
        best = max(best, gain)
    return best > 0
