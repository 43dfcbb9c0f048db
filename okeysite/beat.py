"""Beat's heartbeat: beat writes the time into Redis as it ticks, and the deep health check
(okeysite.health) reads it. Beat is one process for the whole site; supervisord gives up on it
after a few quick failures (FATAL), and without a heartbeat nothing noticed: the sweep, the idle
tables' close and the guests' cleanup all stopped in silence.

Beat ticks at least once per sweep period (OKEY_SWEEP_SECONDS, 3 s), so a heartbeat older than
OKEY_BEAT_STALE_SECONDS (30) means beat is not running (or not reaching Redis).
"""

import logging
import time

import redis
from celery.beat import PersistentScheduler
from django.conf import settings

log = logging.getLogger(__name__)
HEARTBEAT_KEY = "okey:beat:heartbeat"
# written at most this often; kept a while after beat stops, so the check can say how long ago
WRITE_EVERY = 1.0
KEEP_SECONDS = 3600
REDIS_TIMEOUT = 0.5


def heartbeat_client() -> redis.Redis:
    return redis.Redis.from_url(
        settings.REDIS_URL, socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT
    )


def beat_heartbeat_write(client: redis.Redis, now: float | None = None) -> None:
    client.set(HEARTBEAT_KEY, repr(time.time() if now is None else now), ex=KEEP_SECONDS)


def beat_heartbeat_age(client: redis.Redis, now: float | None = None) -> float | None:
    """Seconds since beat last ticked, or None when it never did (or not for an hour)."""
    value = client.get(HEARTBEAT_KEY)
    if value is None:
        return None
    return max(0.0, (time.time() if now is None else now) - float(value))


class HeartbeatScheduler(PersistentScheduler):
    """Celery's default scheduler (the schedule kept in CELERY_BEAT_SCHEDULE_FILENAME), which
    also writes the heartbeat at each tick (CELERY_BEAT_SCHEDULER).

    BEAT=0 (OKEY_BEAT) turns beat off on this machine: it exits at once, cleanly, and
    supervisord leaves it exited (deploy/programs.conf). Every machine runs the same processes,
    and exactly one of them, BEAT=1, sends the site's periodic tasks (deploy/README.md)."""

    _client = None
    _written = 0.0

    def __init__(self, *args, **kwargs):
        if not settings.OKEY_BEAT:
            log.warning("beat is off on this machine (BEAT=0): another one sends the schedule")
            raise SystemExit(0)
        super().__init__(*args, **kwargs)

    def tick(self, *args, **kwargs):
        interval = super().tick(*args, **kwargs)
        now = time.monotonic()
        if now - self._written >= WRITE_EVERY:
            self._written = now
            try:
                if self._client is None:
                    self._client = heartbeat_client()
                beat_heartbeat_write(self._client)
            except (redis.RedisError, OSError) as e:
                # beat keeps sending the schedule (kombu retries the broker on its own)
                log.warning("beat heartbeat not written", extra={"error": str(e)})
        return min(interval, WRITE_EVERY * 5)
