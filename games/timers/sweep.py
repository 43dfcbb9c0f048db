"""The periodic sweep (Celery beat, every few seconds): whatever is overdue at any table.

Each change stores the table's next deadline in ``Game.deadline`` and sends a task for it
(games.table.deadlines). When that task is lost (a worker killed mid-task, a broker restart,
a message dropped), the deadline stays in the database, and the sweep does the overdue work: a
deal after the start countdown, a turn (timeout, away seat, bot), the next deal, the results.
Each table is handled in its own transaction under its lock, through the same services as the
tasks, so a sweep that races a task (or another sweep) leaves exactly one change.

The sweep also sends the tasks of deadlines that are coming near (``sweep_arm``): a person's
turn gets no task when it starts, only once its deadline is within ``arm_ahead`` seconds.
Each sweep takes the deadlines from where the previous one stopped (kept in the cache) to
``arm_ahead`` from now, so each deadline's task is sent once.
"""

import logging
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from games.models import Game
from games.table.changes import table_lock
from games.table.deadlines import arm_ahead, countdown_until, deadline_of, deadline_send
from games.timers.due import deadline_due

logger = logging.getLogger(__name__)


# Leave the task its chance first: the sweep takes deadlines this much overdue.
SWEEP_GRACE = timedelta(seconds=2)


SWEEP_LIMIT = 200  # tables per run; the next run goes on with the rest


ARMED_KEY = "okey:sweep:armed-to"  # the latest deadline moment whose task a sweep has sent


def table_due(*, table_id, now=None) -> str | None:
    """Do what is due at the table at ``now``; the kind done (see deadlines.KIND_BY_NAME), or None
    when nothing was due."""
    now = now or timezone.now()
    with transaction.atomic():
        game, table = table_lock(table_id)
        if game.deadline is None or game.deadline > now:
            return None
        _, kind = deadline_of(game, table)
        if kind is None:
            # nothing to do any more (the table closed): forget the stale deadline
            Game.objects.filter(pk=game.pk).update(deadline=None)
            return None
        done = deadline_due(kind=kind, table_id=table_id, expected_version=game.version, now=now)
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
    sweep_arm(now=now)
    return done


def sweep_arm(*, now=None) -> int:
    """Send the task of each deadline that falls between the previous sweep's reach and
    ``arm_ahead`` seconds from now; how many were sent.

    A deadline set at a change was either sent then (it was near) or lies beyond every reach so
    far (it was further off than ``arm_ahead``), so it is sent once, here. When the previous
    reach is unknown (the cache was lost) the window starts two sweeps back, and what falls in
    a gap is still done by ``sweep_run`` once overdue."""
    now = now or timezone.now()
    reach = now + timedelta(seconds=arm_ahead())
    fallback = reach - timedelta(seconds=2 * settings.OKEY_SWEEP_SECONDS)
    start = cache.get(ARMED_KEY)
    if start is None or not fallback - timedelta(minutes=10) < start <= reach:
        start = fallback
    rows = Game.objects.filter(deadline__gt=start, deadline__lte=reach).select_related("table")
    games = list(rows.order_by("deadline")[:SWEEP_LIMIT])
    if len(games) == SWEEP_LIMIT:
        reach = games[-1].deadline  # the next sweep goes on from the last one sent
    sent = 0
    for game in games:
        _, kind = deadline_of(game, game.table)
        if kind is None:
            continue
        deadline_send(kind, game.table_id, game.version, countdown_until(game.deadline, now))
        sent += 1
    cache.set(ARMED_KEY, reach, timeout=3600)
    return sent
