"""How long the best opening of a 101 rack takes (okey101/opening.py), beside a plain memoised
search written here (the one tests/engine/test_opening_props.py checks the engine against).

Run from the repository root:  nice .venv/bin/python bench/open_value_bench.py [--racks 2000]

Racks of 22 tiles with both okeys (a first player's rack, the largest search), from a seeded
generator: random racks (20 tiles from the rest of the set), and adversarial ones (20 tiles from
one to four colours over five to seven close numbers, both copies, where runs and sets overlap
most), plus a few fixed worst cases. Prints CPU time per rack (p50, p99, max) for the engine and
the plain search, and any rack where the two disagree. Target: engine p99 at most 5 ms.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from functools import cache
from itertools import combinations, product
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine.okey101.opening import open_value  # noqa: E402
from games.engine.tiles import FAKE, face, full_set, okey_of  # noqa: E402


def plain_open_value(tiles: list[int], okey: int) -> int:
    """Largest total of disjoint runs and sets, by trying every meld holding the lowest tile."""
    faces = Counter(okey if t == FAKE else t for t in tiles if t != okey)
    jokers = sum(1 for t in tiles if t == okey)

    @cache
    def best(left: tuple[tuple[int, int], ...], jokers: int) -> int:
        if not left:
            return 0
        have = dict(left)
        low = left[0][0]
        rest = _take(have, [low])
        answer = best(rest, jokers)
        for real, used, value in _melds_with(low, have, jokers):
            answer = max(answer, value + best(_take(have, real), jokers - used))
        return answer

    return best(tuple(sorted(faces.items())), jokers)


def _take(have: dict[int, int], faces: list[int]) -> tuple[tuple[int, int], ...]:
    left = Counter(have)
    left.subtract(faces)
    return tuple(sorted((f, n) for f, n in left.items() if n > 0))


def _melds_with(low: int, have: dict[int, int], jokers: int):
    """(real faces, okeys, value) of every run and set holding face ``low`` as a real tile."""
    colour, number = divmod(low, 13)
    number += 1
    shapes = [
        [face(colour, k) for k in range(a, b + 1)]
        for a in range(1, number + 1)
        for b in range(max(number, a + 2), 14)
    ]
    for size in (3, 4):
        for colours in product(range(4), repeat=size):
            if (
                colours[0] == colour
                and len(set(colours)) == size
                and list(colours[1:]) == sorted(colours[1:])
            ):
                shapes.append([face(c, number) for c in colours])
    for places in shapes:
        others = [p for p in places if p != low]
        missing = [p for p in others if not have.get(p, 0) - (p == low)]
        present = [p for p in others if p not in missing]
        if len(missing) > jokers:
            continue
        # an okey may stand for a missing tile or for one held (kept for another meld)
        for extra in range(jokers - len(missing) + 1):
            for wild in combinations(range(len(present)), extra):
                real = [low] + [p for i, p in enumerate(present) if i not in wild]
                if all(Counter(real)[f] <= have.get(f, 0) for f in real):
                    yield real, len(missing) + extra, sum(f % 13 + 1 for f in places)


FIXED = (
    # four colours' 5..9 and two okeys (67 ms in colour-major order, see opening.py)
    [c * 13 + n for c in range(4) for n in range(4, 9)],
    # two colours' 5..9, both copies
    [c * 13 + n for c in range(2) for n in range(4, 9)] * 2,
    # sets everywhere: four colours of 1..5
    [c * 13 + n for c in range(4) for n in range(0, 5)],
)


def _rest(indicator: int) -> list[int]:
    okey = okey_of(indicator)
    rest = [t for t in full_set() if t != okey]
    rest.remove(indicator)
    return rest


def random_rack(rnd: random.Random) -> tuple[list[int], int]:
    indicator = rnd.choice([t for t in range(FAKE)])
    okey = okey_of(indicator)
    return rnd.sample(_rest(indicator), 20) + [okey, okey], okey


def adversarial_rack(rnd: random.Random) -> tuple[list[int], int]:
    indicator = rnd.choice([t for t in range(FAKE)])
    okey = okey_of(indicator)
    colours = rnd.sample(range(4), rnd.randint(1, 4))
    width = rnd.randint(5, 7)
    low = rnd.randint(1, 14 - width)
    pool = [t for t in _rest(indicator) if t != FAKE and t // 13 in colours]
    pool = [t for t in pool if low <= t % 13 + 1 < low + width]
    if len(pool) < 20:
        pool += rnd.sample([t for t in _rest(indicator) if t not in pool], 20 - len(pool))
    return rnd.sample(pool, 20) + [okey, okey], okey


def cpu_ms(fn, rack, okey) -> tuple[float, int]:
    start = time.process_time()
    value = fn(rack, okey)
    return (time.process_time() - start) * 1000, value


def summary(times: list[float]) -> str:
    times = sorted(times)
    p = lambda q: times[min(len(times) - 1, int(q * len(times)))]  # noqa: E731
    return f"p50 {p(0.5):.2f} ms, p99 {p(0.99):.2f} ms, max {times[-1]:.2f} ms"


def run(name: str, racks) -> int:
    engine, plain, wrong = [], [], 0
    for rack, okey in racks:
        t, value = cpu_ms(open_value, rack, okey)
        engine.append(t)
        t, expected = cpu_ms(plain_open_value, rack, okey)
        plain.append(t)
        wrong += value != expected
    print(
        f"{name} ({len(engine)} racks): engine {summary(engine)}; plain {summary(plain)}; "
        f"disagreements {wrong}"
    )
    return wrong


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--racks", type=int, default=2000)  # 0: the fixed racks only
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rnd = random.Random(args.seed)
    wrong = 0
    if args.racks:
        wrong += run("random", [random_rack(rnd) for _ in range(args.racks)])
        wrong += run("adversarial", [adversarial_rack(rnd) for _ in range(args.racks)])
    okey = okey_of(face(1, 12))  # Y13: in none of the fixed racks
    wrong += run("fixed worst cases", [(rack + [okey] * 2, okey) for rack in FIXED])
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
