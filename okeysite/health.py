"""Health: three answers for three askers.

- ``/healthz/live``: the process answers. No I/O at all, on the event loop (an async view: it
  never waits for the thread that runs the site's database work). A supervisor or an
  orchestrator restarts a process that stops answering it.
- ``/healthz/ready``: this process can serve players: the database and Redis answer, within
  ``READY_TIMEOUT`` together. What a load balancer asks before sending traffic here. No Celery
  worker is asked: a dead worker delays bots and timeouts at every table alike, and taking the
  web processes out of the balancer for it would take the whole site down instead (the sweep
  catches up once a worker is back).
- ``/healthz``: the deep check for a person or a monitor: the database, Redis, the workers of
  each Celery queue (live play, reviews, mail: a dead live-play worker is not hidden by a
  reviews worker that answers) and beat (its heartbeat, okeysite.beat). The workers' answer ends
  as soon as every queue has one; only a queue without any waits out ``PROBE_TIMEOUT``.

Each answers 200 when all its probes are ok and 503 otherwise, with JSON naming each probe. Every
probe has a short timeout: a health check that hangs is worse than one that fails. The database
is asked from a thread of its own with a deadline, so a database that does not answer (paused,
its network gone) gives a 503 within a second instead of holding the check, and a probe still
waiting from before answers "error" at once instead of stacking up threads.

Every daphne answers these on the site's shared socket and on a socket of its own
(deploy/programs.conf: ``$OKEY_RUN_DIR/web-N.sock``), so one process that stopped answering is
found by its own probe (README, "Health").
"""

import asyncio
import logging
import time
from concurrent.futures import Future, ThreadPoolExecutor

import redis
import redis.asyncio
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .beat import HEARTBEAT_KEY
from .celery import app as celery_app

log = logging.getLogger(__name__)
# Redis and the broker: the ready check's budget is 50 ms when all is well, so a Redis that does
# not answer within half a second is as good as down for it.
REDIS_TIMEOUT = 0.5
# The database: the whole probe (connect if need be, one statement) within this; the statement
# alone within DB_STATEMENT_TIMEOUT_MS on the server (a database busy or locked)
DB_TIMEOUT = 0.8
DB_STATEMENT_TIMEOUT_MS = 500
# The workers' answer: a worker busy with a task answers between tasks, so it gets longer.
PROBE_TIMEOUT = 1.0

# one thread, one connection, for the database probe; the probe still running, if any
_db_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="health-db")
_db_probe: Future | None = None


def database_ok() -> bool:
    """SELECT 1 on this thread's own connection (the probe thread's), with a statement timeout
    on PostgreSQL."""
    connection.close_if_unusable_or_obsolete()  # after an error, or past CONN_MAX_AGE
    try:
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute(f"SET statement_timeout = {DB_STATEMENT_TIMEOUT_MS}")
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    finally:
        connection.close_if_unusable_or_obsolete()  # closes at once with CONN_MAX_AGE=0


async def database_probe() -> bool:
    global _db_probe
    if _db_probe is not None and not _db_probe.done():
        raise TimeoutError("the database has not answered the previous probe yet")
    _db_probe = _db_thread.submit(database_ok)
    return await asyncio.wait_for(asyncio.wrap_future(_db_probe), DB_TIMEOUT)


def _redis_async() -> redis.asyncio.Redis:
    return redis.asyncio.Redis.from_url(
        settings.REDIS_URL, socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT
    )


async def redis_probe() -> bool:
    client = _redis_async()
    try:
        return bool(await asyncio.wait_for(client.ping(), REDIS_TIMEOUT * 2))
    finally:
        await client.aclose()


class _AllAnswered(Exception):
    """Every queue has a worker that answered: the wait for more replies ends."""


def queues_served() -> set[str]:
    """The queues that running workers consume, from their answers to a broadcast; returns as
    soon as every queue of the site has one (PROBE_TIMEOUT after the last answer otherwise)."""
    wanted = {queue.name for queue in settings.CELERY_TASK_QUEUES}
    served: set[str] = set()

    def answered(reply):
        for queues in reply.values():
            served.update(q["name"] for q in queues or [])
        if wanted <= served:
            raise _AllAnswered

    with celery_app.connection_for_write() as conn:
        # Fail fast when the broker is down instead of kombu's retry-forever default.
        conn.ensure_connection(max_retries=1, timeout=REDIS_TIMEOUT)
        try:
            celery_app.control.broadcast(
                "active_queues",
                reply=True,
                timeout=PROBE_TIMEOUT,
                callback=answered,
                connection=conn,
            )
        except _AllAnswered:
            pass
    return served


async def beat_probe() -> bool:
    """Beat ticked within OKEY_BEAT_STALE_SECONDS (okeysite.beat writes the time at each tick)."""
    client = _redis_async()
    try:
        value = await asyncio.wait_for(client.get(HEARTBEAT_KEY), REDIS_TIMEOUT * 2)
    finally:
        await client.aclose()
    if value is None:
        return False
    return time.time() - float(value) < settings.OKEY_BEAT_STALE_SECONDS


async def probe_run(name, probe) -> str:
    try:
        return "ok" if await probe() else "error"
    except Exception as exc:  # any failure of the dependency is an "error", never a 500
        log.warning("health probe %s failed: %s", name, exc or type(exc).__name__)
        return "error"


READY_PROBES = {"database": database_probe, "redis": redis_probe}


async def probes_results(probes) -> dict[str, str]:
    names = list(probes)
    values = await asyncio.gather(*(probe_run(name, probes[name]) for name in names))
    return dict(zip(names, values, strict=True))


async def workers_results() -> dict[str, str]:
    """``worker_<queue>``: "ok" when a running worker consumes that queue."""
    try:
        served = await sync_to_async(queues_served, thread_sensitive=False)()
    except Exception as exc:  # the broker away: no worker can be reached either
        log.warning("health probe workers failed: %s", exc)
        served = set()
    return {
        f"worker_{queue.name}": "ok" if queue.name in served else "error"
        for queue in settings.CELERY_TASK_QUEUES
    }


def answer(result: dict[str, str]) -> JsonResponse:
    healthy = all(value == "ok" for value in result.values())
    result["status"] = "ok" if healthy else "error"
    return JsonResponse(result, status=200 if healthy else 503)


@never_cache
@require_GET
async def healthz_live(request):
    return JsonResponse({"status": "ok"})


@never_cache
@require_GET
async def healthz_ready(request):
    return answer(await probes_results(READY_PROBES))


@never_cache
@require_GET
async def healthz(request):
    """The ready probes, beat, and one entry per Celery queue, all at once."""
    probes, workers = await asyncio.gather(
        probes_results({**READY_PROBES, "beat": beat_probe}), workers_results()
    )
    return answer({**probes, **workers})
