"""Health: /healthz/live (no I/O), /healthz/ready (database and Redis: what a load balancer asks)
and /healthz (the deep check: also a worker for each Celery queue, and beat's heartbeat). A dead
worker must never take the web processes out of a load balancer: only the deep check reports it,
by name, whichever of the queues lost its worker. The ready check answers within a second when
the database does not answer at all."""

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from celery.contrib.testing.worker import start_worker
from django.test import override_settings

from okeysite import health as health_module
from okeysite.beat import HEARTBEAT_KEY, beat_heartbeat_write, heartbeat_client
from okeysite.celery import app as celery_app
from tests.redis_plugin import redis_start
from tests.silent_server import SilentServer

ROOT = Path(__file__).resolve().parent.parent
ALL_OK = {
    "database": "ok", "redis": "ok", "beat": "ok",
    "worker_celery": "ok", "worker_reviews": "ok", "worker_mail": "ok",
    "status": "ok",
}  # fmt: skip
NO_WORKERS = {
    **ALL_OK,
    "worker_celery": "error", "worker_reviews": "error", "worker_mail": "error",
    "status": "error",
}  # fmt: skip


@pytest.fixture
def beat_alive():
    """Beat's heartbeat, as okeysite.beat.HeartbeatScheduler writes it at each tick."""
    client = heartbeat_client()
    beat_heartbeat_write(client)
    yield
    client.delete(HEARTBEAT_KEY)
    client.close()


@pytest.fixture
def beat_gone():
    client = heartbeat_client()
    client.delete(HEARTBEAT_KEY)
    yield
    client.close()


def health(client, path="/healthz"):
    response = client.get(path)
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"]
    return response.status_code, response.json()


# transaction=True: Celery's Django fix-up closes the thread's database connection when the
# worker starts, which a test wrapped in a transaction would not survive.
@pytest.mark.django_db(transaction=True)
def test_all_ok_with_a_celery_worker_running_and_no_wait_for_the_timeout(
    client, monkeypatch, beat_alive
):
    # a long timeout, so that only a ping that waits it out (as it did) can take that long,
    # however busy the machine
    monkeypatch.setattr(health_module, "PROBE_TIMEOUT", 5.0)
    # one worker started without -Q serves every queue (a test's, or make run's own)
    with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        started = time.monotonic()
        status, body = health(client)
        elapsed = time.monotonic() - started
    assert body == ALL_OK
    assert status == 200
    # the answer for every queue ends the wait: a healthy site is not held for the timeout
    assert elapsed < 5.0


@pytest.mark.django_db(transaction=True)
def test_a_stopped_live_play_worker_is_named_though_the_other_workers_answer(
    client, beat_alive, redis_url, tmp_path
):
    """With the live-play worker stopped, the reviews' and the mail's workers answered the old
    check's ping and /healthz stayed 200 while no bot moved. (A worker process of its own: an
    in-process worker given queues would narrow this app's queues for every later test.)"""
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "DJANGO_SETTINGS_MODULE": "okeysite.settings",
        "OKEY_VAR_DIR": str(tmp_path),
    }
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "okeysite", "worker", "--pool", "solo",
         "-Q", "reviews,mail", "-n", f"others-{os.getpid()}@%h", "--loglevel", "WARNING"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while health(client)[1]["worker_reviews"] != "ok":
            assert worker.poll() is None, "the worker exited"
            assert time.monotonic() < deadline, "the worker never answered"
            time.sleep(0.2)
        status, body = health(client)
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(30)
    assert body == {**ALL_OK, "worker_celery": "error", "status": "error"}
    assert status == 503


@pytest.mark.django_db
def test_no_celery_worker_is_a_503_of_the_deep_check_only(client, beat_alive):
    status, body = health(client)
    assert body == NO_WORKERS
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
def test_a_killed_worker_fails_the_deep_check_only(client, redis_url, tmp_path, beat_alive):
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
    assert health(client) == (503, NO_WORKERS)
    assert health(client, "/healthz/ready") == (
        200,
        {"database": "ok", "redis": "ok", "status": "ok"},
    )
    assert health(client, "/healthz/live") == (200, {"status": "ok"})


