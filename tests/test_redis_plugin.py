"""Parallel workers (make test's pytest-xdist) each get a Redis database of their own on a
Redis given by REDIS_URL: their table groups, Celery queues and cache keys never meet."""

import pytest

from tests.redis_plugin import redis_url_for_worker


def test_each_worker_gets_the_database_after_the_urls_by_its_number():
    assert redis_url_for_worker("redis://127.0.0.1:6379/9", "gw0") == "redis://127.0.0.1:6379/9"
    assert redis_url_for_worker("redis://127.0.0.1:6379/9", "gw2") == "redis://127.0.0.1:6379/11"
    assert (
        redis_url_for_worker("redis://:pw@redis.local:6379", "gw1")
        == "redis://:pw@redis.local:6379/1"
    )
    assert (
        redis_url_for_worker("unix:///tmp/r/redis.sock?db=3", "gw1")
        == "unix:///tmp/r/redis.sock?db=4"
    )
    assert (
        redis_url_for_worker("unix:///tmp/r/redis.sock", "gw1") == "unix:///tmp/r/redis.sock?db=1"
    )


def test_a_worker_past_the_sixteen_databases_is_told_so():
    with pytest.raises(pytest.UsageError, match="database 16"):
        redis_url_for_worker("redis://127.0.0.1:6379/14", "gw2")
