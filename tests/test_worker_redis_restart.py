"""The Celery worker lives through a kill -9 and restart of Redis, as `make run` and production
run it (deploy/programs.conf). That supervisord starts a killed worker again is
tests/deploy/test_production_layout.py's.

A Redis of its own for this test (the session's private Redis, or the shared one, must never
be killed): a redis-server on a free port in 8600-8649 without persistence, so a kill loses all
it held, as in bench/faults.py. The worker is started with exactly the command supervisord reads
from deploy/programs.conf, in a subprocess without supervisord (a death must be seen, not
repaired), and what it ran is read from its log. Before the fix (okeysite/broker.py) the worker
exited with "Unrecoverable error" after nearly every Redis kill.
"""

import os
import random
import shlex
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from celery import Celery

from bench.loadlib.procs import program_commands
from tests.redis_plugin import redis_binary

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.redis


def free_port() -> int:
    ports = list(range(8600, 8650))
    random.shuffle(ports)  # another run on this machine may hold the first ones
    for port in ports:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
                return port
            except OSError:
                continue
    pytest.skip("no free port in 8600-8649")


class Redis:
    def __init__(self, directory: Path):
        self.port, self.dir, self.proc = free_port(), directory, None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [redis_binary(), "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.dir), "--logfile", str(self.dir / "r.log")],
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)


@pytest.fixture
def own_redis(tmp_path):
    directory = Path(tmp_path / "redis")
    directory.mkdir()
    server = Redis(directory)
    server.start()
    yield server
    server.stop()


class Worker:
    """deploy/programs.conf's worker on ``own_redis``."""

    def __init__(self, redis: Redis, directory: Path):
        self.log = directory / "worker.log"
        url = f"redis://127.0.0.1:{redis.port}/0"
        env = dict(os.environ, REDIS_URL=url, OKEY_VAR_DIR=str(directory), PYTHONUNBUFFERED="1")
        env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
        env["OKEY_VENV"] = str(Path(sys.executable).parent.parent)  # not resolved: a symlink
        self.command = program_commands(env)["worker"]
        # The settings' own mapping of REDIS_URL, so the test sends through the same transport.
        self.app = Celery("probe", broker=f"okeyredis://127.0.0.1:{redis.port}/0")
        self.app.conf.broker_connection_retry_on_startup = True
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                shlex.split(self.command), cwd=ROOT, env=env,
                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def send(self, countdown=None) -> str:
        task_id = uuid.uuid4().hex
        deadline = time.monotonic() + 10
        while True:  # the producer's pool may hold a connection to a Redis that was killed
            try:
                self.app.send_task(
                    "celery.accumulate", args=(1,), countdown=countdown, task_id=task_id
                )
                return task_id
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def wait_ran(self, task_id: str, timeout: float = 20) -> float:
        t0 = time.monotonic()
        while f"celery.accumulate[{task_id}] succeeded" not in self.text():
            assert self.proc.poll() is None, self.text()[-4000:]
            assert time.monotonic() - t0 < timeout, self.text()[-4000:]
            time.sleep(0.05)
        return time.monotonic() - t0

    def stop(self) -> float:
        t0 = time.monotonic()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.app.close()
        return time.monotonic() - t0


@pytest.fixture
def worker(own_redis, tmp_path):
    w = Worker(own_redis, tmp_path)
    yield w
    w.stop()


def test_the_worker_lives_through_redis_restarts_and_runs_the_next_task(own_redis, worker):
    assert " -A okeysite worker -Q celery " in worker.command
    worker.wait_ran(worker.send(), timeout=60)
    for _ in range(2):
        # Tasks with a countdown are held by the worker, unacknowledged (as the game's timers
        # are): the state in which a Redis kill used to end the worker.
        held = [worker.send(countdown=600) for _ in range(3)]
        deadline = time.monotonic() + 10
        while not all(f"[{t}] received" in worker.text() for t in held):
            assert time.monotonic() < deadline, worker.text()[-4000:]
            time.sleep(0.05)
        own_redis.kill()
        time.sleep(0.5)
        own_redis.start()
        worker.wait_ran(worker.send())
    log = worker.text()
    assert "Connection to broker lost" in log and "Restoring 3 unacknowledged" in log
    assert "Unrecoverable error" not in log
    # the same worker process all along: nothing restarted it (wait_ran checks it never exited)
    assert worker.proc.poll() is None and log.count(" ready.") == 1
