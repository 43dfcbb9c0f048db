"""Log-in attempts are rate-limited (allauth's "login_failed": 5 per 5 minutes per address).

The counters live in Django's cache. The suite runs on a locmem cache (tests/redis_plugin.py says
why); the same limit is checked here against the Redis cache that production uses."""

import uuid

import pytest
from django.core.cache import cache
from django.test import override_settings

from .conftest import PASSWORD

pytestmark = pytest.mark.django_db

TOO_MANY = "Too many failed login attempts"


def login(client, email, password):
    return client.post("/en/accounts/login/", {"login": email, "password": password})


def assert_locked_after_five_failures(client):
    for _ in range(5):
        response = login(client, "zeynep@example.com", "wrong-password")
        assert response.status_code == 200
        assert TOO_MANY not in response.content.decode()
    # The sixth try is refused even with the right password, and nobody is logged in.
    response = login(client, "zeynep@example.com", PASSWORD)
    assert response.status_code == 200
    assert TOO_MANY in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_login_locked_after_five_failures(client, player):
    assert_locked_after_five_failures(client)


def test_lock_is_per_address(client, player):
    for _ in range(6):
        login(client, "someone-else@example.com", "wrong-password")
    response = login(client, "zeynep@example.com", PASSWORD)
    assert response.status_code == 302
    assert "_auth_user_id" in client.session


def test_lock_shows_in_turkish(client, player):
    for _ in range(6):
        response = client.post("/accounts/login/", {"login": "zeynep@example.com", "password": "x"})
    assert "Çok fazla hatalı giriş" in response.content.decode()


def test_login_locked_with_the_redis_cache(client, player, redis_url):
    prefix = f"test-{uuid.uuid4().hex}"
    redis_cache = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": prefix,
        }
    }
    with override_settings(CACHES=redis_cache):
        try:
            assert cache.get("probe") is None
            assert_locked_after_five_failures(client)
            raw = cache._cache.get_client()
            assert list(raw.scan_iter(f"{prefix}:*")), "the counters are in Redis"
        finally:
            raw = cache._cache.get_client()
            for key in raw.scan_iter(f"{prefix}:*"):
                raw.delete(key)
