"""With DEBUG=0 the logs are JSON, one object a line, carrying the request's or the socket's id;
a refused move is an ordinary event, not a traceback."""

import asyncio
import json
import logging
import sys
from datetime import UTC, datetime, timedelta

import pytest
from asgiref.testing import ApplicationCommunicator

from games.timers.tasks import deadline_due_task
from okeysite.asgi import application  # at import: django.setup() configures the logging
from okeysite.logcontext import ContextFilter
from tests.games.helpers import version_of
from tests.test_settings import production_env, run

LOG_A_LINE = """
import django, logging
django.setup()
from okeysite.logcontext import request_id_set
request_id_set("req-abc123")
logging.getLogger("games.test").info("move refused", extra={"code": "stale", "table": 7})
"""


def test_production_logs_are_one_json_object_a_line_with_the_request_id(tmp_path):
    proc = run([sys.executable, "-c", LOG_A_LINE], production_env(LOG_LEVEL="INFO"), tmp_path)
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stdout.splitlines() if line.strip()]  # stdout: supervisord's
    record = json.loads(lines[-1])
    assert record["message"] == "move refused" and record["level"] == "INFO"
    assert record["request_id"] == "req-abc123"
    assert record["code"] == "stale" and record["table"] == 7
    assert record["logger"] == "games.test"
    # UTC with its offset, as supervisord, nginx and journald write times: lines can be lined up
    when = datetime.fromisoformat(record["time"])
    assert when.utcoffset() == timedelta(0) and record["time"].endswith("+00:00")
    assert abs((datetime.now(UTC) - when).total_seconds()) < 120


@pytest.mark.django_db(transaction=True)
def test_each_request_has_an_id_in_its_answer_and_its_logs(caplog):
    caplog.set_level(logging.INFO)
    caplog.handler.addFilter(ContextFilter())  # as settings.LOGGING's console handler has it
    scope = {
        "type": "http", "method": "GET", "path": "/no-such-page/", "raw_path": b"",
        "query_string": b"", "scheme": "http", "http_version": "1.1", "asgi": {"version": "3.0"},
        "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000),
        "headers": [(b"host", b"127.0.0.1")],
    }  # fmt: skip

    async def exchange():
        comm = ApplicationCommunicator(application, scope)
        await comm.send_input({"type": "http.request", "body": b""})
        start = await comm.receive_output(20)
        await comm.receive_output(20)
        await comm.wait(20)
        return start

    start = asyncio.run(exchange())
    assert start["status"] == 404
    rid = dict(start["headers"])[b"x-request-id"].decode()
    assert len(rid) >= 8
    not_found = [r for r in caplog.records if r.getMessage().startswith("Not Found")]
    assert not_found and not_found[0].request_id == rid
    # one access line, with the client's address and the same id
    access = [r for r in caplog.records if r.name == "okey.access"]
    assert len(access) == 1 and access[0].request_id == rid
    assert (access[0].method, access[0].path, access[0].status) == ("GET", "/no-such-page/", 404)
    assert access[0].client == "127.0.0.1"


@pytest.mark.django_db(transaction=True)
def test_the_access_line_names_the_client_behind_the_proxy_and_health_checks_write_none(
    caplog, settings
):
    """daphne's own access lines were plain text naming nginx's address; the site's name the
    client the proxies saw (PROXY_COUNT), and a health check or a scrape that went well writes
    nothing."""
    settings.OKEY_PROXY_COUNT = 1
    caplog.set_level(logging.INFO)

    async def get(path):
        scope = {
            "type": "http", "method": "GET", "path": path, "raw_path": b"",
            "query_string": b"", "scheme": "http", "http_version": "1.1",
            "asgi": {"version": "3.0"}, "client": ("127.0.0.1", 5000),
            "server": ("127.0.0.1", 8000),
            "headers": [(b"host", b"127.0.0.1"), (b"x-forwarded-for", b"10.9.8.7, 203.0.113.5")],
        }  # fmt: skip
        comm = ApplicationCommunicator(application, scope)
        await comm.send_input({"type": "http.request", "body": b""})
        start = await comm.receive_output(20)
        await comm.receive_output(20)
        await comm.wait(20)
        return start["status"]

    assert asyncio.run(get("/rules/")) == 200
    assert asyncio.run(get("/healthz/live")) == 200
    access = [r for r in caplog.records if r.name == "okey.access"]
    assert [(r.path, r.status, r.client) for r in access] == [("/rules/", 200, "203.0.113.5")]


def test_a_task_that_went_well_writes_no_line_in_production_and_a_retry_does():
    from okeysite.logfilters import TaskQuiet

    def record(message):
        return logging.LogRecord("celery.app.trace", logging.INFO, "", 0, message, (), None)

    quiet = TaskQuiet()
    assert not quiet.filter(record("Task games.tasks.deadline_due_task[ab-12] received"))
    assert not quiet.filter(
        record("Task games.tasks.deadline_due_task[ab-12] succeeded in 0.01s: True")
    )
    assert quiet.filter(
        record("Task accounts.tasks.email_send_task[cd-34] retry: Retry in 2s: TimeoutError")
    )


@pytest.mark.django_db
def test_a_refused_move_is_logged_as_an_event_without_a_traceback(client, playing, users, caplog):
    caplog.set_level(logging.INFO)
    client.force_login(users[0])
    client.post(f"/table/{playing.pk}/move/", {"kind": "draw", "version": 1})
    refused = [r for r in caplog.records if r.getMessage() == "move refused"]
    assert refused and refused[0].levelno == logging.INFO
    assert refused[0].code == "stale" and refused[0].exc_info is None


def test_the_json_formatter_is_only_for_production(tmp_path):
    dump = (
        "import django, json; django.setup(); from django.conf import settings; "
        "print(json.dumps(settings.LOGGING['handlers']['console'].get('formatter')))"
    )
    debug = run([sys.executable, "-c", dump], {}, tmp_path)
    prod = run([sys.executable, "-c", dump], production_env(), tmp_path)
    assert json.loads(debug.stdout) is None and json.loads(prod.stdout) == "json"


@pytest.mark.django_db
def test_a_task_for_a_table_that_moved_on_is_one_log_line(playing, caplog, celery_eager):
    caplog.set_level(logging.INFO)
    version = version_of(playing)
    assert deadline_due_task.apply(args=("turn", playing.pk, version - 1)).get() is False
    lines = [r for r in caplog.records if r.getMessage() == "deadline task did nothing"]
    assert len(lines) == 1 and lines[0].levelno == logging.INFO and lines[0].exc_info is None
    assert lines[0].why == "moved_on" and lines[0].table == playing.pk
    assert not any(r.levelno >= logging.ERROR for r in caplog.records)
