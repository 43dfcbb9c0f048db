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

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connections

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


def db_pool_close() -> None:
    """Close each pool thread's database connection and stop the pool (the next call starts a
    new one). A connection left open in a pool thread would outlive, say, a test database."""
    global _pool
    with _pool_lock:
        pool, _pool = _pool, None
    if pool is None:
        return
    threads = pool._max_workers
    # one task per thread: each waits at the barrier until all have started, so no thread can
    # take two of them and leave another thread's connection open
    barrier = threading.Barrier(threads)

    def close() -> None:
        connections.close_all()
        try:
            barrier.wait(timeout=10)
        except threading.BrokenBarrierError:
            pass

    for _ in range(threads):
        pool.submit(close)
    pool.shutdown(wait=True)
