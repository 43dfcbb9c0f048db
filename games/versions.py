"""The current version of every table that has a socket in this process, read in one query
every couple of seconds, so that the pages' heartbeat syncs cost no query each, and so that a
lost notification is made good within seconds.

Every open table page asks "is version n still the latest?" every 15 s (table.js), to catch a
notification the channel layer dropped. With thousands of idle pages that was a query per page
every 15 s. Here one task per process reads the versions of all the tables its sockets show
every REFRESH_SECONDS, and a sync compares against that. A version older than STALE_SECONDS (the
task is late or has not run yet) is not trusted: the socket reads the database itself.

A notification can be lost: Redis restarted while it was on its way, or a worker killed between
its move's commit and its broadcast (bench/faults.py saw both; the pages caught up only at their
next heartbeat, up to 15 s later). The same reading finds them: a table whose version, read at
one refresh, some socket of this process has still not been sent by the next one has lost its
notification, and it is sent again (table.changed, to the table's group: sockets that already
show that version ignore it). Waiting one refresh leaves a notification that is only late, under
load, its time. "Some socket", not "any": the mover's own socket is answered without the
channel layer, so the mover's page is up to date when the others' notification is lost. Each
one sent again is logged as a warning: a channel layer or a worker that lost it, or a process
so loaded that its notifications came more than a refresh late.
"""

import asyncio
import logging
import time

from games import broadcast
from games.models import Game
from games.socket_threads import in_db_thread

logger = logging.getLogger(__name__)

REFRESH_SECONDS = 2.0
STALE_SECONDS = 3 * REFRESH_SECONDS

# table -> the sockets of this process showing it (each has ``sent_version``, the version of the
# last frame it sent)
_watched: dict[int, set] = {}
_known: dict[int, tuple[int, float]] = {}  # table -> (version, monotonic time read)
_behind: dict[int, int] = {}  # table -> a version read at the last refresh and not yet everywhere
_task: asyncio.Task | None = None


def watch(table_id: int, socket) -> None:
    global _task
    _watched.setdefault(table_id, set()).add(socket)
    if _task is None or _task.done():
        _task = asyncio.get_running_loop().create_task(_refresh())


def unwatch(table_id: int, socket) -> None:
    sockets = _watched.get(table_id)
    if sockets is None:
        return
    sockets.discard(socket)
    if not sockets:
        del _watched[table_id]
        _known.pop(table_id, None)
        _behind.pop(table_id, None)


def known(table_id: int) -> int | None:
    """The table's version as read at most STALE_SECONDS ago, else None."""
    entry = _known.get(table_id)
    if entry is None or time.monotonic() - entry[1] > STALE_SECONDS:
        return None
    return entry[0]


def _read(table_ids: list[int]) -> dict[int, int]:
    return dict(Game.objects.filter(table_id__in=table_ids).values_list("table_id", "version"))


async def _refresh() -> None:
    while _watched:
        ids = list(_watched)
        started = time.monotonic()
        try:
            versions = await in_db_thread(_read)(ids)
        except Exception:  # the database is away: syncs fall back to their own query
            versions = {}
        lost = []
        for table_id, version in versions.items():
            if table_id in _watched:
                _known[table_id] = (version, started)
                if _notification_lost(table_id, version):
                    lost.append((table_id, version))
        if lost:
            logger.warning("notifications sent again (table, version): %s", lost)
            await broadcast.broadcasts_send(
                [(broadcast.table_group(t), broadcast.table_changed_message(v)) for t, v in lost]
            )
        await asyncio.sleep(REFRESH_SECONDS)


def _notification_lost(table_id: int, version: int) -> bool:
    """Whether the table's notification of a version read at the last refresh has still not
    reached every socket of this process (``version`` is the one read now)."""
    sent = min(socket.sent_version for socket in _watched[table_id])
    if version <= sent:
        _behind.pop(table_id, None)
        return False
    earlier = _behind.get(table_id)
    if earlier is not None and earlier > sent:
        del _behind[table_id]  # sent again now: the next refresh waits for it before another
        return True
    _behind[table_id] = version
    return False
