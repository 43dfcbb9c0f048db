"""Helpers for the timer tests: time travel for services, and a real Celery worker.

Services that act on a deadline take ``now``; ``later()`` is a moment after every deadline a
test makes, so ``run_due`` plays a table forward as the tasks would, one due action at a time,
without waiting and without eager Celery (which would chain bot turns into a recursion).
"""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Game
from games.services.deadlines import deadline_rearm

from .helpers import current_hand


def later(seconds: float = 86400):
    return timezone.now() + timedelta(seconds=seconds)


def run_due(table, limit: int = 5000) -> list[str]:
    """Do what is due at ``table`` until nothing is (at most ``limit`` actions); their kinds."""
    done = []
    for _ in range(limit):
        kind = services.table_due(table_id=table.pk, now=later())
        if kind is None:
            return done
        done.append(kind)
    raise AssertionError(f"still something due after {limit} actions: {done[-10:]}")


def deadline_of(table):
    return Game.objects.get(table=table).deadline


def turn_due_in(table, seconds: float) -> None:
    """Make the running turn end ``seconds`` from now (its start moved back), and send its task."""
    hand = current_hand(table)
    turn = int(table.options.get("turn_seconds", 30))
    hand.turn_started = timezone.now() - timedelta(seconds=turn - seconds)
    hand.save(update_fields=["turn_started"])
    deadline_rearm(table.pk)


def wait_until(condition, timeout: float = 15.0, step: float = 0.05):
    """Poll ``condition`` until it returns something true; that value."""
    end = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"not within {timeout} s: {condition.__doc__ or condition}")
        time.sleep(step)


@pytest.fixture
def celery_worker(transactional_db, redis_url):
    """A real Celery worker (a thread of this process, solo pool) on the session's Redis (the
    `redis_url` fixture's), with the queue emptied of earlier tests' tasks. The test database is
    a file on SQLite (tests/conftest.py), so the worker's connection sees committed rows."""
    from celery.contrib.testing.worker import start_worker

    from okeysite.celery import app

    assert not app.conf.task_always_eager
    app.control.purge()
    with start_worker(
        app, pool="solo", perform_ping_check=False, loglevel="WARNING", shutdown_timeout=10
    ) as worker:
        yield worker
    app.control.purge()
