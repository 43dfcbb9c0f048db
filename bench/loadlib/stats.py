"""Counting what the players see: moves, latencies, errors; and printing them."""

from __future__ import annotations

import os
import time
from collections import Counter, defaultdict


def pct(values: list[float], p: float) -> float:
    """The p-quantile (0..1) of ``values`` (nearest rank), or NaN when there are none."""
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, max(0, int(round(p * len(values) + 0.5)) - 1))]


def loadavg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


class Recorder:
    """Shared by every player of one run (one asyncio loop, so no locks).

    A mover notes the time it sends a move that should make ``table`` reach ``version``; every
    other player of that table, on its first frame at that version or later, adds one latency
    sample. Only samples inside the measuring window count.
    """

    def __init__(self) -> None:
        self.sent: dict[int, dict[int, tuple[float, int]]] = defaultdict(dict)
        self.seen: Counter = Counter()  # (table, version) -> how many others saw it
        self.latencies: list[float] = []
        self.moves = 0
        self.errors: Counter = Counter()
        self.error_examples: dict[str, str] = {}
        self.measuring = False
        self.window_start = self.window_end = 0.0
        self.moves_in_window = 0
        self.done_in_window: list[tuple[int, int]] = []
        self.loop_lag: list[float] = []

    def start(self) -> None:
        self.measuring = True
        self.window_start = time.perf_counter()
        self.latencies.clear()
        self.errors.clear()
        self.moves_in_window = 0
        self.done_in_window.clear()
        self.loop_lag.clear()

    def stop(self) -> None:
        self.measuring = False
        self.window_end = time.perf_counter()

    @property
    def seconds(self) -> float:
        end = self.window_end if not self.measuring else time.perf_counter()
        return max(1e-9, end - self.window_start)

    def move_sent(self, table: int, version: int, seat: int) -> None:
        self.sent[table][version] = (time.perf_counter(), seat)

    def move_done(self, table: int, version: int) -> None:
        self.moves += 1
        if self.measuring:
            self.moves_in_window += 1
            self.done_in_window.append((table, version))

    def updates_missed(self, others: int) -> int:
        """Moves acknowledged in the window whose update some other player never received."""
        return sum(max(0, others - self.seen[key]) for key in self.done_in_window)

    def frame_seen(self, table: int, seat: int, before: int, now_version: int) -> None:
        """Player ``seat`` went from ``before`` to ``now_version``: a sample per move between
        that another seat made."""
        sent = self.sent.get(table)
        if not sent:
            return
        t = time.perf_counter()
        for v in range(before + 1, now_version + 1):
            t0, mover = sent.get(v, (None, seat))
            if mover == seat:
                continue
            self.seen[(table, v)] += 1
            if self.measuring:
                self.latencies.append(t - t0)

    def error(self, kind: str, example: str = "") -> None:
        if self.measuring:
            self.errors[kind] += 1
        else:
            self.errors["(outside window) " + kind] += 1
        self.error_examples.setdefault(kind, example[:200])

    def summary(self) -> dict:
        ms = [x * 1000 for x in self.latencies]
        lag = [x * 1000 for x in self.loop_lag]
        return {
            "seconds": round(self.seconds, 1),
            "moves": self.moves_in_window,
            "moves_per_s": round(self.moves_in_window / self.seconds, 1),
            "samples": len(ms),
            "p50_ms": round(pct(ms, 0.50), 1),
            "p95_ms": round(pct(ms, 0.95), 1),
            "p99_ms": round(pct(ms, 0.99), 1),
            "max_ms": round(max(ms), 1) if ms else float("nan"),
            "errors": sum(v for k, v in self.errors.items() if not k.startswith("(outside")),
            "error_kinds": dict(self.errors),
            "harness_loop_lag_p99_ms": round(pct(lag, 0.99), 1),
        }
