"""okeysite.postgresql: a persistent connection is tried (SELECT 1) only after it sat idle, and a
dead one is replaced either way, at most one statement later."""

import psycopg
import pytest
from django.db import OperationalError, close_old_connections, connection

from okeysite.postgresql import base
from tests.games.table.test_concurrency import pytestmark as concurrency_marks

pytestmark = concurrency_marks  # PostgreSQL, real transactions


@pytest.fixture(autouse=True)
def persistent(monkeypatch):
    """Kept connections, as the site keeps them (the test session keeps none: tests/conftest.py)."""
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)


@pytest.fixture
def tries(monkeypatch):
    """How many times the health check asked the server."""
    count = []
    real = base.DatabaseWrapper.is_usable

    def counted(self):
        count.append(1)
        return real(self)

    monkeypatch.setattr(base.DatabaseWrapper, "is_usable", counted)
    return count


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def backend_kill(pid: int) -> None:
    """End the server side of a connection, as a restart or an idle timeout would."""
    db = connection.settings_dict
    with psycopg.connect(
        dbname=db["NAME"], host=db["HOST"] or None, port=db["PORT"] or None,
        user=db["USER"] or None, password=db["PASSWORD"] or None, autocommit=True,
    ) as other:  # fmt: skip
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


def test_a_connection_that_has_just_answered_is_not_tried_again(tries):
    backend_pid()
    for _ in range(3):  # as a database thread does for each move: close_old_connections, query
        close_old_connections()
        backend_pid()
    assert tries == []


def test_an_idle_connection_is_tried_and_replaced_when_dead(tries):
    pid = backend_pid()
    backend_kill(pid)
    connection._answered_at -= base.HEALTH_CHECK_AFTER_IDLE + 1  # idle for longer than that
    close_old_connections()
    assert backend_pid() != pid  # the statement ran, on a new connection
    assert len(tries) == 1


def test_a_connection_that_dies_right_after_answering_fails_once_then_is_replaced(tries):
    pid = backend_pid()
    backend_kill(pid)
    close_old_connections()
    with pytest.raises(OperationalError):
        backend_pid()
    close_old_connections()  # Django tries a connection that raised, and drops a dead one
    assert backend_pid() != pid
