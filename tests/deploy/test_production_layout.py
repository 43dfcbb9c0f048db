"""The production layout (deploy/supervisord.conf) runs as README.md's production section says:
the release step, then supervisord with two daphnes on one shared socket, the Celery worker,
the reviews' worker and beat. Two players of one table, connected to different daphne
processes, play a move across them; a killed worker is started again by supervisord.

Production settings (DEBUG=0, a secret key, allowed hosts; plain HTTP, as behind a proxy that
terminates TLS), the test database (a file for SQLite, so other processes see it; PostgreSQL
with DATABASE_URL) and a redis-server of this test's own on a unix socket: the session's Redis is
shared with other tests, and this one's worker and beat must not take their tasks.
"""

import asyncio
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

import psutil
import pytest
from django.db import connection

from bench.loadlib.frames import frame_parse
from bench.loadlib.procs import program_commands
from tests.bench.test_scaleout import cookie_of, play_between
from tests.games.conftest import SEED_HEX, game_started, table_full
from tests.redis_plugin import redis_start

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(sys.executable).parent.parent  # not resolved: a venv's python is a symlink
connect = pytest.importorskip("websockets.asyncio.client").connect

pytestmark = pytest.mark.redis


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


@pytest.fixture
def production(transactional_db, tmp_path, settings):
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
        REDIS_URL=f"unix://{redis_socket}",
        OKEY_VAR_DIR=str(var_dir),  # static files, beat's schedule
        OKEY_DIR=str(ROOT),
        OKEY_VENV=str(VENV),
        OKEY_HOST="127.0.0.1",
        OKEY_PORT=str(free_port()),
        OKEY_WEBS="2",
        OKEY_RUN_DIR=str(run_dir),
    )
    site = None
    try:
        release = subprocess.run(
            [str(ROOT / "deploy" / "release")], env=env, cwd=ROOT, capture_output=True, text=True
        )
        assert release.returncode == 0, release.stdout + release.stderr
        site = Site(env, run_dir)
        site.health_wait(timeout=45)
        yield site
    finally:
        if site is not None:
            site.stop()
        redis_proc.terminate()
        redis_proc.wait(timeout=10)
        shutil.rmtree(short, ignore_errors=True)


def web_pids(site: Site) -> list[int]:
    return [site.pid("web:web0"), site.pid("web:web1")]


def serving_pid(ws, pids: list[int]) -> int:
    """Which daphne accepted ``ws``: the one holding the server end of its TCP connection."""
    here = ws.local_address[1]
    for pid in pids:
        for c in psutil.Process(pid).net_connections(kind="tcp"):
            if c.raddr and c.raddr.port == here and c.laddr.port == ws.remote_address[1]:
                return pid
    raise AssertionError(f"no daphne of {pids} holds the connection from port {here}")


async def play_across(site: Site, table_id: int, cookies: list[str]) -> None:
    pids = web_pids(site)
    assert all(pids) and pids[0] != pids[1]

    async def open_(cookie):
        ws = await connect(
            f"ws://127.0.0.1:{site.env['OKEY_PORT']}/ws/table/{table_id}/?lang=en",
            origin=site.url,
            additional_headers={"Cookie": f"sessionid={cookie}"},
        )
        return ws, frame_parse(await asyncio.wait_for(ws.recv(), 10))

    # The kernel gives each connection to one of the daphnes on the shared socket: connect the
    # second player until a connection lands on the other process than the first player's.
    a, first_a = await open_(cookies[0])
    pid_a = serving_pid(a, pids)
    for _ in range(40):
        b, first_b = await open_(cookies[1])
        pid_b = serving_pid(b, pids)
        if pid_b != pid_a:
            break
        await b.close()
    assert pid_b != pid_a, "every connection went to one daphne"
    try:
        await play_between(a, b, first_a, first_b)  # the move and its answer, across them
    finally:
        await a.close()
        await b.close()


def test_two_webs_play_a_move_across_them_and_a_killed_worker_comes_back(
    production, django_user_model, settings
):
    site = production
    status = site.supervisorctl("status")
    for name in ("web:web0", "web:web1", "worker", "reviews", "beat"):
        assert any(line.split()[:2] == [name, "RUNNING"] for line in status.splitlines()), status
    daphnes = [psutil.Process(pid).cmdline() for pid in web_pids(site)]
    assert all("--fd" in cmd and "--proxy-headers" not in cmd for cmd in daphnes), daphnes

    settings.OKEY_TEST_SEED_HEX = SEED_HEX  # the deal is made here: the first seat is seat 1
    users = [
        django_user_model.objects.create_user(username=f"d{i}", email=f"d{i}@example.com")
        for i in range(4)
    ]
    table = game_started(table_full(users))
    asyncio.run(play_across(site, table.pk, [cookie_of(u) for u in users[:2]]))

    first = site.pid("worker")
    os.kill(first, signal.SIGKILL)
    deadline = time.monotonic() + 20
    while site.pid("worker") in (0, first):
        assert time.monotonic() < deadline, site.logs()
        time.sleep(0.2)
    site.health_wait(timeout=30)  # the new worker answers the health check's ping
    assert "exited: worker (terminated by SIGKILL" in (site.run_dir / "supervisord.log").read_text()


def test_make_run_runs_production_processes_with_its_own_redis_when_redis_url_is_unset():
    """deploy/dev.conf (bin/run) runs programs.conf's processes with the same commands as
    production, plus bin/announce, plus the private redis-server only when bin/run includes
    redis.conf (REDIS_URL unset)."""
    env = {**os.environ, "OKEY_VENV": str(VENV), "REDIS_SERVER": "/usr/bin/redis-server"}
    production = program_commands(env, config="deploy/supervisord.conf")
    with_redis = program_commands({**env, "OKEY_DEV_INCLUDE": "redis.conf"})
    without = program_commands({**env, "OKEY_DEV_INCLUDE": ""})
    assert set(production) == {"web", "worker", "reviews", "beat"}
    assert with_redis == {**without, "redis": with_redis["redis"]}
    assert without == {**production, "announce": without["announce"]}
    assert "--unixsocket" in with_redis["redis"] and "bin/announce" in without["announce"]
