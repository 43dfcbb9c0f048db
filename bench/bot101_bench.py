"""101 bots: does the normal bot beat the easy one, does any bot move get refused, and how long
does a bot's turn take?

Run from the repository root:  nice .venv/bin/python bench/bot101_bench.py [--hands 2000]

Seeded hands of four, two normal and two easy bots opposite each other, the normal pair on the
even seats in even hands and on the odd seats in odd ones (so neither sits first more often).
Prints: refused moves (target 0); the share of finished hands that a normal bot finished, with a
95 % Wilson interval (normal beats easy when the interval lies above 0.5); the mean hand score of
a normal and of an easy seat (lower is better) and the mean per-hand difference with a 95 %
interval; and the CPU time of a bot's whole turn (bot101_moves), p50 / p99 / max (target p99 at
most 50 ms).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine.moves import IllegalMove  # noqa: E402
from games.engine.okey101.autoplay import auto101_moves  # noqa: E402
from games.engine.okey101.bots import bot101_moves  # noqa: E402
from games.engine.okey101.hand import hand101_apply, hand101_deal  # noqa: E402
from games.engine.okey101.options import Options101  # noqa: E402


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if not n:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play(seed: bytes, first: int, normal_parity: int, times: list[float], refused: Counter):
    s = hand101_deal(seed, Options101(), first)
    while not s.over:
        strength = "normal" if s.turn % 2 == normal_parity else "easy"
        start = time.process_time()
        moves = bot101_moves(s, s.turn, strength)
        times.append((time.process_time() - start) * 1000)
        try:
            for move in moves:
                s = hand101_apply(s, move)
        except IllegalMove as e:
            refused[e.code] += 1
            for move in auto101_moves(s, s.turn):  # carry on with the timeout play
                s = hand101_apply(s, move)
    return s


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=2000)
    args = parser.parse_args()
    times: list[float] = []
    refused: Counter = Counter()
    ends: Counter = Counter()
    normal_won = finished = 0
    diffs, normal_scores, easy_scores = [], [], []
    cpu = time.process_time()
    for h in range(args.hands):
        parity = h % 2
        s = play((104729 * h + 1).to_bytes(32, "big"), h % 4, parity, times, refused)
        r = s.result
        ends["void" if r.void else "finish" if r.finisher is not None else "stock out"] += 1
        if r.void:
            continue
        if r.finisher is not None:
            finished += 1
            normal_won += r.finisher % 2 == parity
        normal = [r.scores[i] for i in range(4) if i % 2 == parity]
        easy = [r.scores[i] for i in range(4) if i % 2 != parity]
        normal_scores += normal
        easy_scores += easy
        diffs.append(statistics.mean(normal) - statistics.mean(easy))
    low, high = wilson(normal_won, finished)
    mean = statistics.mean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    times.sort()
    print(f"{args.hands} hands ({dict(ends)}), {time.process_time() - cpu:.0f} s CPU")
    print(f"refused bot moves: {sum(refused.values())} {dict(refused)}")
    print(
        f"finished hands won by a normal bot: {normal_won}/{finished} = "
        f"{normal_won / max(finished, 1):.3f} (95 % {low:.3f}-{high:.3f})"
    )
    print(
        f"mean hand score: normal {statistics.mean(normal_scores):.1f}, easy "
        f"{statistics.mean(easy_scores):.1f}; normal - easy per hand {mean:.1f} "
        f"(95 % {mean - half:.1f} to {mean + half:.1f})"
    )
    p = lambda q: times[min(len(times) - 1, int(q * len(times)))]  # noqa: E731
    print(
        f"bot turn CPU ({len(times)} turns): p50 {p(0.5):.2f} ms, p99 {p(0.99):.2f} ms, "
        f"max {times[-1]:.2f} ms"
    )
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
