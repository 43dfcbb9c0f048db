"""/healthz: can this process reach the database, Redis and a Celery worker?

Answers 200 when all three are ok and 503 otherwise, so a load balancer or a supervisor can act
on it. Each probe has a short timeout: a health check that hangs is worse than one that fails.
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
PROBE_TIMEOUT = 1.0


def database_ok() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        return cursor.fetchone() == (1,)


def redis_ok() -> bool:
    client = redis.Redis.from_url(
        settings.REDIS_URL, socket_timeout=PROBE_TIMEOUT, socket_connect_timeout=PROBE_TIMEOUT
    )
    try:
        return bool(client.ping())
    finally:
        client.close()


def celery_ok() -> bool:
    with celery_app.connection_for_write() as conn:
        # Fail fast when the broker is down instead of kombu's retry-forever default.
        conn.ensure_connection(max_retries=1, timeout=PROBE_TIMEOUT)
        replies = celery_app.control.ping(timeout=PROBE_TIMEOUT, connection=conn)
    return bool(replies)


PROBES = {"database": database_ok, "redis": redis_ok, "celery": celery_ok}


def probe_run(name, probe) -> str:
    try:
        return "ok" if probe() else "error"
    except Exception as exc:  # any failure of the dependency is an "error", never a 500
        log.warning("health probe %s failed: %s", name, exc)
        return "error"


@never_cache
@require_GET
def healthz(request):
    result = {name: probe_run(name, probe) for name, probe in PROBES.items()}
    healthy = all(value == "ok" for value in result.values())
    result["status"] = "ok" if healthy else "error"
    return JsonResponse(result, status=200 if healthy else 503)
