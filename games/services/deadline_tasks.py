"""How a deadline's task leaves: after commit, once per table per batch, through a sender that
the edge plugs in.

Services never import ``games.tasks`` (the import direction is engine <- services <- edges):
``games.apps`` hands this module the sender once every app is loaded
(``deadline_sender_set(games.tasks.deadline_task_send)``). A sender takes
``(kind, table_id, version, countdown)``.

A task that cannot be sent (the broker is down) is logged and forgotten: the change it follows
is committed, and the periodic sweep finds the deadline in ``Game.deadline``
(games.services.sweep). Nothing here knows what a kind does: games.services.deadlines does.
"""

import contextvars
import logging
import math
from collections.abc import Callable
from contextlib import contextmanager
from functools import partial

from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)

Sender = Callable[[str, int, int, float], None]

_sender: list[Sender] = []  # the one sender, once games.apps has set it
_batch: contextvars.ContextVar = contextvars.ContextVar("deadline_batch", default=None)


def deadline_sender_set(send: Sender) -> None:
    """Plug in the function that sends a deadline's task (games.apps, at start-up)."""
    _sender[:] = [send]


def deadline_send(kind: str, table_id: int, version: int, countdown: float) -> None:
    """Send the task for the table's deadline of ``kind`` at ``version``, ``countdown`` seconds
    from now. Never raises: the sweep acts on whatever was not sent."""
    if not _sender:
        logger.error(
            "no deadline sender: %s for table %s v%s left to the sweep", kind, table_id, version
        )
        return
    try:
        _sender[0](kind, table_id, version, countdown)
    except Exception:  # the broker is down: the change is committed, the sweep will act
        logger.exception("could not send %s for table %s v%s", kind, table_id, version)


def deadline_queue(kind: str, table_id: int, version: int, countdown: float) -> None:
    """Send the task once the transaction commits; inside ``deadline_batch``, only note it (the
    last one noted for the table is sent at the batch's end)."""
    pending = _batch.get()
    if pending is not None:
        pending[table_id] = (kind, version, countdown)
        return
    transaction.on_commit(partial(deadline_send, kind, table_id, version, countdown))


def deadline_unqueue(table_id: int) -> None:
    """Forget the task noted for the table in the running batch: its deadline moved beyond
    what the change sends (see ``arm_ahead``)."""
    pending = _batch.get()
    if pending is not None:
        pending.pop(table_id, None)


@contextmanager
def deadline_batch():
    """Inside the block, changes only note their deadline; at its end (still inside the caller's
    transaction) one task per table is sent on commit, for the last version. Several moves
    applied in one transaction (a bot's or a timeout's whole turn) so send one task, not one per
    move, each made stale by the next."""
    pending = {}
    token = _batch.set(pending)
    try:
        yield
    finally:
        _batch.reset(token)
    for table_id, (kind, version, countdown) in pending.items():
        transaction.on_commit(partial(deadline_send, kind, table_id, version, countdown))


def arm_ahead() -> float:
    """A deadline further off than this, in seconds, for a person's turn (``turn_seconds`` is
    at least 15) gets its task from the sweep, not from the change that set it."""
    return 2 * settings.OKEY_SWEEP_SECONDS + 2


def countdown_until(when, now) -> float:
    """Seconds from ``now`` to ``when`` for a task's countdown, rounded up to a tenth of a
    second: a task is never early."""
    return max(0.0, math.ceil((when - now).total_seconds() * 10) / 10)
