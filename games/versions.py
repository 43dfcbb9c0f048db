"""The current version of every table that has a socket in this process, read in one query
every couple of seconds, so that the pages' heartbeat syncs cost no query each.

Every open table page asks "is version n still the latest?" every 15 s (table.js), to catch a
notification the channel layer dropped. With thousands of idle pages that was a query per page
every 15 s. Here one task per process reads the versions of all the tables its sockets show
every REFRESH_SECONDS, and a sync compares against that. A version older than STALE_SECONDS (the
task is late or has not run yet) is not trusted: the socket reads the database itself.
"""

import asyncio
import time
from collections import Counter

from games.models import Game
from games.socket_threads import in_db_thread

REFRESH_SECONDS = 2.0
STALE_SECONDS = 3 * REFRESH_SECONDS

_watched: Counter = Counter()  # table -> sockets of this process showing it
_known: dict[int, tuple[int, float]] = {}  # table -> (version, monotonic time read)
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
        _known.pop(table_id, None)


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
        for table_id, version in versions.items():
            if table_id in _watched:
                _known[table_id] = (version, started)
        await asyncio.sleep(REFRESH_SECONDS)
