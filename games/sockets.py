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

A move is most of a table socket's work (its queries, the engine, its event and own parts
rendered), and in those threads it holds the GIL that every socket's sends need: one daphne
process runs out of its one core long before it runs out of sockets, and every table's updates
then wait in its queue. With OKEY_SOCKET_MOVE_PROCESSES > 0 moves
run in that many child processes of daphne instead (``in_move_process``), on the other cores;
daphne's loop only sends what they rendered. A child is spawned, not forked (a fork would copy
the loop's threads and sockets in whatever state they were), and sets Django up itself, on the
same databases as its parent (a test database too).
"""

import asyncio
import multiprocessing
import os
import threading
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import django
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections, connections

from okeysite.gc_pauses import gc_settle


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


_moves: ProcessPoolExecutor | None = None
_moves_lock = threading.Lock()


def _orphan_exit() -> None:
    # A parent killed outright (kill -9, out of memory) leaves its children waiting for work on
    # a queue whose pipe they hold both ends of: they would wait, each with its connection,
    # for good. A move in hand is lost with its transaction; its page syncs on reconnecting.
    multiprocessing.parent_process().join()
    os._exit(1)


def _move_process_start(database_names: dict[str, str]) -> None:
    """A move process's start: Django set up on its parent's databases, what it loaded frozen
    out of the garbage collector's walks as daphne's application is (okeysite.gc_pauses: a full
    collection holds up the move in hand, and that table's updates with it), and its end when
    its parent's comes."""
    threading.Thread(target=_orphan_exit, name="orphan-exit", daemon=True).start()
    django.setup()
    for alias, name in database_names.items():
        # the same dict Django's connections read, before any of them opens
        settings.DATABASES[alias]["NAME"] = name
    gc_settle()


def _move_pool() -> ProcessPoolExecutor | None:
    global _moves
    if settings.OKEY_SOCKET_MOVE_PROCESSES <= 0:
        return None
    with _moves_lock:
        if _moves is None:
            names = {alias: connections[alias].settings_dict["NAME"] for alias in connections}
            _moves = ProcessPoolExecutor(
                max_workers=settings.OKEY_SOCKET_MOVE_PROCESSES,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_move_process_start,
                initargs=(names,),
            )
            # started now, not by the first move: setting Django up takes a second or two
            _moves.submit(int)
        return _moves


def move_processes_start() -> None:
    """Start the move processes if the settings ask for them (a table socket's connect)."""
    _move_pool()


def _in_process(fn, *args):
    close_old_connections()
    try:
        return fn(*args)
    finally:
        close_old_connections()


async def in_move_process(fn, *args) -> tuple[bool, object]:
    """(True, ``fn(*args)``) run in a move process, or (False, ``fn(*args)``) in a socket
    database thread when there are none. ``fn`` and its arguments and result cross to the child
    and back pickled: a module-level function of plain values. A child that died (killed, out of
    memory) raises BrokenProcessPool for the moves it held, and the next move starts new ones."""
    global _moves
    pool = _move_pool()
    if pool is None:
        return False, await in_db_thread(fn)(*args)
    try:
        return True, await asyncio.get_running_loop().run_in_executor(pool, _in_process, fn, *args)
    except BrokenProcessPool:
        with _moves_lock:
            if _moves is pool:
                _moves = None
        pool.shutdown(wait=False, cancel_futures=True)
        raise


def move_processes_stop() -> None:
    """End the move processes, their connections closed (a test's end, as db_threads_stop)."""
    global _moves
    with _moves_lock:
        pool, _moves = _moves, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)
