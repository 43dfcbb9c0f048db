"""The periodic sweep (Celery beat, every few seconds): whatever is overdue at any table.

Each change stores the table's next deadline in ``Game.deadline`` and sends a task for it
(games.services.deadlines). When that task is lost (a worker killed mid-task, a broker restart,
a message dropped), the deadline stays in the database, and the sweep does the overdue work: a
deal after the start countdown, a turn (timeout, away seat, bot), the next deal, the results.
Each table is handled in its own transaction under its lock, through the same services as the
tasks, so a sweep that races a task (or another sweep) leaves exactly one change.
"""

import logging
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games.models import Game

from .deadlines import deadline_of
from .hands import game_start, hand_next
from .results import game_results_record
from .tables import table_lock
from .timeouts import turn_due_play

logger = logging.getLogger(__name__)

# Leave the task its chance first: the sweep takes deadlines this much overdue.
SWEEP_GRACE = timedelta(seconds=2)
SWEEP_LIMIT = 200  # tables per run; the next run goes on with the rest


def table_due(*, table_id, now=None) -> str | None:
    """Do what is due at the table at ``now``; the kind done ("start", "turn", "next", "end"),
    or None when nothing was due."""
    now = now or timezone.now()
    with transaction.atomic():
        game, table = table_lock(table_id)
        if game.deadline is None or game.deadline > now:
            return None
        _, kind = deadline_of(game, table)
        version = game.version
        if kind == "start":
            done = game_start(table_id=table_id, expected_version=version)
        elif kind == "turn":
            done = turn_due_play(table_id=table_id, expected_version=version, now=now)
        elif kind == "next":
            done = hand_next(table_id=table_id, expected_version=version)
        elif kind == "end":
            done = game_results_record(table_id=table_id, expected_version=version)
        else:
            # nothing to do any more (the table closed): forget the stale deadline
            Game.objects.filter(pk=game.pk).update(deadline=None)
            done = False
        return kind if done else None


def sweep_run(*, now=None, limit=SWEEP_LIMIT) -> int:
    """Handle every table whose deadline is overdue; how many had something done."""
    now = now or timezone.now()
    due = (
        Game.objects.filter(deadline__lte=now - SWEEP_GRACE)
        .order_by("deadline")
        .values_list("table_id", flat=True)[:limit]
    )
    done = 0
    for table_id in list(due):
        try:
            done += table_due(table_id=table_id, now=now) is not None
        except Exception:  # one broken table must not stop the others
            logger.exception("sweep: table %s", table_id)
    if done:
        logger.info("sweep: %d overdue table(s) handled", done)
    return done
