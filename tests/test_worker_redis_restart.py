"""The Celery worker lives through a kill -9 and restart of Redis, and bin/supervise brings it
back from any other death, as `make run` and production run it (Procfile.dev, Procfile).

A Redis of its own for these tests (the session's private Redis, or the shared one, must never
be killed): a redis-server on a free port in 8600-8649 without persistence, so a kill loses all
it held, as in bench/faults.py. The worker is started exactly as Procfile.dev's `worker` line says,
in a subprocess, and what it ran is read from its log. Before the fix (okeysite/broker.py) the
worker exited with "Unrecoverable error" after nearly every Redis kill.
"""

import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from celery import Celery

from tests.redis_plugin import redis_binary

ROOT = Path(__file__).resolve().parent.parent
SUPERVISE = [sys.executable, str(ROOT / "bin" / "supervise")]

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


def procfile_dev(name: str) -> str:
    for line in (ROOT / "Procfile.dev").read_text().splitlines():
        if line.startswith(f"{name}:"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(f"no {name} in Procfile.dev")


class Worker:
    """Procfile.dev's worker line (bin/supervise and the Celery worker) on ``own_redis``."""

    def __init__(self, redis: Redis, directory: Path):
        self.log = directory / "worker.log"
        url = f"redis://127.0.0.1:{redis.port}/0"
        env = dict(os.environ, REDIS_URL=url, OKEY_VAR_DIR=str(directory), PYTHONUNBUFFERED="1")
        env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
        # The settings' own mapping of REDIS_URL, so the test sends through the same transport.
        self.app = Celery("probe", broker=f"okeyredis://127.0.0.1:{redis.port}/0")
        self.app.conf.broker_connection_retry_on_startup = True
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                ["bash", "-c", procfile_dev("worker")], cwd=ROOT, env=env,
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

    def celery_pid(self) -> int:
        """The pid of the Celery worker's main process (bin/supervise's child)."""
        out = subprocess.run(
            ["pgrep", "-P", str(self.proc.pid)], capture_output=True, text=True
        ).stdout.split()
        assert len(out) == 1, out
        return int(out[0])

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


@pytest.mark.skipif(not shutil.which("pgrep"), reason="needs pgrep")
def test_the_worker_lives_through_redis_restarts_and_runs_the_next_task(own_redis, worker):
    assert procfile_dev("worker").startswith("exec bin/supervise -- celery -A okeysite worker")
    worker.wait_ran(worker.send(), timeout=60)
    celery_pid = worker.celery_pid()
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
    # the same worker process all along: bin/supervise had nothing to do
    assert "supervise:" not in log and worker.celery_pid() == celery_pid


@pytest.mark.skipif(not shutil.which("pgrep"), reason="needs pgrep")
def test_supervise_restarts_a_killed_worker_and_stops_it_on_sigterm(own_redis, worker):
    worker.wait_ran(worker.send(), timeout=60)
    first = worker.celery_pid()
    os.kill(first, signal.SIGKILL)  # any death bin/supervise is the net for
    # Sent once the new worker is up: a task sent at the moment of the kill can be popped by
    # Redis for the dead worker's BRPOP and lost with it (the sweep's job in the site).
    deadline = time.monotonic() + 60
    while worker.text().count(" ready.") < 2:
        assert worker.proc.poll() is None and time.monotonic() < deadline, worker.text()[-4000:]
        time.sleep(0.05)
    worker.wait_ran(worker.send())
    second = worker.celery_pid()
    assert second != first
    assert "exited (signal 9)" in worker.text() and "restart #1 in 1 s" in worker.text()
    took = worker.stop()
    assert worker.proc.returncode == 0 and took < 10
    with pytest.raises(ProcessLookupError):
        os.kill(second, 0)


def supervise(*args, **kwargs) -> subprocess.Popen:
    return subprocess.Popen(
        [*SUPERVISE, *args], stderr=subprocess.PIPE, text=True, start_new_session=True, **kwargs
    )


def test_supervise_backs_off_and_a_stop_during_the_delay_exits_at_once(tmp_path):
    marker = tmp_path / "runs"
    p = supervise(
        "--min-delay", "0.2", "--max-delay", "0.4", "--",
        "sh", "-c", f"echo x >> {marker}; exit 3",
    )  # fmt: skip
    time.sleep(1.5)
    t0 = time.monotonic()
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=5)
    assert time.monotonic() - t0 < 1
    delays = [line.rsplit(" in ", 1)[1] for line in err.splitlines() if "exited (status 3)" in line]
    assert delays[:3] == ["0.2 s", "0.4 s", "0.4 s"]  # doubled, up to --max-delay
    assert len(marker.read_text().split()) == len(delays)
    assert p.returncode == 3  # the last run's status: nothing was running to stop


def test_supervise_passes_a_stop_signal_on_once_and_exits_with_it(tmp_path):
    # The child counts the SIGINTs it gets and exits 0 on SIGTERM; it is in its own process
    # group, so a Ctrl-C to the supervisor's group reaches it once, through bin/supervise.
    script = (
        "import signal, sys, time\n"
        "n = 0\n"
        "def count(*_):\n"
        "    global n; n += 1\n"
        "signal.signal(signal.SIGINT, count)\n"
        "signal.signal(signal.SIGTERM, lambda *_: sys.exit(n))\n"
        "print('ready', flush=True)\n"
        "while True: time.sleep(0.05)\n"
    )
    p = supervise("--", sys.executable, "-c", script, stdout=subprocess.PIPE)
    assert p.stdout.readline().strip() == "ready"
    os.killpg(p.pid, signal.SIGINT)  # as a terminal's Ctrl-C or honcho would
    time.sleep(0.3)
    assert p.poll() is None  # the child chose not to stop on SIGINT: nothing is restarted
    p.send_signal(signal.SIGTERM)
    p.wait(timeout=5)
    assert p.returncode == 1  # the child's status: it saw exactly one SIGINT
    assert "restart" not in p.stderr.read()
