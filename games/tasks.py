"""Celery tasks: thin, each carries the version it expects and does nothing if the table moved on.

A late or repeated delivery is therefore harmless, and nothing relies on revoke(). The timed
ones are sent by games.services.deadlines when a change commits; the sweep (beat, every few
seconds, CELERY_BEAT_SCHEDULE) does whatever a lost task left undone.
"""

import functools
import logging
import math

from celery import shared_task

from games import services

logger = logging.getLogger(__name__)


def refusal_is_nothing(fn):
    """A task for a table that is gone (deleted by staff, a test database flushed) does nothing."""

    @functools.wraps(fn)
    def run(table_id, expected_version):
        try:
            return fn(table_id, expected_version)
        except services.ServiceError as e:
            logger.info("%s for table %s: %s", fn.__name__, table_id, e.code)
            return False

    return run


@shared_task
@refusal_is_nothing
def game_start_task(table_id: int, expected_version: int) -> bool:
    """The deal, when the start countdown ends."""
    return services.game_start(table_id=table_id, expected_version=expected_version)


@shared_task(bind=True, max_retries=20)
def turn_due_task(self, table_id: int, expected_version: int) -> bool:
    """A turn that is due: a bot's move, an away seat, or a person's timeout. One that comes
    before its deadline (clocks of different hosts) waits out the rest, never plays early."""
    wait = services.turn_wait(table_id=table_id, expected_version=expected_version)
    if wait > 0:
        if self.request.is_eager:
            return False  # run in place: nothing to wait with
        raise self.retry(countdown=math.ceil(wait * 10) / 10)
    return _turn_due(table_id, expected_version)


@refusal_is_nothing
def _turn_due(table_id: int, expected_version: int) -> bool:
    return services.turn_due_play(table_id=table_id, expected_version=expected_version)


@shared_task
@refusal_is_nothing
def hand_next_task(table_id: int, expected_version: int) -> bool:
    """The next deal, after the pause that follows a hand (void or not)."""
    return services.hand_next(table_id=table_id, expected_version=expected_version)


@shared_task
@refusal_is_nothing
def game_end_task(table_id: int, expected_version: int) -> bool:
    """The results of a game whose last hand ended, and its players' profiles."""
    return services.game_results_record(table_id=table_id, expected_version=expected_version)


@shared_task
def sweep_task() -> int:
    """Whatever is overdue at any table (a task that was lost)."""
    return services.sweep_run()
