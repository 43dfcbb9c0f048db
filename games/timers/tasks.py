"""Celery tasks: thin, each carries the version it expects and does nothing if the table moved on.

Each task's name is pinned (``name=``): beat's schedule, the queue routes and tasks already
waiting in Redis name them, so the code may move without renaming them.

A late or repeated delivery is therefore harmless, and nothing relies on revoke(). The timed
ones are one task for every kind of deadline (games.table.deadlines lists when each falls,
games.timers.due what each does), sent by name when a change commits; the sweep (beat, every few
seconds, CELERY_BEAT_SCHEDULE) does whatever a lost task left undone.
"""

import logging
import math

from celery import shared_task
from celery.signals import worker_process_init

from games.errors import ServiceError
from games.realtime.pulse import heal_ask
from games.table.chat import chat_prune
from games.table.create import tables_idle_close
from games.timers.due import deadline_due, deadline_wait
from games.timers.sweep import sweep_run

logger = logging.getLogger(__name__)


@worker_process_init.connect
def tables_heal_ask(**kwargs):
    """A worker process that starts may replace one killed between a bot's or a timeout's commit
    and the publish of its event: the pages at that table would wait for their heartbeat."""
    heal_ask()


@shared_task(name="games.tasks.deadline_due_task", bind=True, max_retries=20)
def deadline_due_task(self, kind: str, table_id: int, expected_version: int) -> bool:
    """What the table's deadline of ``kind`` calls for: the deal, a turn (a bot's move, an away
    seat, a person's timeout), the next deal, the results. A task for a kind that is never
    early (a turn) that comes before its deadline (clocks of different hosts) waits out the
    rest, never plays early. A task for a table that is gone (deleted by staff, a test
    database flushed) does nothing."""
    wait = deadline_wait(kind=kind, table_id=table_id, expected_version=expected_version)
    if wait > 0:
        if self.request.is_eager:
            return False  # run in place: nothing to wait with
        raise self.retry(countdown=math.ceil(wait * 10) / 10)
    try:
        done = deadline_due(kind=kind, table_id=table_id, expected_version=expected_version)
    except ServiceError as e:
        done, why = False, e.code
    else:
        why = "moved_on"
    if not done:  # the table moved on, or the action was refused: an everyday event
        logger.info(
            "deadline task did nothing",
            extra={"kind": kind, "table": table_id, "version": expected_version, "why": why},
        )
    return done


@shared_task(name="games.tasks.sweep_task")
def sweep_task() -> int:
    """Whatever is overdue at any table (a task that was lost)."""
    return sweep_run()


@shared_task(name="games.tasks.tables_idle_close_task")
def tables_idle_close_task() -> int:
    """Open tables that never started close after a while (OKEY_OPEN_TABLE_IDLE)."""
    return tables_idle_close()


@shared_task(name="games.tasks.chat_prune_task")
def chat_prune_task() -> int:
    """Table chat is kept for OKEY_CHAT_KEEP, then deleted."""
    return chat_prune()
