"""Helpers for the timer tests: time travel for services, waiting for a worker.

Services that act on a deadline take ``now``; ``later()`` is a moment after every deadline a
test makes, so ``run_due`` plays a table forward as the tasks would, one due action at a time,
without waiting and without eager Celery (which would chain bot turns into a recursion).
"""

import time
from datetime import timedelta

from django.utils import timezone

from games.models import Game
from games.table.seats import deadline_rearm
from games.timers.sweep import table_due
from tests.games.helpers import current_hand


def later(seconds: float = 86400):
    return timezone.now() + timedelta(seconds=seconds)


def run_due(table, limit: int = 5000) -> list[str]:
    """Do what is due at ``table`` until nothing is (at most ``limit`` actions); their kinds."""
    done = []
    for _ in range(limit):
        kind = table_due(table_id=table.pk, now=later())
        if kind is None:
            return done
        done.append(kind)
    raise AssertionError(f"still something due after {limit} actions: {done[-10:]}")


def deadline_of(table):
    return Game.objects.get(table=table).deadline


def turn_due_in(table, seconds: float) -> None:
    """Make the running turn end ``seconds`` from now (its start moved back), and send its task."""
    hand = current_hand(table)
    turn = table.rules.turn_seconds
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
