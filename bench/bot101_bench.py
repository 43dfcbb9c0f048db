"""101 bots: does the normal bot beat today's normal bot (bench/bot101_baseline.py) and the easy
one, how many hands end with a finish, does any bot move get refused, and how long does a bot's
turn take?

Run from the repository root:  nice .venv/bin/python bench/bot101_bench.py [--hands 2000]

Three tables, each over the same seeded hands of four (the first seat turns with the hand):
- "new vs baseline": one new normal bot (its seat turns with the hand, so it sits first a
  quarter of the time) and three of today's normal bots. Prints the new seat's and a baseline
  seat's mean hand score (lower is better) and share of hands finished, and per hand the new
  seat's score minus the baselines' mean, and its finish (0/1) minus the baselines' mean, each
  with a 95 % interval (the new bot is better when the first lies below 0 and the second above).
- "four new": four new normal bots: the share of hands that end with a finish (95 % Wilson);
  "four baseline" (last): the same for four of today's normal bots.
- "normal vs easy": two new normal and two new easy bots opposite each other: the share of
  finished hands a normal bot finished (95 % Wilson; normal beats easy above 0.5) and the mean
  per-hand score difference.
Over every table: refused moves (target 0), and the CPU time of each call of bot101_moves (one
bot's whole turn, so at least as long as any one move of it): p50 / p99 / max (target p99 at
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

from bench.bot101_baseline import baseline101_moves  # noqa: E402
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


def mean_ci(xs: list[float]) -> str:
    m = statistics.mean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
    return f"{m:.3f} (95 % {m - half:.3f} to {m + half:.3f})"


class Bench:
    def __init__(self) -> None:
        self.times: list[float] = []  # ms of CPU per call of bot101_moves
        self.refused: Counter = Counter()

    def play(self, seed: bytes, first: int, players) -> object:
        """One hand; ``players[seat]`` is (policy, strength); only the new bot is timed."""
        s = hand101_deal(seed, Options101(), first)
        while not s.over:
            policy, strength = players[s.turn]
            start = time.process_time()
            moves = policy(s, s.turn, strength)
            if policy is bot101_moves:
                self.times.append((time.process_time() - start) * 1000)
            try:
                for move in moves:
                    s = hand101_apply(s, move)
            except IllegalMove as e:
                self.refused[e.code] += 1
                for move in auto101_moves(s, s.turn):  # carry on with the timeout play
                    s = hand101_apply(s, move)
        return s


def ending(r) -> str:
    return "void" if r.void else "finish" if r.finisher is not None else "stock out"


def seed_of(h: int) -> bytes:
    return (104729 * h + 1).to_bytes(32, "big")


def against_baseline(b: Bench, hands: int) -> None:
    ends: Counter = Counter()
    new_scores, base_scores, d_score, d_finish = [], [], [], []
    new_fin = base_fin = 0
    for h in range(hands):
        me = h % 4
        players = [
            (bot101_moves, "normal") if i == me else (baseline101_moves, "normal") for i in range(4)
        ]
        r = b.play(seed_of(h), (h // 4) % 4, players).result
        ends[ending(r)] += 1
        if r.void:
            continue
        others = [i for i in range(4) if i != me]
        new_scores.append(r.scores[me])
        base_scores += [r.scores[i] for i in others]
        d_score.append(r.scores[me] - statistics.mean(r.scores[i] for i in others))
        new_fin += r.finisher == me
        base_fin += r.finisher in others
        d_finish.append((r.finisher == me) - (r.finisher in others) / 3)
    n = len(new_scores)
    print(f"new vs baseline: {hands} hands {dict(ends)}")
    print(
        f"  mean hand score: new {statistics.mean(new_scores):.1f}, baseline "
        f"{statistics.mean(base_scores):.1f}; new - baselines per hand {mean_ci(d_score)}"
    )
    print(
        f"  hands finished: new seat {new_fin}/{n} = {new_fin / n:.3f}, a baseline seat "
        f"{base_fin / 3:.1f}/{n} = {base_fin / 3 / n:.3f}; new - baselines per hand "
        f"{mean_ci(d_finish)}"
    )


def four_of(b: Bench, hands: int, policy, name: str) -> None:
    ends: Counter = Counter()
    for h in range(hands):
        r = b.play(seed_of(h), h % 4, [(policy, "normal")] * 4).result
        ends[ending(r)] += 1
    low, high = wilson(ends["finish"], hands)
    print(
        f"four {name}: {hands} hands {dict(ends)}; finished {ends['finish'] / hands:.3f} "
        f"(95 % {low:.3f}-{high:.3f})"
    )


def four_new(b: Bench, hands: int) -> None:
    four_of(b, hands, bot101_moves, "new")


def four_baseline(b: Bench, hands: int) -> None:
    four_of(b, hands, baseline101_moves, "baseline")


def normal_vs_easy(b: Bench, hands: int) -> None:
    ends: Counter = Counter()
    normal_won = finished = 0
    diffs = []
    for h in range(hands):
        parity = h % 2
        players = [(bot101_moves, "normal" if i % 2 == parity else "easy") for i in range(4)]
        r = b.play(seed_of(h), h % 4, players).result
        ends[ending(r)] += 1
        if r.void:
            continue
        if r.finisher is not None:
            finished += 1
            normal_won += r.finisher % 2 == parity
        normal = [r.scores[i] for i in range(4) if i % 2 == parity]
        easy = [r.scores[i] for i in range(4) if i % 2 != parity]
        diffs.append(statistics.mean(normal) - statistics.mean(easy))
    low, high = wilson(normal_won, finished)
    print(
        f"normal vs easy: {hands} hands {dict(ends)}; finished hands won by a normal bot "
        f"{normal_won}/{finished} = {normal_won / max(finished, 1):.3f} (95 % {low:.3f}-"
        f"{high:.3f}); normal - easy per hand {mean_ci(diffs)}"
    )


TABLES = {
    "baseline": against_baseline,
    "four": four_new,
    "easy": normal_vs_easy,
    "four-baseline": four_baseline,
}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--only", choices=sorted(TABLES), action="append")
    args = parser.parse_args()
    b = Bench()
    cpu = time.process_time()
    for name in args.only or TABLES:
        TABLES[name](b, args.hands)
    times = sorted(b.times)
    p = lambda q: times[min(len(times) - 1, int(q * len(times)))]  # noqa: E731
    print(f"refused bot moves: {sum(b.refused.values())} {dict(b.refused)}")
    if times:  # not when only today's bots played
        print(
            f"new bot's turn CPU ({len(times)} turns): p50 {p(0.5):.2f} ms, p99 {p(0.99):.2f} "
            f"ms, max {times[-1]:.2f} ms; {time.process_time() - cpu:.0f} s CPU in all"
        )
    return 1 if b.refused else 0


if __name__ == "__main__":
    sys.exit(main())
