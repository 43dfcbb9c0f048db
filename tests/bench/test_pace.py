"""bench/load.py's offered load: tables at a rate keep that rate on average without moving in
step, and the report can tell a bursty offer and a stalled second from a slow server."""

import random
import time

from bench.loadlib import players
from bench.loadlib.disk import DiskProbe
from bench.loadlib.players import TablePace
from bench.loadlib.stats import Recorder


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def _send_times(pace: TablePace, rng, moves: int, clock: Clock) -> list[float]:
    """When a table that always answers at once sends its moves."""
    times = []
    for _ in range(moves):
        clock.now += pace.delay(rng)
        pace.sent()
        times.append(clock.now)
    return times


def test_tables_at_a_rate_keep_it_without_moving_in_step(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(players.time, "perf_counter", clock)
    rng = random.Random(7)
    firsts, spans = [], []
    for _ in range(200):
        clock.now = 1000.0  # every table ready at the same moment, as a connection batch is
        times = _send_times(TablePace(rate=1.0, think=0.3, jitter=0.5), rng, 61, clock)
        firsts.append(times[0] - 1000.0)
        spans.append(times[-1] - times[0])
    # one move a second on average
    assert abs(sum(spans) / len(spans) / 60 - 1.0) < 0.02
    # the first moves spread over the first second (after the least think time) instead of
    # coming together
    assert min(firsts) < 0.4 and max(firsts) > 0.9
    firsts.sort()
    busiest = max(sum(1 for g in firsts if f <= g <= f + 0.05) for f in firsts)
    assert busiest < 0.2 * len(firsts)


def test_without_jitter_a_table_keeps_a_strict_beat(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(players.time, "perf_counter", clock)
    times = _send_times(TablePace(rate=2.0, think=0.1), random.Random(1), 5, clock)
    gaps = [round(b - a, 6) for a, b in zip(times, times[1:], strict=False)]
    assert gaps == [0.5] * 4


def test_the_report_finds_bursts_and_slow_seconds():
    rec = Recorder()
    rec.start()
    base = rec.window_start
    rec.send_times = [base + 0.001 * i for i in range(30)] + [base + 1 + 0.2 * i for i in range(5)]
    assert rec.moves_sent_together() == 30
    rec.latency_times = [base + 0.5, base + 1.5, base + 1.6, base + 2.5]
    rec.latencies = [0.010, 0.900, 0.800, 0.020]
    worst = rec.worst_seconds(shown=1)
    assert [(w["second"], w["samples"], w["max_ms"]) for w in worst] == [(1, 2, 900.0)]


def test_the_disk_probe_times_flushes(tmp_path):
    probe = DiskProbe(tmp_path)
    probe.begin()
    time.sleep(0.3)
    out = probe.end()
    assert out["flushes"] >= 2
    assert 0 < out["p50_ms"] <= out["max_ms"]
    assert not (tmp_path / "disk-probe.tmp").exists()
