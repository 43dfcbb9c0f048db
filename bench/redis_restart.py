"""Does the Celery worker (and beat) live through a kill -9 and restart of Redis?

    .venv/bin/python bench/redis_restart.py                 # 10 cycles, the site's transport
    .venv/bin/python bench/redis_restart.py --stock         # kombu's own Redis transport (before)
    .venv/bin/python bench/redis_restart.py --cycles 20 --redis-port 8602

bench/faults.py found the worker exiting after 16 of 17 Redis kills (okeysite/broker.py says
why). This measures that one fault alone and quickly: a private redis-server on --redis-port
(never the shared 6379; no persistence), a Celery worker and beat started without supervisord
(so that a death is seen, not repaired), on a fresh SQLite database under
var/load/redis-restart/. Each cycle: the worker is given tasks with a countdown (it holds them
unacknowledged, as it holds the game's timers), Redis is killed with SIGKILL, stays down
--down seconds (uniform), and is started again; then a task is sent, and the cycle records
whether the worker and beat are still alive and how long that task took to run. A process that
died is started again for the next cycle. --stock runs the worker on kombu's own transport
(redis:// instead of okeyredis://), the behaviour before the fix.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = ROOT / ".venv" / "bin"
WORKER = ["celery", "-A", "okeysite", "worker", "--loglevel", "INFO", "--concurrency", "2"]
BEAT = ["celery", "-A", "okeysite", "beat", "--loglevel", "INFO"]
# The same worker on kombu's own transport: the URL is set after the settings are read.
STOCK_WORKER = [
    "python", "-c",
    "import os, sys; from okeysite.celery import app; "
    "app.conf.broker_url = os.environ['STOCK_BROKER_URL']; app.worker_main(sys.argv[1:])",
    *WORKER[3:],
]  # fmt: skip


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--cycles", type=int, default=10)
    p.add_argument("--redis-port", type=int, default=8602)
    p.add_argument("--down", type=float, nargs=2, default=(0.2, 2.0))
    p.add_argument("--held", type=int, default=3, help="countdown tasks the worker holds")
    p.add_argument("--wait", type=float, default=20.0, help="seconds for the task after restart")
    p.add_argument("--stock", action="store_true", help="kombu's own Redis transport")
    p.add_argument("--seed", type=int, default=1)
    return p.parse_args(argv)


class Redis:
    def __init__(self, port: int, directory: Path):
        self.port, self.dir, self.proc = port, directory, None
        self.binary = (
            shutil.which("redis-server")
            or subprocess.check_output(["bin/ensure-redis"], cwd=ROOT, text=True).strip()
        )

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.dir), "--logfile", str(self.dir / "redis.log")],
            stdin=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        import redis

        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis(port=self.port, socket_timeout=1).ping()
                return
            except redis.RedisError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)


class Proc:
    """One site process in its own session, its output in a log file."""

    def __init__(self, name: str, argv: list[str], env: dict, directory: Path):
        self.name, self.argv, self.env, self.log = name, argv, env, directory / f"{name}.log"
        self.proc = None

    def start(self) -> None:
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                self.argv, cwd=ROOT, env=self.env, stdin=subprocess.DEVNULL, stdout=out,
                stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        if self.alive():
            os.killpg(self.proc.pid, signal.SIGTERM)  # the session this harness started
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


def send(app, countdown=None) -> str:
    task_id = uuid.uuid4().hex
    deadline = time.monotonic() + 10
    while True:  # the producer's pool may still hold a connection to the killed Redis
        try:
            app.send_task("celery.accumulate", args=(1,), countdown=countdown, task_id=task_id)
            return task_id
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def ran(worker: Proc, task_id: str) -> bool:
    return f"celery.accumulate[{task_id}] succeeded" in worker.text()


def main(argv=None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # still stop what we started
    rng = random.Random(args.seed)
    directory = ROOT / "var" / "load" / "redis-restart"
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    broker = f"redis://127.0.0.1:{args.redis_port}/0"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CACHE_URL")}
    env.update(
        REDIS_URL=broker, STOCK_BROKER_URL=broker, OKEY_VAR_DIR=str(directory),
        DJANGO_SETTINGS_MODULE="okeysite.settings", PYTHONUNBUFFERED="1",
        PATH=f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}",
    )  # fmt: skip
    os.environ.update(env)
    subprocess.run(
        [VENV_BIN / "python", "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT, env=env, check=True,
    )  # fmt: skip
    sys.path.insert(0, str(ROOT))
    from okeysite.celery import app

    redis = Redis(args.redis_port, directory)
    worker = Proc("worker", STOCK_WORKER if args.stock else WORKER, env, directory)
    beat = Proc("beat", BEAT, env, directory)
    transport = "kombu's redis (stock)" if args.stock else "okeyredis (okeysite/broker.py)"
    print(f"transport: {transport}; logs in {directory}", flush=True)
    rows = []
    redis.start()
    try:
        worker.start()
        beat.start()
        first = send(app)
        deadline = time.monotonic() + 60
        while not ran(worker, first):
            if time.monotonic() > deadline or not worker.alive():
                raise SystemExit("the worker did not start:\n" + worker.text()[-3000:])
            time.sleep(0.2)
        for n in range(1, args.cycles + 1):
            for _ in range(args.held):
                send(app, countdown=600)
            time.sleep(1.0)  # received: now held by the worker, unacknowledged
            redis.kill()
            down = rng.uniform(*args.down)
            time.sleep(down)
            redis.start()
            t0 = time.monotonic()
            task_id = send(app)
            took = None
            while time.monotonic() - t0 < args.wait:
                if ran(worker, task_id):
                    took = time.monotonic() - t0
                    break
                if not worker.alive():
                    break
                time.sleep(0.1)
            time.sleep(0.5)  # beat's next sweep is due within a few seconds: give it a moment
            row = {"n": n, "down": down, "worker_died": not worker.alive(),
                   "beat_died": not beat.alive(), "task_s": took}  # fmt: skip
            rows.append(row)
            print(
                f"#{n:2d} redis down {down:4.2f} s  worker "
                f"{'DIED' if row['worker_died'] else 'alive'}  beat "
                f"{'DIED' if row['beat_died'] else 'alive'}  task after restart "
                f"{'not run' if took is None else f'ran in {took:.1f} s'}",
                flush=True,
            )
            for proc in (worker, beat):
                if not proc.alive():
                    proc.start()
            if row["worker_died"]:
                again = send(app)
                deadline = time.monotonic() + 60
                while not ran(worker, again) and time.monotonic() < deadline:
                    time.sleep(0.2)
    finally:
        worker.stop()
        beat.stop()
        redis.stop()
    deaths = sum(r["worker_died"] for r in rows)
    beat_deaths = sum(r["beat_died"] for r in rows)
    times = [r["task_s"] for r in rows if r["task_s"] is not None]
    print(
        f"{transport}: worker died in {deaths} of {len(rows)} Redis kills, beat in "
        f"{beat_deaths}; a task sent after the restart ran in {len(times)} of {len(rows)}"
        + (f" (max {max(times):.1f} s)" if times else ""),
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
