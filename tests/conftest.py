"""Fixtures for the whole suite.

- Redis: tests/redis_plugin.py (loaded with -p) gives the session a private redis-server when
  REDIS_URL is unset; `redis_url` is the URL either way.
- Database: SQLite by default, PostgreSQL with DATABASE_URL. The SQLite test database is a file
  in a temporary directory (not in memory), so that a server in another process
  (`asgi_live_server` in tests/browser/conftest.py) sees the same data.
- The cache (locmem in tests, see the plugin) is cleared before every test, so rate-limit
  counters never leak from one test into the next.
- The sockets' database threads and move processes (games.realtime.sockets) stop, their connections
  closed, after each test.
- Passwords are hashed with a fast hasher: PBKDF2's cost is for attackers, not for tests.
- Browser tests run last: they are the slowest, and the quick tests fail first.
"""

import pytest
from django.conf import settings

FAST_PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def pytest_configure(config):
    settings.PASSWORD_HASHERS = FAST_PASSWORD_HASHERS
    # Game tests make and play many tables with one account; tests/security/test_f06 sets the
    # per-account table limits it checks.
    settings.OKEY_TABLES_PER_ACCOUNT = settings.OKEY_GAMES_PER_ACCOUNT = 10_000
    settings.OKEY_TABLES_CREATED_PER_HOUR = 10_000
    # A socket's database work runs in threads of the loop's default executor
    # (games.realtime.sockets.in_db_thread): with no kept connections, each closes its own when
    # it ends, and the run's final drop of the test database waits for none of them.
    from django.db import connections

    settings.DATABASES["default"]["CONN_MAX_AGE"] = 0
    connections["default"].settings_dict["CONN_MAX_AGE"] = 0


@pytest.fixture(scope="session")
def redis_url() -> str:
    """URL of the Redis the tests use: the private one (unix://...) or $REDIS_URL."""
    return settings.REDIS_URL


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    db = settings.DATABASES["default"]
    if db["ENGINE"] == "django.db.backends.sqlite3":
        db.setdefault("TEST", {})["NAME"] = str(tmp_path_factory.mktemp("db") / "test.sqlite3")


@pytest.fixture(autouse=True)
def _cache_clear():
    from django.core.cache import cache

    # Only the per-process cache: clearing a Redis cache would flush a shared database.
    if settings.CACHES["default"]["BACKEND"].endswith("LocMemCache"):
        cache.clear()
    yield


@pytest.fixture(autouse=True)
def _language_reset():
    """Each test starts in the site's default language: a request to an /en/ page leaves English
    active in the test's thread (LocaleMiddleware activates it and nothing resets it), and the
    next test's reverse() would then make /en/ URLs."""
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.fixture
def celery_eager():
    """Celery tasks run in the caller, at once (tasks without a time: e-mail). Timed table tasks
    are not sent in this mode (games/table/deadlines.py): drive those with the sweep."""
    from okeysite.celery import app

    before = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    yield app
    app.conf.task_always_eager, app.conf.task_eager_propagates = before


@pytest.fixture
def commit_per_request(monkeypatch):
    """Each test-client request runs the on-commit callbacks it registered when it returns, as
    its own commits would outside the test's transaction (tasks sent after commit, e-mail)."""
    from django.test import Client, TestCase

    request = Client.request

    def request_and_commit(self, **kwargs):
        with TestCase.captureOnCommitCallbacks(execute=True):
            return request(self, **kwargs)

    monkeypatch.setattr(Client, "request", request_and_commit)
