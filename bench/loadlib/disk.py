"""How long the disk takes to make a small write durable, while a scenario is measured.

Every move is a PostgreSQL commit, and a commit waits for its WAL to be flushed (fdatasync). On
this machine that flush usually takes well under a millisecond (0.34 ms median, 8.9 ms at most in
a minute of the idle machine), but now and then the shared disk stalls, and then every table's
moves wait together. On 2026-12-02, in 100-table runs at one move a second: one second's updates
had a median of 1,088 ms; in another run, daphne timed (in a one-off build) a move that spent
1,156 ms in its database thread while no move of those 2,000 used more than 56 ms of CPU; in a
third, a probe like this one saw a 128 ms flush in the very second of the run's slowest updates.
So the report says whether its slowest seconds were the disk's: this probe writes 8 KiB and
fdatasyncs it every 50 ms in var/load/ (on this machine the same disk as PostgreSQL's).
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from .stats import pct

INTERVAL = 0.05
STALL = 0.1  # a flush slower than this is listed with its time


class DiskProbe:
    def __init__(self, folder: Path):
        self.path = folder / "disk-probe.tmp"
        self.flushes: list[tuple[float, float]] = []  # (wall time, seconds)
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None

    def begin(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.thread = threading.Thread(target=self._run, name="disk-probe", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            block = b"\0" * 8192
            while not self.stop.wait(INTERVAL):
                os.pwrite(fd, block, 0)
                t = time.perf_counter()
                os.fdatasync(fd)
                self.flushes.append((time.time(), time.perf_counter() - t))
        finally:
            os.close(fd)
            self.path.unlink(missing_ok=True)

    def end(self) -> dict:
        self.stop.set()
        if self.thread is not None:
            self.thread.join(5)
        ms = [d * 1000 for _, d in self.flushes]
        return {
            "flushes": len(ms),
            "p50_ms": round(pct(ms, 0.5), 2),
            "p99_ms": round(pct(ms, 0.99), 2),
            "max_ms": round(max(ms), 1) if ms else float("nan"),
            "stalls": [
                {"at": time.strftime("%H:%M:%S", time.gmtime(at)), "ms": round(d * 1000)}
                for at, d in self.flushes
                if d >= STALL
            ],
        }
