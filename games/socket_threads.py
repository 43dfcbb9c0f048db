"""Where the sockets' database work and rendering run: a small pool of threads.

Channels runs sync code (``database_sync_to_async``) in one thread per process, so every table's
queries and renders wait in one line, and the process idles while that thread waits for
PostgreSQL. With OKEY_SOCKET_DB_THREADS > 0 they run in a pool of that many threads instead: a
render goes on while another socket's query waits, and one slow query does not hold up every
table. Each thread keeps its own database connection (CONN_MAX_AGE), so a daphne process holds
up to that many connections.

0 runs them in Channels' thread as before. Tests that share their transaction with a consumer
need that (the consumer must use the test's connection): tests/conftest.py sets it.
"""

import threading
from concurrent.futures import ThreadPoolExecutor

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from django.conf import settings

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def db_pool() -> ThreadPoolExecutor | None:
    global _pool
    threads = settings.OKEY_SOCKET_DB_THREADS
    if threads <= 0:
        return None
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="socket-db")
        return _pool


def in_db_thread(fn):
    """``fn`` as a coroutine function that runs it in a database thread (see the module)."""
    pool = db_pool()
    if pool is None:
        return database_sync_to_async(fn)
    return database_sync_to_async(fn, thread_sensitive=False, executor=pool)


class PooledConsumer:
    """A consumer mixin: no thread hop before each message when the pool runs the queries.

    Channels closes stale database connections before every message it dispatches, in its own
    sync thread: one hop there and back per message, four or more per move at a table. With the
    pool the sockets' queries never use that thread's connections, and each pooled call already
    closes its own stale ones before and after it runs (DatabaseSyncToAsync)."""

    async def dispatch(self, message):
        if db_pool() is None:
            return await super().dispatch(message)
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
