"""Health: /healthz/live (no I/O), /healthz/ready (database and Redis: what a load balancer asks)
and /healthz (the deep check, with a Celery worker). A dead worker must never take the web
processes out of a load balancer: only the deep check reports it."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from celery.contrib.testing.worker import start_worker
from django.test import override_settings

from okeysite import health as health_module
from okeysite.celery import app as celery_app

ROOT = Path(__file__).resolve().parent.parent


def health(client, path="/healthz"):
    response = client.get(path)
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"]
    return response.status_code, response.json()


# transaction=True: Celery's Django fix-up closes the thread's database connection when the
# worker starts, which a test wrapped in a transaction would not survive.
@pytest.mark.django_db(transaction=True)
def test_all_ok_with_a_celery_worker_running_and_no_wait_for_the_timeout(client, monkeypatch):
    # a long timeout, so that only a ping that waits it out (as it did) can take that long,
    # however busy the machine
    monkeypatch.setattr(health_module, "PROBE_TIMEOUT", 5.0)
    with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        started = time.monotonic()
        status, body = health(client)
        elapsed = time.monotonic() - started
    assert body == {"database": "ok", "redis": "ok", "celery": "ok", "status": "ok"}
    assert status == 200
    # the first worker's reply ends the ping: a healthy site is not held for the ping's timeout
    assert elapsed < 5.0


@pytest.mark.django_db
def test_no_celery_worker_is_a_503_of_the_deep_check_only(client):
    status, body = health(client)
    assert body == {"database": "ok", "redis": "ok", "celery": "error", "status": "error"}
    assert status == 503
    assert health(client, "/healthz/ready") == (
        200,
        {"database": "ok", "redis": "ok", "status": "ok"},
    )
    assert health(client, "/healthz/live") == (200, {"status": "ok"})


@pytest.mark.django_db
def test_redis_unreachable_is_a_503_of_ready_and_deep_but_live_answers(client, tmp_path):
    with override_settings(REDIS_URL=f"unix://{tmp_path}/no-redis-here.sock"):
        status, body = health(client)
        ready_status, ready = health(client, "/healthz/ready")
        live = health(client, "/healthz/live")
    assert body["redis"] == "error" and body["database"] == "ok"
    assert status == 503
    assert ready == {"database": "ok", "redis": "error", "status": "error"}
    assert ready_status == 503
    assert live == (200, {"status": "ok"})


def test_database_unreachable_is_a_503_but_live_does_no_io(client):
    # Without the django_db mark pytest-django refuses every query, as a dead database would:
    # live answers all the same, since it asks nothing of anyone.
    status, body = health(client)
    assert body["database"] == "error"
    assert status == 503
    ready_status, ready = health(client, "/healthz/ready")
    assert ready["database"] == "error" and ready_status == 503
    assert health(client, "/healthz/live") == (200, {"status": "ok"})


def test_healthz_is_not_under_the_language_prefix(client):
    for path in ("/en/healthz", "/en/healthz/live", "/en/healthz/ready"):
        assert client.get(path).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_killed_worker_fails_the_deep_check_only(client, redis_url, tmp_path):
    """A real worker process, killed with SIGKILL as the OOM killer would: live and ready keep
    answering 200, so a load balancer keeps every web process; the deep check says 503."""
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "DJANGO_SETTINGS_MODULE": "okeysite.settings",
        "OKEY_VAR_DIR": str(tmp_path),
    }
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "okeysite", "worker", "--pool", "solo",
         "-n", f"health-{os.getpid()}@%h", "--loglevel", "WARNING"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while health(client)[0] != 200:
            assert worker.poll() is None, "the worker exited"
            assert time.monotonic() < deadline, "the worker never answered the ping"
            time.sleep(0.2)
        assert health(client, "/healthz/ready")[0] == 200
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait(10)
    assert health(client) == (
        503,
        {"database": "ok", "redis": "ok", "celery": "error", "status": "error"},
    )
    assert health(client, "/healthz/ready") == (
        200,
        {"database": "ok", "redis": "ok", "status": "ok"},
    )
    assert health(client, "/healthz/live") == (200, {"status": "ok"})
