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
one refresh, no socket of this process has been sent by the next one has lost its notification,
and it is sent again (table.changed, to the table's group: sockets that already show that version
ignore it). Waiting one refresh leaves a notification that is only late, under load, its time.
"""

import asyncio
import time
from collections import Counter

from games import broadcast
from games.models import Game
from games.socket_threads import in_db_thread

REFRESH_SECONDS = 2.0
STALE_SECONDS = 3 * REFRESH_SECONDS

_watched: Counter = Counter()  # table -> sockets of this process showing it
_known: dict[int, tuple[int, float]] = {}  # table -> (version, monotonic time read)
_delivered: dict[int, int] = {}  # table -> the latest version a socket of this process was sent
_behind: dict[int, int] = {}  # table -> a version read at the last refresh and not yet delivered
_task: asyncio.Task | None = None


def watch(table_id: int) -> None:
    global _task
    _watched[table_id] += 1
    if _task is None or _task.done():
        _task = asyncio.get_running_loop().create_task(_refresh())


def unwatch(table_id: int) -> None:
    _watched[table_id] -= 1
    if _watched[table_id] <= 0:
        del _watched[table_id]
        for table_state in (_known, _delivered, _behind):
            table_state.pop(table_id, None)


def delivered(table_id: int, version: int) -> None:
    """A socket of this process was sent the table at ``version``."""
    if version > _delivered.get(table_id, 0):
        _delivered[table_id] = version


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
            await broadcast.broadcasts_send(
                [(broadcast.table_group(t), broadcast.table_changed_message(v)) for t, v in lost]
            )
        await asyncio.sleep(REFRESH_SECONDS)


def _notification_lost(table_id: int, version: int) -> bool:
    """Whether the table's notification of a version read at the last refresh has still not
    reached any socket of this process (``version`` is the one read now)."""
    sent = _delivered.get(table_id, 0)
    if version <= sent:
        _behind.pop(table_id, None)
        return False
    earlier = _behind.get(table_id)
    if earlier is not None and earlier > sent:
        del _behind[table_id]  # sent again now: the next refresh waits for it before another
        return True
    _behind[table_id] = version
    return False
