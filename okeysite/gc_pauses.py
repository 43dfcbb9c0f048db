"""The web process's garbage collector: fewer and shorter pauses, and a log of the long ones.

CPython's cyclic collector holds the GIL while it runs, so no socket is served meanwhile, and a
collection of the oldest generation walks every container object the process tracks: with these
settings one such collection took 127 ms in a daphne serving 160 players flat out, and 129 ms
with 2,000 idle sockets (bench/README.md, "Fifth round"). Two changes, so that they come seldom
and walk less:

- ``gc.freeze()`` once the application is loaded: the objects that exist then (modules, Django's
  and the templates' structures) live as long as the process, and are never walked again.
- The oldest generation is collected after OKEY_GC_FULL_AFTER collections of the middle one
  (CPython: 10). Each move promotes the table's new snapshot to the old generation, where it
  dies by reference counting soon after: those promotions alone would count towards a full walk.
  Cyclic garbage (a closed socket's coroutines, exceptions with their frames) is still
  collected, only later.

OKEY_GC_LOG_MS > 0 logs each collection that took at least that long (the load benchmark sets
it and counts the pauses).
"""

import gc
import logging
import os
import time

logger = logging.getLogger("okeysite.gc")

FULL_AFTER = 100  # middle-generation collections before a full one (CPython: 10)


def gc_settle() -> None:
    """Freeze what is loaded so far and set the thresholds; call once the app is loaded."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, int(os.environ.get("OKEY_GC_FULL_AFTER", FULL_AFTER)))
    log_ms = float(os.environ.get("OKEY_GC_LOG_MS", "0") or 0)
    if log_ms > 0:
        gc.callbacks.append(_pause_logger(log_ms / 1000))


def _pause_logger(least: float):
    started = [0.0, 0.0]

    def on_gc(phase, info):
        if phase == "start":
            started[0], started[1] = time.perf_counter(), time.thread_time()
            return
        took = time.perf_counter() - started[0]
        if took >= least:
            # the thread's CPU time beside the wall time: a collection that took little CPU
            # was a process descheduled while it ran, not the collector's own work
            logger.warning(
                "gc pause: generation %d, %.1f ms, %.1f ms CPU, %d collected",
                info["generation"],
                took * 1000,
                (time.thread_time() - started[1]) * 1000,
                info["collected"],
            )

    return on_gc
