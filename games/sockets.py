"""The sockets of this daphne process: how many are open, and where their database work runs.

A socket is accepted only while its user and its address hold fewer than OKEY_SOCKETS_PER_USER
and OKEY_SOCKETS_PER_ADDRESS sockets here: one account or one machine cannot tie up a process's
connections and the table reads each socket costs. The counts are this process's own (each
daphne enforces them by itself); they are also what /metrics reports as open sockets.

Channels runs sync code in one thread per process, and every message a consumer receives first
makes a trip to that thread (to close stale connections). A move, each socket's share of its
event and every heartbeat then wait in one line behind each other's queries, commits and
renders, and the process idles while that thread waits for PostgreSQL. With
OKEY_SOCKET_DB_THREADS > 0 the sockets' work runs in a pool of that many threads instead, each
with its own connection, so that one table's commit does not hold up every other table.
"""

import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connections


class SocketCounts:
    def __init__(self):
        self.by_user: Counter = Counter()
        self.by_address: Counter = Counter()
        self.total = 0

    def admit(self, user_id: int | None, address: str | None) -> bool:
        """Count one more socket, if the caps allow it; False (nothing counted) if not."""
        if user_id is not None and self.by_user[user_id] >= settings.OKEY_SOCKETS_PER_USER:
            return False
        if address is not None and self.by_address[address] >= settings.OKEY_SOCKETS_PER_ADDRESS:
            return False
        self.by_user[user_id] += user_id is not None
        self.by_address[address] += address is not None
        self.total += 1
        return True

    def release(self, user_id: int | None, address: str | None) -> None:
        for counts, key in ((self.by_user, user_id), (self.by_address, address)):
            if key is not None:
                counts[key] -= 1
                if counts[key] <= 0:
                    del counts[key]
        self.total -= 1


open_sockets = SocketCounts()


def socket_identity(scope) -> tuple[int | None, str | None]:
    """(user id or None for a visitor, client address or None) of a socket's scope."""
    user = scope.get("user")
    user_id = user.pk if user is not None and user.is_authenticated else None
    client = scope.get("client")
    return user_id, (client[0] if client else None)


_pool: ThreadPoolExecutor | None = None
_pool_threads = 0  # how many threads _pool was made with
_pool_lock = threading.Lock()


def _db_pool() -> ThreadPoolExecutor | None:
    global _pool, _pool_threads
    if settings.OKEY_SOCKET_DB_THREADS <= 0:
        return None
    with _pool_lock:
        if _pool is None:
            _pool_threads = settings.OKEY_SOCKET_DB_THREADS
            _pool = ThreadPoolExecutor(max_workers=_pool_threads, thread_name_prefix="socket-db")
        return _pool


def db_threads_stop() -> None:
    """Close the pool's connections and end its threads (a test run's end: PostgreSQL will not
    drop a database that connections are still open on). Each thread runs one of the closing
    calls, since they wait for each other before any returns."""
    global _pool
    with _pool_lock:
        pool, _pool, threads = _pool, None, _pool_threads
    if pool is None:
        return
    everyone = threading.Barrier(threads)

    def close():
        everyone.wait(timeout=10)
        connections.close_all()

    for future in [pool.submit(close) for _ in range(threads)]:
        future.result()
    pool.shutdown(wait=True)


def in_db_thread(fn):
    """``fn`` as a coroutine function that runs it in a socket database thread (see the
    module), closing stale connections before and after as Channels does."""
    pool = _db_pool()
    if pool is None:
        return database_sync_to_async(fn)
    return database_sync_to_async(fn, thread_sensitive=False, executor=pool)


class PooledDispatch:
    """A consumer mixin: with the pool, no trip to Channels' thread before each message.

    That trip only closes the stale connections of Channels' own thread, which the sockets'
    queries no longer use: each pooled call closes its own (DatabaseSyncToAsync). Without the
    pool Channels' dispatch runs as it is."""

    async def dispatch(self, message):
        if _db_pool() is None:
            return await super().dispatch(message)
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
