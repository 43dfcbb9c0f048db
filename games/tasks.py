"""Celery tasks: thin, each carries the version it expects and does nothing if the table moved on.

Each task's name is pinned (``name=``): beat's schedule, the queue routes and tasks already
waiting in Redis name them, so the code may move without renaming them.

A late or repeated delivery is therefore harmless, and nothing relies on revoke(). The timed
ones are one task for every kind of deadline (registered in games.services.deadlines), sent through
``deadline_task_send`` when a change commits (games.apps plugs it into the services); the sweep
(beat, every few seconds, CELERY_BEAT_SCHEDULE) does whatever a lost task left undone.
"""

import logging
import math

from celery import shared_task
from celery.signals import worker_process_init

from games import services
from games.pulse import heal_ask

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
    wait = services.deadline_wait(kind=kind, table_id=table_id, expected_version=expected_version)
    if wait > 0:
        if self.request.is_eager:
            return False  # run in place: nothing to wait with
        raise self.retry(countdown=math.ceil(wait * 10) / 10)
    try:
        done = services.deadline_due(
            kind=kind, table_id=table_id, expected_version=expected_version
        )
    except services.ServiceError as e:
        done, why = False, e.code
    else:
        why = "moved_on"
    if not done:  # the table moved on, or the action was refused: an everyday event
        logger.info(
            "deadline task did nothing",
            extra={"kind": kind, "table": table_id, "version": expected_version, "why": why},
        )
    return done


def deadline_task_send(kind: str, table_id: int, version: int, countdown: float) -> None:
    """The services' sender of deadline tasks (games.services.deadline_tasks). Eager Celery
    (tests) sends none: run at once they would act before their time, and a table of bots
    would recurse move after move; the sweep does them instead."""
    if deadline_due_task.app.conf.task_always_eager:
        return
    deadline_due_task.apply_async(args=(kind, table_id, version), countdown=countdown)


@shared_task(name="games.tasks.hand_review_task")
def hand_review_task(hand_id: int) -> bool:
    """Work out a finished hand's review (games.services.reviews); nothing if it has one."""
    return services.hand_review_make(hand_id=hand_id) is not None


def hand_review_send(hand_id: int) -> None:
    """The services' sender of review tasks (games.services.reviews), after commit."""
    hand_review_task.delay(hand_id)


@shared_task(name="games.tasks.sweep_task")
def sweep_task() -> int:
    """Whatever is overdue at any table (a task that was lost)."""
    return services.sweep_run()


@shared_task(name="games.tasks.tables_idle_close_task")
def tables_idle_close_task() -> int:
    """Open tables that never started close after a while (OKEY_OPEN_TABLE_IDLE)."""
    return services.tables_idle_close()


@shared_task(name="games.tasks.chat_prune_task")
def chat_prune_task() -> int:
    """Table chat is kept for OKEY_CHAT_KEEP, then deleted."""
    return services.chat_prune()
