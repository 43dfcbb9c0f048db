"""The production layout (deploy/supervisord.conf) started as README.md's production section
says, for the tests of tests/deploy: the release step, then supervisord with two daphnes on one
shared socket, the Celery workers and beat.

Production settings (DEBUG=0, a secret key, allowed hosts; plain HTTP, as behind a proxy that
terminates TLS), the test database (a file for SQLite, so other processes see it; PostgreSQL
with DATABASE_URL) and a redis-server of the test's own on a unix socket: the session's Redis is
shared with other tests, and this one's workers and beat must not take their tasks.
"""

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from django.db import connection

from tests.redis_plugin import redis_start

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(sys.executable).parent.parent  # not resolved: a venv's python is a symlink


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url() -> str:
    """The test database, as DATABASE_URL for the site's processes."""
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{db['NAME']}"
    user = urllib.parse.quote(db["USER"] or "")
    password = ":" + urllib.parse.quote(db["PASSWORD"]) if db["PASSWORD"] else ""
    return f"postgres://{user}{password}@{db['HOST'] or ''}:{db['PORT'] or ''}/{db['NAME']}"


class Site:
    """supervisord running deploy/supervisord.conf in the foreground (-n), stopped by its pid."""

    def __init__(self, env: dict, run_dir: Path):
        self.env, self.run_dir = env, run_dir
        self.url = f"http://127.0.0.1:{env['OKEY_PORT']}"
        conf = str(ROOT / "deploy" / "supervisord.conf")
        self.ctl = [str(VENV / "bin" / "supervisorctl"), "-c", conf]
        self.proc = subprocess.Popen(
            [str(VENV / "bin" / "supervisord"), "-c", conf, "-n"],
            cwd=ROOT, env=env, stdin=subprocess.DEVNULL, start_new_session=True,
            stdout=open(run_dir / "supervisord.out", "wb"), stderr=subprocess.STDOUT,  # noqa: SIM115
        )  # fmt: skip

    def logs(self) -> str:
        return "\n".join(
            f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}"
            for p in sorted(self.run_dir.glob("*.log")) + [self.run_dir / "supervisord.out"]
        )

    def supervisorctl(self, *args) -> str:
        return subprocess.run(
            [*self.ctl, *args], env=self.env, capture_output=True, text=True, timeout=20
        ).stdout

    def pid(self, name: str) -> int:
        out = self.supervisorctl("pid", name).strip()
        return int(out) if out.isdigit() else 0

    def health_wait(self, timeout: float) -> None:
        """Until /healthz answers 200: the database, Redis and a worker all answer."""
        deadline = time.monotonic() + timeout
        while True:
            assert self.proc.poll() is None, self.logs()
            try:
                urllib.request.urlopen(self.url + "/healthz", timeout=3)
                return
            except (urllib.error.HTTPError, OSError):
                assert time.monotonic() < deadline, self.logs()
                time.sleep(0.2)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # supervisord stops every process, then exits
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


@contextlib.contextmanager
def site_run(tmp_path: Path, settings, **extra_env):
    """The site in production's layout on the test database (the test must have
    ``transactional_db``); ``settings`` is pytest-django's fixture, ``extra_env`` more of the
    site's environment (EMAIL_URL, ...)."""
    # unix socket paths are limited to about 100 bytes: tmp_path can be longer
    short = Path(tempfile.mkdtemp(prefix="okey-deploy-", dir="/tmp"))
    redis_proc, redis_socket = redis_start(short)
    run_dir, var_dir = tmp_path / "run", tmp_path / "var"
    run_dir.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "CACHE_URL"}  # the cache on Redis
    # the same key here, where the sessions are made, as in the site's processes (the one
    # production shares among all of them), which check each session's hash with it
    settings.SECRET_KEY = secrets.token_urlsafe(50)
    env.update(
        DEBUG="0",
        SECRET_KEY=settings.SECRET_KEY,
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",  # plain HTTP here: no proxy terminating TLS in front
        SECURE_HSTS_SECONDS="0",
        DATABASE_URL=database_url(),
        EMAIL_URL="consolemail://",  # production names it; mail written in the mail log
        REDIS_URL=f"unix://{redis_socket}",
        OKEY_VAR_DIR=str(var_dir),  # static files, beat's schedule
        OKEY_DIR=str(ROOT),
        OKEY_VENV=str(VENV),
        OKEY_HOST="127.0.0.1",
        OKEY_PORT=str(free_port()),
        OKEY_WEBS="2",
        OKEY_RUN_DIR=str(run_dir),
    )
    env.update(extra_env)
    site = None
    try:
        release = subprocess.run(
            [str(ROOT / "deploy" / "release")], env=env, cwd=ROOT, capture_output=True, text=True
        )
        assert release.returncode == 0, release.stdout + release.stderr
        site = Site(env, run_dir)
        # every process up and answering: on a busy 2-core machine (load 18 once) this took
        # over 45 s
        site.health_wait(timeout=120)
        yield site
    finally:
        if site is not None:
            site.stop()
        redis_proc.terminate()
        redis_proc.wait(timeout=10)
        shutil.rmtree(short, ignore_errors=True)
