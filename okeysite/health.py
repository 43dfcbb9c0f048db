"""Health: three answers for three askers.

- ``/healthz/live``: the process answers. No I/O at all, on the event loop (an async view: it
  never waits for the thread that runs the site's database work). A supervisor or an
  orchestrator restarts a process that stops answering it.
- ``/healthz/ready``: this process can serve players: the database and Redis answer. What a load
  balancer asks before sending traffic here. A Celery worker is not asked: a dead worker delays
  bots and timeouts at every table alike, and taking the web processes out of the balancer for
  it would take the whole site down instead (the sweep catches up once a worker is back).
- ``/healthz``: the deep check for a person or a monitor: the database, Redis and a Celery
  worker. The ping returns as soon as one worker answers, so a healthy site answers in
  milliseconds; only with no worker does it wait out ``PROBE_TIMEOUT``.

Each answers 200 when all its probes are ok and 503 otherwise, with JSON naming each probe. Every
probe has a short timeout: a health check that hangs is worse than one that fails.
"""

import logging

import redis
from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .celery import app as celery_app

log = logging.getLogger(__name__)
# Redis and the broker: the ready check's budget is 50 ms when all is well, so a Redis that does
# not answer within half a second is as good as down for it.
REDIS_TIMEOUT = 0.5
# The Celery ping: a worker busy with a task answers between tasks, so it gets longer.
PROBE_TIMEOUT = 1.0


def database_ok() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        return cursor.fetchone() == (1,)


def redis_ok() -> bool:
    client = redis.Redis.from_url(
        settings.REDIS_URL, socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT
    )
    try:
        return bool(client.ping())
    finally:
        client.close()


def celery_ok() -> bool:
    """At least one worker answers the broadcast ping (limit=1: the first reply ends the wait)."""
    with celery_app.connection_for_write() as conn:
        # Fail fast when the broker is down instead of kombu's retry-forever default.
        conn.ensure_connection(max_retries=1, timeout=REDIS_TIMEOUT)
        replies = celery_app.control.ping(timeout=PROBE_TIMEOUT, limit=1, connection=conn)
    return bool(replies)


READY_PROBES = {"database": database_ok, "redis": redis_ok}
DEEP_PROBES = {**READY_PROBES, "celery": celery_ok}


def probe_run(name, probe) -> str:
    try:
        return "ok" if probe() else "error"
    except Exception as exc:  # any failure of the dependency is an "error", never a 500
        log.warning("health probe %s failed: %s", name, exc)
        return "error"


def probes_answer(probes) -> JsonResponse:
    result = {name: probe_run(name, probe) for name, probe in probes.items()}
    healthy = all(value == "ok" for value in result.values())
    result["status"] = "ok" if healthy else "error"
    return JsonResponse(result, status=200 if healthy else 503)


@never_cache
@require_GET
async def healthz_live(request):
    return JsonResponse({"status": "ok"})


@never_cache
@require_GET
def healthz_ready(request):
    return probes_answer(READY_PROBES)


@never_cache
@require_GET
def healthz(request):
    return probes_answer(DEEP_PROBES)
