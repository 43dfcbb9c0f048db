"""The web process's collector settings (okeysite/gc_pauses.py): what loads with the app is
frozen out of the collector's walks, full collections wait longer, and long pauses are logged."""

import gc
import logging

import pytest

from okeysite import gc_pauses


@pytest.fixture
def gc_restored():
    thresholds, callbacks = gc.get_threshold(), list(gc.callbacks)
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)
    gc.callbacks[:] = callbacks


def test_settling_freezes_the_loaded_objects_and_delays_full_collections(gc_restored, monkeypatch):
    monkeypatch.setenv("OKEY_GC_FULL_AFTER", "40")
    monkeypatch.delenv("OKEY_GC_LOG_MS", raising=False)
    loaded = object.__new__(type("Loaded", (), {}))  # a tracked object that exists before
    gc_pauses.gc_settle()
    assert gc.get_freeze_count() > 0
    assert all(loaded is not o for o in gc.get_objects())  # frozen: no generation holds it
    assert gc.get_threshold()[2] == 40


def test_a_long_pause_is_logged_and_a_short_one_is_not(gc_restored, monkeypatch, caplog):
    monkeypatch.setenv("OKEY_GC_LOG_MS", "0.000001")
    gc_pauses.gc_settle()
    with caplog.at_level(logging.WARNING, logger="okeysite.gc"):
        gc.collect(2)
    logged = [r.getMessage() for r in caplog.records if "gc pause: generation 2," in r.getMessage()]
    assert logged and "ms CPU" in logged[0]  # the CPU time beside the wall time
    gc.callbacks[:] = [c for c in gc.callbacks if c.__module__ != gc_pauses.__name__]
    monkeypatch.setenv("OKEY_GC_LOG_MS", "60000")
    gc_pauses.gc_settle()
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="okeysite.gc"):
        gc.collect(2)
    assert not caplog.records
