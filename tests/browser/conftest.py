"""Browser tests: headless Debian chromium driven by Playwright, against a real daphne.

Fixtures
--------
asgi_live_server
    A daphne process serving okeysite.asgi (HTTP and WebSockets) on a free port of 127.0.0.1,
    on the test database. Started once per session, shared by the tests; each test that asks
    for it gets a transactional database (data it writes is committed, so the server sees it,
    and is removed after the test). Attributes:
      .url        "http://127.0.0.1:PORT"
      .ws_url     "ws://127.0.0.1:PORT"
      .emails()   the e-mails the server sent during this test, oldest first, as
                  email.message.EmailMessage (the server writes them to a directory)
      .links(pattern="")  the http(s) links in those e-mails that contain `pattern`
    The server's cache is Redis with a key prefix of its own, emptied before each test, so rate
    limits do not carry over. Its log is printed when a test fails.
browser
    A Playwright chromium Browser (module scope) launched from /usr/bin/chromium ($CHROMIUM to
    change it) with the flags this machine needs.
page
    A fresh context and page per test (desktop size); a screenshot goes to
    test-artifacts/<test name>.png when the test fails. Open more pages for more players with
    `browser.new_context()`.
live_server_run(base, **settings)
    A context manager for another such daphne with settings of its own (DEBUG off, say), for
    a module-scoped fixture: tests/browser/test_your_data.py.
celery_worker
    A Celery worker thread in the test process for the tasks the server sends (e-mail goes to
    the server's mail directory, so .emails() sees it).

Mark browser tests with @pytest.mark.browser; they run after all others (tests/conftest.py).
"""

import contextlib
import email
import email.policy
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import redis
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
_phase_key = pytest.StashKey[dict]()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    item.stash.setdefault(_phase_key, {})[report.when] = report
    return report


def _failed(request) -> bool:
    reports = request.node.stash.get(_phase_key, {})
    return any(r.failed for r in reports.values())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class AsgiLiveServer:
    def __init__(self, port: int, mail_dir: Path, log_path: Path, cache_prefix: str):
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"
        self.mail_dir = mail_dir
        self.log_path = log_path
        self.cache_prefix = cache_prefix
        self.proc: subprocess.Popen | None = None

    def __str__(self):
        return self.url

    def emails(self) -> list[email.message.EmailMessage]:
        messages = []
        for path in sorted(self.mail_dir.glob("*.log"), key=lambda p: p.stat().st_mtime_ns):
            # Django's file backend: each message followed by a line of 79 dashes.
            for chunk in path.read_bytes().split(b"\n" + b"-" * 79 + b"\n"):
                if chunk.strip():
                    messages.append(email.message_from_bytes(chunk, policy=email.policy.default))
        return messages

    def links(self, pattern: str = "") -> list[str]:
        found = []
        for message in self.emails():
            body = message.get_body(preferencelist=("plain",)).get_content()
            found += [u for u in re.findall(r"https?://\S+", body) if pattern in u]
        return found

    def reset(self):
        shutil.rmtree(self.mail_dir, ignore_errors=True)
        self.mail_dir.mkdir(parents=True)
        client = redis.Redis.from_url(settings.REDIS_URL)
        try:
            for key in client.scan_iter(f"{self.cache_prefix}:*"):
                client.delete(key)
        finally:
            client.close()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


@contextlib.contextmanager
def live_server_run(base: Path, **extra_settings):
    """A daphne process serving the site on the test database on a free port (the servers of
    ``asgi_live_server`` and tests that need other settings, such as DEBUG off)."""
    port = _free_port()
    server = AsgiLiveServer(port, base / "mail", base / "daphne.log", f"live{port}")
    server.reset()
    overrides = {
        # pytest-django has pointed DATABASES at the test database by now
        "DATABASES": settings.DATABASES,
        "PASSWORD_HASHERS": settings.PASSWORD_HASHERS,
        "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "EMAIL_FILE_PATH": str(server.mail_dir),
        "CACHES": {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": settings.REDIS_URL,
                "KEY_PREFIX": server.cache_prefix,
            }
        },
        **extra_settings,
    }
    env = {**os.environ, "OKEY_LIVE_SETTINGS": json.dumps(overrides, default=str)}
    with open(server.log_path, "wb") as log:
        server.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.browser.asgi_server", str(port)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(f"{server.url}/healthz", timeout=2)
            break
        except urllib.error.HTTPError:
            break  # it answered (503 while no Celery worker runs): it is up
        except OSError:
            if server.proc.poll() is not None or time.monotonic() > deadline:
                server.proc.kill()
                pytest.fail(f"daphne did not start:\n{server.log()}")
            time.sleep(0.1)
    try:
        yield server
    finally:
        server.proc.terminate()
        try:
            server.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.proc.kill()


@pytest.fixture(scope="session")
def _asgi_live_server_process(django_db_setup, django_db_blocker, tmp_path_factory):
    with live_server_run(tmp_path_factory.mktemp("asgi-live")) as server:
        yield server


@pytest.fixture
def asgi_live_server(_asgi_live_server_process, transactional_db, request):
    server = _asgi_live_server_process
    server.reset()
    log_start = server.log_path.stat().st_size if server.log_path.exists() else 0
    yield server
    if _failed(request):
        with open(server.log_path, "rb") as log:
            log.seek(log_start)
            sys.stderr.write("---- daphne log during the test ----\n")
            sys.stderr.write(log.read().decode(errors="replace"))


@pytest.fixture
def celery_worker(asgi_live_server, settings):
    """A Celery worker in this process (a thread) on the session's Redis, for the tasks the live
    server sends: deals after countdowns, turns, e-mail (written where .emails() reads them).
    Tasks left in the queue by earlier tests are purged first."""
    from celery.contrib.testing.worker import start_worker

    from okeysite.celery import app

    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(asgi_live_server.mail_dir)
    app.control.purge()
    with start_worker(app, pool="solo", perform_ping_check=False, loglevel="WARNING"):
        yield app


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"Debian chromium not found at {CHROMIUM}: `apt-get install -y chromium` "
            "(`make test` does it when run as root), or set CHROMIUM."
        )
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop in this thread while it runs; Django's ORM
    # would then refuse queries from the test body, which are safe here (one thread, sync).
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
            )
            yield chromium
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def page(browser, request):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="tr-TR")
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    if _failed(request):
        ARTIFACTS.mkdir(exist_ok=True)
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.nodeid)
        try:
            page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
        except Exception as exc:  # a crashed page must not hide the test's own failure
            sys.stderr.write(f"screenshot failed: {exc}\n")
    context.close()
