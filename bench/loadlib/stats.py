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
    sample. Only samples inside the measuring window count. Every player also counts the bytes
    of the frames that belong to a move's version (the move's event, its own part after it, a
    full frame at that version), for the moves the harness sent.
    """

    def __init__(self) -> None:
        self.sent: dict[int, dict[int, tuple[float, int]]] = defaultdict(dict)
        self.seen: Counter = Counter()  # (table, version) -> how many others saw it
        self.latencies: list[float] = []
        self.latency_times: list[float] = []  # when each latency sample was taken
        self.send_times: list[float] = []  # when each move of the window was sent
        self.moves = 0
        self.errors: Counter = Counter()
        self.error_examples: dict[str, str] = {}
        self.measuring = False
        self.window_start = self.window_end = 0.0
        self.moves_in_window = 0
        self.done_in_window: list[tuple[int, int]] = []
        self.loop_lag: list[float] = []
        # (table, version) -> seat -> bytes that player received for that move
        self.move_bytes: dict[tuple[int, int], dict[int, int]] = defaultdict(dict)

    def start(self) -> None:
        self.measuring = True
        self.window_start = time.perf_counter()
        self.window_start_wall = time.time()
        self.latencies.clear()
        self.latency_times.clear()
        self.send_times.clear()
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
        now = time.perf_counter()
        self.sent[table][version] = (now, seat)
        if self.measuring:
            self.send_times.append(now)

    def moves_sent_together(self, within: float = 0.05) -> int:
        """The most moves sent within ``within`` seconds of each other in the window: how
        bursty the offered load is (100 tables at 1/s spread evenly send about 5 in 50 ms)."""
        times, most, first = sorted(self.send_times), 0, 0
        for last, t in enumerate(times):
            while t - times[first] > within:
                first += 1
            most = max(most, last - first + 1)
        return most

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
                self.latency_times.append(t)

    def frame_bytes(self, table: int, seat: int, version: int, n: int) -> None:
        """Player ``seat`` received ``n`` bytes belonging to ``version``: counted when that is
        the version of a move the harness sent."""
        sent = self.sent.get(table)
        if sent and version in sent:
            got = self.move_bytes[(table, version)]
            got[seat] = got.get(seat, 0) + n

    def bytes_per_move(self) -> tuple[list[int], list[int]]:
        """For the moves acknowledged in the window: the bytes each player received for each
        move (one value per move and player), and the bytes of each move for all its players."""
        viewer, total = [], []
        for key in self.done_in_window:
            got = self.move_bytes.get(key)
            if got:
                viewer += got.values()
                total.append(sum(got.values()))
        return viewer, total

    def error(self, kind: str, example: str = "") -> None:
        if self.measuring:
            self.errors[kind] += 1
        else:
            self.errors["(outside window) " + kind] += 1
        self.error_examples.setdefault(kind, example[:200])

    def summary(self) -> dict:
        ms = [x * 1000 for x in self.latencies]
        lag = [x * 1000 for x in self.loop_lag]
        viewer, total = self.bytes_per_move()
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
            "viewer_bytes_per_move_p50": pct(viewer, 0.50) if viewer else None,
            "viewer_bytes_per_move_p95": pct(viewer, 0.95) if viewer else None,
            "bytes_per_move_p50": pct(total, 0.50) if total else None,
            "harness_loop_lag_p99_ms": round(pct(lag, 0.99), 1),
            "harness_loop_lag_max_ms": round(max(lag), 1) if lag else float("nan"),
            "worst_seconds": self.worst_seconds(),
            "moves_sent_within_50ms_max": self.moves_sent_together(),
        }

    def worst_seconds(self, shown: int = 5) -> list[dict]:
        """The seconds of the window whose updates took longest (by their slowest): whether a
        high p99 comes from a few stalls or from the whole run being slow."""
        by_second: dict[int, list[float]] = defaultdict(list)
        for t, lat in zip(self.latency_times, self.latencies, strict=True):
            by_second[int(t - self.window_start)].append(lat * 1000)
        worst = sorted(by_second.items(), key=lambda kv: max(kv[1]), reverse=True)[:shown]
        return [
            {"second": s, "at": time.strftime("%H:%M:%S", time.gmtime(self.window_start_wall + s)),
             "samples": len(v), "p50_ms": round(pct(v, 0.5), 1),
             "max_ms": round(max(v), 1)}
            for s, v in sorted(worst)
        ]  # fmt: skip
