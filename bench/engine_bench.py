"""How fast the rules engine answers finishing questions, against a plain memoised checker.

Run from the repository root:  .venv/bin/python bench/engine_bench.py [--hands 10000] [--seed 1]

Measures, for the engine and for the plain checker written below:
- the judge command on mixed hands (random, near-winning, winning, pairs), end to end: a
  subprocess fed all hands as JSON lines, wall time per hand (process start included); then the
  same number of hands of each mix alone, with the engine's CPU time as a share of the plain
  checker's (the target: at most 0.25× on every mix);
- the same hands checked in-process (melds and pairs), per hand;
- the full finishing check of a 15-tile rack: every tile tried on the indicator;
- a bot's best-discard choice on a 15-tile rack (engine only: the plain checker has no bot).

Hands come from a seeded generator, so every run measures the same work. Timing is wall time on
a shared machine: run it twice and read the better numbers.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from functools import cache
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine import melds as engine_melds  # noqa: E402
from games.engine.finish import finish_kind, finishes  # noqa: E402
from games.engine.pairs import can_pairs  # noqa: E402
from games.engine.tiles import (  # noqa: E402
    FAKE,
    face,
    format_tile,
    format_tiles,
    full_set,
    okey_of,
)

# ---------------------------------------------------------------- the plain checker


def _plain_melds_through(f: int) -> list[tuple[int, ...]]:
    """For each meld the face f can stand in: the other faces it needs."""
    colour, number = divmod(f, 13)
    number += 1
    out = []
    for start in range(1, 14):
        for length in range(3, 14):
            if start + length - 1 > 14:  # nothing after a 1 that follows 13
                break
            faces = [colour * 13 + (start + i - 1) % 13 for i in range(length)]
            if f in faces:
                faces.remove(f)
                out.append(tuple(faces))
    others = [c * 13 + number - 1 for c in range(4) if c != colour]
    out += [tuple(cs) for k in (2, 3) for cs in combinations(others, k)]
    return out


_THROUGH = [_plain_melds_through(f) for f in range(52)]


@cache
def _plain(tiles: tuple[int, ...], jokers: int) -> bool:
    """Sorted tiles without okeys: the first one lies in a meld; try each, every filling."""
    if not tiles:
        return jokers == 0
    first, rest = tiles[0], tiles[1:]
    for meld in _THROUGH[first]:
        left = list(rest)
        need = 0
        for f in meld:
            if f in left:
                left.remove(f)
            else:
                need += 1
        if need <= jokers and _plain(tuple(left), jokers - need):
            return True
    return False


def plain_can_meld(tiles, okey) -> bool:
    jokers = sum(1 for t in tiles if t == okey)
    rest = tuple(sorted(okey if t == FAKE else t for t in tiles if t != okey))
    return _plain(rest, jokers)


def plain_finishes(rack15, okey) -> dict[int, str]:
    out = {}
    for t in set(rack15):
        rest = list(rack15)
        rest.remove(t)
        pairs = can_pairs(rest, okey)
        melds = plain_can_meld(rest, okey)
        if pairs or melds:
            out[t] = finish_kind(rest, t, okey)
    return out


# ---------------------------------------------------------------- hands


def _take(box: Counter, f: int) -> bool:
    if box[f] <= 0:
        return False
    box[f] -= 1
    return True


def meld_sizes(rng: random.Random, total: int) -> list[int]:
    sizes: list[int] = []
    while total:
        n = rng.choice(
            [
                n
                for n in (3, 3, 4, 4, 5, 6, total)
                if n <= min(total, 13) and total - n not in (1, 2)
            ]
        )
        sizes.append(n)
        total -= n
    return sizes


def winning_rack(rng: random.Random, size: int = 14) -> tuple[list[int], int]:
    """Tiles in melds (runs, sets, okeys standing in), drawn from one box of 106."""
    while True:
        indicator = rng.randrange(52)
        okey = okey_of(indicator)
        box = Counter(full_set())
        box[indicator] -= 1
        tiles: list[int] = []
        for length in meld_sizes(rng, size):
            if length <= 4 and rng.random() < 0.45:
                number = rng.randint(1, 13)
                meld = [face(c, number) for c in rng.sample(range(4), length)]
            else:
                start = rng.randint(1, 15 - length)
                colour = rng.randrange(4)
                meld = [face(colour, (start + i - 1) % 13 + 1) for i in range(length)]
            tiles += [f if _take(box, f) else okey if _take(box, okey) else -1 for f in meld]
        if -1 in tiles:
            continue
        for i in rng.sample(range(size), rng.choice((0, 0, 0, 1, 1, 2))):
            if _take(box, okey):
                box[tiles[i]] += 1
                tiles[i] = okey
        rng.shuffle(tiles)
        return tiles, indicator


def near_rack(rng: random.Random, size: int = 14) -> tuple[list[int], int]:
    tiles, indicator = winning_rack(rng, size)
    box = Counter(full_set()) - Counter(tiles)
    box[indicator] -= 1
    for i in rng.sample(range(size), rng.choice((1, 1, 2))):
        new = rng.choice(sorted((+box).elements()))
        box[new] -= 1
        box[tiles[i]] += 1
        tiles[i] = new
    return tiles, indicator


def random_rack(rng: random.Random, size: int = 14) -> tuple[list[int], int]:
    box = list(full_set())
    rng.shuffle(box)
    indicator = next(t for t in box if t != FAKE)
    box.remove(indicator)
    return box[:size], indicator


def pairs_rack(rng: random.Random) -> tuple[list[int], int]:
    indicator = rng.randrange(52)
    okey = okey_of(indicator)
    faces = rng.sample([f for f in range(53) if f not in (indicator, okey)], 7)
    tiles = [f for f in faces for _ in (0, 1)]
    for i in rng.sample(range(14), rng.choice((0, 0, 1, 2))):
        tiles[i] = okey
    rng.shuffle(tiles)
    return tiles, indicator


MIXES = {
    "random": random_rack,
    "near-winning": near_rack,
    "winning": winning_rack,
    "pairs": pairs_rack,
}


def mixed_hands(n: int, seed: int) -> list[tuple[list[int], int]]:
    rng = random.Random(seed)
    makers = tuple(MIXES.values())
    return [makers[i % 4](rng) for i in range(n)]


def mix_hands(mix: str, n: int, seed: int) -> list[tuple[list[int], int]]:
    rng = random.Random(f"{mix}-{seed}")
    return [MIXES[mix](rng) for _ in range(n)]


def judge_lines(hands) -> str:
    lines = []
    rng = random.Random(7)
    for tiles, indicator in hands:
        request = {"indicator": format_tile(indicator), "tiles": format_tiles(tiles)}
        if rng.random() < 0.5:
            box = Counter(full_set()) - Counter([*tiles, indicator])
            request["discard"] = format_tile(rng.choice(sorted(box.elements())))
        lines.append(json.dumps(request))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- timing


def timed(fn: Callable[[], object], repeat: int = 1) -> tuple[float, float]:
    """Best (wall, cpu) seconds of `repeat` runs; cpu counts this process and its children."""
    best = (float("inf"), float("inf"))
    for _ in range(repeat):
        r0, c0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.process_time()
        w0 = time.perf_counter()
        fn()
        wall = time.perf_counter() - w0
        r1, c1 = resource.getrusage(resource.RUSAGE_CHILDREN), time.process_time()
        cpu = c1 - c0 + (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        best = min(best, (wall, cpu))
    return best


def clear_caches() -> None:
    _plain.cache_clear()
    engine_melds.clear_caches()


def run_command(args: list[str], text: str) -> list[str]:
    proc = subprocess.run(args, input=text, capture_output=True, text=True, cwd=ROOT, check=True)
    return proc.stdout.splitlines()


def plain_judge_main() -> None:
    """The judge command with the plain checker in place of the engine's (for comparison)."""
    from games.engine import judge

    judge.rack_key = lambda tiles, okey: ((tuple(tiles), okey), 0)
    judge.key_can_meld = lambda rack, _: plain_can_meld(*rack)
    judge.key_can_pairs = lambda rack, _: can_pairs(*rack)
    judge.judge_stream(sys.stdin.buffer, sys.stdout.buffer)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--racks", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plain-judge", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.plain_judge:
        plain_judge_main()
        return

    rows: list[tuple[str, tuple[float, float], tuple[float, float] | None]] = []

    def per(t: tuple[float, float], n: int) -> tuple[float, float]:
        return (t[0] / n, t[1] / n)

    hands = mixed_hands(args.hands, args.seed)
    text = judge_lines(hands)
    n = len(hands)
    py = sys.executable
    engine_cmd = [py, "-m", "games.engine", "judge"]
    plain_cmd = [py, __file__, "--plain-judge"]

    # End to end through the command, a fresh process each run (its start is included).
    outs = {}
    fast = timed(lambda: outs.__setitem__("fast", run_command(engine_cmd, text)), repeat=3)
    plain = timed(lambda: outs.__setitem__("plain", run_command(plain_cmd, text)), repeat=1)
    assert outs["fast"] == outs["plain"], "the plain checker and the engine disagree"
    rows.append((f"judge command, {n} mixed hands, per hand", per(fast, n), per(plain, n)))
    start = timed(lambda: run_command(engine_cmd, ""), repeat=3)
    rows.append(("  of which process start (once), per hand", per(start, n), None))
    # The same, one mix at a time: the target (at most 0.25x the plain checker) holds per mix.
    for mix in MIXES:
        mix_text = judge_lines(mix_hands(mix, n, args.seed))
        fast = timed(lambda t=mix_text: outs.__setitem__("fast", run_command(engine_cmd, t)), 3)
        plain = timed(lambda t=mix_text: outs.__setitem__("plain", run_command(plain_cmd, t)), 1)
        assert outs["fast"] == outs["plain"], f"the plain checker and the engine disagree ({mix})"
        rows.append((f"judge command, {n} {mix} hands, per hand", per(fast, n), per(plain, n)))

    # In-process: the same hands, can_meld alone.
    prepared = [(tiles, okey_of(ind)) for tiles, ind in hands]
    clear_caches()
    fast = timed(lambda: [engine_melds.can_meld(t, o) for t, o in prepared])
    clear_caches()
    plain = timed(lambda: [plain_can_meld(t, o) for t, o in prepared])
    rows.append(("can_meld in-process, per hand", per(fast, n), per(plain, n)))

    # 15-tile racks: every tile tried on the indicator; half near a finish, half random.
    rng = random.Random(args.seed + 1)
    racks = []
    for i in range(args.racks):
        tiles, ind = near_rack(rng, 15) if i % 2 else random_rack(rng, 15)
        racks.append((tiles, okey_of(ind)))
    m = len(racks)
    clear_caches()
    fast = timed(lambda: [finishes(t, o) for t, o in racks])
    clear_caches()
    plain = timed(lambda: [plain_finishes(t, o) for t, o in racks])
    assert [finishes(t, o) for t, o in racks] == [plain_finishes(t, o) for t, o in racks]
    rows.append(("finishing check of a 15-tile rack", per(fast, m), per(plain, m)))

    try:
        from games.engine.rack import best_discard
    except ImportError:
        best_discard = None
    if best_discard is not None:
        for strength in ("normal", "easy"):
            clear_caches()
            fast = timed(lambda s=strength: [best_discard(t, o, s) for t, o in racks])
            rows.append((f"bot best discard ({strength}), 15-tile rack", per(fast, m), None))

    width = max(len(r[0]) for r in rows)
    head = f"{'measure':<{width}}  {'engine wall':>11}  {'engine cpu':>11}  {'plain wall':>11}"
    print(f"{head}  {'plain cpu':>11}  {'cpu ratio':>9}  {'engine/plain cpu':>16}")
    us = "{:8.1f} µs".format
    for name, f, p in rows:
        cols = [us(f[0] * 1e6), us(f[1] * 1e6)]
        cols += [us(p[0] * 1e6), us(p[1] * 1e6)] if p else ["", ""]
        ratio = f"{p[1] / f[1]:8.1f}×" if p else ""
        share = f"{f[1] / p[1]:.3f}×" if p else ""
        line = f"{name:<{width}}  " + "  ".join(f"{c:>11}" for c in cols)
        print(f"{line}  {ratio:>9}  {share:>16}")
    print(
        f"({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; "
        f"Python {sys.version.split()[0]}; hands={n}, racks={m}, seed={args.seed}; "
        "cold caches at the start of each measure)"
    )


if __name__ == "__main__":
    main()