@pytest.mark.django_db
def test_beat_stopped_is_seen_by_its_heartbeat(client, tmp_path, settings):
    """A real beat (celery beat with the site's scheduler) on a Redis of this test's own: its
    heartbeat makes "beat" ok; killed, the heartbeat grows old and the deep check says so (beat
    once went FATAL under supervisord and nothing noticed)."""
    proc, socket_path = redis_start(tmp_path)
    try:
        settings.REDIS_URL = f"unix://{socket_path}"
        settings.OKEY_BEAT_STALE_SECONDS = 3.0
        assert health(client)[1]["beat"] == "error"  # never ran
        env = {
            **os.environ,
            "REDIS_URL": settings.REDIS_URL,
            "DJANGO_SETTINGS_MODULE": "okeysite.settings",
            "OKEY_VAR_DIR": str(tmp_path),
        }
        beat = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "okeysite", "beat", "--loglevel", "WARNING",
             "-s", str(tmp_path / "schedule")],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 60
            while health(client)[1]["beat"] != "ok":
                assert beat.poll() is None, "beat exited"
                assert time.monotonic() < deadline, "beat never wrote its heartbeat"
                time.sleep(0.2)
        finally:
            beat.send_signal(signal.SIGKILL)
            beat.wait(10)
        time.sleep(3.5)
        status, body = health(client)
        assert body["beat"] == "error" and status == 503
        assert health(client, "/healthz/ready")[0] == 200  # beat is not the web's business
    finally:
        proc.terminate()
        proc.wait(10)


def test_ready_answers_503_within_a_second_when_the_database_never_answers(tmp_path):
    """PostgreSQL paused (SIGSTOP) still accepts connections in the kernel and then says
    nothing; so does this server. A daphne whose database is there: ready
    answered after 8 s and more; now 503 within a second, again and again, and live at once."""
    from tests.browser.conftest import live_server_run

    silent = SilentServer()
    database = {
        "ENGINE": "okeysite.postgresql",
        "NAME": "okey",
        "USER": "okey",
        "HOST": "127.0.0.1",
        "PORT": silent.port,
        "CONN_MAX_AGE": 60,
        "CONN_HEALTH_CHECKS": True,
        "OPTIONS": {"connect_timeout": 5},
    }
    try:
        with live_server_run(tmp_path, DATABASES={"default": database}) as server:
            for _ in range(3):
                started = time.monotonic()
                try:
                    urllib.request.urlopen(server.url + "/healthz/ready", timeout=10)
                    status = 200
                except urllib.error.HTTPError as e:
                    status = e.code
                    body = json.loads(e.read())
                assert status == 503 and body["database"] == "error"
                assert time.monotonic() - started < 1.0
            live = urllib.request.urlopen(server.url + "/healthz/live", timeout=1)
            assert live.status == 200
    finally:
        silent.close()


def test_beat_off_on_this_machine_exits_cleanly_and_writes_no_heartbeat(tmp_path, settings):
    """BEAT=0 on every machine but one (deploy/README.md): its beat exits 0 at once, which
    supervisord leaves be (deploy/programs.conf), and sends nothing."""
    proc, socket_path = redis_start(tmp_path)
    try:
        env = {
            **os.environ,
            "BEAT": "0",
            "REDIS_URL": f"unix://{socket_path}",
            "DJANGO_SETTINGS_MODULE": "okeysite.settings",
            "OKEY_VAR_DIR": str(tmp_path),
        }
        done = subprocess.run(
            [sys.executable, "-m", "celery", "-A", "okeysite", "beat", "-s",
             str(tmp_path / "schedule")],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert done.returncode == 0
        assert "beat is off on this machine (BEAT=0)" in done.stdout + done.stderr
        settings.REDIS_URL = env["REDIS_URL"]
        client = heartbeat_client()
        assert client.get(HEARTBEAT_KEY) is None and client.llen("celery") == 0
        client.close()
    finally:
        proc.terminate()
        proc.wait(10)
