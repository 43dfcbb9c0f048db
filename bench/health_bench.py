"""How fast the health checks answer a load balancer, with the Celery worker up and killed.

    nice .venv/bin/python bench/health_bench.py                    # 2,000 requests each, ~1 min
    nice .venv/bin/python bench/health_bench.py --requests 500 --port 8551

It starts one daphne (deploy/programs.conf's web, DEBUG=0, on --port, default 8550) and the Celery
workers and beat on their own PostgreSQL database (okey_load_health, recreated) and Redis (--redis-url),
waits for /healthz (the deep check) to answer 200, then asks /healthz/live and /healthz/ready
--requests times each, one after another, each on a new connection as a load balancer's checker
does, and the deep /healthz --deep times. Then it kills the worker with SIGKILL, as the OOM killer
would, and asks the same again. It prints, for each endpoint in each phase, the statuses seen and
p50, p99 and the maximum in ms, and a verdict: live and ready always 200 with p99 under 50 ms,
the deep check 200 with the worker and 503 without. Exit status 1 when the verdict fails.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.loadlib import procs  # noqa: E402

TARGET_P99_MS = 50.0


def ask(port: int, path: str) -> tuple[int, float]:
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        status = response.status
    finally:
        conn.close()
    return status, (time.perf_counter() - started) * 1000


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(port: int, path: str, n: int) -> dict:
    statuses: Counter = Counter()
    times = []
    for _ in range(n):
        status, ms = ask(port, path)
        statuses[status] += 1
        times.append(ms)
    return {
        "requests": n,
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "p50_ms": round(percentile(times, 0.50), 2),
        "p99_ms": round(percentile(times, 0.99), 2),
        "max_ms": round(max(times), 2),
    }


def phase(port: int, requests: int, deep: int) -> dict:
    return {
        "/healthz/live": measure(port, "/healthz/live", requests),
        "/healthz/ready": measure(port, "/healthz/ready", requests),
        "/healthz": measure(port, "/healthz", deep),
    }


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--requests", type=int, default=2000)
    p.add_argument("--deep", type=int, default=20, help="requests to the deep /healthz")
    p.add_argument("--port", type=int, default=8550)
    p.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/okey_load_health")
    p.add_argument("--redis-url", default=procs.DEFAULT_REDIS_URL)
    args = p.parse_args(argv)

    env = procs.site_env(args.database_url, args.redis_url)
    procs.db_recreate(args.database_url)
    stack = procs.Stack(env=dict(env), log_dir=procs.ROOT / "var" / "load" / "health-logs")
    result = {}
    try:
        stack.prepare()
        stack.proc_start("web", port=args.port)
        worker = stack.proc_start("worker")
        for role in ("reviews", "mail", "beat"):  # the deep check asks every queue and beat
            stack.proc_start(role)
        procs.http_wait(f"http://127.0.0.1:{args.port}/healthz", timeout=120)  # the workers too
        measure(args.port, "/healthz/ready", 50)  # warm up: the first requests import and connect
        result["worker_up"] = phase(args.port, args.requests, args.deep)
        worker.send_signal(signal.SIGKILL)
        worker.wait(10)
        time.sleep(1)
        result["worker_killed"] = phase(args.port, args.requests, args.deep)
    finally:
        stack.stop()
    result["loadavg"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(result, indent=1))

    ok = True
    for name, figures in result.items():
        if name == "loadavg":
            continue
        for path in ("/healthz/live", "/healthz/ready"):
            fig = figures[path]
            ok &= fig["statuses"] == {"200": fig["requests"]} and fig["p99_ms"] < TARGET_P99_MS
    ok &= set(result["worker_up"]["/healthz"]["statuses"]) == {"200"}
    ok &= set(result["worker_killed"]["/healthz"]["statuses"]) == {"503"}
    print(
        "verdict:",
        "live and ready 200 under 50 ms at p99, worker up or killed" if ok else "FAILED",
    )
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
