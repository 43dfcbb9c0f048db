"""/metrics: the site's numbers in Prometheus's text format, for operators only.

Access: with METRICS_TOKEN set, a request bearing it (``Authorization: Bearer <token>``) from
anywhere; without it, only a client on this machine whose request came through no proxy. Anyone
else gets a 404, as for a page that does not exist.

What this process counts as it goes (games.metrics: moves, broadcast times, open sockets,
errors) is joined, when asked, by what is read then: the length of each Celery queue and how
long its oldest task has waited past its due time (okeysite.celery stamps each task with the
time it was sent), and how many tables' deadlines are overdue (the server should have acted).
Each daphne process answers for itself: Prometheus scrapes every one, each through its own
socket (deploy/programs.conf, README "Metrics").
"""

import hmac
import json
import logging
import time
from datetime import timedelta

import redis
from django.conf import settings
from django.core.signals import got_request_exception
from django.db import DatabaseError
from django.dispatch import receiver
from django.http import Http404, HttpResponse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest
from prometheus_client.core import GaugeMetricFamily

from games import metrics
from games.models import Game
from okeysite.clients import is_loopback

log = logging.getLogger(__name__)
PROBE_TIMEOUT = 1.0
# a deadline this far past is overdue: the sweep (every few seconds) should have acted on it
OVERDUE_AFTER = timedelta(seconds=30)


def _allowed(request) -> bool:
    token = settings.OKEY_METRICS_TOKEN
    if token:
        given = request.headers.get("Authorization", "")
        return hmac.compare_digest(given.encode(), f"Bearer {token}".encode())
    # no address at all: the request came through a daphne's own unix socket
    # (deploy/programs.conf), which only this machine can reach
    peer = request.META.get("REMOTE_ADDR")
    return (peer is None or is_loopback(peer)) and not request.headers.get("X-Forwarded-For")


def task_lag(message: bytes, now: float) -> float:
    """Seconds a queued task has waited past its due time (sent, or its ETA if later)."""
    headers = json.loads(message).get("headers") or {}
    due = float(headers.get("okey_sent_at") or now)
    eta = parse_datetime(headers["eta"]) if headers.get("eta") else None
    if eta is not None:
        due = max(due, eta.timestamp())
    return max(0.0, now - due)


class ReadWhenAsked:
    """The numbers read at each scrape: Celery's queues, overdue deadlines."""

    def describe(self):
        # the names alone: without this, registering would call collect() (and read) at import
        return [
            GaugeMetricFamily(name, "")
            for name in (
                "okey_celery_queue_length",
                "okey_celery_task_lag_seconds",
                "okey_deadlines_overdue",
            )
        ]

    def collect(self):
        length = GaugeMetricFamily(
            "okey_celery_queue_length", "Tasks waiting in a Celery queue", labels=["queue"]
        )
        lag = GaugeMetricFamily(
            "okey_celery_task_lag_seconds",
            "How long the oldest task of a Celery queue has waited past its due time",
            labels=["queue"],
        )
        try:
            client = redis.Redis.from_url(
                settings.REDIS_URL,
                socket_timeout=PROBE_TIMEOUT,
                socket_connect_timeout=PROBE_TIMEOUT,
            )
            now = time.time()
            for queue in settings.OKEY_METRICS_QUEUES:
                length.add_metric([queue], client.llen(queue))
                oldest = client.lindex(queue, -1)  # kombu pushes left and pops right
                lag.add_metric([queue], task_lag(oldest, now) if oldest else 0.0)
            client.close()
        except (redis.RedisError, OSError, ValueError) as e:
            log.warning("metrics: Celery's queues could not be read", extra={"error": str(e)})
        yield length
        yield lag
        # the database away: this one number is missing, the scrape still answers with the rest
        # (a 500 lost every metric just when they were wanted)
        try:
            overdue = Game.objects.filter(deadline__lt=timezone.now() - OVERDUE_AFTER).count()
        except DatabaseError as e:
            log.warning("metrics: overdue deadlines could not be read", extra={"error": str(e)})
            return
        yield GaugeMetricFamily(
            "okey_deadlines_overdue",
            "Tables whose next server action is more than 30 s late",
            value=overdue,
        )


REGISTRY.register(ReadWhenAsked())


@require_GET
@never_cache
def metrics_view(request):
    if not _allowed(request):
        raise Http404
    return HttpResponse(generate_latest(REGISTRY), content_type=CONTENT_TYPE_LATEST)


@receiver(got_request_exception)
def server_error_count(sender, **kwargs):
    metrics.ERRORS.labels(kind="server_error").inc()
